"""``POST /ingest``: gateway events over HTTP, for gateways that cannot speak Kafka.

Accepts one JSON event (``application/json``; a JSON array of events works too)
or NDJSON (``application/x-ndjson``, one event per line). Every event is checked
exactly like the worker checks it (``leakline.pipeline.events.contract.decode_event``) and valid
ones are produced to ``gateway.events`` keyed by ``event_id``, as the bytes the
client sent. The answer comes after every send was settled (acknowledged by the broker,
or failed), and counts only acknowledged events as accepted:

- 202 ``{"accepted": n, "rejected": 0}``: every event is valid and delivered.
- 400 ``{"accepted": n, "rejected": k, "errors": [{"line", "event_id", "reason"}]}``:
  some lines are invalid. The valid lines of the same body ARE delivered (a log
  shipper cannot fix one bad line; resending the whole body is harmless because
  the store counts an event_id once). Resend only the rejected lines, fixed.
- 502 (with Retry-After) ``{"accepted": n, "unsent": u, "unsent_lines": [...]}``: the
  broker acknowledged n events and not the u others (``unsent_lines``: their first
  line numbers). Resend the body, or those lines.
- 401 without the bearer token (when one is set), 413 for a body over the limit (bytes,
  events, or JSON values: counted before any per-event work), 415 for another content
  type, 408 for a body slower than the body timeout, 503 (with Retry-After) when the
  broker acknowledged none of the events (nothing was accepted, retry the body) or when
  the server already holds its budget of bodies and events in flight (``ServerLimits``).

An unacknowledged send may still have reached the broker (a timeout after the write):
"unsent" means "not confirmed". Resending is always safe, since duplicates count once.

An NDJSON body is parsed and validated in a thread (line by line, so the loop gets the
GIL between lines), a JSON document in a child process (``decoder.py``: ``orjson`` holds
the GIL for a whole document), and produced in windows with a yield to
the event loop between them, so probes and the dashboard answer while a 32 MiB body is
in flight. On the worker the producer is one of its own, with large batches
(``IngestProducer``); Faust's producer sends small batches one round trip at a time.

On the worker it is served by the worker's web server (``leakline worker --web``),
loopback by default and behind the same bearer token as the dashboard.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
from aiohttp import web

from leakline.pipeline.core.config import MAX_RECORD_BYTES
from leakline.pipeline.core.http_limits import ServerLimits
from leakline.pipeline.events.contract import DEFAULT_MAX_EVENT_BYTES, ContractError, decode_event
from leakline.pipeline.ingest.bounds import (
    InFlight,
    Lease,
    Refused,
    json_value_bound,
    read_body,
    refusal,
    shared_budget,
)
from leakline.pipeline.ingest.decoder import DECODER

log = logging.getLogger("leakline.ingest")

INGEST_PATH = "/ingest"
NDJSON_TYPES = frozenset(
    {
        "application/x-ndjson",
        "application/jsonl",
        "application/jsonlines",
        "application/x-jsonlines",
        "application/ndjson",
    }
)
JSON_TYPES = frozenset({"application/json", ""})
MAX_ERRORS = 100  # reasons (and unsent line numbers) listed in one answer
SEND_WINDOW = 2000  # sends in flight per window; the loop runs other tasks in between
YIELD_EVERY = 64  # sends queued between two yields to the event loop

# (topic, key, value) -> completes when the broker acknowledged the record
Sender = Callable[[str, bytes | None, bytes], Awaitable[None]]


@dataclass(frozen=True)
class IngestConfig:
    topic: str = "gateway.events"
    max_body_bytes: int = 32 * 1024 * 1024
    max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES
    max_lines: int = 50_000
    # values (and keys) a JSON body may parse into: about 72 bytes each at worst (``{}``),
    # so a body of millions of tiny items is refused before it is parsed
    max_json_values: int = 2_000_000
    send_timeout_s: float = 30.0
    token: str | None = None  # checked by this handler; the worker uses its web middleware
    limits: ServerLimits = ServerLimits()  # body timeout and the budget in flight


@dataclass
class IngestStats:
    requests: int = 0
    accepted: int = 0
    rejected: int = 0
    unavailable: int = 0


def split_body(
    body: bytes, content_type: str, config: IngestConfig | None = None
) -> list[bytes] | None:
    """The event payloads of a body, one per line for NDJSON; None for another type.

    Raises ``Refused`` (413) over ``config.max_lines`` events or ``max_json_values``
    values, counted before any per-event work."""
    config = config or IngestConfig()
    too_many = Refused(413, f"more than {config.max_lines} events in one body; split it")
    if content_type in NDJSON_TYPES:
        if body.count(b"\n") + (not body.endswith(b"\n")) > config.max_lines:
            raise too_many
        return body.split(b"\n")
    if content_type in JSON_TYPES:
        stripped = body.strip()
        if stripped.startswith(b"["):  # a JSON array of events
            if json_value_bound(stripped, config.max_json_values) > config.max_json_values:
                raise Refused(
                    413, f"more than {config.max_json_values} JSON values in one body; split it"
                )
            try:
                items = orjson.loads(stripped)
            except orjson.JSONDecodeError:
                return [body]
            if isinstance(items, list):
                if len(items) > config.max_lines:
                    raise too_many
                return [orjson.dumps(item) for item in items]
        return [body]
    return None


def check_lines(
    lines: list[bytes], max_event_bytes: int
) -> tuple[list[tuple[bytes, bytes]], list[dict[str, Any]]]:
    """(valid (key, raw) pairs, errors). Blank NDJSON lines are skipped, not errors."""
    valid, errors, _ = _check(lines, max_event_bytes)
    return valid, errors


def _check(
    lines: list[bytes], max_event_bytes: int
) -> tuple[list[tuple[bytes, bytes]], list[dict[str, Any]], list[int]]:
    """``check_lines`` plus the line number of each valid event."""
    valid: list[tuple[bytes, bytes]] = []
    errors: list[dict[str, Any]] = []
    numbers: list[int] = []
    for number, raw in enumerate(lines, start=1):
        raw = raw.strip(b"\r")
        if not raw.strip():
            continue
        try:
            event = decode_event(raw, max_event_bytes)
        except ContractError as exc:
            errors.append({"line": number, "event_id": exc.event_id, "reason": exc.reason})
            continue
        valid.append((str(event["event_id"]).encode(), raw))
        numbers.append(number)
    return valid, errors, numbers


@dataclass
class _Parsed:
    valid: list[tuple[bytes, bytes]]
    errors: list[dict[str, Any]]
    numbers: list[int]  # the line number of each valid event
    status: int = 0  # 413/415 when the body is refused as a whole
    message: str = ""


def _parse(body: bytes, content_type: str, config: IngestConfig) -> _Parsed:
    """Split and validate a body; CPU work that runs in a thread, off the event loop."""
    try:
        lines = split_body(body, content_type, config)
    except Refused as exc:
        return _Parsed([], [], [], exc.status, exc.message)
    if lines is None:
        return _Parsed(
            [],
            [],
            [],
            415,
            "send application/json (one event) or application/x-ndjson (one event per line)",
        )
    valid, errors, numbers = _check(lines, config.max_event_bytes)
    if not valid and not errors:
        errors = [{"line": 1, "event_id": None, "reason": "empty body: no event"}]
    return _Parsed(valid, errors, numbers)


async def deliver(
    send: Sender, topic: str, records: list[tuple[bytes, bytes]], timeout_s: float
) -> list[bool]:
    """Send every record and wait until each send settled; True where the broker
    acknowledged. Never cancels a send (a cancelled wait would not unsend a record that
    is already queued, and the count would lie); a send still pending ``timeout_s``
    after its window was queued is counted as not acknowledged. After a window in
    which the broker acknowledged nothing, the rest is not tried."""
    acked = [False] * len(records)
    for start in range(0, len(records), SEND_WINDOW):
        window = records[start : start + SEND_WINDOW]
        tasks = []
        for i, (key, raw) in enumerate(window):
            tasks.append(asyncio.ensure_future(send(topic, key, raw)))
            if i % YIELD_EVERY == YIELD_EVERY - 1:
                await asyncio.sleep(0)
        # the producer fails a send after its own request timeout (shorter than this)
        done, pending = await asyncio.wait(tasks, timeout=timeout_s)
        for task in pending:  # settles later; its outcome is logged, never counted
            task.add_done_callback(_log_late)
        ok = 0
        for i, task in enumerate(tasks):
            if task in done and not task.cancelled() and task.exception() is None:
                acked[start + i] = True
                ok += 1
            elif task in done and not task.cancelled():
                log.debug("ingest: a send failed: %r", task.exception())
        if ok == 0 or pending:
            break
    return acked


def _log_late(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.debug("ingest: a late send failed: %r", task.exception())


def _json(status: int, payload: dict[str, Any], **headers: str) -> web.Response:
    return web.Response(
        body=orjson.dumps(payload),
        status=status,
        content_type="application/json",
        headers=headers or None,
    )


def ingest_handler(
    send: Sender,
    config: IngestConfig,
    stats: IngestStats | None = None,
    budget: InFlight | None = None,
) -> Callable[[web.Request], Awaitable[web.Response]]:
    counters = stats or IngestStats()
    expected = config.token.encode() if config.token else None
    inflight = budget or InFlight.of(config.limits)

    async def handle(request: web.Request) -> web.Response:
        counters.requests += 1
        if expected is not None:
            header = request.headers.get("Authorization", "")
            given = header[7:].strip().encode() if header[:7].lower() == "bearer " else b""
            if not hmac.compare_digest(given, expected):
                return _json(
                    401,
                    {"error": "a bearer token is required"},
                    **{"WWW-Authenticate": 'Bearer realm="leakline"'},
                )
        with inflight.lease() as lease:
            try:
                return await _handle_body(request, lease)
            except Refused as exc:
                return refusal(exc)

    async def _handle_body(request: web.Request, lease: Lease) -> web.Response:
        body = await read_body(request, config.max_body_bytes, lease, config.limits.body_timeout_s)
        content_type = request.content_type.lower()
        if content_type in NDJSON_TYPES:  # one short parse per line: a thread keeps up
            parsed = await asyncio.to_thread(_parse, body, content_type, config)
        else:  # one JSON document: orjson holds the GIL for all of it, so another process
            parsed = await DECODER.run(_parse, body, content_type, config)
        del body
        if parsed.status:
            return _json(parsed.status, {"error": parsed.message})
        lease.add_items(len(parsed.valid))
        valid, errors = parsed.valid, parsed.errors
        acked = await deliver(send, config.topic, valid, config.send_timeout_s) if valid else []
        accepted = sum(acked)
        counters.accepted += accepted
        counters.rejected += len(errors)
        payload: dict[str, Any] = {"accepted": accepted, "rejected": len(errors)}
        if errors:
            payload["errors"] = errors[:MAX_ERRORS]
            payload["errors_truncated"] = len(errors) > MAX_ERRORS
        if accepted < len(valid):
            unsent = [n for n, ok in zip(parsed.numbers, acked, strict=True) if not ok]
            counters.unavailable += 1
            log.warning("ingest: the broker acknowledged %d of %d events", accepted, len(valid))
            payload["unsent"] = len(unsent)
            payload["unsent_lines"] = unsent[:MAX_ERRORS]
            payload["error"] = (
                "the broker did not acknowledge the events: nothing was accepted, retry the body"
                if accepted == 0
                else f"the broker acknowledged {accepted} of {len(valid)} valid events: "
                "resend the body or the unsent lines (an event_id counts once)"
            )
            return _json(503 if accepted == 0 else 502, payload, **{"Retry-After": "5"})
        return _json(400 if errors else 202, payload)

    return handle


def register_ingest(
    app: web.Application,
    send: Sender,
    config: IngestConfig | None = None,
    stats: IngestStats | None = None,
) -> None:
    """Add ``POST /ingest`` to an aiohttp application (sharing its budget in flight)."""
    config = config or IngestConfig()
    budget = shared_budget(app, config.limits)
    app.router.add_post(INGEST_PATH, ingest_handler(send, config, stats, budget))


def faust_sender(faust_app: Any) -> Sender:
    """Produce through the worker's own Faust producer (same broker, same credentials).

    Slow for big bodies: Faust's producer sends small batches (about 200 events/s of
    2.5 KB on Tansu); ``mount_on_worker`` uses an ``AiokafkaSender`` of its own."""

    async def send(topic: str, key: bytes | None, value: bytes) -> None:
        future = await faust_app.producer.send(topic, key, value, None, None, None)
        await future

    return send


def mount_on_worker(faust_app: Any, settings: Any) -> None:
    """``POST /ingest`` on the worker's web server; auth is the web server's token middleware.

    Events go out through a producer of its own (``AiokafkaSender``: large batches, same
    bootstrap and credentials), started on the first request and stopped with the web app."""
    config = IngestConfig(
        topic=settings.topics.events,
        max_event_bytes=settings.max_event_bytes,
        limits=settings.web_limits,
    )
    sender = AiokafkaSender(settings.bootstrap, settings.security)
    web_app = faust_app.web.web_app
    register_ingest(web_app, sender, config)

    async def start_sender(_: web.Application) -> None:
        await DECODER.warm()
        try:  # early, so the first body does not wait for it; else on the first send
            await sender.start()
        except Exception as exc:
            log.warning("ingest: producer not started yet (%s); will retry on a request", exc)

    async def stop_sender(_: web.Application) -> None:
        await sender.stop()
        DECODER.close()

    web_app.on_startup.append(start_sender)
    web_app.on_shutdown.append(stop_sender)


class AiokafkaSender:
    """One AIOKafkaProducer with large batches, for ``POST /ingest`` (on the worker, or on
    an aiohttp server of your own). Started by ``start()`` or on the first send."""

    def __init__(
        self, bootstrap: str, security: Any = None, request_timeout_s: float = 15.0
    ) -> None:
        self.bootstrap = bootstrap
        self.security = security
        self.request_timeout_s = request_timeout_s
        self._producer: Any = None
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        from aiokafka import AIOKafkaProducer

        from leakline.pipeline.kafka.io import client_options

        async with self._lock:
            if self._producer is not None:
                return
            producer = AIOKafkaProducer(
                bootstrap_servers=self.bootstrap,
                acks="all",
                # many events per produce request: one round trip per partition is in
                # flight at a time, so the batch size sets the throughput
                linger_ms=5,
                max_batch_size=1024 * 1024,
                max_request_size=MAX_RECORD_BYTES,
                request_timeout_ms=int(self.request_timeout_s * 1000),
                **client_options(self.security),
            )
            try:
                await producer.start()
            except BaseException:
                await producer.stop()
                raise
            self._producer = producer

    async def stop(self) -> None:
        async with self._lock:
            if self._producer is not None:
                await self._producer.stop()
                self._producer = None

    async def __call__(self, topic: str, key: bytes | None, value: bytes) -> None:
        if self._producer is None:
            await self.start()
        await (await self._producer.send(topic, value, key=key))
