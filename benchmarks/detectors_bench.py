"""Throughput of the detectors alone, on two traffic mixes.

Both mixes come from the simulator (``leakline.pipeline.simulate.traffic_model.simulate``); events are validated
against the gateway contract and normalised into ``Exchange`` objects *before* any timing,
so the figures are the cost of the detectors and nothing else.

- ``production``: ``leakline.pipeline.simulate.traffic_model.PRODUCTION_MIX``: 5 % designed leaks, clean answers
  of 0.5-8 KB (log-uniform), en/ko/zh, 40 % streamed, every simulated deployment;
- ``demo``: the simulator's default mix (30 % leaks, short answers): leak-heavy, so it
  weighs diagnosis and the per-finding work.

A baseline measured in the same run and alternated with the detectors (``orjson.loads``
of the same events' JSON) makes the figures comparable across machines as ratios.

    python benchmarks/detectors_bench.py            # both mixes, 20 000 events each, 5 repeats
    python benchmarks/detectors_bench.py --quick    # 3 000 events each, 3 repeats (CI smoke)
    python benchmarks/detectors_bench.py --mix demo --count 50000 --json bench.json
    python benchmarks/detectors_bench.py --profile  # cProfile top entries of one pass

Single process, ``time.perf_counter``. The workloads are interleaved slice by slice (250
events); "best" adds up each slice's fastest repeat, "median" is the median whole pass.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson

# Runs from the repository against the installed (editable) package; a compiled build
# already first on PYTHONPATH (``--build compiled``) is left in front.
REPO = Path(__file__).resolve().parents[1]
if importlib.util.find_spec("leakline") is None:
    sys.exit("leakline is not installed: run `python3 dev.py lint` once (or pip install -e .)")

from leakline.detectors import Exchange, native, run_detectors  # noqa: E402
from leakline.detectors.base import default_detectors  # noqa: E402
from leakline.pipeline.events.contract import validate_event  # noqa: E402
from leakline.pipeline.events.normalise import normalise  # noqa: E402
from leakline.pipeline.simulate.traffic_model import PRODUCTION_MIX, Mix, simulate  # noqa: E402

MIXES = ("production", "demo")


def build_mix(count: int, seed: int, mix: str = "demo") -> tuple[list[Exchange], list[bytes]]:
    """Normalised exchanges and the encoded events they came from (built before timing)."""
    traffic = PRODUCTION_MIX if mix == "production" else Mix()
    events = [validate_event(sim.event) for sim in simulate(count, seed=seed, mix=traffic)]
    return [normalise(e) for e in events], [orjson.dumps(e) for e in events]


# Events per timed slice: short enough that a burst of load on a shared machine spoils
# a few slices of one repeat, not a whole pass; long enough for perf_counter.
SLICE = 250

Workload = Callable[[int, int], object]  # runs the events [lo, hi) of the mix


def timed_slices(
    workloads: dict[str, Workload], count: int, repeats: int, size: int = SLICE
) -> dict[str, Any]:
    """Best and median events/s of each workload, timed slice by slice (``size`` events).

    Every slice of the mix is run by each workload in turn, so load from other
    processes hits all of them alike. "best" adds up each slice's fastest run over the
    repeats (the least disturbed estimate of the cost); "median" is the median of whole
    passes, which shows the noise.
    """
    bounds = [(lo, min(lo + size, count)) for lo in range(0, count, size)]
    fastest = {name: [float("inf")] * len(bounds) for name in workloads}
    passes: dict[str, list[float]] = {name: [] for name in workloads}
    clock = time.perf_counter
    for _ in range(repeats):
        gc.collect()
        spent = dict.fromkeys(workloads, 0.0)
        for index, (lo, hi) in enumerate(bounds):
            for name, run in workloads.items():
                started = clock()
                run(lo, hi)
                took = clock() - started
                spent[name] += took
                if took < fastest[name][index]:
                    fastest[name][index] = took
        for name, total in spent.items():
            passes[name].append(total)
    return {
        name: {
            "best": round(count / sum(fastest[name])),
            "median": round(count / statistics.median(passes[name])),
        }
        for name in workloads
    }


def _detect_all(exchanges: Sequence[Exchange]) -> Workload:
    def run(lo: int, hi: int) -> object:
        for exchange in exchanges[lo:hi]:
            run_detectors(exchange)
        return None

    return run


def _detectors_only(exchanges: Sequence[Exchange]) -> Workload:
    """Every registered detector's ``detect``, without the verdict assembly around them."""
    detects = tuple(d.detect for d in default_detectors())

    def run(lo: int, hi: int) -> object:
        for exchange in exchanges[lo:hi]:
            for detect in detects:
                detect(exchange)
        return None

    return run


def parse_all(encoded: Sequence[bytes]) -> Workload:
    loads = orjson.loads

    def run(lo: int, hi: int) -> object:
        for raw in encoded[lo:hi]:
            loads(raw)
        return None

    return run


def _per_detector(exchanges: Sequence[Exchange], repeats: int) -> dict[str, int]:
    """Events/s of each detector on its own (best slices of ``repeats``)."""
    workloads: dict[str, Workload] = {}
    for detector in default_detectors():

        def run(lo: int, hi: int, detect: Callable[[Exchange], object] = detector.detect) -> object:
            for exchange in exchanges[lo:hi]:
                detect(exchange)
            return None

        workloads[detector.id] = run
    rates = timed_slices(workloads, len(exchanges), repeats)
    return {name: rate["best"] for name, rate in rates.items()}


def _label_mix(exchanges: Sequence[Exchange]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for exchange in exchanges:
        for label in run_detectors(exchange).labels or ("clean",):
            counts[label] = counts.get(label, 0) + 1
    return dict(sorted(counts.items()))


def measure(count: int, seed: int, repeats: int, mix: str = "demo") -> dict[str, Any]:
    exchanges, encoded = build_mix(count, seed, mix)
    _detect_all(exchanges)(0, count)  # warm caches (compiled validators, lru caches) once
    rates = timed_slices(
        {
            "run_detectors": _detect_all(exchanges),
            "detectors_only": _detectors_only(exchanges),
            "baseline": parse_all(encoded),
        },
        count,
        repeats,
    )
    base = rates["baseline"]
    leaking = sum(1 for x in exchanges if run_detectors(x).leaking)
    return {
        "mix": mix,
        "count": count,
        "seed": seed,
        "repeats": repeats,
        "mean_visible_chars": round(sum(len(x.visible_text) for x in exchanges) / count, 1),
        "mean_event_bytes": round(sum(len(b) for b in encoded) / count, 1),
        "leaking_share": round(leaking / count, 4),
        # run_detectors: the detectors plus the verdict assembly (diagnosis, labels)
        "run_detectors_events_per_s": rates["run_detectors"],
        # every detector's detect() and nothing else
        "detectors_only_events_per_s": rates["detectors_only"],
        "baseline_orjson_loads_per_s": base,
        # events/s relative to the baseline: < 1 means slower than decoding the events' JSON
        "ratio_vs_baseline": {
            name: {k: round(rates[name][k] / base[k], 3) for k in ("best", "median")}
            for name in ("run_detectors", "detectors_only")
        },
        "us_per_event": {name: round(1e6 / rate["best"], 2) for name, rate in rates.items()},
        "per_detector_events_per_s": _per_detector(exchanges, max(1, repeats // 2)),
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
        f"[{result['mix']}] {result['count']} events (seed {result['seed']}), "
        f"{result['repeats']} repeats; mean {result['mean_visible_chars']} visible chars, "
        f"{result['mean_event_bytes']} B/event, {result['leaking_share']:.1%} leaking",
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


def _profile(count: int, seed: int, mix: str) -> None:
    import cProfile
    import pstats

    exchanges, _ = build_mix(count, seed, mix)
    _detect_all(exchanges)(0, count)
    profiler = cProfile.Profile()
    profiler.runcall(_detect_all(exchanges), 0, count)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="The JSON's detectors_events_per_s is run_detectors' best events/s on the "
        "first mix measured (production unless --mix says otherwise).",
    )
    parser.add_argument("--count", type=int, default=None, help="events per mix (20000)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--repeats", type=int, default=None, help="timed passes (5)")
    parser.add_argument("--mix", choices=(*MIXES, "both"), default="both", help="(both)")
    parser.add_argument("--quick", action="store_true", help="3000 events, 3 repeats")
    parser.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    parser.add_argument("--profile", action="store_true", help="cProfile one pass and exit")
    parser.add_argument(
        "--build",
        choices=("both", "source", "compiled"),
        default="both" if native.available() else "source",
        help="the detectors as Python source, mypyc-compiled (detectors/native.py; built "
        "once into build/native), or both one after the other (both when mypyc is installed)",
    )
    args = parser.parse_args(argv)
    count = args.count or (3_000 if args.quick else 20_000)
    repeats = args.repeats or (3 if args.quick else 5)
    if count <= 0 or repeats <= 0:
        parser.error("--count and --repeats must be positive")
    mixes = MIXES if args.mix == "both" else (args.mix,)
    if args.profile:
        _profile(count, args.seed, mixes[0])
        return 0
    builds: dict[str, dict[str, Any]] = {}
    here = "compiled" if native.compiled() else "source"
    if args.build in (here, "both"):
        builds[here] = {mix: measure(count, args.seed, repeats, mix) for mix in mixes}
        print(f"Python {platform.python_version()} {platform.machine()}, detectors: {here}")
        print("\n\n".join(_table(r) for r in builds[here].values()), flush=True)
    if args.build in ("compiled", "both") and here == "source":
        print("\nbuilding the compiled detectors (cached in build/native) ...", flush=True)
        rest = argv if argv is not None else sys.argv[1:]
        builds["compiled"] = compiled_run(Path(__file__), rest)["mixes"]
    if args.json:
        # the headline figure: detectors + diagnosis, best repeat, first mix, fastest build
        build = "compiled" if "compiled" in builds else "source"
        first = builds[build][mixes[0]]
        summary = {
            "detectors_events_per_s": first["run_detectors_events_per_s"]["best"],
            "detectors_events_per_s_mix": mixes[0],
            "detectors_build": build,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "mixes": builds[build],
            "builds": builds,
        }
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 0


def compiled_run(script: Path, argv: Sequence[str]) -> dict[str, Any]:
    """``script argv --build compiled --json FILE`` in a child process that imports the
    mypyc-compiled build (``native.run_compiled``); the JSON it wrote."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "compiled.json"
        rest = without_options(argv, ("--build", "--json"))
        code = native.run_compiled(
            script, [*rest, "--build", "compiled", "--json", str(out)], REPO / "build" / "native"
        )
        if code != 0:
            raise SystemExit(f"the compiled run failed (exit {code})")
        result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
        return result


def without_options(argv: Sequence[str], names: tuple[str, ...]) -> list[str]:
    """``argv`` without the given options and their values (either spelling)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in names:
            skip = True
            continue
        if arg.split("=", 1)[0] in names:
            continue
        out.append(arg)
    return out


if __name__ == "__main__":
    raise SystemExit(main())
