"""Re-seed ``tests/regression/cases/`` from a real export of simulated traffic.

    .venv/bin/python tests/regression/seed_cases.py            # the committed set
    .venv/bin/python tests/regression/seed_cases.py --count 6000 --per-version-cap 8

Simulated events go through the worker's batch function (``process_batch``: validate,
normalise, detect, redact) into Parquet in a temporary store, exactly as a worker would
store them, and ``leakline export --regression tests/regression`` writes the cases and
``manifest.json``. Stale case files are removed. Run it after a deliberate detector
change, review the diff of the case files, and commit them.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import orjson

from leakline.pipeline.curation.export import ExportFilter, ExportOptions, run_export
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.simulate.traffic_model import simulate
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.sink import ParquetSink

HERE = Path(__file__).resolve().parent


def build_store(data_dir: Path, count: int, seed: int, clean_text_rate: float) -> None:
    init_store(data_dir)
    events = simulate(count, seed=seed, start=datetime(2026, 11, 1, tzinfo=UTC))
    records = [
        RawRecord(
            s.event["event_id"].encode(), orjson.dumps(s.event), Origin("gateway.events", 0, i)
        )
        for i, s in enumerate(events)
    ]
    result = process_batch(
        records,
        worker_id="seed",
        clean_text_rate=clean_text_rate,
        max_event_bytes=4 << 20,
        now=datetime(2026, 11, 2, tzinfo=UTC),
    )
    ParquetSink(data_dir).write(result.rows.table())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--count", type=int, default=3000, help="simulated events")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--per-version-cap", type=int, default=5)
    parser.add_argument("--clean-ratio", type=float, default=0.3)
    parser.add_argument("--out", type=Path, default=HERE, help="regression directory")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="leakline-seed-") as tmp:
        store = Path(tmp)
        build_store(store, args.count, args.seed, clean_text_rate=0.2)
        result = run_export(
            store,
            None,
            ExportFilter(),
            ExportOptions(args.clean_ratio, args.per_version_cap),
            regression=args.out,
        )
    assert result.regression is not None
    counts = result.regression["counts"]
    print(
        f"{counts['cases']} cases ({counts['clean']} clean), {counts['mismatched']} skipped as "
        f"mismatched; labels {counts['by_label']}; {result.regression['content_hash']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
