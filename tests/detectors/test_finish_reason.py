"""finish_reason: truncated on length; final_in_reasoning when the answer is in the reasoning."""

from __future__ import annotations

import pytest

DETECTOR = "finish_reason"

CASES = [
    pytest.param("Partial answer that got cut", "length", "", [], ["truncated"], id="length"),
    pytest.param("", "length", "Still thinking about", [], ["truncated"], id="length_in_reasoning"),
    pytest.param(
        "", "stop", "The answer is 42.", [], ["final_in_reasoning"], id="answer_in_reasoning"
    ),
    pytest.param("", None, "The answer is 42.", [], ["final_in_reasoning"], id="unknown_finish"),
    pytest.param(
        " \n", "stop", "답은 42입니다.", [], ["final_in_reasoning"], id="whitespace_content"
    ),
    pytest.param("", "stop", "x", [("get_weather", "{}")], [], id="tool_call_explains_empty"),
    pytest.param("", "tool_calls", "x", [], [], id="tool_calls_finish"),
    pytest.param("", "content_filter", "x", [], [], id="content_filter"),
    pytest.param("The answer is 42.", "stop", "Reasoning.", [], [], id="normal_with_reasoning"),
    pytest.param("", "stop", "", [], [], id="empty_everything"),
    pytest.param("Hi", "stop", "", [], [], id="plain"),
]


@pytest.mark.parametrize(("text", "finish", "reasoning", "calls", "labels"), CASES)
def test_labels(detect, text, finish, reasoning, calls, labels):
    found = detect(DETECTOR, text, finish=finish, reasoning=reasoning, calls=calls)
    assert [f.label for f in found] == labels
    for f in found:
        assert f.span is None
        assert f.evidence


def test_truncated_details(detect):
    (finding,) = detect(DETECTOR, "", finish="length", reasoning="Still thinking")
    assert finding.layer == "api"
    assert finding.remediation == "regenerate"
    assert finding.details["empty_content"] is True
    assert finding.details["in_reasoning"] is True


def test_final_in_reasoning_details(detect):
    (finding,) = detect(DETECTOR, "", finish="stop", reasoning="Paris.")
    assert finding.layer == "parser"
    assert finding.remediation == "fallback"
    assert finding.details["action"] == "move_reasoning_to_content"
    assert finding.details["reasoning_field"] == "reasoning"
