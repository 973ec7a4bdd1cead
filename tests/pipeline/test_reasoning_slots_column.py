"""In-schema reasoning slots stored beside the row (``reasoning_slots``), redacted."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from leakline.detectors import run_detectors
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder

SCHEMA = {
    "type": "object",
    "properties": {
        "user_goal": {"type": "string", "x-leakline-reasoning": True},
        "action": {"type": "string"},
    },
}


def _event(answer: dict) -> dict:
    return {
        "event_id": "slots-1",
        "api": "chat.completions",
        "request": {
            "messages": [{"role": "user", "content": "route"}],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "r", "schema": SCHEMA},
            },
        },
        "response": {
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": json.dumps(answer)},
                }
            ]
        },
    }


def _row(event: dict, clean_text_rate: float) -> dict:
    exchange = normalise(event)
    rows = RowBuilder("t", clean_text_rate=clean_text_rate)
    rows.add(
        event, exchange, run_detectors(exchange), Origin("gateway.events", 0, 0), datetime.now(UTC)
    )
    table = rows.table().to_pylist()
    return table[0]


def test_slots_are_stored_redacted_with_the_text():
    goal = "Mail the report to jane.doe@example.com as the user asked"
    row = _row(_event({"user_goal": goal, "action": "export_report"}), clean_text_rate=1.0)
    slots = json.loads(row["reasoning_slots"])
    assert list(slots) == ["/user_goal"]
    assert "jane.doe@example.com" not in slots["/user_goal"] and "[EMAIL]" in slots["/user_goal"]
    assert row["response_format_type"] == "json_schema" and row["leaking"] is False


def test_no_text_no_slots_and_no_slots_no_column():
    assert (
        _row(_event({"user_goal": "find rent", "action": "x"}), clean_text_rate=0.0)[
            "reasoning_slots"
        ]
        is None
    )
    plain = _event({"action": "x"})
    assert _row(plain, clean_text_rate=1.0)["reasoning_slots"] is None
