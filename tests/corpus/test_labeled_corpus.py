"""The hand-made labeled corpus is valid, internally consistent and up to date."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import build_corpus  # noqa: E402
import validate_corpus  # noqa: E402
from corpus_src.shapes import LABELS  # noqa: E402


def _cases() -> list[dict]:
    return [case for _, _, case in validate_corpus.load_cases()]


def test_files_match_the_sources() -> None:
    rendered = build_corpus.render()
    for name, text in rendered.items():
        on_disk = (HERE / "cases" / name).read_text(encoding="utf-8")
        assert on_disk == text, f"{name} is stale: run python3 tests/corpus/build_corpus.py"


def test_every_case_validates_and_is_consistent() -> None:
    problems = validate_corpus.validate(validate_corpus.load_cases())
    assert not problems, "\n".join(problems)


def test_coverage_floor() -> None:
    cases = _cases()
    per_label = Counter(label for c in cases for label in c["expected_labels"])
    for label in LABELS:
        assert per_label[label] >= 12, f"{label} has only {per_label[label]} positive cases"
    clean = sum(1 for c in cases if not c["expected_labels"])
    assert clean / len(cases) >= 0.40
    langs = Counter(c["lang"] for c in cases)
    assert {"en", "ko", "zh"} <= set(langs)
