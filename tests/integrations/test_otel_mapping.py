"""GenAI spans (semantic conventions, OpenLLMetry, OpenInference) -> events v1 -> labels."""

from __future__ import annotations

import asyncio
import json
import time

import orjson
import pytest

from leakline.client import EventMeta
from leakline.pipeline.detect.offline import detect_line
from leakline.pipeline.events.contract import validate_event
from leakline.pipeline.ingest.integrations.otel import event_from_span, events_from_otlp


def kv(attrs: dict) -> list[dict]:
    def any_value(v: object) -> dict:
        if isinstance(v, bool):
            return {"boolValue": v}
        if isinstance(v, int):
            return {"intValue": str(v)}
        if isinstance(v, list):
            return {"arrayValue": {"values": [any_value(x) for x in v]}}
        return {"stringValue": v}

    return [{"key": k, "value": any_value(v)} for k, v in attrs.items()]


def span(span_id: str, attrs: dict, events: list | None = None) -> dict:
    return {
        "traceId": "t" * 32,
        "spanId": span_id,
        "name": "chat",
        "endTimeUnixNano": "1767225600000000000",  # 2026-01-01T00:00:00Z
        "attributes": kv(attrs),
        "events": events or [],
    }


SEMCONV_CLEAN = span(
    "s1",
    {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "vllm",
        "gen_ai.request.model": "qwen3-8b",
        "gen_ai.response.model": "Qwen/Qwen3-8B",
        "gen_ai.response.finish_reasons": ["stop"],
        "gen_ai.input.messages": json.dumps(
            [{"role": "user", "parts": [{"type": "text", "content": "Capital of France?"}]}]
        ),
        "gen_ai.output.messages": json.dumps(
            [
                {
                    "role": "assistant",
                    "finish_reason": "stop",
                    "parts": [
                        {"type": "reasoning", "content": "The user asks for a capital."},
                        {"type": "text", "content": "Paris."},
                    ],
                }
            ]
        ),
    },
)
# content on the details event instead of the span (newer instrumentations)
SEMCONV_LEAK = span(
    "s2",
    {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "vllm",
        "gen_ai.request.model": "qwen3-8b",
    },
    events=[
        {
            "name": "gen_ai.client.inference.operation.details",
            "attributes": kv(
                {
                    "gen_ai.output.messages": json.dumps(
                        [
                            {
                                "role": "assistant",
                                "finish_reason": "stop",
                                "parts": [
                                    {
                                        "type": "text",
                                        "content": "<think>capital question</think>Paris.",
                                    }
                                ],
                            }
                        ]
                    )
                }
            ),
        }
    ],
)
OPENLLMETRY = span(
    "s3",
    {
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-x",
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "Weather in Paris?",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "",
        "gen_ai.completion.0.finish_reason": "tool_calls",
        "gen_ai.completion.0.tool_calls.0.id": "call_1",
        "gen_ai.completion.0.tool_calls.0.name": "get_weather",
        "gen_ai.completion.0.tool_calls.0.arguments": '{"city": "Paris"}',
        "llm.is_streaming": True,
    },
)
OPENINFERENCE = span(
    "s4",
    {
        "llm.provider": "sglang",
        "llm.model_name": "gpt-oss-20b",
        "llm.invocation_parameters": json.dumps({"temperature": 0.2}),
        "llm.input_messages.0.message.role": "user",
        "llm.input_messages.0.message.content": "Hi",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.content": "<|channel|>analysis<|message|>greet back<|end|>Hello!",
    },
)
EMBEDDING = span("s5", {"gen_ai.operation.name": "embeddings", "gen_ai.request.model": "e5"})
NO_CONTENT = span("s6", {"gen_ai.operation.name": "chat", "gen_ai.request.model": "m"})


def export_request() -> bytes:
    return orjson.dumps(
        {
            "resourceSpans": [
                {
                    "resource": {
                        "attributes": kv(
                            {"service.name": "chat-gateway", "service.version": "2.3.1"}
                        )
                    },
                    "scopeSpans": [
                        {
                            "scope": {"name": "x"},
                            "spans": [
                                SEMCONV_CLEAN,
                                SEMCONV_LEAK,
                                OPENLLMETRY,
                                OPENINFERENCE,
                                EMBEDDING,
                                NO_CONTENT,
                            ],
                        }
                    ],
                }
            ]
        }
    )


def labels(event: dict) -> list[str]:
    verdict = detect_line(orjson.dumps(validate_event(event)), 4 * 1024 * 1024)
    assert "error" not in verdict, verdict
    return sorted(verdict["labels"])


def test_export_request_maps_each_dialect() -> None:
    events = {e["event_id"]: e for e in events_from_otlp(export_request())}
    trace = "t" * 32
    assert set(events) == {f"otel-{trace}-s{i}" for i in (1, 2, 3, 4)}  # s5, s6 skipped

    clean = events[f"otel-{trace}-s1"]
    message = clean["response"]["choices"][0]["message"]
    assert message == {
        "role": "assistant",
        "content": "Paris.",
        "reasoning": "The user asks for a capital.",
    }
    assert clean["request"]["messages"] == [{"role": "user", "content": "Capital of France?"}]
    assert clean["engine"] == {"name": "vllm"}
    assert clean["model"] == {"name": "Qwen/Qwen3-8B"}
    assert clean["gateway"] == {"name": "chat-gateway", "version": "2.3.1"}
    assert clean["ts"] == "2026-01-01T00:00:00Z"
    assert labels(clean) == []

    assert {"boundary_token", "reasoning_leak"} <= set(labels(events[f"otel-{trace}-s2"]))

    tools = events[f"otel-{trace}-s3"]
    call = tools["response"]["choices"][0]["message"]["tool_calls"][0]
    assert call["function"] == {"name": "get_weather", "arguments": '{"city": "Paris"}'}
    assert tools["stream"] is True and tools["engine"] == {"name": "openai"}
    assert labels(tools) == []  # a structured tool call is not a leak

    harmony = events[f"otel-{trace}-s4"]
    assert harmony["request"]["temperature"] == 0.2
    assert harmony["engine"] == {"name": "sglang"}
    assert "boundary_token" in labels(harmony)


def test_configured_versions_win_and_flat_attributes_work() -> None:
    flat = dict(
        SEMCONV_CLEAN,
        attributes={
            "gen_ai.operation.name": "chat",
            "gen_ai.output.messages": [
                {"role": "assistant", "parts": [{"type": "text", "content": "ok"}]}
            ],
        },
    )
    event = event_from_span(flat, meta=EventMeta(engine_name="vllm", engine_version="0.11.0"))
    assert event is not None
    assert event["engine"] == {"name": "vllm", "version": "0.11.0"}
    assert event["gateway"]["name"] == "otel"
    validate_event(event)


@pytest.mark.slow
def test_relay_from_an_otlp_json_topic(broker) -> None:
    from leakline_testkit import read_topic

    from leakline.client import LeakProducer, ProducerConfig
    from leakline.pipeline.ingest.integrations.otel import DEFAULT_OTLP_TOPIC, relay_otlp
    from leakline.pipeline.kafka.io import ensure_topics, produce

    async def run() -> dict[str, int]:
        await ensure_topics(broker.bootstrap, [DEFAULT_OTLP_TOPIC, "gateway.events"], 1)
        await produce(broker.bootstrap, DEFAULT_OTLP_TOPIC, [export_request(), b"not json"])
        stop = asyncio.Event()
        async with LeakProducer(ProducerConfig(bootstrap=broker.bootstrap)) as producer:
            task = asyncio.create_task(
                relay_otlp(broker.bootstrap, producer, stop=stop, session_timeout_s=6)
            )
            deadline = time.monotonic() + 90
            while producer.stats.sent < 4 and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            await asyncio.sleep(1.0)  # let the commit happen
            stop.set()
            return await asyncio.wait_for(task, 30)

    counts = asyncio.run(run())
    assert (counts["records"], counts["events"], counts["unreadable"]) == (2, 4, 1)
    assert counts["skipped"] == counts["spans"] - 4  # spans without content: counted only
    keys = sorted(r.key.decode() for r in read_topic(broker.bootstrap, "gateway.events"))
    assert keys == sorted(f"otel-{'t' * 32}-s{i}" for i in (1, 2, 3, 4))
