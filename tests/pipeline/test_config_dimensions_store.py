"""Request configuration as dimensions on a store built from the demo's simulated traffic:
``rates --by thinking,tools.strict`` and ``diagnose`` against a real DuckDB file.

The store is what ``leakline demo`` stores (3000 events, seed 7), written the way a worker
writes it (``process_batch`` -> ``ParquetSink`` -> ``init_store``) without a broker.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest
from leakline_testkit import leakline

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.simulate.traffic_model import simulate
from leakline.pipeline.store.database import init_store, read_only
from leakline.pipeline.store.sink import ParquetSink


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("dims") / "data"
    init_store(data_dir)
    events = simulate(3000, seed=7, start=datetime(2026, 11, 1, tzinfo=UTC))
    records = [
        RawRecord(
            s.event["event_id"].encode(), orjson.dumps(s.event), Origin("gateway.events", 0, i)
        )
        for i, s in enumerate(events)
    ]
    result = process_batch(
        records,
        worker_id="dims",
        clean_text_rate=0.2,
        max_event_bytes=4 << 20,
        now=datetime(2026, 11, 2, tzinfo=UTC),
    )
    ParquetSink(data_dir).write(result.rows.table())
    init_store(data_dir)
    return data_dir


def _rates(store: Path, *args: str) -> list[dict]:
    done = leakline("rates", "--data-dir", str(store), *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_rates_by_thinking_and_tools_strict(store: Path) -> None:
    rows = _rates(store, "--by", "thinking,tools.strict")
    groups = {(r["thinking"], r["tools.strict"]) for r in rows}
    assert {t for t, _ in groups} >= {"on", "off", "default"}
    assert {s for _, s in groups} >= {"all", "some", "none", "no_tools"}
    assert sum(r["total"] for r in rows) == 3000


def test_strict_tools_have_full_schema_accuracy(store: Path) -> None:
    """K2VV schema accuracy (schema-valid calls over tool-call finishes) per tools.strict:
    strict tools are held to their schemas, the others are not."""
    with read_only(store) as con:
        got = dict(
            con.execute(
                "SELECT tools_strict, avg(CASE WHEN tool_calls_schema_valid THEN 1.0 ELSE 0.0 END)"
                " FROM samples WHERE tool_call_finish GROUP BY 1"
            ).fetchall()
        )
    assert got["all"] == 1.0
    assert got["none"] < 0.97
    rows = {r["tools.strict"]: r for r in _rates(store, "--by", "tools.strict")}
    assert rows["all"]["tool_args_invalid"] == 0
    assert rows["none"]["tool_args_invalid"] > 0


def test_thinking_on_with_a_grammar_puts_reasoning_into_fields(store: Path) -> None:
    rows = {
        r["thinking"]: r
        for r in _rates(store, "--by", "thinking", "--where", "response_format=json_schema")
    }
    assert rows["on"]["reasoning_leak_rate"] > rows["off"]["reasoning_leak_rate"]
    with read_only(store) as con:
        slots = con.execute(
            "SELECT reasoning_slots FROM samples WHERE reasoning_slots IS NOT NULL LIMIT 5"
        ).fetchall()
    assert slots and all("/user_goal" in json.loads(s) for (s,) in slots)


def test_diagnose_names_thinking_with_a_grammar(store: Path) -> None:
    done = leakline("diagnose", "--data-dir", str(store), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "thinking on with a grammar" in done.stdout


def test_compare_strict_with_non_strict(store: Path) -> None:
    done = leakline(
        "compare",
        "tools.strict=none",
        "tools.strict=all",
        "--data-dir",
        str(store),
        "--format",
        "json",
    )
    assert done.returncode == 0, done.stderr
    assert "tool_args_invalid" in done.stdout
