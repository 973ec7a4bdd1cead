"""leakline.detectors.schema: the fast path gives jsonschema's verdicts; bad schemas are "cannot check"."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema.exceptions import best_match
from jsonschema.validators import validator_for

from leakline.detectors import schema

S = {"type": "string"}

# Schemas the fast path models (object tools with typed, bounded, enumerated properties).
FAST = [
    pytest.param(
        {
            "type": "object",
            "properties": {"city": S, "unit": {"type": "string", "enum": ["c", "f"]}},
            "required": ["city"],
            "additionalProperties": False,
        },
        id="weather_tool",
    ),
    pytest.param(
        {
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 1, "maxLength": 5},
                "top_k": {"type": "integer", "minimum": 1, "maximum": 20},
                "score": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            },
            "required": ["query"],
        },
        id="bounds",
    ),
    pytest.param(
        {
            "type": "object",
            "properties": {
                "date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
                "tags": {"type": "array", "items": S, "minItems": 1, "maxItems": 3},
                "flag": {"type": ["boolean", "null"]},
            },
            "additionalProperties": False,
        },
        id="pattern_array_union",
    ),
    pytest.param(
        {
            "type": "object",
            "properties": {
                "nested": {
                    "type": "object",
                    "properties": {"n": {"type": "integer"}},
                    "required": ["n"],
                    "additionalProperties": False,
                }
            },
            "required": ["nested"],
            "title": "annotations are ignored",
            "description": "…",
            "x-vendor": True,
        },
        id="nested_object",
    ),
    pytest.param(
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
        id="draft7_dialect",
    ),
    pytest.param({"type": "array", "items": True}, id="boolean_subschema"),
    pytest.param({}, id="empty_schema"),
]

# Schemas with keywords the fast path leaves to jsonschema.
SLOW = [
    pytest.param({"type": "object", "properties": {"a": {"const": 1}}}, id="const"),
    pytest.param({"anyOf": [S, {"type": "integer"}]}, id="any_of"),
    pytest.param(
        {"$defs": {"s": S}, "type": "object", "properties": {"a": {"$ref": "#/$defs/s"}}},
        id="ref",
    ),
    pytest.param({"type": "object", "additionalProperties": S}, id="additional_schema"),
    pytest.param({"enum": [1, True, None]}, id="enum_of_mixed_types"),
    pytest.param(
        {"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer"}, id="d4"
    ),
]

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-30, 30)
    | st.floats(-2, 30, allow_nan=False, allow_infinity=False)
    | st.sampled_from([1.0, 2.0, 0.5, "", "c", "f", "abcdef", "2026-01-02", "x2026-01-02"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "city",
                    "unit",
                    "query",
                    "top_k",
                    "score",
                    "date",
                    "tags",
                    "flag",
                    "nested",
                    "n",
                    "a",
                    "zz",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def _reference(schema_dict, instance):
    cls = validator_for(schema_dict)
    return cls(schema_dict).is_valid(instance)


@pytest.mark.parametrize("schema_dict", FAST)
def test_fast_path_is_used_for_simple_schemas(schema_dict):
    cls = validator_for(schema_dict)
    assert schema.fast_predicate(schema_dict, cls) is not None


@pytest.mark.parametrize("schema_dict", SLOW)
def test_other_keywords_fall_back_to_jsonschema(schema_dict):
    cls = validator_for(schema_dict)
    assert schema.fast_predicate(schema_dict, cls) is None


@pytest.mark.parametrize("schema_dict", FAST + SLOW)
@settings(max_examples=80, deadline=None)
@given(instance=JSON)
def test_verdicts_equal_jsonschema(schema_dict, instance):
    expected = _reference(schema_dict, instance)
    assert schema.is_valid(schema_dict, instance) is expected
    violation = schema.check(schema_dict, instance)
    assert (violation is None) is expected
    if violation is not None:
        cls = validator_for(schema_dict)
        error = best_match(cls(schema_dict).iter_errors(instance))
        assert violation.message == schema._short(error.message)


@pytest.mark.parametrize(
    "instance",
    [
        pytest.param({"city": "Paris"}, id="valid"),
        pytest.param({}, id="missing_required"),
        pytest.param({"city": 3, "unit": "k", "extra": 1}, id="three_problems"),
        pytest.param({"city": True}, id="bool_is_not_string"),
        pytest.param([], id="not_an_object"),
    ],
)
def test_violations_lists_the_best_match_first(instance):
    tool = FAST[0].values[0]
    found = schema.violations(tool, instance, limit=3)
    expected = _reference(tool, instance)
    assert (found == []) is expected
    if found:
        error = best_match(validator_for(tool)(tool).iter_errors(instance))
        assert found[0].message == error.message
        assert len(found) <= 3


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param({"type": 12}, id="invalid_type_keyword"),
        pytest.param({"type": "object", "properties": {"a": {"pattern": "("}}}, id="bad_regex"),
        pytest.param({"$ref": "#/definitions/missing"}, id="dangling_ref"),
        pytest.param(["not", "a", "dict"], id="not_a_dict"),
        pytest.param({"type": "integer", "minimum": "3"}, id="bad_bound"),
    ],
)
def test_unusable_schemas_cannot_check(bad):
    assert schema.check(bad, {"a": "x"}) is None
    assert schema.violations(bad, {"a": "x"}) == []
    assert schema.is_valid(bad, {"a": "x"}) in (None, True)


def test_integer_and_number_follow_draft6_and_later():
    ints = {"type": "integer"}
    assert schema.is_valid(ints, 1.0) is True  # 1.0 is an integer since draft 6
    assert schema.is_valid(ints, True) is False  # booleans are never numbers
    assert schema.is_valid({"type": "number"}, False) is False


def test_equal_schemas_share_one_compiled_entry():
    first = {"type": "object", "required": ["x"], "properties": {"x": S}}
    second = {"properties": {"x": S}, "required": ["x"], "type": "object"}
    assert schema.validator(first) is schema.validator(second)
