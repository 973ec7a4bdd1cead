"""Commits, conflicts and store lag of ``leakline worker --store iceberg`` (issue 30).

N workers (default 1, then 4: the baseline and the figure, in the same run) share one
16-partition topic and one SQLite catalog; a paced producer sends events in chunks.
Figures per run:

- commits/s: snapshots the table gained over the run, per second of the run;
- conflicts: commit attempts beyond the first (the workers log ``N attempts``);
- store lag: from a chunk's send to the moment the table's committed offsets cover it
  (the sum over partitions reaching the cumulative count sent: an approximation that
  ignores which partitions a chunk went to), p50 / p99.

    .venv/bin/python benchmarks/iceberg_commits.py [--events 12000] [--rate 1000]
        [--workers 1,4] [--commit-interval 5]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

from leakline.pipeline.demo import start_worker, stop_process
from leakline.pipeline.kafka.broker import EmbeddedBroker
from leakline.pipeline.kafka.io import ensure_topics, produce
from leakline.pipeline.simulate.traffic_model import simulate
from leakline.pipeline.store.catalog import open_catalog
from leakline.pipeline.store.offsets import committed_offsets
from leakline.pipeline.store.tables import SAMPLES

TOPIC = "gateway.events"
PARTITIONS = 16
ATTEMPTS = re.compile(r"committed .* \(snapshot \d+, (\d+) attempts\)")


def _offsets_total(data_dir: Path) -> int:
    try:
        table = open_catalog(data_dir).load_table(SAMPLES)
    except Exception:  # not created yet
        return 0
    return sum(v for (t, _), v in committed_offsets(table).items() if t == TOPIC)


def run(workers: int, events: int, rate: float, interval: float, root: Path) -> dict[str, float]:
    payloads = [orjson.dumps(s.event) for s in simulate(events, seed=workers)]
    data_dir = root / f"w{workers}"
    with EmbeddedBroker(log_path=root / f"broker-{workers}.log") as broker:
        topics = [TOPIC, "gateway.events.dlq", "leak.samples"]
        asyncio.run(ensure_topics(broker.bootstrap, topics, PARTITIONS))
        args = ("--store", "iceberg", "--commit-interval", str(interval), "--inline-batches")
        args += ("--partitions", str(PARTITIONS))
        logs = [data_dir / f"worker-{i}.log" for i in range(workers)]
        data_dir.mkdir(parents=True, exist_ok=True)
        procs = [start_worker(broker.bootstrap, data_dir, log, *args) for log in logs]
        try:
            deadline = time.monotonic() + 120
            while sum("ready for batches" in log.read_text() for log in logs) < workers:
                assert time.monotonic() < deadline, "workers did not start"
                time.sleep(0.5)
            time.sleep(3)  # the group settles
            chunk = max(1, int(rate / 4))
            sent_at: list[tuple[float, int]] = []
            started = time.monotonic()
            for i in range(0, events, chunk):
                asyncio.run(produce(broker.bootstrap, TOPIC, payloads[i : i + chunk]))
                sent_at.append((time.monotonic(), min(i + chunk, events)))
                time.sleep(max(0.0, started + (i + chunk) / rate - time.monotonic()))
            lags: list[float] = []
            pending = list(sent_at)
            deadline = time.monotonic() + 180
            while pending and time.monotonic() < deadline:
                total, now = _offsets_total(data_dir), time.monotonic()
                while pending and pending[0][1] <= total:
                    lags.append(now - pending.pop(0)[0])
                time.sleep(0.25)
            elapsed = time.monotonic() - started
        finally:
            for proc in procs:
                stop_process(proc)
    table = open_catalog(data_dir).load_table(SAMPLES)
    snapshots = len(table.snapshots())
    attempts = [int(m) for log in logs for m in ATTEMPTS.findall(log.read_text())]
    stored = len(table.scan(selected_fields=("event_id",)).to_arrow())
    return {
        "workers": workers,
        "stored": stored,
        "complete": float(not pending),
        "commits_per_s": snapshots / elapsed,
        "conflicts": float(sum(a - 1 for a in attempts)),
        "lag_p50_s": statistics.median(lags) if lags else float("nan"),
        "lag_p99_s": max(lags) if len(lags) < 100 else statistics.quantiles(lags, n=100)[98],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=12000)
    p.add_argument("--rate", type=float, default=1000.0, help="events/s produced")
    p.add_argument("--workers", default="1,4", help="worker counts; the first is the baseline")
    p.add_argument("--commit-interval", type=float, default=5.0)
    args = p.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        results = [run(n, args.events, args.rate, args.commit_interval, Path(tmp)) for n in counts]
    base = results[0]
    for r in results:
        print(
            f"{int(r['workers'])} workers: stored {int(r['stored'])}/{args.events} "
            f"commits/s {r['commits_per_s']:.2f} "
            f"(x{r['commits_per_s'] / base['commits_per_s']:.2f} of {int(base['workers'])}), "
            f"conflicts {int(r['conflicts'])}, "
            f"store lag p50 {r['lag_p50_s']:.2f} s p99 {r['lag_p99_s']:.2f} s"
            + ("" if r["complete"] else " (INCOMPLETE)")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
