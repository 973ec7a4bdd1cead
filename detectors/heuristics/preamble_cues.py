"""``preamble``: the answer opens with an interim progress sentence ("Let me check that.").

A preamble comes *before* the answer: :func:`precedes_answer` is the gate both preamble
tiers (these cues and the classifier) pass first, so a one-sentence reply ("Sure.",
"Hello! How can I help?", "我先查一下。") is never one, whatever whitespace ends it.
"""

from __future__ import annotations

import re

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.heuristics.cues import OpeningCues, sentence_end
from leakline.detectors.heuristics.stalled_turn import asks_for_plan, only_tail
from leakline.detectors.labels import Label, Layer, Remediation, Source

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
        r"hi(?:\s+there)?",
        r"hello",
        r"hey",
        r"thanks(?:\s+for\s+(?:asking|the\s+question|waiting|your\s+patience))?",
        r"to\s+answer\s+(?:that|this|your\s+question)",
        r"thank\s+you",
        r"you\s+got\s+it",
        r"gladly",
        r"perfect",
        r"(?:i\s+can|i['’]d\s+be\s+(?:happy|glad)\s+to|happy\s+to|glad\s+to)\s+help"
        r"(?:\s+with\s+(?:that|this))?",
    ],
    "ko": [
        "네네",
        "네",
        "넵",
        "예",
        "좋아요",
        "좋습니다",
        "알겠습니다",
        "알겠어요",
        "물론이죠",
        "물론입니다",
        "물론",
        "그럼요",
        "감사합니다",
        "안녕하세요",
    ],
    "zh": [
        "好的",
        "好嘞",
        "好呀",
        "好",
        "当然",
        "没问题",
        "可以的",
        "可以",
        "收到",
        "明白了?",
        "行",
        "你好",
        "您好",
    ],
    "ja": [
        "はい",
        "承知しました",
        "承知いたしました",
        "わかりました",
        "かしこまりました",
        "了解しました",
        "了解です",
        "ありがとうございます",
    ],
}

# Verbs of looking something up or working it out. Not "explain", "walk through",
# "show", "look at", "break down", "start with": those open ordinary answers (tutorial
# voice). "let's" is tutorial voice too, so only first person counts.
_EN_ACTION = (
    r"(?:check|double[- ]check|re-?check|confirm\s+(?:the|that|this|those|these|your)\b|look\s+(?:\S+\s+){0,3}?up|look\s+into|look\s+for"
    r"|look\s+through|search|find|fetch|pull\s+(?:\S+\s+){0,3}?(?:up|together)"
    r"|pull\s+(?:the|that|those|your|some)\b|query|verify"
    r"|research|browse|consult|retrieve|gather|investigate|dig\s+(?:into|up|through|around)"
    r"|take\s+a\s+(?:quick\s+|closer\s+|brief\s+)?look|have\s+a\s+(?:quick\s+|closer\s+)?look"
    r"|run\s+(?:a|an|the|some|it|this|that|those|these)\b|grab"
    r"|see\s+what\s+(?:i\s+can\s+(?:find|dig)|the\s+\w+\s+says?)"
    r"|open\s+(?:the|your|that|this|it)\b|read\s+(?:the|your|that|this|it|through)\b|scan"
    r"|call\s+(?:the|a|an)\b|use\s+(?:the\s+|a\s+|my\s+)?(?:\w+\s+){0,2}?(?:tool|api|search)\b"
    r"|get\s+(?:that|this|it|those|you\s+(?:that|the)|the\s+(?:latest|current|data|details"
    r"|numbers|figures|info|information|results?|records?))\b"
    r"|work\s+(?:that|this|it)\s+out|calculate|compute|crunch|do\s+the\s+math|tally"
    r"|go\s+(?:and\s+)?(?:check|look|find|fetch|get|search)|track\s+down|hunt\s+down"
    r"|confirm\s+(?:that|this|it|the\s+(?:latest|current))\b|load\s+(?:the|your|that|this)\b"
    r"|(?:start|begin)\s+by\s+(?:checking|looking|searching|pulling|fetching|gathering"
    r"|verifying|finding|querying|reviewing|reading)"
    r"|review\s+(?:the|your|that|this)\s+(?:\w+\s+){0,2}?(?:details|records?|account|history"
    r"|logs?|data|numbers|figures|docs|documentation|files?)\b)\b"
)
# A gerund opening is a progress report only with a marker of the moment ("…now",
# "…for you", "…before I answer"); otherwise it is a subject ("Checking the oil
# regularly extends engine life").
_EN_PROGRESS = (
    r"\b(?:now|first|for\s+you|real\s+quick|quickly|right\s+away|as\s+we\s+speak"
    r"|before\s+(?:i|we)\s+(?:answer|respond|reply))\b|\.\.\.|…"
)
_EN_GERUND = (
    r"(?:checking|searching|looking|fetching|pulling|querying|retrieving|gathering|grabbing"
    r"|consulting|verifying|double-checking|crunching|calculating|computing|digging|scanning"
    r"|loading|researching|running\s+(?:a|the|some)|getting\s+(?:that|the\s+latest))\b"
)

# Interim progress sentences, per language: "opening" fragments match at the start
# of the answer (after optional lead-ins), "sentence" fragments anywhere in the
# first sentence. Fragments are lower case.
CUES: dict[str, dict[str, list[str]]] = {
    "en": {
        "opening": [
            # "Let me check…", "I'll search for…", "First, let me look that up."
            r"(?:first,?\s+|now,?\s+)?(?:let\s+me|i['’]ll|i\s+will|i['’]m\s+going\s+to"
            r"|i\s+am\s+going\s+to|i['’]m\s+gonna|i\s+need\s+to|i['’]d\s+better|allow\s+me\s+to"
            r"|i['’]ll\s+need\s+to|i['’]m\s+about\s+to)"
            r"(?:\s+(?:just|quickly|first|now|go\s+ahead\s+and|also|briefly|actually|real\s+quick"
            r"|try\s+to|try\s+and|quickly\s+go))*"
            r"\s+" + _EN_ACTION,
            # "I'm checking the docs…"
            r"i['’]m\s+(?:now\s+|just\s+|currently\s+|still\s+)?(?:checking|searching"
            r"|looking\s+(?:\S+\s+){0,3}?up|looking\s+into|fetching|pulling\s+(?:\S+\s+){0,3}?"
            r"(?:up|together)|pulling\s+(?:the|that|those|your|some)\b|querying|gathering"
            r"|researching|verifying|retrieving|grabbing"
            r"|crunching|calculating|digging|consulting|double-checking)\b",
            # "Looking that up now.", "Pulling the figures together now.", "Checking a couple
            # of sources before I answer."
            _EN_GERUND + rf"[^.!?\n,;:]{{0,80}}?(?:{_EN_PROGRESS})",
            # "One moment.", "Give me a moment while I look into it.", "Hold on, …"
            r"(?:one|just\s+a|give\s+me\s+a|allow\s+me\s+a|bear\s+with\s+me\s+(?:for\s+)?a)\s+"
            r"(?:moment|sec(?:ond)?|minute|min)\b|hold\s+on\b|hang\s+(?:on|tight)\b"
            r"|bear\s+with\s+me\b|please\s+(?:wait|hold|stand\s+by)\b|stand\s+by\b"
            r"|working\s+on\s+it\b|on\s+it[.!]|looking\s+into\s+(?:it|this|that)\b",
        ],
    },
    "ko": {
        "opening": [r"잠시만요?|잠깐만요?|(?:잠시|잠깐|조금만)\s?기다려"],
        "sentence": [
            # "먼저 자료를 찾아보겠습니다", "확인해 볼게요", "검색하겠습니다", "확인해 드리겠습니다"
            r"(?:찾아|검색해|확인해|조회해|읽어|열어|실행해|검토해|계산해|불러와|가져와|뒤져|조사해"
            r"|점검해|체크해|들여다)\s?(?:보겠|볼게|볼께|보도록|봐야겠|보고\s?오겠|보고\s?올게)"
            r"|(?:검색|확인|조회|계산|조사|점검|체크)(?:하겠|할게|할께|해\s?드리겠|해\s?드릴게|해\s?드릴께)"
            r"|(?:찾아|알아봐|알아보아)\s?드리겠|(?:찾아|알아봐)\s?드릴[게께]"
            r"|찾겠|찾을[게께]|불러오겠|불러올[게께]|가져오겠|가져올[게께]|알아볼[게께]",
            # "최신 데이터를 불러오는 중입니다", "확인 중입니다"
            r"(?:확인|검색|조회|계산|분석|검토|조사)\s?중(?:입니다|이에요|이예요)"
            r"|(?:불러오는|가져오는|찾는|확인하는|살펴보는|검색하는|조회하는|알아보는)\s?중"
            r"|(?:확인|검색|조회|계산|검토|조사)하고\s?있(?:습니다|어요)"
            r"|(?:찾아보|알아보|살펴보|불러오|가져오)고\s?있(?:습니다|어요)"
            r"|(?:찾아보|알아보|살펴보|읽어\s?보|확인해\s?보|조회해\s?보|검토해\s?보)는\s?중",
            # "환율부터 확인해 보고 알려 드릴게요", "약관을 읽어 보고 답변드리겠습니다": look, then answer
            r"(?:보고|본\s?(?:뒤|후|다음)에?)\s?(?:알려|답변|답|말씀|정리해)\s?(?:드리겠|드릴[게께])",
            # an object-less lookup as the whole sentence: "네, 알아보겠습니다."
            r"^(?:바로\s?|한번\s?|지금\s?)?(?:알아|찾아|살펴)\s?(?:보겠습니다|볼게요|보겠어요|볼께요)"
            r"\s*(?:[.!。]|$)",
            # a document or data object to look through: "관련 규정을 먼저 살펴보겠습니다",
            # "일정표를 살펴볼게요" (concept words such as 개념/원리 stay tutorial voice)
            r"(?:규정|약관|법령|조항|일정표|수치|통계|명세서?|영수증|계약서|정책|공지|매뉴얼|자료|데이터"
            r"|문서|기록|시세|환율|예보|내역|로그|파일)(?:을|를|부터|도)?\s?(?:먼저\s?|우선\s?|한번\s?)?"
            r"(?:살펴|알아|찾아)\s?(?:보겠|볼게|볼께)",
            # "살펴보겠습니다"/"알아보겠습니다" open tutorials ("먼저 기본 개념을 살펴보겠습니다");
            # they are lookups only with "먼저/우선/잠시…" and an object that is data.
            r"(?:먼저|우선|일단|잠시만요?|잠깐만요?|바로|지금|얼른)(?:[^.!?。\n]|\.(?=[A-Za-z0-9])){0,40}?"
            r"(?:자료|정보|데이터|문서|기록|일정|시세|주가|가격|환율|날씨|예보|현황|상태|결과|내역|로그"
            r"|설정|파일|재고|운임|항공편|기사|뉴스|최신)(?:[^.!?。\n]|\.(?=[A-Za-z0-9])){0,20}?"
            r"(?:살펴|알아)\s?(?:보겠|볼게|볼께|보도록)",
        ],
        # every sentence cue above ends in one of these
        "anchors": ["겠", "게", "께", "도록", "중", "고 있", "고있"],
    },
    "zh": {
        "opening": [
            # "我先查一下", "让我搜索一下", "我来整理一下", "我帮你查一下"
            r"(?:我先|我来|我去|让我(?!们)先?|我需要先|我要先|我这就|先让我|我帮你|我帮您|我给你"
            r"|我给您|等我|我马上|我立即|我立刻|我现在就?|我再|马上为您|这就为您)"
            r"[^。！？!?\n]{0,12}?"
            r"(?:查|搜|检索|确认|核实|核对|找|调用|获取|浏览|看一下|看下|看看|整理|读取|读一下|打开"
            r"|算|计算|翻|拉取|调取|查阅|了解一下|研究一下|试一下|运行|执行)",
            r"请?稍等(?:一下|片刻|一会儿?)?|请?稍候|请?等一下|请?等我一下",
            r"我(?:查|搜|找)(?:一下|查|找|搜)",
            r"正在(?:为您|为你|帮您|帮你|给您|给你)?(?:查询|搜索|查找|检索|获取|查|核对|确认|整理|读取|加载|计算|调用|分析)",
            r"马上(?:为您|给您|帮您|帮你)?(?:查|搜|核对|确认)",
        ],
        "sentence": [
            # "Python的文档我先查一下。"
            r"我(?:先|来|去)(?:查|搜|检索|确认|核实|核对|找|读取|看一下|看看|整理|算)"
            r"|让我(?!们)先?(?:查|搜|检索|确认|核实|看看|看一下|找)",
        ],
        "anchors": ["我"],
    },
    "ja": {
        "opening": [
            r"少々お待ちください|しばらくお待ちください|お待ちください|少しお待ち|ちょっと待ってください"
        ],
        "sentence": [
            r"(?:調べ|確認し|検索し|探し|見|チェックし|計算し|読み込ん|開い|問い合わせ)て(?:み|い|お)?ます"
            r"|(?:調べ|確認し|検索し|探し|計算し)ます|お調べします|確認いたします|お調べいたします"
            r"|(?:確認|調べ)てきます|(?:確認|検索|調査)中です"
            r"|(?:確認|検索|調査)(?:して|いたして)おります|お調べしております",
        ],
        "anchors": ["ます", "中です"],
    },
}

_OPENING = OpeningCues(CUES, LEAD_INS)
# Something that can be an answer: a letter or digit of any script (code and tables hold some).
_ANSWER_CHAR = re.compile(r"\w")
# an opening sentence ending so asks the user something or introduces the answer
_NOT_PREAMBLE_END = frozenset("?？:：")


def opening_sentence_start(text: str) -> int:
    """Offset of the opening sentence: past leading whitespace and acknowledgements."""
    return _OPENING.after_lead_ins(text)


def precedes_answer(text: str) -> bool:
    """The preamble gate, passed by both tiers: can the opening sentence be a preamble?

    The opening sentence is the first one after the acknowledgements ("Sure! ", "네, ",
    "好的，"); it ends at ``.!?。！？…`` or a newline (Korean "…겠습니다." / "…볼게요." end at
    their period). A preamble comes before an answer, so something with a letter or digit
    must follow it: otherwise the sentence is the whole answer ("Sure.", "Hello! How can I
    help?", "我先查一下。"). A question back to the user or a line introducing the answer
    ("Pros:", "步骤如下：") is not one either, nor an announcement followed only by a wait or
    a closing courtesy ("… now. Be right back!", "马上就好。"): that turn is ``stalled_turn``.
    """
    begin = opening_sentence_start(text)
    end = sentence_end(text, begin)
    if _ANSWER_CHAR.search(text, end) is None:
        return False
    last = end - 1
    while last > begin and text[last].isspace():
        last -= 1
    return text[last] not in _NOT_PREAMBLE_END and not only_tail(text, end)


class PreambleCues(DetectorBase):
    id = "preamble_cues"
    # 4: the shared gate (precedes_answer): an answer must follow
    # 5: a wait/closing tail is no answer (stalled_turn); a plan the prompt asked for
    version = "5"
    source = Source.HEURISTIC

    def detect(self, exchange: Exchange) -> list[Finding]:
        if exchange.tool_calls:
            return []
        text = exchange.visible_text
        opening = _OPENING.match(text)
        if opening is None or not precedes_answer(text):
            return []
        if asks_for_plan(exchange.prompt_text):
            return []  # the user asked for the plan: its first step is the answer
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
