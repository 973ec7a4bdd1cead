"""A TCP proxy that can make the broker "go away", and a Tansu broker behind it.

Kafka clients connect to the address the broker *advertises*, not only to the
bootstrap address, so ``ProxiedBroker`` starts Tansu listening on one port and
advertising the proxy's port: every connection, including the ones opened after
the metadata exchange, then goes through the proxy.

``TcpProxy.pause()`` closes every open connection and closes the listening socket,
so new connections are refused (ECONNREFUSED), exactly as if the broker host had
gone away; ``resume()`` listens on the same port again. ``refuse_new()`` is the partial
outage: open connections keep working, new ones are refused.

Thread based (one accept thread, two pump threads per connection): a Kafka client
opens only a handful of connections, and the proxy must keep working while the
test's main thread blocks in ``time.sleep`` or ``subprocess.wait``.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from leakline.pipeline.kafka.broker import free_port, resolve_broker_binary, wait_for_port

LOCALHOST = "127.0.0.1"


class _Pair:
    """One client connection and its upstream connection."""

    def __init__(self, client: socket.socket, upstream: socket.socket) -> None:
        self.client = client
        self.upstream = upstream
        self._closed = False
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for sock in (self.client, self.upstream):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()


@dataclass
class TcpProxy:
    """Forward 127.0.0.1:``port`` to ``target_host``:``target_port``."""

    target_port: int
    target_host: str = LOCALHOST
    port: int = 0
    accepted: int = 0  # client connections accepted so far
    refused_upstream: int = 0  # accepted but the target was not listening
    bytes_to_target: int = 0  # client -> target bytes forwarded so far
    _pairs: set[_Pair] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _listener: socket.socket | None = None
    _accept_thread: threading.Thread | None = None
    _stop_accepting: threading.Event = field(default_factory=threading.Event)

    @property
    def address(self) -> str:
        return f"{LOCALHOST}:{self.port}"

    @property
    def paused(self) -> bool:
        return self._accept_thread is None

    # ------------------------------------------------------------ lifecycle

    def start(self) -> TcpProxy:
        """Listen (on ``port``, or a free one) and forward; also used by ``resume``."""
        if self._accept_thread is not None:
            return self
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        deadline = time.monotonic() + 10
        while True:
            try:
                listener.bind((LOCALHOST, self.port))
                break
            except OSError:
                # the previous listener's port may take a moment to be free again
                if time.monotonic() > deadline:
                    listener.close()
                    raise
                time.sleep(0.05)
        listener.listen(128)
        listener.settimeout(0.1)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._stop_accepting = threading.Event()
        self._accept_thread = threading.Thread(
            target=self._accept_loop, args=(listener, self._stop_accepting), daemon=True
        )
        self._accept_thread.start()
        return self

    def refuse_new(self) -> None:
        """Refuse new connections but keep the open ones working (a partial outage)."""
        thread, self._accept_thread = self._accept_thread, None
        if thread is not None:
            self._stop_accepting.set()
            thread.join(5)
        self._listener = None

    def pause(self) -> None:
        """Refuse new connections and cut every open one (both directions)."""
        self.refuse_new()
        with self._lock:
            pairs, self._pairs = set(self._pairs), set()
        for pair in pairs:
            pair.close()

    def resume(self) -> None:
        self.start()

    def stop(self) -> None:
        self.pause()

    @contextlib.contextmanager
    def outage(self, seconds: float) -> Iterator[None]:
        """``with proxy.outage(5): ...`` - paused while the body runs, at least ``seconds``."""
        started = time.monotonic()
        self.pause()
        try:
            yield
            remaining = seconds - (time.monotonic() - started)
            if remaining > 0:
                time.sleep(remaining)
        finally:
            self.resume()

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ forwarding

    def _accept_loop(self, listener: socket.socket, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                try:
                    client, _ = listener.accept()
                except TimeoutError:
                    continue
                except OSError:
                    return
                if stop.is_set():
                    client.close()
                    return
                self.accepted += 1
                client.settimeout(None)
                try:
                    upstream = socket.create_connection((self.target_host, self.target_port), 5)
                    upstream.settimeout(None)
                except OSError:
                    # nothing behind the proxy: the client sees its connection closed
                    self.refused_upstream += 1
                    client.close()
                    continue
                pair = _Pair(client, upstream)
                with self._lock:
                    self._pairs.add(pair)
                for src, dst in ((client, upstream), (upstream, client)):
                    threading.Thread(
                        target=self._pump, args=(pair, src, dst, src is client), daemon=True
                    ).start()
        finally:
            with contextlib.suppress(OSError):
                listener.close()

    def _pump(self, pair: _Pair, src: socket.socket, dst: socket.socket, upstream: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
                if upstream:
                    self.bytes_to_target += len(data)
        except OSError:
            pass
        finally:
            pair.close()
            with self._lock:
                self._pairs.discard(pair)


@dataclass
class ProxiedBroker:
    """Tansu listening on a private port and advertising a ``TcpProxy`` in front of it.

    ``bootstrap`` is the proxy's address: clients never talk to Tansu directly, so
    ``proxy.pause()`` is a broker outage for them while Tansu keeps its data. With
    ``proxy_port`` fixed, a client can be pointed at the address before anything
    listens there (call ``start_broker``/``proxy.start`` later).
    """

    log_path: Path | None = None
    proxy_port: int = 0
    broker_port: int = 0
    process: subprocess.Popen[bytes] | None = None
    proxy: TcpProxy = field(init=False)

    def __post_init__(self) -> None:
        self.proxy_port = self.proxy_port or free_port()
        self.broker_port = self.broker_port or free_port()
        self.proxy = TcpProxy(self.broker_port, port=self.proxy_port)

    @property
    def bootstrap(self) -> str:
        return f"{LOCALHOST}:{self.proxy_port}"

    @property
    def direct_bootstrap(self) -> str:
        """Tansu itself (its metadata still advertises the proxy)."""
        return f"{LOCALHOST}:{self.broker_port}"

    def start_broker(self, timeout: float = 15.0) -> None:
        binary = resolve_broker_binary()
        cmd = [
            binary,
            "broker",
            "--listener-url",
            f"tcp://{LOCALHOST}:{self.broker_port}",
            "--advertised-listener-url",
            f"tcp://{LOCALHOST}:{self.proxy_port}",
        ]
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.process = subprocess.Popen(cmd, stdout=log, stderr=log, start_new_session=True)
        finally:
            if self.log_path:
                log.close()  # type: ignore[union-attr]
        if not wait_for_port(LOCALHOST, self.broker_port, timeout):
            self.stop()
            raise RuntimeError(f"tansu did not open port {self.broker_port} within {timeout}s")

    def start(self) -> ProxiedBroker:
        self.start_broker()
        self.proxy.start()
        return self

    def stop(self) -> None:
        self.proxy.stop()
        proc, self.process = self.process, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def __enter__(self) -> ProxiedBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
