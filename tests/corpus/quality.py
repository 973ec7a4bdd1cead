#!/usr/bin/env python3
"""Per-label precision/recall of the detectors on leakline's own labeled corpus.

python tests/corpus/quality.py            # the table
python tests/corpus/quality.py --errors   # plus every disagreeing case
python tests/corpus/quality.py --json     # machine-readable
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from detectors import ALL_LABELS, run_detectors
from pipeline.contract import validate_event
from pipeline.normalise import normalise

CASES_DIR = Path(__file__).resolve().parent / "cases"


@dataclass
class Quality:
    cases: int = 0
    exact: int = 0
    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    fn: Counter[str] = field(default_factory=Counter)
    errors: list[dict[str, object]] = field(default_factory=list)

    def precision(self, label: str) -> float:
        found = self.tp[label] + self.fp[label]
        return self.tp[label] / found if found else 1.0

    def recall(self, label: str) -> float:
        actual = self.tp[label] + self.fn[label]
        return self.tp[label] / actual if actual else 1.0

    def as_dict(self) -> dict[str, object]:
        return {
            "cases": self.cases,
            "exact_match": round(self.exact / self.cases, 4) if self.cases else 0.0,
            "labels": {
                label: {
                    "tp": self.tp[label],
                    "fp": self.fp[label],
                    "fn": self.fn[label],
                    "precision": round(self.precision(label), 4),
                    "recall": round(self.recall(label), 4),
                }
                for label in ALL_LABELS
            },
        }


def load_cases(cases_dir: Path = CASES_DIR) -> list[dict]:
    cases = []
    for path in sorted(cases_dir.glob("*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            cases.extend(json.loads(line) for line in handle if line.strip())
    return cases


def evaluate(cases: list[dict]) -> Quality:
    quality = Quality()
    for case in cases:
        expected = set(case["expected_labels"])
        got = set(run_detectors(normalise(validate_event(case["event"]))).labels)
        quality.cases += 1
        quality.exact += got == expected
        for label in got & expected:
            quality.tp[label] += 1
        for label in got - expected:
            quality.fp[label] += 1
        for label in expected - got:
            quality.fn[label] += 1
        if got != expected:
            quality.errors.append(
                {
                    "case_id": case["case_id"],
                    "expected": sorted(expected),
                    "got": sorted(got),
                    "note": case.get("note", ""),
                }
            )
    return quality


def render(quality: Quality) -> str:
    lines = [f"{'label':<22}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}"]
    for label in ALL_LABELS:
        lines.append(
            f"{label:<22}{quality.tp[label]:>5}{quality.fp[label]:>5}{quality.fn[label]:>5}"
            f"{quality.precision(label):>11.3f}{quality.recall(label):>8.3f}"
        )
    lines.append(
        f"{quality.cases} cases, exact label-set match {quality.exact / max(quality.cases, 1):.1%}"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--errors", action="store_true", help="list every case whose labels disagree"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    quality = evaluate(load_cases())
    if args.json:
        print(json.dumps(quality.as_dict(), indent=2))
    else:
        print(render(quality))
    if args.errors:
        for error in quality.errors:
            print(json.dumps(error, ensure_ascii=False), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
