"""One event cannot hold the others: linear call rules, a text cap and a time budget (issue 36).

The audit's shapes: replies of repeated call markup cost ~12 µs a character and grew
faster than their length, so eight 4 MB replies held one batch for twelve minutes.
"""

from __future__ import annotations

import json
import time

import orjson
import pytest

from leakline.detectors import budget, run_detectors
from leakline.detectors.base import _bounded_run, default_detectors
from leakline.detectors.exchange import Exchange
from leakline.detectors.rules.generic_tool_calls import GenericToolCalls
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch

_TOOLS = {"get_weather": None}


def _repeated(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _exchange(text: str, tools: bool = True) -> Exchange:
    return Exchange(
        event_id="e",
        api="chat.completions",
        stream=False,
        visible_text=text,
        declared_tools=dict(_TOOLS) if tools else {},
        finish_reason="stop",
    )


def _best_seconds(detect, exchange: Exchange, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        detect(exchange)
        best = min(best, time.perf_counter() - started)
    return best


@pytest.mark.parametrize(
    "unit",
    [
        "<tool_call>",  # openers that never close: each searched to the end before
        '<tool_call>{"name": "get_weather", "arguments": {"city": "x"}}</tool_call>',
    ],
)
def test_call_markup_costs_grow_with_the_length_not_its_square(unit: str) -> None:
    detect = GenericToolCalls().detect
    small = _best_seconds(detect, _exchange(_repeated(unit, 4_000)), runs=7)
    large = _best_seconds(detect, _exchange(_repeated(unit, 128_000)))
    # 32x the text: linear is ~32x; a wide margin for a shared machine (the scaling
    # benchmark reports the figures)
    assert large / small < 120, f"32x the text cost {large / small:.0f}x"


def test_unclosed_call_openers_cost_a_small_constant_a_character() -> None:
    """Each unclosed opener used to parse up to 20,000 characters after it (~10 µs a
    character); now an element ends where the next one opens (~1 µs)."""
    text = _repeated("<tool_call>", 64_000)
    decode = json.dumps(text)
    baseline = _best_seconds(lambda _: json.loads(decode), _exchange(text))
    took = _best_seconds(GenericToolCalls().detect, _exchange(text))
    assert took / baseline < 3_000, f"{took / baseline:.0f}x one JSON decode of the text"


def test_a_text_over_the_cap_is_read_up_to_the_cap_and_marked() -> None:
    text = "Sure. " + _repeated("<tool_call>", budget.MAX_CHARS + 50_000)
    verdict = run_detectors(_exchange(text))
    assert verdict.cut.split(";")[0] == budget.CUT_CHARS
    assert verdict.findings, "the head still gets its findings"
    assert all(f.span is None or f.span[1] <= budget.MAX_CHARS for f in verdict.findings)


def test_an_ordinary_event_is_not_marked() -> None:
    verdict = run_detectors(_exchange("The weather in Seoul is sunny today.", tools=False))
    assert verdict.cut == ""
    large = run_detectors(_exchange(_repeated("Plain prose, nothing else. ", 100_000)))
    assert large.cut == "" and not large.labels


def test_a_spent_budget_skips_the_remaining_detectors_and_names_them() -> None:
    detectors = default_detectors()
    versions = {d.id: d.version for d in detectors}
    detects = tuple(d.detect for d in detectors)
    exchange = _exchange(_repeated("<tool_call>", 40_000))
    findings, cut = _bounded_run(exchange, detects, versions, seconds=0.0)
    assert findings == []
    assert cut == "budget:" + ",".join(versions)
    findings, cut = _bounded_run(exchange, detects, versions, seconds=60.0)
    assert findings and cut == ""


def test_huge_replies_do_not_hold_the_batch_and_every_event_is_stored() -> None:
    """The audit's batch, scaled to 1 MB replies: before the fix one such reply took
    minutes in the detectors; now the batch finishes and every row is written."""

    def event(i: int, content: str) -> RawRecord:
        body = {
            "event_id": f"b{i}",
            "api": "chat.completions",
            "request": {
                "messages": [{"role": "user", "content": "weather?"}],
                "tools": [{"type": "function", "function": {"name": "get_weather"}}],
            },
            "response": {"choices": [{"message": {"content": content}, "finish_reason": "stop"}]},
        }
        return RawRecord(f"b{i}".encode(), orjson.dumps(body), Origin("gateway.events", 0, i))

    huge = _repeated("<tool_call>", 1_000_000)
    records = [event(i, huge if i % 2 else "It is sunny in Seoul.") for i in range(6)]
    started = time.perf_counter()
    result = process_batch(records, worker_id="w", clean_text_rate=1.0, max_event_bytes=4 << 20)
    took = time.perf_counter() - started
    columns = result.rows.columns
    assert sorted(columns["event_id"]) == [f"b{i}" for i in range(6)]
    assert not result.dead_letters
    cuts = dict(zip(columns["event_id"], columns["detection_cut"], strict=True))
    assert all((cuts[f"b{i}"] or "").startswith(budget.CUT_CHARS) for i in (1, 3, 5))
    assert all(cuts[f"b{i}"] is None for i in (0, 2, 4))
    assert took < 60, f"the batch took {took:.0f} s"
