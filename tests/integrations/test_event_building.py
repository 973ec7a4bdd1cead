"""Events built from plain dicts and real SDK objects are valid v1 and detect like the wire."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import orjson
import pytest
from anthropic.types import Message, RawMessageStreamEvent
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.responses import Response, ResponseStreamEvent
from pydantic import TypeAdapter

from leakline.client import EventMeta, build_event, infer_api, meta_from_headers
from leakline.pipeline.detect.offline import detect_line
from leakline.pipeline.events.contract import validate_event

LEAKY_CHAT = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "qwen3-8b",
    "choices": [
        {
            "index": 0,
            "finish_reason": "stop",
            "message": {"role": "assistant", "content": "<think>sum it</think>4"},
        }
    ],
}


def labels(event: dict) -> list[str]:
    """What the worker would store for this event (same code path as `leakline detect`)."""
    verdict = detect_line(orjson.dumps(validate_event(event)), 4 * 1024 * 1024)
    assert "error" not in verdict, verdict
    return sorted(verdict["labels"])


def test_chat_completion_object_keeps_wire_fields_and_labels() -> None:
    wire = {
        **LEAKY_CHAT,
        "choices": [
            {
                **LEAKY_CHAT["choices"][0],
                "message": {"role": "assistant", "content": "4", "reasoning": "2+2 is 4"},
            }
        ],
    }
    completion = ChatCompletion.model_validate(wire)
    event = build_event(request={"model": "qwen3-8b", "messages": []}, response=completion)
    assert event["api"] == "chat.completions" and event["stream"] is False
    # vLLM's extra `reasoning` field survives, unset optional fields are not invented
    message = event["response"]["choices"][0]["message"]
    assert message["reasoning"] == "2+2 is 4"
    assert "tool_calls" not in message
    assert event["model"] == {"name": "qwen3-8b"}
    assert labels(event) == []

    leaky = build_event(request={}, response=ChatCompletion.model_validate(LEAKY_CHAT))
    assert labels(leaky) == ["boundary_token", "reasoning_leak"]


def test_accumulated_chat_stream_is_sent_as_chunks() -> None:
    raw = [
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "delta": {"reasoning": "think", "content": "Hi"}}],
        },
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
        },
    ]
    chunks = [ChatCompletionChunk.model_validate(c) for c in raw]
    event = build_event(request={"stream": True, "messages": []}, chunks=chunks)
    assert event["stream"] is True and "response" not in event
    assert event["chunks"][0]["choices"][0]["delta"]["reasoning"] == "think"
    assert labels(event) == ["mixed_chunk"]


def test_responses_object_and_stream_events() -> None:
    body = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "gpt-x",
        "status": "completed",
        "tool_choice": "auto",
        "tools": [],
        "parallel_tool_calls": True,
        "output": [
            {
                "type": "message",
                "id": "m1",
                "role": "assistant",
                "status": "completed",
                "phase": "commentary",
                "content": [{"type": "output_text", "text": "Let me check.", "annotations": []}],
            }
        ],
    }
    response = Response.model_validate(body)
    event = build_event(
        request={"input": "hi"}, response=response, meta=EventMeta(client_renders_phases=True)
    )
    assert event["api"] == "responses"
    assert event["client"] == {"renders_phases": True}
    assert "commentary_rendered" in labels(event)

    adapter: TypeAdapter[ResponseStreamEvent] = TypeAdapter(ResponseStreamEvent)
    stream = [
        adapter.validate_python(
            {
                "type": "response.output_text.delta",
                "item_id": "m1",
                "output_index": 0,
                "content_index": 0,
                "delta": "</think>Paris",
                "sequence_number": 1,
                "logprobs": [],
            }
        ),
        adapter.validate_python(
            {"type": "response.completed", "response": body, "sequence_number": 2}
        ),
    ]
    streamed = build_event(request={"input": "hi", "stream": True}, chunks=stream)
    assert streamed["api"] == "responses" and streamed["stream"] is True
    assert streamed["model"] == {"name": "gpt-x"}  # read from the nested response
    assert "boundary_token" in labels(streamed)


def test_anthropic_message_and_stream_events() -> None:
    message = Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "stop_reason": "max_tokens",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": [{"type": "thinking", "thinking": "long...", "signature": "s"}],
        }
    )
    event = build_event(
        request={"messages": [], "max_tokens": 5},
        response=message,
        headers={"anthropic-organization-id": "org"},
    )
    assert event["api"] == "messages"
    assert event["engine"] == {"name": "anthropic"}
    assert labels(event) == ["truncated"]

    adapter: TypeAdapter[RawMessageStreamEvent] = TypeAdapter(RawMessageStreamEvent)
    stream = [
        adapter.validate_python(e)
        for e in (
            {
                "type": "message_start",
                "message": {
                    "id": "msg_2",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-x",
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 1, "output_tokens": 0},
                },
            },
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "<think>hmm</think>Answer"},
            },
            {"type": "content_block_stop", "index": 0},
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 3},
            },
            {"type": "message_stop"},
        )
    ]
    streamed = build_event(request={"messages": [], "stream": True}, chunks=stream)
    assert streamed["api"] == "messages" and streamed["model"] == {"name": "claude-x"}
    assert labels(streamed) == ["boundary_token", "reasoning_leak"]


def test_metadata_precedence_config_then_headers_then_body() -> None:
    headers = {
        "X-Leakline-Engine": "vllm",
        "x-leakline-engine-version": "0.11.0",
        "llm_provider-x-leakline-reasoning-parser": "qwen3",
    }
    meta = EventMeta(engine_version="0.12.0-rc1", template_name="qwen3.jinja")
    event = build_event(
        request={},
        response=LEAKY_CHAT,
        meta=meta,
        headers=headers,
        event_id="e1",
        now=datetime(2026, 1, 2, tzinfo=UTC),
    )
    assert event["engine"] == {"name": "vllm", "version": "0.12.0-rc1"}
    assert event["parsers"] == {"reasoning": "qwen3"}
    assert event["chat_template"] == {"name": "qwen3.jinja"}
    assert event["model"] == {"name": "qwen3-8b"}
    assert event["gateway"]["name"] == "leakline-producer"
    assert event["ts"] == "2026-01-02T00:00:00Z" and event["event_id"] == "e1"
    assert meta_from_headers({"openai-processing-ms": "12"}).engine_name == "openai"
    assert meta_from_headers({"server": "uvicorn"}) == EventMeta()  # vLLM says nothing


def test_gate_tags_shape_is_accepted_as_meta() -> None:
    from leakline.pipeline.gate.replay import Tags

    tags = Tags(engine_name="vllm", engine_version="1.0", model_name="m")
    event = build_event(
        request={"stream": False}, response=LEAKY_CHAT, meta=tags, chunks=[], stream=False
    )
    assert event["engine"] == {"name": "vllm", "version": "1.0"}
    assert event["gateway"]["name"] == "leakline-gate"
    assert "chunks" not in event
    validate_event(event)


def test_credentials_never_reach_the_event() -> None:
    event = build_event(
        request={"model": "m", "messages": [], "api_key": "sk-secret", "extra_headers": {"a": 1}},
        response=LEAKY_CHAT,
    )
    assert "api_key" not in event["request"] and "extra_headers" not in event["request"]


def test_unknown_api_is_a_clear_error() -> None:
    assert infer_api({"foo": 1}) is None
    with pytest.raises(ValueError, match="api="):
        build_event(request={}, response={"foo": 1})


def test_importable_without_faust() -> None:
    code = (
        "import sys, leakline.client, leakline.pipeline.ingest.http;"
        "assert 'faust' not in sys.modules, 'faust imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
