"""Named crash points for crash-safety tests.

``LEAKLINE_FAILPOINT=after_publish@3`` makes the worker die (``os._exit``, no
cleanup, like ``kill -9``) the third time it reaches ``after_publish``. Unset in
production, where ``hit`` costs one dict lookup.
"""

from __future__ import annotations

import os
from collections import Counter

ENV = "LEAKLINE_FAILPOINT"
_hits: Counter[str] = Counter()


def _armed() -> tuple[str, int] | None:
    spec = os.environ.get(ENV)
    if not spec:
        return None
    name, _, count = spec.partition("@")
    return name, int(count or 1)


def hit(name: str) -> None:
    armed = _armed()
    if armed is None or armed[0] != name:
        return
    _hits[name] += 1
    if _hits[name] >= armed[1]:
        os._exit(99)
