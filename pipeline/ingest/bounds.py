"""Bounded work for ``/ingest`` and ``/v1/traces``: counts and shapes are checked before
any per-item work, and bytes and items in flight are capped across requests.

- ``InFlight``: one budget per server (``ServerLimits.max_inflight_*``); a request leases
  its body bytes as they arrive and its events once counted. Over it: 503 + Retry-After;
- ``read_body``: size limit, body timeout (408) and the lease, as the body streams in;
- ``json_value_bound``: an upper bound on the values a JSON document parses into, counted
  at C speed in windows, so a body of millions of tiny items is refused before it is parsed;
- ``protobuf_span_count``: the spans of an OTLP protobuf export, walked on the wire format
  and stopped past the limit, before the message is decoded.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

from aiohttp import web

from leakline.pipeline.core.http_limits import ServerLimits

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_BUDGET_KEY = web.AppKey("leakline_inflight", object)


class Refused(Exception):
    """A body refused as a whole; ``status`` is the HTTP answer."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class InFlight:
    """Bytes and items held by the requests of one server at once."""

    def __init__(self, max_bytes: int, max_items: int) -> None:
        self.max_bytes, self.max_items = max_bytes, max_items
        self.bytes = 0
        self.items = 0
        self.refused = 0

    @classmethod
    def of(cls, limits: ServerLimits) -> InFlight:
        return cls(limits.max_inflight_bytes, limits.max_inflight_items)

    def lease(self) -> Lease:
        return Lease(self)


class Lease:
    """One request's share of an ``InFlight``; give it back with ``release`` (or ``with``)."""

    def __init__(self, budget: InFlight) -> None:
        self.budget = budget
        self.bytes = 0
        self.items = 0

    def add_bytes(self, n: int) -> None:
        b = self.budget
        if b.bytes + n > b.max_bytes:
            b.refused += 1
            raise Refused(503, "the server holds as many bodies as it may: retry later")
        b.bytes += n
        self.bytes += n

    def add_items(self, n: int) -> None:
        b = self.budget
        if b.items + n > b.max_items:
            b.refused += 1
            raise Refused(503, "the server holds as many events as it may: retry later")
        b.items += n
        self.items += n

    def release(self) -> None:
        self.budget.bytes -= self.bytes
        self.budget.items -= self.items
        self.bytes = self.items = 0

    def __enter__(self) -> Lease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def shared_budget(app: web.Application, limits: ServerLimits) -> InFlight:
    """The ``InFlight`` of ``app``, made on first use: /ingest and /v1/traces share it."""
    found = app.get(_BUDGET_KEY)
    if isinstance(found, InFlight):
        return found
    budget = InFlight.of(limits)
    app[_BUDGET_KEY] = budget
    return budget


async def read_body(request: web.Request, limit: int, lease: Lease, timeout_s: float) -> bytes:
    """The body, leased from the budget as it arrives. Raises ``Refused``: 413 over
    ``limit``, 503 over the budget, 408 when it takes longer than ``timeout_s``."""
    if request.content_length is not None and request.content_length > limit:
        raise Refused(413, f"body over {limit} bytes; split it into several requests")
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(timeout_s):
            async for chunk in request.content.iter_chunked(64 * 1024):
                size += len(chunk)
                if size > limit:
                    raise Refused(413, f"body over {limit} bytes; split it into several requests")
                lease.add_bytes(len(chunk))
                chunks.append(chunk)
    except TimeoutError:
        raise Refused(408, f"the body took longer than {timeout_s:g} s") from None
    body = b"".join(chunks)
    chunks.clear()
    return body


def refusal(exc: Refused) -> web.Response:
    """The answer to a refused body; the connection is closed after a 408."""
    headers = {"Retry-After": "5"} if exc.status == 503 else None
    response = web.json_response({"error": exc.message}, status=exc.status, headers=headers)
    if exc.status in (408, 413):
        response.force_close()  # the rest of the body is not worth reading
    return response


_WINDOW = 256 * 1024  # bytes scanned per regex call: the GIL is held for ~20 ms at most


def _structure(data: bytes) -> int:
    return data.count(b",") + 2 * (data.count(b"[") + data.count(b"{"))


def json_value_bound(body: bytes, stop_after: int) -> int:
    """At least the number of values (and keys) ``body`` parses into, or a number past
    ``stop_after`` as soon as it is certain to exceed it. Every comma and opening bracket
    counts (C speed); only when that raw count is over ``stop_after`` are the ones inside
    strings taken out, window by window (the thread gives the GIL back between windows),
    stopping as soon as the count outside strings passes ``stop_after``."""
    raw = _structure(body) + 1
    if raw <= stop_after:
        return raw
    total, pos, step, size = 1, 0, _WINDOW, len(body)
    while pos < size:
        end = min(pos + step, size)
        bare = _STRING.sub(b"0", body[pos:end])
        if end < size and b'"' in bare:  # a string runs past the window: widen it
            step *= 2
            continue
        total += _structure(bare)
        if total > stop_after:
            return total
        pos, step = end, _WINDOW
    return total


def _varint(data: Any, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise ValueError("truncated varint")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def _fields(data: Any, start: int, end: int, wanted: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each length-delimited field ``wanted`` in ``data[start:end]``."""
    at = start
    while at < end:
        key, at = _varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            _, at = _varint(data, at)
        elif wire in (1, 5):
            at += 8 if wire == 1 else 4
        elif wire == 2:
            size, at = _varint(data, at)
            if number == wanted:
                yield at, at + size
            at += size
        else:
            raise ValueError(f"wire type {wire}")


def protobuf_span_bound(body: bytes, stop_after: int) -> int:
    """Resource spans, scopes and spans of an ``ExportTraceServiceRequest``
    (resource_spans=1 > scope_spans=2 > spans=2), counted on the wire format without
    decoding them; stops once past ``stop_after``. A malformed body counts what it could
    (the decoder refuses it next)."""
    view = memoryview(body)
    count = 0
    try:
        for rs_start, rs_end in _fields(view, 0, len(view), 1):
            count += 1
            for ss_start, ss_end in _fields(view, rs_start, rs_end, 2):
                count += 1
                for _ in _fields(view, ss_start, ss_end, 2):
                    count += 1
                    if count > stop_after:
                        return count
                if count > stop_after:
                    return count
            if count > stop_after:
                return count
    except ValueError:
        pass
    return count
