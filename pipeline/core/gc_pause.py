"""Python's cyclic garbage collector around batch work.

Decoding a batch of events allocates hundreds of thousands of small containers that all
stay alive until the batch is written. Each allocation burst triggers collections that
traverse everything alive (the batch, and the whole process), so the collector can cost
as much as the work itself (measured: ``orjson.loads`` of a retained batch 2x slower,
the detectors 1.5x). The batch's objects are acyclic and freed by reference counting
when it is done, so pausing the collector for the batch and resuming afterwards loses
nothing; cyclic garbage made meanwhile is collected on the next pass.

``paused_gc`` pauses it around one call (``process_batch``). A process whose whole job
is batches (a batch child) does better with ``BatchCollector``: the collector stays off
and runs between batches, when the last batch is gone. Re-enabled at the end of
``process_batch``, the first collection still found that batch's rows, live counts and
Arrow table alive and walked them, twice (young, then middle generation): measured with
``gc.callbacks`` in the harness's batch children, ~0.2 s of collector CPU per 30k events.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic collection inside the block; the previous state is restored after it."""
    was_enabled = gc.isenabled()
    if was_enabled:
        gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# The young generation's threshold in a worker's main process (Python's default is 700).
# Each young collection walks every young object still alive, and in the worker's loop
# that is mostly the batches in flight (Faust's messages): at 700 it walked them about 20
# times per batch. Measured with ``gc.callbacks`` over the harness's 60k events: collector
# CPU ~0.37 s at 700, ~0.09 s at 50,000. Cyclic garbage waits up to 50,000 allocations.
WORKER_YOUNG_THRESHOLD = 50_000


def settle_long_running(young_threshold: int = WORKER_YOUNG_THRESHOLD) -> None:
    """After start-up of a long-running process: what exists now lives as long as the
    process (frozen: full collections stop walking it), and young collections are rarer.

    Thawed again at exit: the collections of interpreter shutdown never look at frozen
    objects, so cycles among them (module globals) outlived it, and DuckDB's extension
    printed ~100 lines of ``nanobind: leaked ...`` on every worker shutdown (issue 32)."""
    gc.freeze()
    atexit.register(gc.unfreeze)  # atexit runs before the modules are torn down
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young_threshold, middle, old)


# a full collection (the oldest generation too) every this many batches; the others
# collect the two young generations, which hold what was made since the last batch
FULL_COLLECTION_EVERY = 64


class BatchCollector:
    """The collector of a process that only runs batches: off, and run between them.

    ``start()`` once, after everything the process keeps was loaded: that is frozen out
    of the collector's sight and the collector turned off. ``between_batches()`` before
    each batch: the previous batch's objects are freed by then (reference counting), so a
    collection walks only what survived it, and cycles never wait longer than one batch.
    """

    def __init__(self, full_every: int = FULL_COLLECTION_EVERY) -> None:
        self.full_every = full_every
        self.batches = 0

    def start(self) -> None:
        gc.freeze()
        gc.disable()

    def between_batches(self) -> int:
        """Collect; returns the number of unreachable objects found."""
        self.batches += 1
        return gc.collect(2 if self.batches % self.full_every == 0 else 1)
