"""Helpers for the notebook tests. A store the notebooks can read: simulated traffic across a vLLM upgrade, written with
the worker's own code (``process_batch`` -> ``ParquetSink`` -> ``init_store``), no broker."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.simulate.traffic_model import Mix, encode_event, simulate
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.sink import ParquetSink

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
START = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)
UPGRADE = START + timedelta(minutes=90)
OLD, NEW = "0.30.2", "0.31.0"


@dataclass(frozen=True)
class UpgradeStore:
    data_dir: Path
    events: int
    upgrade_first_ts: datetime  # the first event served by the new vLLM version


def _kept(event: dict) -> bool:
    """vLLM runs OLD before the upgrade and NEW after it; the rest of the fleet is unchanged."""
    engine = event["engine"]
    if engine["name"] != "vllm":
        return True
    before = datetime.fromisoformat(event["ts"].replace("Z", "+00:00")) < UPGRADE
    return engine["version"] == (OLD if before else NEW)


def build_upgrade_store(data_dir: Path) -> UpgradeStore:
    # 3 hours of traffic, one event every 6 s
    events = [
        s.event
        for s in simulate(1800, seed=41, mix=Mix(leak_ratio=0.35), start=START, rate_per_s=1 / 6)
        if _kept(s.event)
    ]
    sink = ParquetSink(data_dir)
    for offset in range(0, len(events), 400):
        records = [
            RawRecord(
                e["event_id"].encode(), encode_event(e), Origin("gateway.events", 0, offset + i)
            )
            for i, e in enumerate(events[offset : offset + 400])
        ]
        result = process_batch(
            records, worker_id="nb", clean_text_rate=0.05, max_event_bytes=4 << 20
        )
        assert not result.dead_letters
        sink.write(result.rows.table())
    init_store(data_dir)
    first_new = min(
        datetime.fromisoformat(e["ts"].replace("Z", "+00:00"))
        for e in events
        if e["engine"]["name"] == "vllm" and e["engine"]["version"] == NEW
    )
    return UpgradeStore(data_dir, len(events), first_new)


@dataclass
class Executed:
    notebook: nbformat.NotebookNode
    figures: Path

    def stream_text(self) -> str:
        return "".join(
            out.get("text", "")
            for cell in self.notebook.cells
            if cell.cell_type == "code"
            for out in cell.get("outputs", [])
            if out.get("output_type") == "stream"
        )

    def png_outputs(self) -> int:
        return sum(
            "image/png" in out.get("data", {})
            for cell in self.notebook.cells
            if cell.cell_type == "code"
            for out in cell.get("outputs", [])
        )
