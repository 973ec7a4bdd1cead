"""Reliability at scale on real processes: crashes, a rebalance and hostile input.

    python benchmarks/reliability.py                 # 30 000 events per scenario
    python benchmarks/reliability.py --quick         #  3 000 events per scenario
    python benchmarks/reliability.py --events 100000 --json reliability.json
    python benchmarks/reliability.py --scenario fuzz --keep   # one scenario, keep the data

Each scenario starts its own embedded broker (Tansu) and real ``leakline worker``
processes on a fresh data directory, then compares what was produced with what the
store and the dead-letter topic hold:

- crash:     one worker, ``kill -9`` three times mid-stream (at 25/50/75 % stored),
             then a last worker finishes the stream;
- rebalance: ``gateway.events`` with 4 partitions, two workers sharing the data
             directory; one is killed mid-stream, the survivor must take over its
             partitions, then the killed one is restarted;
- fuzz:      valid events mixed with hostile payloads (``malformed_payloads`` plus
             oversized, deeply nested, odd-unicode, odd-number, odd-timestamp ones);
             the oracle for each payload is ``leakline.pipeline.detect.offline.detect_line``;
- poison:    records of almost ``MAX_RECORD_BYTES`` among valid events (sent by a plain
             producer: leakline's own refuse them); each must be dead-lettered as a
             reference (source, size, sha256, head) and the stream must go on;
- corrupt:   one stored part is garbled (footer intact) and a worker restarted with a
             short compaction interval; its periodic compaction must quarantine the part
             and the rest stays queryable. The part's events are the expected loss
             (``quarantined``): ``lost`` must equal it, no more;
- copy:      the data directory is copied and half the copy's parts deleted; the copy
             must count exactly the events in its own remaining files (``unexpected``
             would be the original's events read through the copy's views);
- planted:   valid events plus copies of ``planted_events`` (one secret of every
             redaction kind in content, reasoning, tool arguments, version fields and
             split across stream chunks); every place the worker writes (Parquet
             columns, topics, /metrics, dashboard API, export, regression cases, log) is
             searched, and ``leaked`` counts (place, kind) pairs found raw (must be 0);
- ingest:    the events POSTed to a worker's ``/ingest`` as NDJSON bodies of up to
             12 652 lines (~31 MiB, the documented limit) while ``/healthz`` is probed;
             every answer must be 202 with the exact count; the notes give events/s and
             the slowest probe.

One table is printed. ``stored`` counts distinct event ids in the store; ``lost`` are
produced valid ids that are not there (``quarantined`` of them were in a file moved to
DATA_DIR/quarantine/, a loss that is expected and reported); ``dup view`` is rows counted beyond one per
event id in the deduplicating ``samples`` view (must be 0); ``dup raw`` is the extra
rows in ``samples_all`` (redeliveries after a crash, expected and harmless);
``DLQ exp/got`` compares the dead letters expected with the records on the DLQ (the
multiset of payloads must match exactly). Peak RSS is the largest VmRSS of any single
worker process, sampled from /proc every 0.2 s. The exit status is 1 if any scenario
lost (beyond what it quarantined), double-counted or mis-dead-lettered anything. A dead
letter too large for Kafka is compared by the sha256 its reference carries.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition  # noqa: E402

from leakline.pipeline.core.config import MAX_DEAD_LETTER_BYTES, MAX_RECORD_BYTES  # noqa: E402
from leakline.pipeline.core.errors import StoreError  # noqa: E402
from leakline.pipeline.core.procinfo import tree_rss_mib  # noqa: E402
from leakline.pipeline.demo import start_worker, stop_process  # noqa: E402
from leakline.pipeline.detect.offline import detect_line  # noqa: E402
from leakline.pipeline.kafka.broker import EmbeddedBroker, free_port  # noqa: E402
from leakline.pipeline.kafka.io import ensure_topics, produce  # noqa: E402
from leakline.pipeline.simulate.planted import PLANTED, find_planted, planted_events  # noqa: E402
from leakline.pipeline.simulate.traffic_model import malformed_payloads, simulate  # noqa: E402
from leakline.pipeline.store.database import query_rates, read_only  # noqa: E402
from leakline.pipeline.store.quarantine import quarantine_root  # noqa: E402
from leakline.pipeline.store.sink import samples_root  # noqa: E402

EVENTS = "gateway.events"
DLQ = "gateway.events.dlq"
SAMPLES = "leak.samples"
PARTITIONS = 4
FUZZ_MAX_EVENT_BYTES = 1024 * 1024


# ------------------------------------------------------------------ measurements


@dataclass
class Result:
    scenario: str
    produced: int = 0  # valid events produced
    stored: int = 0  # distinct event ids in the store
    lost: int = 0
    quarantined: int = 0  # of the lost: events in files moved to quarantine (expected)
    unexpected: int = 0  # stored ids that were never produced as valid events
    dup_view: int = 0  # rows beyond one per event id in the `samples` view
    dup_raw: int = 0  # rows beyond one per event id in `samples_all`
    total_counted: int = 0  # query_rates total (must equal `produced`)
    dlq_expected: int = 0
    dlq_got: int = 0
    dlq_exact: bool = False
    leaked: int = 0  # (place, secret kind) pairs found raw by the planted scenario
    wrong_answers: int = 0  # ingest: answers that were not 202 with the exact count
    restarts: int = 0
    peak_rss_mib: float = 0.0
    seconds: float = 0.0
    worker_exit_codes: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            self.lost == self.quarantined
            and self.unexpected == 0
            and self.dup_view == 0
            and self.total_counted == self.produced - self.quarantined
            and self.dlq_exact
            and self.leaked == 0
            and self.wrong_answers == 0
        )


class RssSampler:
    """Peak VmRSS per process tree (a worker and its batch child), sampled in a thread."""

    def __init__(self, interval_s: float = 0.2) -> None:
        self.interval_s = interval_s
        self.pids: set[int] = set()
        self.peak_kib: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def watch(self, pid: int) -> None:
        self.pids.add(pid)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def peak_mib(self) -> float:
        return max(self.peak_kib.values(), default=0) / 1024

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            for pid in list(self.pids):
                mib = tree_rss_mib(pid)  # the worker and its batch child
                if mib is not None:
                    self.peak_kib[pid] = max(self.peak_kib.get(pid, 0), int(mib * 1024))


# ------------------------------------------------------------------ helpers


class Run:
    """One scenario's broker, data directory and worker processes."""

    def __init__(self, root: Path, name: str, rss: RssSampler, worker_args: list[str]) -> None:
        self.dir = root / name
        self.dir.mkdir(parents=True)
        self.data_dir = self.dir / "data"
        self.rss = rss
        self.worker_args = worker_args
        self.broker = EmbeddedBroker(log_path=self.dir / "broker.log").start()
        self.workers: list[subprocess.Popen[bytes]] = []
        asyncio.run(ensure_topics(self.broker.bootstrap, [EVENTS, DLQ, SAMPLES], PARTITIONS, 30.0))

    @property
    def bootstrap(self) -> str:
        return self.broker.bootstrap

    def spawn(self) -> subprocess.Popen[bytes]:
        log = self.dir / f"worker-{len(self.workers)}.log"
        proc = start_worker(self.bootstrap, self.data_dir, log, *self.worker_args)
        self.workers.append(proc)
        self.rss.watch(proc.pid)
        return proc

    def worker_id(self, proc: subprocess.Popen[bytes]) -> str:
        return f"{os.uname().nodename}-{proc.pid}"

    def log_tail(self, limit: int = 2000) -> str:
        parts = []
        for path in sorted(self.dir.glob("worker-*.log")):
            parts.append(f"--- {path.name}\n{path.read_text(errors='replace')[-limit:]}")
        return "\n".join(parts)

    def query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        try:
            with read_only(self.data_dir, timeout_s=2.0) as con:
                return con.execute(sql, params or []).fetchall()
        except (StoreError, duckdb.Error):  # not there yet, or an unreadable part
            return []

    def stored(self) -> int:
        rows = self.query("select count(distinct event_id) from samples_all")
        return int(rows[0][0]) if rows else 0

    def wait(
        self,
        cond: Callable[[], bool],
        timeout_s: float,
        what: str,
        alive: list[subprocess.Popen[bytes]],
        stall_s: float = 90.0,
    ) -> None:
        """Poll ``cond``; give up on a dead worker, the timeout, or ``stall_s`` seconds
        without a new event id in the store."""
        deadline = time.monotonic() + timeout_s
        last_count, last_change = -1, time.monotonic()
        while not cond():
            count = self.stored()
            if count != last_count:
                last_count, last_change = count, time.monotonic()
            elif time.monotonic() - last_change > stall_s:
                raise TimeoutError(f"no progress for {stall_s:.0f}s at {count} stored ({what})")
            for proc in alive:
                if proc.poll() is not None:
                    raise RuntimeError(
                        f"worker {proc.pid} exited with {proc.returncode} while waiting for "
                        f"{what}\n{self.log_tail()}"
                    )
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out after {timeout_s:.0f}s waiting for {what}")
            time.sleep(0.2)

    def kill9(self, proc: subprocess.Popen[bytes]) -> None:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

    def stop_workers(self) -> list[int]:
        """SIGTERM every live worker; their exit codes (0 = clean)."""
        return [stop_process(proc) for proc in self.workers if proc.returncode is None]

    def audit_and_close(self, result: Result, valid_ids: list[str], dead: list[bytes]) -> None:
        try:
            audit(self, result, valid_ids, dead)
        finally:
            self.broker.stop()


def send(bootstrap: str, payloads: list[bytes]) -> None:
    report = asyncio.run(produce(bootstrap, EVENTS, payloads))
    if report.failed or report.sent != len(payloads):
        raise RuntimeError(f"producing failed: {report}")


def read_records(
    bootstrap: str, topic: str, timeout_s: float = 60.0
) -> list[tuple[bytes, dict[str, bytes]]]:
    """(value, headers) of every record in ``topic``, without a consumer group."""

    async def run() -> list[tuple[bytes, dict[str, bytes]]]:
        consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
        await consumer.start()
        try:
            await consumer.topics()  # refreshes the metadata
            tps = [TopicPartition(topic, p) for p in consumer.partitions_for_topic(topic) or ()]
            if not tps:
                return []
            consumer.assign(tps)
            await consumer.seek_to_beginning(*tps)
            end = await consumer.end_offsets(tps)
            out: list[tuple[bytes, dict[str, bytes]]] = []
            deadline = time.monotonic() + timeout_s
            while any([await consumer.position(tp) < end[tp] for tp in tps]):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"reading {topic} did not reach its end offsets")
                for messages in (await consumer.getmany(timeout_ms=500)).values():
                    out.extend((m.value, dict(m.headers or ())) for m in messages)
            return out
        finally:
            await consumer.stop()

    return asyncio.run(run())


def interleave(valid: list[bytes], bad: list[bytes]) -> list[bytes]:
    """``bad`` spread evenly through ``valid``."""
    if not bad:
        return list(valid)
    step = max(1, len(valid) // len(bad))
    out: list[bytes] = []
    pending = iter(bad)
    for i, payload in enumerate(valid):
        out.append(payload)
        if i % step == step // 2:
            nxt = next(pending, None)
            if nxt is not None:
                out.append(nxt)
    out.extend(pending)
    return out


def chunks(payloads: list[bytes], size: int) -> Iterator[list[bytes]]:
    for i in range(0, len(payloads), size):
        yield payloads[i : i + size]


class Feeder(threading.Thread):
    """Produces a stream in chunks at a steady pace while the scenario runs."""

    def __init__(self, bootstrap: str, payloads: list[bytes], seconds: float) -> None:
        super().__init__(daemon=True)
        self.bootstrap = bootstrap
        self.parts = list(chunks(payloads, 500))
        self.pause_s = seconds / max(1, len(self.parts))
        self.sent = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            for part in self.parts:
                send(self.bootstrap, part)
                self.sent += len(part)
                time.sleep(self.pause_s)
        except BaseException as exc:  # reported by the scenario
            self.error = exc


def audit(
    run: Run,
    result: Result,
    valid_ids: list[str],
    dead_letters: list[bytes],
) -> None:
    """Fill the store and DLQ columns of ``result``."""
    with read_only(run.data_dir) as con:
        counts = "select count(*), count(distinct event_id) from "
        view_rows, view_ids = con.execute(counts + "samples").fetchone() or (0, 0)
        raw_rows, raw_ids = con.execute(counts + "samples_all").fetchone() or (0, 0)
        stored = {r[0] for r in con.execute("select distinct event_id from samples").fetchall()}
        rates = query_rates(con, [])
    expected = set(valid_ids)
    result.produced = len(valid_ids)
    result.stored = len(stored)
    result.lost = len(expected - stored)
    result.unexpected = len(stored - expected)
    result.dup_view = view_rows - view_ids
    result.dup_raw = raw_rows - raw_ids
    result.total_counted = int(rates[0]["total"]) if rates else 0
    records = read_records(run.bootstrap, DLQ)
    got = [dlq_identity(value, headers) for value, headers in records]
    dead_letters = [expected_identity(payload) for payload in dead_letters]
    internal = sum(
        b"internal error" in headers.get("leakline.reason", b"") for _, headers in records
    )
    if internal:
        result.notes.append(f"{internal} dead letters say 'internal error' (a detector raised)")
    result.dlq_expected = len(dead_letters)
    result.dlq_got = len(got)
    result.dlq_exact = Counter(got) == Counter(dead_letters)
    if not result.dlq_exact:
        extra = Counter(got) - Counter(dead_letters)
        missing = Counter(dead_letters) - Counter(got)
        result.notes.append(
            f"DLQ: {sum(extra.values())} unexpected/duplicate, {sum(missing.values())} missing"
        )


def expected_identity(payload: bytes) -> bytes:
    """What the DLQ should hold for ``payload``: itself, or (too large for a Kafka record)
    a reference, compared by the sha256 it carries."""
    if len(payload) <= MAX_DEAD_LETTER_BYTES:
        return payload
    return b"sha256:" + hashlib.sha256(payload).hexdigest().encode()


def dlq_identity(value: bytes, headers: dict[str, bytes]) -> bytes:
    if b"as a reference" in headers.get("leakline.reason", b""):
        return b"sha256:" + str(orjson.loads(value)["sha256"]).encode()
    return value


def valid_events(count: int, seed: int) -> tuple[list[bytes], list[str]]:
    events = [s.event for s in simulate(count, seed=seed)]
    return [orjson.dumps(e) for e in events], [e["event_id"] for e in events]


def store_timeout(events: int) -> float:
    return 180.0 + events / 100


# ------------------------------------------------------------------ scenarios


def scenario_crash(root: Path, events: int, args: argparse.Namespace, rss: RssSampler) -> Result:
    result = Result("crash (kill -9 x3)")
    valid, ids = valid_events(events, seed=101)
    bad = malformed_payloads(max(11, events // 100), seed=101)
    run = Run(root, "crash", rss, ["--batch-size", str(args.batch_size)])
    started = time.monotonic()
    try:
        send(run.bootstrap, interleave(valid, bad))
        for share in (0.25, 0.5, 0.75):
            target = int(share * len(valid))
            proc = run.spawn()
            run.wait(
                lambda t=target: run.stored() >= t,  # type: ignore[misc]
                store_timeout(events),
                f"{target} stored",
                [proc],
            )
            run.kill9(proc)
            result.restarts += 1
        last = run.spawn()
        run.wait(lambda: run.stored() >= len(valid), store_timeout(events), "all stored", [last])
        time.sleep(2)
    except (RuntimeError, TimeoutError) as exc:
        result.notes.append(str(exc).splitlines()[0])
    finally:
        result.worker_exit_codes = run.stop_workers()
        result.seconds = time.monotonic() - started
    run.audit_and_close(result, ids, bad)
    return result


def scenario_rebalance(
    root: Path, events: int, args: argparse.Namespace, rss: RssSampler
) -> Result:
    result = Result("rebalance (2 workers)")
    valid, ids = valid_events(events, seed=202)
    bad = malformed_payloads(max(11, events // 100), seed=202)
    run = Run(root, "rebalance", rss, ["--batch-size", str(args.batch_size)])
    started = time.monotonic()
    feeder = Feeder(run.bootstrap, interleave(valid, bad), seconds=max(10.0, events / 1500))
    try:
        first, second = run.spawn(), run.spawn()
        feeder.start()

        def both_storing() -> bool:
            rows = run.query("select count(distinct worker_id) from samples_all")
            return bool(rows) and rows[0][0] >= 2

        run.wait(both_storing, 120, "both workers storing", [first, second])
        result.notes.append("both workers stored rows before the kill")
        killed_at = datetime.now(UTC)
        run.kill9(first)
        result.restarts += 1
        survivor = run.worker_id(second)

        def taken_over() -> bool:
            if run.stored() >= len(valid):
                return True
            rows = run.query(
                "select count(distinct src_partition) from samples_all "
                "where worker_id = ? and ingested_at > ?",
                [survivor, killed_at],
            )
            return bool(rows) and rows[0][0] == PARTITIONS

        t0 = time.monotonic()
        run.wait(taken_over, 120, "the survivor to take over", [second])
        result.notes.append(f"survivor took over all partitions {time.monotonic() - t0:.1f}s")
        restarted = run.spawn()
        feeder.join()
        if feeder.error:
            raise RuntimeError(f"feeder failed: {feeder.error}")
        run.wait(
            lambda: run.stored() >= len(valid),
            store_timeout(events),
            "all stored",
            [second, restarted],
        )
        time.sleep(2)
        writers = run.query("select count(distinct worker_id) from samples_all")
        # (a redelivered batch rewrites its file under the same name, with the new writer)
        result.notes.append(f"{writers[0][0] if writers else 0} worker ids in the final files")
    except (RuntimeError, TimeoutError) as exc:
        result.notes.append(str(exc).splitlines()[0])
    finally:
        feeder.join(timeout=120)
        result.worker_exit_codes = run.stop_workers()
        result.seconds = time.monotonic() - started
    run.audit_and_close(result, ids, bad)
    return result


def _chat(event_id: str, content: Any, **extra: Any) -> dict[str, Any]:
    return {
        "event_id": event_id,
        "api": "chat.completions",
        "request": {},
        "response": {"choices": [{"message": {"content": content}, "finish_reason": "stop"}]},
        **extra,
    }


DEEP = "<deep>"


def splice(event: dict[str, Any], raw_json: str) -> bytes:
    """``event`` encoded, with the string ``DEEP`` replaced by ``raw_json``."""
    return orjson.dumps(event).replace(orjson.dumps(DEEP), raw_json.encode(), 1)


def hostile_payloads(max_bytes: int) -> list[bytes]:
    """Payloads meant to hurt: some valid (must be stored), most not (must be DLQ'd)."""
    out: list[bytes] = []

    def nested(depth: int, leaf: str = "1") -> str:
        return '{"a":' * depth + leaf + "}" * depth

    def deep_event(event_id: str, depth: int) -> bytes:
        head = f'{{"event_id":"{event_id}","api":"chat.completions","request":'
        tail = ',"response":{"choices":[{"message":{"content":"hi"},"finish_reason":"stop"}]}}'
        return (head + nested(depth) + tail).encode()

    # size
    out.append(orjson.dumps(_chat("fuzz-oversized", "x" * (max_bytes + 100))))
    out.append(orjson.dumps(_chat("fuzz-oversized-3x", "<think>" + "y" * (3 * max_bytes))))
    out.append(orjson.dumps(_chat("fuzz-just-under", "z" * (max_bytes - 4096))))
    out.append(orjson.dumps(_chat("fuzz-big-leak", "<think>" + "r" * 200_000 + "</think>ok")))
    # nesting
    out.append(deep_event("fuzz-deep-200", 200))
    out.append(deep_event("fuzz-deep-5000", 5000))
    out.append(b"[" * 100_000 + b"]" * 100_000)
    # (orjson.dumps stops at 255 levels: splice the nesting into the encoded text)
    out.append(splice(_chat("fuzz-deep-content", DEEP), nested(500)))
    streamed: dict[str, Any] = {"event_id": "fuzz-deep-chunks", "api": "chat.completions"}
    streamed |= {"request": {}, "stream": True, "chunks": [{"choices": [{"delta": DEEP}]}]}
    out.append(splice(streamed, nested(300)))
    # many chunks
    out.append(
        orjson.dumps(
            {
                "event_id": "fuzz-20k-chunks",
                "api": "chat.completions",
                "request": {},
                "stream": True,
                "chunks": [{"choices": [{"index": 0, "delta": {"content": "a"}}]}] * 20_000
                + [{"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}],
            }
        )
    )
    # unicode and bytes
    out.append(
        b'{"event_id":"fuzz-surrogate","api":"chat.completions","request":{},'
        b'"response":{"choices":[{"message":{"content":"\\ud800"}}]}}'
    )
    out.append(orjson.dumps(_chat("fuzz-nul", "a\u0000b</think>c")))
    out.append(orjson.dumps(_chat("fuzz-\u202e\U0001f600-../../etc/passwd", "ok")))
    out.append(b"\xef\xbb\xbf" + orjson.dumps(_chat("fuzz-bom", "ok")))
    out.append(orjson.dumps(_chat("fuzz-trailing", "ok")) + b" trailing")
    out.append(b'{"event_id":"fuzz-nan","api":"chat.completions","request":{},"response":NaN}')
    out.append(bytes(range(256)) * 64)
    # identifiers
    out.append(orjson.dumps(_chat("i" * 256, "ok")))
    out.append(orjson.dumps(_chat("j" * 257, "ok")))
    out.append(
        b'{"event_id":"fuzz-dupkey-a","event_id":"fuzz-dupkey-b","api":"chat.completions",'
        b'"request":{},"response":{"choices":[{"message":{"content":"ok"}}]}}'
    )
    # numbers and timestamps
    out.append(orjson.dumps(_chat("fuzz-u64", "ok", remediation={"attempts": 2**64 - 1})))
    out.append(
        b'{"event_id":"fuzz-bigint","api":"chat.completions","request":{"n":'
        + b"9" * 400
        + b'},"response":{"choices":[{"message":{"content":"ok"}}]}}'
    )
    for i, ts in enumerate(
        [
            "0001-01-01T00:00:00+14:00",
            "9999-12-31T23:59:59-14:00",
            "2026-13-45T99:99:99Z",
            "",
            "1e309",
        ]
    ):
        out.append(orjson.dumps(_chat(f"fuzz-ts-{i}", "ok", ts=ts)))
    return out


def scenario_fuzz(root: Path, events: int, args: argparse.Namespace, rss: RssSampler) -> Result:
    result = Result("fuzz (hostile input)")
    valid, ids = valid_events(events, seed=303)
    hostile = malformed_payloads(max(22, events // 50), seed=303) + hostile_payloads(
        FUZZ_MAX_EVENT_BYTES
    )
    # the oracle: what offline detection says about each hostile payload
    dead: list[bytes] = []
    stored_ok: list[bytes] = []
    for payload in hostile:
        verdict = detect_line(payload, FUZZ_MAX_EVENT_BYTES)
        if "error" in verdict:
            dead.append(payload)
        else:
            stored_ok.append(payload)
            ids.append(str(verdict["event_id"]))
    result.notes.append(
        f"{len(hostile)} hostile payloads: {len(dead)} to dead-letter, {len(stored_ok)} valid"
    )
    run = Run(
        root,
        "fuzz",
        rss,
        ["--batch-size", str(args.batch_size), "--max-event-bytes", str(FUZZ_MAX_EVENT_BYTES)],
    )
    started = time.monotonic()
    try:
        worker = run.spawn()
        send(run.bootstrap, interleave(valid, hostile))
        run.wait(lambda: run.stored() >= len(ids), store_timeout(events), "all stored", [worker])
        time.sleep(2)
    except (RuntimeError, TimeoutError) as exc:
        result.notes.append(str(exc).splitlines()[0])
    finally:
        result.worker_exit_codes = run.stop_workers()
        result.seconds = time.monotonic() - started
    run.audit_and_close(result, ids, dead)
    return result


def send_oversize(bootstrap: str, payloads: list[bytes]) -> None:
    """Records leakline's producers refuse, as another gateway's producer could send them."""

    async def run() -> None:
        producer = AIOKafkaProducer(
            bootstrap_servers=bootstrap, max_request_size=2 * MAX_RECORD_BYTES
        )
        await producer.start()
        try:
            for payload in payloads:
                await (await producer.send(EVENTS, payload, partition=0))
        finally:
            await producer.stop()

    asyncio.run(run())


def scenario_poison(root: Path, events: int, args: argparse.Namespace, rss: RssSampler) -> Result:
    result = Result("poison (oversize record)")
    valid, ids = valid_events(events, seed=404)
    oversize = [bytes([65 + i]) * (MAX_RECORD_BYTES - 100) for i in range(3)]
    run = Run(root, "poison", rss, ["--batch-size", str(args.batch_size)])
    started = time.monotonic()
    try:
        worker = run.spawn()
        for i, part in enumerate(chunks(valid, max(1, len(valid) // 4))):
            send(run.bootstrap, part)
            if i < len(oversize):
                send_oversize(run.bootstrap, [oversize[i]])
        run.wait(lambda: run.stored() >= len(ids), store_timeout(events), "all stored", [worker])
        time.sleep(2)
        result.notes.append(
            f"{len(oversize)} records of {MAX_RECORD_BYTES - 100:,} bytes among the events"
        )
    except (RuntimeError, TimeoutError) as exc:
        result.notes.append(str(exc).splitlines()[0])
    finally:
        result.worker_exit_codes = run.stop_workers()
        result.seconds = time.monotonic() - started
    run.audit_and_close(result, ids, oversize)
    return result


def _ids_in(files: list[Path]) -> set[str]:
    import pyarrow.parquet as pq

    return {
        i for f in files for i in pq.read_table(f, columns=["event_id"])["event_id"].to_pylist()
    }


def _garble(path: Path) -> None:
    """Overwrite the column chunks, keep the magic bytes and the footer."""
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little") + 8
    for i in range(4, len(data) - footer):
        data[i] = (data[i] * 31 + 7) % 256
    path.write_bytes(bytes(data))


def scenario_corrupt(root: Path, events: int, args: argparse.Namespace, rss: RssSampler) -> Result:
    result = Result("corrupt part (quarantine)")
    valid, ids = valid_events(events, seed=505)
    bad = malformed_payloads(max(11, events // 100), seed=505)
    half = len(valid) // 2
    run = Run(root, "corrupt", rss, ["--batch-size", str(args.batch_size)])
    started = time.monotonic()
    try:
        first = run.spawn()  # no compaction during the run: the parts stay parts
        send(run.bootstrap, interleave(valid[:half], bad))
        run.wait(lambda: run.stored() >= half, store_timeout(events), "first half", [first])
        time.sleep(2)
        run.stop_workers()
        parts = sorted(samples_root(run.data_dir).glob("*/part-*.parquet"))
        victim = parts[len(parts) // 2]
        lost_ids = _ids_in([victim]) - _ids_in([p for p in parts if p != victim])
        _garble(victim)
        result.quarantined = len(lost_ids)
        result.notes.append(f"garbled {victim.name} ({len(lost_ids)} events only in it)")
        run.worker_args = [*run.worker_args, "--compact-every", "2", "--compact-grace", "0"]
        second = run.spawn()
        send(run.bootstrap, valid[half:])
        expected = len(ids) - len(lost_ids)
        moved = quarantine_root(run.data_dir)
        run.wait(
            lambda: run.stored() >= expected and any(moved.glob("*/*.parquet")),
            store_timeout(events),
            "the rest stored and the part quarantined",
            [second],
        )
        time.sleep(2)
        result.notes.append(f"quarantined: {sorted(p.name for p in moved.glob('*/*.parquet'))}")
    except (RuntimeError, TimeoutError, IndexError) as exc:
        result.notes.append(str(exc).splitlines()[0])
    finally:
        result.worker_exit_codes = run.stop_workers()
        result.seconds = time.monotonic() - started
    run.audit_and_close(result, ids, bad)
    return result


def scenario_copy(root: Path, events: int, args: argparse.Namespace, rss: RssSampler) -> Result:
    result = Result("copied store")
    valid, ids = valid_events(events, seed=606)
    bad = malformed_payloads(max(11, events // 100), seed=606)
    run = Run(root, "copy", rss, ["--batch-size", str(args.batch_size)])
    started = time.monotonic()
    try:
        worker = run.spawn()
        send(run.bootstrap, interleave(valid, bad))
        run.wait(lambda: run.stored() >= len(ids), store_timeout(events), "all stored", [worker])
        time.sleep(2)
        run.stop_workers()
        copy = run.dir / "copy"
        shutil.copytree(run.data_dir, copy)
        parts = sorted(samples_root(copy).glob("*/part-*.parquet"))
        for part in parts[::2]:
            part.unlink()
        kept = [p for p in samples_root(copy).glob("*/*.parquet") if not p.name.startswith("_")]
        ids = sorted(_ids_in(kept))  # the copy's own events
        result.notes.append(
            f"copy keeps {len(parts) - len(parts[::2])} of {len(parts)} parts, {len(ids)} events"
        )
        run.data_dir = copy  # audit the copy
    except (RuntimeError, TimeoutError) as exc:
        result.notes.append(str(exc).splitlines()[0])
    finally:
        result.worker_exit_codes = run.stop_workers()
        result.seconds = time.monotonic() - started
    run.audit_and_close(result, ids, bad)
    return result


def scenario_planted(root: Path, events: int, args: argparse.Namespace, rss: RssSampler) -> Result:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from leakline_testkit import every_place

    result = Result("planted secrets")
    valid, ids = valid_events(events, seed=1818)
    copies = max(1, events // 1000)
    planted = [e for i in range(copies) for e in planted_events(f"planted-{i}")]
    valid += [orjson.dumps(e) for e in planted]
    ids += [e["event_id"] for e in planted]
    port = free_port()
    run = Run(
        root,
        "planted",
        rss,
        ["--batch-size", str(args.batch_size), "--web", "--web-port", str(port)],
    )
    started = time.monotonic()
    try:
        worker = run.spawn()
        send(run.bootstrap, valid)
        run.wait(lambda: run.stored() >= len(ids), store_timeout(events), "all stored", [worker])
        time.sleep(2)
        log = "".join(p.read_text(errors="replace") for p in run.dir.glob("worker-*.log"))
        places = every_place(run.bootstrap, run.data_dir, port, log, run.dir / "out")
        found = {name: kinds for name, blob in places.items() if (kinds := find_planted(blob))}
        result.leaked = sum(len(kinds) for kinds in found.values())
        result.notes.append(
            f"{len(planted)} planted events ({len(PLANTED)} kinds each), "
            f"{len(places)} places searched"
        )
        result.notes.extend(f"LEAK {name}: {', '.join(kinds)}" for name, kinds in found.items())
    except (RuntimeError, TimeoutError, AssertionError) as exc:
        result.notes.append(str(exc).splitlines()[0])
        result.leaked = -1  # unknown: not ok
    finally:
        result.worker_exit_codes = run.stop_workers()
        result.seconds = time.monotonic() - started
    run.audit_and_close(result, ids, [])
    return result


INGEST_BODY_LINES = 12_652  # ~31 MiB of simulated events: the documented body limit


async def _post_bodies(
    port: int, bodies: list[bytes]
) -> tuple[list[tuple[int, Any]], float, float]:
    """POST each body in turn while /healthz is probed; answers, seconds, slowest probe."""
    import aiohttp

    base = f"http://127.0.0.1:{port}"
    answers: list[tuple[int, Any]] = []
    slowest = 0.0
    done = asyncio.Event()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600)) as session:

        async def probe() -> None:
            nonlocal slowest
            while not done.is_set():
                t0 = time.perf_counter()
                async with session.get(base + "/healthz") as resp:
                    await resp.read()
                slowest = max(slowest, time.perf_counter() - t0)
                await asyncio.sleep(0.05)

        prober = asyncio.create_task(probe())
        started = time.perf_counter()
        for body in bodies:
            headers = {"Content-Type": "application/x-ndjson"}
            async with session.post(base + "/ingest", data=body, headers=headers) as resp:
                answers.append((resp.status, orjson.loads(await resp.read())))
        took = time.perf_counter() - started
        done.set()
        await prober
    return answers, took, slowest


def scenario_ingest(root: Path, events: int, args: argparse.Namespace, rss: RssSampler) -> Result:
    import aiohttp

    result = Result("ingest at size")
    valid, ids = valid_events(events, seed=1819)
    bodies = [b"\n".join(part) + b"\n" for part in chunks(valid, INGEST_BODY_LINES)]
    port = free_port()
    run = Run(
        root,
        "ingest",
        rss,
        ["--batch-size", str(args.batch_size), "--web", "--web-port", str(port)],
    )
    started = time.monotonic()
    try:
        worker = run.spawn()

        async def up() -> bool:
            try:
                async with (
                    aiohttp.ClientSession() as session,
                    session.get(f"http://127.0.0.1:{port}/healthz") as resp,
                ):
                    return resp.status == 200
            except (aiohttp.ClientError, OSError):
                return False

        run.wait(lambda: asyncio.run(up()), 120, "the web server", [worker], stall_s=120)
        answers, took, slowest = asyncio.run(_post_bodies(port, bodies))
        wrong = [
            (status, answer)
            for (status, answer), part in zip(
                answers, chunks(valid, INGEST_BODY_LINES), strict=True
            )
            if status != 202 or answer.get("accepted") != len(part)
        ]
        result.wrong_answers = len(wrong)
        if wrong:
            result.notes.append(f"{len(wrong)} bodies not fully accepted: {wrong[0]}")
        result.notes.append(
            f"{len(bodies)} bodies (up to {max(map(len, bodies)) / 2**20:.1f} MiB): "
            f"{events / took:,.0f} events/s; slowest /healthz {slowest * 1000:.0f} ms"
        )
        run.wait(lambda: run.stored() >= len(ids), store_timeout(events), "all stored", [worker])
        time.sleep(2)
    except (RuntimeError, TimeoutError) as exc:
        result.notes.append(str(exc).splitlines()[0])
    finally:
        result.worker_exit_codes = run.stop_workers()
        result.seconds = time.monotonic() - started
    run.audit_and_close(result, ids, [])
    return result


SCENARIOS: dict[str, Callable[[Path, int, argparse.Namespace, RssSampler], Result]] = {
    "crash": scenario_crash,
    "rebalance": scenario_rebalance,
    "fuzz": scenario_fuzz,
    "poison": scenario_poison,
    "corrupt": scenario_corrupt,
    "copy": scenario_copy,
    "planted": scenario_planted,
    "ingest": scenario_ingest,
}


# ------------------------------------------------------------------ output


COLUMNS = [
    ("scenario", "scenario", "<"),
    ("produced", "produced", ">"),
    ("stored", "stored", ">"),
    ("lost", "lost", ">"),
    ("quarantined", "quarantined", ">"),
    ("dup view", "dup_view", ">"),
    ("dup raw", "dup_raw", ">"),
    ("counted", "total_counted", ">"),
    ("DLQ exp/got", "dlq", ">"),
    ("leaked", "leaked", ">"),
    ("restarts", "restarts", ">"),
    ("peak RSS MiB", "peak_rss_mib", ">"),
    ("time s", "seconds", ">"),
    ("ok", "ok", "<"),
]


def table(results: list[Result]) -> str:
    rows = []
    for r in results:
        values = {
            **asdict(r),
            "dlq": f"{r.dlq_expected}/{r.dlq_got}" + ("" if r.dlq_exact else " !"),
            "peak_rss_mib": f"{r.peak_rss_mib:.0f}",
            "seconds": f"{r.seconds:.0f}",
            "ok": "yes" if r.ok else "NO",
        }
        rows.append([str(values[key]) for _, key, _ in COLUMNS])
    heads = [title for title, _, _ in COLUMNS]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(heads)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            f"{c:{align}{w}}" for c, w, (_, _, align) in zip(cells, widths, COLUMNS, strict=True)
        ).rstrip()

    out = [line(heads), line(["-" * w for w in widths])] + [line(row) for row in rows]
    for r in results:
        out.extend(f"  {r.scenario}: {note}" for note in r.notes)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, help="valid events per scenario (default 30000)")
    parser.add_argument("--quick", action="store_true", help="3000 events per scenario")
    parser.add_argument("--batch-size", type=int, default=500, help="worker --batch-size")
    parser.add_argument(
        "--scenario", action="append", choices=sorted(SCENARIOS), help="run only these"
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write results as JSON")
    parser.add_argument("--keep", action="store_true", help="keep data directories and logs")
    args = parser.parse_args(argv)
    events = args.events or (3000 if args.quick else 30000)
    names = args.scenario or list(SCENARIOS)

    root = Path(tempfile.mkdtemp(prefix="leakline-reliability-"))
    results: list[Result] = []
    try:
        for name in names:
            print(f"running {name} with {events} events ...", file=sys.stderr, flush=True)
            with RssSampler() as rss:
                result = SCENARIOS[name](root, events, args, rss)
                result.peak_rss_mib = rss.peak_mib
            results.append(result)
    finally:
        if args.keep:
            print(f"data and logs kept in {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(table(results))
    if args.json:
        args.json.write_text(
            json.dumps(
                {"events": events, "results": [asdict(r) | {"ok": r.ok} for r in results]},
                indent=2,
            )
        )
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
