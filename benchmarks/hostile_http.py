"""The audit's hostile HTTP requests (issue 36) against a real ``leakline worker --web``,
while ``/healthz`` is probed from other processes (on the web server, and on the
worker's ``--health-port`` thread that reports the loop's heartbeat): the worst probe latency and the peak
RSS of the worker (its process tree: the worker, its batch child and its decoder child).

    python benchmarks/hostile_http.py            # every phase
    python benchmarks/hostile_http.py --quick    # smaller bodies, fewer connections

Phases, one after the other, each with the answers the server gave:

- ``idle``: the baseline;
- ``tiny-items array``: a 32 MiB JSON array of 2-byte items on ``/ingest`` (and one of
  ``{}`` items): refused (413) before any per-item work;
- ``slow headers``: 600 connections that send half a request head, more than the
  connection cap (256): the oldest are evicted, the rest cut at the header timeout;
- ``slow bodies``: 20 bodies announced at 31 MiB that send 1 KiB/s: each leases its
  bytes; the server answers 408 at the body timeout;
- ``parallel large bodies``: 4 valid NDJSON bodies of ~31 MiB at once: the budget in
  flight (96 MiB) admits what fits, the rest gets 503 with Retry-After;
- ``deep OTLP``: a span attribute nested 100 000 deep: an answer, not a 500;
- ``empty-spans OTLP``: 8 MiB of empty protobuf spans: refused (413) before decoding.

The worker runs with its defaults except ``--web-body-timeout 10`` (so the slow-body
phase ends in seconds, not a minute).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import aiohttp
import orjson

from leakline.pipeline.core.procinfo import tree_rss_mib
from leakline.pipeline.demo import start_worker, stop_process
from leakline.pipeline.kafka.broker import EmbeddedBroker, free_port
from leakline.pipeline.kafka.io import ensure_topics
from leakline.pipeline.simulate.traffic_model import encode_event, simulate

NDJSON = {"Content-Type": "application/x-ndjson"}
JSON = {"Content-Type": "application/json"}


def _probe(port: int, stop: Any, out: Any) -> None:
    """In its own process: GET /healthz every 20 ms; (time, latency or None)."""
    import http.client

    while not stop.is_set():
        started = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/healthz")
            ok = conn.getresponse().status == 200
            conn.close()
        except OSError:
            ok = False
        out.put((time.time(), time.perf_counter() - started if ok else None))
        time.sleep(0.02)


class Rss(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.samples: list[tuple[float, float]] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            rss = tree_rss_mib(self.pid)
            if rss is not None:
                self.samples.append((time.time(), rss))
            self.done.wait(0.05)


def _field(number: int, payload: bytes) -> bytes:
    size, n = b"", len(payload)
    while True:
        byte = n & 0x7F
        n >>= 7
        size += bytes([byte | (0x80 if n else 0)])
        if not n:
            return bytes([number << 3 | 2]) + size + payload


async def _post(base: str, path: str, body: bytes, headers: dict[str, str]) -> int:
    timeout = aiohttp.ClientTimeout(total=300)
    async with (
        aiohttp.ClientSession(timeout=timeout) as s,
        s.post(base + path, data=body, headers=headers) as r,
    ):
        await r.read()
        return r.status


async def tiny_items(base: str, mib: int) -> str:
    zeros = b"[" + b"0," * (mib * 2**19 - 1) + b"0]"
    dicts = b"[" + b"{}," * (mib * 2**20 // 3 - 1) + b"{}]"
    a = await _post(base, "/ingest", zeros, JSON)
    b = await _post(base, "/ingest", dicts, JSON)
    return f"[0,0,...] {len(zeros) >> 20} MiB -> {a}; [{{}},...] {len(dicts) >> 20} MiB -> {b}"


async def slow_headers(port: int, count: int, hold_s: float) -> str:
    conns = []
    for _ in range(count):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            continue
        writer.write(b"POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        conns.append((reader, writer))
    await asyncio.sleep(hold_s)
    closed = 0
    for reader, writer in conns:
        try:
            await asyncio.wait_for(reader.read(), 0.01)
            closed += 1
        except (TimeoutError, OSError):
            pass
        writer.close()
    return f"{len(conns)} opened, {closed} closed by the server within {hold_s:g} s"


async def slow_bodies(port: int, count: int, hold_s: float) -> str:
    async def one() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            b"POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson"
            b"\r\nContent-Length: %d\r\n\r\n" % (31 * 2**20)
        )
        deadline = time.monotonic() + hold_s
        try:
            while time.monotonic() < deadline:
                writer.write(b"x" * 1024)
                await writer.drain()
                try:
                    return await asyncio.wait_for(reader.read(12), 1.0)
                except TimeoutError:
                    continue
        except OSError:
            return b"reset"
        finally:
            writer.close()
        return b"open"

    answers = await asyncio.gather(*(one() for _ in range(count)))
    seen: dict[str, int] = {}
    for a in answers:
        key = a.decode(errors="replace").strip() or "closed"
        seen[key] = seen.get(key, 0) + 1
    return ", ".join(f"{k}: {v}" for k, v in sorted(seen.items()))


async def parallel_bodies(base: str, bodies: list[bytes]) -> str:
    statuses = await asyncio.gather(*(_post(base, "/ingest", b, NDJSON) for b in bodies))
    return f"{len(bodies)} x {len(bodies[0]) >> 20} MiB -> {sorted(statuses)}"


async def deep_otlp(base: str) -> str:
    deep = "[" * 100_000 + "]" * 100_000
    span = {
        "traceId": "0af7651916cd43dd8448eb211c80319c",
        "spanId": "b7ad6b7169203331",
        "name": "chat",
        "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.input.messages", "value": {"stringValue": deep}},
        ],
    }
    nested = '{"kvlistValue":{"values":[{"key":"k","value":' * 3000 + "{}" + "}]}}" * 3000
    kv = (
        '{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"chat","attributes":'
        '[{"key":"x","value":' + nested + "}]}]}]}]}"
    ).encode()
    a = await _post(
        base,
        "/v1/traces",
        orjson.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}),
        JSON,
    )
    b = await _post(base, "/v1/traces", kv, JSON)
    return f"deep JSON string attribute -> {a}; AnyValue nested 3000 deep -> {b}"


async def empty_spans(base: str, mib: int) -> str:
    body = _field(1, _field(2, b"\x12\x00" * (mib * 2**19)))
    status = await _post(base, "/v1/traces", body, {"Content-Type": "application/x-protobuf"})
    return f"{len(body) >> 20} MiB of empty spans -> {status}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--only", action="append", default=[], help="run only this phase (repeatable)"
    )
    args = parser.parse_args(argv)
    mib = 8 if args.quick else 32
    n_large = 2 if args.quick else 4
    events = 3000 if args.quick else 12_652
    lines = [encode_event(sim.event) for sim in simulate(events, seed=36)]
    large = [
        b"\n".join(lines) + b"\n" if i == 0 else
        b"\n".join(line.replace(b'"event_id":"', b'"event_id":"p%d-' % i, 1) for line in lines)
        for i in range(n_large)
    ]  # fmt: skip
    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="leakline-hostile-") as tmp:
        root = Path(tmp)
        with EmbeddedBroker(log_path=root / "broker.log") as broker:
            asyncio.run(ensure_topics(broker.bootstrap, ["gateway.events"], 4))
            port, health_port = free_port(), free_port()
            proc = start_worker(
                broker.bootstrap,
                root / "data",
                root / "worker.log",
                "--web",
                "--web-port",
                str(port),
                "--web-body-timeout",
                "10",
                "--health-port",
                str(health_port),
            )
            base = f"http://127.0.0.1:{port}"
            try:
                deadline = time.monotonic() + 180
                while time.monotonic() < deadline:
                    try:
                        if asyncio.run(_get_ok(base)):
                            break
                    except (aiohttp.ClientError, OSError):
                        pass
                    time.sleep(0.5)
                time.sleep(3)
                stop, out, out_h = ctx.Event(), ctx.Queue(), ctx.Queue()
                prober = ctx.Process(target=_probe, args=(port, stop, out), daemon=True)
                prober.start()
                prober_h = ctx.Process(target=_probe, args=(health_port, stop, out_h), daemon=True)
                prober_h.start()
                rss = Rss(proc.pid)
                rss.start()
                phases: list[tuple[str, float, float, str]] = []

                def phase(name: str, run: Any) -> None:
                    if args.only and name not in args.only and name != "idle":
                        run.close()
                        return
                    started = time.time()
                    what = asyncio.run(run) or ""
                    time.sleep(1.0)
                    phases.append((name, started, time.time(), what))
                    print(f"{name}: {what}", file=sys.stderr, flush=True)

                phase("idle", asyncio.sleep(3))
                phase("tiny-items array", tiny_items(base, mib))
                phase("slow headers", slow_headers(port, 150 if args.quick else 600, 12))
                phase("slow bodies", slow_bodies(port, 5 if args.quick else 20, 14))
                phase("parallel large bodies", parallel_bodies(base, large))
                phase("deep OTLP", deep_otlp(base))
                phase("empty-spans OTLP", empty_spans(base, 2 if args.quick else 8))
                stop.set()
                time.sleep(0.3)
                probes: list[tuple[float, float | None]] = []
                while not out.empty():
                    probes.append(out.get())
                health: list[tuple[float, float | None]] = []
                while not out_h.empty():
                    health.append(out_h.get())
                prober.join(5)
                prober_h.join(5)
                rss.done.set()
                rss.join(2)
            finally:
                stop_process(proc)
    print(
        "| phase | answers | web /healthz probes, failed, median/worst ms "
        "| --health-port probes, failed, median/worst ms | peak RSS MiB |"
    )
    print("|---|---|---|---|---|")
    for name, t0, t1, what in phases:
        peak = max((r for t, r in rss.samples if t0 <= t <= t1), default=float("nan"))
        web_s, health_s = _summary(probes, t0, t1), _summary(health, t0, t1)
        print(f"| {name} | {what} | {web_s} | {health_s} | {peak:.0f} |")
    return 0


def _summary(probes: list[tuple[float, float | None]], t0: float, t1: float) -> str:
    lat = [v for t, v in probes if t0 <= t <= t1 and v is not None]
    failed = sum(1 for t, v in probes if t0 <= t <= t1 and v is None)
    med = statistics.median(lat) * 1000 if lat else float("nan")
    worst = max(lat) * 1000 if lat else float("nan")
    return f"{len(lat)}, {failed}, {med:.1f} / {worst:.0f}"


async def _get_ok(base: str) -> bool:
    async with aiohttp.ClientSession() as s, s.get(base + "/healthz") as r:
        return r.status == 200


if __name__ == "__main__":
    sys.exit(main())
