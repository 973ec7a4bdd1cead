"""One oversize record must not stop the pipeline (issue 18, item 1).

Real Tansu broker and worker process. A record of almost ``MAX_RECORD_BYTES`` is on
``gateway.events`` (put there by a producer that is not leakline's: the broker takes it).
It is too large to process and too large to dead-letter whole, so the worker publishes a
reference (source, size, sha256, head bytes) with the ``too_large`` reason, commits, and
stores the good events behind it. ``leakline replay`` refuses such a record up front.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
from pathlib import Path

import orjson
import pytest
from aiokafka import AIOKafkaProducer
from leakline_testkit import leakline, read_topic, spawn_worker, wait_stored

from leakline.pipeline.core.config import MAX_EVENT_BYTES, MAX_RECORD_BYTES
from leakline.pipeline.events.contract import rejection_of
from leakline.pipeline.events.process import REASON_HEADER, SOURCE_HEADER
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.simulate.traffic_model import simulate

pytestmark = pytest.mark.slow

EVENTS = "gateway.events"
DLQ = "gateway.events.dlq"


def _send_raw(bootstrap: str, payloads: list[bytes]) -> None:
    """Another gateway's producer, with a larger request limit than leakline's."""

    async def run() -> None:
        producer = AIOKafkaProducer(
            bootstrap_servers=bootstrap, max_request_size=2 * MAX_RECORD_BYTES
        )
        await producer.start()
        try:
            for payload in payloads:
                await (await producer.send(EVENTS, payload, key=b"big"))
        finally:
            await producer.stop()

    asyncio.run(run())


def test_an_oversize_record_is_dead_lettered_as_a_reference_and_the_pipeline_moves_on(
    broker, tmp_path: Path
) -> None:
    big = b"x" * (MAX_RECORD_BYTES - 100)
    before = [orjson.dumps(s.event) for s in simulate(50, seed=181)]
    after = [orjson.dumps(s.event) for s in simulate(50, seed=182)]
    worker = spawn_worker(broker.bootstrap, tmp_path / "data", "--partitions", "1")
    try:
        report = asyncio.run(produce(broker.bootstrap, EVENTS, before))
        assert report.sent == len(before)
        _send_raw(broker.bootstrap, [big])
        report = asyncio.run(produce(broker.bootstrap, EVENTS, after))
        assert report.sent == len(after)
        try:
            wait_stored(worker, len(before) + len(after), timeout_s=90)
        except AssertionError as exc:
            reasons = [r.headers.get(REASON_HEADER) for r in read_topic(broker.bootstrap, DLQ)]
            raise AssertionError(f"{exc}\ndead letters: {reasons[:10]}") from None
        dlq = read_topic(broker.bootstrap, DLQ)
        assert worker.proc.poll() is None, worker.log_text()[-3000:]
    finally:
        rc = worker.stop()
    assert rc == 0, worker.log_text()[-3000:]
    (letter,) = dlq
    reason = letter.headers[REASON_HEADER].decode()
    assert rejection_of(reason) == "too_large", reason
    assert len(letter.value) < 1024 * 1024
    reference = orjson.loads(letter.value)
    source = letter.headers[SOURCE_HEADER].decode()
    assert reference["source"] == source
    topic, partition, offset = source.rsplit("/", 2)
    assert (reference["topic"], reference["partition"], reference["offset"]) == (
        topic,
        int(partition),
        int(offset),
    )
    assert reference["size"] == len(big)
    assert reference["sha256"] == hashlib.sha256(big).hexdigest()
    head = base64.b64decode(reference["head_base64"])
    assert head and big.startswith(head)
    assert "MessageSizeTooLarge" not in worker.log_text()


def test_a_record_under_the_dlq_limit_is_still_dead_lettered_whole(broker, tmp_path: Path) -> None:
    over = b'{"event_id": "over", "pad": "' + b"y" * (MAX_EVENT_BYTES + 10) + b'"}'
    good = [orjson.dumps(s.event) for s in simulate(20, seed=183)]
    worker = spawn_worker(broker.bootstrap, tmp_path / "data", "--partitions", "1")
    try:
        _send_raw(broker.bootstrap, [over])
        asyncio.run(produce(broker.bootstrap, EVENTS, good))
        wait_stored(worker, len(good), timeout_s=90)
        dlq = read_topic(broker.bootstrap, DLQ)
    finally:
        worker.stop()
    (letter,) = dlq
    assert letter.value == over
    assert rejection_of(letter.headers[REASON_HEADER].decode()) == "too_large"


def test_replay_refuses_a_record_over_the_worker_limit_up_front(broker, tmp_path: Path) -> None:
    good = [orjson.dumps(s.event) for s in simulate(3, seed=184)]
    path = tmp_path / "big.jsonl"
    path.write_bytes(good[0] + b"\n" + b"x" * (8 * 1024 * 1024 - 100) + b"\n" + good[1] + b"\n")
    done = leakline("replay", str(path), "--bootstrap", broker.bootstrap)
    assert done.returncode == 2, done.stderr
    assert "line 2" in done.stderr and str(MAX_EVENT_BYTES) in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert read_topic(broker.bootstrap, EVENTS) == []  # refused before anything was sent


def test_replay_from_stdin_refuses_the_oversize_line_and_sends_the_rest(broker) -> None:
    good = [orjson.dumps(s.event) for s in simulate(3, seed=185)]
    lines = good[0] + b"\n" + b"x" * (MAX_EVENT_BYTES + 1) + b"\n" + good[1] + b"\n"
    done = leakline("replay", "-", "--bootstrap", broker.bootstrap, stdin=lines)
    assert done.returncode == 1, done.stderr
    assert "1 refused" in done.stderr and str(MAX_EVENT_BYTES) in done.stderr, done.stderr
    assert sorted(r.value for r in read_topic(broker.bootstrap, EVENTS)) == sorted(good[:2])
