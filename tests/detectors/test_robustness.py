"""No detector ever raises: odd model output and odd request data go through ``run_detectors``."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leakline.detectors import (
    Exchange,
    ResponseFormat,
    StreamFacts,
    ToolCall,
    Versions,
    registered,
    run_detectors,
)
from leakline.detectors.families import TOKEN_ROLES
from leakline.detectors.tool_markup import TOOL_MARKUPS

ODD_TEXTS = [
    pytest.param("", id="empty"),
    pytest.param(" \n\t", id="whitespace"),
    pytest.param("\x00<think>\x00</think>\x00", id="nul_bytes"),
    pytest.param("\ud800<think>\udfff</think>\ud83d", id="lone_surrogates"),
    pytest.param("<think>" * 50_000, id="many_tokens"),
    pytest.param("`" * 30_001 + "<think>", id="many_backticks"),
    pytest.param("```\n" * 5_000 + "</think>", id="many_fences"),
    pytest.param("{" * 100_000, id="deep_json_open"),
    pytest.param("[" * 50_000 + "]" * 50_000, id="deep_json_nested"),
    pytest.param("<tool_call>" * 10_000, id="many_tool_openers"),
    pytest.param('{"name": "' * 5_000, id="many_bare_json_openers"),
    pytest.param("[TOOL_CALLS]" + "x" * 200_000, id="long_mistral_body"),
    pytest.param("Let me check" + " that" * 100_000, id="long_first_sentence"),
    pytest.param("İ" * 300 + " let me check", id="lowercase_changes_length"),
    pytest.param("x" * 2_000_000, id="two_megabytes"),
    pytest.param("<|tool_call>call:f{" + '<|"|>' * 999 + "}", id="gemma_unbalanced_quotes"),
]

ODD_SCHEMAS = [
    {"type": 12},
    {"$ref": "#"},
    {"$ref": "https://example.invalid/x.json"},
    {"properties": {"a": {"pattern": "("}}, "type": "object"},
    {"$schema": "urn:nope"},
    {"definitions": {"a": {"$ref": "#/definitions/a"}}, "$ref": "#/definitions/a"},
    {"type": "object", "properties": {"a": {"format": "email"}}},
    {"items": [1, 2]},
]


def _exchange(text: str, **kw) -> Exchange:
    schema = kw.pop("schema", {"type": "object"})
    return Exchange(
        event_id="odd",
        api=kw.pop("api", "chat.completions"),
        stream=True,
        visible_text=text,
        reasoning_text=kw.pop("reasoning", text[:1000]),
        tool_calls=kw.pop("calls", ()),
        declared_tools=kw.pop("tools", {"get_weather": schema, "x": None}),
        response_format=kw.pop("fmt", ResponseFormat("json_schema", schema)),
        finish_reason=kw.pop("finish", None),
        commentary_text=text[:50],
        renders_phases=True,
        stream_facts=kw.pop("facts", StreamFacts(3, (1, 2), (text[:3], text[3:7], text[7:]))),
        versions=kw.pop("versions", Versions(model_name="qwen3", reasoning_parser="deepseek_r1")),
    )


@pytest.mark.parametrize("text", ODD_TEXTS)
def test_odd_text_never_raises(text):
    started = time.perf_counter()
    verdict = run_detectors(_exchange(text))
    assert time.perf_counter() - started < 10
    assert all(f.detector_id in registered() for f in verdict.findings)
    for finding in verdict.findings:
        finding.to_dict()
        if finding.span is not None:
            assert 0 <= finding.span[0] <= finding.span[1] <= len(text)


@pytest.mark.parametrize("schema", ODD_SCHEMAS, ids=lambda s: str(s)[:30])
@pytest.mark.parametrize("args", ['{"a": "x"}', "[]", "", "null", '{"a": ' * 10_000])
def test_odd_schemas_and_arguments_never_raise(schema, args):
    calls = (ToolCall("get_weather", args), ToolCall(None, args), ToolCall("", args))
    run_detectors(_exchange('{"a": "x"}', schema=schema, calls=calls))
    run_detectors(_exchange('{"a": "x"}', schema=schema, calls=()))


@pytest.mark.parametrize(
    "kw",
    [
        pytest.param({"fmt": ResponseFormat("json_schema", None)}, id="schema_none"),
        pytest.param({"fmt": ResponseFormat("nonsense", {"type": "object"})}, id="unknown_kind"),
        pytest.param({"tools": {}}, id="no_tools"),
        pytest.param({"facts": StreamFacts(0, (), ("a", "b"))}, id="pieces_mismatch"),
        pytest.param({"facts": StreamFacts(10**6, tuple(range(100_000)), ())}, id="many_mixed"),
        pytest.param({"versions": Versions()}, id="no_versions"),
        pytest.param({"versions": Versions(model_name="", reasoning_parser="")}, id="empty_names"),
        pytest.param({"finish": "length", "reasoning": ""}, id="length_no_reasoning"),
        pytest.param({"api": "messages"}, id="messages_api"),
    ],
)
def test_odd_exchange_fields_never_raise(kw):
    run_detectors(_exchange("<think>x</think>Let me check that.", **kw))


_PIECES = (
    [t for t in TOKEN_ROLES]
    + [c for m in TOOL_MARKUPS for c in m.cues]
    + [
        "`",
        "```\n",
        '"',
        "「",
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\n",
        " ",
        "x",
        "Let me check.",
        "Okay, so the user",
        "먼저 찾아보겠습니다.",
        "嗯，",
        '"name": "get_weather"',
        "\ud800",
        "\x00",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(st.sampled_from(_PIECES) | st.text(max_size=8), max_size=40),
    declared=st.booleans(),
    structured=st.sampled_from([None, "json_object", "json_schema"]),
)
def test_fuzzed_mixtures_never_raise(parts, declared, structured):
    text = "".join(parts)
    exchange = Exchange(
        event_id="fuzz",
        api="chat.completions",
        stream=bool(parts),
        visible_text=text,
        declared_tools={"get_weather": {"type": "object"}} if declared else {},
        response_format=ResponseFormat(structured, {"type": "object"}) if structured else None,
        stream_facts=StreamFacts(len(parts), (), tuple(parts)),
    )
    verdict = run_detectors(exchange)
    for finding in verdict.findings:
        if finding.span is not None:
            assert 0 <= finding.span[0] <= finding.span[1] <= len(text)
