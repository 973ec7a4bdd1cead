"""Throughput of the detectors alone, on a realistic traffic mix.

The mix comes from the simulator (``pipeline.simulate.simulate``): events are validated
against the gateway contract and normalised into ``Exchange`` objects *before* any timing,
so the figure is the cost of ``detectors.run_detectors`` and nothing else. A baseline
measured in the same run (``orjson.loads`` of the same events' JSON) makes the figure
comparable across machines as a ratio.

    python benchmarks/detectors_bench.py            # 20 000 events, 5 repeats
    python benchmarks/detectors_bench.py --quick    # 3 000 events, 3 repeats
    python benchmarks/detectors_bench.py --count 50000 --json bench.json
    python benchmarks/detectors_bench.py --profile  # cProfile top entries of one pass

Single process, ``time.perf_counter``; the best and the median of the repeats are shown.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson

# Runnable as a script from the repository root without installing.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from detectors import Exchange, run_detectors  # noqa: E402
from detectors.base import default_detectors  # noqa: E402
from pipeline.contract import validate_event  # noqa: E402
from pipeline.normalise import normalise  # noqa: E402
from pipeline.simulate import simulate  # noqa: E402


def build_mix(count: int, seed: int) -> tuple[list[Exchange], list[bytes]]:
    """Normalised exchanges and the encoded events they came from (built before timing)."""
    exchanges: list[Exchange] = []
    encoded: list[bytes] = []
    for sim in simulate(count, seed=seed):
        event = validate_event(sim.event)
        exchanges.append(normalise(event))
        encoded.append(orjson.dumps(event))
    return exchanges, encoded


def _time(fn: Callable[[], object], repeats: int) -> list[float]:
    runs = []
    for _ in range(repeats):
        gc.collect()
        started = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - started)
    return runs


def _detect_all(exchanges: Sequence[Exchange]) -> Callable[[], object]:
    def run() -> object:
        for exchange in exchanges:
            run_detectors(exchange)
        return None

    return run


def _detectors_only(exchanges: Sequence[Exchange]) -> Callable[[], object]:
    """Every registered detector's ``detect``, without the verdict assembly around them."""
    detects = tuple(d.detect for d in default_detectors())

    def run() -> object:
        for exchange in exchanges:
            for detect in detects:
                detect(exchange)
        return None

    return run


def _parse_all(encoded: Sequence[bytes]) -> Callable[[], object]:
    loads = orjson.loads

    def run() -> object:
        for raw in encoded:
            loads(raw)
        return None

    return run


def _per_detector(exchanges: Sequence[Exchange], repeats: int) -> dict[str, float]:
    """Events/s of each detector on its own (best of ``repeats``)."""
    rates = {}
    for detector in default_detectors():
        detect = detector.detect

        def run(detect: Callable[[Exchange], object] = detect) -> object:
            for exchange in exchanges:
                detect(exchange)
            return None

        rates[detector.id] = len(exchanges) / min(_time(run, repeats))
    return rates


def _label_mix(exchanges: Sequence[Exchange]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for exchange in exchanges:
        for label in run_detectors(exchange).labels or ("clean",):
            counts[label] = counts.get(label, 0) + 1
    return dict(sorted(counts.items()))


def measure(count: int, seed: int, repeats: int) -> dict[str, Any]:
    exchanges, encoded = build_mix(count, seed)
    _detect_all(exchanges)()  # warm caches (compiled validators, lru caches) once
    # Alternate the workloads so that all of them see the same machine load.
    detect_runs: list[float] = []
    only_runs: list[float] = []
    parse_runs: list[float] = []
    for _ in range(repeats):
        detect_runs += _time(_detect_all(exchanges), 1)
        only_runs += _time(_detectors_only(exchanges), 1)
        parse_runs += _time(_parse_all(encoded), 1)
    detect_best = count / min(detect_runs)
    detect_median = count / statistics.median(detect_runs)
    only_best = count / min(only_runs)
    only_median = count / statistics.median(only_runs)
    parse_best = count / min(parse_runs)
    parse_median = count / statistics.median(parse_runs)
    return {
        "count": count,
        "seed": seed,
        "repeats": repeats,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "mean_visible_chars": round(sum(len(x.visible_text) for x in exchanges) / count, 1),
        "mean_event_bytes": round(sum(len(b) for b in encoded) / count, 1),
        # run_detectors: the detectors plus the verdict assembly (diagnosis, labels)
        "run_detectors_events_per_s": {"best": round(detect_best), "median": round(detect_median)},
        # every detector's detect() and nothing else
        "detectors_only_events_per_s": {"best": round(only_best), "median": round(only_median)},
        "baseline_orjson_loads_per_s": {"best": round(parse_best), "median": round(parse_median)},
        # events/s relative to the baseline: < 1 means slower than decoding the events' JSON
        "ratio_vs_baseline": {
            "run_detectors": {
                "best": round(detect_best / parse_best, 3),
                "median": round(detect_median / parse_median, 3),
            },
            "detectors_only": {
                "best": round(only_best / parse_best, 3),
                "median": round(only_median / parse_median, 3),
            },
        },
        "us_per_event": {
            "run_detectors": round(1e6 / detect_best, 2),
            "detectors_only": round(1e6 / only_best, 2),
            "baseline": round(1e6 / parse_best, 2),
        },
        "per_detector_events_per_s": {
            k: round(v) for k, v in _per_detector(exchanges, max(1, repeats // 2)).items()
        },
        "label_mix": _label_mix(exchanges),
    }


def _table(result: dict[str, Any]) -> str:
    run, only, base = (
        result["run_detectors_events_per_s"],
        result["detectors_only_events_per_s"],
        result["baseline_orjson_loads_per_s"],
    )
    ratio = result["ratio_vs_baseline"]
    lines = [
        f"{result['count']} events (seed {result['seed']}), {result['repeats']} repeats, "
        f"Python {result['python']} {result['machine']}; "
        f"mean {result['mean_visible_chars']} visible chars, {result['mean_event_bytes']} B/event",
        "",
        f"{'events/s':34}{'best':>11}{'median':>11}{'x baseline':>12}",
        f"{'run_detectors (with diagnosis)':34}{run['best']:>11,}{run['median']:>11,}"
        f"{ratio['run_detectors']['best']:>12.3f}",
        f"{'detectors only':34}{only['best']:>11,}{only['median']:>11,}"
        f"{ratio['detectors_only']['best']:>12.3f}",
        f"{'baseline: orjson.loads':34}{base['best']:>11,}{base['median']:>11,}{1:>12.3f}",
        "",
        "per detector (events/s, best):",
    ]
    for name, rate in result["per_detector_events_per_s"].items():
        lines.append(f"  {name:32}{rate:>11,}")
    return "\n".join(lines)


def _profile(count: int, seed: int) -> None:
    import cProfile
    import pstats

    exchanges, _ = build_mix(count, seed)
    _detect_all(exchanges)()
    profiler = cProfile.Profile()
    profiler.runcall(_detect_all(exchanges))
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=None, help="events in the mix (20000)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--repeats", type=int, default=None, help="timed passes (5)")
    parser.add_argument("--quick", action="store_true", help="3000 events, 3 repeats")
    parser.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    parser.add_argument("--profile", action="store_true", help="cProfile one pass and exit")
    args = parser.parse_args(argv)
    count = args.count or (3_000 if args.quick else 20_000)
    repeats = args.repeats or (3 if args.quick else 5)
    if count <= 0 or repeats <= 0:
        parser.error("--count and --repeats must be positive")
    if args.profile:
        _profile(count, args.seed)
        return 0
    result = measure(count, args.seed, repeats)
    print(_table(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
