"""The worker side of the dashboard: the windowed Faust table over ``leak.stats``, the
newest-samples ring over ``leak.samples``, consumer lag for /metrics.

Why these choices (see also the live guide, docs/guide/live.md):

- ``leak.stats`` has one partition (it carries one small record per version key per
  batch), so the table has one partition too and exactly one worker of a group owns
  the whole picture. A partitioned Table would show each worker a slice of the
  versions; a GlobalTable is documented by faust-streaming to loop in recovery with
  several instances unless it has one partition, which is where this ends up anyway.
- Buckets are placed by the record's ``ts`` (when the batch was processed), not by the
  broker's append time, so a worker catching up after an outage files counts where
  they happened. The record's ``minutes`` (the same counts by event minute) go into
  the same table under ``"event|" + key``, placed at their minute: the event-time
  basis the dashboard shows by default.
- The store (7 and 30 days, one event) is read through callables the worker passes in
  (``history``, ``find_event``): ``pipeline.live`` does not import ``pipeline.store``.
- Bounded cardinality (issue 36): a new version key is admitted by ``LiveCap.route`` (a
  set lookup per record) while fewer than twice the cap are, else counted under "other";
  every ``COMPACT_EVERY_S`` a timer runs the regression pass in a thread and marks a
  compaction due, which the agent runs after its next record (a Faust table is written
  from its agent, where the event names the changelog partition): it keeps the
  ``live_max_versions`` busiest keys and moves the others' entries into "other".
- The sample ring reads ``leak.samples`` without a consumer group (every partition,
  from the newest ``ring size`` records), so every worker's dashboard shows every new
  leak, and it never steals partitions from the group.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import faust
from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaError, TopicAlreadyExistsError

from leakline.pipeline.core.config import Settings
from leakline.pipeline.kafka.io import client_options
from leakline.pipeline.live.metrics import WorkerMetrics
from leakline.pipeline.live.stats import (
    BUCKET_S,
    COMPACT_EVERY_S,
    EVENT_PREFIX,
    RETENTION_S,
    LiveCap,
    SampleRing,
    add_counts,
    buckets_from_items,
    parse_stats,
    parse_time,
)
from leakline.pipeline.live.web.views import LiveState, refresh_regressions

log = logging.getLogger("leakline.live")

TABLE_NAME = "leak_stats"
STATS_PARTITIONS = 1


# Faust may not declare topics here (topic_allow_declare=False), so the changelog is created
# the way Faust would: compacted (one record per live bucket) and deleted after the longest
# window, so a recovering worker reads about versions x 1440 records, not every update
CHANGELOG_CONFIGS = {
    "cleanup.policy": "compact,delete",
    "retention.ms": str((RETENTION_S + 3600) * 1000),
}


def changelog_topic(settings: Settings) -> str:
    return f"{settings.app_id}-{TABLE_NAME}-changelog"


async def ensure_changelog(settings: Settings) -> None:
    """Create the table's changelog topic if missing (after the broker answered once)."""
    name = changelog_topic(settings)
    admin = AIOKafkaAdminClient(
        bootstrap_servers=settings.bootstrap,
        request_timeout_ms=10000,
        **client_options(settings.security),
    )
    await admin.start()
    try:
        if name in await admin.list_topics():
            return
        for configs in (CHANGELOG_CONFIGS, None):  # a broker may refuse the configs
            try:
                response = await admin.create_topics(
                    [NewTopic(name, STATS_PARTITIONS, 1, topic_configs=configs)]
                )
            except TopicAlreadyExistsError:
                return
            codes = [entry[1] for entry in response.topic_errors]
            if all(code in (0, TopicAlreadyExistsError.errno) for code in codes):
                return
            log.warning("creating %s with %s failed (error codes %s)", name, configs, codes)
        raise KafkaError(f"cannot create the changelog topic {name}")
    finally:
        await admin.close()


@dataclass(frozen=True)
class Placed:
    """Stands in for the event when counts go to a bucket of their own (event minutes)."""

    at: float


def _record_time(event: Any) -> float:
    """Window placement: the record's processing time, else the message timestamp."""
    if event is None:
        raise RuntimeError("leak_stats is only updated from its agent")
    if isinstance(event, Placed):
        return event.at
    value = event.value
    ts = None
    if isinstance(value, bytes | bytearray):
        record = parse_stats(bytes(value))
        ts = parse_time(record.ts) if record else None
    return ts if ts is not None else float(event.message.timestamp)


def install_live(
    app: faust.App,
    settings: Settings,
    metrics: WorkerMetrics,
    history: Callable[[float, float, int, str], list[dict[str, Any]]] | None = None,
    find_event: Callable[[str], dict[str, Any] | None] | None = None,
    suggestions: Callable[[], list[dict[str, Any]]] | None = None,
) -> LiveState:
    stats_topic = app.topic(
        settings.topics.stats,
        key_serializer="raw",
        value_serializer="raw",
        partitions=STATS_PARTITIONS,
    )
    table = (
        app.Table(
            TABLE_NAME,
            default=dict,
            partitions=STATS_PARTITIONS,
            # the app's default serializer is raw bytes; windowed keys and counts are JSON
            schema=faust.Schema(key_serializer="json", value_serializer="json"),
            help="leak.stats counts per version key in 1-minute buckets (24 h)",
        )
        .tumbling(BUCKET_S, expires=RETENTION_S)
        .relative_to(_record_time)  # type: ignore[attr-defined]
    )
    ring = SampleRing(settings.live_samples)
    cap = LiveCap(settings.live_max_versions)
    due: set[bool] = set()  # a compaction is due (set by the timer, run by the agent)

    def entries() -> list[tuple[Any, Any]]:
        return list(table.table.data.items())

    def buckets() -> Any:
        return buckets_from_items(entries())

    def stats_partitions() -> list[int]:
        try:
            assigned = app.consumer.assignment()
        except Exception:  # not started yet
            return []
        return sorted(tp.partition for tp in assigned if tp.topic == settings.topics.stats)

    async def lag() -> list[tuple[str, int, int]]:
        out = []
        for tp in sorted(app.consumer.assignment()):
            position = await app.consumer.position(tp)
            highwater = app.consumer.highwater(tp)
            if position is not None and highwater is not None:
                out.append((tp.topic, tp.partition, highwater - position))
        return out

    state = LiveState(
        buckets=buckets,
        ring=ring,
        metrics=metrics,
        worker_id=settings.worker_id,
        lag=lag,
        stats_partitions=stats_partitions,
        history=history,
        find_event=find_event,
        suggestions=suggestions,
        max_versions=settings.live_max_versions,
        entries=entries,
    )

    @app.agent(stats_topic, name="leakline.live_stats")
    async def live_stats(stream: faust.StreamT[Any]) -> None:  # noqa: F841
        async for event in stream.events():
            value = event.value
            record = parse_stats(value if isinstance(value, bytes) else bytes(value or b""))
            if record is None:
                continue  # not contract 3 (a newer version or garbage): skip, do not crash
            key = cap.route(record.key)  # beyond the admitted keys: "other"
            table[key].apply(add_counts, record.counts, event)
            for start, counts in record.minutes:  # event time; expired like the rest
                table[EVENT_PREFIX + key].apply(add_counts, counts, Placed(start))
            state.stats_applied += 1
            if due and not app.in_recovery:
                # on the loop, no await inside: bounded by the admission cap
                due.clear()
                folded = cap.compact(table.table, entries())
                if folded:
                    log.info("live table: %d version keys folded into 'other'", folded)

    @app.timer(COMPACT_EVERY_S)
    async def live_timer() -> None:  # noqa: F841
        due.add(True)
        try:
            await refresh_regressions(state)
        except Exception:  # a pass that fails must not stop the timer
            log.exception("live regression pass failed")

    @app.task
    async def follow_samples() -> None:  # noqa: F841
        await _follow_samples(settings, ring)

    return state


async def _follow_samples(settings: Settings, ring: SampleRing) -> None:
    delay = 0.5
    while True:
        consumer = AIOKafkaConsumer(
            bootstrap_servers=settings.bootstrap,
            enable_auto_commit=False,
            auto_offset_reset="latest",
            **client_options(settings.security),
        )
        try:
            await consumer.start()
            parts = consumer.partitions_for_topic(settings.topics.samples) or set()
            if not parts:
                await consumer.topics()
                parts = consumer.partitions_for_topic(settings.topics.samples) or set()
            tps = [TopicPartition(settings.topics.samples, p) for p in sorted(parts)]
            if not tps:
                raise KafkaError(f"{settings.topics.samples} has no partitions yet")
            consumer.assign(tps)
            begin = await consumer.beginning_offsets(tps)
            end = await consumer.end_offsets(tps)
            for tp in tps:  # only the newest records can end up in the ring anyway
                consumer.seek(tp, max(begin[tp], end[tp] - (ring.items.maxlen or 0)))
            delay = 0.5
            while True:
                batch = await consumer.getmany(timeout_ms=1000, max_records=1000)
                for messages in batch.values():
                    for message in messages:
                        if message.value is not None:
                            ring.add(message.value)
        except asyncio.CancelledError:
            raise
        except (KafkaError, OSError) as exc:
            log.warning("live samples: %s; retrying in %.1fs", exc, delay)
        finally:
            await consumer.stop()
        await asyncio.sleep(delay)
        delay = min(delay * 2, 10.0)
