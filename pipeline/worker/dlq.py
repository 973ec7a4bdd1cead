"""The dead-letter ledger: which source records are already on the DLQ.

Dead letters are published before a batch's offsets are committed, so a crash in
between would publish them again on redelivery. Every dead letter carries its
source coordinates (``topic/partition/offset``) as key and header; before the
worker processes redelivered records it reads the tail of the DLQ and skips
sources that are already there. Only the uncommitted tail can be redelivered, so
the last ``tail`` records per DLQ partition are enough.

The ledger also remembers what this worker published since it was loaded: a batch
taken before a rebalance can be published after the reload, and its records are then
redelivered in a later batch.
"""

from __future__ import annotations

from collections.abc import Iterable

from leakline.pipeline.core.config import KafkaSecurity
from leakline.pipeline.worker.dead_letters import read_dead_letters

DEFAULT_TAIL = 20000
# what a worker remembers beyond the loaded tail; a set of short strings, so a
# worker that runs for weeks between rebalances stays at a few MB
MAX_REMEMBERED = 100_000


class Ledger:
    """Source keys known to be on the DLQ: the loaded tail plus what was published since.

    Insertion-ordered and capped at ``limit``; the oldest keys go first, and only the
    uncommitted tail can be redelivered anyway.
    """

    def __init__(self, limit: int = MAX_REMEMBERED) -> None:
        self.limit = limit
        self._keys: dict[str, None] = {}
        self.stale = True  # nothing loaded yet

    def __contains__(self, source: object) -> bool:
        return source in self._keys

    def __len__(self) -> int:
        return len(self._keys)

    def load(self, sources: Iterable[str]) -> None:
        """Replace the contents with what the DLQ holds now."""
        self._keys = dict.fromkeys(sources)
        self.stale = False
        self._trim()

    def add(self, sources: Iterable[str]) -> None:
        for source in sources:
            self._keys.pop(source, None)
            self._keys[source] = None
        self._trim()

    def _trim(self) -> None:
        excess = len(self._keys) - self.limit
        if excess > 0:
            for source in list(self._keys)[:excess]:
                del self._keys[source]


async def recorded_sources(
    bootstrap: str, dlq_topic: str, tail: int = DEFAULT_TAIL, security: KafkaSecurity | None = None
) -> set[str]:
    """Source keys of the last ``tail`` dead letters in each DLQ partition."""
    return {
        letter.source
        async for letter in read_dead_letters(bootstrap, dlq_topic, tail=tail, security=security)
        if letter.source
    }
