"""Issue 18, part 2: ``POST /ingest`` at the documented size is fast, keeps the worker's
probes answering, and its answer counts exactly what the broker acknowledged."""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path

import aiohttp
import orjson
import pytest
from aiohttp import web
from leakline_testkit import spawn_worker, wait_stored

from leakline.pipeline.ingest.http import AiokafkaSender, IngestConfig, register_ingest
from leakline.pipeline.kafka.broker import free_port
from leakline.pipeline.kafka.io import ensure_topics
from leakline.pipeline.simulate.traffic_model import encode_event, simulate
from leakline.pipeline.store.database import read_only

NDJSON = {"Content-Type": "application/x-ndjson"}


def big_body(count: int, seed: int = 18) -> tuple[bytes, list[str]]:
    events = [sim.event for sim in simulate(count, seed=seed)]
    return b"\n".join(encode_event(e) for e in events) + b"\n", [e["event_id"] for e in events]


async def post_while_probing(
    port: int, body: bytes, every_s: float = 0.05
) -> tuple[int, dict, float, list[float]]:
    """POST ``body`` to /ingest while /healthz is asked every ``every_s``; the answer,
    the seconds the POST took, and each probe's latency in seconds."""
    base = f"http://127.0.0.1:{port}"
    latencies: list[float] = []
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as session:
        done = asyncio.Event()

        async def probe() -> None:
            while not done.is_set():
                started = time.perf_counter()
                async with session.get(base + "/healthz") as resp:
                    await resp.read()
                    assert resp.status == 200
                latencies.append(time.perf_counter() - started)
                await asyncio.sleep(every_s)

        prober = asyncio.create_task(probe())
        await asyncio.sleep(0.3)
        started = time.perf_counter()
        async with session.post(base + "/ingest", data=body, headers=NDJSON) as resp:
            status, answer = resp.status, orjson.loads(await resp.read())
        took = time.perf_counter() - started
        done.set()
        await prober
    return status, answer, took, latencies


def _describe(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    return (
        f"{len(ordered)} probes, median {statistics.median(ordered) * 1000:.0f} ms, "
        f"slowest {[round(s * 1000) for s in ordered[-3:]]} ms"
    )


def _wait_web(port: int, timeout_s: float = 120.0) -> None:
    async def up() -> bool:
        try:
            async with (
                aiohttp.ClientSession() as s,
                s.get(f"http://127.0.0.1:{port}/healthz") as r,
            ):
                return r.status == 200
        except (aiohttp.ClientError, OSError):
            return False

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if asyncio.run(up()):
            return
        time.sleep(0.3)
    raise AssertionError("web server did not come up")


@pytest.mark.slow
def test_a_31_mib_body_on_the_worker_is_fast_exact_and_probes_keep_answering(
    broker, tmp_path: Path
) -> None:
    body, ids = big_body(12_652)
    assert 28 * 2**20 < len(body) < 32 * 2**20
    port = free_port()
    worker = spawn_worker(broker.bootstrap, tmp_path / "data", "--web", "--web-port", str(port))
    try:
        _wait_web(port)
        status, answer, took, latencies = asyncio.run(post_while_probing(port, body))
        assert (status, answer) == (202, {"accepted": len(ids), "rejected": 0}), answer
        # the whole body again: harmless, every event_id is counted once
        again = asyncio.run(post_while_probing(port, body))
        assert again[:2] == (202, {"accepted": len(ids), "rejected": 0})
        wait_stored(worker, len(ids), timeout_s=240)
        time.sleep(2.0)
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
    rate = len(ids) / took
    print(f"worker ingest {rate:.0f} events/s, probes {_describe(latencies)}")
    assert took < 30.0, f"{len(ids)} events took {took:.1f} s ({rate:.0f}/s)"
    # the worker's loop also consumes and stores these events (its batch sink stalls it
    # for a few hundred ms now and then, with or without /ingest): the typical probe is
    # fast; the bound on the ingest path itself is the standalone test below
    assert len(latencies) >= 10 and statistics.median(latencies) < 0.1, _describe(latencies)
    with read_only(tmp_path / "data") as con:
        total, distinct = con.execute(
            "select count(*), count(distinct event_id) from samples"
        ).fetchone()
    assert total == distinct == len(ids)


@pytest.mark.slow
def test_the_ingest_path_never_blocks_the_loop_probes_answer_within_100ms(
    broker, tmp_path: Path
) -> None:
    """A real aiohttp server and producer; the body is uploaded by curl (another
    process), so every probe latency measured here is the server loop's own."""
    body, ids = big_body(12_652, seed=19)
    path = tmp_path / "body.ndjson"
    path.write_bytes(body)

    async def run() -> tuple[int, dict, float, list[float]]:
        await ensure_topics(broker.bootstrap, ["gateway.events"], 4)
        sender = AiokafkaSender(broker.bootstrap)
        await sender.start()
        app = web.Application()

        async def healthz(_: web.Request) -> web.Response:
            return web.json_response({"alive": True})

        app.router.add_get("/healthz", healthz)
        register_ingest(app, sender, IngestConfig())
        runner = web.AppRunner(app)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        latencies: list[float] = []
        try:
            async with aiohttp.ClientSession() as session:
                curl = await asyncio.create_subprocess_exec(
                    "curl", "-sS", "-X", "POST", "-H", "Content-Type: application/x-ndjson",
                    "--data-binary", f"@{path}", "-w", "\\n%{http_code} %{time_total}",
                    f"http://127.0.0.1:{port}/ingest",
                    stdout=asyncio.subprocess.PIPE,
                )  # fmt: skip
                waiting = asyncio.ensure_future(curl.communicate())
                while not waiting.done():
                    started = time.perf_counter()
                    async with session.get(f"http://127.0.0.1:{port}/healthz") as resp:
                        await resp.read()
                    latencies.append(time.perf_counter() - started)
                    await asyncio.sleep(0.02)
                out, _ = await waiting
        finally:
            await runner.cleanup()
            await sender.stop()
        answer, last = out.rsplit(b"\n", 1)
        status, took = last.split()
        return int(status), orjson.loads(answer), float(took), latencies

    status, answer, took, latencies = asyncio.run(run())
    print(f"standalone ingest {len(ids) / took:.0f} events/s, probes {_describe(latencies)}")
    assert (status, answer) == (202, {"accepted": len(ids), "rejected": 0})
    # Timings on a shared 2-core machine: a rare scheduler hiccup is not the loop blocking,
    # so nine probes in ten must answer within 100 ms (the loop blocked on the body before:
    # 803 events/s, probes up to 766 ms, then a false 503). The exact throughput is
    # benchmarks/ingest_bench.py's job (15.9k/s in-process); this only guards the order.
    assert len(latencies) >= 10
    assert statistics.quantiles(latencies, n=10)[-1] < 0.1, _describe(latencies)
    assert len(ids) / took >= 2000, f"{len(ids) / took:.0f} events/s"


class FlakySender:
    """Acknowledges the first ``good`` sends, then fails every other one."""

    def __init__(self, good: int) -> None:
        self.good, self.calls = good, 0

    async def __call__(self, topic: str, key: bytes | None, value: bytes) -> None:
        self.calls += 1
        call = self.calls
        await asyncio.sleep(0)
        if call > self.good and call % 2 == 0:
            raise ConnectionError("broker went away")


async def _serve(send, **config) -> tuple[web.AppRunner, str]:
    app = web.Application()
    register_ingest(app, send, IngestConfig(**config))
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner, f"http://127.0.0.1:{port}/ingest"


def _lines(count: int) -> bytes:
    return b"\n".join(
        orjson.dumps(
            {
                "event_id": f"f{i}",
                "api": "chat.completions",
                "request": {},
                "response": {"choices": [{"message": {"content": "ok"}}]},
            }
        )
        for i in range(count)
    )


def test_a_partly_acknowledged_body_says_exactly_what_was_accepted() -> None:
    async def run() -> None:
        runner, url = await _serve(FlakySender(good=10))
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.post(url, data=_lines(30), headers=NDJSON) as resp,
            ):
                status, answer = resp.status, orjson.loads(await resp.read())
        finally:
            await runner.cleanup()
        # sends 11..30 fail on even calls: 10 of them; 20 acknowledged
        assert status == 502 and resp.headers["Retry-After"]
        assert answer["accepted"] == 20 and answer["unsent"] == 10
        assert answer["unsent_lines"] == list(range(12, 31, 2))

    asyncio.run(run())


def test_nothing_acknowledged_is_a_503_with_nothing_accepted() -> None:
    async def run() -> None:
        async def down(topic: str, key: bytes | None, value: bytes) -> None:
            raise ConnectionError("no broker")

        runner, url = await _serve(down)
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.post(url, data=_lines(5), headers=NDJSON) as resp,
            ):
                status, answer = resp.status, orjson.loads(await resp.read())
        finally:
            await runner.cleanup()
        assert status == 503 and answer["accepted"] == 0 and answer["unsent"] == 5

    asyncio.run(run())
