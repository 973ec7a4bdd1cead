"""engine-sim as a real process, driven by the official openai and anthropic SDKs."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import anthropic
import openai
import pytest
from gate_kit import LOOKUP_TOOL, WEATHER_SCHEMA
from jsonschema import Draft202012Validator

from leakline.client.event import build_event
from leakline.detectors import run_detectors
from leakline.pipeline.cli import main as cli_main
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.gate.engine.profiles import PROFILES
from leakline.pipeline.gate.replay import Tags


def _chat(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url, api_key="test", max_retries=0, timeout=30)


def _anthropic(url: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=url.removesuffix("/v1"), api_key="test", max_retries=0)


CHAT_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup_employee",
            "description": "Look up an employee record by ID.",
            "parameters": LOOKUP_TOOL,
        },
    }
]
WEATHER_FORMAT = {
    "type": "json_schema",
    "json_schema": {"name": "weather", "schema": WEATHER_SCHEMA, "strict": True},
}


def _labels(api: str, body: dict[str, Any], reply: Any) -> list[str]:
    """The detectors' verdict on what the SDK returned."""
    if body.get("stream"):
        chunks = [c.model_dump(mode="json", exclude_unset=True) for c in reply]
        response = None
    else:
        chunks, response = [], reply.model_dump(mode="json", exclude_unset=True)
    event = build_event(
        event_id="t",
        api=api,
        request=body,
        response=response,
        chunks=chunks,
        meta=Tags("sim", "test", body["model"]),
        stream=bool(body.get("stream")),
    )
    return list(run_detectors(normalise(event)).labels)


def test_help_says_it_is_a_test_double(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli_main(["engine-sim", "--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    assert "TEST DOUBLE" in text and "not a model" in text
    for profile in PROFILES:
        assert profile.name in text


def test_raw_sse_framing(sim_url: str) -> None:
    request = urllib.request.Request(
        f"{sim_url}/chat/completions",
        data=json.dumps(
            {
                "model": "sim-good",
                "stream": True,
                "messages": [{"role": "user", "content": "What is a reasoning parser?"}],
            }
        ).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        assert reply.headers["Content-Type"].startswith("text/event-stream")
        assert reply.headers["x-leakline-engine"] == "leakline-engine-sim"
        assert reply.headers["x-leakline-profile"] == "good"
        body = reply.read().decode()
    frames = body.split("\n\n")
    assert frames[-1] == "" and frames[-2] == "data: [DONE]"
    assert all(f.startswith("data: {") for f in frames[:-2])
    assert len(frames) > 10


def test_openai_sdk_streams_the_same_answer_it_returns_whole(sim_url: str) -> None:
    client = _chat(sim_url)
    messages = [{"role": "user", "content": "How do I pin a chat template version?"}]
    whole = client.chat.completions.create(model="sim-good", messages=messages)
    stream = client.chat.completions.create(model="sim-good", messages=messages, stream=True)
    chunks = list(stream)
    assert len(chunks) > 5
    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    reasoning = "".join(
        getattr(c.choices[0].delta, "reasoning", None) or "" for c in chunks if c.choices
    )
    assert content == whole.choices[0].message.content
    assert reasoning == getattr(whole.choices[0].message, "reasoning", None)
    assert "pin a chat template version" in content  # the answer echoes the question
    assert chunks[-1].choices[0].finish_reason == "stop"


def test_answers_are_deterministic_per_request(sim_url: str) -> None:
    client = _chat(sim_url)

    def ask(question: str) -> str | None:
        reply = client.chat.completions.create(
            model="sim-good", messages=[{"role": "user", "content": question}]
        )
        return reply.choices[0].message.content

    assert ask("Why is content empty?") == ask("Why is content empty?")
    assert ask("Why is content empty?") != ask("Why did the tool call fail?")


@pytest.mark.parametrize(
    ("stream", "stop"), [(False, False), (False, True), (True, False), (True, True)]
)
def test_stop_profile_leaks_only_when_streaming_with_stop(
    sim_url: str, stream: bool, stop: bool
) -> None:
    body: dict[str, Any] = {
        "model": "sim-stop",
        "messages": [{"role": "user", "content": "Summarise the incident report"}],
    }
    if stream:
        body["stream"] = True
    if stop:
        body["stop"] = ["\nUser:"]
    reply = _chat(sim_url).chat.completions.create(**body)
    labels = _labels("chat.completions", body, reply)
    if stream and stop:
        assert {"boundary_token", "reasoning_leak"} <= set(labels)
    else:
        assert labels == []


# (profile, extra request fields, stream, expected labels exactly)
FAILURE_MODES = [
    pytest.param("good", {}, True, [], id="good"),
    pytest.param("good", {"tools": CHAT_TOOLS}, True, [], id="good-tools"),
    pytest.param("good", {"response_format": WEATHER_FORMAT}, False, [], id="good-json"),
    pytest.param("sglang", {}, True, [], id="sglang-field"),
    pytest.param(
        "tool-parser-only", {}, False, ["boundary_token", "reasoning_leak"], id="tool-parser-only"
    ),
    pytest.param("wrong-parser", {}, True, ["final_in_reasoning"], id="wrong-parser"),
    pytest.param(
        "tools-as-text", {"tools": CHAT_TOOLS}, False, ["tool_call_as_text"], id="tools-as-text"
    ),
    pytest.param("tools-as-text", {}, False, [], id="tools-as-text-without-tools"),
    pytest.param(
        "grammar-missed",
        {"response_format": WEATHER_FORMAT},
        True,
        ["structured_invalid"],
        id="grammar-missed",
    ),
    pytest.param("grammar-missed", {}, True, [], id="grammar-missed-plain"),
    pytest.param("length", {"max_tokens": 40}, False, ["truncated"], id="length"),
    pytest.param(
        "length",
        {"max_tokens": 40, "response_format": WEATHER_FORMAT},
        True,
        ["structured_invalid", "truncated"],
        id="length-json",
    ),
    pytest.param("preamble", {}, False, ["preamble"], id="preamble"),
    pytest.param("mixed-chunk", {}, True, ["mixed_chunk"], id="mixed-chunk"),
    pytest.param("mixed-chunk", {}, False, [], id="mixed-chunk-not-streamed"),
]


@pytest.mark.parametrize(("profile", "extra", "stream", "expected"), FAILURE_MODES)
def test_profiles_reproduce_their_failure_mode(
    sim_url: str, profile: str, extra: dict[str, Any], stream: bool, expected: list[str]
) -> None:
    body: dict[str, Any] = {
        "model": f"sim-{profile}",
        "messages": [{"role": "user", "content": "Is employee E41207 eligible for leave?"}],
        **extra,
    }
    if stream:
        body["stream"] = True
    reply = _chat(sim_url).chat.completions.create(**body)
    assert sorted(_labels("chat.completions", body, reply)) == expected


def test_good_profile_structured_output_and_tool_calls_are_valid(sim_url: str) -> None:
    client = _chat(sim_url)
    question = [{"role": "user", "content": "Weather in Busan for employee E41207?"}]
    reply = client.chat.completions.create(
        model="sim-good", messages=question, response_format=WEATHER_FORMAT
    )
    assert Draft202012Validator(WEATHER_SCHEMA).is_valid(
        json.loads(reply.choices[0].message.content or "")
    )
    call = client.chat.completions.create(model="sim-good", messages=question, tools=CHAT_TOOLS)
    assert call.choices[0].finish_reason == "tool_calls"
    assert call.choices[0].message.tool_calls is not None
    args = json.loads(call.choices[0].message.tool_calls[0].function.arguments)
    assert args == {"employee_id": "E41207"}  # copied from the prompt, matches the pattern


def test_preambles_follow_the_request_language(sim_url: str) -> None:
    client = _chat(sim_url)
    openings = set()
    for question in ("Where is my order?", "제 주문은 어디쯤 왔나요?", "我的订单到哪了？"):
        body = {"model": "sim-preamble", "messages": [{"role": "user", "content": question}]}
        reply = client.chat.completions.create(**body)
        assert _labels("chat.completions", body, reply) == ["preamble"], question
        openings.add((reply.choices[0].message.content or "")[:6])
    assert len(openings) == 3


def test_responses_sdk_streams_and_reports_incomplete(sim_url: str) -> None:
    client = _chat(sim_url)
    whole = client.responses.create(model="sim-good", input="What does the gate compare?")
    events = list(
        client.responses.create(model="sim-good", input="What does the gate compare?", stream=True)
    )
    kinds = [e.type for e in events]
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
    streamed = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert streamed == whole.output_text and "gate compare" in streamed
    cut = client.responses.create(
        model="sim-length", input="Plan the rollout", max_output_tokens=30
    )
    assert cut.status == "incomplete"
    assert cut.incomplete_details is not None
    assert cut.incomplete_details.reason == "max_output_tokens"
    assert cut.output_text == ""


def test_messages_sdk_streams_blocks_and_tool_use(sim_url: str) -> None:
    client = _anthropic(sim_url)
    question = [{"role": "user", "content": "Is employee E41207 eligible for leave?"}]
    whole = client.messages.create(model="sim-good", max_tokens=512, messages=question)
    with client.messages.stream(model="sim-good", max_tokens=512, messages=question) as stream:
        final = stream.get_final_message()
    assert [b.type for b in final.content] == ["thinking", "text"]
    assert final.content[1].text == whole.content[1].text  # type: ignore[union-attr]
    tools = [
        {
            "name": "lookup_employee",
            "description": "Look up an employee.",
            "input_schema": LOOKUP_TOOL,
        }
    ]
    call = client.messages.create(model="sim-good", max_tokens=512, messages=question, tools=tools)
    assert call.stop_reason == "tool_use"
    assert call.content[-1].type == "tool_use"
    assert call.content[-1].input == {"employee_id": "E41207"}  # type: ignore[union-attr]
    leaked = client.messages.create(
        model="sim-stop",
        max_tokens=512,
        messages=question,
        stop_sequences=["\nUser:"],
        stream=True,
    )
    text = "".join(
        e.delta.text
        for e in leaked
        if e.type == "content_block_delta" and e.delta.type == "text_delta"
    )
    assert "</think>" in text


def test_unknown_profile_header_is_a_400_listing_profiles(sim_url: str) -> None:
    request = urllib.request.Request(
        f"{sim_url}/chat/completions",
        data=b'{"model": "m", "messages": []}',
        headers={"Content-Type": "application/json", "x-leakline-profile": "nope"},
    )
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(request, timeout=30)
    assert info.value.code == 400
    message = json.loads(info.value.read())["error"]["message"]
    assert "nope" in message and "tools-as-text" in message


def test_models_lists_every_profile(sim_url: str) -> None:
    ids = {m.id for m in _chat(sim_url).models.list()}
    assert {f"sim-{p.name}" for p in PROFILES} <= ids
