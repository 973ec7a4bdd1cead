"""The gateway event contract v1: decoding and JSON Schema validation.

Every reason a payload is rejected is a short human-readable string that travels
with the raw bytes to the dead-letter topic.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import orjson

# the contract's schema and checks live in leakline-client, which gateways validate with too
from leakline.client import contract as _client
from leakline.client.contract import (
    INT64_MAX,
    ContractError,
    certainly_valid,
    event_schema,
    validate_event,
)
from leakline.pipeline.core.config import MAX_EVENT_BYTES

DEFAULT_MAX_EVENT_BYTES = MAX_EVENT_BYTES


class Rejection(StrEnum):
    """Why a payload went to the DLQ: the words its reason starts with.

    The names are the ``reason`` label of ``leakline_dead_letters_total`` (lower case),
    so the label set stays fixed whatever details a reason carries.
    """

    NOT_JSON = "not valid JSON"
    NOT_OBJECT = _client.NOT_OBJECT
    SCHEMA = _client.SCHEMA_VIOLATION
    TOO_LARGE = "event too large"
    INTERNAL = "internal error while processing"


def rejection_of(reason: str) -> str:
    """The metric label for a DLQ reason: ``schema``, ``not_json``, …, or ``other``."""
    for rejection in Rejection:
        if reason.startswith(rejection.value):
            return rejection.name.lower()
    return "other"


__all__ = [
    "DEFAULT_MAX_EVENT_BYTES",
    "INT64_MAX",
    "ContractError",
    "Rejection",
    "certainly_valid",
    "decode_event",
    "event_schema",
    "rejection_of",
    "validate_event",
]


def _validator() -> Any:
    """The strict JSON Schema validator (jsonschema is a dependency of leakline)."""
    return _client.schema_validator()


def decode_event(raw: bytes, max_bytes: int = DEFAULT_MAX_EVENT_BYTES) -> dict[str, Any]:
    """Decode and validate one payload. Raises ContractError with the reason."""
    if len(raw) > max_bytes:
        raise ContractError(f"{Rejection.TOO_LARGE}: {len(raw)} bytes > limit {max_bytes}")
    try:
        event = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ContractError(f"{Rejection.NOT_JSON}: {_short(str(exc))}") from None
    if certainly_valid(event):  # the usual event: skip a call level on the hot path
        return event  # type: ignore[no-any-return]
    return validate_event(event)


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[:limit] + "…"
