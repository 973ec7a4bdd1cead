"""Issue 36, findings 1, 7, 8 and 9: one hostile request must not take a receiver down.

Real aiohttp servers on loopback (the ingest and OTLP handlers, served through the same
``GuardedAppRunner`` as the worker and ``otlp-receiver``), raw sockets for the slow
clients, the real ``otlp-receiver`` and ``otlp-relay`` commands, a real broker for the relay.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import orjson
import pytest
from aiohttp import web

from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.core.http_limits import ServerLimits
from leakline.pipeline.http.guard import GuardedAppRunner
from leakline.pipeline.ingest.bounds import json_value_bound, protobuf_span_bound
from leakline.pipeline.ingest.http import IngestConfig, register_ingest, split_body
from leakline.pipeline.ingest.otlp import register_otlp
from leakline.pipeline.kafka.broker import free_port

NDJSON = {"Content-Type": "application/x-ndjson"}
JSON = {"Content-Type": "application/json"}


class Recorder:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    async def __call__(self, topic: str, key: bytes | None, value: bytes) -> None:
        self.sent.append(value)


async def _serve(
    limits: ServerLimits, send: Any = None, **config: Any
) -> tuple[GuardedAppRunner, int, Recorder]:
    """/ingest, /v1/traces and /healthz behind a ``GuardedAppRunner``, as on the worker."""
    recorder = send or Recorder()
    app = web.Application(client_max_size=64 * 2**20)
    ingest = IngestConfig(limits=limits, **config)
    register_ingest(app, recorder, ingest)
    register_otlp(app, recorder, ingest)

    async def healthz(_: web.Request) -> web.Response:
        return web.Response(text="ok")

    app.router.add_get("/healthz", healthz)
    runner = GuardedAppRunner(app, limits, access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner, port, recorder


def _run(
    limits: ServerLimits, body: Callable[[int, Recorder], Awaitable[None]], **cfg: Any
) -> None:
    async def main() -> None:
        runner, port, recorder = await _serve(limits, **cfg)
        try:
            await body(port, recorder)
        finally:
            await runner.cleanup()

    asyncio.run(main())


def _event(i: int) -> dict[str, Any]:
    return {
        "event_id": f"h{i}",
        "api": "chat.completions",
        "request": {},
        "response": {"choices": [{"message": {"content": "ok"}}]},
    }


# ---------------------------------------------------------------- finding 1: /ingest


def test_an_array_of_millions_of_tiny_items_is_refused_before_any_per_item_work() -> None:
    """Before: every item was re-serialised before the count was checked (a 32 MiB body
    took the worker to 24 GB). Now the values are counted at C speed first: the peak of
    Python allocations stays a small multiple of the body."""
    body = b"[" + b"0," * (3 * 2**20) + b"0]"  # 6 MiB, 3.1 million items
    tracemalloc.start()
    try:
        with pytest.raises(Exception) as refused:
            split_body(body, "application/json")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert getattr(refused.value, "status", None) == 413, refused.value
    assert peak < 3 * len(body), f"peak {peak / 2**20:.0f} MiB for a {len(body) >> 20} MiB body"


def test_an_array_over_the_event_limit_is_refused_before_items_are_serialised() -> None:
    body = orjson.dumps([{"a": 1}] * 60_001)  # few values each: passes the value bound
    assert json_value_bound(body, 10**9) < IngestConfig().max_json_values
    tracemalloc.start()
    try:
        with pytest.raises(Exception) as refused:
            split_body(body, "application/json")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert getattr(refused.value, "status", None) == 413
    # parsed once (60k small dicts), never dumped item by item (60k more bytes objects)
    assert peak < 20 * 2**20


def test_ndjson_lines_are_counted_before_they_are_split() -> None:
    body = b"{}\n" * 2_000_000
    tracemalloc.start()
    try:
        with pytest.raises(Exception) as refused:
            split_body(body, "application/x-ndjson")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert getattr(refused.value, "status", None) == 413
    assert peak < 2**20  # before: two million bytes objects (~80 MiB)


def test_the_json_value_bound_counts_what_orjson_makes_and_ignores_strings() -> None:
    for doc in ([], [1, 2, 3], [{"a": [1, {}], "b": "x,y[{"}], {"k": '\\",['}, [[[[]]]]):
        raw = orjson.dumps(doc)

        def values(v: Any) -> int:
            if isinstance(v, dict):
                return 1 + sum(1 + values(x) for x in v.values())
            if isinstance(v, list):
                return 1 + sum(values(x) for x in v)
            return 1

        assert json_value_bound(raw, 0) >= values(doc), doc
    inside = b'["' + b",[{" * 1000 + b'"]'  # every bracket inside one string
    assert json_value_bound(inside, 10) < 10 and json_value_bound(inside, 10**9) > 1000
    # strings longer than a scan window, cut by window edges, are still taken out
    long = orjson.dumps(["x,[{" * 300_000, [1, 2], "y" * 600_000 + ",,"])
    assert 6 <= json_value_bound(long, 1) < 12  # [0,[1,2],0]: 6 values


def test_bodies_in_flight_are_capped_across_requests() -> None:
    """A body held open (slow upload) takes its bytes from the server's budget: a second
    body that would pass the budget gets 503 with Retry-After; once the first finishes,
    the next one is accepted. Before: no global cap, every body was held."""
    limits = ServerLimits(max_inflight_bytes=2 * 2**20, body_timeout_s=30)
    first_part = b"\n".join(orjson.dumps(_event(i)) for i in range(12_000)) + b"\n"
    assert 2**20 < len(first_part) < 2 * 2**20
    second = b"\n".join(orjson.dumps(_event(i)) for i in range(12_000, 24_000))

    async def body(port: int, recorder: Recorder) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        total = len(first_part) + 10
        writer.write(
            b"POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson"
            b"\r\nContent-Length: %d\r\n\r\n" % total + first_part
        )
        await writer.drain()
        await asyncio.sleep(0.5)  # the first body is half in: its bytes are leased
        url = f"http://127.0.0.1:{port}/ingest"
        async with aiohttp.ClientSession() as session:
            async with session.post(url, data=second, headers=NDJSON) as resp:
                assert resp.status == 503, await resp.text()
                assert resp.headers["Retry-After"]
            writer.write(b"\n" * 10)  # the first body completes
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 202"), head
            async with session.post(url, data=second, headers=NDJSON) as resp:
                assert resp.status == 202, await resp.text()
        writer.close()
        assert len(recorder.sent) == 24_000

    _run(limits, body)


# ---------------------------------------------------------------- finding 7: deep nesting

DEEP = "[" * 100_000 + "]" * 100_000


def _deep_export() -> bytes:
    span = {
        "traceId": "0af7651916cd43dd8448eb211c80319c",
        "spanId": "b7ad6b7169203331",
        "name": "chat",
        "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.input.messages", "value": {"stringValue": DEEP}},
        ],
    }
    return orjson.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]})


def test_deep_nesting_in_a_span_attribute_is_a_400_not_a_500() -> None:
    async def body(port: int, recorder: Recorder) -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                f"http://127.0.0.1:{port}/v1/traces", data=_deep_export(), headers=JSON
            ) as resp,
        ):
            assert resp.status in (200, 400), await resp.text()
            assert resp.status < 500

    _run(ServerLimits(), body)


@pytest.mark.slow
def test_the_relay_skips_and_counts_a_poison_pill_and_relays_the_records_after_it(
    broker,
) -> None:
    """Before: ``RecursionError`` escaped the relay loop; it crashed on that record,
    restarted from the committed offset and never relayed the ones after it."""
    from leakline_testkit import read_topic

    from leakline.pipeline.kafka.io import ensure_topics, produce

    good = {
        "traceId": "1af7651916cd43dd8448eb211c80319c",
        "spanId": "c7ad6b7169203331",
        "name": "chat",
        "endTimeUnixNano": "1764633600000000000",
        "attributes": [
            {"key": k, "value": {"stringValue": v}}
            for k, v in {
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": "qwen3",
                "gen_ai.prompt.0.role": "user",
                "gen_ai.prompt.0.content": "hi",
                "gen_ai.completion.0.role": "assistant",
                "gen_ai.completion.0.content": "Hello!",
            }.items()
        ],
    }
    nested_any = '{"kvlistValue":{"values":[{"key":"k","value":' * 3000 + "{}" + "}]}}" * 3000
    poison_kv = (
        '{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"chat","attributes":'
        '[{"key":"x","value":' + nested_any + "}]}]}]}]}"
    ).encode()
    records = [
        _deep_export(),
        poison_kv,
        orjson.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [good]}]}]}),
    ]

    async def seed() -> None:
        await ensure_topics(broker.bootstrap, ["otlp_spans", "gateway.events"], 1)
        await produce(broker.bootstrap, "otlp_spans", records)

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
        got: list[Any] = []
        while not got and time.monotonic() < deadline and relay.poll() is None:
            time.sleep(0.5)
            got = read_topic(broker.bootstrap, "gateway.events")
        time.sleep(1.5)  # the commit after delivery
    finally:
        relay.send_signal(signal.SIGTERM)
        _, err = relay.communicate(timeout=60)
    assert relay.returncode == 0, err.decode()[-2000:]
    assert [r.key for r in got] == [f"otel-{good['traceId']}-{good['spanId']}".encode()]
    counts = json.loads(err.decode().strip().splitlines()[-1].split("otlp-relay: ", 1)[1])
    assert counts["records"] == 3 and counts["events"] == 1
    # the deep JSON string in an attribute is text, not a crash; the deep AnyValue is unreadable
    assert counts["unreadable"] == 1, counts


# ---------------------------------------------------------------- finding 8: otlp-receiver


def test_otlp_receiver_refuses_a_short_token_beyond_loopback() -> None:
    from leakline.pipeline.http.auth import check_exposure

    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.cli",
            "otlp-receiver",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--token",
            "x",
        ],  # fmt: skip
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode != 0 and b"too short" in proc.stderr, proc.stderr[-1000:]
    with pytest.raises(LeaklineError):  # the same rule the worker applies
        check_exposure("0.0.0.0", "x")


def test_otlp_receiver_answers_421_to_a_foreign_host_and_checks_the_token() -> None:
    from leakline.pipeline.core.config import Settings
    from leakline.pipeline.ingest.otlp import serve_otlp

    token = "t" * 24

    async def main() -> None:
        stop = asyncio.Event()
        bound: list[int] = []
        task = asyncio.create_task(
            serve_otlp(
                Settings(bootstrap="127.0.0.1:1"),
                "127.0.0.1",
                0,
                token=token,
                stop=stop,
                ready=bound.append,
            )
        )
        while not bound:
            await asyncio.sleep(0.05)
        url = f"http://127.0.0.1:{bound[0]}/v1/traces"
        empty = orjson.dumps({"resourceSpans": []})
        auth = {"Authorization": f"Bearer {token}", **JSON}
        try:
            async with aiohttp.ClientSession() as session:
                # a DNS-rebinding page: right address, its own domain in Host
                async with session.post(
                    url, data=empty, headers={**auth, "Host": "evil.example:4318"}
                ) as resp:
                    assert resp.status == 421
                async with session.post(url, data=empty, headers=JSON) as resp:
                    assert resp.status == 401
                async with session.post(url, data=empty, headers=auth) as resp:
                    assert resp.status == 200, await resp.text()
        finally:
            stop.set()
            await task

    asyncio.run(main())


# ---------------------------------------------------------------- finding 9: timeouts, caps


async def _closed_within(reader: asyncio.StreamReader, seconds: float) -> bytes:
    """What the server sent before it closed the connection (fails if it stays open)."""
    return await asyncio.wait_for(reader.read(), seconds)


def test_slow_headers_are_cut_at_the_header_timeout() -> None:
    async def body(port: int, recorder: Recorder) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        sent = await _closed_within(reader, 5)
        assert 0.8 < time.monotonic() - started < 3
        assert sent.startswith(b"HTTP/1.1 408")
        writer.close()

    _run(ServerLimits(header_timeout_s=1.0), body)


def test_slow_bodies_are_cut_at_the_body_timeout() -> None:
    async def body(port: int, recorder: Recorder) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            b"POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson"
            b"\r\nContent-Length: 100000\r\n\r\n{"
        )
        sent = await _closed_within(reader, 5)
        assert sent.startswith(b"HTTP/1.1 408"), sent
        writer.close()
        assert not recorder.sent

    _run(ServerLimits(body_timeout_s=1.0), body)


def test_idle_connections_are_closed_at_the_idle_timeout() -> None:
    async def body(port: int, recorder: Recorder) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await reader.readuntil(b"ok")
        started = time.monotonic()
        await _closed_within(reader, 6)
        assert time.monotonic() - started < 4
        writer.close()

    _run(ServerLimits(idle_timeout_s=1.0, header_timeout_s=30), body)


def test_the_connection_cap_holds_and_slow_headers_cannot_lock_out_the_probe() -> None:
    """Before: every connection was accepted and held (file descriptors ran out before
    the token was checked). Now at most ``max_connections`` are open; connections still
    sending their head are evicted first, so /healthz answers."""
    cap = 20

    async def body(port: int, recorder: Recorder) -> None:
        slow = []
        for _ in range(3 * cap):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /healthz HTTP/1.1\r\n")
            slow.append((reader, writer))
        await asyncio.sleep(0.3)
        still_open = 0
        for reader, _ in slow:
            try:
                await asyncio.wait_for(reader.read(), 0.05)
            except TimeoutError:
                still_open += 1
        assert still_open <= cap
        async with aiohttp.ClientSession() as session:
            for _ in range(5):
                started = time.perf_counter()
                async with session.get(f"http://127.0.0.1:{port}/healthz") as resp:
                    assert resp.status == 200
                assert time.perf_counter() - started < 0.5
        for _, writer in slow:
            writer.close()

    _run(ServerLimits(max_connections=cap, header_timeout_s=30), body)


def _empty_spans_protobuf(spans: int) -> bytes:
    def field(number: int, payload: bytes) -> bytes:
        size, n = b"", len(payload)
        while True:
            byte = n & 0x7F
            n >>= 7
            size += bytes([byte | (0x80 if n else 0)])
            if not n:
                break
        return bytes([number << 3 | 2]) + size + payload

    return field(1, field(2, b"\x12\x00" * spans))


def test_an_otlp_body_of_millions_of_empty_spans_is_refused_without_decoding_it() -> None:
    """Before: 8 MiB of empty spans decoded on the event loop for about 12 s."""
    body = _empty_spans_protobuf(4 * 2**20)
    assert protobuf_span_bound(body, 50_000) > 50_000

    async def run(port: int, recorder: Recorder) -> None:
        async with aiohttp.ClientSession() as session:
            started = time.perf_counter()
            async with session.post(
                f"http://127.0.0.1:{port}/v1/traces",
                data=body,
                headers={"Content-Type": "application/x-protobuf"},
            ) as resp:
                assert resp.status == 413, await resp.text()
            assert time.perf_counter() - started < 2.0

    _run(ServerLimits(), run, max_body_bytes=16 * 2**20)


def test_otlp_decoding_runs_off_the_loop_probes_stay_fast() -> None:
    """A large (but allowed) OTLP protobuf export: /healthz keeps answering while it
    decodes (before: decoded on the event loop)."""
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    message = ExportTraceServiceRequest()
    scope = message.resource_spans.add().scope_spans.add()
    for i in range(6_000):
        span = scope.spans.add(name="chat", trace_id=b"\x0a" * 16, span_id=i.to_bytes(8, "big"))
        for k in range(40):
            attribute = span.attributes.add(key=f"k{k}")
            attribute.value.string_value = "v" * 20
    body = message.SerializeToString()
    headers = {"Content-Type": "application/x-protobuf"}

    async def run(port: int, recorder: Recorder) -> None:
        latencies: list[float] = []
        done = asyncio.Event()
        async with aiohttp.ClientSession() as session:

            async def probe() -> None:
                # the client shares the server's loop: measure from before the pause, so
                # a loop blocked while the prober sleeps counts too
                while not done.is_set():
                    started = time.perf_counter()
                    await asyncio.sleep(0.02)
                    async with session.get(f"http://127.0.0.1:{port}/healthz") as r:
                        await r.read()
                    latencies.append(time.perf_counter() - started - 0.02)

            prober = asyncio.create_task(probe())
            await asyncio.sleep(0.1)
            started = time.perf_counter()
            async with session.post(
                f"http://127.0.0.1:{port}/v1/traces", data=body, headers=headers
            ) as resp:
                assert resp.status == 200, await resp.text()
            took = time.perf_counter() - started
            done.set()
            await prober
        assert took > 0.3, "the body decoded too fast to show anything"
        assert len(latencies) >= 5
        # the client shares this loop, so a probe also waits for the client's own work
        assert max(latencies) < 0.25, sorted(latencies)[-5:]

    _run(ServerLimits(), run, max_body_bytes=64 * 2**20)


@pytest.mark.slow
def test_the_worker_web_server_applies_the_limits(broker, tmp_path) -> None:
    from leakline_testkit import spawn_worker

    port = free_port()
    worker = spawn_worker(
        broker.bootstrap,
        tmp_path / "data",
        "--web",
        "--web-port",
        str(port),
        "--web-header-timeout",
        "1",
        "--web-max-connections",
        "8",
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), 1) as s:
                    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    if s.recv(100).startswith(b"HTTP/1.1 200"):
                        break
            except OSError:
                pass
            time.sleep(0.3)

        async def attack() -> None:
            slow = []
            for _ in range(30):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b"GET /metrics HTTP/1.1\r\n")
                slow.append((reader, writer))
            started = time.monotonic()
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"http://127.0.0.1:{port}/healthz") as resp,
            ):
                assert resp.status == 200
            # every slow one is gone within the header timeout (evicted or timed out)
            for reader, writer in slow:
                with contextlib.suppress(ConnectionResetError):  # our half head unread
                    await asyncio.wait_for(reader.read(), 5)
                writer.close()
            assert time.monotonic() - started < 5

        asyncio.run(attack())
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
