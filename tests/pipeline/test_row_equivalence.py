"""Stored rows stay identical while the hot path gets faster (issue 19).

``process_batch`` runs over 20,000 simulated production-mix events and every labeled
corpus event, with the shipped classifier, the default redaction rules and a fixed
clock. Each column of the resulting rows is digested and compared with the digests in
``data/row_digests.json``, which were written by the code *before* the speed work
(commit 43471f3 plus the dashboard-test fix). A failure names the columns whose values
changed.

A speed change must never touch these digests. A change to what is stored (a new
detector, a new column, a retrained shipped model) is allowed to: say so in the commit
message and re-pin with ``python tests/pipeline/test_row_equivalence.py --pin``.

The second test checks the process boundary: rows that come back from a batch child
process equal the rows built inline, column by column.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pytest

from leakline.models.registry import SHIPPED_DIR, load_current
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.events.redact import Redactor
from leakline.pipeline.events.rows import SAMPLE_SCHEMA
from leakline.pipeline.simulate.traffic_model import PRODUCTION_MIX, simulate

PINS = Path(__file__).parent / "data" / "row_digests.json"
CORPUS = Path(__file__).parents[1] / "corpus"
NOW = datetime(2026, 12, 2, 6, 0, tzinfo=UTC)
SIMULATED = 20_000
BATCH = 2_000
MAX_EVENT_BYTES = 4 * 1024 * 1024


def simulated_records(count: int = SIMULATED) -> list[RawRecord]:
    return [
        RawRecord(None, orjson.dumps(sim.event), Origin("gateway.events", i % 4, i))
        for i, sim in enumerate(simulate(count, seed=19, mix=PRODUCTION_MIX))
    ]


def corpus_records() -> list[RawRecord]:
    events: list[bytes] = []
    for path in sorted((CORPUS / "cases").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                events.append(orjson.dumps(json.loads(line)["event"]))
    return [RawRecord(None, raw, Origin("corpus", 0, i)) for i, raw in enumerate(events)]


def rows_of(records: list[RawRecord]) -> pa.Table:
    redactor, classifier = Redactor.default(), load_current(SHIPPED_DIR)
    tables = []
    for start in range(0, len(records), BATCH):
        result = process_batch(
            records[start : start + BATCH],
            worker_id="equivalence",
            clean_text_rate=0.05,
            max_event_bytes=MAX_EVENT_BYTES,
            now=NOW,
            redactor=redactor,
            classifier=classifier,
        )
        assert not result.dead_letters, result.dead_letters[:3]
        tables.append(result.rows.table())
    return pa.concat_tables(tables)


def column_digests(table: pa.Table) -> dict[str, str]:
    """sha256 per column over the values in row order (JSON, timestamps as ISO)."""
    out = {}
    for name in SAMPLE_SCHEMA.names:
        digest = hashlib.sha256()
        for value in table[name].to_pylist():
            digest.update(orjson.dumps(value, default=str))
            digest.update(b"\n")
        out[name] = digest.hexdigest()
    return out


def current() -> dict[str, Any]:
    model = load_current(SHIPPED_DIR)
    return {
        "model": model.version if model is not None else None,
        "simulated": column_digests(rows_of(simulated_records())),
        "corpus": column_digests(rows_of(corpus_records())),
    }


def _changed(pinned: dict[str, str], now: dict[str, str]) -> list[str]:
    return [name for name in SAMPLE_SCHEMA.names if pinned.get(name) != now[name]]


@pytest.fixture(scope="module")
def measured() -> dict[str, Any]:
    return current()


def test_the_pins_are_for_the_shipped_model(measured: dict[str, Any]) -> None:
    pins = json.loads(PINS.read_text())
    assert pins["model"] == measured["model"], (
        "the shipped classifier changed since the rows were pinned; if that was intended, "
        "re-pin: python tests/pipeline/test_row_equivalence.py --pin"
    )


@pytest.mark.parametrize("source", ["simulated", "corpus"])
def test_stored_rows_equal_the_pinned_rows_column_by_column(
    measured: dict[str, Any], source: str
) -> None:
    pins = json.loads(PINS.read_text())
    changed = _changed(pins[source], measured[source])
    assert not changed, f"{source}: columns whose stored values changed: {changed}"


def _columns(table: pa.Table) -> Iterator[tuple[str, list[Any]]]:
    for name in SAMPLE_SCHEMA.names:
        yield name, table[name].to_pylist()


def test_rows_from_a_batch_child_equal_rows_built_inline(tmp_path: Path) -> None:
    from leakline.pipeline.worker.offload import BatchConfig, ChildProcessor, InlineProcessor

    records = simulated_records(3_000) + corpus_records()[:500]
    config = BatchConfig(
        worker_id="equivalence",
        clean_text_rate=0.05,
        max_event_bytes=MAX_EVENT_BYTES,
        redaction="default",
        models_dir=SHIPPED_DIR,
        classifier_check_s=3600.0,
        classifier_threshold=None,
    )

    async def both() -> tuple[pa.Table, pa.Table]:
        child = ChildProcessor(config, processes=1)
        try:
            await child.start()
            remote = await child.process(records)
        finally:
            child.close()
        local = await InlineProcessor(config).process(records)
        return remote.rows.table(), local.rows.table()

    remote, local = asyncio.run(both())
    assert remote.num_rows == local.num_rows == len(records)
    # ingested_at is each process's own clock; everything else must be equal
    for (name, a), (_, b) in zip(_columns(remote), _columns(local), strict=True):
        if name == "ingested_at":
            continue
        assert a == b, f"column {name} differs between the child and inline"


if __name__ == "__main__" and sys.argv[1:] == ["--pin"]:
    PINS.parent.mkdir(parents=True, exist_ok=True)
    PINS.write_text(json.dumps(current(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {PINS}")
