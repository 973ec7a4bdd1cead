"""``POST /v1/traces``: OTLP/HTTP in (protobuf and JSON), GenAI spans out as events.

The handler tests run an aiohttp server in-process with a recording sender. The end-to-end
test is the real client path: the OpenTelemetry SDK with its OTLP/HTTP (protobuf) exporter
and the OpenInference instrumentation of the ``openai`` SDK, calling ``leakline engine-sim``
with leaky profiles, exporting to ``leakline otlp-receiver``; a real worker stores the
events, and every stored verdict equals ``leakline detect`` on the same event.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from leakline.client import EventMeta
from leakline.pipeline.ingest.http import IngestConfig
from leakline.pipeline.ingest.otlp import OtlpStats, register_otlp


def kv(attrs: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"key": k, "value": {"stringValue": v}} for k, v in attrs.items()]


def export(*spans: dict[str, Any]) -> dict[str, Any]:
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": kv({"service.name": "my-gateway"})},
                "scopeSpans": [{"spans": list(spans)}],
            }
        ]
    }


LEAKY_SPAN = {
    "traceId": "0af7651916cd43dd8448eb211c80319c",
    "spanId": "b7ad6b7169203331",
    "name": "chat",
    "endTimeUnixNano": "1764633600000000000",
    "attributes": kv(
        {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "qwen3",
            "gen_ai.prompt.0.role": "user",
            "gen_ai.prompt.0.content": "hi",
            "gen_ai.completion.0.role": "assistant",
            "gen_ai.completion.0.content": "<think>the user greets</think>Hello!",
            "gen_ai.completion.0.finish_reason": "stop",
        }
    ),
}
EMPTY_SPAN = {  # content capture off: nothing to check
    "traceId": "0af7651916cd43dd8448eb211c80319c",
    "spanId": "c7ad6b7169203332",
    "name": "chat",
    "attributes": kv({"gen_ai.operation.name": "chat", "gen_ai.request.model": "qwen3"}),
}


async def _client(
    token: str | None = None, max_body: int = 1 << 20
) -> tuple[TestClient, list, OtlpStats]:
    sent: list[tuple[str, bytes | None, bytes]] = []

    async def send(topic: str, key: bytes | None, value: bytes) -> None:
        sent.append((topic, key, value))

    app = web.Application()
    config = IngestConfig(token=token, max_body_bytes=max_body)
    stats = register_otlp(app, send, config, meta=EventMeta(engine_version="0.11.0"))
    client = TestClient(TestServer(app))
    await client.start_server()
    return client, sent, stats


def test_json_export_becomes_events_and_empty_spans_are_counted() -> None:
    async def run() -> None:
        client, sent, stats = await _client()
        try:
            body = orjson.dumps(export(LEAKY_SPAN, EMPTY_SPAN))
            response = await client.post(
                "/v1/traces", data=body, headers={"Content-Type": "application/json"}
            )
            assert response.status == 200, await response.text()
            assert await response.json() == {}
            # gzip, as exporters send with OTEL_EXPORTER_OTLP_COMPRESSION=gzip; same span id
            response = await client.post(
                "/v1/traces",
                data=gzip.compress(body),
                headers={"Content-Type": "application/json", "Content-Encoding": "gzip"},
            )
            assert response.status == 200
        finally:
            await client.close()
        assert stats.spans == 4 and stats.events == 2 and stats.skipped == 2
        topic, key, value = sent[0]
        event = json.loads(value)
        assert topic == "gateway.events"
        assert (
            key
            == b"otel-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331"
            == event["event_id"].encode()
        )
        assert event["engine"]["version"] == "0.11.0"
        assert event["gateway"]["name"] == "my-gateway"
        assert sent[0][2] == sent[1][2]  # a retried export is the same event (counted once)

    asyncio.run(run())


def test_protobuf_export_is_read() -> None:
    from google.protobuf.json_format import ParseDict
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
        ExportTraceServiceResponse,
    )

    # OTLP/JSON ids are hex; protobuf carries bytes
    pb_span = dict(LEAKY_SPAN, traceId=None, spanId=None)
    message = ParseDict(
        export({k: v for k, v in pb_span.items() if v is not None}), ExportTraceServiceRequest()
    )
    span = message.resource_spans[0].scope_spans[0].spans[0]
    span.trace_id = bytes.fromhex(LEAKY_SPAN["traceId"])
    span.span_id = bytes.fromhex(LEAKY_SPAN["spanId"])

    async def run() -> None:
        client, sent, stats = await _client()
        try:
            response = await client.post(
                "/v1/traces",
                data=message.SerializeToString(),
                headers={"Content-Type": "application/x-protobuf"},
            )
            assert response.status == 200, await response.text()
            assert response.content_type == "application/x-protobuf"
            ExportTraceServiceResponse.FromString(await response.read())
        finally:
            await client.close()
        assert stats.events == 1
        assert json.loads(sent[0][2])["event_id"] == (
            f"otel-{LEAKY_SPAN['traceId']}-{LEAKY_SPAN['spanId']}"
        )

    asyncio.run(run())


def test_token_size_and_type_limits_are_those_of_ingest() -> None:
    async def run() -> None:
        client, sent, stats = await _client(token="s3cret", max_body=2048)
        json_type = {"Content-Type": "application/json"}
        try:
            body = orjson.dumps(export(LEAKY_SPAN))
            assert (await client.post("/v1/traces", data=body, headers=json_type)).status == 401
            auth = {**json_type, "Authorization": "Bearer s3cret"}
            assert (await client.post("/v1/traces", data=body, headers=auth)).status == 200
            big = orjson.dumps(export(*[LEAKY_SPAN] * 20))
            assert (await client.post("/v1/traces", data=big, headers=auth)).status == 413
            bomb = gzip.compress(b" " * 100_000)  # small on the wire, over the limit inflated
            gz = {**auth, "Content-Encoding": "gzip"}
            assert (await client.post("/v1/traces", data=bomb, headers=gz)).status == 413
            text = {"Content-Type": "text/plain", "Authorization": "Bearer s3cret"}
            assert (await client.post("/v1/traces", data=body, headers=text)).status == 415
            assert (await client.post("/v1/traces", data=b"[1]", headers=auth)).status == 400
        finally:
            await client.close()
        assert len(sent) == 1

    asyncio.run(run())


# ------------------------------------------------------------ the real client, end to end


def _start_receiver(bootstrap: str, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.cli",
            "otlp-receiver",
            "--port",
            "0",
            "--bootstrap",
            bootstrap,
        ],  # fmt: skip
        stdout=log.open("ab"),
        stderr=subprocess.PIPE,
        env={**os.environ, "LEAKLINE_ENGINE_VERSION": "0.11.0-sim"},
        start_new_session=True,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline().decode()
        match = re.search(r"(http://127\.0\.0\.1:\d+/v1/traces)", line)
        if match:
            return proc, match.group(1)
        if proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"otlp-receiver did not start: {log.read_text()[-2000:]}")


@pytest.mark.slow
def test_opentelemetry_sdk_exporter_to_the_receiver_to_the_store(
    broker, engine_sim, tmp_path: Path
) -> None:
    import openai
    from leakline_testkit import read_topic, spawn_worker, wait_stored
    from openinference.instrumentation.openai import OpenAIInstrumentor
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    from leakline.pipeline.detect.offline import detect_line
    from leakline.pipeline.store.database import read_only

    worker = spawn_worker(broker.bootstrap, tmp_path / "data")
    receiver, url = _start_receiver(broker.bootstrap, tmp_path / "receiver.log")
    provider = TracerProvider(
        resource=Resource.create({"service.name": "otel-gateway", "service.version": "2.1"})
    )
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=url)))  # protobuf
    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    calls = 0
    try:
        client = openai.OpenAI(base_url=engine_sim.base_url, api_key="sk-test", max_retries=0)
        question = [{"role": "user", "content": "How do I rotate the API keys?"}]
        for profile in ("good", "tool-parser-only", "preamble", "tools-as-text"):
            client.chat.completions.create(model=f"sim-{profile}", messages=question)
            calls += 1
        stream = client.chat.completions.create(
            model="sim-tool-parser-only", messages=question, stream=True
        )
        for _ in stream:
            pass
        calls += 1
        with provider.get_tracer("test").start_as_current_span("not-an-llm-call"):
            pass  # a span without GenAI content: counted and skipped
        assert provider.force_flush(30_000)
        wait_stored(worker, calls)
    finally:
        instrumentor.uninstrument()
        provider.shutdown()
        receiver.send_signal(signal.SIGTERM)
        _, err = receiver.communicate(timeout=30)
        assert worker.stop() == 0, worker.log_text()[-3000:]
    stats = json.loads(err.decode().strip().splitlines()[-1].split("otlp-receiver: ", 1)[1])
    assert stats["events"] == calls and stats["skipped"] >= 1, stats

    events = {
        json.loads(r.value)["event_id"]: json.loads(r.value)
        for r in read_topic(broker.bootstrap, "gateway.events")
    }
    assert len(events) == calls
    assert not read_topic(broker.bootstrap, "gateway.events.dlq")
    with read_only(tmp_path / "data") as con:
        rows = {
            r[0]: r[1:]
            for r in con.execute(
                "select event_id, labels, engine_version, model_name, gateway_name, gateway_version from samples"
            ).fetchall()
        }
    assert set(rows) == set(events)
    leaky = 0
    for event_id, event in events.items():
        labels, engine_version, model, gateway, gateway_version = rows[event_id]
        offline = detect_line(orjson.dumps(event), 4 * 1024 * 1024)
        assert sorted(labels) == offline["labels"], event_id
        assert engine_version == "0.11.0-sim"  # configured on the receiver
        assert model.startswith("sim-")
        assert (gateway, gateway_version) == ("otel-gateway", "2.1")
        leaky += bool(labels)
    by_model = {rows[e][2]: sorted(rows[e][0]) for e in rows}
    assert by_model["sim-good"] == []
    assert "reasoning_leak" in by_model["sim-tool-parser-only"]
    assert leaky >= 3


@pytest.mark.slow
def test_otlp_relay_command_moves_collector_records_to_gateway_events(
    broker, tmp_path: Path
) -> None:
    from leakline_testkit import read_topic

    from leakline.pipeline.kafka.io import ensure_topics, produce

    async def seed() -> None:
        await ensure_topics(broker.bootstrap, ["otlp_spans", "gateway.events"], 1)
        await produce(
            broker.bootstrap, "otlp_spans", [orjson.dumps(export(LEAKY_SPAN, EMPTY_SPAN))]
        )

    asyncio.run(seed())
    relay = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.cli",
            "otlp-relay",
            "--bootstrap",
            broker.bootstrap,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        records: list[Any] = []
        while not records and time.monotonic() < deadline:
            time.sleep(0.5)
            records = read_topic(broker.bootstrap, "gateway.events")
        assert [r.key for r in records] == [
            f"otel-{LEAKY_SPAN['traceId']}-{LEAKY_SPAN['spanId']}".encode()
        ]
        time.sleep(1.5)  # the commit after delivery
    finally:
        relay.send_signal(signal.SIGTERM)
        _, err = relay.communicate(timeout=60)
    assert relay.returncode == 0, err.decode()[-2000:]
    counts = json.loads(err.decode().strip().splitlines()[-1].split("otlp-relay: ", 1)[1])
    assert counts == {"records": 1, "spans": 2, "events": 1, "skipped": 1, "unreadable": 0}


@pytest.mark.slow
def test_the_worker_web_server_serves_v1_traces(broker, tmp_path: Path) -> None:
    import socket
    import urllib.request

    from leakline_testkit import spawn_worker, wait_stored

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    worker = spawn_worker(broker.bootstrap, tmp_path / "data", "--web", "--web-port", str(port))
    try:
        body = orjson.dumps(export(LEAKY_SPAN, EMPTY_SPAN))
        deadline = time.monotonic() + 90
        while True:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/v1/traces",
                data=body,
                headers={"Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    assert response.status == 200
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        wait_stored(worker, 1)
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
