"""Crash safety on real processes: kill -9 a worker mid-stream, three times.

Afterwards every valid event is stored exactly once (as counted by the views),
the totals equal a from-scratch computation, and the dead-letter topic holds
every malformed payload exactly once.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections import Counter
from pathlib import Path

import orjson
import pytest
from leakline_testkit import read_topic, spawn_worker, wait_stored

from leakline.pipeline.demo import stored_event_count
from leakline.pipeline.detect.offline import detect_line
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.simulate.traffic_model import malformed_payloads, simulate
from leakline.pipeline.store.database import query_rates, read_only

pytestmark = pytest.mark.slow


def _from_scratch(payloads: list[bytes]) -> tuple[int, Counter[str]]:
    labels: Counter[str] = Counter()
    leaking = 0
    for payload in payloads:
        verdict = detect_line(payload, 4 * 1024 * 1024)
        leaking += bool(verdict["labels"])
        labels.update(verdict["labels"])
    return leaking, labels


def test_kill_9_three_times_loses_and_duplicates_nothing(broker, tmp_path: Path) -> None:
    valid = [orjson.dumps(s.event) for s in simulate(6000, seed=21)]
    bad = malformed_payloads(60, seed=21)
    stream = []
    for i, payload in enumerate(valid):
        stream.append(payload)
        if i % 100 == 50:
            stream.append(bad[i // 100])
    report = asyncio.run(produce(broker.bootstrap, "gateway.events", stream))
    assert report.sent == len(stream)

    data_dir = tmp_path / "data"
    kills = 0
    for target in (800, 2500, 4200):
        worker = spawn_worker(broker.bootstrap, data_dir, "--batch-size", "300")
        deadline = time.monotonic() + 90
        while stored_event_count(data_dir) < target and time.monotonic() < deadline:
            assert worker.proc.poll() is None, worker.log_text()[-3000:]
            time.sleep(0.05)
        os.kill(worker.proc.pid, signal.SIGKILL)
        worker.proc.wait()
        kills += 1
    assert kills == 3

    worker = spawn_worker(broker.bootstrap, data_dir, "--batch-size", "300")
    try:
        wait_stored(worker, len(valid), timeout_s=180)
        time.sleep(2)
    finally:
        assert worker.stop() == 0

    with read_only(data_dir) as con:
        ids = [row[0] for row in con.execute("select event_id from samples").fetchall()]
        rates = query_rates(con, [])[0]
    assert sorted(ids) == sorted(orjson.loads(p)["event_id"] for p in valid)
    leaking, labels = _from_scratch(valid)
    assert rates["total"] == len(valid) and rates["leaking"] == leaking
    assert {label: rates[label] for label in labels} == dict(labels)

    dlq = read_topic(broker.bootstrap, "gateway.events.dlq")
    assert Counter(r.value for r in dlq) == Counter(bad)


@pytest.mark.parametrize("failpoint", ["after_publish@2", "after_write@2"])
def test_crash_between_publish_write_and_commit(broker, tmp_path: Path, failpoint: str) -> None:
    """Die at the worst moments: dead letters sent but batch not stored, or stored but
    not committed. The redelivered batch must not duplicate DLQ records or counted rows."""
    valid = [orjson.dumps(s.event) for s in simulate(900, seed=4)]
    bad = malformed_payloads(30, seed=4)
    # one bad payload after every 6 valid ones: every batch of 100 has dead letters
    stream = []
    for i, payload in enumerate(valid):
        stream.append(payload)
        if i % 6 == 5 and i // 6 < len(bad):
            stream.append(bad[i // 6])
    asyncio.run(produce(broker.bootstrap, "gateway.events", stream))
    data_dir = tmp_path / "data"

    crashing = spawn_worker(
        broker.bootstrap, data_dir, "--batch-size", "100", env={"LEAKLINE_FAILPOINT": failpoint}
    )
    assert crashing.proc.wait(timeout=90) == 99, crashing.log_text()[-3000:]
    stored_before_restart = stored_event_count(data_dir)
    # the first batch was stored; the crash hit the second one mid-way
    assert 0 < stored_before_restart < len(valid)
    worker = spawn_worker(broker.bootstrap, data_dir, "--batch-size", "100")
    try:
        wait_stored(worker, len(valid))
        time.sleep(1.5)
    finally:
        assert worker.stop() == 0
    with read_only(data_dir) as con:
        assert query_rates(con, [])[0]["total"] == len(valid)
    dlq = read_topic(broker.bootstrap, "gateway.events.dlq")
    assert Counter(r.value for r in dlq) == Counter(bad)
