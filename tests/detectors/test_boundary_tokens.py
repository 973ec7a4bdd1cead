"""boundary_tokens: boundary_token per visible delimiter, tagged reasoning_leak per region."""

from __future__ import annotations

import pytest

DETECTOR = "boundary_tokens"

POSITIVES = [
    pytest.param(
        "<think>The user asks for 2+2. That is 4.</think>The answer is 4.",
        {},
        ["<think>", "</think>"],
        ["pair"],
        id="think_pair",
    ),
    pytest.param(
        "Okay, the user wants the capital of France. That's Paris.</think>\n\nParis.",
        {"reasoning_parser": "deepseek_r1"},
        ["</think>"],
        ["lone_end"],
        id="r1_lone_end_tag",
    ),
    pytest.param(
        "reasoning text here</think>answer",
        {},
        ["</think>"],
        ["lone_end"],
        id="lone_end_unknown_model",
    ),
    pytest.param(
        "<think>I am still working out whether",
        {},
        ["<think>"],
        ["unterminated"],
        id="unterminated_start",
    ),
    pytest.param(
        "<think>\n\n</think>\n\nHello! How can I help?",
        {"model": "Qwen/Qwen3-8B"},
        ["<think>", "</think>"],
        [],
        id="empty_think_block_is_token_only",
    ),
    pytest.param(
        "<|channel|>analysis<|message|>We need to answer politely.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>Hello!",
        {"model": "openai/gpt-oss-20b"},
        [
            "<|channel|>analysis",
            "<|message|>",
            "<|end|>",
            "<|start|>",
            "<|channel|>",
            "<|message|>",
        ],
        ["pair"],
        id="harmony_analysis_channel",
    ),
    pytest.param(
        "analysisThe user asks for a joke. Provide one.assistantfinalWhy did the chicken cross?",
        {},
        ["assistantfinal"],
        ["lone_end"],
        id="harmony_stripped_specials",
    ),
    pytest.param(
        "◁think▷Let me recall the formula.◁/think▷The area is πr².",
        {},
        ["◁think▷", "◁/think▷"],
        ["pair"],
        id="kimi_triangle_think",
    ),
    pytest.param(
        "Here is my thought process:\nThe user wants X.\n\nHere is my response:\nX is 5.",
        {},
        ["Here is my thought process:", "Here is my response:"],
        ["pair"],
        id="granite_headers",
    ),
    pytest.param(
        "Here is my response:\nX is 5.",
        {"model": "ibm-granite/granite-3.2-8b-instruct"},
        ["Here is my response:"],
        [],
        id="granite_response_header_named_family",
    ),
    pytest.param(
        "<thinking>The user wants a haiku.</thinking>Autumn moonlight…",
        {"model": "claude-opus"},
        ["<thinking>", "</thinking>"],
        ["pair"],
        id="claude_thinking_tags",
    ),
    pytest.param(
        "<|channel>thought\nThe user greets me.<channel|>Hi there!",
        {},
        ["<|channel>", "<channel|>"],
        ["pair"],
        id="gemma4_channel",
    ),
    pytest.param(
        "<seed:think>Plan the answer.</seed:think>Here it is.",
        {},
        ["<seed:think>", "</seed:think>"],
        ["pair"],
        id="seed_think",
    ),
    pytest.param(
        "[THINK]Compute 3*7.[/THINK]21",
        {},
        ["[THINK]", "[/THINK]"],
        ["pair"],
        id="mistral_think",
    ),
    pytest.param(
        "Considering the limited time by the user, I have to give the solution based on the "
        "thinking directly now.\n</think>\n\nThe answer is 12.",
        {},
        ["I have to give the solution based on the thinking directly now.", "</think>"],
        ["lone_end"],
        id="thinking_budget_end_string",
    ),
    pytest.param(
        "Hello there!<|im_end|>",
        {},
        ["<|im_end|>"],
        [],
        id="chatml_end_token",
    ),
    pytest.param(
        "<think>Sum them.</think>\n<answer>4</answer>",
        {},
        ["<think>", "</think>", "<answer>", "</answer>"],
        ["pair"],
        id="hunyuan_answer_tags_with_think",
    ),
    pytest.param(
        "<think>사용자가 수도를 묻고 있다. 파리다.</think>프랑스의 수도는 파리입니다.",
        {},
        ["<think>", "</think>"],
        ["pair"],
        id="korean_reasoning_in_tags",
    ),
    pytest.param(
        "<think>用户问的是法国的首都。</think>法国的首都是巴黎。",
        {},
        ["<think>", "</think>"],
        ["pair"],
        id="chinese_reasoning_in_tags",
    ),
    pytest.param(
        "`<think>` opens it, but here it leaks: <think>The user wants a short answer, so keep it"
        " brief.</think>Done.",
        {},
        ["<think>", "</think>"],
        ["pair"],
        id="code_mention_and_real_leak",
    ),
]

NEGATIVES = [
    pytest.param("Use the `<think>` tag to wrap the reasoning.", {}, id="inline_code"),
    pytest.param(
        "The format looks like this:\n\n```xml\n<think>reasoning</think>\nanswer\n```\n\n"
        "That's it.",
        {},
        id="fenced_block",
    ),
    pytest.param("~~~\n<|channel|>analysis<|message|>\n~~~\n", {}, id="tilde_fence"),
    pytest.param('The tag "<think>" opens reasoning and "</think>" closes it.', {}, id="quoted"),
    pytest.param("Write 「<think>」 before your notes.", {}, id="corner_quotes"),
    pytest.param("Reasoning goes in “<think>…</think>” blocks.", {}, id="curly_quoted_pair"),
    pytest.param(
        '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>', {}, id="tool_markup"
    ),
    pytest.param("[TOOL_CALLS][]", {}, id="mistral_tool_markup"),
    pytest.param("Use <b>bold</b> and <i>italics</i> in HTML.", {}, id="html_tags"),
    pytest.param("<thinking about it> is not a tag we know.", {}, id="near_miss_tag"),
    pytest.param("Here is my response: the meeting moved to 3pm.", {}, id="granite_header_alone"),
    pytest.param("Wrap the final value in <answer></answer> tags.", {}, id="answer_tags_alone"),
    pytest.param("推理模型会先思考，再给出答案。", {}, id="chinese_prose"),
    pytest.param("추론 모델은 먼저 생각한 뒤 답합니다.", {}, id="korean_prose"),
    pytest.param("", {}, id="empty"),
]

# Outside code the tags are still boundary tokens, but naming them is not leaking reasoning.
MENTIONS = [
    pytest.param("The model writes its reasoning between <think> and </think>.", id="between"),
    pytest.param("Wrap it as <thinking>notes</thinking> if you like.", id="short_example"),
    pytest.param("In R1 output the closing tag is </think> followed by the answer.", id="lone_end"),
    pytest.param("Use the <think> tag to mark reasoning in prompts models learn.", id="start"),
]


def _tokens(found):
    return [f.details["token"] for f in found if f.label == "boundary_token"]


def _regions(found):
    return [f.details["delimited"] for f in found if f.label == "reasoning_leak"]


@pytest.mark.parametrize(("text", "kwargs", "tokens", "regions"), POSITIVES)
def test_positive(detect, text, kwargs, tokens, regions):
    found = detect(DETECTOR, text, **kwargs)
    assert _tokens(found) == tokens
    assert _regions(found) == regions
    for f in found:
        assert f.detector_id == DETECTOR
        assert f.span is not None and 0 <= f.span[0] < f.span[1] <= len(text)
        if f.label == "boundary_token":
            assert text[f.span[0] : f.span[1]] == f.details["token"]
            assert f.remediation == "strip"


@pytest.mark.parametrize(("text", "kwargs"), NEGATIVES)
def test_negative(detect, text, kwargs):
    assert detect(DETECTOR, text, **kwargs) == []


@pytest.mark.parametrize("text", MENTIONS)
def test_tags_named_mid_sentence_are_not_reasoning(detect, text):
    found = detect(DETECTOR, text)
    assert _tokens(found)
    assert _regions(found) == []


def test_short_harmony_analysis_after_header_is_reasoning(detect):
    text = "<|start|>assistant<|channel|>analysis<|message|>Greet.<|end|>"
    assert _regions(detect(DETECTOR, text + "Hi")) == ["pair"]


def test_prefilled_start_points_at_template(detect):
    found = detect(DETECTOR, "plan plan</think>answer", reasoning_parser="deepseek_r1")
    token = next(f for f in found if f.label == "boundary_token")
    assert token.layer == "template"
    assert token.details["family"] == "deepseek_r1"


def test_paired_tokens_point_at_parser(detect):
    found = detect(DETECTOR, "<think>plan</think>answer", reasoning_parser="deepseek_r1")
    assert {f.layer for f in found} == {"parser"}


@pytest.mark.parametrize(
    ("text", "remediation"),
    [
        pytest.param("<think>plan</think>The answer.", "strip", id="pair_with_answer"),
        pytest.param("plan</think>The answer.", "strip", id="lone_end_with_answer"),
        pytest.param("<think>plan</think>", "regenerate", id="nothing_left"),
        pytest.param("<think>plan without end", "regenerate", id="unterminated"),
    ],
)
def test_reasoning_remediation(detect, text, remediation):
    leak = next(f for f in detect(DETECTOR, text) if f.label == "reasoning_leak")
    assert leak.remediation == remediation


def test_reasoning_span_covers_region(detect):
    text = "Intro.\n<think>plan</think> Answer."
    leak = next(f for f in detect(DETECTOR, text) if f.label == "reasoning_leak")
    assert text[leak.span[0] : leak.span[1]] == "<think>plan</think>"
    assert leak.details["reasoning_chars"] == len("plan")


def test_named_family_is_reported(detect):
    found = detect(DETECTOR, "<think>x</think>y", model="MiniMax-M2")
    assert {f.details["family"] for f in found} == {"minimax_m2"}


def test_token_split_across_stream_chunks(detect):
    pieces = ("Sure <thi", "nk>plan</think>ok")
    found = detect(DETECTOR, "".join(pieces), stream=True, pieces=pieces)
    first = found[0]
    assert first.details["token"] == "<think>"
    assert first.details.get("split_across_chunks") is True
    assert "split_across_chunks" not in found[1].details


def test_one_finding_per_occurrence_is_capped(detect):
    found = detect(DETECTOR, "<|im_end|>" * 500)
    assert 0 < len(found) <= 64
