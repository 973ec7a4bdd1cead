"""A floor under the detectors' precision and recall on the labeled corpus.

The floor sits a little below today's figures, so a detector change that costs
quality fails here; raise it when the detectors improve.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import quality  # noqa: E402

from detectors import ALL_LABELS  # noqa: E402

PRECISION_FLOOR = 0.95
RECALL_FLOOR = {label: 0.95 for label in ALL_LABELS} | {"preamble": 0.8}


@pytest.fixture(scope="module")
def measured() -> quality.Quality:
    return quality.evaluate(quality.load_cases())


@pytest.mark.parametrize("label", ALL_LABELS)
def test_label_quality_floor(measured: quality.Quality, label: str) -> None:
    assert measured.tp[label] > 0, f"no true positives for {label}"
    assert measured.precision(label) >= PRECISION_FLOOR, quality.render(measured)
    assert measured.recall(label) >= RECALL_FLOOR[label], quality.render(measured)


def test_clean_cases_stay_clean(measured: quality.Quality) -> None:
    clean = [c for c in quality.load_cases() if not c["expected_labels"]]
    false_alarms = [e for e in measured.errors if not e["expected"]]
    assert len(false_alarms) <= len(clean) * 0.02, false_alarms
