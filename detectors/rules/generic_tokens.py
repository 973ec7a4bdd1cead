"""``boundary_token`` and delimited ``reasoning_leak`` for special tokens no family row names.

The family rule (``boundary_tokens``) reports every literal of the active family table;
this rule reports the rest of what *looks* like a special token (``generic.scan``:
``<|foo_bar|>``, ``<｜x｜>``, ``</s>``, ``<end_of_turn>``, ``[INST]``, ``<seed:think>``…),
so a family leakline has never seen is not invisible. Every finding says
``details["family"] = "unknown"`` and the exact ``token`` seen.

Reasoning regions are inferred from generic tokens alone:

- a pair whose shared key names reasoning (``<|begin_of_thought|>…<|end_of_thought|>``,
  ``[THINK]…[/THINK]``, ``<x:think>…</x:think>``);
- a channel header: a token followed by a reasoning word and then a token or a line
  break (``<|channel|>analysis<|message|>…<|end|>``, ``<|channel>thought\\n…<channel|>``);
- a section token named for reasoning that opens the text, up to the next token, when an
  answer follows (``<|thinking|>…<|response|>answer``);
- a lone reasoning closer after text (the prefilled-start case), an unterminated opener;
- an opener of the answer section after text and before any other token (``…steps.
  [BEGIN FINAL RESPONSE]answer``, ``…<|START_RESPONSE|>answer``): what precedes it is
  reasoning whose start was not shown, reported like a lone closer (``lone_end``);
- a frame (``generic.leading_frame``): a plain-XML reasoning pair (``<reasoning>…
  </reasoning>``) or any short tag, doubled square, lenticular or arrow/triangle pair whose
  closer mirrors the opener (``<muse>``, ``[[plan]]``, ``【思考】…【/思考】``, ``▶▶…◀◀``), only
  when it opens the text, holds prose (any reasoning-named tag; 12+ characters otherwise),
  an answer that is not more markup follows it, it is no HTML/BBCode element, and the
  prompt neither names the tag nor asks for or about markup;
- a plain-text header pair (``generic.leading_header_pair``: "Here is my thought
  process:" opening the text, "Here is my response:" on a later line of its own, an answer
  after it), unless the prompt asks for that reasoning ("show your reasoning"); both headers
  are reported as ``boundary_token`` with ``shape: "header"``.

Not leaks (the same exceptions as the family rule, plus): tokens in code or quotes,
tokens named in prose (``drop_mentions``), tokens the prompt itself contains, a token
that opens a sentence as the subject of a definition ("<END_TURN> is the token that…") when
the prompt asks about tokens/tags/markup or names the token's word, HTML
strikethrough ``<s>…</s>``, tool-call tokens (``generic_tool_calls`` reports those) and
anything inside a family's tool markup (``tool_call_text``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from leakline.detectors import generic
from leakline.detectors.common import MAX_FINDINGS, DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.rules.boundary_tokens import (
    _INK,
    _named_in_prose,
    _reasoning_between,
    claimed_literals,
    drop_mentions,
)
from leakline.detectors.rules.tool_call_text import claimed_spans
from leakline.detectors.text import Hit, crosses, piece_boundaries, visible_hits

_MAX_HITS = 4096
_BOUNDARY = Label.BOUNDARY_TOKEN.value
# "<|channel|>analysis<|message|>", "<|channel>thought\n": a header naming a reasoning channel.
_CHANNEL_WORD = re.compile(r"(?:analysis|thought|thoughts|thinking|think|reasoning)(?=\s*\n|<|\[)")


class _Region(NamedTuple):
    start: int
    end: int
    inner_start: int
    inner_end: int
    kind: str  # "pair" | "lone_end" | "unterminated" | "channel" | "xml_pair" | "header_pair"
    opener: str
    closer: str


class GenericTokens(DetectorBase):
    id = "generic_tokens"
    version = "6"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        text = exchange.visible_text
        if not text:
            return []
        header = _header_region(exchange, text)
        frame = generic.leading_frame(text)
        if not generic.marks(text) and frame is None:
            return self._findings(exchange, text, [*header[:2]], [header[2]]) if header else []
        found = generic.scan(text)
        if not found and frame is None and header is None:
            return []
        hits = _candidates(exchange, text, found) if found else []
        regions = _regions(text, hits)
        if header is not None:
            regions.append(header[2])
            hits = sorted([*hits, *header[:2]])
        framed: tuple[Hit, ...] = ()
        if frame is not None:
            region = _frame_region(exchange, text, frame, found)
            if region is not None:
                regions.append(region)
                framed = (frame.opener, frame.closer)
                hits = sorted([*hits, *framed])
        if not hits:
            return []
        return self._findings(exchange, text, hits, regions, framed)

    def _findings(
        self,
        exchange: Exchange,
        text: str,
        hits: list[Hit],
        regions: list[_Region],
        framed: tuple[Hit, ...] = (),
    ) -> list[Finding]:
        split_at = piece_boundaries(exchange.stream_facts.visible_pieces, len(text))
        findings: list[Finding] = []
        for start, end, literal in hits[:MAX_FINDINGS]:
            meaning = generic.classify(literal)
            shape = meaning.shape
            if framed and (start == framed[0].start or start == framed[1].start):
                shape = "xml" if literal[0] == "<" and literal[1] != "<" else "frame"
            details: dict[str, object] = {"token": literal, "family": "unknown", "shape": shape}
            if split_at and crosses(split_at, start, end):
                details["split_across_chunks"] = True
            sure = shape == "pipe" or (shape == "xml" and meaning.reasoning)
            findings.append(
                self.span_finding(
                    _BOUNDARY,
                    Layer.PARSER,
                    Remediation.STRIP,
                    0.9 if sure else 0.8,
                    text,
                    start,
                    end,
                    details,
                )
            )
        for region in regions:
            answer_left = bool(_INK.search(text, 0, region.start) or _INK.search(text, region.end))
            clean = region.kind != "unterminated" and answer_left
            findings.append(
                self.finding(
                    Label.REASONING_LEAK,
                    layer=Layer.PARSER,
                    remediation=Remediation.STRIP if clean else Remediation.REGENERATE,
                    confidence=0.8
                    if region.kind in ("unterminated", "xml_pair", "frame", "header_pair")
                    else 0.85,
                    text=text,
                    span=(region.start, region.end),
                    details={
                        "family": "unknown",
                        "delimited": region.kind,
                        "token": region.opener or region.closer,
                        "start_token": region.opener,
                        "end_token": region.closer,
                        "reasoning_chars": region.inner_end - region.inner_start,
                    },
                )
            )
        return findings


def _candidates(exchange: Exchange, text: str, found: list[Hit]) -> list[Hit]:
    """Generic hits that no family row claims, outside code, quotes, call markup and prose."""
    claimed = claimed_literals()
    hits = [h for h in found if h.literal not in claimed]
    if not hits:
        return []
    blocks = generic.call_blocks(text, found)
    taken = claimed_spans(text) if any(h.literal[0] in "<[" for h in hits) else []
    taken.extend((start, end) for start, end, _ in blocks)
    if taken:
        hits = [h for h in hits if not any(s <= h.start and h.end <= e for s, e in taken)]
    hits = [h for h in hits if generic.classify(h.literal).kind != "call"]
    if not hits:
        return []
    hits = visible_hits(text, hits, _MAX_HITS)
    prompt = exchange.prompt_text
    if prompt:
        hits = [h for h in hits if h.literal not in prompt]
    hits = _drop_strikethrough(text, hits)
    if not hits:
        return []
    if prompt:
        hits = _drop_explained(text, hits, prompt)
        if not hits:
            return []
    opens = {h.literal for h in hits if generic.classify(h.literal).opens}
    closes = {h.literal for h in hits if generic.classify(h.literal).closes}
    runs = _glued_runs(text, hits)
    if len(runs) == len(hits):
        return drop_mentions(masked(text, found), hits, opens, closes)
    # A run of tokens glued into one word ("<|close|>think<|sep|>") is named or leaked as a
    # whole: the mention rule judges the run, and keeps or drops all of its tokens.
    units = [Hit(run[0].start, run[-1].end, text[run[0].start : run[-1].end]) for run in runs]
    kept = {unit.start for unit in drop_mentions(masked(text, found), units, opens, closes)}
    return [hit for run in runs if run[0].start in kept for hit in run]


# A prompt that asks about tokens or markup: an answer may open with the token it explains.
_ASKS_ABOUT_MARKUP = re.compile(
    r"(?<![A-Za-z])(?:tokens?|tags?|markers?|delimiters?|markup|special|control|xml|html)"
    r"(?![A-Za-z])|토큰|태그|구분자|마커|标签|标记|令牌|分隔符|特殊",
    re.IGNORECASE,
)
# Right after a token: it is the subject of a definition ("<END_TURN> is the token…",
# "<END_TURN> marks…", "<END_TURN>은 …", "<END_TURN> 表示…").
_DEFINED = re.compile(
    r"[\"'”’)]?(?:\s+(?:tokens?|tags?|markers?|symbols?|strings?|sequences?))?"
    r"(?:\s+(?:is|are|was|were|means|marks|signals|signifies|indicates|denotes|represents"
    r"|ends|closes|opens|starts|begins|separates|tells|stands\s+for|acts\s+as|serves\s+as"
    r"|refers\s+to|appears|shows\s+up)(?![A-Za-z])"
    r"|\s*(?:은|는|이|가|란|이란)\s|\s*(?:是|表示|用于|用来|代表|标志|指的是|意味))"
)


def _drop_explained(text: str, hits: list[Hit], prompt: str) -> list[Hit]:
    """Tokens that an answer about markup explains: the prompt asks about tokens, tags or
    markup (or names the token's word) and the token is the subject of a definition."""
    explained = [
        h
        for h in hits
        if (h.start == 0 or text[h.start - 1] in _SET_APART)
        and _DEFINED.match(text, h.end) is not None
    ]
    if not explained:
        return hits
    if _ASKS_ABOUT_MARKUP.search(prompt) is not None:
        drop = {h.start for h in explained}
    else:
        words = _NOT_WORD.sub("", prompt).lower()
        drop = {h.start for h in explained if _named_word(h.literal) in words}
    return [h for h in hits if h.start not in drop] if drop else hits


# Before a token used as a word: whitespace or an opening quote (a leaked token is glued on)
_SET_APART = frozenset(" \t\n\r\"'“‘(「")
_NOT_WORD = re.compile(r"[\W_]+")


def _named_word(literal: str) -> str:
    """The token's name with brackets, pipes and separators gone ("<END_TURN>" -> "endturn");
    a name too short to be told apart from ordinary words never matches."""
    word = _NOT_WORD.sub("", literal).lower()
    return word if len(word) >= 4 else "\x00"


# What may join two tokens into one word: nothing, or a bare word ("<|open|>think<|sep|>").
_GLUE = re.compile(r"[A-Za-z0-9_]{0,24}")


def _glued_runs(text: str, hits: list[Hit]) -> list[list[Hit]]:
    """``hits`` grouped into runs of tokens with no whitespace or punctuation between them."""
    runs: list[list[Hit]] = []
    for hit in hits:
        if runs:
            last = runs[-1][-1]
            if last.end <= hit.start and _GLUE.fullmatch(text, last.end, hit.start) is not None:
                runs[-1].append(hit)
                continue
        runs.append([hit])
    return runs


def masked(text: str, hits: list[Hit]) -> str:
    """``text`` with each token's name blanked (same length): the words inside
    ``<|reserved_special_token_5|>`` must not make its sentence read as prose about tokens."""
    parts: list[str] = []
    pos = 0
    for start, end, _ in hits:
        if start < pos or end - start < 3:
            continue
        parts.append(text[pos : start + 1])
        parts.append("x" * (end - start - 2))
        pos = end - 1
    parts.append(text[pos:])
    return "".join(parts)


def _drop_strikethrough(text: str, hits: list[Hit]) -> list[Hit]:
    """HTML ``<s>old</s>`` is strikethrough: a ``<s>`` … ``</s>`` pair on one line is not a token.

    A leaked ``</s>`` ends a turn with no ``<s>`` before it on its line; a leaked ``<s>``
    opens the text or sits glued to another token (``<s>[INST]``).
    """
    if not any(h.literal in ("<s>", "</s>") for h in hits):
        return hits
    drop: set[int] = set()
    for hit in hits:
        if hit.literal != "<s>":
            continue
        glued = text.startswith(("[", "<|", "<<"), hit.end)  # "<s>[INST]": a BOS token
        line_end = text.find("\n", hit.end)
        close = text.find("</s>", hit.end, line_end if line_end >= 0 else len(text))
        if close > hit.end and not glued:
            drop.add(hit.start)
            drop.add(close)
        elif _INK.search(text, 0, hit.start) is not None and not glued:
            drop.add(hit.start)  # mid-text and not glued to a token: a stray HTML tag
    return [h for h in hits if h.start not in drop]


def _pair(opened: Hit, closed: Hit) -> _Region:
    """The reasoning region between two tokens, both included."""
    return _Region(
        opened.start, closed.end, opened.end, closed.start, "pair", opened.literal, closed.literal
    )


def _leading_mirrored_pair(text: str, hits: list[Hit]) -> tuple[_Region, int] | None:
    """The first token opens the text and a later token mirrors it with a slash
    (``⟨|aside|⟩…⟨|/aside|⟩``, ``<|muse|>…<|/muse|>``) around prose, an answer after it:
    reasoning whatever the name says, like a frame (``generic.leading_frame``)."""
    first = hits[0]
    if _INK.search(text, 0, first.start) is not None or generic.classify(first.literal).closes:
        return None
    mirror = generic.mirrored(first.literal)
    at = next((j for j in range(1, len(hits)) if hits[j].literal == mirror), None)
    if at is None:
        return None
    closed = hits[at]
    if not _prose(text[first.end : closed.start].strip()):
        return None
    if _INK.search(text, closed.end) is None:
        return None
    return _pair(first, closed), at


def _regions(text: str, hits: list[Hit]) -> list[_Region]:
    regions: list[_Region] = []
    used: set[int] = set()
    if hits and not generic.classify(hits[0].literal).reasoning:
        mirrored = _leading_mirrored_pair(text, hits)
        if mirrored is not None:
            regions.append(mirrored[0])
            used.update((0, mirrored[1]))
    for index, hit in enumerate(hits):
        if index in used:
            continue
        meaning = generic.classify(hit.literal)
        channel = _CHANNEL_WORD.match(text, hit.end)
        if channel is not None and not meaning.closes:
            after = channel.end()
            nxt = next((j for j in range(index + 1, len(hits)) if hits[j].start >= after), None)
            inner_start = after
            if nxt is not None and _INK.search(text, after, hits[nxt].start) is None:
                inner_start = hits[nxt].end  # "<|channel|>analysis<|message|>": skip the header
                used.add(nxt)
                nxt = next((j for j in range(nxt + 1, len(hits))), None)
            end_hit = hits[nxt] if nxt is not None else None
            inner_end = end_hit.start if end_hit is not None else len(text)
            if _INK.search(text, inner_start, inner_end) is not None:
                end = end_hit.end if end_hit is not None else len(text)
                closer = end_hit.literal if end_hit is not None else ""
                kind = "channel" if end_hit is not None else "unterminated"
                regions.append(
                    _Region(hit.start, end, inner_start, inner_end, kind, hit.literal, closer)
                )
                if nxt is not None:
                    used.add(nxt)
            continue
        if meaning.answer and not meaning.closes:
            if (
                index == 0
                and _INK.search(text, 0, hit.start) is not None
                and _INK.search(text, hit.end) is not None
                and not _named_in_prose(text, hit)
            ):
                regions.append(_Region(0, hit.end, 0, hit.start, "lone_end", "", hit.literal))
            continue
        if not meaning.reasoning:
            continue
        if not meaning.opens and not meaning.closes:
            # a section token named for reasoning ("<|thinking|>") opening the text: its
            # section runs to the next token ("<|response|>"), when an answer follows that
            nxt = index + 1
            if (
                nxt < len(hits)
                and _INK.search(text, 0, hit.start) is None
                and _INK.search(text, hit.end, hits[nxt].start) is not None
                and _INK.search(text, hits[nxt].end) is not None
            ):
                closed = hits[nxt]
                used.add(nxt)
                regions.append(_pair(hit, closed))
            continue
        if meaning.opens:
            close_at = next(
                (
                    j
                    for j in range(index + 1, len(hits))
                    if generic.classify(hits[j].literal).closes
                    and generic.classify(hits[j].literal).key == meaning.key
                ),
                None,
            )
            if close_at is not None:
                closed = hits[close_at]
                used.add(close_at)
                previous = hits[index - 1] if index else None
                if _reasoning_between(text, hit, closed, previous):
                    regions.append(_pair(hit, closed))
            elif _INK.search(text, hit.end) is not None and not _named_in_prose(text, hit):
                regions.append(
                    _Region(
                        hit.start, len(text), hit.end, len(text), "unterminated", hit.literal, ""
                    )
                )
            continue
        if (
            meaning.closes
            and index == 0
            and _INK.search(text, 0, hit.start) is not None
            and _INK.search(text, hit.end) is not None
            and not _named_in_prose(text, hit)
        ):
            regions.append(_Region(0, hit.end, 0, hit.start, "lone_end", "", hit.literal))
    return regions


def _header_region(exchange: Exchange, text: str) -> tuple[Hit, Hit, _Region] | None:
    """ "Here is my thought process:" opening the text, then "Here is my response:" on a
    line of its own with an answer after it: reasoning, unless a family row names either
    header (the family rule reports those) or the prompt asked for that kind of reasoning."""
    pair = generic.leading_header_pair(text)
    if pair is None:
        return None
    opened, closed, noun = pair
    claimed = claimed_literals()
    if opened.literal in claimed or closed.literal in claimed:
        return None
    if _INK.search(text, opened.end, closed.start) is None or _INK.search(text, closed.end) is None:
        return None
    if noun.split()[0] in exchange.prompt_text.lower() or exchange.response_format is not None:
        return None  # "explain your reasoning first": the user asked for this layout
    region = _Region(
        opened.start,
        closed.end,
        opened.end,
        closed.start,
        "header_pair",
        opened.literal,
        closed.literal,
    )
    return opened, closed, region


# HTML elements and BBCode tags: a page or a forum post opening with one is an answer.
# Only elements that format or hold ordinary text: a sectioning word (<aside>, <section>)
# around notes is judged like any other name.
_HTML_WORDS = (
    "a abbr b bdi bdo big blockquote body br button center cite code dd del dfn div dl dt em"
    " font h1 h2 h3 h4 h5 h6 head hr html i img ins kbd label li mark ol p pre q s samp small"
    " span strike strong sub sup table td th title tr tt u ul var details summary"
)
_BBCODE_WORDS = (
    "b i u s url img quote code color colour size list spoiler center left right justify table"
    " tr td th font email youtube video hr sub sup li ul ol strike indent pre noparse h1 h2 h3"
    " h4 h5 h6 highlight mention user"
)
_HTML_NAMES = frozenset(_HTML_WORDS.split())
_BBCODE_NAMES = frozenset(_BBCODE_WORDS.split())
# A prompt that asks for (or about) markup: a frame in the answer is what it asked for.
_MARKUP_PROMPT = re.compile(
    r"(?<![A-Za-z])(?:xml|html|bbcode|markup|tags?|wiki\w*|delimit\w*)(?![A-Za-z])"
    r"|태그|마크업|标签|标记",
    re.IGNORECASE,
)
# A block of prose: at least this much visible text between the frame's ends
_FRAME_MIN_CHARS = 12


def _prose(block: str) -> bool:
    """Enough visible text to be a block of notes: 12 characters, 6 in CJK or Hangul (a
    character there carries a word)."""
    if len(block) >= _FRAME_MIN_CHARS:
        return True
    return len(block) >= _FRAME_MIN_CHARS // 2 and any(char >= "\u3000" for char in block)


# Markup inside the block: nested elements are an XML/HTML answer, not notes
_NESTED_TAG = re.compile(r"</?[A-Za-z]")


def _frame_region(
    exchange: Exchange, text: str, frame: generic.Frame, found: list[Hit]
) -> _Region | None:
    """A frame opening the text (``<muse>…</muse>``, ``[[plan]]…[[/plan]]``, ``【思考】…【/思考】``,
    ``▶▶…◀◀``) around a block of prose, with an answer after its closer: reasoning, unless
    it is markup the user asked for, an HTML/BBCode answer, or more markup follows."""
    opened, closed = frame.opener, frame.closer
    if any(h.start < closed.end for h in found):
        return None  # token shapes already frame this stretch
    inner = text[opened.end : closed.start].strip()
    name = frame.name.lower()
    soft = frame.bracket == "<" and name in generic.SOFT_REASONING
    if not inner or (not soft and not _prose(inner)):
        return None
    if frame.bracket in ("<", "<<", "[", "[[") and _NESTED_TAG.search(inner) is not None:
        return None  # elements inside: an XML/HTML answer
    if (frame.bracket == "<" and name in _HTML_NAMES) or (
        frame.bracket == "[" and name in _BBCODE_NAMES
    ):
        return None
    answer = _INK.search(text, closed.end)
    if (
        answer is None
        or text[answer.start()] in "<[【〖〔《"
        or text[answer.start()] == frame.bracket
    ):
        return None  # nothing after it, or more markup: a structured answer
    if not frame.name and not _glyph_closes_block(text, frame):
        return None
    prompt = exchange.prompt_text
    if exchange.response_format is not None or (name and name in prompt.lower()):
        return None  # the user asked for this format
    if not soft and _MARKUP_PROMPT.search(prompt) is not None:
        return None  # a prompt about markup: the frame is the answer's own example
    kind = "xml_pair" if frame.bracket == "<" else "frame"
    return _Region(
        opened.start, closed.end, opened.end, closed.start, kind, opened.literal, closed.literal
    )


def _glyph_closes_block(text: str, frame: generic.Frame) -> bool:
    """A glyph closer ends a block: doubled (``◀◀``), glued to the block's last word, or
    alone on its line. A closer that opens a line or sits between words is an arrow in a
    proof ("⇒ A holds.\\n⇐ Conversely…") or in instructions ("Settings ←")."""
    closed = frame.closer
    if len(closed.literal) > 1:
        return True
    if closed.start and not text[closed.start - 1].isspace():
        return True
    line_start = text.rfind("\n", 0, closed.start) + 1
    line_end = text.find("\n", closed.end)
    if line_end < 0 or _INK.search(text, closed.end, line_end) is not None:
        return False  # text after it on its line
    before = text[line_start : closed.start].rstrip()
    return not before or before[-1] in _SENTENCE_ENDS  # alone, or after a finished sentence


_SENTENCE_ENDS = frozenset(".!?。！？…")
