"""Opening-cue tables: multilingual regex fragments compiled once, matched only at the start.

Cue tables are data: per language, regex fragments in two lists.

- ``opening``: must match at the very start of the text (after whitespace and an
  optional acknowledgement such as "Sure," or "好的，").
- ``sentence``: may match anywhere in the first sentence. Korean and Japanese put
  the verb last ("먼저 자료를 찾아보겠습니다"), so their cues live here.
- ``anchors`` (optional): plain substrings, one of which every ``sentence`` match
  contains. The sentence regex runs only when the first sentence holds an anchor:
  an unanchored search over a Hangul or Han sentence costs tens of microseconds,
  ``in`` costs a fraction of one.

``OpeningCues`` compiles each list once and picks the languages to try from the
script of the first visible character, so a clean answer costs one or two short
regex calls.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from leakline.detectors.text import trie_regex

# What ends a sentence in the languages we read. A period before an ASCII letter or
# digit ("0700.HK", "3.5", "Node.js") does not; at the end of the searched range it
# does (the lookahead sees the range's end).
# One character class first (a period then checks what follows): a pattern that opens
# with a class gets CPython's class prefix scan; "[...]|\.(?!...)" is retried at every
# position, ~4x slower over a Han or Hangul sentence.
SENTENCE_END = re.compile(r"[.!?。！？…\n](?:(?<=[^.])|(?![A-Za-z0-9]))")


def find_sentence_end(text: str, pos: int = 0, endpos: int | None = None) -> int:
    """Offset of the first sentence-ending character at or after ``pos``; -1 when none."""
    found = SENTENCE_END.search(text, pos, len(text) if endpos is None else endpos)
    return -1 if found is None else found.start()


_LEAD_IN_TAIL = r"[\s,，、.。!！~～—–-]*"
# At most this many acknowledgements before the cue ("Sure, happy to help. Let me…").
_MAX_LEAD_INS = 2

CueTable = Mapping[str, Mapping[str, Sequence[str]]]


@dataclass(frozen=True, slots=True)
class Opening:
    """Where a cue matched: the language and the offsets (in the original text) it covers."""

    language: str
    start: int  # first visible character of the text
    end: int  # end of the matched cue


@dataclass(frozen=True, slots=True)
class _Compiled:
    language: str
    lead: re.Pattern[str]
    opening: re.Pattern[str] | None
    sentence: re.Pattern[str] | None
    anchors: re.Pattern[str] | None  # any one of the anchors, as a literal alternation


# Cues never need more than this much of the opening.
_HEAD = 240
# The languages to try, by script (Han without any kana in the opening is Chinese).
_SCRIPTS = {"latin": ("en",), "hangul": ("ko",), "kana": ("ja",), "han": ("zh",)}


def _script(char: str) -> str | None:
    code = ord(char)
    if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "hangul"
    if 0x3040 <= code <= 0x30FF:
        return "kana"
    if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF:
        return "han"
    return None


class OpeningCues:
    """Matches a cue table against the opening of a text.

    Fragments are written in lower case. Latin openings are lower-cased once and
    matched without IGNORECASE (about twice as fast in CPython); the other
    scripts have no case and are matched as they are.
    """

    __slots__ = ("_by_script", "_entries", "_exact_latin")

    def __init__(self, cues: CueTable, lead_ins: Mapping[str, Sequence[str]] | None = None) -> None:
        compiled: dict[str, _Compiled] = {}
        exact: dict[str, _Compiled] = {}
        for lang, table in cues.items():
            unknown = set(table) - {"opening", "sentence", "anchors"}
            if unknown:
                raise ValueError(
                    f"cue lists {sorted(unknown)} for {lang!r}: use opening/sentence/anchors"
                )
            words = (lead_ins or {}).get(lang, ())
            lead = f"(?:(?:{'|'.join(words)}){_LEAD_IN_TAIL}){{0,{_MAX_LEAD_INS}}}" if words else ""
            opening = "|".join(table.get("opening") or ())
            sentence = "|".join(table.get("sentence") or ())
            for flags, target in ((0, compiled), (re.IGNORECASE, exact)):
                target[lang] = _Compiled(
                    language=lang,
                    lead=re.compile(lead, flags),
                    opening=re.compile(f"{lead}(?:{opening})", flags) if opening else None,
                    sentence=re.compile(sentence, flags) if sentence else None,
                    anchors=_literal_alternation(table.get("anchors") or ()),
                )
        self._by_script = {
            script: tuple(compiled[lang] for lang in langs if lang in compiled)
            for script, langs in _SCRIPTS.items()
        }
        self._exact_latin = tuple(exact[lang] for lang in _SCRIPTS["latin"] if lang in exact)
        self._entries: dict[tuple[bool, tuple[str, ...]], tuple[_Compiled, ...]] = {}

    def _entries_for(self, exact: bool, scripts: tuple[str, ...]) -> tuple[_Compiled, ...]:
        entries: tuple[_Compiled, ...] = ()
        for script in scripts:
            if script == "latin":
                entries += self._exact_latin if exact else self._by_script["latin"]
            else:
                entries += self._by_script[script]
        return entries

    def match(self, text: str) -> Opening | None:
        """The cue in the opening of ``text`` (after leading whitespace), if any.

        The languages tried follow the script of the first character; an opening in
        Latin letters or digits ("AAPL 시세를 먼저 조회해 보겠습니다") also tries the
        language of the first other script in its first sentence.
        """
        opening = prepare(text)
        if opening is None:
            return None
        key = (opening.exact, opening.scripts)
        entries = self._entries.get(key)
        if entries is None:
            entries = self._entries[key] = self._entries_for(opening.exact, opening.scripts)
        subject = opening.subject
        for entry in entries:
            found = entry.opening.match(subject) if entry.opening is not None else None
            if found is None and entry.sentence is not None:
                begin = entry.lead.match(subject).end()  # type: ignore[union-attr]
                limit = opening.first_end
                if limit < 0:
                    limit = first_sentence_end(subject)
                if begin > limit:  # the lead-in ran past the first sentence ("네. …")
                    limit = find_sentence_end(subject, begin)
                    if limit < 0:
                        limit = len(subject)
                if (
                    entry.anchors is not None
                    and entry.anchors.search(subject, begin, limit) is None
                ):
                    continue
                found = entry.sentence.search(subject, begin, limit)
            if found is not None:
                return Opening(entry.language, opening.start, opening.start + found.end())
        return None

    def after_lead_ins(self, text: str) -> int:
        """Offset just past the acknowledgements that open ``text`` ("Sure! ", "네, ").

        The first visible character when there are none (or the opening is not a
        sentence: code, a quote, a bullet); ``len(text)`` when nothing else follows them.
        """
        opening = prepare(text)
        if opening is None:
            return _LEADING_SPACE.match(text).end()  # type: ignore[union-attr]  # always matches
        key = (opening.exact, opening.scripts)
        entries = self._entries.get(key)
        if entries is None:
            entries = self._entries[key] = self._entries_for(opening.exact, opening.scripts)
        longest = 0
        for entry in entries:
            longest = max(longest, entry.lead.match(opening.subject).end())  # type: ignore[union-attr]
        return opening.start + longest


def _literal_alternation(literals: Sequence[str]) -> re.Pattern[str] | None:
    """One regex matching any of ``literals`` (lower-cased), longest first; None for none."""
    if not literals:
        return None
    ordered = sorted({literal.lower() for literal in literals}, key=len, reverse=True)
    return re.compile("|".join(re.escape(literal) for literal in ordered))


class Prepared(NamedTuple):
    """The opening of one text, ready for cue matching (shared by every cue table)."""

    start: int  # first visible character
    subject: str  # up to _HEAD characters from ``start``, lower-cased when that keeps offsets
    exact: bool  # lower-casing changed the length: match ``subject`` case-insensitively
    scripts: tuple[str, ...]  # scripts whose languages to try, in order
    # offset in ``subject`` of the end of its first sentence; -1 when not computed (an
    # ASCII opening: its cues are matched at the start): see ``first_sentence_end``
    first_end: int


def first_sentence_end(subject: str) -> int:
    """Offset of the end of the first sentence of ``subject`` (its length when none ends)."""
    end = find_sentence_end(subject)
    return len(subject) if end < 0 else end


_LATIN_ONLY = ("latin",)


# The last text prepared and its result, as one tuple (swapped atomically, so threads
# never see a text paired with another text's result). Every heuristic asks about the
# same text object in turn, so an identity check beats hashing the text for a cache.
_LAST: tuple[str | None, Prepared | None] = (None, None)


def prepare(text: str) -> Prepared | None:
    """The opening of ``text``, or None when it does not open with a sentence.

    Remembered for the last text: every heuristic looks at the same opening.
    """
    global _LAST
    last = _LAST
    if last[0] is text:
        return last[1]
    prepared = _prepare(text)
    _LAST = (text, prepared)
    return prepared


def _prepare(text: str) -> Prepared | None:
    start = 0
    first = text[:1]
    if not first.isalnum():
        if not first.isspace():
            return None  # quotes, code, markup, bullets: not an opening sentence
        start = _LEADING_SPACE.match(text).end()  # type: ignore[union-attr]  # always matches
        first = text[start : start + 1]
        if not first.isalnum():
            return None
    head = text[start : start + _HEAD]
    first_end = -1
    if head.isascii():
        if not first.isalpha():
            return None  # digits, then only ASCII: no cue table applies
        scripts: tuple[str, ...] = _LATIN_ONLY
    else:
        first_end = first_sentence_end(head)
        if first.isascii():
            scripts = _LATIN_ONLY if first.isalpha() else ()
            found = _LETTER_SCRIPT.search(head, 0, first_end)
            if found is not None:
                scripts += (_script(found.group()) or "latin",)
        else:
            script = _script(first)
            if script is None:
                return None
            scripts = (script,)
        if not scripts:
            return None
        # Japanese that opens with kanji shows kana in its first sentence (particles,
        # verb endings); looking no further keeps this off the rest of a Chinese head.
        if scripts[-1] == "han" and _KANA.search(head, 0, first_end + 1) is not None:
            scripts = scripts[:-1] + ("kana",)
        if scripts[0] != "latin":
            # nothing to lower-case: Hangul, kana and Han have no case
            return tuple.__new__(Prepared, (start, head, False, scripts, first_end))
    subject = head.lower()
    exact = len(subject) != len(head)  # e.g. "İ" lower-cases to two characters
    return tuple.__new__(Prepared, (start, head if exact else subject, exact, scripts, first_end))


class Markers:
    """Literal anchors in two strengths, each optionally followed by a required regex.

    One trie-shaped regex of the plain anchors finds candidates; an anchor's continuation
    is matched right after it only where the anchor occurs. One regex with the continuations inlined
    costs ~100 ns per character of text instead. With ``word_start``, an anchor must
    not follow a letter.
    """

    STRONG: Final = 2
    WEAK: Final = 1

    __slots__ = ("_any", "_rest", "_starts", "_word_start")

    def __init__(
        self,
        strong: Mapping[str, str | None],
        weak: Mapping[str, str | None] | None = None,
        *,
        word_start: bool = False,
    ) -> None:
        rest: dict[str, list[tuple[re.Pattern[str] | None, int]]] = {}
        for table, kind in ((strong, self.STRONG), (weak or {}, self.WEAK)):
            for anchor, follow in table.items():
                rest.setdefault(anchor, []).append((re.compile(follow) if follow else None, kind))
        # a trie, longest anchor first at each position: a flat alternation retries every
        # anchor at every character (~3x slower for the ~50 anchors of notes_block)
        trie = trie_regex(rest)
        self._any = re.compile(trie)
        # an anchor after a character that is no ASCII letter: the scan's word starts and
        # more. Its class leads, so the engine skips letters in C instead of trying the trie
        # at each of them (~60 % of an English text's positions open some anchor).
        self._starts = re.compile(f"[^A-Za-z]({trie})")
        self._rest = {anchor: tuple(options) for anchor, options in rest.items()}
        self._word_start = word_start

    def scan(self, text: str, lo: int = 0, hi: int | None = None) -> int:
        """``STRONG | WEAK`` bits for the markers found in ``text[lo:hi]`` (0: none)."""
        stop = len(text) if hi is None else hi
        if self._word_start and not self._may_find(text, lo, stop):
            return 0  # the common case, found without the scan's try at every letter
        found_kinds = 0
        for found in self._any.finditer(text, lo, stop):
            at = found.start()
            if self._word_start and at > 0 and text[at - 1].isalpha():
                continue
            for follow, kind in self._rest[found.group()]:
                if follow is None or follow.match(text, found.end(), stop) is not None:
                    found_kinds |= kind
            if found_kinds & self.STRONG:
                break
        return found_kinds

    def _may_find(self, text: str, lo: int, stop: int) -> bool:
        """False only when ``scan`` finds nothing: no anchor at any word start (every
        position, not only those ``scan``'s left-to-right matches reach) is followed by
        its continuation. The trie matches at a position as ``scan``'s does (same text,
        same end), so each anchor ``scan`` accepts is tried here too."""
        found = self._any.match(text, lo, stop)
        if (
            found is not None
            and not (lo > 0 and text[lo - 1].isalpha())
            and self._follows(text, found.group(), found.end(), stop)
        ):
            return True
        pos = lo
        while True:
            found = self._starts.search(text, pos, stop)
            if found is None:
                return False
            if self._follows(text, found.group(1), found.end(), stop):
                return True
            pos = found.start() + 1

    def _follows(self, text: str, anchor: str, end: int, stop: int) -> bool:
        for follow, _kind in self._rest[anchor]:
            if follow is None or follow.match(text, end, stop) is not None:
                return True
        return False


_LETTER_SCRIPT = re.compile(
    r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]"
)
_KANA = re.compile(r"[\u3040-\u30ff]")
# Where text.lstrip() would start, without copying the text (\s is exactly str.isspace)
_LEADING_SPACE = re.compile(r"\s*")


class Block(NamedTuple):
    """The opening block of a text: its first visible character up to the first line break."""

    language: str
    start: int  # first visible character
    end: int  # the first line break
    resume: int  # first visible character after it (``len(text)`` when none)


def opening_block(text: str, languages: Mapping[str, str], limit: int) -> Block | None:
    """The opening block when it ends in a line break within ``limit`` characters and the
    opening's script is a key of ``languages`` (script -> language)."""
    opening = prepare(text)
    if opening is None:
        return None
    language = languages.get(opening.scripts[-1])
    if language is None:
        return None
    start = opening.start
    brk = text.find("\n", start, start + limit)
    if brk < 0:
        return None
    resume = _LEADING_SPACE.match(text, brk).end()  # type: ignore[union-attr]  # always matches
    # a NamedTuple's own __new__ is Python-level code, twice as slow (as for ``Prepared``)
    return tuple.__new__(Block, (language, start, brk, resume))


def sentences(text: str, start: int, limit: int, count: int) -> list[tuple[int, int]]:
    """Up to ``count`` non-empty sentences of ``text[start:start + limit]`` as offsets."""
    out: list[tuple[int, int]] = []
    stop = min(len(text), start + limit)
    pos = start
    while pos < stop and len(out) < count:
        end = sentence_end(text, pos)
        if not text[pos:end].isspace():
            out.append((pos, min(end, stop)))
        if end <= pos:
            break
        pos = end
    return out


def sentence_end(text: str, pos: int) -> int:
    """Offset just past the sentence that is open at ``pos`` (a run of "..." counts as one end)."""
    found = find_sentence_end(text, pos)
    if found < 0:
        return len(text)
    end = found + 1
    while end < len(text) and text[end] in ".…!?":
        end += 1
    return end
