"""Untagged ``reasoning_leak``: the visible text opens with the model talking to itself."""

from __future__ import annotations

from detectors.common import DetectorBase
from detectors.exchange import Exchange
from detectors.families import named_families
from detectors.finding import Finding
from detectors.heuristics.cues import OpeningCues, sentence_end
from detectors.labels import Label, Layer, Remediation, Source

# Strong openers only: each needs the self-talk continuation, not just "Okay," or "Well,".
CUES: dict[str, dict[str, list[str]]] = {
    "en": {
        "opening": [
            # "Okay, so the user is asking…", "Alright, let me think…"
            r"(?:okay|ok|alright|all\s+right|so|hmm+|well|right)[,.…]*\s+(?:so,?\s+)?"
            r"(?:the\s+user\s+(?:is|was|wants|wanted|asks|asked|has|had|needs|seems|just|might|may"
            r"|mentioned|said|says|would|provided|gave|could)\b|the\s+question\s+is\b|i\s+need\s+to\s+(?:figure|understand|think|work\s+out"
            r"|determine|answer|respond|recall|make\s+sure)|let\s+me\s+(?:think|see\b|figure|work\s+"
            r"(?:this|it|through)|break\s+(?:this|it)\s+down|recall|consider|parse|understand|analy[sz]e"
            r"|make\s+sure|start\s+by)|let['’]s\s+(?:see|think|figure)|first,?\s+i\b)",
            # "The user is asking about…"
            r"(?:so,?\s+)?the\s+user\s+(?:is\s+asking|asks|asked|wants|wanted|is\s+requesting|requested"
            r"|has\s+asked|is\s+looking\s+for|mentioned|would\s+like|is\s+trying)\b",
            # "Hmm, wait…", "Hmm, let me…"
            r"hmm+[,.…!]*\s+(?:wait|so|let\s+me|let['’]s|the\s+user|i\s+need|i\s+should|okay|ok|but|maybe"
            r"|actually|how|what)\b",
            r"wait[,.!…]+\s+\S",
            r"let\s+me\s+think(?:\s+(?:about|through|step\s+by\s+step|this\s+through|carefully)\b|[.,…])",
            r"first,?\s+i\s+need\s+to\s+(?:understand|figure\s+out|recall|determine|think|parse)\b",
            r"i\s+need\s+to\s+figure\s+out\b",
        ],
    },
    "zh": {
        "opening": [
            r"嗯[，,。…\s]",
            r"好的[，,]\s*(?:用户|我需要|让我想|让我思考|首先我)",
            # Not "用户需要…": a how-to may open by talking about users in general.
            r"(?:那么|所以)?用户(?:问|想知道|让我|提到|询问|的问题是|在问)",
            r"首先[，,]?\s*我(?:需要|得|要)(?:理解|弄清楚|分析|确定|回忆|想)",
            r"让我(?:想想|想一想|思考一下|仔细想想|先想)",
        ],
    },
    "ko": {
        "opening": [
            r"음[,.…\s]",
            r"흠[,.…\s]",
            # "사용자가 …를 묻고 있다": narration about the user, not "사용자가 로그인하면…"
            r"사용자(?:가|는|께서)\s?[^.!?\n]{0,60}?(?:묻고\s?있|물어\s?보고\s?있|물었|원하고\s?있|원한다"
            r"|원하는\s?것\s?같|요청했|요청하고\s?있|질문했|질문하고\s?있|알고\s?싶어\s?하)",
            r"좋아[,.]\s*(?:사용자|먼저|이제|그럼)",
            r"먼저[,]?\s*사용자(?:의|가)\s?(?:질문|요청|의도)",
        ],
    },
    "ja": {
        "opening": [
            r"ユーザーは[^。\n]{0,40}?(?:尋ねて|聞いて|質問して|知りたが|求めて)",
            r"うーん[、。…]",
            r"えっと[、。…]",
        ],
    },
}

_OPENING = OpeningCues(CUES)


class SelfTalkCues(DetectorBase):
    id = "self_talk_cues"
    source = Source.HEURISTIC

    def detect(self, exchange: Exchange) -> list[Finding]:
        text = exchange.visible_text
        opening = _OPENING.match(text)
        if opening is None:
            return []
        start = opening.start
        end = sentence_end(text, opening.end)
        return [
            self.finding(
                Label.REASONING_LEAK,
                layer=_layer(exchange),
                remediation=Remediation.REGENERATE,
                confidence=0.7,
                text=text,
                span=(start, end),
                details={
                    "delimited": "untagged",
                    "language": opening.language,
                    "cue": text[start : opening.end].strip()[:80],
                },
            )
        ]


def _layer(exchange: Exchange) -> Layer:
    """A reasoning model whose reasoning field stayed empty points at the parser."""
    if exchange.reasoning_text.strip():
        return Layer.MODEL
    reasoning_family = any(f.reasoning_end for f in named_families(exchange))
    return Layer.PARSER if reasoning_family else Layer.MODEL
