"""The family table: a conformance battery run against every row, table invariants, and ratchets."""

from __future__ import annotations

from pathlib import Path

import pytest

from leakline.detectors import run_detectors
from leakline.detectors.base import registered
from leakline.detectors.families import (
    FAMILIES,
    TOKEN_ROLES,
    UnknownFamilyError,
    families_excluding,
    family_for,
    get_family,
    named_families,
)
from leakline.detectors.tool_markup import TOOL_MARKUPS

HERE = Path(__file__).parent
ROWS = [pytest.param(row, id=row.name) for row in FAMILIES]

# One realistic leak per family, in the shape the family actually writes.
FAMILY_LEAKS = {
    "qwen3": "<think>\nThe user asks for 2+2.\n</think>\n\n2 + 2 = 4.",
    "deepseek_r1": "Okay, the user wants a limerick. Rhymes first.\n</think>\n\nThere once",
    "deepseek_v3": "Plan: answer briefly.</think>Berlin is the capital of Germany.",
    "gemma4": "<|channel>thought\nGreeting; reply warmly.<channel|>Hello! How can I help?",
    "glm45": "<think>用户问的是天气。</think>\n北京今天晴。",
    "minimax_m2": "Need to compute the sum first.</think>\n\nThe sum is 10.",
    "kimi_k2": "◁think▷The user wants a haiku.◁/think▷Falling leaves at dusk",
    "gpt_oss": "<|channel|>analysis<|message|>We need to greet.<|end|><|start|>assistant"
    "<|channel|>final<|message|>Hi!",
    "granite": "Here is my thought process:\nThey want a list.\n\nHere is my response:\n1. Apples",
    "hunyuan": "<think>\n计算。\n</think>\n<answer>\n42\n</answer>",
    "ernie": "<think>先回忆公式。</think>面积是πr²。",
    "cohere_command3": "<|START_THINKING|>The user wants the sum.<|END_THINKING|>"
    "<|START_RESPONSE|>The sum is 7.<|END_RESPONSE|>",
    "holo2": "The user asks which button to press. The blue one.\n</think>\n\nPress the blue button.",
    "nemotron_v3": "Need the capital of Peru.\n</think>\nThe capital of Peru is Lima.",
    "nemotron": "<think>\nThey want a greeting.\n</think>\nHello there!",
    "olmo3": "Let me count the letters: r appears 3 times.</think>There are 3 r's.",
    "claude": "<thinking>The user wants a short answer.</thinking>Yes.",
    "seed_oss": "<seed:think>Check units.</seed:think>It is 3 km.",
    "hermes": "Sure, here you go!<|im_end|>",
    "mistral": "[THINK]Add the numbers.[/THINK]The total is 9.",
    "llama3": "The capital is Paris.<|eot_id|>",
    "deepseek_v4": "Compare both options first.</think>Option B is cheaper.<｜end▁of▁sentence｜>",
    "minimax_m3": "<mm:think>The user greets me.</mm:think>Hello! What can I do for you?",
    "step3p5": "Sum the digits: 1+2+3 = 6.\n</think>\n\nThe digit sum is 6.",
    "step3": "Check the units first.</think>The distance is 12 km.",
    "mimo": "<think>\nSimple arithmetic.\n</think>\n\n7 × 6 = 42.<|im_end|>",
    "internlm": "<think>用户想要一首诗。</think>床前明月光。<|im_end|>",
    "phi4": "<think>Two apples plus three apples.</think>You have 5 apples.",
    "lfm2": "Here is the weather for Paris.<|im_end|>",
    "longcat": "The user wants a haiku about rain.</longcat_think>Rain on the rooftop",
    "functiongemma": "I can help with that.<end_of_turn>",
    "apertus": "<|inner_prefix|>They ask for the capital.<|inner_suffix|>Bern is the capital.",
    "kimi_k3": "<|open|>think<|sep|>A greeting.<|close|>think<|sep|><|open|>response<|sep|>Hi!",
    "minicpm": "<think>\n先算面积。\n</think>\n\n面积是 12 平方米。<|im_end|>",
    "gigachat": "Москва — столица России.<|message_sep|>",
    "exaone": "서울의 인구는 약 940만 명입니다.[|endofturn|]\n[|user|]\n고마워요",
    "apriel": "The user wants a fruit. Apples are common.\n[BEGIN FINAL RESPONSE]\nAn apple."
    "\n[END FINAL RESPONSE]",
    "hyperclovax": "사용자가 서울 날씨를 묻는다. 도구 없이 일반론만.</think>\n\n서울은 오늘 맑습니다.<|im_end|>",
}

# One call per tool-markup syntax; each must rescue get_weather(city="Paris").
MARKUP_EXAMPLES = {
    "qwen3_xml": "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
    "</function>\n</tool_call>",
    "glm45": "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n"
    "</tool_call>",
    "hermes": '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    "mistral": '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
    "llama3_python_tag": '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}',
    "harmony": "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json"
    '<|message|>{"city": "Paris"}<|call|>',
    "kimi_k2": "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
    '<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
    "deepseek": "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
    '{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    "minimax_m2": '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris'
    "</parameter>\n</invoke>\n</minimax:tool_call>",
    "claude_xml": '<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris'
    "</parameter>\n</invoke>\n</function_calls>",
    "gemma4": '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>',
    "granite": '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
    "llama3_json": 'Calling: {"name": "get_weather", "parameters": {"city": "Paris"}}',
    "cohere_action": '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_weather", '
    '"parameters": {"city": "Paris"}}]<|END_ACTION|>',
    "nemotron_toolcall": '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris"}}]'
    "</TOOLCALL>",
    "olmo3_pythonic": "<function_calls>\nget_weather(city='Paris')\n</function_calls>",
    "llama4_python_start": '<|python_start|>[get_weather(city="Paris")]<|python_end|>',
    "pythonic": 'I will call [get_weather(city="Paris")] now.',
    "deepseek_dsml": '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n'
    '<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n'
    "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
    "step3": "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜>"
    '<steptml:invoke name="get_weather">\n<steptml:parameter name="city">Paris'
    "</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>",
    "tool_calls_json": '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]'
    "</tool_calls>",
    "internlm_action": '<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": '
    '{"city": "Paris"}}<|action_end|>',
    "phi4_functools": 'functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
    "granite_fc": '<function_call> {"name": "get_weather", "arguments": {"city": "Paris"}}',
    "lfm2": '<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>',
    "longcat": '<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
    "</longcat_tool_call>",
    "functiongemma": "<start_function_call>call:get_weather{city:<escape>Paris<escape>}"
    "<end_function_call>",
    "apertus": '<|tools_prefix|>[{"get_weather": {"city": "Paris"}}]<|tools_suffix|>',
    "minicpm_xml": '<function name="get_weather"><param name="city">Paris</param></function>',
    "gigachat": '<|function_call|>{"name": "get_weather", "arguments": {"city": "Paris"}}',
}
PARIS = [{"name": "get_weather", "arguments": {"city": "Paris"}}]

# One clean answer per family that *names* the family's delimiters while explaining them
# (outside code, in several languages): it must carry no label at all.
FAMILY_CLEAN = {
    "qwen3": "Qwen3 wraps its reasoning in <think> tags and closes it with </think> before the "
    "answer.",
    "deepseek_r1": "DeepSeek-R1 often omits the opening tag, so only the </think> token shows up.",
    "deepseek_v3": "V3.1의 thinking 모드는 프롬프트 끝에 <think> 태그를 미리 넣습니다.",
    "gemma4": "Gemma 4 opens its thought channel with the <|channel> token and ends it with the "
    "<channel|> token.",
    "glm45": "GLM-4.5 把推理放在 <think> 标签里，回答前会输出 </think> 标签。",
    "minimax_m2": "MiniMax-M2 needs the append-think parser because the <think> tag is in the "
    "prompt.",
    "kimi_k2": "To clean Kimi output, strip the ◁think▷ marker and the ◁/think▷ marker.",
    "gpt_oss": "In harmony, every message ends with the <|end|> token and the final one with the "
    "<|return|> token.",
    "granite": "Granite 3.2 can also emit the <|thinking|> token before its notes.",
    "cohere_command3": "Command A puts its plan between the <|START_THINKING|> and "
    "<|END_THINKING|> tokens.",
    "holo2": "Holo2는 기본으로 생각 모드가 켜져 있어서 출력에는 </think> 토큰만 보입니다.",
    "nemotron_v3": "Nemotron 3 Nano ends the prompt with a <think> tag when thinking is enabled.",
    "nemotron": "Llama-Nemotron writes the <think> tag itself when detailed thinking is on.",
    "olmo3": "Olmo 3 の推論は </think> タグで終わります。",
    "hunyuan": "Hunyuan marks the final reply with the <answer> tag after its <think> block.",
    "ernie": "ERNIE 4.5 Thinking closes its reasoning with the </think> tag.",
    "claude": "Older prompts asked Claude to reason inside <thinking> tags.",
    "seed_oss": "Seed-OSS reports its budget inside the <seed:cot_budget_reflect> tag.",
    "hermes": "ChatML ends every turn with the <|im_end|> token.",
    "mistral": "Magistral writes its reasoning between [THINK] and [/THINK].",
    "llama3": "Llama 3 ends a turn with the <|eot_id|> token; Llama 4 uses the <|eot|> token.",
    "deepseek_v4": "DeepSeek V4 closes its reasoning with the </think> tag.",
    "minimax_m3": "MiniMax-M3 wraps its chain of thought in the <mm:think> tag.",
    "step3p5": "Step 3.5의 추론은 </think> 태그로 끝납니다.",
    "step3": "Step-3 ends its reasoning with a </think> tag before the answer.",
    "mimo": "MiMo wraps its reasoning in <think> tags like Qwen3.",
    "internlm": "Intern-S1 把推理放在 <think> 标签里。",
    "phi4": "Phi-4-mini lists its tools between the <|tool|> and <|/tool|> tokens.",
    "lfm2": "LFM2 wraps tool results in the <|tool_response_start|> token pair.",
    "longcat": "LongCat-Flash-Thinking opens its reasoning with the <longcat_think> tag.",
    "functiongemma": "FunctionGemma ends each turn with the <end_of_turn> token.",
    "apertus": "Apertus puts its inner thoughts after the <|inner_prefix|> token.",
    "kimi_k3": "Kimi K3 closes its reasoning channel with the <|close|>think<|sep|> marker.",
    "minicpm": "MiniCPM 4.1 wraps its reasoning in <think> tags.",
    "gigachat": "GigaChat separates messages with the <|message_sep|> token.",
    "exaone": "EXAONE 4.0 ends every turn with the [|endofturn|] token.",
    "apriel": "Apriel 的回答写在 [BEGIN FINAL RESPONSE] 标记之后。",
    "hyperclovax": "HyperCLOVA X SEED Think는 추론을 </think> 태그로 끝냅니다.",
}


def naming(row) -> dict[str, str]:
    """Exchange keywords that make ``row`` the named family."""
    if row.parser_names:
        return {"reasoning_parser": row.parser_names[0]}
    return {"model": row.model_patterns[0]}


def boundary(found):
    return [f for f in found if f.label == "boundary_token"]


def leaks(found):
    return [f for f in found if f.label == "reasoning_leak"]


# --------------------------------------------------------------------------- conformance battery


@pytest.mark.parametrize("row", ROWS)
def test_row_can_be_named(make_exchange, row):
    assert named_families(make_exchange("x", **naming(row)))[0] is row
    for parser in row.parser_names:
        assert named_families(make_exchange("x", tool_parser=parser))[0] is row
    for pattern in row.model_patterns:
        assert row in named_families(make_exchange("x", model=f"org/{pattern}-7b-instruct"))


@pytest.mark.parametrize("row", ROWS)
def test_own_tokens_in_prose_are_boundary_tokens(detect, row):
    for token in row.visible_tokens:
        found = boundary(
            detect("boundary_tokens", f"Answer text. {token} more text.", **naming(row))
        )
        assert [f.details["token"] for f in found] == [token], token
        assert found[0].details["family"] == row.name


@pytest.mark.parametrize("row", ROWS)
@pytest.mark.parametrize(
    "wrap",
    [
        pytest.param("Example:\n\n```text\nAnswer text. {t} more text.\n```\n\nDone.", id="fence"),
        pytest.param("Write `{t}` there.", id="inline_code"),
        pytest.param('Write "{t}" there.', id="double_quotes"),
        pytest.param("Write 「{t}」 there.", id="corner_quotes"),
    ],
)
def test_own_tokens_in_code_or_quotes_are_not(detect, row, wrap):
    for token in row.visible_tokens:
        assert detect("boundary_tokens", wrap.format(t=token), **naming(row)) == [], token


@pytest.mark.parametrize("row", [r for r in ROWS if r.values[0].reasoning_start])
def test_own_reasoning_pair_is_a_reasoning_leak(detect, row):
    for start in row.reasoning_start:
        for end in row.reasoning_end:
            found = leaks(detect("boundary_tokens", f"{start}plan{end}The answer.", **naming(row)))
            assert [(f.details["delimited"], f.details["family"]) for f in found] == [
                ("pair", row.name)
            ], (start, end)
            assert found[0].remediation == "strip"


@pytest.mark.parametrize("row", [r for r in ROWS if r.values[0].start_prefilled])
def test_prefilled_start_lone_end_is_a_template_gap(detect, row):
    for end in row.reasoning_end:
        found = detect("boundary_tokens", f"reasoning text{end}The answer.", **naming(row))
        assert [f.details["delimited"] for f in leaks(found)] == ["lone_end"]
        assert boundary(found)[0].layer == "template"


@pytest.mark.parametrize("row", [r for r in ROWS if r.values[0].tool_call_markup])
def test_own_tool_markup_is_rescued(detect, tools, row):
    for markup in row.tool_call_markup:
        found = detect("tool_call_text", MARKUP_EXAMPLES[markup.name], tools=tools, **naming(row))
        assert len(found) == 1, markup.name
        assert found[0].details["syntax"] == markup.name
        assert found[0].details["family"] == row.name
        assert found[0].details["rescued_calls"] == [
            {**call, "schema_valid": True, "errors": []} for call in PARIS
        ]


@pytest.mark.parametrize("row", [r for r in ROWS if r.values[0].tool_call_markup])
def test_own_tool_markup_in_a_fence_with_prose_is_not(detect, tools, row):
    for markup in row.tool_call_markup:
        text = f"A call looks like:\n\n```\n{MARKUP_EXAMPLES[markup.name]}\n```\n\nThat's all."
        assert detect("tool_call_text", text, tools=tools, **naming(row)) == [], markup.name


@pytest.mark.parametrize("name", sorted(FAMILY_LEAKS))
def test_family_leak_sample(detect, name):
    row = get_family(name)
    found = detect("boundary_tokens", FAMILY_LEAKS[name], **naming(row))
    assert boundary(found), name
    assert {f.details["family"] for f in found} == {name}


@pytest.mark.parametrize("name", sorted(FAMILY_CLEAN))
@pytest.mark.parametrize("named", [True, False], ids=["named", "unnamed"])
def test_family_clean_sample(make_exchange, name, named):
    kwargs = naming(get_family(name)) if named else {}
    verdict = run_detectors(make_exchange(FAMILY_CLEAN[name], **kwargs))
    assert verdict.labels == (), [f.evidence for f in verdict.findings]


def _split_pieces(text: str, token: str) -> tuple[str, ...]:
    """Stream pieces of ``text`` cut inside the first occurrence of ``token``."""
    at = text.index(token) + max(1, len(token) // 2)
    return (text[:at], text[at:])


@pytest.mark.parametrize("row", ROWS)
def test_own_tokens_split_across_stream_pieces(detect, row):
    for token in row.visible_tokens:
        text = f"Answer text. {token} more text."
        pieces = _split_pieces(text, token)
        found = boundary(detect("boundary_tokens", text, stream=True, pieces=pieces, **naming(row)))
        assert [f.details["token"] for f in found] == [token], token
        assert found[0].details.get("split_across_chunks") is True, token


@pytest.mark.parametrize("name", sorted(FAMILY_LEAKS))
def test_family_leak_split_across_stream_pieces(detect, name):
    row = get_family(name)
    text = FAMILY_LEAKS[name]
    first = min(boundary(detect("boundary_tokens", text, **naming(row))), key=lambda f: f.span)
    pieces = _split_pieces(text, first.details["token"])
    found = detect("boundary_tokens", text, stream=True, pieces=pieces, **naming(row))
    assert [f.details.get("split_across_chunks") for f in boundary(found)][0] is True
    unsplit = detect("boundary_tokens", text, **naming(row))
    assert [f.label for f in found] == [f.label for f in unsplit]


@pytest.mark.parametrize("row", [r for r in ROWS if r.values[0].tool_call_markup])
def test_own_tool_markup_split_across_stream_pieces(detect, tools, row):
    for markup in row.tool_call_markup:
        text = MARKUP_EXAMPLES[markup.name]
        head = markup.pattern.search(text).start()
        at = head + 2  # inside the opening marker (or a bare call's head)
        found = detect(
            "tool_call_text", text, tools=tools, stream=True, pieces=(text[:at], text[at:])
        )
        assert len(found) == 1, markup.name
        assert found[0].details.get("split_across_chunks") is True, markup.name


# --------------------------------------------------------------------------- the generic layer alone
#
# Issue 14: each row's samples pass the battery, "and the generic layer alone passes it as
# well, with the row removed". The same samples run with the row left out
# (``families_excluding``): only the generic layer and the other rows see them.

# What the generic layer is meant to cover. reasoning_leak counts only when delimited by
# tokens: the untagged self-talk cues and structured fields never read the table.
GENERIC_LABELS = frozenset({"boundary_token", "tool_call_as_text", "reasoning_leak"})
_NOT_DELIMITED = frozenset({"untagged", "structured_field"})

# The samples the generic layer genuinely cannot see without their row:
# (row, "leak" | "clean") -> (the GENERIC_LABELS it gets without the row, why).
# Strict: test_{leak,clean}_sample_without_its_row fail when an entry's sample starts passing
# (remove the entry) or gets anything but the labels recorded here.
GENERIC_GAPS: dict[tuple[str, str], tuple[frozenset[str], str]] = {
    ("apertus", "leak"): (
        frozenset({"boundary_token"}),
        "<|inner_prefix|>/<|inner_suffix|> are found as tokens, but their names say nothing "
        "about reasoning, so no reasoning region is inferred between them",
    ),
}


def generic_labels(found) -> frozenset[str]:
    """The GENERIC_LABELS among ``found`` (reasoning_leak only when token-delimited)."""
    return frozenset(
        f.label
        for f in found
        if f.label in GENERIC_LABELS
        and (f.label != "reasoning_leak" or f.details.get("delimited") not in _NOT_DELIMITED)
    )


def _as_expected_without_row(
    name: str, kind: str, with_row: frozenset[str], without: frozenset[str]
) -> bool:
    """``without`` (the labels with the row left out) is what the battery expects: the
    labels the row gives, or for a recorded gap exactly the labels recorded."""
    gap = GENERIC_GAPS.get((name, kind))
    if gap is None:
        return without == with_row
    seen, reason = gap
    assert without != with_row, (
        f"the {name} {kind} sample passes without its row now: "
        f"remove ({name!r}, {kind!r}) from GENERIC_GAPS"
    )
    assert reason.strip(), (name, kind)
    return without == seen


@pytest.mark.parametrize("name", sorted(FAMILY_LEAKS))
@pytest.mark.parametrize("named", [True, False], ids=["named", "unnamed"])
def test_leak_sample_without_its_row(make_exchange, name, named):
    row = get_family(name)
    kwargs = naming(row) if named else {}
    text = FAMILY_LEAKS[name]
    with_row = generic_labels(run_detectors(make_exchange(text, **naming(row))).findings)
    assert with_row, name
    with families_excluding([name]):
        found = run_detectors(make_exchange(text, **kwargs)).findings
    assert _as_expected_without_row(name, "leak", with_row, generic_labels(found)), [
        (f.detector_id, f.label, f.evidence) for f in found
    ]
    assert all(f.details.get("family") != name for f in found), name


@pytest.mark.parametrize("name", sorted(FAMILY_CLEAN))
@pytest.mark.parametrize("named", [True, False], ids=["named", "unnamed"])
def test_clean_sample_without_its_row(make_exchange, name, named):
    kwargs = naming(get_family(name)) if named else {}
    with families_excluding([name]):
        verdict = run_detectors(make_exchange(FAMILY_CLEAN[name], **kwargs))
    labels = frozenset(verdict.labels)
    assert _as_expected_without_row(name, "clean", frozenset(), labels), [
        (f.detector_id, f.label, f.evidence) for f in verdict.findings
    ]


def test_generic_gaps_name_battery_samples():
    samples = {"leak": FAMILY_LEAKS, "clean": FAMILY_CLEAN}
    for name, kind in GENERIC_GAPS:
        assert name in samples[kind], (name, kind)
        assert GENERIC_GAPS[name, kind][0] <= GENERIC_LABELS, (name, kind)


# --------------------------------------------------------------------------- table invariants


def test_names_and_parser_names_are_unique():
    names = [row.name for row in FAMILIES]
    assert len(names) == len(set(names))
    parsers = [p.lower() for row in FAMILIES for p in row.parser_names]
    assert len(parsers) == len(set(parsers))


def test_every_row_has_a_way_to_be_named():
    for row in FAMILIES:
        assert row.parser_names or row.model_patterns, row.name
        assert all(p == p.lower() for p in row.model_patterns), row.name


def test_reasoning_delimiters_come_in_pairs():
    for row in FAMILIES:
        assert bool(row.reasoning_start) == bool(row.reasoning_end), row.name
        assert not row.start_prefilled or row.reasoning_end, row.name


def test_a_literal_never_both_opens_and_closes():
    for literal, role in TOKEN_ROLES.items():
        assert not (role.starts and role.ends), literal


def test_tool_markup_is_never_a_boundary_token():
    cues = {cue for markup in TOOL_MARKUPS for cue in markup.cues}
    for literal in TOKEN_ROLES:
        assert not any(cue in literal or literal in cue for cue in cues), literal


def test_every_markup_row_is_used_by_a_family():
    used = {markup.name for row in FAMILIES for markup in row.tool_call_markup}
    assert used == {markup.name for markup in TOOL_MARKUPS}
    assert all(markup in TOOL_MARKUPS for row in FAMILIES for markup in row.tool_call_markup)


def test_get_family_unknown_lists_known_names():
    assert get_family("qwen3").name == "qwen3"
    with pytest.raises(UnknownFamilyError) as raised:
        get_family("qwen4")
    message = str(raised.value)
    assert "qwen4" in message
    assert all(row.name in message for row in FAMILIES)


@pytest.mark.parametrize(
    ("kwargs", "first"),
    [
        pytest.param({"reasoning_parser": "deepseek_r1"}, "deepseek_r1", id="reasoning_parser"),
        pytest.param({"reasoning_parser": "deepseek-r1"}, "deepseek_r1", id="sglang_spelling"),
        pytest.param({"tool_parser": "qwen3_xml"}, "qwen3", id="tool_parser"),
        pytest.param({"model": "Qwen/QwQ-32B"}, "qwen3", id="qwq_model"),
        pytest.param({"model": "NousResearch/Hermes-3-Llama-3.1-8B"}, "hermes", id="hermes_llama"),
        pytest.param({"model": "openai/gpt-oss-120b"}, "gpt_oss", id="gpt_oss_model"),
        pytest.param(
            {"reasoning_parser": "qwen3", "model": "deepseek-ai/DeepSeek-R1"},
            "qwen3",
            id="parser_beats_model_name",
        ),
    ],
)
def test_family_for_puts_the_named_family_first(make_exchange, kwargs, first):
    ordered = family_for(make_exchange("x", **kwargs))
    assert ordered[0].name == first
    assert sorted(r.name for r in ordered) == sorted(r.name for r in FAMILIES)


def test_family_for_unknown_versions_is_every_row_in_table_order(make_exchange):
    ex = make_exchange("x", model="some/unknown-model", reasoning_parser="nope")
    assert family_for(ex) == list(FAMILIES)


# --------------------------------------------------------------------------- ratchets


def test_every_family_row_has_a_leak_sample():
    assert set(FAMILY_LEAKS) == {row.name for row in FAMILIES}


def test_every_family_row_has_a_clean_sample():
    assert set(FAMILY_CLEAN) == {row.name for row in FAMILIES}


def test_every_tool_markup_has_an_example():
    assert set(MARKUP_EXAMPLES) == {markup.name for markup in TOOL_MARKUPS}


@pytest.mark.parametrize("detector_id", sorted(registered()))
def test_every_detector_has_a_test_module(detector_id):
    module = HERE / f"test_{detector_id}.py"
    assert module.exists(), f"add {module.name} for detector {detector_id!r}"
    assert f'"{detector_id}"' in module.read_text(encoding="utf-8")
