"""The hot path's shortcuts give exactly what the plain formulation gives.

Each shortcut in the detectors (benchmarks/detectors_bench.py measures them) is compared
with the straightforward code it replaces, on generated input.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from leakline.detectors import Exchange, Layer, Verdict, run_detectors
from leakline.detectors.base import _verdict
from leakline.detectors.diagnosis import RULES, _Context
from leakline.detectors.heuristics.cues import find_sentence_end
from leakline.detectors.text import LiteralScanner, _fences, code_map, probe

# ------------------------------------------------------------------ code regions

_FENCE_OPEN = re.compile(r"^[ \t]{0,3}(?:(`{3,})[^`\n]*|(~{3,})[^\n]*)$", re.MULTILINE)
_FENCE_CLOSE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*$", re.MULTILINE)


def _plain_fences(text: str) -> list[tuple[int, int]]:
    """Fenced blocks found by searching the whole text with the line-anchored regexes."""
    found: list[tuple[int, int]] = []
    pos = 0
    while (opened := _FENCE_OPEN.search(text, pos)) is not None:
        marker = opened.group(1) or opened.group(2)
        end = len(text)
        for closed in _FENCE_CLOSE.finditer(text, opened.end()):
            run = closed.group(1)
            if run[0] == marker[0] and len(run) >= len(marker):
                end = closed.end()
                break
        found.append((opened.start(), end))
        if end >= len(text):
            break
        pos = end
    return found


_CODEISH = st.lists(
    st.sampled_from(["`", "``", "```", "````", "~", "~~~", "\n", " ", "   ", "\t", "a"])
).map("".join)


@settings(max_examples=400)
@given(_CODEISH)
def test_fence_search_by_marker_lines_equals_the_regex_search(text):
    fences = _plain_fences(text)
    assert _fences(text) == fences
    cmap = code_map(text)
    for start, end in fences:
        assert cmap.ends[cmap.starts.index(start)] == end


# ------------------------------------------------------------------ sentence ends


def _plain_sentence_end(text: str, pos: int, endpos: int) -> int:
    for at in range(pos, endpos):
        char = text[at]
        if char in "!?。！？…\n":
            return at
        if char == "." and (
            at + 1 >= endpos or not (text[at + 1].isascii() and text[at + 1].isalnum())
        ):
            return at
    return -1


@given(st.text(alphabet=list(".!?。！？…\naZ9 -가中,"), max_size=20), st.data())
def test_find_sentence_end_equals_the_character_loop(text, data):
    pos = data.draw(st.integers(0, len(text)))
    endpos = data.draw(st.integers(pos, len(text)))
    assert find_sentence_end(text, pos, endpos) == _plain_sentence_end(text, pos, endpos)


# ------------------------------------------------------------------ literal scanning

_LITERALS = (
    "<think>",
    "</think>",
    "Here is my response:",
    "[TOOL_CALLS]",
    "to=functions.",
    "◁think▷",
)


@given(st.lists(st.sampled_from([*_LITERALS, "Here is", "[", "<", "to=", " ", "x", "가"])))
def test_probes_never_hide_a_literal(parts):
    text = "".join(parts)
    for literal in _LITERALS:
        assert probe(literal) in literal
    hits = LiteralScanner(_LITERALS).finditer(text)
    found = {(h.start, h.literal) for h in hits}
    for literal in _LITERALS:
        at = text.find(literal)
        if at >= 0 and not any(s <= at < s + len(lit) for s, lit in found):
            raise AssertionError(f"{literal!r} at {at} not found in {text!r}")


# ------------------------------------------------------------------ verdicts and diagnosis


def test_fast_verdict_equals_the_constructor():
    args = ("e1", ("boundary_token",), (), {"boundary_tokens": "2"})
    assert _verdict(*args) == Verdict(*args)
    assert repr(_verdict(*args)) == repr(Verdict(*args))


def test_rendered_advice_is_remembered_per_context_and_equals_fresh_formatting():
    context = _Context({"model": "m", "suggested_parser": "qwen3", "tool_parser": "hermes"})
    for rule in RULES:
        first = rule.explain(context)
        assert first == (rule.reason.format_map(context), rule.fix.format_map(context))
        assert rule.explain(context) == first
        assert context.rendered[(rule.reason, rule.fix)] == first  # remembered for the context
        assert rule.explain(dict(context)) == first  # a plain mapping renders the same


def test_diagnosed_findings_carry_plain_layer_strings():
    exchange = Exchange(
        event_id="e",
        api="chat.completions",
        stream=False,
        visible_text="<think>plan the answer first</think>Paris.",
    )
    verdict = run_detectors(exchange)
    assert verdict.leaking
    for finding in verdict.findings:
        diagnosis = finding.details["diagnosis"]
        assert type(diagnosis["layer"]) is str and type(diagnosis["detector_layer"]) is str
        assert Layer(diagnosis["layer"]) is finding.layer


# ------------------------------------------------------------------ probes and known-absent marks

_SCAN_ALPHABET = [
    "<",
    "[",
    "◁",
    "▷",
    "|",
    "/",
    "a",
    "f",
    "H",
    "x",
    " ",
    "가",
    "中",
    "think",
    "]",
    ":",
]


def _plain_hits(literals: tuple[str, ...], text: str) -> list[tuple[int, int, str]]:
    """What ``LiteralScanner.finditer`` computes, with no probe or prefilter: every
    first-character group's trie regex run over the whole text, hits merged in text order
    (the longest at one position), overlaps dropped."""
    from leakline.detectors.text import trie_regex

    groups: dict[str, list[str]] = {}
    for literal in literals:
        groups.setdefault(literal[0], []).append(literal)
    hits = [
        (m.start(), m.end(), m.group())
        for members in groups.values()
        for m in re.finditer(trie_regex(members), text)
    ]
    hits.sort(key=lambda h: (h[0], -h[1]))
    out: list[tuple[int, int, str]] = []
    last_end = -1
    for hit in hits:
        if hit[0] >= last_end:
            last_end = hit[1]
            out.append(hit)
    return out


@settings(max_examples=300)
@given(
    st.lists(st.text(alphabet=list("<[◁▷|/afHx 가think]:"), min_size=1, max_size=6), min_size=1),
    st.lists(st.sampled_from(_SCAN_ALPHABET)).map("".join),
)
def test_probed_scanner_equals_a_plain_scan(literals, text):
    """Every probe is a character of its literal (a rare lower-case letter when the literal
    is all lower case), and skipping groups by probe, by a second probe every literal of a
    group holds, by a one-character prefix's single check, or by the characters
    ``generic.marks`` says are absent changes no hit."""
    from leakline.detectors import generic

    literals = tuple(dict.fromkeys(literals))
    for literal in literals:
        rare = probe(literal)
        assert rare in literal
        assert rare or not literal.strip()
    scanner = LiteralScanner(literals)
    plain = _plain_hits(literals, text)
    assert [tuple(h) for h in scanner.finditer(text)] == plain
    assert [tuple(h) for h in scanner.finditer(text, generic.ABSENT[generic.marks(text)])] == plain
    assert scanner.search(text) == bool(plain)


@given(st.lists(st.sampled_from(_SCAN_ALPHABET)).map("".join))
def test_absent_marks_equal_the_plain_membership_checks(text):
    from leakline.detectors import generic

    absent = generic.ABSENT[generic.marks(text)]
    assert absent == "".join(c for c in generic.MARK_CHARS if c not in text)


@given(st.lists(st.sampled_from(['"', "name", '"name"', "(", "[", "x", " ", "가"])).map("".join))
def test_probed_bare_cues_equal_the_plain_membership_checks(text):
    from leakline.detectors.families import active_table
    from leakline.detectors.rules.tool_call_text import _markups

    markups = _markups()
    plain = {cue for m in active_table().markups if m.bare for cue in m.cues if cue in text}
    probed = {cue or rare for rare, cue, _ in markups.bare_cues if rare in text and cue in text}
    assert probed == plain


@given(st.lists(st.sampled_from(['{"name": "f"', "[f(", "{", "[", '"name"', "(", " ", "가"])))
def test_a_bare_cue_s_lead_characters_rule_out_only_rows_that_cannot_match(parts):
    from leakline.detectors.rules.tool_call_text import _markups

    text = "".join(parts)
    markups = _markups()
    for rare, cue, leads in markups.bare_cues:
        if leads and not any(lead in text for lead in leads):
            for index in markups.rows_by_cue[cue or rare]:
                assert markups.rows[index].pattern.search(text) is None


def test_lead_literal_reads_only_a_plain_opening_character():
    from leakline.detectors.rules.tool_call_text import _lead_literal

    assert _lead_literal(re.compile(r'\{\s*"name"')) == "{"
    assert _lead_literal(re.compile(r"\[\s*(?P<name>x)\(")) == "["
    assert _lead_literal(re.compile(r"a?b")) == ""
    assert _lead_literal(re.compile(r"\{|\[")) == ""
    assert _lead_literal(re.compile(r"\s*\{")) == ""
    assert _lead_literal(re.compile(r"x", re.IGNORECASE)) == ""


# ------------------------------------------------------------------ opening-block markers


def _plain_scan(markers, text: str) -> int:
    """``Markers.scan`` without its word-start prefilter: every trie match in turn."""
    found_kinds = 0
    for found in markers._any.finditer(text):
        at = found.start()
        if markers._word_start and at > 0 and text[at - 1].isalpha():
            continue
        for follow, kind in markers._rest[found.group()]:
            if follow is None or follow.match(text, found.end()) is not None:
                found_kinds |= kind
        if found_kinds & markers.STRONG:
            break
    return found_kinds


_NOTES_WORDS = [
    "the user",
    "user",
    " wants",
    " says",
    "i need to",
    "need to",
    " check",
    "wii",
    "they",
    " asked",
    "i'll",
    " answer",
    "analyze",
    " the request",
    "let me",
    "é",
    "x",
    " ",
    ".",
    "\n",
]


@given(st.lists(st.sampled_from(_NOTES_WORDS), max_size=14).map("".join))
def test_word_start_prefilter_never_changes_a_scan(text):
    from leakline.detectors.heuristics.notes_block import REGISTERS

    row = REGISTERS["en"]
    for markers in (row.signs, row.intent):
        assert markers.scan(text) == _plain_scan(markers, text)


def test_second_probe_is_a_character_every_literal_of_the_group_holds():
    literals = ["Here is my response:", "Here are my steps:"]
    scanner = LiteralScanner(literals)
    ((_, rare, second, prefix, _),) = scanner._groups
    assert (rare, second, prefix) == ("H", ":", "Here")
    assert all(second in literal for literal in literals)
    assert [h.literal for h in scanner.finditer("x Here are my steps: y")] == [literals[1]]
    assert scanner.finditer("Here are my steps, no colon") == []
    # a long prefix is cheap to search: no second probe
    assert LiteralScanner(["<|channel|>x:", "<|channel|>y:"])._groups[0][2] == ""
