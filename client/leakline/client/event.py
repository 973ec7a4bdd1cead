"""Build a gateway event v1 from request and response objects.

Accepts plain dicts and pydantic SDK objects (OpenAI ``ChatCompletion``,
``ChatCompletionChunk``, Responses ``Response`` and stream events; Anthropic
``Message`` and stream events; LiteLLM's ``ModelResponse``). This is the one
place events are built: the gate, the LiteLLM callback and gateway code call it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import re
import uuid
from collections.abc import Iterable, Mapping
from datetime import date, datetime, timezone
from enum import Enum
from typing import Any, Protocol

from leakline import __version__
from leakline.client.contract import APIS, MAX_TAG_VALUE, MAX_TAGS, USAGE_FIELDS
from leakline.client.metadata import EventMeta, meta_from_headers

DEFAULT_GATEWAY = "leakline-producer"
# request keys that carry credentials or transport details, never the API body
_SECRET_KEYS = frozenset(
    {"api_key", "authorization", "headers", "extra_headers", "default_headers", "http_client"}
)
_MAX_DEPTH = 64


class HasEventFields(Protocol):
    def event_fields(self) -> dict[str, Any]: ...


def new_event_id() -> str:
    return uuid.uuid4().hex


def to_jsonable(obj: Any, *, exclude_unset: bool = True, _depth: int = 0) -> Any:
    """Plain JSON values from SDK objects, dicts, lists and scalars.

    ``exclude_unset=True`` keeps exactly what was on the wire for objects the SDK
    parsed from a response (extra fields such as vLLM's ``reasoning`` included);
    use False for objects a library built field by field (LiteLLM).
    """
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if _depth > _MAX_DEPTH:
        return None
    nxt = _depth + 1
    dump = getattr(obj, "model_dump", None)
    if callable(dump) and not isinstance(obj, type):
        try:
            # warnings=False: LiteLLM's models trip pydantic's serializer warnings on every dump
            dumped = dump(mode="json", exclude_unset=exclude_unset, warnings=False)
            return to_jsonable(dumped, _depth=nxt)
        except Exception:  # a half-built model: its plain dict is the best we have
            raw = getattr(obj, "__dict__", None)
            return to_jsonable(dict(raw), exclude_unset=exclude_unset, _depth=nxt) if raw else None
    if isinstance(obj, Mapping):
        return {
            str(k): to_jsonable(v, exclude_unset=exclude_unset, _depth=nxt) for k, v in obj.items()
        }
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [to_jsonable(v, exclude_unset=exclude_unset, _depth=nxt) for v in obj]
    if isinstance(obj, (bytes, bytearray)):
        try:
            return bytes(obj).decode("utf-8")
        except UnicodeDecodeError:
            return base64.b64encode(bytes(obj)).decode("ascii")
    if isinstance(obj, (datetime, date)):
        return obj.isoformat()
    if isinstance(obj, Enum):
        return to_jsonable(obj.value, _depth=nxt)
    return str(obj)


def _kind(obj: Any) -> tuple[str | None, str | None]:
    """(object, type) of a dumped response or chunk."""
    if not isinstance(obj, Mapping):
        return None, None
    o, t = obj.get("object"), obj.get("type")
    return (o if isinstance(o, str) else None), (t if isinstance(t, str) else None)


_MESSAGES_STREAM_TYPES = frozenset(
    {
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
    }
)


def infer_api(
    response: Any = None,
    chunks: Iterable[Any] | None = None,
    request: Mapping[str, Any] | None = None,
) -> str | None:
    """Which API an exchange used, from the response/chunk shape (or the request)."""
    samples = [response] if response is not None else list(chunks or [])[:3]
    for sample in samples:
        obj, kind = _kind(sample)
        if obj in ("chat.completion", "chat.completion.chunk"):
            return "chat.completions"
        if obj == "response" or (kind or "").startswith("response."):
            return "responses"
        if kind in _MESSAGES_STREAM_TYPES or (kind == "message" and "content" in sample):
            return "messages"
        if isinstance(sample, Mapping) and "choices" in sample:
            return "chat.completions"
        if isinstance(sample, Mapping) and "output" in sample:
            return "responses"
    if request is not None:
        if "input" in request and "messages" not in request:
            return "responses"
        if "messages" in request:
            return "chat.completions"
    return None


def _now(now: datetime | None) -> str:
    return (now or datetime.now(timezone.utc)).isoformat().replace("+00:00", "Z")


_TAG_CHARS = re.compile(r"[^A-Za-z0-9_.-]")


def clean_tags(tags: Mapping[str, Any] | None) -> dict[str, str]:
    """Operator dimensions made valid: keys of ``[A-Za-z0-9_.-]`` (other characters become
    ``_``, at most 64), values as strings of at most 256 characters, at most 32 tags (the
    first ones, in key order); empty keys and ``None`` values are dropped."""
    out: dict[str, str] = {}
    for key, value in sorted(((str(k), v) for k, v in (tags or {}).items()), key=_first):
        name = _TAG_CHARS.sub("_", key)[:64]
        if not name or value is None or name in out:
            continue
        out[name] = str(to_jsonable(value))[:MAX_TAG_VALUE]
        if len(out) == MAX_TAGS:
            break
    return out


def _first(item: tuple[str, Any]) -> str:
    return item[0]


# The key of user pseudonyms (``tags.user``). A plain hash of a user id is reversed by
# hashing a list of likely ids (e-mails, employee numbers) in milliseconds; an HMAC under a
# secret key is not. Every gateway and relay that tags the same users needs the same key.
ENV_PSEUDONYM_KEY = "LEAKLINE_PSEUDONYM_KEY"
MIN_PSEUDONYM_KEY_CHARS = 16
_log = logging.getLogger("leakline.client")
_warned: set[str] = set()


def hash_user(user_id: Any, key: str | bytes) -> str:
    """A stable pseudonym for a user id: 16 hex characters of HMAC-SHA256 under ``key``."""
    secret = key.encode() if isinstance(key, str) else key
    return hmac.new(secret, str(user_id).encode(), hashlib.sha256).hexdigest()[:16]


def pseudonym_key(environ: Mapping[str, str] | None = None) -> str | None:
    """``$LEAKLINE_PSEUDONYM_KEY`` when it is set and long enough, else None (warned once)."""
    key = (os.environ if environ is None else environ).get(ENV_PSEUDONYM_KEY, "")
    if len(key) >= MIN_PSEUDONYM_KEY_CHARS:
        return key
    problem = "is shorter than 16 characters" if key else "is not set"
    if problem not in _warned:
        _warned.add(problem)
        _log.warning(
            "%s %s: events carry no tags.user (a user id is never sent unkeyed); set it to "
            "the same random value on every gateway and relay, e.g. the output of "
            "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'",
            ENV_PSEUDONYM_KEY,
            problem,
        )
    return None


def user_pseudonym(user_id: Any, environ: Mapping[str, str] | None = None) -> str | None:
    """The ``tags.user`` value for a user id, or None when no key is configured."""
    key = pseudonym_key(environ)
    return hash_user(user_id, key) if key is not None else None


def _duration(value: Any) -> bool:
    """A usable latency: a non-negative number (not a bool, not NaN)."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return number and value >= 0 and value == value


def _count(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None


def usage_of(response: Any = None, chunks: Iterable[Any] | None = None) -> dict[str, int]:
    """Token counts from a response body (or the last stream chunk that has them), in the
    event's names, whatever the API: chat.completions, Responses or Messages."""
    holders: list[Any] = [response] if isinstance(response, Mapping) else []
    for chunk in reversed(list(chunks or [])):
        if isinstance(chunk, Mapping):
            holders += [chunk, chunk.get("response"), chunk.get("message")]
    for holder in holders:
        raw = holder.get("usage") if isinstance(holder, Mapping) else None
        if not isinstance(raw, Mapping):
            continue
        details = raw.get("completion_tokens_details") or raw.get("output_tokens_details") or {}
        usage = {
            "prompt_tokens": _count(raw.get("prompt_tokens", raw.get("input_tokens"))),
            "completion_tokens": _count(raw.get("completion_tokens", raw.get("output_tokens"))),
            "reasoning_tokens": _count(
                details.get("reasoning_tokens") if isinstance(details, Mapping) else None
            ),
            "total_tokens": _count(raw.get("total_tokens")),
        }
        found = {k: v for k, v in usage.items() if v is not None}
        if found:
            return found
    return {}


def clean_request(request: Any) -> dict[str, Any]:
    """The request body as JSON, without credentials or transport settings."""
    body = to_jsonable(request)
    if not isinstance(body, dict):
        return {}
    return {k: v for k, v in body.items() if k.lower() not in _SECRET_KEYS}


def build_event(
    *,
    request: Any,
    response: Any = None,
    chunks: Iterable[Any] | None = None,
    api: str | None = None,
    meta: HasEventFields | None = None,
    headers: Mapping[str, Any] | None = None,
    event_id: str | None = None,
    stream: bool | None = None,
    now: datetime | None = None,
    remediation: Mapping[str, Any] | None = None,
    exclude_unset: bool = True,
    tags: Mapping[str, Any] | None = None,
    usage: Mapping[str, Any] | None = None,
    latency_ms: float | None = None,
) -> dict[str, Any]:
    """A gateway event v1 (``leakline/client/schemas/gateway_event.v1.json``).

    ``stream`` decides between ``chunks`` and ``response`` when both are given
    (default: streamed when ``chunks`` is given and ``response`` is not). ``meta``
    (an ``EventMeta`` or anything with ``event_fields()``) wins over ``headers``,
    which win over the response's ``model``. ``tags`` (operator dimensions: tenant, app,
    route, hashed user, region, ...) are added to ``meta``'s and bounded (``clean_tags``);
    ``usage`` defaults to the token counts in the response or the last chunks;
    ``latency_ms`` is what the gateway measured. Raises ValueError when the API cannot
    be told; validate the result with ``leakline.client.validate_event``.
    """
    body = clean_request(request)
    chunk_list = (
        None if chunks is None else [to_jsonable(c, exclude_unset=exclude_unset) for c in chunks]
    )
    dumped = None if response is None else to_jsonable(response, exclude_unset=exclude_unset)
    if stream is None:
        stream = chunk_list is not None and dumped is None
    api = api or infer_api(dumped, chunk_list, body)
    if api not in APIS:
        raise ValueError(f"cannot tell the API of this exchange (got {api!r}); pass api=")

    event: dict[str, Any] = {
        "event_id": event_id or new_event_id(),
        "ts": _now(now),
        "api": api,
        "stream": bool(stream),
        "request": body,
    }
    if stream and chunk_list is not None:
        event["chunks"] = [c if isinstance(c, dict) else {"value": c} for c in chunk_list]
    elif dumped is not None or not stream:
        dumped = {} if dumped is None else dumped  # an empty reply is still an exchange
        if not isinstance(dumped, dict):
            raise ValueError(f"the response must be a JSON object, got {type(response).__name__}")
        event["response"] = dumped
    else:
        event["chunks"] = []

    fields = dict(meta.event_fields()) if meta is not None else {}
    fallback = meta_from_headers(headers).merged(
        EventMeta(model_name=_model_of(dumped, chunk_list))
    )
    for name, group in fallback.event_fields().items():
        merged = {**group, **{k: v for k, v in fields.get(name, {}).items() if v is not None}}
        fields[name] = merged
    gateway = fields.setdefault("gateway", {})
    if gateway.get("name") is None:
        gateway.update(name=DEFAULT_GATEWAY, version=__version__)
    event.update(fields)
    if remediation:
        event["remediation"] = dict(remediation)
    merged_tags = clean_tags({**dict(getattr(meta, "tags", None) or {}), **dict(tags or {})})
    if merged_tags:
        event["tags"] = merged_tags
    counts = (
        {k: _count(usage.get(k)) for k in USAGE_FIELDS if _count(usage.get(k)) is not None}
        if usage is not None
        else usage_of(dumped, chunk_list)
    )
    if counts:
        event["usage"] = counts
    if _duration(latency_ms):
        event["latency_ms"] = round(float(latency_ms), 3)  # type: ignore[arg-type]
    return event


def _model_of(response: Any, chunks: list[Any] | None) -> str | None:
    candidates: list[Any] = [response] if response is not None else list(chunks or [])[:2]
    for item in candidates:
        if not isinstance(item, dict):
            continue
        # Responses / Messages streams nest the object in their first event
        for holder in (item, item.get("response"), item.get("message")):
            if isinstance(holder, dict) and isinstance(holder.get("model"), str):
                return str(holder["model"])
    return None
