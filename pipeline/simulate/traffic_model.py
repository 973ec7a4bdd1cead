"""Synthetic gateway traffic for ``leakline simulate`` and ``leakline demo``.

``simulate`` yields gateway events v1 (``pipeline/schemas/gateway_event.v1.json``) from a
fleet of deployments, each a fixed combination of engine, model, chat template, parsers,
API and client behaviour with its own leak profile. Every event comes with the labels it
was *designed* to carry, following ``detectors/LABELS.md``, so the simulator doubles as a
labelled corpus for end-to-end checks of the detectors and the pipeline.

``malformed_payloads`` returns payloads that must be dead-lettered, and
``simulate_payloads`` interleaves them with encoded events according to
``Mix.malformed_ratio`` (what a producer publishes to the events topic).

Pure Python, standard library only, deterministic for a given seed.
"""

from __future__ import annotations

import json
import math
import random
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cached_property
from hashlib import sha256
from itertools import accumulate
from typing import Any

from leakline.pipeline.core.gc_pause import paused_gc
from leakline.pipeline.simulate import texts as T

__all__ = [
    "DEFAULT_START",
    "DEPLOYMENTS",
    "MALFORMED_KINDS",
    "Deployment",
    "Mix",
    "Payload",
    "SimulatedEvent",
    "deployment_table",
    "encode_event",
    "malformed_cases",
    "malformed_payloads",
    "simulate",
    "simulate_payloads",
]

DEFAULT_START = datetime(2026, 11, 1, tzinfo=UTC)
# mean spacing between events when no rate is given
_DEFAULT_MEAN_GAP_S = 0.25

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


# ============================================================================ public types


@dataclass(frozen=True)
class SimulatedEvent:
    event: dict[str, Any]
    expected_labels: tuple[str, ...]  # sorted


@dataclass(frozen=True)
class Mix:
    """The traffic mix. Languages are drawn uniformly from ``languages`` (repeat one to
    weight it). ``malformed_ratio`` only applies to ``simulate_payloads``."""

    leak_ratio: float = 0.3  # share of events designed to leak
    stream_ratio: float = 0.4  # share streamed
    languages: tuple[str, ...] = ("en", "ko", "zh")
    malformed_ratio: float = 0.0  # share of malformed payloads (simulate_payloads only)
    # (min, max) characters for clean free-text answers: more answer paragraphs of the same
    # language are appended up to a length drawn log-uniformly from the range (production
    # sizes; JSON answers and designed leaks keep their length). None: the short answers.
    answer_chars: tuple[int, int] | None = None


# What production traffic looks like to the benchmarks: few leaks, answers of 0.5-8 KB.
PRODUCTION_MIX = Mix(leak_ratio=0.05, stream_ratio=0.4, answer_chars=(512, 8192))


@dataclass(frozen=True)
class Payload:
    """One message for the events topic. ``expected_labels`` is None for a malformed
    payload, which the pipeline must dead-letter."""

    key: bytes | None
    value: bytes
    expected_labels: tuple[str, ...] | None


@dataclass(frozen=True)
class Deployment:
    """One serving stack as the gateway sees it, plus its designed leak profile.

    ``think_style`` names the delimiters its reasoning uses when it leaks, ``tool_style``
    the markup of a tool call printed as text. ``leakiness`` scales how often the
    deployment is picked for a leaking event relative to its ``traffic``; ``profile``
    weighs the leak scenarios it produces.
    """

    key: str
    api: str
    engine: str
    engine_version: str | None
    model: str
    revision: str | None
    template: str | None
    reasoning_parser: str | None
    tool_parser: str | None
    reasoning_field: str | None  # field the engine fills (chat.completions)
    thinks: bool  # produces separated reasoning on clean answers
    think_style: str  # qwen | r1 | kimi | harmony | claude | magistral
    tool_style: str | None  # hermes | qwen_xml | mistral | llama | harmony | json
    traffic: float
    leakiness: float
    profile: tuple[tuple[str, float], ...]
    renders_phases: bool | None = None
    phases: bool = False  # Responses: the API labels message items with a phase
    gateway_version: str = "1.80.2"
    remediation: bool = False  # the gateway runs a remediation callback
    request_extra: tuple[tuple[str, Any], ...] = ()
    omitted_thinking: bool = False  # Messages: thinking display "omitted"

    @cached_property
    def has_tools(self) -> bool:
        return self.tool_parser is not None or self.engine in ("openai", "anthropic")

    @cached_property
    def template_hash(self) -> str | None:
        if self.template is None:
            return None
        return "sha256:" + sha256(f"{self.model}|{self.template}".encode()).hexdigest()[:16]


def _rev(model: str, tag: str) -> str:
    return sha256(f"{model}@{tag}".encode()).hexdigest()[:12]


# ============================================================================ the fleet

DEPLOYMENTS: tuple[Deployment, ...] = (
    # Older vLLM: streaming with `stop` desynchronises the stop buffer and the parser,
    # so the tail of the reasoning and `</think>` land in content.
    Deployment(
        key="vllm-0.30.2/qwen3-32b",
        api="chat.completions",
        engine="vllm",
        engine_version="0.30.2",
        model="Qwen/Qwen3-32B",
        revision=_rev("Qwen3-32B", "a"),
        template="qwen3_chat.jinja",
        reasoning_parser="qwen3",
        tool_parser="hermes",
        reasoning_field="reasoning",
        thinks=True,
        think_style="qwen",
        tool_style="hermes",
        traffic=10,
        leakiness=1.6,
        profile=(
            ("stop_think_leak", 6),
            ("think_tagged", 1),
            ("tool_text", 1.5),
            ("preamble", 1),
            ("truncated", 1),
            ("structured_invalid", 0.7),
            ("empty_think", 0.6),
        ),
        gateway_version="1.79.3",
    ),
    # Same model on the newer release: the streaming + stop leak is mostly gone.
    Deployment(
        key="vllm-0.31.0/qwen3-32b",
        api="chat.completions",
        engine="vllm",
        engine_version="0.31.0",
        model="Qwen/Qwen3-32B",
        revision=_rev("Qwen3-32B", "a"),
        template="qwen3_chat.jinja",
        reasoning_parser="qwen3",
        tool_parser="hermes",
        reasoning_field="reasoning",
        thinks=True,
        think_style="qwen",
        tool_style="hermes",
        traffic=12,
        leakiness=0.45,
        profile=(
            ("preamble", 2),
            ("truncated", 1.5),
            ("tool_text", 0.5),
            ("structured_in_reasoning", 0.6),
            ("structured_invalid", 0.5),
            ("stop_think_leak", 0.3),
        ),
        remediation=True,
    ),
    # Parser family mismatch: Qwen3 with thinking off behind the deepseek_r1 parser puts
    # the whole answer into the reasoning field.
    Deployment(
        key="vllm-0.31.0/qwen3-8b",
        api="chat.completions",
        engine="vllm",
        engine_version="0.31.0",
        model="Qwen/Qwen3-8B",
        revision=_rev("Qwen3-8B", "b"),
        template="qwen3_chat.jinja",
        reasoning_parser="deepseek_r1",
        tool_parser="hermes",
        reasoning_field="reasoning",
        thinks=False,
        think_style="qwen",
        tool_style="hermes",
        traffic=3,
        leakiness=2.5,
        profile=(("final_in_reasoning", 6), ("truncated", 0.5), ("preamble", 0.5)),
        request_extra=(("chat_template_kwargs", {"enable_thinking": False}),),
    ),
    # Tool-call parser without a reasoning parser: `</think>` is consumed and the
    # reasoning runs into content with no delimiter at all.
    Deployment(
        key="vllm-0.30.2/qwen3-30b-a3b",
        api="chat.completions",
        engine="vllm",
        engine_version="0.30.2",
        model="Qwen/Qwen3-30B-A3B",
        revision=_rev("Qwen3-30B-A3B", "c"),
        template="qwen3_chat.jinja",
        reasoning_parser=None,
        tool_parser="qwen3_xml",
        reasoning_field=None,
        thinks=False,
        think_style="qwen",
        tool_style="qwen_xml",
        traffic=4,
        leakiness=2.2,
        profile=(("untagged_reasoning", 5), ("tool_text", 1), ("truncated", 0.5)),
        gateway_version="1.79.3",
    ),
    Deployment(
        key="vllm-0.31.0/qwen3-coder-30b",
        api="chat.completions",
        engine="vllm",
        engine_version="0.31.0",
        model="Qwen/Qwen3-Coder-30B-A3B-Instruct",
        revision=_rev("Qwen3-Coder", "d"),
        template="qwen3_coder.jinja",
        reasoning_parser=None,
        tool_parser="qwen3_xml",
        reasoning_field=None,
        thinks=False,
        think_style="qwen",
        tool_style="qwen_xml",
        traffic=6,
        leakiness=1.0,
        profile=(
            ("tool_text", 3),
            ("tool_args_invalid", 2),
            ("structured_invalid", 1),
            ("preamble", 1),
        ),
        remediation=True,
    ),
    # R1 starts reasoning without an opening tag; its parser also fills reasoning and
    # content in the same stream chunk.
    Deployment(
        key="vllm-0.30.2/deepseek-r1",
        api="chat.completions",
        engine="vllm",
        engine_version="0.30.2",
        model="deepseek-ai/DeepSeek-R1",
        revision=_rev("DeepSeek-R1", "e"),
        template="deepseek_r1.jinja",
        reasoning_parser="deepseek_r1",
        tool_parser=None,
        reasoning_field="reasoning",
        thinks=True,
        think_style="r1",
        tool_style=None,
        traffic=5,
        leakiness=1.4,
        profile=(
            ("r1_no_start", 3),
            ("think_tagged", 0.5),
            ("mixed_chunk", 2),
            ("truncated", 2.5),
            ("preamble", 0.3),
        ),
        gateway_version="1.79.3",
    ),
    Deployment(
        key="vllm-0.31.0/deepseek-v3.1",
        api="chat.completions",
        engine="vllm",
        engine_version="0.31.0",
        model="deepseek-ai/DeepSeek-V3.1",
        revision=_rev("DeepSeek-V3.1", "f"),
        template="deepseek_v31.jinja",
        reasoning_parser="deepseek_v3",
        tool_parser="deepseek_v31",
        reasoning_field="reasoning",
        thinks=True,
        think_style="qwen",
        tool_style=None,
        traffic=5,
        leakiness=1.0,
        profile=(
            ("structured_think", 2),
            ("structured_invalid", 2),
            ("tool_args_invalid", 1.5),
            ("mixed_chunk", 1),
            ("think_tagged", 0.5),
        ),
        request_extra=(("chat_template_kwargs", {"thinking": True}),),
        remediation=True,
    ),
    Deployment(
        key="vllm-0.31.0/gpt-oss-120b",
        api="chat.completions",
        engine="vllm",
        engine_version="0.31.0",
        model="openai/gpt-oss-120b",
        revision=_rev("gpt-oss-120b", "g"),
        template="harmony",
        reasoning_parser="openai_gptoss",
        tool_parser="openai",
        reasoning_field="reasoning",
        thinks=True,
        think_style="harmony",
        tool_style="harmony",
        traffic=7,
        leakiness=1.2,
        profile=(
            ("harmony_channels", 2),
            ("stray_token", 2),
            ("tool_text", 1.5),
            ("tool_args_invalid", 1),
            ("truncated", 1),
        ),
        remediation=True,
    ),
    Deployment(
        key="vllm-0.31.0/gpt-oss-120b-responses",
        api="responses",
        engine="vllm",
        engine_version="0.31.0",
        model="openai/gpt-oss-120b",
        revision=_rev("gpt-oss-120b", "g"),
        template="harmony",
        reasoning_parser="openai_gptoss",
        tool_parser="openai",
        reasoning_field="reasoning",
        thinks=True,
        think_style="harmony",
        tool_style="harmony",
        traffic=3,
        leakiness=0.8,
        profile=(
            ("final_in_reasoning", 2),
            ("truncated", 2),
            ("harmony_channels", 1),
            ("stray_token", 1),
        ),
        renders_phases=False,
    ),
    Deployment(
        key="vllm-0.30.2/kimi-k2-thinking",
        api="chat.completions",
        engine="vllm",
        engine_version="0.30.2",
        model="moonshotai/Kimi-K2-Thinking",
        revision=_rev("Kimi-K2-Thinking", "h"),
        template="kimi_k2_thinking.jinja",
        reasoning_parser="kimi_k2",
        tool_parser="kimi_k2",
        reasoning_field="reasoning",
        thinks=True,
        think_style="kimi",
        tool_style=None,
        traffic=5,
        leakiness=1.1,
        profile=(("think_tagged", 2), ("tool_args_invalid", 2.5), ("truncated", 1)),
        gateway_version="1.79.3",
    ),
    Deployment(
        key="vllm-0.31.0/glm-4.5",
        api="chat.completions",
        engine="vllm",
        engine_version="0.31.0",
        model="zai-org/GLM-4.5",
        revision=_rev("GLM-4.5", "i"),
        template="glm45.jinja",
        reasoning_parser="glm45",
        tool_parser="glm45",
        reasoning_field="reasoning",
        thinks=True,
        think_style="qwen",
        tool_style=None,
        traffic=4,
        leakiness=0.7,
        profile=(("preamble", 3), ("think_tagged", 1), ("empty_think", 1), ("truncated", 0.5)),
    ),
    # The append_think parser keeps the think block inside content by design.
    Deployment(
        key="vllm-0.31.0/minimax-m2",
        api="chat.completions",
        engine="vllm",
        engine_version="0.31.0",
        model="MiniMaxAI/MiniMax-M2",
        revision=_rev("MiniMax-M2", "j"),
        template="minimax_m2.jinja",
        reasoning_parser="minimax_m2_append_think",
        tool_parser="minimax_m2",
        reasoning_field="reasoning",
        thinks=False,
        think_style="qwen",
        tool_style=None,
        traffic=3,
        leakiness=5.0,
        profile=(("think_tagged", 8), ("preamble", 0.5)),
    ),
    # SGLang still names the field reasoning_content and often mixes fields in a chunk.
    Deployment(
        key="sglang-0.5.4/qwen3-32b",
        api="chat.completions",
        engine="sglang",
        engine_version="0.5.4",
        model="Qwen/Qwen3-32B",
        revision=_rev("Qwen3-32B", "a"),
        template="qwen3_chat.jinja",
        reasoning_parser="qwen3",
        tool_parser="qwen25",
        reasoning_field="reasoning_content",
        thinks=True,
        think_style="qwen",
        tool_style="hermes",
        traffic=6,
        leakiness=1.0,
        profile=(("mixed_chunk", 4), ("preamble", 1), ("truncated", 1), ("tool_text", 0.5)),
    ),
    Deployment(
        key="vllm-0.30.2/magistral-small",
        api="chat.completions",
        engine="vllm",
        engine_version="0.30.2",
        model="mistralai/Magistral-Small-2509",
        revision=_rev("Magistral-Small-2509", "k"),
        template="mistral_tekken",
        reasoning_parser="mistral",
        tool_parser="mistral",
        reasoning_field="reasoning",
        thinks=True,
        think_style="magistral",
        tool_style="mistral",
        traffic=3,
        leakiness=1.3,
        profile=(("tool_text", 4), ("think_tagged", 1.5), ("preamble", 0.5)),
        gateway_version="1.79.3",
    ),
    Deployment(
        key="vllm-0.31.0/llama-3.3-70b",
        api="chat.completions",
        engine="vllm",
        engine_version="0.31.0",
        model="meta-llama/Llama-3.3-70B-Instruct",
        revision=_rev("Llama-3.3-70B", "l"),
        template="llama3.3_json_tools.jinja",
        reasoning_parser=None,
        tool_parser="llama3_json",
        reasoning_field=None,
        thinks=False,
        think_style="qwen",
        tool_style="llama",
        traffic=5,
        leakiness=0.9,
        profile=(("tool_text", 3), ("preamble", 2), ("truncated", 0.5), ("structured_invalid", 1)),
    ),
    # Managed APIs. A web client that renders every message item shows commentary.
    Deployment(
        key="openai/gpt-5.4-web",
        api="responses",
        engine="openai",
        engine_version=None,
        model="gpt-5.4",
        revision="gpt-5.4-2026-03-05",
        template=None,
        reasoning_parser=None,
        tool_parser=None,
        reasoning_field=None,
        thinks=True,
        think_style="harmony",
        tool_style=None,
        traffic=8,
        leakiness=0.9,
        profile=(
            ("commentary", 5),
            ("preamble", 0.5),
            ("structured_invalid", 0.5),
            ("truncated", 0.5),
            ("tool_args_invalid", 0.3),
        ),
        renders_phases=True,
        phases=True,
    ),
    Deployment(
        key="openai/gpt-5.4-agent",
        api="responses",
        engine="openai",
        engine_version=None,
        model="gpt-5.4",
        revision="gpt-5.4-2026-03-05",
        template=None,
        reasoning_parser=None,
        tool_parser=None,
        reasoning_field=None,
        thinks=True,
        think_style="harmony",
        tool_style=None,
        traffic=6,
        leakiness=0.25,
        profile=(("truncated", 1), ("structured_invalid", 1), ("tool_args_invalid", 0.5)),
        renders_phases=False,
        phases=True,
    ),
    Deployment(
        key="anthropic/claude-sonnet-4.5",
        api="messages",
        engine="anthropic",
        engine_version=None,
        model="claude-sonnet-4-5",
        revision="claude-sonnet-4-5-20250929",
        template=None,
        reasoning_parser=None,
        tool_parser=None,
        reasoning_field=None,
        thinks=True,
        think_style="claude",
        tool_style="json",
        traffic=6,
        leakiness=0.4,
        profile=(
            ("preamble", 2),
            ("truncated", 1),
            ("tool_args_invalid", 0.5),
            ("structured_invalid", 0.3),
        ),
    ),
    # With thinking switched off this model sometimes writes its thinking inline.
    Deployment(
        key="anthropic/claude-opus-5",
        api="messages",
        engine="anthropic",
        engine_version=None,
        model="claude-opus-5",
        revision="claude-opus-5",
        template=None,
        reasoning_parser=None,
        tool_parser=None,
        reasoning_field=None,
        thinks=True,
        think_style="claude",
        tool_style="json",
        traffic=4,
        leakiness=0.7,
        profile=(("think_tagged", 2), ("tool_text", 1), ("preamble", 1), ("truncated", 0.5)),
        omitted_thinking=True,
    ),
)


def deployment_table() -> list[dict[str, Any]]:
    """The fleet as plain rows (for docs and the CLI)."""
    total_traffic = sum(d.traffic for d in DEPLOYMENTS)
    return [
        {
            "key": d.key,
            "api": d.api,
            "engine": d.engine,
            "engine_version": d.engine_version,
            "model": d.model,
            "reasoning_parser": d.reasoning_parser,
            "tool_parser": d.tool_parser,
            "traffic_share": round(d.traffic / total_traffic, 4),
            "leakiness": d.leakiness,
            "profile": dict(d.profile),
        }
        for d in DEPLOYMENTS
    ]


# ============================================================================ tools and schemas


@dataclass(frozen=True)
class _Tool:
    name: str
    description: str
    parameters: dict[str, Any]
    alias: str  # a plausible name that is never declared
    args: Callable[[dict[str, Any]], dict[str, Any]]
    bad: tuple[str, Any]  # (key, value) that breaks the schema


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


_S = {"type": "string"}
_TOOLS: dict[str, _Tool] = {
    "weather": _Tool(
        "get_weather",
        "Current conditions and forecast for a city.",
        _obj({"city": _S, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, ["city"]),
        "weather_lookup",
        lambda v: {"city": v["city"], "unit": "celsius"},
        ("unit", "kelvin"),
    ),
    "code": _Tool(
        "search_docs",
        "Search the engineering documentation.",
        _obj({"query": _S, "top_k": {"type": "integer", "minimum": 1, "maximum": 20}}, ["query"]),
        "web_search",
        lambda v: {"query": f"{v['err']} {v['fn']} {v['code_lang']}", "top_k": 5},
        ("top_k", "five"),
    ),
    "finance": _Tool(
        "get_stock_quote",
        "Latest quote for a ticker symbol.",
        _obj({"symbol": _S}, ["symbol"]),
        "stock_price",
        lambda v: {"symbol": v["symbol"]},
        ("symbol", 1234),
    ),
    "travel": _Tool(
        "search_flights",
        "Search flights between two cities on a date.",
        _obj(
            {
                "origin": _S,
                "destination": _S,
                "date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
            },
            ["origin", "destination", "date"],
        ),
        "find_flights",
        lambda v: {"origin": v["origin"], "destination": v["dest"], "date": v["date"]},
        ("date", 20261214),
    ),
    "cooking": _Tool(
        "find_recipes",
        "Find recipes for a dish.",
        _obj({"dish": _S, "max_minutes": {"type": "integer", "minimum": 5}}, ["dish"]),
        "recipe_search",
        lambda v: {"dish": v["dish"], "max_minutes": v["minutes"]},
        ("max_minutes", "about 30"),
    ),
    "hr": _Tool(
        "lookup_employee",
        "Look up an employee record by ID.",
        _obj({"employee_id": {"type": "string", "pattern": r"^E\d{5}$"}}, ["employee_id"]),
        "get_employee",
        lambda v: {"employee_id": v["emp_id"]},
        ("employee_id", "10423"),
    ),
    "math": _Tool(
        "calculate",
        "Evaluate an arithmetic expression.",
        _obj({"expression": _S}, ["expression"]),
        "calculator",
        lambda v: {"expression": f"({v['rhs']} - {v['c']}) / {v['m']}"},
        ("expression", 42),
    ),
}
_TOOL_LIST = tuple(_TOOLS.values())
_OTHER_TOOLS = {
    topic: tuple(t for t in _TOOL_LIST if t is not tool) for topic, tool in _TOOLS.items()
}

_SCHEMAS: dict[str, dict[str, Any]] = {
    "weather": _obj(
        {
            "city": _S,
            "high_c": {"type": "number"},
            "low_c": {"type": "number"},
            "condition": _S,
            "rain_chance": {"type": "integer", "minimum": 0, "maximum": 100},
        },
        ["city", "high_c", "low_c", "condition", "rain_chance"],
    ),
    "code": _obj(
        {
            "language": _S,
            "verdict": {"type": "string", "enum": ["ok", "needs_changes"]},
            "issues": {"type": "array", "items": _S},
        },
        ["language", "verdict", "issues"],
    ),
    "finance": _obj(
        {
            "symbol": _S,
            "price": {"type": "number"},
            "currency": _S,
            "change_pct": {"type": "number"},
        },
        ["symbol", "price", "currency", "change_pct"],
    ),
    "travel": _obj(
        {
            "destination": _S,
            "days": {"type": "integer", "minimum": 1},
            "budget_usd": {"type": "number"},
            "highlights": {"type": "array", "items": _S},
        },
        ["destination", "days", "budget_usd", "highlights"],
    ),
    "cooking": _obj(
        {
            "dish": _S,
            "servings": {"type": "integer"},
            "minutes": {"type": "integer"},
            "ingredients": {"type": "array", "items": _S},
        },
        ["dish", "servings", "minutes", "ingredients"],
    ),
    "hr": _obj(
        {
            "employee_id": {"type": "string", "pattern": r"^E\d{5}$"},
            "leave_days": {"type": "integer"},
            "approved": {"type": "boolean"},
        },
        ["employee_id", "leave_days", "approved"],
    ),
    "math": _obj({"answer": {"type": "number"}, "explanation": _S}, ["answer", "explanation"]),
}

_STOPS = (["Observation:"], ["\n\nUser:"], ["</answer>"], ["###"], ["\n\n\n"])


# ============================================================================ helpers


def _cum(weights: list[float]) -> list[float]:
    return list(accumulate(weights))


def _pick_weighted(rng: random.Random, items: list[Any], cum: list[float]) -> Any:
    return items[bisect_right(cum, rng.random() * cum[-1])]


def _ch(rng: random.Random, seq: Any) -> Any:
    """``rng.choice`` via ``rng.random()`` (faster, and stable across Python versions)."""
    return seq[int(rng.random() * len(seq))]


def _ri(rng: random.Random, a: int, b: int) -> int:
    return a + int(rng.random() * (b - a + 1))


def _rr(rng: random.Random, a: int, b: int | None = None, step: int = 1) -> int:
    if b is None:
        a, b = 0, a
    return a + step * int(rng.random() * ((b - a + step - 1) // step))


def _sample(rng: random.Random, seq: Any, k: int) -> list[Any]:
    pool = list(seq)
    return [pool.pop(int(rng.random() * len(pool))) for _ in range(k)]


def _hex(rng: random.Random, n: int = 24) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _tokens(text: str | None) -> int:
    return max(1, len(text) // 3) if text else 0


def _values(rng: random.Random, lang: str, topic: str) -> dict[str, Any]:
    def ch(seq: Any) -> Any:
        return seq[int(rng.random() * len(seq))]

    if topic == "weather":
        wet = rng.random() < 0.4
        high = _ri(rng, 6, 31)
        return {
            "city": ch(T.CITIES[lang]),
            "day": ch(T.DAYS[lang]),
            "cond": ch(T.CONDITIONS[lang][wet]),
            "advice": ch(T.RAIN_ADVICE[lang][wet]),
            "high": high,
            "low": high - _ri(rng, 4, 10),
            "rain": ch((55, 60, 70, 80, 90)) if wet else ch((0, 5, 10, 20, 30)),
            "wind": _ri(rng, 5, 25),
        }
    if topic == "code":
        return {
            "code_lang": ch(T.CODE_LANGS),
            "fn": ch(T.FUNCTIONS),
            "err": ch(T.ERRORS),
            "line": _ri(rng, 12, 480),
            "ms": ch((40, 85, 120, 250, 400, 900)),
        }
    if topic == "finance":
        symbol, ccy = ch(T.STOCKS)
        if ccy == "KRW":
            price: float = float(_rr(rng, 52000, 91000, 100))
        elif ccy == "JPY":
            price = float(_rr(rng, 2000, 3600, 5))
        else:
            price = round(rng.uniform(40, 900), 2)
        change = round(rng.uniform(-3.8, 3.8), 2) or 0.12
        return {
            "symbol": symbol,
            "ccy": ccy,
            "price_num": price,
            "price": f"{price:,.0f}" if ccy in ("KRW", "JPY") else f"{price:,.2f}",
            "change_num": change,
            "change": f"{change:+.2f}",
            "abs_change": f"{abs(change):.2f}",
            "move": T.MOVE_WORDS[lang][0 if change > 0 else 1],
        }
    if topic == "travel":
        return {
            "origin": ch(T.CITIES[lang]),
            "dest": ch(T.DESTINATIONS[lang]),
            "date": f"2026-12-{_ri(rng, 1, 28):02d}",
            "days": _ri(rng, 3, 10),
            "budget": _rr(rng, 1200, 4001, 50),
            "fare": _rr(rng, 180, 600, 10),
        }
    if topic == "cooking":
        ing1, ing2 = _sample(rng, T.INGREDIENTS[lang], 2)
        return {
            "dish": ch(T.DISHES[lang]),
            "servings": _ri(rng, 2, 6),
            "minutes": ch((20, 25, 30, 40, 45, 60, 75, 90)),
            "oven": ch((160, 175, 180, 190, 200, 220)),
            "ing1": ing1,
            "ing2": ing2,
        }
    if topic == "hr":
        leave = _ri(rng, 2, 10)
        return {
            "name": ch(T.NAMES[lang]),
            "dept": ch(T.DEPARTMENTS[lang]),
            "emp_id": f"E{_ri(rng, 10000, 99999)}",
            "leave": leave,
            "remaining": leave + _ri(rng, 0, 12),
            "weeks": _ri(rng, 2, 4),
        }
    # math
    x, m = _ri(rng, 2, 15), _ri(rng, 2, 9)
    c = _ri(rng, 1, 30)
    return {"x": x, "m": m, "c": c, "mx": m * x, "rhs": m * x + c}


def _json_output(rng: random.Random, lang: str, topic: str, v: dict[str, Any]) -> dict[str, Any]:
    """A value that passes ``_SCHEMAS[topic]``."""
    if topic == "weather":
        return {
            "city": v["city"],
            "high_c": v["high"],
            "low_c": v["low"],
            "condition": v["cond"],
            "rain_chance": v["rain"],
        }
    if topic == "code":
        return {
            "language": v["code_lang"],
            "verdict": "needs_changes",
            "issues": _sample(rng, T.CODE_ISSUES[lang], _ri(rng, 1, 3)),
        }
    if topic == "finance":
        return {
            "symbol": v["symbol"],
            "price": v["price_num"],
            "currency": v["ccy"],
            "change_pct": v["change_num"],
        }
    if topic == "travel":
        return {
            "destination": v["dest"],
            "days": v["days"],
            "budget_usd": v["budget"],
            "highlights": _sample(rng, T.HIGHLIGHTS[lang], 3),
        }
    if topic == "cooking":
        return {
            "dish": v["dish"],
            "servings": v["servings"],
            "minutes": v["minutes"],
            "ingredients": _sample(rng, T.INGREDIENTS[lang], _ri(rng, 3, 5)),
        }
    if topic == "hr":
        return {
            "employee_id": v["emp_id"],
            "leave_days": v["remaining"],
            "approved": v["leave"] <= v["remaining"],
        }
    return {"answer": v["x"], "explanation": T.MATH_EXPLANATIONS[lang].format_map(v)}


def _tool_result(rng: random.Random, lang: str, topic: str, v: dict[str, Any]) -> dict[str, Any]:
    if topic == "code":
        return {
            "results": [
                {
                    "title": f"Troubleshooting {v['err']} in {v['code_lang']}",
                    "url": f"https://docs.internal.example/{v['code_lang'].lower()}/{v['err'].lower()}",
                }
            ]
        }
    if topic == "travel":
        return {
            "flights": [
                {"date": v["date"], "price_usd": v["fare"], "stops": 0},
                {"date": v["date"], "price_usd": v["fare"] + _rr(rng, 40, 200, 10), "stops": 1},
            ]
        }
    if topic == "cooking":
        return {
            "recipes": [{"title": v["dish"], "minutes": v["minutes"], "servings": v["servings"]}]
        }
    if topic == "math":
        return {"result": v["x"]}
    if topic == "hr":
        return {"employee_id": v["emp_id"], "name": v["name"], "leave_remaining": v["remaining"]}
    return _json_output(rng, lang, topic, v)


def _break_object(rng: random.Random, obj: dict[str, Any]) -> dict[str, Any]:
    """Make a schema-valid object invalid: drop, rename or retype one required field."""
    bad = dict(obj)
    key = _ch(rng, list(bad))
    how = _rr(rng, 3)
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


# ============================================================================ per-event context


class _Ctx:
    __slots__ = (
        "rng",
        "dep",
        "lang",
        "topic",
        "v",
        "stream",
        "bank",
        "tool",
        "extra_tools",
        "joiner",
    )

    def __init__(
        self, rng: random.Random, dep: Deployment, lang: str, topic: str, stream: bool
    ) -> None:
        self.rng = rng
        self.dep = dep
        self.lang = lang
        self.topic = topic
        self.stream = stream
        self.v = _values(rng, lang, topic)
        self.bank = T.BANK[lang][topic]
        self.tool = _TOOLS[topic]
        self.extra_tools = tuple(_sample(rng, _OTHER_TOOLS[topic], _ch(rng, (0, 0, 1, 2))))
        self.joiner = T.JOINER[lang]

    def fmt(self, template: str) -> str:
        return template.format_map(self.v)

    def prompt(self) -> str:
        return self.fmt(_ch(self.rng, self.bank["prompts"]))

    def answer(self) -> str:
        rng, sents = self.rng, self.bank["answer"]
        lead = self.fmt(sents[_rr(rng, 2)])
        rest = sents[2:]
        picked = sorted(_sample(rng, range(len(rest)), _ri(rng, 1, min(3, len(rest)))))
        body = self.joiner.join(self.fmt(rest[i]) for i in picked)
        text = lead + ("\n\n" if rng.random() < 0.3 else self.joiner) + body
        if rng.random() < 0.3:
            text += "\n\n" + _ch(rng, T.CLOSERS[self.lang])
        return text

    def reasoning(self, short: bool = False) -> str:
        rng, sents = self.rng, self.bank["reasoning"]
        subject = self.fmt(_ch(rng, self.bank["subject"]))
        cue = _ch(rng, T.REASONING_CUES[self.lang]).replace("{subject}", subject)
        k = 1 if short else _ri(rng, 2, len(sents))
        picked = sorted(_sample(rng, range(len(sents)), k))
        parts = [cue] + [self.fmt(sents[i]) for i in picked]
        wrap = _ch(rng, T.REASONING_WRAPUPS[self.lang])
        if wrap and not short:
            parts.append(wrap)
        sep = "\n" if rng.random() < 0.25 else self.joiner
        return sep.join(parts)

    def preamble(self) -> str:
        if self.rng.random() < 0.5:
            return self.fmt(_ch(self.rng, self.bank["preamble"]))
        return _ch(self.rng, T.PREAMBLES[self.lang])

    def commentary(self) -> str:
        if self.rng.random() < 0.5:
            return _ch(self.rng, T.COMMENTARY[self.lang])
        return self.fmt(_ch(self.rng, self.bank["preamble"]))

    def json_output(self) -> dict[str, Any]:
        return _json_output(self.rng, self.lang, self.topic, self.v)

    def json_text(self, obj: dict[str, Any]) -> str:
        return json.dumps(obj, ensure_ascii=False, indent=2 if self.rng.random() < 0.3 else None)

    def args(self) -> dict[str, Any]:
        return self.tool.args(self.v)

    def cut(self, text: str) -> str:
        """A prefix of ``text`` as if generation stopped mid-way."""
        return text[: max(1, int(len(text) * self.rng.uniform(0.3, 0.8)))]


class _Plan:
    """What one response should look like, independent of the API shape."""

    __slots__ = (
        "tools",
        "structured",
        "stop",
        "followup",
        "thinking",
        "prompt",
        "system",
        "content",
        "reasoning",
        "calls",
        "finish",
        "commentary",
        "mixed",
        "split",
        "labels",
    )

    def __init__(self) -> None:
        self.tools = False
        self.structured: str | None = None  # None | "json_schema" | "json_object"
        self.stop = False
        self.followup = False
        self.thinking: bool | None = None  # Messages: request thinking
        self.prompt: str | None = None
        self.system: str | None = None
        self.content: str | None = None
        self.reasoning = ""
        self.calls: list[tuple[str, str]] = []  # (name, arguments as sent)
        self.finish = "stop"  # stop | length | tool_calls
        self.commentary = ""
        self.mixed = False
        self.split: str | None = None  # a delimiter to split across two stream chunks
        self.labels: set[str] = set()


# ============================================================================ scenarios


def _base(c: _Ctx) -> _Plan:
    """A plan with the deployment's normal, properly separated reasoning."""
    p = _Plan()
    if c.dep.thinks:
        p.reasoning = "" if c.dep.omitted_thinking else c.reasoning()
        p.thinking = True if c.dep.api == "messages" else None
    return p


# -- clean ---------------------------------------------------------------------------


def _clean_answer(c: _Ctx) -> _Plan:
    p = _base(c)
    p.tools = c.dep.has_tools and c.rng.random() < 0.25
    p.content = c.answer()
    return p


def _clean_tool_call(c: _Ctx) -> _Plan:
    p = _base(c)
    if p.reasoning and not c.dep.omitted_thinking:
        p.reasoning = c.reasoning(short=True)
    p.tools = True
    p.calls = [(c.tool.name, _dumps(c.args()))]
    p.finish = "tool_calls"
    # A progress sentence next to a structured call is not a preamble. In the Responses
    # API it is a commentary item, which is only clean when the client hides it.
    api, r = c.dep.api, c.rng.random()
    if (api == "messages" and r < 0.5) or (api == "chat.completions" and r < 0.15):
        p.content = c.preamble()
    elif api == "responses" and c.dep.phases and c.dep.renders_phases is not True and r < 0.6:
        p.commentary = c.commentary()
    return p


def _clean_followup(c: _Ctx) -> _Plan:
    p = _base(c)
    p.tools = True
    p.followup = True
    p.content = c.answer()
    return p


def _clean_structured(c: _Ctx) -> _Plan:
    p = _base(c)
    p.structured = "json_schema" if c.rng.random() < 0.8 else "json_object"
    p.content = c.json_text(c.json_output())
    return p


def _clean_explainer(c: _Ctx) -> _Plan:
    p = _base(c)
    i = _rr(c.rng, len(T.EXPLAINERS[c.lang]))
    p.prompt = T.EXPLAINER_PROMPTS[c.lang][i]
    p.content = T.EXPLAINERS[c.lang][i]
    return p


def _clean_tool_example(c: _Ctx) -> _Plan:
    p = _base(c)
    p.tools = True
    name = c.tool.name
    p.prompt = _ch(c.rng, T.TOOL_EXAMPLE_PROMPTS[c.lang]).replace("{tool}", name)
    call = json.dumps({"name": name, "arguments": c.args()}, ensure_ascii=False, indent=2)
    before = _ch(c.rng, T.TOOL_EXAMPLE_BEFORE[c.lang]).replace("{tool}", name)
    after = _ch(c.rng, T.TOOL_EXAMPLE_AFTER[c.lang])
    p.content = f"{before}\n\n```json\n{call}\n```\n\n{after}"
    return p


def _clean_commentary(c: _Ctx) -> _Plan:
    """Commentary that the client does not render: not a leak."""
    p = _base(c)
    p.commentary = c.commentary()
    if c.rng.random() < 0.5:
        p.tools = True
        p.calls = [(c.tool.name, _dumps(c.args()))]
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


def _think_tagged(c: _Ctx) -> _Plan:
    style = c.dep.think_style
    if style == "harmony":
        return _harmony_channels(c)
    p = _Plan()
    if style == "r1" and c.rng.random() < 0.5:
        style = "qwen"  # R1-0528 prints both tags
    start, end, split = _THINK_TAGS[style]
    p.content = f"{start}{c.reasoning()}{end}{c.answer()}"
    p.split = split
    p.thinking = False if c.dep.api == "messages" else None
    p.labels = {BOUNDARY, REASONING}
    return p


def _r1_no_start(c: _Ctx) -> _Plan:
    p = _Plan()
    p.content = f"{c.reasoning()}\n</think>\n\n{c.answer()}"
    p.split = "</think>"
    p.labels = {BOUNDARY, REASONING}
    return p


def _stop_think_leak(c: _Ctx) -> _Plan:
    """Streaming + stop: the tail of the reasoning and the end tag arrive as content."""
    p = _Plan()
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


def _empty_think(c: _Ctx) -> _Plan:
    p = _Plan()
    lead = _ch(c.rng, ("<think>\n\n</think>\n\n", "</think>\n\n", "<think></think>"))
    p.content = lead + c.answer()
    p.split = "</think>"
    p.labels = {BOUNDARY}
    return p


def _stray_token(c: _Ctx) -> _Plan:
    p = _base(c)
    a = c.answer()
    p.content = _ch(
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


def _harmony_channels(c: _Ctx) -> _Plan:
    p = _Plan()
    tail = "<|return|>" if c.rng.random() < 0.4 else ""
    p.content = (
        f"<|channel|>analysis<|message|>{c.reasoning()}<|end|>"
        f"<|start|>assistant<|channel|>final<|message|>{c.answer()}{tail}"
    )
    p.split = _ch(c.rng, ("<|channel|>", "<|message|>", "<|end|>"))
    p.labels = {BOUNDARY, REASONING}
    return p


def _untagged_reasoning(c: _Ctx) -> _Plan:
    p = _Plan()
    p.content = f"{c.reasoning()}\n\n{c.answer()}"
    p.labels = {REASONING}
    return p


def _tool_markup(c: _Ctx, style: str) -> tuple[str, set[str]]:
    name, args = c.tool.name, c.args()
    rng = c.rng
    if style == "hermes":
        return f"<tool_call>\n{_dumps({'name': name, 'arguments': args})}\n</tool_call>", {
            TOOL_TEXT
        }
    if style == "qwen_xml":
        params = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in args.items())
        return f"<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>", {TOOL_TEXT}
    if style == "mistral":
        if rng.random() < 0.5:
            return f"[TOOL_CALLS]{name}[ARGS]{_dumps(args)}", {TOOL_TEXT}
        return f"[TOOL_CALLS][{_dumps({'name': name, 'arguments': args})}]", {TOOL_TEXT}
    if style == "llama":
        body = _dumps({"name": name, "parameters": args})
        return ("<|python_tag|>" + body if rng.random() < 0.5 else body), {TOOL_TEXT}
    if style == "harmony":
        return (
            f"<|channel|>commentary to=functions.{name} <|constrain|>json"
            f"<|message|>{_dumps(args)}<|call|>",
            {TOOL_TEXT, BOUNDARY},
        )
    # bare JSON call, optionally alone in one fence
    body = json.dumps({"name": name, "arguments": args}, ensure_ascii=False, indent=2)
    return (f"```json\n{body}\n```" if rng.random() < 0.5 else body), {TOOL_TEXT}


def _tool_text(c: _Ctx) -> _Plan:
    p = _Plan()
    p.tools = True
    p.content, p.labels = _tool_markup(c, c.dep.tool_style or "json")
    p.split = {"hermes": "<tool_call>", "qwen_xml": "<tool_call>", "mistral": "[TOOL_CALLS]"}.get(
        c.dep.tool_style or ""
    )
    if c.dep.api == "messages":
        p.thinking = False
    return p


def _tool_args_invalid(c: _Ctx) -> _Plan:
    p = _base(c)
    if p.reasoning and not c.dep.omitted_thinking:
        p.reasoning = c.reasoning(short=True)
    p.tools = True
    p.finish = "tool_calls"
    args = c.args()
    kinds = ["unknown", "schema", "schema"]
    if c.dep.api != "messages":  # Messages tool_use input is always an object
        kinds += ["not_json", "not_object"]
    kind = _ch(c.rng, kinds)
    name = c.tool.name
    if kind == "unknown":
        name, text = c.tool.alias, _dumps(args)
    elif kind == "schema":
        how = _rr(c.rng, 3)
        bad = dict(args)
        if how == 0:
            bad.pop(c.tool.parameters["required"][0])
        elif how == 1:
            bad[c.tool.bad[0]] = c.tool.bad[1]
        else:
            bad["note"] = "urgent"
        text = _dumps(bad)
    elif kind == "not_json":
        full = _dumps(args)
        text = _ch(
            c.rng,
            (
                full[: max(1, len(full) - _ri(c.rng, 1, 6))],
                ", ".join(f"{k}={v}" for k, v in args.items()),
                str(args),
            ),
        )
    else:
        text = _dumps(list(args.values()) if c.rng.random() < 0.5 else next(iter(args.values())))
    p.calls = [(name, text)]
    p.labels = {TOOL_ARGS}
    return p


def _preamble(c: _Ctx) -> _Plan:
    p = _base(c)
    p.tools = c.dep.has_tools and c.rng.random() < 0.5
    sep = _ch(c.rng, ("\n\n", c.joiner or "", c.joiner or "\n"))
    p.content = c.preamble() + sep + c.answer()
    p.labels = {PREAMBLE}
    return p


def _structured_invalid(c: _Ctx) -> _Plan:
    p = _base(c)
    p.structured = "json_schema" if c.rng.random() < 0.75 else "json_object"
    obj = c.json_output()
    kinds = ["fence", "prefix", "suffix"]
    if p.structured == "json_schema":
        kinds += ["wrong", "wrong"]
    if not p.reasoning:
        kinds.append("empty")
    kind = _ch(c.rng, kinds)
    if kind == "fence":
        p.content = f"```json\n{c.json_text(obj)}\n```"
    elif kind == "prefix":
        p.content = _ch(c.rng, T.JSON_PREFIXES[c.lang]) + c.json_text(obj)
    elif kind == "suffix":
        p.content = c.json_text(obj) + _ch(c.rng, T.JSON_SUFFIXES[c.lang])
    elif kind == "wrong":
        p.content = c.json_text(_break_object(c.rng, obj))
    else:
        p.content = _ch(c.rng, (None, ""))
    p.labels = {STRUCTURED}
    return p


def _structured_think(c: _Ctx) -> _Plan:
    """The end of reasoning was missed, so the grammar never applied: think block + JSON."""
    p = _Plan()
    p.structured = "json_schema"
    p.content = f"<think>\n{c.reasoning()}\n</think>\n\n{c.json_text(c.json_output())}"
    p.split = "</think>"
    p.labels = {BOUNDARY, REASONING, STRUCTURED}
    return p


def _structured_in_reasoning(c: _Ctx) -> _Plan:
    """Constrained JSON went into the reasoning field; content is empty."""
    p = _Plan()
    p.structured = "json_schema"
    p.content = _ch(c.rng, (None, ""))
    body = c.json_text(c.json_output())
    p.reasoning = body if c.rng.random() < 0.5 else f"{c.reasoning()}\n{body}"
    p.labels = {FINAL_IN_REASONING, STRUCTURED}
    return p


def _truncated(c: _Ctx) -> _Plan:
    p = _Plan()
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


def _final_in_reasoning(c: _Ctx) -> _Plan:
    p = _Plan()
    a = c.answer()
    p.reasoning = a if (not c.dep.thinks or c.rng.random() < 0.5) else f"{c.reasoning()}\n\n{a}"
    p.content = _ch(c.rng, (None, ""))
    p.labels = {FINAL_IN_REASONING}
    return p


def _commentary(c: _Ctx) -> _Plan:
    p = _base(c)
    p.commentary = c.commentary()
    p.labels = {COMMENTARY}
    if c.rng.random() < 0.5:
        p.tools = True
        p.calls = [(c.tool.name, _dumps(c.args()))]
        p.finish = "tool_calls"
    else:
        # rendered commentary now opens the visible text of a final answer
        p.content = c.answer()
        p.labels.add(PREAMBLE)
    return p


def _mixed_chunk(c: _Ctx) -> _Plan:
    p = _Plan()
    p.reasoning = c.reasoning()
    p.content = c.answer()
    p.mixed = True
    p.labels = {MIXED}
    return p


_LEAKS: dict[str, Callable[[_Ctx], _Plan]] = {
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
}
_STREAM_ONLY = frozenset({"stop_think_leak", "mixed_chunk"})

_CLEAN: dict[str, Callable[[_Ctx], _Plan]] = {
    "clean_answer": _clean_answer,
    "clean_tool_call": _clean_tool_call,
    "clean_followup": _clean_followup,
    "clean_structured": _clean_structured,
    "clean_explainer": _clean_explainer,
    "clean_tool_example": _clean_tool_example,
    "clean_commentary": _clean_commentary,
}


def _clean_weights(dep: Deployment) -> list[tuple[str, float]]:
    w: list[tuple[str, float]] = [
        ("clean_answer", 50),
        ("clean_structured", 10),
        ("clean_explainer", 2),
    ]
    if dep.has_tools:
        w += [("clean_tool_call", 14), ("clean_followup", 8), ("clean_tool_example", 1.5)]
    if dep.api == "responses" and dep.phases and dep.renders_phases is not True:
        w.append(("clean_commentary", 10))
    return w


class _Table:
    __slots__ = ("names", "cum")

    def __init__(self, pairs: list[tuple[str, float]]) -> None:
        self.names = [n for n, _ in pairs]
        self.cum = _cum([w for _, w in pairs])

    def pick(self, rng: random.Random) -> str:
        return str(_pick_weighted(rng, self.names, self.cum))


_CLEAN_TABLES = {d.key: _Table(_clean_weights(d)) for d in DEPLOYMENTS}
_LEAK_TABLES = {
    (d.key, stream): _Table([(n, w) for n, w in d.profile if stream or n not in _STREAM_ONLY])
    for d in DEPLOYMENTS
    for stream in (False, True)
}
_DEP_CLEAN_CUM = _cum([d.traffic for d in DEPLOYMENTS])
_DEP_LEAK_CUM = _cum([d.traffic * d.leakiness for d in DEPLOYMENTS])
_DEP_LIST = list(DEPLOYMENTS)


# ============================================================================ stream splitting


def _pieces(rng: random.Random, text: str, split: str | None = None) -> list[str]:
    """Split ``text`` into small deltas; if ``split`` occurs, cut inside it once."""
    if not text:
        return []
    n = len(text)
    # small deltas for short texts; long texts are coalesced to at most ~30 pieces
    avg = max(14.0, n / 25)
    lo, span = 0.4 * avg, 1.2 * avg
    cuts = set()
    pos = 0
    rnd = rng.random
    while True:
        pos += int(lo + rnd() * span)
        if pos >= n:
            break
        cuts.add(pos)
    if split:
        at = text.find(split)
        if at >= 0 and len(split) > 1:
            end = at + len(split)
            cuts = {x for x in cuts if not at < x < end}
            cuts.add(at + 1 + int(rng.random() * (len(split) - 1)))
    bounds = [0, *sorted(cuts), n]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


# ============================================================================ requests


def _chat_tool(t: _Tool) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
    }


def _responses_tool(t: _Tool) -> dict[str, Any]:
    return {
        "type": "function",
        "name": t.name,
        "description": t.description,
        "parameters": t.parameters,
    }


def _messages_tool(t: _Tool) -> dict[str, Any]:
    return {"name": t.name, "description": t.description, "input_schema": t.parameters}


def _request(
    c: _Ctx, p: _Plan, ids: dict[str, str], max_tokens: int | None
) -> tuple[dict[str, Any], int]:
    """The request body and a rough count of its input characters."""
    rng, dep, api = c.rng, c.dep, c.dep.api
    if p.prompt is not None:
        prompt = p.prompt
    elif p.structured:
        prompt = c.fmt(_ch(rng, c.bank["json_prompt"]))
    else:
        prompt = c.prompt()
    if p.structured:
        system: str | None = _ch(rng, T.JSON_SYSTEM_PROMPTS[c.lang])
    else:
        system = _ch(rng, T.SYSTEM_PROMPTS[c.lang]) if rng.random() < 0.6 else None
    tools = (c.tool, *c.extra_tools) if p.tools else ()
    if tools and rng.random() < 0.5:
        tools = (*tools[1:], tools[0])
    schema_name = f"{c.topic}_result"
    req: dict[str, Any] = {"model": dep.model}
    call_id = ids["prior_call"]
    prior_args = _dumps(c.args()) if p.followup else ""
    result = _dumps(_tool_result(rng, c.lang, c.topic, c.v)) if p.followup else ""

    if api == "chat.completions":
        msgs: list[dict[str, Any]] = []
        if system:
            msgs.append({"role": "system", "content": system})
        msgs.append({"role": "user", "content": prompt})
        if p.followup:
            msgs.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": c.tool.name, "arguments": prior_args},
                        }
                    ],
                }
            )
            msgs.append({"role": "tool", "tool_call_id": call_id, "content": result})
        req["messages"] = msgs
        if tools:
            req["tools"] = [_chat_tool(t) for t in tools]
            req["tool_choice"] = "auto"
        if p.structured == "json_schema":
            req["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": _SCHEMAS[c.topic], "strict": True},
            }
        elif p.structured == "json_object":
            req["response_format"] = {"type": "json_object"}
        if p.stop or rng.random() < 0.12:
            req["stop"] = list(_ch(rng, _STOPS))
        if max_tokens is not None:
            req["max_tokens"] = max_tokens
        req["temperature"] = _ch(rng, (0.2, 0.6, 0.7, 1.0))
        for k, val in dep.request_extra:
            req[k] = val
        if dep.think_style == "harmony":
            req["reasoning_effort"] = _ch(rng, ("low", "medium", "high"))
        if c.stream:
            req["stream"] = True
            if rng.random() < 0.5:
                req["stream_options"] = {"include_usage": True}
        return req, len(prompt) + len(system or "") + len(result) + 150 * len(tools)

    if api == "responses":
        items: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
        if p.followup:
            items.append(
                {
                    "type": "function_call",
                    "call_id": call_id,
                    "name": c.tool.name,
                    "arguments": prior_args,
                }
            )
            items.append({"type": "function_call_output", "call_id": call_id, "output": result})
        req["input"] = items if (p.followup or rng.random() < 0.6) else prompt
        if system:
            req["instructions"] = system
        if tools:
            req["tools"] = [_responses_tool(t) for t in tools]
        if p.structured == "json_schema":
            req["text"] = {
                "format": {
                    "type": "json_schema",
                    "name": schema_name,
                    "schema": _SCHEMAS[c.topic],
                    "strict": True,
                }
            }
        elif p.structured == "json_object":
            req["text"] = {"format": {"type": "json_object"}}
        if max_tokens is not None:
            req["max_output_tokens"] = max_tokens
        req["reasoning"] = {"effort": _ch(rng, ("low", "medium", "high"))}
        if rng.random() < 0.5:
            req["store"] = False
        if c.stream:
            req["stream"] = True
        return req, len(prompt) + len(system or "") + len(result) + 150 * len(tools)

    # messages
    msgs = [{"role": "user", "content": prompt}]
    if p.followup:
        msgs.append(
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": call_id, "name": c.tool.name, "input": c.args()}
                ],
            }
        )
        msgs.append(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": call_id, "content": result}],
            }
        )
    req["max_tokens"] = max_tokens if max_tokens is not None else _ch(rng, (2048, 4096, 8192))
    if system:
        req["system"] = system
    req["messages"] = msgs
    if tools:
        req["tools"] = [_messages_tool(t) for t in tools]
    if p.structured:
        req["output_format"] = {"type": "json_schema", "schema": _SCHEMAS[c.topic]}
    if p.thinking:
        # the API requires 1024 <= budget_tokens < max_tokens
        budgets = [b for b in (1024, 2048, 4096) if b < req["max_tokens"]] or [1024]
        req["thinking"] = {"type": "enabled", "budget_tokens": _ch(rng, budgets)}
    if p.stop or rng.random() < 0.05:
        req["stop_sequences"] = list(_ch(rng, _STOPS))
    if c.stream:
        req["stream"] = True
    return req, len(prompt) + len(system or "") + len(result) + 150 * len(tools)


# ============================================================================ responses


def _chat_body(
    c: _Ctx, p: _Plan, ids: dict[str, str], created: int, usage: dict[str, int]
) -> tuple[str, Any]:
    dep, rng = c.dep, c.rng
    field = dep.reasoning_field
    calls = [(ids[f"call{j}"], name, args) for j, (name, args) in enumerate(p.calls)]
    if not c.stream:
        msg: dict[str, Any] = {"role": "assistant", "content": p.content}
        if field:
            msg[field] = p.reasoning or None
        elif p.reasoning:
            msg["reasoning"] = p.reasoning
        if calls:
            msg["tool_calls"] = [
                {"id": cid, "type": "function", "function": {"name": n, "arguments": a}}
                for cid, n, a in calls
            ]
        return "response", {
            "id": ids["resp"],
            "object": "chat.completion",
            "created": created,
            "model": dep.model,
            "choices": [{"index": 0, "message": msg, "finish_reason": p.finish, "logprobs": None}],
            "usage": usage,
        }

    rfield = field or "reasoning"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    head = chunk({"role": "assistant", "content": ""})
    head.update(id=ids["resp"], object="chat.completion.chunk", created=created, model=dep.model)
    chunks = [head]
    rp = _pieces(rng, p.reasoning)
    cp = _pieces(rng, p.content or "", p.split)
    if p.mixed and rp and cp:
        chunks.extend(chunk({rfield: x}) for x in rp[:-1])
        chunks.append(chunk({rfield: rp[-1], "content": cp[0]}))
        chunks.extend(chunk({"content": x}) for x in cp[1:])
    else:
        chunks.extend(chunk({rfield: x}) for x in rp)
        chunks.extend(chunk({"content": x}) for x in cp)
    for j, (cid, name, args) in enumerate(calls):
        chunks.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": j,
                            "id": cid,
                            "type": "function",
                            "function": {"name": name, "arguments": ""},
                        }
                    ]
                }
            )
        )
        chunks.extend(
            chunk({"tool_calls": [{"index": j, "function": {"arguments": x}}]})
            for x in _pieces(rng, args)
        )
    chunks.append(chunk({}, p.finish))
    if rng.random() < 0.5:
        chunks.append(
            {
                "id": ids["resp"],
                "object": "chat.completion.chunk",
                "created": created,
                "model": dep.model,
                "choices": [],
                "usage": usage,
            }
        )
    return "chunks", chunks


def _responses_items(c: _Ctx, p: _Plan, ids: dict[str, str]) -> list[dict[str, Any]]:
    dep = c.dep
    incomplete = p.finish == "length"
    items: list[dict[str, Any]] = []
    if p.reasoning or dep.engine == "openai":
        if dep.engine == "openai":
            summary = [{"type": "summary_text", "text": p.reasoning}] if p.reasoning else []
            items.append({"id": ids["rs"], "type": "reasoning", "summary": summary})
        else:
            items.append(
                {
                    "id": ids["rs"],
                    "type": "reasoning",
                    "summary": [],
                    "content": [{"type": "reasoning_text", "text": p.reasoning}],
                }
            )

    def message(mid: str, text: str, phase: str | None, status: str) -> dict[str, Any]:
        item: dict[str, Any] = {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "status": status,
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
        if phase:
            item["phase"] = phase
        return item

    if p.commentary:
        items.append(message(ids["msg_c"], p.commentary, "commentary", "completed"))
    if p.content is not None:
        items.append(
            message(
                ids["msg"],
                p.content,
                "final_answer" if dep.phases else None,
                "incomplete" if incomplete else "completed",
            )
        )
    for j, (name, args) in enumerate(p.calls):
        items.append(
            {
                "id": ids[f"fc{j}"],
                "type": "function_call",
                "call_id": ids[f"call{j}"],
                "name": name,
                "arguments": args,
                "status": "completed",
            }
        )
    return items


def _responses_body(
    c: _Ctx,
    p: _Plan,
    ids: dict[str, str],
    created: int,
    usage: dict[str, int],
    max_tokens: int | None,
) -> tuple[str, Any]:
    items = _responses_items(c, p, ids)
    incomplete = p.finish == "length"
    response: dict[str, Any] = {
        "id": ids["resp"],
        "object": "response",
        "created_at": created,
        "status": "incomplete" if incomplete else "completed",
        "incomplete_details": {"reason": "max_output_tokens"} if incomplete else None,
        "model": c.dep.revision if c.dep.engine == "openai" else c.dep.model,
        "output": items,
        "max_output_tokens": max_tokens,
        "usage": {
            "input_tokens": usage["prompt_tokens"],
            "output_tokens": usage["completion_tokens"],
            "total_tokens": usage["total_tokens"],
        },
    }
    if not c.stream:
        return "response", response

    rng = c.rng
    events: list[dict[str, Any]] = []

    def emit(kind: str, **fields: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **fields})

    emit(
        "response.created",
        response={
            "id": ids["resp"],
            "object": "response",
            "created_at": created,
            "status": "in_progress",
            "model": response["model"],
            "output": [],
        },
    )
    for idx, item in enumerate(items):
        kind = item["type"]
        if kind == "reasoning":
            emit(
                "response.output_item.added",
                output_index=idx,
                item={"id": item["id"], "type": "reasoning", "summary": []},
            )
            if "content" in item:
                for x in _pieces(rng, item["content"][0]["text"]):
                    emit(
                        "response.reasoning_text.delta",
                        item_id=item["id"],
                        output_index=idx,
                        content_index=0,
                        delta=x,
                    )
            elif item["summary"]:
                for x in _pieces(rng, item["summary"][0]["text"]):
                    emit(
                        "response.reasoning_summary_text.delta",
                        item_id=item["id"],
                        output_index=idx,
                        summary_index=0,
                        delta=x,
                    )
        elif kind == "message":
            added = {k: v for k, v in item.items() if k != "content"}
            added.update(status="in_progress", content=[])
            emit("response.output_item.added", output_index=idx, item=added)
            text = item["content"][0]["text"]
            split = p.split if item.get("phase") != "commentary" else None
            for x in _pieces(rng, text, split):
                emit(
                    "response.output_text.delta",
                    item_id=item["id"],
                    output_index=idx,
                    content_index=0,
                    delta=x,
                )
        else:
            emit(
                "response.output_item.added",
                output_index=idx,
                item={**item, "arguments": "", "status": "in_progress"},
            )
            for x in _pieces(rng, item["arguments"]):
                emit(
                    "response.function_call_arguments.delta",
                    item_id=item["id"],
                    output_index=idx,
                    delta=x,
                )
        emit("response.output_item.done", output_index=idx, item=item)
    emit("response.incomplete" if incomplete else "response.completed", response=response)
    return "chunks", events


def _messages_body(
    c: _Ctx, p: _Plan, ids: dict[str, str], usage: dict[str, int]
) -> tuple[str, Any]:
    rng, dep = c.rng, c.dep
    blocks: list[dict[str, Any]] = []
    if p.thinking:
        blocks.append({"type": "thinking", "thinking": p.reasoning, "signature": ids["sig"]})
    if p.content:
        blocks.append({"type": "text", "text": p.content})
    for j, (name, args) in enumerate(p.calls):
        blocks.append(
            {"type": "tool_use", "id": ids[f"call{j}"], "name": name, "input": json.loads(args)}
        )
    stop = {"stop": "end_turn", "length": "max_tokens", "tool_calls": "tool_use"}[p.finish]
    msg_usage = {
        "input_tokens": usage["prompt_tokens"],
        "output_tokens": usage["completion_tokens"],
    }
    if not c.stream:
        return "response", {
            "id": ids["resp"],
            "type": "message",
            "role": "assistant",
            "model": dep.model,
            "content": blocks,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": msg_usage,
        }
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {
                "id": ids["resp"],
                "type": "message",
                "role": "assistant",
                "model": dep.model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": usage["prompt_tokens"], "output_tokens": 1},
            },
        }
    ]
    for idx, block in enumerate(blocks):
        kind = block["type"]
        if kind == "thinking":
            events.append(
                {
                    "type": "content_block_start",
                    "index": idx,
                    "content_block": {"type": "thinking", "thinking": "", "signature": ""},
                }
            )
            events.extend(
                {
                    "type": "content_block_delta",
                    "index": idx,
                    "delta": {"type": "thinking_delta", "thinking": x},
                }
                for x in _pieces(rng, block["thinking"])
            )
            events.append(
                {
                    "type": "content_block_delta",
                    "index": idx,
                    "delta": {"type": "signature_delta", "signature": block["signature"]},
                }
            )
        elif kind == "text":
            events.append(
                {
                    "type": "content_block_start",
                    "index": idx,
                    "content_block": {"type": "text", "text": ""},
                }
            )
            events.extend(
                {
                    "type": "content_block_delta",
                    "index": idx,
                    "delta": {"type": "text_delta", "text": x},
                }
                for x in _pieces(rng, block["text"], p.split)
            )
        else:
            events.append(
                {
                    "type": "content_block_start",
                    "index": idx,
                    "content_block": {
                        "type": "tool_use",
                        "id": block["id"],
                        "name": block["name"],
                        "input": {},
                    },
                }
            )
            events.extend(
                {
                    "type": "content_block_delta",
                    "index": idx,
                    "delta": {"type": "input_json_delta", "partial_json": x},
                }
                for x in _pieces(rng, _dumps(block["input"]))
            )
        events.append({"type": "content_block_stop", "index": idx})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": usage["completion_tokens"]},
        }
    )
    events.append({"type": "message_stop"})
    return "chunks", events


# ============================================================================ assembly

_REMEDIATION_FOR = (
    (TOOL_TEXT, "rescue"),
    (STRUCTURED, "regenerate"),
    (TOOL_ARGS, "regenerate"),
    (BOUNDARY, "strip"),
    (REASONING, "regenerate"),
)


def _remediation(rng: random.Random, labels: set[str]) -> dict[str, Any] | None:
    action = next((a for label, a in _REMEDIATION_FOR if label in labels), None)
    if action is None:
        return None
    if action == "strip":
        return {"action": "strip", "attempts": 0, "extra_tokens": 0, "outcome": "fixed"}
    if action == "rescue":
        ok = rng.random() < 0.85
        return {
            "action": "rescue",
            "attempts": 0,
            "extra_tokens": 0,
            "outcome": "fixed" if ok else "failed",
        }
    attempts = 1 if rng.random() < 0.8 else 2
    ok = rng.random() < 0.75
    return {
        "action": "regenerate",
        "attempts": attempts,
        "extra_tokens": attempts * _rr(rng, 150, 900, 10),
        "outcome": "fixed" if ok else "failed",
    }


def _ts(t: datetime) -> str:
    return t.isoformat(timespec="milliseconds")[:23] + "Z"


_ID_PREFIX = {"chat.completions": "chatcmpl-", "responses": "resp_", "messages": "msg_"}


def _one(rng: random.Random, seed: int, i: int, mix: Mix, ts: datetime) -> SimulatedEvent:
    stream = rng.random() < mix.stream_ratio
    leak = rng.random() < mix.leak_ratio
    lang = mix.languages[int(rng.random() * len(mix.languages))]
    dep: Deployment = _pick_weighted(rng, _DEP_LIST, _DEP_LEAK_CUM if leak else _DEP_CLEAN_CUM)
    topic = T.TOPICS[int(rng.random() * len(T.TOPICS))]
    c = _Ctx(rng, dep, lang, topic, stream)
    if leak:
        scenario = _LEAK_TABLES[(dep.key, stream)].pick(rng)
        plan = _LEAKS[scenario](c)
    else:
        scenario = _CLEAN_TABLES[dep.key].pick(rng)
        plan = _CLEAN[scenario](c)
        if mix.answer_chars is not None and scenario == "clean_answer" and plan.content:
            plan.content = _lengthen(c, plan.content, mix.answer_chars)

    call_prefix = "toolu_" if dep.api == "messages" else "call_"
    ids = {"resp": _ID_PREFIX[dep.api] + _hex(rng), "prior_call": call_prefix + _hex(rng)}
    for j in range(len(plan.calls)):
        ids[f"call{j}"] = call_prefix + _hex(rng)
        ids[f"fc{j}"] = "fc_" + _hex(rng)
    if dep.api == "responses":
        ids.update(rs="rs_" + _hex(rng), msg="msg_" + _hex(rng), msg_c="msg_" + _hex(rng))
    elif dep.api == "messages":
        ids["sig"] = _hex(rng, 48)

    out_tokens = (
        _tokens(plan.content)
        + _tokens(plan.reasoning)
        + _tokens(plan.commentary)
        + sum(_tokens(a) + 8 for _, a in plan.calls)
    )
    if plan.finish == "length":
        limits = (2048, 4096) if plan.thinking else (256, 512, 1024)
        budget: int = max(out_tokens, _ch(rng, limits))
        out_tokens = budget
        max_tokens: int | None = budget
    else:
        max_tokens = _ch(rng, (None, 1024, 2048, 4096, 8192)) if dep.api != "messages" else None
        if max_tokens is not None:
            max_tokens = max(max_tokens, out_tokens + 64)
    request, in_chars = _request(c, plan, ids, max_tokens)
    in_tokens = 40 + in_chars // 3
    usage = {
        "prompt_tokens": in_tokens,
        "completion_tokens": out_tokens,
        "total_tokens": in_tokens + out_tokens,
    }
    created = int(ts.timestamp())
    if dep.api == "chat.completions":
        body_key, body = _chat_body(c, plan, ids, created, usage)
    elif dep.api == "responses":
        body_key, body = _responses_body(c, plan, ids, created, usage, max_tokens)
    else:
        body_key, body = _messages_body(c, plan, ids, usage)

    event: dict[str, Any] = {
        "event_id": f"sim-{seed}-{i:07d}",
        "ts": _ts(ts),
        "api": dep.api,
        "stream": stream,
        "request": request,
        body_key: body,
        "engine": {"name": dep.engine, "version": dep.engine_version},
        "model": {"name": dep.model, "revision": dep.revision},
        "chat_template": {"name": dep.template, "hash": dep.template_hash},
        "parsers": {"reasoning": dep.reasoning_parser, "tool_call": dep.tool_parser},
        "gateway": {"name": "litellm", "version": dep.gateway_version},
        "client": {
            "reasoning_field": dep.reasoning_field if dep.api == "chat.completions" else None,
            "renders_phases": dep.renders_phases if dep.api == "responses" else None,
        },
    }
    if dep.remediation and plan.labels and rng.random() < 0.5:
        rem = _remediation(rng, plan.labels)
        if rem is not None:
            event["remediation"] = rem
    return SimulatedEvent(event, tuple(sorted(plan.labels)))


def _lengthen(c: _Ctx, text: str, chars: tuple[int, int]) -> str:
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


def _check_mix(mix: Mix) -> None:
    for name in ("leak_ratio", "stream_ratio", "malformed_ratio"):
        value = getattr(mix, name)
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"Mix.{name} must be between 0 and 1, got {value}")
    if not mix.languages:
        raise ValueError("Mix.languages must name at least one language")
    if mix.answer_chars is not None and not 0 < mix.answer_chars[0] <= mix.answer_chars[1]:
        raise ValueError(
            f"Mix.answer_chars must be (min, max) with 0 < min <= max, got {mix.answer_chars}"
        )
    unknown = [x for x in mix.languages if x not in T.LANGUAGES]
    if unknown:
        raise ValueError(f"unsupported language(s) {unknown}; choose from {list(T.LANGUAGES)}")


def _times(seed: int, start: datetime | None, rate_per_s: float | None) -> Iterator[datetime]:
    t0 = DEFAULT_START if start is None else start
    if t0.tzinfo is None:
        t0 = t0.replace(tzinfo=UTC)
    t0 = t0.astimezone(UTC)
    i = 0
    if rate_per_s is not None:
        while True:
            yield t0 + timedelta(seconds=i / rate_per_s)
            i += 1
    trng = random.Random(f"leakline-sim-times-{seed}")
    offset = 0.0
    while True:
        yield t0 + timedelta(seconds=offset)
        offset += trng.expovariate(1.0 / _DEFAULT_MEAN_GAP_S)


def simulate(
    count: int,
    *,
    seed: int = 0,
    mix: Mix = Mix(),
    start: datetime | None = None,
    rate_per_s: float | None = None,
) -> Iterator[SimulatedEvent]:
    """Yield ``count`` gateway events with the labels each was designed to carry.

    Deterministic for a given ``seed``: the same arguments give the same events, and a
    shorter run is a prefix of a longer one. Event ids are ``sim-{seed}-{i:07d}``.
    Timestamps start at ``start`` (default 2026-11-01T00:00:00Z) and are spaced
    ``1/rate_per_s`` seconds apart, or by random gaps averaging 0.25 s when no rate is
    given; the spacing never changes the content. ``mix.malformed_ratio`` is ignored here
    (see ``simulate_payloads``).
    """
    if count < 0:
        raise ValueError("count must be >= 0")
    if rate_per_s is not None and rate_per_s <= 0:
        raise ValueError("rate_per_s must be > 0")
    _check_mix(mix)
    return _generate(count, seed, mix, start, rate_per_s)


def _generate(
    count: int, seed: int, mix: Mix, start: datetime | None, rate_per_s: float | None
) -> Iterator[SimulatedEvent]:
    rng = random.Random(seed)
    times = _times(seed, start, rate_per_s)
    for i in range(count):
        # Building one event allocates a few hundred small containers that all stay alive;
        # pausing the cyclic GC while (and only while) our own code runs avoids collecting
        # them half-built, which roughly halves the cost when a caller keeps the events.
        with paused_gc():
            event = _one(rng, seed, i, mix, next(times))
        yield event


def encode_event(event: dict[str, Any]) -> bytes:
    """The JSON bytes a producer publishes for one event."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


# ============================================================================ malformed payloads

MALFORMED_KINDS: tuple[str, ...] = (
    "truncated_json",
    "not_json",
    "invalid_utf8",
    "json_array",
    "missing_event_id",
    "empty_event_id",
    "wrong_type_stream",
    "wrong_type_request",
    "unknown_api",
    "both_response_and_chunks",
    "neither_response_nor_chunks",
)

_NOT_JSON = (
    b"<html><head><title>502 Bad Gateway</title></head><body>502 Bad Gateway</body></html>",
    b"event_id=req-7781 api=chat.completions status=200 latency_ms=812",
    b"",
    b"   \n",
    b'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n',
    b"{'event_id': 'py-repr', 'api': 'chat.completions'}",
    b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
)


def _corrupt(rng: random.Random, kind: str, event: dict[str, Any]) -> bytes:
    ev = dict(event)
    if kind == "truncated_json":
        raw = encode_event(ev)
        return raw[: _ri(rng, 1, len(raw) - 1)]
    if kind == "not_json":
        return _ch(rng, _NOT_JSON)
    if kind == "invalid_utf8":
        raw = encode_event(ev)
        marker = b'"event_id":"'
        at = raw.find(marker) + len(marker)
        junk = _ch(
            rng, (b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"\x80abc", b"\xf8\x88\x80\x80\x80")
        )
        return raw[:at] + junk + raw[at:]
    if kind == "json_array":
        return encode_event([ev] if rng.random() < 0.5 else [ev, ev])  # type: ignore[arg-type]
    if kind == "missing_event_id":
        del ev["event_id"]
    elif kind == "empty_event_id":
        ev["event_id"] = _ch(rng, ("", 1234567))
    elif kind == "wrong_type_stream":
        ev["stream"] = _ch(rng, ("yes", "true", 1))
    elif kind == "wrong_type_request":
        ev["request"] = _ch(rng, ([], "POST /v1/chat/completions", None))
    elif kind == "unknown_api":
        ev["api"] = _ch(rng, ("completions", "chat", "embeddings", "generate", "Chat.Completions"))
    elif kind == "both_response_and_chunks":
        if "chunks" in ev:
            ev["response"] = {
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "ok"},
                        "finish_reason": "stop",
                    }
                ]
            }
        else:
            ev["chunks"] = [
                {"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": None}]}
            ]
    elif kind == "neither_response_nor_chunks":
        ev.pop("response", None)
        ev.pop("chunks", None)
    else:
        raise ValueError(f"unknown malformed kind {kind!r}")
    return encode_event(ev)


def malformed_cases(count: int, *, seed: int = 0) -> list[tuple[str, bytes]]:
    """``count`` (kind, payload) pairs that a consumer must dead-letter.

    Kinds rotate through ``MALFORMED_KINDS``; the broken events are copies of simulated
    events with ids ``bad-{seed}-{i:07d}``, so they never collide with real ones.
    """
    rng = random.Random(f"leakline-malformed-{seed}")
    base = simulate(min(count, 32), seed=seed, mix=Mix(leak_ratio=0.3, stream_ratio=0.3))
    pool = [s.event for s in base]
    out = []
    for i in range(count):
        kind = MALFORMED_KINDS[i % len(MALFORMED_KINDS)]
        event = dict(pool[i % len(pool)])
        event["event_id"] = f"bad-{seed}-{i:07d}"
        out.append((kind, _corrupt(rng, kind, event)))
    return out


def malformed_payloads(count: int, *, seed: int = 0) -> list[bytes]:
    """Invalid inputs for DLQ testing: each fails JSON decoding or schema validation."""
    return [raw for _, raw in malformed_cases(count, seed=seed)]


def simulate_payloads(
    count: int,
    *,
    seed: int = 0,
    mix: Mix = Mix(),
    start: datetime | None = None,
    rate_per_s: float | None = None,
) -> Iterator[Payload]:
    """``count`` topic messages: encoded simulated events with a share
    ``mix.malformed_ratio`` replaced by malformed payloads. The events that stay valid are
    exactly those ``simulate`` yields at the same positions."""
    if count < 0:
        raise ValueError("count must be >= 0")
    _check_mix(mix)
    events = simulate(count, seed=seed, mix=mix, start=start, rate_per_s=rate_per_s)
    return _payloads(events, seed, mix.malformed_ratio)


def _payloads(events: Iterator[SimulatedEvent], seed: int, ratio: float) -> Iterator[Payload]:
    mrng = random.Random(f"leakline-payloads-{seed}")
    n_bad = 0
    for sim in events:
        event_id = sim.event["event_id"]
        if ratio > 0 and mrng.random() < ratio:
            kind = MALFORMED_KINDS[n_bad % len(MALFORMED_KINDS)]
            n_bad += 1
            yield Payload(event_id.encode(), _corrupt(mrng, kind, sim.event), None)
        else:
            yield Payload(event_id.encode(), encode_event(sim.event), sim.expected_labels)
