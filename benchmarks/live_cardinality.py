"""What many distinct versions cost the live views (issue 36, finding 2).

    .venv/bin/python benchmarks/live_cardinality.py               # 10, 1k, 20k, 100k versions
    .venv/bin/python benchmarks/live_cardinality.py --quick       # 10, 1k, 5k
    .venv/bin/python benchmarks/live_cardinality.py --json out.json

For each count N, a live table's store as a restart restores it from its changelog: N
version keys of one model (both bases, one bucket each, first seen over the last ten
hours), plus two busy versions. Then, best of a few repeats, CPU-bound and in one process:

- ``read``: what every view pays before the timer compacted the table: the table's
  entries as buckets, capped on read (``views.live_buckets``);
- ``regression pass``: ``views.regressions`` (read, cap, 24 h totals, the pass), what the
  worker's timer runs in a thread;
- ``compaction``: ``LiveCap.compact`` of that store to the cap (the timer, on the loop);
- ``/metrics``: ``WorkerMetrics`` after N versions were observed (capped label sets),
  regressions set, ``render()``; measured after compaction, as a scrape sees it;
- ``pairwise``: the regression rule as first written (every version against every other),
  for N up to ``--pairwise-max`` (default 1,000: it is quadratic; the audit saw ~31 s at
  20k).

Ratios are against the 10-version case of the same run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from leakline.pipeline.live.metrics import WorkerMetrics  # noqa: E402
from leakline.pipeline.live.stats import (  # noqa: E402
    BUCKET_S,
    DEFAULT_MAX_VERSIONS,
    EVENT_PREFIX,
    REPLACEABLE,
    LiveCap,
    SampleRing,
    StatsRecord,
    basis_buckets,
    bucket_start,
    buckets_from_items,
    dims_of,
    first_seen,
    window_totals,
)
from leakline.pipeline.live.web.views import LiveState, regressions  # noqa: E402
from leakline.pipeline.query.stats import two_proportion  # noqa: E402


def restored_table(n: int, now: float) -> dict[Any, Any]:
    data: dict[Any, Any] = {}
    start = bucket_start(now - 600)
    for i in range(n):
        counts: dict[str, Any] = {
            "total": 40,
            "leaking": 30 if i % 2 else 2,
            "labels": {},
            "dead_lettered": 0,
        }
        window = (start - BUCKET_S * (i % 600), start - BUCKET_S * (i % 600) + BUCKET_S - 0.1)
        key = f"vllm|0.{i}.0|qwen3-8b|qwen3|qwen3|hermes"
        data[(key, window)] = counts
        data[(EVENT_PREFIX + key, window)] = dict(counts)
    for name, total in (("busy-a", 5000), ("busy-b", 4000)):
        counts_busy: dict[str, Any] = {
            "total": total,
            "leaking": 50,
            "labels": {},
            "dead_lettered": 0,
        }
        window = (start, start + BUCKET_S - 0.1)
        data[(f"vllm|1.0|{name}|t|r|p", window)] = counts_busy
        data[(EVENT_PREFIX + f"vllm|1.0|{name}|t|r|p", window)] = dict(counts_busy)
    return data


def state_of(data: dict[Any, Any], metrics: WorkerMetrics, cap: int) -> LiveState:
    return LiveState(
        buckets=lambda: buckets_from_items(list(data.items())),
        ring=SampleRing(5),
        metrics=metrics,
        worker_id="bench",
        max_versions=cap,
    )


def pairwise(totals: dict[str, Any], seen: dict[str, float]) -> int:
    """The rule before issue 36 (every version against every other); returns the count."""
    keys = list(totals)
    found = 0
    for new in keys:
        best = None
        for old in keys:
            if old == new or seen[old] >= seen[new]:
                continue
            a, b = dims_of(old), dims_of(new)
            if a["model_name"] != b["model_name"]:
                continue
            changed = [p for p, fs in REPLACEABLE.items() if any(a[f] != b[f] for f in fs)]
            if len(changed) == 1 and (best is None or seen[old] > best[0]):
                best = (seen[old], old)
        if best is not None:
            ta, tb = totals[best[1]], totals[new]
            test = two_proportion(ta["leaking"], ta["total"], tb["leaking"], tb["total"])
            found += bool(test.diff and test.diff > 0 and test.p_value < 0.01)
    return found


def best_of(repeats: int, run: Callable[[], Any]) -> float:
    out = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        out.append(time.perf_counter() - started)
    return min(out)


def compaction_s(data: dict[Any, Any], cap: int, repeats: int) -> float:
    out = []
    for _ in range(repeats):
        copy = dict(data)  # compaction changes the store: a fresh copy each time
        started = time.perf_counter()
        LiveCap(cap).compact(copy)
        out.append(time.perf_counter() - started)
    return min(out)


def measure(n: int, cap: int, repeats: int, pairwise_max: int) -> dict[str, Any]:
    now = time.time()
    data = restored_table(n, now)
    metrics = WorkerMetrics()
    state = state_of(data, metrics, cap)
    row: dict[str, Any] = {"versions": n, "entries": len(data)}
    row["read_s"] = best_of(repeats, lambda: state.buckets())
    row["regression_pass_s"] = best_of(repeats, lambda: regressions(state, now))
    row["compaction_s"] = compaction_s(data, cap, repeats)
    LiveCap(cap).compact(data)
    row["entries_after"] = len(data)
    row["regression_pass_compacted_s"] = best_of(repeats, lambda: regressions(state, now))
    records = [
        StatsRecord(name, "bench", "2026-12-07T00:00:00Z", counts)
        for (name, _), counts in restored_table(n, now).items()
        if not name.startswith(EVENT_PREFIX)
    ]
    metrics.observe_batch(records)
    metrics.set_regressions(regressions(state, now))
    row["metrics_render_s"] = best_of(repeats, metrics.render)
    row["metrics_bytes"] = len(metrics.render())
    if n <= pairwise_max:  # on the whole uncapped table, as before issue 36
        uncapped = buckets_from_items(list(restored_table(n, now).items()))
        buckets = basis_buckets(uncapped, "event")
        totals = window_totals(buckets, now, 86400)
        seen = first_seen(buckets)
        row["pairwise_s"] = best_of(1, lambda: pairwise(totals, seen))
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10, 1k, 5k versions")
    parser.add_argument("--cap", type=int, default=DEFAULT_MAX_VERSIONS)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pairwise-max", type=int, default=1000)
    parser.add_argument("--json", type=Path, help="write the rows here")
    args = parser.parse_args(argv)
    sizes = [10, 1000, 5000] if args.quick else [10, 1000, 20_000, 100_000]
    rows = [measure(n, args.cap, args.repeats, args.pairwise_max) for n in sizes]
    base = rows[0]
    names = (
        "read_s",
        "regression_pass_s",
        "compaction_s",
        "regression_pass_compacted_s",
        "metrics_render_s",
        "pairwise_s",
    )
    print(f"cap {args.cap}; ms (x the 10-version case)")
    print("versions | " + " | ".join(n.removesuffix("_s") for n in names))
    for row in rows:
        cells = []
        for name in names:
            if name not in row:
                cells.append("-")
                continue
            ratio = row[name] / base[name] if base.get(name) else float("nan")
            cells.append(f"{row[name] * 1000:.2f} ({ratio:.1f}x)")
        print(f"{row['versions']:>8} | " + " | ".join(cells))
    if args.json:
        args.json.write_text(json.dumps({"cap": args.cap, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
