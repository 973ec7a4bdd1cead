"""Operator dimensions in the store: ``tags`` (redacted JSON), token counts and latency as
columns; ``--by tags.KEY`` and ``--where tags.KEY=...`` in rates, compare and the filters."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from leakline_testkit import leakline, verdict

from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.query.filters import Where, field_column, parse_pair
from leakline.pipeline.store.database import init_store, query_rates, read_only
from leakline.pipeline.store.sink import ParquetSink

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _event(i: int, tenant: str | None) -> dict:
    event = {
        "event_id": f"e-{i}",
        "ts": "2026-12-01T11:00:00Z",
        "api": "chat.completions",
        "request": {"messages": [{"role": "user", "content": "hi"}]},
        "response": {"choices": [{"message": {"content": f"answer {i}"}}]},
        "usage": {"prompt_tokens": 10 + i, "completion_tokens": 5},
        "latency_ms": 100.5,
    }
    if tenant is not None:
        event["tags"] = {"tenant": tenant, "contact": "ops@example.com"}
    return event


@pytest.fixture
def store(tmp_path: Path) -> Path:
    init_store(tmp_path)
    rows = RowBuilder("t", clean_text_rate=1.0)
    specs = [("acme", ["preamble"])] * 3 + [("acme", [])] + [("globex", [])] * 4 + [(None, [])]
    for i, (tenant, labels) in enumerate(specs):
        event = _event(i, tenant)
        rows.add(
            event,
            normalise(event),
            verdict(event["event_id"], labels),
            Origin("gateway.events", 0, i),
            NOW,
        )
    ParquetSink(tmp_path).write(rows.table())
    init_store(tmp_path)
    return tmp_path


def test_columns_and_redaction(store: Path) -> None:
    with read_only(store) as con:
        tags, prompt, completion, latency, event_json = con.execute(
            "select tags, prompt_tokens, completion_tokens, latency_ms, event_json from samples where event_id = 'e-0'"
        ).fetchone()
    assert '"tenant":"acme"' in tags
    assert "ops@example.com" not in tags and "ops@example.com" not in event_json
    assert (prompt, completion, latency) == (10, 5, 100.5)


def test_rates_by_and_where_a_tag(store: Path) -> None:
    with read_only(store) as con:
        rows = {
            r["tags.tenant"]: (r["total"], r["leaking"]) for r in query_rates(con, ["tags.tenant"])
        }
        assert rows == {"acme": (4, 3), "globex": (4, 0), "unknown": (1, 0)}
        where = Where((parse_pair("tags.tenant=acme"),))
        (only,) = query_rates(con, [], where)
        assert only["total"] == 4


def test_tag_fields_are_checked() -> None:
    assert field_column("tags.tenant") is not None
    for bad in ("tags.", "tags.a b", "tags.x'); drop table samples; --", "tenant"):
        assert field_column(bad) is None
        with pytest.raises(LeaklineError) as caught:
            parse_pair(f"{bad}=x")
        assert "tags.KEY" in str(caught.value.hint)
    assert Where((("tags.tenant", "acme"),)).matches({"tags": {"tenant": "acme"}})
    assert not Where((("tags.tenant", "acme"),)).matches({"tags": {}})


def test_cli_rates_and_compare_by_tag(store: Path) -> None:
    done = leakline("rates", "--data-dir", str(store), "--by", "tags.tenant", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "globex" in done.stdout
    done = leakline(
        "compare",
        "tags.tenant=acme",
        "tags.tenant=globex",
        "--data-dir",
        str(store),
        "--format",
        "json",
    )
    assert done.returncode == 0, done.stderr
