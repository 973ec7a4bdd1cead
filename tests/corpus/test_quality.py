"""The detectors' quality floor on the labeled corpus: the acceptance targets.

- precision and recall >= 0.98 for the structural labels
- >= 0.95 for tagged reasoning_leak
- preamble F1 >= 0.9 in each of English, Korean and Chinese (heuristics alone)
- clean false-positive rate <= 1%
- the full stack (rules + heuristics + the shipped classifier) on the clean precision set
  (precision_clean.jsonl: short clean answers, with whitespace around them or not):
  false-positive rate <= 0.5%, and its preamble recall on the corpus >= 0.95 per language
A detector change that costs quality fails here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import precision_src  # noqa: E402
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


@pytest.fixture(scope="module")
def shipped() -> object:
    model = quality.shipped_model()
    assert model is not None
    return model


def test_precision_set_is_built_from_its_source() -> None:
    assert precision_src.main(["--check"]) == 0, "run python tests/corpus/precision_src.py"


def test_precision_set_covers_the_ordinary_answers() -> None:
    items = quality.load_precision_set()
    assert len(items) >= 500 and len({i["id"] for i in items}) == len(items)
    for axis, wanted in (
        ("lang", {"en", "ko", "zh"}),
        ("kind", set(precision_src.BANKS)),
        ("whitespace", {w for w, _, _ in precision_src.WHITESPACE}),
        ("api", set(precision_src.APIS)),
    ):
        assert {i[axis] for i in items} == wanted, axis
    for lang in ("en", "ko", "zh"):
        assert sum(i["lang"] == lang for i in items) >= 150, lang


def test_full_stack_false_positive_rate_on_the_precision_set(shipped: object) -> None:
    measured = quality.evaluate_precision(quality.load_precision_set(), shipped)
    shown = quality.render_stack({}, measured)
    assert measured.fp_rate <= 0.005, shown + "\n" + "\n".join(map(str, measured.errors))


@pytest.mark.parametrize("lang", ["en", "ko", "zh"])
def test_full_stack_preamble_recall_per_language(shipped: object, lang: str) -> None:
    row = quality.stack_preamble(quality.load_cases(), shipped)[lang]
    assert row["tp"] + row["fn"] >= 20
    assert row["tp"] / (row["tp"] + row["fn"]) >= 0.95, row
