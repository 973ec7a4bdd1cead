"""``tool_call_as_text``: tools declared, no structured call returned, and the text holds one.

Every finding carries the calls it could rescue, each checked against the declared
tool's JSON Schema: ``details["rescued_calls"] = [{"name", "arguments", "schema_valid",
"errors"}]`` (``errors``: the first three messages; an undeclared name is invalid).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from leakline.detectors import schema
from leakline.detectors.common import MAX_FINDINGS, DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.families import FAMILIES, ModelFamily, named_families
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.text import (
    LiteralScanner,
    crosses,
    is_quoted,
    loads,
    outside_code,
    piece_boundaries,
    unwrap_fence,
)
from leakline.detectors.tool_markup import (
    TOOL_MARKUPS,
    Call,
    ToolMarkup,
    calls_from_value,
    pythonic_calls,
)

# Openers that are markup on their own: one with no parsable block after it still counts.
_OPENER_OWNER = {cue: m for m in reversed(TOOL_MARKUPS) if not m.bare for cue in m.cues}
_OPENERS = LiteralScanner(_OPENER_OWNER)
# "Hermes wraps each call in <tool_call> tags": markup named as a word, not a call.
_MARKUP_NOUN = re.compile(
    r"[\"'”’)\]]?(?:\s{1,2}(?:tags?|tokens?|blocks?|markers?|format|syntax|wrappers?|elements?"
    r"|delimiters?|sections?)(?![A-Za-z])|\s?(?:태그|토큰|블록|标签|标记|格式|タグ|トークン))"
)
# Bare syntaxes have short, common cues ("(", '"name"'): checked with ``in``, not scanned.
_BARE_CUES = tuple(dict.fromkeys(cue for m in TOOL_MARKUPS if m.bare for cue in m.cues))
# cue -> positions in TOOL_MARKUPS of the rows it announces
_ROWS_BY_CUE: dict[str, tuple[int, ...]] = {}
for _i, _m in enumerate(TOOL_MARKUPS):
    for _cue in _m.cues:
        _ROWS_BY_CUE[_cue] = (*_ROWS_BY_CUE.get(_cue, ()), _i)
# The whole answer is one pythonic call: get_weather(city="Seoul")
_WHOLE_PYTHONIC = re.compile(r"[A-Za-z_][\w.]*\s*\(.*\)\s*", re.DOTALL)
_MAX_ERRORS = 3


class ToolCallText(DetectorBase):
    id = "tool_call_text"
    version = "2"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        if not exchange.declared_tools or exchange.tool_calls:
            return []
        text = exchange.visible_text
        if not text or text.isspace():
            return []
        declared = exchange.declared_tools
        sole_fence = None
        if _may_be_whole_call(text):
            body = text.strip()
            sole_fence = unwrap_fence(body) if body[:3] in ("```", "~~~") else None
            whole = sole_fence if sole_fence is not None else body
            calls, syntax = _whole_text_calls(whole, declared)
            if calls:
                span = (len(text) - len(text.lstrip()), len(text.rstrip()))
                return [self._finding(exchange, text, span, syntax, calls, 0.95)]

        openers = _OPENERS.finditer(text)
        rows = {i for hit in openers for i in _ROWS_BY_CUE[hit.literal]}
        for bare_cue in _BARE_CUES:
            if bare_cue in text:
                rows.update(_ROWS_BY_CUE[bare_cue])
        if not rows:
            return []
        findings: list[Finding] = []
        taken: list[tuple[int, int]] = []
        for row in sorted(rows):
            markup = TOOL_MARKUPS[row]
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
                calls, end = markup.rescue(match)
                if markup.bare and not (calls and all(c["name"] in declared for c in calls)):
                    continue
                if check and markup.bare and not _visible(text, start, end, markup):
                    continue
                taken.append((start, max(end, match.end())))
                confidence = 0.85 if markup.bare else 0.95
                findings.append(
                    self._finding(exchange, text, (start, end), markup.name, calls, confidence)
                )
                if len(findings) >= MAX_FINDINGS:
                    return findings
        for cue in openers:
            owner = _OPENER_OWNER[cue.literal]
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
        if unknown:
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
    return _writer(named_families(exchange), syntax)


@lru_cache(maxsize=512)
def _writer(named: tuple[ModelFamily, ...], syntax: str) -> str | None:
    """The preferred family (named ones first) that writes tool calls in ``syntax``."""
    for family in named + FAMILIES:
        if any(m.name == syntax for m in family.tool_call_markup):
            return family.name
    return None


_BY_NAME = {m.name: m for m in TOOL_MARKUPS}
# A bare call's head ('{"name": "' or '[get_weather(') is what a split would hide.
_BARE_HEAD = 16


def _marker_split(text: str, span: tuple[int, int], syntax: str, bounds: list[int]) -> bool:
    """True when a stream piece boundary cuts one of the block's markers in two."""
    start, end = span
    markup = _BY_NAME.get(syntax)
    if markup is None or markup.bare:
        return crosses(bounds, start, min(end, start + _BARE_HEAD))
    for marker in _OPENER_OWNER:
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


def _overlaps(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < t_end and t_start < end for t_start, t_end in taken)
