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
    pytest.param('[get_weather(city="Paris")]', "pythonic", PARIS, id="pythonic_list_whole_text"),
    pytest.param(
        'Calling [get_weather(city="Paris"), search_docs(query="umbrella", limit=3)] now.',
        "pythonic",
        PARIS + [{"name": "search_docs", "arguments": {"query": "umbrella", "limit": 3}}],
        id="pythonic_parallel_in_prose",
    ),
    pytest.param('get_weather(city="Paris")', "pythonic", PARIS, id="pythonic_single_whole"),
    pytest.param(
        '<|python_start|>[get_weather(city="Paris")]<|python_end|>',
        "llama4_python_start",
        PARIS,
        id="llama4_python_start",
    ),
    pytest.param(
        "<function_calls>\nget_weather(city='Paris')\nsearch_docs(query=\"x\", exact=true)\n"
        "</function_calls>",
        "olmo3_pythonic",
        PARIS + [{"name": "search_docs", "arguments": {"query": "x", "exact": True}}],
        id="olmo3_pythonic_lines",
    ),
    pytest.param(
        '<|START_THINKING|>Need the weather.<|END_THINKING|><|START_ACTION|>[{"tool_call_id": '
        '"0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}]<|END_ACTION|>',
        "cohere_action",
        PARIS,
        id="cohere_action",
    ),
    pytest.param(
        '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</TOOLCALL>',
        "nemotron_toolcall",
        PARIS,
        id="nemotron_toolcall",
    ),
    pytest.param(
        '[{"tool_name": "get_weather", "parameters": {"city": "Paris"}}]',
        "json",
        PARIS,
        id="whole_text_cohere_shape",
    ),
    pytest.param("<tool_call>\nget the weather please", "hermes", [], id="unparsable_block"),
    pytest.param("Here: [TOOL_CALLS]", "mistral", [], id="orphan_opener"),
    pytest.param(
        'assistantcommentary to=functions.get_weather json{"city": "Paris"}',
        "harmony",
        PARIS,
        id="harmony_specials_stripped",
    ),
]

NEGATIVES = [
    pytest.param(
        '{"name": "get_weather", "arguments": {"city": "Paris"}}',
        {"tools": {}},
        id="bare_json_without_declared_tools",
    ),
    pytest.param(
        'Call it as [get_weather(city="Paris")] in your code.',
        {"tools": {}},
        id="bare_pythonic_without_declared_tools",
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
    pytest.param("[print(x)] is a list with one call.", {}, id="pythonic_undeclared_name"),
    pytest.param("Use [f(x) for x in xs] to map.", {}, id="list_comprehension"),
    pytest.param("It rains in Paris (see the forecast).", {}, id="parenthesis_in_prose"),
    pytest.param("get_weather(city) returns a dict.", {}, id="call_in_prose_positional"),
    pytest.param(
        'A pythonic call looks like:\n\n```python\n[get_weather(city="Paris")]\n```\n\nThat '
        "is all.",
        {},
        id="pythonic_in_fence_with_prose",
    ),
    pytest.param('Llama 4 writes "[get_weather(city=1)]" style calls.', {}, id="pythonic_quoted"),
    pytest.param(
        "In harmony a call is addressed with to=functions.get_weather in the header.",
        {},
        id="harmony_recipient_named_in_prose",
    ),
    pytest.param("Hermes wraps each call in <tool_call> tags.", {}, id="markup_named_as_tags"),
    pytest.param(
        "Mistral는 [TOOL_CALLS] 토큰 뒤에 호출을 씁니다.", {}, id="ko_markup_named_as_token"
    ),
    pytest.param("Qwen3 把调用放在 <tool_call> 标签里。", {}, id="zh_markup_named_as_tag"),
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


@pytest.mark.parametrize(
    ("text", "valid", "messages"),
    [
        pytest.param(
            '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
            [True],
            [[]],
            id="valid",
        ),
        pytest.param(
            '<tool_call>{"name": "get_weather", "arguments": {"city": 7, "unit": "k", '
            '"x": 1}}</tool_call>',
            [False],
            [
                [
                    "7 is not of type 'string' at /city",
                    "'k' is not one of ['c', 'f'] at /unit",
                    "Additional properties are not allowed ('x' was unexpected)",
                ]
            ],
            id="three_schema_errors",
        ),
        pytest.param(
            '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
            [False],
            [["'city' is a required property"]],
            id="missing_required",
        ),
        pytest.param(
            '<tool_call>{"name": "launch", "arguments": {}}</tool_call>',
            [False],
            [["'launch' is not a declared tool (declared: get_weather, search_docs)"]],
            id="undeclared_tool",
        ),
        pytest.param(
            '<tool_call>{"name": "search_docs", "arguments": {"anything": 1}}</tool_call>',
            [True],
            [[]],
            id="declared_without_schema",
        ),
    ],
)
def test_rescued_calls_are_checked_against_the_declared_schema(
    detect, tools, text, valid, messages
):
    (finding,) = detect(DETECTOR, text, tools=tools)
    rescued = finding.details["rescued_calls"]
    assert [c["schema_valid"] for c in rescued] == valid
    for call, expected in zip(rescued, messages, strict=True):
        assert len(call["errors"]) <= 3
        assert sorted(call["errors"]) == sorted(expected)


def test_rescued_calls_keep_the_rescued_arguments(detect, tools):
    text = '<tool_call>{"name": "get_weather", "arguments": {"city": 7}}</tool_call>'
    (finding,) = detect(DETECTOR, text, tools=tools)
    (call,) = finding.details["rescued_calls"]
    assert set(call) == {"name", "arguments", "schema_valid", "errors"}
    assert call["arguments"] == {"city": 7}
    assert finding.remediation == "rescue"


@pytest.mark.parametrize(
    ("pieces", "split"),
    [
        pytest.param(
            ("Sure. <tool_", 'call>{"name": "get_weather", "arguments": {}}'),
            True,
            id="opener_split",
        ),
        pytest.param(
            ("Sure. ", '<tool_call>{"name": "get_weather", "arguments": {}}'),
            False,
            id="split_before_opener",
        ),
    ],
)
def test_markup_split_across_stream_pieces(detect, tools, pieces, split):
    text = "".join(pieces)
    (finding,) = detect(DETECTOR, text, tools=tools, stream=True, pieces=pieces)
    assert finding.details.get("split_across_chunks", False) is split


@pytest.mark.parametrize(
    ("source", "calls"),
    [
        pytest.param(
            '[f(a="x]"), g()]',
            [{"name": "f", "arguments": {"a": "x]"}}, {"name": "g", "arguments": {}}],
            id="bracket_inside_a_string",
        ),
        pytest.param(
            "f(a=true, b=null, c=-2, d=[1, {'k': 'v'}])",
            [{"name": "f", "arguments": {"a": True, "b": None, "c": -2, "d": [1, {"k": "v"}]}}],
            id="json_literals_and_containers",
        ),
        pytest.param(
            "api.v2.get(x=1)", [{"name": "api.v2.get", "arguments": {"x": 1}}], id="dotted"
        ),
        pytest.param("f(1)", None, id="positional_argument"),
        pytest.param("[f(a=open('x'))]", None, id="not_a_literal"),
        pytest.param("[f(**kw)]", None, id="spread"),
        pytest.param("[x for x in y]", None, id="comprehension"),
        pytest.param("[" * 300 + "]" * 300, None, id="deep_nesting"),
    ],
)
def test_pythonic_calls_are_parsed_never_evaluated(source, calls):
    from leakline.detectors.tool_markup import pythonic_calls

    assert pythonic_calls(source) == calls


def test_balanced_end_skips_quoted_brackets():
    from leakline.detectors.tool_markup import balanced_end

    text = "[a(\"]\"), b('[')] tail"
    assert balanced_end(text, 0) == text.index(" tail")
    assert balanced_end("[a(", 0) == -1
    assert balanced_end("[a)]", 0) == -1


def test_framed_markup_counts_without_declared_tools(detect):
    """Gateways and traces often drop ``tools``: a family's framed markup still counts."""
    text = 'Sure.<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
    (finding,) = detect(DETECTOR, text, tools={})
    assert finding.details["syntax"] == "hermes"
    assert finding.details["rescued_calls"] == [
        {"name": "get_weather", "arguments": {"city": "Paris"}, "schema_valid": None, "errors": []}
    ]
    assert "undeclared_tools" not in finding.details
    assert finding.confidence < 0.95
