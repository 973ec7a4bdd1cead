"""empty_response: no text, no call, no reasoning, finish not length; every API shape."""

from __future__ import annotations

from typing import Any

import pytest

from leakline.detectors import run_detectors
from leakline.pipeline.events.normalise import normalise

DETECTOR = "empty_response"

CASES = [
    pytest.param("", "stop", "", [], None, ["empty_response"], id="empty_stop"),
    pytest.param(" \n\t", "stop", "", [], None, ["empty_response"], id="whitespace_only"),
    pytest.param("", None, "", [], None, [], id="no_finish_nothing_billed"),
    pytest.param("", "tool_calls", "", [], None, ["empty_response"], id="call_finish_no_call"),
    pytest.param("", "stop", "", [("get_weather", "{}")], None, [], id="empty_with_call"),
    pytest.param("", "stop", "The answer is 42.", [], None, [], id="answer_in_reasoning"),
    pytest.param("", "length", "", [], None, [], id="truncated"),
    pytest.param("", "content_filter", "", [], None, [], id="filtered"),
    pytest.param("", "stop", "", [], "json_object", [], id="structured_output"),
    pytest.param(".", "stop", "", [], None, [], id="one_character"),
    pytest.param("Hi", "stop", "", [], None, [], id="plain_answer"),
]


@pytest.mark.parametrize(("text", "finish", "reasoning", "calls", "fmt", "labels"), CASES)
def test_labels(detect, text, finish, reasoning, calls, fmt, labels):
    found = detect(DETECTOR, text, finish=finish, reasoning=reasoning, calls=calls, fmt=fmt)
    assert [f.label for f in found] == labels
    for f in found:
        assert f.span is None
        assert f.evidence


def test_hidden_commentary_is_not_empty(detect):
    assert detect(DETECTOR, "", api="responses", commentary="Checking the docs.") == []


# one empty reply per API shape, streamed and not, with the usage where that API puts it
def _chat(stream: bool) -> dict[str, Any]:
    if not stream:
        return {
            "response": {
                "choices": [
                    {"message": {"role": "assistant", "content": ""}, "finish_reason": "stop"}
                ],
                "usage": {"prompt_tokens": 9, "completion_tokens": 37},
            }
        }
    return {
        "chunks": [
            {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]},
            {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
            {"choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 37}},
        ]
    }


def _responses(stream: bool) -> dict[str, Any]:
    response = {
        "status": "completed",
        "output": [{"type": "message", "content": [{"type": "output_text", "text": ""}]}],
        "usage": {"input_tokens": 9, "output_tokens": 37},
    }
    if not stream:
        return {"response": response}
    return {
        "chunks": [
            {"type": "response.created", "response": {"status": "in_progress"}},
            {"type": "response.output_text.delta", "output_index": 0, "delta": ""},
            {"type": "response.completed", "response": response},
        ]
    }


def _messages(stream: bool) -> dict[str, Any]:
    if not stream:
        return {
            "response": {
                "content": [{"type": "text", "text": ""}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 9, "output_tokens": 37},
            }
        }
    return {
        "chunks": [
            {"type": "message_start", "message": {"usage": {"output_tokens": 1}}},
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta"}},
            {"type": "content_block_stop", "index": 0},
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn"},
                "usage": {"output_tokens": 37},
            },
            {"type": "message_stop"},
        ]
    }


SHAPES = {"chat.completions": _chat, "responses": _responses, "messages": _messages}


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("api", sorted(SHAPES))
def test_every_api_shape_reports_the_billed_tokens(api: str, stream: bool):
    event = {"event_id": "e", "api": api, "stream": stream, "request": {}, **SHAPES[api](stream)}
    verdict = run_detectors(normalise(event))
    found = [f for f in verdict.findings if f.label == DETECTOR]
    assert [f.label for f in verdict.findings] == [DETECTOR]
    assert found[0].details["completion_tokens"] == 37


@pytest.mark.parametrize("api", sorted(SHAPES))
def test_the_gateway_usage_wins_and_missing_usage_is_none(api: str):
    event = {"event_id": "e", "api": api, "request": {}, **SHAPES[api](False)}
    assert normalise({**event, "usage": {"completion_tokens": 5}}).completion_tokens == 5
    event["response"].pop("usage")
    assert normalise(event).completion_tokens is None
    (finding,) = [f for f in run_detectors(normalise(event)).findings if f.label == DETECTOR]
    assert finding.details["completion_tokens"] is None


def test_an_error_body_is_no_turn_but_billed_tokens_without_a_finish_are():
    # a failed call logged by a gateway: no choices, no finish, nothing billed
    error = {"event_id": "e", "api": "chat.completions", "request": {}}
    error["response"] = {"error": {"type": "APIConnectionError", "message": "refused"}}
    assert [f.label for f in run_detectors(normalise(error)).findings] == []
    # no finish logged, but the usage bills completion tokens: a turn ended with nothing
    billed = {**error, "response": {"choices": [{"index": 0, "message": {"content": ""}}]}}
    billed["usage"] = {"completion_tokens": 12}
    assert [f.label for f in run_detectors(normalise(billed)).findings] == [DETECTOR]
