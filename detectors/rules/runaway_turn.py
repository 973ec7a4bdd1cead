"""``runaway_turn``: the reply writes past the end of its turn into the next one.

"…Canberra.\\n\\nHuman: And New Zealand?": the engine did not stop on the end token (a stop
string, the EOS id of the generation config, a template whose end token it ignores) and the
model went on with the user's next message, often with its own reply after it. Seen as a role
header at the start of a line, after some answer, followed by that role's text. The role
words come from the one role table (``roles.ROLE_STYLES``: every language and template style),
written with any header decoration (``**User:**``, ``### 用户：``, ``인간 :``); a template's own
header counts with its special tokens or with them stripped ("user\\n…\\nassistant\\n…", then a later assistant line is
required, since a lone "user" line can be prose).

Not a runaway: the prompt asked for a dialogue, script, transcript, interview, role-play or
chat example, or holds the same header itself (few-shot); the header is inside code or quotes;
it opens the text; it has no text after it; or it is one row of a list of labels ("Roles:",
"User: can read", "Admin: …").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.roles import ASSISTANT, ROLE_STYLES, SYSTEM, USER, role_words
from leakline.detectors.text import outside_code

# A header is a role word from the one role table (``roles.ROLE_STYLES``: template words,
# conversational prefixes per language, Alpaca sections) times its decorations: Markdown
# bold or heading marks around it, a space before the colon, an ASCII or full-width colon.
# The first header after the answer opens a user (or instruction) turn.


def _spellings(word: str) -> tuple[str, ...]:
    """The case forms a header writes a Latin role word in ("User", "USER", "user")."""
    if not word.isascii():
        return (word,)
    return tuple(dict.fromkeys((word, word.lower(), word.upper(), word[:1].upper() + word[1:])))


def _alternation(words: Iterable[str]) -> str:
    forms = {form for word in words for form in _spellings(word)}
    return "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))


_USER_WORDS: Final = role_words(USER, bare_only=False)
_ASSISTANT_WORDS: Final = role_words(ASSISTANT, bare_only=False)
# words of the Alpaca-style rows open an instruction, not a user message
_INSTRUCTION_STYLES: Final = frozenset(
    style.name for style in ROLE_STYLES if style.name.startswith("alpaca")
)

# One search over the text, starting with a literal newline (a header starts a line).
_TOKEN: Final = r"(?:<[^\s<>]{1,32}>)"
_BOLD: Final = r"(?:\*\*|__)"
_HEADER: Final = re.compile(
    r"\n(?:"
    # "Human: …", "**User:** …", "### 用户：\n…", "인간 : …", "### Instruction\n…"
    rf"(?P<marks>#{{1,4}}[ \t]*)?{_BOLD}?(?P<word>{_alternation(_USER_WORDS)})"
    rf"(?![^\W_])[ \t]*{_BOLD}?[ \t]*(?(marks)[:：]?|[:：])[ \t]*{_BOLD}?[ \t]*"
    r"(?:\r?\n[ \t]*){0,2}(?P<word_text>[^\s*][^\n]*)?"
    # ChatML / Llama 3 / Gemma / Phi role lines: "<|im_start|>user", "user" stripped
    rf"|(?P<tokens>{_TOKEN}*)(?P<template><\|user\|>|user){_TOKEN}*[ \t]*\n\s*"
    r"(?P<template_text>\S[^\n]*)?"
    r")"
)
# a stripped template header needs the assistant's own header on a later line
_ASSISTANT_LINE: Final = re.compile(r"\n[ \t]*(?:assistant|model)[ \t]*\n")
# the next line of a list of labels: "Admin: can delete" (decorations stripped)
_LABEL_LINE: Final = re.compile(r"[ \t#*_]*([^:：\n]{1,30}?)[ \t*_]*[:：]")
# labels that are roles of a conversation (a runaway's next line may be its own reply)
ROLE_WORDS: Final = frozenset(
    word.lower() for word in (*_USER_WORDS, *_ASSISTANT_WORDS, *role_words(SYSTEM, False))
) | frozenset({"###"})
# the prompt asked for turns written out (lower case)
_ASKED_FOR_TURNS: Final = re.compile(
    r"dialog|conversation|script|interview|transcript|role[- ]?play|chat\s+(?:log|example|sample)"
    r"|example\s+chat|sample\s+chat|screenplay|few[- ]shot|대화|대본|인터뷰|각본|역할극|채팅\s?예시"
    r"|对话|剧本|采访|访谈|脚本|聊天记录|示例对话|会話|台本"
)
_HAS_WORD: Final = re.compile(r"\w")
# The first character a header line can start with (a mark, a token, a role word's first
# letter in any case), right after a newline: one search with a literal newline and a class
# finds the few lines worth the anchored match of _HEADER, as cheap as counting the newlines
# (the full pattern searched over every line cost ~5x more on the production mix).
_FIRST: Final = sorted(
    {form[0] for word in _USER_WORDS for form in _spellings(word)} | {"#", "*", "_", "<", "u"}
)
_LINE_START: Final = re.compile("\n[" + "".join(re.escape(c) for c in _FIRST) + "]")


def _style(match: re.Match[str]) -> str:
    """ "section" (a heading mark), "colon" (a prefix) or "template" (a template's role line)."""
    if match.group("word") is None:
        return "template"
    return "section" if match.group("marks") else "colon"


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
    return label is not None and label.group(1).strip().lower() not in ROLE_WORDS


def _in_prompt(prompt: str, word: str) -> bool:
    """The prompt writes the same header itself (few-shot turns)."""
    return re.search(rf"(?:^|\n)[ \t#*_]*{re.escape(word)}[ \t*_]*[:：\n]", prompt) is not None


class RunawayTurn(DetectorBase):
    id = "runaway_turn"
    version = "2"  # 2: role words from roles.py in every language, header decorations
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
            if style == "template":
                header = match.group("template")
                body = match.group("template_text")
            else:
                header = match.group("word")
                body = match.group("word_text")
            if body is None:
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
            if asked or (style != "template" and _in_prompt(prompt, header)):
                return []  # turns asked for, or few-shot turns in the prompt
            roles = _USER_WORDS.get(header) or _USER_WORDS.get(header.capitalize()) or ""
            if style == "template":
                roles = "template"
            role = "instruction" if roles in _INSTRUCTION_STYLES else "user"
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
                    details={"role": role, "header": header, "style": style},
                )
            ]
        return []
