"""Per-event cost of ``process_batch``, the whole job of a worker's batch children.

``leakline.pipeline.events.process.process_batch`` decodes, normalises, detects, classifies
and builds redacted rows. It runs here on production-mix events (``harness.events``:
``leakline.pipeline.simulate.traffic_model.PRODUCTION_MIX``, encoded as a gateway sends
them) in batches of 2000, with the shipped classifier, the default redaction rules and a
fixed ``now``, as ``tests/pipeline/test_row_equivalence.py`` pins them. The baseline,
``orjson.loads`` of the same payloads, runs in the same process, batch by batch in turn
with it (``detectors_bench.timed_slices``), so a shared machine's load hits both alike.

    python benchmarks/batch_bench.py                # 20 000 events, 5 repeats, both builds
    python benchmarks/batch_bench.py --quick        # 4 000 events, 3 repeats
    python benchmarks/batch_bench.py --build source --json batch.json

Each build prints µs per event (best: the sum of each batch's fastest repeat; median: the
median whole pass) and "x baseline": µs per event of the workload over µs per event of
``orjson.loads`` (the cost in JSON decodes, lower is better; issue 19's measure). With
``--build both`` (the default when mypyc is installed) the Python source runs in this
process, then the mypyc-compiled build (``detectors/native.py``: the detectors and the
pipeline's per-event core, built once into ``build/native``) in a child process; compare
the builds by their "x baseline", which each measured against its own baseline.
"""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

# helpers of the other benchmarks (and the package check they make on import)
from detectors_bench import compiled_run, parse_all, timed_slices
from harness import BATCH, MAX_EVENT_BYTES, events

from leakline.detectors import native
from leakline.models.registry import SHIPPED_DIR, load_current
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import BatchResult, RawRecord, process_batch
from leakline.pipeline.events.redact import Redactor

NOW = datetime(2026, 12, 2, 6, 0, tzinfo=UTC)
CLEAN_TEXT_RATE = 0.05  # the worker's default share of clean rows that keep their text


def _batches(records: Sequence[RawRecord]) -> Callable[[int, int], BatchResult]:
    redactor, classifier = Redactor.default(), load_current(SHIPPED_DIR)

    def run(lo: int, hi: int) -> BatchResult:
        return process_batch(
            records[lo:hi],
            worker_id="batch-bench",
            clean_text_rate=CLEAN_TEXT_RATE,
            max_event_bytes=MAX_EVENT_BYTES,
            now=NOW,
            redactor=redactor,
            classifier=classifier,
        )

    return run


def build_name() -> str:
    """The build this process imported (the table says which parts of it are compiled)."""
    return "compiled" if native.compiled() or native.compiled("leakline.pipeline") else "source"


def measure(count: int, seed: int, repeats: int) -> dict[str, Any]:
    payloads = events(count, seed)
    records = [
        RawRecord(None, raw, Origin("gateway.events", i % 4, i)) for i, raw in enumerate(payloads)
    ]
    batches = _batches(records)
    warm = batches(0, min(count, BATCH))  # the classifier, memos and compiled patterns once
    rates = timed_slices(
        {"process_batch": batches, "baseline": parse_all(payloads)}, count, repeats, BATCH
    )
    us = {
        name: {kind: round(1e6 / rate[kind], 2) for kind in ("best", "median")}
        for name, rate in rates.items()
    }
    return {
        "count": count,
        "seed": seed,
        "repeats": repeats,
        "batch": BATCH,
        "detectors": "compiled" if native.compiled() else "source",
        "pipeline_core": "compiled" if native.compiled("leakline.pipeline") else "source",
        "compiled_pipeline_modules": [
            name
            for name, compiled in native.compiled_modules().items()
            if compiled and name.startswith("leakline.pipeline.")
        ],
        "mean_event_bytes": round(sum(map(len, payloads)) / count, 1),
        # every event of the mix is valid: dead letters here would mean a broken build
        "dead_letters_first_batch": len(warm.dead_letters),
        "us_per_event": us,
        # the cost of an event in JSON decodes of it, measured in this run
        "x_baseline": {
            kind: round(us["process_batch"][kind] / us["baseline"][kind], 2)
            for kind in ("best", "median")
        },
    }


def _table(build: str, result: dict[str, Any]) -> str:
    us, ratio = result["us_per_event"], result["x_baseline"]
    return "\n".join(
        [
            f"[{build}] {result['count']} events (seed {result['seed']}), batches of "
            f"{result['batch']}, {result['repeats']} repeats, {result['mean_event_bytes']} "
            f"B/event; detectors: {result['detectors']}, pipeline core: {result['pipeline_core']}",
            f"{'µs/event':28}{'best':>9}{'median':>9}{'x baseline':>12}",
            f"{'process_batch':28}{us['process_batch']['best']:>9.1f}"
            f"{us['process_batch']['median']:>9.1f}{ratio['best']:>12.2f}",
            f"{'baseline: orjson.loads':28}{us['baseline']['best']:>9.1f}"
            f"{us['baseline']['median']:>9.1f}{1:>12.2f}",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="x baseline = µs/event of process_batch / µs/event of orjson.loads of the same "
        "payloads, in the same run (lower is better). Absolute figures move with the "
        "machine's load; compare builds by their x baseline.",
    )
    parser.add_argument("--count", type=int, default=None, help="events (20000; quick 4000)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--repeats", type=int, default=None, help="timed passes (5; quick 3)")
    parser.add_argument("--quick", action="store_true", help="4000 events, 3 repeats")
    parser.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    parser.add_argument(
        "--build",
        choices=("both", "source", "compiled"),
        default="both" if native.available() else "source",
        help="the Python source (this process), the mypyc-compiled build (detectors/native.py, "
        "built once into build/native, run in a child process), or both one after the other "
        "(both when mypyc is installed)",
    )
    args = parser.parse_args(argv)
    count = args.count or (4_000 if args.quick else 20_000)
    repeats = args.repeats or (3 if args.quick else 5)
    if count <= 0 or repeats <= 0:
        parser.error("--count and --repeats must be positive")
    builds: dict[str, dict[str, Any]] = {}
    here = build_name()
    if args.build in (here, "both"):
        builds[here] = measure(count, args.seed, repeats)
        print(f"Python {platform.python_version()} {platform.machine()}")
        print(_table(here, builds[here]), flush=True)
    if args.build in ("compiled", "both") and here == "source":
        print("\nbuilding the compiled build (cached in build/native) ...", flush=True)
        rest = argv if argv is not None else sys.argv[1:]
        builds["compiled"] = compiled_run(Path(__file__), rest)["builds"]["compiled"]
    if "source" in builds and "compiled" in builds:
        before, after = (
            builds["source"]["x_baseline"]["best"],
            builds["compiled"]["x_baseline"]["best"],
        )
        print(
            f"\nprocess_batch, x baseline (best): source {before:.2f}, compiled {after:.2f} "
            f"({after / before:.2f} of the source's cost)"
        )
    if args.json:
        summary = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "builds": builds,
        }
        Path(args.json).write_text(
            orjson.dumps(summary, option=orjson.OPT_INDENT_2).decode() + "\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
