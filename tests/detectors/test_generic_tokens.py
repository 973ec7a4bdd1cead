"""generic_tokens: special-token shapes and delimited reasoning that no family row names."""

from __future__ import annotations

import pytest

from leakline.detectors import generic
from leakline.detectors.families import active_families, families_excluding

DETECTOR = "generic_tokens"


def unseen(text):
    """Leave out every family row that names a token of ``text``: as if leakline never saw it."""
    names = [
        f.name
        for f in active_families()
        if any(t in text for t in f.visible_tokens)
        or any(c in text for m in f.tool_call_markup for c in m.cues if c[0] in "<[")
    ]
    return families_excluding(names)


def tokens(found):
    return [f.details["token"] for f in found if f.label == "boundary_token"]


def regions(found):
    return [f for f in found if f.label == "reasoning_leak"]


# --------------------------------------------------------------------------- boundary tokens

POSITIVES = [
    pytest.param(
        "Sure.<|reserved_special_token_5|> and <|foo_bar|> then </s>",
        ["<|reserved_special_token_5|>", "<|foo_bar|>", "</s>"],
        id="probe_reserved_foo_eos",
    ),
    pytest.param("The capital is Paris.<|eot|>", ["<|eot|>"], id="pipe_end_of_turn"),
    pytest.param(
        "서울은 오늘 맑습니다.[|endofturn|]\n[|user|]\n고마워",
        ["[|endofturn|]", "[|user|]"],
        id="bracket_pipe_turn_tokens",
    ),
    pytest.param("An apple.\n[END FINAL RESPONSE]", ["[END FINAL RESPONSE]"], id="section_marker"),
    pytest.param("Paris.<｜end▁of▁turn｜>", ["<｜end▁of▁turn｜>"], id="fullwidth_bars"),
    pytest.param(
        "Done.<end_of_turn>\n<start_of_turn>user",
        ["<end_of_turn>", "<start_of_turn>"],
        id="gemma_turns",
    ),
    pytest.param("Answer: 4<eos>", ["<eos>"], id="eos_angle"),
    pytest.param("<s>[INST] hi [/INST] Hello!", ["<s>", "[INST]", "[/INST]"], id="llama2_chat"),
    pytest.param("Paris.<|end_of_answer|>", ["<|end_of_answer|>"], id="pipe_end_of_answer"),
    pytest.param(
        "<s>[INST] hi [/INST] Hello!</s>",
        ["<s>", "[INST]", "[/INST]", "</s>"],
        id="bos_and_eos_line",
    ),
    pytest.param("Result ready. <unused12>", ["<unused12>"], id="unused_slot"),
    pytest.param(
        "北京今天晴。<reserved_106>明天呢？<reserved_107>",
        ["<reserved_106>", "<reserved_107>"],
        id="reserved_role_slots",
    ),
    pytest.param("def add(a, b): return a + b<EOT>", ["<EOT>"], id="capital_end_of_text"),
    pytest.param(
        'Here you go.[TOOL_RESULTS]{"ok": true}[/TOOL_RESULTS]',
        ["[TOOL_RESULTS]", "[/TOOL_RESULTS]"],
        id="bracket_control_words",
    ),
    pytest.param(
        '[AVAILABLE_TOOLS][{"name": "x"}][/AVAILABLE_TOOLS]답변입니다.',
        ["[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]"],
        id="ko_available_tools",
    ),
    pytest.param("北京今天晴。<|im_sep|>", ["<|im_sep|>"], id="zh_pipe_token"),
    pytest.param("서울은 맑습니다.<|assistant_end|>", ["<|assistant_end|>"], id="ko_pipe_token"),
    pytest.param("<<SYS>>\nBe nice.\n<</SYS>>\nHi", ["<<SYS>>", "<</SYS>>"], id="llama2_sys"),
    pytest.param(
        "Sure.<|begin|>reply<|mid|>Here it is.", ["<|begin|>", "<|mid|>"], id="glued_run_leaked"
    ),
    pytest.param("Done.</acme_think> Paris.", ["</acme_think>"], id="vendor_prefixed_think"),
    # other bracket families: control words without pipes, doubled angles, role closers,
    # pipes inside mathematical and CJK angle brackets
    pytest.param("The bus leaves at 7.<END_TURN>", ["<END_TURN>"], id="angle_control_caps"),
    pytest.param(
        "물론이죠.<reply_end>\n<user_start>", ["<reply_end>", "<user_start>"], id="ko_snake"
    ),
    pytest.param("好的。<end-of-message>", ["<end-of-message>"], id="zh_hyphen_control"),
    pytest.param("Ok!<<END_TURN>>", ["<<END_TURN>>"], id="doubled_angle"),
    pytest.param("네.<</BOT>>\n<<USER>>", ["<</BOT>>", "<<USER>>"], id="ko_doubled_roles"),
    pytest.param("Sure, here it is.\n[/ASSISTANT]", ["[/ASSISTANT]"], id="role_closer"),
    pytest.param("已完成。[/bot]", ["[/bot]"], id="zh_role_closer_lower"),
    pytest.param("Done.⟨|eot|⟩", ["⟨|eot|⟩"], id="math_angle_pipes"),
    pytest.param("알겠습니다.〈|end_turn|〉", ["〈|end_turn|〉"], id="ko_cjk_angle_pipes"),
    pytest.param("北京晴。《｜sep｜》", ["《｜sep｜》"], id="zh_double_angle_fullwidth_pipes"),
    # at the very start or end, an invented snake_case name with a boundary word is enough
    pytest.param("The museum opens at ten.<kor_talk_done>", ["<kor_talk_done>"], id="edge_end"),
    pytest.param(
        "<VEL_PART_BEGIN>\n오늘은 비가 옵니다.\n<vel_part_halt>",
        ["<VEL_PART_BEGIN>", "<vel_part_halt>"],
        id="ko_edge_both",
    ),
    pytest.param("答案是七。\n[/ORACLE_TURN]", ["[/ORACLE_TURN]"], id="zh_caps_closer_at_end"),
]


@pytest.mark.parametrize(("text", "expected"), POSITIVES)
def test_positive(detect, text, expected):
    with unseen(text):
        found = detect(DETECTOR, text)
    assert tokens(found) == expected
    for f in found:
        assert f.details["family"] == "unknown"
        assert f.detector_id == DETECTOR
    for f in found:
        if f.label == "boundary_token":
            assert text[f.span[0] : f.span[1]] == f.details["token"]


NEGATIVES = [
    pytest.param("Qwen3 ends a turn with `<|im_end|>`; see `<|foo|>` too.", {}, id="inline_code"),
    pytest.param("Raw output:\n\n```\nHi<|eot|>\n</s>\n```\n", {}, id="fenced"),
    pytest.param('The "<|endofturn|>" string is what you strip.', {}, id="quoted"),
    pytest.param("The </s> token marks the end of a sequence in T5.", {}, id="doc_eos_token"),
    pytest.param("Strip the <|foo_bar|> marker before showing the text.", {}, id="doc_marker_noun"),
    pytest.param("Gemma uses <end_of_turn> tags to close each turn.", {}, id="doc_gemma_tags"),
    pytest.param(
        "Baichuan 2 marks the user turn with the <reserved_106> token.", {}, id="doc_reserved"
    ),
    pytest.param("The <EOS> token ends every training sequence.", {}, id="doc_capital_eos"),
    pytest.param("<p>Price: <s>$20</s> $15</p>", {}, id="html_strikethrough"),
    pytest.param("Old: <s>draft</s>, new: final.", {}, id="html_strike_inline"),
    pytest.param("<s><b>$40</b></s> now $28", {}, id="html_strike_nested"),
    pytest.param(
        "For sets, a<b|c>d is not a token; neither is x <|> y.", {}, id="math_and_haskell"
    ),
    pytest.param(
        "Use `cat x |> y` in Elixir; in prose: data |> transform |> output.", {}, id="pipes"
    ),
    pytest.param("fn f<T: Clone>(x: Vec<T>) -> Option<T|U> {}", {}, id="rust_ts_generics"),
    pytest.param("Dear [YOUR_NAME], please call [COMPANY_NAME] at [PHONE].", {}, id="placeholders"),
    pytest.param("[INFO] server started\n[ERROR] disk full", {}, id="log_levels"),
    pytest.param("See [the docs](https://x.y) and [NOTE] below.", {}, id="markdown_links"),
    pytest.param(
        "You wrote <|foo_bar|> in your message; it is a placeholder.",
        {"prompt": "What does <|foo_bar|> mean?"},
        id="quoted_from_prompt",
    ),
    pytest.param(
        "<|im_end|> only family_literals here.<think>", {}, id="family_literals_left_to_family_rule"
    ),
    pytest.param("토큰 <|foo|> 는 대화 끝을 나타내는 특수 토큰입니다.", {}, id="ko_doc_mention"),
    pytest.param("模型用 <|foo_end|> 标记结束。", {}, id="zh_doc_mention"),
    pytest.param(
        "Acme closes its reasoning channel with the <|close|>plan<|sep|> marker.",
        {},
        id="doc_glued_run_marker",
    ),
    pytest.param(
        "Acme frames replies with <|open|>reply<|sep|> and <|close|>reply<|sep|> tokens.",
        {},
        id="doc_glued_runs_coordinated",
    ),
    pytest.param("응답은 <|begin|>reply<|mid|> 토큰으로 시작합니다.", {}, id="ko_doc_glued_run"),
    pytest.param("Acme models wrap reasoning in <acme_think> tags.", {}, id="doc_vendor_think"),
    pytest.param(
        "Intro text.\n<internal_thoughts>later</internal_thoughts> more", {}, id="soft_not_token"
    ),
    pytest.param("No markup at all, just an answer.", {}, id="plain"),
    pytest.param(
        "MAYA: We made it.\n\n[END OF SCENE]\n[START HERE next time] [BEGIN QUOTE]",
        {},
        id="bracketed_phrases_are_prose",
    ),
    pytest.param(
        "Acme writes its answer after the [BEGIN FINAL RESPONSE] marker.", {}, id="doc_section"
    ),
    # the wider bracket families' look-alikes
    pytest.param("<start_date>2024-01-01</start_date><user_input>x</user_input>", {}, id="xml"),
    pytest.param("Run: ssh <USER>@<HOST> then <START> the job.", {}, id="cli_placeholders"),
    pytest.param("cat <<EOF > notes.txt\nhello\nEOF", {}, id="heredoc"),
    pytest.param("std::cout << total << std::endl; x = a << b;", {}, id="cpp_shift"),
    pytest.param("template <typename T> std::vector<std::vector<T>> grid;", {}, id="cpp_template"),
    pytest.param("The inner product ⟨x, y⟩ is zero; ⟨ψ|φ⟩ too.", {}, id="math_brackets"),
    pytest.param("推荐《三体》|《活着》两本书。", {}, id="zh_book_titles_and_pipe"),
    pytest.param(
        "[quote]Nice post[/quote] and [b]bold[/b], [url=x]link[/url]",
        {"prompt": "How do I write BBCode quotes?"},
        id="bbcode",
    ),
    pytest.param("[USER]: Hi!\n[ASSISTANT]: Hello!", {}, id="transcript_role_openers"),
    pytest.param("Dear [USER], your order shipped.", {}, id="role_placeholder"),
    pytest.param("Use [/END] not [/end_of]: see docs.", {}, id="bracket_slash_words"),
    # edge look-alikes: placeholders, XML elements, BBCode pairs, no boundary word
    pytest.param("Best regards,\n<sender_name_end>", {}, id="edge_placeholder"),
    pytest.param("<start_date> must come before <end_date>.", {}, id="edge_date_fields"),
    pytest.param("<plan_end>Q3</plan_end>", {}, id="edge_xml_element"),
    pytest.param("[QUOTE]Great post.[/QUOTE]", {}, id="edge_bbcode_pair"),
    pytest.param("Pass it as <user_input>", {}, id="edge_no_boundary_word"),
    pytest.param("Usage: convert <input_file> <output_dir>", {}, id="edge_cli_usage"),
]


# An answer that opens with a token and explains it, to a prompt about tokens or tags
EXPLAINED = [
    pytest.param(
        "<END_TURN> is the control token that closes a turn in that chat format.",
        "What do the special tokens in this format mean?",
        id="asks_about_tokens",
    ),
    pytest.param(
        "<|im_sep|> separates the role name from the message body.",
        "what's im_sep for?",
        id="prompt_names_the_word",
    ),
    pytest.param(
        "<<END_TURN>>는 한 턴이 끝났음을 나타냅니다.", "이 태그는 무슨 뜻인가요?", id="ko_particle"
    ),
    pytest.param("⟨|eot|⟩ 表示回合结束。", "这个标记是什么意思？", id="zh_definition"),
]


@pytest.mark.parametrize(("text", "prompt"), EXPLAINED)
def test_explained_token_is_a_mention(detect, text, prompt):
    with unseen(text):
        assert detect(DETECTOR, text) != [], "without the prompt it reads as a leak"
        assert detect(DETECTOR, text, prompt=prompt) == []


def test_explained_needs_a_prompt_about_markup(detect):
    """A definition-shaped sentence after a token, to an unrelated prompt, is still a leak."""
    text = "<END_TURN> is fine, your flight is at nine."
    with unseen(text):
        assert tokens(detect(DETECTOR, text, prompt="When is my flight?")) == ["<END_TURN>"]
    text = "Paris.<|eot|> means nothing"
    with unseen(text):
        assert tokens(detect(DETECTOR, text, prompt="Explain special tokens")) == ["<|eot|>"]


@pytest.mark.parametrize(("text", "kwargs"), NEGATIVES)
def test_negative(detect, text, kwargs):
    with unseen(text) if "family_literals" not in text else families_excluding(()):
        assert detect(DETECTOR, text, **kwargs) == []


def test_family_literals_are_not_reported_twice(detect):
    """A token a family row names stays with boundary_tokens; one finding per span."""
    text = "Hi<|im_end|><|foo|>"
    assert tokens(detect(DETECTOR, text)) == ["<|foo|>"]  # <|im_end|>: ChatML rows
    assert [f.details["token"] for f in detect("boundary_tokens", text)] == ["<|im_end|>"]


def test_tool_call_tokens_are_left_to_the_tool_call_rules(detect):
    text = 'Ok.<|tool_call_start|>{"name": "f", "arguments": {}}<|tool_call_stop|>'
    with unseen(text):
        assert detect(DETECTOR, text) == []


# --------------------------------------------------------------------------- reasoning regions

REGIONS = [
    pytest.param(
        "<|begin_of_thought|>The user wants 2+2, which is 4.<|end_of_thought|>The answer is 4.",
        "pair",
        id="thought_pair",
    ),
    pytest.param("[THINK]Check the units first.[/THINK]It is 5 km.", "pair", id="bracket_think"),
    pytest.param(
        "<x:think>plan the reply, then answer</x:think>Sure!", "pair", id="namespaced_think"
    ),
    pytest.param(
        "<|START_THINKING|>사용자가 날씨를 묻는다. 확인하자.<|END_THINKING|>서울은 맑습니다.",
        "pair",
        id="ko_start_end_thinking",
    ),
    pytest.param(
        "<|channel|>analysis<|message|>用户问天气。<|end|><|start|>assistant<|channel|>final<|message|>晴。",
        "channel",
        id="zh_channel_header",
    ),
    pytest.param(
        "<|turn>model\n<|channel>thought\nUser wants X.<channel|>Here is X.",
        "channel",
        id="asym_channel",
    ),
    pytest.param(
        "The user asks about Paris. Answer briefly.<|end_of_reasoning|>Paris.",
        "lone_end",
        id="lone_closer",
    ),
    pytest.param(
        "<acme_thinking>Plan the reply, then answer.</acme_thinking>Sure!",
        "pair",
        id="vendor_prefixed_pair",
    ),
    pytest.param(
        "用户问天气，先查城市。</acme_think>北京今天晴。",
        "lone_end",
        id="zh_vendor_prefixed_lone_end",
    ),
    pytest.param(
        "<reflection>Check units, then convert.</reflection>It is 5 km.",
        "xml_pair",
        id="soft_xml_pair",
    ),
    pytest.param(
        "<|reasoning|>The user wants the boiling point; say 100 °C.<|answer|>Water boils at 100 °C.",
        "pair",
        id="leading_reasoning_section",
    ),
    pytest.param(
        "\n<|thought|>사용자가 끓는점을 묻는다. 100도라고 답하자.<|reply|>물은 100도에서 끓습니다.",
        "pair",
        id="ko_leading_reasoning_section",
    ),
    # an answer-section opener after text: the text before it is reasoning
    pytest.param(
        "221 / 13 = 17, so it is not prime.\n[BEGIN FINAL RESPONSE]\nNo: 221 = 13 × 17.",
        "lone_end",
        id="answer_marker_after_reasoning",
    ),
    pytest.param(
        "사용자가 끓는점을 묻는다. 100도.<|begin_of_answer|>물은 100도에서 끓습니다.",
        "lone_end",
        id="ko_answer_opener_after_reasoning",
    ),
    # plain-text headers: a template's own words around the reasoning, no token at all
    pytest.param(
        "Here is my thought process:\nThe user asks for a boiling point; 100 °C at sea level."
        "\n\nHere is my response:\nWater boils at 100 °C at sea level.",
        "header_pair",
        id="plain_text_headers",
    ),
    pytest.param(
        "\nHere are my reasoning steps:\n用户问茶水温度，八十度左右。\nMy final answer:\n绿茶用八十度的水。",
        "header_pair",
        id="zh_answer_under_english_headers",
    ),
    pytest.param(
        "My chain of thought:\n사용자가 환율을 묻는다.\n\nHere's my answer:\n오늘 환율은 은행 앱에서 "
        "확인하세요.<|eot|>",
        "header_pair",
        id="ko_headers_and_a_token",
    ),
    pytest.param(
        "Here’s my reasoning:\n12 × 3 = 36, minus 4 broken gives 32.\nHere’s my answer:\n32.",
        "header_pair",
        id="curly_apostrophes",
    ),
    # frames: a pair that is no special token, opening the text, an answer after it
    pytest.param(
        "<muse>The user wants a short reply about tides; mention the moon.</muse>\n"
        "Tides come from the moon's pull.",
        "xml_pair",
        id="any_xml_name",
    ),
    pytest.param(
        "  [[plan]]사용자가 환불을 원한다. 영수증을 안내하자.[[/plan]]환불은 영수증이 필요합니다.",
        "frame",
        id="ko_doubled_square",
    ),
    pytest.param(
        "【思考】用户问米饭怎么煮，水米比例一比一点二。【/思考】\n水米按1.2比1煮即可。",
        "frame",
        id="zh_lenticular",
    ),
    pytest.param(
        "▶▶ They want a synonym for happy; give one word. ◀◀\nJoyful.",
        "frame",
        id="doubled_triangles",
    ),
    pytest.param("►Asked for 3 × 7; that is 21.◄ 21.", "frame", id="pointer_glued"),
    pytest.param(
        "⇒ 用户要一个笑话，讲个短的。\n⇐\n为什么程序员怕黑？因为有 bug。", "frame", id="zh_arrows"
    ),
    pytest.param(
        "〖생각〗날씨를 묻는다. 맑다고 답하자.〖/생각〗\n오늘은 맑습니다.",
        "frame",
        id="ko_white_lenticular",
    ),
    pytest.param(
        "<<notes>>The user asks for a haiku about rain, keep it 5-7-5.<</notes>>\nSoft rain on tin roofs",
        "frame",
        id="doubled_angle_frame",
    ),
    # glyph mirrors found by their Unicode names, not a list: ⟹/⟸, ⮞/⮜, ⏩/⏪ …
    pytest.param("⟹ They ask for 12 × 12; that is 144.⟸ 144.", "frame", id="long_double_arrow"),
    pytest.param(
        "⏩ 사용자가 환율을 묻는다. 은행 앱을 안내하자. ⏪\n은행 앱에서 확인하세요.",
        "frame",
        id="ko_media_arrows",
    ),
    pytest.param("»» 用户问时间，回答三点。««\n现在是三点。", "frame", id="zh_doubled_guillemets"),
    # a token pair that mirrors with a slash, whatever the name, opening the text
    pytest.param(
        "<|aside|>The user wants the boiling point; keep it short.<|/aside|>Water boils at 100 °C.",
        "pair",
        id="mirrored_pipe_pair",
    ),
    pytest.param(
        "〈|jot|〉\n用户问茶水温度，八十度左右即可。\n〈|/jot|〉\n绿茶用八十度的水。",
        "pair",
        id="zh_mirrored_cjk_pipe_pair",
    ),
]


@pytest.mark.parametrize(("text", "kind"), REGIONS)
def test_reasoning_regions(detect, text, kind):
    with unseen(text):
        found = detect(DETECTOR, text)
    (region,) = regions(found)
    assert region.details["delimited"] == kind
    assert region.details["family"] == "unknown"
    assert tokens(found), "a delimited region also shows boundary tokens"


REGION_NEGATIVES = [
    pytest.param("<reasoning>a</reasoning><answer>b</answer>", {}, id="xml_answer"),
    pytest.param(
        "<reasoning>Because X.</reasoning>\nResult: Y",
        {"prompt": "Answer in <reasoning> then the result."},
        id="asked_for_tags",
    ),
    pytest.param("<analysis>Q3 revenue grew.</analysis>", {}, id="xml_only"),
    pytest.param("Intro text.\n<reflection>later</reflection> more", {}, id="not_leading"),
    # a reasoning-named section token that does not open the text, or has no answer after
    # its section, is a boundary token only
    pytest.param(
        "Water boils at 100 °C.<|reasoning|>checked<|answer|>", {}, id="section_not_leading"
    ),
    pytest.param(
        "<|reasoning|>The user wants the boiling point.<|eot|>", {}, id="section_no_answer"
    ),
    # an answer opener that is not the first token, or has nothing after it
    pytest.param("Hi<|turn_sep|>Plan.<|begin_of_answer|>Hello!", {}, id="answer_opener_not_first"),
    pytest.param("The reply follows.<|begin_of_answer|>", {}, id="answer_opener_nothing_after"),
    # headers: an answer's own headings, a header mid-text, no answer header, nothing after
    # it, or reasoning the user asked to see
    pytest.param(
        "Here are my thoughts:\n- the blue one is lighter\n\nMy answer:\nTake the blue one.",
        {},
        id="thoughts_list_is_an_answer",
    ),
    pytest.param("Analysis:\nSales rose 8%.\n\nAnswer:\nYes, renew.", {}, id="plain_headings"),
    pytest.param(
        "Sure.\nHere is my reasoning:\nIt is cheaper.\nHere is my answer:\nBuy it.",
        {},
        id="header_not_leading",
    ),
    pytest.param("Here is my reasoning:\nIt is cheaper, so buy it.", {}, id="no_answer_header"),
    pytest.param(
        "Here is my thought process:\nIt is cheaper.\nMy answer:\n", {}, id="empty_answer"
    ),
    pytest.param(
        "Here is my reasoning:\nThe blue one weighs less.\n\nHere is my answer:\nThe blue one.",
        {"prompt": "Which is lighter? Show your reasoning, then the answer."},
        id="reasoning_asked_for",
    ),
    pytest.param(
        "My reasoning: it is cheaper.\nMy answer: buy it.", {}, id="inline_headers_are_prose"
    ),
    # frames: HTML and XML answers, BBCode, wiki links, headings, arrows in proofs
    pytest.param("<b>Note:</b> the shop closes at six, so go early.", {}, id="html_bold"),
    pytest.param(
        "<details>Click to see the full list of stations.</details>\nThere are 12.",
        {},
        id="html_details",
    ),
    pytest.param(
        "<order>A large pizza with extra cheese.</order>\nThat is the XML.",
        {"prompt": "Write it as XML"},
        id="xml_asked_for",
    ),
    pytest.param(
        "<config><retries>3</retries></config>\nThis sets three retries.", {}, id="nested_xml"
    ),
    pytest.param(
        "<note>Bring a jacket, it gets cold at night.</note>\n<note>Pack snacks.</note>",
        {},
        id="more_markup_after",
    ),
    pytest.param(
        "[quote]I loved the ending of that book.[/quote]\nMe too!",
        {},
        id="bbcode_quote_reply",
    ),
    pytest.param(
        "[spoiler]The butler did it, of course.[/spoiler] Enjoy the film!",
        {"prompt": "How do I hide spoilers in BBCode?"},
        id="bbcode_asked_about",
    ),
    pytest.param("[[Main Page]] links to [[Help:Contents]] for details.", {}, id="wiki_links"),
    pytest.param("【注意】请提前检查护照有效期。\n【提示】可在线办理。", {}, id="zh_headings"),
    pytest.param(
        "(⇒) Assume A. Then B follows.\n(⇐) Assume B. Then A follows.", {}, id="proof_parens"
    ),
    pytest.param(
        "⇒ Suppose n is even, then n² is even.\n⇐ Conversely, if n² is even, so is n.",
        {},
        id="proof_arrows",
    ),
    pytest.param("→ Step one: preheat.\n→ Step two: bake.", {}, id="arrow_bullets"),
    pytest.param("»Ich komme morgen wieder«, sagte sie. Dann ging sie.", {}, id="german_quotes"),
    pytest.param("→ Open Settings, then Privacy ←\nThat is where it lives.", {}, id="ui_arrows"),
    pytest.param("**Plan**\n- buy milk\n- walk the dog", {}, id="markdown"),
    pytest.param("⏩ Skip ahead to 2:10 ⏪ rewinds.", {}, id="media_buttons_inline"),
    pytest.param("»Wir kommen morgen wieder«, sagte sie.\nDann ging sie.", {}, id="german_line"),
    pytest.param(
        "Sure.<|aside|>The user wants the boiling point here.<|/aside|>100 °C.",
        {},
        id="mirrored_pair_not_leading",
    ),
    pytest.param(
        "<muse>The user wants a tide fact.</muse>\nTides come from the moon.",
        {"prompt": "First muse about it in <muse> tags, then answer."},
        id="frame_asked_for",
    ),
    pytest.param("[[plan]]short[[/plan]] Done.", {}, id="frame_too_short"),
    pytest.param("<muse>The user wants a tide fact, keep it short.</muse>", {}, id="no_answer"),
]


@pytest.mark.parametrize(("text", "kwargs"), REGION_NEGATIVES)
def test_no_region(detect, text, kwargs):
    with unseen(text):
        assert regions(detect(DETECTOR, text, **kwargs)) == []


# --------------------------------------------------------------------------- streaming


def test_token_split_across_stream_pieces(detect):
    text = "Paris.<|foo_bar|> done"
    at = text.index("foo")
    with unseen(text):
        (finding,) = detect(DETECTOR, text, stream=True, pieces=(text[:at], text[at:]))
    assert finding.details["split_across_chunks"] is True


def test_streamed_and_whole_agree(detect):
    text = "<|begin_of_thought|>Plan the answer carefully.<|end_of_thought|>Done.</s>"
    pieces = tuple(text[i : i + 5] for i in range(0, len(text), 5))
    with unseen(text):
        whole = detect(DETECTOR, text)
        streamed = detect(DETECTOR, text, stream=True, pieces=pieces)
    assert whole
    assert [(f.label, f.span) for f in whole] == [(f.label, f.span) for f in streamed]


# --------------------------------------------------------------------------- unknown families


def test_headers_a_row_names_stay_with_the_family_rule(detect):
    text = "Here is my thought process:\nAsked about eggs.\n\nHere is my response:\nThey float."
    assert detect(DETECTOR, text) == []  # the granite row names both headers
    assert regions(detect("boundary_tokens", text))
    with families_excluding(["granite"]):
        found = detect(DETECTOR, text)
    assert tokens(found) == ["Here is my thought process:", "Here is my response:"]
    assert [f.details["shape"] for f in found if f.label == "boundary_token"] == ["header"] * 2
    (region,) = regions(found)
    assert text[region.span[0] : region.span[1]].endswith("Here is my response:")


def test_a_removed_family_is_still_seen(detect):
    text = "<seed:think>plan the reply here</seed:think>Sure."
    assert detect(DETECTOR, text) == []  # seed_oss row claims these
    with families_excluding(["seed_oss"]):
        found = detect(DETECTOR, text)
    assert tokens(found) == ["<seed:think>", "</seed:think>"]
    assert regions(found)


@pytest.mark.parametrize(
    ("literal", "kind", "opens", "closes", "key"),
    [
        ("<|begin_of_thought|>", "boundary", True, False, "thought"),
        ("<|end_of_thought|>", "boundary", False, True, "thought"),
        ("<|channel>", "boundary", True, False, "channel"),
        ("<channel|>", "boundary", False, True, "channel"),
        ("[/THINK]", "boundary", False, True, "think"),
        ("<|tool_calls_section_begin|>", "call", False, False, "tool_calls_section_begin"),
        ("[TOOL_CALLS]", "call", False, False, "tool_calls"),
        ("[|endofturn|]", "boundary", False, False, "endofturn"),
        ("[BEGIN FINAL RESPONSE]", "boundary", True, False, "final_response"),
        ("[END FINAL RESPONSE]", "boundary", False, True, "final_response"),
    ],
)
def test_classify(literal, kind, opens, closes, key):
    meaning = generic.classify(literal)
    assert (meaning.kind, meaning.opens, meaning.closes, meaning.key) == (kind, opens, closes, key)


@pytest.mark.parametrize(
    ("literal", "answer"),
    [
        ("<|START_RESPONSE|>", True),
        ("[BEGIN FINAL RESPONSE]", True),
        ("<|begin_of_answer|>", True),
        ("<|response|>", True),
        ("<|begin_of_thought|>", False),
        ("<|eot|>", False),
        ("[|assistant|]", False),
    ],
)
def test_classify_names_the_answer_section(literal, answer):
    assert generic.classify(literal).answer is answer
