"""Call frames of ``generic_tool_calls``: declared names in a call frame, and the call
classes real reports show (calls between special tokens, ``tool_code`` pseudo-code,
bracketed prose calls, a bare call object as the whole reply with no declared tools).

Each positive must give exactly one ``tool_call_as_text`` finding over all detectors
(no span reported twice), with the rescued call; each negative none.
"""

from __future__ import annotations

import pytest

from leakline.detectors import run_detectors

DETECTOR = "generic_tool_calls"
PARIS = {"city": "Paris"}


def call_findings(make_exchange, text, **kwargs):
    found = run_detectors(make_exchange(text, **kwargs)).findings
    return [f for f in found if f.label == "tool_call_as_text"]


# (text, declared?, name, arguments, syntax)
DECLARED_FRAMES = [
    pytest.param(
        'I\'ll check.\n{"tool_name": "get_weather", "tool_input": {"city": "Paris"}}',
        "get_weather",
        PARIS,
        "declared_json",
        id="tool_name_tool_input",
    ),
    pytest.param(
        '{"action": "search_docs", "action_input": "refund policy"}',
        "search_docs",
        {"input": "refund policy"},
        "declared_json",
        id="action_input_string",
    ),
    pytest.param(
        'Ok.\n{"fn": "get_weather", "args": "{\\"city\\": \\"Paris\\"}"}',
        "get_weather",
        PARIS,
        "declared_json",
        id="stringified_args",
    ),
    pytest.param(
        '好的，我来查。[{"tool": "get_weather", "params": {"city": "Paris"}}]',
        "get_weather",
        PARIS,
        "declared_json",
        id="zh_array_of_frames",
    ),
    pytest.param(
        '날씨를 확인하겠습니다.\nget_weather(city="Paris")',
        "get_weather",
        PARIS,
        "declared_call",
        id="ko_call_own_line",
    ),
    pytest.param(
        'Checking now. get_weather({"city": "Paris"})',
        "get_weather",
        PARIS,
        "declared_call",
        id="call_json_argument_after_sentence",
    ),
    pytest.param(
        "Thought: I need the weather.\nAction: get_weather\n"
        'Action Input: {"city": "Paris"}\nObservation:',
        "get_weather",
        PARIS,
        "react",
        id="react_json_input",
    ),
    pytest.param(
        "Thought: look it up\nAction: search_docs\nAction Input: refund policy",
        "search_docs",
        {"input": "refund policy"},
        "react",
        id="react_string_input",
    ),
    pytest.param(
        '思考：需要查天气。\nAction: get_weather\nAction Input: {"city": "Paris"}',
        "get_weather",
        PARIS,
        "react",
        id="zh_react",
    ),
    pytest.param(
        "Thought: the user wants the weather\nAction:\n```json\n"
        '{"action": "get_weather", "action_input": {"city": "Paris"}}\n```',
        "get_weather",
        PARIS,
        "declared_json",
        id="react_fenced_json_action",
    ),
    pytest.param(
        'Let me call the tool.\n```tool_call\n{"name": "get_weather", "arguments": '
        '{"city": "Paris"}}\n```\nOne moment.',
        "get_weather",
        PARIS,
        "tool_fence",
        id="fence_tagged_tool_call",
    ),
    pytest.param(
        '확인해 볼게요.\n```get_weather\n{"city": "Paris"}\n```',
        "get_weather",
        PARIS,
        "tool_fence",
        id="ko_fence_named_tool",
    ),
    pytest.param(
        'get_weather::{"city": "Paris"}',
        "get_weather",
        PARIS,
        "declared_sep",
        id="double_colon",
    ),
    pytest.param(
        '我来查询天气。\nget_weather => {"city": "Paris"}',
        "get_weather",
        PARIS,
        "declared_sep",
        id="zh_arrow",
    ),
    pytest.param(
        'Sure.\nget_weather: {"city": "Paris"}',
        "get_weather",
        PARIS,
        "declared_sep",
        id="single_colon_line",
    ),
    pytest.param(
        'Checking.<<call>>get_weather{"city": "Paris"}<</call>>',
        "get_weather",
        PARIS,
        "marker_call",
        id="doubled_angle_call",
    ),
    pytest.param(
        '【function】search_docs {"query": "退款"}【/function】',
        "search_docs",
        {"query": "退款"},
        "marker_call",
        id="zh_lenticular_marker",
    ),
]


@pytest.mark.parametrize(("text", "name", "arguments", "syntax"), DECLARED_FRAMES)
def test_declared_frames(make_exchange, tools, text, name, arguments, syntax):
    (finding,) = call_findings(make_exchange, text, tools=tools)
    assert finding.detector_id == DETECTOR
    assert finding.details["syntax"] == syntax
    assert finding.details["family"] == "unknown"
    (call,) = finding.details["rescued_calls"]
    assert (call["name"], call["arguments"]) == (name, arguments)
    assert call["schema_valid"] is (name == "get_weather" or None) or call["schema_valid"]


def test_schema_errors_are_reported(make_exchange, tools):
    text = 'Action: get_weather\nAction Input: {"town": "Paris"}'
    (finding,) = call_findings(make_exchange, text, tools=tools)
    (call,) = finding.details["rescued_calls"]
    assert call["schema_valid"] is False and call["errors"]


def test_declared_frames_need_declared_tools(make_exchange):
    """Without declared tools the name anchors nothing: none of the frames above counts
    (the framed ones, fence tags and markers, aside)."""
    for param in DECLARED_FRAMES:
        text, _, _, syntax = param.values
        if syntax in ("tool_fence", "marker_call"):
            continue
        assert call_findings(make_exchange, text) == [], param.id


# Real-report classes (no declared tools unless given).
REPORT_CLASSES = [
    pytest.param(
        '```tool_code\nprint(default_api.get_weather(city="Paris"))\n```',
        {},
        "get_weather",
        PARIS,
        "tool_code",
        id="tool_code_default_api",
    ),
    pytest.param(
        'I will search.\n```tool_code\napi.search(q="refund policy")\n```\nDone.',
        {},
        "search",
        {"q": "refund policy"},
        "tool_code",
        id="tool_code_api_method",
    ),
    pytest.param(
        '[tool_call: search for "refund policy"]',
        {},
        "search",
        {"input": "refund policy"},
        "bracket_prose",
        id="bracket_tool_call_prose",
    ),
    pytest.param(
        'Sure! [Calling get_weather with {"city": "Paris"}]',
        {},
        "get_weather",
        PARIS,
        "bracket_prose",
        id="bracket_calling_json",
    ),
    pytest.param(
        '[调用 get_weather：{"city": "Paris"}]',
        {},
        "get_weather",
        PARIS,
        "bracket_prose",
        id="zh_bracket_call",
    ),
    pytest.param(
        '{"name": "get_weather", "arguments": {"city": "Paris"}}',
        {},
        "get_weather",
        PARIS,
        "whole_object",
        id="bare_whole_reply",
    ),
    pytest.param(
        '```json\n{"name": "getWeather", "arguments": {"city": "Paris"}}\n```',
        {},
        "getWeather",
        PARIS,
        "whole_object",
        id="bare_whole_fence_camel",
    ),
    pytest.param(
        '<|start_header_id|>assistant<|end_header_id|>\n\n{"name": "get_weather", '
        '"parameters": {"city": "Paris"}}<|eot_id|>',
        {},
        "get_weather",
        PARIS,
        "token_segment",
        id="llama_header_tokens",
    ),
    pytest.param(
        '<|assistant|>get_weather<|sep|>{"city": "Paris"}<|end|>',
        {},
        "get_weather",
        PARIS,
        "token_segment",
        id="name_then_args_between_tokens",
    ),
    pytest.param(
        '<|im_start|>assistant\n검색할게요.\nsearch_docs\n{"query": "환불"}<|im_end|>',
        {},
        "search_docs",
        {"query": "환불"},
        "token_segment",
        id="ko_name_line_args_between_tokens",
    ),
    # bracketed prose: more call words, words before a quoted argument, bare key=value
    pytest.param(
        '[invoke get_weather for "Paris"]',
        {},
        "get_weather",
        {"input": "Paris"},
        "bracket_prose",
        id="bracket_invoke_for",
    ),
    pytest.param(
        'One moment.\n[Using tool search_docs to find "refund policy"]',
        {},
        "search_docs",
        {"input": "refund policy"},
        "bracket_prose",
        id="bracket_using_tool_to_find",
    ),
    pytest.param(
        "[tool: get_weather city=Paris days=3]",
        {},
        "get_weather",
        {"city": "Paris", "days": 3},
        "bracket_prose",
        id="bracket_tool_colon_pairs",
    ),
    pytest.param(
        "[Calling book_table with party=4, area=terrace]",
        {},
        "book_table",
        {"party": 4, "area": "terrace"},
        "bracket_prose",
        id="bracket_calling_unquoted_pairs",
    ),
    pytest.param(
        '찾아볼게요. [invoke search_docs for "환불 정책"]',
        {},
        "search_docs",
        {"input": "환불 정책"},
        "bracket_prose",
        id="ko_bracket_invoke",
    ),
]


@pytest.mark.parametrize(("text", "kwargs", "name", "arguments", "syntax"), REPORT_CLASSES)
def test_report_classes(make_exchange, text, kwargs, name, arguments, syntax):
    (finding,) = call_findings(make_exchange, text, **kwargs)
    assert finding.detector_id == DETECTOR
    assert finding.details["syntax"] == syntax
    (call,) = finding.details["rescued_calls"]
    assert (call["name"], call["arguments"]) == (name, arguments)


def test_bare_whole_reply_is_less_certain(make_exchange):
    (bare,) = call_findings(make_exchange, REPORT_CLASSES[5].values[0])
    (fenced,) = call_findings(make_exchange, REPORT_CLASSES[0].values[0])
    assert bare.confidence < fenced.confidence


def test_tokens_keep_their_boundary_finding(make_exchange):
    text = REPORT_CLASSES[7].values[0]
    labels = run_detectors(make_exchange(text)).labels
    assert set(labels) >= {"boundary_token", "tool_call_as_text"}


NEGATIVES = [
    # prose about the function (en/ko/zh)
    pytest.param("You can call `get_weather(city)` to get the forecast.", True, id="inline_code"),
    pytest.param("The get_weather function takes a city and returns a forecast.", True, id="prose"),
    pytest.param(
        'To answer, I would normally call get_weather(city="Paris") but it is down.',
        True,
        id="call_mid_sentence",
    ),
    pytest.param("get_weather 함수는 도시 이름을 받아 날씨를 돌려줍니다.", True, id="ko_prose"),
    pytest.param(
        '예를 들어 get_weather(city="서울")처럼 호출하면 됩니다.', True, id="ko_example_call"
    ),
    pytest.param("`search_docs`를 호출하면 문서를 찾을 수 있습니다.", True, id="ko_inline"),
    pytest.param("get_weather 函数接收城市名并返回天气。", True, id="zh_prose"),
    pytest.param(
        '你可以调用 search_docs(query="退款") 来查找文档。', True, id="zh_call_mid_sentence"
    ),
    pytest.param("调用 `get_weather` 时需要传入 city 参数。", True, id="zh_inline"),
    pytest.param("get_weather: returns the forecast for a city.", True, id="colon_prose"),
    pytest.param("get_weather => returns a Forecast object.", True, id="arrow_prose"),
    pytest.param(
        "Action: get_weather\n\nThat is the step the agent takes next.", True, id="action_no_input"
    ),
    pytest.param(
        "Our action: search_docs was slow today, sorry.", True, id="action_word_in_sentence"
    ),
    # API docs
    pytest.param(
        '- get_weather: {"city": "string", "unit": "string"}\n- search_docs: {"query": "string"}',
        True,
        id="doc_bullets_schema_like",
    ),
    pytest.param(
        '### get_weather\nParameters:\n- city (string)\n\nExample: get_weather(city="Paris")'
        " returns the forecast.",
        True,
        id="doc_example_line",
    ),
    pytest.param(
        'Tool definition:\n{"name": "get_weather", "description": "Current weather", '
        '"parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}',
        True,
        id="tool_definition_json",
    ),
    pytest.param(
        '도구 정의:\n{"name": "get_weather", "description": "날씨", "parameters": '
        '{"type": "object", "properties": {"city": {"type": "string"}}}}',
        True,
        id="ko_tool_definition_json",
    ),
    pytest.param(
        'get_weather:\n  {"type": "object", "properties": {"city": {"type": "string"}}}',
        True,
        id="name_colon_schema",
    ),
    # code with prose around
    pytest.param(
        'Here is how:\n```python\nresult = get_weather(city="Paris")\nprint(result)\n```\n'
        "This prints the forecast.",
        True,
        id="python_fence_prose",
    ),
    pytest.param(
        'Run this:\n```python\nprint(default_api.get_weather(city="Paris"))\n```\nIt prints it.',
        True,
        id="python_fence_api_object",
    ),
    pytest.param(
        '示例：\n```json\n{"tool_name": "get_weather", "tool_input": {"city": "Paris"}}\n```\n'
        "把它发给代理即可。",
        True,
        id="zh_json_fence_prose",
    ),
    pytest.param(
        '예시입니다:\n```\nAction: get_weather\nAction Input: {"city": "Paris"}\n```\n'
        "이 형식을 따르세요.",
        True,
        id="ko_react_in_fence",
    ),
    pytest.param(
        'Use `get_weather::{"city": "Paris"}` in the shell.', True, id="sep_in_inline_code"
    ),
    # JSON answers and data
    pytest.param('{"tools": ["get_weather", "search_docs"]}', True, id="json_tool_list"),
    pytest.param(
        '{"status": "ok", "last_tool": "get_weather", "count": 3}', True, id="json_data_status"
    ),
    pytest.param(
        '{"city": "Paris", "source": "get_weather", "temp": {"c": 21}}',
        True,
        id="json_data_source_with_object",
    ),
    pytest.param(
        '{"calls": [{"tool": "get_weather", "count": 12}, {"tool": "search_docs", "count": 3}]}',
        True,
        id="json_usage_stats",
    ),
    # bracketed prose and links
    pytest.param(
        "[Calling all developers] Join our meetup on Friday.", False, id="bracket_heading"
    ),
    pytest.param("See [Calling get_weather](https://docs.example.com).", False, id="md_link"),
    pytest.param("Put the call in the [tool_call: <name>] slot.", False, id="bracket_placeholder"),
    pytest.param("[호출 안내] 내일부터 상담 시간이 바뀝니다.", False, id="ko_bracket_notice"),
    pytest.param("[调用说明] 本接口每天限流一千次。", False, id="zh_bracket_notice"),
    pytest.param(
        'See [invoke get_weather for "Paris"](https://docs.example.com/invoke).',
        True,
        id="md_link_invoke",
    ),
    pytest.param("As the report notes [1], the figures vary [sic].", False, id="citation_sic"),
    pytest.param("Dear [YOUR NAME],\n\nThanks for [COMPANY]'s order.", False, id="placeholders"),
    pytest.param("- [ ] use tool get_weather before the trip\n- [x] pack", True, id="checkboxes"),
    pytest.param("Inventory: [tool: hammer] [weapon: sword]", False, id="inventory_tool_colon"),
    pytest.param(
        "Tools: [tool: get_weather] and [tool: search_docs].", True, id="tool_list_no_args"
    ),
    pytest.param(
        'SHAMAN: [Invoke the spirits for "rain"] Come, clouds!\n[Using tools, she pries it open.]',
        False,
        id="stage_directions",
    ),
    pytest.param('[Use tool settings to turn on "dark mode"]', False, id="ui_instruction"),
    # bare call object without tools
    pytest.param('{"name": "Bob", "arguments": {"age": 3}}', False, id="json_person"),
    pytest.param('{"name": "Paris", "arguments": {"pro": "food"}}', False, id="json_city"),
    pytest.param(
        'Here you go: {"name": "get_weather", "arguments": {"city": "Paris"}} as asked.',
        False,
        id="json_inside_prose",
    ),
    pytest.param('{"name": "get_weather", "arguments": "Paris"}', False, id="args_not_object"),
    # tokens without a call
    pytest.param(
        "<|im_start|>assistant\nThe weather is sunny.<|im_end|>", False, id="tokens_prose"
    ),
    pytest.param('<|im_start|>{"city": "Paris", "temp": 21}<|im_end|>', False, id="tokens_data"),
    pytest.param(
        '<|channel|>analysis<|message|>{"plan": {"steps": 2}}<|end|>',
        False,
        id="tokens_channel_json",
    ),
    pytest.param("<|im_start|>assistant\n今天巴黎晴。<|im_end|>", False, id="zh_tokens_prose"),
    # tool_code-like words elsewhere
    pytest.param(
        "The ```tool_code``` tag is what Gemini uses for calls.", False, id="tool_code_inline"
    ),
]


@pytest.mark.parametrize(("text", "declared"), NEGATIVES)
def test_negatives(make_exchange, tools, text, declared):
    found = call_findings(make_exchange, text, tools=tools if declared else None)
    assert found == [], [(f.detector_id, f.details.get("syntax"), f.evidence) for f in found]


def test_json_answers_to_response_format_stay_clean(make_exchange, tools):
    for text, _, _, _ in (p.values for p in DECLARED_FRAMES):
        assert call_findings(make_exchange, text, tools=tools, fmt="json_object") == []


def test_bare_object_asked_for_json(make_exchange):
    text = REPORT_CLASSES[5].values[0]
    for prompt in (
        "Reply in JSON only.",
        "Return an object with name and arguments for the weather lookup.",
        "JSON으로 답해 주세요.",
    ):
        assert call_findings(make_exchange, text, prompt=prompt) == [], prompt


def test_frame_quoted_from_prompt(make_exchange, tools):
    text = 'Action: get_weather\nAction Input: {"city": "Paris"}'
    prompt = "Why does my agent print\n" + text + "\ninstead of calling?"
    assert call_findings(make_exchange, text, tools=tools, prompt=prompt) == []


def test_precision_figure(make_exchange, tools):
    """At least 40 hard negatives, in three languages, none flagged (the table above)."""
    assert len(NEGATIVES) >= 40
