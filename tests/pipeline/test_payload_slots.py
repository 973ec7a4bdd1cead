"""Batch values reach the batch children through memory files (pipeline/worker/payload_slots.py)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import orjson
import pytest

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.simulate.traffic_model import simulate
from leakline.pipeline.worker import payload_slots
from leakline.pipeline.worker.offload import BatchConfig, ChildProcessor
from leakline.pipeline.worker.payload_slots import Slot, SlotReader, SlotRef

pytestmark = pytest.mark.skipif(not payload_slots.available(), reason="no memfd_create here")

CONFIG = BatchConfig(
    worker_id="w-slots",
    clean_text_rate=0.2,
    max_event_bytes=1 << 20,
    redaction="default",
    models_dir=None,
    classifier_check_s=60.0,
    classifier_threshold=None,
)


def _read_elsewhere(ref: SlotRef) -> list[bytes]:
    reader = SlotReader()
    try:
        return reader.read(ref)
    finally:
        reader.close()


def _memory_files() -> int:
    count = 0
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue
        count += target.startswith("/memfd:leakline-batch")
    return count


def test_another_process_reads_exactly_the_values_written() -> None:
    # more values than one pwritev takes (1024), empty ones, and binary bytes
    values = [os.urandom(i % 97) for i in range(2500)] + [b"", b"\x00" * 70_000]
    slot = Slot()
    try:
        ref = slot.write(values)
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            assert pool.submit(_read_elsewhere, ref).result(timeout=60) == values
        # a second, smaller batch in the same file: only its own bytes come back
        ref = slot.write([b"abc", b"de"])
        reader = SlotReader()
        assert reader.read(ref) == [b"abc", b"de"]
        reader.close()
    finally:
        slot.close()


def test_a_file_that_held_an_unusually_large_batch_is_emptied(monkeypatch) -> None:
    monkeypatch.setattr(payload_slots, "KEEP_BYTES", 1000)
    slot = Slot()
    try:
        slot.write([b"x" * 600])
        slot.release()
        assert os.fstat(slot.fd).st_size == 600  # kept: at most KEEP_BYTES
        slot.write([b"x" * 5000])
        slot.release()
        assert os.fstat(slot.fd).st_size == 0
    finally:
        slot.close()


CUT = b'{"event_id": "cut'  # truncated JSON: a dead letter


def _records(count: int):
    from leakline.pipeline.events.process import RawRecord

    values = [orjson.dumps(s.event) for s in simulate(count, seed=8)]
    values[5] = CUT  # a dead letter keeps its raw bytes either way
    return [RawRecord(b"k", v, Origin("gateway.events", i % 2, i)) for i, v in enumerate(values)]


def _run(processor: ChildProcessor, records) -> tuple[object, int]:
    async def go():
        await processor.start()
        result = await processor.process(records)
        return result, _memory_files()

    try:
        return asyncio.run(go())
    finally:
        processor.close()


def test_rows_through_memory_files_equal_rows_through_the_pipe(monkeypatch) -> None:
    records = _records(300)
    through_files, files_open = _run(ChildProcessor(CONFIG), records)
    assert files_open >= 1  # the probe's file and the batch's: the files were used
    assert _memory_files() == 0  # close() let go of every one
    monkeypatch.setattr(payload_slots, "MAX_BATCH_BYTES", 0)  # every batch takes the pipe
    through_pipe, _ = _run(ChildProcessor(CONFIG), records)
    a = through_files.rows.table().drop_columns(["ingested_at"])
    b = through_pipe.rows.table().drop_columns(["ingested_at"])
    assert a.equals(b)
    assert [(d.value, d.reason) for d in through_files.dead_letters] == [
        (d.value, d.reason) for d in through_pipe.dead_letters
    ]
    assert through_files.dead_letters[0].value == records[5].value
    assert [s.value for s in through_files.samples] == [s.value for s in through_pipe.samples]


def test_a_cancelled_batch_does_not_lend_its_file_to_the_next_one() -> None:
    # a rebalance cancels the batch in flight while its child may still be reading: the
    # next batch must not be written into the same file underneath it
    first, second = _records(400), _records(300)[::-1]
    processor = ChildProcessor(CONFIG)

    async def go():
        await processor.start()
        task = asyncio.ensure_future(processor.process(first))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return await processor.process(second)

    try:
        result = asyncio.run(go())
    finally:
        processor.close()
    stored = result.rows.columns["event_id"]
    expected = [orjson.loads(r.value)["event_id"] for r in second if r.value != CUT]
    assert stored == expected
    assert [d.value for d in result.dead_letters] == [CUT]
