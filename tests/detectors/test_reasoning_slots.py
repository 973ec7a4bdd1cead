"""reasoning_slots: in-schema reasoning slots written after the answer, or over their bounds."""

from __future__ import annotations

import json
from typing import Any

import pytest

from leakline.detectors.rules.reasoning_slots import ReasoningSlots

DETECTOR = "reasoning_slots"
S = {"type": "string"}
COT = {
    "type": "object",
    "properties": {
        "user_goal": {"type": "string", "maxLength": 30, "x-leakline-reasoning": True},
        "evidence": {
            "type": "array",
            "maxItems": 2,
            "items": {"type": "string", "maxLength": 20},
            "x-leakline-reasoning": True,
        },
        "action": S,
    },
}
LONE = {"type": "object", "properties": {"reasoning": S, "answer": S}}

CASES = [
    pytest.param(
        {"user_goal": "find overdue rent", "evidence": ["screen: payments"], "action": "x"},
        COT,
        [],
        id="done_right",
    ),
    pytest.param(
        {"action": "x", "user_goal": "find overdue rent", "evidence": []},
        COT,
        [("answer_first", "/evidence")],
        id="answer_first_annotated",
    ),
    pytest.param(
        {"answer": "42", "reasoning": "6 times 7"},
        LONE,
        [("answer_first", "/reasoning")],
        id="answer_first_lone",
    ),
    pytest.param({"reasoning": "6 times 7", "answer": "42"}, LONE, [], id="lone_leading"),
    pytest.param(
        {"user_goal": "x" * 31, "action": "x"},
        COT,
        [("over_max_length", "/user_goal")],
        id="over_max_length",
    ),
    pytest.param(
        {"evidence": ["a", "b", "c"], "action": "x"},
        COT,
        [("over_max_items", "/evidence")],
        id="over_max_items",
    ),
    pytest.param(
        {"evidence": ["a" * 21], "action": "x"},
        COT,
        [("over_max_length", "/evidence/0")],
        id="item_over_max_length",
    ),
    pytest.param(
        {"answer": "42", "explanation": "6 times 7"},
        {"type": "object", "properties": {"answer": S, "explanation": S}},
        [],
        id="no_slots",
    ),
    pytest.param(
        {"reasoning": "a", "thoughts": "b", "answer": "c"},
        {"type": "object", "properties": {"reasoning": S, "thoughts": S, "answer": S}},
        [],
        id="two_reasoning_names_not_lone",
    ),
]


@pytest.mark.parametrize(("value", "schema", "expected"), CASES)
def test_slot_problems(make_exchange, value: Any, schema: dict[str, Any], expected):
    exchange = make_exchange(json.dumps(value), fmt="json_schema", schema=schema)
    found = ReasoningSlots().detect(exchange)
    assert [(f.details["problem"], f.details["path"]) for f in found] == expected
    assert all(f.label == "reasoning_slot" for f in found)


def test_configured_slot(make_exchange):
    exchange = make_exchange(json.dumps({"action": "x", "plan": "y"}), fmt="json_object")
    assert ReasoningSlots().detect(exchange) == []
    found = ReasoningSlots(reasoning_slots=["plan"]).detect(exchange)
    assert [f.details["problem"] for f in found] == ["answer_first"]


def test_registered():
    from leakline.detectors.base import get_detector

    assert get_detector(DETECTOR).id == DETECTOR
