"""leakline.detectors.heuristics.cues: openings, sentence ends and literal-anchored markers."""

from __future__ import annotations

import pytest

from leakline.detectors.heuristics.cues import (
    Markers,
    find_sentence_end,
    first_sentence_end,
    prepare,
    sentence_end,
)


@pytest.mark.parametrize(
    ("text", "end"),
    [
        pytest.param("Let me check. Then", 12, id="period_space"),
        pytest.param("It is 3.5 degrees.", 17, id="decimal_is_not_an_end"),
        pytest.param("AAPL 0700.HK closed. Next", 19, id="ticker_dot"),
        pytest.param("Use Node.js today!", 17, id="dotted_name"),
        pytest.param("보겠습니다.항공권", 5, id="period_before_hangul"),
        pytest.param("我先查一下。然后", 5, id="cjk_full_stop"),
        pytest.param("no end", -1, id="none"),
    ],
)
def test_find_sentence_end(text, end):
    assert find_sentence_end(text) == end


def test_sentence_end_swallows_an_ellipsis_run():
    assert sentence_end("Wait... what", 0) == len("Wait...")
    assert first_sentence_end("no end") == len("no end")


@pytest.mark.parametrize(
    ("text", "scripts"),
    [
        pytest.param("Let me check.", ("latin",), id="english"),
        pytest.param("  \n먼저 찾아보겠습니다.", ("hangul",), id="korean_after_space"),
        pytest.param("AAPL 시세를 조회해 보겠습니다.", ("latin", "hangul"), id="latin_then_hangul"),
        pytest.param(
            "2026-12-21 운임부터 확인해 보겠습니다.", ("hangul",), id="digits_then_hangul"
        ),
        pytest.param("我先查一下。", ("han",), id="chinese"),
        pytest.param("確認してみます。", ("kana",), id="japanese_opening_with_kanji"),
        pytest.param("`code` first", None, id="code"),
        pytest.param('"quoted" first', None, id="quote"),
        pytest.param("- bullet", None, id="bullet"),
        pytest.param("12345", None, id="digits_only"),
        pytest.param("", None, id="empty"),
    ],
)
def test_prepare_scripts(text, scripts):
    opening = prepare(text)
    assert (opening.scripts if opening else None) == scripts


def test_prepare_keeps_offsets_and_remembers_the_last_text():
    text = "  Let me CHECK."
    opening = prepare(text)
    assert opening.start == 2
    assert opening.subject == "let me check."
    assert prepare(text) is opening


def test_markers_need_the_continuation_and_a_word_start():
    markers = Markers({"the user": r"\s+(?:asked|wants)\b"}, {"i need": None}, word_start=True)
    assert markers.scan("so the user asked") == Markers.STRONG
    assert markers.scan("the user manual") == 0
    assert markers.scan("i need coffee") == Markers.WEAK
    assert markers.scan("hi needle") == 0  # "i need" inside a word
    assert markers.scan("i need it; the user wants it") == Markers.STRONG | Markers.WEAK
