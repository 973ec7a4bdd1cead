"""JSON in and out: orjson when it is installed (``leakline-client[fast]``), else the stdlib."""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - depends on the environment
    orjson = None  # type: ignore[assignment]


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON; values JSON cannot hold are written with ``str``."""
    if orjson is not None:
        return orjson.dumps(value, default=str)
    return json.dumps(value, default=str, ensure_ascii=False, separators=(",", ":")).encode()


def loads(raw: bytes | str) -> Any:
    """Parse JSON; raises ValueError (both libraries' decode errors are ValueErrors)."""
    if orjson is not None:
        return orjson.loads(raw)
    return json.loads(raw)
