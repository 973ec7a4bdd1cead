"""structured_output: structured_invalid when requested JSON is not exactly one valid value."""

from __future__ import annotations

import pytest

DETECTOR = "structured_output"
SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "temp": {"type": "number"}},
    "required": ["city", "temp"],
}
GOOD = '{"city": "Paris", "temp": 21}'

INVALID = [
    pytest.param("", "json_schema", "empty", "parser", id="empty"),
    pytest.param("  \n", "json_object", "empty", "parser", id="whitespace_only"),
    pytest.param(f"```json\n{GOOD}\n```", "json_schema", "fenced", "parser", id="fenced"),
    pytest.param(
        f"Here you go:\n```json\n{GOOD}\n```",
        "json_schema",
        "fenced",
        "parser",
        id="fence_and_prose",
    ),
    pytest.param(f"Here is the JSON: {GOOD}", "json_schema", "prefix_text", "parser", id="prefix"),
    pytest.param(f"{GOOD}\nHope this helps!", "json_object", "prefix_text", "parser", id="suffix"),
    pytest.param(
        f"<think>They want JSON.</think>{GOOD}",
        "json_schema",
        "prefix_text",
        "parser",
        id="reasoning_before_json",
    ),
    pytest.param("I can't help with that.", "json_object", "not_json", "parser", id="refusal"),
    pytest.param('{"city": "Paris", "te', "json_schema", "not_json", "parser", id="truncated"),
    pytest.param('{"temp": NaN}', "json_object", "not_json", "parser", id="nan"),
    pytest.param("[1, 2, 3]", "json_object", "not_object", "model", id="array_for_json_object"),
    pytest.param('{"city": "Paris"}', "json_schema", "schema", "model", id="missing_field"),
    pytest.param(
        '{"city": "Paris", "temp": "warm"}', "json_schema", "schema", "model", id="wrong_type"
    ),
    pytest.param('{"도시": "서울"}', "json_schema", "schema", "model", id="korean_keys"),
]

VALID = [
    pytest.param(GOOD, "json_schema", id="valid_schema"),
    pytest.param(f"\n  {GOOD}\n", "json_schema", id="outer_whitespace"),
    pytest.param('{"anything": true}', "json_object", id="json_object"),
    pytest.param('{"city": "서울", "temp": -3.5}', "json_schema", id="korean_values"),
]


@pytest.mark.parametrize(("text", "kind", "reason", "layer"), INVALID)
def test_invalid(detect, text, kind, reason, layer):
    (finding,) = detect(DETECTOR, text, fmt=kind, schema=SCHEMA if kind == "json_schema" else None)
    assert finding.label == "structured_invalid"
    assert finding.details["reason"] == reason
    assert finding.details["kind"] == kind
    assert finding.layer == layer
    assert finding.remediation == "regenerate"
    assert finding.evidence


@pytest.mark.parametrize(("text", "kind"), VALID)
def test_valid(detect, text, kind):
    assert detect(DETECTOR, text, fmt=kind, schema=SCHEMA if kind == "json_schema" else None) == []


def test_not_requested(detect):
    assert detect(DETECTOR, "free text") == []


def test_structured_tool_call_instead(detect):
    found = detect(DETECTOR, "", fmt="json_schema", schema=SCHEMA, calls=[("get_weather", "{}")])
    assert found == []


def test_fenced_json_that_would_pass_is_flagged_as_extractable(detect):
    (finding,) = detect(DETECTOR, f"```json\n{GOOD}\n```", fmt="json_schema", schema=SCHEMA)
    assert finding.details["extracted_valid"] is True
    (finding,) = detect(DETECTOR, '```\n{"city": 1}\n```', fmt="json_schema", schema=SCHEMA)
    assert finding.details["extracted_valid"] is False


def test_schema_error_names_the_field(detect):
    (finding,) = detect(
        DETECTOR, '{"city": "Paris", "temp": "warm"}', fmt="json_schema", schema=SCHEMA
    )
    assert "/temp" in finding.details["error"]


def test_json_schema_without_schema_checks_json_only(detect):
    assert detect(DETECTOR, "[1]", fmt="json_schema", schema=None) == []
    (finding,) = detect(DETECTOR, "nope", fmt="json_schema", schema=None)
    assert finding.details["reason"] == "not_json"


def test_unknown_format_kind_is_ignored(detect):
    assert detect(DETECTOR, "plain text", fmt="text") == []


def test_malformed_schema_does_not_crash(detect):
    assert detect(DETECTOR, GOOD, fmt="json_schema", schema={"type": 5}) == []
