"""Hostile and normal traffic together, on a real broker and worker: no normal event lost.

    python benchmarks/hostile_reliability.py             # 5 000 normal events (~3 min)
    python benchmarks/hostile_reliability.py --quick     # 1 500 normal events (~1 min)
    python benchmarks/hostile_reliability.py --json hostile.json --keep

One embedded broker (Tansu) and one ``leakline worker --web`` with a token (so its
``POST /ingest`` is on). While the normal events flow in, half through Kafka and half
through ``/ingest`` as NDJSON bodies (a body that is not answered 202 is resent, as the
``/ingest`` contract tells a gateway to do), the hostile traffic runs beside them:

- array bodies: ``/ingest`` JSON arrays of millions of 1-2 byte items, just under the
  body limit (issue 36 item 1); the answer must be a refusal;
- versions: one ``/ingest`` body of events that each carry a distinct engine version and
  model name (item 2); they are valid and must be stored;
- call markup: replies of repeated ``<tool_call>`` of 1-4 MB through Kafka and one
  through ``/ingest`` (item 4); stored, with ``detection_cut`` set;
- Kafka poison: ``malformed_payloads`` plus ``reliability.hostile_payloads`` (oversized,
  deeply nested, odd unicode, numbers, timestamps), split by the offline oracle
  (``detect_line``) into those to store and those to dead-letter; the dead-letter topic
  must hold exactly the latter;
- refused bodies: malformed events and depth-100 000 JSON posted to ``/ingest``;
- slow bodies: connections that announce a 1 MB body and send one byte a second.

Meanwhile ``/healthz`` is probed every 100 ms from a thread of its own (worst latency and
failed probes), and the worker's RSS, its batch children included, is sampled. A worker
whose tree passes ``--rss-guard-mib`` is killed by the benchmark and restarted (this
machine is shared: a worker allowed to grow to 24 GB takes the others down with it); a
worker that dies is restarted too. Both are reported, never hidden.

At the end the store is read with DuckDB. ``lost`` is normal event ids absent from the
``samples`` view, ``duplicated`` the rows beyond one per normal event id in it. The exit
status is 1 when a normal event is lost or double-counted, 0 otherwise, whatever the
hostile traffic did (its figures are printed for the reader to judge).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import aiohttp
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reliability import (  # noqa: E402  (this folder's sibling benchmark)
    Feeder,
    Result,
    RssSampler,
    Run,
    audit,
    chunks,
    hostile_payloads,
    interleave,
    valid_events,
)

from leakline.pipeline.core.config import MAX_EVENT_BYTES  # noqa: E402
from leakline.pipeline.core.procinfo import tree_rss_mib  # noqa: E402
from leakline.pipeline.detect.offline import detect_line  # noqa: E402
from leakline.pipeline.kafka.broker import free_port  # noqa: E402
from leakline.pipeline.simulate.traffic_model import malformed_cases, malformed_payloads  # noqa: E402
from leakline.pipeline.store.database import read_only  # noqa: E402

TOKEN = "hostile-reliability-token-0123456789"
BODY_LIMIT = 32 * 1024 * 1024  # the worker's /ingest body limit (IngestConfig)
INGEST_LINES = 250  # normal events per /ingest body
PROBE_EVERY_S = 0.1
PROBE_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Size:
    normal: int
    versions: int  # distinct version strings in the versions body
    array_bodies: int
    markup_mb: tuple[float, ...]  # sizes of the <tool_call> replies
    slow_clients: int
    pace_s: float  # the normal traffic is spread over this long


DEFAULT = Size(5000, 20_000, 2, (1.0, 2.0, 3.0, 4.0), 50, 60.0)
QUICK = Size(1500, 5000, 1, (1.0, 3.0), 20, 15.0)


@dataclass
class Report:
    normal_sent: int = 0
    normal_lost: int = 0
    normal_duplicated: int = 0  # rows beyond one per normal event id in `samples`
    normal_raw_extra: int = 0  # the same in `samples_all` (redeliveries: harmless)
    normal_resent_bodies: int = 0  # /ingest bodies resent after a non-202 answer
    hostile_valid_sent: int = 0  # hostile events that must be stored once accepted
    hostile_stored: int = 0
    hostile_cut: int = 0  # stored with detection_cut set
    dlq_expected: int = 0
    dlq_got: int = 0
    dlq_exact: bool = False
    refused: dict[str, str] = field(default_factory=dict)  # hostile request -> answer
    slow_closed_by_server: int = 0
    slow_clients: int = 0
    healthz_probes: int = 0
    healthz_failed: int = 0
    healthz_worst_ms: float = 0.0
    healthz_p99_ms: float = 0.0
    peak_rss_mib: float = 0.0
    guard_kills: int = 0
    worker_deaths: int = 0
    total_counted: int = 0  # query_rates total
    total_expected: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.normal_sent > 0 and self.normal_lost == 0 and self.normal_duplicated == 0


# ------------------------------------------------------------------ traffic


def event(event_id: str, content: str, **extra: Any) -> dict[str, Any]:
    return {
        "event_id": event_id,
        "api": "chat.completions",
        "request": {"messages": [{"role": "user", "content": "hi"}]},
        "response": {"choices": [{"message": {"content": content}, "finish_reason": "stop"}]},
        **extra,
    }


def version_events(count: int) -> list[bytes]:
    """Small valid events, each with its own engine version and model name."""
    return [
        orjson.dumps(
            event(
                f"hostile-ver-{i}",
                "ok",
                engine={"name": "vllm", "version": f"0.{i // 100}.{i % 100}-h{i}"},
                model={"name": f"hostile/model-{i}", "revision": f"r{i}"},
            )
        )
        for i in range(count)
    ]


def markup_events(sizes_mb: tuple[float, ...]) -> list[bytes]:
    """Replies of repeated call markup, ``sizes_mb`` megabytes each (under 4 MiB)."""
    unit = '<tool_call>{"name": "f", "arguments": {}}</tool_call>'
    out = []
    encoded = len(orjson.dumps(unit)) - 2  # its quotes are escaped in the event
    for i, mb in enumerate(sizes_mb):
        reps = int(min(mb * 1_000_000, MAX_EVENT_BYTES - 8192) // encoded)
        out.append(orjson.dumps(event(f"hostile-markup-{i}", unit * reps)))
    return out


def array_body(index: int) -> bytes:
    """A JSON array of tiny items, just under the body limit: ``[0,0,...]`` or ``[{},...]``."""
    item = b"0" if index % 2 == 0 else b"{}"
    count = (BODY_LIMIT - 1024) // (len(item) + 1)
    return b"[" + b",".join([item] * count) + b"]"


def deep_body(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


# ------------------------------------------------------------------ probes and guard


class Prober(threading.Thread):
    """GET /healthz every 100 ms on its own thread; a slow answer delays the next probe."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.latencies: list[float] = []
        self.failed = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(PROBE_EVERY_S):
            started = time.perf_counter()
            try:
                con = http.client.HTTPConnection("127.0.0.1", self.port, timeout=PROBE_TIMEOUT_S)
                con.request("GET", "/healthz")
                ok = con.getresponse().status == 200
                con.close()
            except OSError:
                ok = False
            if ok:
                self.latencies.append(time.perf_counter() - started)
            else:
                self.failed += 1


class Supervisor(threading.Thread):
    """Keeps one worker running: kills it past the RSS guard, restarts it when it is gone."""

    def __init__(self, run: Run, guard_mib: float) -> None:
        super().__init__(daemon=True)
        self.run_ = run
        self.guard_mib = guard_mib
        self.guard_kills = 0
        self.deaths = 0
        self.stop = threading.Event()
        self.worker = run.spawn()

    def run(self) -> None:
        while not self.stop.wait(0.05):
            proc = self.worker
            mib = tree_rss_mib(proc.pid)
            if mib is not None and mib > self.guard_mib:
                os.killpg(proc.pid, signal.SIGKILL)  # the worker and its batch children
                proc.wait()
                self.guard_kills += 1
                self.run_.dir.joinpath("guard.log").open("a").write(f"killed at {mib:.0f} MiB\n")
            elif proc.poll() is None:
                continue
            else:
                self.deaths += 1
            if not self.stop.is_set():
                self.worker = self.run_.spawn()


# ------------------------------------------------------------------ HTTP clients


async def wait_up(port: int, timeout_s: float = 120.0) -> None:
    deadline = time.monotonic() + timeout_s
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            try:
                async with session.get(f"http://127.0.0.1:{port}/healthz") as resp:
                    if resp.status == 200:
                        return
            except (aiohttp.ClientError, OSError):
                pass
            await asyncio.sleep(0.5)
    raise TimeoutError("the worker's web server did not come up")


async def post(
    session: aiohttp.ClientSession, port: int, body: bytes, ndjson: bool
) -> tuple[int, Any]:
    """(status, answer); status 0 for a connection error or a timeout."""
    headers = {
        "Authorization": f"Bearer {TOKEN}",
        "Content-Type": "application/x-ndjson" if ndjson else "application/json",
    }
    try:
        async with session.post(
            f"http://127.0.0.1:{port}/ingest", data=body, headers=headers
        ) as resp:
            raw = await resp.read()
            try:
                return resp.status, orjson.loads(raw)
            except orjson.JSONDecodeError:
                return resp.status, raw[:200].decode(errors="replace")
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        return 0, f"{type(exc).__name__}: {exc}"[:200]


async def send_normal(port: int, bodies: list[bytes], pace_s: float, report: Report) -> None:
    """Each body until it is answered 202 with every line accepted (resending is safe)."""
    timeout = aiohttp.ClientTimeout(total=PROBE_TIMEOUT_S)
    pause = pace_s / max(1, len(bodies))
    async with aiohttp.ClientSession(timeout=timeout) as session:
        for body in bodies:
            lines = body.count(b"\n")
            deadline = time.monotonic() + 600
            while True:
                status, answer = await post(session, port, body, ndjson=True)
                if status == 202 and isinstance(answer, dict) and answer["accepted"] == lines:
                    break
                report.normal_resent_bodies += 1
                if time.monotonic() > deadline:
                    report.notes.append(f"a normal body was never accepted: {status} {answer}")
                    break
                await asyncio.sleep(1.0)
            await asyncio.sleep(pause)


async def send_hostile(
    port: int, size: Size, versions: list[bytes], markup: bytes, report: Report
) -> list[str]:
    """The hostile /ingest requests, one after another; ids of the valid events accepted."""
    accepted: list[str] = []
    timeout = aiohttp.ClientTimeout(total=PROBE_TIMEOUT_S)
    async with aiohttp.ClientSession(timeout=timeout) as session:

        async def one(name: str, body: bytes, ndjson: bool = False) -> tuple[int, Any]:
            await wait_up(port)  # after a restart: every hostile request reaches a worker
            started = time.perf_counter()
            status, answer = await post(session, port, body, ndjson)
            took = time.perf_counter() - started
            brief = answer if isinstance(answer, str) else orjson.dumps(answer)[:120].decode()
            report.refused[name] = f"{status} in {took:.1f}s {brief}"
            return status, answer

        for i in range(size.array_bodies):
            body = array_body(i)
            await one(f"array body {i} ({len(body) / 2**20:.1f} MiB)", body)
            del body
        status, answer = await one(f"{len(versions)} distinct versions", b"\n".join(versions), True)
        if status == 202:
            accepted += [f"hostile-ver-{i}" for i in range(len(versions))]
        elif isinstance(answer, dict) and answer.get("accepted"):
            report.notes.append("versions body partly accepted: its events are not counted")
        status, _ = await one(f"call markup ({len(markup) / 1e6:.1f} MB)", markup)
        if status == 202:
            accepted.append(str(orjson.loads(markup)["event_id"]))
        for name, bad in malformed_cases(6, seed=36):
            if name != "json_array":  # a JSON array of events is a valid /ingest body
                await one(f"malformed ({name})", bad)
        await one("depth-100000 array", deep_body(100_000))
        await one("depth-5000 event", b'{"event_id":"deep","request":' + deep_body(5000) + b"}")
    return accepted


async def slow_client(port: int, until: threading.Event) -> bool:
    """Announce a 1 MB body and send a byte a second; True if the server hung up first."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            b"POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + f"Authorization: Bearer {TOKEN}\r\n".encode()
            + b"Content-Type: application/x-ndjson\r\nContent-Length: 1000000\r\n\r\n"
        )
        while not until.is_set():
            writer.write(b" ")
            await writer.drain()
            try:  # EOF or an answer before the body is complete: the server gave up on it
                await asyncio.wait_for(reader.read(1024), timeout=1.0)
                return True
            except TimeoutError:
                continue
        writer.close()
        return False
    except (OSError, ConnectionError):
        return True


# ------------------------------------------------------------------ the run


def count_rows(run: Run, ids: set[str], view: str) -> Counter[str]:
    with read_only(run.data_dir) as con:
        rows = con.execute(f"select event_id, count(*) from {view} group by 1").fetchall()
    return Counter({event_id: n for event_id, n in rows if event_id in ids})


def wait_stored(run: Run, ids: set[str], stall_s: float) -> None:
    """Until every id in ``ids`` is stored, or nothing new is stored for ``stall_s``."""
    last, last_change = -1, time.monotonic()
    while True:
        have = set()
        for (event_id,) in run.query("select distinct event_id from samples_all"):
            have.add(event_id)
        missing = len(ids - have)
        if missing == 0:
            return
        if len(have) != last:
            last, last_change = len(have), time.monotonic()
        elif time.monotonic() - last_change > stall_s:
            raise TimeoutError(f"no progress for {stall_s:.0f}s with {missing} ids missing")
        time.sleep(1.0)


def run_benchmark(root: Path, size: Size, guard_mib: float) -> Report:
    report = Report()
    started = time.monotonic()
    normal, normal_ids = valid_events(size.normal, seed=3636)
    half = len(normal) // 2
    bodies = [b"\n".join(part) + b"\n" for part in chunks(normal[half:], INGEST_LINES)]
    markup = markup_events(size.markup_mb)
    poison = [
        p
        for p in malformed_payloads(max(22, size.normal // 50), seed=36)
        + hostile_payloads(MAX_EVENT_BYTES)
        if len(p) <= MAX_EVENT_BYTES  # leakline's producer refuses larger records
    ]
    dead = [p for p in poison if "error" in detect_line(p, MAX_EVENT_BYTES)]
    kafka_valid = [
        str(detect_line(p, MAX_EVENT_BYTES)["event_id"]) for p in poison if p not in dead
    ]
    kafka_valid += [str(orjson.loads(m)["event_id"]) for m in markup[1:]]
    versions = version_events(size.versions)
    report.normal_sent = len(normal_ids)

    port = free_port()
    rss = RssSampler(interval_s=0.1)
    worker_args = ["--batch-size", "500", "--web", "--web-port", str(port), "--web-token", TOKEN]
    run = Run(root, "hostile", rss, worker_args)
    prober = Prober(port)
    done = threading.Event()
    sup: Supervisor | None = None
    try:
        with rss:
            sup = Supervisor(run, guard_mib)
            sup.start()
            asyncio.run(wait_up(port))
            prober.start()
            feeder = Feeder(
                run.bootstrap, interleave(normal[:half], poison + markup[1:]), size.pace_s
            )
            feeder.start()

            async def traffic() -> list[str]:
                slow = [
                    asyncio.create_task(slow_client(port, done)) for _ in range(size.slow_clients)
                ]
                normal_task = asyncio.create_task(send_normal(port, bodies, size.pace_s, report))
                accepted = await send_hostile(port, size, versions, markup[0], report)
                await normal_task
                await asyncio.to_thread(feeder.join)
                done.set()
                closed = await asyncio.gather(*slow)
                report.slow_clients = len(closed)
                report.slow_closed_by_server = sum(closed)
                return accepted

            accepted = asyncio.run(traffic())
            if feeder.error:
                report.notes.append(f"the Kafka feeder failed: {feeder.error}")
            hostile_ids = set(kafka_valid + accepted)
            report.hostile_valid_sent = len(hostile_ids)
            try:
                wait_stored(run, set(normal_ids) | hostile_ids, stall_s=90.0)
            except TimeoutError as exc:
                report.notes.append(str(exc))
            time.sleep(2)
            prober.stop.set()
            sup.stop.set()
            sup.join()
            run.stop_workers()
        report.guard_kills, report.worker_deaths = sup.guard_kills, sup.deaths
        report.peak_rss_mib = rss.peak_mib
        result = Result("hostile")
        audit(run, result, normal_ids + sorted(hostile_ids), dead)
        fill_store_figures(run, report, set(normal_ids), hostile_ids, result)
    finally:  # also on an error or ^C: no worker or broker outlives the run
        done.set()
        prober.stop.set()
        if sup is not None:
            sup.stop.set()
            sup.join()
        run.stop_workers()
        run.broker.stop()
    lat = sorted(prober.latencies)
    report.healthz_probes = len(lat) + prober.failed
    report.healthz_failed = prober.failed
    report.healthz_worst_ms = 1000 * (lat[-1] if lat else 0.0)
    report.healthz_p99_ms = 1000 * (lat[int(0.99 * (len(lat) - 1))] if lat else 0.0)
    report.seconds = time.monotonic() - started
    return report


def fill_store_figures(
    run: Run, report: Report, normal: set[str], hostile: set[str], result: Result
) -> None:
    view = count_rows(run, normal, "samples")
    raw = count_rows(run, normal, "samples_all")
    report.normal_lost = len(normal - set(view))
    report.normal_duplicated = sum(n - 1 for n in view.values())
    report.normal_raw_extra = sum(n - 1 for n in raw.values())
    report.hostile_stored = len(set(count_rows(run, hostile, "samples")))
    with read_only(run.data_dir) as con:
        cut = con.execute(
            "select count(distinct event_id) from samples where detection_cut is not null"
        ).fetchone()
    report.hostile_cut = int(cut[0]) if cut else 0
    report.dlq_expected, report.dlq_got = result.dlq_expected, result.dlq_got
    report.dlq_exact = result.dlq_exact
    report.total_counted = result.total_counted
    report.total_expected = result.produced
    report.notes.extend(result.notes)


# ------------------------------------------------------------------ output


def render(report: Report) -> str:
    r = report
    lines = [
        f"normal events    sent {r.normal_sent:,}  lost {r.normal_lost}  "
        f"duplicated {r.normal_duplicated}  (raw redeliveries {r.normal_raw_extra}, "
        f"/ingest bodies resent {r.normal_resent_bodies})",
        f"hostile stored   {r.hostile_stored:,} of {r.hostile_valid_sent:,} valid "
        f"(detection_cut on {r.hostile_cut})",
        f"dead letters     expected {r.dlq_expected}, got {r.dlq_got}"
        + ("" if r.dlq_exact else "  (NOT the expected multiset)"),
        f"rates total      {r.total_counted:,} counted, {r.total_expected:,} expected",
        f"/healthz         {r.healthz_probes} probes, {r.healthz_failed} failed, "
        f"p99 {r.healthz_p99_ms:.0f} ms, worst {r.healthz_worst_ms:.0f} ms",
        f"worker           peak RSS {r.peak_rss_mib:.0f} MiB (tree), guard kills "
        f"{r.guard_kills}, deaths {r.worker_deaths}",
        f"slow bodies      {r.slow_closed_by_server} of {r.slow_clients} closed by the server",
        "hostile requests:",
        *(f"  {name}: {answer}" for name, answer in r.refused.items()),
        *(f"note: {note}" for note in r.notes),
        f"time {r.seconds:.0f}s  ->  {'ok' if r.ok else 'FAILED: a normal event lost or double-counted'}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="1 500 normal events, ~1 minute")
    parser.add_argument("--events", type=int, help="normal events (default 5000)")
    parser.add_argument(
        "--rss-guard-mib",
        type=float,
        default=4096.0,
        help="kill and restart a worker whose tree passes this RSS (default 4096)",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures")
    parser.add_argument("--keep", action="store_true", help="keep the data directory and logs")
    args = parser.parse_args(argv)
    size = QUICK if args.quick else DEFAULT
    if args.events:
        size = replace(size, normal=args.events)
    root = Path(tempfile.mkdtemp(prefix="leakline-hostile-"))
    try:
        report = run_benchmark(root, size, args.rss_guard_mib)
    finally:
        if args.keep:
            print(f"data and logs kept in {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(render(report))
    if args.json:
        args.json.write_text(json.dumps(asdict(report) | {"ok": report.ok}, indent=2))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
