"""The connection cap and header timeout of ``ServerLimits`` (``http_limits``), applied to
an aiohttp server by wrapping the protocol of each connection it makes."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, cast

from aiohttp import web

from leakline.pipeline.core.http_limits import ServerLimits

_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\n"
    b"Content-Length: 0\r\n\r\n"
)
_HEAD_END = b"\r\n\r\n"


@dataclass
class GuardStats:
    open: int = 0
    refused: int = 0  # over the cap with nothing to evict: 503
    evicted: int = 0  # closed to make room: still waiting for a request head
    header_timeouts: int = 0


class ConnectionGuard:
    """Counts the open connections of one server and applies the cap and header timeout."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self.stats = GuardStats()
        self._open: dict[_Guarded, None] = {}
        self._waiting: dict[_Guarded, None] = {}  # no request head yet; oldest first

    def wrap(self, server: web.Server) -> web.Server:
        """A protocol factory that guards each connection ``server`` makes."""
        return cast(web.Server, _GuardedServer(server, self))

    def _admit(self, conn: _Guarded) -> bool:
        if len(self._open) >= self.limits.max_connections:
            oldest = next(iter(self._waiting), None)
            if oldest is None:
                self.stats.refused += 1
                return False
            self.stats.evicted += 1
            oldest.close(_BUSY)
        self._open[conn] = None
        self._waiting[conn] = None
        self.stats.open = len(self._open)
        return True

    def _headed(self, conn: _Guarded) -> None:
        self._waiting.pop(conn, None)

    def _gone(self, conn: _Guarded) -> None:
        self._open.pop(conn, None)
        self._waiting.pop(conn, None)
        self.stats.open = len(self._open)


class _GuardedServer:
    """aiohttp's ``Server`` (the protocol factory) with each protocol wrapped."""

    def __init__(self, server: web.Server, guard: ConnectionGuard) -> None:
        self._server = server
        self._guard = guard

    def __call__(self) -> _Guarded:
        return _Guarded(self._server(), self._guard)

    def __getattr__(self, name: str) -> Any:  # shutdown, pre_shutdown, connections ...
        return getattr(self._server, name)


class _Guarded(asyncio.Protocol):
    """Forwards to aiohttp's protocol once admitted; closes a connection whose first
    request head is not complete within the header timeout."""

    def __init__(self, inner: asyncio.Protocol, guard: ConnectionGuard) -> None:
        self._inner = inner
        self._guard = guard
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._tail = b""
        self._admitted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)
        if not self._guard._admit(self):
            self._transport.write(_BUSY)
            self._transport.close()
            return
        self._admitted = True
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self._guard.limits.header_timeout_s, self._too_slow)
        self._inner.connection_made(transport)

    def _too_slow(self) -> None:
        self._timer = None
        self._guard.stats.header_timeouts += 1
        self.close(_TIMEOUT)

    def close(self, answer: bytes) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._guard._headed(self)  # not evictable twice
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(answer)
            self._transport.close()

    def data_received(self, data: bytes) -> None:
        if not self._admitted:
            return
        if self._timer is not None:
            seen = self._tail + data
            if _HEAD_END in seen:
                self._timer.cancel()
                self._timer = None
                self._tail = b""
                self._guard._headed(self)
            else:
                self._tail = seen[-3:]
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._admitted else None

    def pause_writing(self) -> None:
        if self._admitted:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._admitted:
            self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._admitted:
            return
        self._guard._gone(self)
        self._inner.connection_lost(exc)


class GuardedAppRunner(web.AppRunner):
    """``web.AppRunner`` whose server applies ``ServerLimits`` to every connection."""

    def __init__(self, app: web.Application, limits: ServerLimits, **kwargs: Any) -> None:
        kwargs.setdefault("keepalive_timeout", limits.idle_timeout_s)
        # after an answer that did not read the whole body (401, 408, 413), aiohttp reads
        # and drops the rest for at most this long before it closes (default 10 s)
        kwargs.setdefault("lingering_time", 2.0)
        super().__init__(app, **kwargs)
        self.guard = ConnectionGuard(limits)

    async def _make_server(self) -> web.Server:
        return self.guard.wrap(await super()._make_server())


def guard_faust_web(faust_app: Any, limits: ServerLimits) -> ConnectionGuard:
    """Serve the worker's Faust web server through a ``GuardedAppRunner`` (before it starts).

    Faust builds its runner in ``Web.__init__`` and only uses it in ``start_server``."""
    web_driver = faust_app.web
    runner = GuardedAppRunner(web_driver.web_app, limits, access_log=None)
    web_driver._runner = runner
    return runner.guard
