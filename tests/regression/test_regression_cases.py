"""Replay every stored regression case through the detectors (one test per case).

The cases in ``cases/`` come from a real export (``seed_cases.py``): the redacted
gateway event as the worker stored it and the labels it got. A detector change that
flips one of these verdicts fails here; if the change is intended, re-seed and
review the diff.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from leakline.detectors import run_detectors
from leakline.detectors.base import default_detectors
from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.curation.regression import (
    FORMAT,
    ReplayResult,
    case_bytes,
    case_paths,
    content_hash,
    load_case,
    replay_case,
)
from leakline.pipeline.events.normalise import normalise

HERE = Path(__file__).resolve().parent
CASES = case_paths(HERE)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_stored_verdict_still_holds(path: Path) -> None:
    result = replay_case(load_case(path))
    assert result.ok, result.explain()


def test_the_suite_is_seeded_and_intact() -> None:
    manifest = json.loads((HERE / "manifest.json").read_text("utf-8"))
    assert manifest["format"] == FORMAT
    assert manifest["counts"]["cases"] == len(CASES) >= 60
    # the files are the ones the export wrote: nothing edited by hand, nothing missing
    assert manifest["content_hash"] == content_hash(p.read_bytes() for p in CASES)
    cases = [load_case(p) for p in CASES]
    assert all(case_bytes(c) == p.read_bytes() for c, p in zip(cases, CASES, strict=True))
    assert all(p.stem == c["case_id"] for c, p in zip(cases, CASES, strict=True))
    labels = {label for c in cases for label in c["expected_labels"]}
    assert labels <= set(ALL_LABELS) and len(labels) >= 6
    assert sum(1 for c in cases if not c["expected_labels"]) >= 10  # clean negatives
    assert {c["event"]["api"] for c in cases} == {"chat.completions", "responses", "messages"}
    assert {c["origin"]["stream"] for c in cases} == {True, False}
    assert len({c["origin"]["model"]["name"] for c in cases}) >= 8


def _leaking_case() -> dict:
    return next(c for c in map(load_case, CASES) if c["expected_labels"])


def test_a_wrong_expected_label_is_reported() -> None:
    case = copy.deepcopy(_leaking_case())
    expected = case["expected_labels"]
    flipped = sorted(set(ALL_LABELS) - set(expected))[:1]
    case["expected_labels"] = flipped
    result = replay_case(case)
    assert not result.ok
    assert result.actual == tuple(expected)
    assert "no longer detected" in result.explain() and "newly detected" in result.explain()


def test_a_detector_change_that_flips_a_verdict_fails() -> None:
    case = _leaking_case()
    assert replay_case(case).ok
    # the same case against a detector set without the detectors that found its labels
    found = {f.detector_id for f in run_detectors(normalise(case["event"])).findings}
    weaker = [d for d in default_detectors() if d.id not in found]
    result = replay_case(case, weaker)
    assert not result.ok and result.actual != tuple(case["expected_labels"])
    assert "no longer detected" in result.explain()


def test_an_invalid_event_is_a_failure_not_a_crash() -> None:
    case = copy.deepcopy(_leaking_case())
    del case["event"]["api"]
    result = replay_case(case)
    assert isinstance(result, ReplayResult) and not result.ok
    assert result.error is not None and "invalid gateway event" in result.explain()
