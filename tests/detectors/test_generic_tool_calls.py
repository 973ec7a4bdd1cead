"""generic_tool_calls: tool calls in text in a syntax no ToolMarkup row names."""

from __future__ import annotations

import pytest

from leakline.detectors import run_detectors
from leakline.detectors.families import active_families, families_excluding

DETECTOR = "generic_tool_calls"
PARIS = [{"name": "get_weather", "arguments": {"city": "Paris"}}]


def unseen(text):
    """Leave out every family row whose tokens or markup ``text`` contains."""
    names = [
        f.name
        for f in active_families()
        if any(t in text for t in f.visible_tokens)
        or any(c in text for m in f.tool_call_markup for c in m.cues if len(c) > 2)
        or any(m.bare for m in f.tool_call_markup)
    ]
    return families_excluding(names)


def calls(finding):
    return [
        {"name": c["name"], "arguments": c["arguments"]} for c in finding.details["rescued_calls"]
    ]


# Without declared tools: only framed markup.
FRAMED = [
    pytest.param(
        "Single. <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0 "
        '<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
        "<|tool_calls_section_begin|>",
        PARIS,
        id="probe_section_tokens",
    ),
    pytest.param(
        'Some intro. <|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}',
        "<|python_tag|>",
        PARIS,
        id="probe_python_tag",
    ),
    pytest.param(
        '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
        "[TOOL_CALLS]",
        PARIS,
        id="probe_bracket_calls",
    ),
    pytest.param(
        '먼저 확인할게요.<|tool_call|>{"name": "get_weather", "arguments": {"city": "Paris"}}',
        "<|tool_call|>",
        PARIS,
        id="ko_pipe_tool_call",
    ),
    pytest.param(
        '我来查一下。<function_call>{"name": "get_weather", "arguments": {"city": "Paris"}}'
        "</function_call>",
        "<function_call>",
        PARIS,
        id="zh_function_call_json",
    ),
    pytest.param(
        '<invoke name="get_weather"><parameter name="city">Paris</parameter></invoke>',
        '<invoke name="get_weather">',
        PARIS,
        id="invoke_xml",
    ),
    pytest.param(
        "Checking.\n<tool_use>\n<name>get_weather</name>\n<arguments><city>Paris</city>"
        "</arguments>\n</tool_use>",
        "<tool_use>",
        [{"name": "get_weather", "arguments": {}}],
        id="tool_use_children",
    ),
    pytest.param(
        "<acme:tool_call><function=get_weather><parameter=city>Paris</parameter></function>"
        "</acme:tool_call>",
        "<acme:tool_call>",
        PARIS,
        id="namespaced_qwen_like",
    ),
    pytest.param(
        "<|tool_call_start|>",
        "<|tool_call_start|>",
        [],
        id="lone_opener",
    ),
]


@pytest.mark.parametrize(("text", "token", "expected"), FRAMED)
def test_framed_without_declared_tools(detect, text, token, expected):
    with unseen(text):
        (finding,) = detect(DETECTOR, text)
    assert finding.label == "tool_call_as_text"
    assert finding.details["family"] == "unknown"
    assert finding.details["token"] == token
    assert calls(finding) == expected
    assert all(c["schema_valid"] is None for c in finding.details["rescued_calls"])


def test_probes_are_seen_by_the_family_rule_today(detect):
    """The three tool-call probes of issue 14 belong to known rows: tool_call_text now
    reports them with no declared tools, and the generic rule stays silent."""
    for text, _, _ in (p.values for p in FRAMED[:3]):
        assert [f.details["syntax"] for f in detect("tool_call_text", text)]
        assert detect(DETECTOR, text) == []


DECLARED = [
    pytest.param(
        'I will call it now: {"name": "get_weather", "arguments": {"city": "Paris"}}',
        "generic_json",
        id="json_after_prose",
    ),
    pytest.param(
        'Calling [{"function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}]',
        "generic_json",
        id="wire_style_list",
    ),
    pytest.param('好的。[get_weather(city="Paris")]', "generic_pythonic", id="zh_pythonic"),
]


@pytest.mark.parametrize(("text", "syntax"), DECLARED)
def test_bare_calls_need_declared_tools(detect, tools, text, syntax):
    with unseen(text):
        (finding,) = detect(DETECTOR, text, tools=tools)
        assert detect(DETECTOR, text) == []  # no declared tools: not a call
    assert finding.details["syntax"] == syntax
    assert calls(finding) == PARIS
    assert finding.details["rescued_calls"][0]["schema_valid"] is True


NEGATIVES = [
    pytest.param(
        '{"name": "Bob", "arguments": ["a", "b"], "parameters": {"age": 3}}',
        {},
        id="json_answer_without_tools",
    ),
    pytest.param(
        '{"name": "get_weather", "arguments": {"city": "Paris"}}',
        {"fmt": "json_object"},
        id="json_mode_answer",
    ),
    pytest.param(
        "Models wrap calls in <function_call> tags, like this one.",
        {},
        id="doc_tag_noun",
    ),
    pytest.param(
        'Example:\n\n```xml\n<invoke name="get_weather"><parameter name="city">Paris</parameter>'
        "</invoke>\n```\n\nThat is the format.",
        {},
        id="fenced_example",
    ),
    pytest.param("Use `<|tool_call_start|>` to open a call.", {}, id="inline_code"),
    pytest.param(
        '<function_call>{"name": "a", "arguments": {}}</function_call> is what you pasted.',
        {
            "prompt": 'Why does my bot print <function_call>{"name": "a", "arguments": {}}</function_call>?'
        },
        id="quoted_from_prompt",
    ),
    pytest.param(
        "<soap:Envelope><soap:Body><m:GetPrice><m:Item>Apple</m:Item></m:GetPrice></soap:Body>"
        "</soap:Envelope>",
        {},
        id="soap_xml_answer",
    ),
    pytest.param(
        '<action name="login" class="x.Login"><param name="a">1</param></action>',
        {},
        id="struts_xml",
    ),
    pytest.param(
        '<|tool_call_start|>{"name": "get_weather", "arguments": {}}',
        {"calls": [("get_weather", "{}")]},
        id="structured_call_present",
    ),
    pytest.param("工具调用用 <tool_call> 标签包起来。", {}, id="zh_doc_tag"),
    pytest.param("함수 호출은 <function_call> 태그로 감쌉니다.", {}, id="ko_doc_tag"),
]


@pytest.mark.parametrize(("text", "kwargs"), NEGATIVES)
def test_negative(detect, text, kwargs):
    with unseen(text):
        assert detect(DETECTOR, text, **kwargs) == []


def test_no_duplicate_with_the_family_rule(make_exchange):
    text = 'Sure.<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
    verdict = run_detectors(make_exchange(text))
    assert [f.detector_id for f in verdict.findings] == ["tool_call_text"]


def test_split_marker_is_flagged(detect):
    text = '<|tool_call_start|>{"name": "get_weather", "arguments": {"city": "Paris"}}'
    with unseen(text):
        (finding,) = detect(DETECTOR, text, stream=True, pieces=(text[:5], text[5:]))
    assert finding.details["split_across_chunks"] is True


def test_streamed_and_whole_agree(make_exchange):
    text = 'Ok. <|tool_call_start|>{"name": "get_weather", "arguments": {"city": "Paris"}}'
    pieces = tuple(text[i : i + 7] for i in range(0, len(text), 7))
    with unseen(text):
        whole = run_detectors(make_exchange(text)).labels
        streamed = run_detectors(make_exchange(text, stream=True, pieces=pieces)).labels
    assert whole == streamed == ("tool_call_as_text",)
