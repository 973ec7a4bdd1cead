"""Tool-call triggering in the gate (K2VV): trigger precision/recall/F1, tool-name agreement,
schema accuracy per strict; a profile that drops tool calls fails the gate."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from test_gate import gate

from leakline.pipeline.gate import triggering as T
from leakline.pipeline.gate.cases import Combo


def test_counts_and_f1():
    t = T.Triggering()
    t.add(("get_weather",), ("get_weather",), "all", True)  # tp, names agree
    t.add(("get_weather",), ("search",), "none", False)  # tp, names differ, invalid args
    t.add(None, ("search",), "none", True)  # fp
    t.add(("get_weather",), (), "none", True)  # fn
    t.add(None, (), "none", True)  # tn
    t.add((), ("get_weather",), "some", True)  # tp; call was left in text: names unknown
    data = t.to_json()
    assert (data["tp"], data["fp"], data["fn"], data["tn"]) == (3, 1, 1, 1)
    assert data["precision"] == 0.75 and data["recall"] == 0.75 and data["f1"] == 0.75
    assert data["tool_name_agreement"] == 0.5 and data["tool_names_compared"] == 2
    assert data["schema_accuracy_by_strict"] == {
        "all": {"valid": 1, "calls": 1, "accuracy": 1.0},
        "none": {"valid": 1, "calls": 2, "accuracy": 0.5},
        "some": {"valid": 1, "calls": 1, "accuracy": 1.0},
    }


def test_a_drop_beyond_the_tolerance_regresses():
    t = T.Triggering(tp=6, fn=4)  # F1 0.75
    assert T._row("trigger_f1", 1.0, t, 0.2)["regressed"] is True
    assert T._row("trigger_f1", 1.0, t, 0.25)["regressed"] is False
    assert T._row("trigger_f1", None, t, 0.0)["regressed"] is False  # nothing to compare
    assert T._row("trigger_f1", 1.0, T.Triggering(tn=5), 0.0)["regressed"] is False  # no calls


def test_case_key_round_trips_the_gate_event_id():
    combo = Combo(stream=True, stop=False, structured=False, tools=True)
    case_id = "0123456789abcdef"
    event_id = f"gate-{'a' * 12}-{case_id[:40]}-{combo.slug}"
    assert T._case_key(event_id) == (case_id, combo.slug)
    assert T._case_key("sim-1-2") is None


def test_recorded_decisions_read_the_kept_reply(tmp_path: Path):
    cases = tmp_path / "cases"
    cases.mkdir()
    call = {"id": "c", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    replies = {
        "called": {
            "choices": [
                {
                    "message": {"role": "assistant", "tool_calls": [call]},
                    "finish_reason": "tool_calls",
                }
            ]
        },
        "prose": {
            "choices": [
                {"message": {"role": "assistant", "content": "Sunny."}, "finish_reason": "stop"}
            ]
        },
        "none": {},
    }
    for name, response in replies.items():
        event = {
            "event_id": name,
            "api": "chat.completions",
            "request": {"messages": []},
            "response": response,
        }
        (cases / f"{name}.json").write_text(
            json.dumps({"case_id": name, "event": event, "expected_labels": []})
        )
    assert T.recorded_decisions(tmp_path) == {"called": ("get_weather",), "prose": None}


@pytest.mark.slow
def test_drops_tool_calls_fails_the_gate(sim_url: str, case_dir: Path, tmp_path: Path) -> None:
    data, rates = tmp_path / "data", tmp_path / "good.json"
    status, first = gate(sim_url, case_dir, data, "sim-good", "1.0", "--write-rates", str(rates))
    assert status == 0 and first is not None
    written = json.loads(rates.read_text())["triggering"]
    assert any(v is not None for v in written["decisions"].values())  # good calls the tools

    status, good = gate(sim_url, case_dir, data, "sim-good", "1.1", "--baseline-rates", str(rates))
    assert status == 0 and good is not None and good["passed"]
    assert good["triggering"]["vs_baseline"]["f1"] == 1.0
    assert good["triggering"]["vs_baseline"]["tool_name_agreement"] == 1.0

    status, dropped = gate(
        sim_url, case_dir, data, "sim-drops-tool-calls", "2.0", "--baseline-rates", str(rates)
    )
    assert status == 1 and dropped is not None and not dropped["passed"]
    assert dropped["regressed_labels"] == ["trigger_f1"]  # no leak label: only the trigger
    vs = dropped["triggering"]["vs_baseline"]
    assert vs["tp"] == 0 and vs["fn"] > 0 and vs["recall"] == 0.0 and vs["f1"] == 0.0

    # the same against the stored baseline version's gate replies
    status, stored = gate(
        sim_url,
        case_dir,
        data,
        "sim-drops-tool-calls",
        "2.1",
        "--baseline-version",
        "engine.version=1.0",
    )
    assert status == 1 and stored is not None and "trigger_f1" in stored["regressed_labels"]


def test_gate_triggering_without_baseline_reports_only(tmp_path: Path):
    (tmp_path / "cases").mkdir()
    config = SimpleNamespace(
        regression=tmp_path,
        baseline_rates=None,
        baseline_version=None,
        data_dir=tmp_path,
        tolerance=0.02,
    )
    result = T.gate_triggering(config, [], [])
    assert result["vs_baseline"] is None and result["comparison"]["regressed"] is False


def test_render_lines_name_the_figures():
    t = T.Triggering(tp=0, fn=4, tn=4)
    report = {
        "vs_baseline": t.to_json(),
        "vs_recorded": T.Triggering().to_json(),
        "rows": [T._row("trigger_f1", 1.0, t, 0.02)],
    }
    text = "\n".join(T.render_lines(report))
    assert "F1 0.00" in text and "recall 0.00" in text and "REGRESSED" in text
    assert "vs the recorded cases" not in text  # no replay had a recorded reference
