"""Regenerate the hand-made labeled corpus under tests/corpus/cases/.

    python3 tests/corpus/build_corpus.py            # write cases/*.jsonl and print coverage
    python3 tests/corpus/build_corpus.py --check    # fail if the files on disk are stale

The cases themselves are written by hand in ``corpus_src/cases_*.py``; this
script only renders them into gateway events and writes one JSONL file per
theme. Output is deterministic.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus_src.shapes import CASES, THEME_FILES  # noqa: E402
from corpus_src.stats import coverage  # noqa: E402

CASE_MODULES = (
    "cases_boundary",
    "cases_streaming",
    "cases_tools",
    "cases_structured",
    "cases_preamble",
    "cases_truncation",
    "cases_responses",
    "cases_messages",
    "cases_clean",
    "cases_hardneg",
    "cases_ko_zh",
    "cases_stop_variants",
    "cases_families",
    "cases_tool_formats",
    "cases_preamble_lang",
    "cases_hardneg_more",
    "cases_streaming_more",
    "cases_labels_more",
    "cases_generic",
)


def render() -> dict[str, str]:
    for name in CASE_MODULES:
        importlib.import_module(f"corpus_src.{name}")
    files: dict[str, str] = {}
    for theme, filename in THEME_FILES.items():
        rows = CASES.get(theme, [])
        files[filename] = "".join(
            json.dumps(c, ensure_ascii=False, sort_keys=False) + "\n" for c in rows
        )
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--check", action="store_true", help="compare with the files on disk instead of writing"
    )
    ap.add_argument("--out", type=Path, default=HERE / "cases")
    args = ap.parse_args(argv)

    files = render()
    if args.check:
        stale = [
            n
            for n, text in files.items()
            if not (args.out / n).exists() or (args.out / n).read_text() != text
        ]
        if stale:
            print("stale corpus files: " + ", ".join(stale), file=sys.stderr)
            return 1
        print("corpus files are up to date")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    all_cases = [c for rows in CASES.values() for c in rows]
    print(f"wrote {len(files)} files to {args.out}")
    print(coverage(all_cases))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
