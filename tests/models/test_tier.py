"""The classifier tier inside ``process_batch`` and offline ``detect``."""

from __future__ import annotations

import dataclasses
import io
from datetime import UTC, datetime

import orjson
import pytest
from classifier_kit import CAUGHT, CLEAN, MISSED, MISSED_KO, event

from leakline.detectors.classifier import DETECTOR_ID, OpeningClassifier
from leakline.detectors.labels import Source
from leakline.models.registry import SHIPPED_DIR, load_promoted
from leakline.pipeline.detect.offline import detect_stream
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch


def _records(payloads: list[bytes]) -> list[RawRecord]:
    return [RawRecord(None, p, Origin("gateway.events", 0, i)) for i, p in enumerate(payloads)]


@pytest.fixture(scope="module")
def model() -> OpeningClassifier:
    loaded = load_promoted(SHIPPED_DIR)
    assert loaded is not None
    return loaded


def _run(  # type: ignore[no-untyped-def]
    payloads: list[bytes],
    model: OpeningClassifier | None,
    threshold: float | None = None,
    clean_text_rate: float = 1.0,
):
    return process_batch(
        _records(payloads),
        worker_id="w",
        clean_text_rate=clean_text_rate,
        max_event_bytes=1 << 20,
        now=datetime(2026, 1, 1, tzinfo=UTC),
        classifier=model,
        classifier_threshold=threshold,
    )


def test_classifier_findings_are_added_with_source_and_version(model: OpeningClassifier) -> None:
    payloads = [
        event("missed", MISSED),
        event("missed-ko", MISSED_KO),
        event("caught", CAUGHT),
        event("clean", CLEAN),
        event("empty", ""),
        b"not json",
    ]
    result = _run(payloads, model)
    table = result.rows.table().to_pylist()
    rows = {r["event_id"]: r for r in table}
    assert set(rows) == {"missed", "missed-ko", "caught", "clean", "empty"}
    assert len(result.dead_letters) == 1
    # the version is on every row, leaking or not
    assert {r["classifier_version"] for r in table} == {model.version}

    for eid in ("missed", "missed-ko"):
        row = rows[eid]
        assert row["labels"] == ["preamble"], eid
        assert row["sources"] == ["classifier"]
        finding = orjson.loads(row["findings"])[0]
        assert finding["source"] == Source.CLASSIFIER.value
        assert finding["detector_id"] == DETECTOR_ID
        assert finding["detector_version"] == model.version
        assert finding["layer"] == "model" and finding["remediation"] == "strip"
        assert 0.5 <= finding["confidence"] <= 1.0
        start, end = finding["span"]
        assert start == 0 and row["visible_text"][start:end].rstrip().endswith((".", "요."))
        assert orjson.loads(row["detector_versions"])[DETECTOR_ID] == model.version
    # heuristics already flagged it: the classifier does not add a second preamble finding
    assert orjson.loads(rows["caught"]["findings"])[0]["source"] == "heuristic"
    assert len(orjson.loads(rows["caught"]["findings"])) == 1
    assert rows["clean"]["labels"] == []
    # an empty reply is the empty_response rule's (issue 34); the classifier adds nothing
    assert rows["empty"]["labels"] == ["empty_response"] and rows["empty"]["sources"] == ["rule"]
    # leak.samples carries the classifier's findings and version too
    samples = {orjson.loads(s.value)["event_id"]: orjson.loads(s.value) for s in result.samples}
    assert set(samples) == {"missed", "missed-ko", "caught", "empty"}
    assert samples["missed"]["findings"][0]["source"] == "classifier"
    assert samples["missed"]["classifier_version"] == model.version


def test_an_event_the_classifier_makes_a_leak_is_stored_whole(model: OpeningClassifier) -> None:
    # At a clean-text rate of 0 a batch lets go of a clean event right after detection and
    # keeps the few fields its row reads; one the classifier then labels is decoded again
    # and stored whole, exactly as when every event is kept.
    payloads = [event("missed", MISSED, usage_note="x"), event("clean", CLEAN)]
    everything = {r["event_id"]: r for r in _run(payloads, model).rows.table().to_pylist()}
    result = _run(payloads, model, clean_text_rate=0.0)
    rows = {r["event_id"]: r for r in result.rows.table().to_pylist()}
    assert rows["missed"]["labels"] == ["preamble"] and rows["missed"]["text_stored"]
    assert rows["missed"]["event_json"] is not None
    assert rows["missed"] == everything["missed"]
    assert not rows["clean"]["text_stored"] and rows["clean"]["event_json"] is None
    unstored = ("text_stored", "visible_text", "reasoning_text", "event_json")
    for name, value in rows["clean"].items():
        if name not in unstored:
            assert value == everything["clean"][name], name
    assert [orjson.loads(s.value)["event_id"] for s in result.samples] == ["missed"]


def test_threshold_is_configurable(model: OpeningClassifier) -> None:
    payloads = [event("missed", MISSED), event("clean", CLEAN)]
    strict = _run(payloads, model, threshold=1.0).rows.table().to_pylist()
    assert [r["labels"] for r in strict] == [[], []]
    assert {r["classifier_version"] for r in strict} == {model.version}
    # at 0 every candidate is a preamble; a one-sentence answer never is one (the gate)
    payloads.append(event("clean-2", CLEAN + " Other days it costs $12."))
    loose = _run(payloads, model, threshold=0.0).rows.table().to_pylist()
    assert [r["labels"] for r in loose] == [["preamble"], [], ["preamble"]]


def test_without_a_classifier_rows_say_so(model: OpeningClassifier) -> None:
    rows = _run([event("missed", MISSED)], None).rows.table().to_pylist()
    assert rows[0]["labels"] == [] and rows[0]["classifier_version"] is None


def test_a_structured_tool_call_is_not_a_preamble(model: OpeningClassifier) -> None:
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "lookup", "arguments": "{}"},
    }
    payload = event("call", MISSED, tool_calls=[call])
    rows = _run([payload], model, threshold=0.0).rows.table().to_pylist()
    assert "preamble" not in rows[0]["labels"]


def test_offline_detect_uses_the_same_tier(model: OpeningClassifier) -> None:
    source = io.BytesIO(b"\n".join([event("missed", MISSED), event("clean", CLEAN), b"{"]))
    sink = io.StringIO()
    summary = detect_stream(source, sink, 1 << 20, classifier=model)
    lines = [orjson.loads(x) for x in sink.getvalue().splitlines()]
    assert [x.get("labels") for x in lines] == [["preamble"], [], None]
    assert lines[0]["findings"][0]["source"] == "classifier"
    assert summary.valid == 2 and summary.invalid == 1 and summary.leaking == 1


def test_a_reasoning_head_adds_reasoning_leak_findings(model: OpeningClassifier) -> None:
    # the artifact format carries any of the two heads; reuse the preamble weights so the
    # outcome is known: what the preamble head flags, this head flags as reasoning_leak
    base = model.head("preamble")
    assert base is not None
    head = dataclasses.replace(base, label="reasoning_leak")
    both = dataclasses.replace(model, heads=(base, head))
    rows = _run([event("missed", MISSED), event("clean", CLEAN)], both).rows.table().to_pylist()
    assert rows[0]["labels"] == ["preamble", "reasoning_leak"] and rows[1]["labels"] == []
    findings = {f["label"]: f for f in orjson.loads(rows[0]["findings"])}
    assert findings["reasoning_leak"]["remediation"] == "regenerate"
    assert findings["reasoning_leak"]["source"] == "classifier"


def test_classifier_evidence_is_redacted(model: OpeningClassifier) -> None:
    text = "Let me sift through the logs for jane.doe@example.com.\n\nThe crash starts at boot."
    rows = _run([event("pii", text)], model, threshold=0.0).rows.table().to_pylist()
    assert rows[0]["labels"] == ["preamble"]
    assert "jane.doe@example.com" not in rows[0]["findings"]
    assert "jane.doe@example.com" not in (rows[0]["visible_text"] or "")
