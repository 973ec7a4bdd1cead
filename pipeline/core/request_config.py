"""Request configuration as dimensions, and the conversation history a request carries.

``request_config`` reads how the request set up the model (thinking, tool choice and per-tool
``strict``, sampling) in any of the three APIs; ``history`` reads the earlier turns it sends
back. ``dimensions`` turns both into the stored columns ``rates --by`` groups by. Odd shapes
never raise: an unreadable field is "not said".
"""

from __future__ import annotations

from typing import Any

from leakline.detectors.exchange import Exchange, RequestConfig, Turn

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
    block = _d(value)
    kind = block.get("type")
    if kind in ("enabled", "adaptive"):
        return "on", _int(block.get("budget_tokens"))
    if kind == "disabled":
        return "off", None
    return _on_off(value), None  # a plain boolean, as some gateways send


def _tool_choice(api: str, value: Any) -> str | None:
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
    return RequestConfig(
        thinking=thinking,
        reasoning_effort=effort if isinstance(effort, str) and effort else None,
        thinking_budget=budget,
        include_reasoning=include if isinstance(include, bool) else None,
        tool_choice=_tool_choice(api, request.get("tool_choice")),
        tools_strict=_tools_strict(api, _l(request.get("tools"))),
        temperature=float(temperature)
        if isinstance(temperature, int | float) and not isinstance(temperature, bool)
        else None,
    )


# ---------------------------------------------------------------- history


def _text(value: Any, depth: int = 0) -> str:
    if isinstance(value, str):
        return value
    if depth > 8:  # hostile nesting: no message part is this deep
        return ""
    return "".join(_text(_d(p).get("text"), depth + 1) for p in _l(value))


def _chat_turns(messages: list[Any]) -> list[Turn]:
    turns = []
    for message in messages:
        message = _d(message)
        role = message.get("role")
        if not isinstance(role, str):
            continue
        reasoning = _text(message.get("reasoning")) or _text(message.get("reasoning_content"))
        # harmony written out by the gateway: an analysis channel in the content
        content = _text(message.get("content"))
        if not reasoning and "<|channel|>analysis" in content:
            reasoning = content
        turns.append(
            Turn(
                role="tool" if role in ("tool", "function") else role,
                reasoning=reasoning,
                tool_calls=len(_l(message.get("tool_calls"))),
                has_text=bool(content.strip()),
            )
        )
    return turns


def _responses_turns(items: list[Any]) -> list[Turn]:
    turns: list[Turn] = []
    pending: dict[str, Any] | None = None  # the assistant turn being built

    def flush() -> None:
        nonlocal pending
        if pending is not None:
            turns.append(Turn("assistant", pending["r"], pending["c"], pending["t"]))
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
                turns.append(Turn("tool", has_text=True))
            elif isinstance(role, str):
                turns.append(Turn(role, has_text=bool(_text(item.get("content")).strip())))
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
            turns.append(Turn(role, has_text=bool(content.strip())))
            continue
        blocks = [_d(b) for b in _l(content)]
        kinds = [b.get("type") for b in blocks]
        if role == "user" and "tool_result" in kinds:
            turns.append(Turn("tool", has_text=True))
            continue
        reasoning = "".join(
            _text(b.get("thinking")) or "[redacted]"
            for b in blocks
            if b.get("type") in ("thinking", "redacted_thinking")
        )
        turns.append(
            Turn(
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
