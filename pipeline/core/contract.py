"""The gateway event contract v1: decoding and JSON Schema validation.

Every reason a payload is rejected is a short human-readable string that travels
with the raw bytes to the dead-letter topic.
"""

from __future__ import annotations

import json
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

SCHEMA_RESOURCE = "schemas/gateway_event.v1.json"
DEFAULT_MAX_EVENT_BYTES = 4 * 1024 * 1024


class Rejection(StrEnum):
    """Why a payload went to the DLQ: the words its reason starts with.

    The names are the ``reason`` label of ``leakline_dead_letters_total`` (lower case),
    so the label set stays fixed whatever details a reason carries.
    """

    NOT_JSON = "not valid JSON"
    NOT_OBJECT = "event must be a JSON object"
    SCHEMA = "schema violation"
    TOO_LARGE = "event too large"
    INTERNAL = "internal error while processing"


def rejection_of(reason: str) -> str:
    """The metric label for a DLQ reason: ``schema``, ``not_json``, …, or ``other``."""
    for rejection in Rejection:
        if reason.startswith(rejection.value):
            return rejection.name.lower()
    return "other"


class ContractError(ValueError):
    """A payload that is not a valid gateway event v1. ``reason`` is for the DLQ."""

    def __init__(self, reason: str, event_id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.event_id = event_id


@cache
def event_schema() -> dict[str, Any]:
    text = resources.files("leakline.pipeline").joinpath(SCHEMA_RESOURCE).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator() -> Draft202012Validator:
    schema = event_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


_APIS = frozenset({"chat.completions", "responses", "messages"})
_REASONING_FIELDS = frozenset({"reasoning", "reasoning_content", None})
# optional object fields -> their optional string members
_STRING_MEMBERS = {
    "engine": ("name", "version"),
    "gateway": ("name", "version"),
    "model": ("name", "revision"),
    "chat_template": ("name", "hash"),
    "parsers": ("reasoning", "tool_call"),
}


def _opt_str(obj: dict[str, Any], key: str) -> bool:
    value = obj.get(key)
    return value is None or type(value) is str


def _opt_count(obj: dict[str, Any], key: str) -> bool:
    value = obj.get(key)
    return value is None or (type(value) is int and value >= 0)


def certainly_valid(event: Any) -> bool:
    """A fast check that mirrors gateway_event.v1.json.

    jsonschema walks every chunk of a long stream and costs about a millisecond
    per event, which would cap a worker near 1k events/s. This check is
    conservative: True means the schema accepts the event; False means "ask
    jsonschema", which then decides and gives the reason. A test keeps the two
    in agreement.
    """
    if type(event) is not dict:
        return False
    get = event.get
    event_id = get("event_id")
    if type(event_id) is not str or not 1 <= len(event_id) <= 256:
        return False
    api = get("api")
    if type(api) is not str or api not in _APIS or type(get("request")) is not dict:
        return False
    has_response, has_chunks = "response" in event, "chunks" in event
    if has_response == has_chunks:
        return False
    if has_response and type(event["response"]) is not dict:
        return False
    if has_chunks:
        chunks = event["chunks"]
        if type(chunks) is not list or not all(type(c) is dict for c in chunks):
            return False
    if "ts" in event and type(event["ts"]) is not str:
        return False
    if "stream" in event and type(event["stream"]) is not bool:
        return False
    for name, members in _STRING_MEMBERS.items():
        if name in event:
            obj = event[name]
            if type(obj) is not dict or not all(_opt_str(obj, m) for m in members):
                return False
    if "client" in event:
        client = event["client"]
        if type(client) is not dict:
            return False
        field, renders = client.get("reasoning_field"), client.get("renders_phases")
        if not (field is None or (type(field) is str and field in _REASONING_FIELDS)):
            return False
        if not (renders is None or type(renders) is bool):
            return False
    if "remediation" in event:
        rem = event["remediation"]
        if type(rem) is not dict or not (_opt_str(rem, "action") and _opt_str(rem, "outcome")):
            return False
        if not (_opt_count(rem, "attempts") and _opt_count(rem, "extra_tokens")):
            return False
    return True


def validate_event(event: Any) -> dict[str, Any]:
    """Return ``event`` if it is a valid gateway event v1, else raise ContractError."""
    if certainly_valid(event):
        return event  # type: ignore[no-any-return]
    if not isinstance(event, dict):
        raise ContractError(f"{Rejection.NOT_OBJECT}, got {type(event).__name__}")
    event_id = event.get("event_id") if isinstance(event.get("event_id"), str) else None
    error = best_match(_validator().iter_errors(event))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        raise ContractError(f"{Rejection.SCHEMA} at {where}: {_short(error.message)}", event_id)
    return event


def decode_event(raw: bytes, max_bytes: int = DEFAULT_MAX_EVENT_BYTES) -> dict[str, Any]:
    """Decode and validate one payload. Raises ContractError with the reason."""
    if len(raw) > max_bytes:
        raise ContractError(f"{Rejection.TOO_LARGE}: {len(raw)} bytes > limit {max_bytes}")
    try:
        event = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ContractError(f"{Rejection.NOT_JSON}: {_short(str(exc))}") from None
    return validate_event(event)


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[:limit] + "…"
