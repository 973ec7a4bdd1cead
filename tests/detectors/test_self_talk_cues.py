"""self_talk_cues: untagged reasoning_leak when the answer opens with the model's self-talk."""

from __future__ import annotations

import pytest

DETECTOR = "self_talk_cues"

POSITIVES = [
    pytest.param(
        "Okay, so the user is asking about the capital of France.", "en", id="okay_so_user"
    ),
    pytest.param("Ok, the user wants a haiku about rain.", "en", id="ok_the_user"),
    pytest.param("Alright, let me think about this carefully.", "en", id="alright_let_me_think"),
    pytest.param("Hmm, wait, that doesn't add up.", "en", id="hmm_wait"),
    pytest.param("Hmm, let me reconsider the second step.", "en", id="hmm_let_me"),
    pytest.param("Wait, the question says three apples.", "en", id="wait_comma"),
    pytest.param("The user wants a summary of the report.", "en", id="the_user_wants"),
    pytest.param("So the user is asking whether 9.11 > 9.8.", "en", id="so_the_user"),
    pytest.param("Let me think step by step.", "en", id="let_me_think_step"),
    pytest.param("First, I need to understand what they mean by scale.", "en", id="first_i_need"),
    pytest.param("嗯，用户问的是法国的首都。", "zh", id="zh_hmm_user"),
    pytest.param("好的，用户问北京今天的天气。", "zh", id="zh_ok_user"),
    pytest.param("用户想知道如何安装Python。", "zh", id="zh_user_wants_to_know"),
    pytest.param("让我想想这个问题。", "zh", id="zh_let_me_think"),
    pytest.param("사용자가 파이썬 버전을 묻고 있다.", "ko", id="ko_user_asking"),
    pytest.param("사용자가 서울 날씨를 물었습니다. 확인해 보자.", "ko", id="ko_user_asked"),
    pytest.param("음, 이 문제는 조금 까다롭다.", "ko", id="ko_hmm"),
    pytest.param("흠, 이건 계산이 틀렸네.", "ko", id="ko_hmm_plain_ne"),
    pytest.param("ユーザーは東京の天気について尋ねています。", "ja", id="ja_user_asks"),
    pytest.param("うーん、これは難しい。", "ja", id="ja_hmm"),
    # self-correction, not an exclamation
    pytest.param(
        "Wait, I need to double-check the units first. The user said meters.", "en", id="wait_i"
    ),
    pytest.param("Wait, that doesn't add up.", "en", id="wait_that_doesnt"),
    pytest.param("They're asking about the deadline. I'll answer directly.", "en", id="theyre"),
    pytest.param("The user's question is about refunds.", "en", id="users_question"),
    pytest.param("잠깐, 조건부터 정리하자.", "ko", id="ko_wait_plain"),
    pytest.param("질문은 20분 안에 잡채 만들기에 관한 것이다.", "ko", id="ko_question_is_about"),
    pytest.param("사용자가 오늘 0700.HK 주가에 대해 물었다.", "ko", id="ko_ticker_dot"),
    pytest.param("用户关心的是方程的解法，先把已知条件列出来。", "zh", id="zh_user_cares"),
    pytest.param("等等，用户说的是明天。", "zh", id="zh_wait"),
    pytest.param("这个问题问的是两个数的和。", "zh", id="zh_the_question_asks"),
    pytest.param("ユーザーは東京の天気を知りたがっている。", "ja", id="ja_user_wants"),
    pytest.param("We need to answer the question about the capital.", "en", id="harmony_we_need"),
    pytest.param("User asks: what is 2+2? Simple.", "en", id="harmony_user_asks"),
]

# Reasoning-only answers with no opening cue: several sentences of planning narration.
NARRATIONS = [
    pytest.param(
        "I should check the units first. The user mentioned meters. I'll answer in feet.",
        "en",
        id="en_1",
    ),
    pytest.param(
        "I should compute the total. The user said three items at $4. I should answer 12.",
        "en",
        id="en_need_to",
    ),
    pytest.param(
        "I need to find the population. From memory it's about 9.4 million. I'll answer with that.",
        "en",
        id="en_answer_with",
    ),
    pytest.param(
        "먼저 환율이 필요하다. 사용자가 원화 기준을 원하는지 봐야겠다. 그다음 계산하자.",
        "ko",
        id="ko_plain_style",
    ),
    pytest.param("需要的数据都有了，我得先核对一下。用户问的是总价，直接回答12元。", "zh", id="zh"),
    pytest.param(
        "まず合計を計算する必要がある。ユーザーは税込みを聞いているのだろう。", "ja", id="ja"
    ),
]

NEGATIVES = [
    pytest.param("Okay, here's the plan:\n1. Install", id="okay_heres"),
    pytest.param("Hmm, interesting question! The answer is 4.", id="hmm_interesting"),
    pytest.param("So, to answer your question: Paris.", id="so_to_answer"),
    pytest.param("Well, it depends on the context.", id="well_it_depends"),
    pytest.param("The user interface is simple to use.", id="the_user_interface"),
    pytest.param("Waiting times vary by airline.", id="waiting"),
    pytest.param("Paris. Hmm, wait, let me add one more thing.", id="cue_not_at_start"),
    pytest.param("Let me think of a good name: Aurora.", id="let_me_think_of"),
    pytest.param("사용자가 로그인하면 세션이 생성됩니다.", id="ko_users_log_in"),
    pytest.param(
        "사용자가 요청하는 데이터를 처리하려면 API를 호출하세요.", id="ko_user_requested_data"
    ),
    pytest.param("음수는 0보다 작은 수입니다.", id="ko_negative_numbers"),
    pytest.param("用户需要先安装Python。", id="zh_users_need"),
    pytest.param("嗯哼是一个语气词。", id="zh_interjection_word"),
    pytest.param("`Hmm, wait` is self-talk.", id="inline_code_first"),
    pytest.param("", id="empty"),
    # conversational answers that only sound like musing
    pytest.param("Wait, really? Yes — the deadline is April 15.", id="wait_really"),
    pytest.param("Wait — are you asking about the 2024 or the 2025 rules?", id="wait_dash"),
    pytest.param("Wait times at the DMV are usually under an hour.", id="wait_times"),
    pytest.param("So the user needs to enable two-factor authentication.", id="so_the_user_needs"),
    pytest.param("The user is redirected to the login page after a timeout.", id="user_redirected"),
    pytest.param("I think the answer is 42. I should mention it depends.", id="chatty_answer"),
    pytest.param("I need to see your config to help. Could you paste it?", id="asks_for_input"),
    pytest.param("Let me explain how closures work. They capture variables.", id="explain"),
    pytest.param("음, 좋은 질문이에요. 답은 42입니다.", id="ko_hmm_polite"),
    pytest.param("흠, 그 오류는 보통 권한 문제입니다.", id="ko_hmm_formal_answer"),
    pytest.param("음, 어떤 운영체제를 쓰고 계십니까?", id="ko_hmm_formal_question"),
    pytest.param("嗯，这个问题很好。答案是肯定的。", id="zh_hmm_conversational"),
    pytest.param("파이썬은 인터프리터 언어이다. 문법이 간단하다.", id="ko_plain_style_docs"),
    pytest.param("確認したところ、在庫はあります。", id="ja_answer"),
    pytest.param("We need to talk about your deadline: it is April 15.", id="we_need_to_talk"),
    pytest.param("Need to know more? Ask me.", id="need_to_know_more"),
]


@pytest.mark.parametrize(("text", "language"), POSITIVES)
def test_positive(detect, text, language):
    (finding,) = detect(DETECTOR, text)
    assert finding.label == "reasoning_leak"
    assert finding.details["delimited"] == "untagged"
    assert finding.details["language"] == language
    assert finding.remediation == "regenerate"
    assert finding.source == "heuristic"
    assert finding.confidence < 0.9


@pytest.mark.parametrize("text", NEGATIVES)
def test_negative(detect, text):
    assert detect(DETECTOR, text) == []


@pytest.mark.parametrize(("text", "language"), NARRATIONS)
def test_reasoning_only_narration(detect, text, language):
    (finding,) = detect(DETECTOR, text)
    assert finding.details == {"delimited": "untagged", "language": language, "cue": "narration"}
    assert finding.span[0] == 0 and finding.span[1] > text.find(".") + 1
    assert finding.confidence < 0.7


@pytest.mark.parametrize(
    ("kwargs", "layer"),
    [
        pytest.param({"reasoning_parser": "qwen3"}, "parser", id="reasoning_model_empty_field"),
        pytest.param({"reasoning_parser": "qwen3", "reasoning": "x"}, "model", id="field_filled"),
        pytest.param({}, "model", id="unknown_model"),
        pytest.param({"model": "meta-llama/Llama-3.1-8B"}, "model", id="non_reasoning_family"),
    ],
)
def test_layer(detect, kwargs, layer):
    (finding,) = detect(DETECTOR, "Okay, so the user is asking about X.", **kwargs)
    assert finding.layer == layer


# --------------------------------------------------------------------------- speech level (ko)
# Plain-style notes that plan, then a polite answer: reasoning whose delimiters were stripped.

SPEECH_LEVEL = [
    pytest.param(
        "환불 수수료가 10%라고 했으니 먼저 그걸 빼야겠다.\n\n환불 금액은 4만 5천 원입니다.",
        id="intent_then_answer",
    ),
    pytest.param(
        "두 노선 중 어느 쪽이 빠를까. 환승이 없는 쪽이 낫다.\n\n2호선으로 가시는 게 더 빠릅니다.",
        id="self_question",
    ),
    pytest.param(
        "일단 단위를 맞추자. 1인치는 2.54cm다.\n"
        "15인치는 약 38cm입니다. 화면 대각선 길이 기준이에요.",
        id="single_line_break",
    ),
    pytest.param(
        "재고가 없다고 나오는 건 아마 캐시 문제인 것 같다.\n\n"
        "앱을 완전히 종료했다가 다시 열어 보세요.",
        id="hedge",
    ),
]


@pytest.mark.parametrize("text", SPEECH_LEVEL)
def test_plain_notes_then_a_polite_answer(detect, text):
    (finding,) = detect(DETECTOR, text)
    assert finding.details == {"delimited": "untagged", "language": "ko", "cue": "speech_level"}
    # the span is the plain block, not the answer
    assert finding.span[0] == 0 and text[: finding.span[1]].rstrip() == text.split("\n")[0]
    assert finding.confidence < 0.7


SPEECH_LEVEL_NEGATIVES = [
    # polite throughout, plain throughout
    pytest.param("환불 금액은 4만 5천 원입니다.\n\n수수료 10%를 뺀 금액이에요.", {}, id="polite"),
    pytest.param(
        "이 함수는 리스트를 정렬한다.\n\n원본은 바뀌지 않는다.", {}, id="plain_technical_prose"
    ),
    # plain statements that do not plan: an example sentence or a summary line
    pytest.param(
        "나는 어제 친구와 영화를 봤다.\n\n과거형 문장의 예시입니다.", {}, id="example_sentence"
    ),
    pytest.param(
        "서울의 인구는 약 940만 명이다.\n\n2024년 통계 기준입니다.", {}, id="plain_fact_line"
    ),
    # asked for plain-style text
    pytest.param(
        "오늘은 비가 와서 우산을 챙겨야겠다.\n\n일기 형식으로 써 봤어요.",
        {"prompt": "비 오는 날 일기를 한 편 써 줘"},
        id="asked_for_a_diary",
    ),
    pytest.param(
        "내일 다시 확인해야겠다.\n\n자연스러운 번역은 위와 같습니다.",
        {"prompt": "'I should check again tomorrow'를 번역해 줘"},
        id="asked_for_a_translation",
    ),
    # the polite part does not follow right after, or the notes turn plain again
    pytest.param(
        "먼저 단위를 맞추자. 1인치는 2.54cm다. 15인치는 약 38cm입니다.", {}, id="no_break"
    ),
    pytest.param(
        "먼저 단위를 맞추자.\n\n15인치는 약 38cm입니다. 계산은 끝났다.", {}, id="plain_again"
    ),
    # a title: one question or exhortation on its own line
    pytest.param("왜 빵이 딱딱해질까?\n\n수분이 빠져나가기 때문입니다.", {}, id="question_title"),
    pytest.param(
        "김치찌개를 함께 끓여 보자!\n\n재료는 다음과 같습니다.", {}, id="exhortation_title"
    ),
    # a lone polite "네." is an answer, quotes and lists are not an opening
    pytest.param("네.\n\n가능합니다.", {}, id="polite_yes"),
    pytest.param("“먼저 확인해야겠다.”\n\n주인공이 한 말입니다.", {}, id="quoted"),
]


@pytest.mark.parametrize(("text", "kwargs"), SPEECH_LEVEL_NEGATIVES)
def test_speech_level_negatives(detect, text, kwargs):
    assert detect(DETECTOR, text, **kwargs) == []


def test_notes_closed_by_a_token_are_left_to_the_delimited_rules(detect):
    text = "환불 수수료부터 빼야겠다.\n</think>\n\n환불 금액은 4만 5천 원입니다."
    assert detect(DETECTOR, text) == []
    (region,) = [f for f in detect("boundary_tokens", text) if f.label == "reasoning_leak"]
    assert region.details["delimited"] == "lone_end"


# --------------------------------------------------------------------------- notes block (en, zh)
# An opening block about the requester and the model's own work, then an answer.

NOTES_BLOCK = [
    pytest.param(
        "The customer wrote that the parcel never arrived, and the user probably wants a "
        "refund rather than a resend.\n\nA full refund has been issued to the original card.",
        "en",
        id="en_requester_and_hedge",
    ),
    pytest.param(
        "They asked for metric units, so I should convert the recipe before answering.\n\n"
        "Use 225 g of flour and 120 ml of milk.",
        "en",
        id="en_requester_and_plan",
    ),
    pytest.param(
        "Is this about the 2019 rules or the new ones? I need to check which year applies. "
        "The new rules, most likely.\n\nFrom 2025 the allowance is 3,000 a year.",
        "en",
        id="en_plan_and_self_question",
    ),
    pytest.param(
        "退货期限要看订单类型，对方提到是节假日订单，我得先确认活动规则。\n\n退货期限为签收后七天。",
        "zh",
        id="zh_requester_and_plan",
    ),
    pytest.param(
        "对方说的是旧版本，大概是2.x。\n\n请升级到3.1以上再试。",
        "zh",
        id="zh_requester_and_hedge",
    ),
    pytest.param(
        "환불 규정 문의. 구매 후 10일 지났다고 했으니 기간 안인지 먼저 봐야겠어요.\n\n"
        "구매 후 14일 이내라 환불이 가능합니다.",
        "ko",
        id="ko_polite_notes",
    ),
    pytest.param(
        "엑셀 중복 제거 요청. 버전에 따라 메뉴 위치가 다름.\n\n"
        "데이터 탭에서 중복된 항목 제거를 누르면 됩니다.",
        "ko",
        id="ko_memo_notes",
    ),
]


@pytest.mark.parametrize(("text", "language"), NOTES_BLOCK)
def test_notes_about_the_requester_then_an_answer(detect, text, language):
    (finding,) = detect(DETECTOR, text)
    assert finding.details == {"delimited": "untagged", "language": language, "cue": "notes_block"}
    # the span is the notes block, not the answer
    assert finding.span == (0, text.index("\n"))
    assert finding.confidence < 0.7


NOTES_BLOCK_NEGATIVES = [
    # the block talks to the reader
    pytest.param(
        "I think you should check the loop first. The user id is probably null there.\n\n"
        "Add a guard before line 12.",
        {},
        id="en_addressed",
    ),
    # an assistant's aside: one plan, nothing else
    pytest.param("I'll keep this short.\n\nThe museum opens at nine.", {}, id="en_single_aside"),
    # one sentence announcing work is a preamble, not notes
    pytest.param(
        "Hold on, let me double-check the numbers.\n\nThe total is 32.", {}, id="en_preamble"
    ),
    # documentation about users, asked about users
    pytest.param(
        "The user probably wants to stay signed in, so the token is refreshed silently.\n\n"
        "Set REFRESH_WINDOW to change how early.",
        {"prompt": "How does the login flow keep a user signed in?"},
        id="en_prompt_about_users",
    ),
    # content about third parties, not the requester
    pytest.param(
        "Cats knead when they want comfort, probably a habit from kittenhood.\n\nIt is harmless.",
        {},
        id="en_third_party_content",
    ),
    # a rhetorical question answered to the reader
    pytest.param(
        "Why does bread go stale? Mostly because starch recrystallises.\n\nKeep it in a bread box.",
        {},
        id="en_rhetorical",
    ),
    # no answer after the block, or a token after it (the delimited rules' business)
    pytest.param(
        "They asked for a refund, so I should check the order date.", {}, id="en_no_break"
    ),
    pytest.param(
        "用户可以在设置中修改密码。\n\n修改后需要重新登录。", {}, id="zh_docs_about_users"
    ),
    pytest.param(
        "稍等，我再核对一下数字。食材先备好。\n\n先下姜片，再放辣椒。", {}, id="zh_polite_wait"
    ),
    pytest.param("我建议你先备份数据，可能会丢失设置。\n\n备份后再升级。", {}, id="zh_addressed"),
    # a polite answer to the reader, an FAQ line, a meeting summary that is the answer
    pytest.param(
        "문의하신 환불은 아마 가능할 것 같아요. 영수증을 준비해 주세요.\n\n매장에서 처리됩니다.",
        {},
        id="ko_addressed",
    ),
    pytest.param(
        "자주 묻는 질문: 배송은 얼마나 걸리나요?\n\n보통 2~3일 걸립니다.", {}, id="ko_faq_line"
    ),
    pytest.param(
        "회의 요약: 출시일 확정됨. 디자인 수정 필요.\n\n다음 회의는 금요일입니다.",
        {"prompt": "회의 내용을 요약해 줘"},
        id="ko_summary_asked_for",
    ),
]


@pytest.mark.parametrize(("text", "kwargs"), NOTES_BLOCK_NEGATIVES)
def test_notes_block_negatives(detect, text, kwargs):
    assert detect(DETECTOR, text, **kwargs) == []
