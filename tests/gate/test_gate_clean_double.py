"""engine-sim's ``good`` profile is clean through the whole loop (issue 32, defect 14):
store -> ``export --regression`` -> ``gate`` -> ``diagnose --include-gate``.

In-schema chain of thought puts its reasoning slots before the answer properties, and an
engine writes properties in schema order. The store and the case files used to sort every
object's keys, so a replayed ``COT_SCHEMA`` declared ``action`` before ``user_goal``;
engine-sim followed that order, and the good profile was diagnosed as
``reasoning_slot_order``. The recorded order must survive into the replayed request.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest
from test_gate import gate
from test_gate_turns import _diagnose

from leakline.pipeline.curation.export import ExportFilter, ExportOptions, run_export
from leakline.pipeline.curation.regression import case_paths
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.gate.cases import load_cases
from leakline.pipeline.simulate.scenarios import COT_SCHEMA
from leakline.pipeline.simulate.traffic_model import simulate
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.sink import ParquetSink

SLOTS_FIRST = list(COT_SCHEMA["properties"])  # user_goal, evidence, action, params


def _schema_order(request: dict[str, Any]) -> list[str] | None:
    """The property names of the request's structured-output schema, in order."""
    fmt = request.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema")
    return list(schema["properties"]) if isinstance(schema, dict) else None


def _store(data_dir: Path, events: list[dict[str, Any]]) -> None:
    """The worker's batch function and sink, without Kafka."""
    init_store(data_dir)
    records = [
        RawRecord(e["event_id"].encode(), orjson.dumps(e), Origin("gateway.events", 0, i))
        for i, e in enumerate(events)
    ]
    result = process_batch(
        records,
        worker_id="test",
        clean_text_rate=1.0,
        max_event_bytes=4 << 20,
        now=datetime(2026, 11, 3, tzinfo=UTC),
    )
    assert not result.dead_letters
    ParquetSink(data_dir).write(result.rows.table())
    init_store(data_dir)


@pytest.mark.slow
def test_good_profile_is_clean_on_in_schema_reasoning_cases(sim_url: str, tmp_path: Path) -> None:
    cot = [
        s.event for s in simulate(3000, seed=5) if _schema_order(s.event["request"]) == SLOTS_FIRST
    ][:24]
    assert len(cot) >= 8  # clean CoT and reasoning_slot traffic, chat.completions
    data = tmp_path / "store"
    _store(data, cot)
    regression = tmp_path / "regression"
    run_export(
        data,
        None,
        ExportFilter(),
        ExportOptions(clean_ratio=0.5, per_version_cap=None),
        regression=regression,
        show_progress=False,
    )
    assert case_paths(regression)
    # the stored event and the case file keep the schema's declared order
    for case in load_cases(regression):
        assert _schema_order(case.request) == SLOTS_FIRST, case.case_id

    gated = tmp_path / "gated"
    status, report = gate(
        sim_url, regression, gated, "sim-good", "1.0", "--write-rates", str(tmp_path / "r.json")
    )
    assert status == 0 and report is not None and report["errors"] == 0
    assert report["leaking"] == [] and report["candidate_rates"]["overall"] == 0.0
    found = _diagnose(gated, "1.0")
    assert found["leaking"] == 0 and found["most_likely"] is None
    (order,) = [c for c in found["candidates"] if c["rule"] == "reasoning_slot_order"]
    assert order["stats"]["events"] == 0 and not order["stands_out"], order
