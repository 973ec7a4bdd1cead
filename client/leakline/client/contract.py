"""The gateway event contract v1: the JSON Schema and the checks against it.

``schemas/gateway_event.v1.json`` is the published contract (the repository keeps it in
``pipeline/schemas/``; this package ships it). The leakline worker validates with the
same functions. ``validate_event`` needs ``jsonschema`` (``leakline-client[validate]``)
only for events the fast check cannot vouch for; without it such events get a light
structural check here and the exact one in the worker, which dead-letters with a reason.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

SCHEMA_RESOURCE = "schemas/gateway_event.v1.json"
APIS = ("chat.completions", "responses", "messages")

# the words a rejection reason starts with (the worker's DLQ reasons and metric labels)
NOT_OBJECT = "event must be a JSON object"
SCHEMA_VIOLATION = "schema violation"


class ContractError(ValueError):
    """A payload that is not a valid gateway event v1. ``reason`` is for the DLQ."""

    def __init__(self, reason: str, event_id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.event_id = event_id


@cache
def event_schema() -> dict[str, Any]:
    """The v1 JSON Schema as a dict."""
    text = resources.files("leakline.client").joinpath(SCHEMA_RESOURCE).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _is_json_integer(checker: Any, instance: Any) -> bool:
    # JSON Schema counts 1.0 as an integer, and orjson reads a number beyond 64 bits as a
    # float, silently: either would be stored as NULL. An integer is an int here.
    return type(instance) is int


@cache
def schema_validator() -> Any:
    """A Draft 2020-12 validator where "integer" means an int; None without jsonschema."""
    try:
        from jsonschema import Draft202012Validator, validators
    except ImportError:
        return None
    strict = validators.extend(
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_json_integer),
    )
    schema = event_schema()
    Draft202012Validator.check_schema(schema)
    return strict(schema)


_APIS = frozenset(APIS)
_REASONING_FIELDS = frozenset({"reasoning", "reasoning_content", None})
# optional object fields -> their optional string members
_STRING_MEMBERS = {
    "engine": ("name", "version"),
    "gateway": ("name", "version"),
    "model": ("name", "revision"),
    "chat_template": ("name", "hash"),
    "parsers": ("reasoning", "tool_call"),
}

# counts are stored as int64
INT64_MAX = 2**63 - 1

# operator dimensions (``tags``): bounded, so a gateway cannot blow up the store or a filter
MAX_TAGS = 32
MAX_TAG_VALUE = 256
TAG_KEY = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
USAGE_FIELDS = ("prompt_tokens", "completion_tokens", "reasoning_tokens", "total_tokens")
_MISSING: Any = object()  # a key that is absent (a present key may hold None)


def _opt_str(obj: dict[str, Any], key: str) -> bool:
    value = obj.get(key)
    return value is None or type(value) is str


def _opt_count(obj: dict[str, Any], key: str) -> bool:
    value = obj.get(key)
    return value is None or (type(value) is int and 0 <= value <= INT64_MAX)


# the fast check runs on every event: type-set lookups instead of per-member calls
_STR_OR_NONE = frozenset({str, type(None)})
_ONLY_DICTS = frozenset({dict})
_MEMBER_PAIRS = tuple((name, m[0], m[1]) for name, m in _STRING_MEMBERS.items())


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
    response, chunks = get("response", _MISSING), get("chunks", _MISSING)
    if response is _MISSING:
        # chunks alone: a list of objects (an empty list is one)
        if chunks is _MISSING or type(chunks) is not list:
            return False
        if chunks and not _ONLY_DICTS.issuperset(map(type, chunks)):
            return False
    elif chunks is not _MISSING or type(response) is not dict:
        return False
    if "ts" in event and type(event["ts"]) is not str:
        return False
    if "stream" in event and type(event["stream"]) is not bool:
        return False
    for name, first, second in _MEMBER_PAIRS:
        obj = get(name, _MISSING)
        if obj is not _MISSING:
            if type(obj) is not dict:
                return False
            if type(obj.get(first)) not in _STR_OR_NONE:
                return False
            if type(obj.get(second)) not in _STR_OR_NONE:
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
    if "tags" in event and not _valid_tags(event["tags"]):
        return False
    if "usage" in event:
        usage = event["usage"]
        if type(usage) is not dict or not all(_opt_count(usage, k) for k in USAGE_FIELDS):
            return False
    if "latency_ms" in event:
        latency = event["latency_ms"]
        if not (latency is None or (type(latency) in (int, float) and latency >= 0)):
            return False
    return True


def _valid_tags(tags: Any) -> bool:
    if type(tags) is not dict or len(tags) > MAX_TAGS:
        return False
    return all(
        type(k) is str
        and TAG_KEY.fullmatch(k) is not None
        and type(v) is str
        and len(v) <= MAX_TAG_VALUE
        for k, v in tags.items()
    )


def _light_reason(event: dict[str, Any]) -> str | None:
    """Without jsonschema: what is plainly wrong with the required fields, if anything."""
    if not isinstance(event.get("event_id"), str) or not event["event_id"]:
        return "event_id: a non-empty string is required"
    if event.get("api") not in _APIS:
        return f"api: {event.get('api')!r} is not one of {list(APIS)}"
    if not isinstance(event.get("request"), dict):
        return "request: an object is required"
    if ("response" in event) == ("chunks" in event):
        return "exactly one of response / chunks is required"
    return None


def validate_event(event: Any) -> dict[str, Any]:
    """Return ``event`` if it is a valid gateway event v1, else raise ContractError."""
    if certainly_valid(event):
        return event  # type: ignore[no-any-return]
    if not isinstance(event, dict):
        raise ContractError(f"{NOT_OBJECT}, got {type(event).__name__}")
    event_id = event.get("event_id") if isinstance(event.get("event_id"), str) else None
    validator = schema_validator()
    if validator is None:
        reason = _light_reason(event)
        if reason is not None:
            raise ContractError(f"{SCHEMA_VIOLATION} at {reason}", event_id)
        return event
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(event))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        raise ContractError(f"{SCHEMA_VIOLATION} at {where}: {_short(error.message)}", event_id)
    return event


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[:limit] + "…"
