"""``POST /v1/traces``: an OTLP/HTTP trace receiver that turns GenAI spans into events.

Point an OpenTelemetry exporter (``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) at the worker's
web server (``leakline worker --web``) or at ``leakline otlp-receiver``. Both protobuf
(``application/x-protobuf``, the SDK exporters' default; needs ``leakline[otel]``) and
OTLP/JSON (``application/json``) bodies are read, gzip-compressed or not (aiohttp inflates
the body as it streams in, so the size limit applies to the inflated bytes).

Every span goes through the GenAI mapping of ``integrations/otel.py``. A span that makes
an event is checked against the contract and produced to ``gateway.events`` keyed by its
``event_id`` (``otel-<traceId>-<spanId>``, so a retried export is counted once). A span
that is not an LLM chat call, or that carries no message content (capture turned off),
is counted as skipped: it says nothing about leaks and is not a dead letter. The answer
comes after the broker acknowledged the events: 200 (an empty
``ExportTraceServiceResponse``), 400 for a body that is not OTLP, 401 without the bearer
token (when one is set), 413 over the size limit, 415 for another content type, and 503
with Retry-After when the broker did not acknowledge in time (exporters retry on 503).

The token and size limits are ``/ingest``'s (``IngestConfig``).
"""

from __future__ import annotations

import asyncio
import base64
import hmac
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import orjson
from aiohttp import web

from leakline.client import ContractError, EventMeta, validate_event
from leakline.pipeline.ingest.http import AiokafkaSender, IngestConfig, Sender
from leakline.pipeline.ingest.integrations.otel import attributes, event_from_span

log = logging.getLogger("leakline.otlp")

TRACES_PATH = "/v1/traces"
PROTOBUF_TYPES = frozenset({"application/x-protobuf", "application/protobuf"})
JSON_TYPES = frozenset({"application/json", ""})
DEFAULT_PORT = 4318  # the OTLP/HTTP port
_ID_FIELDS = ("traceId", "spanId", "parentSpanId")


@dataclass
class OtlpStats:
    requests: int = 0
    spans: int = 0  # spans received
    events: int = 0  # spans that became events and were delivered
    skipped: int = 0  # not an LLM chat span, or no message content: counted, not dead-lettered
    invalid: int = 0  # spans whose event failed the contract (a mapping bug; logged)
    bad_requests: int = 0  # bodies that are not OTLP
    unavailable: int = 0  # broker did not acknowledge: 503

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


class OtlpError(ValueError):
    """A body that is not an OTLP trace export. ``status`` is the HTTP answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _hex_ids(data: Any) -> Any:
    """protobuf's JSON form writes bytes as base64; OTLP/JSON writes trace and span ids as hex."""
    for resource_spans in data.get("resourceSpans") or []:
        for scope in resource_spans.get("scopeSpans") or []:
            for span in scope.get("spans") or []:
                for name in _ID_FIELDS:
                    if isinstance(span.get(name), str):
                        span[name] = base64.b64decode(span[name]).hex()
    return data


def decode_traces(body: bytes, content_type: str) -> dict[str, Any]:
    """An ``ExportTraceServiceRequest`` as OTLP/JSON, from either encoding."""
    if content_type in PROTOBUF_TYPES:
        try:
            from google.protobuf.json_format import MessageToDict
            from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
                ExportTraceServiceRequest,
            )
        except ImportError:
            raise OtlpError(
                "protobuf OTLP needs opentelemetry-proto: pip install 'leakline[otel]', "
                "or export OTLP/JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json)",
                415,
            ) from None
        try:
            message = ExportTraceServiceRequest.FromString(body)
        except Exception as exc:  # protobuf's DecodeError
            raise OtlpError(f"not an OTLP protobuf ExportTraceServiceRequest: {exc}") from None
        return _hex_ids(MessageToDict(message))
    if content_type in JSON_TYPES:
        try:
            data = orjson.loads(body or b"{}")
        except orjson.JSONDecodeError as exc:
            raise OtlpError(f"not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise OtlpError("an OTLP/JSON ExportTraceServiceRequest is a JSON object")
        return data
    raise OtlpError(
        "send application/x-protobuf or application/json (OTLP/HTTP traces)", status=415
    )


def events_of(
    data: Mapping[str, Any], meta: EventMeta | None = None
) -> tuple[list[dict[str, Any]], int]:
    """(events, spans seen) of one decoded export request."""
    events: list[dict[str, Any]] = []
    spans = 0
    for resource_spans in data.get("resourceSpans") or []:
        if not isinstance(resource_spans, Mapping):
            raise OtlpError("resourceSpans must hold objects")
        resource = attributes((resource_spans.get("resource") or {}).get("attributes"))
        for scope in resource_spans.get("scopeSpans") or []:
            for span in scope.get("spans") or []:
                spans += 1
                event = event_from_span(span, resource, meta)
                if event is not None:
                    events.append(event)
    return events, spans


def _answer(status: int, content_type: str, error: str | None = None) -> web.Response:
    if error is None and content_type in PROTOBUF_TYPES:
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceResponse,
        )

        body = ExportTraceServiceResponse().SerializeToString()
        return web.Response(body=body, status=status, content_type="application/x-protobuf")
    payload: dict[str, Any] = {} if error is None else {"error": error}
    headers = {"Retry-After": "5"} if status == 503 else None
    return web.Response(
        body=orjson.dumps(payload), status=status, content_type="application/json", headers=headers
    )


def otlp_handler(
    send: Sender,
    config: IngestConfig,
    stats: OtlpStats | None = None,
    meta: EventMeta | None = None,
) -> Callable[[web.Request], Awaitable[web.Response]]:
    """The ``POST /v1/traces`` handler; ``meta`` adds configured versions to every event."""
    counters = stats if stats is not None else OtlpStats()
    expected = config.token.encode() if config.token else None

    async def handle(request: web.Request) -> web.Response:
        counters.requests += 1
        content_type = request.content_type.lower()
        if expected is not None:
            header = request.headers.get("Authorization", "")
            given = header[7:].strip().encode() if header[:7].lower() == "bearer " else b""
            if not hmac.compare_digest(given, expected):
                return web.json_response(
                    {"error": "a bearer token is required"},
                    status=401,
                    headers={"WWW-Authenticate": 'Bearer realm="leakline"'},
                )
        limit = config.max_body_bytes
        if request.content_length is not None and request.content_length > limit:
            return _answer(413, "", f"body over {limit} bytes; export smaller batches")
        body = bytearray()
        async for chunk in request.content.iter_chunked(64 * 1024):
            body += chunk
            if len(body) > limit:
                return _answer(413, "", f"body over {limit} bytes; export smaller batches")
        try:
            events, spans = events_of(decode_traces(bytes(body), content_type), meta)
        except OtlpError as exc:
            counters.bad_requests += 1
            return _answer(exc.status, "", str(exc))
        except (TypeError, AttributeError, ValueError) as exc:
            counters.bad_requests += 1
            return _answer(400, "", f"not an OTLP trace export: {exc}")
        counters.spans += spans
        records: list[tuple[bytes, bytes]] = []
        for event in events:
            try:
                validate_event(event)
            except ContractError as exc:
                counters.invalid += 1
                log.warning("otlp: a span made an invalid event (skipped): %s", exc.reason)
                continue
            value = orjson.dumps(event, default=str)
            if len(value) > config.max_event_bytes:
                counters.invalid += 1
                log.warning("otlp: a span made an event of %d bytes (skipped)", len(value))
                continue
            records.append((str(event["event_id"]).encode(), value))
        if records:
            try:
                await asyncio.wait_for(
                    asyncio.gather(*(send(config.topic, key, value) for key, value in records)),
                    config.send_timeout_s,
                )
            except Exception as exc:  # broker down or slow: the exporter retries
                counters.unavailable += 1
                log.warning("otlp: delivery of %d events failed: %s", len(records), exc)
                return _answer(503, "", f"the broker did not acknowledge the events ({exc!r})")
        counters.events += len(records)
        counters.skipped += spans - len(events)
        return _answer(200, content_type)

    return handle


def register_otlp(
    app: web.Application,
    send: Sender,
    config: IngestConfig | None = None,
    stats: OtlpStats | None = None,
    meta: EventMeta | None = None,
) -> OtlpStats:
    """Add ``POST /v1/traces`` to an aiohttp application; returns its counters."""
    counters = stats if stats is not None else OtlpStats()
    handler = otlp_handler(send, config or IngestConfig(), counters, meta)
    app.router.add_post(TRACES_PATH, handler)
    return counters


def mount_otlp_on_worker(faust_app: Any, settings: Any) -> OtlpStats:
    """``POST /v1/traces`` on the worker's web server, behind its token middleware."""
    config = IngestConfig(topic=settings.topics.events, max_event_bytes=settings.max_event_bytes)
    sender = AiokafkaSender(settings.bootstrap, settings.security)
    web_app = faust_app.web.web_app
    stats = register_otlp(web_app, sender, config, meta=EventMeta.from_env())

    async def stop_sender(_: web.Application) -> None:
        await sender.stop()

    web_app.on_shutdown.append(stop_sender)
    return stats


async def serve_otlp(
    settings: Any,
    host: str,
    port: int,
    *,
    token: str | None = None,
    max_body_bytes: int | None = None,
    stop: asyncio.Event | None = None,
    ready: Callable[[int], None] | None = None,
) -> OtlpStats:
    """Run a standalone receiver until ``stop`` is set (or the task is cancelled)."""
    config = IngestConfig(
        topic=settings.topics.events,
        max_event_bytes=settings.max_event_bytes,
        token=token,
        **({"max_body_bytes": max_body_bytes} if max_body_bytes else {}),
    )
    sender = AiokafkaSender(settings.bootstrap, settings.security)
    app = web.Application(client_max_size=config.max_body_bytes + 1)
    stats = register_otlp(app, sender, config, meta=EventMeta.from_env())
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = port
    server = getattr(site, "_server", None)
    if server is not None and server.sockets:
        bound = server.sockets[0].getsockname()[1]
    log.info("OTLP/HTTP receiver on http://%s:%d%s", host, bound, TRACES_PATH)
    if ready is not None:
        ready(bound)
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        await runner.cleanup()
        await sender.stop()
    return stats
