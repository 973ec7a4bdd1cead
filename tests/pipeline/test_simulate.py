"""Tests for the synthetic traffic simulator (``leakline.pipeline.simulate``)."""

from __future__ import annotations

import collections
import json
import re
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from leakline.pipeline.simulate import texts as T
from leakline.pipeline.simulate.fleet import DEPLOYMENTS, deployment_table
from leakline.pipeline.simulate.traffic_model import (
    MALFORMED_KINDS,
    Mix,
    SimulatedEvent,
    encode_event,
    malformed_cases,
    malformed_payloads,
    simulate,
    simulate_payloads,
)

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "pipeline" / "schemas" / "gateway_event.v1.json"
ALL_LABELS = (
    "reasoning_leak",
    "boundary_token",
    "tool_call_as_text",
    "tool_args_invalid",
    "preamble",
    "structured_invalid",
    "truncated",
    "final_in_reasoning",
    "commentary_rendered",
    "mixed_chunk",
    "reasoning_slot",
    "history_mismatch",
)
# labels the simulator has no scenario for yet (issue 34's turn-level labels: engine-sim's
# runaway and stalled profiles exercise them end to end; a scenario would shift every seed)
NOT_SIMULATED = frozenset({"stalled_turn", "runaway_turn", "empty_response"})


@cache
def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text("utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@cache
def sample(
    count: int = 4000, seed: int = 11, leak_ratio: float = 0.3
) -> tuple[SimulatedEvent, ...]:
    return tuple(simulate(count, seed=seed, mix=Mix(leak_ratio=leak_ratio)))


# ----------------------------------------------------------------------------- contract


def test_events_validate_against_schema() -> None:
    v = validator()
    events = [*sample(), *sample(1500, 5, 1.0)]
    for sim in events:
        errors = list(v.iter_errors(sim.event))
        assert not errors, (sim.event["event_id"], errors[0].message)
        # the bytes a producer sends are valid JSON that round-trips
        assert json.loads(encode_event(sim.event)) == sim.event


def test_event_fields_are_filled() -> None:
    for sim in sample():
        ev = sim.event
        assert ev["gateway"]["name"] == "litellm" and ev["gateway"]["version"]
        assert set(ev["client"]) == {"reasoning_field", "renders_phases"}
        assert ev["engine"]["name"] and ev["model"]["name"]
        assert ("chunks" in ev) == ev["stream"]
        assert datetime.fromisoformat(ev["ts"].replace("Z", "+00:00")).tzinfo is not None
        req = ev["request"]
        if "thinking" in req:  # Messages API: 1024 <= budget_tokens < max_tokens
            assert 1024 <= req["thinking"]["budget_tokens"] < req["max_tokens"]


def test_expected_labels_are_known_and_sorted() -> None:
    for sim in sample():
        assert list(sim.expected_labels) == sorted(set(sim.expected_labels))
        assert set(sim.expected_labels) <= set(ALL_LABELS)


def test_label_names_match_the_detector_contract() -> None:
    labels = pytest.importorskip("leakline.detectors.labels")
    assert set(labels.ALL_LABELS) == set(ALL_LABELS) | NOT_SIMULATED


# ----------------------------------------------------------------------------- determinism


def test_deterministic_for_a_seed() -> None:
    a = [(s.event, s.expected_labels) for s in simulate(400, seed=7)]
    b = [(s.event, s.expected_labels) for s in simulate(400, seed=7)]
    assert a == b
    c = [s.event for s in simulate(400, seed=8)]
    assert [e["request"] for e, _ in a] != [e["request"] for e in c]


def test_shorter_run_is_a_prefix_and_timing_does_not_change_content() -> None:
    long = list(simulate(300, seed=3))
    short = list(simulate(120, seed=3))
    assert short == long[:120]
    paced = list(simulate(120, seed=3, rate_per_s=50.0))
    assert [_untimed(s.event) for s in paced] == [_untimed(s.event) for s in short]
    assert [s.expected_labels for s in paced] == [s.expected_labels for s in short]


def _untimed(value: Any) -> Any:
    """``value`` without the fields derived from the timestamp."""
    if isinstance(value, dict):
        return {
            k: _untimed(v) for k, v in value.items() if k not in ("ts", "created", "created_at")
        }
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def test_unique_stable_ids() -> None:
    events = sample()
    ids = [s.event["event_id"] for s in events]
    assert len(set(ids)) == len(ids)
    assert ids[0] == "sim-11-0000000" and ids[41] == "sim-11-0000041"


def test_timestamps() -> None:
    start = datetime(2027, 1, 2, 3, 4, 5, tzinfo=UTC)
    evs = list(simulate(50, seed=1, start=start, rate_per_s=10.0))
    times = [datetime.fromisoformat(s.event["ts"].replace("Z", "+00:00")) for s in evs]
    assert times[0] == start
    assert all(b - a == timedelta(milliseconds=100) for a, b in zip(times, times[1:], strict=False))
    default = [s.event["ts"] for s in simulate(200, seed=1)]
    assert default[0] == "2026-11-01T00:00:00.000Z"
    assert default == sorted(default) and len(set(default)) > 150
    naive = list(simulate(2, seed=1, start=datetime(2027, 5, 1), rate_per_s=1.0))
    assert naive[1].event["ts"] == "2027-05-01T00:00:01.000Z"


# ----------------------------------------------------------------------------- mix


def test_mix_ratios_roughly_respected() -> None:
    events = sample()
    n = len(events)
    leak = sum(bool(s.expected_labels) for s in events) / n
    stream = sum(s.event["stream"] for s in events) / n
    assert abs(leak - 0.3) < 0.03
    assert abs(stream - 0.4) < 0.03

    custom = list(
        simulate(2000, seed=2, mix=Mix(leak_ratio=0.1, stream_ratio=0.8, languages=("ko",)))
    )
    assert abs(sum(bool(s.expected_labels) for s in custom) / 2000 - 0.1) < 0.025
    assert abs(sum(s.event["stream"] for s in custom) / 2000 - 0.8) < 0.03
    assert {_language(s.event) for s in custom} == {"ko"}

    assert not any(s.expected_labels for s in simulate(500, seed=2, mix=Mix(leak_ratio=0.0)))
    assert all(s.expected_labels for s in simulate(500, seed=2, mix=Mix(leak_ratio=1.0)))
    assert not any(s.event["stream"] for s in simulate(200, seed=2, mix=Mix(stream_ratio=0.0)))


def test_bad_mix_is_rejected() -> None:
    for bad in (
        Mix(leak_ratio=1.5),
        Mix(stream_ratio=-0.1),
        Mix(languages=()),
        Mix(languages=("fr",)),
    ):
        with pytest.raises(ValueError):
            simulate(10, mix=bad)
    with pytest.raises(ValueError):
        simulate(-1)
    with pytest.raises(ValueError):
        simulate(10, rate_per_s=0)


def test_every_label_is_produced() -> None:
    seen = collections.Counter(label for s in sample(3000, 4, 0.6) for label in s.expected_labels)
    assert set(seen) == set(ALL_LABELS), set(ALL_LABELS) - set(seen)


def test_all_apis_stream_modes_and_languages_appear() -> None:
    events = sample()
    combos = {(s.event["api"], s.event["stream"]) for s in events}
    for api in ("chat.completions", "responses", "messages"):
        assert (api, True) in combos and (api, False) in combos
    langs = collections.Counter(_language(s.event) for s in events)
    assert set(langs) == {"en", "ko", "zh"}
    assert min(langs.values()) > len(events) / 5


def test_deployments_have_different_leak_rates() -> None:
    assert len(DEPLOYMENTS) >= 10
    assert len(deployment_table()) == len(DEPLOYMENTS)
    seen: dict[tuple[str, str | None, str], list[int]] = collections.defaultdict(lambda: [0, 0])
    kinds: dict[tuple[str, str | None, str], set[str]] = collections.defaultdict(set)
    for s in sample(6000, 9):
        ev = s.event
        key = (ev["engine"]["name"], ev["engine"]["version"], ev["model"]["name"])
        seen[key][0] += 1
        seen[key][1] += bool(s.expected_labels)
        kinds[key] |= set(s.expected_labels)
    rates = {k: leaks / total for k, (total, leaks) in seen.items()}
    assert max(rates.values()) > 3 * min(rates.values())
    old = rates[("vllm", "0.30.2", "Qwen/Qwen3-32B")]
    new = rates[("vllm", "0.31.0", "Qwen/Qwen3-32B")]
    assert old > 2 * new  # the older release leaks </think> on streaming + stop
    assert "mixed_chunk" in kinds[("sglang", "0.5.4", "Qwen/Qwen3-32B")]
    assert "commentary_rendered" in kinds[("openai", None, "gpt-5.4")]


def test_event_sizes() -> None:
    sizes = sorted(len(encode_event(s.event)) for s in sample())
    assert 500 <= sizes[len(sizes) // 2] <= 8192
    inside = sum(500 <= x <= 8192 for x in sizes) / len(sizes)
    assert inside > 0.9
    assert sizes[-1] < 32 * 1024


def test_texts_vary() -> None:
    visible = [_normalise(s.event).visible_text for s in sample()[:1500] if not s.expected_labels]
    visible = [v for v in visible if v]
    assert len(set(visible)) > 0.95 * len(visible)


def test_generation_is_fast() -> None:
    # The target is well under 2 s for 10k events; the bound here only catches gross
    # regressions on a slow or busy CI machine.
    t0 = time.perf_counter()
    for _ in simulate(10_000, seed=1):
        pass
    assert time.perf_counter() - t0 < 10


def test_no_kafka_imports() -> None:
    code = (
        "import sys, leakline.pipeline.simulate.traffic_model; "
        "bad = [m for m in ('faust', 'aiokafka', 'kafka') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# ----------------------------------------------------------------------------- streams


def test_streams_split_delimiters_across_chunks() -> None:
    split = 0
    for s in sample(3000, 4, 0.6):
        ev = s.event
        if (
            ev["api"] != "chat.completions"
            or not ev["stream"]
            or "boundary_token" not in s.expected_labels
        ):
            continue
        pieces = [
            c["choices"][0]["delta"].get("content") or "" for c in ev["chunks"] if c.get("choices")
        ]
        whole = "".join(pieces)
        for token in ("</think>", "<|channel|>", "<|message|>", "◁/think▷"):
            if token in whole and not any(token in p for p in pieces):
                split += 1
                break
    assert split >= 10


def test_mixed_chunks_only_where_designed() -> None:
    for s in sample(3000, 4, 0.6):
        ev = s.event
        mixed = False
        if ev["api"] == "chat.completions" and ev["stream"]:
            for c in ev["chunks"]:
                for ch in c.get("choices", []):
                    d = ch["delta"]
                    if d.get("content") and (d.get("reasoning") or d.get("reasoning_content")):
                        mixed = True
        assert mixed == ("mixed_chunk" in s.expected_labels), ev["event_id"]


# ----------------------------------------------------------------------------- malformed


def test_malformed_payloads_are_rejected() -> None:
    v = validator()
    payloads = malformed_payloads(60, seed=3)
    assert len(payloads) == 60
    for raw in payloads:
        assert isinstance(raw, bytes)
        assert not _accepts(v, raw), raw[:200]
    assert malformed_payloads(60, seed=3) == payloads
    kinds = [k for k, _ in malformed_cases(len(MALFORMED_KINDS), seed=0)]
    assert sorted(kinds) == sorted(MALFORMED_KINDS)


def test_simulate_payloads_interleaves_malformed() -> None:
    v = validator()
    mix = Mix(malformed_ratio=0.1)
    payloads = list(simulate_payloads(2000, seed=4, mix=mix))
    events = list(simulate(2000, seed=4, mix=mix))
    bad = 0
    for p, sim in zip(payloads, events, strict=True):
        if p.expected_labels is None:
            bad += 1
            assert not _accepts(v, p.value)
        else:
            assert json.loads(p.value) == sim.event
            assert p.expected_labels == sim.expected_labels
            assert p.key == sim.event["event_id"].encode()
    assert abs(bad / 2000 - 0.1) < 0.03
    assert all(p.expected_labels is not None for p in simulate_payloads(300, seed=4))


def _accepts(v: Draft202012Validator, raw: bytes) -> bool:
    try:
        event = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    return v.is_valid(event)


# ----------------------------------------------------------------------------- label oracle
#
# An independent, literal reading of detectors/LABELS.md applied to the normalised
# exchange. It checks that each event carries exactly the labels it was designed to.

BOUNDARY_TOKENS = (
    "<think>",
    "</think>",
    "<thinking>",
    "</thinking>",
    "◁think▷",
    "◁/think▷",
    "<|start|>",
    "<|channel|>",
    "<|message|>",
    "<|end|>",
    "<|return|>",
    "<|call|>",
    "<|constrain|>",
    "[THINK]",
    "[/THINK]",
)
REASONING_PAIRS = (
    ("<think>", "</think>"),
    ("<thinking>", "</thinking>"),
    ("◁think▷", "◁/think▷"),
    ("[THINK]", "[/THINK]"),
)
TOOL_MARKUP = ("<tool_call>", "[TOOL_CALLS]", "<|python_tag|>", "to=functions.")
_CODE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`|\"[^\"\n]*\"|“[^”\n]*”|「[^」\n]*」", re.S)


def _outside_code(text: str) -> str:
    return _CODE.sub(" ", text)


def _template_regex(template: str) -> str:
    parts = re.split(r"\{[a-z_0-9]+\}", template)
    return r"[^\n]{1,40}?".join(re.escape(p) for p in parts)


@cache
def _preamble_re() -> re.Pattern[str]:
    templates: list[str] = []
    for lang in T.LANGUAGES:
        templates += T.PREAMBLES[lang] + T.COMMENTARY[lang]
        for topic in T.TOPICS:
            templates += T.BANK[lang][topic]["preamble"]
    return re.compile("|".join(_template_regex(t) for t in templates))


@cache
def _cue_re() -> re.Pattern[str]:
    cues = [c.split("{subject}")[0] for lang in T.LANGUAGES for c in T.REASONING_CUES[lang]]
    return re.compile("|".join(re.escape(c) for c in cues))


def _json_call(text: str, declared: dict[str, Any]) -> bool:
    body = text.strip()
    m = re.fullmatch(r"```(?:json)?\n(.*)\n```", body, re.S)
    if m:
        body = m.group(1)
    try:
        value = json.loads(body)
    except ValueError:
        return False
    calls = value if isinstance(value, list) else [value]
    return bool(calls) and all(
        isinstance(c, dict)
        and c.get("name") in declared
        and isinstance(c.get("arguments", c.get("parameters")), dict)
        for c in calls
    )


def _oracle(ex: Any) -> set[str]:
    labels: set[str] = set()
    visible = ex.visible_text
    outside = _outside_code(visible)
    stripped = visible.strip()
    if any(t in outside for t in BOUNDARY_TOKENS):
        labels.add("boundary_token")
    tagged = any(
        a in outside
        and b in outside
        and outside.index(a) < outside.index(b)
        and outside[outside.index(a) + len(a) : outside.index(b)].strip()
        for a, b in REASONING_PAIRS
    )
    lone_end = any(
        b in outside and a not in outside and outside[: outside.index(b)].strip()
        for a, b in REASONING_PAIRS
    )
    if tagged or lone_end or "<|channel|>analysis" in outside or _cue_re().match(stripped):
        labels.add("reasoning_leak")
    if (
        ex.declared_tools
        and not ex.tool_calls
        and (any(m in outside for m in TOOL_MARKUP) or _json_call(visible, ex.declared_tools))
    ):
        labels.add("tool_call_as_text")
    for call in ex.tool_calls:
        schema = ex.declared_tools.get(call.name) if call.name in ex.declared_tools else None
        try:
            args = json.loads(call.arguments)
        except ValueError:
            args = None
        if (
            call.name not in ex.declared_tools
            or not isinstance(args, dict)
            or (schema is not None and not Draft202012Validator(schema).is_valid(args))
        ):
            labels.add("tool_args_invalid")
    if not ex.tool_calls and _preamble_re().match(stripped):
        labels.add("preamble")
    if ex.response_format is not None and not ex.tool_calls:
        try:
            value = json.loads(stripped)
            ok = ex.response_format.schema is None or Draft202012Validator(
                ex.response_format.schema
            ).is_valid(value)
        except ValueError:
            ok = False
        if not ok:
            labels.add("structured_invalid")
    if ex.finish_reason == "length":
        labels.add("truncated")
    elif not stripped and not ex.tool_calls and ex.reasoning_text.strip():
        labels.add("final_in_reasoning")
    if ex.api == "responses" and ex.commentary_text.strip() and ex.renders_phases is True:
        labels.add("commentary_rendered")
    if ex.stream_facts.mixed_chunks:
        labels.add("mixed_chunk")
    labels |= _structured_oracle(ex, stripped) | _history_oracle(ex)
    return labels


@cache
def _field_cue_re() -> re.Pattern[str]:
    openings = [t.split(" ")[0][:12] for lang in T.LANGUAGES for t in T.FIELD_REASONING[lang]]
    return re.compile("|".join(re.escape(o) for o in openings))


def _structured_oracle(ex: Any, stripped: str) -> set[str]:
    """Reasoning text from the simulator's field bank in a JSON string field outside the
    schema's ``x-leakline-reasoning`` slots; slots after an answer key or over maxLength."""
    if ex.response_format is None or ex.tool_calls:
        return set()
    try:
        value = json.loads(stripped)
    except ValueError:
        return set()
    if not isinstance(value, dict):
        return set()
    props = (ex.response_format.schema or {}).get("properties", {})
    slots = [k for k, v in props.items() if isinstance(v, dict) and v.get("x-leakline-reasoning")]
    labels = set()
    strings = [v for k, v in value.items() if k not in slots and isinstance(v, str)]
    if any(_field_cue_re().match(v) for v in strings):
        labels.add("reasoning_leak")
    keys = list(value)
    present = [keys.index(k) for k in slots if k in value]
    if present and any(k not in slots for k in keys[: max(present)]):
        labels.add("reasoning_slot")
    for k in slots:
        limit = props[k].get("maxLength")
        if limit is not None and isinstance(value.get(k), str) and len(value[k]) > limit:
            labels.add("reasoning_slot")
    return labels


def _history_oracle(ex: Any) -> set[str]:
    """gpt-oss / Kimi K2 Thinking / MiniMax-M2 / Claude with thinking on want the tool-call
    turn's reasoning back; gpt-oss and DeepSeek-R1 want earlier turns' reasoning dropped."""
    model = (ex.versions.model_name or "").lower()
    turns = list(ex.history)
    users = [i for i, t in enumerate(turns) if t.role == "user"]
    if not users:
        return set()
    prior, current = turns[: users[-1]], turns[users[-1] + 1 :]
    wants_back = any(m in model for m in ("gpt-oss", "kimi-k2-thinking", "minimax-m2")) or (
        "claude" in model and ex.config.thinking == "on"
    )
    drops = any(m in model for m in ("gpt-oss", "deepseek-r1"))
    if wants_back and any(
        t.role == "assistant" and t.tool_calls and not t.reasoning for t in current
    ):
        return {"history_mismatch"}
    if drops and any(t.role == "assistant" and t.reasoning for t in prior):
        return {"history_mismatch"}
    return set()


def _normalise(event: dict[str, Any]) -> Any:
    normalise = pytest.importorskip("leakline.pipeline.events.normalise")
    return normalise.normalise(event)


def test_expected_labels_follow_label_semantics() -> None:
    mismatches = []
    for s in [*sample(3000, 4, 0.6), *sample()]:
        got = _oracle(_normalise(s.event))
        if got != set(s.expected_labels):
            mismatches.append((s.event["event_id"], sorted(got), list(s.expected_labels)))
    assert not mismatches, mismatches[:5]


def test_clean_events_include_hard_negatives() -> None:
    clean = [_normalise(s.event) for s in sample() if not s.expected_labels]
    assert any(
        "`</think>`" in ex.visible_text or "```\n<|start|>" in ex.visible_text for ex in clean
    )
    assert any(
        ex.tool_calls and ex.visible_text.strip() for ex in clean
    )  # progress text + structured call
    assert any(ex.commentary_text and ex.renders_phases is not True for ex in clean)
    assert any(ex.reasoning_text and ex.visible_text for ex in clean)
    assert any(ex.response_format is not None for ex in clean)


def _language(event: dict[str, Any]) -> str:
    req = event["request"]
    if "messages" in req:
        text = next(m["content"] for m in req["messages"] if m["role"] == "user")
    else:
        inp = req["input"]
        text = inp if isinstance(inp, str) else inp[0]["content"]
    if re.search(r"[\uac00-\ud7a3]", text):
        return "ko"
    if re.search(r"[\u4e00-\u9fff]", text):
        return "zh"
    return "en"


def test_production_mix_has_long_clean_answers_and_keeps_every_verdict() -> None:
    from leakline.detectors import run_detectors
    from leakline.pipeline.events.contract import validate_event
    from leakline.pipeline.events.normalise import normalise
    from leakline.pipeline.simulate.traffic_model import PRODUCTION_MIX

    lengths = []
    for sim in simulate(1500, seed=21, mix=PRODUCTION_MIX):
        exchange = normalise(validate_event(sim.event))
        # padding appends clean answers: the detectors' verdict is still the designed one
        assert run_detectors(exchange).labels == sim.expected_labels, sim.event["event_id"]
        if not sim.expected_labels and exchange.response_format is None:
            lengths.append(len(exchange.visible_text))
    lo, hi = PRODUCTION_MIX.answer_chars or (0, 0)
    long_ones = [n for n in lengths if n >= lo]
    assert len(long_ones) > len(lengths) * 0.3
    assert max(lengths) <= hi * 1.5  # one appended answer past the drawn length at most
    leaks = sum(1 for s in simulate(1500, seed=21, mix=PRODUCTION_MIX) if s.expected_labels)
    assert 30 <= leaks <= 130  # ~5 %


def test_answer_chars_must_be_a_positive_range() -> None:
    with pytest.raises(ValueError, match="answer_chars"):
        list(simulate(1, mix=Mix(answer_chars=(500, 100))))
