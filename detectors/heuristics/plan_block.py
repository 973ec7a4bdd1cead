"""Untagged reasoning written as a plan before the answer (R1-style distilled models).

With their delimiters stripped, distilled reasoning models often open with a plan: a heading
that names the writer's own thinking ("Here's a thinking process:", "Thinking Process:",
"思考过程：", "생각 과정:") over numbered steps about the request and the draft, or the steps
alone ("1. **Analyze the request:** The user wants…"). The answer follows the plan.

An answer's own list looks the same from afar. What tells them apart is who the first step
is written for, read as ``notes_block.reads_as_notes`` reads an opening block: an answer's
steps talk to the reader or about the subject ("Preheat the oven", "Day 1: Alfama"); a
plan's first step speaks of the requester in the third person or of the work on the reply.
The heading is one sign of its own, so one more in the first step completes it (unless it
talks to the reader: "Here's a thinking process you can use:"); steps with no heading need
two, as an opening block does. A prompt that names the heading's kind of thinking ("show
your reasoning") asked for it.
"""

from __future__ import annotations

import re

from leakline.detectors.heuristics.notes_block import REGISTERS, reads_as_notes

# A heading is one short line; the first step is read up to this many characters.
_HEADING_CHARS = 120
_STEP_CHARS = 400
_PLAN_READ = 800
# The plan is followed this far at most; a longer one is reported up to here.
_PLAN_CHARS = 8000
_DECORATION = " \t*#_"
_LEADING_SPACE = re.compile(r"\s*")
# A list item's marker and an optional bold or italic opening ("1.  **", "- ", "2、").
_ITEM = re.compile(r"[ \t]*(?:\d{1,2}[.)、]|[-*•])[ \t]+(?:\*\*|__|\*)?")
_NUMBERED = re.compile(r"\d{1,2}[.)、][ \t]+(?:\*\*|__)?")
# The next top-level numbered step (or a blank line) ends the first step.
_STEP_END = re.compile(r"\n[ \t]*(?:\n|\d{1,2}[.)、][ \t])")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")


def plan_block(text: str, prompt: str = "") -> tuple[str, tuple[int, int]] | None:
    """(language, span of the plan) when ``text`` opens with a plan of its own work and an
    answer follows it."""
    start = _LEADING_SPACE.match(text).end()  # type: ignore[union-attr]  # always matches
    if start >= len(text):
        return None
    numbered = _NUMBERED.match(text, start)
    if numbered is not None:  # steps with no heading: the first one is an opening block
        step_end = _step_end(text, numbered.end())
        lang = _language(text[numbered.end() : step_end])
        if lang is None or not reads_as_notes(lang, text, numbered.end(), step_end, prompt):
            return None
        return _with_answer(lang, text, start)
    brk = text.find("\n", start, start + _HEADING_CHARS)
    if brk < 0:
        return None
    line = text[start:brk].strip(_DECORATION)
    if not line.endswith((":", "：")):
        return None  # the common case: the opening line is not a heading
    lang = _language(line)
    if lang is None:
        return None
    row = REGISTERS[lang]
    lowered = line.lower()
    heading = row.heading.match(lowered)
    if heading is None or row.addressed.search(lowered) is not None:
        return None
    if heading.group("noun") in prompt.lower():
        return None  # "explain your reasoning step by step": the user asked for it
    item = _ITEM.match(text, _LEADING_SPACE.match(text, brk).end())  # type: ignore[union-attr]
    if item is None:
        return None  # a heading over prose: an answer's own section
    # under a heading, the plan as a whole shows whose work it is (its first blank line
    # or _PLAN_READ characters): arithmetic steps first, "Let me double-check" later
    plan_end = text.find("\n\n", item.end(), item.end() + _PLAN_READ)
    if plan_end < 0:
        plan_end = min(len(text), item.end() + _PLAN_READ)
    if not reads_as_notes(lang, text, item.end(), plan_end, prompt, headed=True):
        return None
    return _with_answer(lang, text, start)


def _step_end(text: str, pos: int) -> int:
    found = _STEP_END.search(text, pos, pos + _STEP_CHARS)
    return min(len(text), pos + _STEP_CHARS) if found is None else found.start()


def _language(line: str) -> str | None:
    """The register for a line: Hangul is Korean, Han without kana Chinese, ASCII English."""
    if line.isascii():
        return "en"
    if _HANGUL.search(line) is not None:
        return "ko"
    if _HAN.search(line) is not None and _KANA.search(line) is None:
        return "zh"
    return "en" if line[:1].isascii() else None


def _with_answer(lang: str, text: str, start: int) -> tuple[str, tuple[int, int]] | None:
    """The plan's span from ``start``: its heading, then list items, indented lines and blank
    lines; None when no answer (a line of another kind) follows it."""
    end = text.find("\n", start)
    if end < 0:
        return None
    limit = min(len(text), start + _PLAN_CHARS)
    pos = end + 1
    while pos < limit:
        nxt = text.find("\n", pos)
        line_end = len(text) if nxt < 0 else nxt
        line = text[pos:line_end]
        if line.strip() and not line[:1].isspace() and _ITEM.match(line) is None:
            return lang, (start, end)  # an answer line: the plan ended at ``end``
        if line.strip():
            end = line_end
        if nxt < 0:
            break
        pos = nxt + 1
    if pos >= limit and limit < len(text):
        return lang, (start, end)  # a long plan: reported up to the limit
    return None
