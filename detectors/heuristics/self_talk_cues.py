"""Untagged ``reasoning_leak``: the visible text opens with the model talking to itself.

Five signals, cheapest first: an opening cue ("Okay, so the user is asking…"), several
sentences of planning narration, (Korean) a plain-style block of notes followed by a
polite answer (``speech_level``), (English, Chinese, Korean) an opening block written
about the requester and the model's own work rather than to the reader (``notes_block``),
and a plan of that work before the answer ("Thinking Process:\n\n1. **Analyze the
request:** The user wants…", ``plan_block``)."""

from __future__ import annotations

import re
from typing import Any

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.families import named_families
from leakline.detectors.finding import Finding
from leakline.detectors.heuristics.cues import (
    Markers,
    OpeningCues,
    prepare,
    sentence_end,
    sentences,
)
from leakline.detectors.heuristics.notes_block import notes_block
from leakline.detectors.heuristics.plan_block import plan_block
from leakline.detectors.heuristics.speech_level import speech_level_shift
from leakline.detectors.labels import Label, Layer, Remediation, Source

# "Wait, …" is self-talk only when what follows is the model correcting itself, not an
# exclamation in a conversational answer ("Wait, really? Yes — the deadline is April 15.").
_EN_WAIT_SELF = (
    r"(?:i\b|i['’](?:m|ll|ve|d)\b|let\s+me\b|let['’]s\b|the\s+user\b|the\s+question\b"
    r"|that\s+(?:doesn['’]t|does\s+not|isn['’]t|is\s+not|can['’]t|won['’]t|would|might|seems"
    r"|means|contradicts|was\s+wrong)\b|this\s+(?:doesn['’]t|isn['’]t|seems|means|contradicts)\b"
    r"|no[,.]\s|actually\b|maybe\b|hmm|hold\s+on\b|did\s+(?:i|they|the\s+user)\b|am\s+i\b"
    r"|should\s+i\b|we\s+(?:need|should|have)\b|(?:but|so)\s+(?:i|the\s+user|then)\b)"
)

# Strong openers only: each needs the self-talk continuation, not just "Okay," or "Well,".
CUES: dict[str, dict[str, list[str]]] = {
    "en": {
        "opening": [
            # "Okay, so the user is asking…", "Alright, let me think…"
            r"(?:okay|ok|alright|all\s+right|so|hmm+|well|right)[,.…]*\s+(?:so,?\s+)?"
            r"(?:the\s+user(?:['’]s\s+(?:question|request)|\s+(?:is\s+(?:asking|looking|trying"
            r"|requesting|wondering|interested|confused|probably|likely)|was\s+asking|wants|wanted"
            r"|asks|asked|seems|just|mentioned|said|says|provided|gave|might\s+be|may\s+be"
            r"|probably|likely))\b|the\s+question\s+is\s+(?:asking|about)\b"
            r"|i\s+need\s+to\s+(?:figure|understand|think|work\s+out|determine|answer|respond"
            r"|recall|make\s+sure)|let\s+me\s+(?:think|see\b|figure|work\s+(?:this|it|through)"
            r"|break\s+(?:this|it)\s+down|recall|consider|parse|understand|analy[sz]e|make\s+sure"
            r"|start\s+by)|let['’]s\s+(?:see|think|figure)|first,?\s+i\b)",
            # "The user is asking about…", "The user's question is…"
            r"(?:so,?\s+)?the\s+user\s+(?:is\s+asking|asks|asked|wants|wanted|is\s+requesting"
            r"|requested|has\s+asked|is\s+looking\s+for|mentioned|would\s+like|is\s+trying"
            r"|seems\s+to|just\s+(?:asked|said|wants))\b"
            r"|(?:so,?\s+)?the\s+user['’]s\s+(?:question|request|message|query)\s+(?:is|asks|seems)\b",
            # "They're asking about…", "The question is asking…", "My task is to…"
            r"(?:so,?\s+)?(?:they['’]re|they\s+are)\s+asking\s+(?:about|for|whether|if|how|what)\b"
            r"|the\s+question\s+(?:is\s+asking|asks)\b|my\s+task\s+is\s+to\b",
            # harmony-style analysis: "We need to answer…", "User asks: …", "Need to respond…"
            # (not "We need to compute…": a worked solution says "we" to its reader)
            r"(?:we|i)\s+(?:need|have)\s+to\s+(?:answer|respond|reply|provide|give|output|produce)\b"
            r"|i\s+(?:need|have)\s+to\s+(?:figure\s+out|compute|calculate)\b|we\s+should\s+(?:answer|respond|reply|provide)\b"
            r"|user\s+(?:asks|asked|wants|is\s+asking)\b|need\s+to\s+(?:answer|respond|reply"
            r"|provide|output)\b",
            # "Hmm, wait…", "Hmm, let me…"
            r"hmm+[,.…!]*\s+(?:wait|so|let\s+me|let['’]s|the\s+user|i\s+need|i\s+should|okay|ok|but"
            r"|maybe|actually|how|what)\b",
            r"wait[,.!…]+\s+" + _EN_WAIT_SELF,
            r"let\s+me\s+think(?:\s+(?:about|through|step\s+by\s+step|this\s+through|carefully)\b|[.,…])",
            r"first,?\s+i\s+need\s+to\s+(?:understand|figure\s+out|recall|determine|think|parse)\b",
            r"i\s+need\s+to\s+(?:figure\s+out|work\s+out\s+what|determine\s+what|recall)\b",
        ],
    },
    "zh": {
        "opening": [
            # "嗯，用户问的是…"; not a conversational "嗯，这个问题很好。"
            r"嗯[，,。…\s]+[^。！？\n]{0,20}?(?:用户|我(?:现在)?(?:需要|得|要|应该|先|来想)|让我|首先|这个问题(?:是|问)"
            r"|题目|他(?:问|想)|她(?:问|想)|对方)",
            r"好的?[，,]\s*(?:用户|我需要|让我想|让我思考|首先我|我得)",
            # Not "用户需要…": a how-to may open by talking about users in general.
            r"(?:那么|所以)?(?:这个)?用户(?:问|想知道|让我|提到|询问|的问题是|在问|关心的是|关注的是"
            r"|想了解|要我|请我|希望我|想让我|刚才问)",
            r"(?:这个|这道)?(?:问题|题目)(?:问的是|是在问|要求我)",
            r"首先[，,]?\s*我(?:需要|得|要)(?:理解|弄清楚|分析|确定|回忆|想)",
            r"让我(?:想想|想一想|思考一下|仔细想想|先想|回忆一下)",
            r"等等[，,]",
            r"不对[，,]",
        ],
    },
    "ko": {
        "opening": [
            # Plain-style musing ("음, 이 문제는 조금 까다롭다."), not "음, 좋은 질문이에요." and
            # not the formal "흠, 그 오류는 보통 권한 문제입니다." (-니다 / -니까 answer the user)
            r"[음흠][,.…\s]+(?:[^.!?\n]|\.(?=[A-Za-z0-9])){0,60}?(?:(?<!니)다|자|지|네|군|(?<!니)까|나)[.!?…]",
            # "사용자가 …를 묻고 있다": narration about the user, not "사용자가 로그인하면…"
            r"사용자(?:가|는|께서)\s?(?:[^.!?\n]|\.(?=[A-Za-z0-9])){0,60}?(?:묻고\s?있|물어\s?보고\s?있|물었|원하고\s?있|원한다"
            r"|원하는\s?것\s?같|요청했|요청하고\s?있|질문했|질문하고\s?있|알고\s?싶어\s?하|궁금해\s?하)",
            r"(?:사용자의\s?)?질문(?:은|의\s?핵심은)\s?(?:[^.!?\n]|\.(?=[A-Za-z0-9])){0,80}?(?:에\s?관한|에\s?대한|이냐는|인지)\s?"
            r"(?:것이다|것이군|거다|내용이다)",
            r"좋아[,.]\s*(?:사용자|먼저|이제|그럼)",
            r"먼저[,]?\s*사용자(?:의|가)\s?(?:질문|요청|의도)",
            # "잠깐, 조건부터 정리하자.": plain-style self-correction (polite "잠깐만요" is a preamble)
            r"잠깐[,.…]\s*(?:[^.!?\n]|\.(?=[A-Za-z0-9])){0,40}?(?:하자|보자|이다|인가|였나|아닌가|잖아)[.!?…]",
        ],
    },
    "ja": {
        "opening": [
            r"ユーザーは[^。\n]{0,40}?(?:尋ねて|聞いて|質問して|知りたが|求めて)",
            r"(?:この)?質問は[^。\n]{0,40}?(?:について|に関する)(?:もの|質問)(?:だ|である)",
            r"うーん[、。…]",
            r"えっと[、。…]",
            r"えーと[、。…]",
            r"待って[、。…]",
        ],
    },
}

# Reasoning-only answers that open without a cue above: several early sentences of
# planning narration ("I need to compute the total. The user said three items. I should
# answer with the sum."). ``strong`` markers rarely appear in answers; ``weak`` ones do,
# so a finding needs the first sentence marked, two marked sentences among the first
# four, and at least one strong marker among them.
#
# Where a marker sits is part of it, which also keeps the check cheap (it runs on every
# answer): English narration *starts* a sentence with it ("I need to…", "The user…"),
# Korean puts the subject first and a plain-style ending last ("…해야겠다."), Chinese and
# Japanese markers may sit anywhere (literal anchors plus an optional regex after them,
# see ``Markers``). Lower-case text.
_EN_INTERJECTION = r"(?:(?:okay|ok|alright|all\s+right|so|well|now|hmm+|right)[,.…]*\s+)?"
NARRATION: dict[str, dict[str, Any]] = {
    "en": {
        "start_strong": _EN_INTERJECTION
        + r"(?:the\s+user(?:['’]s\s+(?:question|request|message)|\s+(?:is\s+(?:asking|looking"
        r"|trying|requesting|wondering|interested|confused)|wants|wanted|asks|asked|seems"
        r"|mentioned|said|says|expects|provided|gave|just))\b"
        r"|(?:i['’]ll|i\s+will|i\s+should|let\s+me)\s+(?:answer|respond|reply"
        r"|write\s+the\s+(?:answer|response|reply)|draft\s+the|give\s+the\s+(?:answer|final))\b"
        r"|let\s+me\s+(?:think|recall|re-?check|reconsider|double[- ]check\s+(?:the|my))\b"
        r"|my\s+(?:final\s+)?(?:answer|response|reply)\s+(?:should|will|is)\b"
        r"|(?:the\s+)?(?:answer|response|reply)\s+should\s+(?:be|mention|include|say|start)\b"
        r"|they\s+(?:want|asked|are\s+asking|mentioned)\b)"
        r"|(?:wait|hmm+)[,.!…]",
        "start_weak": _EN_INTERJECTION
        + r"(?:i\s+(?:should|need\s+to|have\s+to|must|want\s+to\s+make\s+sure)"
        r"|i['’]ll\s+(?:need\s+to|go\s+with|mention|note|keep\s+it|start\s+with)"
        r"|let\s+me\s+(?:compute|calculate|verify|check|consider|count|figure|see)"
        r"|so\s+the\s+answer\s+is|that\s+gives|first,?\s+(?:i|recall|compute|check))\b",
    },
    "ko": {
        "start_strong": r"(?:(?:음|흠|좋아|그럼|먼저)[,.…]*\s*)?(?:사용자(?:가|는|의)|질문(?:은|의\s?핵심))",
        "end_strong": r"(?:답하자|답을\s?쓰자|해야겠다|봐야겠다|정리하자|따져\s?보자|확인하자)[.!?…]*\s*$",
        "end_weak": r"(?:하자|겠다|같다|필요하다|이다|한다|된다|있다|없다|였다|했다)[.!?…]*\s*$",
    },
    "zh": {
        "anywhere": (
            {
                "用户": r"(?:问|想|要|说|提到|关心|希望|的问题)",
                "直接回答": None,
                "开始写": None,
                "回答时": None,
                "我应该": None,
                "这样就够": None,
            },
            {
                "我": r"(?:需要|得|要先|要|可以先)",
                "让我": r"(?:想|算|看)",
                "先把": None,
                "再把": None,
                "答案": r"(?:应该|是)",
                "好，": None,
            },
        ),
    },
    "ja": {
        "anywhere": (
            dict.fromkeys(
                ("ユーザー", "答えよう", "確認しよう", "考えよう", "うーん", "えっと", "待って")
            ),
            dict.fromkeys(("べきだ", "しよう", "だろう", "かな", "必要がある")),
        ),
    },
}
# How much of a sentence's end a sentence-final marker may span.
_TAIL = 16


class _Narration:
    """The narration markers of one language, compiled; ``kinds`` rates one sentence."""

    __slots__ = ("_anywhere", "_end", "_start")

    def __init__(self, table: dict[str, Any]) -> None:
        self._start = _either(table.get("start_strong"), table.get("start_weak"))
        self._end = _either(table.get("end_strong"), table.get("end_weak"))
        anywhere = table.get("anywhere")
        self._anywhere = Markers(*anywhere) if anywhere else None

    def kinds(self, sentence: str) -> int:
        """``Markers.STRONG | Markers.WEAK`` bits for one lower-case, left-stripped sentence."""
        found = 0
        if self._start is not None:
            hit = self._start.match(sentence)
            if hit is not None:
                if hit.lastgroup == "strong":
                    return Markers.STRONG
                found = Markers.WEAK
        if self._end is not None:
            hit = self._end.search(sentence, max(0, len(sentence) - _TAIL))
            if hit is not None:
                if hit.lastgroup == "strong":
                    return Markers.STRONG
                found = Markers.WEAK
        if self._anywhere is not None:
            found |= self._anywhere.scan(sentence)
        return found


def _either(strong: str | None, weak: str | None) -> re.Pattern[str] | None:
    """One regex for both strengths; ``lastgroup`` tells which matched (strong first)."""
    parts = [f"(?P<{name}>{rx})" for name, rx in (("strong", strong), ("weak", weak)) if rx]
    return re.compile("|".join(parts)) if parts else None


_OPENING = OpeningCues(CUES)
_NARRATION = {lang: _Narration(table) for lang, table in NARRATION.items()}
# The script of an opening's last-seen writing system decides the narration table.
_LANGUAGE_OF_SCRIPT = {"latin": "en", "hangul": "ko", "kana": "ja", "han": "zh"}
# Narration is judged on the first few sentences of the opening only.
_NARRATION_SENTENCES = 4
_NARRATION_CHARS = 600


class SelfTalkCues(DetectorBase):
    id = "self_talk_cues"
    # 3: a formal -니다/-니까 ending after 음/흠 answers the user; 4: a plain block that
    # plans, then a polite answer (speech_level); 5: an opening block of notes about the
    # requester and the work, then an answer (notes_block); 6: R1-style plans ("Thinking
    # Process:" and steps about the request, plan_block), first-person process verbs after
    # "try to" / "我现在", first-person text the prompt asked for is not notes, and "We need
    # to compute…" opens a worked solution, not self-talk
    version = "6"
    source = Source.HEURISTIC

    def detect(self, exchange: Exchange) -> list[Finding]:
        text = exchange.visible_text
        opening = _OPENING.match(text)
        if opening is not None:
            start = opening.start
            end = sentence_end(text, opening.end)
            cue = text[start : opening.end].strip()[:80]
            return [self._leak(exchange, text, (start, end), opening.language, cue, 0.7)]
        narrated = _narration(text)
        if narrated is not None:
            language, span = narrated
            return [self._leak(exchange, text, span, language, "narration", 0.6)]
        shifted = speech_level_shift(text, exchange.prompt_text)
        if shifted is not None:
            language, span = shifted
            return [self._leak(exchange, text, span, language, "speech_level", 0.6)]
        noted = notes_block(text, exchange.prompt_text)
        if noted is not None:
            language, span = noted
            return [self._leak(exchange, text, span, language, "notes_block", 0.6)]
        planned = plan_block(text, exchange.prompt_text)
        if planned is not None:
            language, span = planned
            return [self._leak(exchange, text, span, language, "plan_block", 0.6)]
        return []

    def _leak(
        self,
        exchange: Exchange,
        text: str,
        span: tuple[int, int],
        language: str,
        cue: str,
        confidence: float,
    ) -> Finding:
        return self.finding(
            Label.REASONING_LEAK,
            layer=_layer(exchange),
            remediation=Remediation.REGENERATE,
            confidence=confidence,
            text=text,
            span=span,
            details={"delimited": "untagged", "language": language, "cue": cue},
        )


def self_talk(text: str) -> tuple[str, tuple[int, int], str, float] | None:
    """(language, span, cue, confidence) when ``text`` opens with self-talk or narration.

    The check ``SelfTalkCues`` runs on the visible text, for any other text (a JSON
    string field: ``structured_reasoning``)."""
    opening = _OPENING.match(text)
    if opening is not None:
        cue = text[opening.start : opening.end].strip()[:80]
        span = (opening.start, sentence_end(text, opening.end))
        return opening.language, span, cue, 0.7
    narrated = _narration(text)
    if narrated is None:
        return None
    return narrated[0], narrated[1], "narration", 0.6


def _narration(text: str) -> tuple[str, tuple[int, int]] | None:
    """(language, span of the narrated sentences) when the opening reads as planning notes."""
    opening = prepare(text)
    if opening is None:
        return None  # code, quotes, markup, bullets
    subject = opening.subject
    language = _LANGUAGE_OF_SCRIPT[opening.scripts[-1]]
    markers = _NARRATION[language]
    # An ASCII opening has no first_end yet: English markers start the sentence anyway.
    first = subject[: opening.first_end + 1] if opening.first_end >= 0 else subject
    if not markers.kinds(first):
        return None  # the common case: an answer's first sentence is not planning
    start = opening.start
    found = sentences(text, start, _NARRATION_CHARS, _NARRATION_SENTENCES)
    marked = 0
    any_strong = False
    last = found[0][1]
    for lo, hi in found:
        kinds = markers.kinds(text[lo:hi].lower().lstrip())
        if kinds:
            marked += 1
            any_strong = any_strong or bool(kinds & Markers.STRONG)
            last = hi
    if marked < 2 or not any_strong:
        return None
    return language, (start, last)


def _layer(exchange: Exchange) -> Layer:
    """A reasoning model whose reasoning field stayed empty points at the parser."""
    if exchange.reasoning_text.strip():
        return Layer.MODEL
    reasoning_family = any(f.reasoning_end for f in named_families(exchange))
    return Layer.PARSER if reasoning_family else Layer.MODEL
