"""The registry: tier order, unknown names, and the shared verdict shape."""

from __future__ import annotations

import pytest

from leakline.detectors import Exchange, Source, get_detector, registered, run_detectors
from leakline.detectors.base import UnknownDetectorError


def test_rules_run_before_heuristics() -> None:
    sources = [d.source for d in registered().values()]
    first_heuristic = sources.index(Source.HEURISTIC)
    assert all(s is Source.RULE for s in sources[:first_heuristic])
    assert all(s is not Source.RULE for s in sources[first_heuristic:])


def test_unknown_detector_lists_the_known_ones() -> None:
    with pytest.raises(UnknownDetectorError) as info:
        get_detector("boundary_token")  # the label, not the detector id
    assert "boundary_tokens" in str(info.value)


def test_clean_verdict_records_every_detector_version() -> None:
    verdict = run_detectors(
        Exchange(event_id="e", api="chat.completions", stream=False, visible_text="Paris.")
    )
    assert verdict.labels == () and not verdict.leaking
    assert set(verdict.detector_versions) == set(registered())
