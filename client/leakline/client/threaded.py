"""``ThreadedLeakProducer``: the same producer for synchronous gateways.

It runs a ``LeakProducer`` on its own event loop in a daemon thread, so a sync
gateway (Flask, Django, a LiteLLM SDK caller, LiteLLM's thread-pool callbacks)
can ``submit`` from any thread without an event loop of its own.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import threading
from collections.abc import Mapping
from typing import Any

from leakline.client.sender import LeakProducer, ProducerConfig, ProducerStats


class ThreadedLeakProducer:
    """``submit`` from any thread; ``close(timeout_s)`` flushes and stops the thread."""

    def __init__(self, config: ProducerConfig | None = None, *, close_at_exit: bool = True) -> None:
        self.inner = LeakProducer(config)
        self._loop = asyncio.new_event_loop()
        started = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(started,), name="leakline-producer", daemon=True
        )
        self._thread.start()
        started.wait(10)
        if close_at_exit:
            atexit.register(self.close, 5.0)

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self.inner.start())
        started.set()
        self._loop.run_forever()
        with contextlib.suppress(Exception):
            self._loop.run_until_complete(self._loop.shutdown_asyncgens())
        self._loop.close()

    @property
    def config(self) -> ProducerConfig:
        return self.inner.config

    @property
    def stats(self) -> ProducerStats:
        return self.inner.stats

    def submit(self, event: Mapping[str, Any] | bytes, key: bytes | None = None) -> bool:
        """Queue one event; never blocks, never raises. False when it was dropped."""
        return self.inner.submit(event, key)

    def flush(self, timeout_s: float = 10.0) -> bool:
        if not self._thread.is_alive():
            return False
        future = asyncio.run_coroutine_threadsafe(self.inner.flush(timeout_s), self._loop)
        try:
            return future.result(timeout_s + 1)
        except Exception:
            return False

    def close(self, timeout_s: float = 10.0) -> ProducerStats:
        """Flush for at most ``timeout_s``, then stop the thread. Safe to call twice."""
        if self._thread.is_alive():
            future = asyncio.run_coroutine_threadsafe(self.inner.close(timeout_s), self._loop)
            with contextlib.suppress(Exception):
                future.result(timeout_s + 10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        with contextlib.suppress(Exception):
            atexit.unregister(self.close)
        return self.inner.stats
