"""The generic layer's shapes: special tokens and call markup recognised without a family row.

Family rows (``families.py``, ``tool_markup.py``) name exact literals. A model family
leakline has no row for still writes tokens of a few recognisable shapes:

- pipe tokens: ``<|name|>``, fullwidth ``<｜name｜>`` (``▁`` inside), asymmetric
  ``<|name>`` / ``<name|>``;
- angle words a tokenizer reserves: ``<s>``, ``</s>``, ``<eos>``, ``<bos>``, ``<pad>``,
  ``<unk>`` (and ``<EOS>``, ``<EOT>``... in capitals), ``<start_of_turn>``,
  ``<end_of_turn>``, ``<unused12>``, ``<reserved_106>``, ``<extra_id_0>``, ``<<SYS>>``;
- bracketed control words: ``[INST]``, ``[/INST]``, ``[TOOL_RESULTS]``, ``[AVAILABLE_TOOLS]``,
  and section markers of a few words (``[BEGIN FINAL RESPONSE]``: BEGIN / START / END, then
  words that name an answer or reasoning section);
- bracket pipe tokens: ``[|endofturn|]``, ``[|assistant|]``;
- triangle tokens: ``◁think▷``, ``◁/think▷``;
- reasoning tags: ``<think>``-like names with or without a namespace (``<seed:think>``)
  or a one-word vendor prefix (``<longcat_think>``), and namespaced reasoning names
  (``<x:cot_budget>``).

``scan(text)`` finds them (two literal-prefixed regexes, each behind an ``in`` check);
``GenericToken`` says what one means: a tool-call token (``kind == "call"``; reported as
``tool_call_as_text``) or a boundary token, and for boundary tokens whether it opens or
closes a region, the ``key`` that pairs an opener with its closer
(``<|begin_of_thought|>`` / ``<|end_of_thought|>`` share the key ``thought``), and whether
the key names reasoning or the answer (``<|START_RESPONSE|>``: what precedes it is not).

Plain-XML reasoning tags (``<reasoning>``, ``<reflection>``) are ordinary words in XML
answers; ``SOFT_REASONING`` names them and the detector only counts them as a leading
pair before an answer. Plain-text headers ("Here is my thought process:" ... "Here is my
response:") have no token shape at all: ``leading_header_pair`` finds them only as a
first-person pair on lines of their own, the first opening the text (``shape == "header"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from leakline.detectors.text import Hit

# "<" then one of the angle shapes. Starts with a literal, so CPython skips to each "<".
_ANGLE = re.compile(
    r"<(?:"
    r"[|｜](?:[^\s|｜<>]{1,64}[|｜]>|[A-Za-z_][\w.:▁\-]{0,63}>)"  # <|x|>, <｜x｜>, <|x>
    r"|[A-Za-z_][\w.:▁\-]{0,63}[|｜]>"  # <x|>
    r"|/?(?:s|eos|bos|pad|unk|mask|sep|cls|eot|eom|eod|endoftext|im_start|im_end"
    r"|EOS|BOS|EOT|EOM|PAD|UNK|MASK|SEP|CLS"  # <EOT>: upper-case spellings of the same
    r"|(?:start|end|begin)_of_[a-z][a-z_]{0,30}|unused\d{1,4}|extra_id_\d{1,4}|mask_\d{1,4}"
    r"|reserved_\d{1,4}"  # Baichuan 2's role tokens are <reserved_106> / <reserved_107>
    r"|(?:[a-z][\w-]{0,15}:)?(?:think|thinking|thought|thoughts)"
    r"|[a-z][a-z0-9]{0,15}_(?:think|thinking)"  # vendor-prefixed: <longcat_think>
    r"|[a-z][\w-]{0,15}:(?:reason\w{0,20}|reflect\w{0,20}|cot\w{0,20}|\w{0,20}budget\w{0,20}))>"
    r"|</?SYS>>"
    r")"
)
_BRACKET = re.compile(
    r"\[(?:/?[A-Z][A-Z0-9_]{1,31}"
    r"|(?:BEGIN|START|END) (?:[A-Z]{2,12} ){0,2}[A-Z]{2,12}"  # [BEGIN FINAL RESPONSE]
    r"|\|[A-Za-z_][\w.\-]{0,31}\|)\]"  # [|endofturn|]
)
# ◁think▷ / ◁/think▷ (Kimi's spelling): triangle brackets are never ordinary text
_TRIANGLE = re.compile(r"◁/?[^\s◁▷]{1,32}▷")
# Bracketed words that are control tokens, not placeholders ("[YOUR_NAME]") or log levels.
_CONTROL_WORDS = frozenset(
    {
        "INST",
        "SYS",
        "SYSTEM_PROMPT",
        "TOOL_CALLS",
        "TOOL_RESULTS",
        "TOOL_CONTENT",
        "AVAILABLE_TOOLS",
        "ARGS",
        "CALL_ID",
        "THINK",
        "IMG",
        "IMG_BREAK",
        "IMG_END",
        "BOS",
        "EOS",
    }
)
_CONTROL_AFFIX = re.compile(
    r"(?:START|END|BEGIN)_|.*_(?:TOOLS|CALLS?|RESULTS?|TOKEN|TURN|THINKING|THOUGHTS?|REASONING)$"
)
# A section marker of several words is a control token only when its last word names a
# section a model's output is split into: "[END OF STORY]" and "[START HERE]" are prose.
_SECTION_MARKER = re.compile(
    r"(?:BEGIN|START|END) (?:[A-Z]+ )*(?:RESPONSE|ANSWER|OUTPUT|REASONING|THINKING|THOUGHTS?)"
)
# Plain-XML reasoning tag names: a leading pair before an answer only.
SOFT_REASONING = frozenset(
    {
        "reasoning",
        "reflection",
        "scratchpad",
        "analysis",
        "inner_monologue",
        "internal_thoughts",
        "chain_of_thought",
        "rationale",
    }
)
_SOFT = re.compile(r"</?(" + "|".join(sorted(SOFT_REASONING)) + r")>")

# A token whose name says it carries a tool call.
_CALL_NAME = re.compile(
    r"tool_?calls?|function_?calls?|python_(?:tag|start|end)|tool_?use|tool_?sep|tool_code"
    r"|^(?:args|call_id|start_action|end_action)$"
)
_REASONING_KEY = re.compile(
    r"think|thought|reason|reflect|analy|scratch|cot|monolog|ponder|deliberat|rationale"
)
# A key naming the answer section: text before its opener is not part of the answer.
_ANSWER_KEY = re.compile(r"^(?:final_)?(?:response|answer|output)$")
_OPEN_WORD = re.compile(r"^(?:begin|start|open)(?:_of)?_|_(?:begin|start|open)$")
_CLOSE_WORD = re.compile(r"^(?:end|close|stop)(?:_of)?_|_(?:end|close|stop)$")


@dataclass(frozen=True, slots=True)
class GenericToken:
    """What one token literal means to the generic layer."""

    shape: str  # "pipe" | "angle" | "bracket" | "triangle" | "xml" | "header"
    kind: str  # "call" | "boundary"
    opens: bool
    closes: bool
    key: str  # pairs an opener with its closer
    reasoning: bool  # the key names reasoning ("thought", "THINKING", ...)
    answer: bool = False  # the key names the answer section ("response", "final_answer")


@lru_cache(maxsize=4096)
def classify(literal: str) -> GenericToken:
    """The meaning of one literal that ``scan`` or ``leading_header_pair`` found (cached:
    literals repeat)."""
    if is_header(literal):
        answer = _ANSWER_HEADER.fullmatch(literal) is not None
        return GenericToken("header", "boundary", not answer, False, "header", not answer, answer)
    if literal.startswith(("<|", "<｜")) or literal.endswith(("|>", "｜>")):
        shape = "pipe"
        name = literal.strip("<>|｜")
        asym_open = not literal.endswith(("|>", "｜>"))
        asym_close = not literal.startswith(("<|", "<｜"))
    elif literal.startswith("[|"):  # [|endofturn|]: a pipe token in square brackets
        shape, name, asym_open, asym_close = "pipe", literal[2:-2], False, False
    elif literal.startswith("["):
        shape, name, asym_open, asym_close = "bracket", literal[1:-1], False, False
    elif literal.startswith("◁"):
        shape, name, asym_open, asym_close = "triangle", literal[1:-1], False, False
    else:
        name = literal.strip("<>")
        shape = "xml" if _REASONING_KEY.search(name) else "angle"
        asym_open = asym_close = False
    slash = name.startswith("/")
    norm = name.lstrip("/").lower().replace("▁", "_").replace("-", "_").replace(" ", "_")
    closes = slash or asym_close or bool(_CLOSE_WORD.search(norm))
    if _CALL_NAME.search(norm):
        return GenericToken(shape, "call", False, closes, norm, False)
    opens = not closes and (asym_open or bool(_OPEN_WORD.search(norm)) or shape != "pipe")
    key = _CLOSE_WORD.sub("", _OPEN_WORD.sub("", norm)) or norm
    reasoning = bool(_REASONING_KEY.search(key))
    answer = not reasoning and _ANSWER_KEY.match(key) is not None
    return GenericToken(shape, "boundary", opens, closes, key, reasoning, answer)


def bracket_is_control(word: str) -> bool:
    """``[WORD]`` / ``[/WORD]`` / ``[|word|]`` / ``[BEGIN FINAL RESPONSE]`` is a control
    token, not a placeholder, a log level or a bracketed phrase."""
    if word.startswith("|"):
        return True
    if " " in word:
        return _SECTION_MARKER.fullmatch(word) is not None
    name = word.lstrip("/")
    return name in _CONTROL_WORDS or _CONTROL_AFFIX.match(name) is not None


ANGLE = 1
BRACKET = 2
TRIANGLE = 4
# The first characters of every shape above: a literal starting with one of these is found
# only in a text whose ``marks`` has the matching bit.
MARK_CHARS = {"<": ANGLE, "[": BRACKET, "◁": TRIANGLE}


# The last text asked about and its answer. Several detectors ask about the same
# ``visible_text`` object in a row; an identity check is O(1), where an ``lru_cache``
# would hash the whole text (slower than the scans it saves). One tuple, swapped whole.
_last_marks: tuple[str, int] = ("", 0)
_last_scan: tuple[str, list[Hit]] = ("", [])


def marks(text: str) -> int:
    """Which of ``<`` (``ANGLE``), ``[`` (``BRACKET``) and ``◁`` (``TRIANGLE``) occur in
    ``text``: one scan each, shared by the detectors that ask about the same text object in
    a row (the family rule included: its literals start with these characters too)."""
    global _last_marks
    last = _last_marks
    if last[0] is text:
        return last[1]
    found = (
        (ANGLE if "<" in text else 0)
        | (BRACKET if "[" in text else 0)
        | (TRIANGLE if "◁" in text else 0)
    )
    _last_marks = (text, found)
    return found


# ``ABSENT[marks(text)]``: the characters of ``MARK_CHARS`` that ``text`` lacks, for
# ``LiteralScanner.finditer(text, absent)`` (no new scan)
ABSENT: tuple[str, ...] = tuple(
    "".join(char for char, bit in MARK_CHARS.items() if not found & bit) for found in range(8)
)


def scan(text: str) -> list[Hit]:
    """Every generic token shape in ``text``, in order (not yet filtered for code or claims).

    Remembered for the last text: both generic detectors ask. Do not mutate."""
    global _last_scan
    last = _last_scan
    if last[0] is text:
        return last[1]
    hits = _scan(text)
    _last_scan = (text, hits)
    return hits


def _scan(text: str) -> list[Hit]:
    hits: list[Hit] = []
    new = tuple.__new__
    found = marks(text)
    if found & ANGLE:
        hits.extend(new(Hit, (m.start(), m.end(), m.group())) for m in _ANGLE.finditer(text))
    if found & BRACKET:
        for m in _BRACKET.finditer(text):
            literal = m.group()
            if bracket_is_control(literal[1:-1]):
                hits.append(new(Hit, (m.start(), m.end(), literal)))
    if found & TRIANGLE:
        hits.extend(new(Hit, (m.start(), m.end(), m.group())) for m in _TRIANGLE.finditer(text))
    if len(hits) > 1:
        hits.sort()
    return hits


_LEADING_SOFT = re.compile(r"\s*<(" + "|".join(sorted(SOFT_REASONING)) + r")>")


def leading_soft_pair(text: str) -> tuple[Hit, Hit] | None:
    """``<reasoning>…</reasoning>`` (a ``SOFT_REASONING`` name) opening the text, closed later."""
    opened = _LEADING_SOFT.match(text)
    if opened is None:
        return None
    closer = f"</{opened.group(1)}>"
    at = text.find(closer, opened.end())
    if at < 0:
        return None
    start = opened.start(1) - 1
    return Hit(start, opened.end(), text[start : opened.end()]), Hit(at, at + len(closer), closer)


# Plain-text headers a template writes around reasoning (Granite 3.2's "Here is my thought
# process:" ... "Here is my response:"). Each is a line of its own in the first person and
# names reasoning about the reply itself: an answer's own "Analysis:" heading or "Here are my
# thoughts:" list never matches.
_HEADER_NOUN = (
    r"thought process|thinking process|thinking|reasoning(?: steps| process)?"
    r"|chain of thought|scratchpad|internal monologue"
)
_REASONING_HEADER = re.compile(
    r"\s*((?:here(?: is|['’]s| are) my|my) (" + _HEADER_NOUN + r")[ \t]*:)[ \t]*\n", re.IGNORECASE
)
_ANSWER_HEADER = re.compile(
    r"^[ \t]*((?:here(?: is|['’]s) my|my) (?:final )?(?:response|answer|reply)[ \t]*:)[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


def is_header(literal: str) -> bool:
    """A hit of ``leading_header_pair``, not a token (every token starts with a mark)."""
    return literal[:1] not in MARK_CHARS


def leading_header_pair(text: str) -> tuple[Hit, Hit, str] | None:
    """A reasoning header opening the text and a later answer header on a line of its own:
    ``(reasoning header, answer header, the noun the first names)``. One anchored match;
    a text that does not start with "Here"/"My" costs a character or two."""
    opened = _REASONING_HEADER.match(text)
    if opened is None:
        return None
    closed = _ANSWER_HEADER.search(text, opened.end())
    if closed is None:
        return None
    first = Hit(opened.start(1), opened.end(1), opened.group(1))
    second = Hit(closed.start(1), closed.end(1), closed.group(1))
    return first, second, opened.group(2).lower()


def has_letter(literal: str) -> bool:
    return any(ch.isalpha() for ch in literal)


def call_blocks(text: str, hits: list[Hit]) -> list[tuple[int, int, Hit]]:
    """Tool-call sections opened by call tokens: ``(start, end, opening token)``.

    A block runs from a call token over any further call tokens (and name-less ones
    such as Gemma's ``<|"|>`` quote). It ends with a closing call token
    (``<|tool_calls_section_end|>``), else at the next other token or the end of the text.
    """
    blocks: list[tuple[int, int, Hit]] = []
    opened: Hit | None = None
    last: Hit | None = None
    for hit in hits:
        meaning = classify(hit.literal)
        if meaning.kind == "call" or (opened is not None and not has_letter(hit.literal)):
            if opened is None:
                opened = hit
            last = hit
            continue
        if opened is not None and last is not None:
            end = last.end if classify(last.literal).closes else hit.start
            blocks.append((opened.start, end, opened))
            opened = None
    if opened is not None and last is not None:
        end = last.end if classify(last.literal).closes else len(text)
        blocks.append((opened.start, end, opened))
    return blocks
