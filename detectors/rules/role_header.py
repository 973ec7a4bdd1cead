"""``boundary_token``: a template's role header decoded as plain text at the start of a reply.

When a template's header tokens are special and the engine strips them, the header the
model wrote for its own turn (``<|im_start|>assistant\\n``, ``<start_of_turn>model\\n``) is
left as its bare role word on the first line: "assistant\\n\\nThe capital is Canberra." It
happens when the prompt did not end with the generation prompt, so the model wrote the
header itself.

The word alone on the first line, then a line break and an answer, is the shape. An answer
can open the same way with a heading ("Model\\n\\nThe model is…", "bot\\n\\nA bot is…"), so
the reading is dropped when:

- the word is not one a template writes for the assistant (``roles.ROLE_STYLES``, case as
  the templates write it);
- the rest of the reply speaks of the word in its prose: a heading over an answer about it;
- the prompt names the word (the user asked for it: "reply with one word", "what is the
  German for assistant?") or asks for a transcript, dialogue or chat format.

Cost: one anchored match on the first characters of the text.
"""

from __future__ import annotations

import re

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.roles import ASSISTANT, role_words

_WORDS = role_words(ASSISTANT)
_HEADER = re.compile(
    r"[ \t\r\n]*("
    + "|".join(re.escape(word) for word in sorted(_WORDS, key=len, reverse=True))
    + r")[ \t]*:?[ \t]*\r?\n"
)
# Text with a letter or digit: the answer after the header.
_INK = re.compile(r"[^\W_]")
# A prompt that asks for text in a chat layout (its headers are the answer).
_CHAT_LAYOUT = re.compile(
    r"transcript|dialog|conversation|chat\s*(?:log|format|template|history)|script|role-?play"
    r"|few-?shot|대화|대본|对话|剧本|聊天记录",
    re.IGNORECASE,
)
# How much of the answer is read for prose about the word.
_ANSWER_CHARS = 4000


class RoleHeader(DetectorBase):
    id = "role_header"
    version = "1"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        text = exchange.visible_text
        found = _HEADER.match(text)
        if found is None:
            return []  # the common case: the first line is not a bare role word
        word = found.group(1)
        rest = text[found.end() : found.end() + _ANSWER_CHARS]
        if _INK.search(rest) is None:
            return []  # the word alone: an answer of one word
        if _in_prose(rest, word):
            return []  # a heading over an answer about the word
        prompt = exchange.prompt_text
        if prompt and (_names(prompt, word) or _CHAT_LAYOUT.search(prompt) is not None):
            return []  # asked for: the word, or a chat layout
        return [
            self.finding(
                Label.BOUNDARY_TOKEN,
                layer=Layer.TEMPLATE,
                remediation=Remediation.STRIP,
                confidence=0.75,
                text=text,
                span=(found.start(1), found.end(1)),
                details={
                    "family": "unknown",
                    "shape": "role_header",
                    "token": word,
                    "role": ASSISTANT,
                    "style": _WORDS[word],
                },
            )
        ]


def _names(text: str, word: str) -> bool:
    """``word`` as a word in ``text``, in any case."""
    return re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", text, re.IGNORECASE) is not None


def _in_prose(rest: str, word: str) -> bool:
    """``word`` (any case) in a line of ``rest`` that holds more than the word: prose about it.
    A line with the bare word again is another header (a runaway turn), not prose."""
    for line in rest.splitlines():
        if _names(line, word) and line.strip(" \t:").lower() != word.lower():
            return True
    return False
