"""Scale-out on real processes: two workers, one consumer group, one data directory.

Events keep arriving on a 4-partition ``gateway.events`` while two workers share the
partitions. One worker is killed with SIGKILL mid-stream; the survivor must take over
its partitions after the group rebalances, and the killed worker is then restarted.
Afterwards every valid event is stored and counted exactly once, the rates equal a
from-scratch computation, every malformed payload is on the DLQ exactly once, and
the Parquet files the two workers wrote into the shared directory never clash: each
file holds exactly the records its name says (partition + offset range) as they are
on the topic, so two writers of one name can only ever have written the same events.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pyarrow.parquet as pq
import pytest
from leakline_testkit import WorkerProcess, read_topic, spawn_worker, wait_stored

from leakline.pipeline.core.errors import StoreError
from leakline.pipeline.detect.offline import detect_line
from leakline.pipeline.kafka.io import ensure_topics, produce
from leakline.pipeline.simulate.traffic_model import malformed_payloads, simulate
from leakline.pipeline.store.database import query_rates, read_only
from leakline.pipeline.store.layout import PLACEHOLDER_NAME

pytestmark = pytest.mark.slow

EVENTS = "gateway.events"
DLQ = "gateway.events.dlq"
PARTITIONS = 4
FILE_NAME = re.compile(r"^part-gateway\.events-p(\d{4})-o(\d{12})-(\d{12})\.parquet$")


def _query(data_dir: Path, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` on the store, or [] while the store is not there / locked."""
    try:
        with read_only(data_dir, timeout_s=2.0) as con:
            return con.execute(sql, params or []).fetchall()
    except StoreError:
        return []


def _alive(*workers: WorkerProcess) -> None:
    for worker in workers:
        assert worker.proc.poll() is None, (
            f"worker exited with {worker.proc.returncode}:\n{worker.log_text()[-3000:]}"
        )


class Feeder:
    """Produces the stream in small chunks, so the workers consume while it arrives."""

    def __init__(self, bootstrap: str, payloads: list[bytes], chunk: int = 50) -> None:
        self.bootstrap = bootstrap
        self.chunks: Iterator[list[bytes]] = (
            payloads[i : i + chunk] for i in range(0, len(payloads), chunk)
        )
        self.total = len(payloads)
        self.sent = 0

    def step(self, limit: int) -> None:
        """Send the next chunk unless ``limit`` payloads are out already."""
        if self.sent >= limit:
            return
        batch = next(self.chunks, None)
        if batch is None:
            return
        report = asyncio.run(produce(self.bootstrap, EVENTS, batch))
        assert report.failed == 0 and report.sent == len(batch), report
        self.sent += len(batch)

    def run_until(
        self,
        done: Callable[[], bool],
        limit: int,
        timeout_s: float,
        watch: tuple[WorkerProcess, ...],
        what: str,
        pace_s: float = 0.2,
    ) -> None:
        deadline = time.monotonic() + timeout_s
        while not done():
            _alive(*watch)
            assert time.monotonic() < deadline, f"timed out waiting for: {what}" + "".join(
                f"\n--- {w.log}:\n{w.log_text()[-2000:]}" for w in watch
            )
            self.step(limit)
            time.sleep(pace_s)


def _from_scratch(valid: list[bytes]) -> dict[str, int]:
    totals: Counter[str] = Counter()
    for payload in valid:
        verdict = detect_line(payload, 4 * 1024 * 1024)
        assert "error" not in verdict, verdict
        totals["total"] += 1
        labels = verdict["labels"]
        assert isinstance(labels, list)
        totals["leaking"] += bool(labels)
        totals.update(labels)
    return dict(totals)


def test_two_workers_survive_kill_9_and_rebalance(broker, tmp_path: Path) -> None:
    valid = [orjson.dumps(s.event) for s in simulate(6000, seed=31)]
    bad = malformed_payloads(66, seed=31)
    stream: list[bytes] = []
    for i, payload in enumerate(valid):
        stream.append(payload)
        if i % 90 == 45 and i // 90 < len(bad):
            stream.append(bad[i // 90])
    stream.extend(bad[len(stream) - len(valid) :])
    assert sorted(stream) == sorted(valid + bad)
    asyncio.run(ensure_topics(broker.bootstrap, [EVENTS, DLQ, "leak.samples"], PARTITIONS))

    data_dir = tmp_path / "data"
    feeder = Feeder(broker.bootstrap, stream)
    extra = ("--batch-size", "300", "--partitions", str(PARTITIONS))
    first = spawn_worker(broker.bootstrap, data_dir, *extra)
    second = spawn_worker(broker.bootstrap, data_dir, *extra)
    workers = [first, second]
    try:
        # 1. both workers are in the group and storing (each owns some partitions)
        def both_storing() -> bool:
            rows = _query(data_dir, "select count(distinct worker_id) from samples_all")
            return bool(rows) and rows[0][0] >= 2

        feeder.run_until(
            both_storing, int(0.45 * feeder.total), 90, (first, second), "both workers storing"
        )

        # 2. kill -9 the first one while events are in flight
        killed_at = datetime.now(UTC)
        os.kill(first.proc.pid, signal.SIGKILL)
        first.proc.wait()
        survivor_id = f"{os.uname().nodename}-{second.proc.pid}"

        # the survivor takes over: it stores new rows from every partition
        def survivor_owns_all() -> bool:
            rows = _query(
                data_dir,
                "select count(distinct src_partition) from samples_all "
                "where worker_id = ? and ingested_at > ?",
                [survivor_id, killed_at],
            )
            return bool(rows) and rows[0][0] == PARTITIONS

        feeder.run_until(
            survivor_owns_all, int(0.75 * feeder.total), 90, (second,), "survivor owns all"
        )

        # 3. restart the killed worker; the group rebalances again, the rest arrives
        restarted = spawn_worker(broker.bootstrap, data_dir, *extra)
        workers.append(restarted)
        feeder.run_until(
            lambda: feeder.sent == feeder.total, feeder.total, 90, (second, restarted), "feed"
        )
        wait_stored(second, len(valid), timeout_s=120)
        time.sleep(2)  # a late duplicate or an extra row would show up now
        _alive(second, restarted)
    finally:
        for worker in workers:
            if worker.proc.poll() is None:
                worker.stop()
    assert second.proc.returncode == 0, second.log_text()[-3000:]
    assert restarted.proc.returncode == 0, restarted.log_text()[-3000:]

    # every valid event counted exactly once, with the rates of a from-scratch run
    with read_only(data_dir) as con:
        ids = [r[0] for r in con.execute("select event_id from samples").fetchall()]
        raw_rows = (con.execute("select count(*) from samples_all").fetchone() or (0,))[0]
        worker_ids = {
            r[0] for r in con.execute("select distinct worker_id from samples_all").fetchall()
        }
        rates = query_rates(con, [])[0]
    assert sorted(ids) == sorted(orjson.loads(p)["event_id"] for p in valid)
    assert raw_rows >= len(valid)
    expected = _from_scratch(valid)
    assert {k: rates[k] for k in expected} == expected
    assert len(worker_ids) >= 2, worker_ids
    assert survivor_id in worker_ids

    # every malformed payload on the DLQ exactly once
    dlq = read_topic(broker.bootstrap, DLQ)
    assert Counter(r.value for r in dlq) == Counter(bad)

    # the shared dataset: every file is readable and holds exactly what its name says
    on_topic = {(r.partition, r.offset): r.value for r in read_topic(broker.bootstrap, EVENTS)}
    assert sorted(on_topic.values()) == sorted(stream)
    id_at = {
        coords: orjson.loads(value)["event_id"]
        for coords, value in on_topic.items()
        if value in set(valid)
    }
    covered: dict[int, set[int]] = defaultdict(set)
    names = []
    for path in sorted((data_dir / "samples").glob("day=*/*.parquet")):
        if path.name == PLACEHOLDER_NAME:
            continue
        match = FILE_NAME.match(path.name)
        assert match, f"unexpected file name {path.name}"
        names.append(path.name)
        partition, low, high = (int(g) for g in match.groups())
        table = pq.read_table(path)
        rows = table.select(["event_id", "src_partition", "src_offset", "worker_id"]).to_pylist()
        offsets = [r["src_offset"] for r in rows]
        assert len(set(offsets)) == len(offsets), f"{path.name}: an offset twice in one file"
        assert min(offsets) == low and max(offsets) == high, path.name
        assert {r["src_partition"] for r in rows} == {partition}, path.name
        assert len({r["worker_id"] for r in rows}) == 1, f"{path.name}: mixed writers"
        for r in rows:
            assert id_at.get((partition, r["src_offset"])) == r["event_id"], path.name
        covered[partition].update(offsets)
    assert len(names) == len(set(names))
    # together the files cover every valid record on the topic (nothing skipped)
    assert {(p, o) for p, offs in covered.items() for o in offs} == set(id_at)
    assert set(covered) == set(range(PARTITIONS))
