"""Phrase banks for the turn-level classes of the invented-shape generator (issue 34),
written for it in English, Korean and Chinese.

A stalled reply is built from an opener, one announcement and a tail, so a seed draws its
own combinations: announcements name what would be searched, looked up, run or computed, in
this turn, and some defer ("…and get back to you"). A runaway turn is built from a role pair
(the role words that chat templates and base-model prompt formats use) and a way of writing
the header, drawn per seed.
"""

from __future__ import annotations

from typing import NamedTuple


class Act(NamedTuple):
    """One announcement. ``{obj}`` is what is looked into, ``{tool}`` a declared tool's name;
    ``deferred`` says it promises a later answer ("get back to you") rather than work now."""

    text: str
    tool: bool
    deferred: bool


# What a stalled reply says it will do. Korean objects carry their particle (``…를``).
ACTS: dict[str, tuple[Act, ...]] = {
    "en": (
        Act("I'll search for {obj} now.", False, False),
        Act("I'll look into {obj} and get back to you.", False, True),
        Act("let me check {obj} for you.", False, False),
        Act("I'm going to run {tool} to find out.", True, False),
        Act("I will look up {obj} right away.", False, False),
        Act("let me pull up {obj}.", False, False),
        Act("I'll call {tool} and report back with what it returns.", True, True),
        Act("checking {obj} now...", False, False),
        Act("I'll query {obj} and get back to you with the results.", False, True),
        Act("I'll get back to you with my findings.", False, True),
        Act("I'm searching for {obj} now. This will only take a moment.", False, False),
        Act("I'll read through {obj} and let you know what I find.", False, True),
        Act("give me a second while I look up {obj}.", False, False),
        Act("I'll use {tool} to fetch {obj}.", True, False),
        Act("I'll work that out for you now.", False, False),
    ),
    "ko": (
        Act("{obj} 검색해 보겠습니다.", False, False),
        Act("{obj} 확인 후 알려드리겠습니다.", False, True),
        Act("{obj} 바로 찾아볼게요.", False, False),
        Act("{tool} 도구로 조회해 보겠습니다.", True, False),
        Act("{obj} 살펴보고 다시 말씀드릴게요.", False, True),
        Act("지금 {obj} 확인하고 있습니다.", False, False),
        Act("{obj} 조회해 드릴게요.", False, False),
        Act("확인 후 알려드리겠습니다.", False, True),
        Act("관련 검색을 진행하겠습니다.", False, False),
        Act("{tool} 도구를 실행해서 알아보겠습니다.", True, False),
        Act("{obj} 찾아보고 결과를 정리해서 알려드릴게요.", False, True),
        Act("바로 계산해 보겠습니다.", False, False),
    ),
    "zh": (
        Act("我将进行相关搜索。", False, False),
        Act("我这就去查{obj}。", False, False),
        Act("我先查一下{obj}，稍后回复您。", False, True),
        Act("让我调用{tool}看看。", True, False),
        Act("我来帮你查一下{obj}。", False, False),
        Act("正在为您查询{obj}……", False, False),
        Act("我去看看{obj}，然后告诉你结果。", False, True),
        Act("我会搜索{obj}，并尽快回复你。", False, True),
        Act("我马上运行{tool}查询。", True, False),
        Act("我先检索一下{obj}，请稍候。", False, False),
        Act("我来算一下。", False, False),
    ),
}

OPENERS: dict[str, tuple[str, ...]] = {
    "en": ("", "", "Sure! ", "Sure, ", "Okay, ", "Got it. ", "Good question. ", "Please wait, ",
           "One moment, ", "Thanks! ", "No problem. ", "Absolutely. ", "Hold on, "),
    "ko": ("", "", "네, ", "알겠습니다. ", "잠시만 기다려 주세요. ", "좋은 질문이에요! ", "네 알겠어요! ",
           "잠시만요, ", "물론이죠. "),
    "zh": ("", "", "好的，", "请稍等，", "稍等一下，", "没问题！", "收到。", "明白了，", "好问题！"),
}  # fmt: skip

TAILS: dict[str, tuple[str, ...]] = {
    "en": ("", "", "", " One moment.", " Please bear with me.", " Be right back!",
           " This may take a few seconds."),
    "ko": ("", "", " 잠시만요!", " 조금만 기다려 주세요.", " 곧 알려드릴게요."),
    "zh": ("", "", "请稍候。", "马上就好。", "很快给你答复。"),
}  # fmt: skip

# What a domain's announcement looks into (keyed by the domain's first noun).
DOMAIN_OBJECTS: dict[str, dict[str, str]] = {
    "tide_table": {"en": "the tide times for Busan", "ko": "부산 물때를", "zh": "釜山的潮汐时间"},
    "parcel_status": {"en": "your parcel's tracking status", "ko": "택배 배송 현황을", "zh": "你的快递状态"},
    "pollen_level": {"en": "the pollen forecast for Seoul", "ko": "서울 꽃가루 예보를", "zh": "首尔的花粉预报"},
    "ferry_schedule": {"en": "the Mokpo–Jeju ferry timetable", "ko": "목포–제주 배 시간표를",
                       "zh": "木浦到济州的轮渡时刻"},
    "gym_slots": {"en": "Saturday's spin class bookings", "ko": "토요일 스피닝 수업 예약 현황을",
                  "zh": "周六动感单车课的预约情况"},
    "book_availability": {"en": "the library catalogue", "ko": "도서관 소장 정보를", "zh": "图书馆的馆藏信息"},
    "exchange_rate": {"en": "the current USD/KRW rate", "ko": "현재 달러 환율을", "zh": "当前的美元兑韩元汇率"},
    "air_quality": {"en": "today's air quality in Beijing", "ko": "오늘 베이징 대기질을", "zh": "北京今天的空气质量"},
    "parking_spaces": {"en": "car park P3's free spaces", "ko": "P3 주차장 빈자리를", "zh": "P3停车场的空位"},
    "nutrition_facts": {"en": "the nutrition data for bananas", "ko": "바나나 영양 정보를", "zh": "香蕉的营养数据"},
    "train_seats": {"en": "seats on the Seoul–Busan trains", "ko": "서울–부산 열차 좌석을",
                    "zh": "首尔到釜山的火车余票"},
    "free_rooms": {"en": "the room bookings for floor 4", "ko": "4층 회의실 예약 현황을", "zh": "4楼会议室的预订情况"},
}  # fmt: skip

# What an announcement looks into when the question is an ordinary one.
GENERIC_OBJECTS: dict[str, tuple[str, ...]] = {
    "en": ("that", "this", "the details", "the latest information", "a few sources"),
    "ko": ("관련 내용을", "자료를", "최신 정보를", "그 부분을"),
    "zh": ("相关资料", "最新的信息", "这个问题", "具体情况"),
}

# Requests that a coding or ops agent answers by looking at something (no tools logged).
AGENT_REQUESTS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("Why did last night's deploy fail?", "the deploy logs"),
           ("Where do we set the session timeout in this repo?", "the config files"),
           ("Can you find out why the tests are flaky?", "the test logs"),
           ("What's using all the disk space on the build server?", "the disk usage")),
    "ko": (("어제 배포가 왜 실패했어?", "배포 로그를"),
           ("이 저장소에서 세션 타임아웃 어디서 설정해?", "설정 파일을"),
           ("테스트가 가끔 실패하는 이유 찾아줘.", "테스트 로그를")),
    "zh": (("昨晚的部署为什么失败了？", "部署日志"),
           ("这个仓库里会话超时在哪里配置？", "配置文件"),
           ("帮我看看测试为什么时好时坏。", "测试日志")),
}  # fmt: skip

# Role pairs (user side, assistant side) that templates and base-model formats write.
ROLE_PAIRS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("Human", "Assistant"), ("User", "Assistant"), ("User", "Bot"), ("User", "Model"),
           ("Instruction", "Response"), ("Human", "Bot"), ("USER", "ASSISTANT"), ("HUMAN", "ASSISTANT"),
           ("GPT4 Correct User", "GPT4 Correct Assistant"), ("user", "assistant")),
    "ko": (("사용자", "어시스턴트"), ("사용자", "챗봇"), ("유저", "봇"), ("인간", "도우미"), ("명령어", "응답"),
           ("사용자", "모델")),
    "zh": (("用户", "助手"), ("人类", "助手"), ("用户", "机器人"), ("指令", "回答"), ("用户", "模型")),
}  # fmt: skip

# The role words a chat template writes alone on a line once its special tokens are stripped.
STRIPPED_PAIRS = (("user", "assistant"), ("user", "model"))

# How a header is written: ``{r}`` the role, ``{c}`` the colon (ASCII or full width).
HEADER_STYLES = ("{r}{c} ", "{r}{c}\n", "### {r}{c} ", "### {r}{c}\n", "**{r}{c}** ", "{r} {c} ")

# Short follow-ups the runaway model writes for the user, with its own reply to them.
FOLLOW_UPS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("Thanks, that helps!", "You're welcome! Let me know if there's anything else."),
           ("ok thanks", "Glad I could help."),
           ("Can you say that more simply?", "Sure. In short: yes, with the caveats above."),
           ("What about in winter?", "In winter the same advice holds, just allow a little more time.")),
    "ko": (("고마워요!", "천만에요. 더 궁금한 점 있으면 말씀해 주세요."),
           ("좀 더 짧게 말해 줄래?", "네, 한 줄로 줄이면 위 내용 그대로입니다."),
           ("알겠어요, 감사합니다.", "도움이 되었다니 다행이에요!")),
    "zh": (("谢谢！", "不客气，还有问题随时问我。"),
           ("明白了，谢谢。", "很高兴能帮到你！"),
           ("能再简单点说吗？", "当然，简单来说就是上面那样。")),
}  # fmt: skip
