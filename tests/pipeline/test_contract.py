"""The gateway event contract v1: what is accepted and the reasons for what is not."""

from __future__ import annotations

import pytest

from leakline.pipeline.events.contract import (
    ContractError,
    decode_event,
    event_schema,
    rejection_of,
)

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


# ---------------------------------------------------------------- fast path agreement

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from leakline.pipeline.events.contract import _validator, certainly_valid  # noqa: E402
from leakline.pipeline.simulate.traffic_model import simulate  # noqa: E402

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=False),
    st.text(max_size=4),
    st.sampled_from(
        ["chat.completions", "responses", "messages", "reasoning", "reasoning_content", "x"]
    ),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
_fields = [
    "event_id",
    "api",
    "request",
    "response",
    "chunks",
    "ts",
    "stream",
    "engine",
    "model",
    "chat_template",
    "parsers",
    "gateway",
    "client",
    "remediation",
]
_members = [
    "name",
    "version",
    "revision",
    "hash",
    "reasoning",
    "tool_call",
    "reasoning_field",
    "renders_phases",
    "action",
    "attempts",
    "extra_tokens",
    "outcome",
]
_objects = st.dictionaries(st.sampled_from(_members), _values, max_size=4)
_events = st.fixed_dictionaries(
    {
        "event_id": st.one_of(st.text(min_size=1, max_size=5), _values),
        "api": st.one_of(st.sampled_from(["chat.completions", "responses", "messages"]), _values),
        "request": st.one_of(st.just({}), _values),
    },
    optional={
        name: st.one_of(_objects, _values, st.lists(st.one_of(st.just({}), _values), max_size=3))
        for name in _fields[3:]
    },
)


@settings(max_examples=500, deadline=None)
@given(_events)
def test_fast_path_never_accepts_what_the_schema_rejects(event: dict) -> None:
    if certainly_valid(event):
        assert _validator().is_valid(event), event


def test_fast_path_accepts_realistic_traffic() -> None:
    events = [s.event for s in simulate(300, seed=2)]
    assert all(certainly_valid(e) for e in events)
    assert all(_validator().is_valid(e) for e in events)


@pytest.mark.parametrize(
    ("raw", "max_bytes", "label"),
    [
        pytest.param(b"{oops", 1000, "not_json", id="not_json"),
        pytest.param(b"[1, 2]", 1000, "not_object", id="not_object"),
        pytest.param(b'{"event_id": "x"}', 1000, "schema", id="schema"),
        pytest.param(b'{"event_id": "x"}', 5, "too_large", id="too_large"),
    ],
)
def test_every_rejection_has_a_fixed_metric_label(raw: bytes, max_bytes: int, label: str) -> None:
    with pytest.raises(ContractError) as raised:
        decode_event(raw, max_bytes=max_bytes)
    assert rejection_of(raised.value.reason) == label


def test_reasons_of_no_known_kind_are_other() -> None:
    assert rejection_of("something new: details") == "other"
    assert rejection_of("") == "other"
