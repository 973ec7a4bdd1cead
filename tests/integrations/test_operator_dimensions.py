"""Operator dimensions on the event: ``tags`` (bounded), ``usage`` and ``latency_ms``, set
by the producer library, the LiteLLM callback (from LiteLLM's metadata) and the OTel mapping
(span and resource attributes, configurable)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from leakline.client import ContractError, EventMeta, build_event, validate_event
from leakline.client.contract import certainly_valid
from leakline.client.event import clean_tags, hash_user, usage_of
from leakline.client.metadata import parse_tags
from leakline.pipeline.events.contract import _validator
from leakline.pipeline.ingest.integrations.otel import event_from_span, tag_attributes

REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
REPLY = {
    "object": "chat.completion",
    "model": "m",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello"}}],
    "usage": {
        "prompt_tokens": 7,
        "completion_tokens": 3,
        "total_tokens": 10,
        "completion_tokens_details": {"reasoning_tokens": 1},
    },
}


def test_producer_sets_tags_usage_and_latency() -> None:
    meta = EventMeta(engine_name="vllm", tags={"region": "eu", "tenant": "default"})
    event = build_event(
        request=REQUEST, response=REPLY, meta=meta, tags={"tenant": "acme"}, latency_ms=812.25
    )
    assert event["tags"] == {"region": "eu", "tenant": "acme"}  # per-call tags win
    assert event["usage"] == {
        "prompt_tokens": 7,
        "completion_tokens": 3,
        "reasoning_tokens": 1,
        "total_tokens": 10,
    }
    assert event["latency_ms"] == 812.25
    assert validate_event(event) is event and certainly_valid(event)


def test_tags_are_bounded() -> None:
    raw = {f"k{i:02d}": "v" * 1000 for i in range(40)} | {"bad key/é": 1, "gone": None}
    tags = clean_tags(raw)
    assert len(tags) == 32
    assert all(len(v) <= 256 for v in tags.values())
    assert "bad_key__" in tags and "gone" not in tags
    assert validate_event(build_event(request=REQUEST, response=REPLY, tags=raw))


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param({"tags": {"a b": "x"}}, id="bad_key"),
        pytest.param({"tags": {"a": 1}}, id="not_a_string"),
        pytest.param({"tags": {"a": "x" * 257}}, id="too_long"),
        pytest.param({"tags": {f"k{i}": "v" for i in range(33)}}, id="too_many"),
        pytest.param({"usage": {"prompt_tokens": -1}}, id="negative_count"),
        pytest.param({"usage": {"prompt_tokens": 1.0}}, id="float_count"),
        pytest.param({"latency_ms": -3}, id="negative_latency"),
        pytest.param({"latency_ms": "3"}, id="string_latency"),
    ],
)
def test_invalid_dimensions_are_rejected_by_both_checks(extra: dict) -> None:
    event = {"event_id": "e", "api": "chat.completions", "request": {}, "response": {}, **extra}
    assert not certainly_valid(event)
    assert list(_validator().iter_errors(event))
    with pytest.raises(ContractError):
        validate_event(event)


def test_older_events_stay_valid() -> None:
    event = {"event_id": "e", "api": "chat.completions", "request": {}, "response": {}}
    assert certainly_valid(event) and not list(_validator().iter_errors(event))


@pytest.mark.parametrize(
    "response,chunks,expected",
    [
        pytest.param(
            {"usage": {"input_tokens": 5, "output_tokens": 9}},
            None,
            {"prompt_tokens": 5, "completion_tokens": 9},
            id="responses_or_messages",
        ),
        pytest.param(
            None,
            [
                {"choices": []},
                {"choices": [], "usage": {"prompt_tokens": 2, "completion_tokens": 4}},
            ],
            {"prompt_tokens": 2, "completion_tokens": 4},
            id="chat_stream_last_chunk",
        ),
        pytest.param(
            None,
            [
                {
                    "type": "response.completed",
                    "response": {
                        "usage": {
                            "input_tokens": 1,
                            "output_tokens": 2,
                            "output_tokens_details": {"reasoning_tokens": 1},
                        }
                    },
                }
            ],
            {"prompt_tokens": 1, "completion_tokens": 2, "reasoning_tokens": 1},
            id="responses_stream",
        ),
        pytest.param({"usage": {"prompt_tokens": 1.5}}, None, {}, id="not_a_count"),
    ],
)
def test_usage_from_every_api_shape(response, chunks, expected) -> None:  # type: ignore[no-untyped-def]
    assert usage_of(response, chunks) == expected


def test_env_tags() -> None:
    assert parse_tags("region=eu-west-1, deployment:blue,,oops") == {
        "region": "eu-west-1",
        "deployment": "blue",
    }
    assert EventMeta.from_env({"LEAKLINE_TAGS": "region=eu"}).tags == {"region": "eu"}


PSEUDONYM_KEY = "test-pseudonym-key-0123456789"


@pytest.fixture
def pseudonym_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("LEAKLINE_PSEUDONYM_KEY", PSEUDONYM_KEY)
    return PSEUDONYM_KEY


def test_litellm_callback_takes_tags_from_metadata(pseudonym_key: str) -> None:
    pytest.importorskip("litellm")
    from leakline.client.litellm import LeaklineLogger, tags_of

    kwargs = {
        "call_type": "acompletion",
        "model": "m",
        "messages": REQUEST["messages"],
        "litellm_call_id": "c1",
        "litellm_params": {
            "metadata": {
                "tags": ["tenant:acme", "plain-tag", "route=/v1/chat"],
                "user_api_key_team_alias": "search",
                "user_api_key_user_id": "alice@example.com",
                "requester_metadata": {"leakline_tags": {"app": "helpdesk"}},
            }
        },
    }
    tags = tags_of(kwargs)
    assert tags == {
        "tenant": "acme",
        "route": "/v1/chat",
        "team": "search",
        "user": hash_user("alice@example.com", pseudonym_key),
        "app": "helpdesk",
    }
    assert "alice" not in str(tags)
    start = datetime(2026, 12, 1, 12, 0, 0)
    event = LeaklineLogger(producer=object(), meta=EventMeta()).build(
        kwargs, REPLY, False, start, start + timedelta(milliseconds=1500)
    )
    assert event is not None
    assert event["tags"]["route"] == "/v1/chat"
    assert event["latency_ms"] == 1500.0
    assert event["usage"]["prompt_tokens"] == 7


def _kv(attrs: dict) -> list[dict]:
    def value(v):  # type: ignore[no-untyped-def]
        return {"intValue": str(v)} if isinstance(v, int) else {"stringValue": v}

    return [{"key": k, "value": value(v)} for k, v in attrs.items()]


SPAN = {
    "traceId": "t" * 32,
    "spanId": "s1",
    "startTimeUnixNano": "1764633600000000000",
    "endTimeUnixNano": "1764633600250000000",
    "attributes": _kv(
        {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "m",
            "gen_ai.prompt.0.role": "user",
            "gen_ai.prompt.0.content": "hi",
            "gen_ai.completion.0.content": "Hello",
            "gen_ai.usage.input_tokens": 11,
            "gen_ai.usage.output_tokens": 4,
            "tenant.id": "acme",
            "enduser.id": "bob",
        }
    ),
}
RESOURCE = {"service.name": "gw", "cloud.region": "eu-west-1", "deployment.environment": "prod"}


def test_otel_spans_fill_tags_usage_and_latency(pseudonym_key: str) -> None:
    event = event_from_span(SPAN, RESOURCE)
    assert event is not None
    assert event["tags"] == {
        "region": "eu-west-1",
        "deployment": "prod",
        "user": hash_user("bob", pseudonym_key),
    }
    assert event["usage"] == {"prompt_tokens": 11, "completion_tokens": 4}
    assert event["latency_ms"] == 250.0
    # a configured mapping replaces the default one
    mapping = tag_attributes({"LEAKLINE_OTEL_TAGS": "tenant=tenant.id,region=cloud.region"})
    event = event_from_span(SPAN, RESOURCE, tag_mapping=mapping)
    assert event is not None
    assert event["tags"] == {
        "tenant": "acme",
        "region": "eu-west-1",
        "user": hash_user("bob", pseudonym_key),
    }
    assert validate_event(event)
