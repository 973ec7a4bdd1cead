"""Broker faults on real processes: the broker is late, goes away, or refuses connections.

Every test talks to Tansu through ``leakline_proxy.TcpProxy`` (Tansu advertises the
proxy's port, so *all* client connections go through it). ``pause()`` cuts every
connection and refuses new ones, as if the broker host went away; Tansu itself keeps
running with its in-memory data, like a broker behind a network partition.

- a worker started before any broker exists says that it waits, then proceeds;
- a 30 s outage while a batch is in flight: the worker stays up, stores every event
  exactly once without a restart, dead-letters every bad payload (a second copy only
  where the cut caught a produce request in flight), and its log stays readable;
- new connections refused right after a partition assignment (the DLQ ledger is then
  reloaded over a new connection): the worker must not park the batch;
- ``leakline replay`` across a short outage: every line arrives, or the exit status
  and the report say how many did not.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from leakline_proxy import ProxiedBroker
from leakline_testkit import WorkerProcess, read_topic, spawn_worker, wait_stored

from leakline.pipeline.demo import stop_process, stored_event_count
from leakline.pipeline.kafka.io import key_of, produce
from leakline.pipeline.simulate.traffic_model import malformed_payloads, simulate
from leakline.pipeline.store.database import query_rates, read_only

pytestmark = pytest.mark.slow

EVENTS = "gateway.events"
DLQ = "gateway.events.dlq"
OUTAGE_S = 30.0
# aiokafka reconnects every retry_backoff_ms (100 ms) and logs each failure at ERROR;
# a readable log during an outage has a few lines per second at most
MAX_OUTAGE_LOG_LINES_PER_S = 5.0


def _events(count: int, seed: int, bad_count: int) -> tuple[list[bytes], list[bytes]]:
    valid = [orjson.dumps(s.event) for s in simulate(count, seed=seed)]
    return valid, malformed_payloads(bad_count, seed=seed)


def _interleave(valid: list[bytes], bad: list[bytes]) -> list[bytes]:
    step = max(1, len(valid) // max(1, len(bad)))
    out: list[bytes] = []
    bad_iter = iter(bad)
    for i, payload in enumerate(valid):
        out.append(payload)
        if i % step == step // 2:
            nxt = next(bad_iter, None)
            if nxt is not None:
                out.append(nxt)
    out.extend(bad_iter)
    return out


def _send(bootstrap: str, payloads: list[bytes]) -> None:
    report = asyncio.run(produce(bootstrap, EVENTS, payloads))
    assert report.failed == 0 and report.sent == len(payloads), report


def _wait_for(cond: Callable[[], bool], timeout_s: float, worker: WorkerProcess, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        assert worker.proc.poll() is None, (
            f"worker exited with {worker.proc.returncode} while waiting for {what}:\n"
            f"{worker.log_text()[-3000:]}"
        )
        assert time.monotonic() < deadline, f"timed out: {what}\n{worker.log_text()[-3000:]}"
        time.sleep(0.1)


def _assert_stored_exactly_once(data_dir: Path, valid: list[bytes]) -> None:
    with read_only(data_dir) as con:
        ids = [r[0] for r in con.execute("select event_id from samples").fetchall()]
        raw = (con.execute("select count(*) from samples_all").fetchone() or (0,))[0]
        total = query_rates(con, [])[0]["total"]
    assert sorted(ids) == sorted(orjson.loads(p)["event_id"] for p in valid)
    assert total == len(valid)
    assert raw >= len(valid)


# ---------------------------------------------------------------- (a) broker late


def test_worker_started_before_the_broker_waits_then_stores_everything(tmp_path: Path) -> None:
    valid, bad = _events(600, seed=51, bad_count=12)
    proxied = ProxiedBroker(log_path=tmp_path / "broker.log")  # nothing listens yet
    data_dir = tmp_path / "data"
    worker = spawn_worker(proxied.bootstrap, data_dir, "--batch-size", "200")
    try:
        waiting = f"Kafka at {proxied.bootstrap} not reachable yet"
        _wait_for(lambda: waiting in worker.log_text(), 20, worker, "the waiting message")
        time.sleep(6)  # it keeps waiting (and retrying) without giving up or crashing
        assert worker.proc.poll() is None, worker.log_text()[-3000:]
        log = worker.log_text()
        assert log.count(waiting) >= 2, log[-3000:]
        assert "retrying in" in log
        assert "Traceback" not in log, log[-3000:]

        appeared = time.monotonic()
        proxied.start()
        _wait_for(lambda: "Worker ready" in worker.log_text(), 20, worker, "worker ready")
        ready_after = time.monotonic() - appeared
        _send(proxied.bootstrap, _interleave(valid, bad))
        wait_stored(worker, len(valid), timeout_s=60)
        time.sleep(1.5)
        dlq = read_topic(proxied.bootstrap, DLQ)
    finally:
        rc = worker.stop()
        proxied.stop()
    assert rc == 0, worker.log_text()[-3000:]
    assert ready_after < 20, f"ready {ready_after:.1f}s after the broker appeared"
    _assert_stored_exactly_once(data_dir, valid)
    assert Counter(r.value for r in dlq) == Counter(bad)


# ---------------------------------------------------------------- (b) 30 s outage


@dataclass
class OutageRun:
    data_dir: Path
    valid: list[bytes]
    bad: list[bytes]
    dlq: list[bytes]
    alive_checks: int
    stored_at_pause: int
    outage_log: str
    outage_s: float
    after_log: str
    exit_code: int


@pytest.fixture(scope="module")
def outage(tmp_path_factory: pytest.TempPathFactory) -> OutageRun:
    """One run shared by the outage tests: 3000 events queued, the broker goes away for
    30 s once ~600 are stored, comes back, 1000 more arrive."""
    root = tmp_path_factory.mktemp("outage")
    valid, bad = _events(4000, seed=41, bad_count=44)
    first = _interleave(valid[:3000], bad[:22])
    second = _interleave(valid[3000:], bad[22:])
    data_dir = root / "data"
    with ProxiedBroker(log_path=root / "broker.log") as proxied:
        worker = spawn_worker(proxied.bootstrap, data_dir, "--batch-size", "200")
        try:
            _send(proxied.bootstrap, first)
            _wait_for(lambda: stored_event_count(data_dir) >= 600, 90, worker, "600 stored")
            stored_at_pause = stored_event_count(data_dir)
            log_at_pause = len(worker.log_text())
            paused_at = time.monotonic()
            proxied.proxy.pause()
            alive_checks = 0
            while time.monotonic() - paused_at < OUTAGE_S:
                assert worker.proc.poll() is None, (
                    f"worker died during the outage:\n{worker.log_text()[-3000:]}"
                )
                alive_checks += 1
                time.sleep(0.5)
            outage_log = worker.log_text()[log_at_pause:]
            outage_s = time.monotonic() - paused_at
            proxied.proxy.resume()
            _send(proxied.bootstrap, second)
            wait_stored(worker, len(valid), timeout_s=120)
            time.sleep(2)  # a late duplicate would show up now
            after_log = worker.log_text()[log_at_pause + len(outage_log) :]
            dlq = [r.value for r in read_topic(proxied.bootstrap, DLQ)]
        finally:
            exit_code = worker.stop()
    return OutageRun(
        data_dir,
        valid,
        bad,
        dlq,
        alive_checks,
        stored_at_pause,
        outage_log,
        outage_s,
        after_log,
        exit_code,
    )


def test_outage_of_30s_loses_and_duplicates_nothing(outage: OutageRun) -> None:
    # the same process carried on: nothing it had consumed was dropped or needed a restart
    assert outage.alive_checks >= int(OUTAGE_S / 0.5) - 2
    assert outage.exit_code == 0, outage.after_log[-3000:]
    assert outage.stored_at_pause < 3000  # events were queued and in flight
    # a batch was stuck while the broker was away and completed afterwards
    batches = [
        (int(dead), int(ms))
        for dead, ms in re.findall(
            r"batch of \d+: .* dead-lettered (\d+) in (\d+) ms", outage.after_log
        )
    ]
    stuck = [(dead, ms) for dead, ms in batches if ms >= 0.6 * OUTAGE_S * 1000]
    assert stuck, batches[:20]
    _assert_stored_exactly_once(outage.data_dir, outage.valid)
    # every bad payload is on the DLQ, and nothing else is
    assert set(outage.dlq) == set(outage.bad)
    # Tansu has no idempotent producer: a produce request that the cut caught in flight
    # may have landed, and aiokafka resends it. Only the dead letters of batches stuck in
    # the outage can repeat; a redelivered batch never republishes (the DLQ ledger).
    repeated = Counter(outage.dlq) - Counter(outage.bad)
    assert sum(repeated.values()) <= sum(dead for dead, _ in stuck), (repeated, stuck)


def test_outage_log_shows_retries_not_tracebacks(outage: OutageRun) -> None:
    log = outage.outage_log + outage.after_log
    assert "Traceback" not in log, log[:3000]
    assert "Crashed" not in log, log[:3000]
    assert re.search(r"retry|retrying|will retry", outage.outage_log, re.IGNORECASE), (
        outage.outage_log[:3000]
    )


def test_outage_log_is_not_a_flood(outage: OutageRun) -> None:
    """A 30 s outage should read as a handful of "broker unreachable, retrying" lines, not
    one ERROR line per reconnect attempt (aiokafka retries every 100 ms)."""
    lines = outage.outage_log.count("\n")
    per_s = lines / outage.outage_s
    sample = "\n".join(outage.outage_log.splitlines()[:12])
    assert per_s <= MAX_OUTAGE_LOG_LINES_PER_S, (
        f"{lines} log lines in a {outage.outage_s:.0f}s outage ({per_s:.0f}/s); first:\n{sample}"
    )


# ------------------------------------------- (b2) refused connections after assignment


def test_connections_refused_right_after_assignment_do_not_park_the_batch(
    tmp_path: Path,
) -> None:
    """After a partition assignment the worker reloads its DLQ ledger over a *new*
    connection before publishing the first batch. If the broker refuses connections at
    that moment (the listener flaps, a connection limit, an outage that starts there),
    the worker must retry, not lose the batch until its next restart."""
    valid, bad = _events(500, seed=61, bad_count=10)
    data_dir = tmp_path / "data"
    with ProxiedBroker(log_path=tmp_path / "broker.log") as proxied:
        worker = spawn_worker(proxied.bootstrap, data_dir, "--batch-size", "200")
        try:
            _wait_for(lambda: "Worker ready" in worker.log_text(), 60, worker, "worker ready")
            time.sleep(1)

            async def send_over_open_connection() -> None:
                producer = AIOKafkaProducer(bootstrap_servers=proxied.bootstrap, acks="all")
                await producer.start()
                try:
                    # open the producer's connection to the broker with a record the
                    # worker does not consume, so its first batch starts after the refusal
                    await producer.send_and_wait("leak.samples", b"{}", key=b"warm-up")
                    proxied.proxy.refuse_new()
                    for payload in _interleave(valid, bad):
                        await producer.send(EVENTS, payload, key=key_of(payload))
                    await producer.flush()
                finally:
                    await producer.stop()

            asyncio.run(send_over_open_connection())
            time.sleep(8)
            assert worker.proc.poll() is None, worker.log_text()[-3000:]
            proxied.proxy.resume()
            wait_stored(worker, len(valid), timeout_s=30)
            time.sleep(1.5)
            dlq = read_topic(proxied.bootstrap, DLQ)
        finally:
            # a worker with a parked batch does not stop on SIGTERM (wait_empty)
            exit_code = stop_process(worker.proc, timeout=15)
    assert exit_code == 0, worker.log_text()[-3000:]
    _assert_stored_exactly_once(data_dir, valid)
    assert Counter(r.value for r in dlq) == Counter(bad)


# ---------------------------------------------------------------- (c) replay


def _replay(bootstrap: str, path: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.cli",
            "replay",
            str(path),
            "--bootstrap",
            bootstrap,
        ]
        + list(extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


async def _topics(bootstrap: str) -> set[str]:
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap)
    await consumer.start()
    try:
        return set(await consumer.topics())
    finally:
        await consumer.stop()


REPORT = re.compile(r"replayed (\d+) events to \S+ \((\d+) retries, (\d+) failed\)")


def test_replay_across_a_short_outage_delivers_or_reports(tmp_path: Path) -> None:
    valid, bad = _events(8000, seed=71, bad_count=40)
    lines = [p.replace(b"\n", b" ") for p in _interleave(valid, bad)]
    expected = [line.rstrip(b"\r\n") for line in lines if line.strip()]  # what replay sends
    source = tmp_path / "events.jsonl"
    source.write_bytes(b"\n".join(lines) + b"\n")
    with ProxiedBroker(log_path=tmp_path / "broker.log") as proxied:
        proxy = proxied.proxy
        proc = _replay(proxied.bootstrap, source, "--connect-timeout", "20")
        deadline = time.monotonic() + 60
        # pause once a quarter of the file's bytes went through: mid-run, records in flight
        while proxy.bytes_to_target < source.stat().st_size // 4:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "replay did not start sending"
            time.sleep(0.02)
        with proxy.outage(4):
            assert proc.poll() is None, "replay finished before the outage"
        out, err = proc.communicate(timeout=240)
        arrived = Counter(r.value for r in read_topic(proxied.bootstrap, EVENTS, 60))
    report = err.decode(errors="replace")
    match = REPORT.search(report)
    assert match, report[-3000:]
    sent, _retries, failed = (int(g) for g in match.groups())
    assert sent + failed == len(expected), report[-2000:]
    missing = Counter(expected) - arrived
    if proc.returncode == 0:
        assert failed == 0
        assert not missing, f"{sum(missing.values())} lines lost silently"
    else:
        assert proc.returncode == 1 and failed > 0, report[-2000:]
        assert sum(missing.values()) <= failed, "more lines missing than reported failed"
    # at-least-once: a request cut mid-flight may land twice (no idempotent producer)
    assert set(arrived) <= set(expected)


def test_replay_with_no_broker_fails_clearly(tmp_path: Path) -> None:
    source = tmp_path / "events.jsonl"
    valid, _ = _events(50, seed=72, bad_count=0)
    source.write_bytes(b"\n".join(valid) + b"\n")
    proxied = ProxiedBroker(log_path=tmp_path / "broker.log")
    proxied.start_broker()  # the broker runs, but nothing gets through the proxy
    try:
        started = time.monotonic()
        proc = _replay(proxied.bootstrap, source, "--connect-timeout", "3")
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - started
        proxied.proxy.start()
        topics = asyncio.run(_topics(proxied.bootstrap))
    finally:
        proxied.stop()
    report = err.decode(errors="replace")
    assert proc.returncode == 2, report
    assert f"cannot reach Kafka at {proxied.bootstrap}" in report
    assert "hint:" in report
    assert took < 30
    assert EVENTS not in topics  # it gave up before creating or sending anything
