"""Build a real store from events: process_batch + ParquetSink + DuckDB views.

No broker: the worker's whole job minus Kafka, so a store takes about a second.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.sink import ParquetSink

START = datetime(2026, 11, 1, tzinfo=UTC)
SIM_COUNT = 1200
SIM_SEED = 5


def store_events(
    data_dir: Path, events: Iterable[dict[str, Any]], clean_text_rate: float = 0.3
) -> Path:
    """Run events through the worker's batch function and write them as it would."""
    init_store(data_dir)
    records = [
        RawRecord(e["event_id"].encode(), orjson.dumps(e), Origin("gateway.events", 0, i))
        for i, e in enumerate(events)
    ]
    result = process_batch(
        records,
        worker_id="test",
        clean_text_rate=clean_text_rate,
        max_event_bytes=4 << 20,
        now=datetime(2026, 11, 3, tzinfo=UTC),
    )
    assert not result.dead_letters
    ParquetSink(data_dir).write(result.rows.table())
    return data_dir
