"""LeakProducer: delivery on a real broker, bounded memory and no blocking when it is down."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import orjson
import pytest
from leakline_proxy import ProxiedBroker
from leakline_testkit import read_topic

from leakline.client import (
    LeakProducer,
    ProducerConfig,
    ThreadedLeakProducer,
    build_event,
)
from leakline.pipeline.kafka.broker import free_port
from leakline.pipeline.kafka.io import ensure_topics

TOPIC = "gateway.events"
# a generous per-call bound: submit only serialises and appends (microseconds), but the
# machine is shared and slow; a blocking send would take seconds
SUBMIT_BOUND_S = 0.05


def make_event(i: int, pad: int = 0) -> dict:
    return build_event(
        request={"messages": [{"role": "user", "content": "x" * pad}]},
        response={"choices": [{"message": {"content": f"answer {i}"}, "finish_reason": "stop"}]},
        api="chat.completions",
        event_id=f"ev-{i}",
    )


def timed_submits(producer: LeakProducer | ThreadedLeakProducer, events: list[dict]) -> list[float]:
    durations = []
    for event in events:
        started = time.perf_counter()
        producer.submit(event)
        durations.append(time.perf_counter() - started)
    return durations


def test_queue_is_bounded_and_submit_never_blocks_without_a_broker() -> None:
    """Nothing listens on the port: the queue holds its bound, the rest is dropped and counted."""

    async def run() -> None:
        config = ProducerConfig(
            bootstrap=f"127.0.0.1:{free_port()}",
            max_queue_events=100,
            max_queue_bytes=1 << 30,
            send_timeout_s=1.0,
            log_every_s=60,
        )
        producer = await LeakProducer(config).start()
        durations = timed_submits(producer, [make_event(i) for i in range(1000)])
        await asyncio.sleep(1.5)  # the sender is retrying meanwhile
        assert max(durations) < SUBMIT_BOUND_S, max(durations)
        stats = producer.stats
        assert stats.sent == 0
        assert stats.queue_events == 100 and stats.dropped_full == 900 and stats.dropped == 900
        assert stats.failed_attempts >= 1
        # the byte bound holds too
        small = await LeakProducer(
            ProducerConfig(
                bootstrap=config.bootstrap,
                max_queue_events=10_000,
                max_queue_bytes=20_000,
                send_timeout_s=1.0,
            )
        ).start()
        timed_submits(small, [make_event(i, pad=1000) for i in range(100)])
        assert 0 < small.stats.queue_bytes <= 20_000 and small.stats.dropped_full > 70
        closed = await small.close(timeout_s=0.5)
        assert closed.queue_events == 0 and closed.dropped_closed > 0
        assert small.submit(make_event(1)) is False  # closed: dropped, not raised
        await producer.close(timeout_s=0.5)

    asyncio.run(run())


def test_invalid_and_oversized_events_are_dropped_not_raised() -> None:
    async def run() -> None:
        producer = LeakProducer(
            ProducerConfig(bootstrap=f"127.0.0.1:{free_port()}", max_event_bytes=5_000)
        )
        await producer.start()
        assert producer.submit({"event_id": "x", "api": "nope", "request": {}}) is False
        assert producer.submit(make_event(1, pad=10_000)) is False
        assert producer.submit({"bad": object()}) is False  # type: ignore[dict-item]
        assert producer.stats.invalid == 2 and producer.stats.too_large == 1
        await producer.close(timeout_s=0.1)

    asyncio.run(run())


@pytest.mark.slow
def test_events_are_delivered_in_batches(broker) -> None:
    async def run() -> None:
        await ensure_topics(broker.bootstrap, [TOPIC], 2)
        async with LeakProducer(
            ProducerConfig(bootstrap=broker.bootstrap, batch_max_events=50)
        ) as producer:
            assert all(producer.submit(make_event(i)) for i in range(300))
            assert await producer.flush(60)
            assert producer.stats.sent == 300 and producer.stats.dropped == 0

    asyncio.run(run())
    records = read_topic(broker.bootstrap, TOPIC)
    assert sorted(r.key.decode() for r in records) == sorted(f"ev-{i}" for i in range(300))
    assert {orjson.loads(r.value)["event_id"] for r in records} == {f"ev-{i}" for i in range(300)}


@pytest.mark.slow
def test_threaded_producer_from_plain_threads(broker) -> None:
    asyncio.run(ensure_topics(broker.bootstrap, [TOPIC], 1))
    producer = ThreadedLeakProducer(ProducerConfig(bootstrap=broker.bootstrap), close_at_exit=False)
    import threading

    threads = [
        threading.Thread(
            target=lambda k=k: [producer.submit(make_event(k * 100 + i)) for i in range(50)]
        )
        for k in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stats = producer.close(timeout_s=60)
    assert stats.sent == 200 and stats.dropped == 0
    assert len(read_topic(broker.bootstrap, TOPIC)) == 200


@pytest.mark.slow
def test_broker_outage_neither_blocks_nor_grows_and_sending_resumes(tmp_path: Path) -> None:
    with ProxiedBroker(log_path=tmp_path / "broker.log") as proxied:
        asyncio.run(ensure_topics(proxied.bootstrap, [TOPIC], 1))

        async def run() -> None:
            config = ProducerConfig(
                bootstrap=proxied.bootstrap,
                max_queue_events=200,
                batch_max_events=50,
                send_timeout_s=2.0,
                backoff_max_s=1.0,
            )
            async with LeakProducer(config) as producer:
                # healthy: delivered
                timed_submits(producer, [make_event(i) for i in range(100)])
                assert await producer.flush(60), producer.stats
                assert producer.stats.sent == 100

                proxied.proxy.pause()  # the broker goes away for the producer
                durations = timed_submits(producer, [make_event(i) for i in range(100, 1100)])
                deadline = time.monotonic() + 30
                peak = 0
                while time.monotonic() < deadline and producer.stats.failed_attempts < 2:
                    # the gateway keeps submitting during the outage; never more than the bound
                    durations += timed_submits(producer, [make_event(5000)])
                    peak = max(peak, producer.stats.queue_events)
                    await asyncio.sleep(0.1)
                assert max(durations) < SUBMIT_BOUND_S, max(durations)
                assert producer.stats.failed_attempts >= 2, producer.stats
                assert peak <= 200 and producer.stats.queue_events <= 200
                dropped = producer.stats.dropped_full
                assert dropped >= 800
                sent_before = producer.stats.sent
                # events 100.. that got queued are still waiting
                assert producer.stats.queue_events > 0

                proxied.proxy.resume()
                assert await producer.flush(90), producer.stats
                assert producer.stats.sent > sent_before
                assert producer.stats.dropped_full >= dropped
                # and new events flow again
                assert producer.submit(make_event(9999))
                assert await producer.flush(30)

        asyncio.run(run())
        ids = {r.key.decode() for r in read_topic(proxied.bootstrap, TOPIC)}
    assert {f"ev-{i}" for i in range(100)} <= ids  # before the outage
    assert "ev-9999" in ids  # after it
    assert any(f"ev-{i}" in ids for i in range(100, 300))  # buffered during it
