"""Incremental ``boundary_token`` scanning for live streams: flag a delimiter before it is sent.

A gateway feeds each visible-text delta as it arrives and forwards ``emit``:

    from leakline.detectors.streaming import StreamScanner

    scanner = StreamScanner(families=["qwen3"], strip=True)
    for delta in content_deltas:
        step = scanner.feed(delta)
        forward(step.emit)                  # may be "" while a possible delimiter is held
        for finding in step.findings:       # boundary_token, spans in the reassembled text
            record(finding.to_dict())
    forward(scanner.close().emit)           # flushes the held tail

What it watches
    The literals of the chosen rows of ``leakline.detectors.families`` (all rows by default):
    reasoning start/end delimiters, boundary tokens, thinking-budget end strings and
    contextual tokens. There is no second list. Contextual tokens (``<answer>``, "Here is my
    response:") count when their family was named in ``families`` or when one of that
    family's other delimiters was already flagged earlier in the stream.

Compared with the batch ``boundary_tokens`` detector
    Same literals, same longest-match scan, same fence rules, same family and layer per
    token, so the same findings for text without the cases below (the tests hold it to
    that over random texts and random splits). It differs only where the batch rule reads
    text that a stream has not received yet: a token named as a word in a sentence ("the
    ``</think>`` tag") is still flagged here (the batch mention filter needs the rest of
    the sentence); a contextual token counts only after its family showed, not before;
    inline code and quotes are judged conservatively (below). It reports
    ``boundary_token`` findings only; ``reasoning_leak`` is left to the batch run.

Hold-back bound
    Only a tail that could still grow into a watched literal is held: at most
    ``hold_back`` characters, by default the longest watched literal minus one. Everything
    before it is emitted in the same call. A delimiter is therefore complete, and flagged,
    before any of its characters is emitted, and no text waits longer than it takes to
    receive ``hold_back`` more characters. A smaller ``hold_back`` stops watching the
    literals longer than ``hold_back + 1`` (listed in ``unwatched``; the batch detector
    still sees them after the stream). Each call scans the new delta plus the held tail,
    never the whole text.

Outside code
    Tokens in code or quotes are not flagged, judged on the text seen so far:
    fenced blocks follow the same opening/closing rules as ``leakline.detectors.text.code_map``,
    decided line by line. Where the batch rule needs text that has not arrived yet the
    stream errs towards "code" (it never strips what might be code): a line that starts
    like a fence (up to three spaces, then three or more backticks or tildes) is code; an
    inline backtick run opens code until a run of the same length, a blank line or a fence;
    a token right after an opening quotation mark is quoted.

``strip=False`` (the default)
    Pure measurement: the concatenated ``emit`` equals the concatenated input.

``strip=True``
    Flagged tokens are left out of ``emit`` (``ScanStep.removed`` gives their spans). If
    removing a token would make the text around it spell a watched literal
    (``<thi`` + ``<think>`` + ``nk>``), the joined part is removed too; when its first half
    was already emitted, only the unsent half is removed. So no flagged or newly formed
    delimiter ever reaches the client. Output right before a cut that could still join
    into a literal waits with the held tail; both together stay within ``hold_back``.

``drop_reasoning=True`` (needs ``strip=True``)
    After a flagged reasoning-start delimiter the text is withheld, up to
    ``max_reasoning_chars``, until an end delimiter of a family that shares the start
    arrives; then the whole region, both delimiters included, is dropped. The region is
    released instead (as plain ``strip`` output, minus its tokens) when the stream ends
    before the end delimiter, when it outgrows ``max_reasoning_chars``, or when the two
    tags are only named mid-sentence around a few words (the batch rule's "mention"). The
    withheld region is a separate buffer from the hold-back tail. Reasoning before a lone
    end delimiter (the DeepSeek-R1 prefilled start) has already been sent and cannot be
    dropped; only the delimiter is stripped.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from leakline.detectors.common import MAX_FINDINGS
from leakline.detectors.families import FamilyTable, ModelFamily, active_table, get_family
from leakline.detectors.finding import Finding, evidence_snippet
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.text import Hit, LiteralScanner

DETECTOR_ID = "stream_scanner"
DETECTOR_VERSION = "1"

Span = tuple[int, int]

# The batch rule (rules/boundary_tokens.py) treats a start/end pair around at most this
# many characters, opened mid-sentence, as the tags being named in prose.
_MENTION_MAX_CHARS = 24
# The openers of the quotation pairs in leakline.detectors.text.
_QUOTE_OPENERS = frozenset("\"'“‘「『«„")


@dataclass(frozen=True, slots=True)
class ScanStep:
    """What one ``feed``/``close`` call produced.

    ``emit`` is safe to forward now; ``findings`` are the ``boundary_token`` findings
    completed in this call; ``removed`` are the spans of the reassembled text that were
    left out of ``emit`` (only with ``strip=True``), sorted and merged.
    """

    emit: str
    findings: tuple[Finding, ...] = ()
    removed: tuple[Span, ...] = ()


# --------------------------------------------------------------------------- what is watched


@dataclass(frozen=True, slots=True)
class _Role:
    owners: tuple[ModelFamily, ...]  # watched owners, preferred first
    starts: tuple[ModelFamily, ...]
    ends: tuple[ModelFamily, ...]
    contextual: bool


@dataclass(frozen=True, slots=True, eq=False)
class _Watch:
    named: bool
    roles: dict[str, _Role]
    scanner: LiteralScanner
    by_first: dict[str, tuple[str, ...]]  # longest first
    prefixes: frozenset[str]  # every proper prefix of a watched literal
    longest: int
    unwatched: tuple[str, ...]


def _watch(names: tuple[str, ...] | None, hold_back: int | None) -> _Watch:
    return _watch_in(active_table(), names, hold_back)


@lru_cache(maxsize=64)
def _watch_in(table: FamilyTable, names: tuple[str, ...] | None, hold_back: int | None) -> _Watch:
    families = table.families if names is None else tuple(get_family(n) for n in names)
    roles: dict[str, _Role] = {}
    unwatched: list[str] = []
    for literal in dict.fromkeys(t for f in families for t in f.visible_tokens):
        if hold_back is not None and len(literal) > hold_back + 1:
            unwatched.append(literal)
            continue
        role = table.token_roles[literal]
        owners = tuple(f for f in families if f in role.owners)
        roles[literal] = _Role(
            owners=owners,
            starts=tuple(f for f in owners if f in role.starts),
            ends=tuple(f for f in owners if f in role.ends),
            contextual=all(literal in f.contextual_tokens for f in owners),
        )
    by_first: dict[str, list[str]] = {}
    for literal in roles:
        by_first.setdefault(literal[0], []).append(literal)
    return _Watch(
        named=names is not None,
        roles=roles,
        scanner=LiteralScanner(roles),
        by_first={c: tuple(sorted(ls, key=len, reverse=True)) for c, ls in by_first.items()},
        prefixes=frozenset(lit[:i] for lit in roles for i in range(1, len(lit))),
        longest=max(map(len, roles), default=0),
        unwatched=tuple(unwatched),
    )


# --------------------------------------------------------------------------- code state

_TICK_RUN = re.compile(r"`+")


class _CodeState:
    """Whether the next character of the text seen so far is in code or directly quoted."""

    __slots__ = (
        "fence",
        "inline",
        "_tail_ticks",
        "_last",
        "ws",
        "lead",
        "mark",
        "run",
        "in_run",
        "rest_blank",
        "rest_tick",
        "token_on_line",
    )

    def __init__(self) -> None:
        self.fence: tuple[str, int] | None = None  # marker char and length of the open fence
        self.inline = 0  # width of the open inline backtick run, 0 when none
        self._tail_ticks = 0  # a backtick run at the end of the text, maybe not complete
        self._last = ""  # the last two characters
        self._new_line()

    def _new_line(self) -> None:
        self.ws = 0  # leading spaces/tabs
        self.lead = True  # only spaces/tabs so far
        self.mark = ""  # first non-blank char when it is ` or ~, else "x"
        self.run = 0  # length of the leading marker run
        self.in_run = False
        self.rest_blank = True  # only spaces/tabs after the marker run
        self.rest_tick = False  # a backtick after the marker run
        self.token_on_line = False  # a flagged token already on this line

    @property
    def fence_line(self) -> bool:
        return self.ws <= 3 and self.mark in ("`", "~") and self.run >= 3

    def advance(self, text: str) -> None:
        if not text:
            return
        for i, part in enumerate(text.split("\n")):
            if i:
                self._end_line()
            if part:
                self._extend(part)
        self._last = text[-2:] if len(text) > 1 else self._last[-1:] + text

    def in_code(self) -> bool:
        """For a token starting now (its first character is never blank, ` or ~)."""
        self._settle()
        if self.fence is not None or self.fence_line or self.inline:
            return True
        last = self._last[-1:]
        if last not in _QUOTE_OPENERS:
            return False
        # an apostrophe after a letter ("models'") is not an opening quote
        return last != "'" or not self._last[:1].isalnum()

    def _extend(self, part: str) -> None:
        rest = part
        if self.lead:
            body = part.lstrip(" \t")
            self.ws += len(part) - len(body)
            if not body:
                return
            self.lead = False
            self.mark = body[0] if body[0] in "`~" else "x"
            self.in_run = self.mark != "x"
            rest = body
        if self.in_run:
            body = rest.lstrip(self.mark)
            self.run += len(rest) - len(body)
            if not body:
                return
            self._settle()
            rest = body
        if self.rest_blank and rest.strip(" \t"):
            self.rest_blank = False
        if self._tail_ticks and rest[0] != "`":
            self._settle()
        if "`" in rest:
            self.rest_tick = True
            if self.fence is None and not self.fence_line:
                self._ticks(rest)

    def _settle(self) -> None:
        """The leading run and a trailing backtick run are complete."""
        if self.in_run:
            self.in_run = False
            if self.mark == "`" and self.fence is None and not self.fence_line:
                self._pair(self.run)
        if self._tail_ticks:
            self._pair(self._tail_ticks)
            self._tail_ticks = 0

    def _ticks(self, rest: str) -> None:
        pos = 0
        if self._tail_ticks:
            body = rest.lstrip("`")
            pos = len(rest) - len(body)
            if not body:
                self._tail_ticks += pos
                return
            self._pair(self._tail_ticks + pos)
            self._tail_ticks = 0
        for m in _TICK_RUN.finditer(rest, pos):
            if m.end() == len(rest):
                self._tail_ticks = m.end() - m.start()
            else:
                self._pair(m.end() - m.start())

    def _pair(self, width: int) -> None:
        if not self.inline:
            self.inline = width
        elif self.inline == width:
            self.inline = 0

    def _end_line(self) -> None:
        self._settle()
        if self.fence is not None:
            marker, width = self.fence
            if self.ws <= 3 and self.mark == marker and self.run >= width and self.rest_blank:
                self.fence = None
        elif self.fence_line and (self.mark == "~" or not self.rest_tick):
            self.fence = (self.mark, self.run)
            self.inline = 0
        elif self.lead:
            self.inline = 0  # a blank line ends the paragraph
        self._new_line()


# --------------------------------------------------------------------------- output assembly


class _Out:
    """Output not yet emitted: text pieces with their offsets, and where text was cut out.

    A cut (a stripped token or dropped region) is remembered as a junction before the
    next piece, or as ``cut_pending`` when nothing has followed it yet.
    """

    __slots__ = ("parts", "removed", "cut_pending")

    def __init__(self, cut_pending: bool = False) -> None:
        # [text, offset in the reassembled text, a cut right before it]
        self.parts: list[tuple[str, int, bool]] = []
        self.removed: list[Span] = []
        self.cut_pending = cut_pending

    def add(self, text: str, at: int) -> None:
        if not text:
            return
        self.parts.append((text, at, self.cut_pending))
        self.cut_pending = False

    def cut(self, start: int, end: int) -> None:
        self.removed.append((start, end))
        self.cut_pending = True


@dataclass(slots=True, eq=False)
class _Region:
    """A withheld reasoning region (``drop_reasoning``): events since its start delimiter."""

    start: int
    mention_candidate: bool  # opened mid-sentence with no other delimiter before it on the line
    events: list[tuple[int, str, bool]] = field(default_factory=list)  # (at, text, stripped)
    size: int = 0


# --------------------------------------------------------------------------- the scanner


class StreamScanner:
    """Scans a stream of visible-text deltas for boundary tokens with a bounded hold-back.

    ``families``: family names from ``leakline.detectors.families`` to watch (unknown names raise
    ``UnknownFamilyError``); ``None`` watches every row. ``hold_back``: the most characters
    ever held; ``None`` means the longest watched literal minus one. See the module
    docstring for ``strip`` and ``drop_reasoning``.
    """

    def __init__(
        self,
        families: Sequence[str] | None = None,
        hold_back: int | None = None,
        *,
        strip: bool = False,
        drop_reasoning: bool = False,
        max_reasoning_chars: int = 65_536,
    ) -> None:
        if hold_back is not None and hold_back < 0:
            raise ValueError(f"hold_back must be >= 0, got {hold_back}")
        if drop_reasoning and not strip:
            raise ValueError("drop_reasoning=True needs strip=True")
        if max_reasoning_chars < 0:
            raise ValueError(f"max_reasoning_chars must be >= 0, got {max_reasoning_chars}")
        names: tuple[str, ...] | None = None
        if families is not None:
            names = (families,) if isinstance(families, str) else tuple(dict.fromkeys(families))
            if not names:
                raise ValueError("families is empty; pass None to watch every family")
        self._w = _watch(names, hold_back)
        self._hold_back = max(self._w.longest - 1, 0) if hold_back is None else hold_back
        self._strip = strip
        self._drop = drop_reasoning
        self._max_region = max_reasoning_chars

        self._buf = ""  # the held tail
        self._base = 0  # offset of _buf[0] in the reassembled text
        self._chunk_starts: list[int] = []  # offsets where chunks still in _buf begin
        self._chunk_ids: list[int] = []
        self._count = 0
        self._first_leak: int | None = None
        self._code = _CodeState()
        self._opened: tuple[ModelFamily, ...] | None = None  # starts of the open reasoning
        self._supported: set[ModelFamily] = set()  # owners of tokens flagged so far
        self._findings: list[Finding] = []
        self._tokens = 0
        self._region: _Region | None = None
        self._out = _Out()  # output not yet emitted (with strip, a tail may wait here)
        self._out_held = 0  # characters of that tail
        self._behind = ""  # the last emitted characters (strip only), for joined delimiters
        self._closed = False

    # ----------------------------------------------------------------------- public

    @property
    def hold_back(self) -> int:
        """The most characters the scanner ever holds back."""
        return self._hold_back

    @property
    def held_chars(self) -> int:
        """Characters received and not yet emitted, withheld regions aside (<= ``hold_back``)."""
        return len(self._buf) + self._out_held

    @property
    def withheld_chars(self) -> int:
        """Characters of an open reasoning region withheld by ``drop_reasoning``."""
        return self._region.size if self._region is not None else 0

    @property
    def chunk_count(self) -> int:
        """How many ``feed`` calls (chunks) there were, empty deltas included."""
        return self._count

    @property
    def first_leak_chunk(self) -> int | None:
        """Index of the chunk in which the first flagged token's first character arrived."""
        return self._first_leak

    @property
    def token_count(self) -> int:
        """Flagged tokens so far (findings stop at ``MAX_FINDINGS``; stripping does not)."""
        return self._tokens

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Every finding so far."""
        return tuple(self._findings)

    @property
    def unwatched(self) -> tuple[str, ...]:
        """Family literals longer than ``hold_back + 1``, which this scanner does not watch."""
        return self._w.unwatched

    def feed(self, delta: str) -> ScanStep:
        """Take the next visible-text delta; return what can be forwarded now."""
        if self._closed:
            raise RuntimeError("StreamScanner.feed() after close()")
        index = self._count
        self._count += 1
        if delta:
            self._chunk_starts.append(self._base + len(self._buf))
            self._chunk_ids.append(index)
            self._buf += delta
        return self._scan(final=False)

    def close(self) -> ScanStep:
        """The stream ended: decide and emit the held tail (and any withheld region)."""
        if self._closed:
            return ScanStep("")
        self._closed = True
        return self._scan(final=True)

    # ----------------------------------------------------------------------- scanning

    def _scan(self, final: bool) -> ScanStep:
        buf = self._buf
        hold = len(buf) if final else self._hold_start(buf)
        hits = [h for h in self._w.scanner.finditer(buf) if h.start < hold] if buf else []
        cut = max(hold, hits[-1].end) if hits else hold
        new: list[Finding] = []
        pos = 0
        for hit in hits:
            self._text(buf[pos : hit.start], self._base + pos)
            self._token(buf, hit, new)
            pos = hit.end
        self._text(buf[pos:cut], self._base + pos)
        if final and self._region is not None:
            self._release()
        self._buf = buf[cut:]
        self._base += cut
        self._forget_chunks()
        emit, removed = self._assemble(final)
        return ScanStep(emit, tuple(new), removed)

    def _hold_start(self, buf: str) -> int:
        """Where the longest tail that could still become a watched literal starts."""
        prefixes = self._w.prefixes
        first = self._w.by_first
        n = len(buf)
        for p in range(max(0, n - self._w.longest + 1), n):
            if buf[p] in first and buf[p:] in prefixes:
                return p
        return n

    def _text(self, text: str, at: int) -> None:
        if not text:
            return
        self._code.advance(text)
        self._route(at, text, stripped=False)

    def _token(self, buf: str, hit: Hit, new: list[Finding]) -> None:
        code = self._code
        in_code = code.in_code()
        mid_sentence = not code.lead
        after_token = code.token_on_line
        code.advance(hit.literal)
        role = self._w.roles[hit.literal]
        at = self._base + hit.start
        if in_code or not self._counts(role):
            self._route(at, hit.literal, stripped=False)
            return
        code.token_on_line = True
        if not role.contextual:
            self._supported.update(role.owners)
        self._tokens += 1
        lone_end = False
        opened_now = False
        closes = False
        if role.starts:
            if self._opened is None:
                self._opened = role.starts
                opened_now = True
        elif role.ends:
            if self._opened is None:
                lone_end = True
            elif any(f in role.ends for f in self._opened):
                self._opened = None
                closes = True
        family = role.ends[0] if lone_end else role.owners[0]
        start_chunk = self._chunk_at(at)
        if self._first_leak is None:
            self._first_leak = start_chunk
        if len(self._findings) < MAX_FINDINGS:
            finding = self._finding(buf, hit, family, lone_end, start_chunk)
            self._findings.append(finding)
            new.append(finding)

        if not self._strip:
            self._route(at, hit.literal, stripped=False)
        elif opened_now and self._drop and self._region is None:
            self._region = _Region(
                start=at,
                mention_candidate=mid_sentence and not after_token,
                events=[(at, hit.literal, True)],
                size=len(hit.literal),
            )
        elif closes and self._region is not None:
            self._close_region(at + len(hit.literal), hit.literal)
        else:
            self._route(at, hit.literal, stripped=True)

    def _counts(self, role: _Role) -> bool:
        """A contextual token needs its family named or already seen; others always count."""
        if not role.contextual:
            return True
        return self._w.named or not self._supported.isdisjoint(role.owners)

    def _finding(
        self, buf: str, hit: Hit, family: ModelFamily, lone_end: bool, start_chunk: int
    ) -> Finding:
        at = self._base + hit.start
        end_chunk = self._chunk_at(at + len(hit.literal) - 1)
        details: dict[str, object] = {
            "token": hit.literal,
            "family": family.name,
            "chunk_index": start_chunk,
            "end_chunk_index": end_chunk,
        }
        if end_chunk != start_chunk:
            details["split_across_chunks"] = True
        return Finding(
            label=Label.BOUNDARY_TOKEN.value,
            detector_id=DETECTOR_ID,
            detector_version=DETECTOR_VERSION,
            source=Source.RULE,
            layer=Layer.TEMPLATE if lone_end and family.start_prefilled else Layer.PARSER,
            remediation=Remediation.STRIP,
            confidence=0.85 if self._w.roles[hit.literal].contextual else 0.98,
            evidence=evidence_snippet(buf, hit.start, hit.end),
            span=(at, at + len(hit.literal)),
            details=details,
        )

    # ----------------------------------------------------------------------- routing

    def _route(self, at: int, text: str, *, stripped: bool) -> None:
        region = self._region
        if region is None:
            if stripped:
                self._out.cut(at, at + len(text))
            else:
                self._out.add(text, at)
            return
        region.events.append((at, text, stripped))
        region.size += len(text)
        if region.size > self._max_region:
            self._release()

    def _close_region(self, end: int, literal: str) -> None:
        region = self._region
        assert region is not None
        if region.mention_candidate:
            inner = "".join(text for _, text, _ in region.events[1:]).strip()
            if len(inner) <= _MENTION_MAX_CHARS:
                region.events.append((end - len(literal), literal, True))
                self._release()
                return
        self._region = None
        self._out.cut(region.start, end)

    def _release(self) -> None:
        """Give up withholding: the region's text goes out like ordinary stripped output."""
        region = self._region
        assert region is not None
        self._region = None
        for at, text, stripped in region.events:
            self._route(at, text, stripped=stripped)

    # ----------------------------------------------------------------------- output

    def _assemble(self, final: bool) -> tuple[str, tuple[Span, ...]]:
        """Emit this step's output; with ``strip``, remove and hold what a cut could join."""
        out = self._out
        self._out = _Out(out.cut_pending)
        removed = out.removed
        if not out.cut_pending and not any(junction for _, _, junction in out.parts):
            text = "".join(t for t, _, _ in out.parts)
            self._out_held = 0
            self._remember(text)
            return text, _merge(removed)
        text, offsets, junctions = self._rejoin(out, removed)
        keep = len(text)
        if not final:
            text, offsets, junctions, keep = self._out_hold(text, offsets, junctions, removed)
        self._carry(text, offsets, junctions, keep)
        emit = text[:keep]
        self._remember(emit)
        return emit, _merge(removed)

    def _rejoin(self, out: _Out, removed: list[Span]) -> tuple[str, list[int], list[int]]:
        """Remove watched literals that a cut joined together, except what was already sent.

        Returns the kept text, the offset of each of its characters in the reassembled
        text, and the junctions (positions in the kept text right after a cut).
        """
        text = "".join(t for t, _, _ in out.parts)
        offsets: list[int] = []
        junctions: list[int] = []
        for piece, at, cut_before in out.parts:
            if cut_before:
                junctions.append(len(offsets))
            offsets.extend(range(at, at + len(piece)))
        if out.cut_pending:
            junctions.append(len(offsets))

        width = self._w.longest - 1
        kept: list[str] = []
        kept_offsets: list[int] = []
        kept_junctions: list[int] = []
        pos = 0
        for junction in junctions:
            if junction > pos:
                kept.append(text[pos:junction])
                kept_offsets.extend(offsets[pos:junction])
                pos = junction
            while True:
                before = _tail(self._behind, kept, width)
                found = self._spanning(before + text[pos : pos + width], len(before))
                if found is None:
                    break
                start, end = found
                drop = min(len(before) - start, len(kept_offsets))
                if drop:
                    removed.extend(_runs(kept_offsets[-drop:]))
                    del kept_offsets[-drop:]
                    _truncate(kept, drop)
                    while kept_junctions and kept_junctions[-1] > len(kept_offsets):
                        kept_junctions.pop()
                skip = end - len(before)
                removed.extend(_runs(offsets[pos : pos + skip]))
                pos += skip
            if not kept_junctions or kept_junctions[-1] != len(kept_offsets):
                kept_junctions.append(len(kept_offsets))
        kept.append(text[pos:])
        kept_offsets.extend(offsets[pos:])
        return "".join(kept), kept_offsets, kept_junctions

    def _out_hold(
        self, text: str, offsets: list[int], junctions: list[int], removed: list[Span]
    ) -> tuple[str, list[int], list[int], int]:
        """How much of ``text`` to emit now: hold a tail that could still join a literal
        across a cut, counting the held input after it (so both together stay within the
        hold-back bound). A literal that is already complete there is removed instead.
        """
        if not junctions:
            return text, offsets, junctions, len(text)
        behind = self._behind
        joined = behind + text
        crossing_before = len(behind) + junctions[-1]
        for start in range(max(0, len(joined) - self._w.longest + 1), crossing_before):
            literals = self._w.by_first.get(joined[start])
            if literals is None:
                continue
            rest = joined[start:] + self._buf
            if rest in self._w.prefixes:
                return text, offsets, junctions, max(start - len(behind), 0)
            if any(rest.startswith(lit) and start + len(lit) > len(joined) for lit in literals):
                drop_from = max(start - len(behind), 0)
                removed.extend(_runs(offsets[drop_from:]))
                kept = [j for j in junctions if j < drop_from] + [drop_from]
                return self._out_hold(text[:drop_from], offsets[:drop_from], kept, removed)
        return text, offsets, junctions, len(text)

    def _carry(self, text: str, offsets: list[int], junctions: list[int], keep: int) -> None:
        """Put the held output tail back in front of the next step's output."""
        self._out_held = len(text) - keep
        marks = set(junctions)
        parts: list[tuple[str, int, bool]] = []
        for i in range(keep, len(text)):
            if i == keep or i in marks or offsets[i] != offsets[i - 1] + 1:
                parts.append((text[i], offsets[i], i in marks))
            else:
                piece, at, junction = parts[-1]
                parts[-1] = (piece + text[i], at, junction)
        self._out.parts = parts
        self._out.cut_pending = len(text) in marks

    def _remember(self, emitted: str) -> None:
        width = self._w.longest - 1
        if self._strip and width > 0 and emitted:
            self._behind = (self._behind[-width:] + emitted[-width:])[-width:]

    def _spanning(self, text: str, junction: int) -> Span | None:
        """The leftmost (then longest) watched literal in ``text`` that crosses ``junction``."""
        for start in range(max(0, junction - self._w.longest + 1), junction):
            for literal in self._w.by_first.get(text[start], ()):
                end = start + len(literal)
                if end > junction and text.startswith(literal, start):
                    return start, end
        return None

    # ----------------------------------------------------------------------- chunks

    def _chunk_at(self, pos: int) -> int:
        i = bisect_right(self._chunk_starts, pos) - 1
        return self._chunk_ids[max(i, 0)]

    def _forget_chunks(self) -> None:
        keep = max(bisect_right(self._chunk_starts, self._base) - 1, 0)
        if keep:
            del self._chunk_starts[:keep]
            del self._chunk_ids[:keep]


def _tail(behind: str, pieces: list[str], width: int) -> str:
    """The last ``width`` characters of ``behind`` followed by ``pieces``."""
    taken: list[str] = []
    need = width
    for piece in reversed(pieces):
        if need <= 0:
            break
        taken.append(piece[-need:])
        need -= len(taken[-1])
    if need > 0 and behind:
        taken.append(behind[-need:])
    return "".join(reversed(taken))


def _truncate(pieces: list[str], count: int) -> None:
    """Drop ``count`` characters from the end of ``pieces``."""
    while count > 0 and pieces:
        last = pieces.pop()
        if len(last) > count:
            pieces.append(last[:-count])
            return
        count -= len(last)


def _runs(offsets: list[int]) -> list[Span]:
    """Consecutive offsets as spans."""
    spans: list[Span] = []
    for pos in offsets:
        if spans and spans[-1][1] == pos:
            spans[-1] = (spans[-1][0], pos + 1)
        else:
            spans.append((pos, pos + 1))
    return spans


def _merge(spans: list[Span]) -> tuple[Span, ...]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)
