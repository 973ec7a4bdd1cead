"""``LeakProducer``: a bounded, batching, never-blocking Kafka sender for gateways.

``submit`` runs on the gateway's request path: it serialises the event, appends it
to a bounded in-memory queue and returns at once. A background task drains the
queue in batches with aiokafka. When the broker is slow or down the queue fills
up to ``max_queue_events`` / ``max_queue_bytes``; beyond that new events are
dropped and counted (``stats.dropped``) with at most one log line per
``log_every_s``. Nothing here raises into the caller.

Memory bound: the queue plus one in-flight batch (``batch_max_events`` events,
at most ``max_queue_bytes`` bytes because a batch is taken from the queue).
Delivery is at-least-once: a batch whose delivery failed is sent again, and the
worker counts an ``event_id`` once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from leakline.client import _json
from leakline.client.contract import ContractError, validate_event
from leakline.client.kafka import (
    DEFAULT_BOOTSTRAP,
    DLQ_HEADROOM_BYTES,
    ENV_BOOTSTRAP,
    EVENTS_TOPIC,
    MAX_EVENT_BYTES,
    MAX_RECORD_BYTES,
    KafkaSecurity,
    client_options,
    key_of,
    security_from_env,
)

log = logging.getLogger("leakline.producer")


@dataclass(frozen=True)
class ProducerConfig:
    bootstrap: str = DEFAULT_BOOTSTRAP
    topic: str = EVENTS_TOPIC
    max_queue_events: int = 10_000
    max_queue_bytes: int = 64 * 1024 * 1024
    max_event_bytes: int = MAX_EVENT_BYTES  # the worker dead-letters larger ones
    batch_max_events: int = 500
    linger_s: float = 0.05  # wait this long for a batch to fill
    send_timeout_s: float = 10.0  # one delivery attempt (aiokafka request timeout)
    backoff_max_s: float = 5.0
    log_every_s: float = 10.0  # at most one "dropping" line per window
    validate: bool = True  # check each event against the v1 schema before queueing
    client_id: str = "leakline-producer"
    security: KafkaSecurity | None = field(default=None, repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ProducerConfig:
        """$LEAKLINE_BOOTSTRAP, $LEAKLINE_TOPIC, $LEAKLINE_PRODUCER_MAX_QUEUE(_BYTES), SASL/TLS."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {"bootstrap": env.get(ENV_BOOTSTRAP, DEFAULT_BOOTSTRAP)}
        if env.get("LEAKLINE_TOPIC"):
            values["topic"] = env["LEAKLINE_TOPIC"]
        for name, key in (
            ("LEAKLINE_PRODUCER_MAX_QUEUE", "max_queue_events"),
            ("LEAKLINE_PRODUCER_MAX_QUEUE_BYTES", "max_queue_bytes"),
        ):
            if env.get(name):
                values[key] = int(env[name])
        if env.get("LEAKLINE_SECURITY_PROTOCOL", "PLAINTEXT") != "PLAINTEXT":
            values["security"] = security_from_env(env)
        values.update(overrides)
        return cls(**values)


@dataclass
class ProducerStats:
    submitted: int = 0  # submit() calls
    queued: int = 0  # accepted into the queue
    sent: int = 0  # delivered (acknowledged by the broker)
    dropped: int = 0  # refused: queue full, closed, invalid or too large (sum of the next four)
    dropped_full: int = 0
    dropped_closed: int = 0
    invalid: int = 0
    too_large: int = 0
    failed_attempts: int = 0  # batch deliveries that failed and were retried
    queue_events: int = 0  # now waiting (queue + in flight)
    queue_bytes: int = 0
    connected: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class _Limiter:
    """One log line per window, with the count of what was suppressed."""

    def __init__(self, every_s: float) -> None:
        self.every_s = every_s
        self.last = -every_s
        self.suppressed = 0

    def ready(self) -> int | None:
        now = time.monotonic()
        if now - self.last < self.every_s:
            self.suppressed += 1
            return None
        self.last, count, self.suppressed = now, self.suppressed, 0
        return count


class LeakProducer:
    """Async producer of gateway events. ``submit`` is sync, O(1) and never blocks.

    Start it inside the gateway's event loop (``await producer.start()`` or
    ``async with LeakProducer(...)``); ``submit`` may then be called from that loop
    or from any thread. ``close()`` flushes what is queued, bounded by a timeout.
    """

    def __init__(self, config: ProducerConfig | None = None) -> None:
        self.config = config or ProducerConfig()
        self.stats = ProducerStats()
        self._queue: deque[tuple[bytes | None, bytes]] = deque()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._closed = False
        self._inflight: list[tuple[bytes | None, bytes]] = []
        self._drop_log = _Limiter(self.config.log_every_s)
        self._error_log = _Limiter(self.config.log_every_s)
        self._kafka: Any = None

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> LeakProducer:
        """Start the background sender; returns at once (the broker may still be down)."""
        if self._task is None:
            self._loop = asyncio.get_running_loop()
            self._loop_thread = threading.get_ident()
            self._wake = asyncio.Event()
            self._task = self._loop.create_task(self._drain(), name="leakline-producer")
        return self

    async def __aenter__(self) -> LeakProducer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def flush(self, timeout_s: float = 10.0) -> bool:
        """Wait until everything queued so far is delivered; False on timeout."""
        deadline = time.monotonic() + timeout_s
        while self.stats.queue_events > 0:
            if time.monotonic() >= deadline or self._task is None or self._task.done():
                return False
            self._notify()
            await asyncio.sleep(0.02)
        return True

    async def close(self, timeout_s: float = 10.0) -> ProducerStats:
        """Stop accepting events, flush for at most ``timeout_s``, then stop.

        Whatever could not be delivered in time is counted as dropped.
        """
        if self._closed:
            return self.stats
        self._closing = True
        await self.flush(timeout_s)
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._stop_kafka()
        with self._lock:
            lost = len(self._queue) + len(self._inflight)
            self._queue.clear()
            self._inflight = []
            self.stats.queue_events = 0
            self.stats.queue_bytes = 0
        if lost:
            self.stats.dropped += lost
            self.stats.dropped_closed += lost
            log.warning("leakline producer closed with %d undelivered events (dropped)", lost)
        return self.stats

    # ------------------------------------------------------------ request path

    def submit(self, event: Mapping[str, Any] | bytes, key: bytes | None = None) -> bool:
        """Queue one event (a v1 dict, or its JSON bytes). True if queued, False if dropped.

        Never blocks and never raises.
        """
        try:
            return self._submit(event, key)
        except Exception as exc:  # the gateway must never see our bugs
            self._count_drop("invalid")
            self._log_error("submit failed: %s", exc)
            return False

    def _submit(self, event: Mapping[str, Any] | bytes, key: bytes | None) -> bool:
        with self._lock:  # submit may run on several gateway threads at once
            self.stats.submitted += 1
        if self._closing:
            self._count_drop("dropped_closed")
            return False
        if isinstance(event, (bytes, bytearray)):
            value = bytes(event)
            if key is None:
                key = key_of(value)
        else:
            if self.config.validate:
                try:
                    validate_event(event)
                except ContractError as exc:
                    self._count_drop("invalid")
                    self._log_error("dropping an invalid event: %s", exc.reason)
                    return False
            value = _json.dumps(event)
            event_id = event.get("event_id")
            key = (
                key
                if key is not None
                else (event_id.encode() if isinstance(event_id, str) else None)
            )
        size = len(value)
        if size > self.config.max_event_bytes:
            self._count_drop("too_large")
            self._log_error(
                "dropping an event of %d bytes (limit %d)", size, self.config.max_event_bytes
            )
            return False
        with self._lock:
            full = (
                self.stats.queue_events >= self.config.max_queue_events
                or self.stats.queue_bytes + size > self.config.max_queue_bytes
            )
            if not full:
                self._queue.append((key, value))
                self.stats.queue_events += 1
                self.stats.queue_bytes += size
                self.stats.queued += 1
        if full:
            self._count_drop("dropped_full")
            suppressed = self._drop_log.ready()
            if suppressed is not None:
                log.warning(
                    "leakline producer queue full (%d events, %d bytes; broker %s): dropping "
                    "events, %d dropped so far",
                    self.stats.queue_events,
                    self.stats.queue_bytes,
                    "connected" if self.stats.connected else "unreachable",
                    self.stats.dropped,
                )
            return False
        if len(self._queue) >= self.config.batch_max_events or self._task is None:
            self._notify()
        return True

    def _count_drop(self, kind: str) -> None:
        with self._lock:
            self.stats.dropped += 1
            setattr(self.stats, kind, getattr(self.stats, kind) + 1)

    def _log_error(self, message: str, *args: Any) -> None:
        suppressed = self._error_log.ready()
        if suppressed is not None:
            log.warning(
                "leakline producer: "
                + message
                + (f" [{suppressed} similar suppressed]" if suppressed else ""),
                *args,
            )

    def _notify(self) -> None:
        loop, wake = self._loop, self._wake
        if loop is None or wake is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            wake.set()
        else:
            with contextlib.suppress(RuntimeError):  # the loop is shutting down
                loop.call_soon_threadsafe(wake.set)

    # ------------------------------------------------------------ background

    async def _connect(self) -> Any:
        from aiokafka import AIOKafkaProducer

        timeout_ms = int(self.config.send_timeout_s * 1000)
        producer = AIOKafkaProducer(
            bootstrap_servers=self.config.bootstrap,
            client_id=self.config.client_id,
            linger_ms=5,
            max_batch_size=256 * 1024,
            max_request_size=max(
                MAX_RECORD_BYTES, self.config.max_event_bytes + DLQ_HEADROOM_BYTES
            ),
            request_timeout_ms=timeout_ms,
            metadata_max_age_ms=30_000,
            acks="all",
            **client_options(self.config.security),
        )
        try:
            await asyncio.wait_for(producer.start(), self.config.send_timeout_s)
        except BaseException:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(producer.stop(), 5)
            raise
        return producer

    async def _stop_kafka(self) -> None:
        kafka, self._kafka = self._kafka, None
        self.stats.connected = False
        if kafka is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(kafka.stop(), 5)

    def _take_batch(self) -> list[tuple[bytes | None, bytes]]:
        with self._lock:
            n = min(len(self._queue), self.config.batch_max_events)
            return [self._queue.popleft() for _ in range(n)]

    async def _drain(self) -> None:
        assert self._wake is not None
        delay = 0.2
        while True:
            if not self._inflight:
                if not self._queue:
                    self._wake.clear()
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), 1.0)
                    continue
                if len(self._queue) < self.config.batch_max_events and not self._closing:
                    await asyncio.sleep(self.config.linger_s)  # let the batch fill
                self._inflight = self._take_batch()
            try:
                if self._kafka is None:
                    self._kafka = await self._connect()
                    self.stats.connected = True
                await self._send(self._inflight)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.stats.failed_attempts += 1
                self.stats.connected = False
                self._log_error(
                    "cannot deliver %d events (%s: %s); retrying in %.1fs",
                    len(self._inflight),
                    type(exc).__name__,
                    exc,
                    delay,
                )
                await self._stop_kafka()  # a fresh client after an outage: no stale metadata
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.config.backoff_max_s)
                continue
            delay = 0.2
            sent = self._inflight
            self._inflight = []
            with self._lock:
                self.stats.sent += len(sent)
                self.stats.queue_events -= len(sent)
                self.stats.queue_bytes -= sum(len(v) for _, v in sent)

    async def _send(self, batch: list[tuple[bytes | None, bytes]]) -> None:
        kafka, topic = self._kafka, self.config.topic

        async def deliver() -> None:
            # send() itself waits for metadata when the broker is away: bound it too
            futures = [await kafka.send(topic, value, key=key) for key, value in batch]
            await asyncio.gather(*futures)

        await asyncio.wait_for(deliver(), self.config.send_timeout_s * 2)
