"""Shared text helpers: where the code is, literal scanning, and reading JSON out of model text.

Every detector uses these, so "outside code" means the same thing everywhere
(see LABELS.md): not in a fenced block, not in an inline code span, and not
wrapped directly in quotation marks.
"""

from __future__ import annotations

import json
import os
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any, NamedTuple

# --------------------------------------------------------------------------- code regions

# A fence opens on its own line (up to three spaces of indent). A backtick fence's
# info string may not contain backticks (then it is inline code, e.g. ```x```).
_FENCE_OPEN = re.compile(r"^[ \t]{0,3}(?:(`{3,})[^`\n]*|(~{3,})[^\n]*)$", re.MULTILINE)
_FENCE_CLOSE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*$", re.MULTILINE)
# "``*", not "`+": a pattern that opens with a literal gets CPython's fast prefix
# search (~1 ns per character); "`+" is tried at every position (~15 ns).
_TICKS = re.compile(r"``*")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_FENCE_MARKS = ("```", "~~~")


@dataclass(frozen=True, slots=True)
class CodeMap:
    """Sorted, disjoint half-open ranges of one text that are code (fences and inline spans)."""

    starts: tuple[int, ...] = ()
    ends: tuple[int, ...] = ()

    def covers(self, pos: int) -> bool:
        i = bisect_right(self.starts, pos) - 1
        return i >= 0 and pos < self.ends[i]

    def __bool__(self) -> bool:
        return bool(self.starts)


_NO_CODE = CodeMap()


def _fence_line(text: str, pos: int) -> int:
    """Start of the first line at or after ``pos`` that holds a fence marker; -1 when none.

    The line-anchored fence regexes have no literal prefix, so searching a long text
    with them tries every position; ``str.find`` of the markers does not.
    """
    # "~" first: a one-character find runs at memchr speed, "~~~" does not
    marks = _FENCE_MARKS if text.find("~", pos) >= 0 else _FENCE_MARKS[:1]
    found = [at for at in (text.find(mark, pos) for mark in marks) if at >= 0]
    if not found:
        return -1
    return max(pos, text.rfind("\n", 0, min(found)) + 1)


def _search_line(pattern: re.Pattern[str], text: str, pos: int) -> re.Match[str] | None:
    """``pattern.search(text, pos)`` for a line-anchored fence pattern, by marker lines."""
    while True:
        line = _fence_line(text, pos)
        if line < 0:
            return None
        found = pattern.search(text, line, _line_end(text, line))
        if found is not None:
            return found
        pos = _line_end(text, line) + 1


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def _fences(text: str) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    pos = 0
    while True:
        opened = _search_line(_FENCE_OPEN, text, pos)
        if opened is None:
            return found
        marker = opened.group(1) or opened.group(2)
        end = len(text)  # an unclosed fence runs to the end of the text
        closed = _search_line(_FENCE_CLOSE, text, opened.end())
        while closed is not None:
            run = closed.group(1)
            if run[0] == marker[0] and len(run) >= len(marker):
                end = closed.end()
                break
            closed = _search_line(_FENCE_CLOSE, text, closed.end())
        found.append((opened.start(), end))
        if end >= len(text):
            return found
        pos = end


def _inline_spans(text: str, lo: int, hi: int, out: list[tuple[int, int]]) -> None:
    """Backtick runs pair with the next run of the same length, within one paragraph."""
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(text, lo, hi)]
    i = 0
    while i < len(runs):
        start, stop = runs[i]
        width = stop - start
        for j in range(i + 1, len(runs)):
            if runs[j][1] - runs[j][0] != width:
                continue
            if _BLANK_LINE.search(text, stop, runs[j][0]) is None:
                out.append((start, runs[j][1]))
                i = j
            break
        i += 1


@lru_cache(maxsize=16)
def code_map(text: str) -> CodeMap:
    """The code regions of ``text``. Cached: several detectors ask about the same text."""
    if "`" not in text and not ("~" in text and "~~~" in text):
        return _NO_CODE
    spans: list[tuple[int, int]] = []
    pos = 0
    for start, end in _fences(text):
        _inline_spans(text, pos, start, spans)
        spans.append((start, end))
        pos = end
    _inline_spans(text, pos, len(text), spans)
    if not spans:
        return _NO_CODE
    spans.sort()
    return CodeMap(tuple(s for s, _ in spans), tuple(e for _, e in spans))


_QUOTE_PAIRS = {
    '"': '"',
    "'": "'",
    "“": "”",
    "‘": "’",
    "「": "」",
    "『": "』",
    "«": "»",
    "„": "“",
}
_OPENER_OF = {close: open_ for open_, close in _QUOTE_PAIRS.items()}
# How far a quoted stretch may run past the token, as in `"<think>…</think>"`.
# The apostrophe doubles as an ordinary letter, so it only counts as a direct wrap.
_QUOTE_REACH = 40


def is_quoted(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` sits inside a short quotation on one line."""
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    close = _QUOTE_PAIRS.get(before)
    if close is not None:
        if after == close:
            return True
        if before != "'" and _ahead_on_line(text, close, end):
            return True
    open_ = _OPENER_OF.get(after)
    return open_ is not None and after != "'" and _behind_on_line(text, open_, start)


def _ahead_on_line(text: str, needle: str, pos: int) -> bool:
    hi = min(len(text), pos + _QUOTE_REACH)
    newline = text.find("\n", pos, hi)
    return text.find(needle, pos, newline if newline >= 0 else hi) >= 0


def _behind_on_line(text: str, needle: str, pos: int) -> bool:
    lo = max(0, pos - _QUOTE_REACH)
    newline = text.rfind("\n", lo, pos)
    return text.find(needle, newline + 1 if newline >= 0 else lo, pos) >= 0


def outside_code(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` is neither in code nor directly quoted."""
    cmap = code_map(text)
    if cmap and cmap.covers(start):
        return False
    return not is_quoted(text, start, end)


def visible_hits(text: str, hits: Iterable[Hit], limit: int) -> list[Hit]:
    """The first ``limit`` hits that are outside code (``outside_code`` for many at once)."""
    cmap = code_map(text)
    kept: list[Hit] = []
    for hit in hits:
        start, end = hit.start, hit.end
        if cmap and cmap.covers(start):
            continue
        # is_quoted needs a quotation mark right before or right after the hit
        if (
            (start and text[start - 1] in _QUOTE_PAIRS) or text[end : end + 1] in _OPENER_OF
        ) and is_quoted(text, start, end):
            continue
        kept.append(hit)
        if len(kept) >= limit:
            break
    return kept


def unwrap_fence(text: str) -> str | None:
    """The inside of ``text`` when all of it (ignoring outer whitespace) is one fenced block."""
    body = text.strip()
    if not body.startswith(("```", "~~~")):
        return None
    first_nl = body.find("\n")
    last_nl = body.rfind("\n")
    if first_nl < 0 or last_nl == first_nl:
        return None
    opener = _FENCE_OPEN.match(body, 0, first_nl)
    closer = _FENCE_CLOSE.fullmatch(body, last_nl + 1)
    if opener is None or closer is None:
        return None
    marker = opener.group(1) or opener.group(2)
    run = closer.group(1)
    if run[0] != marker[0] or len(run) < len(marker):
        return None
    inner = body[first_nl + 1 : last_nl]
    if _FENCE_CLOSE.search(inner) is not None:
        return None  # more than one block
    return inner


# --------------------------------------------------------------------------- literal scanning


class Hit(NamedTuple):
    start: int
    end: int
    literal: str


class LiteralScanner:
    """Finds any of a fixed set of literal strings, fast.

    Literals are grouped by first character. Each group has a plain-substring
    prefilter (its common prefix, checked with ``in``) and a trie-shaped regex that
    runs only when the prefilter hits. A flat alternation of all literals is ~50x
    slower in CPython's engine: it has no literal prefix to search for and retries
    every branch at every position.

    ``in`` runs at memchr speed for one character but costs a few times more for a
    longer prefix ("Here is my ", "[TOOL_CALLS]"), so such a prefix is first probed
    by one of its characters that prose rarely contains (see ``probe``), and, when the
    prefix is short (the costliest ``in``), by a second such character that every
    literal of the group holds ("Here is my response:" and "Here are my reasoning
    steps:" both end in ":").
    """

    __slots__ = ("_groups",)

    def __init__(self, literals: Iterable[str]) -> None:
        by_first: dict[str, set[str]] = {}
        for literal in literals:
            if literal:
                by_first.setdefault(literal[0], set()).add(literal)
        groups = []
        for first, members in by_first.items():
            prefix = os.path.commonprefix(sorted(members))
            rare = probe(prefix)
            # a needle ending in a space makes ``in`` stop at every space: ~1.5x slower
            prefix = prefix.rstrip(" ") or prefix
            # a one-character prefix is its own probe: "" (always true) skips the second scan
            prefix = "" if prefix == rare else prefix
            second = _shared_probe(members, rare) if 1 < len(prefix) < _SHORT_NEEDLE else ""
            groups.append((first, rare, second, prefix, re.compile(trie_regex(members))))
        self._groups: tuple[tuple[str, str, str, str, re.Pattern[str]], ...] = tuple(groups)

    def search(self, text: str) -> bool:
        return any(
            rare in text and second in text and prefix in text and pattern.search(text) is not None
            for _, rare, second, prefix, pattern in self._groups
        )

    def finditer(self, text: str, absent: str = "") -> list[Hit]:
        """Non-overlapping hits in text order; at one position the longest literal wins.

        ``absent``: characters the caller knows ``text`` lacks (``generic.ABSENT[marks]``);
        the groups of literals starting with one are skipped without a scan."""
        hits: list[Hit] = []
        groups = 0
        new = tuple.__new__  # Hit(...) goes through a Python-level __new__: ~2x slower
        for first, rare, second, prefix, pattern in self._groups:
            if absent and first in absent:
                continue
            if rare in text and second in text and prefix in text:
                groups += 1
                hits.extend(
                    new(Hit, (m.start(), m.end(), m.group())) for m in pattern.finditer(text)
                )
        if groups < 2:
            return hits
        hits.sort(key=lambda h: (h.start, -h.end))
        kept: list[Hit] = []
        last_end = -1
        for hit in hits:
            if hit.start >= last_end:
                last_end = hit.end
                kept.append(hit)
        return kept


# Needles shorter than this cost several one-character probes each (``in`` skips ahead by
# about the needle's length); longer ones are cheap enough without a second probe.
_SHORT_NEEDLE = 8


def _shared_probe(members: Iterable[str], rare: str) -> str:
    """A character other than ``rare`` that every member holds and prose rarely contains
    (not a lower-case letter or a space); "" (always found) when there is none."""
    ordered = sorted(members)
    shared = set(ordered[0]).intersection(*ordered[1:])
    return next(
        (c for c in ordered[0] if c in shared and c != rare and c not in _COMMON_IN_PROSE), ""
    )


_COMMON_IN_PROSE = frozenset("abcdefghijklmnopqrstuvwxyz ")
# Lower-case letters, rarest in English prose first: the probe of an all-lower-case
# literal ("assistantfinal" -> "f"). Any letter absent from a text rules the literal out;
# Korean and Chinese answers hold few Latin letters at all.
_RAREST_FIRST = "zqxjkvbpygfwmucldrhsnioate"


def probe(literal: str) -> str:
    """A character of ``literal`` to look for first: the first that is not a lower-case
    letter or a space (capitals, digits and symbols are rarer in prose, and absent from
    most Korean and Chinese text), else its rarest lower-case letter. ``""`` (always
    found) when it has neither."""
    found = next((char for char in literal if char not in _COMMON_IN_PROSE), "")
    if found or not literal.strip():
        return found
    return min(literal.replace(" ", ""), key=_RAREST_FIRST.index)


# --------------------------------------------------------------------------- stream pieces


def piece_boundaries(pieces: tuple[str, ...], length: int) -> list[int]:
    """Offsets in the reassembled text where one streamed piece ends and the next begins.

    Empty when the text was not streamed in several pieces, or when the pieces do not
    add up to ``length`` (then offsets would point at the wrong characters).
    """
    if len(pieces) < 2:
        return []
    offsets = list(accumulate(map(len, pieces)))
    return offsets[:-1] if offsets[-1] == length else []


def crosses(boundaries: list[int], start: int, end: int) -> bool:
    """True when a piece boundary falls strictly inside ``[start, end)``."""
    i = bisect_right(boundaries, start)
    return i < len(boundaries) and boundaries[i] < end


class SpanIndex:
    """Fixed spans that answer "does ``[start, end)`` overlap one of you?" by bisection.

    A scan of every span per question is quadratic on replies of many repeated markers
    (issue 36); the starts in order with the furthest end reached so far answer it exactly.
    """

    __slots__ = ("_reach", "_starts")

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._starts = [s for s, _ in ordered]
        self._reach = list(accumulate((e for _, e in ordered), max))

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect_left(self._starts, end)  # the spans that start before ``end``
        return i > 0 and self._reach[i - 1] > start


# --------------------------------------------------------------------------- JSON


def trie_regex(literals: Iterable[str]) -> str:
    """A regex source matching exactly ``literals``, shaped as a trie (longest match first)."""
    trie: dict[str, Any] = {}
    for literal in literals:
        node = trie
        for char in literal:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        ends_here = "" in node
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ends_here:
            # a longer literal continues here; try it first, else stop (greedy optional)
            return f"(?:{body})?"
        return body

    return emit(trie)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_LONG_DIGITS = re.compile(r"[0-9]{19}")
_fast_loads: Callable[[str], Any] | None
try:  # optional here (a project dependency): detectors import without it
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover
    _fast_loads = None


def loads(text: str) -> Any:
    """Strict JSON: the whole text (outer whitespace allowed) is one value.

    Raises ``ValueError`` for anything else, including NaN/Infinity and nesting
    too deep for the parser.
    """
    if _fast_loads is not None and _LONG_DIGITS.search(text) is None:
        # orjson accepts a subset of what the strict decoder below accepts, with the same
        # values, ~5x faster; what it refuses (NaN, lone surrogates, bad JSON) is decided
        # by the stdlib decoder, so errors and edge cases stay its own. Integers past 64
        # bits, which orjson turns into floats, never reach it (19+ digit runs).
        try:
            return _fast_loads(text)
        except ValueError:
            pass
    try:
        return _DECODER.decode(text)
    except RecursionError as exc:
        raise ValueError("JSON nested too deeply") from exc


def decode_at(text: str, pos: int) -> tuple[Any, int]:
    """Decode one JSON value starting exactly at ``pos``; return it and the end offset.

    Raises ``ValueError`` when no value starts there.
    """
    try:
        return _DECODER.raw_decode(text, pos)
    except RecursionError as exc:
        raise ValueError("JSON nested too deeply") from exc


def find_json_value(text: str) -> tuple[int, int, Any] | None:
    """The first object or array in ``text`` that decodes, as ``(start, end, value)``."""
    pos = 0
    tries = 0
    while tries < 32:
        brace = _next_opening(text, pos)
        if brace < 0:
            return None
        try:
            value, end = decode_at(text, brace)
        except ValueError:
            pos = brace + 1
            tries += 1
            continue
        return brace, end, value
    return None


def _next_opening(text: str, pos: int) -> int:
    curly = text.find("{", pos)
    square = text.find("[", pos)
    if curly < 0:
        return square
    if square < 0:
        return curly
    return min(curly, square)
