"""Decoding of one-document bodies (``/v1/traces``, an ``/ingest`` JSON array) in a child
process, off the server's event loop and off its GIL. NDJSON parses line by line in a
thread instead: each line gives the GIL back, and the copies to and from a child cost a
quarter of ``/ingest``'s throughput.

A thread is not enough: ``orjson.loads`` of a 14 MiB JSON document holds the GIL for
about a second, and a thread running protobuf's ``MessageToDict`` makes every system call
of the loop wait for the GIL (probes took 0.35 s). The child gets the body's bytes and
returns bytes (the events to send), so pickling costs a copy each way. One child
(``spawn``, as for the worker's batch children: forking a process with Faust's threads is
unsafe), started on first use or by ``warm``; a child that dies (killed for memory) is
replaced on the next request, and the request that lost it gets 503 with Retry-After.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from leakline.pipeline.core.procinfo import exit_with_parent
from leakline.pipeline.ingest.bounds import Refused

T = TypeVar("T")


class Decoder:
    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                # a server killed with SIGKILL does not shut its pool down: the child
                # would wait on its pipe forever
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), fn, *args)
        except BrokenProcessPool:
            self._pool = None
            raise Refused(503, "the decoder process stopped; retry the body") from None

    async def warm(self) -> None:
        """Start the child now, so the first body does not wait for it."""
        await self.run(int)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


DECODER = Decoder()  # one per process: /ingest and /v1/traces share it
