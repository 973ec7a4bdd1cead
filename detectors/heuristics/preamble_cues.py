"""``preamble``: the answer opens with an interim progress sentence ("Let me check that.")."""

from __future__ import annotations

from detectors.common import DetectorBase
from detectors.exchange import Exchange
from detectors.finding import Finding
from detectors.heuristics.cues import OpeningCues, sentence_end
from detectors.labels import Label, Layer, Remediation, Source

# Short acknowledgements a preamble may start with ("Sure, let me look that up.").
LEAD_INS: dict[str, list[str]] = {
    "en": [
        r"sure(?:\s+thing)?",
        r"ok(?:ay)?",
        r"al(?:l\s+)?right",
        r"got\s+it",
        r"of\s+course",
        r"certainly",
        r"absolutely",
        r"no\s+problem",
        r"(?:great|good)\s+question",
        r"understood",
        r"yes",
    ],
    "ko": ["네", "넵", "좋아요", "좋습니다", "알겠습니다", "물론이죠", "물론입니다", "그럼요"],
    "zh": ["好的", "好", "当然", "没问题", "可以", "收到", "明白了?", "行"],
    "ja": ["はい", "承知しました", "わかりました", "かしこまりました", "了解しました"],
}

# Verbs of looking something up. Not "explain", "walk through", "look at", "confirm":
# those open ordinary answers. "let's" is tutorial voice, so only first person counts.
_EN_ACTION = (
    r"(?:check|double[- ]check|look\s+(?:\S+\s+){0,3}?up|look\s+into|look\s+for|search|find|"
    r"fetch|pull\s+up|query|verify|research|browse|consult|retrieve|gather|investigate|"
    r"dig\s+into|take\s+a\s+(?:quick\s+|closer\s+)?look|have\s+a\s+(?:quick\s+|closer\s+)?look|"
    r"run\s+(?:a|an|the|some|it|this|that)\b|grab|see\s+what\s+i\s+can\s+find|"
    r"open\s+(?:the|your|that|this|it)\b|read\s+(?:the|your|that|this|it|through)\b|scan|"
    r"call\s+(?:the|a|an)\b|use\s+(?:the\s+|a\s+|my\s+)?(?:\w+\s+){0,2}?(?:tool|api|search)\b)\b"
)

# Interim progress sentences, per language: "opening" fragments match at the start
# of the answer (after an optional lead-in), "sentence" fragments anywhere in the
# first sentence. Fragments are lower case.
CUES: dict[str, dict[str, list[str]]] = {
    "en": {
        "opening": [
            # "Let me check…", "I'll search for…", "First, let me look that up."
            r"(?:first,?\s+)?(?:let\s+me|i['’]ll|i\s+will|i['’]m\s+going\s+to"
            r"|i\s+am\s+going\s+to|i['’]m\s+gonna|i\s+need\s+to|i['’]d\s+better|allow\s+me\s+to)"
            r"(?:\s+(?:just|quickly|first|now|go\s+ahead\s+and|also|briefly))*\s+" + _EN_ACTION,
            # "I'm checking the docs…"
            r"i['’]m\s+(?:now\s+)?(?:checking|searching|looking\s+(?:\S+\s+){0,3}?up|looking\s+into"
            r"|fetching|pulling\s+up|querying|gathering|researching|verifying|retrieving|grabbing)\b",
            # "Checking the forecast now…"
            r"(?:checking|searching(?:\s+for)?|looking\s+up|fetching|pulling\s+up|querying|retrieving"
            r"|gathering)\b[^.!?\n]{0,60}?(?:\bnow\b|\.\.\.|…)",
            # "One moment.", "Hold on, …"
            r"(?:one|just\s+a|give\s+me\s+a)\s+(?:moment|sec(?:ond)?|minute)\b|hold\s+on\b"
            r"|hang\s+on\b|bear\s+with\s+me\b|please\s+wait\b",
        ],
    },
    "ko": {
        "opening": [r"잠시만요?|잠깐만요?|잠시\s?기다려"],
        "sentence": [
            # "먼저 자료를 찾아보겠습니다", "확인해 볼게요", "검색하겠습니다"
            r"(?:찾아|검색해|확인해|조회해|읽어|열어|실행해|검토해)\s?(?:보겠|볼게|볼께|보도록|봐야겠)"
            r"|(?:검색|확인|조회)(?:하겠|할게|할께|하도록)"
            r"|찾겠|찾을게|불러오겠|불러올게|가져오겠|가져올게",
            # "살펴보겠습니다"/"알아보겠습니다" open many answers; only with "먼저/우선/잠시".
            r"(?:먼저|우선|일단|잠시만요?|잠깐만요?)[^.!?。\n]{0,60}?(?:살펴|알아)(?:보겠|볼게|보도록)",
        ],
    },
    "zh": {
        "opening": [
            # "我先查一下", "让我搜索一下", "我来帮你查一下"
            r"(?:我先|我来|我去|让我(?!们)先?|我需要先|我要先|我这就|先让我)[^。！？!?\n]{0,10}?"
            r"(?:查|搜|检索|确认|核实|找|调用|获取|浏览|看一下|看下)",
            r"请?稍等(?:一下|片刻)?|请?稍候",
            r"正在(?:查询|搜索|查找|检索|获取|为您查)",
        ],
    },
    "ja": {
        "opening": [r"少々お待ちください|しばらくお待ちください"],
        "sentence": [
            r"調べて(?:み)?ます|確認して(?:み)?ます|検索して(?:み)?ます|調べます|確認します|検索します"
            r"|探してみます",
        ],
    },
}

_OPENING = OpeningCues(CUES, LEAD_INS)


class PreambleCues(DetectorBase):
    id = "preamble_cues"
    source = Source.HEURISTIC

    def detect(self, exchange: Exchange) -> list[Finding]:
        if exchange.tool_calls:
            return []
        text = exchange.visible_text
        opening = _OPENING.match(text)
        if opening is None:
            return []
        start = opening.start
        end = sentence_end(text, opening.end)
        if text[start:end].rstrip()[-1:] in ("?", "？", ":", "："):
            return []  # a question back to the user, or a line introducing the answer
        return [
            self.finding(
                Label.PREAMBLE,
                layer=Layer.API if _rendered_commentary(exchange, start) else Layer.MODEL,
                remediation=Remediation.STRIP,
                confidence=0.75,
                text=text,
                span=(start, end),
                details={"language": opening.language, "sentence": text[start:end].strip()[:200]},
            )
        ]


def _rendered_commentary(exchange: Exchange, start: int) -> bool:
    """The preamble is a Responses commentary item the client shows (a phase, not the model)."""
    commentary = exchange.commentary_text.strip()
    return bool(commentary) and exchange.visible_text.startswith(commentary[:40], start)
