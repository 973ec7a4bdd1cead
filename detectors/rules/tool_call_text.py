"""``tool_call_as_text``: tools declared, no structured call returned, and the text holds one."""

from __future__ import annotations

from typing import Any

from detectors.common import MAX_FINDINGS, DetectorBase
from detectors.exchange import Exchange
from detectors.families import family_for
from detectors.finding import Finding
from detectors.labels import Label, Layer, Remediation, Source
from detectors.text import LiteralScanner, is_quoted, loads, outside_code, unwrap_fence
from detectors.tool_markup import TOOL_MARKUPS, Call, ToolMarkup, calls_from_value

_CUES = LiteralScanner(cue for m in TOOL_MARKUPS for cue in m.cues)
# An opener with no parsable block after it is still markup; bare JSON cues are not.
_OPENER_OWNER = {cue: m for m in reversed(TOOL_MARKUPS) if not m.bare for cue in m.cues}


class ToolCallText(DetectorBase):
    id = "tool_call_text"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        if not exchange.declared_tools or exchange.tool_calls:
            return []
        text = exchange.visible_text
        body = text.strip()
        if not body:
            return []
        declared = exchange.declared_tools
        sole_fence = unwrap_fence(body)

        whole = sole_fence if sole_fence is not None else body
        if whole[:1] in ("{", "["):
            calls = _whole_text_calls(whole, declared)
            if calls:
                span = (len(text) - len(text.lstrip()), len(text.rstrip()))
                return [self._finding(exchange, text, span, "json", calls, 0.95)]

        cues = list(_CUES.finditer(text))
        if not cues:
            return []
        present = {c.literal for c in cues}
        findings: list[Finding] = []
        taken: list[tuple[int, int]] = []
        for markup in TOOL_MARKUPS:
            if present.isdisjoint(markup.cues):
                continue
            for match in markup.pattern.finditer(text):
                start = match.start()
                if _overlaps(taken, start, match.end()):
                    continue
                check = sole_fence is None
                if check and not markup.bare and not _visible(text, start, match.end(), markup):
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
        for cue in cues:
            owner = _OPENER_OWNER.get(cue.literal)
            if owner is None or _overlaps(taken, cue.start, cue.end):
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
        details: dict[str, Any] = {"syntax": syntax, "rescued_calls": calls}
        family = _family_writing(exchange, syntax)
        if family is not None:
            details["family"] = family
        unknown = sorted({c["name"] for c in calls if c["name"] not in exchange.declared_tools})
        if unknown:
            details["undeclared_tools"] = unknown
        return self.finding(
            Label.TOOL_CALL_AS_TEXT,
            layer=Layer.PARSER,
            remediation=Remediation.RESCUE if calls else Remediation.REGENERATE,
            confidence=confidence,
            text=text,
            span=span,
            details=details,
        )


def _whole_text_calls(body: str, declared: dict[str, Any]) -> list[Call] | None:
    try:
        value = loads(body)
    except ValueError:
        return None
    calls = calls_from_value(value, require_arguments=True)
    if not calls or any(c["name"] not in declared for c in calls):
        return None
    return calls


def _family_writing(exchange: Exchange, syntax: str) -> str | None:
    for family in family_for(exchange):
        if any(m.name == syntax for m in family.tool_call_markup):
            return family.name
    return None


def _visible(text: str, start: int, end: int, markup: ToolMarkup) -> bool:
    """Outside code, and neither the block nor its opening marker is quoted."""
    if not outside_code(text, start, end):
        return False
    opener = next((c for c in markup.cues if text.startswith(c, start)), text[start])
    return not is_quoted(text, start, start + len(opener))


def _overlaps(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < t_end and t_start < end for t_start, t_end in taken)
