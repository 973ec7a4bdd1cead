"""Shared text helpers: the one notion of "outside code", literal scanning, JSON extraction."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leakline.detectors.text import (
    LiteralScanner,
    code_map,
    decode_at,
    find_json_value,
    is_quoted,
    loads,
    outside_code,
    unwrap_fence,
)


def _outside(text: str, needle: str) -> bool:
    at = text.index(needle)
    return outside_code(text, at, at + len(needle))


@pytest.mark.parametrize(
    ("text", "inside"),
    [
        pytest.param("a `X` b", True, id="inline_span"),
        pytest.param("a ``X ` y`` b", True, id="double_backtick_span"),
        pytest.param("```\nX\n```\n", True, id="fence"),
        pytest.param("~~~py\nX\n~~~", True, id="tilde_fence"),
        pytest.param("text\n```\nX never closed", True, id="unclosed_fence_runs_to_end"),
        pytest.param("   ```js\nX\n   ```", True, id="indented_fence"),
        pytest.param("intro ```X``` outro", True, id="triple_backticks_inline"),
        pytest.param("a ` b X", False, id="lone_backtick_is_literal"),
        pytest.param("a `b\n\nX` c", False, id="span_does_not_cross_paragraphs"),
        pytest.param("```\ncode\n```\nX", False, id="after_fence"),
        pytest.param("````\n```\nstill code\n````\nX", False, id="longer_fence_closes_itself"),
        pytest.param("plain X", False, id="plain"),
    ],
)
def test_code_regions(text, inside):
    assert _outside(text, "X") is not inside


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        pytest.param('say "X" now', True, id="double"),
        pytest.param("say 'X' now", True, id="single_direct"),
        pytest.param("say “X and more” now", True, id="curly_stretch"),
        pytest.param("say 「X」", True, id="corner"),
        pytest.param("say «X»", True, id="guillemets"),
        pytest.param('he said "yes"X and left', False, id="closing_quote_before"),
        pytest.param("it'X is odd'", False, id="apostrophe_needs_direct_wrap"),
        pytest.param('say "X\nnext line"', False, id="quote_stretch_is_one_line"),
        pytest.param('say "X here"\nnext line', True, id="newline_after_the_closing_quote"),
    ],
)
def test_quotes(text, quoted):
    at = text.index("X")
    assert is_quoted(text, at, at + 1) is quoted


def test_code_map_is_empty_without_backticks():
    assert not code_map("no code here ~ at all")


@pytest.mark.parametrize(
    ("text", "inner"),
    [
        pytest.param('```json\n{"a": 1}\n```', '{"a": 1}', id="json_fence"),
        pytest.param('\n  ```\n{"a": 1}\n```  \n', '{"a": 1}', id="outer_whitespace"),
        pytest.param("~~~\nx\n~~~", "x", id="tilde"),
        pytest.param('Here:\n```\n{"a": 1}\n```', None, id="prose_before"),
        pytest.param("```\na\n```\n```\nb\n```", None, id="two_blocks"),
        pytest.param("```\nunclosed", None, id="unclosed"),
        pytest.param("```x```", None, id="one_line"),
    ],
)
def test_unwrap_fence(text, inner):
    assert unwrap_fence(text) == inner


def test_scanner_prefers_longest_and_orders_hits():
    scanner = LiteralScanner(["<|channel|>", "<|channel|>analysis", "[THINK]", "assistantfinal"])
    hits = scanner.finditer("x [THINK] <|channel|>analysis y <|channel|>final assistantfinal")
    assert [h.literal for h in hits] == [
        "[THINK]",
        "<|channel|>analysis",
        "<|channel|>",
        "assistantfinal",
    ]
    assert scanner.search("..assistantfinal..")
    assert not scanner.search("nothing here")


_ALPHABET = st.sampled_from(["<", ">", "|", "a", "b", "/", "t", "[", "]", " "])


@given(
    literals=st.lists(st.text(_ALPHABET, min_size=1, max_size=6), min_size=1, max_size=8),
    text=st.text(_ALPHABET, max_size=60),
)
def test_scanner_matches_brute_force(literals, text):
    """Leftmost, then longest, non-overlapping: the same as a naive scan."""
    expected = []
    pos = 0
    ordered = sorted(set(literals), key=len, reverse=True)
    while pos < len(text):
        match = next((lit for lit in ordered if text.startswith(lit, pos)), None)
        if match is None:
            pos += 1
            continue
        expected.append((pos, match))
        pos += len(match)
    got = [(h.start, h.literal) for h in LiteralScanner(literals).finditer(text)]
    assert got == expected


def test_loads_is_strict():
    assert loads(' {"a": [1, 2.5, null]} ') == {"a": [1, 2.5, None]}
    for bad in ("NaN", '{"a": Infinity}', "{'a': 1}", '{"a": 1} x', "", "[" * 100_000):
        with pytest.raises(ValueError):
            loads(bad)


def _stdlib_strict(text: str) -> object:
    def reject(name: str) -> object:
        raise ValueError(name)

    return json.JSONDecoder(parse_constant=reject).decode(text)


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(_JSON_VALUES, st.sampled_from(["", " ", "\n\t"]))
def test_loads_returns_what_the_strict_stdlib_decoder_returns(value, pad):
    # the orjson fast path must not change a value: big integers stay integers
    text = pad + json.dumps(value, ensure_ascii=False) + pad
    got = loads(text)
    assert got == _stdlib_strict(text)
    assert type(got) is type(_stdlib_strict(text))


@pytest.mark.parametrize(
    "text",
    ["12345678901234567890123", '{"n": -9223372036854775809}', '"\\ud800"', "1e400", "[1,]"],
)
def test_loads_edge_cases_follow_the_stdlib(text):
    try:
        expected = _stdlib_strict(text)
    except ValueError:
        with pytest.raises(ValueError):
            loads(text)
        return
    assert loads(text) == expected and type(loads(text)) is type(expected)


def test_decode_at_and_find_json_value():
    text = 'prefix {"a": 1} suffix [2]'
    assert decode_at(text, 7) == ({"a": 1}, 15)
    with pytest.raises(ValueError):
        decode_at(text, 0)
    assert find_json_value(text) == (7, 15, {"a": 1})
    assert find_json_value("see {broken and [1, 2]") == (16, 22, [1, 2])
    assert find_json_value("no json") is None


def test_piece_boundaries_and_crosses():
    from leakline.detectors.text import crosses, piece_boundaries

    assert piece_boundaries(("ab", "cd", "e"), 5) == [2, 4]
    assert piece_boundaries(("ab",), 2) == []
    assert piece_boundaries(("ab", "cd"), 7) == []  # pieces that do not add up are ignored
    bounds = [2, 4]
    assert crosses(bounds, 1, 3)
    assert not crosses(bounds, 2, 4)  # a boundary on the edge does not cut the span
    assert not crosses(bounds, 0, 2)
    assert crosses(bounds, 3, 5)


def test_visible_hits_equals_outside_code_per_hit():
    from leakline.detectors.text import Hit, visible_hits

    text = 'x `<a>` "<a>" <a> 「<a>」 <a>\n```\n<a>\n```\n<a>'
    hits = [Hit(i, i + 3, "<a>") for i in range(len(text)) if text.startswith("<a>", i)]
    expected = [h for h in hits if outside_code(text, h.start, h.end)]
    assert visible_hits(text, hits, 100) == expected
    assert visible_hits(text, hits, 1) == expected[:1]
