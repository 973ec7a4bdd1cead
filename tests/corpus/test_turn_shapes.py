"""Recall of stalled_turn / runaway_turn and false positives on their look-alikes, measured on
generator seeds (``turn_shapes.py``) that were not looked at while the rules were written."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import turn_shapes  # noqa: E402

from leakline.detectors import Exchange, run_detectors  # noqa: E402

SEEDS = range(1000, 1010)
PER_SEED = 30  # of each kind: 300 of each over the seeds, 100 per language
TURN_LABELS = {"stalled_turn", "runaway_turn"}


def measure() -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]], list[str]]:
    """(hits, totals) per (kind, language), and the texts a look-alike was flagged on."""
    hits: Counter[tuple[str, str]] = Counter()
    totals: Counter[tuple[str, str]] = Counter()
    flagged: list[str] = []
    for seed in SEEDS:
        for s in turn_shapes.samples(seed, PER_SEED):
            ex = Exchange("t", "chat.completions", False, s.text, finish_reason="stop",
                          prompt_text=s.prompt)  # fmt: skip
            labels = set(run_detectors(ex).labels)
            totals[(s.kind, s.lang)] += 1
            if s.label:
                hits[(s.kind, s.lang)] += s.label in labels
            elif labels & TURN_LABELS:
                hits[(s.kind, s.lang)] += 1
                flagged.append(s.text)
    return hits, totals, flagged


@pytest.fixture(scope="module")
def measured() -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]], list[str]]:
    return measure()


@pytest.mark.parametrize("kind", ["stalled", "runaway"])
@pytest.mark.parametrize("lang", turn_shapes.LANGS)
def test_recall_on_unseen_seeds(measured, kind: str, lang: str) -> None:
    hits, totals, _ = measured
    assert totals[(kind, lang)] >= 100
    assert hits[(kind, lang)] / totals[(kind, lang)] >= 0.9


def test_nothing_flagged_on_look_alikes(measured) -> None:
    _, _, flagged = measured
    assert flagged == []


if __name__ == "__main__":
    h, t, f = measure()
    for key in sorted(t):
        print(key, f"{h[key]}/{t[key]}", f"{h[key] / t[key]:.3f}")
    print("flagged look-alikes:", len(f))
