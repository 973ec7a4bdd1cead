"""Fenced commit latency per Iceberg catalog (issue 30): the embedded SQLite catalog (the
baseline, measured in the same run), the SQL catalog on PostgreSQL with the warehouse on
S3, and SeaweedFS's Iceberg REST catalog. Real servers, started here (tests/store_servers.py).

    .venv/bin/python benchmarks/catalog_commits.py            # 60 commits per catalog
    .venv/bin/python benchmarks/catalog_commits.py --quick    # 20
    .venv/bin/python benchmarks/catalog_commits.py --json commits.json

One writer, one partition, batches of 500 rows: each commit is `write_data_files` (the
Parquet file, on local disk or S3) then `commit_fenced` (refresh, the fence, the append with
its offsets). Both are timed apart; p50/p95 in ms, and each catalog's p50 as a ratio of the
SQLite one. The snapshot count grows over the run, as it does between expiries.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from store_servers import postgres, seaweedfs  # noqa: E402

from leakline.pipeline.core.config import ENV_S3_ENDPOINT, ENV_WAREHOUSE  # noqa: E402
from leakline.pipeline.events.rows import SAMPLE_SCHEMA  # noqa: E402
from leakline.pipeline.store.catalog import open_catalog  # noqa: E402
from leakline.pipeline.store.offsets import commit_fenced, write_data_files  # noqa: E402
from leakline.pipeline.store.tables import samples_table  # noqa: E402

BATCH = 500
TOPIC = "gateway.events"


def batch(start: int) -> pa.Table:
    ids = [f"e{start + i}" for i in range(BATCH)]
    columns: dict[str, list[object]] = {f.name: [None] * BATCH for f in SAMPLE_SCHEMA}
    columns["event_id"] = ids
    columns["ts"] = [datetime(2026, 12, 1, 12, tzinfo=UTC)] * BATCH
    columns["schema_version"] = [1] * BATCH
    columns["labels"] = [[] for _ in ids]
    return pa.table(columns, schema=SAMPLE_SCHEMA)


@contextmanager
def environment(values: dict[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def measure(data_dir: Path, setting: str, commits: int) -> dict[str, float]:
    table = samples_table(open_catalog(data_dir, setting))
    writes, fenced = [], []
    for n in range(commits):
        started = time.perf_counter()
        files = write_data_files(table, batch(n * BATCH))
        written = time.perf_counter()
        done = commit_fenced(table, files, {(TOPIC, 0): (n * BATCH, (n + 1) * BATCH)})
        writes.append(written - started)
        fenced.append(time.perf_counter() - written)
        assert done.committed, done
    q = statistics.quantiles
    return {
        "write_p50_ms": 1000 * statistics.median(writes),
        "commit_p50_ms": 1000 * statistics.median(fenced),
        "commit_p95_ms": 1000 * q(fenced, n=20)[18],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    commits = 20 if args.quick else 60
    results: dict[str, dict[str, float]] = {}
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        started = time.perf_counter()
        pg_uri = stack.enter_context(postgres(tmp / "postgres"))
        pg_start = time.perf_counter() - started
        started = time.perf_counter()
        s3 = stack.enter_context(seaweedfs(tmp / "seaweedfs"))
        s3_start = time.perf_counter() - started
        print(f"started: postgresql {pg_start:.2f} s, seaweedfs {s3_start:.2f} s")
        results["sqlite (local)"] = measure(tmp / "local", "local", commits)
        s3_env = {
            ENV_WAREHOUSE: f"s3://{s3.bucket}/bench",
            ENV_S3_ENDPOINT: s3.s3_endpoint,
            "AWS_ACCESS_KEY_ID": s3.access_key,
            "AWS_SECRET_ACCESS_KEY": s3.secret_key,
        }
        with environment(s3_env):
            results["postgresql + s3"] = measure(tmp / "pg", pg_uri, commits)
        with environment(s3.rest_catalog_env("seaweed")):
            results["rest (seaweedfs)"] = measure(tmp / "rest", "seaweed", commits)
    base = results["sqlite (local)"]["commit_p50_ms"]
    print(f"{commits} commits of {BATCH} rows each, one writer")
    print(f"{'catalog':<18} {'write p50':>10} {'commit p50':>11} {'commit p95':>11} {'ratio':>6}")
    for name, r in results.items():
        ratio = r["commit_p50_ms"] / base
        r["commit_p50_ratio"] = ratio
        print(
            f"{name:<18} {r['write_p50_ms']:>8.1f}ms {r['commit_p50_ms']:>9.1f}ms "
            f"{r['commit_p95_ms']:>9.1f}ms {ratio:>5.2f}x"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
