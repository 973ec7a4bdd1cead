"""Candidate marker shapes in a text, for the fleet learner (``pipeline/worker/marker_learner.py``).

Pure and cheap: every event pays for it. A *shape* is a short delimited literal of any
bracket family (``<x>``, ``<<x>>``, ``[x]``, ``[[x]]``, ``【x】``, ``⟨x⟩``, ``〈x〉``,
``《x》``, ``◁x▷``, ``{|x|}``, ``▶▶x◀◀``; pipes, ``▁``, a slash allowed) with at most
``MAX_INNER`` characters inside, or a pair of such literals (``<x>`` … ``</x>``,
``[[x]]`` … ``[[/x]]``, ``<x_start>`` … ``<x_end>``) around a block. Only literals that
sit where markers sit are candidates: opening the text, closing it, opening a line that
text follows, or as such a pair. Code (fences, inline spans) and quotes are skipped
(``text.outside_code``), and so are the shapes ordinary content is made of (HTML element
names, Markdown links and footnotes, one-letter boxes).

``shapes(text)`` returns ``(shape, where, start, end)`` tuples: the literal (a pair is
``open + PAIR_SEP + close``), a ``WHERE_*`` bit, and the span of its first literal. This
module finds and never judges: whether a shape is a marker is a question about many
texts, answered by counting (the learner), never by one.
"""

from __future__ import annotations

import re
from typing import Final

from leakline.detectors.text import code_map, is_quoted

# a candidate's position, as bits (a shape seen at several places in one text keeps each)
WHERE_START: Final = 1  # opens the text
WHERE_END: Final = 2  # closes the text
WHERE_LINE: Final = 4  # opens a line that text follows
WHERE_PAIR: Final = 8  # an opener whose closer follows later in the text

# separates the two literals of a pair shape (never inside a literal: whitespace is refused)
PAIR_SEP: Final = "\t"
MAX_INNER: Final = 32  # characters between the brackets
MAX_SHAPES: Final = 8  # candidates per text: a marker is one of the first few

# opener glyph -> closer glyph. Each may be doubled (``<<x>>``, ``[[x]]``, ``▶▶x◀◀``).
BRACKETS: Final[dict[str, str]] = {
    "<": ">",
    "[": "]",
    "{": "}",  # only with pipes: ``{|x|}`` (``{name}`` is a format field)
    "【": "】",
    "⟨": "⟩",
    "〈": "〉",
    "《": "》",
    "◁": "▷",
    "▶": "◀",
    "⟪": "⟫",
    "⦃": "⦄",
}
_OPENERS: Final = "".join(BRACKETS)

# inside: a word that starts with a letter (``[1]``, ``[12:30]`` are not markers) of letters, digits and marker punctuation, up to three more words after
# single spaces (``[BEGIN FINAL RESPONSE]``); an optional pipe or ``▁`` on each side
_PART: Final = r"[\w.:\-▁!#+]"
_INNER: Final = (
    r"(?P<pipe>[|｜▁]?)(?P<slash>/?) ?"
    r"(?P<word>[^\W\d_]" + _PART + "{0,31}(?: " + _PART + "{1,31}){0,3}) ?/?[|｜▁]?"
)


def _token_pattern(open_: str, close: str) -> re.Pattern[str]:
    o, c = re.escape(open_), re.escape(close)
    return re.compile(f"(?P<open>{o}{o}?){_INNER}(?P<close>{c}{c}?)")


_TOKEN: Final[dict[str, re.Pattern[str]]] = {o: _token_pattern(o, c) for o, c in BRACKETS.items()}
# a literal opening a line (up to three spaces of indent), any bracket family: one regex,
# so the scan runs in C and Python sees only the lines that open with a literal. It starts
# with a literal newline, so CPython skips from newline to newline; group 1 is the literal.
_LINE_TOKEN: Final = re.compile(
    "\n[ \t]{0,3}("
    + "|".join(re.sub(r"\(\?P<\w+>", "(?:", p.pattern) for p in _TOKEN.values())
    + ")"
)

# Content, not markers: HTML (and SVG/MathML) element names in angle brackets. Whatever
# case: ``<DIV>`` is the same element.
_HTML: Final = frozenset(
    [
        "a",
        "abbr",
        "address",
        "area",
        "article",
        "aside",
        "audio",
        "b",
        "base",
        "bdi",
        "bdo",
        "blockquote",
        "body",
        "br",
        "button",
        "canvas",
        "caption",
        "center",
        "cite",
        "code",
        "col",
        "colgroup",
        "data",
        "datalist",
        "dd",
        "del",
        "details",
        "dfn",
        "dialog",
        "div",
        "dl",
        "dt",
        "em",
        "embed",
        "fieldset",
        "figcaption",
        "figure",
        "font",
        "footer",
        "form",
        "frame",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hgroup",
        "hr",
        "html",
        "i",
        "iframe",
        "img",
        "input",
        "ins",
        "kbd",
        "label",
        "legend",
        "li",
        "link",
        "main",
        "map",
        "mark",
        "menu",
        "meta",
        "meter",
        "nav",
        "noscript",
        "object",
        "ol",
        "optgroup",
        "option",
        "output",
        "p",
        "param",
        "picture",
        "pre",
        "progress",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "script",
        "search",
        "section",
        "select",
        "slot",
        "small",
        "source",
        "span",
        "strike",
        "strong",
        "style",
        "sub",
        "summary",
        "sup",
        "svg",
        "table",
        "tbody",
        "td",
        "template",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "time",
        "title",
        "tr",
        "track",
        "tt",
        "u",
        "ul",
        "var",
        "video",
        "wbr",
        "path",
        "g",
        "rect",
        "circle",
        "line",
        "polyline",
        "polygon",
        "text",
        "tspan",
        "defs",
        "use",
        "symbol",
        "math",
        "mi",
        "mn",
        "mo",
        "mrow",
        "msup",
        "msub",
        "mfrac",
        "msqrt",
    ]
)


# what a literal is, whatever text it sits in: (word, whether it closes, whether a
# following ``(``, ``:`` or ``[`` makes it Markdown, its closers); word "" = not a
# candidate. The same few literals recur in every text of a group, so each is judged once.
_Judged = tuple[str, bool, bool, tuple[str, ...]]
_JUDGED: Final[dict[str, _Judged]] = {}
_JUDGED_MAX: Final = 4096  # cleared when full: a bound, not an LRU
_REJECTED: Final[_Judged] = ("", False, False, ())


def _judge(m: re.Match[str]) -> _Judged:
    """The literal-only checks of a token match (``_token_at`` adds the context's)."""
    opened, closed, word = m.group("open"), m.group("close"), m.group("word")
    if len(opened) != len(closed) or len(word) > MAX_INNER or len(word) < 2:
        return _REJECTED
    pipe = m.group("pipe")
    if opened[0] == "{" and not pipe:
        return _REJECTED  # ``{name}``: a format field
    if "://" in word:
        return _REJECTED  # an autolink
    literal = m.group()
    if opened == "<" and not pipe and (word.lower() in _HTML or literal[-2] == "/"):
        return _REJECTED  # an HTML element, or a self-closing XML/JSX element (``<Route />``)
    closes = bool(m.group("slash"))
    return word, closes, opened == "[", () if closes else _closers(literal, word)


def _judged(literal: str, m: re.Match[str] | None) -> _Judged:
    """``_judge`` of ``literal``, remembered (``m``: its match, when the caller has one)."""
    judged = _JUDGED.get(literal)
    if judged is None:
        if m is None:
            m = _TOKEN[literal[0]].match(literal)
        judged = _judge(m) if m is not None else _REJECTED
        if len(_JUDGED) >= _JUDGED_MAX:
            _JUDGED.clear()
        _JUDGED[literal] = judged
    return judged


def _token_at(text: str, pos: int) -> tuple[str, int, bool, tuple[str, ...]] | None:
    """The literal starting at ``pos`` (its end, whether it closes, its closers), or None."""
    pattern = _TOKEN.get(text[pos])
    if pattern is None:
        return None
    m = pattern.match(text, pos)
    if m is None:
        return None
    literal = m.group()
    return _in_context(text, literal, m.end(), _judged(literal, m))


def _in_context(
    text: str, literal: str, end: int, judged: _Judged
) -> tuple[str, int, bool, tuple[str, ...]] | None:
    if not judged[0]:
        return None
    if judged[2] and end < len(text) and text[end] in "(:[":
        return None  # Markdown: [text](url), [ref]: url, [text][ref]
    return literal, end, judged[1], judged[3]


def _closers(literal: str, word: str) -> tuple[str, ...]:
    """The spellings that close a region ``literal`` opens: a slash, or an end word."""
    i = literal.find(word)
    head, tail = literal[:i], literal[i + len(word) :]
    out = [head.rstrip(" ") + "/" + literal[len(head.rstrip(" ")) :]]
    if head.endswith(" "):  # ``▶▶ x ◀◀`` -> ``▶▶ /x ◀◀`` as well as ``▶▶/ x ◀◀``
        out.append(head + "/" + word + tail)
    lower = word.lower()
    for a, b in (("begin", "end"), ("start", "end"), ("open", "close")):
        at = lower.find(a)
        if at >= 0:
            out.append(
                head
                + word[:at]
                + _same_case(b, word[at : at + len(a)])
                + word[at + len(a) :]
                + tail
            )
    return tuple(out)


def _same_case(word: str, like: str) -> str:
    if like.isupper():
        return word.upper()
    if like[:1].isupper():
        return word.capitalize()
    return word


# how far the probes look past leading / trailing whitespace before giving up on a text
_EDGE: Final = 64
_OPENER_OF: Final[dict[str, str]] = {c: o for o, c in BRACKETS.items()}  # closers are unique
_PIPED_BRACE: Final = re.compile("\\{\\{?[|｜▁]")


def _first_visible(text: str) -> int:
    """The first non-whitespace index, or ``len(text)`` when there is none within ``_EDGE``."""
    n = len(text)
    i = 0
    while i < n and i < _EDGE and text[i].isspace():
        i += 1
    return i if i < _EDGE else n


def _last_visible(text: str) -> int:
    """One past the last non-whitespace character; ``len(text)`` when there is none within
    ``_EDGE`` (then no literal closes the text), 0 for a text of whitespace."""
    n = len(text)
    i = n
    stop = max(0, n - _EDGE)
    while i > stop and text[i - 1].isspace():
        i -= 1
    return n if i == stop and stop > 0 else i


def shapes(text: str) -> list[tuple[str, int, int, int]]:
    """Candidate marker shapes of ``text``, at most ``MAX_SHAPES``; see the module doc.

    The common text has no bracket where markers sit, so three probes come first and
    nothing else runs when all three miss: the first visible character, the last one, and
    one C-level search for a literal opening a line (``_LINE_TOKEN``). No Python loop ever walks the text."""
    n = len(text)
    if not n:
        return []
    first = _first_visible(text)
    last = _last_visible(text)
    line = _LINE_TOKEN.search(text)
    head = first < n and text[first] in BRACKETS
    tail = last >= 2 and text[last - 1] in _OPENER_OF
    if not head and line is None and not tail:
        return []
    found: list[tuple[str, int, int, int]] = []
    seen: set[str] = set()
    if head or line is not None:
        _add_openers(text, first, last, line, seen, found)
    if tail and len(found) < MAX_SHAPES:
        _add_end(text, last, first, seen, found)
    return found


def _add_openers(
    text: str,
    first: int,
    last: int,
    line: re.Match[str] | None,
    seen: set[str],
    found: list[tuple[str, int, int, int]],
) -> None:
    """Literals opening the text or a line, each with its closer when one follows (a pair)."""
    tokens: list[tuple[int, tuple[str, int, bool, tuple[str, ...]] | None]] = []
    if first < len(text) and text[first] in BRACKETS:
        tokens.append((first, _token_at(text, first)))
    if line is not None:
        for m in _LINE_TOKEN.finditer(text, line.start()):
            at = m.start(1)
            if at != first:
                literal = m.group(1)
                judged = _JUDGED.get(literal)  # inline: most lines repeat a known literal
                if judged is None:
                    judged = _judged(literal, None)
                token = _in_context(text, literal, m.end(1), judged) if judged[0] else None
                tokens.append((at, token))
            if len(tokens) >= 2 * MAX_SHAPES:
                break
    cmap = code_map(text)  # cached: the detectors asked for the same text already
    for at, token in tokens:
        if token is None:
            continue
        literal, end, closes, closers = token
        if (cmap and cmap.covers(at)) or is_quoted(text, at, end):
            continue
        where = WHERE_START if at == first else WHERE_LINE
        if end >= last:
            where = WHERE_END if at != first else where
        shape = literal
        if not closes:
            for closer in closers:
                close_at = text.find(closer, end)
                if close_at >= 0:
                    shape = literal + PAIR_SEP + closer
                    where |= WHERE_PAIR
                    seen.add(closer)
                    break
        if shape in seen or literal in seen:
            continue
        seen.add(shape)
        found.append((shape, where, at, end))
        if len(found) >= MAX_SHAPES:
            return


def _add_end(
    text: str,
    last: int,
    first: int,
    seen: set[str],
    found: list[tuple[str, int, int, int]],
) -> None:
    """A literal that closes the text (glued to it or on its own line)."""
    open_ = _OPENER_OF.get(text[last - 1])
    if open_ is None:
        return
    lo = max(0, last - MAX_INNER - 8)
    if open_ == "{" and _PIPED_BRACE.search(text, lo, last) is None:
        return  # JSON ends in ``}`` all the time; a brace literal needs a pipe
    at = text.rfind(open_, lo, last - 1)
    while at > 0 and text[at - 1] == open_:
        at -= 1  # a doubled opener: start at its first glyph
    if at < 0 or at == first:
        return
    token = _token_at(text, at)
    if token is None or token[1] != last:
        return
    literal = token[0]
    if literal in seen or is_quoted(text, at, last):
        return
    cmap = code_map(text)
    if cmap and cmap.covers(at):
        return
    found.append((literal, WHERE_END, at, last))


# --------------------------------------------------------------------------- per exchange

# what ``sighting`` returns for one exchange with candidates: the response's shapes
# (shape, where) that the prompt does not contain, the prompt's own shapes, and an
# unredacted example around the first response shape (the learner redacts what it keeps)
Sighting = tuple[tuple[tuple[str, int], ...], tuple[str, ...], str]

GROUP_SEP: Final = "\x1f"  # joins the version fields of a group key
_EXAMPLE_BEFORE: Final = 40
_EXAMPLE_AFTER: Final = 80


def group_key(
    model: str | None, engine: str | None, engine_version: str | None, template_hash: str | None
) -> str:
    """The version group a response belongs to: model, engine and version, template hash."""
    return GROUP_SEP.join((model or "", engine or "", engine_version or "", template_hash or ""))


def _in_prompt(shape: str, prompt: str) -> bool:
    """The prompt contains the shape's literal(s): the answer was asked for, or quotes it."""
    if not prompt:
        return False
    sep = shape.find(PAIR_SEP)
    if sep < 0:
        return shape in prompt
    return shape[:sep] in prompt or shape[sep + 1 :] in prompt


def sighting(visible_text: str, prompt_text: str) -> Sighting | None:
    """The candidates of one exchange's visible text and prompt, or None when neither has any."""
    found = shapes(visible_text)
    asked = shapes(prompt_text) if prompt_text else found[:0]
    if not found and not asked:  # the common case: nothing more to build
        return None
    response = tuple((s, w) for s, w, _, _ in found if not _in_prompt(s, prompt_text))
    prompt = tuple(s for s, _, _, _ in asked)
    if not response and not prompt:
        return None
    example = ""
    for s, _, start, end in found:
        if not _in_prompt(s, prompt_text):
            example = visible_text[max(0, start - _EXAMPLE_BEFORE) : end + _EXAMPLE_AFTER]
            break
    return response, prompt, example


# per version group: (events, their sightings), what a batch hands the learner
Tally = dict[str, tuple[int, list[Sighting]]]


def tally(markers: Tally, key: str, visible_text: str, prompt_text: str) -> None:
    """Count one event for its group ``key``, with its sighting when it has one."""
    entry = markers.get(key)
    found = sighting(visible_text, prompt_text)
    if entry is None:
        markers[key] = (1, [found] if found is not None else [])
        return
    if found is not None:
        entry[1].append(found)
    markers[key] = (entry[0] + 1, entry[1])
