"""diagnose: a layer, a cause and a fix for stalled_turn, runaway_turn and empty_response."""

from __future__ import annotations

from dataclasses import replace

import pytest

from leakline.detectors import Versions, run_detectors
from leakline.detectors.diagnosis import STOP_SETTING_ANY, stop_setting
from leakline.detectors.exchange import RequestConfig, Turn


def _diagnosis(exchange, label):
    (finding,) = [f for f in run_detectors(exchange).findings if f.label == label]
    return finding.layer, finding.details["diagnosis"]


@pytest.mark.parametrize(
    ("engine", "needle"),
    [
        ("vllm", "stop_token_ids"),
        ("sglang", "stop_token_ids"),
        ("llama.cpp", "--reverse-prompt"),
        ("ollama", "PARAMETER stop"),
    ],
)
def test_runaway_names_the_engines_stop_setting(make_exchange, engine, needle):
    ex = make_exchange("Canberra.\n\nHuman: And New Zealand?")
    ex = replace(ex, versions=Versions(engine_name=engine, model_name="qwen3-8b"))
    layer, note = _diagnosis(ex, "runaway_turn")
    assert note["rule"] == "runaway_stop_eos" and layer == "template"
    assert needle in note["fix"] and engine.split(".")[0] in note["fix"].lower()


def test_runaway_on_an_unknown_engine_lists_every_setting(make_exchange):
    ex = make_exchange("Canberra.\n\nUser: And New Zealand?")
    _, note = _diagnosis(ex, "runaway_turn")
    assert STOP_SETTING_ANY in note["fix"]
    assert stop_setting("tgi") == STOP_SETTING_ANY


def test_stalled_points_at_tool_choice_then_parser_then_agent_loop(make_exchange):
    text = "I'll search for that now."
    tools = {"web_search": None}
    forced = replace(make_exchange(text, tools=tools), config=RequestConfig(tool_choice="required"))
    layer, note = _diagnosis(forced, "stalled_turn")
    assert (note["rule"], layer) == ("stalled_tool_choice", "api")
    layer, note = _diagnosis(make_exchange(text, tools=tools, tool_parser="hermes"), "stalled_turn")
    assert (note["rule"], layer) == ("stalled_tool_parser", "parser")
    assert "hermes" in note["reason"]
    agent = replace(make_exchange(text), history=(Turn("user"), Turn("tool")))
    assert _diagnosis(agent, "stalled_turn")[1]["rule"] == "stalled_tool_parser"
    layer, note = _diagnosis(make_exchange(text), "stalled_turn")
    assert (note["rule"], layer) == ("stalled_agent_loop", "client")


def test_empty_points_at_the_reasoning_parser_or_stripped_tokens(make_exchange):
    layer, note = _diagnosis(make_exchange("", reasoning_parser="qwen3"), "empty_response")
    assert (note["rule"], layer) == ("empty_reasoning_parser", "parser")
    assert "qwen3" in note["reason"]
    layer, note = _diagnosis(make_exchange(""), "empty_response")
    assert (note["rule"], layer) == ("empty_stripped_output", "template")
    assert "skip_special_tokens=false" in note["fix"]
