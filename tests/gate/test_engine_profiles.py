"""Every profile row, on every API, streamed and not: what the detectors see in the wire
format engine-sim renders (no HTTP; the SDK round trip is in test_engine_sim.py)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from gate_kit import LOOKUP_TOOL, WEATHER_SCHEMA

from leakline.detectors import run_detectors
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.gate.engine.gen import generate, read_request, tokens
from leakline.pipeline.gate.engine.profiles import PROFILES, get_profile, profile_table_markdown
from leakline.pipeline.gate.engine.wire import (
    chat_body,
    chat_events,
    messages_body,
    messages_events,
    responses_body,
    responses_events,
)

APIS = ("chat.completions", "responses", "messages")
QUESTIONS = (
    "Is employee E41207 eligible for leave?",
    "사번 E41207 직원 휴가 대상인가요?",
    "员工 E41207 可以休假吗？",
)


def request(
    api: str, question: str, *, stream: bool, stop: bool, structured: bool, tools: bool
) -> dict[str, Any]:
    body: dict[str, Any] = {"model": "m"}
    if api == "responses":
        body["input"] = [{"role": "user", "content": question}]
    else:
        body["messages"] = [{"role": "user", "content": question}]
    if api == "messages":
        body["max_tokens"] = 1024
    if stream:
        body["stream"] = True
    if stop:
        body["stop_sequences" if api == "messages" else "stop"] = ["\nUser:"]
    if structured:
        if api == "chat.completions":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "w", "schema": WEATHER_SCHEMA},
            }
        elif api == "responses":
            body["text"] = {
                "format": {"type": "json_schema", "name": "w", "schema": WEATHER_SCHEMA}
            }
        else:
            body["output_config"] = {"format": {"type": "json_schema", "schema": WEATHER_SCHEMA}}
    if tools:
        if api == "chat.completions":
            body["tools"] = [
                {
                    "type": "function",
                    "function": {"name": "lookup_employee", "parameters": LOOKUP_TOOL},
                }
            ]
        elif api == "responses":
            body["tools"] = [
                {"type": "function", "name": "lookup_employee", "parameters": LOOKUP_TOOL}
            ]
        else:
            body["tools"] = [{"name": "lookup_employee", "input_schema": LOOKUP_TOOL}]
    return body


def labels_for(api: str, profile: str, body: dict[str, Any]) -> list[str]:
    view = read_request(api, body)
    gen = generate(view, get_profile(profile))
    event: dict[str, Any] = {"event_id": "e", "api": api, "request": body}
    if view.stream:
        stream = {
            "chat.completions": lambda: chat_events(view, gen),
            "responses": lambda: responses_events(view, gen, body),
            "messages": lambda: messages_events(view, gen),
        }[api]()
        event["chunks"] = [payload for _, payload in stream]
    else:
        event["response"] = {
            "chat.completions": lambda: chat_body(view, gen),
            "responses": lambda: responses_body(view, gen, body),
            "messages": lambda: messages_body(view, gen),
        }[api]()
    return sorted(run_detectors(normalise(event)).labels)


COMBOS = list(itertools.product((False, True), repeat=4))


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("profile", ["good", "sglang"])
def test_clean_profiles_are_clean_in_every_combination(api: str, profile: str) -> None:
    for question, (stream, stop, structured, tools) in itertools.product(QUESTIONS, COMBOS):
        body = request(api, question, stream=stream, stop=stop, structured=structured, tools=tools)
        assert labels_for(api, profile, body) == [], (question, stream, stop, structured, tools)


# profile -> (stream, stop, structured, tools) where its fault shows, and the labels
FAULTS: dict[str, tuple[tuple[bool, bool, bool, bool], list[str]]] = {
    "stop": ((True, True, False, False), ["boundary_token", "reasoning_leak"]),
    "tool-parser-only": ((False, False, False, False), ["boundary_token", "reasoning_leak"]),
    "wrong-parser": ((True, False, False, False), ["final_in_reasoning"]),
    "tools-as-text": ((False, False, False, True), ["tool_call_as_text"]),
    "grammar-missed": ((True, False, True, False), ["structured_invalid"]),
    "length": ((False, False, False, False), ["truncated"]),
    "preamble": ((True, False, False, False), ["preamble"]),
    "leaky": ((False, False, False, False), ["preamble"]),
    "runaway": ((True, False, False, False), ["runaway_turn"]),
    "stalled": ((False, False, False, True), ["stalled_turn"]),
}


def test_every_leaky_profile_has_a_fault_case() -> None:
    no_label = {"good", "sglang", "mixed-chunk", "drops-tool-calls"}  # drops: trigger F1
    assert set(FAULTS) | no_label == {p.name for p in PROFILES}


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("profile", sorted(FAULTS))
def test_each_profile_shows_its_fault_on_every_api(api: str, profile: str) -> None:
    (stream, stop, structured, tools), expected = FAULTS[profile]
    for question in QUESTIONS:
        body = request(api, question, stream=stream, stop=stop, structured=structured, tools=tools)
        assert labels_for(api, profile, body) == expected, question
        # the same request without the trigger is clean (stop: only stream + stop leaks)
        if profile == "stop":
            for s, t in ((True, False), (False, True), (False, False)):
                calm = request(api, question, stream=s, stop=t, structured=False, tools=False)
                assert labels_for(api, profile, calm) == []


def test_mixed_chunk_is_a_streamed_chat_fault_only() -> None:
    body = request(
        "chat.completions", QUESTIONS[0], stream=True, stop=False, structured=False, tools=False
    )
    assert labels_for("chat.completions", "mixed-chunk", body) == ["mixed_chunk"]
    body.pop("stream")
    assert labels_for("chat.completions", "mixed-chunk", body) == []


def test_max_tokens_is_honoured_and_tokens_rejoin() -> None:
    text = "Section 4: 안내서 内容 ok.\n\n end "
    assert "".join(tokens(text)) == text
    body = request(
        "chat.completions", QUESTIONS[0], stream=False, stop=False, structured=False, tools=False
    )
    body["max_tokens"] = 7
    gen = generate(read_request("chat.completions", body), get_profile("good"))
    assert gen.finish == "length" and gen.output_tokens == 7 and gen.content == []


def test_unknown_profile_lists_the_known_ones() -> None:
    with pytest.raises(LeaklineError) as info:
        get_profile("nope")
    assert "good" in (info.value.hint or "") and "leaky" in (info.value.hint or "")
    assert profile_table_markdown().count("\n") == len(PROFILES) + 1
