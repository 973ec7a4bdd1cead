"""The fleet: every simulated deployment, its serving stack and its designed leak profile.

A deployment is one row: engine and version, model and revision, chat template, parsers,
API and client behaviour, with how much traffic it gets (``traffic``), how much more
often it leaks (``leakiness``) and which leak scenarios it produces (``profile``, named
as in ``scenarios``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from hashlib import sha256
from typing import Any

from leakline.pipeline.simulate.draws import cumulative, pick_weighted


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
            ("structured_field_reasoning", 0.8),
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
            ("structured_field_reasoning", 1.2),
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
        profile=(
            ("final_in_reasoning", 6),
            ("truncated", 0.5),
            ("preamble", 0.5),
            ("reasoning_slot", 0.8),
            ("structured_field_reasoning", 0.6),
        ),
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
            ("history_mismatch", 0.8),
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
            ("history_mismatch", 1.5),
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
            ("history_mismatch", 1.0),
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
        profile=(
            ("think_tagged", 2),
            ("tool_args_invalid", 2.5),
            ("truncated", 1),
            ("history_mismatch", 0.5),
        ),
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
        profile=(
            ("mixed_chunk", 4),
            ("preamble", 1),
            ("truncated", 1),
            ("tool_text", 0.5),
            ("structured_field_reasoning", 0.5),
        ),
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
            ("history_mismatch", 0.5),
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


_CLEAN_CUM = cumulative([d.traffic for d in DEPLOYMENTS])
_LEAK_CUM = cumulative([d.traffic * d.leakiness for d in DEPLOYMENTS])


def pick_deployment(rng: random.Random, *, leak: bool) -> Deployment:
    """A deployment drawn by traffic share, or by traffic times leakiness for a leak."""
    return pick_weighted(rng, DEPLOYMENTS, _LEAK_CUM if leak else _CLEAN_CUM)
