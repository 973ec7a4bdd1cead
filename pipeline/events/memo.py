"""The one policy of the per-process memos on the worker's per-event path.

Version labels, redacted short strings, version blocks, request configurations and
history turns repeat from event to event, so each is looked up in a plain dict before it
is computed. Callers keep the lookup inline (``memo.get(key)``: a call per event would
cost more than it saves) and store misses through ``remember``, which bounds every memo
the same way: when it is full it is emptied, so memory stays flat however many distinct
values a fleet sends.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def remember(memo: dict[K, V], key: K, value: V, limit: int) -> V:
    """Store ``value`` under ``key`` in ``memo`` (emptied first when it holds ``limit``)."""
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value
