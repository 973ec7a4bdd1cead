"""The gateway event contract v1: decoding and JSON Schema validation.

Every reason a payload is rejected is a short human-readable string that travels
with the raw bytes to the dead-letter topic.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

SCHEMA_RESOURCE = "schemas/gateway_event.v1.json"
DEFAULT_MAX_EVENT_BYTES = 4 * 1024 * 1024


class ContractError(ValueError):
    """A payload that is not a valid gateway event v1. ``reason`` is for the DLQ."""

    def __init__(self, reason: str, event_id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.event_id = event_id


@cache
def event_schema() -> dict[str, Any]:
    text = resources.files("pipeline").joinpath(SCHEMA_RESOURCE).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator() -> Draft202012Validator:
    schema = event_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def validate_event(event: Any) -> dict[str, Any]:
    """Return ``event`` if it is a valid gateway event v1, else raise ContractError."""
    if not isinstance(event, dict):
        raise ContractError(f"event must be a JSON object, got {type(event).__name__}")
    event_id = event.get("event_id") if isinstance(event.get("event_id"), str) else None
    error = best_match(_validator().iter_errors(event))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        raise ContractError(f"schema violation at {where}: {_short(error.message)}", event_id)
    return event


def decode_event(raw: bytes, max_bytes: int = DEFAULT_MAX_EVENT_BYTES) -> dict[str, Any]:
    """Decode and validate one payload. Raises ContractError with the reason."""
    if len(raw) > max_bytes:
        raise ContractError(f"event too large: {len(raw)} bytes > limit {max_bytes}")
    try:
        event = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ContractError(f"not valid JSON: {_short(str(exc))}") from None
    return validate_event(event)


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[:limit] + "…"
