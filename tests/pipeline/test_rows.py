"""Row facts derived per exchange: first leaking chunk, K2VV tool-call schema validity."""

from __future__ import annotations

from datetime import UTC, datetime

from leakline.detectors import run_detectors
from leakline.pipeline.events.contract import validate_event
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder, first_leak_chunk

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]


def chunk(content: str) -> dict:
    return {"choices": [{"index": 0, "delta": {"content": content}}]}


def test_first_leak_chunk_points_at_the_chunk_with_the_first_leaking_byte() -> None:
    event = validate_event(
        {
            "event_id": "s",
            "api": "chat.completions",
            "request": {},
            "stream": True,
            "chunks": [chunk("Fine answer. "), chunk("More. </th"), chunk("ink> tail")],
        }
    )
    x = normalise(event)
    verdict = run_detectors(x)
    assert "boundary_token" in verdict.labels
    assert first_leak_chunk(x, verdict) == 1


def test_no_stream_or_no_span_means_no_chunk() -> None:
    event = validate_event(
        {
            "event_id": "n",
            "api": "chat.completions",
            "request": {},
            "response": {"choices": [{"message": {"content": "<think>x</think>y"}}]},
        }
    )
    x = normalise(event)
    assert first_leak_chunk(x, run_detectors(x)) is None


def _row(arguments: str, finish: str = "tool_calls") -> dict:
    event = validate_event(
        {
            "event_id": "t",
            "api": "chat.completions",
            "request": {"tools": TOOLS},
            "response": {
                "choices": [
                    {
                        "finish_reason": finish,
                        "message": {
                            "content": None,
                            "tool_calls": [
                                {
                                    "id": "1",
                                    "type": "function",
                                    "function": {"name": "get_weather", "arguments": arguments},
                                }
                            ],
                        },
                    }
                ]
            },
        }
    )
    x = normalise(event)
    rows = RowBuilder("w", 0.0)
    rows.add(event, x, run_detectors(x), Origin("t", 0, 0), datetime.now(UTC))
    return {k: v[0] for k, v in rows.columns.items()}


def test_tool_call_schema_validity_is_recorded_per_tool_call_finish() -> None:
    good, bad = _row('{"city": "Seoul"}'), _row('{"town": 3}')
    assert (good["tool_call_finish"], good["tool_calls_schema_valid"]) == (True, True)
    assert (bad["tool_call_finish"], bad["tool_calls_schema_valid"]) == (True, False)
    assert "regenerate" in bad["suggested_remediation"]
    not_finish = _row('{"city": "Seoul"}', finish="stop")
    assert (not_finish["tool_call_finish"], not_finish["tool_calls_schema_valid"]) == (False, None)
