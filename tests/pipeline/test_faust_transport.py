"""pipeline/worker/faust_transport.py: batches from Faust's consumer, and a short fetch wait."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import orjson
import pytest
from aiokafka import AIOKafkaConsumer, TopicPartition
from leakline_testkit import spawn_worker, wait_stored

from leakline.pipeline.core.config import Settings
from leakline.pipeline.kafka.broker import EmbeddedBroker
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.simulate.traffic_model import simulate
from leakline.pipeline.worker.app import build_app
from leakline.pipeline.worker.faust_transport import FETCH_MAX_WAIT_MS, LeaklineApp, Transport


def test_the_worker_app_uses_the_leakline_transport(tmp_path: Path) -> None:
    app = build_app(Settings(bootstrap="127.0.0.1:9", data_dir=tmp_path))
    assert isinstance(app, LeaklineApp)
    assert isinstance(app.transport, Transport)


def test_started_consumer_sends_fetches_with_the_short_wait(
    broker: EmbeddedBroker, tmp_path: Path
) -> None:
    async def scenario() -> tuple[int, str | None, bool]:
        app = LeaklineApp("wait-check", broker=f"kafka://{broker.bootstrap}", datadir=str(tmp_path))
        thread = app.consumer._new_consumer_thread()
        # Faust's own worker-consumer construction, with only the wait changed
        consumer = thread._create_worker_consumer(app.transport)
        await consumer.start()
        try:
            return (
                consumer._fetcher._fetch_max_wait_ms,  # what every FetchRequest carries
                consumer._group_id,
                consumer._enable_auto_commit,
            )
        finally:
            await consumer.stop()

    wait_ms, group, auto_commit = asyncio.run(scenario())
    assert wait_ms == FETCH_MAX_WAIT_MS < 1500  # Faust's hard-coded wait is 1500 ms
    assert group == "wait-check" and auto_commit is False  # the rest is Faust's


def _batch_sizes(log: str) -> list[int]:
    return [int(m) for m in re.findall(r"batch of (\d+):", log)]


async def _committed(bootstrap: str, topic: str, group: str) -> dict[int, int]:
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, group_id=group)
    await consumer.start()
    try:
        partitions = sorted(consumer.partitions_for_topic(topic) or ())
        return {p: (await consumer.committed(TopicPartition(topic, p))) or 0 for p in partitions}
    finally:
        await consumer.stop()


@pytest.mark.slow
def test_routed_batches_respect_the_size_and_every_offset_is_committed(
    broker: EmbeddedBroker, tmp_path: Path
) -> None:
    payloads = [orjson.dumps(s.event) for s in simulate(1000, seed=21)]
    report = asyncio.run(produce(broker.bootstrap, "gateway.events", payloads))
    worker = spawn_worker(broker.bootstrap, tmp_path / "data", "--batch-size", "150")
    try:
        wait_stored(worker, len(payloads))
        time.sleep(2.5)  # Faust commits acknowledged offsets every second
    finally:
        assert worker.stop() == 0
    log = worker.log_text()
    # --idempotence auto on Tansu (no producer ids): said once, then at-least-once
    assert log.count("idempotent producer: off") == 1, log[:2000]
    sizes = _batch_sizes(log)
    # every record reached the agent once, in batches no larger than asked for
    assert sum(sizes) == len(payloads) and max(sizes) <= 150 and len(sizes) >= 7
    committed = asyncio.run(_committed(broker.bootstrap, "gateway.events", "leakline"))
    assert sum(committed.values()) == report.sent == len(payloads)


@pytest.mark.slow
def test_a_partial_batch_is_delivered_after_the_wait(
    broker: EmbeddedBroker, tmp_path: Path
) -> None:
    """Seven events never fill a batch of 5000: only the time limit delivers them."""
    payloads = [orjson.dumps(s.event) for s in simulate(7, seed=22)]
    asyncio.run(produce(broker.bootstrap, "gateway.events", payloads))
    worker = spawn_worker(
        broker.bootstrap, tmp_path / "data", "--batch-size", "5000", "--batch-within", "0.5"
    )
    try:
        wait_stored(worker, 7, timeout_s=90)
    finally:
        assert worker.stop() == 0
    assert sum(_batch_sizes(worker.log_text())) == 7
