"""Issue 36, finding 5: what reaches a stored column is a known word, a bounded number or
redacted text; unknown top-level members and members named like secrets are not kept."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.events.rows import MAX_TOKENS

CARD = "4111111111111111"
EMAIL = "jane.doe@example.com"
LEAK = "<think>plan</think>The answer."  # a boundary-token leak: text, sample and event_json kept


def _event(**extra: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "event_id": "e1",
        "api": "chat.completions",
        "request": {"messages": [{"role": "user", "content": "hi"}]},
        "response": {"choices": [{"message": {"content": LEAK}, "finish_reason": "stop"}]},
    }
    event.update(extra)
    return event


def _process(event: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    record = RawRecord(b"k", orjson.dumps(event), Origin("gateway.events", 0, 0))
    result = process_batch([record], worker_id="w", clean_text_rate=1.0, max_event_bytes=1 << 20)
    assert not result.dead_letters, result.dead_letters
    row = {k: v[0] for k, v in result.rows.columns.items()}
    sample = orjson.loads(result.samples[0].value) if result.samples else None
    return row, sample


def test_free_form_dimensions_are_mapped_to_their_vocabulary() -> None:
    event = _event(
        request={
            "messages": [{"role": "user", "content": "hi"}],
            "reasoning_effort": EMAIL,
            "tool_choice": f"call {CARD}",
            "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
        },
        response={"choices": [{"message": {"content": LEAK}, "finish_reason": EMAIL}]},
    )
    row, _ = _process(event)
    assert (row["reasoning_effort"], row["tool_choice"], row["finish_reason"]) == (
        "other",
        "other",
        "other",
    )


def test_known_dimension_words_are_kept() -> None:
    event = _event(
        request={
            "messages": [{"role": "user", "content": "hi"}],
            "reasoning_effort": "High",
            "tool_choice": "required",
            "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
        },
        response={"choices": [{"message": {"content": LEAK}, "finish_reason": "length"}]},
    )
    row, _ = _process(event)
    assert (row["reasoning_effort"], row["tool_choice"], row["finish_reason"]) == (
        "high",
        "required",
        "length",
    )


# (number, whether a redaction rule knows its format: the event_json copy then loses it;
# a bare 10-digit phone number is no rule's format, so only the columns drop it)
@pytest.mark.parametrize(
    ("number", "format_known"), [(int(CARD), True), (9001011234568, True), (4155550132, False)]
)
def test_numbers_beyond_what_a_column_can_hold_are_not_stored(
    number: int, format_known: bool
) -> None:
    event = _event(
        request={"messages": [], "thinking": {"type": "enabled", "budget_tokens": number}},
        usage={"prompt_tokens": number, "completion_tokens": number, "reasoning_tokens": number},
        latency_ms=float(number),
        remediation={"action": "retry", "attempts": number, "extra_tokens": number},
    )
    row, _ = _process(event)
    for column in (
        "thinking_budget",
        "prompt_tokens",
        "completion_tokens",
        "reasoning_tokens",
        "latency_ms",
        "remediation_attempts",
        "remediation_extra_tokens",
    ):
        assert row[column] is None, column
    assert (str(number) not in row["event_json"]) is format_known


def test_ordinary_counts_are_kept() -> None:
    event = _event(
        request={"messages": [], "thinking": {"type": "enabled", "budget_tokens": 32768}},
        usage={"prompt_tokens": 1200, "completion_tokens": MAX_TOKENS},
        latency_ms=812.5,
    )
    row, _ = _process(event)
    assert (row["thinking_budget"], row["prompt_tokens"], row["completion_tokens"]) == (
        32768,
        1200,
        MAX_TOKENS,
    )
    assert row["latency_ms"] == 812.5


def test_unknown_top_level_members_are_not_kept() -> None:
    row, _ = _process(_event(debug_dump={"note": "kept"}, extra="plain words"))
    stored = orjson.loads(row["event_json"])
    assert "debug_dump" not in stored and "extra" not in stored
    assert stored["request"]["messages"][0]["content"] == "hi"


def test_members_named_like_secrets_are_replaced_whole() -> None:
    event = _event(
        request={
            "messages": [{"role": "user", "content": "hi"}],
            "api_key": "short",
            "extra_headers": {"x-api-key": "abc", "Authorization": "Basic Zm9v"},
        },
        tags={"password": "hunter2"},
    )
    row, _ = _process(event)
    for secret in ("short", '"abc"', "Zm9v", "hunter2"):
        assert secret not in row["event_json"] and secret not in (row["tags"] or "")


def test_ids_and_times_holding_secrets_are_redacted() -> None:
    event = _event(event_id=f"id {EMAIL}", ts=EMAIL)
    row, sample = _process(event)
    assert sample is not None
    blob = orjson.dumps([row, sample], default=str).decode()
    assert EMAIL not in blob
    assert row["event_id"] == "id [EMAIL]" and sample["event_id"] == "id [EMAIL]"
    assert sample["ts"] is None


def test_plain_ids_are_stored_as_sent() -> None:
    for event_id in ("chatcmpl-9f86d081884c7d659a2feaa0c5", "123e4567-e89b-12d3-a456-426614174000"):
        row, sample = _process(_event(event_id=event_id))
        assert row["event_id"] == event_id and sample is not None
        assert sample["event_id"] == event_id
