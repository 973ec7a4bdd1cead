"""Backpressure: a burst of ten times the sustained rate must not grow the worker's memory.

Real Tansu broker and worker process. Traffic is produced at a sustained rate the
worker keeps up with, then at ten times that rate for as long, which is above what
the worker processes, so a backlog builds. The backlog must stay in Kafka: the
consumer collects one batch ahead and the agent holds a bounded number of batches in
flight, so RSS during the burst and the drain may not rise much above the sustained
level. Everything is stored exactly once at the end.

A worker on this machine now keeps up with the fastest burst the test's producer can
send, so the test caps it at ~1000 events/s with a pause point
(``LEAKLINE_FAILPOINT=before_finish~0.5`` with batches of 500): it still fetches,
batches, processes and acknowledges as in production, only more slowly.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from leakline_testkit import RssSampler, spawn_worker, wait_stored

from leakline.pipeline.demo import stored_event_count
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.simulate.traffic_model import Mix, simulate
from leakline.pipeline.store.database import query_rates, read_only

pytestmark = pytest.mark.slow

SUSTAINED_PER_S = 300
PHASE_S = 6.0
TICK_S = 0.1
# the burst may lift RSS by this much over the settled sustained level: bounded
# buffers mean a constant, not something proportional to the backlog
BURST_HEADROOM_MIB = 160


def paced(payloads: list[bytes], per_s: float) -> Iterator[bytes]:
    """Yield payloads at ``per_s`` on average, one tick's worth at a time."""
    per_tick = max(1, round(per_s * TICK_S))
    started = time.monotonic()
    for i, payload in enumerate(payloads):
        if i and i % per_tick == 0:
            due = started + (i / per_tick) * TICK_S
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)  # between windows: nothing is in flight then
        yield payload


def send_paced(bootstrap: str, payloads: list[bytes], per_s: float) -> float:
    started = time.monotonic()
    window = max(1, round(per_s * TICK_S))
    report = asyncio.run(
        produce(bootstrap, "gateway.events", paced(payloads, per_s), window=window)
    )
    assert report.failed == 0 and report.sent == len(payloads)
    return len(payloads) / (time.monotonic() - started)


def test_a_tenfold_burst_queues_in_kafka_not_in_worker_memory(broker, tmp_path: Path) -> None:
    sustained_n = int(SUSTAINED_PER_S * PHASE_S)
    burst_n = sustained_n * 10
    events = [
        orjson.dumps(s.event)
        for s in simulate(sustained_n + burst_n, seed=41, mix=Mix(leak_ratio=0.3))
    ]
    worker = spawn_worker(
        broker.bootstrap,
        tmp_path / "data",
        "--batch-size",
        "500",
        env={"LEAKLINE_FAILPOINT": "before_finish~0.5"},
    )
    sampler = RssSampler(worker.proc.pid)
    sampler.start()
    try:
        # warm-up: the first group join, imports and the first batches
        asyncio.run(produce(broker.bootstrap, "gateway.events", events[:200]))
        wait_stored(worker, 200, timeout_s=120)
        sustained_rate = send_paced(broker.bootstrap, events[200:sustained_n], SUSTAINED_PER_S)
        wait_stored(worker, sustained_n, timeout_s=120)
        time.sleep(2.0)
        sustained_rss = sampler.settled(1.5)
        burst_from = time.monotonic()
        burst_rate = send_paced(broker.bootstrap, events[sustained_n:], SUSTAINED_PER_S * 10)
        # right after the burst the worker must be behind, or this was no burst
        behind_by = len(events) - stored_event_count(worker.data_dir)
        wait_stored(worker, len(events), timeout_s=240)
        burst_peak = max(rss for t, rss in sampler.samples if t >= burst_from)
    finally:
        sampler.stop()
        code = worker.stop()
    assert code == 0, worker.log_text()[-3000:]
    print(
        f"\nsustained {sustained_rate:.0f} ev/s at {sustained_rss:.0f} MiB; burst "
        f"{burst_rate:.0f} ev/s ({burst_rate / sustained_rate:.1f}x), {behind_by} events "
        f"behind when it ended; peak during burst+drain {burst_peak:.0f} MiB"
    )
    assert burst_rate >= 5 * sustained_rate, "the producer could not burst; no test"
    assert behind_by > burst_n // 5, f"the worker kept up ({behind_by} behind): no backlog"
    assert burst_peak <= sustained_rss + BURST_HEADROOM_MIB, (
        f"RSS rose from {sustained_rss:.0f} to {burst_peak:.0f} MiB during the burst"
    )
    with read_only(tmp_path / "data") as con:
        (overall,) = query_rates(con, by=[])
    assert overall["total"] == len(events)  # each event once: nothing lost or doubled
