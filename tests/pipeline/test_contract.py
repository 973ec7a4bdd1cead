"""The gateway event contract v1: what is accepted and the reasons for what is not."""

from __future__ import annotations

import pytest

from pipeline.contract import ContractError, decode_event, event_schema

VALID = b'{"event_id": "a", "api": "chat.completions", "request": {}, "response": {}}'


def test_minimal_event_is_valid() -> None:
    assert decode_event(VALID)["event_id"] == "a"


def test_schema_is_published_in_the_package() -> None:
    schema = event_schema()
    assert schema["required"] == ["event_id", "api", "request"]


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        pytest.param(b'{"event_id": "a", "api": "chat.comp', "not valid JSON", id="truncated"),
        pytest.param(b"\xff\xfe{}", "not valid JSON", id="invalid_utf8"),
        pytest.param(b"[1, 2]", "must be a JSON object", id="array"),
        pytest.param(
            b'{"api": "responses", "request": {}, "response": {}}', "event_id", id="missing_id"
        ),
        pytest.param(
            b'{"event_id": "a", "api": "completions", "request": {}, "response": {}}',
            "api",
            id="unknown_api",
        ),
        pytest.param(
            b'{"event_id": "a", "api": "responses", "request": [], "response": {}}',
            "request",
            id="request_not_object",
        ),
        pytest.param(
            b'{"event_id": "a", "api": "responses", "request": {}, "response": {}, "stream": "yes"}',
            "stream",
            id="stream_not_bool",
        ),
        pytest.param(
            b'{"event_id": "a", "api": "responses", "request": {}}',
            "schema violation",
            id="neither_response_nor_chunks",
        ),
        pytest.param(
            b'{"event_id": "a", "api": "responses", "request": {}, "response": {}, "chunks": []}',
            "schema violation",
            id="both_response_and_chunks",
        ),
        pytest.param(
            b'{"event_id": "", "api": "responses", "request": {}, "response": {}}',
            "event_id",
            id="empty_id",
        ),
    ],
)
def test_invalid_payloads_get_a_reason(raw: bytes, reason: str) -> None:
    with pytest.raises(ContractError) as info:
        decode_event(raw)
    assert reason in info.value.reason


def test_reason_keeps_event_id_when_known() -> None:
    with pytest.raises(ContractError) as info:
        decode_event(b'{"event_id": "x9", "api": "nope", "request": {}, "response": {}}')
    assert info.value.event_id == "x9"


def test_oversized_event_is_rejected_before_parsing() -> None:
    with pytest.raises(ContractError, match="too large"):
        decode_event(VALID, max_bytes=10)
