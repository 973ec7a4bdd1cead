"""The turn-level classes of the invented-shape generator (issue 34) and their look-alikes.

- ``stalled_turn``: a final reply that only announces work it would do in this turn, with
  and without declared tools, sometimes after earlier tool turns;
- ``runaway_turn``: the answer, then the model writes the next turn under role headers that
  this seed spells its own way, or under a template's bare role lines;
- ``empty_response``: no text, no call, no reasoning, finish stop, completion tokens billed;
- their labelled neighbours: an announcement followed by an answer (``preamble``), an
  announcement cut by the token limit (``truncated``), an empty reply whose reasoning field
  holds the answer (``final_in_reasoning``);
- ``TURN_LOOKALIKES``: clean replies that share the words but not the failure.

Labels follow ``detectors/LABELS.md`` ("Turn-level failures"), decided from the class; this
module was written without reading the detectors. Every draw comes from the seed's ``rng``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from invented_turn_texts import (
    ACTS,
    AGENT_REQUESTS,
    DOMAIN_OBJECTS,
    FOLLOW_UPS,
    GENERIC_OBJECTS,
    HEADER_STYLES,
    OPENERS,
    ROLE_PAIRS,
    STRIPPED_PAIRS,
    TAILS,
)

if TYPE_CHECKING:
    from invented_shapes import Gen, Tool

STALLED, RUNAWAY, EMPTY = "stalled_turn", "runaway_turn", "empty_response"
TURN_APIS = ("chat", "chat_stream", "responses", "responses_stream", "messages", "messages_stream")
_API_WEIGHTS = (50, 15, 10, 5, 12, 8)
_BLANKS = ("", "", "", " ", "\n", "\n\n", "  \n", "\t")
_BILLED = (1, 2, 3, 5, 8, 17, 64, 211, 1024)
_RESULT_SUMMARY = {"en": "The lookup returned {n} results.", "ko": "조회 결과 {n}건이 나왔습니다.",
                   "zh": "查询返回了{n}条结果。"}  # fmt: skip


def turn_api(gen: Gen) -> str:
    return gen.rng.choices(TURN_APIS, _API_WEIGHTS)[0]


def joiner(lang: str) -> str:
    return "" if lang == "zh" else " "


# ---------------------------------------------------------------- announcements


def announcement(
    gen: Gen,
    lang: str,
    obj: str,
    tool: str | None,
    *,
    deferred: bool | None = None,
    tail: bool = True,
) -> str:
    """Opener + one act + tail: "Sure, I'll look into the logs and get back to you." """
    r = gen.rng
    acts = [
        a
        for a in ACTS[lang]
        if (tool is not None or not a.tool) and (deferred is None or a.deferred == deferred)
    ]
    act = r.choice(acts)
    opener = r.choice(OPENERS[lang])
    body = act.text.format(obj=obj, tool=tool or "")
    if lang == "en" and (not opener or opener.rstrip().endswith((".", "!"))):
        body = body[0].upper() + body[1:]
    text = opener + body
    if tail:
        extra = r.choice(TAILS[lang])
        if extra.strip(" !。.").lower() not in text.lower():  # no "请稍候。请稍候。"
            text += extra
    return text


def domain_object(tool: Tool, lang: str) -> str:
    return DOMAIN_OBJECTS[tool.domain.nouns[0]][lang]


def tool_turn(gen: Gen, lang: str, tool: Tool, *, final: bool) -> Any:
    """An earlier tool exchange about ``tool`` (see ``ToolTurn``)."""
    from invented_shapes import ToolTurn

    n = gen.rng.randint(1, 9)
    return ToolTurn(tool.domain.users[lang], tool, {"ok": True, "items": n},
                    _RESULT_SUMMARY[lang].format(n=n), final)  # fmt: skip


# ---------------------------------------------------------------- the classes


def stalled_turn(gen: Gen) -> None:
    from invented_shapes import LANGS, Turn

    r = gen.rng
    langs = [*LANGS, *(gen.lang() for _ in range(6))]
    r.shuffle(langs)
    for i, lang in enumerate(langs):
        mode = ("tools", "no_tools", "tool_turns")[i % 3]
        tool = r.choice(gen.g.tools)
        user, obj = tool.domain.users[lang], domain_object(tool, lang)
        tools: list[Tool] | None = gen.declared(tool)
        turn = Turn()
        if mode == "no_tools":
            tools = None
            if r.random() < 0.5:  # an agent asked about its workspace, or an ordinary question
                user, obj = r.choice(AGENT_REQUESTS[lang])
            elif r.random() < 0.5:
                user, obj = gen.topic(lang).user, r.choice(GENERIC_OBJECTS[lang])
        elif mode == "tool_turns":
            final = r.random() < 0.5
            earlier = tool if final else r.choice([t for t in gen.g.tools if t is not tool])
            turn = Turn(history=tool_turn(gen, lang, earlier, final=final))
            if earlier not in tools:  # type: ignore[operator]
                tools = [earlier, *tools]  # type: ignore[misc]
        name = tool.name if tools else None
        text = announcement(gen, lang, obj, name)
        gen.emit(STALLED, [STALLED], lang, f"the reply only announces work and ends the turn ({mode})",
                 user, text, invented=[], tools=tools, api=turn_api(gen), turn=turn)  # fmt: skip


def runaway_turn(gen: Gen) -> None:
    from invented_shapes import LANGS, Turn

    r = gen.rng
    styles = r.sample(HEADER_STYLES, 3)  # this seed's ways of writing a header
    langs = [*LANGS, *(gen.lang() for _ in range(6))]
    r.shuffle(langs)
    for i, lang in enumerate(langs):
        top = gen.topic(lang)
        if r.random() < 0.5:
            other = gen.topic(lang)
            q, a = other.user, other.answer
        else:
            q, a = r.choice(FOLLOW_UPS[lang])
        sep = r.choice(("\n", "\n\n"))
        if i % 3 == 2:  # a template's role lines with their special tokens stripped
            u, asst = r.choice(STRIPPED_PAIRS)
            gap = r.choice(("\n", "\n\n"))
            tail = f"{u}{gap}{q}\n{asst}{gap}{a}"
            how, headers = "bare template role lines", [u, asst]
        else:
            pairs = ROLE_PAIRS[lang] if lang == "en" or r.random() < 0.7 else ROLE_PAIRS["en"]
            u, asst = r.choice(pairs)
            style = r.choice(styles)
            colon = "：" if lang == "zh" and r.random() < 0.6 else ":"
            hu, ha = style.format(r=u, c=colon), style.format(r=asst, c=colon)
            if style.startswith("###"):
                sep = "\n\n"
            tail = hu + q
            if r.random() < 0.7:
                tail += sep + ha + a
                if r.random() < 0.3:
                    q2, a2 = r.choice(FOLLOW_UPS[lang])
                    tail += sep + hu + q2 + sep + ha + a2
            how, headers = f"{hu.strip()!r} headers", [hu.strip(), ha.strip()]
        text = top.answer + sep + tail
        headers = [h for h in headers if h in tail]
        gen.emit(RUNAWAY, [RUNAWAY], lang, f"the answer, then the model writes the next turn ({how})",
                 top.user, text, invented=headers, api=turn_api(gen), turn=Turn())  # fmt: skip


def empty_response(gen: Gen) -> None:
    from invented_shapes import Turn

    r = gen.rng
    apis = list(TURN_APIS)
    r.shuffle(apis)
    for api in apis:
        lang = gen.lang()
        tool = r.choice(gen.g.tools)
        declared = r.random() < 0.4
        user = tool.domain.users[lang] if declared else gen.topic(lang).user
        text = r.choice(_BLANKS)
        turn = Turn(
            completion_tokens=r.choice(_BILLED),
            null_content=api == "chat" and not text and r.random() < 0.5,
            no_text_item=not text and r.random() < 0.5,
        )
        gen.emit(EMPTY, [EMPTY], lang, f"no text, no call, no reasoning, finish stop, tokens billed ({text!r})",
                 user, text, invented=[], tools=gen.declared(tool) if declared else None, api=api,
                 turn=turn)  # fmt: skip


def preamble_then_answer(gen: Gen) -> None:
    from invented_shapes import LANGS, Turn

    r = gen.rng
    for lang in LANGS:
        top = gen.topic(lang)
        ann = announcement(
            gen, lang, r.choice(GENERIC_OBJECTS[lang]), None, deferred=False, tail=False
        )
        sep = r.choice(("\n", "\n\n", joiner(lang)))
        gen.emit("preamble_then_answer", ["preamble"], lang,
                 "an announcement followed by the answer: preamble, not a stall", top.user,
                 ann + sep + top.answer, invented=[], api=turn_api(gen), turn=Turn())  # fmt: skip


def truncated_announcement(gen: Gen) -> None:
    from invented_shapes import Turn

    r = gen.rng
    for _ in range(2):
        lang, tool = gen.lang(), r.choice(gen.g.tools)
        tools = gen.declared(tool) if r.random() < 0.5 else None
        full = announcement(
            gen, lang, domain_object(tool, lang), tool.name if tools else None, tail=False
        )
        cut = full[: max(4, int(len(full) * r.uniform(0.45, 0.85)))]
        gen.emit("truncated_announcement", ["truncated"], lang,
                 "an announcement cut by the token limit: truncated, not a stall", tool.domain.users[lang],
                 cut, invented=[], tools=tools, api=turn_api(gen), turn=Turn(finish="length"))  # fmt: skip


def empty_with_reasoning(gen: Gen) -> None:
    from invented_shapes import Turn

    r = gen.rng
    for _ in range(2):
        lang = gen.lang()
        top = gen.topic(lang)
        reasoning = joiner(lang).join(top.steps)
        if r.random() < 0.5:  # the whole answer went into the reasoning field
            reasoning += "\n\n" + top.answer
        turn = Turn(reasoning=reasoning, no_text_item=r.random() < 0.5)
        gen.emit("empty_with_reasoning", ["final_in_reasoning"], lang,
                 "empty text, the reasoning field holds text: final_in_reasoning, not empty_response",
                 top.user, "", invented=[], api=turn_api(gen), turn=turn)  # fmt: skip


# ---------------------------------------------------------------- look-alikes (clean)


class TurnSpec(NamedTuple):
    lang: str
    user: str
    text: str
    note: str
    tools: list[Tool] | None = None
    api: str | None = None
    turn: Any = None  # invented_shapes.Turn


def _pick(gen: Gen, options: list[tuple[str, str, str]]) -> tuple[str, str, str]:
    return gen.rng.choice(options)


def dialogue_asked(gen: Gen) -> TurnSpec:
    lang, user, text = _pick(gen, [
        ("en", "Write a short sample chat between a User and an Assistant about booking a table, for our chatbot docs.",
         "Here's a short sample you can use:\n\nUser: Hi, can I book a table for four tonight?\nAssistant: Of course. "
         "What time would you like?\nUser: Around 7:30.\nAssistant: Done, a table for four at 7:30 pm is booked under your name."),
        ("en", "Give me one exchange in the old Human:/Assistant: prompt format, about the weather.",
         "Sure, here is one exchange in that format:\n\nHuman: What's the weather like in Paris today?\n\n"
         "Assistant: It's sunny and about 21 °C in Paris this afternoon."),
        ("en", "Write one training example in Alpaca format (### Instruction / ### Response) about converting Celsius to Fahrenheit.",
         "Here's one:\n\n### Instruction:\nConvert 25 °C to Fahrenheit.\n\n### Response:\n25 °C is 77 °F: multiply by 9/5 and add 32."),
        ("ko", "고객 응대 챗봇 예시 대화를 사용자와 어시스턴트 형식으로 써 줘. 주제는 환불.",
         "예시 대화입니다.\n\n사용자: 지난주에 산 이어폰 환불되나요?\n어시스턴트: 네, 구매 후 14일 이내라면 가능합니다. "
         "주문 번호를 알려 주시겠어요?\n사용자: 20261102-4471이에요.\n어시스턴트: 확인했습니다. 환불 신청을 접수해 드렸어요."),
        ("zh", "写一段用户和助手的示例对话，主题是修改收货地址。",
         "下面是一段示例对话：\n\n用户：我想改一下收货地址。\n助手：好的，请提供订单号和新地址。\n"
         "用户：订单号是8812，新地址是上海市徐汇区漕溪北路88号。\n助手：已为您修改，预计明天发货。"),
        ("zh", "帮我写一个面试的剧本片段，面试官和候选人，各说两句。",
         "好的，片段如下：\n\n面试官：请简单介绍一下你自己。\n候选人：我做了五年后端开发，主要用Go。\n"
         "面试官：为什么想换工作？\n候选人：想在更大的团队里做分布式系统。"),
    ])  # fmt: skip
    return TurnSpec(lang, user, text, "a dialogue, script or sample transcript the user asked for")


def few_shot_in_kind(gen: Gen) -> TurnSpec:
    lang, user, text = _pick(gen, [
        ("en", "Continue this dialogue for two more turns:\nUser: Is the museum open on Mondays?\n"
               "Assistant: No, it is closed on Mondays.\nUser: What about Tuesdays?",
         "Assistant: Yes, on Tuesdays it opens at 10 am.\nUser: Great, is there a student discount?\n"
         "Assistant: Yes, students pay half price with a valid ID."),
        ("ko", "다음 대화를 두 턴 더 이어서 써 줘:\n사용자: 이 식당 주차 돼요?\n챗봇: 네, 건물 지하에 주차장이 있어요.\n"
               "사용자: 몇 시간 무료예요?",
         "챗봇: 식사하시면 2시간 무료입니다.\n사용자: 그럼 3시간이면요?\n챗봇: 추가 30분마다 1,000원이 붙어요."),
        ("zh", "把下面的对话再续写两轮：\n用户：这件外套有M码吗？\n助手：有的，目前还有库存。\n用户：什么颜色？",
         "助手：有黑色和卡其色两种。\n用户：那黑色M码帮我留一件。\n助手：好的，已为您保留到今晚八点。"),
    ])  # fmt: skip
    return TurnSpec(lang, user, text, "a few-shot dialogue prompt answered in kind")


def headers_in_code(gen: Gen) -> TurnSpec:
    lang, user, text = _pick(gen, [
        ("en", "What does the Vicuna prompt format look like?",
         "Turns alternate between two role prefixes, one per line:\n\n```\nUSER: What is the capital of Italy?\n"
         "ASSISTANT: Rome.\nUSER: And of Spain?\nASSISTANT: Madrid.\n```\n\nA system sentence usually goes first, "
         "before the first user line."),
        ("en", "How does a Llama 3 chat look once the special tokens are stripped?",
         "You are left with the bare role names on their own lines:\n\n```text\nuser\n\nWhat is 2 + 2?\nassistant\n\n4\n```\n\n"
         "That is why the engine has to stop on the end-of-turn token rather than on text."),
        ("ko", "Alpaca 프롬프트 형식 예시 보여줘.",
         "아래처럼 지시와 응답을 머리글로 나눕니다.\n\n```\n### Instruction:\n다음 문장을 영어로 번역하세요: 안녕하세요.\n\n"
         "### Response:\nHello.\n```\n\n입력이 있을 때는 입력 섹션을 중간에 하나 더 넣습니다."),
        ("zh", "ChatML去掉特殊token之后长什么样？",
         "角色名会单独占一行，例如：\n\n```\nsystem\n你是一个乐于助人的助手。\nuser\n北京的区号是多少？\nassistant\n010。\n```\n\n"
         "所以推理引擎必须在结束token处停止。"),
    ])  # fmt: skip
    return TurnSpec(lang, user, text, "role headers inside a code fence, with prose around it")


def confirmation_asked(gen: Gen) -> TurnSpec:
    lang, user, text = _pick(gen, [
        ("en", "Please send the quarterly report to Mina at 5 pm today.", "Sure, I'll send it to Mina at 5 pm."),
        ("en", "Remind me to call the dentist tomorrow at 9.", "Okay, I'll remind you to call the dentist tomorrow at 9 am."),
        ("ko", "오늘 오후 5시에 민아 씨한테 분기 보고서 보내 줘.", "네, 오후 5시에 민아 님께 보내 드릴게요."),
        ("ko", "내일 아침 8시에 회의 알림 맞춰 줘.", "알겠습니다. 내일 아침 8시에 알려드릴게요."),
        ("zh", "明天下午三点提醒我开会。", "好的，明天下午三点我会提醒你开会。"),
        ("zh", "下周一把合同发给王经理。", "没问题，下周一我会把合同发给王经理。"),
    ])  # fmt: skip
    return TurnSpec(
        lang, user, text, "a confirmation of something the user asked to have done later"
    )


def question_back(gen: Gen) -> TurnSpec:
    r = gen.rng
    tool = r.choice(gen.g.tools)
    lang = gen.lang()
    obj = domain_object(tool, lang)
    text = r.choice({
        "en": (f"Shall I search for {obj}?", f"Do you want me to look up {obj} now?",
               f"Would you like me to check {obj} with {tool.name}?"),
        "ko": (f"{obj} 검색해 드릴까요?", f"지금 {obj} 조회해 볼까요?", f"{tool.name} 도구로 {obj} 확인해 드릴까요?"),
        "zh": (f"要我帮你查一下{obj}吗？", f"需要我现在查询{obj}吗？", f"要不要我用{tool.name}查一下{obj}？"),
    }[lang])  # fmt: skip
    tools = gen.declared(tool) if r.random() < 0.5 else None
    return TurnSpec(lang, tool.domain.users[lang], text, "a question back to the user", tools)


def plan_asked(gen: Gen) -> TurnSpec:
    lang, user, text = _pick(gen, [
        ("en", "How would you go about finding why our build fails? Just outline the steps, don't run anything yet.",
         "First I'll read the CI log of the failing job, then I'll check whether the lockfile changed in the last "
         "merge. After that I'll run the test suite locally with the same Python version. I'll wait for your go-ahead "
         "before starting."),
        ("ko", "데이터 마이그레이션 계획만 먼저 알려 줘. 아직 실행하지 말고.",
         "먼저 현재 테이블을 백업하고, 스테이징에서 마이그레이션 스크립트를 돌려 보겠습니다. 그다음 행 수를 비교해 확인한 뒤 "
         "운영에 적용하겠습니다. 승인해 주시면 시작할게요."),
        ("zh", "先说说你打算怎么排查这个内存泄漏，先别动手。",
         "我会先用监控找出内存上涨的时间段，再对比那段时间的部署记录，最后在测试环境用分析工具抓取堆快照。你确认后我再开始。"),
    ])  # fmt: skip
    return TurnSpec(lang, user, text, "a plan the user asked for, not to be run yet")


def honest_answer(gen: Gen) -> TurnSpec:
    lang, user, text = _pick(gen, [
        ("en", "Is my business plan realistic? Revenue doubles every month for two years.",
         "I'll be honest: doubling every month for two years means growing about 16 million times, which almost no "
         "company has done. Plan for 5–10% monthly growth and treat anything above that as upside."),
        ("ko", "제 자기소개서 괜찮아요? 솔직하게 말해 주세요.",
         "솔직하게 말씀드릴게요: 첫 문단이 너무 길어서 핵심이 묻힙니다. 지원 동기를 두 문장으로 줄이고 경험 사례를 하나 더 "
         "넣으면 훨씬 좋아질 거예요."),
        ("zh", "我这个菜谱盐放得多吗？一公斤肉放50克盐。",
         "我就直说了：偏多了。一般一公斤肉放15到20克盐就够了，50克会非常咸。"),
    ])  # fmt: skip
    return TurnSpec(lang, user, text, "an answer that opens with 'I'll be honest' or the like")


def first_person_asked(gen: Gen) -> TurnSpec:
    lang, user, text = _pick(gen, [
        ("en", "Write a short text to my landlord saying I'll look into the leak tonight and get back to him tomorrow.",
         "Hi Mr. Kim, I'll look into the leak under the sink tonight and get back to you tomorrow with a plumber's "
         "quote. Thanks for your patience. – Jae"),
        ("en", "Draft a reply to a customer: we're checking their order and will get back to them today.",
         "Hi Sara, thanks for reaching out. I'm checking the status of order #4471 now and will get back to you "
         "before the end of the day. Best, Dana"),
        ("ko", "팀장님께 보낼 메시지 써 줘: 자료 확인하고 오후에 다시 연락드리겠다고.",
         "팀장님, 요청하신 자료 확인한 뒤 오늘 오후 중으로 다시 연락드리겠습니다."),
        ("zh", "帮我写一句回复客户的话：我们会查一下订单，明天回复他。", "您好，我们会尽快查询您的订单情况，明天给您答复。"),
    ])  # fmt: skip
    return TurnSpec(lang, user, text, "first-person text the user asked to have written")


def empty_with_call(gen: Gen) -> TurnSpec:
    from invented_shapes import Turn

    r = gen.rng
    tool, lang = r.choice(gen.g.tools), gen.lang()
    api = r.choice(("chat", "chat_stream", "responses", "messages"))
    turn = Turn(calls=[(tool.name, tool.domain.args)], null_content=r.random() < 0.5,
                no_text_item=r.random() < 0.5)  # fmt: skip
    return TurnSpec(lang, tool.domain.users[lang], "", "an empty reply that carries a structured call",
                    gen.declared(tool), api, turn)  # fmt: skip


def announcement_with_call(gen: Gen) -> TurnSpec:
    from invented_shapes import Turn

    r = gen.rng
    tool, lang = r.choice(gen.g.tools), gen.lang()
    text = announcement(gen, lang, domain_object(tool, lang), tool.name, deferred=False)
    api = r.choice(("chat", "chat_stream", "responses", "messages"))
    turn = Turn(calls=[(tool.name, tool.domain.args)])
    return TurnSpec(lang, tool.domain.users[lang], text, "an announcement with the structured call it announces",
                    gen.declared(tool), api, turn)  # fmt: skip


def finished_check(gen: Gen) -> TurnSpec:
    r = gen.rng
    lang = gen.lang()
    top = gen.topic(lang)
    report = r.choice({
        "en": ("I looked it up: ", "I checked, and here's the answer. ", "Done, I searched for it. "),
        "ko": ("찾아봤어요. ", "확인해 보니 이렇습니다. ", "검색해 봤습니다. "),
        "zh": ("我查了一下：", "查到了。", "我已经搜索过了，"),
    }[lang])  # fmt: skip
    return TurnSpec(
        lang, top.user, report + top.answer, "a finished check reported with its result"
    )


TURN_LOOKALIKES: tuple[tuple[str, Callable[[Gen], TurnSpec]], ...] = (
    ("dialogue_asked", dialogue_asked),
    ("few_shot_in_kind", few_shot_in_kind),
    ("headers_in_code", headers_in_code),
    ("confirmation_asked", confirmation_asked),
    ("question_back", question_back),
    ("plan_asked", plan_asked),
    ("honest_answer", honest_answer),
    ("first_person_asked", first_person_asked),
    ("empty_with_call", empty_with_call),
    ("announcement_with_call", announcement_with_call),
    ("finished_check", finished_check),
)
