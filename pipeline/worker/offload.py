"""Where a worker runs ``process_batch``: in child processes (default) or inline.

A worker's event loop runs Faust: fetching, batching, acks, publishing, heartbeats.
Decoding, normalising, detecting and building rows is pure Python that costs more,
and under one GIL the two take turns. With the batch work in child processes the
loop keeps fetching and finishing batches while the children work, and a long batch
can no longer delay heartbeats. ``InlineProcessor`` (``--inline-batches``) keeps it
in the worker's own process; both have the same ``start``/``process`` interface.

Nothing about delivery changes: the agent still waits for a batch's result, then
publishes, writes and acknowledges, in that order. If a child dies, the batch fails
like any other failure before the write (the worker exits without committing).

The child is started with ``spawn`` (forking a process that runs Faust's threads is
unsafe), loads the detectors, the redaction rules and the classifier itself, and follows
promoted classifiers (``ModelWatcher``) and the imported families file (``FamilyWatcher``)
on its own, exactly as the worker would. With every batch result (and once at start) it
sends back which classifier it runs and how many promoted ones it refused since the
last report, so the worker can export them (``leakline_model_info``,
``leakline_model_reload_failures_total``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa

from leakline.models.registry import ModelWatcher
from leakline.pipeline.core.gc_pause import BatchCollector
from leakline.pipeline.core.procinfo import exit_with_parent
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import (
    BatchResult,
    DeadLetter,
    RawRecord,
    Sample,
    process_batch,
)
from leakline.pipeline.events.redact import Redactor
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.families.files import FamilyWatcher
from leakline.pipeline.live.stats import StatsRecord, batch_stats
from leakline.pipeline.worker import payload_slots
from leakline.pipeline.worker.payload_slots import Slot, SlotReader, SlotRef

log = logging.getLogger("leakline.worker")


@dataclass(frozen=True)
class BatchConfig:
    """What ``process_batch`` needs besides the records; sent to the child once."""

    worker_id: str
    clean_text_rate: float
    max_event_bytes: int
    redaction: str
    models_dir: Path | None
    classifier_check_s: float
    classifier_threshold: float | None
    # DATA_DIR/families.json: imported families, followed like the promoted classifier
    families_file: Path | None = None
    # collect candidate marker shapes for the worker's fleet learner (marker_learner)
    learn_markers: bool = True


# The child's state, built once by ``_start``.
_child: dict[str, Any] = {}

# (key, value, topic, partition, offset) per record: plain tuples pickle ~3x faster
# than the dataclasses.
Packed = list[tuple[bytes | None, bytes, str, int, int]]
# the same without the values, which come through a memory file (``payload_slots``)
Meta = list[tuple[bytes | None, str, int, int]]
# the classifier version a batch process runs, and its refusals since the last report
ModelReport = tuple[str | None, int]
# the rows as an Arrow IPC stream, their live-stats records, dead letters, samples, report,
# the fleet learner's sightings (BatchResult.markers)
Processed = tuple[
    bytes, list[StatsRecord], list[DeadLetter], list[Sample], ModelReport, dict[str, Any] | None
]


class ModelFollower:
    """Reads a ``ModelWatcher``'s version and new refusals for the worker's metrics."""

    def __init__(self, watcher: ModelWatcher) -> None:
        self.watcher = watcher
        self._reported = 0

    def report(self) -> ModelReport:
        refusals = self.watcher.refusals - self._reported
        self._reported = self.watcher.refusals
        return self.watcher.version, refusals


def _start(config: BatchConfig, parent: int) -> None:
    # the child writes to the worker's own stderr (its log): classifier reloads and
    # refusals happen here now, and operators look for them there
    logging.basicConfig(
        level=logging.INFO,
        format="[%(asctime)s] [%(process)d] [%(levelname)s] %(name)s (batch child): %(message)s",
    )
    _child["config"] = config
    _child["redactor"] = Redactor.from_spec(config.redaction)
    _child["classifiers"] = ModelWatcher(config.models_dir, config.classifier_check_s)
    _child["follower"] = ModelFollower(_child["classifiers"])
    _child["families"] = FamilyWatcher(config.families_file, config.classifier_check_s)
    _child["slots"] = SlotReader()
    # A worker killed with SIGKILL, or leaving through os._exit after a failed write,
    # does not shut its pool down, and the child would wait on the pipe forever (seen
    # in the crash tests: idle children adopted by init). The worker's pid comes from
    # the worker: it may be gone before this line runs.
    exit_with_parent(parent)
    # the detectors, rules and classifier live as long as the child: frozen out of the
    # collector's sight, which then runs between batches only (issue 19)
    _child["collector"] = BatchCollector()
    _child["collector"].start()


def _run(
    config: BatchConfig,
    redactor: Redactor,
    classifiers: ModelWatcher,
    records: list[RawRecord],
    families: FamilyWatcher | None = None,
) -> BatchResult:
    if families is not None:
        families.current()  # swaps in a changed families file before the batch
    return process_batch(
        records,
        worker_id=config.worker_id,
        clean_text_rate=config.clean_text_rate,
        max_event_bytes=config.max_event_bytes,
        redactor=redactor,
        classifier=classifiers.current(),
        classifier_threshold=config.classifier_threshold,
        markers=config.learn_markers,
    )


def _process(packed: Packed) -> Processed:
    _child["collector"].between_batches()  # the previous batch is gone by now
    return _process_records([RawRecord(k, v, Origin(t, p, o)) for k, v, t, p, o in packed])


def _process_slot(ref: SlotRef, meta: Meta) -> Processed:
    _child["collector"].between_batches()  # the previous batch is gone by now
    values = _child["slots"].read(ref)
    records = [
        RawRecord(k, v, Origin(t, p, o)) for (k, t, p, o), v in zip(meta, values, strict=True)
    ]
    return _process_records(records)


def _process_records(records: list[RawRecord]) -> Processed:
    config: BatchConfig = _child["config"]
    result = _run(config, _child["redactor"], _child["classifiers"], records, _child["families"])
    # the table and the live counts are made here, where the rows are Python lists: the
    # worker's loop gets an Arrow stream it reads without copying (issue 19)
    stats = batch_stats(result, config.worker_id, datetime.now(UTC))
    table = result.rows.table()
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    report = _child["follower"].report()
    return (
        sink.getvalue().to_pybytes(),
        stats,
        result.dead_letters,
        result.samples,
        report,
        result.markers,
    )


def _ready(probe: SlotRef | None) -> tuple[ModelReport, bool]:
    """The child's classifier report, and whether it can read the worker's memory files."""
    readable = False
    if probe is not None:
        with contextlib.suppress(OSError):  # a hardened /proc: the worker uses the pipe
            readable = _child["slots"].read(probe) == [b"probe"]
    return _child["follower"].report(), readable


class ChildProcessor:
    """``processes`` child processes that run ``process_batch``; ``await process(records)``.

    Batches go to whichever child is free, so up to ``processes`` run at once; the
    caller keeps their order (the worker acknowledges them in the order taken).

    ``model_version`` is the classifier the last reporting child runs; ``take_refusals()``
    the classifier refusals the children reported since the last call (each child
    follows the registry itself, so one bad promotion counts once per child)."""

    def __init__(self, config: BatchConfig, processes: int = 1) -> None:
        self.config = config
        self.processes = processes
        self.where = f"{processes} child processes"
        self.model_version: str | None = None
        self._refusals = 0
        # memory files for batch values (payload_slots): one per batch in flight
        self._slots_ok = payload_slots.available()
        self._free_slots: list[Slot] = []
        self._slots: list[Slot] = []
        self._pool = ProcessPoolExecutor(
            max_workers=processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start,
            initargs=(config, os.getpid()),
        )

    async def start(self) -> None:
        """Start the children and load everything before the first batch arrives."""
        loop = asyncio.get_running_loop()
        probe = self._probe()
        # submitted together, before any child is idle, so the pool starts all of them
        answers = await asyncio.gather(
            *(loop.run_in_executor(self._pool, _ready, probe) for _ in range(self.processes))
        )
        for report, _ in answers:
            self._note(report)
        if probe is not None and not all(readable for _, readable in answers):
            log.warning("batch children cannot read the worker's memory files; using the pipe")
            self._slots_ok = False

    def _probe(self) -> SlotRef | None:
        if not self._slots_ok:
            return None
        try:
            slot = self._new_slot()
            ref = slot.write([b"probe"])
        except OSError as exc:
            log.warning("no memory files for batches (%s); using the pipe", exc)
            self._slots_ok = False
            return None
        self._free_slots.append(slot)
        return ref

    def _new_slot(self) -> Slot:
        slot = Slot()
        self._slots.append(slot)
        return slot

    def _take_slot(self, size: int) -> Slot | None:
        if not self._slots_ok or size > payload_slots.MAX_BATCH_BYTES:
            return None
        if self._free_slots:
            return self._free_slots.pop()
        # one per batch in flight; the worker keeps processes + 1 in flight
        return self._new_slot() if len(self._slots) < self.processes + 2 else None

    def _note(self, report: ModelReport) -> None:
        self.model_version, refusals = report
        self._refusals += refusals

    def take_refusals(self) -> int:
        """Classifier refusals reported since the last call."""
        taken, self._refusals = self._refusals, 0
        return taken

    async def process(self, records: list[RawRecord]) -> BatchResult:
        loop = asyncio.get_running_loop()
        values = [r.value for r in records]
        slot = self._take_slot(sum(map(len, values)))
        if slot is None:
            packed: Packed = [
                (r.key, r.value, r.origin.topic, r.origin.partition, r.origin.offset)
                for r in records
            ]
            processed = await loop.run_in_executor(self._pool, _process, packed)
        else:
            try:
                ref = slot.write(values)
                meta: Meta = [
                    (r.key, r.origin.topic, r.origin.partition, r.origin.offset) for r in records
                ]
                processed = await loop.run_in_executor(self._pool, _process_slot, ref, meta)
            except BaseException:
                # cancelled or failed: a child may still be reading it, so it is not reused
                if slot in self._slots:  # else close() has let go of it already
                    self._slots.remove(slot)
                slot.close()
                raise
            slot.release()
            self._free_slots.append(slot)
        stream, stats, dead_letters, samples, report, markers = processed
        self._note(report)
        table = pa.ipc.open_stream(stream).read_all()
        rows = RowBuilder.from_table(self.config.worker_id, self.config.clean_text_rate, table)
        return BatchResult(rows, dead_letters, samples, stats, markers)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        # a child still reading holds its own descriptor: the file lives until it is done
        for slot in self._slots:
            slot.close()
        self._slots, self._free_slots = [], []


class InlineProcessor:
    """``process_batch`` in the worker's own process (``--inline-batches``): one core."""

    processes = 1
    where = "inline"

    def __init__(self, config: BatchConfig) -> None:
        self.config = config
        self._redactor = Redactor.from_spec(config.redaction)
        # the classifier tier: follows the promoted pointer of the models dir (hot reload)
        self._classifiers = ModelWatcher(config.models_dir, config.classifier_check_s)
        self._follower = ModelFollower(self._classifiers)
        self._families = FamilyWatcher(config.families_file, config.classifier_check_s)

    async def start(self) -> None:
        """Everything was loaded by ``__init__``."""

    @property
    def model_version(self) -> str | None:
        return self._classifiers.version

    def take_refusals(self) -> int:
        """Classifier refusals since the last call."""
        return self._follower.report()[1]

    async def process(self, records: list[RawRecord]) -> BatchResult:
        return _run(self.config, self._redactor, self._classifiers, records, self._families)

    def close(self) -> None:
        """Nothing to stop."""
