"""preamble_cues: the answer opens with an interim progress sentence (en / ko / zh / ja)."""

from __future__ import annotations

import pytest

DETECTOR = "preamble_cues"

POSITIVES = [
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
]

NEGATIVES = [
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
]


@pytest.mark.parametrize(("text", "language"), POSITIVES)
def test_positive(detect, text, language):
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
    (finding,) = detect(DETECTOR, "Let me check that.")
    assert finding.source == "heuristic"
    assert finding.confidence < 0.9
