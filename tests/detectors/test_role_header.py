"""role_header: a template's role header decoded as plain text at the start of a reply."""

from __future__ import annotations

import pytest

from leakline.detectors import run_detectors
from leakline.detectors.roles import ASSISTANT, ROLE_STYLES, USER, role_words

DETECTOR = "role_header"

LEAKS = [
    pytest.param("assistant\n\nThe capital of Australia is Canberra.", "assistant", id="chatml"),
    pytest.param("assistant\nSure! Here are three ideas:\n1. A picnic", "assistant", id="one_nl"),
    pytest.param("model\nBonjour ! Comment puis-je vous aider ?", "model", id="gemma"),
    pytest.param("\nAssistant\n\nHello! How can I help you today?", "Assistant", id="capital"),
    pytest.param("ASSISTANT:\n\n2 + 2 = 4.", "ASSISTANT", id="vicuna_colon"),
    pytest.param("gpt\n\nHere is the summary you asked for.", "gpt", id="sharegpt"),
    pytest.param("bot\n\n您好，请问有什么可以帮您？", "bot", id="bot_zh_answer"),
    pytest.param("assistant\n\n서울의 인구는 약 940만 명입니다.", "assistant", id="ko_answer"),
    # a runaway turn after it repeats the header: still the header, not prose about the word
    pytest.param(
        "assistant\n\nCanberra.\nuser\nAnd New Zealand?\nassistant\nWellington.",
        "assistant",
        id="with_runaway",
    ),
]

CLEAN = [
    # a heading over an answer about the word
    pytest.param("Model\n\nThe model is trained on labelled data.", {}, id="model_heading"),
    pytest.param("model\n\nA model is a simplified picture of a system.", {}, id="model_lower"),
    pytest.param("Bot\n\nA bot is a program that automates tasks.", {}, id="bot_heading"),
    pytest.param(
        "Assistant\n\nAn assistant helps a manager with scheduling.", {}, id="assistant_heading"
    ),
    # the user asked for the word
    pytest.param(
        "assistant\n\nTwo s's at the start, one at the end.",
        {"prompt": "How do you spell assistant: assistant or asistant? Then explain."},
        id="asked_for_word",
    ),
    pytest.param(
        "model\n\nbecause it predicts outputs",
        {"prompt": "Which word fits: a trained model or a trained muddle? Say why."},
        id="fill_blank_named",
    ),
    # a transcript the user asked for
    pytest.param(
        "Assistant\nHello, how can I help?\nUser\nI lost my card.",
        {"prompt": "Write a short sample transcript of a bank support chat."},
        id="transcript_asked",
    ),
    pytest.param(
        "Assistant: Hello, how can I help?\nUser: I lost my card.", {}, id="inline_transcript"
    ),
    # the word inside a sentence, or the whole reply
    pytest.param("assistant managers earn more.\nSee the table.", {}, id="sentence"),
    pytest.param("assistant", {}, id="one_word_reply"),
    pytest.param("Assistant professor\n\nIt is the first rank.", {}, id="longer_line"),
    pytest.param("```\nassistant\n```\nThat is the role name.", {}, id="in_code"),
    # words no template writes for the assistant
    pytest.param("Summary\n\nThe report covers Q3.", {}, id="plain_heading"),
    pytest.param("Model\nGPT-4o\n\nVersion\n2024-08-06", {}, id="model_field_label_capital"),
]


@pytest.mark.parametrize(("text", "word"), LEAKS)
def test_role_header_leaks(detect, text, word):
    (finding,) = detect(DETECTOR, text)
    assert finding.label == "boundary_token"
    assert finding.details["token"] == word
    assert finding.details["role"] == ASSISTANT
    assert finding.details["shape"] == "role_header"
    assert text[finding.span[0] : finding.span[1]] == word


@pytest.mark.parametrize(("text", "kwargs"), CLEAN)
def test_role_header_clean(detect, text, kwargs):
    assert detect(DETECTOR, text, **kwargs) == []


@pytest.mark.parametrize(("text", "kwargs"), CLEAN)
def test_role_header_clean_end_to_end(make_exchange, text, kwargs):
    """No other detector reads these as a leak either."""
    verdict = run_detectors(make_exchange(text, **kwargs))
    assert "boundary_token" not in verdict.labels


def test_one_table_of_role_words_per_style():
    """The role-word table is shared: each style names its words per role, the lookup keeps
    the first style that writes a word, and the template literals are case-exact."""
    styles = {style.name for style in ROLE_STYLES}
    assert {"chatml", "gemma", "sharegpt", "plain"} <= styles
    assistant = role_words(ASSISTANT)
    assert assistant["assistant"] == "chatml"
    assert assistant["model"] == "gemma"
    assert "Model" not in assistant  # an answer's heading, not Gemma's header
    assert "user" in role_words(USER) and "human" in role_words(USER)
    assert not set(assistant) & set(role_words(USER))
