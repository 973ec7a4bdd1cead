"""Named crash and pause points for crash-safety and backpressure tests.

``LEAKLINE_FAILPOINT=after_publish@3`` makes the worker die (``os._exit``, no
cleanup, like ``kill -9``) the third time it reaches ``after_publish``.
``LEAKLINE_FAILPOINT=before_finish~0.5`` makes it wait 0.5 s every time it reaches
``before_finish`` (``await pause``; ``delay`` gives the seconds), which caps a worker's
throughput at a known rate. Unset in production, where ``hit`` and ``pause`` cost one
dict lookup.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter

ENV = "LEAKLINE_FAILPOINT"
_hits: Counter[str] = Counter()


def _spec() -> str:
    return os.environ.get(ENV) or ""


def hit(name: str) -> None:
    spec = _spec()
    if "~" in spec:
        return  # a pause point, see delay
    point, _, count = spec.partition("@")
    if point != name:
        return
    _hits[name] += 1
    if _hits[name] >= int(count or 1):
        os._exit(99)


def delay(name: str) -> float:
    """Seconds to wait at ``name`` (0.0 unless ``LEAKLINE_FAILPOINT=name~SECONDS``)."""
    point, sep, seconds = _spec().partition("~")
    return float(seconds) if sep and point == name else 0.0


async def pause(name: str) -> None:
    """Wait ``delay(name)`` seconds on the event loop; return at once when unset."""
    seconds = delay(name)
    if seconds:
        await asyncio.sleep(seconds)
