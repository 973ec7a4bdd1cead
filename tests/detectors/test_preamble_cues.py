"""preamble_cues: the answer opens with an interim progress sentence (en / ko / zh / ja).

Tutorial voice is not a preamble: "Let me explain…", "Let's start with…", "Let me walk
you through…" (and 살펴보겠습니다 / 确认一下 / 確認しましょう without a lookup) open the
answer itself. Only first-person announcements of looking something up, fetching,
computing or waiting count, and only before an answer: the same sentence with nothing
after it is the whole reply (the gate ``precedes_answer``, shared with the classifier).
"""

from __future__ import annotations

import pytest

from leakline.detectors.heuristics.preamble_cues import precedes_answer

DETECTOR = "preamble_cues"
# What follows a positive opening in ``test_positive``: the final answer.
ANSWERS = {
    "en": "The office opens at 9 a.m.",
    "ko": "사무실은 오전 9시에 엽니다.",
    "zh": "办公室早上九点开门。",
    "ja": "事務所は午前9時に開きます。",
}

POSITIVES = [
    pytest.param(
        "Let me confirm the refund policy before answering.\n\nRefunds take 5 days.",
        "en",
        id="confirm_the_policy",
    ),
    pytest.param(
        "계약서 조항을 먼저 살펴보겠습니다.\n\n해지 시 위약금은 없습니다.",
        "ko",
        id="ko_document_object",
    ),
    pytest.param("공지부터 찾아볼게요.\n\n운영 시간은 9시부터입니다.", "ko", id="ko_notice_object"),
    pytest.param(
        "요금표를 확인해 보고 알려 드릴게요.\n\n기본요금은 3천 원입니다.",
        "ko",
        id="ko_look_then_answer",
    ),
    pytest.param(
        "관련 기록을 찾아보는 중입니다.\n\n작년 12월에 변경됐습니다.", "ko", id="ko_looking_now"
    ),
    pytest.param("我查一下再回复你。\n\n营业时间是九点到五点。", "zh", id="zh_wo_cha_yixia"),
    pytest.param("正在为你查询……\n\n票价是两百元。", "zh", id="zh_zhengzai_wei_ni"),
    pytest.param("Let me check that.\n\nThe store opens at 9am.", "en", id="let_me_check"),
    pytest.param("I'll search for the current weather in Paris.", "en", id="ill_search"),
    pytest.param("Sure, let me look that up first. It opens at 9.", "en", id="sure_let_me_look_up"),
    pytest.param("Sure! Let me look this up for you.", "en", id="lead_in_own_sentence"),
    pytest.param("Okay, I'm going to pull up the docs.", "en", id="going_to_pull_up"),
    pytest.param("I’ll look into it right away.", "en", id="curly_apostrophe"),
    pytest.param("First, let me verify the numbers.\n\n| a | b |", "en", id="first_let_me"),
    pytest.param("I'm checking the documentation now.", "en", id="progressive"),
    pytest.param("Checking the forecast now…", "en", id="gerund_now"),
    pytest.param("One moment, please.", "en", id="one_moment"),
    pytest.param("Let me use the search tool to find that.", "en", id="use_the_search_tool"),
    pytest.param("I'll run a quick search on that.", "en", id="run_a_search"),
    pytest.param("  \n\nLet me take a quick look at the logs.", "en", id="leading_whitespace"),
    pytest.param("먼저 자료를 찾아보겠습니다.\n\n서울의 인구는…", "ko", id="ko_find_first"),
    pytest.param("잠시만요, 확인해 보겠습니다.", "ko", id="ko_wait_check"),
    pytest.param("네, 검색해 볼게요.", "ko", id="ko_search_casual"),
    pytest.param("네. 최신 환율을 조회하겠습니다.", "ko", id="ko_lead_in_sentence"),
    pytest.param("먼저 최신 정보를 알아보겠습니다.", "ko", id="ko_weak_stem_with_first"),
    pytest.param("我先查一下。", "zh", id="zh_check_first"),
    pytest.param("让我搜索一下最新的信息。", "zh", id="zh_let_me_search"),
    pytest.param("好的，我来帮你查一下。", "zh", id="zh_lead_in"),
    pytest.param("请稍等，我正在确认。", "zh", id="zh_please_wait"),
    pytest.param("少々お待ちください。", "ja", id="ja_please_wait"),
    pytest.param("まず最新の情報を調べてみます。", "ja", id="ja_look_up"),
    # English: more verbs, lead-ins, waits and verbless progress reports
    pytest.param("Sure, let me pull that up.", "en", id="pull_that_up"),
    pytest.param("Give me a moment while I look into it.", "en", id="give_me_a_moment"),
    pytest.param("Looking that up now.", "en", id="gerund_object_now"),
    pytest.param("Pulling the figures together now.", "en", id="pulling_together"),
    pytest.param("Checking a couple of sources before I answer.", "en", id="before_i_answer"),
    pytest.param("Let me pull the current price for NVDA. It is 452 USD.", "en", id="pull_the"),
    pytest.param("I'm pulling the latest data now.", "en", id="im_pulling"),
    pytest.param("Let me work that out. The answer is 4.", "en", id="work_that_out"),
    pytest.param("Let me see what the docs say.", "en", id="see_what_docs_say"),
    pytest.param("Hi! Let me check that for you.", "en", id="greeting_lead_in"),
    pytest.param("Thanks for your patience. Let me look into it.", "en", id="thanks_lead_in"),
    pytest.param("Sure, I can help with that. Let me look it up.", "en", id="two_lead_ins"),
    pytest.param("To answer that, I'll need to check the latest figures.", "en", id="to_answer"),
    pytest.param("Hang tight, I'm fetching the report.", "en", id="hang_tight"),
    pytest.param("Let me grab the latest numbers.", "en", id="grab"),
    pytest.param("I'll start by checking your account status.", "en", id="start_by_checking"),
    pytest.param("Let me review your account details.", "en", id="review_account_details"),
    pytest.param("I'll try to find that information.", "en", id="try_to_find"),
    pytest.param("Looking into it!", "en", id="looking_into_it"),
    pytest.param("알아볼게요. 잠시만요.", "ko", id="ko_casual_find_out"),
    pytest.param("検索しています。", "ja", id="ja_searching"),
    # Korean: progress forms, offers to check, data lookups after "먼저"
    pytest.param("먼저 관련 자료를 검색해 보겠습니다.", "ko", id="ko_search_first"),
    pytest.param("잠시만요, 일정을 확인해 볼게요.", "ko", id="ko_wait_schedule"),
    pytest.param("해당 문서를 찾아보겠습니다.", "ko", id="ko_find_document"),
    pytest.param("네, 바로 확인해 드릴게요.", "ko", id="ko_check_for_you"),
    pytest.param("관련 자료를 검색 중입니다.", "ko", id="ko_searching"),
    pytest.param("최신 데이터를 불러오는 중입니다.", "ko", id="ko_loading"),
    pytest.param("답변 전에 자료 몇 가지를 확인하고 있습니다.", "ko", id="ko_progressive"),
    pytest.param("최신 환율 정보를 가져오겠습니다.", "ko", id="ko_fetch"),
    pytest.param("AAPL 시세를 먼저 조회해 보겠습니다.", "ko", id="ko_latin_first_word"),
    pytest.param(
        "005930.KS 시세를 조회해 보겠습니다. 종가는 6만 원입니다.", "ko", id="ko_ticker_dot"
    ),
    pytest.param("2026-12-21 운임부터 확인해 보겠습니다.항공권은", "ko", id="ko_date_first"),
    pytest.param("계산해 보겠습니다.", "ko", id="ko_calculate"),
    # Chinese
    pytest.param("我先查一下相关资料。", "zh", id="zh_check_materials"),
    pytest.param("让我搜索一下。", "zh", id="zh_search"),
    pytest.param("我来整理一下这些数据。", "zh", id="zh_organise"),
    pytest.param("稍等，我查一下。", "zh", id="zh_wait_check"),
    pytest.param("我先读取一下配置文件。", "zh", id="zh_read_config"),
    pytest.param("好的，我这就帮你查。", "zh", id="zh_right_away"),
    pytest.param("正在为您查询最新天气。", "zh", id="zh_querying"),
    pytest.param("我帮你搜一下最新的新闻。", "zh", id="zh_search_for_you"),
    pytest.param("我先算一下。", "zh", id="zh_calculate"),
    pytest.param("Python的文档我先查一下。", "zh", id="zh_latin_first_word"),
    # Japanese
    pytest.param("確認してみます。", "ja", id="ja_try_check"),
    pytest.param("少々お待ちください。すぐに調べます。", "ja", id="ja_wait_then_look_up"),
    pytest.param("ただいま確認しております。", "ja", id="ja_checking_now"),
    pytest.param("調べてみますね。", "ja", id="ja_look_up_ne"),
]

NEGATIVES = [
    # round 2: the prompt asked for the plan, so its first step is the answer
    pytest.param(
        "First I'll check the disk usage, then I'll read the logs. Then I'll restart it.",
        {"prompt": "How would you debug a full disk? Only outline the steps."},
        id="en_plan_asked",
    ),
    pytest.param(
        "먼저 로그를 확인해 보겠습니다. 그다음 설정을 점검합니다.",
        {"prompt": "장애 대응 계획을 알려 줘"},
        id="ko_plan_asked",
    ),
    pytest.param(
        "먼저 기본 개념을 살펴보겠습니다.\n\n개념은 다음과 같습니다.", {}, id="ko_tutorial_concept"
    ),
    pytest.param("원리를 알아보겠습니다: 열은 위로 올라갑니다.", {}, id="ko_tutorial_colon"),
    pytest.param(
        "Let me confirm I understand: you want a CSV.", {}, id="confirm_understanding_colon"
    ),
    pytest.param(
        "Paris is the capital of France. Let me know if you need anything else.",
        {},
        id="closing_offer",
    ),
    pytest.param("Let me know if you have more questions!", {}, id="let_me_know_first"),
    pytest.param("Let me explain how this works: first, …", {}, id="let_me_explain"),
    pytest.param("Let's look at an example:\n\n```py\nx = 1\n```", {}, id="lets_look_at"),
    pytest.param("The answer is 42. I'll check back later.", {}, id="cue_not_first"),
    pytest.param("Let me confirm: do you mean Paris, France?", {}, id="clarifying_question"),
    pytest.param("Searching for files in Linux is easy with find.", {}, id="gerund_subject"),
    pytest.param("I'll explain step by step.", {}, id="ill_explain"),
    pytest.param(
        "Let's check if Python is installed:\n\n```\npython -V\n```", {}, id="tutorial_lets"
    ),
    pytest.param("Let's take a look at how decorators work.", {}, id="tutorial_take_a_look"),
    pytest.param("I'll run through the steps below.", {}, id="run_through"),
    pytest.param("I'll use the following approach:", {}, id="use_the_following"),
    pytest.param("Let me call out a few caveats.", {}, id="call_out"),
    pytest.param("Let me confirm I understand: you want a CSV.", {}, id="confirm_understanding"),
    pytest.param("```bash\n# let me check\nls\n```", {}, id="code_first"),
    pytest.param("`Let me check` is a common phrase.", {}, id="inline_code_first"),
    pytest.param('"Let me check" is what agents say.', {}, id="quoted_first"),
    pytest.param(
        "Let me check the weather.",
        {"calls": [("get_weather", '{"city": "Paris"}')]},
        id="accompanies_structured_call",
    ),
    pytest.param("파이썬의 리스트 컴프리헨션에 대해 알아보겠습니다.", {}, id="ko_topic_intro"),
    pytest.param("이 값은 이미 확인했습니다.", {}, id="ko_past_tense"),
    pytest.param(
        "서울의 인구는 약 940만 명입니다. 더 찾아볼게요.", {}, id="ko_cue_in_second_sentence"
    ),
    pytest.param("让我们来看看这个例子。", {}, id="zh_lets_see_example"),
    pytest.param("巴黎是法国的首都。", {}, id="zh_answer"),
    pytest.param("東京は日本の首都です。", {}, id="ja_answer"),
    pytest.param("", {}, id="empty"),
    # Tutorial voice opens the answer itself: clean (see the module docstring).
    pytest.param("Let me explain: a list is mutable.", {}, id="let_me_explain_colon"),
    pytest.param("Let's start with the basics. A list is mutable.", {}, id="lets_start_with"),
    pytest.param("Let me walk you through the setup.", {}, id="walk_you_through"),
    pytest.param("Let me know if you need more.", {}, id="let_me_know"),
    pytest.param("I checked the logs and the error is a missing variable.", {}, id="past_check"),
    pytest.param("I'll need a bit more detail. Which version?", {}, id="need_more_detail"),
    pytest.param("Checking tire pressure monthly extends tire life.", {}, id="gerund_subject_2"),
    pytest.param("Reviewing your code, I found three issues.", {}, id="participle_clause"),
    pytest.param("> Let me check the logs.\n\nThat line is from the runbook.", {}, id="blockquote"),
    pytest.param("- Let me check\n- I'll search", {}, id="bullet_list"),
    pytest.param("确认一下：明天是周五。", {}, id="zh_no_first_person"),
    pytest.param("我查了一下，明天上海会下雨。", {}, id="zh_past_check_is_the_answer"),
    pytest.param("我看了一下你的代码，问题在第三行。", {}, id="zh_looked_is_the_answer"),
    pytest.param("我来解释一下这个概念：闭包就是函数加环境。", {}, id="zh_explain"),
    pytest.param("首先，我们需要检查配置文件。", {}, id="zh_we_need_to_check"),
    pytest.param("확인해 보니 해당 일정은 3월 5일입니다.", {}, id="ko_checked_is_the_answer"),
    pytest.param(
        "말씀하신 내용을 정리해 드리면 다음과 같습니다: 첫째, 일정이 바뀌었습니다.",
        {},
        id="ko_summary_offer_is_the_answer",
    ),
    pytest.param("찾아보니 서울의 인구는 약 940만 명입니다.", {}, id="ko_found_is_the_answer"),
    pytest.param("자세한 내용은 공식 문서에서 확인해 보세요.", {}, id="ko_imperative"),
    pytest.param("먼저 기본 개념을 살펴보겠습니다. 클로저는…", {}, id="ko_tutorial_first"),
    pytest.param("確認したところ、在庫はあります。", {}, id="ja_checked_is_the_answer"),
    pytest.param("まず、環境を確認しましょう。", {}, id="ja_lets_check_tutorial"),
    pytest.param("ご確認ください。", {}, id="ja_please_check"),
    pytest.param("Looking good! Your code works.", {}, id="looking_good"),
    pytest.param("Let me review the basics: a list is mutable.", {}, id="review_the_basics"),
    pytest.param("ログインされています。", {}, id="ja_te_imasu_answer"),
]


@pytest.mark.parametrize(("opening", "language"), POSITIVES)
def test_positive(detect, opening, language):
    text = f"{opening}\n\n{ANSWERS[language]}"
    (finding,) = detect(DETECTOR, text)
    assert finding.label == "preamble"
    assert finding.details["language"] == language
    assert finding.layer == "model"
    assert finding.remediation == "strip"
    start, end = finding.span
    assert text[start:end].strip() == finding.details["sentence"]
    assert text[:start].strip() == ""


@pytest.mark.parametrize(("text", "kwargs"), NEGATIVES)
def test_negative(detect, text, kwargs):
    assert detect(DETECTOR, text, **kwargs) == []


# A progress sentence with nothing after it is the whole reply, not a preamble before one.
NOTHING_FOLLOWS = [
    pytest.param("Let me check that.", id="let_me_check"),
    pytest.param("Let me check that.\n\n", id="let_me_check_newlines"),
    pytest.param("  Let me take a quick look at the logs. \n", id="whitespace_around"),
    pytest.param("I'll search for the current weather in Paris.\r\n", id="ill_search_crlf"),
    pytest.param("Sure! Let me look this up for you.", id="after_a_lead_in"),
    pytest.param("Hi! Thanks for waiting. Let me check that for you.\n", id="two_lead_ins"),
    pytest.param("One moment, please.\n\n", id="one_moment"),
    pytest.param("Checking the forecast now…\n", id="gerund_ellipsis"),
    pytest.param("Let me check that. 🙂", id="only_an_emoji_after"),
    pytest.param("잠시만요, 확인해 보겠습니다.", id="ko_wait_check"),
    pytest.param("네, 검색해 볼게요.\n\n", id="ko_lead_in"),
    pytest.param("계산해 보겠습니다\n", id="ko_no_period"),
    pytest.param("我先查一下。", id="zh_check_first"),
    pytest.param("好的，我来帮你查一下。\n\n", id="zh_lead_in"),
    pytest.param("让我搜索一下最新的信息！\n", id="zh_exclamation"),
    pytest.param("少々お待ちください。\n", id="ja_please_wait"),
]


@pytest.mark.parametrize("text", NOTHING_FOLLOWS)
def test_nothing_after_the_opening_is_not_a_preamble(detect, text):
    assert not precedes_answer(text)
    assert detect(DETECTOR, text) == []


# The shared gate on its own: can the opening sentence be a preamble?
GATE = [
    pytest.param("Let me check that.\n\nThe answer is 42.", True, id="answer_after"),
    pytest.param("Let me check that. The answer is 42.", True, id="same_line"),
    pytest.param("Sure! Let me check. 42.", True, id="lead_in_then_answer"),
    pytest.param("Checking that now... The answer is 42.", True, id="ellipsis_ends"),
    pytest.param("Let me check.\n\n```py\nx = 1\n```", True, id="code_after"),
    pytest.param("확인해 보겠습니다.결과는 42입니다.", True, id="ko_period_then_hangul"),
    pytest.param("확인해 볼게요\n결과는 42입니다", True, id="ko_newline_ends"),
    pytest.param("我先查一下。答案是42。", True, id="zh_full_stop"),
    pytest.param("我查一下！答案是42。", True, id="zh_exclamation_then_more"),
    # an announcement followed only by a wait or a closing courtesy is stalled_turn (issue 34
    # round 2: "我查一下！稍等。" was True in round 1)
    pytest.param("我查一下！稍等。", False, id="zh_exclamation_then_wait"),
    pytest.param("Let me check the tide times. Be right back!", False, id="en_then_closing"),
    pytest.param(
        "목포 배 시간표를 검색해 보겠습니다. 곧 알려드릴게요.", False, id="ko_then_closing"
    ),
    pytest.param("Let me check. Be right back! It is 42.", True, id="en_closing_then_answer"),
    pytest.param("Sure.", False, id="sure"),
    pytest.param("Sure.\n\n", False, id="sure_newlines"),
    pytest.param("Hello there.\n", False, id="hello_there"),
    pytest.param("Hello! How can I help?\n\n", False, id="greeting_question"),
    pytest.param("Want me to look it up? I can.", False, id="question_back"),
    pytest.param("Pros:\n- cheap\n- light", False, id="introduces_a_list"),
    pytest.param("步骤如下：\n1. 打开设置。", False, id="zh_introduces_a_list"),
    pytest.param("Let me check: 42", False, id="one_sentence_with_colon"),
    pytest.param("", False, id="empty"),
    pytest.param(" \n\t", False, id="whitespace_only"),
]


@pytest.mark.parametrize(("text", "expected"), GATE)
def test_gate(text, expected):
    assert precedes_answer(text) is expected
    assert precedes_answer("\n " + text + " \n\n") is expected


def test_span_is_the_opening_sentence(detect):
    text = "Let me check that. The answer is 4."
    (finding,) = detect(DETECTOR, text)
    assert text[finding.span[0] : finding.span[1]] == "Let me check that."


def test_rendered_responses_commentary_points_at_api(detect):
    commentary = "I'll look up the latest figures first."
    (finding,) = detect(
        DETECTOR,
        commentary + "\nGDP grew 2%.",
        api="responses",
        commentary=commentary,
        renders_phases=True,
    )
    assert finding.layer == "api"


def test_heuristic_confidence_is_below_rules(detect):
    (finding,) = detect(DETECTOR, "Let me check that.\n\nIt is 4.")
    assert finding.source == "heuristic"
    assert finding.confidence < 0.9
