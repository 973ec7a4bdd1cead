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

from leakline.detectors.text import CodeMap, code_map, is_quoted

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
_NON_ASCII_OPENERS: Final = "".join(o for o in BRACKETS if not o.isascii())

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
# a line that opens with a bracket glyph (up to three spaces of indent). Starts with a
# literal, so CPython skips from newline to newline.
_LINE_OPEN: Final = re.compile("\n[ \t]{0,3}[" + re.escape(_OPENERS) + "]")

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


def _token_at(text: str, pos: int) -> tuple[str, int, str, bool] | None:
    """The literal starting at ``pos`` (its end, its word, whether it closes), or None."""
    pattern = _TOKEN.get(text[pos])
    if pattern is None:
        return None
    m = pattern.match(text, pos)
    if m is None:
        return None
    opened, closed, word = m.group("open"), m.group("close"), m.group("word")
    if len(opened) != len(closed) or len(word) > MAX_INNER or len(word) < 2:
        return None
    pipe = m.group("pipe")
    if opened[0] == "{" and not pipe:
        return None  # ``{name}``: a format field
    if "://" in word:
        return None  # an autolink
    end = m.end()
    if opened == "[" and end < len(text) and text[end] in "(:[":
        return None  # Markdown: [text](url), [ref]: url, [text][ref]
    if opened == "<" and not pipe and (word.lower() in _HTML or text[end - 2] == "/"):
        return None  # an HTML element, or a self-closing XML/JSX element (``<Route />``)
    return text[pos:end], end, word, bool(m.group("slash"))


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


def _first_visible(text: str) -> int:
    i = 0
    n = len(text)
    while i < n and text[i].isspace():
        i += 1
    return i


def _might_hold(text: str) -> bool:
    """Cheap probe: any opener glyph at all (ASCII texts need only ``<``, ``[``, ``{``)."""
    if "<" in text or "[" in text or "{|" in text:
        return True
    if text.isascii():
        return False
    return any(o in text for o in _NON_ASCII_OPENERS)


def shapes(text: str) -> list[tuple[str, int, int, int]]:
    """Candidate marker shapes of ``text``, at most ``MAX_SHAPES``; see the module doc."""
    if not text or not _might_hold(text):
        return []
    starts: list[int] = []
    first = _first_visible(text)
    if first < len(text) and text[first] in BRACKETS:
        starts.append(first)
    for m in _LINE_OPEN.finditer(text):
        at = m.end() - 1
        if at != first:
            starts.append(at)
        if len(starts) >= 2 * MAX_SHAPES:
            break
    found: list[tuple[str, int, int, int]] = []
    seen: set[str] = set()
    cmap = code_map(text)
    last = len(text.rstrip())  # one copy at most; texts rarely end in whitespace
    for at in starts:
        token = _token_at(text, at)
        if token is None:
            continue
        literal, end, word, closes = token
        if (cmap and cmap.covers(at)) or is_quoted(text, at, end):
            continue
        where = WHERE_START if at == first else WHERE_LINE
        if end >= last:
            where = WHERE_END if at != first else where
        shape = literal
        if not closes:
            for closer in _closers(literal, word):
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
            return found
    _add_end(text, last, cmap, first, seen, found)
    return found


def _add_end(
    text: str,
    last: int,
    cmap: CodeMap,
    first: int,
    seen: set[str],
    found: list[tuple[str, int, int, int]],
) -> None:
    """A literal that closes the text (glued to it or on its own line)."""
    if last < 2 or len(found) >= MAX_SHAPES:
        return
    close_glyph = text[last - 1]
    for open_, close in BRACKETS.items():
        if close != close_glyph:
            continue
        at = text.rfind(open_, max(0, last - MAX_INNER - 8), last - 1)
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
        if cmap and cmap.covers(at):
            return
        found.append((literal, WHERE_END, at, last))
        return


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
    response = tuple((s, w) for s, w, _, _ in found if not _in_prompt(s, prompt_text))
    prompt = tuple(s for s, _, _, _ in shapes(prompt_text)) if prompt_text else ()
    if not response and not prompt:
        return None
    example = ""
    for s, _, start, end in found:
        if not _in_prompt(s, prompt_text):
            example = visible_text[max(0, start - _EXAMPLE_BEFORE) : end + _EXAMPLE_AFTER]
            break
    return response, prompt, example
