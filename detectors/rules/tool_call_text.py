"""``tool_call_as_text``: no structured call returned, and the text holds a family's call markup.

The markup rows come from the active family table (``families.active_markups``).
Declared tools are not required: gateways and traces often drop them. Without them
only framed markup counts (a row's special token or tag); bare rows (plain JSON,
pythonic lists) and a whole-answer JSON call need the call's name to be declared.

Every finding carries the calls it could rescue, each checked against the declared
tool's JSON Schema: ``details["rescued_calls"] = [{"name", "arguments", "schema_valid",
"errors"}]`` (``errors``: the first three messages; an undeclared name is invalid;
``schema_valid`` is None when the request declared no tools, so nothing can be checked).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, NamedTuple

from leakline.detectors import generic, schema
from leakline.detectors.common import MAX_FINDINGS, DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.families import FamilyTable, ModelFamily, active_table, named_families
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.text import (
    LiteralScanner,
    crosses,
    is_quoted,
    loads,
    outside_code,
    piece_boundaries,
    probe,
    unwrap_fence,
)
from leakline.detectors.tool_markup import (
    Call,
    ToolMarkup,
    calls_from_value,
    pythonic_calls,
)


class _Markups(NamedTuple):
    """What this rule derives from the active table's markup rows."""

    rows: tuple[ToolMarkup, ...]
    # Openers that are markup on their own: one with no parsable block after it still counts.
    opener_owner: dict[str, ToolMarkup]
    openers: LiteralScanner
    # Bare syntaxes have short, common cues ("(", '"name"'): checked with ``in``, not
    # scanned, each as (probe, cue): a rare character of the cue first (``probe``; the cue
    # is "" when it is that one character), then the characters one of which every row it
    # announces starts with ("" when one does not start with a plain character): '"' and
    # '"name"' announce only '{"name": "…', so a text with no "{" skips the 6-char search
    bare_cues: tuple[tuple[str, str, str], ...]
    # cue -> positions in ``rows`` of the rows it announces
    rows_by_cue: dict[str, tuple[int, ...]]
    by_name: dict[str, ToolMarkup]
    # opener cues with none of ``generic.MARK_CHARS`` in them (a rare character of each
    # first): ``generic.marks`` cannot vouch for them. Harmony's "to=functions." is left
    # out (``opener=False``: prose can contain it); without declared tools its call
    # counts only inside special tokens, which carry "<".
    unmarked: tuple[tuple[str, str], ...]


def _build(table: FamilyTable) -> _Markups:
    rows = table.markups
    opener_owner = {cue: m for m in reversed(rows) if not m.bare for cue in m.cues}
    rows_by_cue: dict[str, tuple[int, ...]] = {}
    for i, markup in enumerate(rows):
        for cue in markup.cues:
            rows_by_cue[cue] = (*rows_by_cue.get(cue, ()), i)
    return _Markups(
        rows=rows,
        opener_owner=opener_owner,
        openers=LiteralScanner(opener_owner),
        bare_cues=tuple(
            # (a one-character cue is its own probe: a lead would add a scan, not save one)
            (*_probed(cue), _leads(rows, rows_by_cue[cue]) if len(cue) > 1 else "")
            for cue in dict.fromkeys(cue for m in rows if m.bare for cue in m.cues)
        ),
        rows_by_cue=rows_by_cue,
        by_name={m.name: m for m in rows},
        unmarked=tuple(
            (probe(cue), cue)
            for cue, m in opener_owner.items()
            if m.opener and not any(c in cue for c in generic.MARK_CHARS)
        ),
    )


def _probed(cue: str) -> tuple[str, str]:
    rare = probe(cue)
    return (rare, "" if cue == rare else cue)


def _leads(rows: tuple[ToolMarkup, ...], indices: tuple[int, ...]) -> str:
    """The characters the patterns of ``rows[indices]`` start with, one per row; "" when
    any of them may start otherwise (then no character can rule the rows out)."""
    leads = ""
    for index in indices:
        lead = _lead_literal(rows[index].pattern)
        if not lead:
            return ""
        leads += lead
    return leads


def _lead_literal(pattern: re.Pattern[str]) -> str:
    """The character every match of ``pattern`` starts with: a plain or escaped literal
    that opens it, no quantifier after it, no alternation anywhere (kept simple and
    safe); "" otherwise."""
    source = pattern.pattern
    if pattern.flags & re.VERBOSE or "|" in source:
        return ""
    if len(source) >= 2 and source[0] == "\\" and not source[1].isalnum():
        lead, rest = source[1], source[2:]
    elif source[:1] and source[0] not in ".^$*+?{}[]\\|()":
        lead, rest = source[0], source[1:]
    else:
        return ""
    if rest[:1] in ("?", "*", "{") or pattern.flags & re.IGNORECASE and lead.isalpha():
        return ""
    return lead


def _unmarked_cue(markups: _Markups, text: str) -> bool:
    return any(rare in text and cue in text for rare, cue in markups.unmarked)


def _markups() -> _Markups:
    return active_table().memo("tool_call_text", _build)


def claimed_spans(text: str) -> list[tuple[int, int]]:
    """Where the active rows' markup sits in ``text`` (visible or not, bare rows aside):
    what this rule decides about, so the generic layer leaves it alone."""
    markups = _markups()
    hits = markups.openers.finditer(text, generic.ABSENT[generic.marks(text)])
    if not hits:
        return []
    spans = [(h.start, h.end) for h in hits]
    for index in sorted({i for h in hits for i in markups.rows_by_cue[h.literal]}):
        markup = markups.rows[index]
        if not markup.bare:
            spans.extend((m.start(), m.end()) for m in markup.pattern.finditer(text))
    return spans


# "Hermes wraps each call in <tool_call> tags": markup named as a word, not a call.
_MARKUP_NOUN = re.compile(
    r"[\"'”’)\]]?(?:\s{1,2}(?:tags?|tokens?|blocks?|markers?|format|syntax|wrappers?|elements?"
    r"|delimiters?|sections?)(?![A-Za-z])|\s?(?:태그|토큰|블록|标签|标记|格式|タグ|トークン))"
)
# The whole answer is one pythonic call: get_weather(city="Seoul")
_WHOLE_PYTHONIC = re.compile(r"[A-Za-z_][\w.]*\s*\(.*\)\s*", re.DOTALL)
_MAX_ERRORS = 3


class ToolCallText(DetectorBase):
    id = "tool_call_text"
    version = "4"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        if exchange.tool_calls:
            return []
        text = exchange.visible_text
        if not text:
            return []
        declared = exchange.declared_tools
        markups = _markups()
        sole_fence = None
        if not declared:
            # Without declared tools only framed markup counts: a text with none of the
            # characters openers start with ("<", "[", "◁": ``generic.marks``, shared with
            # the other rules) and none of the other opener cues holds no call.
            marks = generic.marks(text)
            if not marks and (not markups.unmarked or not _unmarked_cue(markups, text)):
                return []
            openers = markups.openers.finditer(text, generic.ABSENT[marks])
            if not openers:
                return []
        else:
            if text.isspace():
                return []
            if _may_be_whole_call(text):
                body = text.strip()
                sole_fence = unwrap_fence(body) if body[:3] in ("```", "~~~") else None
                whole = sole_fence if sole_fence is not None else body
                calls, syntax = _whole_text_calls(whole, declared)
                if calls:
                    span = (len(text) - len(text.lstrip()), len(text.rstrip()))
                    return [self._finding(exchange, text, span, syntax, calls, 0.95)]
            openers = markups.openers.finditer(text, generic.ABSENT[generic.marks(text)])

        rows = {i for hit in openers for i in markups.rows_by_cue[hit.literal]}
        if declared:
            for rare, bare_cue, leads in markups.bare_cues:
                if (
                    rare in text
                    and (not leads or any(lead in text for lead in leads))
                    and bare_cue in text
                ):
                    rows.update(markups.rows_by_cue[bare_cue or rare])
        if not rows:
            return []
        findings: list[Finding] = []
        taken: list[tuple[int, int]] = []
        prompt = exchange.prompt_text
        for row in sorted(rows):
            markup = markups.rows[row]
            if markup.bare and not declared:
                continue
            named = markup.bare and "name" in markup.pattern.groupindex
            for match in markup.pattern.finditer(text):
                start = match.start()
                if named and match["name"] not in declared:
                    continue  # ordinary text ("[len(x) for …]"): skip the code-map work
                if _overlaps(taken, start, match.end()):
                    continue
                check = sole_fence is None
                if check and not _visible(text, start, match.end(), markup):
                    continue  # for a bare call this re-checks its full extent after rescue
                if _named_as_word(text, start, markup):
                    continue
                if prompt and _quoted_from(prompt, text, start, match.end()):
                    taken.append((start, match.end()))
                    continue  # the answer quotes a block the user pasted
                calls, end = markup.rescue(match)
                if markup.bare and not (calls and all(c["name"] in declared for c in calls)):
                    continue
                if check and markup.bare and not _visible(text, start, end, markup):
                    continue
                taken.append((start, max(end, match.end())))
                confidence = 0.85 if markup.bare else 0.95 if declared else 0.9
                findings.append(
                    self._finding(exchange, text, (start, end), markup.name, calls, confidence)
                )
                if len(findings) >= MAX_FINDINGS:
                    return findings
        for cue in openers:
            owner = markups.opener_owner[cue.literal]
            if not owner.opener or _overlaps(taken, cue.start, cue.end):
                continue
            if _MARKUP_NOUN.match(text, cue.end) is not None:
                continue
            if sole_fence is None and not outside_code(text, cue.start, cue.end):
                continue
            taken.append((cue.start, cue.end))
            findings.append(
                self._finding(exchange, text, (cue.start, cue.end), owner.name, [], 0.85)
            )
            if len(findings) >= MAX_FINDINGS:
                break
        return findings

    def _finding(
        self,
        exchange: Exchange,
        text: str,
        span: tuple[int, int],
        syntax: str,
        calls: list[Call],
        confidence: float,
    ) -> Finding:
        declared = exchange.declared_tools
        details: dict[str, Any] = {
            "syntax": syntax,
            "rescued_calls": [_validated(call, declared) for call in calls],
        }
        family = _family_writing(exchange, syntax)
        if family is not None:
            details["family"] = family
        unknown = sorted({c["name"] for c in calls if c["name"] not in declared})
        if unknown and declared:
            details["undeclared_tools"] = unknown
        bounds = piece_boundaries(exchange.stream_facts.visible_pieces, len(text))
        if bounds and _marker_split(text, span, syntax, bounds):
            details["split_across_chunks"] = True
        return self.finding(
            Label.TOOL_CALL_AS_TEXT,
            layer=Layer.PARSER,
            remediation=Remediation.RESCUE if calls else Remediation.REGENERATE,
            confidence=confidence,
            text=text,
            span=span,
            details=details,
        )


def _validated(call: Call, declared: dict[str, Any]) -> dict[str, Any]:
    """The rescued call plus whether its arguments pass the declared tool's schema."""
    name = call["name"]
    errors: list[str] = []
    if not declared:
        return {"name": name, "arguments": call["arguments"], "schema_valid": None, "errors": []}
    if name not in declared:
        known = ", ".join(sorted(declared)[:20])
        errors.append(f"{name!r} is not a declared tool (declared: {known})")
    else:
        tool_schema = declared[name]
        if tool_schema is not None and schema.is_valid(tool_schema, call["arguments"]) is False:
            for violation in schema.violations(tool_schema, call["arguments"], _MAX_ERRORS):
                where = f" at {violation.path}" if violation.path else ""
                errors.append(violation.message + where)
            if not errors:
                errors.append("arguments do not match the declared schema")
    return {
        "name": name,
        "arguments": call["arguments"],
        "schema_valid": not errors,
        "errors": errors[:_MAX_ERRORS],
    }


def _may_be_whole_call(text: str) -> bool:
    """The whole answer could be one call: JSON, a fence, or ``name(...)``."""
    ink = _INK.search(text)
    if ink is None:
        return False
    first = text[ink.start()]
    if first in "{[`~":
        return True
    if not (first.isalpha() or first == "_"):
        return False
    return text.endswith(")") or (text[-1].isspace() and text.rstrip().endswith(")"))


_INK = re.compile(r"\S")


def _whole_text_calls(body: str, declared: dict[str, Any]) -> tuple[list[Call] | None, str]:
    """Calls when the whole answer is a JSON call (or list of them) or one pythonic call."""
    first = body[:1]
    if first in ("{", "["):
        try:
            value = loads(body)
        except ValueError:
            value = None
        calls = calls_from_value(value, require_arguments=True) if value is not None else None
        if calls and all(c["name"] in declared for c in calls):
            return calls, "json"
        return None, ""
    if first.isalpha() or first == "_":
        if body[-1:] != ")" or _WHOLE_PYTHONIC.fullmatch(body) is None:
            return None, ""
        calls = pythonic_calls(body)
        if calls and all(c["name"] in declared for c in calls):
            return calls, "pythonic"
    return None, ""


def _family_writing(exchange: Exchange, syntax: str) -> str | None:
    return _writer(active_table(), named_families(exchange), syntax)


@lru_cache(maxsize=512)
def _writer(table: FamilyTable, named: tuple[ModelFamily, ...], syntax: str) -> str | None:
    """The preferred family (named ones first) that writes tool calls in ``syntax``."""
    for family in named + table.families:
        if any(m.name == syntax for m in family.tool_call_markup):
            return family.name
    return None


# A bare call's head ('{"name": "' or '[get_weather(') is what a split would hide.
_BARE_HEAD = 16


def _marker_split(text: str, span: tuple[int, int], syntax: str, bounds: list[int]) -> bool:
    """True when a stream piece boundary cuts one of the block's markers in two."""
    start, end = span
    markups = _markups()
    markup = markups.by_name.get(syntax)
    if markup is None or markup.bare:
        return crosses(bounds, start, min(end, start + _BARE_HEAD))
    for marker in markups.opener_owner:
        at = text.find(marker, start, end)
        while at >= 0:
            if crosses(bounds, at, at + len(marker)):
                return True
            at = text.find(marker, at + len(marker), end)
    return False


def _named_as_word(text: str, start: int, markup: ToolMarkup) -> bool:
    """The block's opening marker is followed by a word such as "tags": prose about it."""
    opener = next((c for c in markup.cues if text.startswith(c, start)), None)
    return opener is not None and _MARKUP_NOUN.match(text, start + len(opener)) is not None


def _visible(text: str, start: int, end: int, markup: ToolMarkup) -> bool:
    """Outside code, and neither the block nor its opening marker is quoted."""
    if not outside_code(text, start, end):
        return False
    opener = next((c for c in markup.cues if text.startswith(c, start)), text[start])
    return not is_quoted(text, start, start + len(opener))


# How much of a block (from its opener) must appear in the prompt for the answer to be
# quoting it: more than an opener alone, so a user who only names a tag gains nothing.
_QUOTE_CHARS = 48


def _quoted_from(prompt: str, text: str, start: int, end: int) -> bool:
    """The block's first ``_QUOTE_CHARS`` characters (all of a shorter block) are in the prompt."""
    snippet = text[start : min(end, start + _QUOTE_CHARS)]
    return len(snippet) >= 24 and snippet in prompt


def _overlaps(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < t_end and t_start < end for t_start, t_end in taken)
