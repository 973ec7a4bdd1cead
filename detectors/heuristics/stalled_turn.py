"""``stalled_turn``: the final reply only announces an action for this turn, then ends.

"Please wait, I'll search for that now." with no tool call and nothing after it: the user has
to type "go ahead". The reply is cut into sentences; every sentence must be an announcement
of work for this turn (search, look up, call, run, read, check, compute, "get back to you"),
a wait ("One moment.", "请稍等"), or an acknowledgement ("Sure!", "네,"), and at least one
must announce. Any other sentence is an answer (a progress sentence followed by an answer is
``preamble``), and a question back, a time for later ("at 5 pm", "내일", "明天": a confirmation
of what the user asked) or a prompt that asked for a plan or for first-person text (a
message, an email) rules it out. The cue tables, one per language, are the data below.
"""

from __future__ import annotations

import re
from typing import Final

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source

# An announcement is short; a longer reply holds something else (and this bound keeps the
# detector at one length check on ordinary answers).
MAX_CHARS: Final = 240

# Per language: "announce" (work for this turn, searched in one sentence), "filler" (a whole
# sentence that neither answers nor announces: a wait, an acknowledgement, "let me know…"),
# "question" (a question back), "later" (a time for later: a confirmation, not this turn)
# "prompt" (the prompt asked for first-person text) and "plan" (the prompt asked for a plan,
# which ``preamble`` reads too). Lower case.
_EN_VERB = (
    r"(?:search|look\s+(?:\S+\s+){0,3}?up|look\s+into|look\s+for|look\s+through|check"
    r"|double[- ]check|verify|confirm|query|fetch|find|retrieve|research|investigate|browse"
    r"|call|use\s+(?:the|my|a)\s+(?:\w+\s+){0,2}?(?:tool|api|search)|use\s+\S+\s+to\s+\w+"
    r"|run|execute|read|open"
    r"|scan|review|compute|calculate|work\s+(?:it|that|this)\s+out|analy[sz]e|pull\s+up"
    r"|dig\s+into|get\s+back\s+to\s+you|report\s+back|find\s+out|gather|consult|grab"
    r"|go\s+(?:and\s+)?(?:check|look|find|fetch|get|search))\b"
)
CUES: Final[dict[str, dict[str, str]]] = {
    "en": {
        "announce": (
            r"(?:\b(?:let\s+me|i['’]ll|i\s+will|i\s+shall|i['’]m\s+going\s+to|i\s+am\s+going\s+to"
            r"|i['’]m\s+gonna|allow\s+me\s+to|i['’]m\s+about\s+to|i\s+need\s+to|(?:while|as)\s+i)"
            r"(?:\s+(?:just|quickly|first|now|go\s+ahead\s+and|also|immediately|try\s+to|then))*"
            r"\s+" + _EN_VERB + r"|\b(?:get\s+back\s+to\s+you|report\s+back)\b"
            r"|\bi['’]m\s+(?:now\s+|currently\s+|just\s+)?(?:searching"
            r"|checking|looking|fetching|querying|running|reading|calculating|pulling)\b"
            r"|(?:^|,\s*)(?:searching|checking|looking|fetching|querying|retrieving|running|reading"
            r"|calculating|computing|pulling)\b.*(?:\b(?:now|for\s+you|right\s+away)\b|\.\.\.|…))"
        ),
        # one unit of a filler sentence: an acknowledgement, a wait request or a closing
        # courtesy that promises the result soon (units may follow each other)
        "filler": (
            r"(?:sure(?:\s+thing)?|ok(?:ay)?|al(?:l\s+)?right|got\s+it|of\s+course|certainly"
            r"|absolutely|no\s+problem|understood|yes|great|hi|hello|thanks|thank\s+you"
            r"|(?:good|great)\s+question|on\s+it|will\s+do"
            r"|please\s+(?:wait|hold(?:\s+on)?|stand\s+by|bear\s+with\s+me)(?:\s+a\s+moment)?"
            r"|(?:one|just\s+a)\s+(?:moment|sec(?:ond)?|minute)(?:\s+please)?|hold\s+on"
            r"|bear\s+with\s+me|stand\s+by|stay\s+tuned"
            r"|this\s+(?:may|might|will|could|should)\s+(?:only\s+|just\s+)?take\s+(?:a\s+)?"
            r"(?:moment|minute|few|while|bit|second)\w*(?:\s+\w+)?"
            r"|(?:i['’]ll\s+)?be\s+(?:right\s+)?back(?:\s+(?:shortly|soon|in\s+a\s+(?:moment|minute"
            r"|sec(?:ond)?|bit)))?|(?:results?|answer|update)\s+(?:coming\s+)?(?:shortly|soon)"
            r"|let\s+me\s+know\b.*)"
        ),
        "question": r"[?]\s*$",
        "later": (
            r"\b(?:tomorrow|tonight|next\s+(?:week|month|year|monday|tuesday|wednesday|thursday"
            r"|friday|time)|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
            r"|at\s+\d|by\s+\d|later\s+today|this\s+(?:afternoon|evening)|\d+\s*(?:am|pm|a\.m"
            r"|p\.m)\b|in\s+the\s+morning)"
        ),
        "prompt": (
            r"\b(?:write|draft|compose|rewrite|reply\s+to|respond\s+to|first[- ]person"
            r"|in\s+my\s+voice)\b"
        ),
        "plan": (
            r"\b(?:plan|outline|what\s+would\s+you\s+do|how\s+would\s+you|how\s+will\s+you"
            r"|don['’]?t\s+(?:run|execute|do)|do\s+not\s+(?:run|execute|do))\b"
        ),
    },
    "ko": {
        "announce": (
            r"(?:검색|확인|조회|조사|계산|실행|분석|검토|점검|체크)\s?(?:을|를)?\s?"
            r"(?:(?:진행|시작)\s?(?:하겠|할게|할께)|하겠|할게|할께|해\s?(?:보겠|볼게|볼께|드리겠|드릴[게께])"
            r"|(?:한\s?|해\s?본\s?)?(?:후|뒤|다음)|하고\s?(?:나서|알려|있)|중)"
            r"|(?:찾아|알아|살펴|읽어|열어|실행해|돌려|검색해|조회해)\s?(?:보겠|볼게|볼께|보고|드리겠"
            r"|드릴[게께])"
            r"|(?:찾고|검색하고|확인하고|조회하고|알아보고)\s?있(?:습니다|어요)"
            r"|(?:찾아보|알아보|살펴보|불러오|가져오|확인하|검색하|조회하)는\s?중"
            r"|(?:불러|가져)\s?(?:오겠|올게|올께)"
        ),
        "filler": (
            r"(?:네네?|넵|예|알겠습니다|알겠어요|좋아요|좋습니다|물론이죠|물론입니다|그럼요|안녕하세요"
            r"|감사합니다|좋은\s?질문(?:이에요|이네요|입니다)|잠시만요|잠깐만요"
            r"|(?:잠시만?|잠깐만?|조금만)\s?기다려\s?주(?:세요|십시오)"
            r"|(?:결과(?:가\s?나오면|를)|곧|금방|바로|잠시\s?후에?|조금\s?뒤에?)\s?"
            r"(?:알려|말씀|답변|안내)\s?(?:드릴[게께]요?|드리겠습니다))"
        ),
        "question": r"(?:[?？]|까요?|나요|습니까|할래요|줄래요)\s*$",
        "later": r"(?:내일|모레|다음\s?주|오전|오후|저녁에|밤에|\d+\s?시)",
        "prompt": r"(?:써\s?줘|써\s?주세요|작성|답장|메일|편지|메시지|문자)",
        "plan": r"(?:계획|어떻게\s?할지|단계|순서만)",
    },
    "zh": {
        "announce": (
            # the gap holds no "已" (done work: "我已经搜索过了，…" reports a result) and no
            # comma (the clause after it is another sentence's content)
            r"(?:我|让我|我来|我先|我这就|我马上|我会|我将|我要|正在|马上|立即|这就|稍后)"
            r"[^。！？!?\n，,；;已]{0,14}?(?:查|搜|检索|核实|确认|调用|获取|读取|运行|执行|计算|算一下|分析|找"
            r"|了解|看一下|看看|调取|浏览|告诉你|告诉您|回复你|回复您)(?![过完了到])"
        ),
        "filler": (
            r"(?:好的|好|当然|没问题|收到|明白了?|可以|行|你好|您好|嗯|好问题|问得好"
            r"|请?稍等(?:一下|片刻)?|请?稍候|请耐心等待"
            r"|(?:马上|很快|稍后|尽快|一会儿?)就?(?:好|来|回来|(?:给|向)?[你您]?(?:答复|回复|告诉)"
            r"[你您]?(?:结果|答复)?))"
        ),
        "question": r"(?:[?？]|[吗呢吧])\s*$",
        # "一下周六…" is "a bit" + "Saturday", not "next week"
        "later": r"(?:明天|后天|(?<!一)下周|上午|下午|晚上|\d+\s*点|[一二三四五六七八九十]+点)",
        "prompt": r"(?:写|起草|回复|邮件|(?<![相自短])信(?![息用号心])|消息)",
        "plan": r"(?:计划|步骤|打算|方案|怎么排查)",
    },
}

_LANGUAGES: Final = tuple(CUES)
_ANNOUNCE: Final = tuple(re.compile(CUES[lang]["announce"]) for lang in _LANGUAGES)
# a filler sentence is one or more filler units ("Okay, one moment", "네 알겠어요")
_FILLER: Final = tuple(
    re.compile(rf"{CUES[lang]['filler']}(?:[\s,，、!！.。~]+{CUES[lang]['filler']})*")
    for lang in _LANGUAGES
)
_QUESTION: Final = tuple(re.compile(CUES[lang]["question"]) for lang in _LANGUAGES)
_LATER: Final = tuple(re.compile(CUES[lang]["later"]) for lang in _LANGUAGES)
_PROMPT: Final = tuple(re.compile(CUES[lang]["prompt"]) for lang in _LANGUAGES)
_PLAN: Final = tuple(re.compile(CUES[lang]["plan"]) for lang in _LANGUAGES)

# a sentence ends at . ! ? 。 ！ ？ … or a newline (a decimal point does not end one)
_SENTENCE: Final = re.compile(r"[^.!?。！？…\n]*(?:\.(?=\d)[^.!?。！？…\n]*)*[.!?。！？…\n]*")
_EDGE: Final = " \t\r\n.,!。，！、~～…-—:："
_HAS_WORD: Final = re.compile(r"\w")
# a colon with something after it introduces an answer ("I'll be honest: …")
_COLON_ANSWER: Final = re.compile(r"[:：]\s*\S")
# finishes of a turn the model ended itself (a call finish with no call: the call was lost)
_ENDED: Final = frozenset({"stop", "tool_calls", "end_turn", "completed"})


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    for match in _SENTENCE.finditer(text):
        piece = match.group()
        if _HAS_WORD.search(piece):
            out.append(piece.strip())
    return out


def _any(patterns: tuple[re.Pattern[str], ...], text: str) -> bool:
    return any(pattern.search(text) for pattern in patterns)


_HANGUL: Final = re.compile("[\uac00-\ud7a3]")
_HAN: Final = re.compile("[\u4e00-\u9fff]")


def _language(sentence: str) -> int:
    """Index into _LANGUAGES of the table that reads this sentence (one table, not three)."""
    if sentence.isascii():
        return 0
    if _HANGUL.search(sentence):
        return 1
    return 2 if _HAN.search(sentence) else 0


def _kind(sentence: str) -> tuple[str, str]:
    """("announce", language) | ("filler", "") | ("answer", "") | ("question", "")."""
    lang = _language(sentence)
    low = sentence.lower()
    if _QUESTION[lang].search(low):
        return "question", ""
    body = low.strip(_EDGE)
    if _FILLER[lang].fullmatch(body):
        return "filler", ""
    if _COLON_ANSWER.search(body):
        return "answer", ""
    if _ANNOUNCE[lang].search(low):
        return "announce", _LANGUAGES[lang]
    return "answer", ""


def asks_for_plan(prompt: str) -> bool:
    """The prompt asks for a plan, not to be run yet ("just outline the steps")."""
    return bool(prompt) and _any(_PLAN, prompt.lower())


def only_tail(text: str, start: int) -> bool:
    """``text[start:]`` holds no answer: every sentence announces, waits or closes
    ("… now. Be right back!", "马上就好。"). Short texts only (one length check otherwise)."""
    if len(text) - start > MAX_CHARS:
        return False
    for sentence in _sentences(text[start:]):
        if _kind(sentence)[0] not in ("announce", "filler"):
            return False
    return True


def _tool_turns(exchange: Exchange) -> int:
    return sum(1 for turn in exchange.history if turn.role == "tool" or turn.tool_calls)


class StalledTurn(DetectorBase):
    id = "stalled_turn"
    # 2: filler units in a row, closing courtesies ("Be right back!", "马上就好。"),
    # done work ("我已经…过了，…") is an answer, a plan asked for (asks_for_plan)
    version = "2"
    source = Source.HEURISTIC

    def detect(self, exchange: Exchange) -> list[Finding]:
        text = exchange.visible_text
        if len(text) > MAX_CHARS or not text or text.isspace():
            return []
        if exchange.tool_calls or exchange.response_format is not None:
            return []
        finish = exchange.finish_reason
        if finish is not None and finish not in _ENDED:
            return []  # truncated, filtered: another label (or none) explains the end
        if "`" in text:
            return []  # an announcement inside code is an example, not this turn
        language = ""
        first = -1
        # from the last sentence back: an answer usually ends the text, so one look decides
        for sentence in reversed(_sentences(text)):
            kind, lang = _kind(sentence)
            if kind in ("question", "answer"):
                return []
            if kind == "announce":
                if _any(_LATER, sentence.lower()):
                    return []  # "I'll check it tomorrow": a confirmation, not this turn
                language, first = lang, text.find(sentence)  # the earliest one stays
        if not language:
            return []
        prompt = exchange.prompt_text
        if "```" in prompt or _any(_PROMPT, prompt.lower()) or asks_for_plan(prompt):
            return []  # the prompt asked for a plan, for first-person text, or holds code
        tools = exchange.has_tools
        tool_turns = _tool_turns(exchange)
        # an announced call is likelier a lost call when the model could call tools
        confidence = 0.6 + (0.15 if tools else 0.0) + (0.15 if tool_turns else 0.0)
        end = len(text.rstrip())
        return [
            self.finding(
                Label.STALLED_TURN,
                layer=Layer.PARSER,
                remediation=Remediation.REGENERATE,
                confidence=round(confidence, 2),
                text=text,
                span=(max(first, 0), end),
                details={
                    "cue": "announce_only",
                    "language": language,
                    "tools_declared": tools,
                    "tool_turns": tool_turns,
                },
            )
        ]
