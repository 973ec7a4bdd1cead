"""``/healthz`` served from a small process of its own, judged by the loop's heartbeat.

The worker's web server answers ``/healthz`` on the Faust event loop. While the worker
consumes, stores and ingests at full speed on two cores, that loop runs one busy
callback after another (aiokafka's fetcher and sender, the web handlers, 40-170 ms
each, measured) and a probe waits behind them: up to ~0.4 s with 4 x 30 MiB bodies
ingested and consumed at once (benchmarks/hostile_http.py). A probe with a short timeout
would then restart a worker that is only busy. A thread in the worker does not escape
it: it waits for the GIL behind the parsing threads and the loop (worst ~140 ms).

So a second listener answers from a child process: on by default with ``--web``, at the
web port + 1 (``--health-port PORT`` elsewhere, ``--no-health-port`` for none). It does not answer a
constant 200: a task on the loop stamps a heartbeat (``time.monotonic``, in shared
memory) every ``HEARTBEAT_S``, and the answer is 200 while the newest stamp is younger
than ``stale_s`` (the loop still runs its tasks), 503 once it is older (the loop is stuck:
restart the worker). Before the loop's first beat (start-up) the answer is 200 with
``"starting": true``; readiness stays ``/readyz`` on the web server. The child exits when
the worker does (it watches its parent), so it never answers for a dead worker.

One connection at a time, each with a short socket timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import socket
import time
from typing import TYPE_CHECKING, Any

from leakline.pipeline.core.errors import LeaklineError

if TYPE_CHECKING:
    from leakline.pipeline.core.config import Settings

log = logging.getLogger(__name__)

HEARTBEAT_S = 0.1  # how often the loop stamps the heartbeat
STALE_S = 10.0  # a heartbeat older than this: the loop is stuck
READ_TIMEOUT_S = 0.5  # per connection: a slow client delays the next probe by at most this
PARENT_CHECK_S = 1.0  # the child looks this often whether the worker still runs
MAX_HEAD = 4096
SPAWN = multiprocessing.get_context("spawn")  # the worker's loop and threads stay behind


class Heartbeat:
    """The newest time the event loop ran its heartbeat task (``time.monotonic``, which
    every process on the machine shares), in shared memory; negative before the first."""

    def __init__(self) -> None:
        self.stamp: Any = SPAWN.RawValue("d", -1.0)

    def beat(self) -> None:
        self.stamp.value = time.monotonic()

    def age(self) -> float | None:
        last = float(self.stamp.value)
        return None if last < 0 else time.monotonic() - last

    async def run(self, interval: float = HEARTBEAT_S) -> None:
        while True:
            self.beat()
            await asyncio.sleep(interval)


def answer(path: bytes, heartbeat: Heartbeat, stale_s: float) -> tuple[int, bytes]:
    """(status, JSON body) for a request path."""
    if path.split(b"?", 1)[0] != b"/healthz":
        return 404, b'{"error": "only /healthz is served here"}'
    age = heartbeat.age()
    if age is None:
        return 200, b'{"alive": true, "starting": true}'
    alive = age < stale_s
    body = {"alive": alive, "loop_heartbeat_age_s": round(age, 3), "stale_after_s": stale_s}
    return (200 if alive else 503), json.dumps(body).encode()


REASONS = {200: b"OK", 404: b"Not Found", 405: b"Method Not Allowed", 503: b"Service Unavailable"}


class LivenessServer:
    """``GET /healthz`` on ``host:port`` from a child process. The socket is bound here,
    so a taken port fails the worker at start-up with a clear error."""

    def __init__(
        self, host: str, port: int, heartbeat: Heartbeat, stale_s: float = STALE_S
    ) -> None:
        try:
            self.sock = socket.create_server((host, port), backlog=64)
        except OSError as exc:
            raise LeaklineError(
                f"cannot listen for health probes on {host}:{port}: {exc}",
                hint="choose a free --health-port",
            ) from exc
        self.port: int = self.sock.getsockname()[1]
        self.process = SPAWN.Process(
            target=serve,
            args=(self.sock, heartbeat, stale_s, os.getpid()),
            name="leakline-liveness",
            daemon=True,
        )

    def start(self) -> LivenessServer:
        self.process.start()
        self.sock.close()  # the child holds its own copy
        return self

    def close(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(5)


def health_port(settings: Settings) -> tuple[int | None, bool]:
    """(port, chosen explicitly): the one asked for, else web port + 1 with the web
    server, else none."""
    if settings.health_off:
        return None, False
    if settings.health_port is not None:
        return settings.health_port, True
    if settings.web_enabled and settings.web_port < 65535:
        return settings.web_port + 1, False
    return None, False


def start_liveness(settings: Settings) -> Heartbeat | None:
    """Start the health listener, if any, and return the heartbeat the loop must stamp.
    A port asked for that is taken fails the worker; the derived default only warns, so a
    neighbour on web port + 1 never stops a worker from starting."""
    port, explicit = health_port(settings)
    if port is None:
        return None
    heartbeat = Heartbeat()
    try:
        LivenessServer(settings.web_host, port, heartbeat).start()
    except LeaklineError as exc:
        if explicit:
            raise
        log.warning("%s; no separate health listener (set --health-port PORT)", exc)
        return None
    log.info("health probes: GET http://%s:%d/healthz", settings.web_host, port)
    return heartbeat


def serve(sock: socket.socket, heartbeat: Heartbeat, stale_s: float, parent: int) -> None:
    """The child: answer probes until the worker is gone."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the worker decides, we follow
    sock.settimeout(PARENT_CHECK_S)
    while os.getppid() == parent:
        try:
            conn, _ = sock.accept()
        except TimeoutError:
            continue
        except OSError:
            time.sleep(0.01)  # e.g. out of file descriptors: do not spin
            continue
        with conn, contextlib.suppress(OSError):  # the client went away or was too slow
            _one(conn, heartbeat, stale_s)


def _one(conn: socket.socket, heartbeat: Heartbeat, stale_s: float) -> None:
    conn.settimeout(READ_TIMEOUT_S)
    deadline = time.monotonic() + READ_TIMEOUT_S
    head = b""
    while b"\r\n\r\n" not in head and len(head) < MAX_HEAD:
        if time.monotonic() > deadline:
            return
        chunk = conn.recv(MAX_HEAD)
        if not chunk:
            break
        head += chunk
    parts = head.split(b"\r\n", 1)[0].split(b" ")
    if len(parts) < 2:
        return
    if parts[0] not in (b"GET", b"HEAD"):
        status, body = 405, b'{"error": "GET /healthz"}'
    else:
        status, body = answer(parts[1], heartbeat, stale_s)
    conn.sendall(
        b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
        b"Cache-Control: no-store\r\nConnection: close\r\n\r\n%s"
        % (status, REASONS[status], len(body), b"" if parts[0] == b"HEAD" else body)
    )
