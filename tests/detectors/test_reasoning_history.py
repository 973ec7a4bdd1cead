"""reasoning_history: history_mismatch on the conversation a request sends back."""

from __future__ import annotations

from typing import Any

import pytest

from leakline.detectors.rules.reasoning_history import ReasoningHistory
from leakline.pipeline.events.contract import validate_event
from leakline.pipeline.events.normalise import normalise

DETECTOR = "reasoning_history"
CALL = {
    "id": "c1",
    "type": "function",
    "function": {"name": "get_weather", "arguments": '{"city": "Seoul"}'},
}
TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
]


def chat(model: str, messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "event_id": "h",
        "api": "chat.completions",
        "request": {"model": model, "messages": messages, "tools": TOOLS, **extra},
        "response": {
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "Sunny."},
                }
            ]
        },
        "model": {"name": model},
    }


USER = {"role": "user", "content": "weather in Seoul?"}
TOOL_RESULT = {"role": "tool", "tool_call_id": "c1", "content": '{"temp": 21}'}
CALL_WITH = {
    "role": "assistant",
    "content": None,
    "tool_calls": [CALL],
    "reasoning": "Need the weather tool.",
}
CALL_WITHOUT = {"role": "assistant", "content": None, "tool_calls": [CALL]}
FINAL_WITH = {"role": "assistant", "content": "It was sunny.", "reasoning": "The tool said sunny."}
FINAL_WITHOUT = {"role": "assistant", "content": "It was sunny."}

CASES = [
    pytest.param(
        "openai/gpt-oss-120b",
        [USER, CALL_WITH, TOOL_RESULT],
        {},
        [],
        id="harmony_analysis_passed_back",
    ),
    pytest.param(
        "openai/gpt-oss-120b",
        [USER, CALL_WITHOUT, TOOL_RESULT],
        {},
        ["reasoning_missing_between_tool_calls"],
        id="harmony_analysis_missing",
    ),
    pytest.param(
        "openai/gpt-oss-20b",
        [USER, FINAL_WITH, USER],
        {},
        ["prior_reasoning_resent"],
        id="harmony_analysis_not_dropped",
    ),
    pytest.param(
        "openai/gpt-oss-20b", [USER, FINAL_WITHOUT, USER], {}, [], id="harmony_dropped_after_final"
    ),
    pytest.param(
        "openai/gpt-oss-20b",
        [USER, CALL_WITH, TOOL_RESULT, FINAL_WITH, USER, CALL_WITHOUT, TOOL_RESULT],
        {},
        ["reasoning_missing_between_tool_calls", "prior_reasoning_resent"],
        id="harmony_both",
    ),
    pytest.param(
        "deepseek-ai/DeepSeek-R1",
        [USER, FINAL_WITH, USER],
        {},
        ["prior_reasoning_resent"],
        id="r1_reasoning_content_resent",
    ),
    pytest.param("deepseek-ai/DeepSeek-R1", [USER, FINAL_WITHOUT, USER], {}, [], id="r1_clean"),
    pytest.param(
        "moonshotai/Kimi-K2-Thinking",
        [USER, CALL_WITHOUT, TOOL_RESULT],
        {},
        ["reasoning_missing_between_tool_calls"],
        id="kimi_interleaved_missing",
    ),
    pytest.param(
        "Qwen/Qwen3-32B",
        [USER, FINAL_WITH, USER, CALL_WITHOUT, TOOL_RESULT],
        {},
        [],
        id="qwen3_template_handles_it",
    ),
    pytest.param("openai/gpt-oss-20b", [USER], {}, [], id="single_turn"),
]


@pytest.mark.parametrize(("model", "messages", "extra", "problems"), CASES)
def test_chat_history(model, messages, extra, problems):
    exchange = normalise(validate_event(chat(model, messages, **extra)))
    found = ReasoningHistory().detect(exchange)
    assert [f.details["problem"] for f in found] == problems
    assert all(f.label == "history_mismatch" and f.span is None for f in found)


def _messages_event(thinking: bool, with_block: bool) -> dict[str, Any]:
    blocks: list[dict[str, Any]] = [
        {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Seoul"}}
    ]
    if with_block:
        blocks.insert(0, {"type": "thinking", "thinking": "Use the tool.", "signature": "sig"})
    request: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 4096,
        "messages": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": blocks},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "21C"}],
            },
        ],
    }
    if thinking:
        request["thinking"] = {"type": "enabled", "budget_tokens": 2048}
    return {
        "event_id": "m",
        "api": "messages",
        "request": request,
        "response": {"content": [{"type": "text", "text": "21C."}], "stop_reason": "end_turn"},
        "model": {"name": "claude-sonnet-4-5"},
    }


@pytest.mark.parametrize(
    ("thinking", "with_block", "problems"),
    [
        pytest.param(
            True, False, ["reasoning_missing_between_tool_calls"], id="thinking_block_dropped"
        ),
        pytest.param(True, True, [], id="thinking_block_kept"),
        pytest.param(False, False, [], id="thinking_off"),
    ],
)
def test_claude_thinking_blocks(thinking, with_block, problems):
    exchange = normalise(validate_event(_messages_event(thinking, with_block)))
    assert [f.details["problem"] for f in ReasoningHistory().detect(exchange)] == problems


def test_responses_reasoning_items():
    def event(with_reasoning: bool) -> dict[str, Any]:
        items: list[dict[str, Any]] = [{"role": "user", "content": "weather?"}]
        if with_reasoning:
            items.append(
                {"type": "reasoning", "summary": [{"type": "summary_text", "text": "use tool"}]}
            )
        items += [
            {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "21C"},
        ]
        return {
            "event_id": "r",
            "api": "responses",
            "request": {"model": "gpt-oss-120b", "input": items, "reasoning": {"effort": "low"}},
            "response": {
                "output": [
                    {
                        "type": "message",
                        "role": "assistant",
                        "content": [{"type": "output_text", "text": "21C"}],
                    }
                ]
            },
            "model": {"name": "gpt-oss-120b"},
        }

    assert ReasoningHistory().detect(normalise(validate_event(event(True)))) == []
    found = ReasoningHistory().detect(normalise(validate_event(event(False))))
    assert [f.details["problem"] for f in found] == ["reasoning_missing_between_tool_calls"]


def test_registered():
    from leakline.detectors.base import get_detector

    assert get_detector(DETECTOR).id == DETECTOR


def test_family_from_the_reasoning_parser_when_the_model_name_is_unknown():
    event = chat("my-served-model", [USER, CALL_WITHOUT, TOOL_RESULT])
    event["model"] = {"name": "my-served-model"}
    event["parsers"] = {"reasoning": "openai_gptoss"}
    found = ReasoningHistory().detect(normalise(validate_event(event)))
    assert [f.details["family"] for f in found] == ["harmony"]


def test_hostile_nesting_never_raises():
    deep: Any = "x"
    for _ in range(200):
        deep = [{"text": deep}]
    event = chat(
        "openai/gpt-oss-20b", [USER, {"role": "assistant", "content": deep, "tool_calls": [CALL]}]
    )
    ReasoningHistory().detect(normalise(validate_event(event)))
