"""What writing a batch's Parquet parts costs the worker, per event, by part codec.

    .venv/bin/python benchmarks/sink_bench.py              # 4 batches of 2000 events, 5 repeats
    .venv/bin/python benchmarks/sink_bench.py --quick      # 1 batch, 3 repeats
    .venv/bin/python benchmarks/sink_bench.py --json out.json

The worker writes each batch through ``ParquetSink.write``: one part file per (day,
source partition), 64 columns each. The rows are built before any timing: production-mix
events (benchmarks/harness.py) spread over four source partitions, through
``process_batch``. Each repeat then times, in turn in one process:

- ``ParquetSink.write`` as shipped (``PART_COMPRESSION``);
- the same parts written with zstd, the codec parts had before (what compaction uses);
- the baseline: ``orjson.loads`` of the same events, so the ratios compare across runs
  on a shared machine.

Prints CPU µs per event (best repeat) and each figure's ratio to the baseline.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import events  # noqa: E402

from leakline.pipeline.events.origin import Origin  # noqa: E402
from leakline.pipeline.events.process import RawRecord, process_batch  # noqa: E402
from leakline.pipeline.store import sink  # noqa: E402

BATCH = 2000
PARTITIONS = 4


def batches(count: int) -> tuple[list[bytes], list[pa.Table]]:
    payloads = events(count * BATCH, seed=7)
    tables = []
    for start in range(0, len(payloads), BATCH):
        records = [
            RawRecord(None, value, Origin("events", n % PARTITIONS, start + n))
            for n, value in enumerate(payloads[start : start + BATCH])
        ]
        result = process_batch(
            records, worker_id="bench", clean_text_rate=0.01, max_event_bytes=1 << 20
        )
        tables.append(result.rows.table())
    return payloads, tables


def best_us(work: Callable[[], object], events_per_pass: int, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times) / events_per_pass * 1e6


def measure(count: int, repeats: int) -> dict[str, float]:
    payloads, tables = batches(count)
    root = Path(tempfile.mkdtemp(prefix="leakline-sink-bench-"))
    shipped = sink.ParquetSink(root / "shipped")
    zstd = sink.ParquetSink(root / "zstd")

    def write_shipped() -> None:
        for table in tables:
            shipped.write(table)

    def write_zstd() -> None:
        codec, sink.PART_COMPRESSION = sink.PART_COMPRESSION, "zstd"
        try:
            for table in tables:
                zstd.write(table)
        finally:
            sink.PART_COMPRESSION = codec

    def decode() -> None:
        for payload in payloads:
            orjson.loads(payload)

    n = len(payloads)
    baseline = best_us(decode, n, repeats)
    figures = {
        "json_decode_us_per_event": baseline,
        "sink_write_us_per_event": best_us(write_shipped, n, repeats),
        "sink_write_zstd_us_per_event": best_us(write_zstd, n, repeats),
    }
    part_bytes = sum(p.stat().st_size for p in (root / "shipped").rglob("part-*.parquet"))
    zstd_bytes = sum(p.stat().st_size for p in (root / "zstd").rglob("part-*.parquet"))
    figures["part_bytes_vs_zstd"] = part_bytes / zstd_bytes
    return {k: round(v, 2) for k, v in figures.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 batch, 3 repeats")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures to FILE")
    args = parser.parse_args(argv)
    count, repeats = (1, 3) if args.quick else (4, 5)
    figures = measure(count, repeats)
    base = figures["json_decode_us_per_event"]
    print(f"{'figure':32} {'µs/event':>9} {'x decode':>9}   (part codec: {sink.PART_COMPRESSION})")
    for name in (
        "json_decode_us_per_event",
        "sink_write_us_per_event",
        "sink_write_zstd_us_per_event",
    ):
        print(f"{name:32} {figures[name]:9.2f} {figures[name] / base:9.2f}")
    print(f"{'part_bytes_vs_zstd':32} {figures['part_bytes_vs_zstd']:9.2f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
