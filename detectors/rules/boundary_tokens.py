"""``boundary_token`` and tagged ``reasoning_leak``: family delimiters visible outside code."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate, islice
from typing import NamedTuple

from detectors.common import MAX_FINDINGS, DetectorBase
from detectors.exchange import Exchange
from detectors.families import TOKEN_ROLES, ModelFamily, family_rank, named_families
from detectors.finding import Finding
from detectors.labels import Label, Layer, Remediation, Source
from detectors.text import Hit, LiteralScanner, outside_code

_SCANNER = LiteralScanner(TOKEN_ROLES)
# Enough to pair delimiters in any real response; bounds the work on pathological text.
_MAX_HITS = 4096


class _Region(NamedTuple):
    start: int
    end: int
    inner_start: int
    inner_end: int
    kind: str  # "pair" | "lone_end" | "unterminated"
    family: ModelFamily


class BoundaryTokens(DetectorBase):
    id = "boundary_tokens"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        text = exchange.visible_text
        if not text:
            return []
        visible = (h for h in _SCANNER.finditer(text) if outside_code(text, h.start, h.end))
        hits = list(islice(visible, _MAX_HITS))
        if not hits:
            return []
        named = named_families(exchange)
        rank = family_rank(exchange)
        hits = _drop_unsupported_contextual(hits, named)
        if not hits:
            return []

        def best(families: tuple[ModelFamily, ...]) -> ModelFamily:
            return min(families, key=rank.__getitem__)

        regions, lone_ends = _reasoning_regions(text, hits, best)
        split_at = _piece_boundaries(exchange, len(text))
        findings: list[Finding] = []
        for index, hit in enumerate(hits[:MAX_FINDINGS]):
            role = TOKEN_ROLES[hit.literal]
            family = best(role.ends) if index in lone_ends else best(role.owners)
            prefilled_gap = index in lone_ends and family.start_prefilled
            details: dict[str, object] = {"token": hit.literal, "family": family.name}
            if split_at and _crosses(split_at, hit.start, hit.end):
                details["split_across_chunks"] = True
            findings.append(
                self.finding(
                    Label.BOUNDARY_TOKEN,
                    layer=Layer.TEMPLATE if prefilled_gap else Layer.PARSER,
                    remediation=Remediation.STRIP,
                    confidence=0.85 if role.contextual else 0.98,
                    text=text,
                    span=(hit.start, hit.end),
                    details=details,
                )
            )
        for region in regions:
            findings.append(self._leak(text, region))
        return findings

    def _leak(self, text: str, region: _Region) -> Finding:
        answer_left = bool(text[: region.start].strip() or text[region.end :].strip())
        clean = region.kind != "unterminated" and answer_left
        return self.finding(
            Label.REASONING_LEAK,
            layer=Layer.PARSER,
            remediation=Remediation.STRIP if clean else Remediation.REGENERATE,
            confidence={"pair": 0.95, "lone_end": 0.9}.get(region.kind, 0.85),
            text=text,
            span=(region.start, region.end),
            details={
                "family": region.family.name,
                "delimited": region.kind,
                "reasoning_chars": region.inner_end - region.inner_start,
            },
        )


def _drop_unsupported_contextual(hits: list[Hit], named: tuple[ModelFamily, ...]) -> list[Hit]:
    """Contextual tokens count only for a named family or one whose other delimiters show."""
    roles = [TOKEN_ROLES[h.literal] for h in hits]
    if not any(r.contextual for r in roles):
        return hits
    present = {f for r in roles if not r.contextual for f in r.owners}
    present.update(named)
    return [
        h
        for h, r in zip(hits, roles, strict=True)
        if not r.contextual or present.intersection(r.owners)
    ]


def _reasoning_regions(
    text: str, hits: list[Hit], best: Callable[[tuple[ModelFamily, ...]], ModelFamily]
) -> tuple[list[_Region], set[int]]:
    """Pair start and end delimiters; also the R1-style lone end and the unterminated start."""
    regions: list[_Region] = []
    lone_ends: set[int] = set()
    opened: Hit | None = None
    before_opened: Hit | None = None
    # Only text before every other token (budget strings aside) is reasoning with its
    # start tag prefilled; "<|channel|>commentary<|message|>…<|end|>" is not.
    leading = True
    for index, hit in enumerate(hits):
        role = TOKEN_ROLES[hit.literal]
        if role.starts:
            if opened is None:
                opened = hit
                before_opened = hits[index - 1] if index else None
            leading = False
            continue
        if not role.ends:
            leading = leading and role.budget
            continue
        if opened is None:
            lone_ends.add(index)
            if leading and text[: hit.start].strip() and not _named_in_prose(text, hit):
                regions.append(_Region(0, hit.end, 0, hit.start, "lone_end", best(role.ends)))
            leading = False
            continue
        shared = tuple(f for f in TOKEN_ROLES[opened.literal].starts if f in role.ends)
        if shared:
            if _reasoning_between(text, opened, hit, before_opened):
                regions.append(
                    _Region(opened.start, hit.end, opened.end, hit.start, "pair", best(shared))
                )
            opened = None
    if opened is not None and text[opened.end :].strip() and not _named_in_prose(text, opened):
        family = best(TOKEN_ROLES[opened.literal].starts)
        regions.append(
            _Region(opened.start, len(text), opened.end, len(text), "unterminated", family)
        )
    return regions, lone_ends


# "…the model writes between <think> and </think>" names the tags mid-sentence around a
# word or two; leaked reasoning starts a line or runs longer than this.
_MENTION_MAX_CHARS = 24


def _reasoning_between(text: str, opened: Hit, closed: Hit, previous: Hit | None) -> bool:
    """Non-empty reasoning, unless the tags are only named mid-sentence around a word or two."""
    inner = text[opened.end : closed.start].strip()
    if not inner:
        return False
    line_start = text.rfind("\n", 0, opened.start) + 1
    if previous is not None and previous.end > line_start:
        return True  # right after another delimiter: "<|start|>assistant<|channel|>analysis"
    mid_sentence = bool(text[line_start : opened.start].strip())
    return not mid_sentence or len(inner) > _MENTION_MAX_CHARS


def _named_in_prose(text: str, hit: Hit) -> bool:
    """A sentence naming the tag ("word <tag> word", "word </tag>."), not output around it."""
    if hit.start < 2 or text[hit.start - 1] not in " \t" or text[hit.start - 2].isspace():
        return False
    return hit.end >= len(text) or text[hit.end] in " \t.,;:!?)"


def _piece_boundaries(exchange: Exchange, length: int) -> list[int]:
    pieces = exchange.stream_facts.visible_pieces
    if len(pieces) < 2:
        return []
    offsets = list(accumulate(len(p) for p in pieces))
    return offsets[:-1] if offsets[-1] == length else []


def _crosses(boundaries: list[int], start: int, end: int) -> bool:
    i = bisect_right(boundaries, start)
    return i < len(boundaries) and boundaries[i] < end
