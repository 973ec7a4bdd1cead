"""A store with known counts, for ``rates`` and ``compare``: rows written the way a worker
writes them (``RowBuilder`` -> ``ParquetSink`` -> ``init_store``), labels given, no broker.

Production traffic (topic ``gateway.events``):

- vllm 0.31.0: 400 events, 40 leaking with preamble (10 %), 8 of the 40 also truncated;
  the newest 100 are from the last hour, the rest three days old.
- vllm 0.32.0: 400 events, 80 leaking with preamble (20 %), all from the last hour.
- vllm 0.33.0: 10 events, 2 with reasoning_leak: a small group.

Gate replays (topic ``gate-<run>``): vllm 0.34.0, 50 events, all leaking (preamble).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from leakline_testkit import verdict

from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.sink import ParquetSink


def _event(i: int, version: str, ts: datetime) -> dict:
    return {
        "event_id": f"{version}-{i}",
        "ts": ts.isoformat().replace("+00:00", "Z"),
        "api": "chat.completions",
        "request": {"messages": [{"role": "user", "content": "hi"}]},
        "response": {"choices": [{"message": {"content": f"answer {i}"}, "finish_reason": "stop"}]},
        "engine": {"name": "vllm", "version": version},
        "model": {"name": "Qwen/Qwen3-8B"},
    }


def build(data_dir: Path, now: datetime | None = None) -> Path:
    now = now or datetime.now(UTC)
    recent, old = now - timedelta(minutes=20), now - timedelta(days=3)
    init_store(data_dir)
    sink = ParquetSink(data_dir)

    def write(topic: str, specs: list[tuple[str, int, datetime, list[str]]]) -> None:
        rows = RowBuilder("kit", clean_text_rate=0.0)
        for offset, (version, i, ts, labels) in enumerate(specs):
            e = _event(i, version, ts)
            rows.add(e, normalise(e), verdict(e["event_id"], labels), Origin(topic, 0, offset), now)
        sink.write(rows.table())

    production = []
    for i in range(400):
        labels = ["preamble", "truncated"] if i < 8 else ["preamble"] if i < 40 else []
        production.append(("0.31.0", i, recent if i >= 300 else old, labels))
    for i in range(400):
        production.append(("0.32.0", i, recent, ["preamble"] if i < 80 else []))
    for i in range(10):
        production.append(("0.33.0", i, recent, ["reasoning_leak"] if i < 2 else []))
    write("gateway.events", production)
    write("gate-kitrun", [("0.34.0", i, recent, ["preamble"]) for i in range(50)])
    init_store(data_dir)
    return data_dir
