"""Issue 36, finding 10: a dead letter's reason quotes the value that failed; what the DLQ
header, ``leakline dlq`` and the logs show is redacted and cut, the payload stays raw."""

from __future__ import annotations

import orjson
from aiokafka.structs import ConsumerRecord

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import REASON_HEADER, RawRecord, process_batch
from leakline.pipeline.events.redact import REASON_MAX_CHARS
from leakline.pipeline.worker.dead_letters import _decode

KEY = "sk-abcdefghijklmnopqrstuvwx1234"
PROSE = "the quarterly numbers of the merger nobody may know about yet " * 40


def _dead(event: object) -> tuple[str, bytes]:
    raw = orjson.dumps(event)
    result = process_batch(
        [RawRecord(b"k", raw, Origin("gateway.events", 0, 7))],
        worker_id="w",
        clean_text_rate=0.0,
        max_event_bytes=1 << 20,
    )
    (dead,) = result.dead_letters
    return dead.reason, dead.value


def test_a_schema_reason_does_not_echo_a_secret() -> None:
    reason, payload = _dead({"event_id": "e", "api": "chat.completions", "request": {},
                             "response": {}, "latency_ms": KEY})  # fmt: skip
    assert reason.startswith("schema violation at latency_ms") and "[API_KEY]" in reason
    assert KEY not in reason and KEY.encode() in payload  # the payload is kept as it came


def test_a_long_quoted_value_keeps_only_its_start() -> None:
    reason, _ = _dead({"event_id": "e", "api": "chat.completions", "request": {},
                       "response": {}, "latency_ms": PROSE})  # fmt: skip
    assert len(reason) <= REASON_MAX_CHARS
    assert "nobody may know" not in reason and "the quarterly" in reason


def test_letters_already_on_the_topic_are_shown_redacted() -> None:
    old = f"schema violation at model: '{KEY}' is not of type 'object' " + "x" * 2000
    record = ConsumerRecord(
        topic="gateway.events.dlq", partition=0, offset=3, timestamp=0, timestamp_type=0,
        key=b"gateway.events/0/7", value=b"{}", checksum=None, serialized_key_size=0,
        serialized_value_size=2, headers=[(REASON_HEADER, old.encode())],
    )  # fmt: skip
    letter = _decode(record)
    assert KEY not in letter.reason and len(letter.reason) <= REASON_MAX_CHARS
    assert letter.kind == "schema violation at model"


def test_reasons_are_made_safe_in_linear_time() -> None:
    import time

    from leakline.pipeline.events.redact import safe_reason

    for hostile in ("'a\\" * 20000, "'" * 60000, "'" + "a" * 60000, "\"'" * 30000):
        start = time.perf_counter()
        assert len(safe_reason(hostile)) <= REASON_MAX_CHARS
        assert time.perf_counter() - start < 0.5
