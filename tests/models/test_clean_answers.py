"""Precision on ordinary clean answers (issue 14): whitespace around a text (or the layout
inside it) never changes its score, and a reply that is one sentence is not a preamble, in
either tier."""

from __future__ import annotations

import dataclasses

import numpy as np
import orjson
import pytest
from classifier_kit import MISSED, MISSED_KO, event

from leakline.detectors import Exchange, run_detectors
from leakline.detectors.classifier import (
    DETECTOR_ID,
    ArtifactError,
    FeatureSpec,
    OpeningClassifier,
    classify,
    featurize,
    opening,
)
from leakline.models.data import read_corpus, read_precision_set, read_texts, text_group
from leakline.models.registry import SHIPPED_DIR, load_promoted
from leakline.pipeline.detect.offline import detect_lines

# what the issue reported: a short clean answer ending in a newline was called a preamble
PROBES = [
    "Hello there.",
    "Hello there.\n",
    "Sure.",
    "Sure.\n\n",
    "Hello! How can I help?",
    "Hello! How can I help?\n\n",
]
PREAMBLE = "Let me check that.\n\nThe answer is 42."
PADDINGS = [("\n", ""), ("", "\n"), ("", "\n\n"), ("  ", " \n\t"), ("\r\n", "\r\n\r\n"), ("", " ")]


@pytest.fixture(scope="module")
def model() -> OpeningClassifier:
    loaded = load_promoted(SHIPPED_DIR)
    assert loaded is not None
    return loaded


def _labels(texts: list[str], model: OpeningClassifier) -> list[list[str]]:
    raws = [event(f"e{i}", text) for i, text in enumerate(texts)]
    out = detect_lines(raws, 1 << 20, classifier=model)
    return [line["labels"] for line in out]  # type: ignore[misc]


def test_the_reported_probes_are_clean(model: OpeningClassifier) -> None:
    assert _labels(PROBES, model) == [[]] * len(PROBES)


def test_a_real_preamble_still_fires(model: OpeningClassifier) -> None:
    texts = [PREAMBLE, PREAMBLE + "\n\n", "\n" + PREAMBLE + " \n"]
    assert _labels(texts, model) == [["preamble"]] * 3


@pytest.mark.parametrize("text", [MISSED, MISSED_KO], ids=["en", "ko"])
def test_the_classifier_still_fires_with_whitespace_around(
    model: OpeningClassifier, text: str
) -> None:
    raws = [event(f"e{i}", f"{before}{text}{after}") for i, (before, after) in enumerate(PADDINGS)]
    for line in detect_lines(raws, 1 << 20, classifier=model):
        assert line["labels"] == ["preamble"], line
        findings = line["findings"]
        assert isinstance(findings, list) and findings[0]["detector_id"] == DETECTOR_ID


def _all_texts() -> list[str]:
    return [e.text for e in read_corpus() + read_texts(0) + read_precision_set()]


def test_whitespace_around_a_text_never_changes_its_score(model: OpeningClassifier) -> None:
    texts = _all_texts()
    assert len(texts) > 1500
    base = model.scores(texts)
    for before, after in PADDINGS:
        padded = model.scores([before + t + after for t in texts])
        np.testing.assert_array_equal(padded, base, err_msg=repr((before, after)))
    # the stripped text too: the features are those of the text without the whitespace
    np.testing.assert_array_equal(model.scores([t.strip() for t in texts]), base)


def test_featurize_sees_the_same_features_with_whitespace_around() -> None:
    spec = FeatureSpec()
    texts = _all_texts()[::7]
    row, col, value = featurize(texts, spec)
    for before, after in PADDINGS:
        got = featurize([before + t + after for t in texts], spec)
        for a, b in zip((row, col, value), got, strict=True):
            np.testing.assert_array_equal(a, b)


def test_an_artifact_without_a_whitespace_mode_is_scored_as_it_was_trained() -> None:
    legacy = {k: v for k, v in FeatureSpec().to_dict().items() if k != "whitespace"}
    old = FeatureSpec.from_dict(legacy)
    assert old.whitespace == "raw"
    assert dataclasses.replace(old, whitespace="collapsed") == FeatureSpec()
    assert opening("  Sure.\n\n", old) == "sure.\n\n"
    assert opening("  Sure.\n\n", FeatureSpec()) == "sure."
    with pytest.raises(ArtifactError, match="whitespace"):
        FeatureSpec.from_dict({**legacy, "whitespace": "squeezed"})


LAYOUTS = [
    ("Let me check.\n\nThe answer is 42.", "Let me check. The answer is 42."),
    ("Sure.\n\nIt opens at 9.", "Sure.\nIt opens at 9."),
    ("Done.\r\n\r\nTell me if you need more.", "Done.  Tell me if you need more."),
    ("네.\n\n\n9시에 엽니다.", "네. 9시에 엽니다."),
    ("好的。\n\n九点开门。", "好的。 九点开门。"),
]


@pytest.mark.parametrize(("one", "other"), LAYOUTS)
def test_the_layout_inside_a_text_never_changes_its_score(
    model: OpeningClassifier, one: str, other: str
) -> None:
    # a blank line after the first sentence is what short clean answers have too
    np.testing.assert_array_equal(model.scores([one]), model.scores([other]))


def test_a_newline_still_ends_the_first_sentence() -> None:
    spec = FeatureSpec()
    joined = featurize(["let me check the docs the answer is 42"], spec)[1]
    broken = featurize(["let me check the docs\nthe answer is 42"], spec)[1]
    assert sorted(joined.tolist()) != sorted(broken.tolist())


def test_opening_reads_past_long_whitespace_runs() -> None:
    spec = FeatureSpec(opening_chars=20)
    text = "Sure." + " " * 500 + "\n" + "x" * 100
    assert opening(text, spec) == "sure.\n" + "x" * 14
    assert opening("a" + " " * 1000, spec) == "a"


def _exchange(i: int, text: str) -> Exchange:
    return Exchange(
        event_id=f"x{i}",
        api="chat.completions",
        stream=False,
        visible_text=text,
        finish_reason="stop",
    )


def test_the_gate_keeps_one_sentence_replies_from_the_classifier(
    model: OpeningClassifier,
) -> None:
    opening_only = MISSED.split("\n")[0]  # "Let me sift through the error log."
    texts = [opening_only, opening_only + "\n\n", "Sure! " + opening_only, MISSED]
    pairs = [(ex, run_detectors(ex)) for ex in (_exchange(i, t) for i, t in enumerate(texts))]
    # even a threshold of 0 (every text a preamble) leaves what the gate refuses alone
    verdicts = classify(pairs, model, threshold=0.0)
    assert [v.labels for v in verdicts] == [(), (), (), ("preamble",)]


def test_the_finding_covers_the_sentence_after_a_lead_in(model: OpeningClassifier) -> None:
    text = "Sure! " + MISSED
    (verdict,) = classify([(_exchange(0, text), run_detectors(_exchange(0, text)))], model, 0.0)
    (finding,) = verdict.findings
    assert finding.detector_id == DETECTOR_ID
    start, end = finding.span  # type: ignore[misc]
    assert text[start:end] == "Sure! Let me sift through the error log."


def test_the_shipped_card_records_the_clean_set(model: OpeningClassifier) -> None:
    card = orjson.loads((SHIPPED_DIR / model.version / "card.json").read_bytes())
    assert card["features"]["whitespace"] == "collapsed" == model.spec.whitespace
    clean = card["clean_set"]
    assert clean["items"] == len(read_precision_set())
    assert clean["heuristics+classifier"]["all"]["fp_rate"] <= 0.005


def test_the_precision_set_was_never_trained_on() -> None:
    trained = {text_group(e.text) for e in read_corpus() + read_texts(0)}
    assert not {text_group(e.text) for e in read_precision_set()} & trained
