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
        "Okay, the user wants 2+2, so I answer 4.\n</think>\n\n4.",
        {},
        ["</think>"],
        ["lone_end"],
        id="lone_end_on_its_own_line",
    ),
    pytest.param(
        "Fine answer. More. </think> tail",
        {},
        ["</think>"],
        [],
        id="lone_end_set_as_a_word_is_a_token_only",
    ),
    pytest.param(
        "<|START_THINKING|>Sum them.<|END_THINKING|><|START_RESPONSE|>7<|END_RESPONSE|>",
        {},
        ["<|START_THINKING|>", "<|END_THINKING|>", "<|START_RESPONSE|>", "<|END_RESPONSE|>"],
        ["pair"],
        id="cohere_thinking",
    ),
    pytest.param(
        "\x00<think>plan</think>answer",
        {},
        ["<think>", "</think>"],
        ["pair"],
        id="nul_before_the_tag_is_not_text",
    ),
    pytest.param(
        "\u200b<think>plan</think>answer",
        {},
        ["<think>", "</think>"],
        ["pair"],
        id="zero_width_space_before_the_tag",
    ),
    pytest.param(
        "Sure!<think>ok</think> Here it is.",
        {},
        ["<think>", "</think>"],
        ["pair"],
        id="short_pair_glued_mid_line",
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

# A delimiter used as a word in an explanation is named, not leaked: no finding at all.
# Rule (see the "mentions" section of rules/boundary_tokens.py): a markup noun right after
# or before it, coordination with such a mention, "between X and Y", or a word-like
# position inside a sentence about markup/models with no reasoning region opened.
MENTIONS = [
    pytest.param("The model writes its reasoning between <think> and </think>.", id="between"),
    pytest.param("In R1 output the closing tag is </think> followed by the answer.", id="lone_end"),
    pytest.param("Use the <think> tag to mark reasoning in prompts models learn.", id="start"),
    pytest.param("Qwen3 wraps its reasoning in <think> tags.", id="noun_after_plural"),
    pytest.param("The </think> token marks the end of the reasoning.", id="token_noun"),
    pytest.param("To clean the output, strip the ◁think▷ marker first.", id="kimi_marker"),
    pytest.param("Look for the <|channel|> delimiter in raw harmony output.", id="delimiter"),
    pytest.param("<think> and </think> tags wrap the chain of thought.", id="coordinated_start"),
    pytest.param("Tags such as <thinking> should never reach users.", id="noun_before"),
    pytest.param(
        "Wrap it as <thinking>notes</thinking> if you like the format.", id="short_example"
    ),
    pytest.param("DeepSeek-R1 ends its reasoning with </think>, then answers.", id="weak_sentence"),
    pytest.param("If you see </think> in a reply, the reasoning parser is missing.", id="weak_if"),
    pytest.param("Qwen3 같은 모델은 생각 과정을 <think> 태그로 감쌉니다.", id="ko_tag"),
    pytest.param("응답에 </think> 토큰이 보이면 파서 설정을 확인하세요.", id="ko_token"),
    pytest.param("推理模型会把思考过程放在<think>标签里。", id="zh_tag_no_space"),
    pytest.param("如果回答里出现 </think> 标记，说明解析器没有生效。", id="zh_marker"),
    pytest.param("推論モデルは思考を <think> タグで囲みます。", id="ja_tag"),
    pytest.param("응답에 </think>가 보이면 reasoning parser가 빠진 것입니다.", id="ko_particle"),
    pytest.param("像 DeepSeek-R1 这样的模型会在 </think> 之后才给出答案。", id="zh_after"),
    pytest.param("如果界面上出现了 <think>，说明没有启用推理解析器。", id="zh_comma"),
    pytest.param("Qwen3 は思考を <think> と </think> の間に書きます。", id="ja_between"),
    pytest.param(
        "In gpt-oss, the analysis channel starts with <|channel|>analysis and ends with <|end|>, "
        "while the final answer ends with <|return|>.",
        id="harmony_sentence",
    ),
    pytest.param("Magistral wraps reasoning in [THINK] … [/THINK].", id="mistral_ellipsis"),
    pytest.param("The closing </think> marks where the answer begins.", id="closing_adjective"),
]

# Real leaks that sit near such words stay leaks.
NOT_MENTIONS = [
    pytest.param("<think>The user asks about tags in HTML.</think>Use <b> for bold.", id="leak"),
    pytest.param("Tags are easy.</think>\n\nUse the <b> tag.", id="lone_end_after_sentence"),
    pytest.param("The reasoning is done. </think> The answer is 4.", id="sentence_start"),
    pytest.param("I'll format it as a list </think>\n1. apples", id="end_of_line"),
    pytest.param("<think> Tags first, then attributes.</think>Use <b>.", id="capitalised_noun"),
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
def test_tags_named_in_explanations_are_clean(detect, text):
    assert detect(DETECTOR, text) == []


@pytest.mark.parametrize("text", NOT_MENTIONS)
def test_leaks_near_markup_words_are_still_leaks(detect, text):
    assert _tokens(detect(DETECTOR, text))


@pytest.mark.parametrize(
    ("text", "regions"),
    [
        pytest.param("The answer is 4.<|end|>", [], id="harmony_end_closing_the_answer"),
        pytest.param("We need to greet.<|end|>Hello!", ["lone_end"], id="harmony_end_then_text"),
        pytest.param("plan plan</think>", ["lone_end"], id="prefilled_family_end_at_the_end"),
    ],
)
def test_lone_end_needs_text_after_unless_prefilled(detect, text, regions):
    found = detect(DETECTOR, text)
    assert _tokens(found)
    assert _regions(found) == regions


def test_an_end_token_the_named_family_owns_otherwise_is_no_lone_end(detect):
    # harmony's <|end|> ends reasoning; Apriel's ends a turn. Named Apriel, an answer and a
    # runaway next turn are a boundary token of Apriel, not reasoning closed by harmony.
    text = "The capital of France is Paris.<|end|>\nIs there anything else?"
    named = detect(DETECTOR, text, reasoning_parser="apriel")
    assert _regions(named) == []
    assert [f.details["family"] for f in named] == ["apriel"]
    assert _regions(detect(DETECTOR, text)) == ["lone_end"]  # unnamed: harmony reads first


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
