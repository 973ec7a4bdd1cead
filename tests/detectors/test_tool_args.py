"""tool_args: tool_args_invalid for unknown tools, non-JSON/non-object args, schema errors."""

from __future__ import annotations

import pytest

DETECTOR = "tool_args"

INVALID = [
    pytest.param([("launch_rockets", "{}")], "unknown_tool", 0, id="unknown_tool"),
    pytest.param([(None, "{}")], "unknown_tool", 0, id="missing_name"),
    pytest.param([("get_weather", '{"city": "Paris"')], "not_json", 0, id="truncated_json"),
    pytest.param([("get_weather", "")], "not_json", 0, id="empty_arguments"),
    pytest.param([("get_weather", "city=Paris")], "not_json", 0, id="not_json_at_all"),
    pytest.param([("get_weather", '{"city": NaN}')], "not_json", 0, id="nan_is_not_json"),
    pytest.param([("get_weather", '["Paris"]')], "not_object", 0, id="array_arguments"),
    pytest.param([("get_weather", '"Paris"')], "not_object", 0, id="string_arguments"),
    pytest.param([("get_weather", "{}")], "schema", 0, id="missing_required"),
    pytest.param([("get_weather", '{"city": 75001}')], "schema", 0, id="wrong_type"),
    pytest.param([("get_weather", '{"city": "Paris", "unit": "k"}')], "schema", 0, id="bad_enum"),
    pytest.param(
        [("get_weather", '{"city": "Paris", "days": 3}')], "schema", 0, id="extra_property"
    ),
    pytest.param(
        [("get_weather", '{"city": "Paris"}'), ("get_weather", '{"city": 1}')],
        "schema",
        1,
        id="second_of_parallel_calls",
    ),
    pytest.param([("get_weather", '{"city": "서울", "unit": 3}')], "schema", 0, id="korean_value"),
]

VALID = [
    pytest.param([("get_weather", '{"city": "Paris"}')], id="valid"),
    pytest.param([("get_weather", '{"city": "Paris", "unit": "c"}')], id="valid_with_enum"),
    pytest.param([("search_docs", '{"anything": [1, 2]}')], id="declared_without_schema"),
    pytest.param(
        [("get_weather", '{"city": "Paris"}'), ("search_docs", "{}")], id="parallel_valid"
    ),
]


@pytest.mark.parametrize(("calls", "reason", "index"), INVALID)
def test_invalid(detect, tools, calls, reason, index):
    (finding,) = detect(DETECTOR, calls=calls, tools=tools, finish="tool_calls")
    assert finding.label == "tool_args_invalid"
    assert finding.details["reason"] == reason
    assert finding.details["index"] == index
    assert finding.details["call_id"] == f"call_{index}"
    assert finding.layer == "model"
    assert finding.remediation == "regenerate"
    assert finding.span is None
    assert finding.evidence


@pytest.mark.parametrize("calls", VALID)
def test_valid(detect, tools, calls):
    assert detect(DETECTOR, calls=calls, tools=tools) == []


def test_schema_error_is_feedback_for_a_retry(detect, tools):
    (finding,) = detect(DETECTOR, calls=[("get_weather", '{"city": 75001}')], tools=tools)
    assert finding.details["path"] == "/city"
    assert "string" in finding.details["error"]


def test_no_declared_tools_only_checks_json(detect):
    assert detect(DETECTOR, calls=[("anything", '{"a": 1}')]) == []
    (finding,) = detect(DETECTOR, calls=[("anything", "not json")])
    assert finding.details["reason"] == "not_json"


def test_no_calls_no_findings(detect, tools):
    assert detect(DETECTOR, "text only", tools=tools) == []


@pytest.mark.parametrize(
    "schema",
    [
        pytest.param({"type": 12}, id="invalid_type_keyword"),
        pytest.param({"type": "object", "properties": {"a": {"pattern": "("}}}, id="bad_regex"),
        pytest.param({"$ref": "https://example.invalid/schema.json"}, id="remote_ref"),
        pytest.param({"$ref": "#/definitions/missing"}, id="dangling_ref"),
        pytest.param({"$schema": "urn:unknown", "type": "object"}, id="unknown_dialect"),
        pytest.param({"properties": None}, id="null_properties"),
    ],
)
def test_malformed_schema_is_unchecked_not_a_crash(detect, schema):
    tools = {"t": schema}
    assert detect(DETECTOR, calls=[("t", '{"a": "x"}')], tools=tools) == []
    # the JSON check still applies
    (finding,) = detect(DETECTOR, calls=[("t", "[")], tools=tools)
    assert finding.details["reason"] == "not_json"


def test_validator_is_cached_per_schema():
    from leakline.detectors import schema as schema_mod

    schema = {"type": "object", "required": ["x"]}
    first = schema_mod.validator(schema)
    assert schema_mod.validator(dict(schema)) is first  # equal schema, new object
    assert schema_mod.validator(schema) is first
