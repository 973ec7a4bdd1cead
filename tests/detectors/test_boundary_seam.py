"""boundary_tokens: a lone reasoning end delimiter between prose words on one line, followed
by a new sentence, is the seam of a leak even in a sentence that speaks about markup or
models (issue 34); real mentions stay dropped."""

from __future__ import annotations

import pytest

DETECTOR = "boundary_tokens"

SEAMS = [
    pytest.param("private notes </think> The answer is 42.", id="notes_then_answer"),
    pytest.param(
        "Let me think about which template applies here </think> The answer is 42.",
        id="template_word_in_notes",
    ),
    pytest.param(
        "the user wants the parser flag so I should say reasoning-parser </think> Set "
        "--reasoning-parser qwen3.",
        id="parser_words_in_notes",
    ),
    pytest.param(
        "ok the tags question, keep it short </think> Paris is the capital.", id="tags_in_notes"
    ),
    pytest.param("need to mention the Qwen3 model card </think> I would use 0.6.", id="pronoun_i"),
]

MENTIONS = [
    pytest.param("Close the block with </think> and then write the answer.", id="close_with"),
    pytest.param("Qwen3 ends its reasoning with the `</think>` tag.", id="code_span"),
    pytest.param("The </think> token marks the end of the reasoning.", id="noun_after"),
    pytest.param("DeepSeek-R1 ends its reasoning with </think>, then answers.", id="comma"),
    pytest.param("The parser splits the output at </think> The rest is content.", id="at"),
    pytest.param("Qwen3 emits </think> The answer follows it.", id="emits"),
    pytest.param("If you see </think> in a reply, the reasoning parser is missing.", id="lower"),
    pytest.param("Reasoning models put </think> Before the answer, per the docs.", id="put"),
]


@pytest.mark.parametrize("text", SEAMS)
def test_a_lone_end_between_prose_words_is_labelled(detect, text, make_exchange):
    found = detect(DETECTOR, text, model="qwen3-8b")
    assert "boundary_token" in [f.label for f in found]
    found = detect(DETECTOR, text)  # no model name: the same
    assert "boundary_token" in [f.label for f in found]


@pytest.mark.parametrize("text", MENTIONS)
def test_real_mentions_stay_dropped(detect, text):
    assert detect(DETECTOR, text) == []
