"""Per-finding layer diagnosis: which layer of the serving stack a finding points at.

Detectors judge the visible text and only partly know *why* it leaked. ``diagnose``
runs after them with the whole exchange in view (model and parser names, stream and
stop settings, the client's reasoning field and phase rendering) and walks ``RULES``,
one row per known cause, in order. The first row whose labels include the finding's
label and whose predicate holds wins:

- its ``layer`` replaces the detector's layer (``None`` keeps the detector's layer);
- ``details["diagnosis"]`` gets ``{"rule", "layer", "detector_layer", "reason", "fix"}``.

A finding no row matches is returned unchanged. ``EXCHANGE_RULES`` hold facts about the
exchange that no label covers (the client reads a different reasoning field than the
engine wrote); they are attached to every finding as ``diagnosis["also"]`` and returned
on their own by ``exchange_notes``.

Reason and fix texts are ``str.format`` templates over ``Facts.context`` (model,
parser and family names), so the advice names the flag value to use. Adding a cause is
one new row; ``leakline.pipeline.curation.diagnose`` reuses the rows' texts for store-level advice.
Like the detectors, nothing here raises on odd input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from leakline.detectors.exchange import Exchange
from leakline.detectors.families import (
    FamilyTable,
    ModelFamily,
    active_table,
    named_for,
    token_roles,
)
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source

# ---------------------------------------------------------------- family look-ups (plain strings)

# the engine's reasoning-field spellings; other APIs ("thinking") have no client choice
REASONING_FIELDS = frozenset({"reasoning", "reasoning_content"})
UNKNOWN = "unknown"


def _known(value: str | None) -> str | None:
    """None for missing values, including the store's ``unknown`` placeholder."""
    return value if value and value != UNKNOWN else None


def model_families(model_name: str | None) -> tuple[ModelFamily, ...]:
    """Every family whose ``model_patterns`` match the model name (distills match several)."""
    return _model_families(active_table(), model_name)


@lru_cache(maxsize=512)
def _model_families(table: FamilyTable, model_name: str | None) -> tuple[ModelFamily, ...]:
    name = _known(model_name)
    if not name:
        return ()
    lowered = name.lower()
    return tuple(f for f in table.families if any(p in lowered for p in f.model_patterns))


def parser_family(parser: str | None) -> ModelFamily | None:
    """The family a ``--reasoning-parser`` / ``--tool-call-parser`` value belongs to."""
    name = _known(parser)
    return active_table().by_parser.get(name.lower()) if name else None


def suggested_reasoning_parser(
    model_name: str | None, tool_parser: str | None = None
) -> str | None:
    """The reasoning parser of the model's family (else of the tool parser's family)."""
    candidates = (*model_families(model_name), parser_family(tool_parser))
    for family in candidates:
        if family is not None and family.reasoning_end and family.parser_names:
            return family.parser_names[0]
    return None


def parser_mismatch(model_name: str | None, reasoning_parser: str | None) -> bool:
    """The reasoning parser belongs to a family the model name does not match."""
    family = parser_family(reasoning_parser)
    models = model_families(model_name)
    return family is not None and bool(models) and family not in models


def tool_parser_only(
    reasoning_parser: str | None, tool_parser: str | None, model_name: str | None
) -> bool:
    """A tool-call parser is named and no reasoning parser, on a (possibly) reasoning model."""
    if not _known(tool_parser) or _known(reasoning_parser):
        return False
    families = model_families(model_name) or tuple(
        f for f in (parser_family(tool_parser),) if f is not None
    )
    return not families or any(f.reasoning_end for f in families)


def field_mismatch(engine_field: str | None, client_field: str | None) -> bool:
    """The client reads one chat reasoning field while the engine wrote the other."""
    return (
        engine_field in REASONING_FIELDS
        and client_field in REASONING_FIELDS
        and engine_field != client_field
    )


# ---------------------------------------------------------------- per-exchange facts


class _Context(dict[str, str]):
    """Template values; a missing key renders as ``?`` instead of raising.

    ``rendered`` remembers each rule's texts for these values (by its templates): the
    context is cached with the deployment's facts, and every finding of a deployment
    gets the same advice.
    """

    def __init__(self, values: Mapping[str, str]) -> None:
        super().__init__(values)
        self.rendered: dict[tuple[str, str], tuple[str, str]] = {}

    def __missing__(self, key: str) -> str:
        return "?"


# engine -> where that engine is told to stop at the end of a turn (runaway_turn's fix);
# matched as a substring of the lower-cased engine name, in order
STOP_SETTINGS: tuple[tuple[str, str], ...] = (
    (
        "vllm",
        "vLLM: the request's `stop` / `stop_token_ids`, `ignore_eos` left false, and the "
        "model's generation_config.json `eos_token_id` (read unless --generation-config vllm)",
    ),
    (
        "sglang",
        "SGLang: the request's `stop` / `stop_token_ids` (and `ignore_eos` false), and the "
        "EOS ids the model's config declares",
    ),
    # before "llama": "ollama" contains it
    ("ollama", "Ollama: `PARAMETER stop` in the Modelfile and the template's end token"),
    (
        "llama",
        "llama.cpp: the end-of-generation token of the GGUF metadata (llama-server `stop` in "
        "the request, llama-cli `--reverse-prompt`)",
    ),
)
STOP_SETTING_ANY = (
    "the request's stop strings / stop token ids and the EOS id of the model's generation "
    "config (vLLM/SGLang `stop_token_ids`, llama.cpp `--reverse-prompt`, Ollama "
    "`PARAMETER stop`)"
)


def stop_setting(engine_name: str | None) -> str:
    """Where this engine's stop and end-of-sequence conditions are set."""
    lowered = (engine_name or "").lower()
    for key, text in STOP_SETTINGS:
        if key in lowered:
            return text
    return STOP_SETTING_ANY


@dataclass(frozen=True, slots=True)
class Facts:
    """What the exchange's metadata says, computed once per exchange."""

    model_families: tuple[ModelFamily, ...]
    named: tuple[ModelFamily, ...]
    reasoning_family: ModelFamily | None
    tool_parser_only: bool
    parser_mismatch: bool
    field_mismatch: bool
    reasoning_model: bool
    context: Mapping[str, str]
    # spans of tagged reasoning leaks among the exchange's findings, by delimiter kind;
    # an untagged self-talk finding inside one is the same leak
    tagged_spans: tuple[tuple[str, int, int], ...] = ()


def facts_of(exchange: Exchange) -> Facts:
    v = exchange.versions
    # metadata repeats for every response of a deployment, so the facts are cached by it
    return _facts(
        v.model_name,
        v.reasoning_parser,
        v.tool_call_parser,
        v.engine_name,
        v.engine_version,
        exchange.reasoning_field,
        exchange.client_reasoning_field,
        # ``bool(text.strip())`` without copying a long reasoning text
        bool(exchange.reasoning_text) and not exchange.reasoning_text.isspace(),
    )


@lru_cache(maxsize=1024)
def _facts(
    model_name: str | None,
    reasoning_parser: str | None,
    tool_call_parser: str | None,
    engine_name: str | None,
    engine_version: str | None,
    reasoning_field: str | None,
    client_reasoning_field: str | None,
    has_reasoning_text: bool,
) -> Facts:
    models = model_families(model_name)
    reasoning_family = parser_family(reasoning_parser)
    named = named_for(reasoning_parser, tool_call_parser, model_name)
    suggested = suggested_reasoning_parser(model_name, tool_call_parser)
    context = _Context(
        dict(
            model=model_name or "the model",
            model_family=models[0].name if models else "unknown",
            reasoning_parser=reasoning_parser or "none",
            parser_family=reasoning_family.name if reasoning_family else "unknown",
            tool_parser=tool_call_parser or "none",
            suggested_parser=suggested or "<the model family's parser>",
            engine=" ".join(x for x in (engine_name, engine_version) if x) or "the engine",
            engine_field=reasoning_field or "none",
            client_field=client_reasoning_field or "none",
            stop_setting=stop_setting(engine_name),
        )
    )
    return Facts(
        model_families=models,
        named=named,
        reasoning_family=reasoning_family,
        tool_parser_only=tool_parser_only(reasoning_parser, tool_call_parser, model_name),
        parser_mismatch=parser_mismatch(model_name, reasoning_parser),
        field_mismatch=field_mismatch(reasoning_field, client_reasoning_field),
        reasoning_model=bool(
            has_reasoning_text or reasoning_parser or any(f.reasoning_end for f in named)
        ),
        context=context,
    )


# ---------------------------------------------------------------- finding predicates


def _detail(finding: Finding, key: str) -> Any:
    details = finding.details
    # details is a plain dict in practice; type() avoids the slow ABC check on a hot path
    return details.get(key) if type(details) is dict else None


def _token(finding: Finding) -> str | None:
    token = _detail(finding, "token")
    return token if isinstance(token, str) else None


def _tagged_spans(findings: Sequence[Finding]) -> tuple[tuple[str, int, int], ...]:
    spans = []
    for f in findings:
        kind = _detail(f, "delimited")
        tagged = isinstance(kind, str) and kind != "untagged"
        if f.label == Label.REASONING_LEAK and f.span is not None and tagged:
            spans.append((str(kind), f.span[0], f.span[1]))
    return tuple(spans)


def _delimited(finding: Finding, facts: Facts) -> str | None:
    """A reasoning leak's delimiter kind; an untagged one inside a tagged region takes its kind."""
    kind = _detail(finding, "delimited")
    if kind == "untagged" and finding.span is not None:
        start, end = finding.span
        for tagged, lo, hi in facts.tagged_spans:
            if start < hi and lo < end:
                return tagged
    return kind if isinstance(kind, str) else None


def _end_delimited(finding: Finding, facts: Facts) -> bool:
    """An end delimiter is visible: an end token, or reasoning closed by one."""
    if finding.label == Label.REASONING_LEAK:
        return _delimited(finding, facts) in ("lone_end", "pair")
    role = token_roles().get(_token(finding) or "")
    return role is not None and bool(role.ends)


def _lone_end_on_prefilled(x: Exchange, f: Finding, facts: Facts) -> bool:
    """An end tag with no start tag before it, for a named family whose template prefills it."""
    name = _detail(f, "family")
    if f.label == Label.REASONING_LEAK and name is None:  # untagged: the family named first
        name = next((fam.name for fam in facts.named if fam.reasoning_end), None)
    family = next((fam for fam in facts.named if fam.name == name), None)
    if family is None or not family.start_prefilled:
        return False
    if f.label == Label.REASONING_LEAK:
        return _delimited(f, facts) == "lone_end"
    if _token(f) not in family.reasoning_end or f.span is None:
        return False
    before = x.visible_text[: f.span[0]]
    return not any(start in before for start in family.reasoning_start)


def _budget_string(finding: Finding) -> bool:
    role = token_roles().get(_token(finding) or "")
    return role is not None and role.budget


def _commentary_opening(x: Exchange, f: Finding) -> bool:
    commentary = x.commentary_text.strip()
    return (
        x.renders_phases is True
        and bool(commentary)
        and f.span is not None
        and x.visible_text.startswith(commentary[:40], f.span[0])
    )


# ---------------------------------------------------------------- the rule table

Predicate = Callable[[Exchange, Finding, Facts], bool]


@dataclass(frozen=True, slots=True)
class Rule:
    """One known cause: which labels it explains, when, the layer, why, and what to try."""

    id: str
    labels: frozenset[str]
    when: Predicate
    layer: Layer | None  # None: keep the detector's layer
    reason: str  # str.format template over Facts.context
    fix: str

    def explain(self, context: Mapping[str, str]) -> tuple[str, str]:
        ctx = context if isinstance(context, _Context) else _Context(context)
        key = (self.reason, self.fix)  # the texts depend on the templates and values only
        texts = ctx.rendered.get(key)
        if texts is None:
            texts = ctx.rendered[key] = self.reason.format_map(ctx), self.fix.format_map(ctx)
        return texts


def _labels(*labels: Label) -> frozenset[str]:
    return frozenset(label.value for label in labels)


_REASONING = _labels(Label.REASONING_LEAK, Label.BOUNDARY_TOKEN)
_ALWAYS: Predicate = lambda x, f, facts: True  # noqa: E731

RULES: tuple[Rule, ...] = (
    # ---- reasoning inside structured output, slots and history (issue 20)
    Rule(
        "thinking_with_grammar",
        _labels(Label.REASONING_LEAK),
        lambda x, f, facts: _detail(f, "delimited") == "structured_field" and x.thinking_requested,
        Layer.API,
        "thinking on with a grammar: the json_schema grammar masks the thinking block, so the "
        "reasoning went into a structured field ({model})",
        "turn thinking off for structured requests (enable_thinking=false / "
        "reasoning_effort=none) and give the schema leading reasoning slots marked "
        '"x-leakline-reasoning": true (in-schema CoT), or apply the grammar only after the '
        "reasoning ends",
    ),
    Rule(
        "structured_field_reasoning",
        _labels(Label.REASONING_LEAK),
        lambda x, f, facts: _detail(f, "delimited") == "structured_field",
        Layer.MODEL,
        "the model wrote reasoning (or an echoed validation error) into a field of its "
        "structured answer",
        "keep retry feedback short and out of the answer, add a leading reasoning slot to the "
        "schema if the task needs thinking, and regenerate",
    ),
    Rule(
        "reasoning_slot_order",
        _labels(Label.REASONING_SLOT),
        lambda x, f, facts: _detail(f, "problem") == "answer_first",
        Layer.API,
        "an answer property was written before the reasoning slots: the grammar did not keep "
        "the schema's property order, so the slots only justify an answer already given",
        "use a structured-output backend that enforces declared property order, or put the "
        "slots in a separate leading object",
    ),
    Rule(
        "reasoning_slot_bound",
        _labels(Label.REASONING_SLOT),
        _ALWAYS,
        Layer.PARSER,
        "a reasoning slot exceeds its maxLength/maxItems: the engine did not enforce the bound "
        "that caps thinking time",
        "check the grammar backend supports maxLength/maxItems; validate at the gateway",
    ),
    Rule(
        "history_template_mismatch",
        _labels(Label.HISTORY_MISMATCH),
        _ALWAYS,
        Layer.CLIENT,
        "the conversation history sent back does not match what the {model_family} chat "
        "template expects for reasoning between turns",
        "pass reasoning back between tool calls of one turn and drop it after a final answer "
        "(harmony: analysis); follow the family's template for earlier turns",
    ),
    Rule(
        "tool_parser_without_reasoning_parser",
        _REASONING,
        lambda x, f, facts: facts.tool_parser_only,
        Layer.PARSER,
        "tool-call parser without reasoning parser consumes the end tag: {tool_parser} runs "
        "alone, so the reasoning boundary is lost and reasoning merges into content",
        "set --reasoning-parser {suggested_parser} together with --tool-call-parser {tool_parser}",
    ),
    Rule(
        "reasoning_parser_family_mismatch",
        _REASONING | _labels(Label.FINAL_IN_REASONING),
        lambda x, f, facts: facts.parser_mismatch,
        Layer.PARSER,
        "the reasoning parser {reasoning_parser} is written for the {parser_family} family but "
        "{model} is {model_family}: the parser expects another output format (with thinking "
        "off it can file the whole answer as reasoning)",
        "use the family's parser: --reasoning-parser {suggested_parser}; re-check the parser "
        "whenever the model's minor version or chat template changes",
    ),
    Rule(
        "stream_stop_desync",
        _REASONING,
        lambda x, f, facts: x.stream and bool(x.stop) and _end_delimited(f, facts),
        Layer.PARSER,
        "streamed with stop strings: the engine's stop-string buffer holds back the text "
        "deltas while the reasoning parser follows token ids, so the end tag and part of "
        "the reasoning slip into content",
        "drop `stop` and end on EOS + max_tokens, or upgrade to an engine version whose "
        "release notes include the streaming stop/reasoning-parser fix; confirm by sending "
        "the same request non-streamed and without stop",
    ),
    Rule(
        "stream_split_delimiter",
        _labels(Label.BOUNDARY_TOKEN),
        lambda x, f, facts: x.stream and _detail(f, "split_across_chunks") is True,
        Layer.PARSER,
        "the delimiter arrived split across stream deltas and the engine's streaming "
        "reasoning parser did not recognise it",
        "compare with the non-streamed request (and with speculative decoding/MTP off); "
        "upgrade the engine if only streaming leaks; strip delimiters in the stream at the "
        "gateway with a sliding buffer",
    ),
    Rule(
        "budget_end_string",
        _labels(Label.BOUNDARY_TOKEN),
        lambda x, f, facts: _budget_string(f),
        Layer.PARSER,
        "the end string forced by a thinking budget was written to content instead of reasoning",
        "strip it at the gateway, keep thinking-budget requests in the regression set, and "
        "check that the budget's reasoning end string matches the parser's end delimiter",
    ),
    Rule(
        "prefilled_start_tag",
        _REASONING,
        lambda x, f, facts: _lone_end_on_prefilled(x, f, facts),
        Layer.TEMPLATE,
        "the {model_family} chat template puts the start tag in the prompt, so the output "
        "holds only the end tag and the text before it was not treated as reasoning",
        "use the reasoning parser made for this template version ({suggested_parser}), keep "
        "enable_thinking the same for template and parser, and pin the chat template with "
        "the model weights",
    ),
    Rule(
        "final_in_reasoning_thinking_off",
        _labels(Label.FINAL_IN_REASONING),
        _ALWAYS,
        None,
        "the whole output went to the reasoning field: the parser assumed reasoning (start "
        "tag prefilled or thinking on) while the request ran with thinking off, or the parser "
        "does not fit the model",
        "use the model family's parser ({suggested_parser}) and make enable_thinking / "
        "chat_template_kwargs agree with what it expects; meanwhile serve the reasoning field "
        "as the answer",
    ),
    Rule(
        "commentary_rendered_client",
        _labels(Label.COMMENTARY_RENDERED),
        _ALWAYS,
        Layer.CLIENT,
        "the client renders Responses message items with phase 'commentary' as answer text",
        'filter out items whose phase == "commentary" (a missing phase is a final answer, so '
        'do not filter on "show only final_answer"); resend history with phase unchanged',
    ),
    Rule(
        "preamble_from_commentary",
        _labels(Label.PREAMBLE),
        lambda x, f, facts: _commentary_opening(x, f),
        Layer.CLIENT,
        "the preamble is a commentary-phase item that the client renders in front of the answer",
        'filter out items whose phase == "commentary" (not "show only final_answer")',
    ),
    Rule(
        "mixed_chunk_client",
        _labels(Label.MIXED_CHUNK),
        _ALWAYS,
        Layer.CLIENT,
        "a stream chunk carries reasoning and content together; a client reading the delta "
        "with if/elif keeps one and drops the other",
        "handle both delta fields in every chunk (reasoning or reasoning_content, and "
        "content) with two independent ifs, no if/elif",
    ),
    Rule(
        "structured_budget_exhausted",
        _labels(Label.STRUCTURED_INVALID),
        lambda x, f, facts: (
            _detail(f, "reason") == "empty"
            and x.finish_reason == "length"
            and bool(x.reasoning_text.strip())
        ),
        Layer.API,
        "max_tokens ran out inside reasoning, so the constrained JSON answer never started",
        "raise max_tokens or set a thinking budget (thinking_token_budget); count the "
        "response as a failed validation",
    ),
    Rule(
        "structured_grammar_skipped",
        _labels(Label.STRUCTURED_INVALID),
        lambda x, f, facts: (
            _detail(f, "reason") in ("fenced", "prefix_text", "not_json") and facts.reasoning_model
        ),
        Layer.PARSER,
        "fences or prose around the JSON on a reasoning model: the end of reasoning was "
        "missed, so the JSON grammar was never applied and the response still returned 200",
        "upgrade to an engine version that detects the end of reasoning under MTP/speculative "
        "decoding, compare with those off, and validate the schema at the gateway",
    ),
    Rule(
        "structured_schema_violation",
        _labels(Label.STRUCTURED_INVALID),
        lambda x, f, facts: _detail(f, "reason") in ("schema", "not_object"),
        Layer.MODEL,
        "the output is JSON but breaks the requested shape: the values are the model's and "
        "the format was not enforced strictly",
        "request a strict json_schema, validate at the gateway and regenerate with the "
        "validation error as feedback",
    ),
    Rule(
        "truncated_in_reasoning",
        _labels(Label.TRUNCATED),
        lambda x, f, facts: _detail(f, "in_reasoning") is True,
        Layer.API,
        "the output budget ran out inside reasoning: content is empty",
        "raise max_tokens or set a thinking budget (thinking_token_budget); treat the "
        "response as failed, not as an empty answer",
    ),
    Rule(
        "untagged_reasoning",
        _labels(Label.REASONING_LEAK),
        lambda x, f, facts: _delimited(f, facts) == "untagged",
        None,
        "reasoning is visible with no delimiter: the model did not emit its boundary, or the "
        "template's thinking flag disagrees with the parser",
        "look at the raw output (skip_special_tokens=false): an end tag there means "
        "parser/template, none means the model (regenerate) or a thinking-flag mismatch",
    ),
    Rule(
        "no_reasoning_parser_reported",
        _REASONING,
        lambda x, f, facts: bool(
            x.versions.engine_name
            and not x.versions.reasoning_parser
            and not x.versions.tool_call_parser
        ),
        None,
        "no reasoning parser is reported for {engine}: self-hosted, none is set and reasoning "
        "stays in content; a managed API has no parser, so the model wrote the tags itself",
        "self-hosted: set --reasoning-parser {suggested_parser}; managed API: turn thinking "
        "on (a low effort is enough) instead of telling the model not to think, and strip "
        "the tags at the gateway",
    ),
    # ---- turn-level failures (issue 34)
    Rule(
        "runaway_stop_eos",
        _labels(Label.RUNAWAY_TURN),
        _ALWAYS,
        Layer.TEMPLATE,
        "generation went past the end of the assistant's turn into the next user turn: the "
        "chat template's end-of-turn token is not a stop condition on {engine} (a stop "
        "string, a stop token id or the generation config's EOS id is missing)",
        "check {stop_setting}; the template's end-of-turn token (<|im_end|>, <|eot_id|>, "
        "<end_of_turn>, </s>, ...) must be among them; cut the reply at the role header "
        "meanwhile",
    ),
    Rule(
        "stalled_tool_choice",
        _labels(Label.STALLED_TURN),
        lambda x, f, facts: x.has_tools and x.config.tool_choice in ("required", "named"),
        Layer.API,
        "tool_choice asked for a call, yet the turn ended on an announcement in text: the "
        "engine did not enforce tool_choice",
        "check that {engine} enforces tool_choice required/named (it constrains the output "
        "to a call); until then validate at the gateway and retry",
    ),
    Rule(
        "stalled_tool_parser",
        _labels(Label.STALLED_TURN),
        lambda x, f, facts: x.has_tools or _detail(f, "tool_turns") not in (None, 0),
        Layer.PARSER,
        "tools were available and the reply announced a call, then ended: the tool-call "
        "parser ({tool_parser}) dropped the call, or the template ended the turn after the "
        "first sentence",
        "look at the raw output (skip_special_tokens=false): call markup there means the "
        "parser (set the family's --tool-call-parser), none means the model or template "
        "stopped; retry with tool_choice=required",
    ),
    Rule(
        "stalled_agent_loop",
        _labels(Label.STALLED_TURN),
        _ALWAYS,
        Layer.CLIENT,
        "the reply only announced an action and the turn ended; no tools are in the logged "
        "request, so either the gateway dropped them or the agent loop treats the text as "
        "the final answer",
        "log the declared tools; have the agent loop continue (or retry with "
        "tool_choice=required) when a reply announces work without a call",
    ),
    Rule(
        "empty_reasoning_parser",
        _labels(Label.EMPTY_RESPONSE),
        lambda x, f, facts: bool(_known(x.versions.reasoning_parser)),
        Layer.PARSER,
        "tokens were billed but neither content nor reasoning holds text while the reasoning "
        "parser {reasoning_parser} runs: it swallowed the whole output (an unclosed start "
        "tag, or a thinking flag that disagrees with the parser)",
        "replay with skip_special_tokens=false and without the reasoning parser; use the "
        "family's parser ({suggested_parser}) with enable_thinking the same for template and "
        "parser",
    ),
    Rule(
        "empty_stripped_output",
        _labels(Label.EMPTY_RESPONSE),
        _ALWAYS,
        Layer.TEMPLATE,
        "the turn ended with no text, no call and no reasoning: the output was only special "
        "tokens that the detokenizer stripped, or the chat template ends the turn at once "
        "(an end token right after the generation prompt)",
        "replay with skip_special_tokens=false to see the raw tokens; check the template's "
        "generation prompt and {stop_setting}; regenerate meanwhile",
    ),
    # ---- fallbacks: keep the detector's layer, still say what to try
    Rule(
        "visible_delimiter",
        _REASONING,
        _ALWAYS,
        None,
        "a reasoning delimiter reached the visible text",
        "check that --reasoning-parser matches the model family ({suggested_parser}) and was "
        "validated for this model version and chat template; compare streamed/non-streamed "
        "and stop/no-stop variants (`leakline diagnose`)",
    ),
    Rule(
        "tool_call_not_parsed",
        _labels(Label.TOOL_CALL_AS_TEXT),
        _ALWAYS,
        None,
        "the tool call stayed in content: the tool-call parser is missing, does not match "
        "the model's markup, or the call was written inside reasoning",
        "set the family's --tool-call-parser (together with --reasoning-parser) and rescue "
        "the call from text meanwhile",
    ),
    Rule(
        "tool_args_model",
        _labels(Label.TOOL_ARGS_INVALID),
        _ALWAYS,
        None,
        "the structured tool call's name or arguments break the declared tool",
        "retry with the validation error as feedback",
    ),
    Rule(
        "preamble_model",
        _labels(Label.PREAMBLE),
        _ALWAYS,
        None,
        "the answer opens with an interim progress sentence",
        "strip the opening sentence; on the Responses API use phase to drop commentary",
    ),
    Rule(
        "structured_invalid_other",
        _labels(Label.STRUCTURED_INVALID),
        _ALWAYS,
        None,
        "the structured-output request was not answered with one valid JSON value",
        "validate at the gateway and regenerate; check the engine applies the grammar",
    ),
    Rule(
        "truncated_budget",
        _labels(Label.TRUNCATED),
        _ALWAYS,
        None,
        "the response hit the output-token limit",
        "raise max_tokens (or max_output_tokens) and regenerate",
    ),
)

EXCHANGE_RULES: tuple[Rule, ...] = (
    Rule(
        "reasoning_field_mismatch",
        frozenset(),
        lambda x, f, facts: facts.field_mismatch,
        Layer.CLIENT,
        "the engine wrote reasoning to '{engine_field}' but the client reads '{client_field}': "
        "the reasoning is silently lost (or shown by a fallback path)",
        "read both fields: reasoning first, then reasoning_content",
    ),
)

RULES_BY_ID: dict[str, Rule] = {r.id: r for r in (*RULES, *EXCHANGE_RULES)}
# label -> the rows that can explain it, in table order (match walks only these)
_RULES_FOR: dict[str, tuple[Rule, ...]] = {
    label: tuple(r for r in RULES if label in r.labels)
    for label in sorted({label for r in RULES for label in r.labels})
}


def rule(rule_id: str) -> Rule:
    """The row registered under ``rule_id``; raises ``KeyError`` listing the known ids."""
    try:
        return RULES_BY_ID[rule_id]
    except KeyError:
        raise KeyError(
            f"unknown diagnosis rule {rule_id!r}; known: {', '.join(RULES_BY_ID)}"
        ) from None


# ---------------------------------------------------------------- entry points

# a placeholder for exchange-level predicates, which never look at a finding
_NO_FINDING = Finding(
    label="",
    detector_id="diagnosis",
    detector_version="1",
    source=Source.RULE,
    layer=Layer.MODEL,
    remediation=Remediation.STRIP,
    confidence=0.0,
    evidence="",
)


def _note(r: Rule, layer: Layer | None, context: Mapping[str, str]) -> dict[str, Any]:
    reason, fix = r.explain(context)
    return {"rule": r.id, "layer": layer.value if layer else None, "reason": reason, "fix": fix}


def exchange_notes(exchange: Exchange, facts: Facts | None = None) -> list[dict[str, Any]]:
    """Exchange-level facts no label covers, as ``{"rule", "layer", "reason", "fix"}``."""
    facts = facts or facts_of(exchange)
    return [
        _note(r, r.layer, facts.context)
        for r in EXCHANGE_RULES
        if r.when(exchange, _NO_FINDING, facts)
    ]


def match(exchange: Exchange, finding: Finding, facts: Facts | None = None) -> Rule | None:
    """The first rule that explains ``finding``, or None."""
    facts = facts or facts_of(exchange)
    for r in _RULES_FOR.get(finding.label, ()):
        if r.when(exchange, finding, facts):
            return r
    return None


def _with_tagged_spans(facts: Facts, findings: Sequence[Finding]) -> Facts:
    """``facts`` plus the tagged regions, when an untagged finding may fall inside one.

    Only ``_delimited`` of an untagged finding reads them; most exchanges have none.
    """
    if not any(
        f.label == _REASONING_LEAK and _detail(f, "delimited") == "untagged" for f in findings
    ):
        return facts
    spans = _tagged_spans(findings)
    return replace(facts, tagged_spans=spans) if spans else facts


_REASONING_LEAK = Label.REASONING_LEAK.value
# Layer -> its string, without the enum's ``value`` property (per finding, twice)
_LAYER_VALUE: dict[Layer, str] = {layer: layer.value for layer in Layer}


def diagnose(exchange: Exchange, findings: Sequence[Finding]) -> list[Finding]:
    """The findings with their layer diagnosed and ``details["diagnosis"]`` added."""
    if not findings:
        return []
    facts = _with_tagged_spans(facts_of(exchange), findings)
    notes = exchange_notes(exchange, facts)
    out = []
    for finding in findings:
        found = match(exchange, finding, facts)
        if found is None:
            out.append(finding)
            continue
        layer = found.layer or finding.layer
        reason, fix = found.explain(facts.context)
        earlier = _detail(finding, "diagnosis")  # diagnosed before: keep the detector's word
        detector_layer = _LAYER_VALUE[finding.layer]
        diagnosis = {
            "rule": found.id,
            "layer": _LAYER_VALUE[layer],
            "reason": reason,
            "fix": fix,
            "detector_layer": (
                earlier.get("detector_layer", detector_layer)
                if type(earlier) is dict
                else detector_layer
            ),
        }
        if notes:
            diagnosis["also"] = notes
        details = dict(finding.details) if type(finding.details) is dict else {}
        details["diagnosis"] = diagnosis
        out.append(finding.evolve(layer=layer, details=details))
    return out
