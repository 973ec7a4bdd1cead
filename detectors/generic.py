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
- other bracket families (``PIPE_BRACKETS``): pipes inside mathematical or CJK angle
  brackets (``⟨|eot|⟩``, ``〈|sep|〉``, ``《|end|》``); control words without pipes built
  from a turn/role vocabulary with a boundary word (``<END_TURN>``, ``<turn_end>``), doubled
  (``<<END_TURN>>``, ``<</BOT>>``); role closers in square brackets (``[/ASSISTANT]``);
- edge tokens (``_edge_hits``): the first or last thing in the text, an invented snake_case
  name with a boundary word (``<kor_talk_done>``) or a CAPS closer with no opener
  (``[/ORACLE_TURN]``);
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
pair before an answer. ``leading_frame`` generalises that pair to any bracket family whose
closer mirrors the opener (``<muse>…</muse>``, ``[[plan]]…[[/plan]]``, ``【思考】…【/思考】``,
``▶▶…◀◀``): only at the very start of the text. Plain-text headers ("Here is my thought process:" ... "Here is my
response:") have no token shape at all: ``leading_header_pair`` finds them only as a
first-person pair on lines of their own, the first opening the text (``shape == "header"``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from leakline.detectors.text import Hit

# Control words without pipes: two or more words of a turn/role vocabulary joined by "_" or
# "-", one of them a boundary word (<END_TURN>, <turn_end>, <assistant-begin>,
# <end_of_reply>). Words outside the vocabulary make a name ordinary XML (<start_date>,
# <user_input>), a lone word a placeholder (<USER>, <START>).
_BOUNDARY_WORDS = r"start|end|begin|stop|open|close|eot|eos|bos|eom|eod|eou|sep|sot"
_CONTROL_UNIT = (
    r"(?i:turn|message|msg|reply|response|answer|text|seq|sequence|segment|utterance"
    r"|header|speaker|role|system|sys|assistant|user|human|bot|ai|model|persona|agent"
    r"|output|input|prompt|context|dialog|dialogue|conversation|chat|thought|thoughts"
    r"|think|thinking|reasoning|reflection|plan|section|final|channel|content|query"
    r"|instruction|inst|generation|of)"
)
_CONTROL_COMPOUND = (
    r"(?i:(?:(?:" + _CONTROL_UNIT + r"|" + _BOUNDARY_WORDS + r")[_-])+(?:" + _BOUNDARY_WORDS + r")"
    r"(?:[_-](?:" + _CONTROL_UNIT + r"|" + _BOUNDARY_WORDS + r"))*"
    r"|(?:" + _BOUNDARY_WORDS + r")(?:[_-](?:" + _CONTROL_UNIT + r"|" + _BOUNDARY_WORDS + r"))+)"
)
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
    r"|[a-z][\w-]{0,15}:(?:reason\w{0,20}|reflect\w{0,20}|cot\w{0,20}|\w{0,20}budget\w{0,20})"
    r"|" + _CONTROL_COMPOUND + r")>"
    # doubled: <<SYS>>, <<END_TURN>>, <</BOT>> (not "<<EOF" heredocs or "a << b" shifts)
    r"|</?(?:[A-Z][A-Z0-9_]{1,31}|" + _CONTROL_COMPOUND + "|" + _CONTROL_UNIT + r")>>"
    r")"
)
_BRACKET = re.compile(
    r"\[(?:/?[A-Z][A-Z0-9_]{1,31}"
    r"|(?:BEGIN|START|END) (?:[A-Z]{2,12} ){0,2}[A-Z]{2,12}"  # [BEGIN FINAL RESPONSE]
    r"|\|[A-Za-z_][\w.\-]{0,31}\|"  # [|endofturn|]
    r"|/[a-z]{2,12})\]"  # [/assistant]: a role closer (bracket_is_control checks the role)
)
# Bracket families that are a token only around pipes (⟨|eot|⟩, 〈|sep|〉, 《|end|》): the
# glyphs alone are math (⟨x, y⟩) or CJK punctuation (《书名》). One row per family.
PIPE_BRACKETS: tuple[tuple[str, str], ...] = (
    ("⟨", "⟩"),  # mathematical angle brackets
    ("〈", "〉"),  # CJK angle brackets
    ("《", "》"),  # CJK double angle brackets
    ("〈", "〉"),  # the older angle brackets
    ("‹", "›"),
    ("«", "»"),
    ("【", "】"),
    ("〔", "〕"),
)
_PIPE_OPENS = "".join(open_ for open_, _ in PIPE_BRACKETS)
_PIPE_CLOSES = "".join(close for _, close in PIPE_BRACKETS)
_GLYPH_PIPE = re.compile(
    "|".join(
        re.escape(open_) + r"[|｜][^\s|｜]{1,64}[|｜]" + re.escape(close)
        for open_, close in PIPE_BRACKETS
    )
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
# Role names: "[/ASSISTANT]", "[/bot]" close a turn. Only the closer counts: "[USER]:" opens a
# line of a transcript and "[USER]" is a placeholder; BBCode closers ("[/quote]") are not roles.
_ROLE_WORDS = frozenset(
    {"ASSISTANT", "USER", "BOT", "SYSTEM", "HUMAN", "AI", "MODEL", "AGENT", "PERSONA", "GPT"}
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
    elif literal.startswith("[|") or literal[0] in _PIPE_OPENS:
        # [|endofturn|], ⟨|eot|⟩: a pipe token in other brackets
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
    if name.islower():
        return word[0] == "/" and name.upper() in _ROLE_WORDS
    if word[0] == "/" and name in _ROLE_WORDS:
        return True
    return name in _CONTROL_WORDS or _CONTROL_AFFIX.match(name) is not None


ANGLE = 1
BRACKET = 2
TRIANGLE = 4
GLYPH = 8  # a pipe and a PIPE_BRACKETS opener: the glyph-bracket pipe tokens may be there
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
    # the glyphs are not ASCII: an ASCII text (``isascii`` is O(1)) needs no search at all
    if not text.isascii() and _glyph_pipe(text):
        found |= GLYPH
    _last_marks = (text, found)
    return found


def _glyph_pipe(text: str) -> bool:
    """The text starts with a ``PIPE_BRACKETS`` opener or ends with a closer (after
    whitespace), where turn tokens and leading reasoning pairs sit; the scan then covers
    the whole text. Two character tests: searching a whole text for a pipe or a glyph is
    slow on Hangul, where common syllables share the pipe's low byte."""
    start, end = 0, len(text)
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start < end and (text[start] in _PIPE_OPENS or text[end - 1] in _PIPE_CLOSES)


# ``ABSENT[marks(text)]``: the characters of ``MARK_CHARS`` that ``text`` lacks, for
# ``LiteralScanner.finditer(text, absent)`` (no new scan)
ABSENT: tuple[str, ...] = tuple(
    "".join(char for char, bit in MARK_CHARS.items() if not found & bit) for found in range(16)
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
        for m in _ANGLE.finditer(text):
            literal = m.group()
            if literal.startswith("<<") and not _not_call(literal):
                continue
            if literal[1] not in "|｜<" and _element_pair(text, literal):
                continue
            hits.append(new(Hit, (m.start(), m.end(), literal)))
    if found & BRACKET:
        for m in _BRACKET.finditer(text):
            literal = m.group()
            if bracket_is_control(literal[1:-1]):
                hits.append(new(Hit, (m.start(), m.end(), literal)))
    if found & TRIANGLE:
        hits.extend(new(Hit, (m.start(), m.end(), m.group())) for m in _TRIANGLE.finditer(text))
    if found & GLYPH:
        for m in _GLYPH_PIPE.finditer(text):
            if _not_call(m.group()):
                hits.append(new(Hit, (m.start(), m.end(), m.group())))
    if found & (ANGLE | BRACKET):
        for hit in _edge_hits(text, found):
            if not any(h.start == hit.start for h in hits):
                hits.append(hit)
    if len(hits) > 1:
        hits.sort()
    return hits


_COMPOUND = re.compile("</?" + _CONTROL_COMPOUND + ">")


def _element_pair(text: str, literal: str) -> bool:
    """A control-word name used as an XML element: ``<plan_end>Q3</plan_end>``."""
    if _COMPOUND.fullmatch(literal) is None:
        return False
    other = "<" + literal[2:] if literal[1] == "/" else "</" + literal[1:]
    return other in text


_OPENING_GLYPHS = "<[|｜" + _PIPE_OPENS


def mirrored(literal: str) -> str:
    """The closer that mirrors an opener with a slash after its brackets and pipes:
    ``<|aside|>`` -> ``<|/aside|>``, ``⟨|x|⟩`` -> ``⟨|/x|⟩``, ``[X]`` -> ``[/X]``."""
    at = len(literal) - len(literal.lstrip(_OPENING_GLYPHS))
    return literal[:at] + "/" + literal[at:]


# At the very start or end of a reply a token needs less vocabulary: a snake_case or
# CAPS name of two to five parts (invented syllables allowed) with a word that marks a
# boundary (<pul_speaker_fin>, <seg_done>, <utter_open>), no word that names a value to fill
# in (<start_date>, <input_file_end>: placeholders), and no element it closes or opens
# elsewhere in the text (then it is XML).
_EDGE_NAME = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]{0,15}(?:_[A-Za-z0-9]{1,16}){1,4})>")
_EDGE_BOUNDARY_WORDS = (
    "start end begin stop open close eot eos bos eom eod eou sep sot done finish fin halt"
    " break boundary terminate over init mark"
)
_PLACEHOLDER_WORDS = (
    "date time day week month year hour minute file dir folder path name id url uri link"
    " email mail number num no key value type size count amount address phone port host"
    " password pass page line index price point offset position pos node row col column"
    " cell range location city station code level"
)
_EDGE_BOUNDARY = frozenset(_EDGE_BOUNDARY_WORDS.split())
_PLACEHOLDER = frozenset(_PLACEHOLDER_WORDS.split())
# A CAPS closer in square brackets at the very end whose opener is nowhere: a turn closer
# ("…answer.[/RESPONDER]"); BBCode closes what it opened, in lower case.
_EDGE_BRACKET = re.compile(r"\[/([A-Z][A-Z0-9_]{1,31})\]")
_EDGE_REACH = 96


def _edge_hits(text: str, found: int) -> list[Hit]:
    """Tokens that only their place marks as tokens: the first or last thing in the text."""
    hits: list[Hit] = []
    start, end = 0, len(text)
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end - start < 4:
        return hits
    if found & ANGLE and text[start] == "<":
        m = _EDGE_NAME.match(text, start)
        if m is not None and _edge_name(text, m.group(1), m.group(2)):
            hits.append(Hit(m.start(), m.end(), m.group()))
    if found & ANGLE and text[end - 1] == ">":
        at = text.rfind("<", max(start, end - _EDGE_REACH), end)
        m = _EDGE_NAME.fullmatch(text, at, end) if at > start else None
        if m is not None and _edge_name(text, m.group(1), m.group(2)):
            hits.append(Hit(m.start(), m.end(), m.group()))
    if found & BRACKET and text[end - 1] == "]":
        at = text.rfind("[/", max(start, end - 40), end)
        m = _EDGE_BRACKET.fullmatch(text, at, end) if at > start else None
        if m is not None and f"[{m.group(1)}" not in text and _not_call(m.group()):
            hits.append(Hit(m.start(), m.end(), m.group()))
    return hits


def _edge_name(text: str, slash: str, name: str) -> bool:
    if not (name.islower() or name.isupper()):
        return False
    parts = name.lower().split("_")
    if not any(p in _EDGE_BOUNDARY for p in parts) or any(p in _PLACEHOLDER for p in parts):
        return False
    other = f"<{name}>" if slash else f"</{name}>"
    return other not in text and classify(f"<{slash}{name}>").kind != "call"


def _not_call(literal: str) -> bool:
    """Call markers in the wider bracket families (``<<TOOL_CALL>>``, ``⟨|tool_call|⟩``) are
    left out: the tool-call rules own call syntaxes, and none of them reads these yet."""
    return classify(literal).kind != "call"


# Frames: a block opened at the start of the text and closed by the opener's mirror, with no
# special-token shape at all. Named frames mirror the opener with a slash inside the same
# brackets (<muse>…</muse>, [[plan]]…[[/plan]], 【思考】…【/思考】); glyph frames close a run
# of arrows or triangles with the run pointing back (▶▶…◀◀, ►…◄, ⇒…⇐). Whether the block is
# reasoning (prose, an answer after it, not asked for) is the detector's call.
FRAME_BRACKETS: tuple[tuple[str, str], ...] = (
    ("<<", ">>"),
    ("<", ">"),
    ("[[", "]]"),
    ("[", "]"),
    ("【", "】"),
    ("〖", "〗"),
    ("〔", "〕"),
    ("《", "》"),
)
# Glyph frames pair a right-pointing glyph with its left-pointing mirror, found by the
# Unicode names (▶/◀ "BLACK RIGHT-/LEFT-POINTING TRIANGLE", ⇒/⇐, ⟶/⟵, ➤/⮜ "BLACK
# RIGHTWARDS ARROWHEAD"/"BLACK LEFTWARDS EQUILATERAL ARROWHEAD"): no list of glyphs to keep.
_RIGHTWARD = ("RIGHT-POINTING", "RIGHTWARDS")
_LEFTWARD = ("LEFT-POINTING", "LEFTWARDS")
# Quotation marks (»…« in German) frame only when doubled (»»…««).
_QUOTE_CATEGORIES = ("Pi", "Pf")
FRAME_FIRST = frozenset(open_[0] for open_, _ in FRAME_BRACKETS)
_FRAME_CLOSE = dict(FRAME_BRACKETS)
_NAMED_FRAME = re.compile(
    r"(<<|<|\[\[|\[|【|〖|〔|《)([^\W_][\w-]{0,23})(>>|>|\]\]|\]|】|〗|〕|》)"
)
_LEAD_SPACE = re.compile(r"\s*")
# A glyph run longer than this is a divider, not a frame
_MAX_RUN = 3


class Frame(NamedTuple):
    opener: Hit
    closer: Hit
    name: str  # the word inside a named frame; "" for a glyph frame
    bracket: str  # the opening bracket ("<", "[[", "【") or glyph ("▶")


def leading_frame(text: str) -> Frame | None:
    """A frame opening the text (after whitespace) and its mirrored closer later on.

    O(1) unless the text's first visible character opens a frame; then one regex match and
    one ``find`` for the closer."""
    if not text:
        return None
    start = 0
    if text[0].isspace():
        lead = _LEAD_SPACE.match(text)
        start = lead.end() if lead is not None else 0
        if start >= len(text):
            return None
    first = text[start]
    if first not in FRAME_FIRST:
        if first < "\x80" or "\u3040" <= first <= "\u9fff" or "\uac00" <= first <= "\ud7a3":
            return None  # ASCII, kana, CJK ideographs, Hangul: letters, not glyphs
        return _glyph_frame(text, start)
    named = _NAMED_FRAME.match(text, start)
    if named is None or _FRAME_CLOSE.get(named.group(1)) != named.group(3):
        return None
    open_, name, close = named.groups()
    closer_literal = f"{open_}/{name}{close}"
    at = text.find(closer_literal, named.end())
    if at < 0:
        return None
    opener = Hit(start, named.end(), named.group())
    return Frame(opener, Hit(at, at + len(closer_literal), closer_literal), name, open_)


def _glyph_frame(text: str, start: int) -> Frame | None:
    """A run of a right-pointing glyph at ``start`` and, later, the same run of its mirror."""
    first = text[start]
    if unicodedata.category(first)[0] not in "SP":
        return None  # a letter: CJK, Hangul, accented Latin
    name = unicodedata.name(first, "")
    mirror = _mirror(name)
    if not mirror:
        return None
    run = 1
    while run <= _MAX_RUN and text.startswith(first, start + run):
        run += 1
    if run > _MAX_RUN or (run == 1 and unicodedata.category(first) in _QUOTE_CATEGORIES):
        return None
    closer = _find_mirror(text, start + run, mirror, run)
    if closer is None:
        return None
    return Frame(Hit(start, start + run, first * run), closer, "", first)


def _mirror(name: str) -> tuple[str, str]:
    """(the mirrored name, its last word) for a right-pointing glyph's name, else ("", "")."""
    for right, left in zip(_RIGHTWARD, _LEFTWARD, strict=True):
        if right in name:
            return name.replace(right, left), name.rsplit(" ", 1)[-1]
    return "", ""


def _find_mirror(text: str, pos: int, mirror: tuple[str, str], run: int) -> Hit | None:
    """The first run of ``run`` copies of the mirror glyph after ``pos``: the glyph named by
    the mirrored name, else one whose name points left and ends with the same noun
    (➤ "… RIGHTWARDS ARROWHEAD" / ⮜ "… LEFTWARDS EQUILATERAL ARROWHEAD")."""
    exact, noun = mirror
    try:
        glyph = unicodedata.lookup(exact)
    except KeyError:
        glyph = ""
    if glyph:
        at = text.find(glyph * run, pos)
        if at >= 0 and not text.startswith(glyph, at + run):
            return Hit(at, at + run, glyph * run)
        return None
    for m in _SYMBOL.finditer(text, pos):
        char = m.group()
        found = unicodedata.name(char, "")
        if found.endswith(noun) and any(left in found for left in _LEFTWARD):
            at = m.start()
            if text.startswith(char * run, at) and not text.startswith(char, at + run):
                return Hit(at, at + run, char * run)
            return None
    return None


# A candidate closer glyph: not a letter, digit, space or ASCII
_SYMBOL = re.compile(r"[^\w\s\x00-\x7f]")


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
    return literal[:1].isalpha()


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
