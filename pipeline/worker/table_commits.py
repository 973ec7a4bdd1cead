"""``leakline worker --store iceberg``: the worker's batches into the Iceberg samples table.

Each processed batch's rows become data files at once (in a thread), and the batch joins
the pending commit (``table_writer.TableWriter``). Every ``--commit-interval`` seconds, and
at once when a rebalance or a shutdown stops the flow, one fenced commit adds all those
files with every partition's offset range. Only then are the batches' records
acknowledged, in the order they were taken, so Kafka's committed offsets follow the
table's (a hint; the table's own offsets decide where a partition resumes).

A commit the fence drops (another owner stored those offsets: this worker was paused or
cut off across a rebalance) is logged and counted (``leakline_store_fenced_batches``);
its records are never acknowledged, everything written after it is dropped too, and the
consumer is positioned again where the table says.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Iterable
from typing import Any, cast

import pyarrow as pa
from faust.types import TP, Message

from leakline.pipeline.core.config import Settings
from leakline.pipeline.live.metrics import WorkerMetrics
from leakline.pipeline.store.table_sink import TableSink, keep_rows
from leakline.pipeline.worker.faust_transport import LeaklineApp
from leakline.pipeline.worker.table_writer import Pending, TableWriter

log = logging.getLogger("leakline.worker")

WRITE_RETRIES = 5


class TableStore:
    """Writes, commits and positions the consumer for one worker's Iceberg store."""

    def __init__(self, app: LeaklineApp, settings: Settings, metrics: WorkerMetrics) -> None:
        self.app = app
        self.metrics = metrics
        self.interval = settings.commit_interval_s
        self.sink = TableSink(settings.data_dir)
        self.writer: TableWriter[Message] = TableWriter(settings.topics.events)
        self.wake = asyncio.Event()
        # one step at a time: admit+write+hold, positioning, and the commit's bookkeeping
        self.lock = asyncio.Lock()
        self.repositioning: set[asyncio.Future[None]] = set()  # kept from the collector
        app.resume_offsets = self.resume
        app.flow_stopped = self.wake.set

    @property
    def epoch(self) -> int:
        return self.writer.epoch

    # -- the consumer's position -------------------------------------------------------

    async def resume(self, assigned: list[TP]) -> dict[TP, int]:
        """Where the assigned partitions of the events topic resume: the table's offsets
        (plus what this worker holds uncommitted that continues them)."""
        topic = self.writer.topic
        table = await asyncio.to_thread(self.sink.offsets)
        mine = [tp for tp in assigned if tp.topic == topic]
        async with self.lock:
            at = self.writer.position(
                [tp.partition for tp in mine], {p: o for (t, p), o in table.items() if t == topic}
            )
        log.info(
            "resuming %s from the table: %s",
            topic,
            ", ".join(f"[{p}]@{o}" for p, o in sorted(at.items())) or "no partition stored yet",
        )
        return {tp: at[tp.partition] for tp in mine if tp.partition in at}

    def revoked(self, partitions: Iterable[TP]) -> None:
        self.writer.revoke(tp.partition for tp in partitions if tp.topic == self.writer.topic)

    def reposition(self) -> None:
        # always a new one: a positioning already under way may predate a fence
        task = asyncio.ensure_future(self._reposition())
        self.repositioning.add(task)
        task.add_done_callback(self.repositioning.discard)

    async def _reposition(self) -> None:
        """Seek the assigned partitions where the table (or a dropped range) says, while
        the flow runs: Faust's own seek to committed offsets is for rebalances."""
        consumer = cast(Any, self.app.consumer)
        try:
            offsets = await self.resume(sorted(consumer.assignment()))
            await consumer.reposition(offsets)
        except Exception:  # a rebalance under way positions the consumer anyway
            log.warning("positioning the consumer failed", exc_info=True)

    # -- batches -----------------------------------------------------------------------

    async def store(self, messages: list[Message], epoch: int, rows: pa.Table) -> int:
        """Write the part of a batch that may be stored; returns the rows written."""
        async with self.lock:
            admission = self.writer.admit(((m.partition, m.offset, m) for m in messages), epoch)
            if admission.refused:
                log.info(
                    "refused %d records fetched before a seek or no longer assigned",
                    admission.refused,
                )
                rows = keep_rows(rows, admission.kept)
            files = await self._write(rows) if admission.kept else []
            self.writer.hold(admission, files)
        if admission.reseek:
            log.warning("records went missing between batches; positioning the consumer again")
            self.reposition()
        if not cast(Any, self.app.consumer).flow_active:  # a rebalance or shutdown waits for acks
            self.wake.set()
        return rows.num_rows if admission.kept else 0

    async def _write(self, rows: pa.Table) -> list[Any]:
        delay = 0.5
        for attempt in range(1, WRITE_RETRIES + 1):
            try:
                return await asyncio.to_thread(self.sink.write, rows)
            except OSError as exc:
                log.error("table write failed (attempt %d/%d): %s", attempt, WRITE_RETRIES, exc)
                await asyncio.sleep(delay)
                delay *= 2
        # never ack what is not stored: exit, and the next owner reads from the table
        log.critical("the table keeps failing; exiting without committing")
        os._exit(70)

    # -- commits -----------------------------------------------------------------------

    async def run(self) -> None:
        """Commit every interval, or at once when woken (the flow stopped)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.interval)
            self.wake.clear()
            await self.commit()

    async def commit(self) -> None:
        async with self.lock:
            held = self.writer.take()
        if held is None:
            return
        ranges = self.writer.table_ranges(held)
        try:
            result = await asyncio.to_thread(self.sink.commit, held.files, ranges)
        except Exception:
            # the outcome is unknown (it may have landed): keep the files, drop what we
            # hold and resume from whatever the table says
            log.error("table commit failed; resuming from the table", exc_info=True)
            async with self.lock:
                self.writer.fenced()
            self.reposition()
            return
        if result.committed:
            async with self.lock:
                self.writer.landed()
            ack = self.app.consumer.ack
            for message in held.acks:
                ack(message)
            log.info(
                "committed %d files, %d records of %d partitions (snapshot %s, %d attempts)",
                len(held.files),
                len(held.acks),
                len(ranges),
                result.snapshot_id,
                result.attempts,
            )
            return
        async with self.lock:
            later = self.writer.fenced()
        self.metrics.store_fenced.inc()
        log.warning(
            "commit of %d records fenced: another owner stored %s; resuming from the table",
            len(held.acks),
            ", ".join(f"{t}[{p}]" for t, p in sorted(result.stale)),
        )
        await asyncio.to_thread(self._discard, later)
        self.reposition()

    def _discard(self, later: Pending[Message]) -> None:
        for data_file in later.files:
            try:
                self.sink.table.io.delete(data_file.file_path)
            except OSError as exc:  # left for the orphan sweep
                log.warning("could not delete %s: %s", data_file.file_path, exc)
