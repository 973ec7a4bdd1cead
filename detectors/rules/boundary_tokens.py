"""``boundary_token`` and tagged ``reasoning_leak``: family delimiters visible outside code."""

from __future__ import annotations

import re
from collections.abc import Container
from typing import NamedTuple

from leakline.detectors import generic
from leakline.detectors.common import MAX_FINDINGS, DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.families import (
    FamilyTable,
    ModelFamily,
    Preference,
    TokenRole,
    active_table,
    named_families,
    preference,
)
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.text import Hit, LiteralScanner, crosses, piece_boundaries, visible_hits


class _Tables(NamedTuple):
    """What this rule derives from the active family table (rebuilt when it is swapped)."""

    # literals starting with a ``generic.MARK_CHARS`` character, and the rest: the first
    # scanner runs only when ``generic.marks`` (shared with the generic layer) saw one
    marked: LiteralScanner
    unmarked: LiteralScanner | None
    roles: dict[str, TokenRole]
    contextual: frozenset[str]
    # (start literal, end literal) -> the families for which they pair up
    shared: dict[tuple[str, str], tuple[ModelFamily, ...]]
    opens: frozenset[str]
    closes: frozenset[str]


def _build(table: FamilyTable) -> _Tables:
    roles = table.token_roles
    unmarked = [lit for lit in roles if lit[0] not in generic.MARK_CHARS]
    return _Tables(
        marked=LiteralScanner(lit for lit in roles if lit[0] in generic.MARK_CHARS),
        unmarked=LiteralScanner(unmarked) if unmarked else None,
        roles=roles,
        contextual=frozenset(lit for lit, role in roles.items() if role.contextual),
        shared={
            (start, end): shared
            for start, opener in roles.items()
            for end, closer in roles.items()
            if (shared := tuple(f for f in opener.starts if f in closer.ends))
        },
        opens=frozenset(lit for lit, role in roles.items() if role.starts),
        closes=frozenset(lit for lit, role in roles.items() if role.ends),
    )


def _tables() -> _Tables:
    return active_table().memo("boundary_tokens", _build)


def claimed_literals() -> Container[str]:
    """Every literal of the active family rows (what this rule reports)."""
    return _tables().roles


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
    version = "4"  # 4: a lone end delimiter at a sentence seam is a leak (issue 34)
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        text = exchange.visible_text
        if not text:
            return []
        tables = _tables()
        marks = generic.marks(text)
        found = tables.marked.finditer(text, generic.ABSENT[marks]) if marks else []
        if tables.unmarked is not None:
            more = tables.unmarked.finditer(text)
            if more:
                found = _merged(found, more) if found else more
        if not found:
            return []
        hits = visible_hits(text, found, _MAX_HITS)
        if not hits:
            return []
        hits = drop_mentions(text, hits, tables.opens, tables.closes)
        if not hits:
            return []
        named = named_families(exchange)
        hits = _drop_unsupported_contextual(hits, named, tables)
        if not hits:
            return []
        prefer = preference(exchange)
        regions, lone_ends = _reasoning_regions(text, hits, prefer, tables)
        contextual = tables.contextual
        split_at = piece_boundaries(exchange.stream_facts.visible_pieces, len(text))
        findings: list[Finding] = []
        owner, closer, make = prefer.owner, prefer.closer, self.span_finding
        for index, (start, end, literal) in enumerate(hits[:MAX_FINDINGS]):
            lone = index in lone_ends
            family = closer[literal] if lone else owner[literal]
            details: dict[str, object] = {"token": literal, "family": family.name}
            if split_at and crosses(split_at, start, end):
                details["split_across_chunks"] = True
            findings.append(
                make(
                    _BOUNDARY,
                    Layer.TEMPLATE if lone and family.start_prefilled else Layer.PARSER,
                    Remediation.STRIP,
                    0.85 if literal in contextual else 0.98,
                    text,
                    start,
                    end,
                    details,
                )
            )
        for region in regions:
            findings.append(self._leak(text, region))
        return findings

    def _leak(self, text: str, region: _Region) -> Finding:
        answer_left = bool(_INK.search(text, 0, region.start) or _INK.search(text, region.end))
        clean = region.kind != "unterminated" and answer_left
        return self.finding(
            Label.REASONING_LEAK,
            layer=Layer.PARSER,
            remediation=Remediation.STRIP if clean else Remediation.REGENERATE,
            confidence=_REGION_CONFIDENCE[region.kind],
            text=text,
            span=(region.start, region.end),
            details={
                "family": region.family.name,
                "delimited": region.kind,
                "reasoning_chars": region.inner_end - region.inner_start,
            },
        )


def _merged(first: list[Hit], second: list[Hit]) -> list[Hit]:
    """Two scanners' hits as one scanner would give them: text order, no overlaps."""
    hits = sorted(first + second, key=lambda h: (h.start, -h.end))
    kept: list[Hit] = []
    last_end = -1
    for hit in hits:
        if hit.start >= last_end:
            last_end = hit.end
            kept.append(hit)
    return kept


_REGION_CONFIDENCE = {"pair": 0.95, "lone_end": 0.9, "unterminated": 0.85}
_BOUNDARY = Label.BOUNDARY_TOKEN.value
# Visible characters: "is there text here?" without copying the range. Control and
# zero-width characters do not count ("\x00<think>plan</think>" opens with the tag).
_INK = re.compile(r"[^\s\x00-\x1f\x7f\u200b-\u200f\u2060\ufeff]")


def _drop_unsupported_contextual(
    hits: list[Hit], named: tuple[ModelFamily, ...], tables: _Tables
) -> list[Hit]:
    """Contextual tokens count only for a named family or one whose other delimiters show."""
    if not any(h.literal in tables.contextual for h in hits):
        return hits
    roles = [tables.roles[h.literal] for h in hits]
    present = {f for r in roles if not r.contextual for f in r.owners}
    present.update(named)
    return [
        h
        for h, r in zip(hits, roles, strict=True)
        if not r.contextual or present.intersection(r.owners)
    ]


def _reasoning_regions(
    text: str,
    hits: list[Hit],
    prefer: Preference,
    tables: _Tables,
) -> tuple[list[_Region], set[int]]:
    """Pair start and end delimiters; also the R1-style lone end and the unterminated start.

    A literal that ends reasoning for some rows only is no lone end when the preferred row
    owns it as another token: Apriel's ``<|end|>`` ends a turn, harmony's ends reasoning."""
    best, owner = prefer.best, prefer.owner
    regions: list[_Region] = []
    lone_ends: set[int] = set()
    opened: Hit | None = None
    before_opened: Hit | None = None
    # Only text before every other token (budget strings aside) is reasoning with its
    # start tag prefilled; "<|channel|>commentary<|message|>…<|end|>" is not.
    leading = True
    roles = tables.roles
    for index, hit in enumerate(hits):
        role = roles[hit.literal]
        if role.starts:
            if opened is None:
                opened = hit
                before_opened = hits[index - 1] if index else None
            leading = False
            continue
        if not role.ends or (opened is None and owner[hit.literal] not in role.ends):
            leading = leading and role.budget
            continue
        if opened is None:
            lone_ends.add(index)
            if (
                leading
                and _INK.search(text, 0, hit.start)
                and not _named_in_prose(text, hit)
                and (_INK.search(text, hit.end) or any(f.start_prefilled for f in role.ends))
            ):
                # Without a prefilled start, an end token with nothing after it closes
                # the answer itself (harmony "…answer<|end|>"), not hidden reasoning.
                regions.append(_Region(0, hit.end, 0, hit.start, "lone_end", best(role.ends)))
            leading = False
            continue
        shared = tables.shared.get((opened.literal, hit.literal), ())
        if shared:
            if _reasoning_between(text, opened, hit, before_opened):
                regions.append(
                    _Region(opened.start, hit.end, opened.end, hit.start, "pair", best(shared))
                )
            opened = None
    if opened is not None and _INK.search(text, opened.end) and not _named_in_prose(text, opened):
        family = best(roles[opened.literal].starts)
        regions.append(
            _Region(opened.start, len(text), opened.end, len(text), "unterminated", family)
        )
    return regions, lone_ends


# "…the model writes between <think> and </think>" names the tags mid-sentence around a
# word or two; leaked reasoning starts a line or runs longer than this.
_MENTION_MAX_CHARS = 24


def _reasoning_between(text: str, opened: Hit, closed: Hit, previous: Hit | None) -> bool:
    """Non-empty reasoning, unless the tags are only named mid-sentence around a word or two."""
    ink = _INK.search(text, opened.end, closed.start)
    if ink is None:
        return False
    line_start = text.rfind("\n", 0, opened.start) + 1
    if previous is not None and previous.end > line_start:
        return True  # right after another delimiter: "<|start|>assistant<|channel|>analysis"
    if _INK.search(text, line_start, opened.start) is None:
        return True  # the start delimiter opens its line
    if not text[opened.start - 1].isspace():
        return True  # glued to the text before it ("Sure!<think>ok</think>"): emitted
    return len(text[ink.start() : closed.start].rstrip()) > _MENTION_MAX_CHARS


def _named_in_prose(text: str, hit: Hit) -> bool:
    """A token set in a sentence as a word ("word </tag> word"): no region around it.

    The token itself still counts (unless it is a mention, below); only the reasoning
    region is not inferred from it.
    """
    if hit.start < 2 or text[hit.start - 1] not in " \t" or text[hit.start - 2].isspace():
        return False
    return hit.end >= len(text) or text[hit.end] in " \t.,;:!?)"


# --------------------------------------------------------------------------- mentions
#
# A delimiter *used as a word* in an explanation ("Qwen3 wraps its reasoning in <think>
# tags", "the </think> token marks the end", "strip the ◁think▷ marker") is talking
# about markup, not leaking it. A hit is such a mention when:
#
# 1. (strong) a markup noun sits right after it ("<think> tags", "</think> 토큰",
#    "<think>标签") or right before it ("the closing tag is </think>", "토큰 </think>");
#    or it is coordinated with a strong mention ("<think> and </think> tags"); or the
#    pair is introduced by "between" ("between <think> and </think>");
# 2. (weak) it stands as a word inside a sentence (text before it in the same sentence,
#    a space or sentence punctuation after it on the same line) that also speaks about
#    markup or models (tag, token, parser, template, reasoning, Qwen3, 태그, 标签, …), and
#    a start delimiter does not open a real reasoning region (an end on the same line
#    within a few words, or none at all).
#
# Leaks never look like this: the model emits delimiters glued to text, at line starts,
# or followed by reasoning, never followed by the word "tag".

_NOUNS_EN = (
    r"tags?|tokens?|markers?|delimiters?|strings?|sequences?|elements?|blocks?|sections?"
    r"|pairs?|labels?|headers?|keywords?|symbols?|wrappers?|literals?|placeholders?"
)
_NOUNS_CJK = (
    r"태그|토큰|구분자|마커|블록|기호|문자열|표시|사이|标签|标记|令牌|记号|分隔符|符号|字符串|词元"
    r"|之间|タグ|トークン|マーカー|区切り|記号|の間"
)
_NOUN_AFTER = re.compile(
    r"[\"'”’)\]]?(?:\s{1,2}(?:(?:opening|closing|start|end|special|reasoning|thinking)\s+)?"
    rf"(?:{_NOUNS_EN})(?![A-Za-z])|\s?(?:{_NOUNS_CJK}))"
)
_NOUN_BEFORE = re.compile(
    rf"(?:(?<![A-Za-z])(?:{_NOUNS_EN})|{_NOUNS_CJK})"
    r"(?:\s+(?:is|are|was|were|like|such\s+as|called|named|e\.g\.|i\.e\.|of))*"
    r"[\s:,(“\"'「]*$"
)
_CONNECTOR = re.compile(r"\s*(?:,|/|&|and|or|to|와|과|및|和|与|或|及|、|\.\.\.|…)?\s*(?:and\s+)?$")
_BETWEEN = re.compile(r"(?:\bbetween|\bfrom)\s*[\"“(]?$")
# Words that make a sentence *about* markup: markup nouns, the verbs used to handle it,
# "reasoning model", and model family names. Not generic words such as "output",
# "format" or "reasoning", which a model's own leaked reasoning uses as often.
_META = re.compile(
    # ASCII word edges: "parser가" / "模型的template" still count
    r"(?<![A-Za-z])(?:tags?|tokens?|markers?|delimiters?|special|literal|syntax|markup|parsers?|templates?"
    r"|(?:reasoning|thinking)[- ]models?|wrap(?:s|ped|ping)?|strip(?:s|ped|ping)?"
    r"|emit(?:s|ted)?|closes?|opens?|marks?|encloses?|remove[sd]?|delete[sd]?|filter(?:s|ed)?"
    r"|parse[sd]?|parsing|detect(?:s|ed)?|grep|replace[sd]?|regex|escape[sd]?|render(?:s|ed)?"
    r"|appears?|visible|leak(?:s|ed|ing)?|qwen\w*|qwq|deepseek\w*|r1|kimi|gpt-oss"
    r"|harmony|granite|magistral|mistral|glm[\w.-]*|minimax[\w.-]*|seed[\w.:-]*|gemma[\w.-]*"
    r"|claude|hunyuan"
    r"|ernie|llama[\w.-]*|cohere|command|nemotron|olmo[\w.-]*|holo2)(?![A-Za-z])"
    r"|태그|토큰|구분자|마커|파서|템플릿|특수|감싸|닫는|여는|제거|삭제|추론\s?모델"
    r"|标签|标记|令牌|分隔符|解析|模板|特殊|包裹|包住|闭合|删除|去掉|推理模型"
    r"|タグ|トークン|パーサ|テンプレート|囲|削除|推論モデル",
    re.IGNORECASE,
)
# Where a sentence ends: punctuation followed by a space or the end (not "3.5", "gpt-oss.").
_SENTENCE_BREAK = re.compile(r"[.!?](?=\s|$)|[。！？\n]")
_WORD_AFTER = frozenset(" \t.,;:!?)]”’\"'")
# A start delimiter followed by its end within this many characters on the same line
# names an example ("<thinking>notes</thinking>"); farther away, it opens reasoning.
_EXAMPLE_SPAN = 24


def drop_mentions(
    text: str, hits: list[Hit], opens: Container[str], closes: Container[str]
) -> list[Hit]:
    """``hits`` without the delimiters that are only named in explanatory prose.

    ``opens`` / ``closes``: the literals that start / end reasoning (a short start/end
    pair used as one word is an example). The generic layer shares this rule.
    """
    if len(hits) > 256:
        return hits  # a flood of tokens is output, not an explanation
    if not any(_loose(text, hit) for hit in hits):
        return hits  # every token is glued to its neighbours: emitted, not written about
    strong = [_loose(text, hit) and _strong_mention(text, hit) for hit in hits]
    for index in range(len(hits) - 1):
        gap = text[hits[index].end : hits[index + 1].start]
        if len(gap) > 12 or _CONNECTOR.match(gap) is None:
            continue
        linked = strong[index] or strong[index + 1]
        before = text[max(0, hits[index].start - 12) : hits[index].start]
        if linked or _BETWEEN.search(before):
            strong[index] = strong[index + 1] = True
    for index in range(len(hits) - 1):
        if not strong[index] and _example_pair(text, hits[index], hits[index + 1], opens, closes):
            strong[index] = strong[index + 1] = True
    kept = []
    for index, hit in enumerate(hits):
        if strong[index]:
            continue
        if _weak_mention(text, hits, index, opens, closes) and not _seam(text, hit, closes):
            continue
        kept.append(hit)
    return kept


# "private notes </think> The answer…": an end delimiter between the last word of the notes
# and the first of a new sentence is the seam of a leak, whatever the sentence speaks about.
# A mention takes the delimiter as an object ("ends with </think> Then…" is rare, but the
# word before says so) and goes on in lower case or with punctuation.
_SEAM_AFTER = re.compile(r"[ \t][A-Z](?:[a-z]|[ ,'’])")
_OBJECT_OF = re.compile(
    r"(?<![A-Za-z])(?:with|by|as|at|in|on|of|for|from|after|before|into|about|is|are|was|the|a|an"
    r"|and|or|than|like|to|see|emits?|outputs?"
    r"|writes?|prints?|returns?|uses?|adds?|puts?|sends?|its)[ \t]$",
    re.IGNORECASE,
)


def _seam(text: str, hit: Hit, closes: Container[str]) -> bool:
    """A lone end delimiter between prose words, followed by a new sentence: a leak."""
    if hit.literal not in closes or _SEAM_AFTER.match(text, hit.end) is None:
        return False
    before = text[max(0, hit.start - 12) : hit.start]
    return before[-1:] == " " and before[-2:-1].isalnum() and _OBJECT_OF.search(before) is None


def _example_pair(
    text: str, opened: Hit, closed: Hit, opens: Container[str], closes: Container[str]
) -> bool:
    """A short start/end pair used as one word in a sentence about markup: "as <t>x</t> if"."""
    if opened.literal not in opens or closed.literal not in closes:
        return False
    inner = text[opened.end : closed.start]
    if len(inner) > _EXAMPLE_SPAN or "\n" in inner:
        return False
    before = text[max(0, opened.start - 1) : opened.start]
    after = text[closed.end : closed.end + 1]
    if not before or not (before.isspace() or before in "(“\"'" or _is_cjk(before)):
        return False
    if not after or after == "\n" or (after not in _WORD_AFTER and not _is_cjk(after)):
        return False
    return _in_explanatory_sentence(text, opened.start, closed.end)


def _loose(text: str, hit: Hit) -> bool:
    """Whitespace, a quote or CJK text next to the token: the only way a mention can look.

    Leaked tokens sit glued to other tokens or text ("answer.</think>", "<|end|><|start|>").
    """
    after = text[hit.end : hit.end + 1]
    if after in _WORD_AFTER or "\u3040" <= after <= "\u9fff" or "\uac00" <= after <= "\ud7a3":
        return True
    before = text[hit.start - 1 : hit.start] if hit.start else ""
    return (
        before in _BEFORE_TOKEN or "\u3040" <= before <= "\u9fff" or "\uac00" <= before <= "\ud7a3"
    )


def _strong_mention(text: str, hit: Hit) -> bool:
    if _NOUN_AFTER.match(text, hit.end) is not None:
        return True
    # A noun before the token is separated from it ("the tag </think>", "토큰 </think>");
    # a token glued to the preceding text ("answer.</think>") never is.
    if hit.start == 0 or text[hit.start - 1] not in _BEFORE_TOKEN:
        return False
    before = text[max(0, hit.start - 40) : hit.start]
    return _NOUN_BEFORE.search(before) is not None


_BEFORE_TOKEN = frozenset(" \t:,(“\"'「")


def _weak_mention(
    text: str, hits: list[Hit], index: int, opens: Container[str], closes: Container[str]
) -> bool:
    hit = hits[index]
    if hit.end < len(text) and text[hit.end] not in _WORD_AFTER and not _is_cjk(text[hit.end]):
        return False
    before = text[max(0, hit.start - 1) : hit.start]
    if before and not (before.isspace() or before in "(“\"'" or _is_cjk(before)):
        return False
    if text[hit.end : hit.end + 1] in ("", "\n"):
        return False  # ends the text or the line: how an end delimiter leaks
    if not _in_explanatory_sentence(text, hit.start, hit.end):
        return False
    if hit.literal in opens:
        for later in hits[index + 1 :]:
            if later.literal in closes:
                between = text[hit.end : later.start]
                return len(between) <= _EXAMPLE_SPAN and "\n" not in between
    return True


def _in_explanatory_sentence(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is mid-sentence, and the sentence speaks about markup or models."""
    line_start = text.rfind("\n", 0, start) + 1
    breaks = [m.end() for m in _SENTENCE_BREAK.finditer(text, line_start, start)]
    sentence_start = breaks[-1] if breaks else line_start
    if not text[sentence_start:start].strip():
        return False  # opens the sentence or the line: output, not a word in a sentence
    after = _SENTENCE_BREAK.search(text, end)
    sentence_end = after.end() if after is not None else len(text)
    return _META.search(text, sentence_start, sentence_end) is not None


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return 0x3040 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7A3 or 0xFF00 <= code <= 0xFFEF
