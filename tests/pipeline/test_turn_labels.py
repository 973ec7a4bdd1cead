"""The three turn-level labels of issue 34 reach every place the labels are enumerated:
the contract, the rate views, compare, the gate's rates, metrics and the trigger figures."""

from __future__ import annotations

import json
from pathlib import Path

from leakline.detectors.labels import ALL_LABELS, Label
from leakline.pipeline.gate import rates as gate_rates
from leakline.pipeline.gate import triggering
from leakline.pipeline.store.database import view_sql

NEW = ("stalled_turn", "runaway_turn", "empty_response")
LABELS_MD = Path(__file__).resolve().parents[2] / "detectors" / "LABELS.md"


def test_labels_are_in_the_enum_and_the_contract():
    text = LABELS_MD.read_text("utf-8")
    for name in NEW:
        assert name in ALL_LABELS
        assert Label(name).value == name
        assert f"| `{name}`" in text  # a row of the contract table


def test_rate_view_has_a_column_per_new_label(tmp_path: Path):
    sql = "\n".join(view_sql(tmp_path))
    for name in NEW:
        assert f"list_contains(labels, '{name}') ELSE false END) AS {name}" in sql


def test_gate_rates_count_the_new_labels():
    outcomes = [
        gate_rates.Outcome("a", None, "e1", ("stalled_turn",)),  # type: ignore[arg-type]
        gate_rates.Outcome("b", None, "e2", ("runaway_turn", "boundary_token")),  # type: ignore[arg-type]
        gate_rates.Outcome("c", None, "e3", ("empty_response",)),  # type: ignore[arg-type]
        gate_rates.Outcome("d", None, "e4", ()),  # type: ignore[arg-type]
    ]
    rates = gate_rates.rates_of(outcomes)
    for name in NEW:
        assert rates.labels[name] == 0.25
        assert name in rates.to_json()["labels"]


def test_metrics_count_the_new_labels():
    from leakline.pipeline.live.metrics import WorkerMetrics
    from leakline.pipeline.live.stats import StatsRecord

    m = WorkerMetrics()
    counts = {"total": 4, "leaking": 3, "labels": dict.fromkeys(NEW, 1), "dead_lettered": 0}
    m.observe_batch([StatsRecord("vllm|0.9|qwen|tpl|qwen3|hermes", "w", "2026-01-01", counts)])
    dims = {
        "engine": "vllm",
        "engine_version": "0.9",
        "model": "qwen",
        "reasoning_parser": "qwen3",
        "tool_call_parser": "hermes",
    }
    for name in NEW:
        assert m.registry.get_sample_value("leakline_leaks_total", {**dims, "label": name}) == 1


def test_a_recorded_stalled_turn_is_a_call_decision(tmp_path: Path):
    cases = tmp_path / "cases"
    cases.mkdir()
    response = {
        "choices": [
            {
                "message": {"role": "assistant", "content": "I'll search for that now."},
                "finish_reason": "stop",
            }
        ]
    }
    for name, labels in (("stalled", ["stalled_turn"]), ("clean", [])):
        event = {
            "event_id": name,
            "api": "chat.completions",
            "request": {"messages": []},
            "response": response,
        }
        (cases / f"{name}.json").write_text(
            json.dumps({"case_id": name, "event": event, "expected_labels": labels})
        )
    assert triggering.recorded_decisions(tmp_path) == {"stalled": (), "clean": None}
