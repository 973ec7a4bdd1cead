"""Validate the labeled corpus under tests/corpus/cases/.

Checks that every event validates against pipeline/schemas/gateway_event.v1.json,
that case ids are unique and equal to the event ids, that labels are known,
sorted and distinct, that the case fields are present, and that the labels are
consistent with the event (see ``corpus_src/oracle.py``), and that the stream/stop
variant groups are well formed. Prints coverage per label, language, API and
family. Exit status 1 on any problem.

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
from corpus_src.shapes import HARDNEG_KINDS, LABELS, REASONING_FORMS  # noqa: E402
from corpus_src.stats import coverage  # noqa: E402

REPO = HERE.parents[1]
SCHEMA_PATH = REPO / "pipeline" / "schemas" / "gateway_event.v1.json"
LANGS = {"en", "ko", "zh", "ja"}
CASE_KEYS = {"case_id", "expected_labels", "family", "lang", "note", "event"}
OPTIONAL_KEYS = {"group", "kind", "reasoning_form"}
# request keys that may differ between the members of a variant group
VARIANT_KEYS = {"stream", "stop", "stream_options"}


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
        extra = case.keys() - CASE_KEYS - OPTIONAL_KEYS
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
        if "kind" in case and case["kind"] not in HARDNEG_KINDS:
            problems.append(f"{where}: unknown hard-negative kind {case['kind']!r}")
        if "reasoning_form" in case and case["reasoning_form"] not in REASONING_FORMS:
            problems.append(f"{where}: unknown reasoning_form {case['reasoning_form']!r}")
        if ("chunks" in event) != bool(event.get("stream")):
            problems.append(f"{where}: stream flag disagrees with chunks/response")
        if not unknown:
            try:
                problems.extend(f"{where}: {p}" for p in check_case(case))
            except Exception as exc:  # a malformed event must be reported, not crash the check
                problems.append(f"{where}: consistency check crashed: {exc!r}")
    problems.extend(check_groups([case for _, _, case in rows]))
    return problems


def _variant(case: dict[str, Any]) -> tuple[bool, bool]:
    """(streamed, stop set) of a case's request."""
    req = case["event"]["request"]
    return "chunks" in case["event"], bool(req.get("stop"))


def check_groups(cases: list[dict[str, Any]]) -> list[str]:
    """Members of a ``group`` send the same request (only stream/stop may differ) to the same
    model. A ``stopbug-*`` group holds all four stream x stop variants; only the streamed one
    with ``stop`` leaks (it carries ``boundary_token``), the other three are clean."""
    problems: list[str] = []
    groups: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        if "group" in case:
            groups.setdefault(case["group"], []).append(case)
    for name, members in sorted(groups.items()):
        if len(members) < 2:
            problems.append(f"group {name}: only one member")
            continue
        first = members[0]
        base = {k: v for k, v in first["event"]["request"].items() if k not in VARIANT_KEYS}
        for case in members[1:]:
            req = {k: v for k, v in case["event"]["request"].items() if k not in VARIANT_KEYS}
            if req != base:
                problems.append(f"group {name}: {case['case_id']} sends a different request")
            if case["event"]["model"] != first["event"]["model"]:
                problems.append(f"group {name}: {case['case_id']} uses another model")
        if name.startswith("stopbug-"):
            variants = sorted(_variant(c) for c in members)
            if variants != [(False, False), (False, True), (True, False), (True, True)]:
                problems.append(f"group {name}: needs exactly the four stream x stop variants")
            for case in members:
                leaky = _variant(case) == (True, True)
                labels = case["expected_labels"]
                if leaky and "boundary_token" not in labels:
                    problems.append(f"group {name}: the streamed+stop variant must leak")
                if not leaky and labels:
                    problems.append(f"group {name}: {case['case_id']} should be clean")
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
