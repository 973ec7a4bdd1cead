"""Candidate marker shapes: where markers sit, what content is not a candidate."""

from __future__ import annotations

import pytest

from leakline.detectors import marker_shapes as ms


def _shapes(text: str) -> list[tuple[str, int]]:
    return [(s, w) for s, w, _, _ in ms.shapes(text)]


@pytest.mark.parametrize(
    ("text", "shape", "where"),
    [
        pytest.param(
            "<<reason>>a plan.<</reason>>\nThe answer.",
            "<<reason>>\t<</reason>>",
            ms.WHERE_START | ms.WHERE_PAIR,
            id="doubled_angle_pair",
        ),
        pytest.param(
            "【思考】用户问……【/思考】答案是4。",
            "【思考】\t【/思考】",
            ms.WHERE_START | ms.WHERE_PAIR,
            id="lenticular_pair",
        ),
        pytest.param(
            "▶▶ plan ◀◀ step ▶▶ /plan ◀◀ Done.",
            "▶▶ plan ◀◀\t▶▶ /plan ◀◀",
            ms.WHERE_START | ms.WHERE_PAIR,
            id="glyph_pair_spaced",
        ),
        pytest.param(
            "[[THINK_start]] x [[THINK_end]] y",
            "[[THINK_start]]\t[[THINK_end]]",
            ms.WHERE_START | ms.WHERE_PAIR,
            id="start_end_words",
        ),
        pytest.param("The answer.\n[[END_TURN]]", "[[END_TURN]]", ms.WHERE_END, id="end_line"),
        pytest.param("The answer.<|eot_x|>", "<|eot_x|>", ms.WHERE_END, id="end_glued"),
        pytest.param("Intro line.\n⟨|bot|⟩ hello there", "⟨|bot|⟩", ms.WHERE_LINE, id="line"),
        pytest.param("{|sep|} hello", "{|sep|}", ms.WHERE_START, id="brace_pipes"),
        pytest.param("〈assistant〉\nHi.", "〈assistant〉", ms.WHERE_START, id="cjk_angle"),
        pytest.param("The answer.\n{|end_x|}", "{|end_x|}", ms.WHERE_END, id="brace_end"),
        pytest.param("Intro.\n  {|sep|} hello", "{|sep|}", ms.WHERE_LINE, id="brace_line"),
        pytest.param("  \n<<plan>>x<</plan>>42\n\n", "<<plan>>\t<</plan>>", 9, id="padded"),
    ],
)
def test_marker_positions(text: str, shape: str, where: int) -> None:
    assert (shape, where) in _shapes(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("<p>Hello</p>\n<div>x</div>", id="html"),
        pytest.param("See [the docs](http://x) and\n[1]: http://foo", id="markdown_links"),
        pytest.param("- [x] done\n- [ ] todo", id="task_list"),
        pytest.param("```\n<<SYS>>\n```\nok", id="fenced"),
        pytest.param("Use `<tag>` here", id="inline_code"),
        pytest.param('He wrote "<stop>" and left', id="quoted"),
        pytest.param("[12:30] <alice_> hi", id="timestamp_first"),
        pytest.param("Plain prose, no brackets at all.", id="prose"),
        pytest.param("A vector Vec<T> and a<b>c mid-line.", id="mid_line"),
        pytest.param("<Route />\n<App/>\nok", id="self_closing"),
        pytest.param("{name} and {value}", id="format_fields"),
        pytest.param("⟨ψ|φ⟩ = 1 and ⟨x, y⟩", id="bra_ket"),
        pytest.param('{"a": {"b": [1, 2]}}', id="json_answer"),
        pytest.param('Here:\n{\n  "a": 1\n}', id="json_block"),
        pytest.param("Done.<eot_x>" + " " * 200, id="end_beyond_the_edge_window"),
    ],
)
def test_content_is_not_a_candidate(text: str) -> None:
    assert _shapes(text) == []


def test_candidates_are_capped() -> None:
    text = "\n".join(f"<tag{i}x> line {i}" for i in range(50))
    assert len(ms.shapes(text)) == ms.MAX_SHAPES


def test_sighting_drops_what_the_prompt_contains() -> None:
    # the prompt names the tag mid-line: no prompt candidate, and the answer's is asked for
    assert ms.sighting("<answer>\n42\n</answer>", "Reply inside <answer></answer> tags.") is None
    quoted = ms.sighting("<answer>\n42\n</answer>", "<answer>\nexample\n</answer>\nLike this.")
    assert quoted is not None
    assert quoted[0] == ()
    assert quoted[1] == ("<answer>\t</answer>",)
    unasked = ms.sighting("<<plan>>x<</plan>>\n42", "What is 6 x 7?")
    assert unasked is not None
    assert unasked[0] == (("<<plan>>\t<</plan>>", ms.WHERE_START | ms.WHERE_PAIR),)
    assert "<<plan>>" in unasked[2]
    assert ms.sighting("Just 42.", "What is 6 x 7?") is None


@pytest.mark.parametrize(
    "text", ["<", "[[", "<<>>", "【】", "▶▶◀◀", "<|", "\n<", "{|", "a>" * 5, ""]
)
def test_odd_inputs_never_raise(text: str) -> None:
    ms.shapes(text)
    ms.sighting(text, text)
