"""Normalisation of the three APIs, streamed and not, into one Exchange."""

from __future__ import annotations

import orjson
import pytest

from leakline.pipeline.events.contract import validate_event
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch


def ev(api: str, request: dict | None = None, **body: object) -> dict:
    event = {"event_id": "e1", "api": api, "request": request or {}, **body}
    return validate_event(event)


def chat_chunk(finish: str | None = None, **delta: object) -> dict:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


# ------------------------------------------------------------ chat.completions


def test_chat_non_streaming_reads_reasoning_and_content() -> None:
    x = normalise(
        ev(
            "chat.completions",
            response={
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {
                            "role": "assistant",
                            "content": "Paris.",
                            "reasoning": "capital of France",
                        },
                    }
                ]
            },
        )
    )
    assert (x.visible_text, x.reasoning_text, x.reasoning_field) == (
        "Paris.",
        "capital of France",
        "reasoning",
    )
    assert x.finish_reason == "stop" and not x.stream and x.tool_calls == ()


def test_chat_reads_legacy_reasoning_content_field() -> None:
    x = normalise(
        ev(
            "chat.completions",
            response={
                "choices": [
                    {
                        "message": {"content": "4", "reasoning_content": "2+2"},
                        "finish_reason": "stop",
                    }
                ]
            },
        )
    )
    assert x.reasoning_text == "2+2" and x.reasoning_field == "reasoning_content"


def test_chat_content_as_list_of_parts_and_null_content() -> None:
    x = normalise(
        ev(
            "chat.completions",
            response={
                "choices": [
                    {
                        "message": {
                            "content": [
                                {"type": "text", "text": "a"},
                                {"type": "text", "text": "b"},
                            ]
                        }
                    }
                ]
            },
        )
    )
    assert x.visible_text == "ab"
    y = normalise(ev("chat.completions", response={"choices": [{"message": {"content": None}}]}))
    assert y.visible_text == "" and y.finish_reason is None


def test_chat_stream_reassembles_and_records_mixed_chunks() -> None:
    chunks = [
        chat_chunk(role="assistant"),
        chat_chunk(reasoning="think "),
        chat_chunk(reasoning="more", content="Hel"),  # both fields in one chunk
        chat_chunk(content="lo</th"),
        chat_chunk(content="ink>"),
        chat_chunk(finish="stop"),
    ]
    x = normalise(ev("chat.completions", stream=True, chunks=chunks))
    assert x.stream and x.visible_text == "Hello</think>"
    assert x.reasoning_text == "think more"
    assert x.stream_facts.mixed_chunks == (2,)
    assert x.stream_facts.chunk_count == 6
    assert x.stream_facts.visible_pieces == ("Hel", "lo</th", "ink>")
    assert x.finish_reason == "stop"


def test_chat_stream_tool_call_fragments_are_joined() -> None:
    chunks = [
        chat_chunk(
            tool_calls=[
                {"index": 0, "id": "c1", "function": {"name": "get_weather", "arguments": ""}}
            ]
        ),
        chat_chunk(tool_calls=[{"index": 0, "function": {"arguments": '{"city": '}}]),
        chat_chunk(tool_calls=[{"index": 0, "function": {"arguments": '"Seoul"}'}}]),
        chat_chunk(
            tool_calls=[
                {"index": 1, "id": "c2", "function": {"name": "get_time", "arguments": "{}"}}
            ]
        ),
        chat_chunk(finish="tool_calls"),
    ]
    x = normalise(
        ev(
            "chat.completions",
            {
                "tools": [
                    {
                        "type": "function",
                        "function": {"name": "get_weather", "parameters": {"type": "object"}},
                    }
                ]
            },
            chunks=chunks,
        )
    )
    assert [(c.name, c.arguments, c.call_id) for c in x.tool_calls] == [
        ("get_weather", '{"city": "Seoul"}', "c1"),
        ("get_time", "{}", "c2"),
    ]
    assert x.declared_tools == {"get_weather": {"type": "object"}}
    assert x.finish_reason == "tool_calls"


def test_chat_request_flags() -> None:
    schema = {"type": "object", "required": ["a"]}
    x = normalise(
        ev(
            "chat.completions",
            {
                "stop": ["\n\n", "END"],
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "x", "schema": schema, "strict": True},
                },
            },
            response={"choices": [{"message": {"content": "{}"}, "finish_reason": "length"}]},
        )
    )
    assert x.stop == ("\n\n", "END")
    assert (
        x.response_format is not None
        and x.response_format.schema == schema
        and x.response_format.strict
    )
    assert x.finish_reason == "length" and x.structured
    plain = normalise(
        ev(
            "chat.completions",
            {"stop": "x", "response_format": {"type": "text"}},
            response={"choices": []},
        )
    )
    assert plain.stop == ("x",) and plain.response_format is None and plain.visible_text == ""


# ------------------------------------------------------------ responses


def _msg(text: str, phase: str | None = None) -> dict:
    item = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text}],
    }
    if phase:
        item["phase"] = phase
    return item


@pytest.mark.parametrize(
    ("renders", "visible"),
    [
        pytest.param(True, "Let me look.Answer.", id="client_renders_phases"),
        pytest.param(False, "Answer.", id="client_filters_commentary"),
        pytest.param(None, "Answer.", id="unknown_client"),
    ],
)
def test_responses_commentary_phase_honours_client(renders: bool | None, visible: str) -> None:
    event = {
        "response": {
            "status": "completed",
            "output": [
                {"type": "reasoning", "summary": [{"type": "summary_text", "text": "plan"}]},
                _msg("Let me look.", "commentary"),
                _msg("Answer."),  # missing phase means final
            ],
        }
    }
    if renders is not None:
        event["client"] = {"renders_phases": renders}
    x = normalise(ev("responses", **event))
    assert x.visible_text == visible
    assert x.commentary_text == "Let me look."
    assert x.reasoning_text == "plan" and x.finish_reason == "stop"
    assert x.renders_phases is renders


def test_responses_function_call_and_incomplete() -> None:
    x = normalise(
        ev(
            "responses",
            {
                "tools": [{"type": "function", "name": "lookup", "parameters": {}}],
                "text": {
                    "format": {"type": "json_schema", "name": "a", "schema": {"type": "object"}}
                },
            },
            response={
                "status": "completed",
                "output": [
                    {
                        "type": "function_call",
                        "name": "lookup",
                        "arguments": '{"q": 1}',
                        "call_id": "fc1",
                    }
                ],
            },
        )
    )
    assert x.tool_calls[0].name == "lookup" and x.finish_reason == "tool_calls"
    assert (
        x.declared_tools == {"lookup": {}}
        and x.response_format
        and x.response_format.kind == "json_schema"
    )
    cut = normalise(
        ev(
            "responses",
            response={
                "status": "incomplete",
                "incomplete_details": {"reason": "max_output_tokens"},
                "output": [
                    {"type": "reasoning", "content": [{"type": "reasoning_text", "text": "long"}]}
                ],
            },
        )
    )
    assert cut.finish_reason == "length" and cut.visible_text == "" and cut.reasoning_text == "long"


def test_responses_stream_rebuilds_items_from_deltas() -> None:
    chunks = [
        {"type": "response.output_item.added", "output_index": 0, "item": {"type": "reasoning"}},
        {"type": "response.reasoning_text.delta", "output_index": 0, "delta": "hmm "},
        {"type": "response.reasoning_text.delta", "output_index": 0, "delta": "ok"},
        {
            "type": "response.output_item.added",
            "output_index": 1,
            "item": {"type": "message", "phase": "commentary", "content": []},
        },
        {"type": "response.output_text.delta", "output_index": 1, "delta": "Checking…"},
        {
            "type": "response.output_item.added",
            "output_index": 2,
            "item": {"type": "message", "content": []},
        },
        {"type": "response.output_text.delta", "output_index": 2, "delta": "Done"},
        {"type": "response.output_text.delta", "output_index": 2, "delta": "."},
        {"type": "response.completed", "response": {"status": "completed"}},
    ]
    x = normalise(ev("responses", stream=True, chunks=chunks, client={"renders_phases": True}))
    assert x.reasoning_text == "hmm ok"
    assert x.commentary_text == "Checking…"
    assert x.visible_text == "Checking…Done."
    assert x.stream and x.stream_facts.chunk_count == 9 and x.finish_reason == "stop"


# ------------------------------------------------------------ messages


def test_messages_blocks() -> None:
    x = normalise(
        ev(
            "messages",
            {
                "tools": [{"name": "calc", "input_schema": {"type": "object"}}],
                "stop_sequences": ["###"],
            },
            response={
                "stop_reason": "tool_use",
                "content": [
                    {"type": "thinking", "thinking": "need calc"},
                    {"type": "text", "text": "Computing."},
                    {"type": "tool_use", "id": "tu1", "name": "calc", "input": {"x": 2}},
                ],
            },
        )
    )
    assert x.reasoning_text == "need calc" and x.reasoning_field == "thinking"
    assert x.visible_text == "Computing."
    assert x.tool_calls[0].name == "calc" and x.tool_calls[0].arguments == '{"x":2}'
    assert x.finish_reason == "tool_calls" and x.stop == ("###",)
    assert x.declared_tools == {"calc": {"type": "object"}}


def test_messages_stream_events() -> None:
    chunks = [
        {"type": "message_start", "message": {"id": "m1"}},
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": ""},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "a"},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "signature_delta", "signature": "x"},
        },
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "text_delta", "text": "<thinking>b"},
        },
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "text_delta", "text": "</thinking>c"},
        },
        {
            "type": "content_block_start",
            "index": 2,
            "content_block": {"type": "tool_use", "id": "t", "name": "f", "input": {}},
        },
        {
            "type": "content_block_delta",
            "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": '{"k":'},
        },
        {
            "type": "content_block_delta",
            "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": "1}"},
        },
        {"type": "message_delta", "delta": {"stop_reason": "max_tokens"}},
        {"type": "message_stop"},
    ]
    x = normalise(ev("messages", stream=True, chunks=chunks))
    assert x.reasoning_text == "a" and x.visible_text == "<thinking>b</thinking>c"
    assert x.tool_calls[0].arguments == '{"k":1}'
    assert x.finish_reason == "length" and x.raw_finish_reason == "max_tokens"


def test_versions_default_to_none() -> None:
    x = normalise(
        ev(
            "messages",
            response={"content": []},
            engine={"name": "vllm", "version": "0.31.0"},
            parsers={"reasoning": "qwen3"},
        )
    )
    assert x.versions.engine_name == "vllm" and x.versions.engine_version == "0.31.0"
    assert x.versions.reasoning_parser == "qwen3" and x.versions.model_name is None


@pytest.mark.parametrize(
    "body",
    [
        {"response": {"choices": "nope"}},
        {"response": {"choices": [{"message": "str", "finish_reason": 3}]}},
        {"chunks": [{"choices": [{"delta": None}]}, {"choices": None}, {}]},
        {"chunks": [{"choices": [{"delta": {"tool_calls": [{"index": "x", "function": None}]}}]}]},
    ],
    ids=["choices_not_list", "message_not_object", "odd_chunks", "odd_tool_delta"],
)
def test_odd_inner_shapes_never_raise(body: dict) -> None:
    x = normalise(ev("chat.completions", **body))
    assert isinstance(x.visible_text, str)


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_odd_inner_shapes_never_raise_other_apis(api: str) -> None:
    for body in (
        {"response": {"output": [1, "x", None, {"type": "message", "content": "s"}]}},
        {"response": {"content": [None, {"type": "text", "text": 5}]}},
        {
            "chunks": [
                {"type": "content_block_delta", "delta": None},
                {"type": "response.output_text.delta"},
            ]
        },
    ):
        assert isinstance(normalise(ev(api, **body)).visible_text, str)


def test_request_key_ignores_stream_and_stop_only() -> None:
    base = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 50}
    body = {"response": {"choices": []}}
    a = normalise(ev("chat.completions", dict(base), **body))
    b = normalise(ev("chat.completions", {**base, "stream": True, "stop": ["x"]}, **body))
    c = normalise(ev("chat.completions", {**base, "max_tokens": 51}, **body))
    d = normalise(ev("responses", dict(base), **body))
    assert a.request_key and a.request_key == b.request_key
    assert a.request_key != c.request_key and a.request_key != d.request_key
    assert normalise(ev("chat.completions", {}, **body)).request_key is None


def test_client_reasoning_field_is_carried() -> None:
    x = normalise(
        ev(
            "chat.completions",
            response={"choices": []},
            client={"reasoning_field": "reasoning_content"},
        )
    )
    assert x.client_reasoning_field == "reasoning_content"


# ------------------------------------------------------------------ streamed chat fast path

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _reference_chat_stream(
    chunks: list,
) -> tuple[str, str, str | None, tuple[int, ...], str | None]:
    """The general per-chunk reading (no fast path): visible, reasoning, field, mixed, finish."""

    def text_of(value: object) -> str:
        if isinstance(value, str):
            return value
        if isinstance(value, list):
            return "".join(text_of(p.get("text") if isinstance(p, dict) else None) for p in value)
        return ""

    visible, reasoning, mixed = [], [], []
    field, finish = None, None
    for index, chunk in enumerate(chunks):
        choices = chunk.get("choices") if isinstance(chunk, dict) else None
        for choice in choices if isinstance(choices, list) else []:
            choice = choice if isinstance(choice, dict) else {}
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
            content = text_of(delta.get("content"))
            text, name = "", ""
            for key in ("reasoning", "reasoning_content"):
                if text_of(delta.get(key)):
                    text, name = text_of(delta.get(key)), key
                    break
            if content:
                visible.append(content)
            if text:
                reasoning.append(text)
                field = field or name
            if content and text:
                mixed.append(index)
            got = choice.get("finish_reason")
            finish = (got if isinstance(got, str) and got else None) or finish
    return "".join(visible), "".join(reasoning), field, tuple(mixed), finish


_TEXTS = st.one_of(st.none(), st.just(""), st.text(max_size=6), st.integers(0, 3))
_PARTS = st.lists(
    st.fixed_dictionaries({"type": st.just("text"), "text": st.text(max_size=4)}), max_size=2
)
_DELTAS = st.dictionaries(
    st.sampled_from(["content", "reasoning", "reasoning_content", "role"]),
    st.one_of(_TEXTS, _PARTS),
    max_size=4,
)
_CHOICES = st.fixed_dictionaries(
    {"delta": st.one_of(_DELTAS, st.sampled_from([None, 3, "x", []]))},
    optional={
        "index": st.sampled_from([0, 0, 1]),
        "finish_reason": st.one_of(st.none(), st.just(""), st.sampled_from(["stop", "length"])),
    },
)
_ODD = st.sampled_from([None, 3, "x", []])  # not objects: read as empty
_CHUNKS = st.lists(
    st.one_of(
        st.fixed_dictionaries({"choices": st.lists(st.one_of(_CHOICES, _ODD), max_size=2)}),
        st.fixed_dictionaries({"choices": _ODD}),
        st.just({}),
        _ODD,
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(_CHUNKS)
def test_streamed_chat_reads_like_the_general_per_chunk_handling(chunks: list) -> None:
    event = {"event_id": "e", "api": "chat.completions", "request": {}, "chunks": chunks}
    x = normalise(event)
    visible, reasoning, field, mixed, finish = _reference_chat_stream(chunks)
    assert x.visible_text == visible
    assert x.reasoning_text == reasoning
    assert x.reasoning_field == field
    assert x.stream_facts.mixed_chunks == mixed
    assert x.raw_finish_reason == finish
    assert x.stream_facts.chunk_count == len(chunks)


@pytest.mark.parametrize("element", [None, 3, "x", []], ids=["null", "int", "str", "list"])
def test_a_streamed_choice_that_is_not_an_object_reads_as_empty_in_every_build(
    element: object,
) -> None:
    # The compiled build (detectors/native.py) once checked every streamed choice as a dict,
    # because the non-streamed branch of the same function held a dict under that name:
    # ``{"choices": [null]}`` raised TypeError there, so the event became a dead letter,
    # and a row in the Python source. tests/detectors/test_native_build.py runs this file
    # against the compiled build too.
    event = ev("chat.completions", chunks=[{"choices": [element]}, chat_chunk(content="Hi")])
    x = normalise(event)
    assert (x.visible_text, x.stream_facts.chunk_count) == ("Hi", 2)

    record = RawRecord(None, orjson.dumps(event), Origin("gateway.events", 0, 0))
    result = process_batch([record], worker_id="w", clean_text_rate=1.0, max_event_bytes=1 << 20)
    assert result.dead_letters == []
    assert result.rows.columns["visible_text"] == ["Hi"]
