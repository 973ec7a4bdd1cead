"""``leakline worker --store iceberg``: the worker stores each event exactly once in the
Iceberg samples table (issue 30 part 2). The slow tests run real processes: a Tansu
broker, workers with their SQLite catalog, killed with -9 or paused across a rebalance.
The table is read with a pyiceberg scan, with no dedupe: count = distinct = sent."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections import Counter
from pathlib import Path

import orjson
import pyarrow as pa
import pytest
from leakline_testkit import WorkerProcess, spawn_worker

from leakline.pipeline.kafka.io import ensure_topics, produce
from leakline.pipeline.simulate.traffic_model import simulate
from leakline.pipeline.store.catalog import open_catalog
from leakline.pipeline.store.offsets import committed_offsets
from leakline.pipeline.store.table_sink import keep_rows
from leakline.pipeline.store.tables import SAMPLES
from leakline.pipeline.worker.table_writer import TableWriter

EVENTS = "gateway.events"


# -- the pending commit's bookkeeping (no I/O) ----------------------------------------


def test_runs_join_only_where_they_continue_and_a_hole_asks_for_a_seek() -> None:
    writer: TableWriter[str] = TableWriter(EVENTS)
    assert writer.position([0, 1], {0: 10}) == {0: 10}  # 1: the table never saw it
    first = writer.admit([(0, 10, "a"), (0, 11, "b"), (1, 5, "c")], writer.epoch)
    assert first.kept == {0: (10, 12), 1: (5, 6)} and not first.reseek
    writer.hold(first, ["f1"])
    # offset 12 went missing in a batch fetched since the last seek: refused, seek again
    hole = writer.admit([(0, 13, "d")], writer.epoch)
    assert hole.kept == {} and hole.refused == 1 and hole.reseek
    # a batch fetched before a seek is refused without asking for another one
    stale = writer.admit([(0, 13, "d")], writer.epoch - 1)
    assert stale.refused == 1 and not stale.reseek
    # a partition not assigned is refused; records already held are trimmed off
    trimmed = writer.admit([(2, 0, "x"), (0, 11, "b"), (0, 12, "e")], writer.epoch)
    assert trimmed.kept == {0: (12, 13)} and trimmed.acks == ["e"] and trimmed.refused == 2
    writer.hold(trimmed, ["f2"])
    held = writer.take()
    assert held is not None and held.ranges == {0: (10, 13), 1: (5, 6)}
    assert held.acks == ["a", "b", "c", "e"] and held.files == ["f1", "f2"]


def test_positioning_resumes_after_what_is_held_unless_the_table_moved_on() -> None:
    writer: TableWriter[str] = TableWriter(EVENTS)
    writer.position([0], {0: 0})
    writer.hold(writer.admit([(0, 0, "a"), (0, 1, "b")], writer.epoch), [])
    # a rebalance that gives partition 0 back: continue after what is held
    assert writer.position([0], {0: 0}) == {0: 2}
    # another owner stored past it meanwhile: resume from the table (the fence drops ours)
    assert writer.position([0], {0: 7}) == {0: 7}
    assert writer.fenced().ranges == {0: (0, 2)} and writer.expected == {}
    assert writer.admit([(0, 7, "c")], writer.epoch).refused == 1  # until positioned
    # a commit dropped on a partition the table never saw: resume where the drop began
    fresh: TableWriter[str] = TableWriter(EVENTS)
    assert fresh.position([0], {}) == {}
    fresh.hold(fresh.admit([(0, 3, "a"), (0, 4, "b")], fresh.epoch), [])
    assert fresh.take() is not None and fresh.fenced().ranges == {}
    assert fresh.position([0], {}) == {0: 3}


def test_keep_rows_keeps_only_the_admitted_ranges() -> None:
    rows = pa.table({"src_partition": [0, 0, 0, 1, 1, 2], "src_offset": [4, 5, 6, 0, 1, 9]})
    kept = keep_rows(rows, {0: (5, 7), 1: (1, 2)})
    assert list(zip(*kept.to_pydict().values(), strict=True)) == [(0, 5), (0, 6), (1, 1)]
    assert keep_rows(rows, {}).num_rows == 0


# -- real processes --------------------------------------------------------------------


def _payloads(n: int, seed: int) -> list[bytes]:
    return [orjson.dumps(s.event) for s in simulate(n, seed=seed)]


def _table_ids(data_dir: Path) -> list[str]:
    if not (data_dir / "catalog.db").exists():
        return []
    try:
        table = open_catalog(data_dir).load_table(SAMPLES)
    except Exception:  # not created yet
        return []
    return list(table.scan(selected_fields=("event_id",)).to_arrow()["event_id"].to_pylist())


def _send(bootstrap: str, payloads: list[bytes]) -> None:
    report = asyncio.run(produce(bootstrap, EVENTS, payloads))
    assert report.failed == 0 and report.sent == len(payloads), report


def _alive(*workers: WorkerProcess) -> None:
    for worker in workers:
        assert worker.proc.poll() is None, worker.log_text()[-3000:]


def _wait_for(data_dir: Path, n: int, workers: tuple[WorkerProcess, ...], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while len(_table_ids(data_dir)) < n:
        _alive(*workers)
        assert time.monotonic() < deadline, "".join(
            f"\n--- {w.log}:\n{w.log_text()[-3000:]}" for w in workers
        )
        time.sleep(0.5)


def _assert_exactly_once(data_dir: Path, payloads: list[bytes]) -> None:
    ids = _table_ids(data_dir)
    expected = sorted(orjson.loads(p)["event_id"] for p in payloads)
    duplicated = [i for i, c in Counter(ids).items() if c > 1]
    lost = set(expected) - set(ids)
    assert not duplicated and not lost, (len(duplicated), len(lost))
    assert sorted(ids) == expected


def _setup(broker: object, partitions: int) -> None:
    asyncio.run(
        ensure_topics(
            broker.bootstrap,  # type: ignore[attr-defined]
            [EVENTS, "gateway.events.dlq", "leak.samples"],
            partitions,
        )
    )


def _holds_uncommitted(worker: WorkerProcess) -> bool:
    """Positioned at least twice (its start, then the rebalance a second worker caused),
    and its newest batch that stored rows came after its newest commit."""
    lines = worker.log_text().splitlines()
    if sum("resuming gateway.events from the table" in line for line in lines) < 2:
        return False
    for line in reversed(lines):
        if " committed " in line:
            return False
        if "batch of" in line and "stored 0," not in line:
            return True
    return False


EXTRA = ("--store", "iceberg", "--commit-interval", "1", "--batch-size", "200")


@pytest.mark.slow
def test_a_worker_stores_every_event_once(broker, tmp_path: Path) -> None:
    _setup(broker, 4)
    data_dir = tmp_path / "data"
    payloads = _payloads(1500, seed=5)
    worker = spawn_worker(broker.bootstrap, data_dir, *EXTRA, "--partitions", "4")
    try:
        for i in range(0, len(payloads), 300):
            _send(broker.bootstrap, payloads[i : i + 300])
        _wait_for(data_dir, len(payloads), (worker,), 120)
        time.sleep(2)  # a late duplicate would show now
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
    _assert_exactly_once(data_dir, payloads)
    table = open_catalog(data_dir).load_table(SAMPLES)
    offsets = committed_offsets(table)
    assert sum(offsets.values()) == len(payloads)  # every record's offset, once
    assert {t for t, _ in offsets} == {EVENTS}


@pytest.mark.slow
def test_kill_9_mid_stream_loses_and_duplicates_nothing(broker, tmp_path: Path) -> None:
    _setup(broker, 4)
    data_dir = tmp_path / "data"
    payloads = _payloads(3000, seed=6)
    worker = spawn_worker(broker.bootstrap, data_dir, *EXTRA, "--partitions", "4")
    workers = [worker]
    try:
        _send(broker.bootstrap, payloads[:1500])
        _wait_for(data_dir, 200, (worker,), 120)  # some committed, the rest in flight
        _send(broker.bootstrap, payloads[1500:2200])
        os.kill(worker.proc.pid, signal.SIGKILL)
        worker.proc.wait()
        restarted = spawn_worker(broker.bootstrap, data_dir, *EXTRA, "--partitions", "4")
        workers.append(restarted)
        _send(broker.bootstrap, payloads[2200:])
        _wait_for(data_dir, len(payloads), (restarted,), 150)
        time.sleep(2)
        assert "resuming gateway.events from the table" in restarted.log_text()
    finally:
        for w in workers:
            if w.proc.poll() is None:
                w.stop()
    _assert_exactly_once(data_dir, payloads)


@pytest.mark.slow
def test_a_stale_owner_paused_across_a_rebalance_is_fenced(broker, tmp_path: Path) -> None:
    _setup(broker, 4)
    data_dir = tmp_path / "data"
    payloads = _payloads(3000, seed=7)
    # a long interval: the paused worker holds uncommitted batches when it is stopped
    extra = ("--store", "iceberg", "--commit-interval", "4", "--batch-size", "100")
    stale = spawn_worker(broker.bootstrap, data_dir, *extra, "--partitions", "4")
    workers = [stale]
    try:
        _send(broker.bootstrap, payloads[:300])
        _wait_for(data_dir, 300, (stale,), 120)
        # a second worker joins and waits to be assigned, then the first is paused
        # holding a fresh batch it has not committed yet
        other = spawn_worker(broker.bootstrap, data_dir, *extra, "--partitions", "4")
        workers.append(other)
        deadline = time.monotonic() + 60
        while "ready for batches" not in other.log_text():
            assert time.monotonic() < deadline, other.log_text()[-3000:]
            time.sleep(0.5)
        # feed until the first worker, past the rebalance that gave the second its share,
        # has stored a batch that it has not committed yet; then pause it right there
        sent, deadline = 300, time.monotonic() + 90
        while not _holds_uncommitted(stale):
            assert sent < 1500 and time.monotonic() < deadline, stale.log_text()[-3000:]
            _send(broker.bootstrap, payloads[sent : sent + 50])
            sent += 50
            time.sleep(0.3)
        os.kill(stale.proc.pid, signal.SIGSTOP)
        _send(broker.bootstrap, payloads[sent:1500])
        # the group drops it (session timeout 6 s); the other takes every partition
        _send(broker.bootstrap, payloads[1500:2500])
        _wait_for(data_dir, 2500, (other,), 120)
        os.kill(stale.proc.pid, signal.SIGCONT)
        _send(broker.bootstrap, payloads[2500:])
        _wait_for(data_dir, len(payloads), (other, stale), 120)
        time.sleep(8)  # the resumed worker's late commit and its rejoin
        _alive(other, stale)
    finally:
        for w in workers:
            if w.proc.poll() is None:
                os.kill(w.proc.pid, signal.SIGCONT)
                w.stop()
    _assert_exactly_once(data_dir, payloads)
    assert "fenced: another owner stored" in stale.log_text(), stale.log_text()[-4000:]
