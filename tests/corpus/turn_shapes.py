"""A seeded generator of stalled and runaway turns, and of their look-alikes (issue 34).

Each sample is composed from small banks of parts (lead-ins, announcements, objects, waits;
answers, role headers, follow-ups) in English, Korean and Chinese, so a seed gives
combinations nobody wrote out. ``test_turn_shapes.py`` measures recall and false positives
on seeds that were never looked at while the rules were written.

    python tests/corpus/turn_shapes.py --seed 7 --n 5     # print a few samples
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

# ------------------------------------------------------------------ stalled turns

_EN_OBJECTS = [
    "the latest release notes",
    "your order status",
    "the flight times",
    "the current price of copper",
    "the error logs",
    "the population figures",
    "last quarter's revenue",
    "the shipping policy",
]
_EN_SUBJECTS = ["I'll", "I will", "Let me", "I'm going to", "Allow me to", "I'm about to"]
_EN_ACTIONS = [
    "search the web for {x}",
    "look up {x}",
    "check {x}",
    "fetch {x}",
    "pull up {x}",
    "call the lookup tool to find {x}",
    "read through {x}",
    "calculate {x}",
    "dig into {x}",
    "investigate {x}",
    "query the database for {x}",
    "verify {x}",
]
_EN_LEADS = ["", "Sure. ", "Okay! ", "Alright, ", "Of course. ", "Got it. ", "Certainly! "]
_EN_TAILS = ["", " now", " for you", " right away"]
_EN_AFTER = [
    "",
    " Please hold on.",
    " This might take a minute.",
    " I'll get back to you shortly.",
    " One moment.",
    " Stay tuned.",
]

_KO_OBJECTS = [
    "주문 상태를",
    "최신 환율을",
    "항공편 시간을",
    "관련 규정을",
    "오류 로그를",
    "재고 현황을",
]
_KO_ACTIONS = [
    "검색해 보겠습니다",
    "조회하겠습니다",
    "확인해 볼게요",
    "찾아보겠습니다",
    "확인한 후 알려드리겠습니다",
    "살펴보고 말씀드리겠습니다",
    "알아볼게요",
    "조회해 드리겠습니다",
]
_KO_LEADS = ["", "네, ", "알겠습니다. ", "잠시만요. ", "물론이죠. "]
_KO_AFTER = ["", " 잠시만 기다려 주세요.", " 조금만 기다려 주세요."]

_ZH_OBJECTS = ["订单状态", "最新汇率", "航班时间", "相关规定", "错误日志", "库存情况"]
_ZH_CORES = [
    "我先查一下{x}",
    "让我搜索一下{x}",
    "我这就去查询{x}",
    "我马上帮你核实{x}",
    "我会调用工具获取{x}",
    "正在为您检索{x}",
    "我来计算一下{x}",
    "我将查找{x}",
]
_ZH_LEADS = ["", "好的，", "收到，", "没问题，", "请稍等，"]
_ZH_TAILS = ["。", "，请稍等。", "，稍后告诉你结果。", "。请稍候。"]


def _stalled(rng: random.Random, lang: str) -> str:
    if lang == "en":
        action = rng.choice(_EN_ACTIONS).format(x=rng.choice(_EN_OBJECTS))
        core = f"{rng.choice(_EN_SUBJECTS)} {action}{rng.choice(_EN_TAILS)}."
        return rng.choice(_EN_LEADS) + core + rng.choice(_EN_AFTER)
    if lang == "ko":
        core = f"{rng.choice(_KO_OBJECTS)} {rng.choice(_KO_ACTIONS)}."
        return rng.choice(_KO_LEADS) + core + rng.choice(_KO_AFTER)
    core = rng.choice(_ZH_CORES).format(x=rng.choice(_ZH_OBJECTS))
    return rng.choice(_ZH_LEADS) + core + rng.choice(_ZH_TAILS)


# look-alikes: (text, prompt)
_EN_TIMES = ["at 5 pm", "tomorrow morning", "next week", "on Monday", "later today"]
_EN_QUESTIONS = [
    "Shall I {a}?",
    "Do you want me to {a}?",
    "Would you like me to {a}?",
    "Should I {a} first?",
]
_EN_ANSWERS = [
    "The store opens at 9 am.",
    "It ships within two days.",
    "Revenue was $4.2M last quarter.",
    "The flight leaves at 14:05.",
]


def _stalled_lookalike(rng: random.Random, lang: str) -> tuple[str, str]:
    kind = rng.randrange(5)
    if lang == "en":
        action = rng.choice(_EN_ACTIONS).format(x=rng.choice(_EN_OBJECTS))
        if kind == 0:  # a confirmation of something for later
            return f"Sure, I'll {action} {rng.choice(_EN_TIMES)}.", f"Please {action} later."
        if kind == 1:  # a question back
            return rng.choice(_EN_QUESTIONS).format(a=action), ""
        if kind == 2:  # a progress sentence, then the answer (preamble)
            return f"Let me {action}. {rng.choice(_EN_ANSWERS)}", ""
        if kind == 3:  # a plan the user asked for
            return f"First I'll {action}, then I'll summarise it.", "What is your plan? Outline it."
        return (  # first-person text the user asked for
            f"Hi all, I'll {action} and get back to you.",
            "Draft a short note to my team in my voice.",
        )
    if lang == "ko":
        obj = rng.choice(_KO_OBJECTS)
        if kind == 0:
            return f"네, 내일 오전에 {obj} 확인하겠습니다.", "내일 확인해 줘"
        if kind == 1:
            return f"{obj} 찾아볼까요?", ""
        if kind == 2:
            return f"{obj} 확인해 보겠습니다. 현재 정상 처리 중입니다.", ""
        if kind == 3:
            return f"먼저 {obj} 확인하고 결과를 정리하겠습니다.", "어떻게 할지 계획을 알려줘"
        return f"안녕하세요, {obj} 확인 후 연락드리겠습니다.", "고객에게 보낼 메시지를 작성해 줘"
    obj = rng.choice(_ZH_OBJECTS)
    if kind == 0:
        return f"好的，我明天上午查询{obj}。", "明天帮我查"
    if kind == 1:
        return f"需要我帮你查询{obj}吗？", ""
    if kind == 2:
        return f"我先查一下{obj}。目前一切正常。", ""
    if kind == 3:
        return f"我会先检查{obj}，然后整理结果。", "说说你的计划"
    return f"您好，我会查询{obj}后回复您。", "帮我写一封回复邮件"


# ------------------------------------------------------------------ runaway turns

_ANSWERS = {
    "en": [
        "The capital of Australia is Canberra.",
        "You can reset it from the settings page.",
        "Water boils at 100 °C at sea level.",
        "Use `git stash` to keep your changes for later.",
        "The meeting was moved to Thursday.",
    ],
    "ko": [
        "호주의 수도는 캔버라입니다.",
        "설정 페이지에서 초기화할 수 있습니다.",
        "회의는 목요일로 옮겨졌습니다.",
        "환불은 7일 이내에 가능합니다.",
    ],
    "zh": [
        "澳大利亚的首都是堪培拉。",
        "可以在设置页面重置。",
        "会议改到了周四。",
        "七天内可以退款。",
    ],
}
_HEADERS = {
    "en": ["Human: ", "User: ", "USER: ", "### Instruction:\n", "### Human: ", "### User:\n"],
    "ko": ["사용자: ", "사용자 : ", "User: ", "Human: "],
    "zh": ["用户：", "用户: ", "User: ", "### Instruction:\n"],
}
_FOLLOW_UPS = {
    "en": ["And what about New Zealand?", "thanks! one more question", "Can you explain why?"],
    "ko": ["그럼 뉴질랜드는요?", "고마워요. 하나 더 물어볼게요", "왜 그런지 설명해 줄래요?"],
    "zh": ["那新西兰呢？", "谢谢！再问一个问题", "能解释一下原因吗？"],
}
_REPLIES = {
    "en": ["", "\nAssistant: Wellington.", "\n\nAssistant: Sure."],
    "ko": ["", "\n어시스턴트: 웰링턴입니다.", "\nAssistant: 네."],
    "zh": ["", "\n助手：惠灵顿。", "\nAssistant: 好的。"],
}
_STRIPPED = ("user\n{q}\nassistant\n{r}", "user\n\n{q}\nassistant\n\n{r}")


def _runaway(rng: random.Random, lang: str) -> str:
    answer = rng.choice(_ANSWERS[lang])
    question = rng.choice(_FOLLOW_UPS[lang])
    gap = rng.choice(["\n", "\n\n"])
    if rng.random() < 0.2:  # a template's role headers with their tokens stripped
        shape = rng.choice(_STRIPPED)
        return answer + gap + shape.format(q=question, r=rng.choice(_ANSWERS[lang]))
    return answer + gap + rng.choice(_HEADERS[lang]) + question + rng.choice(_REPLIES[lang])


_ASKED = {
    "en": ["Write a short dialogue between a user and a bot.", "Give me a sample chat transcript."],
    "ko": ["사용자와 상담원의 대화 예시를 써 줘.", "인터뷰 대본을 만들어 줘."],
    "zh": ["写一段用户和客服的对话。", "给我一个聊天记录的示例对话。"],
}


def _runaway_lookalike(rng: random.Random, lang: str) -> tuple[str, str]:
    answer = rng.choice(_ANSWERS[lang])
    header = rng.choice(_HEADERS[lang])
    question = rng.choice(_FOLLOW_UPS[lang])
    kind = rng.randrange(4)
    if kind == 0:  # turns the user asked for
        return f"{answer}\n{header}{question}{rng.choice(_REPLIES[lang])}", rng.choice(_ASKED[lang])
    if kind == 1:  # a few-shot prompt in the same shape
        return f"{answer}\n{header}{question}", f"{header}{question}\nAssistant: {answer}\n"
    if kind == 2:  # the headers inside code
        return f"{answer}\n\n```\n{header}{question}\n```\n", ""
    # a list of labels introduced by a colon
    intro = {"en": "Roles:", "ko": "권한 목록:", "zh": "角色说明："}[lang]
    return f"{intro}\n{header}{question}\nAdmin: {answer}", ""


# ------------------------------------------------------------------ samples


@dataclass(frozen=True)
class Sample:
    label: str  # "stalled_turn" | "runaway_turn" | "" (a look-alike: no label)
    kind: str  # which generator made it ("stalled", "runaway", "stalled_like", "runaway_like")
    lang: str
    text: str
    prompt: str = ""


LANGS = ("en", "ko", "zh")


def samples(seed: int, n: int) -> list[Sample]:
    """``n`` samples of each of the four kinds, languages in turn."""
    rng = random.Random(seed)
    out: list[Sample] = []
    for i in range(n):
        lang = LANGS[i % len(LANGS)]
        out.append(Sample("stalled_turn", "stalled", lang, _stalled(rng, lang)))
        out.append(Sample("runaway_turn", "runaway", lang, _runaway(rng, lang)))
        text, prompt = _stalled_lookalike(rng, lang)
        out.append(Sample("", "stalled_like", lang, text, prompt))
        text, prompt = _runaway_lookalike(rng, lang)
        out.append(Sample("", "runaway_like", lang, text, prompt))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n", type=int, default=3)
    args = parser.parse_args()
    for sample in samples(args.seed, args.n):
        print(f"[{sample.kind} {sample.lang}] prompt={sample.prompt!r}\n{sample.text}\n")


if __name__ == "__main__":
    main()
