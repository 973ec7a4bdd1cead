"""Faust's Kafka transport, changed where Faust's per-message path is the worker's limit.

**Batch dispatch.** Faust hands each fetched record to its agents one at a time: the
consumer's drain loop races every record against flow control in fresh tasks, the
conductor decodes it into an ``Event`` and queues it, and the stream wakes up for it.
A Faust agent that only takes and acknowledges 6 KB events, with no other work, ran
at ~5.6k events/s here, spending ~185 µs of CPU per event; a raw aiokafka consumer
ran at ~41k/s on 15 µs per event (`benchmarks/faust_floor.py`). That per-event cost
is the wall, not the detectors.

For a topic routed with ``LeaklineApp.route_batches``, the consumer keeps everything
Faust does per record when it fetches (group membership, flow and generation checks,
``Message`` objects, read offsets, gaps, tracking of unacknowledged messages for
rebalances and shutdown), but collects the records into lists of up to ``size``
records or ``within_s`` seconds and hands each list to ``deliver`` in one call. The
worker delivers them to a Faust agent through an in-memory channel, processes them,
and acknowledges each message through ``Consumer.ack`` once it is stored, so offsets
are committed by Faust's own commit loop exactly as before. Other topics (the live
stats, table changelogs) take Faust's ordinary path.

**Fetch wait.** Faust builds its worker consumer with ``fetch_max_wait_ms=1500`` and
no setting to change it. Apache Kafka answers a fetch as soon as data arrives; Tansu
(the dev/test broker) mostly holds an empty fetch for the whole wait, so an event
landing just after such a fetch waited up to 1.5 s. Measured at 2k events/s with a
raw aiokafka consumer: produce-to-fetch lag p50 0.2 s / p99 0.8 s with 1500 ms, p50
0.014 s / p99 0.07 s with 100 ms.

**Resuming where the table says.** With ``LeaklineApp.resume_offsets`` set (the worker
with ``--store iceberg``), every seek to the committed offsets (after each rebalance,
and whenever Faust repositions a stopped consumer) asks it where the assigned partitions
resume, and seeks there instead: the Iceberg table's offsets win over Kafka's, which
are only a hint for partitions the table has never seen. ``LeaklineApp.flow_stopped``
is told when a rebalance or a shutdown stops the flow, so that the worker commits what
it holds at once: Faust waits for every taken record to be acknowledged before it gives
the partitions up.

**Idempotent producer.** Faust enables idempotence only inside its transactions. With
``LeaklineApp.idempotent_producer`` set (the worker's ``--idempotence``), the app's
producer asks the broker for a producer id, so a produce request that the network cut
in flight and aiokafka resent is written once.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import faust
from faust.transport.drivers import aiokafka as faust_aiokafka
from faust.types import TP, Message

# the longest a fetch waits at the broker for data to arrive (aiokafka's own default is 500)
FETCH_MAX_WAIT_MS = 100


# the assigned partitions -> where some of them resume instead of Kafka's committed offset
ResumeOffsets = Callable[[list[TP]], Awaitable[Mapping[TP, int]]]


@dataclass(frozen=True)
class BatchRoute:
    """Records of ``topic`` go to ``deliver`` in lists, not to agents one by one."""

    topic: str
    size: int
    within_s: float
    deliver: Callable[[list[Message]], Awaitable[None]]


class _ConsumerThread(faust_aiokafka.AIOKafkaConsumerThread):
    def _create_worker_consumer(self, transport: Any) -> Any:
        consumer = super()._create_worker_consumer(transport)
        # read by aiokafka when the consumer starts (it builds its Fetcher then);
        # tests/pipeline/test_faust_transport.py checks it reaches the fetcher
        consumer._fetch_max_wait_ms = FETCH_MAX_WAIT_MS
        return consumer


class _Consumer(faust_aiokafka.Consumer):
    def __post_init__(self) -> None:
        super().__post_init__()
        self._pending: list[Message] = []  # collected for the routed topic, not yet delivered
        self._pending_since = 0.0

    def _new_consumer_thread(self) -> faust_aiokafka.AIOKafkaConsumerThread:
        return _ConsumerThread(self, loop=self.loop, beacon=self.beacon)

    def stop_flow(self) -> None:
        # Rebalance or shutdown: Faust clears its agents' queues here and seeks back to
        # the committed offsets before it fetches again. Records collected but not yet
        # delivered are dropped the same way; they are fetched again.
        super().stop_flow()
        self._pending = []
        hook: Callable[[], None] | None = getattr(self.app, "flow_stopped", None)
        if hook is not None:
            hook()

    async def seek_to_committed(self) -> Mapping[TP, int]:
        committed = dict(await super().seek_to_committed())
        resume: ResumeOffsets | None = getattr(self.app, "resume_offsets", None)
        if resume is None:
            return committed
        wanted = await resume(sorted(self.assignment()))
        still = self.assignment()  # a rebalance may have begun while the table was read
        for tp, offset in wanted.items():
            if tp in still:
                await self._seek(tp, offset)
                committed[tp] = offset  # Faust's read and committed offsets follow it
        return committed

    async def reposition(self, offsets: Mapping[TP, int]) -> None:
        """Seek these partitions while the flow runs (records collected but not yet
        delivered are dropped: they are fetched again from there)."""
        self._pending = []
        still = self.assignment()
        for tp, offset in offsets.items():
            if tp in still:
                await self.seek(tp, offset)  # sets Faust's read offset too

    async def getmany(self, timeout: float) -> AsyncIterator[tuple[TP, Message]]:
        route: BatchRoute | None = getattr(self.app, "batch_route", None)
        if route is None:
            async for item in super().getmany(timeout):
                yield item
            return
        read_offset = self._read_offset
        # Faust's getmany stops early on a rebalance (flow or generation change)
        async for tp, message in super().getmany(min(timeout, route.within_s)):
            if tp.topic != route.topic:
                yield tp, message
                continue
            # what Faust's drain loop does with each record it is given
            offset, last = message.offset, read_offset[tp]
            if last is not None and offset < last:
                continue  # already read: a refetch after a seek
            if last and offset - last > 1:
                await self._add_gap(tp, last + 1, offset)
            self.track_message(message)  # rebalances and shutdown wait for its ack
            read_offset[tp] = offset
            if not self._pending:
                self._pending_since = time.monotonic()
            self._pending.append(message)
            if len(self._pending) >= route.size:
                await self._deliver(route)
        if self._pending and time.monotonic() - self._pending_since >= route.within_s:
            await self._deliver(route)

    async def _deliver(self, route: BatchRoute) -> None:
        batch, self._pending = self._pending, []
        if self.flow_active:  # else a rebalance began: these are fetched again
            await route.deliver(batch)


class _Producer(faust_aiokafka.Producer):
    def _settings_extra(self) -> Any:
        extra = dict(super()._settings_extra())
        if getattr(self.app, "idempotent_producer", False):
            extra.update(acks="all", enable_idempotence=True)
        return extra


class Transport(faust_aiokafka.Transport):
    Consumer = _Consumer
    Producer = _Producer


class LeaklineApp(faust.App):
    """``faust.App`` whose consumer fetches with ``FETCH_MAX_WAIT_MS`` and can batch a topic."""

    batch_route: BatchRoute | None = None
    idempotent_producer: bool = False
    resume_offsets: ResumeOffsets | None = None
    flow_stopped: Callable[[], None] | None = None

    def _new_transport(self) -> Any:
        return Transport(self.conf.broker_consumer, self, loop=self.loop)

    def route_batches(self, route: BatchRoute) -> None:
        """Deliver ``route.topic`` in lists to ``route.deliver`` (see the module docstring).

        Only one topic can be routed. The caller acknowledges every message with
        ``app.consumer.ack(message)`` once it is done with it.
        """
        if self.batch_route is not None:
            raise ValueError(f"{self.batch_route.topic} is already routed in batches")
        self.batch_route = route
