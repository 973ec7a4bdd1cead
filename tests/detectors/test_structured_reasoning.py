"""structured_reasoning: reasoning prose in the string fields of a structured answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from leakline.detectors import run_detectors
from leakline.detectors.heuristics.structured_reasoning import StructuredReasoning, field_kind
from leakline.pipeline.events.contract import validate_event
from leakline.pipeline.events.normalise import normalise

DETECTOR = "structured_reasoning"
S = {"type": "string"}


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


ISSUE_EXAMPLE = (
    '{"action": "사용자의 의도를 먼저 파악해야 한다. 현재 화면은 수납 현황이고 기간 표현은 '
    '지난달이므로 list_overdue_rent가 맞을 것 같다.", "params": {}}'
)
ACTION_SCHEMA = obj(action=S, params={"type": "object"})

LEAKS = [
    pytest.param(ISSUE_EXAMPLE, ACTION_SCHEMA, "/action", id="issue_example_ko"),
    pytest.param(
        json.dumps(
            {"label": "I think the right label is billing because they mention an invoice."}
        ),
        obj(label=S),
        "/label",
        id="en_label_self_talk",
    ),
    pytest.param(
        json.dumps({"intent": "用户可能想退款。我觉得应该选 refund。"}, ensure_ascii=False),
        obj(intent=S),
        "/intent",
        id="zh_value_planning",
    ),
    pytest.param(
        json.dumps(
            {"answer": "Let's think step by step. 3 + 4 is 7, minus 2 is 5. The answer is 5."}
        ),
        obj(answer=S),
        "/answer",
        id="en_step_by_step_answer",
    ),
    pytest.param(
        json.dumps(
            {"answer": "생각해보면, 사과 3개와 배 4개를 더하면 7개다. 답은 7개다."},
            ensure_ascii=False,
        ),
        obj(answer=S),
        "/answer",
        id="ko_saenggakhaebomyeon_answer",
    ),
    pytest.param(
        json.dumps({"answer": "我们一步一步来：3 加 4 等于 7。答案是 7。"}, ensure_ascii=False),
        obj(answer=S),
        "/answer",
        id="zh_step_by_step_answer",
    ),
    pytest.param(
        json.dumps(
            {
                "answer": "Paris",
                "policy": "confidence: Expected number, received string | citations: Required",
            }
        ),
        obj(answer=S, policy=S),
        "/policy",
        id="en_zod_issues_echoed",
    ),
    pytest.param(
        json.dumps(
            {"answer": "이전 출력이 스키마 검증에 실패했다. 회의는 월요일이다."}, ensure_ascii=False
        ),
        obj(answer=S),
        "/answer",
        id="ko_validation_echo",
    ),
    pytest.param(
        json.dumps(
            {"answer": "上一次输出未通过 schema 校验：缺少必填字段 confidence。答案：已批准。"},
            ensure_ascii=False,
        ),
        obj(answer=S),
        "/answer",
        id="zh_validation_echo",
    ),
    pytest.param(
        json.dumps({"summary": "'confidence' is a required property. The refund was approved."}),
        obj(summary=S),
        "/summary",
        id="en_jsonschema_message_in_summary",
    ),
    pytest.param(
        json.dumps(
            {
                "result": {
                    "items": [
                        {"name": "x", "note": "Let me double-check the total before I answer."}
                    ]
                }
            }
        ),
        None,
        "/result/items/0/note",
        id="nested_path_json_object_mode",
    ),
    pytest.param(
        json.dumps(
            {
                "category": "Billing, because the customer quotes an invoice number. Shipping is less likely here."
            }
        ),
        obj(category=S),
        "/category",
        id="en_prose_in_value_field",
    ),
]

CLEAN = [
    pytest.param(
        json.dumps(
            {
                "summary": "The user wants to cancel the premium plan at the end of the cycle. The agent confirmed the date."
            }
        ),
        obj(summary=S),
        id="summary_third_person_user",
    ),
    pytest.param(
        json.dumps(
            {
                "summary": "사용자가 결제 주기가 끝나면 해지하고 싶다고 했다. 상담원은 해지 날짜를 확인했다."
            },
            ensure_ascii=False,
        ),
        obj(summary=S),
        id="ko_summary_plain_style",
    ),
    pytest.param(
        json.dumps(
            {
                "description": "First, preheat the oven. Then roast the vegetables for 25 minutes, turning once."
            }
        ),
        obj(description=S),
        id="recipe_steps",
    ),
    pytest.param(
        json.dumps(
            {
                "description": "Returns 422 when the body is not valid JSON; the error lists each failing field."
            }
        ),
        obj(description=S),
        id="api_doc_mentions_validation",
    ),
    pytest.param(
        json.dumps(
            {
                "answer": "96",
                "explanation": "Each of the 12 boxes holds 8 items, so the total is 96.",
            }
        ),
        obj(answer=S, explanation=S),
        id="explanation_asked_for",
    ),
    pytest.param(
        json.dumps(
            {"explanation": "步骤一：拔掉电源。步骤二：等待三十秒再插上。"}, ensure_ascii=False
        ),
        obj(explanation=S),
        id="zh_steps_explanation",
    ),
    pytest.param(
        json.dumps({"action": "list_overdue_rent", "params": {"period": "2026-07"}}),
        ACTION_SCHEMA,
        id="value_is_a_value",
    ),
    pytest.param(
        json.dumps(
            {
                "reasoning": "The user wants unpaid rent; I should pick list_overdue_rent.",
                "action": "list_overdue_rent",
            }
        ),
        obj(reasoning=S, action=S),
        id="lone_leading_reasoning_slot",
    ),
    pytest.param(
        json.dumps(
            {
                "user_goal": "사용자는 지난달 미납 임차인을 확인하려 한다",
                "evidence": ["음, 현재 화면은 수납 현황이다."],
                "action": "list_overdue_rent",
            },
            ensure_ascii=False,
        ),
        obj(
            user_goal={"type": "string", "x-leakline-reasoning": True},
            evidence={"type": "array", "items": S, "x-leakline-reasoning": True},
            action=S,
        ),
        id="annotated_slots",
    ),
    pytest.param(json.dumps({"title": "Hmm"}), obj(title=S), id="too_short"),
]


def _exchange(make_exchange: Any, text: str, schema: dict[str, Any] | None) -> Any:
    return make_exchange(text, fmt="json_schema" if schema else "json_object", schema=schema)


@pytest.mark.parametrize(("text", "schema", "path"), LEAKS)
def test_reasoning_in_field_is_labeled_with_its_path(make_exchange, text, schema, path):
    found = StructuredReasoning().detect(_exchange(make_exchange, text, schema))
    assert [f.details["path"] for f in found] == [path]
    assert found[0].label == "reasoning_leak"
    assert found[0].details["delimited"] == "structured_field"


@pytest.mark.parametrize(("text", "schema"), CLEAN)
def test_legitimate_fields_do_not_fire(make_exchange, text, schema):
    assert StructuredReasoning().detect(_exchange(make_exchange, text, schema)) == []


def test_configured_slot_is_not_a_leak(make_exchange):
    text = json.dumps(
        {"plan": "I should pick the export because they want a file.", "action": "export_report"}
    )
    exchange = _exchange(make_exchange, text, obj(plan=S, action=S))
    assert [f.details["path"] for f in StructuredReasoning().detect(exchange)] == ["/plan"]
    assert StructuredReasoning(reasoning_slots=["plan"]).detect(exchange) == []
    assert StructuredReasoning(reasoning_slots=["/plan"]).detect(exchange) == []


def test_not_structured_or_tool_call_is_skipped(make_exchange):
    assert StructuredReasoning().detect(make_exchange(ISSUE_EXAMPLE)) == []
    calls = [("get_weather", '{"city": "Seoul"}')]
    exchange = make_exchange(ISSUE_EXAMPLE, fmt="json_schema", schema=ACTION_SCHEMA, calls=calls)
    assert StructuredReasoning().detect(exchange) == []


@pytest.mark.parametrize(
    ("name", "schema", "kind"),
    [
        pytest.param("action", S, "value", id="value_name"),
        pytest.param("anything", {"enum": ["a"]}, "value", id="enum"),
        pytest.param("answer", {"type": "string", "maxLength": 40}, "value", id="short_max_length"),
        pytest.param("summary", S, "descriptive", id="summary"),
        pytest.param("ticket_description", S, "descriptive", id="description_substring"),
        pytest.param("answer", S, "free", id="answer"),
    ],
)
def test_field_kind(name, schema, kind):
    assert field_kind(name, schema) == kind


def test_issue_example_end_to_end():
    """The issue's json_schema request, thinking on: labeled with the field path."""
    event = {
        "event_id": "issue-20",
        "api": "chat.completions",
        "stream": False,
        "request": {
            "model": "Qwen/Qwen3-1.7B",
            "messages": [{"role": "user", "content": "지난달 밀린 거 좀 보여줘"}],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "a", "schema": ACTION_SCHEMA},
            },
            "chat_template_kwargs": {"enable_thinking": True},
        },
        "response": {
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": ISSUE_EXAMPLE},
                }
            ]
        },
    }
    verdict = run_detectors(normalise(validate_event(event)))
    assert "reasoning_leak" in verdict.labels
    (finding,) = [f for f in verdict.findings if f.detector_id == DETECTOR]
    assert finding.details["path"] == "/action"
    assert finding.details["language"] == "ko"
    assert finding.layer.value == "api"  # thinking on with a grammar
    assert finding.span is not None
    assert (
        "사용자의 의도"
        in event["response"]["choices"][0]["message"]["content"][slice(*finding.span)]
    )
