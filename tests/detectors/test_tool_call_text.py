"""tool_call_text: tool_call_as_text when a declared tool is called in text (markup or JSON)."""

from __future__ import annotations

import pytest

DETECTOR = "tool_call_text"
PARIS = [{"name": "get_weather", "arguments": {"city": "Paris"}}]

POSITIVES = [
    pytest.param(
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
        "hermes",
        PARIS,
        id="hermes",
    ),
    pytest.param(
        'Let me check that.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}'
        "\n</tool_call>",
        "hermes",
        PARIS,
        id="hermes_after_prose",
    ),
    pytest.param(
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}',
        "hermes",
        PARIS,
        id="hermes_unclosed",
    ),
    pytest.param(
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n"
        "</tool_call>",
        "qwen3_xml",
        PARIS,
        id="qwen3_coder_xml",
    ),
    pytest.param(
        "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
        "glm45",
        PARIS,
        id="glm45",
    ),
    pytest.param(
        '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]',
        "mistral",
        PARIS,
        id="mistral_json_list",
    ),
    pytest.param('[TOOL_CALLS]get_weather{"city": "Paris"}', "mistral", PARIS, id="mistral_named"),
    pytest.param(
        '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', "mistral", PARIS, id="mistral_args_token"
    ),
    pytest.param(
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>',
        "llama3_python_tag",
        PARIS,
        id="llama3_python_tag",
    ),
    pytest.param(
        '{"name": "get_weather", "parameters": {"city": "Paris"}}',
        "json",
        PARIS,
        id="whole_text_llama3_json",
    ),
    pytest.param(
        '```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```',
        "json",
        PARIS,
        id="whole_text_one_fence",
    ),
    pytest.param(
        '[{"name": "get_weather", "arguments": {"city": "Paris"}},'
        ' {"name": "get_weather", "arguments": {"city": "Rome"}}]',
        "json",
        PARIS + [{"name": "get_weather", "arguments": {"city": "Rome"}}],
        id="whole_text_parallel_calls",
    ),
    pytest.param(
        '{"type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": '
        '\\"Paris\\"}"}}',
        "json",
        PARIS,
        id="whole_text_openai_wire_shape",
    ),
    pytest.param(
        'Calling now: {"name": "get_weather", "parameters": {"city": "Paris"}} and done.',
        "llama3_json",
        PARIS,
        id="bare_json_in_prose",
    ),
    pytest.param(
        "<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>"
        '{"city": "Paris"}<|call|>',
        "harmony",
        PARIS,
        id="harmony",
    ),
    pytest.param(
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
        '<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
        "kimi_k2",
        PARIS,
        id="kimi_k2",
    ),
    pytest.param(
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
        '{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        "deepseek",
        PARIS,
        id="deepseek_v3",
    ),
    pytest.param(
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
        '{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        "deepseek",
        PARIS,
        id="deepseek_v31",
    ),
    pytest.param(
        '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>'
        "\n</invoke>\n</minimax:tool_call>",
        "minimax_m2",
        PARIS,
        id="minimax_m2",
    ),
    pytest.param(
        '<function_calls><invoke name="get_weather"><parameter name="city">Paris</parameter>'
        "</invoke></function_calls>",
        "claude_xml",
        PARIS,
        id="claude_xml",
    ),
    pytest.param(
        '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>',
        "gemma4",
        PARIS,
        id="gemma4",
    ),
    pytest.param(
        '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
        "granite",
        PARIS,
        id="granite",
    ),
    pytest.param(
        "사용자님, 날씨를 확인하겠습니다.\n<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "서울"}}\n</tool_call>',
        "hermes",
        [{"name": "get_weather", "arguments": {"city": "서울"}}],
        id="hermes_korean_prose",
    ),
    pytest.param("<tool_call>\nget the weather please", "glm45", [], id="unparsable_block"),
    pytest.param("Here: [TOOL_CALLS]", "mistral", [], id="orphan_opener"),
]

NEGATIVES = [
    pytest.param(
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
        {"tools": {}},
        id="no_tools_declared",
    ),
    pytest.param(
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
        {"calls": [("get_weather", '{"city": "Paris"}')]},
        id="structured_call_present",
    ),
    pytest.param(
        "Here is what a call looks like:\n\n```json\n"
        '{"name": "get_weather", "arguments": {"city": "Paris"}}\n```\n\n'
        "The client sends it for you.",
        {},
        id="call_json_fenced_with_prose",
    ),
    pytest.param("Models wrap calls in a `<tool_call>` tag.", {}, id="markup_in_inline_code"),
    pytest.param('Hermes uses "<tool_call>" around each call.', {}, id="markup_directly_quoted"),
    pytest.param(
        '{"name": "search_web", "arguments": {"q": "x"}}', {}, id="whole_text_undeclared_tool"
    ),
    pytest.param('{"city": "Paris", "temperature": 21}', {}, id="plain_json_answer"),
    pytest.param(
        'The record is {"name": "Alice", "parameters": {"age": 3}} in the table.',
        {},
        id="bare_json_not_a_declared_tool",
    ),
    pytest.param("It's 21°C and sunny in Paris today.", {}, id="plain_answer"),
    pytest.param("파리는 오늘 맑고 21도입니다.", {}, id="korean_answer"),
    pytest.param("巴黎今天晴，21度。", {}, id="chinese_answer"),
    pytest.param("", {}, id="empty"),
]


def plain(rescued):
    """Rescued calls without the schema verdict fields."""
    return [{"name": c["name"], "arguments": c["arguments"]} for c in rescued]


@pytest.mark.parametrize(("text", "syntax", "calls"), POSITIVES)
def test_positive(detect, tools, text, syntax, calls):
    found = detect(DETECTOR, text, tools=tools)
    assert len(found) == 1, found
    finding = found[0]
    assert finding.label == "tool_call_as_text"
    assert finding.details["syntax"] == syntax
    assert plain(finding.details["rescued_calls"]) == calls
    for rescued in finding.details["rescued_calls"]:
        assert rescued["schema_valid"] is True
        assert rescued["errors"] == []
    assert finding.layer == "parser"
    assert finding.remediation == ("rescue" if calls else "regenerate")
    start, end = finding.span
    assert 0 <= start < end <= len(text)


@pytest.mark.parametrize(("text", "kwargs"), NEGATIVES)
def test_negative(detect, tools, text, kwargs):
    kwargs = {"tools": tools, **kwargs}
    assert detect(DETECTOR, text, **kwargs) == []


def test_two_blocks_are_two_findings(detect, tools):
    text = (
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n'
        '<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>'
    )
    found = detect(DETECTOR, text, tools=tools)
    assert [f.details["rescued_calls"][0]["arguments"]["city"] for f in found] == ["Paris", "Rome"]


def test_undeclared_tool_in_markup_is_still_markup(detect, tools):
    text = '<tool_call>{"name": "launch", "arguments": {}}</tool_call>'
    (finding,) = detect(DETECTOR, text, tools=tools)
    assert finding.details["undeclared_tools"] == ["launch"]


def test_family_follows_the_named_parser(detect, tools):
    text = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
    (finding,) = detect(DETECTOR, text, tools=tools, tool_parser="hermes")
    assert finding.details["family"] == "hermes"


def test_qwen3_xml_values_are_typed_when_they_parse(detect, tools):
    text = (
        "<function=search_docs><parameter=query>vllm</parameter>"
        "<parameter=limit>5</parameter><parameter=exact>true</parameter></function>"
    )
    (finding,) = detect(DETECTOR, text, tools=tools)
    args = finding.details["rescued_calls"][0]["arguments"]
    assert args == {"query": "vllm", "limit": 5, "exact": True}
