"""The dead-letter ledger: which source records are already on the DLQ.

Dead letters are published before a batch's offsets are committed, so a crash in
between would publish them again on redelivery. Every dead letter carries its
source coordinates (``topic/partition/offset``) as key and header; before the
worker processes redelivered records it reads the tail of the DLQ and skips
sources that are already there. Only the uncommitted tail can be redelivered, so
the last ``tail`` records per DLQ partition are enough.
"""

from __future__ import annotations

from aiokafka import AIOKafkaConsumer, TopicPartition

from pipeline.config import KafkaSecurity
from pipeline.kafka_io import client_options
from pipeline.process import SOURCE_HEADER


async def recorded_sources(
    bootstrap: str, dlq_topic: str, tail: int = 20000, security: KafkaSecurity | None = None
) -> set[str]:
    """Source keys of the last ``tail`` dead letters in each DLQ partition."""
    consumer = AIOKafkaConsumer(
        bootstrap_servers=bootstrap, enable_auto_commit=False, **client_options(security)
    )
    try:
        await consumer.start()
        partitions = consumer.partitions_for_topic(dlq_topic)
        if not partitions:
            await consumer.topics()  # refreshes metadata
            partitions = consumer.partitions_for_topic(dlq_topic) or set()
        tps = [TopicPartition(dlq_topic, p) for p in sorted(partitions)]
        if not tps:
            return set()
        consumer.assign(tps)
        ends = await consumer.end_offsets(tps)
        starts = await consumer.beginning_offsets(tps)
        for tp in tps:
            consumer.seek(tp, max(starts[tp], ends[tp] - tail))
        seen: set[str] = set()
        remaining = {tp for tp in tps if ends[tp] > max(starts[tp], ends[tp] - tail)}
        while remaining:
            batch = await consumer.getmany(*remaining, timeout_ms=1000)
            for messages in batch.values():
                for message in messages:
                    headers = dict(message.headers or ())
                    source = headers.get(SOURCE_HEADER) or message.key
                    if source:
                        seen.add(source.decode(errors="replace"))
            for tp in list(remaining):
                if await consumer.position(tp) >= ends[tp]:
                    remaining.discard(tp)
        return seen
    finally:
        await consumer.stop()
