"""Opening-cue tables: multilingual regex fragments compiled once, matched only at the start.

Cue tables are data: per language, regex fragments in two lists.

- ``opening``: must match at the very start of the text (after whitespace and an
  optional acknowledgement such as "Sure," or "好的，").
- ``sentence``: may match anywhere in the first sentence. Korean and Japanese put
  the verb last ("먼저 자료를 찾아보겠습니다"), so their cues live here.

``OpeningCues`` compiles each list once and picks the languages to try from the
script of the first visible character, so a clean answer costs one or two short
regex calls.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# What ends a sentence in the languages we read.
SENTENCE_END = re.compile(r"[.!?。！？…\n]")
_LEAD_IN_TAIL = r"[\s,，、.。!！~～—–-]*"

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


# Cues never need more than this much of the opening.
_HEAD = 240
# The languages to try, by the script of the first visible character.
_SCRIPTS = {"latin": ("en",), "hangul": ("ko",), "kana": ("ja",), "han": ("zh", "ja")}


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

    __slots__ = ("_by_script", "_exact_latin")

    def __init__(self, cues: CueTable, lead_ins: Mapping[str, Sequence[str]] | None = None) -> None:
        compiled: dict[str, _Compiled] = {}
        exact: dict[str, _Compiled] = {}
        for lang, table in cues.items():
            unknown = set(table) - {"opening", "sentence"}
            if unknown:
                raise ValueError(f"cue lists {sorted(unknown)} for {lang!r}: use opening/sentence")
            words = (lead_ins or {}).get(lang, ())
            lead = f"(?:(?:{'|'.join(words)}){_LEAD_IN_TAIL})?" if words else ""
            opening = "|".join(table.get("opening") or ())
            sentence = "|".join(table.get("sentence") or ())
            for flags, target in ((0, compiled), (re.IGNORECASE, exact)):
                target[lang] = _Compiled(
                    language=lang,
                    lead=re.compile(lead, flags),
                    opening=re.compile(f"{lead}(?:{opening})", flags) if opening else None,
                    sentence=re.compile(sentence, flags) if sentence else None,
                )
        self._by_script = {
            script: tuple(compiled[lang] for lang in langs if lang in compiled)
            for script, langs in _SCRIPTS.items()
        }
        self._exact_latin = tuple(exact[lang] for lang in _SCRIPTS["latin"] if lang in exact)

    def match(self, text: str) -> Opening | None:
        """The cue in the opening of ``text`` (after leading whitespace), if any."""
        start = 0
        first = text[:1]
        if first.isspace():
            start = len(text) - len(text.lstrip())
            first = text[start : start + 1]
        if not first:
            return None
        head = text[start : start + _HEAD]
        if first.isascii():
            if not first.isalpha():
                return None
            subject = head.lower()
            entries = self._by_script["latin"]
            if len(subject) != len(head):  # e.g. "İ" lower-cases to two characters
                subject, entries = head, self._exact_latin
        else:
            script = _script(first)
            if script is None:
                return None
            subject, entries = head, self._by_script[script]
        for entry in entries:
            found = entry.opening.match(subject) if entry.opening is not None else None
            if found is None and entry.sentence is not None:
                begin = entry.lead.match(subject).end()  # type: ignore[union-attr]
                stop = SENTENCE_END.search(subject, begin)
                limit = stop.start() if stop is not None else len(subject)
                found = entry.sentence.search(subject, begin, limit)
            if found is not None:
                return Opening(entry.language, start, start + found.end())
        return None


def sentence_end(text: str, pos: int) -> int:
    """Offset just past the sentence that is open at ``pos`` (a run of "..." counts as one end)."""
    found = SENTENCE_END.search(text, pos)
    if found is None:
        return len(text)
    end = found.end()
    while end < len(text) and text[end] in ".…!?":
        end += 1
    return end
