"""Floors under reasoning detection inside structured answers (field level, both halves)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import structured_fields as sf  # noqa: E402

MIN_PRECISION = 0.95
MIN_RECALL = 0.85


def test_set_size_and_languages():
    answers = [a for half in sf.HALVES for a in sf.answers(half)]
    assert len(answers) >= 300
    assert {a.lang for a in answers} == {"en", "ko", "zh"}
    leaks = [a for a in answers if a.leaks]
    clean_prose = [a for a in answers if a.kind in ("description", "summary", "explanation")]
    assert len(leaks) >= 100 and len(clean_prose) >= 100
    for a in answers:  # every labeled path is a string field of its answer
        value = json.loads(a.event["response"]["choices"][0]["message"]["content"])
        assert a.leaks <= set(sf.string_paths(value)), a.case_id


@pytest.mark.parametrize("half", ["dev", "heldout"])
def test_field_level_precision_and_recall(half):
    quality = sf.evaluate(half)
    assert quality.precision() >= MIN_PRECISION, quality.errors
    assert quality.recall() >= MIN_RECALL, quality.errors
    for lang in ("en", "ko", "zh"):
        assert quality.recall(lang) >= 0.75, (lang, quality.errors)
