"""``POST /ingest`` at size: events/s against raw produce of the same payloads, and how
fast the web server's probe answers while a big body is in flight.

    python benchmarks/ingest_bench.py                  # 12 652 events (~31 MiB), 3 runs
    python benchmarks/ingest_bench.py --events 3000 --runs 1
    python benchmarks/ingest_bench.py --worker         # also on a real `leakline worker --web`

One embedded broker (Tansu), one run:

- ``raw produce``: ``leakline.pipeline.kafka.io.produce`` of the NDJSON lines (the
  baseline: no HTTP, no validation);
- ``ingest (in-process)``: an aiohttp app with ``register_ingest`` and an
  ``AiokafkaSender``, one NDJSON body POSTed while ``/healthz`` is asked every 20 ms;
- ``ingest (worker)``: the same body POSTed to a real worker's web server (which also
  consumes and stores the events while it answers), with its ``/healthz`` probed.

Ratios are to raw produce measured in the same run, so they hold across machines.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import orjson
from aiohttp import web

from leakline.pipeline.demo import start_worker, stop_process
from leakline.pipeline.ingest.http import AiokafkaSender, IngestConfig, register_ingest
from leakline.pipeline.kafka.broker import EmbeddedBroker, free_port
from leakline.pipeline.kafka.io import ensure_topics, produce
from leakline.pipeline.simulate.traffic_model import encode_event, simulate

NDJSON = {"Content-Type": "application/x-ndjson"}


def body_of(count: int, seed: int) -> tuple[bytes, list[bytes]]:
    lines = [encode_event(sim.event) for sim in simulate(count, seed=seed)]
    return b"\n".join(lines) + b"\n", lines


async def post_probing(base: str, body: bytes) -> tuple[int, dict, float, list[float]]:
    latencies: list[float] = []
    done = asyncio.Event()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=300)) as session:

        async def probe() -> None:
            while not done.is_set():
                started = time.perf_counter()
                async with session.get(base + "/healthz") as resp:
                    await resp.read()
                latencies.append(time.perf_counter() - started)
                await asyncio.sleep(0.02)

        prober = asyncio.create_task(probe())
        await asyncio.sleep(0.2)
        started = time.perf_counter()
        async with session.post(base + "/ingest", data=body, headers=NDJSON) as resp:
            status, answer = resp.status, orjson.loads(await resp.read())
        took = time.perf_counter() - started
        done.set()
        await prober
    return status, answer, took, latencies


async def in_process(bootstrap: str, body: bytes, topic: str) -> tuple[int, dict, float, list]:
    sender = AiokafkaSender(bootstrap)
    await sender.start()
    app = web.Application()

    async def healthz(_: web.Request) -> web.Response:
        return web.json_response({"alive": True})

    app.router.add_get("/healthz", healthz)
    register_ingest(app, sender, IngestConfig(topic=topic))
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        return await post_probing(f"http://127.0.0.1:{port}", body)
    finally:
        await runner.cleanup()
        await sender.stop()


def on_worker(bootstrap: str, body: bytes, root: Path) -> tuple[int, dict, float, list]:
    port = free_port()
    log = root / "worker.log"
    proc = start_worker(bootstrap, root / "data", log, "--web", "--web-port", str(port))
    base = f"http://127.0.0.1:{port}"

    async def up() -> bool:
        try:
            async with aiohttp.ClientSession() as s, s.get(base + "/healthz") as r:
                return r.status == 200
        except (aiohttp.ClientError, OSError):
            return False

    try:
        deadline = time.monotonic() + 120
        while not asyncio.run(up()):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("the worker's web server did not come up")
            time.sleep(0.3)
        return asyncio.run(post_probing(base, body))
    finally:
        stop_process(proc)


def describe(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{len(ordered)} probes: median {statistics.median(ordered) * 1000:.0f} ms, "
        f"p99 {p99 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=12_652)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--worker", action="store_true", help="also POST to a real worker")
    args = parser.parse_args(argv)
    body, lines = body_of(args.events, seed=18)
    print(f"{args.events} events, {len(body) / 2**20:.1f} MiB body", file=sys.stderr)
    rows: list[tuple[str, float, str]] = []
    with tempfile.TemporaryDirectory(prefix="leakline-ingest-") as tmp:
        root = Path(tmp)
        with EmbeddedBroker(log_path=root / "broker.log") as broker:
            asyncio.run(ensure_topics(broker.bootstrap, ["raw", "http", "gateway.events"], 4))
            raw_rates, http_rates, probes = [], [], []
            for _ in range(args.runs):
                started = time.perf_counter()
                report = asyncio.run(produce(broker.bootstrap, "raw", lines))
                raw_rates.append(report.sent / (time.perf_counter() - started))
                status, answer, took, latencies = asyncio.run(
                    in_process(broker.bootstrap, body, "http")
                )
                if status != 202 or answer["accepted"] != args.events:
                    raise SystemExit(f"ingest answered {status} {answer}")
                http_rates.append(args.events / took)
                probes += latencies
            raw = statistics.median(raw_rates)
            rows.append(("raw produce (baseline)", raw, ""))
            rows.append(("ingest, in-process", statistics.median(http_rates), describe(probes)))
            if args.worker:
                status, answer, took, latencies = on_worker(broker.bootstrap, body, root)
                if status != 202 or answer["accepted"] != args.events:
                    raise SystemExit(f"worker ingest answered {status} {answer}")
                rows.append(("ingest, real worker", args.events / took, describe(latencies)))
    width = max(len(r[0]) for r in rows)
    print(f"{'path':<{width}}  {'events/s':>9}  {'ratio':>6}  /healthz while in flight")
    for name, rate, probe in rows:
        print(f"{name:<{width}}  {rate:>9.0f}  {rate / raw:>6.2f}  {probe}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
