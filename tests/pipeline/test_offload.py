"""leakline.pipeline.worker.offload: process_batch in child processes gives what it gives in-process."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import orjson
import psutil
import pytest
from leakline_testkit import spawn_worker

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.events.redact import Redactor
from leakline.pipeline.simulate.traffic_model import simulate
from leakline.pipeline.worker.offload import BatchConfig, ChildProcessor, InlineProcessor

CONFIG = BatchConfig(
    worker_id="w-test",
    clean_text_rate=0.2,
    max_event_bytes=1 << 20,
    redaction="default",
    models_dir=None,
    classifier_check_s=60.0,
    classifier_threshold=None,
)


def _records(count: int) -> list[RawRecord]:
    values = [orjson.dumps(s.event) for s in simulate(count, seed=4)]
    values[3] = b'{"event_id": "broken"'  # truncated JSON: a dead letter
    return [RawRecord(b"k", v, Origin("gateway.events", i % 2, i)) for i, v in enumerate(values)]


def _comparable(table):
    return table.drop_columns(["ingested_at"]).to_pylist()


@pytest.mark.parametrize("kind", ["child", "inline"])
def test_the_processor_returns_what_process_batch_returns_in_process(kind):
    records = _records(200)
    processor = ChildProcessor(CONFIG) if kind == "child" else InlineProcessor(CONFIG)
    try:

        async def run():
            await processor.start()
            return await processor.process(records)

        got = asyncio.run(run())
    finally:
        processor.close()
    from leakline.models.registry import ModelWatcher

    here = process_batch(
        records,
        worker_id=CONFIG.worker_id,
        clean_text_rate=CONFIG.clean_text_rate,
        max_event_bytes=CONFIG.max_event_bytes,
        redactor=Redactor.from_spec(CONFIG.redaction),
        classifier=ModelWatcher(None).current(),
    )
    assert len(got.rows) == len(here.rows) == 199
    assert _comparable(got.rows.table()) == _comparable(here.rows.table())
    assert [(d.reason, d.origin) for d in got.dead_letters] == [
        (d.reason, d.origin) for d in here.dead_letters
    ]
    assert got.samples == here.samples and len(got.samples) > 20


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_dead_child_fails_the_batch_instead_of_hanging():
    processor = ChildProcessor(CONFIG)
    try:

        async def run():
            await processor.start()
            for pid in list(processor._pool._processes):  # the one child
                os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.5)
            return await asyncio.wait_for(processor.process(_records(5)), timeout=30)

        with pytest.raises(BrokenProcessPool):
            asyncio.run(run())
    finally:
        processor.close()


def test_every_child_starts_before_the_first_batch():
    processor = ChildProcessor(CONFIG, processes=2)
    try:
        asyncio.run(processor.start())
        assert len(processor._pool._processes) == 2
    finally:
        processor.close()


@pytest.mark.slow
def test_children_exit_when_their_worker_is_killed(broker, tmp_path: Path):
    """SIGKILL skips the pool's shutdown; the children must not live on as orphans."""
    worker = spawn_worker(broker.bootstrap, tmp_path / "data", "--batch-processes", "2")
    try:
        deadline = time.monotonic() + 60
        # "agent started" comes before the pool spawns its children; this line after
        while "ready for batches" not in worker.log_text():
            assert time.monotonic() < deadline, worker.log_text()[-2000:]
            time.sleep(0.2)
        children = psutil.Process(worker.proc.pid).children()
        assert len(children) >= 2  # the batch children (plus multiprocessing's tracker)
    finally:
        worker.proc.kill()
        worker.proc.wait()
    gone, alive = psutil.wait_procs(children, timeout=15)
    assert not alive, [p.cmdline()[-3:] for p in alive]


@pytest.mark.parametrize("kind", ["child", "inline"])
def test_the_processor_reports_its_classifier_and_each_refused_promotion(kind, tmp_path):
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "models"))
    from classifier_kit import make_variant

    from leakline.models.registry import REGISTRY, promote, read_registry

    models = tmp_path / "models"
    models.mkdir()
    make_variant(models, "preamble-good")
    promote(models, "preamble-good")
    config = BatchConfig(**{**CONFIG.__dict__, "models_dir": models, "classifier_check_s": 0.0})
    processor = ChildProcessor(config) if kind == "child" else InlineProcessor(config)
    try:

        async def run():
            await processor.start()
            started = (processor.model_version, processor.take_refusals())
            # a careless copy: the registry points at an artifact whose hash does not match
            sha = make_variant(models, "preamble-bad", tamper=True)
            doc = read_registry(models)
            doc["promoted"] = {"version": "preamble-bad", "sha256": sha, "forced": True}
            (models / REGISTRY).write_bytes(orjson.dumps(doc))
            await processor.process(_records(5))
            refused = (processor.model_version, processor.take_refusals())
            await processor.process(_records(5))  # the pointer did not move: no new refusal
            return started, refused, (processor.model_version, processor.take_refusals())

        started, refused, after = asyncio.run(run())
    finally:
        processor.close()
    assert started == ("preamble-good", 0)
    assert refused == ("preamble-good", 1)  # refused, the old model kept
    assert after == ("preamble-good", 0)


def test_the_childs_live_counts_equal_counting_its_rows_here():
    # a child counts its rows for leak.stats where they are Python lists; the counts must
    # be what batch_stats gives for the same rows in the worker (ts aside: its own clock)
    from datetime import UTC, datetime

    from leakline.pipeline.live.stats import UNKNOWN_KEY, batch_stats

    records = _records(300)
    processor = ChildProcessor(CONFIG)

    async def run():
        await processor.start()
        return await processor.process(records)

    try:
        result = asyncio.run(run())
    finally:
        processor.close()
    assert result.stats is not None and len(result.rows) == 299
    result.stats, child_stats = None, result.stats
    here = batch_stats(result, CONFIG.worker_id, datetime.now(UTC))  # from the Arrow table
    assert [(s.key, s.counts) for s in child_stats] == [(s.key, s.counts) for s in here]
    # per event minute too; dead letters have no event time and sit at each side's own
    # clock, which may be a minute apart
    assert [s.minutes for s in child_stats if s.key != UNKNOWN_KEY] == [
        s.minutes for s in here if s.key != UNKNOWN_KEY
    ]
    assert sum(s.counts["dead_lettered"] for s in child_stats) == 1
