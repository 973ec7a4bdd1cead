"""Request configuration as dimensions: normalised from all three APIs, stored as columns."""

from __future__ import annotations

from typing import Any

import pytest

from leakline.pipeline.events.contract import validate_event
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.request_config import dimensions, request_config, temperature_bucket


def tool(name: str, strict: bool | None = None, api: str = "chat.completions") -> dict[str, Any]:
    if api == "chat.completions":
        fn: dict[str, Any] = {"name": name, "parameters": {"type": "object"}}
        if strict is not None:
            fn["strict"] = strict
        return {"type": "function", "function": fn}
    out: dict[str, Any] = {"type": "function", "name": name, "parameters": {"type": "object"}}
    if strict is not None:
        out["strict"] = strict
    return out


@pytest.mark.parametrize(
    ("api", "request_body", "expected"),
    [
        pytest.param(
            "chat.completions",
            {"chat_template_kwargs": {"enable_thinking": True}},
            {"thinking": "on"},
            id="enable_thinking",
        ),
        pytest.param(
            "chat.completions",
            {"chat_template_kwargs": {"thinking": False}},
            {"thinking": "off"},
            id="thinking_kwarg",
        ),
        pytest.param(
            "chat.completions",
            {"reasoning_effort": "none"},
            {"thinking": "off", "reasoning_effort": "none"},
            id="effort_none_is_off",
        ),
        pytest.param(
            "chat.completions",
            {"reasoning_effort": "low"},
            {"thinking": "on", "reasoning_effort": "low"},
            id="effort_low_is_on",
        ),
        pytest.param(
            "chat.completions",
            {"reasoning_effort": "high", "chat_template_kwargs": {"enable_thinking": False}},
            {"thinking": "off"},
            id="template_kwarg_wins",
        ),
        pytest.param(
            "chat.completions",
            {"thinking_token_budget": 512, "include_reasoning": False},
            {"thinking_budget": 512, "include_reasoning": False, "thinking": None},
            id="budget_include",
        ),
        pytest.param(
            "messages",
            {"thinking": {"type": "enabled", "budget_tokens": 2048}},
            {"thinking": "on", "thinking_budget": 2048},
            id="anthropic_thinking",
        ),
        pytest.param(
            "messages",
            {"thinking": {"type": "disabled"}},
            {"thinking": "off"},
            id="anthropic_disabled",
        ),
        pytest.param(
            "responses",
            {"reasoning": {"effort": "medium"}},
            {"thinking": "on", "reasoning_effort": "medium"},
            id="responses_effort",
        ),
        pytest.param(
            "chat.completions",
            {"tools": [tool("a", True), tool("b", True)]},
            {"tools_strict": "all"},
            id="strict_all",
        ),
        pytest.param(
            "chat.completions",
            {"tools": [tool("a", True), tool("b")]},
            {"tools_strict": "some"},
            id="strict_some",
        ),
        pytest.param(
            "chat.completions",
            {"tools": [tool("a"), tool("b", False)]},
            {"tools_strict": "none"},
            id="strict_none",
        ),
        pytest.param(
            "responses",
            {"tools": [tool("a", True, "responses")]},
            {"tools_strict": "all"},
            id="responses_strict",
        ),
        pytest.param(
            "chat.completions",
            {"tool_choice": {"type": "function", "function": {"name": "a"}}},
            {"tool_choice": "named"},
            id="named_choice",
        ),
        pytest.param(
            "messages",
            {"tool_choice": {"type": "any"}},
            {"tool_choice": "required"},
            id="anthropic_any",
        ),
        pytest.param(
            "chat.completions", {"temperature": 0.7}, {"temperature": 0.7}, id="temperature"
        ),
        pytest.param(
            "chat.completions",
            {"temperature": "hot", "tools": "x", "thinking": 3},
            {"temperature": None, "tools_strict": None, "thinking": None},
            id="odd_shapes",
        ),
    ],
)
def test_request_config(api, request_body, expected):
    config = request_config(api, request_body)
    for key, value in expected.items():
        assert getattr(config, key) == value, key


@pytest.mark.parametrize(
    ("value", "bucket"),
    [
        (None, "default"),
        (0, "0"),
        (0.2, "0-0.5"),
        (0.5, "0-0.5"),
        (0.7, "0.5-1"),
        (1.0, "0.5-1"),
        (1.3, ">1"),
    ],
)
def test_temperature_bucket(value, bucket):
    assert temperature_bucket(value) == bucket


def test_dimensions_of_a_normalised_event():
    event = {
        "event_id": "d",
        "api": "chat.completions",
        "request": {
            "model": "Qwen/Qwen3-8B",
            "messages": [{"role": "user", "content": "hi"}],
            "tools": [tool("a", True), tool("b")],
            "tool_choice": "auto",
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "x", "schema": {"type": "object"}, "strict": True},
            },
            "chat_template_kwargs": {"enable_thinking": True},
            "temperature": 0.6,
        },
        "response": {
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "{}"},
                }
            ]
        },
    }
    dims = dimensions(normalise(validate_event(event)))
    assert dims == {
        "thinking": "on",
        "reasoning_effort": "default",
        "thinking_budget": None,
        "include_reasoning": None,
        "tool_choice": "auto",
        "tools_strict": "some",
        "response_format_type": "json_schema",
        "response_format_strict": True,
        "temperature_bucket": "0.5-1",
    }
