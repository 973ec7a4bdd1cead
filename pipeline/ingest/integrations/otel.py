"""OpenTelemetry GenAI spans -> gateway events v1 (chat.completions shape).

Reads what an OTel collector exports as OTLP/JSON (``ExportTraceServiceRequest``:
``resourceSpans[].scopeSpans[].spans[]``, e.g. the collector's Kafka exporter with
``encoding: otlp_json``) or single spans. Three attribute dialects are understood:

1. GenAI semantic conventions (structured messages): ``gen_ai.input.messages``,
   ``gen_ai.output.messages`` (parts of type ``text``, ``reasoning``, ``tool_call``),
   ``gen_ai.system_instructions``; on the span or on a
   ``gen_ai.client.inference.operation.details`` span event.
2. OpenLLMetry's indexed attributes: ``gen_ai.prompt.N.role|content``,
   ``gen_ai.completion.N.role|content|finish_reason|reasoning``,
   ``gen_ai.completion.N.tool_calls.M.id|name|arguments``.
3. OpenInference: ``llm.input_messages.N.message.role|content``,
   ``llm.output_messages.N.message.role|content``,
   ``llm.output_messages.N.message.tool_calls.M.tool_call.function.name|arguments``,
   ``llm.model_name``, ``llm.provider``, ``llm.invocation_parameters``.

The mapping table is in the docs site's integrations page (docs/integrations.md). A span only becomes an event when
it carries output text: spans without message content (content capture off) say
nothing about leaks and are skipped. Chunks are never available from spans, so
chunk-level labels (``mixed_chunk``) cannot fire on these events.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

import orjson

from leakline.client import EventMeta, build_event
from leakline.client.event import user_pseudonym
from leakline.client.metadata import parse_tags

GATEWAY_NAME = "otel"
_CHAT_OPERATIONS = {"chat", "text_completion", "generate_content", None}
DETAILS_EVENT = "gen_ai.client.inference.operation.details"


def _any_value(value: Mapping[str, Any]) -> Any:
    """OTLP/JSON AnyValue -> Python."""
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        return int(value["intValue"])
    if "arrayValue" in value:
        return [_any_value(v) for v in value["arrayValue"].get("values", [])]
    if "kvlistValue" in value:
        return attributes(value["kvlistValue"].get("values", []))
    return None


def attributes(raw: Any) -> dict[str, Any]:
    """OTLP/JSON ``[{"key", "value": AnyValue}]`` (or an already flat dict) -> dict."""
    if isinstance(raw, Mapping):
        return dict(raw)
    out: dict[str, Any] = {}
    for item in raw or []:
        if isinstance(item, Mapping) and "key" in item:
            out[str(item["key"])] = _any_value(item.get("value") or {})
    return out


def _json(value: Any) -> Any:
    """A JSON-string attribute, parsed; left as text when it is not JSON. orjson refuses
    nesting past 1024 levels with an error where ``json`` recursed (RecursionError)."""
    if isinstance(value, str):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
    return value


def _indexed(attrs: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
    """``prefix.N.rest`` attributes -> a list of {rest: value} by N."""
    items: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        if not key.startswith(prefix):
            continue
        head, _, rest = key[len(prefix) :].partition(".")
        if head.isdigit() and rest:
            items.setdefault(int(head), {})[rest] = value
    return [items[i] for i in sorted(items)]


def _parts_text(parts: Any, kind: str) -> str:
    return "".join(
        str(p.get("content") or "")
        for p in parts or []
        if isinstance(p, Mapping) and p.get("type") == kind
    )


def _structured(attrs: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Semantic-convention messages -> (chat messages, assistant message + finish)."""
    messages: list[dict[str, Any]] = []
    system = _json(attrs.get("gen_ai.system_instructions"))
    if isinstance(system, list) and _parts_text(system, "text"):
        messages.append({"role": "system", "content": _parts_text(system, "text")})
    for sent in _json(attrs.get("gen_ai.input.messages")) or []:
        if isinstance(sent, Mapping):
            messages.append(
                {"role": sent.get("role"), "content": _parts_text(sent.get("parts"), "text")}
            )
    output = _json(attrs.get("gen_ai.output.messages"))
    if not isinstance(output, list) or not output or not isinstance(output[0], Mapping):
        return messages, None
    first = output[0]
    parts = first.get("parts") or []
    calls = [
        {
            "id": p.get("id"),
            "type": "function",
            "function": {
                "name": p.get("name"),
                "arguments": p["arguments"]
                if isinstance(p.get("arguments"), str)
                else json.dumps(p.get("arguments") or {}),
            },
        }
        for p in parts
        if isinstance(p, Mapping) and p.get("type") == "tool_call"
    ]
    message: dict[str, Any] = {"role": "assistant", "content": _parts_text(parts, "text")}
    reasoning = _parts_text(parts, "reasoning")
    if reasoning:
        message["reasoning"] = reasoning
    if calls:
        message["tool_calls"] = calls
    return messages, {"message": message, "finish_reason": first.get("finish_reason")}


def _openllmetry(attrs: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    messages = [
        {"role": p.get("role"), "content": p.get("content")}
        for p in _indexed(attrs, "gen_ai.prompt.")
    ]
    completions = _indexed(attrs, "gen_ai.completion.")
    if not completions:
        return messages, None
    first = completions[0]
    message: dict[str, Any] = {
        "role": first.get("role") or "assistant",
        "content": first.get("content") or "",
    }
    if first.get("reasoning"):
        message["reasoning"] = first["reasoning"]
    calls = _indexed({k: v for k, v in first.items()}, "tool_calls.")
    if calls:
        message["tool_calls"] = [
            {
                "id": c.get("id"),
                "type": "function",
                "function": {"name": c.get("name"), "arguments": c.get("arguments") or ""},
            }
            for c in calls
        ]
    return messages, {"message": message, "finish_reason": first.get("finish_reason")}


def _openinference(attrs: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    messages = [
        {"role": m.get("message.role"), "content": m.get("message.content")}
        for m in _indexed(attrs, "llm.input_messages.")
    ]
    outputs = _indexed(attrs, "llm.output_messages.")
    if not outputs:
        return messages, None
    first = outputs[0]
    message: dict[str, Any] = {
        "role": first.get("message.role") or "assistant",
        "content": first.get("message.content") or "",
    }
    calls = _indexed(first, "message.tool_calls.")
    if calls:
        message["tool_calls"] = [
            {
                "id": c.get("tool_call.id"),
                "type": "function",
                "function": {
                    "name": c.get("tool_call.function.name"),
                    "arguments": c.get("tool_call.function.arguments") or "",
                },
            }
            for c in calls
        ]
    return messages, {"message": message, "finish_reason": None}


# tag name -> the span or resource attribute it is read from; $LEAKLINE_OTEL_TAGS replaces it
# ("tenant=tenant.id,app=service.namespace"). The user id is only ever stored hashed.
DEFAULT_TAG_ATTRIBUTES: dict[str, str] = {
    "deployment": "deployment.environment",
    "region": "cloud.region",
}
ENV_OTEL_TAGS = "LEAKLINE_OTEL_TAGS"
_USER_ATTRIBUTES = ("enduser.id", "user.id")


def tag_attributes(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The configured tag mapping ($LEAKLINE_OTEL_TAGS), else ``DEFAULT_TAG_ATTRIBUTES``."""
    text = (os.environ if environ is None else environ).get(ENV_OTEL_TAGS, "")
    return parse_tags(text) or dict(DEFAULT_TAG_ATTRIBUTES)


def _tags(
    attrs: Mapping[str, Any], resource: Mapping[str, Any], mapping: Mapping[str, str]
) -> dict[str, Any]:
    tags: dict[str, Any] = {}
    for name, key in mapping.items():
        value = attrs.get(key, resource.get(key))
        if value is not None and value != "":
            tags[name] = value
    for key in _USER_ATTRIBUTES:
        user = attrs.get(key, resource.get(key))
        if user:
            pseudonym = user_pseudonym(user)
            if pseudonym:
                tags["user"] = pseudonym
            break
    return tags


def _usage(attrs: Mapping[str, Any]) -> dict[str, Any]:
    def first(*keys: str) -> Any:
        for key in keys:
            if key in attrs:
                return attrs[key]
        return None

    return {
        "prompt_tokens": first(
            "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt"
        ),
        "completion_tokens": first(
            "gen_ai.usage.output_tokens",
            "gen_ai.usage.completion_tokens",
            "llm.token_count.completion",
        ),
        "reasoning_tokens": first(
            "gen_ai.usage.reasoning_tokens", "llm.token_count.completion_details.reasoning"
        ),
        "total_tokens": first("llm.usage.total_tokens", "llm.token_count.total"),
    }


def _latency_ms(span: Mapping[str, Any]) -> float | None:
    try:
        nanos = int(span["endTimeUnixNano"]) - int(span["startTimeUnixNano"])
    except (KeyError, TypeError, ValueError):
        return None
    return nanos / 1e6 if nanos >= 0 else None


def _time(nanos: Any) -> datetime | None:
    try:
        return datetime.fromtimestamp(int(nanos) / 1e9, UTC)
    except (TypeError, ValueError, OverflowError):
        return None


def event_from_span(
    span: Mapping[str, Any],
    resource: Mapping[str, Any] | None = None,
    meta: EventMeta | None = None,
    tag_mapping: Mapping[str, str] | None = None,
) -> dict[str, Any] | None:
    """One GenAI span -> a gateway event v1, or None (not an LLM call, or no content).

    ``tag_mapping`` (tag name -> span or resource attribute; default ``tag_attributes()``)
    fills ``tags``; token counts and the span's duration fill ``usage`` and ``latency_ms``."""
    attrs = attributes(span.get("attributes"))
    for event in span.get("events") or []:
        if isinstance(event, Mapping) and event.get("name") == DETAILS_EVENT:
            attrs.update(attributes(event.get("attributes")))
    if attrs.get("gen_ai.operation.name") not in _CHAT_OPERATIONS:
        return None
    for dialect in (_structured, _openllmetry, _openinference):
        messages, choice = dialect(attrs)
        if choice is not None:
            break
    else:
        return None
    finish = choice["finish_reason"]
    finishes = attrs.get("gen_ai.response.finish_reasons")
    if finish is None and isinstance(finishes, list) and finishes:
        finish = finishes[0]
    invocation = _json(attrs.get("llm.invocation_parameters"))
    request: dict[str, Any] = dict(invocation) if isinstance(invocation, Mapping) else {}
    request.update(
        {
            k: v
            for k, v in {
                "model": attrs.get("gen_ai.request.model") or attrs.get("llm.model_name"),
                "messages": messages,
                "max_tokens": attrs.get("gen_ai.request.max_tokens"),
                "stop": attrs.get("gen_ai.request.stop_sequences"),
                "tools": _json(attrs.get("gen_ai.tool.definitions")),
            }.items()
            if v is not None
        }
    )
    if attrs.get("gen_ai.output.type") == "json" and "response_format" not in request:
        request["response_format"] = {"type": "json_object"}
    stream = attrs.get("gen_ai.request.stream", attrs.get("llm.is_streaming"))
    if isinstance(stream, bool):
        request["stream"] = stream
    response = {
        "object": "chat.completion",
        "id": attrs.get("gen_ai.response.id"),
        "model": attrs.get("gen_ai.response.model") or request.get("model"),
        "choices": [{"index": 0, "message": choice["message"], "finish_reason": finish}],
    }
    res = attributes(resource or {})
    configured = meta or EventMeta()
    fallback = EventMeta(
        engine_name=attrs.get("gen_ai.provider.name")
        or attrs.get("gen_ai.system")
        or attrs.get("llm.provider")
        or attrs.get("llm.system"),
        gateway_name=res.get("service.name") or GATEWAY_NAME,
        gateway_version=res.get("service.version"),
    )
    trace, span_id = span.get("traceId"), span.get("spanId")
    return build_event(
        api="chat.completions",
        request=request,
        response=response,
        stream=bool(stream) if isinstance(stream, bool) else False,
        meta=configured.merged(fallback),
        event_id=f"otel-{trace}-{span_id}" if trace and span_id else None,
        now=_time(span.get("endTimeUnixNano")),
        tags=_tags(attrs, res, tag_attributes() if tag_mapping is None else tag_mapping),
        usage=_usage(attrs),
        latency_ms=_latency_ms(span),
    )


def events_from_otlp(
    payload: bytes | str | Mapping[str, Any], meta: EventMeta | None = None
) -> Iterator[dict[str, Any]]:
    """Every GenAI chat span of an OTLP/JSON ``ExportTraceServiceRequest`` as an event."""
    data = orjson.loads(payload) if isinstance(payload, bytes | str) else payload
    for resource_spans in data.get("resourceSpans") or []:
        resource = (resource_spans.get("resource") or {}).get("attributes")
        for scope in resource_spans.get("scopeSpans") or []:
            for span in scope.get("spans") or []:
                event = event_from_span(span, attributes(resource), meta)
                if event is not None:
                    yield event


def _events_and_spans(
    data: Mapping[str, Any], meta: EventMeta | None
) -> tuple[list[dict[str, Any]], int]:
    spans = sum(
        len(scope.get("spans") or [])
        for resource_spans in data.get("resourceSpans") or []
        for scope in resource_spans.get("scopeSpans") or []
    )
    return list(events_from_otlp(data, meta)), spans


DEFAULT_OTLP_TOPIC = "otlp_spans"  # the collector's Kafka exporter default


async def relay_otlp(
    bootstrap: str,
    producer: Any,
    *,
    source_topic: str = DEFAULT_OTLP_TOPIC,
    group_id: str = "leakline-otel",
    stop: Any = None,
    security: Any = None,
    session_timeout_s: float = 10.0,
    meta: EventMeta | None = None,
) -> dict[str, int]:
    """Consume OTLP/JSON export requests from Kafka and submit their GenAI spans as events.

    Offsets are committed only after the producer delivered the batch's events
    (at-least-once; the store counts an event_id once). Unreadable records are
    counted and skipped. Runs until ``stop`` (an ``asyncio.Event``) is set.
    """
    import asyncio
    import logging

    from aiokafka import AIOKafkaConsumer

    from leakline.pipeline.kafka.io import client_options

    log = logging.getLogger("leakline.otel")
    counts = {"records": 0, "spans": 0, "events": 0, "skipped": 0, "unreadable": 0}
    consumer = AIOKafkaConsumer(
        source_topic,
        bootstrap_servers=bootstrap,
        group_id=group_id,
        enable_auto_commit=False,
        auto_offset_reset="earliest",
        session_timeout_ms=int(session_timeout_s * 1000),
        heartbeat_interval_ms=1000,
        **client_options(security),
    )
    await consumer.start()
    try:
        while stop is None or not stop.is_set():
            batch = await consumer.getmany(timeout_ms=500, max_records=500)
            if not batch:
                continue
            for records in batch.values():
                for record in records:
                    counts["records"] += 1
                    try:
                        data = orjson.loads(record.value or b"{}")
                        events, spans = _events_and_spans(data, meta)
                    except (ValueError, TypeError, AttributeError, RecursionError) as exc:
                        # a poison pill is counted and skipped; the records after it go on
                        counts["unreadable"] += 1
                        log.warning(
                            "skipping an unreadable OTLP record (%s offset %d): %s",
                            record.topic,
                            record.offset,
                            type(exc).__name__,
                        )
                        continue
                    counts["spans"] += spans
                    counts["skipped"] += spans - len(events)  # no content: counted, not sent
                    for event in events:
                        counts["events"] += int(producer.submit(event))
            while not await producer.flush(30):  # never commit what is not delivered
                if stop is not None and stop.is_set():
                    return counts
                await asyncio.sleep(1)
            await consumer.commit()
    finally:
        await consumer.stop()
    return counts
