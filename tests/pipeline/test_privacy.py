"""Nothing unredacted is stored or published unless raw storage is chosen explicitly."""

from __future__ import annotations

import orjson

from leakline.pipeline.core.process import RawRecord, process_batch
from leakline.pipeline.core.redact import Redactor
from leakline.pipeline.core.rows import Origin

SECRET_TEXT = (
    "<think>The user jane.doe@example.com wants key sk-abcdefghijklmnopqrstuvwx1234 checked.</think>"
    "Call me at +82 10-1234-5678 or pay with 4111 1111 1111 1111."
)


def _record() -> RawRecord:
    event = {
        "event_id": "p1",
        "api": "chat.completions",
        "request": {},
        "response": {"choices": [{"message": {"content": SECRET_TEXT}, "finish_reason": "stop"}]},
    }
    return RawRecord(b"p1", orjson.dumps(event), Origin("gateway.events", 0, 0))


def _stored(redactor: Redactor | None) -> tuple[dict, dict]:
    result = process_batch(
        [_record()], worker_id="w", clean_text_rate=0.0, max_event_bytes=1 << 20, redactor=redactor
    )
    row = {k: v[0] for k, v in result.rows.columns.items()}
    sample = orjson.loads(result.samples[0].value)
    return row, sample


SECRETS = [
    "jane.doe@example.com",
    "sk-abcdefghijklmnopqrstuvwx1234",
    "10-1234-5678",
    "4111 1111 1111 1111",
]


def test_default_redacts_rows_findings_and_samples() -> None:
    row, sample = _stored(None)
    blob = orjson.dumps([row["visible_text"], row["findings"], sample]).decode()
    for secret in SECRETS:
        assert secret not in blob
    assert "[EMAIL]" in row["visible_text"] and "[CARD]" in row["visible_text"]
    assert "boundary_token" in row["labels"]


def test_spans_point_at_the_same_markup_after_redaction() -> None:
    row, _ = _stored(None)
    text = row["visible_text"]
    for finding in orjson.loads(row["findings"]):
        if finding["label"] == "boundary_token" and finding["span"]:
            start, end = finding["span"]
            assert text[start:end] in ("<think>", "</think>")


def test_raw_storage_is_an_explicit_opt_in() -> None:
    row, sample = _stored(Redactor.raw())
    assert row["visible_text"] == SECRET_TEXT and sample["visible_text"] == SECRET_TEXT
