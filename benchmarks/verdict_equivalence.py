"""Verdict equivalence for performance-only detector changes.

Runs ``run_detectors`` over the labeled corpus (tests/corpus/cases), the invented dev and
held-out splits (``tests/corpus/invented_shapes.py``) and simulated production- and
demo-mix events, and digests every finding (detector id, label, span, confidence, details,
evidence, version) per event. ``--write FILE`` stores the digests (run it on the old code),
``--check FILE`` compares the current code against them and exits 1 on any difference.
Held-out cases are never printed: a mismatch there is reported by index only.

    python benchmarks/verdict_equivalence.py --write /tmp/before.json   # old code
    python benchmarks/verdict_equivalence.py --check /tmp/before.json   # new code

Run both with the same build (source or compiled) when the build itself is not the question.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from leakline.detectors import native, run_detectors  # noqa: E402
from leakline.pipeline.events.contract import validate_event  # noqa: E402
from leakline.pipeline.events.normalise import normalise  # noqa: E402
from leakline.pipeline.simulate.traffic_model import PRODUCTION_MIX, Mix, simulate  # noqa: E402


def _corpus() -> Iterator[dict[str, Any]]:
    for path in sorted((REPO / "tests" / "corpus" / "cases").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)["event"]


def _invented(split: str) -> Iterator[dict[str, Any]]:
    from tests.corpus.invented_shapes import generate_split

    for case in generate_split(split):
        yield case["event"]


def _simulated(count: int, mix: str) -> Iterator[dict[str, Any]]:
    traffic = PRODUCTION_MIX if mix == "production" else Mix()
    for sim in simulate(count, seed=29, mix=traffic):
        yield sim.event


def _digest(event: dict[str, Any]) -> str:
    verdict = run_detectors(normalise(validate_event(event)))
    rows = [
        [
            f.detector_id,
            f.detector_version,
            f.label,
            list(f.span) if f.span is not None else None,
            repr(f.confidence),
            f.evidence,
            f.layer.value,
            f.details,
        ]
        for f in verdict.findings
    ]
    blob = json.dumps(rows, sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.blake2b(blob.encode(), digest_size=8).hexdigest()


def digests(production: int, demo: int) -> dict[str, list[str]]:
    sources = {
        "corpus": _corpus(),
        "invented_dev": _invented("dev"),
        "invented_heldout": _invented("heldout"),
        "production": _simulated(production, "production"),
        "demo": _simulated(demo, "demo"),
    }
    return {name: [_digest(event) for event in events] for name, events in sources.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="FILE")
    group.add_argument("--check", metavar="FILE")
    parser.add_argument("--production", type=int, default=20_000)
    parser.add_argument("--demo", type=int, default=10_000)
    args = parser.parse_args()
    build = "compiled" if native.compiled() else "source"
    got = digests(args.production, args.demo)
    if args.write:
        Path(args.write).write_text(json.dumps({"build": build, "digests": got}), encoding="utf-8")
        print(f"wrote {sum(map(len, got.values()))} event digests ({build} build) to {args.write}")
        return 0
    want = json.loads(Path(args.check).read_text(encoding="utf-8"))["digests"]
    failed = False
    for name, mine in got.items():
        theirs = want.get(name, [])
        differ = [i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b]
        if len(mine) != len(theirs) or differ:
            failed = True
        print(
            f"{name}: {len(mine)} events, {len(differ)} differ"
            + (f" (first: {differ[:5]})" if differ else "")
        )
    print("DIFFERENT" if failed else f"all findings equal ({build} build)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
