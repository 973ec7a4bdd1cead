"""The normalised exchange: one API call reduced to what the detectors look at.

``leakline.pipeline.events.normalise`` builds it from a gateway event of any of the three APIs
(chat.completions, responses, messages), streamed or not. Detectors never see
the raw API shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from leakline.detectors.finding import slot_setters


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A structured tool call as the API returned it. ``arguments`` is the raw string."""

    name: str | None
    arguments: str
    call_id: str | None = None


@dataclass(frozen=True, slots=True)
class ResponseFormat:
    """A request for structured output. ``schema`` is None for plain JSON mode."""

    kind: str  # "json_object" | "json_schema"
    schema: dict[str, Any] | None = None
    strict: bool = False


@dataclass(frozen=True, slots=True)
class StreamFacts:
    """Chunk-level facts that reassembly would otherwise hide."""

    chunk_count: int = 0
    # indices of chunks that carried both reasoning and visible content
    mixed_chunks: tuple[int, ...] = ()
    # visible-text deltas in arrival order; a delimiter may be split across them
    visible_pieces: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Versions:
    """Who produced the response. Any field may be None (unknown)."""

    engine_name: str | None = None
    engine_version: str | None = None
    model_name: str | None = None
    model_revision: str | None = None
    template_name: str | None = None
    template_hash: str | None = None
    reasoning_parser: str | None = None
    tool_call_parser: str | None = None
    gateway_name: str | None = None
    gateway_version: str | None = None


@dataclass(frozen=True, slots=True)
class RequestConfig:
    """How the request configured the model: thinking, tools, structured output, sampling.

    Every field is None when the request did not say (the engine default applies)."""

    # "on" | "off": chat_template_kwargs enable_thinking/thinking, reasoning_effort
    # ("none" is off), Anthropic thinking.type, Responses reasoning.effort
    thinking: str | None = None
    reasoning_effort: str | None = None
    thinking_budget: int | None = None  # thinking_token_budget / budget_tokens
    include_reasoning: bool | None = None
    tool_choice: str | None = None  # "auto" | "none" | "required" | "named"
    tools_strict: str | None = None  # "all" | "some" | "none" of the declared tools
    temperature: float | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """One earlier message of the conversation the request sends back (history)."""

    role: str  # "user" | "assistant" | "tool" | "system"
    # the assistant turn carries reasoning (reasoning/reasoning_content/thinking blocks,
    # a harmony analysis channel); "" when it carries none
    reasoning: str = ""
    tool_calls: int = 0  # how many tool calls the assistant turn made
    has_text: bool = False  # visible text (content) in the turn


@dataclass(frozen=True, slots=True)
class Exchange:
    """One response, normalised across APIs.

    ``visible_text`` is what the user would see given the client's behaviour
    (for the Responses API that includes commentary items when the client
    renders phases). ``reasoning_text`` is what the engine/API separated as
    reasoning, and ``reasoning_field`` names where it came from.
    """

    event_id: str
    api: str
    stream: bool
    visible_text: str
    reasoning_text: str = ""
    reasoning_field: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    # declared tool name -> JSON Schema of its arguments (None when not given)
    declared_tools: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    response_format: ResponseFormat | None = None
    # normalised: "stop" | "length" | "tool_calls" | "content_filter" | None
    finish_reason: str | None = None
    raw_finish_reason: str | None = None
    # Responses API: text of commentary-phase message items
    commentary_text: str = ""
    renders_phases: bool | None = None
    # the reasoning field the client reads ("reasoning" | "reasoning_content"), when known
    client_reasoning_field: str | None = None
    # hash of the request without stream/stop settings: the same request sent
    # streamed and not, or with and without stop, shares this key
    request_key: str | None = None
    stop: tuple[str, ...] = ()
    stream_facts: StreamFacts = field(default_factory=StreamFacts)
    versions: Versions = field(default_factory=Versions)
    # the request's own text (system/user/tool messages, instructions), joined: an answer
    # that quotes a token the prompt contains is not leaking it
    prompt_text: str = ""
    # request configuration as dimensions (thinking, tools strictness, sampling)
    config: RequestConfig = field(default_factory=RequestConfig)
    # the earlier turns the request carries, oldest first (the last user/tool message included)
    history: tuple[Turn, ...] = ()
    # completion (output) tokens the usage reports, reasoning included; None when unknown
    completion_tokens: int | None = None

    @property
    def has_tools(self) -> bool:
        return bool(self.declared_tools)

    @property
    def structured(self) -> bool:
        return self.response_format is not None

    @property
    def thinking_requested(self) -> bool:
        return self.config.thinking == "on"


# new_exchange's parameters, in order: when Exchange's fields no longer match, slot_setters
# says so (None) and new_exchange falls back to the constructor
EXCHANGE_FIELDS = (
    "event_id",
    "api",
    "stream",
    "visible_text",
    "reasoning_text",
    "reasoning_field",
    "tool_calls",
    "declared_tools",
    "response_format",
    "finish_reason",
    "raw_finish_reason",
    "commentary_text",
    "renders_phases",
    "client_reasoning_field",
    "request_key",
    "stop",
    "stream_facts",
    "versions",
    "prompt_text",
    "config",
    "history",
    "completion_tokens",
)
_EXCHANGE_SETTERS = slot_setters(Exchange, EXCHANGE_FIELDS)


def new_exchange(
    event_id: str,
    api: str,
    stream: bool,
    visible_text: str,
    reasoning_text: str,
    reasoning_field: str | None,
    tool_calls: tuple[ToolCall, ...],
    declared_tools: dict[str, dict[str, Any] | None],
    response_format: ResponseFormat | None,
    finish_reason: str | None,
    raw_finish_reason: str | None,
    commentary_text: str,
    renders_phases: bool | None,
    client_reasoning_field: str | None,
    request_key: str | None,
    stop: tuple[str, ...],
    stream_facts: StreamFacts,
    versions: Versions,
    prompt_text: str,
    config: RequestConfig,
    history: tuple[Turn, ...],
    completion_tokens: int | None = None,
) -> Exchange:
    """``Exchange(...)`` with every field given in order, built through its slots
    (``finding.slot_setters``): once per event, where the constructor cost ~2.5 µs."""
    values = (
        event_id,
        api,
        stream,
        visible_text,
        reasoning_text,
        reasoning_field,
        tool_calls,
        declared_tools,
        response_format,
        finish_reason,
        raw_finish_reason,
        commentary_text,
        renders_phases,
        client_reasoning_field,
        request_key,
        stop,
        stream_facts,
        versions,
        prompt_text,
        config,
        history,
        completion_tokens,
    )
    if _EXCHANGE_SETTERS is None:
        return Exchange(*values)
    made = Exchange.__new__(Exchange)
    for setter, value in zip(_EXCHANGE_SETTERS, values, strict=True):
        setter(made, value)
    return made
