"""Classifier tier cost per event, batched as the worker runs it.

    .venv/bin/python benchmarks/classifier_bench.py              # 20 000 events, 5 repeats
    .venv/bin/python benchmarks/classifier_bench.py --quick      # 3 000 events, 3 repeats
    .venv/bin/python benchmarks/classifier_bench.py --json out.json

The mix (simulated traffic, normalised and run through rules + heuristics) is built
before any timing. Each repeat then times, alternating in one process:

- ``classify(pairs, model)`` over the whole mix in worker-sized batches (``--batch``,
  default 2000): choosing the candidates, one vectorised scoring call per batch, and
  merging findings into new verdicts. Cost is per event of the mix (candidates or not);
- the baseline: ``orjson.loads`` of the same events' JSON, the least a worker does
  per event, so the ratio stays comparable across machines and load.

Acceptance: ``classifier_us_per_event`` (best repeat) <= 50.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from leakline.detectors import Exchange, Verdict, run_detectors  # noqa: E402
from leakline.detectors.classifier import OpeningClassifier, classify  # noqa: E402
from leakline.models.registry import load_current  # noqa: E402
from leakline.pipeline.events.contract import validate_event  # noqa: E402
from leakline.pipeline.events.normalise import normalise  # noqa: E402
from leakline.pipeline.simulate.traffic_model import simulate  # noqa: E402

BUDGET_US = 50.0


def build_mix(count: int, seed: int) -> tuple[list[tuple[Exchange, Verdict]], list[bytes]]:
    events = [validate_event(sim.event) for sim in simulate(count, seed=seed)]
    pairs = []
    for event in events:
        exchange = normalise(event)
        pairs.append((exchange, run_detectors(exchange)))
    return pairs, [orjson.dumps(e) for e in events]


def time_classifier(
    pairs: list[tuple[Exchange, Verdict]], model: OpeningClassifier, batch: int
) -> tuple[float, int]:
    added = 0
    started = time.perf_counter()
    for i in range(0, len(pairs), batch):
        chunk = pairs[i : i + batch]
        out = classify(chunk, model)
        added += sum(o is not p[1] for o, p in zip(out, chunk, strict=True))
    return time.perf_counter() - started, added


def time_baseline(encoded: list[bytes]) -> float:
    loads = orjson.loads
    started = time.perf_counter()
    for raw in encoded:
        loads(raw)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--batch", type=int, default=2000, help="events per classify call")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="3 000 events, 3 repeats")
    parser.add_argument("--models-dir", type=Path, help="use this registry's promoted model")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures here")
    args = parser.parse_args(argv)
    if args.quick:
        args.count, args.repeats = 3000, 3

    model = load_current(args.models_dir)
    if model is None:
        print("no classifier model found", file=sys.stderr)
        return 2
    print(f"building {args.count} events ...", file=sys.stderr)
    pairs, encoded = build_mix(args.count, args.seed)
    candidates = sum(bool(ex.visible_text.strip()) for ex, _ in pairs)
    classify(pairs[:200], model)  # warm caches (weights, regexes) before timing

    classifier_s: list[float] = []
    baseline_s: list[float] = []
    added = 0
    gc.disable()
    try:
        for _ in range(args.repeats):
            elapsed, added = time_classifier(pairs, model, args.batch)
            classifier_s.append(elapsed)
            baseline_s.append(time_baseline(encoded))
    finally:
        gc.enable()

    n = len(pairs)
    best = min(classifier_s) / n * 1e6
    median = statistics.median(classifier_s) / n * 1e6
    base_best = min(baseline_s) / n * 1e6
    figures: dict[str, Any] = {
        "model": model.version,
        "events": n,
        "batch": args.batch,
        "repeats": args.repeats,
        "candidates": candidates,
        "classifier_findings_added": added,
        "classifier_us_per_event": round(best, 2),
        "classifier_us_per_event_median": round(median, 2),
        "baseline_orjson_loads_us_per_event": round(base_best, 2),
        "ratio_to_baseline": round(best / base_best, 2) if base_best else None,
        "budget_us_per_event": BUDGET_US,
        "within_budget": best <= BUDGET_US,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(
        f"classifier tier ({model.version}), batches of {args.batch}, {n} events:\n"
        f"  best   {best:8.2f} µs/event   median {median:8.2f} µs/event\n"
        f"  baseline orjson.loads {base_best:6.2f} µs/event   ratio {figures['ratio_to_baseline']}x\n"
        f"  findings added: {added}   budget {BUDGET_US:.0f} µs/event: "
        f"{'ok' if figures['within_budget'] else 'OVER'}"
    )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
