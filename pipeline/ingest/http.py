"""``POST /ingest``: gateway events over HTTP, for gateways that cannot speak Kafka.

Accepts one JSON event (``application/json``; a JSON array of events works too)
or NDJSON (``application/x-ndjson``, one event per line). Every event is checked
exactly like the worker checks it (``leakline.pipeline.core.contract.decode_event``) and valid
ones are produced to ``gateway.events`` keyed by ``event_id``, as the bytes the
client sent. The answer comes after the broker acknowledged them:

- 202 ``{"accepted": n, "rejected": 0}``: every event is valid and delivered.
- 400 ``{"accepted": n, "rejected": k, "errors": [{"line", "event_id", "reason"}]}``:
  some lines are invalid. The valid lines of the same body ARE delivered (a log
  shipper cannot fix one bad line; resending the whole body is harmless because
  the store counts an event_id once). Resend only the rejected lines, fixed.
- 401 without the bearer token (when one is set), 413 for a body over the limit,
  415 for another content type, 503 (with Retry-After) when the broker did not
  acknowledge in time: nothing was accepted, retry the body.

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

from leakline.pipeline.core.contract import DEFAULT_MAX_EVENT_BYTES, ContractError, decode_event

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
MAX_ERRORS = 100  # reasons listed in one 400 answer

# (topic, key, value) -> completes when the broker acknowledged the record
Sender = Callable[[str, bytes | None, bytes], Awaitable[None]]


@dataclass(frozen=True)
class IngestConfig:
    topic: str = "gateway.events"
    max_body_bytes: int = 32 * 1024 * 1024
    max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES
    max_lines: int = 50_000
    send_timeout_s: float = 30.0
    token: str | None = None  # checked by this handler; the worker uses its web middleware


@dataclass
class IngestStats:
    requests: int = 0
    accepted: int = 0
    rejected: int = 0
    unavailable: int = 0


class _TooLarge(Exception):
    pass


async def _read_body(request: web.Request, limit: int) -> bytes:
    if request.content_length is not None and request.content_length > limit:
        raise _TooLarge
    chunks, size = [], 0
    async for chunk in request.content.iter_chunked(64 * 1024):
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def split_body(body: bytes, content_type: str) -> list[bytes] | None:
    """The event payloads of a body, one per line for NDJSON; None for another type."""
    if content_type in NDJSON_TYPES:
        return [line for line in body.split(b"\n")]
    if content_type in JSON_TYPES:
        stripped = body.strip()
        if stripped.startswith(b"["):  # a JSON array of events
            try:
                items = orjson.loads(stripped)
            except orjson.JSONDecodeError:
                return [body]
            if isinstance(items, list):
                return [orjson.dumps(item) for item in items]
        return [body]
    return None


def check_lines(
    lines: list[bytes], max_event_bytes: int
) -> tuple[list[tuple[bytes, bytes]], list[dict[str, Any]]]:
    """(valid (key, raw) pairs, errors). Blank NDJSON lines are skipped, not errors."""
    valid: list[tuple[bytes, bytes]] = []
    errors: list[dict[str, Any]] = []
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
    return valid, errors


def _json(status: int, payload: dict[str, Any], **headers: str) -> web.Response:
    return web.Response(
        body=orjson.dumps(payload),
        status=status,
        content_type="application/json",
        headers=headers or None,
    )


def ingest_handler(
    send: Sender, config: IngestConfig, stats: IngestStats | None = None
) -> Callable[[web.Request], Awaitable[web.Response]]:
    counters = stats or IngestStats()
    expected = config.token.encode() if config.token else None

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
        try:
            body = await _read_body(request, config.max_body_bytes)
        except _TooLarge:
            return _json(
                413,
                {
                    "error": f"body over {config.max_body_bytes} bytes; "
                    "split it into several requests"
                },
            )
        lines = split_body(body, request.content_type.lower())
        if lines is None:
            return _json(
                415,
                {
                    "error": "send application/json (one event) or "
                    "application/x-ndjson (one event per line)"
                },
            )
        if len(lines) > config.max_lines:
            return _json(413, {"error": f"more than {config.max_lines} events in one body"})
        valid, errors = check_lines(lines, config.max_event_bytes)
        if not valid and not errors:
            errors = [{"line": 1, "event_id": None, "reason": "empty body: no event"}]
        if valid:
            try:
                await asyncio.wait_for(
                    asyncio.gather(*(send(config.topic, key, raw) for key, raw in valid)),
                    config.send_timeout_s,
                )
            except Exception as exc:  # broker down or slow: nothing is promised
                counters.unavailable += 1
                log.warning("ingest: delivery of %d events failed: %s", len(valid), exc)
                return _json(
                    503,
                    {
                        "error": f"the broker did not acknowledge the events ({exc!r})",
                        "accepted": 0,
                    },
                    **{"Retry-After": "5"},
                )
        counters.accepted += len(valid)
        counters.rejected += len(errors)
        payload: dict[str, Any] = {"accepted": len(valid), "rejected": len(errors)}
        if errors:
            payload["errors"] = errors[:MAX_ERRORS]
            payload["errors_truncated"] = len(errors) > MAX_ERRORS
            return _json(400, payload)
        return _json(202, payload)

    return handle


def register_ingest(
    app: web.Application,
    send: Sender,
    config: IngestConfig | None = None,
    stats: IngestStats | None = None,
) -> None:
    """Add ``POST /ingest`` to an aiohttp application."""
    app.router.add_post(INGEST_PATH, ingest_handler(send, config or IngestConfig(), stats))


def faust_sender(faust_app: Any) -> Sender:
    """Produce through the worker's own Faust producer (same broker, same credentials)."""

    async def send(topic: str, key: bytes | None, value: bytes) -> None:
        future = await faust_app.producer.send(topic, key, value, None, None, None)
        await future

    return send


def mount_on_worker(faust_app: Any, settings: Any) -> None:
    """``POST /ingest`` on the worker's web server; auth is the web server's token middleware."""
    config = IngestConfig(topic=settings.topics.events, max_event_bytes=settings.max_event_bytes)
    register_ingest(faust_app.web.web_app, faust_sender(faust_app), config)


class AiokafkaSender:
    """A standalone sender (an aiohttp server of your own): one AIOKafkaProducer."""

    def __init__(
        self, bootstrap: str, security: Any = None, request_timeout_s: float = 15.0
    ) -> None:
        self.bootstrap = bootstrap
        self.security = security
        self.request_timeout_s = request_timeout_s
        self._producer: Any = None

    async def start(self) -> None:
        from aiokafka import AIOKafkaProducer

        from leakline.pipeline.core.kafka_io import client_options

        self._producer = AIOKafkaProducer(
            bootstrap_servers=self.bootstrap,
            acks="all",
            linger_ms=5,
            max_request_size=8 * 1024 * 1024,
            request_timeout_ms=int(self.request_timeout_s * 1000),
            **client_options(self.security),
        )
        await self._producer.start()

    async def stop(self) -> None:
        if self._producer is not None:
            await self._producer.stop()
            self._producer = None

    async def __call__(self, topic: str, key: bytes | None, value: bytes) -> None:
        if self._producer is None:
            raise RuntimeError("AiokafkaSender is not started")
        await (await self._producer.send(topic, value, key=key))
