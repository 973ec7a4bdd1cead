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
``ExportTraceServiceResponse``), 400 for a body that is not OTLP (nesting too deep
included), 401 without the bearer token (when one is set), 408 for a body slower than the
body timeout, 413 over the size limit or over ``max_lines`` spans (counted on the wire
before decoding), 415 for another content type, and 503 with Retry-After when the broker
did not acknowledge in time or the server holds its budget in flight (exporters retry).

Decoding and mapping run in a child process (``decoder.py``), so the loop (and
``/healthz``) answers meanwhile.
The token, size and in-flight limits are ``/ingest``'s (``IngestConfig``).
"""

from __future__ import annotations

import asyncio
import base64
import hmac
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

import orjson
from aiohttp import web

from leakline.client import ContractError, EventMeta, validate_event
from leakline.pipeline.core.http_limits import ServerLimits
from leakline.pipeline.http.auth import allowed_hosts, host_middleware, token_middleware
from leakline.pipeline.http.guard import GuardedAppRunner
from leakline.pipeline.ingest.bounds import (
    InFlight,
    Lease,
    Refused,
    json_value_bound,
    protobuf_span_bound,
    read_body,
    refusal,
    shared_budget,
)
from leakline.pipeline.ingest.decoder import DECODER
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


def decode_traces(
    body: bytes, content_type: str, config: IngestConfig | None = None
) -> dict[str, Any]:
    """An ``ExportTraceServiceRequest`` as OTLP/JSON, from either encoding. Over
    ``config.max_lines`` spans (or ``max_json_values`` JSON values): 413, before decoding."""
    config = config or IngestConfig()
    if content_type in PROTOBUF_TYPES:
        if protobuf_span_bound(body, config.max_lines) > config.max_lines:
            raise OtlpError(f"more than {config.max_lines} spans in one export", 413)
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
        if json_value_bound(body, config.max_json_values) > config.max_json_values:
            raise OtlpError(f"more than {config.max_json_values} JSON values in one export", 413)
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


@dataclass
class _Decoded:
    records: list[tuple[bytes, bytes]]  # (key, event JSON) of the events to send
    spans: int
    events: int  # spans that made an event (valid or not)
    invalid: int


def _spans_in(data: Mapping[str, Any]) -> int:
    return sum(
        len(scope.get("spans") or [])
        for resource_spans in data.get("resourceSpans") or []
        for scope in (resource_spans.get("scopeSpans") or [])
    )


def decode_export(
    body: bytes, content_type: str, config: IngestConfig, meta: EventMeta | None = None
) -> _Decoded:
    """Body -> the records to send; CPU work that runs in the decoder process. Raises ``OtlpError``
    for a body that is not an OTLP export (nesting too deep included)."""
    try:
        data = decode_traces(body, content_type, config)
        if _spans_in(data) > config.max_lines:
            raise OtlpError(f"more than {config.max_lines} spans in one export", 413)
        events, spans = events_of(data, meta)
    except OtlpError:
        raise
    except RecursionError:
        raise OtlpError("not an OTLP trace export: nesting too deep") from None
    except (TypeError, AttributeError, ValueError) as exc:
        raise OtlpError(f"not an OTLP trace export: {exc}") from None
    records: list[tuple[bytes, bytes]] = []
    invalid = 0
    for event in events:
        try:
            validate_event(event)
            value = orjson.dumps(event, default=str)
        except ContractError as exc:
            invalid += 1
            log.warning("otlp: a span made an invalid event (skipped): %s", exc.reason)
            continue
        except (TypeError, RecursionError):  # orjson.JSONEncodeError: nested too deep
            invalid += 1
            log.warning("otlp: a span made an event that is not JSON (skipped)")
            continue
        if len(value) > config.max_event_bytes:
            invalid += 1
            log.warning("otlp: a span made an event of %d bytes (skipped)", len(value))
            continue
        records.append((str(event["event_id"]).encode(), value))
    return _Decoded(records, spans, len(events), invalid)


def otlp_handler(
    send: Sender,
    config: IngestConfig,
    stats: OtlpStats | None = None,
    meta: EventMeta | None = None,
    budget: InFlight | None = None,
) -> Callable[[web.Request], Awaitable[web.Response]]:
    """The ``POST /v1/traces`` handler; ``meta`` adds configured versions to every event."""
    counters = stats if stats is not None else OtlpStats()
    expected = config.token.encode() if config.token else None
    inflight = budget or InFlight.of(config.limits)

    async def handle(request: web.Request) -> web.Response:
        counters.requests += 1
        if expected is not None:
            header = request.headers.get("Authorization", "")
            given = header[7:].strip().encode() if header[:7].lower() == "bearer " else b""
            if not hmac.compare_digest(given, expected):
                return web.json_response(
                    {"error": "a bearer token is required"},
                    status=401,
                    headers={"WWW-Authenticate": 'Bearer realm="leakline"'},
                )
        with inflight.lease() as lease:
            try:
                return await _handle_body(request, lease)
            except Refused as exc:
                return refusal(exc)

    async def _handle_body(request: web.Request, lease: Lease) -> web.Response:
        content_type = request.content_type.lower()
        body = await read_body(request, config.max_body_bytes, lease, config.limits.body_timeout_s)
        try:
            decoded = await DECODER.run(decode_export, body, content_type, config, meta)
        except OtlpError as exc:
            counters.bad_requests += 1
            return _answer(exc.status, "", str(exc))
        del body
        records = decoded.records
        lease.add_items(len(records))
        counters.spans += decoded.spans
        counters.invalid += decoded.invalid
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
        counters.skipped += decoded.spans - decoded.events
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
    config = config or IngestConfig()
    budget = shared_budget(app, config.limits)
    handler = otlp_handler(send, config, counters, meta, budget)
    app.router.add_post(TRACES_PATH, handler)
    return counters


def mount_otlp_on_worker(faust_app: Any, settings: Any) -> OtlpStats:
    """``POST /v1/traces`` on the worker's web server, behind its token middleware."""
    config = IngestConfig(
        topic=settings.topics.events,
        max_event_bytes=settings.max_event_bytes,
        limits=settings.web_limits,
    )
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
    write_token: str | None = None,
    max_body_bytes: int | None = None,
    allowed_host_names: tuple[str, ...] = (),
    limits: ServerLimits | None = None,
    stop: asyncio.Event | None = None,
    ready: Callable[[int], None] | None = None,
) -> OtlpStats:
    """Run a standalone receiver until ``stop`` is set (or the task is cancelled).

    The worker's rules (``leakline.pipeline.http.auth``): the Host check against
    DNS rebinding and the bearer token (``write_token``: /v1/traces takes only it); the
    caller checks exposure (``check_exposure``)."""
    limits = limits or ServerLimits()
    config = IngestConfig(
        topic=settings.topics.events,
        max_event_bytes=settings.max_event_bytes,
        limits=limits,
    )
    if max_body_bytes:
        config = replace(config, max_body_bytes=max_body_bytes)
    sender = AiokafkaSender(settings.bootstrap, settings.security)
    app = web.Application(client_max_size=config.max_body_bytes + 1)
    hosts = allowed_hosts(host, allowed_host_names)
    if hosts is not None:
        app.middlewares.append(host_middleware(hosts))
    if token or write_token:
        app.middlewares.append(token_middleware(token, write_token))
    stats = register_otlp(app, sender, config, meta=EventMeta.from_env())
    runner = GuardedAppRunner(app, limits, access_log=None)
    await runner.setup()
    await DECODER.warm()
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
        DECODER.close()
    return stats
