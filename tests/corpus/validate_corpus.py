"""Validate the labeled corpus under tests/corpus/cases/.

Checks that every event validates against pipeline/schemas/gateway_event.v1.json,
that case ids are unique and equal to the event ids, that labels are known,
sorted and distinct, that the case fields are present, and that the labels are
consistent with the event (see ``corpus_src/oracle.py``). Prints coverage per
label, language, API and family. Exit status 1 on any problem.

    python3 tests/corpus/validate_corpus.py [--quiet]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus_src.oracle import check_case  # noqa: E402
from corpus_src.shapes import LABELS  # noqa: E402
from corpus_src.stats import coverage  # noqa: E402

REPO = HERE.parents[1]
SCHEMA_PATH = REPO / "pipeline" / "schemas" / "gateway_event.v1.json"
LANGS = {"en", "ko", "zh", "ja"}
CASE_KEYS = {"case_id", "expected_labels", "family", "lang", "note", "event"}


def load_cases(cases_dir: Path = HERE / "cases") -> list[tuple[str, int, dict[str, Any]]]:
    rows = []
    for path in sorted(cases_dir.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if line.strip():
                    rows.append((path.name, lineno, json.loads(line)))
    return rows


def validate(rows: list[tuple[str, int, dict[str, Any]]]) -> list[str]:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    problems: list[str] = []
    seen: dict[str, str] = {}
    for fname, lineno, case in rows:
        where = f"{fname}:{lineno}"
        missing = CASE_KEYS - case.keys()
        extra = case.keys() - CASE_KEYS
        if missing or extra:
            problems.append(
                f"{where}: case keys missing {sorted(missing)} / unexpected {sorted(extra)}"
            )
            continue
        cid = case["case_id"]
        where = f"{where} {cid}"
        if cid in seen:
            problems.append(f"{where}: duplicate case_id (also {seen[cid]})")
        seen[cid] = where
        event = case["event"]
        if event.get("event_id") != cid:
            problems.append(f"{where}: event_id {event.get('event_id')!r} differs from case_id")
        for err in validator.iter_errors(event):
            problems.append(f"{where}: schema: {err.message} at {list(err.absolute_path)}")
        labels = case["expected_labels"]
        unknown = [label for label in labels if label not in LABELS]
        if unknown:
            problems.append(f"{where}: unknown labels {unknown}")
        if labels != sorted(set(labels)):
            problems.append(f"{where}: expected_labels must be sorted and distinct")
        if case["lang"] not in LANGS:
            problems.append(f"{where}: unknown lang {case['lang']!r}")
        if not case["note"].strip() or not case["family"].strip():
            problems.append(f"{where}: empty note or family")
        if ("chunks" in event) != bool(event.get("stream")):
            problems.append(f"{where}: stream flag disagrees with chunks/response")
        if not unknown:
            try:
                problems.extend(f"{where}: {p}" for p in check_case(case))
            except Exception as exc:  # a malformed event must be reported, not crash the check
                problems.append(f"{where}: consistency check crashed: {exc!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quiet", action="store_true", help="do not print the coverage tables")
    args = ap.parse_args(argv)
    rows = load_cases()
    if not rows:
        print("no cases found; run build_corpus.py first", file=sys.stderr)
        return 1
    problems = validate(rows)
    if not args.quiet:
        print(coverage([case for _, _, case in rows]))
    if problems:
        print(f"\n{len(problems)} problem(s):", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        return 1
    print(f"\nOK: {len(rows)} cases valid")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
