"""The Faust worker: gateway.events -> detect -> Parquet + leak.samples (+ DLQ).

Faust's consumer hands the events topic to the agent in batches of raw records
(``pipeline/worker/faust_transport.py``: Faust's per-event path was the throughput wall).
For each batch the agent validates, normalises and detects (``process_batch``, in a
child processes by default), publishes dead letters and samples and waits for their
delivery, writes the Parquet files, and only then acknowledges the batch's records
(``Consumer.ack``; Faust commits acknowledged offsets). Taking and processing the
next batches overlaps with finishing this one (``pipeline_depth``). A crash or
shutdown before the write therefore means redelivery, never loss; a crash after the
write means a duplicate row that the DuckDB views drop by event_id.

With ``--store iceberg`` the rows go to the Iceberg samples table instead, exactly once:
files written per batch, one fenced commit per interval that carries the Kafka offsets,
and the acks after it (``pipeline/worker/table_commits.py``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import faust
from aiokafka.errors import KafkaError, MessageSizeTooLargeError
from faust.types import Message

from leakline.detectors import native
from leakline.pipeline.core import failpoints
from leakline.pipeline.core.config import MAX_RECORD_BYTES, KafkaSecurity, Settings
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.core.gc_pause import settle_long_running
from leakline.pipeline.events import safe_logging
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import BatchResult, DeadLetter, RawRecord
from leakline.pipeline.events.redact import Redactor
from leakline.pipeline.events.safe_logging import TEMPLATE
from leakline.pipeline.families.files import families_path
from leakline.pipeline.kafka.io import ensure_topics, resolve_idempotence, ssl_context
from leakline.pipeline.live.metrics import WorkerMetrics
from leakline.pipeline.live.stats import StatsRecord, batch_stats
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.quarantine import Quarantined, quarantine_unreadable
from leakline.pipeline.store.sink import ParquetSink
from leakline.pipeline.worker.dlq import Ledger, recorded_sources
from leakline.pipeline.worker.faust_transport import BatchRoute, LeaklineApp
from leakline.pipeline.worker.liveness import Heartbeat, start_liveness
from leakline.pipeline.worker.marker_learner import WorkerLearner
from leakline.pipeline.worker.offload import BatchConfig, ChildProcessor, InlineProcessor
from leakline.pipeline.worker.table_commits import TableStore

if TYPE_CHECKING:  # the web package is imported only when the dashboard is on
    from leakline.pipeline.live.web.views import LiveState

log = logging.getLogger("leakline.worker")

SINK_RETRIES = 5
ICEBERG = "iceberg"  # Settings.store: the Iceberg samples table


def too_large(exc: BaseException | None) -> bool:
    """Whether a send failed because the record is over a size limit (the client's or the
    broker's); Faust wraps the client's error in ProducerSendError."""
    while exc is not None:
        if isinstance(exc, MessageSizeTooLargeError):
            return True
        exc = exc.__cause__
    return False


def faust_credentials(security: KafkaSecurity) -> Any:
    """The same SASL/TLS settings, in Faust's credential types."""
    if security.protocol == "PLAINTEXT":
        return None
    context = ssl_context(security) if security.uses_tls else None
    if security.uses_sasl:
        return faust.SASLCredentials(
            username=security.sasl_username,
            password=security.sasl_password,
            ssl_context=context,
            mechanism=security.sasl_mechanism,
        )
    return faust.SSLCredentials(context)


def build_app(
    settings: Settings,
    idempotent_producer: bool = False,
    quarantined: Sequence[Quarantined] = (),
    heartbeat: Heartbeat | None = None,
) -> faust.App:
    """The worker's Faust app. ``quarantined``: unreadable files ``prepare`` moved away;
    ``heartbeat``: stamped by a task on the loop (``--health-port``, ``liveness.py``)."""
    settings.faust_datadir.mkdir(parents=True, exist_ok=True)
    app = LeaklineApp(
        settings.app_id,
        broker=f"kafka://{settings.bootstrap}",
        value_serializer="raw",
        key_serializer="raw",
        datadir=str(settings.faust_datadir),
        store="memory://",
        topic_partitions=settings.partitions,
        topic_allow_declare=False,
        web_enabled=settings.web_enabled,
        web_host=settings.web_host,
        web_port=settings.web_port,
        web_bind=settings.web_host,
        # Faust's own table/router pages would expose table contents; the dashboard replaces them
        web_tables_enabled=False,
        web_router_enabled=False,
        broker_session_timeout=settings.session_timeout_s,
        broker_rebalance_timeout=settings.session_timeout_s,
        broker_heartbeat_interval=1.0,
        broker_commit_every=settings.batch_size,
        broker_commit_interval=1.0,
        consumer_auto_offset_reset="earliest",
        producer_max_request_size=MAX_RECORD_BYTES,
        consumer_max_fetch_size=MAX_RECORD_BYTES,
        broker_credentials=faust_credentials(settings.security),
        stream_buffer_maxsize=max(4096, settings.batch_size * 2),
    )
    app.idempotent_producer = idempotent_producer  # read when the producer starts
    events_topic = app.topic(settings.topics.events, value_serializer="raw", key_serializer="raw")
    dlq_topic = app.topic(settings.topics.dlq, value_serializer="raw", key_serializer="raw")
    samples_topic = app.topic(settings.topics.samples, value_serializer="raw", key_serializer="raw")
    stats_topic = app.topic(settings.topics.stats, value_serializer="raw", key_serializer="raw")
    metrics = WorkerMetrics(settings.metrics_max_version_sets)

    def count_quarantined(moved: Sequence[Quarantined]) -> None:
        for q in moved:
            log.warning(
                "unreadable Parquet file %s moved to %s (its events are no longer counted): %s",
                q.original,
                q.path,
                q.reason,
            )
        metrics.quarantined.inc(len(moved))

    if quarantined:

        @app.task
        async def report_quarantined() -> None:  # noqa: F841  (once the log is set up)
            count_quarantined(quarantined)

    if heartbeat is not None:

        @app.task
        async def beat() -> None:  # noqa: F841
            await heartbeat.run()

    live: LiveState | None = None
    if settings.web_enabled:
        from leakline.pipeline.families import marker_suggestions
        from leakline.pipeline.ingest.http import mount_on_worker
        from leakline.pipeline.live.web import allowed_hosts, attach
        from leakline.pipeline.live.web.wiring import install_live
        from leakline.pipeline.store.history import find_event, history_rows

        # the dashboard's 7/30-day windows and event page read the store (read-only)
        live = install_live(
            app,
            settings,
            metrics,
            history=functools.partial(history_rows, settings.data_dir),
            find_event=functools.partial(find_event, settings.data_dir),
            # the "new markers seen" card: every worker's suggestions in the data directory
            suggestions=functools.partial(marker_suggestions.read_all, settings.data_dir),
        )
        hosts = allowed_hosts(settings.web_host, settings.web_allowed_hosts)
        attach(app, live, settings.web_token, hosts, write_token=settings.web_write_token)
        from leakline.pipeline.http.guard import guard_faust_web

        guard_faust_web(app, settings.web_limits)  # connection cap, header/idle timeouts
        mount_on_worker(app, settings)  # POST /ingest, behind the token middleware
        from leakline.pipeline.ingest.otlp import mount_otlp_on_worker

        mount_otlp_on_worker(app, settings)  # POST /v1/traces (OTLP/HTTP), same middleware
    # --store iceberg: the samples table, committed with its offsets (table_commits.py);
    # else the Parquet part files, compacted in the background
    table_store = TableStore(app, settings, metrics) if settings.store == ICEBERG else None
    sink = ParquetSink(settings.data_dir) if table_store is None else None
    if table_store is not None:

        @app.task
        async def commit_table() -> None:  # noqa: F841
            await table_store.run()

        @app.on_partitions_revoked.connect  # type: ignore[arg-type]
        async def _forget_revoked(sender: Any, *args: Any, **kw: Any) -> None:
            table_store.revoked(args[0] if args else kw.get("revoked", ()))

    elif settings.compact_every_s > 0:
        from leakline.pipeline.store.compact import compact

        @app.timer(interval=settings.compact_every_s)
        async def compact_store() -> None:  # noqa: F841
            # off the event loop with one DuckDB thread, so consumption never waits for it;
            # workers sharing the data dir take turns through its lock file
            try:
                report = await asyncio.to_thread(
                    compact,
                    settings.data_dir,
                    settings.compact_grace_s,
                    threads=1,
                    memory_limit="1GB",
                )
            except Exception:
                metrics.compaction_failures.inc()
                log.warning("compaction failed; the parts stay as they are", exc_info=True)
                return
            count_quarantined(report.quarantined)
            if report.errors:
                metrics.compaction_failures.inc(len(report.errors))
                log.warning("compaction: %s", report.summary())
            elif report.days:
                log.info("compaction: %s", report.summary())

    # source keys already on the DLQ, loaded from its tail whenever partitions are
    # (re)assigned: only then can a record that was dead-lettered be redelivered.
    # Bounded by the tail length, so it does not grow while the worker runs.
    # It also keeps what this worker published since, capped (pipeline/worker/dlq.py).
    ledger = Ledger()

    @app.on_partitions_assigned.connect  # type: ignore[arg-type]
    async def _mark_ledger_stale(sender: Any, *args: Any, signal: Any = None, **kw: Any) -> None:
        ledger.stale = True

    async def load_ledger() -> None:
        delay = 0.5
        while True:
            try:
                sources = await recorded_sources(
                    settings.bootstrap, settings.topics.dlq, security=settings.security
                )
            except (KafkaError, OSError) as exc:
                log.warning("cannot read the DLQ ledger (%s); retrying in %.1fs", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)
                continue
            ledger.load(sources)
            return

    async def send_dead_letter(dead: DeadLetter) -> Any:
        return await app.producer.send(
            dlq_topic.get_topic_name(), dead.key, dead.value, None, None, dead.headers()
        )

    async def publish(result: BatchResult, stats: list[StatsRecord]) -> None:
        if ledger.stale:
            await load_ledger()
        futures = []
        dead_sent: list[tuple[DeadLetter, Any]] = []
        for dead in result.dead_letters:
            if dead.source in ledger:
                continue  # already published (before a crash or a rebalance): redelivered
            dead_sent.append((dead, await send_dead_letter(dead)))
        for sample in result.samples:
            futures.append(
                await app.producer.send(
                    samples_topic.get_topic_name(), sample.key, sample.value, None, None, None
                )
            )
        for record in stats:  # contract 3: per-version counts, delivered before the ack
            key, value = record.encode()
            futures.append(
                await app.producer.send(stats_topic.get_topic_name(), key, value, None, None, None)
            )
        outcomes = await asyncio.gather(*(f for _, f in dead_sent), return_exceptions=True)
        for (dead, _), outcome in zip(dead_sent, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                if not too_large(outcome):
                    raise outcome
                # the DLQ topic's max.message.bytes is below MAX_RECORD_BYTES (a topic made
                # by hand): a reference fits anyway. Not tested: Tansu does not enforce it.
                log.warning(
                    "the broker refused the dead letter for %s as too large; sending a reference",
                    dead.source,
                )
                futures.append(await send_dead_letter(dead.as_reference()))
        if futures:
            await asyncio.gather(*futures)
        ledger.add(dead.source for dead, _ in dead_sent)

    async def write(result: BatchResult) -> None:
        assert sink is not None
        table = result.rows.table()
        delay = 0.5
        for attempt in range(1, SINK_RETRIES + 1):
            try:
                flush_started = time.perf_counter()
                await asyncio.to_thread(sink.write, table)
                metrics.flush.observe(time.perf_counter() - flush_started)
                return
            except OSError as exc:
                log.error("sink write failed (attempt %d/%d): %s", attempt, SINK_RETRIES, exc)
                await asyncio.sleep(delay)
                delay *= 2
        # Never ack a batch that is not stored: exit without committing, so the
        # batch is redelivered to whichever worker takes the partition next.
        log.critical("sink keeps failing; exiting without committing this batch")
        os._exit(70)

    # the batch work: in child processes by default (pipeline/worker/offload.py), started with
    # the agent; they load the redaction rules and follow promoted classifiers themselves
    config = BatchConfig(
        worker_id=settings.worker_id,
        clean_text_rate=settings.clean_text_sample_rate,
        max_event_bytes=settings.max_event_bytes,
        redaction=settings.redaction,
        models_dir=settings.models_dir,
        classifier_check_s=settings.classifier_check_s,
        classifier_threshold=settings.classifier_threshold,
        families_file=families_path(settings.data_dir),
    )

    # the fleet learner: counts the batches' candidate marker shapes here, in the main
    # process (the children extract them with the rows), and writes suggestions
    def publish_markers(counts: dict[str, int]) -> None:
        for kind, n in counts.items():
            metrics.marker_suggestions.labels(kind).set(n)

    learner = WorkerLearner(
        settings.data_dir, settings.worker_id, settings.redaction, publish=publish_markers
    )
    processor: ChildProcessor | InlineProcessor = (
        ChildProcessor(config, settings.batch_processes)
        if settings.batch_in_child
        else InlineProcessor(config)
    )

    # Batches between take and ack: one per child plus one, so every child has a batch
    # while the loop publishes, writes and acknowledges the oldest one and the consumer
    # collects the next. Acks stay in the order the batches were taken.
    pipeline_depth = processor.processes + 1
    in_flight = asyncio.Semaphore(pipeline_depth)
    finishing: asyncio.Queue[tuple[list[Message], int, asyncio.Future[BatchResult], float]] = (
        asyncio.Queue()
    )

    async def finish() -> None:
        """Publish, write and acknowledge each processed batch, in the order taken."""
        try:
            while True:
                await finish_one(*(await finishing.get()))
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug here must not leave the agent waiting for a slot forever
            log.critical("finishing a batch failed; exiting without committing", exc_info=True)
            os._exit(70)

    async def finish_one(
        messages: list[Message], epoch: int, pending: asyncio.Future[BatchResult], started: float
    ) -> None:
        await failpoints.pause("before_finish")  # backpressure tests: a slow worker
        try:
            result = await pending
        except asyncio.CancelledError:
            raise
        except Exception:  # the child died: never ack what is not stored
            log.critical("batch processing failed; exiting without committing", exc_info=True)
            os._exit(70)
        # a batch child counted its rows already (offload); inline batches are counted here
        stats = result.stats
        if stats is None:
            stats = batch_stats(result, settings.worker_id, datetime.now(UTC))
        try:
            await publish(result, stats)
        except Exception:
            log.critical("publishing a batch failed; exiting without committing", exc_info=True)
            os._exit(70)
        failpoints.hit("after_publish")
        if table_store is None:
            await write(result)
            stored = len(result.rows)
        else:  # acknowledged after the commit that holds it
            stored = await table_store.store(messages, epoch, result.rows.table())
        failpoints.hit("after_write")
        metrics.observe_batch(stats, (dead.reason for dead in result.dead_letters))
        metrics.observe_model(processor.model_version, processor.take_refusals())
        learner.observe(result.markers)
        if table_store is None:
            ack = app.consumer.ack
            for message in messages:
                ack(message)
        in_flight.release()
        log.info(
            "batch of %d: stored %d, leaking %d, dead-lettered %d in %.0f ms",
            len(messages),
            stored,
            len(result.samples),
            len(result.dead_letters),
            (time.perf_counter() - started) * 1000,
        )

    # Faust's consumer collects the events topic into batches (size or time, whichever
    # comes first) and delivers each through this in-memory channel to the agent.
    batches_channel = app.channel(maxsize=pipeline_depth)

    async def deliver(messages: list[Message]) -> None:
        # with the epoch of the table store's positioning they were fetched in
        epoch = table_store.epoch if table_store is not None else 0
        await batches_channel.send(value=(epoch, messages))

    app.topics.add(events_topic)  # subscribed and acknowledged like an agent's topic
    app.route_batches(
        BatchRoute(
            events_topic.get_topic_name(), settings.batch_size, settings.batch_within_s, deliver
        )
    )

    @app.agent(batches_channel)
    async def detect(stream: faust.StreamT[tuple[int, list[Message]]]) -> None:  # noqa: F841
        # the mypyc build is faster (detectors/native.py): say which one runs. The
        # detectors come first: benchmarks/harness.py reads the word after "detectors: "
        log.info(
            "agent started (detectors: %s, pipeline core: %s, batches: %s)",
            "compiled" if native.compiled() else "source",
            "compiled" if native.compiled("leakline.pipeline") else "source",
            processor.where,
        )
        await processor.start()
        # everything made at start-up (Faust, aiokafka, pyarrow, the registry) lives as
        # long as the worker: out of the collector's sight, and young collections rarer
        # (pipeline/core/gc_pause.py; issue 19)
        settle_long_running()
        metrics.observe_model(processor.model_version, processor.take_refusals())
        await failpoints.pause("before_ready")  # tests: hold the worker not ready
        # tests and operators wait on this line (and /readyz): batch processes exist now
        log.info("ready for batches (%s)", processor.where)
        if live is not None:
            live.ready = True
        finisher = asyncio.ensure_future(finish())
        try:
            async for epoch, messages in stream:
                await in_flight.acquire()
                started = time.perf_counter()
                records = [
                    RawRecord(m.key, m.value or b"", Origin(m.topic, m.partition, m.offset))
                    for m in messages
                ]
                finishing.put_nowait(
                    (messages, epoch, asyncio.ensure_future(processor.process(records)), started)
                )
        finally:
            # batches not acknowledged by now are redelivered to whoever takes the partitions
            finisher.cancel()

    return app


def prepare(settings: Settings, loop: asyncio.AbstractEventLoop) -> list[Quarantined]:
    """Create the topics and the store views before any agent subscribes. Returns the
    unreadable Parquet files moved to quarantine first (one would fail the views)."""
    loop.run_until_complete(
        ensure_topics(
            settings.bootstrap,
            [settings.topics.events, settings.topics.dlq, settings.topics.samples],
            settings.partitions,
            timeout_s=120.0,
            security=settings.security,
        )
    )
    from leakline.pipeline.live.web.wiring import STATS_PARTITIONS, ensure_changelog

    # leak.stats is tiny (one record per version per batch): one partition, so one worker's
    # windowed table holds every version; Faust may not declare topics, so its changelog too
    loop.run_until_complete(
        ensure_topics(
            settings.bootstrap,
            [settings.topics.stats],
            STATS_PARTITIONS,
            timeout_s=120.0,
            security=settings.security,
        )
    )
    if settings.web_enabled:  # only the dashboard's table uses it
        loop.run_until_complete(ensure_changelog(settings))
    # footers only (what the views read); compaction reads every file in full
    moved = (
        quarantine_unreadable(settings.data_dir, full=False) if settings.data_dir.is_dir() else []
    )
    init_store(settings.data_dir)
    return moved


class RepeatLimiter(logging.Filter):
    """Lets one record per (logger, message) through per window: during a broker outage
    the Kafka client logs every reconnect attempt, about a hundred lines a second. The
    next record let through says how many were held back, and that those were the
    client's retries, so an outage reads as retrying, not as a stream of failures."""

    def __init__(self, window: float = 10.0) -> None:
        super().__init__()
        self.window = window
        self.seen: dict[tuple[str, object], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        # the message before its arguments (safe_logging formats records as they are made)
        key = (record.name, getattr(record, TEMPLATE, record.msg))
        now = time.monotonic()
        last, suppressed = self.seen.get(key, (-self.window, 0))
        if now - last < self.window:
            self.seen[key] = (last, suppressed + 1)
            return False
        self.seen[key] = (now, 0)
        if suppressed:
            record.msg = f"{record.msg} [{suppressed} similar suppressed: the client is retrying]"
        return True


CLIENT_LOGGERS = (
    "aiokafka",
    "aiokafka.client",
    "aiokafka.conn",
    "aiokafka.consumer.fetcher",
    "aiokafka.consumer.group_coordinator",
    "aiokafka.producer.sender",
    "aiokafka.producer.producer",
)


def run_worker(settings: Settings, loglevel: str = "info") -> None:
    """Run until SIGINT/SIGTERM. Faust finishes the current batch before exiting."""
    from faust.worker import Worker

    safe_logging.install()  # no log line carries an event, at any level
    limiter = RepeatLimiter()
    for name in CLIENT_LOGGERS:
        logging.getLogger(name).addFilter(limiter)
    if settings.web_enabled:
        from leakline.pipeline.live.web import check_exposure

        # before any I/O, too
        check_exposure(settings.web_host, settings.web_token, settings.web_write_token)
    try:
        Redactor.from_spec(settings.redaction)  # bad configuration fails before any I/O
    except ValueError as exc:
        raise LeaklineError(
            str(exc), hint="use --redact default, raw, or known rule names"
        ) from exc
    if settings.store == ICEBERG:
        from leakline.pipeline.store.migrate import check_layout

        # an unmigrated old layout would be missing from the table, or read from Kafka again
        check_layout(settings.data_dir)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    quarantined = prepare(settings, loop)
    idempotent = loop.run_until_complete(
        resolve_idempotence(settings.idempotence, settings.bootstrap, settings.security)
    )
    heartbeat = start_liveness(settings)  # before Faust starts: a taken port fails here
    app = build_app(
        settings, idempotent_producer=idempotent, quarantined=quarantined, heartbeat=heartbeat
    )
    log.info(
        "leakline worker %s: %s -> %s", settings.worker_id, settings.bootstrap, settings.data_dir
    )
    worker = Worker(app, loop=loop, loglevel=loglevel, quiet=True, redirect_stdouts=False)
    worker.execute_from_commandline()
