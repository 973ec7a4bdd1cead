"""``runaway_turn``: the reply writes past the end of its turn into the next one.

"…Canberra.\\n\\nHuman: And New Zealand?": the engine did not stop on the end token (a stop
string, the EOS id of the generation config, a template whose end token it ignores) and the
model went on with the user's next message, often with its own reply after it. Seen as a role
header at the start of a line, after some answer, followed by that role's text. The spellings
are one table per style (``ROLE_HEADERS``); a template's own header counts with its special
tokens or with them stripped ("user\\n…\\nassistant\\n…", then a later assistant line is
required, since a lone "user" line can be prose).

Not a runaway: the prompt asked for a dialogue, script, transcript, interview, role-play or
chat example, or holds the same header itself (few-shot); the header is inside code or quotes;
it opens the text; it has no text after it; or it is one row of a list of labels ("Roles:",
"User: can read", "Admin: …").
"""

from __future__ import annotations

import re
from typing import Final

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.text import outside_code

# style -> (role it opens, regex of the header's own spelling). "colon" headers carry the
# role's text on their line; "section" headers may put it on the next line; "template"
# headers are a chat template's role line, with or without its special tokens.
ROLE_HEADERS: Final[dict[str, tuple[str, str]]] = {
    # Anthropic-style "Human:", plain "User:", Vicuna "USER:", Korean, Chinese, Japanese
    "colon": ("user", r"Human|User|USER|사용자|用户|人类|ユーザー"),
    # Alpaca and its descendants: "### Instruction:", "### Human:", "### User:"
    "section": ("instruction", r"###[ \t]*(?:Instruction|Human|User|USER)"),
    # ChatML / Llama 3 / Gemma / Phi role lines: "<|im_start|>user", "user" stripped
    "template": ("user", r"<\|user\|>|user"),
}
_STYLE_ROLE: Final = {style: role for style, (role, _) in ROLE_HEADERS.items()}

# One search over the text, starting with a literal newline (a header starts a line).
_TOKEN: Final = r"(?:<[^\s<>]{1,32}>)"
_HEADER: Final = re.compile(
    r"\n(?:"
    rf"(?P<colon>{ROLE_HEADERS['colon'][1]})[ \t]*[:：][ \t]*(?P<colon_text>\S[^\n]*)?"
    rf"|(?P<section>{ROLE_HEADERS['section'][1]})[ \t]*[:：]?[ \t]*\n?[ \t]*"
    r"(?P<section_text>\S[^\n]*)?"
    rf"|(?P<tokens>{_TOKEN}*)(?P<template>{ROLE_HEADERS['template'][1]}){_TOKEN}*[ \t]*\n\s*"
    r"(?P<template_text>\S[^\n]*)?"
    r")"
)
# a stripped template header needs the assistant's own header on a later line
_ASSISTANT_LINE: Final = re.compile(r"\n[ \t]*(?:assistant|model)[ \t]*\n")
# the next line of a list of labels: "Admin: can delete"
_LABEL_LINE: Final = re.compile(r"[ \t]*([^\s:：]{1,24})[ \t]*[:：]")
# labels that are roles of a conversation (a runaway's next line may be its own reply)
ROLE_WORDS: Final = frozenset(
    {
        "assistant",
        "ai",
        "bot",
        "model",
        "human",
        "user",
        "###",
        "어시스턴트",
        "사용자",
        "助手",
        "用户",
        "人类",
        "アシスタント",
        "ユーザー",
    }
)
# the prompt asked for turns written out (lower case)
_ASKED_FOR_TURNS: Final = re.compile(
    r"dialog|conversation|script|interview|transcript|role[- ]?play|chat\s+(?:log|example|sample)"
    r"|example\s+chat|sample\s+chat|screenplay|few[- ]shot|대화|대본|인터뷰|각본|역할극|채팅\s?예시"
    r"|对话|剧本|采访|访谈|脚本|聊天记录|示例对话|会話|台本"
)
_HAS_WORD: Final = re.compile(r"\w")
# The first character of every spelling in ROLE_HEADERS, right after a newline (a header
# starts its line): one search with a literal newline and a class finds the few lines worth
# the anchored match of _HEADER, as cheap as counting the newlines (the full pattern searched
# over every line cost ~5x more on the production mix).
_LINE_START: Final = re.compile("\n[HU#u<사用人ユ]")


def _style(match: re.Match[str]) -> str:
    for style in ROLE_HEADERS:
        if match.group(style) is not None:
            return style
    return "template"


def _previous_line(text: str, start: int) -> str:
    """The last non-blank line before ``start`` (the header's newline)."""
    end = start
    while end > 0:
        begin = text.rfind("\n", 0, end) + 1
        line = text[begin:end]
        if line and not line.isspace():
            return line.rstrip()
        end = begin - 1
    return ""


def _in_a_list(text: str, match: re.Match[str]) -> bool:
    """The header is one row of a list of labels, not a turn."""
    if _previous_line(text, match.start()).endswith((":", "：")):
        return True
    after = text.find("\n", match.end())
    if after < 0:
        return False
    label = _LABEL_LINE.match(text, after + 1)
    return label is not None and label.group(1).lower() not in ROLE_WORDS


class RunawayTurn(DetectorBase):
    id = "runaway_turn"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        text = exchange.visible_text
        if "\n" not in text:
            return []
        prompt = exchange.prompt_text
        asked: bool | None = None  # the prompt check runs only once a header is found
        for start_of_line in _LINE_START.finditer(text):
            match = _HEADER.match(text, start_of_line.start())
            if match is None:
                continue
            style = _style(match)
            header = match.group(style)
            if match.group(f"{style}_text") is None:
                continue  # a header with nothing after it
            start = match.start() + 1
            if not _HAS_WORD.search(text, 0, start):
                continue  # the header opens the text: nothing was answered before it
            if not outside_code(text, start, match.end()):
                continue
            stripped = style == "template" and not match.group("tokens") and "<" not in header
            if stripped and not _ASSISTANT_LINE.search(text, match.end()):
                continue  # a lone "user" line without the assistant's: prose
            if style != "template" and _in_a_list(text, match):
                continue
            if asked is None:
                asked = bool(_ASKED_FOR_TURNS.search(prompt.lower()))
            if asked or (header in prompt and style != "template"):
                return []  # turns asked for, or few-shot turns in the prompt
            return [
                self.finding(
                    Label.RUNAWAY_TURN,
                    # the engine did not stop at the end of the turn: a stop/EOS setting
                    # against the template's end token (diagnosis names the setting)
                    layer=Layer.TEMPLATE,
                    remediation=Remediation.STRIP,
                    confidence=0.9 if style != "template" else 0.85,
                    text=text,
                    span=(start, len(text)),
                    details={"role": _STYLE_ROLE[style], "header": header, "style": style},
                )
            ]
        return []
