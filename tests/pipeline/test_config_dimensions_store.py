"""Request configuration as dimensions on a store built from the demo's simulated traffic:
``rates --by thinking,tools.strict`` and ``diagnose`` against a real DuckDB file.

The store is what ``leakline demo`` stores (3000 events, seed 7), written the way a worker
writes it (``process_batch`` -> ``ParquetSink`` -> ``init_store``) without a broker.
"""

from __future__ import annotations

import json
import re
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


def _counts(value: object, key: str = "") -> list[tuple[str, object]]:
    """Every (key, value) of the diagnosis JSON whose key names a count of events."""
    count_keys = {"n", "k", "total", "leaking", "events", "pairs", "disagree"}
    count_keys |= {"only_exposed", "only_control", "reasoning_leaks", "with_delimiter"}
    count_keys |= {"untagged", "in_structured_fields", "lone_end_tags", "boundary_leaks"}
    if isinstance(value, dict):
        return [kv for k, v in value.items() for kv in _counts(v, k)]
    if isinstance(value, list):
        return [kv for v in value for kv in _counts(v, key)]
    return [(key, value)] if key in count_keys else []


def test_every_diagnose_breakdown_sums_to_its_total(store: Path) -> None:
    """Property over every slice of the demo store: each breakdown diagnose prints accounts
    for all of its total, and every count is an integer (in JSON and in the text)."""
    from leakline.pipeline.curation.diagnose import diagnose_store, render_table

    with read_only(store) as con:
        diagnoses = diagnose_store(con)
    assert len(diagnoses) > 3
    for d in diagnoses:
        st = d.to_dict()["steps"]
        b = st["boundary_tokens"]
        assert b["reasoning_leaks"] == st["collect"]["labels"].get("reasoning_leak", 0)
        parts = b["with_delimiter"] + b["in_structured_fields"] + b["untagged"]
        assert parts == b["reasoning_leaks"], (d.model_name, b)
        sm, stop = st["streaming"], st["stop"]
        assert sm["stream"]["n"] + sm["non_stream"]["n"] == d.total
        assert sum(c["n"] for c in stop["cells"].values()) == d.total
        boundary = sm["stream"]["k"] + sm["non_stream"]["k"]
        assert sum(c["k"] for c in stop["cells"].values()) == boundary
        combos = st["parsers"]["combinations"]
        assert sum(c["events"] for c in combos) == d.total
        assert sum(c["boundary_leaks"] for c in combos) == boundary
        client = st["client"]
        shown = sum(f["events"] for f in client["field_pairs"])
        assert shown == client["reasoning_field_mismatch"]
        for key, value in _counts(d.to_dict()):
            assert type(value) is int, (key, value)
    assert any(d.steps["boundary_tokens"]["in_structured_fields"] for d in diagnoses)
    text = render_table(diagnoses)
    # a count of events is never printed as a float ("1764.0 of 2880")
    assert not re.search(r"\d\.\d+ of \d", text), text
    assert not re.search(r"excess \d+\.\d", text), text
    for line in text.splitlines():
        found = re.search(r"(\d+) reasoning leaks: (\d+) with a delimiter \(\S+\), (\d+) in ", line)
        if found:
            total, *rest = (int(x) for x in found.groups())
            untagged = int(re.search(r"(\d+) untagged", line).group(1))  # type: ignore[union-attr]
            assert total == sum(rest) + untagged, line
