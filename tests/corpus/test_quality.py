"""The detectors' quality floor on the labeled corpus: the acceptance targets.

- precision and recall >= 0.98 for the structural labels
- >= 0.95 for tagged reasoning_leak
- preamble F1 >= 0.9 in each of English, Korean and Chinese (heuristics alone)
- clean false-positive rate <= 1%
A detector change that costs quality fails here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import quality  # noqa: E402

STRUCTURAL = [
    "boundary_token",
    "tool_call_as_text",
    "tool_args_invalid",
    "structured_invalid",
    "truncated",
    "final_in_reasoning",
    "commentary_rendered",
    "mixed_chunk",
]


@pytest.fixture(scope="module")
def measured() -> quality.Quality:
    return quality.evaluate(quality.load_cases())


@pytest.mark.parametrize("label", STRUCTURAL)
def test_structural_labels(measured: quality.Quality, label: str) -> None:
    assert measured.tp[label] > 0
    assert measured.precision(label) >= 0.98, quality.render(measured)
    assert measured.recall(label) >= 0.98, quality.render(measured)


def test_tagged_reasoning_leak(measured: quality.Quality) -> None:
    assert measured.precision("reasoning_leak") >= 0.95
    assert measured.form_recall("tagged") >= 0.95


@pytest.mark.parametrize("lang", ["en", "ko", "zh"])
def test_preamble_f1_per_language(measured: quality.Quality, lang: str) -> None:
    assert measured.lang_f1("preamble", lang) >= 0.9, quality.render(measured)


def test_clean_false_positive_rate(measured: quality.Quality) -> None:
    assert measured.clean_fp_rate <= 0.01, quality.render(measured)
