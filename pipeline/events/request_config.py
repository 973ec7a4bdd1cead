"""Request configuration as dimensions, and the conversation history a request carries.

``request_config`` reads how the request set up the model (thinking, tool choice and per-tool
``strict``, sampling) in any of the three APIs; ``history`` reads the earlier turns it sends
back. ``dimensions`` turns both into the stored columns ``rates --by`` groups by. Odd shapes
never raise: an unreadable field is "not said".
"""

from __future__ import annotations

import math
from typing import Any

from leakline.detectors.exchange import Exchange, RequestConfig, Turn
from leakline.pipeline.events.memo import remember

DEFAULT = "default"  # the request did not say: the engine's default applies
NO_TOOLS = "no_tools"
_EFFORT_OFF = frozenset({"none"})
_TOOL_CHOICE = {"auto": "auto", "none": "none", "required": "required", "any": "required"}


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _on_off(value: Any) -> str | None:
    return ("on" if value else "off") if isinstance(value, bool) else None


def _effort_thinking(effort: Any) -> str | None:
    if not isinstance(effort, str) or not effort:
        return None
    return "off" if effort.lower() in _EFFORT_OFF else "on"


def _thinking_block(value: Any) -> tuple[str | None, int | None]:
    """Anthropic-style ``thinking: {type: enabled|disabled|adaptive, budget_tokens}``."""
    if value is None:  # the usual request: not said
        return None, None
    block = _d(value)
    kind = block.get("type")
    if kind in ("enabled", "adaptive"):
        return "on", _int(block.get("budget_tokens"))
    if kind == "disabled":
        return "off", None
    return _on_off(value), None  # a plain boolean, as some gateways send


def _tool_choice(api: str, value: Any) -> str | None:
    if value is None:  # not said
        return None
    if isinstance(value, str):
        return _TOOL_CHOICE.get(value.lower(), value.lower())
    choice = _d(value)
    kind = choice.get("type")
    if kind in ("function", "tool") or (api == "responses" and "name" in choice):
        return "named"
    if isinstance(kind, str):
        return _TOOL_CHOICE.get(kind, kind)
    return None


def _tools_strict(api: str, tools: list[Any]) -> str | None:
    flags = []
    for tool in tools:
        tool = _d(tool)
        if not tool:
            continue
        strict = _d(tool.get("function")).get("strict") if api == "chat.completions" else None
        if strict is None:
            strict = tool.get("strict")
        flags.append(strict is True)
    if not flags:
        return None
    if all(flags):
        return "all"
    return "some" if any(flags) else "none"


# RequestConfigs shared by their fields: requests repeat a few configurations, and a
# frozen dataclass costs more to build than a lookup. Each field has one type (or None),
# so keys that compare equal give equal configs.
_CONFIGS: dict[tuple[Any, ...], RequestConfig] = {}
_CONFIGS_ENTRIES = 1024


def _config(key: tuple[Any, ...]) -> RequestConfig:
    return RequestConfig(
        thinking=key[0],
        reasoning_effort=key[1],
        thinking_budget=key[2],
        include_reasoning=key[3],
        tool_choice=key[4],
        tools_strict=key[5],
        temperature=key[6],
    )


def request_config(api: str, request: dict[str, Any]) -> RequestConfig:
    """How the request configured thinking, tools and sampling."""
    kwargs = _d(request.get("chat_template_kwargs"))
    effort: Any = request.get("reasoning_effort")
    reasoning = _d(request.get("reasoning"))  # Responses; OpenRouter-style chat
    if effort is None:
        effort = reasoning.get("effort")
    thinking, budget = _thinking_block(request.get("thinking"))
    explicit = kwargs.get("enable_thinking", kwargs.get("thinking"))
    if _on_off(explicit) is not None:  # the template kwarg wins over reasoning_effort
        thinking = _on_off(explicit)
    elif thinking is None:
        thinking = _effort_thinking(effort)
    if thinking is None and isinstance(reasoning.get("enabled"), bool):
        thinking = _on_off(reasoning.get("enabled"))
    if budget is None:
        budget = _int(request.get("thinking_token_budget")) or _int(reasoning.get("max_tokens"))
    include = request.get("include_reasoning")
    temperature = request.get("temperature")
    temp = (
        float(temperature)
        if isinstance(temperature, int | float) and not isinstance(temperature, bool)
        else None
    )
    key = (
        thinking,
        effort if isinstance(effort, str) and effort else None,
        budget,
        include if isinstance(include, bool) else None,
        _tool_choice(api, request.get("tool_choice")),
        _tools_strict(api, _l(request.get("tools"))),
        temp,
    )
    if temp == 0 and math.copysign(1.0, temp) < 0:  # -0.0 equals 0.0 as a key
        return _config(key)
    config = _CONFIGS.get(key)
    if config is None:
        config = _config(key)
        if len(str(key[1])) + len(str(key[4])) <= 64:  # free-form strings: keep keys small
            remember(_CONFIGS, key, config, _CONFIGS_ENTRIES)
    return config


# ---------------------------------------------------------------- history


def _text(value: Any, depth: int = 0) -> str:
    if isinstance(value, str):
        return value
    # not a list (mostly None: the field is absent), or hostile nesting no part has
    if not isinstance(value, list) or depth > 8:
        return ""
    return "".join(_text(_d(p).get("text"), depth + 1) for p in value)


# Turns without reasoning, shared: a history is mostly the same few (user with text,
# system with text, tool, ...) and a frozen dataclass costs more to build than to look up.
_TURNS: dict[tuple[str, int, bool], Turn] = {}
_TURNS_ENTRIES = 1024


def _turn(role: str, reasoning: str = "", tool_calls: int = 0, has_text: bool = False) -> Turn:
    if reasoning or len(role) > 64:
        return Turn(role, reasoning, tool_calls, has_text)
    key = (role, tool_calls, has_text)
    turn = _TURNS.get(key)
    if turn is None:
        turn = remember(_TURNS, key, Turn(role, "", tool_calls, has_text), _TURNS_ENTRIES)
    return turn


def _chat_turns(messages: list[Any]) -> list[Turn]:
    turns = []
    for message in messages:
        if not isinstance(message, dict):
            continue  # no role
        get = message.get
        role = get("role")
        if not isinstance(role, str):
            continue
        reasoning = _text(get("reasoning")) or _text(get("reasoning_content"))
        # harmony written out by the gateway: an analysis channel in the content
        content = _text(get("content"))
        if not reasoning and "<|channel|>analysis" in content:
            reasoning = content
        calls = get("tool_calls")
        turns.append(
            _turn(
                "tool" if role in ("tool", "function") else role,
                reasoning,
                len(calls) if isinstance(calls, list) else 0,
                bool(content.strip()),
            )
        )
    return turns


def _responses_turns(items: list[Any]) -> list[Turn]:
    turns: list[Turn] = []
    pending: dict[str, Any] | None = None  # the assistant turn being built

    def flush() -> None:
        nonlocal pending
        if pending is not None:
            turns.append(_turn("assistant", pending["r"], pending["c"], pending["t"]))
            pending = None

    for item in items:
        item = _d(item)
        kind = item.get("type", "message")
        role = item.get("role")
        if kind == "reasoning":
            flush()
            summary = " ".join(_text(_d(s).get("text")) for s in _l(item.get("summary")))
            text = (
                summary
                or _text(item.get("content"))
                or ("[encrypted]" if item.get("encrypted_content") else "")
            )
            pending = {"r": text or "[reasoning item]", "c": 0, "t": False}
        elif kind == "function_call":
            pending = pending or {"r": "", "c": 0, "t": False}
            pending["c"] += 1
        elif kind == "message" and role == "assistant":
            pending = pending or {"r": "", "c": 0, "t": False}
            pending["t"] = pending["t"] or bool(_text(item.get("content")).strip())
        else:
            flush()
            if kind == "function_call_output":
                turns.append(_turn("tool", has_text=True))
            elif isinstance(role, str):
                turns.append(_turn(role, has_text=bool(_text(item.get("content")).strip())))
    flush()
    return turns


def _messages_turns(messages: list[Any]) -> list[Turn]:
    turns = []
    for message in messages:
        message = _d(message)
        role = message.get("role")
        if not isinstance(role, str):
            continue
        content = message.get("content")
        if isinstance(content, str):
            turns.append(_turn(role, has_text=bool(content.strip())))
            continue
        blocks = [_d(b) for b in _l(content)]
        kinds = [b.get("type") for b in blocks]
        if role == "user" and "tool_result" in kinds:
            turns.append(_turn("tool", has_text=True))
            continue
        reasoning = "".join(
            _text(b.get("thinking")) or "[redacted]"
            for b in blocks
            if b.get("type") in ("thinking", "redacted_thinking")
        )
        turns.append(
            _turn(
                role,
                reasoning=reasoning,
                tool_calls=kinds.count("tool_use"),
                has_text=any(
                    b.get("type") == "text" and _text(b.get("text")).strip() for b in blocks
                ),
            )
        )
    return turns


def history(api: str, request: dict[str, Any]) -> tuple[Turn, ...]:
    """The conversation the request carries, oldest first."""
    if api == "responses":
        items = request.get("input")
        return tuple(_responses_turns(_l(items))) if isinstance(items, list) else ()
    if api == "messages":
        return tuple(_messages_turns(_l(request.get("messages"))))
    return tuple(_chat_turns(_l(request.get("messages"))))


# ---------------------------------------------------------------- stored dimensions

DIMENSION_COLUMNS = (
    "thinking",
    "reasoning_effort",
    "thinking_budget",
    "include_reasoning",
    "tool_choice",
    "tools_strict",
    "response_format_type",
    "response_format_strict",
    "temperature_bucket",
)


def temperature_bucket(value: float | None) -> str:
    if value is None:
        return DEFAULT
    if value == 0:
        return "0"
    if value <= 0.5:
        return "0-0.5"
    if value <= 1.0:
        return "0.5-1"
    return ">1"


def dimensions(exchange: Exchange) -> dict[str, Any]:
    """The request-configuration columns of one stored row."""
    config = exchange.config
    fmt = exchange.response_format
    has_tools = exchange.has_tools
    return {
        "thinking": config.thinking or DEFAULT,
        "reasoning_effort": config.reasoning_effort or DEFAULT,
        "thinking_budget": config.thinking_budget,
        "include_reasoning": config.include_reasoning,
        "tool_choice": (config.tool_choice or DEFAULT) if has_tools else NO_TOOLS,
        "tools_strict": (config.tools_strict or "none") if has_tools else NO_TOOLS,
        "response_format_type": fmt.kind if fmt is not None else "text",
        "response_format_strict": fmt.strict if fmt is not None else None,
        "temperature_bucket": temperature_bucket(config.temperature),
    }
