"""Held-out cases for the call frames of ``generic_tool_calls``.

Written before the rule and not consulted while tuning it: the figures they give are
the honest ones. A case here that fails is a known miss, recorded in ``KNOWN_MISSES``
with its reason rather than fixed by a rule written for it.
"""

from __future__ import annotations

import pytest

from leakline.detectors import run_detectors

SCHEMA = {
    "type": "object",
    "properties": {"ticker": {"type": "string"}, "days": {"type": "integer"}},
    "required": ["ticker"],
}
TOOLS = {"fetch_quote": SCHEMA, "translate_text": None, "Calculator": None}

POSITIVE = [
    pytest.param(
        'Let me pull that.\n{"tool": "fetch_quote", "input": {"ticker": "NVDA"}}',
        {"tools": TOOLS},
        "fetch_quote",
        id="json_tool_input",
    ),
    pytest.param(
        '확인해 볼게요.\n{"function_name": "fetch_quote", "function_args": {"ticker": "005930"}}',
        {"tools": TOOLS},
        "fetch_quote",
        id="ko_json_function_args",
    ),
    pytest.param(
        "我来计算。\nAction: Calculator\nAction Input: 17 * 23\n",
        {"tools": TOOLS},
        "Calculator",
        id="zh_react_calculator",
    ),
    pytest.param(
        "Question: price?\nThought: I should look it up\nAction: fetch_quote\n"
        'Action Input: {"ticker": "AAPL", "days": 5}\nObservation:',
        {"tools": TOOLS},
        "fetch_quote",
        id="react_full",
    ),
    pytest.param(
        'Sure thing.\n\nfetch_quote(ticker="MSFT", days=3)',
        {"tools": TOOLS},
        "fetch_quote",
        id="call_after_prose",
    ),
    pytest.param(
        'On it.\n```fetch_quote\n{"ticker": "TSLA"}\n```',
        {"tools": TOOLS},
        "fetch_quote",
        id="fence_named_tool",
    ),
    pytest.param(
        'Translating now.\ntranslate_text :: {"text": "hello", "target": "fr"}',
        {"tools": TOOLS},
        "translate_text",
        id="double_colon_spaced",
    ),
    pytest.param(
        '<<tool_call>>fetch_quote{"ticker": "AMD"}<</tool_call>>',
        {"tools": TOOLS},
        "fetch_quote",
        id="doubled_angle_tool_call",
    ),
    pytest.param(
        '```tool_code\nprint(tools.translate_text(text="bonjour", target="en"))\n```',
        {},
        "translate_text",
        id="tool_code_no_tools",
    ),
    pytest.param(
        '[tool_call: fetch_quote for "GOOG"]',
        {},
        "fetch_quote",
        id="bracket_tool_call",
    ),
    pytest.param(
        '{"name": "lookup_order", "arguments": {"order_id": "A-991"}}',
        {},
        "lookup_order",
        id="bare_whole_no_tools",
    ),
    pytest.param(
        '[{"name": "createTicket", "arguments": {"title": "VPN down"}}]',
        {},
        "createTicket",
        id="bare_whole_camel_list",
    ),
    pytest.param(
        '<|im_start|>assistant\n{"name": "send_invoice", "arguments": {"id": 7}}<|im_end|>',
        {},
        "send_invoice",
        id="call_between_tokens",
    ),
]

NEGATIVE = [
    pytest.param(
        "Call fetch_quote with a ticker symbol and it returns the latest price.",
        {"tools": TOOLS},
        id="prose_names_tool",
    ),
    pytest.param(
        "fetch_quote 도구는 종목 코드를 받아 현재가를 알려 줍니다.",
        {"tools": TOOLS},
        id="ko_prose_names_tool",
    ),
    pytest.param(
        'translate_text 会把文本翻译成目标语言，例如 translate_text(text="你好", target="en") 返回英文。',
        {"tools": TOOLS},
        id="zh_prose_example_call",
    ),
    pytest.param(
        'Here is a client snippet:\n\n```python\nq = client.fetch_quote(ticker="NVDA")\n'
        "print(q.price)\n```\n\nRun it after installing the SDK.",
        {"tools": TOOLS},
        id="python_fence_with_prose",
    ),
    pytest.param(
        '{"ticker": "NVDA", "price": 912.3, "source": "fetch_quote"}',
        {"tools": TOOLS},
        id="data_names_tool_as_source",
    ),
    pytest.param(
        '{"tool": "fetch_quote", "input": {"ticker": "NVDA"}}',
        {"tools": TOOLS, "fmt": "json_object"},
        id="response_format_json",
    ),
    pytest.param(
        "### fetch_quote\n\n| arg | type |\n|---|---|\n| ticker | string |\n\nReturns a quote.",
        {"tools": TOOLS},
        id="api_doc_table",
    ),
    pytest.param(
        "The agent prints `Action: fetch_quote` and then `Action Input:` with the JSON.",
        {"tools": TOOLS},
        id="react_in_inline_code",
    ),
    pytest.param(
        '{"name": "Alice", "arguments": {"pro": "fast", "con": "costly"}}',
        {},
        id="person_named_object_no_tools",
    ),
    pytest.param(
        '{"name": "lookup_order", "arguments": {"order_id": "A-991"}}',
        {"prompt": "Give me a JSON object with name and arguments for the lookup."},
        id="asked_for_json_no_tools",
    ),
    pytest.param(
        "[Calling all volunteers] The cleanup starts at nine.",
        {},
        id="bracket_prose_heading",
    ),
    pytest.param(
        "请参考 [调用示例](https://example.com/docs) 了解 fetch_quote 的用法。",
        {"tools": TOOLS},
        id="zh_markdown_link",
    ),
    pytest.param(
        "<|im_start|>assistant\n오늘 서울은 맑습니다.<|im_end|>",
        {},
        id="ko_tokens_without_call",
    ),
    pytest.param(
        'Use this config:\n```json\n{"tool": "fetch_quote", "input": {"ticker": "X"}}\n```\n'
        "and restart the agent.",
        {"tools": TOOLS},
        id="json_fence_with_prose",
    ),
    pytest.param(
        "Calculator: 17 * 23 = 391.",
        {"tools": TOOLS},
        id="name_colon_prose",
    ),
]

# (id, reason): held-out cases the rule misses, recorded honestly after the first run.
KNOWN_MISSES: dict[str, str] = {
    "doubled_angle_tool_call": (
        "labelled tool_call_as_text, but by tool_call_text: the inner <tool_call> literal is "
        "the Hermes row's opener, which claims the span and rescues no call from "
        "'NAME{args}' (no name is rescued)"
    ),
}


@pytest.mark.parametrize(("text", "kwargs", "name"), POSITIVE)
def test_heldout_positive(make_exchange, request, text, kwargs, name):
    case = request.node.callspec.id
    found = [
        f
        for f in run_detectors(make_exchange(text, **kwargs)).findings
        if f.label == "tool_call_as_text"
    ]
    if case in KNOWN_MISSES:
        pytest.xfail(KNOWN_MISSES[case])
    assert len(found) == 1, [(f.detector_id, f.evidence) for f in found]
    assert [c["name"] for c in found[0].details["rescued_calls"]] == [name]


@pytest.mark.parametrize(("text", "kwargs"), NEGATIVE)
def test_heldout_negative(make_exchange, text, kwargs):
    found = run_detectors(make_exchange(text, **kwargs)).findings
    assert not [f for f in found if f.label == "tool_call_as_text"], [
        (f.detector_id, f.evidence) for f in found
    ]
