"""stalled_turn: the reply only announces an action for this turn and ends (no call, no
answer). Positives and hard look-alikes, en/ko/zh, written before the cue tables."""

from __future__ import annotations

from dataclasses import replace

import pytest

from leakline.detectors.exchange import Turn

DETECTOR = "stalled_turn"
TOOLS = {"web_search": None}

POSITIVES = [
    pytest.param("Please wait, I'll search for that now.", id="en_wait_search"),
    pytest.param("I'll get back to you with my findings.", id="en_get_back"),
    pytest.param("Let me look that up for you.", id="en_let_me_look_up"),
    pytest.param("Sure! I'll check the latest exchange rates.", id="en_sure_check"),
    pytest.param("Okay, I will run the tests and report back.", id="en_run_tests"),
    pytest.param("I'm going to read the config file first.", id="en_going_to_read"),
    pytest.param("One moment while I search the knowledge base.", id="en_one_moment"),
    pytest.param(
        "Got it. I'll call the weather API to get the forecast for Seoul.", id="en_call_api"
    ),
    pytest.param("Let me compute that for you.\n", id="en_compute_trailing_newline"),
    pytest.param(
        "I'll search the web for recent reviews. This may take a moment.", id="en_two_sentences"
    ),
    pytest.param("Searching for flights now...", id="en_gerund_now"),
    pytest.param("I will look into this and get back to you shortly.", id="en_look_into"),
    pytest.param("확인 후 알려드리겠습니다.", id="ko_check_then_tell"),
    pytest.param("잠시만 기다려 주세요. 최신 환율을 검색하겠습니다.", id="ko_wait_search"),
    pytest.param("네, 바로 조회해 보겠습니다.", id="ko_lookup"),
    pytest.param("관련 자료를 찾아볼게요.", id="ko_find_materials"),
    pytest.param("알겠습니다. 테스트를 실행해 보고 결과를 알려드릴게요.", id="ko_run_tests"),
    pytest.param("지금 검색 중입니다. 잠시만 기다려 주세요.", id="ko_searching_now"),
    pytest.param("请稍等，我将进行相关搜索。", id="zh_wait_search"),
    pytest.param("好的，我先查一下。", id="zh_check_first"),
    pytest.param("我这就去查询最新的汇率，稍后告诉你。", id="zh_query_later"),
    pytest.param("让我搜索一下相关资料。", id="zh_let_me_search"),
    pytest.param("正在为您查询航班信息，请稍候。", id="zh_querying"),
    pytest.param("我会调用天气工具来获取数据。", id="zh_call_tool"),
    pytest.param("Let me think about that and get back to you.", id="en_get_back_after_and"),
    pytest.param("지금 찾아보는 중이에요.", id="ko_looking_now"),
    pytest.param("데이터를 불러오겠습니다.", id="ko_load_data"),
    # round 2: every sentence announces, waits or closes (a courtesy promising the result)
    pytest.param("Let me check the train times for you. Be right back!", id="en_be_right_back"),
    pytest.param("Great question! I'll look into the shipping rules.", id="en_great_question"),
    pytest.param("I'll look it up now. This will only take a minute.", id="en_only_take_a_minute"),
    pytest.param("Hold on, fetching the numbers now...", id="en_wait_then_gerund"),
    pytest.param("Okay. I'll use lookup_flights to find a seat.", id="en_use_tool_to"),
    pytest.param("좋은 질문이네요! 환율을 조회해 드릴게요.", id="ko_good_question"),
    pytest.param("네 알겠습니다! 관련 자료 검색을 진행하겠습니다.", id="ko_proceed_search"),
    pytest.param("일정표를 확인해 볼게요. 금방 알려 드릴게요.", id="ko_soon_tell"),
    pytest.param("好问题！我这就去查航班信息。", id="zh_good_question"),
    pytest.param("我来算一下。马上就好。", id="zh_right_away_done"),
    pytest.param("我会检索一下资料，尽快回复您。稍后给你答复。", id="zh_reply_soon"),
    pytest.param("好的，我先查一下一下周六的场地预约。", id="zh_yixia_is_not_next_week"),
]

# (text, prompt, finish, has a structured call)
LOOKALIKES = [
    # round 2: a past-tense report of work done, with its result, is an answer
    pytest.param(
        "我已经查过了，明天晴，最高25度。", "明天天气怎么样？", "stop", False, id="zh_done"
    ),
    pytest.param("我查了一下，航班准点。", "航班准点吗？", "stop", False, id="zh_done_le"),
    pytest.param(
        "I checked the logs: the job failed on a missing key.", "", "stop", False, id="en_done"
    ),
    pytest.param("확인해 봤는데, 3시에 출발합니다.", "", "stop", False, id="ko_done"),
    # a confirmation the user asked for
    pytest.param(
        "Sure, I'll send it at 5 pm.",
        "Send the report at 5 pm, ok?",
        "stop",
        False,
        id="en_confirmation",
    ),
    pytest.param(
        "Okay, I'll check it tomorrow morning.",
        "Remind me: can you check the logs tomorrow?",
        "stop",
        False,
        id="en_confirmation_tomorrow",
    ),
    pytest.param(
        "네, 5시에 보내드리겠습니다.", "5시에 보내줘", "stop", False, id="ko_confirmation"
    ),
    pytest.param("好的，我下午五点发给你。", "下午五点发给我", "stop", False, id="zh_confirmation"),
    # a question back to the user
    pytest.param("Shall I search for it?", "", "stop", False, id="en_question_back"),
    pytest.param("Do you want me to look that up?", "", "stop", False, id="en_offer_question"),
    pytest.param("검색해 드릴까요?", "", "stop", False, id="ko_question_back"),
    pytest.param("제가 찾아볼까요", "", "stop", False, id="ko_question_no_mark"),
    pytest.param("需要我帮你查一下吗？", "", "stop", False, id="zh_question_back"),
    # a plan the user asked for, not to be run yet
    pytest.param(
        "First I'll read the logs, then I'll check the config, then I'll run the tests.",
        "What would you do to debug this? Just outline the plan, don't run anything.",
        "stop",
        False,
        id="en_plan_asked",
    ),
    pytest.param(
        "먼저 로그를 확인하고, 그다음 설정을 검토하겠습니다.",
        "어떻게 할지 계획만 알려줘",
        "stop",
        False,
        id="ko_plan_asked",
    ),
    pytest.param(
        "我会先查日志，然后检查配置。",
        "你打算怎么排查？先说计划。",
        "stop",
        False,
        id="zh_plan_asked",
    ),
    # an answer that opens with "I'll be honest"
    pytest.param(
        "I'll be honest: the second option is cheaper and just as fast.",
        "",
        "stop",
        False,
        id="en_be_honest",
    ),
    # a reply with a structured call
    pytest.param("I'll search for that now.", "", "tool_calls", True, id="en_with_call"),
    pytest.param("검색하겠습니다.", "", "tool_calls", True, id="ko_with_call"),
    # a truncated reply
    pytest.param("I'll search for that now.", "", "length", False, id="en_truncated"),
    # text the user asked to have written in the first person
    pytest.param(
        "Hi team, I'll look into the outage and get back to you by noon.",
        "Write a short message to my team saying I'm investigating the outage.",
        "stop",
        False,
        id="en_first_person_asked",
    ),
    pytest.param(
        "안녕하세요, 확인 후 다시 연락드리겠습니다.",
        "고객에게 보낼 답장을 써 줘",
        "stop",
        False,
        id="ko_first_person_asked",
    ),
    pytest.param(
        "您好，我会尽快查询后回复您。",
        "帮我写一封回复客户的邮件",
        "stop",
        False,
        id="zh_first_person_asked",
    ),
    # a progress sentence followed by an answer (that is preamble)
    pytest.param(
        "Let me check. The rate today is 1,350 won per dollar.",
        "",
        "stop",
        False,
        id="en_preamble_then_answer",
    ),
    pytest.param(
        "확인해 보겠습니다. 오늘 환율은 1,350원입니다.",
        "",
        "stop",
        False,
        id="ko_preamble_then_answer",
    ),
    pytest.param("我先查一下。今天的汇率是 7.1。", "", "stop", False, id="zh_preamble_then_answer"),
    # ordinary answers that use the same verbs
    pytest.param(
        "To search a file, use grep -r pattern dir.", "", "stop", False, id="en_howto_search"
    ),
    pytest.param(
        "I'll explain how caching works: a cache stores recent results.",
        "",
        "stop",
        False,
        id="en_explain_with_colon",
    ),
    pytest.param(
        "You can check the status with `systemctl status nginx`.",
        "",
        "stop",
        False,
        id="en_you_can_check",
    ),
    pytest.param("Let me know if you need anything else!", "", "stop", False, id="en_let_me_know"),
    pytest.param(
        "`I'll search for that now.` is what the bot replied.", "", "stop", False, id="en_in_code"
    ),
    pytest.param(
        "검색 결과는 다음과 같습니다. 서울은 맑음입니다.", "", "stop", False, id="ko_answer"
    ),
    pytest.param("查询结果：北京今天晴。", "", "stop", False, id="zh_answer"),
    pytest.param("I will run the marathon next year.", "", "stop", False, id="en_next_year"),
    pytest.param("I'll check in on Friday.", "", "stop", False, id="en_check_in_friday"),
]


def _exchange(make_exchange, text, prompt="", finish="stop", call=False, tools=None, history=()):
    calls = [("web_search", "{}")] if call else []
    ex = make_exchange(text, prompt=prompt, finish=finish, calls=calls, tools=tools)
    return replace(ex, history=history)


def _run(exchange):
    from leakline.detectors.base import get_detector

    return get_detector(DETECTOR).detect(exchange)


@pytest.mark.parametrize("text", POSITIVES)
def test_fires(make_exchange, text: str) -> None:
    found = _run(_exchange(make_exchange, text))
    assert [f.label for f in found] == ["stalled_turn"]
    assert found[0].details["language"] in ("en", "ko", "zh")


@pytest.mark.parametrize(("text", "prompt", "finish", "call"), LOOKALIKES)
def test_look_alikes_stay_clean(make_exchange, text, prompt, finish, call) -> None:
    assert _run(_exchange(make_exchange, text, prompt, finish, call)) == []


def test_enough_cases_per_side() -> None:
    assert len(POSITIVES) >= 20 and len(LOOKALIKES) >= 20


def test_tools_and_tool_turns_raise_the_confidence(make_exchange) -> None:
    text = "I'll search for that now."
    bare = _run(_exchange(make_exchange, text))[0]
    declared = _run(_exchange(make_exchange, text, tools=TOOLS))[0]
    agent = _run(_exchange(make_exchange, text, history=(Turn("user"), Turn("tool"))))[0]
    both = _run(_exchange(make_exchange, text, tools=TOOLS, history=(Turn("tool"),)))[0]
    assert bare.confidence < declared.confidence <= both.confidence
    assert bare.confidence < agent.confidence <= both.confidence
    assert declared.details["tools_declared"] is True and bare.details["tools_declared"] is False
    assert agent.details["tool_turns"] == 1


def test_a_preamble_reply_is_not_stalled_but_preamble(make_exchange) -> None:
    from leakline.detectors import run_detectors

    ex = _exchange(make_exchange, "Let me check that. The store opens at 9 am.")
    labels = {f.label for f in run_detectors(ex).findings}
    assert "stalled_turn" not in labels and "preamble" in labels
