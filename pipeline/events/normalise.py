"""Normalise a validated gateway event of any API into one ``Exchange``.

The three APIs disagree on where reasoning, visible text and tool calls live, and
streamed responses scatter them over chunks. This module reassembles them so the
detectors see one shape. It never raises on odd shapes inside a schema-valid
event: missing or mistyped inner fields become empty values.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import orjson

from leakline.detectors.exchange import (
    Exchange,
    ResponseFormat,
    StreamFacts,
    ToolCall,
    Versions,
    new_exchange,
)
from leakline.pipeline.events.memo import remember
from leakline.pipeline.events.redact import safe_label
from leakline.pipeline.events.request_config import history, request_config

# finish/stop reasons of the three APIs mapped onto one vocabulary
_FINISH = {
    "stop": "stop",
    "end_turn": "stop",
    "stop_sequence": "stop",
    "completed": "stop",
    "length": "length",
    "max_tokens": "length",
    "max_output_tokens": "length",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "tool_use": "tool_calls",
    "content_filter": "content_filter",
    "refusal": "content_filter",
    "pause_turn": "pause",
}


# Stored vocabularies of the free-form request and response words that become columns
# (``finish_reason``, ``reasoning_effort``, ``tool_choice``): the client or the engine
# writes them, so a column keeps a known word and stores anything else as ``other``
# (issue 36: a word of the client's choosing is a side door for a secret).
OTHER = "other"
FINISH_REASONS = frozenset(
    set(_FINISH.values())
    | {"error", "abort", "incomplete", "failed", "cancelled", "timeout", "recitation",
       "safety", "model_context_window_exceeded", "unknown"}
)  # fmt: skip
REASONING_EFFORTS = frozenset(
    {"none", "minimal", "low", "medium", "high", "xhigh", "max", "auto", "default"}
)
TOOL_CHOICES = frozenset({"auto", "none", "required", "named", "default", "no_tools"})


def in_vocabulary(value: str, words: frozenset[str]) -> str:
    """``value`` lower-cased when it is one of ``words``, else ``"other"``."""
    if value in words:
        return value
    lowered = value.lower() if len(value) <= 64 else ""
    return lowered if lowered in words else OTHER


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _s(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # content given as a list of parts
        return "".join(_s(_d(p).get("text")) for p in value)
    return ""


def _opt(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _json_text(value: Any) -> str:
    """Arguments arrive as a JSON string (OpenAI) or an object (Anthropic)."""
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return ""


def _label(value: Any) -> str | None:
    """A version field as it may be stored and used as a metric label (``safe_label``)."""
    text = _opt(value)
    return safe_label(text) if text is not None else None


# Versions by the raw version fields: gateways send the same few version blocks over and
# over, and building a Versions costs ten safe_label calls and a frozen-dataclass init.
# Bounded like safe_label's memo; only short values are kept, so the memo stays small.
_VERSIONS_MEMO: dict[tuple[Any, ...], Versions] = {}
_VERSIONS_MEMO_ENTRIES = 1024
_VERSIONS_MEMO_CHARS = 512  # per key, summed over its strings


def versions_of(event: dict[str, Any]) -> Versions:
    """Who produced the response. A field that is not a plain name or version (a secret
    pasted into ``model.name``, prose, control characters) becomes ``"redacted"``."""
    engine, model = _d(event.get("engine")), _d(event.get("model"))
    template, parsers = _d(event.get("chat_template")), _d(event.get("parsers"))
    gateway = _d(event.get("gateway"))
    key = (
        engine.get("name"),
        engine.get("version"),
        model.get("name"),
        model.get("revision"),
        template.get("name"),
        template.get("hash"),
        parsers.get("reasoning"),
        parsers.get("tool_call"),
        gateway.get("name"),
        gateway.get("version"),
    )
    # Keys that compare equal give equal Versions: a str only equals a str, and every
    # non-str value (1, 1.0, True, ...) reads as None.
    try:
        hit = _VERSIONS_MEMO.get(key)
    except TypeError:  # a list or object where a name belongs: not hashable
        return _versions(key)
    if hit is None:
        hit = _versions(key)
        if sum(len(v) for v in key if isinstance(v, str)) <= _VERSIONS_MEMO_CHARS:
            remember(_VERSIONS_MEMO, key, hit, _VERSIONS_MEMO_ENTRIES)
    return hit


def _versions(raw: tuple[Any, ...]) -> Versions:
    return Versions(
        engine_name=_label(raw[0]),
        engine_version=_label(raw[1]),
        model_name=_label(raw[2]),
        model_revision=_label(raw[3]),
        template_name=_label(raw[4]),
        template_hash=_label(raw[5]),
        reasoning_parser=_label(raw[6]),
        tool_call_parser=_label(raw[7]),
        gateway_name=_label(raw[8]),
        gateway_version=_label(raw[9]),
    )


# ---------------------------------------------------------------- request side


def declared_tools(api: str, request: dict[str, Any]) -> dict[str, dict[str, Any] | None]:
    tools: dict[str, dict[str, Any] | None] = {}
    for tool in _l(request.get("tools")):
        tool = _d(tool)
        if api == "chat.completions":
            fn = _d(tool.get("function"))
            name, params = fn.get("name"), fn.get("parameters")
        elif api == "responses":
            name, params = tool.get("name"), tool.get("parameters")
        else:
            name, params = tool.get("name"), tool.get("input_schema")
        if isinstance(name, str) and name:
            tools[name] = params if isinstance(params, dict) else None
    return tools


def response_format(api: str, request: dict[str, Any]) -> ResponseFormat | None:
    if api == "chat.completions":
        fmt = request.get("response_format")
        if not isinstance(fmt, dict):  # the usual request: no type, so no format
            return None
        inner = _d(fmt.get("json_schema"))
        schema, strict = inner.get("schema"), inner.get("strict")
    elif api == "responses":
        fmt = _d(_d(request.get("text")).get("format"))
        schema, strict = fmt.get("schema"), fmt.get("strict")
    else:
        fmt = _d(request.get("output_format")) or _d(_d(request.get("output_config")).get("format"))
        schema, strict = fmt.get("schema"), True
    kind = fmt.get("type")
    if kind not in ("json_object", "json_schema"):
        return None
    return ResponseFormat(
        kind=kind,
        schema=schema if kind == "json_schema" and isinstance(schema, dict) else None,
        strict=bool(strict),
    )


def _texts(value: Any, out: list[str]) -> None:
    """The strings of a message content: a string, or a list of parts with ``text``/``content``."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, list):
        for part in value:
            if isinstance(part, str):
                out.append(part)
            elif isinstance(part, dict):
                _texts(part.get("text"), out)
                _texts(part.get("content"), out)


def prompt_text(api: str, request: dict[str, Any]) -> str:
    """The request's own text (every message but the assistant's, plus system/instructions)."""
    out: list[str] = []
    _texts(request.get("system"), out)
    _texts(request.get("instructions"), out)
    items = request.get("input") if api == "responses" else request.get("messages")
    if isinstance(items, str):
        out.append(items)
    for item in _l(items):
        if isinstance(item, dict) and item.get("role") != "assistant":
            content = item.get("content")
            if type(content) is str:  # the usual message: skip the call
                out.append(content)
            else:
                _texts(content, out)
    return "\n".join(out)


def stop_strings(api: str, request: dict[str, Any]) -> tuple[str, ...]:
    stop = request.get("stop_sequences" if api == "messages" else "stop")
    if stop is None:  # the usual request: no stop strings
        return ()
    if isinstance(stop, str):
        return (stop,) if stop else ()
    return tuple(s for s in _l(stop) if isinstance(s, str) and s)


# ---------------------------------------------------------------- response side


class _Parts:
    """Mutable accumulator shared by the per-API readers."""

    __slots__ = (
        "visible",
        "reasoning",
        "reasoning_field",
        "commentary",
        "tool_calls",
        "finish",
        "chunk_count",
        "mixed",
    )

    def __init__(self) -> None:
        self.visible: list[str] = []
        self.reasoning: list[str] = []
        self.reasoning_field: str | None = None
        self.commentary: list[str] = []
        self.tool_calls: list[ToolCall] = []
        self.finish: str | None = None
        self.chunk_count = 0
        self.mixed: list[int] = []

    def add_reasoning(self, text: str, field_name: str) -> None:
        if text:
            self.reasoning.append(text)
            self.reasoning_field = self.reasoning_field or field_name


def _chat_reasoning(message: dict[str, Any]) -> tuple[str, str]:
    for name in ("reasoning", "reasoning_content"):
        text = _s(message.get(name))
        if text:
            return text, name
    return "", ""


def _read_chat(event: dict[str, Any], parts: _Parts) -> None:
    if "response" in event:
        _read_chat_response(_d(event["response"]), parts)
    else:
        _read_chat_chunks(event, parts)


# The two shapes are read by two functions: a variable has one type per function in the
# compiled build, so a ``choice`` that is a dict here would be checked as one wherever
# the same name takes a raw chunk element (``{"choices": [null]}``) over there.
def _read_chat_response(response: dict[str, Any], parts: _Parts) -> None:
    choice = _d(next(iter(_l(response.get("choices"))), None))
    message = _d(choice.get("message"))
    parts.visible.append(_s(message.get("content")))
    text, name = _chat_reasoning(message)
    parts.add_reasoning(text, name)
    for call in _l(message.get("tool_calls")):
        fn = _d(_d(call).get("function"))
        parts.tool_calls.append(
            ToolCall(
                _opt(fn.get("name")), _json_text(fn.get("arguments")), _opt(_d(call).get("id"))
            )
        )
    parts.finish = _opt(choice.get("finish_reason"))


def _read_chat_chunks(event: dict[str, Any], parts: _Parts) -> None:
    calls: dict[int, dict[str, Any]] = {}
    add_visible = parts.visible.append
    add_reasoning = parts.reasoning.append
    chunks = _l(event.get("chunks"))
    parts.chunk_count += len(chunks)
    choice: Any  # a raw element of the chunk's list: anything JSON holds
    for index, chunk in enumerate(chunks):
        # _d/_l inlined: this loop runs once per streamed delta
        choices = chunk.get("choices") if isinstance(chunk, dict) else None
        if not isinstance(choices, list):
            continue
        for choice in choices:
            if not isinstance(choice, dict):
                continue  # as an empty choice: index 0, nothing in it
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta")
            if not isinstance(delta, dict):
                delta = {}
            # Fast path with the same result for the usual delta: plain-string (or null)
            # content and reasoning, no tool calls, no finish. A streamed answer has
            # hundreds of these; the general handling below costs ~5x more per chunk.
            content = delta.get("content")
            said = delta.get("reasoning")
            thought = delta.get("reasoning_content")
            if (
                choice.get("finish_reason") is None
                and "tool_calls" not in delta
                and (content is None or type(content) is str)
                and (said is None or type(said) is str)
                and (thought is None or type(thought) is str)
            ):
                if content:
                    add_visible(content)
                # parts.add_reasoning inlined
                if said:
                    add_reasoning(said)
                    parts.reasoning_field = parts.reasoning_field or "reasoning"
                elif thought:
                    add_reasoning(thought)
                    parts.reasoning_field = parts.reasoning_field or "reasoning_content"
                if content and (said or thought):
                    parts.mixed.append(index)
                continue
            content = _s(delta.get("content"))
            text, name = _chat_reasoning(delta)
            if content:
                parts.visible.append(content)
            parts.add_reasoning(text, name)
            if content and text:
                parts.mixed.append(index)
            for call in _l(delta.get("tool_calls")):
                call = _d(call)
                slot = calls.setdefault(
                    call.get("index", 0) if isinstance(call.get("index"), int) else 0,
                    {"id": None, "name": "", "args": []},
                )
                fn = _d(call.get("function"))
                slot["id"] = slot["id"] or _opt(call.get("id"))
                slot["name"] += _s(fn.get("name"))
                slot["args"].append(_json_text(fn.get("arguments")) if fn.get("arguments") else "")
            parts.finish = _opt(choice.get("finish_reason")) or parts.finish
    for slot in calls.values():
        parts.tool_calls.append(ToolCall(slot["name"] or None, "".join(slot["args"]), slot["id"]))


def _responses_items(event: dict[str, Any], parts: _Parts) -> list[dict[str, Any]]:
    """Non-streaming: the output list. Streaming: items rebuilt from SSE events."""
    if "response" in event:
        response = _d(event["response"])
        _responses_finish(response, parts)
        return [_d(i) for i in _l(response.get("output"))]

    items: dict[int, dict[str, Any]] = {}
    # defaultdicts: only ever indexed to append, so a key exists iff a delta arrived
    texts: defaultdict[int, list[str]] = defaultdict(list)
    reasoning: defaultdict[int, list[str]] = defaultdict(list)
    args: defaultdict[int, list[str]] = defaultdict(list)
    chunks = _l(event.get("chunks"))
    parts.chunk_count += len(chunks)
    for chunk in chunks:
        if not isinstance(chunk, dict):
            continue  # read as {}: no type, so nothing to take from it
        kind = chunk.get("type")
        idx = chunk.get("output_index")
        idx = idx if isinstance(idx, int) else -1
        if kind == "response.output_text.delta":
            delta = chunk.get("delta")
            texts[idx].append(delta if type(delta) is str else _s(delta))
        elif kind in ("response.reasoning_text.delta", "response.reasoning_summary_text.delta"):
            delta = chunk.get("delta")
            reasoning[idx].append(delta if type(delta) is str else _s(delta))
        elif kind == "response.function_call_arguments.delta":
            delta = chunk.get("delta")
            args[idx].append(delta if type(delta) is str else _s(delta))
        elif kind in ("response.output_item.added", "response.output_item.done"):
            item = _d(chunk.get("item"))
            # "done" carries the final item; keep metadata, text comes from deltas if any
            items[idx] = {**items.get(idx, {}), **item}
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            _responses_finish(_d(chunk.get("response")), parts)
    rebuilt = []
    for idx in sorted(set(items) | set(texts) | set(reasoning) | set(args)):
        item = dict(items.get(idx, {}))
        if idx in texts:
            item["type"] = item.get("type", "message")
            item["content"] = [{"type": "output_text", "text": "".join(texts[idx])}]
        if idx in reasoning:
            item["type"] = item.get("type", "reasoning")
            item["content"] = [{"type": "reasoning_text", "text": "".join(reasoning[idx])}]
            item.pop("summary", None)
        if idx in args:
            item["arguments"] = "".join(args[idx])
        rebuilt.append(item)
    return rebuilt


def _responses_finish(response: dict[str, Any], parts: _Parts) -> None:
    status = response.get("status")
    if status == "incomplete":
        reason = _d(response.get("incomplete_details")).get("reason")
        parts.finish = reason if isinstance(reason, str) else "incomplete"
    elif isinstance(status, str):
        parts.finish = status


def _read_responses(event: dict[str, Any], parts: _Parts, renders_phases: bool) -> None:
    has_call = False
    for item in _responses_items(event, parts):
        kind = item.get("type")
        if kind == "reasoning":
            texts = [_s(_d(c).get("text")) for c in _l(item.get("content"))]
            if not any(texts):
                texts = [_s(_d(c).get("text")) for c in _l(item.get("summary"))]
            parts.add_reasoning("".join(texts), "reasoning")
        elif kind == "message":
            text = "".join(
                _s(_d(c).get("text"))
                for c in _l(item.get("content"))
                if _d(c).get("type") in ("output_text", "text", None)
            )
            # a missing phase means final answer; only "commentary" is interim
            if item.get("phase") == "commentary":
                parts.commentary.append(text)
                if renders_phases:
                    parts.visible.append(text)
            else:
                parts.visible.append(text)
        elif kind == "function_call":
            has_call = True
            parts.tool_calls.append(
                ToolCall(
                    _opt(item.get("name")),
                    _json_text(item.get("arguments")),
                    _opt(item.get("call_id")),
                )
            )
    if has_call and parts.finish in (None, "completed"):
        parts.finish = "tool_calls"


def _read_messages(event: dict[str, Any], parts: _Parts) -> None:
    if "response" in event:
        response = _d(event["response"])
        blocks = [_d(b) for b in _l(response.get("content"))]
        parts.finish = _opt(response.get("stop_reason"))
    else:
        # per block index: its start event, and its deltas as lists (joined once, so a
        # long stream costs linear time)
        starts: dict[int, dict[str, Any]] = {}
        pieces: dict[int, dict[str, list[str]]] = {}
        chunks = _l(event.get("chunks"))
        parts.chunk_count += len(chunks)
        for chunk in chunks:
            if not isinstance(chunk, dict):
                continue  # read as {}: no type, so nothing to take from it
            kind = chunk.get("type")
            raw_index = chunk.get("index")
            idx = raw_index if isinstance(raw_index, int) else -1
            if kind == "content_block_delta":
                slot = pieces.get(idx)
                if slot is None:
                    slot = pieces[idx] = {"text": [], "thinking": [], "json": []}
                delta = _d(chunk.get("delta"))
                dtype = delta.get("type")
                if dtype == "text_delta":
                    text = delta.get("text")
                    slot["text"].append(text if type(text) is str else _s(text))
                elif dtype == "thinking_delta":
                    text = delta.get("thinking")
                    slot["thinking"].append(text if type(text) is str else _s(text))
                elif dtype == "input_json_delta":
                    slot["json"].append(_s(delta.get("partial_json")))
            elif kind == "content_block_start":
                starts[idx] = _d(chunk.get("content_block"))
                pieces.setdefault(idx, {"text": [], "thinking": [], "json": []})
            elif kind == "message_delta":
                parts.finish = _opt(_d(chunk.get("delta")).get("stop_reason")) or parts.finish
        blocks = []
        for idx in sorted(pieces):
            block = dict(starts.get(idx) or {"type": "text"})
            slot = pieces[idx]
            if slot["text"]:
                block["text"] = _s(block.get("text")) + "".join(slot["text"])
            if slot["thinking"]:
                block["thinking"] = _s(block.get("thinking")) + "".join(slot["thinking"])
            if block.get("type") == "tool_use" and slot["json"]:
                block["input"] = "".join(slot["json"])
            blocks.append(block)
    for block in blocks:
        kind = block.get("type")
        if kind == "text":
            parts.visible.append(_s(block.get("text")))
        elif kind == "thinking":
            parts.add_reasoning(_s(block.get("thinking")), "thinking")
        elif kind == "tool_use":
            parts.tool_calls.append(
                ToolCall(
                    _opt(block.get("name")),
                    _json_text(block.get("input", {})),
                    _opt(block.get("id")),
                )
            )


_READERS: dict[str, Callable[[dict[str, Any], _Parts, bool], None]] = {
    "chat.completions": lambda e, p, _r: _read_chat(e, p),
    "responses": _read_responses,
    "messages": lambda e, p, _r: _read_messages(e, p),
}


# request fields that vary between the variants of "the same request" we compare
_VARIANT_FIELDS = frozenset({"stream", "stream_options", "stop", "stop_sequences"})


# blake2b already fed "<api>\0", per API: copying it is cheaper than a new hasher plus
# concatenating the prefix onto the body, and the digest is the same
_KEY_SEEDS = {
    api: hashlib.blake2b(api.encode() + b"\0", digest_size=12)
    for api in ("chat.completions", "responses", "messages")
}


def request_key(api: str, request: dict[str, Any]) -> str | None:
    """A stable hash of the request minus its stream/stop settings."""
    # the usual request has no variant field: dump it as it is rather than a copy
    # (key order does not matter: the dump sorts keys)
    core = request
    variant = _VARIANT_FIELDS.intersection(request)
    if variant:
        core = dict(request)
        for name in variant:
            del core[name]
    if not core:
        return None
    try:
        body = orjson.dumps(core, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return None
    seed = _KEY_SEEDS.get(api) if type(api) is str else None
    if seed is None:
        return hashlib.blake2b(api.encode() + b"\0" + body, digest_size=12).hexdigest()
    hasher = seed.copy()
    hasher.update(body)
    return hasher.hexdigest()


def _count(usage: Any, *names: str) -> int | None:
    if not isinstance(usage, dict):
        return None
    for name in names:
        value = usage.get(name)
        if type(value) is int and value >= 0:
            return value
    return None


# streamed usage rides on one of the last chunks (chat's include_usage chunk, Responses'
# response.completed, Messages' message_delta): look no further back than this
_USAGE_TAIL = 3


def completion_tokens(event: dict[str, Any]) -> int | None:
    """Completion tokens billed: the event's own ``usage`` (the gateway's names), else the
    API body's (chat ``completion_tokens``, Responses/Messages ``output_tokens``)."""
    found = _count(event.get("usage"), "completion_tokens")
    if found is not None:
        return found
    response = event.get("response")
    if isinstance(response, dict):
        return _count(response.get("usage"), "completion_tokens", "output_tokens")
    chunks = event.get("chunks")
    if not isinstance(chunks, list):
        return None
    for chunk in reversed(chunks[-_USAGE_TAIL:]):
        if not isinstance(chunk, dict):
            continue
        usage = chunk.get("usage")
        if usage is None:
            usage = _d(chunk.get("response")).get("usage")
        found = _count(usage, "completion_tokens", "output_tokens")
        if found is not None:
            return found
    return None


# the facts of every non-streamed response, shared (StreamFacts is frozen)
_NOT_STREAMED = StreamFacts(chunk_count=0, mixed_chunks=(), visible_pieces=())


def normalise(event: dict[str, Any]) -> Exchange:
    """Build the Exchange for one schema-valid gateway event."""
    api = event["api"]
    request = _d(event.get("request"))
    client = _d(event.get("client"))
    renders = client.get("renders_phases")
    parts = _Parts()
    if api == "chat.completions":  # the usual API, called without the _READERS lambda
        _read_chat(event, parts)
    else:
        _READERS[api](event, parts, renders is True)
    streamed = "chunks" in event
    if streamed or parts.chunk_count or parts.mixed:
        stream_facts = StreamFacts(
            chunk_count=parts.chunk_count,
            mixed_chunks=tuple(parts.mixed),
            visible_pieces=tuple(parts.visible) if streamed else (),
        )
    else:
        stream_facts = _NOT_STREAMED
    return new_exchange(  # Exchange's fields in order (the constructor costs 5x more)
        event["event_id"],
        api,
        bool(event.get("stream", streamed)) or streamed,
        "".join(parts.visible),
        "".join(parts.reasoning),
        parts.reasoning_field,
        tuple(parts.tool_calls),
        declared_tools(api, request),
        response_format(api, request),
        _FINISH.get(parts.finish or "", parts.finish),
        parts.finish,
        "".join(parts.commentary),
        renders if isinstance(renders, bool) else None,
        _opt(client.get("reasoning_field")),
        request_key(api, request),
        stop_strings(api, request),
        stream_facts,
        versions_of(event),
        prompt_text(api, request),
        request_config(api, request),
        history(api, request),
        completion_tokens(event),
    )
