"""Per-finding layer diagnosis: one table row per rule, on real detector findings."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from leakline.detectors import (
    ALL_LABELS,
    Exchange,
    Finding,
    Layer,
    Remediation,
    ResponseFormat,
    Source,
    StreamFacts,
    Versions,
)
from leakline.detectors.base import default_detectors
from leakline.detectors.diagnosis import (
    EXCHANGE_RULES,
    RULES,
    RULES_BY_ID,
    diagnose,
    exchange_notes,
    facts_of,
    model_families,
    parser_family,
    parser_mismatch,
    rule,
    suggested_reasoning_parser,
    tool_parser_only,
)

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}


def ex(
    text: str = "",
    *,
    model: str | None = None,
    reasoning_parser: str | None = None,
    tool_parser: str | None = None,
    engine: str | None = None,
    stream: bool = False,
    stop: tuple[str, ...] = (),
    reasoning: str = "",
    reasoning_field: str | None = None,
    client_field: str | None = None,
    api: str = "chat.completions",
    commentary: str = "",
    renders_phases: bool | None = None,
    mixed: tuple[int, ...] = (),
    pieces: tuple[str, ...] = (),
    fmt: str | None = None,
    schema: dict[str, Any] | None = None,
    finish: str | None = "stop",
) -> Exchange:
    return Exchange(
        event_id="d1",
        api=api,
        stream=stream,
        visible_text=text,
        reasoning_text=reasoning,
        reasoning_field=reasoning_field or ("reasoning" if reasoning else None),
        response_format=ResponseFormat(fmt, schema) if fmt else None,
        finish_reason=finish,
        raw_finish_reason=finish,
        commentary_text=commentary,
        renders_phases=renders_phases,
        client_reasoning_field=client_field,
        stop=stop,
        stream_facts=StreamFacts(len(pieces), mixed, pieces),
        versions=Versions(
            engine_name=engine,
            model_name=model,
            reasoning_parser=reasoning_parser,
            tool_call_parser=tool_parser,
        ),
    )


def raw_findings(exchange: Exchange) -> list[Finding]:
    """What the registered detectors say, before any diagnosis (whatever run_detectors does)."""
    return [f for detector in default_detectors() for f in detector.detect(exchange)]


def diagnosed(exchange: Exchange, label: str) -> list[Finding]:
    """Real detector findings for ``label``, after diagnosis."""
    found = diagnose(exchange, raw_findings(exchange))
    chosen = [f for f in found if f.label == label]
    assert chosen, f"no {label} finding for {exchange.visible_text!r}"
    return chosen


LONE_END = "The user asks for 2+2, that is 4.</think>\n\nThe answer is 4."
PAIRED = "<think>The user asks for 2+2, that is 4.</think>The answer is 4."
UNTAGGED = "Okay, so the user is asking what 2+2 is. It is 4."
QWEN = {"model": "Qwen/Qwen3-8B", "reasoning_parser": "qwen3"}

# (exchange, label, rule id, layer after diagnosis, text the fix must contain)
CASES = [
    pytest.param(
        ex(PAIRED, model="Qwen/Qwen3-Coder-30B-A3B", tool_parser="qwen3_xml"),
        "reasoning_leak",
        "tool_parser_without_reasoning_parser",
        Layer.PARSER,
        "--reasoning-parser qwen3 together with --tool-call-parser qwen3_xml",
        id="tool-parser-only-tagged",
    ),
    pytest.param(
        ex(UNTAGGED, model="Qwen/Qwen3-Coder-30B-A3B", tool_parser="qwen3_xml"),
        "reasoning_leak",
        "tool_parser_without_reasoning_parser",
        Layer.PARSER,
        "--reasoning-parser qwen3",
        id="tool-parser-only-untagged",
    ),
    pytest.param(
        ex(PAIRED, tool_parser="qwen3_xml"),
        "boundary_token",
        "tool_parser_without_reasoning_parser",
        Layer.PARSER,
        "--reasoning-parser qwen3",
        id="tool-parser-only-model-unknown",
    ),
    pytest.param(
        ex(
            "",
            reasoning="The user says hi. Hello!",
            model="Qwen/Qwen3-8B",
            reasoning_parser="deepseek_r1",
        ),
        "final_in_reasoning",
        "reasoning_parser_family_mismatch",
        Layer.PARSER,
        "--reasoning-parser qwen3",
        id="qwen3-with-deepseek-r1-final-in-reasoning",
    ),
    pytest.param(
        ex(PAIRED, model="MiniMax-M2", reasoning_parser="qwen3"),
        "reasoning_leak",
        "reasoning_parser_family_mismatch",
        Layer.PARSER,
        "--reasoning-parser minimax_m2",
        id="minimax-with-qwen3-parser",
    ),
    pytest.param(
        ex(LONE_END, **QWEN, stream=True, stop=("\nUser:",)),
        "boundary_token",
        "stream_stop_desync",
        Layer.PARSER,  # the detector alone says TEMPLATE (prefilled start tag)
        "drop `stop`",
        id="stream-stop-end-tag",
    ),
    pytest.param(
        ex(LONE_END, **QWEN, stream=True, stop=("\nUser:",)),
        "reasoning_leak",
        "stream_stop_desync",
        Layer.PARSER,
        "EOS + max_tokens",
        id="stream-stop-reasoning",
    ),
    pytest.param(
        ex(LONE_END, **QWEN),
        "boundary_token",
        "prefilled_start_tag",
        Layer.TEMPLATE,
        "pin the chat template",
        id="lone-end-on-prefilled-family",
    ),
    pytest.param(
        ex(LONE_END, **QWEN),
        "reasoning_leak",
        "prefilled_start_tag",
        Layer.TEMPLATE,
        "enable_thinking",
        id="lone-end-reasoning-on-prefilled-family",
    ),
    pytest.param(
        ex(
            "Answer: 4 <|channel|>analysis",
            **QWEN,
            stream=True,
            pieces=("Answer: 4 <|chan", "nel|>analysis"),
        ),
        "boundary_token",
        "stream_split_delimiter",
        Layer.PARSER,
        "sliding buffer",
        id="delimiter-split-across-chunks",
    ),
    pytest.param(
        ex(
            "I have to give the solution based on the thinking directly now. The answer is 4.",
            **QWEN,
        ),
        "boundary_token",
        "budget_end_string",
        Layer.PARSER,
        "regression set",
        id="thinking-budget-end-string",
    ),
    pytest.param(
        ex("", reasoning="Answer is 4.", **QWEN),
        "final_in_reasoning",
        "final_in_reasoning_thinking_off",
        Layer.PARSER,
        "enable_thinking",
        id="final-in-reasoning-matching-parser",
    ),
    pytest.param(
        ex(
            "Let me look that up first. Paris is the capital.",
            api="responses",
            commentary="Let me look that up first. ",
            renders_phases=True,
        ),
        "commentary_rendered",
        "commentary_rendered_client",
        Layer.CLIENT,
        'phase == "commentary"',
        id="commentary-rendered",
    ),
    pytest.param(
        ex(
            "Let me look that up first. Paris is the capital.",
            api="responses",
            commentary="Let me look that up first. ",
            renders_phases=True,
        ),
        "preamble",
        "preamble_from_commentary",
        Layer.CLIENT,
        'not "show only final_answer"',
        id="preamble-is-rendered-commentary",
    ),
    pytest.param(
        ex("4", reasoning="2+2", stream=True, mixed=(3,), pieces=("4",)),
        "mixed_chunk",
        "mixed_chunk_client",
        Layer.CLIENT,
        "no if/elif",
        id="mixed-chunk",
    ),
    pytest.param(
        ex('```json\n{"city": "Paris"}\n```', **QWEN, fmt="json_schema", schema=SCHEMA),
        "structured_invalid",
        "structured_grammar_skipped",
        Layer.PARSER,
        "speculative",
        id="fenced-json-on-reasoning-model",
    ),
    pytest.param(
        ex('Here you go: {"city": "Paris"}', reasoning="json please", fmt="json_object"),
        "structured_invalid",
        "structured_grammar_skipped",
        Layer.PARSER,
        "validate the schema",
        id="prefix-text-with-reasoning",
    ),
    pytest.param(
        ex('{"town": "Paris"}', **QWEN, fmt="json_schema", schema=SCHEMA),
        "structured_invalid",
        "structured_schema_violation",
        Layer.MODEL,
        "strict json_schema",
        id="schema-only-violation",
    ),
    pytest.param(
        ex(
            "", reasoning="long thoughts", **QWEN, fmt="json_schema", schema=SCHEMA, finish="length"
        ),
        "structured_invalid",
        "structured_budget_exhausted",
        Layer.API,
        "thinking_token_budget",
        id="structured-empty-truncated-in-reasoning",
    ),
    pytest.param(
        ex("", reasoning="long thoughts", **QWEN, finish="length"),
        "truncated",
        "truncated_in_reasoning",
        Layer.API,
        "raise max_tokens",
        id="truncated-in-reasoning",
    ),
    pytest.param(
        ex("The answer is", **QWEN, finish="length"),
        "truncated",
        "truncated_budget",
        Layer.API,
        "raise max_tokens",
        id="truncated-with-content",
    ),
    pytest.param(
        ex(PAIRED, engine="vllm", model="Qwen/Qwen3-8B"),
        "reasoning_leak",
        "no_reasoning_parser_reported",
        Layer.PARSER,
        "--reasoning-parser qwen3",
        id="no-parser-reported",
    ),
    pytest.param(
        ex(PAIRED, **QWEN),
        "boundary_token",
        "visible_delimiter",
        Layer.PARSER,
        "validated for this model version",
        id="delimiter-with-matching-parser",
    ),
    pytest.param(
        ex(UNTAGGED, **QWEN, reasoning="some reasoning"),
        "reasoning_leak",
        "untagged_reasoning",
        Layer.MODEL,
        "skip_special_tokens=false",
        id="untagged-with-parser-set",
    ),
]


@pytest.mark.parametrize(("exchange", "label", "rule_id", "layer", "fix"), CASES)
def test_rule_table(exchange: Exchange, label: str, rule_id: str, layer: Layer, fix: str) -> None:
    for finding in diagnosed(exchange, label):
        diagnosis = finding.details["diagnosis"]
        assert diagnosis["rule"] == rule_id
        assert finding.layer is layer and diagnosis["layer"] == layer.value
        assert fix in diagnosis["fix"]
        assert diagnosis["reason"] and "?" not in diagnosis["fix"]


def test_stream_stop_corrects_the_template_guess() -> None:
    exchange = ex(LONE_END, **QWEN, stream=True, stop=("\nUser:",))
    raw = [f for f in raw_findings(exchange) if f.label == "boundary_token"]
    assert raw[0].layer is Layer.TEMPLATE
    [after] = diagnosed(exchange, "boundary_token")
    assert after.layer is Layer.PARSER
    assert after.details["diagnosis"]["detector_layer"] == "template"
    assert "diagnosis" not in raw[0].details  # the original finding is not mutated


def test_no_stop_or_no_stream_is_not_the_desync() -> None:
    for variant in (ex(LONE_END, **QWEN, stream=True), ex(LONE_END, **QWEN, stop=("x",))):
        [finding] = diagnosed(variant, "boundary_token")
        assert finding.details["diagnosis"]["rule"] != "stream_stop_desync"


# texts that leak in every way the detectors know, without any metadata
NO_METADATA = [
    pytest.param(ex(PAIRED), id="paired-tags"),
    pytest.param(ex(LONE_END), id="lone-end"),
    pytest.param(ex(UNTAGGED), id="untagged"),
    pytest.param(ex("", reasoning="4"), id="final-in-reasoning"),
    pytest.param(ex('```json\n{"city": "x"}\n```', fmt="json_object"), id="fenced-json"),
    pytest.param(ex("", reasoning="x", finish="length"), id="truncated"),
    pytest.param(ex("Let me check that first. It is 4."), id="preamble"),
]


@pytest.mark.parametrize("exchange", NO_METADATA)
def test_no_metadata_keeps_the_detectors_layer(exchange: Exchange) -> None:
    raw = raw_findings(exchange)
    after = diagnose(exchange, raw)
    assert raw, "each case must leak"
    assert [f.layer for f in after] == [f.layer for f in raw]
    assert [f.label for f in after] == [f.label for f in raw]
    for finding in after:
        if "diagnosis" in finding.details:
            assert finding.details["diagnosis"]["layer"] == finding.layer.value
            assert "also" not in finding.details["diagnosis"]


def test_reasoning_field_mismatch_is_an_exchange_fact() -> None:
    clean = ex("4", reasoning="2+2", reasoning_field="reasoning", client_field="reasoning_content")
    assert raw_findings(clean) == []
    [note] = exchange_notes(clean)
    assert note["rule"] == "reasoning_field_mismatch" and note["layer"] == "client"
    assert "read both fields" in note["fix"] and "'reasoning_content'" in note["reason"]
    leaking = replace(clean, visible_text=PAIRED)
    for finding in diagnose(leaking, raw_findings(leaking)):
        assert finding.details["diagnosis"]["also"] == [note]


@pytest.mark.parametrize(
    ("engine_field", "client_field", "expected"),
    [
        ("reasoning", "reasoning_content", True),
        ("reasoning_content", "reasoning", True),
        ("reasoning", "reasoning", False),
        ("reasoning", None, False),
        ("thinking", "reasoning", False),  # Messages API: not a field choice
    ],
)
def test_field_mismatch_cases(
    engine_field: str | None, client_field: str | None, expected: bool
) -> None:
    exchange = ex("4", reasoning="2+2", reasoning_field=engine_field, client_field=client_field)
    assert bool(exchange_notes(exchange)) is expected


@pytest.mark.parametrize(
    ("model", "parser", "mismatch"),
    [
        ("Qwen/Qwen3-8B", "deepseek_r1", True),
        ("Qwen/Qwen3-8B", "qwen3", False),
        ("deepseek-ai/DeepSeek-R1-0528-Qwen3-8B", "deepseek_r1", False),  # a distill names both
        ("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "deepseek_r1", False),
        ("openai/gpt-oss-20b", "openai_gptoss", False),
        ("openai/gpt-oss-20b", "qwen3", True),
        ("unknown", "qwen3", False),  # the store's placeholder is no model
        ("Qwen/Qwen3-8B", "my_custom_parser", False),  # an unknown parser cannot be judged
        (None, "deepseek_r1", False),
    ],
)
def test_parser_family_mismatch(model: str | None, parser: str, mismatch: bool) -> None:
    assert parser_mismatch(model, parser) is mismatch


def test_family_helpers() -> None:
    assert [f.name for f in model_families("Qwen/QwQ-32B")] == ["qwen3"]
    assert parser_family("DEEPSEEK-R1") is parser_family("deepseek_r1")
    assert parser_family("unknown") is None
    assert suggested_reasoning_parser("Kimi-K2-Thinking") == "kimi_k2"
    assert suggested_reasoning_parser(None, "qwen3_xml") == "qwen3"
    assert suggested_reasoning_parser("meta-llama/Llama-3.1-8B") is None
    assert tool_parser_only("unknown", "qwen3_xml", "unknown")
    assert not tool_parser_only("qwen3", "qwen3_xml", "Qwen3-8B")
    # a model with no reasoning delimiters is not a reasoning model missing its parser
    assert not tool_parser_only(None, "llama3_json", "meta-llama/Llama-3.1-8B")


def test_rule_table_is_well_formed() -> None:
    ids = [r.id for r in (*RULES, *EXCHANGE_RULES)]
    assert len(ids) == len(set(ids)) == len(RULES_BY_ID)
    for r in RULES:
        assert r.labels and r.labels <= set(ALL_LABELS), r.id
    # every label has at least one row, so every finding gets advice
    assert {label for r in RULES for label in r.labels} == set(ALL_LABELS)
    context = facts_of(
        ex(
            PAIRED,
            model="Qwen/Qwen3-8B",
            reasoning_parser="deepseek_r1",
            tool_parser="hermes",
            engine="vllm",
            reasoning="x",
            client_field="reasoning_content",
        )
    ).context
    for r in (*RULES, *EXCHANGE_RULES):
        reason, fix = r.explain(context)
        assert reason and fix and "{" not in reason + fix, r.id
    with pytest.raises(KeyError, match="known"):
        rule("nope")


def test_rule_order_first_match_wins() -> None:
    # tool parser alone and stream+stop both hold: the missing parser is the cause named
    exchange = ex(LONE_END, model="Qwen3-8B", tool_parser="hermes", stream=True, stop=("x",))
    [finding] = diagnosed(exchange, "boundary_token")
    assert finding.details["diagnosis"]["rule"] == "tool_parser_without_reasoning_parser"


def test_unknown_labels_and_odd_details_pass_through() -> None:
    exchange = ex(PAIRED, **QWEN, stream=True, stop=("x",))
    odd = Finding(
        "classifier_label", "clf", "1", Source.CLASSIFIER, Layer.MODEL, Remediation.STRIP, 0.5, ""
    )
    weird = Finding(
        "boundary_token",
        "x",
        "1",
        Source.RULE,
        Layer.PARSER,
        Remediation.STRIP,
        1.0,
        "",
        span=(999, 1000),
        details={"token": 42, "family": ["qwen3"], "delimited": None},
    )
    out = diagnose(exchange, [odd, weird])
    assert out[0] is odd
    assert out[1].details["diagnosis"]["rule"] == "visible_delimiter"
    assert diagnose(exchange, []) == []


def test_diagnose_is_idempotent() -> None:
    exchange = ex(LONE_END, **QWEN, stream=True, stop=("x",))
    once = diagnose(exchange, raw_findings(exchange))
    twice = diagnose(exchange, once)
    assert [f.layer for f in twice] == [f.layer for f in once]
    assert [f.details["diagnosis"] for f in twice] == [f.details["diagnosis"] for f in once]
    [token] = [f for f in twice if f.label == "boundary_token"]
    assert (
        token.layer is Layer.PARSER and token.details["diagnosis"]["detector_layer"] == "template"
    )
