"""The scenarios: what each simulated response is designed to show, and its labels.

A scenario is a function from an ``EventContext`` to a ``ResponsePlan``: a clean answer
(``clean_*``: no label) or one designed leak, carrying the labels of
``detectors/LABELS.md`` that the detectors must report for it. Which scenario an event
gets is drawn from weight tables: a deployment's ``profile`` for leaks, and the clean
weights below for clean answers.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

from leakline.pipeline.simulate import texts as T
from leakline.pipeline.simulate.draws import (
    choice,
    cumulative,
    pick_weighted,
    randint,
    randrange,
    sample,
)
from leakline.pipeline.simulate.fleet import DEPLOYMENTS, Deployment
from leakline.pipeline.simulate.plan import EventContext, ResponsePlan
from leakline.pipeline.simulate.topics import SCHEMAS, as_json

# The labels a plan carries (detectors/LABELS.md).
BOUNDARY = "boundary_token"
REASONING = "reasoning_leak"
TOOL_TEXT = "tool_call_as_text"
TOOL_ARGS = "tool_args_invalid"
PREAMBLE = "preamble"
STRUCTURED = "structured_invalid"
TRUNCATED = "truncated"
FINAL_IN_REASONING = "final_in_reasoning"
COMMENTARY = "commentary_rendered"
MIXED = "mixed_chunk"
SLOT = "reasoning_slot"
HISTORY = "history_mismatch"

# In-schema chain of thought: a route schema whose leading slots hold the reasoning.
COT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "user_goal": {"type": "string", "maxLength": 120, "x-leakline-reasoning": True},
        "evidence": {
            "type": "array",
            "maxItems": 3,
            "items": {"type": "string", "maxLength": 80},
            "x-leakline-reasoning": True,
        },
        "action": {
            "enum": ["search_listing", "draft_contract", "list_overdue_rent", "export_report"]
        },
        "params": {"type": "object"},
    },
    "required": ["user_goal", "evidence", "action", "params"],
}


def _base(c: EventContext) -> ResponsePlan:
    """A plan with the deployment's normal, properly separated reasoning."""
    p = ResponsePlan()
    if c.dep.thinks:
        p.reasoning = "" if c.dep.omitted_thinking else c.reasoning()
        p.thinking = True if c.dep.api == "messages" else None
    return p


# -- clean ---------------------------------------------------------------------------


def _clean_answer(c: EventContext) -> ResponsePlan:
    p = _base(c)
    p.tools = c.dep.has_tools and c.rng.random() < 0.25
    p.content = c.answer()
    return p


def _clean_tool_call(c: EventContext) -> ResponsePlan:
    p = _base(c)
    if p.reasoning and not c.dep.omitted_thinking:
        p.reasoning = c.reasoning(short=True)
    p.tools = True
    p.calls = [(c.tool.name, as_json(c.args()))]
    p.finish = "tool_calls"
    p.strict = choice(c.rng, ("all", "all", "some", "none", None))
    # A progress sentence next to a structured call is not a preamble. In the Responses
    # API it is a commentary item, which is only clean when the client hides it.
    api, r = c.dep.api, c.rng.random()
    if (api == "messages" and r < 0.5) or (api == "chat.completions" and r < 0.15):
        p.content = c.preamble()
    elif api == "responses" and c.dep.phases and c.dep.renders_phases is not True and r < 0.6:
        p.commentary = c.commentary()
    return p


def _clean_followup(c: EventContext) -> ResponsePlan:
    p = _base(c)
    p.tools = True
    p.followup = True
    p.content = c.answer()
    return p


def _clean_structured(c: EventContext) -> ResponsePlan:
    p = _base(c)
    p.structured = "json_schema" if c.rng.random() < 0.8 else "json_object"
    if c.dep.api == "chat.completions" and c.dep.thinks:
        p.thinking_kwarg = choice(c.rng, (None, True, False))
    p.content = c.json_text(c.json_output())
    return p


def _cot_answer(c: EventContext, answer_first: bool = False) -> dict[str, Any]:
    slots = {
        "user_goal": choice(c.rng, T.COT_GOALS[c.lang]),
        "evidence": sample(c.rng, T.COT_EVIDENCE[c.lang], randint(c.rng, 1, 3)),
    }
    answer = {"action": choice(c.rng, COT_SCHEMA["properties"]["action"]["enum"]), "params": {}}
    return {**answer, **slots} if answer_first else {**slots, **answer}


def _clean_cot(c: EventContext) -> ResponsePlan:
    """In-schema CoT done right: thinking off, the slots before the answer."""
    p = _base(c)
    p.structured = "json_schema"
    p.schema = COT_SCHEMA
    p.thinking_kwarg = False
    p.reasoning = ""  # thinking is off: the reasoning is in the slots
    p.content = c.json_text(_cot_answer(c))
    return p


def _clean_explainer(c: EventContext) -> ResponsePlan:
    p = _base(c)
    i = randrange(c.rng, len(T.EXPLAINERS[c.lang]))
    p.prompt = T.EXPLAINER_PROMPTS[c.lang][i]
    p.content = T.EXPLAINERS[c.lang][i]
    return p


def _clean_tool_example(c: EventContext) -> ResponsePlan:
    p = _base(c)
    p.tools = True
    name = c.tool.name
    p.prompt = choice(c.rng, T.TOOL_EXAMPLE_PROMPTS[c.lang]).replace("{tool}", name)
    call = json.dumps({"name": name, "arguments": c.args()}, ensure_ascii=False, indent=2)
    before = choice(c.rng, T.TOOL_EXAMPLE_BEFORE[c.lang]).replace("{tool}", name)
    after = choice(c.rng, T.TOOL_EXAMPLE_AFTER[c.lang])
    p.content = f"{before}\n\n```json\n{call}\n```\n\n{after}"
    return p


def _clean_commentary(c: EventContext) -> ResponsePlan:
    """Commentary that the client does not render: not a leak."""
    p = _base(c)
    p.commentary = c.commentary()
    if c.rng.random() < 0.5:
        p.tools = True
        p.calls = [(c.tool.name, as_json(c.args()))]
        p.finish = "tool_calls"
    else:
        p.content = c.answer()
    return p


# -- leaks ---------------------------------------------------------------------------

_THINK_TAGS = {
    "qwen": ("<think>\n", "\n</think>\n\n", "</think>"),
    "r1": ("", "\n</think>\n\n", "</think>"),
    "kimi": ("◁think▷", "◁/think▷", "◁/think▷"),
    "claude": ("<thinking>\n", "\n</thinking>\n\n", "</thinking>"),
    "magistral": ("[THINK]", "[/THINK]", "[THINK]"),
}


def _think_tagged(c: EventContext) -> ResponsePlan:
    style = c.dep.think_style
    if style == "harmony":
        return _harmony_channels(c)
    p = ResponsePlan()
    if style == "r1" and c.rng.random() < 0.5:
        style = "qwen"  # R1-0528 prints both tags
    start, end, split = _THINK_TAGS[style]
    p.content = f"{start}{c.reasoning()}{end}{c.answer()}"
    p.split = split
    p.thinking = False if c.dep.api == "messages" else None
    p.labels = {BOUNDARY, REASONING}
    return p


def _r1_no_start(c: EventContext) -> ResponsePlan:
    p = ResponsePlan()
    p.content = f"{c.reasoning()}\n</think>\n\n{c.answer()}"
    p.split = "</think>"
    p.labels = {BOUNDARY, REASONING}
    return p


def _stop_think_leak(c: EventContext) -> ResponsePlan:
    """Streaming + stop: the tail of the reasoning and the end tag arrive as content."""
    p = ResponsePlan()
    p.stop = True
    r = c.reasoning()
    k = int(len(r) * c.rng.uniform(0.45, 0.85))
    while k < len(r) - 1 and not r[k:].strip():
        k -= 1
    p.reasoning, tail = r[:k], r[k:]
    p.content = f"{tail}</think>\n\n{c.answer()}"
    p.split = "</think>" if c.rng.random() < 0.6 else None
    p.labels = {BOUNDARY, REASONING}
    return p


def _empty_think(c: EventContext) -> ResponsePlan:
    p = ResponsePlan()
    lead = choice(c.rng, ("<think>\n\n</think>\n\n", "</think>\n\n", "<think></think>"))
    p.content = lead + c.answer()
    p.split = "</think>"
    p.labels = {BOUNDARY}
    return p


def _stray_token(c: EventContext) -> ResponsePlan:
    p = _base(c)
    a = c.answer()
    p.content = choice(
        c.rng,
        (
            a + "<|return|>",
            a + "<|end|>",
            "<|channel|>final<|message|>" + a,
            "<|start|>assistant<|channel|>final<|message|>" + a + "<|return|>",
        ),
    )
    p.split = "<|channel|>" if "<|channel|>" in p.content else None
    p.labels = {BOUNDARY}
    return p


def _harmony_channels(c: EventContext) -> ResponsePlan:
    p = ResponsePlan()
    tail = "<|return|>" if c.rng.random() < 0.4 else ""
    p.content = (
        f"<|channel|>analysis<|message|>{c.reasoning()}<|end|>"
        f"<|start|>assistant<|channel|>final<|message|>{c.answer()}{tail}"
    )
    p.split = choice(c.rng, ("<|channel|>", "<|message|>", "<|end|>"))
    p.labels = {BOUNDARY, REASONING}
    return p


def _untagged_reasoning(c: EventContext) -> ResponsePlan:
    p = ResponsePlan()
    p.content = f"{c.reasoning()}\n\n{c.answer()}"
    p.labels = {REASONING}
    return p


def _tool_markup(c: EventContext, style: str) -> tuple[str, set[str]]:
    name, args = c.tool.name, c.args()
    rng = c.rng
    if style == "hermes":
        return f"<tool_call>\n{as_json({'name': name, 'arguments': args})}\n</tool_call>", {
            TOOL_TEXT
        }
    if style == "qwen_xml":
        params = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in args.items())
        return f"<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>", {TOOL_TEXT}
    if style == "mistral":
        if rng.random() < 0.5:
            return f"[TOOL_CALLS]{name}[ARGS]{as_json(args)}", {TOOL_TEXT}
        return f"[TOOL_CALLS][{as_json({'name': name, 'arguments': args})}]", {TOOL_TEXT}
    if style == "llama":
        body = as_json({"name": name, "parameters": args})
        return ("<|python_tag|>" + body if rng.random() < 0.5 else body), {TOOL_TEXT}
    if style == "harmony":
        return (
            f"<|channel|>commentary to=functions.{name} <|constrain|>json"
            f"<|message|>{as_json(args)}<|call|>",
            {TOOL_TEXT, BOUNDARY},
        )
    # bare JSON call, optionally alone in one fence
    body = json.dumps({"name": name, "arguments": args}, ensure_ascii=False, indent=2)
    return (f"```json\n{body}\n```" if rng.random() < 0.5 else body), {TOOL_TEXT}


def _tool_text(c: EventContext) -> ResponsePlan:
    p = ResponsePlan()
    p.tools = True
    p.content, p.labels = _tool_markup(c, c.dep.tool_style or "json")
    p.split = {"hermes": "<tool_call>", "qwen_xml": "<tool_call>", "mistral": "[TOOL_CALLS]"}.get(
        c.dep.tool_style or ""
    )
    if c.dep.api == "messages":
        p.thinking = False
    return p


def _tool_args_invalid(c: EventContext) -> ResponsePlan:
    p = _base(c)
    if p.reasoning and not c.dep.omitted_thinking:
        p.reasoning = c.reasoning(short=True)
    p.tools = True
    p.finish = "tool_calls"
    args = c.args()
    kinds = ["unknown", "schema", "schema"]
    if c.dep.api != "messages":  # Messages tool_use input is always an object
        kinds += ["not_json", "not_object"]
    kind = choice(c.rng, kinds)
    name = c.tool.name
    if kind == "unknown":
        name, text = c.tool.alias, as_json(args)
    elif kind == "schema":
        how = randrange(c.rng, 3)
        bad = dict(args)
        if how == 0:
            bad.pop(c.tool.parameters["required"][0])
        elif how == 1:
            bad[c.tool.bad[0]] = c.tool.bad[1]
        else:
            bad["note"] = "urgent"
        text = as_json(bad)
    elif kind == "not_json":
        full = as_json(args)
        text = choice(
            c.rng,
            (
                full[: max(1, len(full) - randint(c.rng, 1, 6))],
                ", ".join(f"{k}={v}" for k, v in args.items()),
                str(args),
            ),
        )
    else:
        text = as_json(list(args.values()) if c.rng.random() < 0.5 else next(iter(args.values())))
    p.calls = [(name, text)]
    p.labels = {TOOL_ARGS}
    # a strict tool's arguments follow its schema: only tools sent without strict break it
    p.strict = choice(c.rng, ("none", "some", None))
    return p


def _preamble(c: EventContext) -> ResponsePlan:
    p = _base(c)
    p.tools = c.dep.has_tools and c.rng.random() < 0.5
    sep = choice(c.rng, ("\n\n", c.joiner or "", c.joiner or "\n"))
    p.content = c.preamble() + sep + c.answer()
    p.labels = {PREAMBLE}
    return p


def _structured_invalid(c: EventContext) -> ResponsePlan:
    p = _base(c)
    p.structured = "json_schema" if c.rng.random() < 0.75 else "json_object"
    obj = c.json_output()
    kinds = ["fence", "prefix", "suffix"]
    if p.structured == "json_schema":
        kinds += ["wrong", "wrong"]
    if not p.reasoning:
        kinds.append("empty")
    kind = choice(c.rng, kinds)
    if kind == "fence":
        p.content = f"```json\n{c.json_text(obj)}\n```"
    elif kind == "prefix":
        p.content = choice(c.rng, T.JSON_PREFIXES[c.lang]) + c.json_text(obj)
    elif kind == "suffix":
        p.content = c.json_text(obj) + choice(c.rng, T.JSON_SUFFIXES[c.lang])
    elif kind == "wrong":
        p.content = c.json_text(_break_object(c.rng, obj))
    else:
        p.content = choice(c.rng, (None, ""))
    p.labels = {STRUCTURED}
    return p


def _break_object(rng: random.Random, obj: dict[str, Any]) -> dict[str, Any]:
    """Make a schema-valid object invalid: drop, rename or retype one required field."""
    bad = dict(obj)
    key = choice(rng, list(bad))
    how = randrange(rng, 3)
    if how == 0:
        del bad[key]
    elif how == 1:
        parts = key.split("_")
        new = parts[0] + "".join(p.title() for p in parts[1:]) if len(parts) > 1 else key + "_name"
        bad[new] = bad.pop(key)
    else:
        value = bad[key]
        if isinstance(value, bool):
            bad[key] = "yes" if value else "no"
        elif isinstance(value, (int, float)):
            bad[key] = str(value)
        elif isinstance(value, list):
            bad[key] = ", ".join(map(str, value))
        else:
            bad[key] = None
    return bad


def _structured_think(c: EventContext) -> ResponsePlan:
    """The end of reasoning was missed, so the grammar never applied: think block + JSON."""
    p = ResponsePlan()
    p.structured = "json_schema"
    p.content = f"<think>\n{c.reasoning()}\n</think>\n\n{c.json_text(c.json_output())}"
    p.split = "</think>"
    p.labels = {BOUNDARY, REASONING, STRUCTURED}
    return p


def _structured_in_reasoning(c: EventContext) -> ResponsePlan:
    """Constrained JSON went into the reasoning field; content is empty."""
    p = ResponsePlan()
    p.structured = "json_schema"
    p.content = choice(c.rng, (None, ""))
    body = c.json_text(c.json_output())
    p.reasoning = body if c.rng.random() < 0.5 else f"{c.reasoning()}\n{body}"
    p.labels = {FINAL_IN_REASONING, STRUCTURED}
    return p


def _structured_field_reasoning(c: EventContext) -> ResponsePlan:
    """Thinking on with a json_schema grammar: the grammar masks the thinking block, so the
    reasoning lands in the first plain string field (or a retry's error is echoed there)."""
    p = ResponsePlan()
    p.structured = "json_schema"
    if c.dep.api == "chat.completions":
        p.thinking_kwarg = True
    elif c.dep.api == "messages":
        p.thinking = True
    obj = c.json_output()
    props = SCHEMAS[c.topic]["properties"]
    plain = [k for k in obj if props.get(k) == {"type": "string"}]
    key = plain[0] if plain else next(k for k in obj if props.get(k, {}).get("type") == "string")
    obj[key] = choice(c.rng, T.FIELD_REASONING[c.lang])
    p.content = c.json_text(obj)
    p.labels = {REASONING}
    if not plain:  # only a patterned string field: the reasoning also breaks the schema
        p.labels.add(STRUCTURED)
    return p


def _reasoning_slot(c: EventContext) -> ResponsePlan:
    """In-schema CoT used wrongly: the answer comes first, or a slot overruns maxLength."""
    p = _base(c)
    p.structured = "json_schema"
    p.schema = COT_SCHEMA
    p.thinking_kwarg = False
    p.reasoning = ""  # thinking is off: the reasoning is in the slots
    p.labels = {SLOT}
    if c.rng.random() < 0.6:
        obj = _cot_answer(c, answer_first=True)
    else:
        obj = _cot_answer(c)
        goal = obj["user_goal"]
        while len(goal) <= 120:
            goal = f"{goal} {choice(c.rng, T.COT_EVIDENCE[c.lang])}"
        obj["user_goal"] = goal
        p.labels.add(STRUCTURED)
    p.content = c.json_text(obj)
    return p


def _history_mismatch(c: EventContext) -> ResponsePlan:
    """A follow-up whose history breaks the family's template: the tool-call turn's
    reasoning is not passed back, or an earlier finished turn's reasoning is."""
    p = _base(c)
    p.tools = True
    p.followup = True
    model = c.dep.model.lower()
    if "deepseek-r1" in model or (
        "gpt-oss" in model and c.dep.api == "chat.completions" and c.rng.random() < 0.5
    ):
        p.history = "resent"
    else:
        p.history = "missing"
        if c.dep.api == "messages":
            p.thinking = True
    p.content = c.answer()
    p.labels = {HISTORY}
    return p


def _truncated(c: EventContext) -> ResponsePlan:
    p = ResponsePlan()
    p.finish = "length"
    p.labels = {TRUNCATED}
    p.structured = "json_schema" if c.rng.random() < 0.3 else None
    if p.structured:
        p.labels.add(STRUCTURED)
    thinks = c.dep.thinks
    if thinks and c.dep.api == "messages":
        p.thinking = True
    in_reasoning = thinks and c.rng.random() < 0.6
    if in_reasoning:
        # ran out of tokens while still reasoning: no content at all
        p.reasoning = "" if c.dep.omitted_thinking else c.cut(c.reasoning())
        p.content = None
    else:
        if thinks and not c.dep.omitted_thinking:
            p.reasoning = c.reasoning()
        full = c.json_text(c.json_output()) if p.structured else c.answer()
        p.content = c.cut(full)
    return p


def _final_in_reasoning(c: EventContext) -> ResponsePlan:
    p = ResponsePlan()
    a = c.answer()
    p.reasoning = a if (not c.dep.thinks or c.rng.random() < 0.5) else f"{c.reasoning()}\n\n{a}"
    p.content = choice(c.rng, (None, ""))
    p.labels = {FINAL_IN_REASONING}
    return p


def _commentary(c: EventContext) -> ResponsePlan:
    p = _base(c)
    p.commentary = c.commentary()
    p.labels = {COMMENTARY}
    if c.rng.random() < 0.5:
        p.tools = True
        p.calls = [(c.tool.name, as_json(c.args()))]
        p.finish = "tool_calls"
    else:
        # rendered commentary now opens the visible text of a final answer
        p.content = c.answer()
        p.labels.add(PREAMBLE)
    return p


def _mixed_chunk(c: EventContext) -> ResponsePlan:
    p = ResponsePlan()
    p.reasoning = c.reasoning()
    p.content = c.answer()
    p.mixed = True
    p.labels = {MIXED}
    return p


_LEAK_SCENARIOS: dict[str, Callable[[EventContext], ResponsePlan]] = {
    "think_tagged": _think_tagged,
    "r1_no_start": _r1_no_start,
    "stop_think_leak": _stop_think_leak,
    "empty_think": _empty_think,
    "stray_token": _stray_token,
    "harmony_channels": _harmony_channels,
    "untagged_reasoning": _untagged_reasoning,
    "tool_text": _tool_text,
    "tool_args_invalid": _tool_args_invalid,
    "preamble": _preamble,
    "structured_invalid": _structured_invalid,
    "structured_think": _structured_think,
    "structured_in_reasoning": _structured_in_reasoning,
    "truncated": _truncated,
    "final_in_reasoning": _final_in_reasoning,
    "commentary": _commentary,
    "mixed_chunk": _mixed_chunk,
    "structured_field_reasoning": _structured_field_reasoning,
    "reasoning_slot": _reasoning_slot,
    "history_mismatch": _history_mismatch,
}
# leaks that only exist in a stream (a stop buffer out of sync, fields mixed in one chunk)
_STREAM_ONLY = frozenset({"stop_think_leak", "mixed_chunk"})

_CLEAN_SCENARIOS: dict[str, Callable[[EventContext], ResponsePlan]] = {
    "clean_answer": _clean_answer,
    "clean_tool_call": _clean_tool_call,
    "clean_followup": _clean_followup,
    "clean_structured": _clean_structured,
    "clean_explainer": _clean_explainer,
    "clean_tool_example": _clean_tool_example,
    "clean_commentary": _clean_commentary,
    "clean_cot": _clean_cot,
}


def _clean_weights(dep: Deployment) -> list[tuple[str, float]]:
    w: list[tuple[str, float]] = [
        ("clean_answer", 50),
        ("clean_structured", 10),
        ("clean_explainer", 2),
    ]
    if dep.api == "chat.completions":
        w.append(("clean_cot", 2))
    if dep.has_tools:
        w += [("clean_tool_call", 14), ("clean_followup", 8), ("clean_tool_example", 1.5)]
    if dep.api == "responses" and dep.phases and dep.renders_phases is not True:
        w.append(("clean_commentary", 10))
    return w


class _Table:
    """Scenario names with their weights; ``pick`` draws one."""

    __slots__ = ("names", "cum")

    def __init__(self, pairs: list[tuple[str, float]]) -> None:
        self.names = [n for n, _ in pairs]
        self.cum = cumulative([w for _, w in pairs])

    def pick(self, rng: random.Random) -> str:
        return str(pick_weighted(rng, self.names, self.cum))


_CLEAN_TABLES = {d.key: _Table(_clean_weights(d)) for d in DEPLOYMENTS}
_LEAK_TABLES = {
    (d.key, stream): _Table([(n, w) for n, w in d.profile if stream or n not in _STREAM_ONLY])
    for d in DEPLOYMENTS
    for stream in (False, True)
}


def plan_response(
    c: EventContext, *, leak: bool, answer_chars: tuple[int, int] | None
) -> ResponsePlan:
    """Draw a scenario for the event and plan its response.

    ``leak`` draws from the deployment's leak profile (streaming-only scenarios only for a
    streamed event), else from its clean weights. ``answer_chars`` lengthens clean
    free-text answers (see ``Mix.answer_chars``).
    """
    if leak:
        return _LEAK_SCENARIOS[_LEAK_TABLES[(c.dep.key, c.stream)].pick(c.rng)](c)
    scenario = _CLEAN_TABLES[c.dep.key].pick(c.rng)
    plan = _CLEAN_SCENARIOS[scenario](c)
    if answer_chars is not None and scenario == "clean_answer" and plan.content:
        plan.content = _lengthen(c, plan.content, answer_chars)
    return plan


def _lengthen(c: EventContext, text: str, chars: tuple[int, int]) -> str:
    """``text`` followed by more clean answers of its language, to a log-uniform length."""
    lo, hi = (math.log(n) for n in chars)
    target = int(math.exp(lo + (hi - lo) * c.rng.random()))
    parts = [text]
    size = len(text)
    while size < target:
        more = c.answer()
        parts.append(more)
        size += len(more) + 2
    return "\n\n".join(parts)
