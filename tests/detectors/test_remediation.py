"""Remediation helpers: strip, rescue, retry feedback and the bounded fallback policy."""

from __future__ import annotations

import json

import pytest

from leakline.detectors import Finding, Layer, Remediation, Source, run_detectors
from leakline.detectors.remediation import (
    Decision,
    FallbackPolicy,
    RescuedCall,
    merge_spans,
    openai_tool_calls,
    rescue,
    retry_feedback,
    strip,
)
from leakline.detectors.schema import SchemaViolation


def finding(label="boundary_token", span=None, remediation=Remediation.STRIP, **details):
    return Finding(
        label=label,
        detector_id="test",
        detector_version="1",
        source=Source.RULE,
        layer=Layer.PARSER,
        remediation=remediation,
        confidence=1.0,
        evidence="",
        span=span,
        details=details,
    )


def call_finding(calls, remediation=Remediation.RESCUE, **details):
    return finding(
        "tool_call_as_text", (0, 10), remediation, syntax="hermes", rescued_calls=calls, **details
    )


HERMES_OK = '<tool_call>{"name": "get_weather", "arguments": {"city": "서울"}}</tool_call>'
HERMES_BAD_UNIT = (
    '<tool_call>{"name": "get_weather", "arguments": {"city": "Seoul", "unit": "k"}}</tool_call>'
)

# --------------------------------------------------------------------------- strip

STRIP_CASES = [
    pytest.param(
        "<think>\n사용자가 날씨를 묻고 있다.\n</think>\n\n서울은 맑습니다.",
        {},
        "\n\n서울은 맑습니다.",
        [(0, 32)],
        id="korean_reasoning_region_and_tokens_merged",
    ),
    pytest.param(
        "嗯，用户问的是首都。</think>巴黎。",
        {"reasoning_parser": "deepseek_r1"},
        "巴黎。",
        [(0, 18)],
        id="chinese_lone_end_region",
    ),
    pytest.param("Paris.<|im_end|>", {}, "Paris.", [(6, 16)], id="trailing_special_token"),
    pytest.param(
        "잠시만요, 확인해 보겠습니다. 서울은 맑습니다.",
        {},
        " 서울은 맑습니다.",  # the rest stays byte-identical, the space too
        [(0, 16)],
        id="korean_preamble",
    ),
    pytest.param("Use `<think>` tags.\n```\n</think>\n```", {}, None, None, id="code_only_clean"),
    pytest.param("The capital is Paris.", {}, None, None, id="clean"),
]


@pytest.mark.parametrize(("text", "kwargs", "expected", "removed"), STRIP_CASES)
def test_strip_detector_findings(make_exchange, text, kwargs, expected, removed):
    verdict = run_detectors(make_exchange(text, **kwargs))
    result = strip(text, verdict)
    assert result is not None
    assert result.text == (text if expected is None else expected)
    assert result.removed == (removed or [])


SPAN_CASES = [
    pytest.param([(0, 5), (3, 8)], [(0, 8)], id="overlapping"),
    pytest.param([(4, 6), (0, 2), (2, 3)], [(0, 3), (4, 6)], id="touching_and_unsorted"),
    pytest.param([(0, 10), (2, 4)], [(0, 10)], id="nested"),
    pytest.param([(3, 3)], [], id="empty_span"),
]


@pytest.mark.parametrize(("spans", "merged"), SPAN_CASES)
def test_merge_spans(spans, merged):
    assert merge_spans(spans) == merged


def test_strip_leaves_the_rest_byte_identical():
    text = "a\u200b<think>b\r\n\t</think>c\x00"
    found = [finding(span=(2, 9), token="<think>"), finding(span=(13, 21), token="</think>")]
    result = strip(text, found)
    assert result is not None
    assert result.text == "a\u200bb\r\n\tc\x00"


NOT_STRIPPABLE = [
    pytest.param(finding("truncated", None, Remediation.REGENERATE), id="regenerate_no_span"),
    pytest.param(finding("reasoning_leak", (0, 22), Remediation.REGENERATE), id="unclear_region"),
    pytest.param(finding("commentary_rendered", None), id="strip_without_span"),
    pytest.param(finding(span=(0, 99)), id="span_outside_text"),
    pytest.param(finding(span=(0, 7), token="</think>"), id="span_from_another_text"),
]


@pytest.mark.parametrize("other", NOT_STRIPPABLE)
def test_strip_refuses_what_it_cannot_fix(other):
    text = "<think>x</think>Answer"
    token = finding(span=(0, 7), token="<think>")
    assert strip(text, [token, other]) is None
    partial = strip(text, [token, other], partial=True)
    assert partial is not None
    assert partial.text == "x</think>Answer"
    assert partial.skipped == (other,)


# --------------------------------------------------------------------------- rescue


def test_rescue_from_exchange(make_exchange, tools):
    (call,) = rescue(make_exchange(HERMES_OK, tools=tools))
    assert call == RescuedCall(
        name="get_weather",
        arguments={"city": "서울"},
        schema_valid=True,
        errors=(),
        syntax="hermes",
        span=(0, len(HERMES_OK)),
    )


def test_rescue_without_declared_tools_still_finds_the_call(make_exchange):
    # tool_call_text fires without declared tools (issue 14); remediation judges validity
    (call,) = rescue(make_exchange(HERMES_OK))
    assert call.name == "get_weather" and call.arguments == {"city": "서울"}


def test_rescued_call_failing_its_schema(make_exchange, tools):
    (call,) = rescue(make_exchange(HERMES_BAD_UNIT, tools=tools))
    assert call.schema_valid is False
    assert call.errors == ("'k' is not one of ['c', 'f'] at /unit",)


def test_rescue_from_a_verdict_uses_the_stored_validity(make_exchange, tools):
    verdict = run_detectors(make_exchange(HERMES_BAD_UNIT, tools=tools))
    assert [c.schema_valid for c in rescue(verdict)] == [False]


WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
}
ENTRIES_WITHOUT_VALIDITY = [
    pytest.param({"city": "Paris"}, {"get_weather": WEATHER}, True, (), id="valid"),
    pytest.param(
        {"city": 3},
        {"get_weather": WEATHER},
        False,
        ("3 is not of type 'string' at /city",),
        id="schema_violation",
    ),
    pytest.param({}, {"get_weather": None}, True, (), id="declared_without_schema"),
    pytest.param(
        {"city": "Paris"},
        {"search_docs": None},
        False,
        ("'get_weather' is not a declared tool (declared: search_docs)",),
        id="undeclared",
    ),
    pytest.param({"city": "Paris"}, None, None, (), id="nothing_to_check_against"),
]


@pytest.mark.parametrize(("arguments", "declared", "valid", "errors"), ENTRIES_WITHOUT_VALIDITY)
def test_rescue_validates_entries_without_validity(arguments, declared, valid, errors):
    found = [call_finding([{"name": "get_weather", "arguments": arguments}])]
    (call,) = rescue(found, declared_tools=declared)
    assert (call.schema_valid, call.errors) == (valid, errors)


def test_rescue_uses_undeclared_tools_detail_without_declared_tools():
    found = [call_finding([{"name": "rm_rf", "arguments": {}}], undeclared_tools=["rm_rf"])]
    assert [c.schema_valid for c in rescue(found)] == [False]


ODD_ENTRIES = [
    pytest.param("not a dict", id="string"),
    pytest.param({"name": "", "arguments": {}}, id="empty_name"),
    pytest.param({"name": "f", "arguments": [1]}, id="list_arguments"),
    pytest.param({"name": "f", "arguments": "{bad json"}, id="bad_json_string"),
    pytest.param({"arguments": {}}, id="no_name"),
]


@pytest.mark.parametrize("entry", ODD_ENTRIES)
def test_rescue_skips_odd_entries(entry):
    found = [call_finding([entry, {"name": "f", "arguments": '{"a": 1}'}])]
    assert [(c.name, c.arguments) for c in rescue(found)] == [("f", {"a": 1})]


def test_rescue_ignores_other_labels_and_odd_details():
    found = [finding(span=(0, 7), token="<think>"), call_finding("nope")]
    assert rescue(found) == []


def test_openai_tool_calls():
    calls = [
        RescuedCall("get_weather", {"city": "서울"}, True),
        RescuedCall("get_weather", {"city": 3}, False, ("bad",)),
        RescuedCall("search_docs", {"q": "x"}, None),
    ]
    built = openai_tool_calls(calls, id_prefix="call_req7_")
    assert built == [
        {
            "id": "call_req7_0",
            "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "서울"}'},
        },
        {
            "id": "call_req7_1",
            "type": "function",
            "function": {"name": "search_docs", "arguments": '{"q": "x"}'},
        },
    ]
    assert json.loads(built[0]["function"]["arguments"]) == {"city": "서울"}
    assert len(openai_tool_calls(calls, valid_only=False)) == 3


# --------------------------------------------------------------------------- retry feedback

FEEDBACK = [
    pytest.param(
        ["'k' is not one of ['c', 'f'] at /unit"],
        {},
        "Your previous answer failed validation:\n"
        "- 'k' is not one of ['c', 'f'] at /unit\n"
        "Answer again with only one valid JSON value that matches the schema: "
        "no prose, no code fences.",
        id="en_json",
    ),
    pytest.param(
        ["a", "b", "c", "d", "e"],
        {"limit": 2},
        "Your previous answer failed validation:\n- a\n- b\n(and 3 more)\n"
        "Answer again with only one valid JSON value that matches the schema: "
        "no prose, no code fences.",
        id="limit",
    ),
    pytest.param(
        [SchemaViolation("'city' is a required property", "")],
        {"lang": "ko", "target": "tool_call"},
        "이전 도구 호출이 검증을 통과하지 못했습니다:\n- 'city' is a required property\n"
        "스키마에 맞는 인자로 도구를 다시 호출해 주세요. 다른 문장 없이 도구 호출만 보내 주세요.",
        id="ko_tool_call_violation",
    ),
    pytest.param(
        [SchemaViolation("3 is not of type 'string'", "/city")],
        {"lang": "zh"},
        "上一次的回答没有通过校验：\n- 3 is not of type 'string' at /city\n"
        "请重新回答，只输出一个符合 schema 的 JSON 值，不要附加说明文字或代码块。",
        id="zh_json_violation",
    ),
    pytest.param(
        ["same", "same", "  multi\n  line  "],
        {},
        "Your previous answer failed validation:\n- same\n- multi line\n"
        "Answer again with only one valid JSON value that matches the schema: "
        "no prose, no code fences.",
        id="dedupe_and_one_line",
    ),
    pytest.param(
        [],
        {"target": "tool_call"},
        "Call the tool again with arguments that match its schema, as a tool call only, "
        "with no text around it.",
        id="no_errors",
    ),
]


@pytest.mark.parametrize(("errors", "kwargs", "expected"), FEEDBACK)
def test_retry_feedback(errors, kwargs, expected):
    assert retry_feedback(errors, **kwargs) == expected


def test_retry_feedback_stays_short():
    message = retry_feedback(["x" * 5000] * 3 + [f"e{i}" for i in range(50)])
    assert len(message) < 600


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"lang": "fr"}, id="unknown_lang"),
        pytest.param({"target": "yaml"}, id="unknown_target"),
        pytest.param({"limit": 0}, id="zero_limit"),
    ],
)
def test_retry_feedback_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        retry_feedback(["x"], **kwargs)


# --------------------------------------------------------------------------- policy

POLICY = [
    pytest.param("The capital is Paris.", {}, 0, None, id="clean"),
    pytest.param(
        "<think>\n사용자가 수도를 묻고 있다.\n</think>\n\n서울입니다.",
        {},
        0,
        Remediation.STRIP,
        id="strip_tagged_reasoning",
    ),
    pytest.param("我先查一下。北京今天晴。", {}, 0, Remediation.STRIP, id="strip_chinese_preamble"),
    pytest.param(
        "嗯，用户问的是首都。</think>巴黎。",
        {"reasoning_parser": "deepseek_r1"},
        0,
        Remediation.STRIP,
        id="strip_r1_region_covers_the_self_talk_cue",
    ),
    pytest.param(HERMES_OK, {"tools": "yes"}, 0, Remediation.RESCUE, id="rescue_valid_call"),
    pytest.param(
        "<think>call the tool</think>" + HERMES_OK,
        {"tools": "yes"},
        0,
        Remediation.RESCUE,
        id="rescue_with_strippable_tokens",
    ),
    pytest.param(
        HERMES_BAD_UNIT, {"tools": "yes"}, 0, Remediation.REGENERATE, id="rescued_call_fails_schema"
    ),
    pytest.param(
        '```json\n{"a": 1}\n```', {"fmt": "json_object"}, 0, Remediation.REGENERATE, id="fenced"
    ),
    pytest.param(
        "<think>still going when the budget ran out",
        {},
        1,
        Remediation.REGENERATE,
        id="unterminated_second_try",
    ),
    pytest.param(
        "<think>still going when the budget ran out",
        {},
        2,
        Remediation.FALLBACK,
        id="retry_bound_reached",
    ),
    pytest.param(
        "", {"reasoning": "The answer is 4."}, 0, Remediation.FALLBACK, id="final_in_reasoning"
    ),
]


@pytest.mark.parametrize(("text", "kwargs", "attempts", "action"), POLICY)
def test_policy_on_detector_output(make_exchange, tools, text, kwargs, attempts, action):
    if kwargs.get("tools"):
        kwargs = {**kwargs, "tools": tools}
    exchange = make_exchange(text, **kwargs)
    decision = FallbackPolicy().decide(
        run_detectors(exchange), attempts, declared_tools=exchange.declared_tools
    )
    assert decision.action == action, decision.reason


def test_policy_rescue_carries_the_calls(make_exchange, tools):
    exchange = make_exchange(HERMES_OK, tools=tools)
    decision = FallbackPolicy().decide(run_detectors(exchange), 0)
    assert [(c.name, c.arguments) for c in decision.calls] == [("get_weather", {"city": "서울"})]
    assert openai_tool_calls(decision.calls)[0]["function"]["name"] == "get_weather"


def test_policy_feedback_for_a_failed_rescue(make_exchange, tools):
    decision = FallbackPolicy(lang="ko").decide(
        run_detectors(make_exchange(HERMES_BAD_UNIT, tools=tools)), 0
    )
    assert decision.errors == ("get_weather: 'k' is not one of ['c', 'f'] at /unit",)
    assert decision.feedback is not None
    assert decision.feedback.startswith("이전 도구 호출이 검증을 통과하지 못했습니다:")


def test_policy_feedback_for_structured_output(make_exchange):
    schema = {"type": "object", "required": ["answer"]}
    verdict = run_detectors(make_exchange('{"result": 1}', fmt="json_schema", schema=schema))
    decision = FallbackPolicy().decide(verdict, 0)
    assert decision.action == Remediation.REGENERATE
    assert decision.errors == ("'answer' is a required property",)
    assert decision.feedback is not None and "only one valid JSON value" in decision.feedback


@pytest.mark.parametrize(
    ("max_retries", "attempts", "action"),
    [
        pytest.param(2, 0, Remediation.REGENERATE, id="first_answer"),
        pytest.param(2, 1, Remediation.REGENERATE, id="after_one_retry"),
        pytest.param(2, 2, Remediation.FALLBACK, id="after_two_retries"),
        pytest.param(2, 7, Remediation.FALLBACK, id="past_the_bound"),
        pytest.param(0, 0, Remediation.FALLBACK, id="no_retries_allowed"),
    ],
)
def test_retry_bound(max_retries, attempts, action):
    found = [finding("truncated", None, Remediation.REGENERATE)]
    assert FallbackPolicy(max_retries=max_retries).decide(found, attempts).action == action


def test_policy_is_deterministic_and_accepts_plain_findings():
    found = [
        finding(span=(0, 7), token="<think>"),
        finding("mixed_chunk", None, Remediation.RESCUE),
    ]
    first = FallbackPolicy().decide(found, 0)
    assert first == FallbackPolicy().decide(list(found), 0)
    assert first == Decision(Remediation.RESCUE, first.reason)


def test_policy_bad_configuration():
    with pytest.raises(ValueError, match="known languages"):
        FallbackPolicy(lang="de")
    with pytest.raises(ValueError):
        FallbackPolicy(max_retries=-1)
    with pytest.raises(ValueError):
        FallbackPolicy().decide([], -1)
