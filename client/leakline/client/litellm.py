"""A LiteLLM ``CustomLogger`` that sends every completion to leakline as a gateway event.

LiteLLM proxy (``config.yaml``)::

    litellm_settings:
      callbacks: ["leakline.client.litellm.leakline_logger"]

LiteLLM SDK::

    import litellm
    from leakline.client.litellm import leakline_logger
    litellm.callbacks = [leakline_logger]

Configured from the environment: ``LEAKLINE_BOOTSTRAP`` (Kafka), ``LEAKLINE_TOPIC``,
``LEAKLINE_ENGINE`` / ``LEAKLINE_ENGINE_VERSION`` / ``LEAKLINE_MODEL_REVISION`` /
``LEAKLINE_CHAT_TEMPLATE`` / ``LEAKLINE_REASONING_PARSER`` / ``LEAKLINE_TOOL_CALL_PARSER``
(see ``leakline.client.metadata``), ``LEAKLINE_LITELLM_FAILURES=0`` to skip failed
calls. Run LiteLLM offline with ``LITELLM_LOCAL_MODEL_COST_MAP=True`` (and
``LITELLM_OFFLINE_MODE=true``).

What an event holds:

- ``request``: on the proxy, the body the client sent (``proxy_server_request``);
  from the SDK, ``model`` + ``messages``/``input`` + the optional params LiteLLM
  passed on (``extra_body`` flattened in, credentials never).
- ``response``: the response as LiteLLM returned it to the caller. A streamed call
  is sent as ``stream: true`` with the response LiteLLM assembled from the chunks:
  LiteLLM hands its loggers no ordered chunk list (async streams log only the
  assembled response; sync streams log chunks from a thread pool, out of order),
  so chunk-level facts (``mixed_chunk``) are not seen through this callback.
- versions: configuration first, then the upstream's ``x-leakline-*`` response
  headers (LiteLLM re-exposes them as ``llm_provider-*``), then the response's model.
- failures: an event whose response is ``{"error": {...}}`` (type, message,
  status_code), so error rates per version are visible; they carry no text.
- operator dimensions (``tags_of``): ``key:value`` request tags (``metadata.tags``), a
  ``leakline_tags`` object in the metadata, the key's team alias (``team``) and the user
  id, hashed (``user``), plus ``LEAKLINE_TAGS``; ``latency_ms`` from LiteLLM's start and
  end times; ``usage`` from the response.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping
from importlib import metadata
from typing import Any

try:
    from litellm.integrations.custom_logger import CustomLogger
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "the LiteLLM callback needs LiteLLM next to leakline-client: pip install litellm"
    ) from exc

from leakline.client.contract import ContractError, validate_event
from leakline.client.event import build_event, to_jsonable, user_pseudonym
from leakline.client.metadata import EventMeta, parse_tags
from leakline.client.sender import ProducerConfig
from leakline.client.threaded import ThreadedLeakProducer

log = logging.getLogger("leakline.litellm")

GATEWAY_NAME = "litellm"
_SEEN_MAX = 4096  # call ids remembered so a call logged by two hooks is sent once

# LiteLLM call types -> event API; anything else (embeddings, images, ...) is skipped
_CALL_TYPES = {
    "completion": "chat.completions",
    "acompletion": "chat.completions",
    "responses": "responses",
    "aresponses": "responses",
    "anthropic_messages": "messages",
    "aanthropic_messages": "messages",
}


def _litellm_version() -> str | None:
    try:
        return metadata.version("litellm")
    except metadata.PackageNotFoundError:
        return None


def _api_of(kwargs: Mapping[str, Any]) -> str | None:
    call_type = str(kwargs.get("call_type") or "completion")
    return _CALL_TYPES.get(call_type)


def _request_of(kwargs: Mapping[str, Any], api: str) -> dict[str, Any]:
    params = kwargs.get("litellm_params") or {}
    proxy_request = params.get("proxy_server_request") if isinstance(params, Mapping) else None
    body = proxy_request.get("body") if isinstance(proxy_request, Mapping) else None
    if isinstance(body, Mapping) and body:
        return dict(body)  # the proxy: exactly what the client sent
    request: dict[str, Any] = {"model": kwargs.get("model")}
    if api == "responses":
        # LiteLLM hands a Responses call's input over as chat `messages`; both are valid input
        request["input"] = kwargs.get("input") or kwargs.get("messages")
    else:
        request["messages"] = kwargs.get("messages")
    optional = dict(kwargs.get("optional_params") or {})
    extra = optional.pop("extra_body", None)
    request.update(optional)
    if isinstance(extra, Mapping):
        request.update(extra)
    if kwargs.get("stream") is True:
        request["stream"] = True
    return request


def _headers_of(kwargs: Mapping[str, Any], response: Any) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    hidden = getattr(response, "_hidden_params", None)
    if isinstance(hidden, Mapping):
        for key in ("additional_headers", "headers"):
            value = hidden.get(key)
            if isinstance(value, Mapping):
                headers.update(value)
    raw = kwargs.get("response_headers")
    if isinstance(raw, Mapping):
        headers.update(raw)
    return headers


def _tag_pairs(items: Any) -> dict[str, Any]:
    """``["tenant:acme", "region=eu"]`` -> a dict; plain tags without a key are not dimensions."""
    if isinstance(items, Mapping):
        return dict(items)
    out: dict[str, Any] = {}
    for item in items if isinstance(items, list) else []:
        out.update(parse_tags(item) if isinstance(item, str) else {})
    return out


def tags_of(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """Operator dimensions of a call, from LiteLLM's metadata: ``key:value`` request tags,
    an explicit ``leakline_tags`` object (in the request's ``metadata``), the team alias and
    the user id, hashed (``tags.user``)."""
    params = kwargs.get("litellm_params") or {}
    meta = params.get("metadata") if isinstance(params, Mapping) else None
    meta = meta if isinstance(meta, Mapping) else {}
    requester = meta.get("requester_metadata")
    requester = requester if isinstance(requester, Mapping) else {}
    tags: dict[str, Any] = _tag_pairs(meta.get("tags"))
    team = meta.get("user_api_key_team_alias") or meta.get("user_api_key_team_id")
    if team:
        tags["team"] = team
    user = (
        meta.get("user_api_key_end_user_id")
        or meta.get("user_api_key_user_id")
        or kwargs.get("user")
    )
    pseudonym = user_pseudonym(user) if user else None
    if pseudonym:
        tags["user"] = pseudonym
    for explicit in (meta.get("leakline_tags"), requester.get("leakline_tags")):
        tags.update(_tag_pairs(explicit))
    return tags


def _latency_ms(start_time: Any, end_time: Any) -> float | None:
    try:
        seconds = (end_time - start_time).total_seconds()
    except (TypeError, AttributeError):
        return None
    return seconds * 1000 if seconds >= 0 else None


def _error_headers(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    exc = kwargs.get("exception")
    headers = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        headers = getattr(getattr(exc, "response", None), "headers", None)
    try:
        return dict(headers) if headers is not None else {}
    except (TypeError, ValueError):
        return {}


def _error_of(kwargs: Mapping[str, Any], response_obj: Any) -> dict[str, Any]:
    exc = kwargs.get("exception") or response_obj
    status = getattr(exc, "status_code", None)
    return {
        "model": kwargs.get("model"),
        "error": {
            "type": type(exc).__name__ if exc is not None else "unknown",
            "message": str(exc)[:500] if exc is not None else "",
            "status_code": status if isinstance(status, int) else None,
        },
    }


class LeaklineLogger(CustomLogger):  # type: ignore[misc]
    """Turns LiteLLM success and failure hooks (sync and async) into leakline events."""

    def __init__(
        self,
        producer: Any = None,
        meta: EventMeta | None = None,
        *,
        record_failures: bool | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._producer = producer
        self._producer_lock = threading.Lock()
        self.meta = meta
        if record_failures is None:
            record_failures = os.environ.get("LEAKLINE_LITELLM_FAILURES", "1") not in ("0", "false")
        self.record_failures = record_failures
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._seen_lock = threading.Lock()
        self.errors = 0  # events that could not be built (bugs, odd call types); never raised

    @property
    def producer(self) -> Any:
        """The sender, created on first use (the proxy imports this module before it forks)."""
        if self._producer is None:
            with self._producer_lock:
                if self._producer is None:
                    self._producer = ThreadedLeakProducer(ProducerConfig.from_env())
        return self._producer

    def _meta(self) -> EventMeta:
        if self.meta is None:
            self.meta = EventMeta.from_env().merged(
                EventMeta(gateway_name=GATEWAY_NAME, gateway_version=_litellm_version())
            )
        return self.meta

    def _first_time(self, call_id: str) -> bool:
        with self._seen_lock:
            if call_id in self._seen:
                return False
            self._seen[call_id] = None
            while len(self._seen) > _SEEN_MAX:
                self._seen.popitem(last=False)
            return True

    def build(
        self,
        kwargs: Mapping[str, Any],
        response_obj: Any,
        failed: bool,
        start_time: Any = None,
        end_time: Any = None,
    ) -> dict[str, Any] | None:
        """The event for one logged call, or None when it is not an LLM exchange we read."""
        api = _api_of(kwargs)
        if api is None:
            return None
        streamed = kwargs.get("stream") is True
        if failed:
            response: Any = _error_of(kwargs, response_obj)
        elif streamed:
            response = (
                kwargs.get("complete_streaming_response")
                or kwargs.get("async_complete_streaming_response")
                or response_obj
            )
        else:
            response = response_obj
        call_id = kwargs.get("litellm_call_id")
        event = build_event(
            api=api,
            request=_request_of(kwargs, api),
            response=to_jsonable(response, exclude_unset=False),
            stream=streamed,
            meta=self._meta(),
            headers=_error_headers(kwargs) if failed else _headers_of(kwargs, response_obj),
            event_id=f"litellm-{call_id}" if isinstance(call_id, str) and call_id else None,
            tags=tags_of(kwargs),
            latency_ms=_latency_ms(start_time, end_time),
        )
        return validate_event(event)

    def _record(
        self,
        kwargs: Mapping[str, Any],
        response_obj: Any,
        failed: bool,
        start_time: Any = None,
        end_time: Any = None,
    ) -> None:
        try:
            if failed and not self.record_failures:
                return
            call_id = kwargs.get("litellm_call_id")
            if isinstance(call_id, str) and not self._first_time(call_id):
                return
            event = self.build(kwargs, response_obj, failed, start_time, end_time)
            if event is not None:
                self.producer.submit(event)
        except ContractError as exc:
            self.errors += 1
            log.warning("leakline: skipped a LiteLLM call: %s", exc.reason)
        except Exception as exc:  # never raise into LiteLLM's request path
            self.errors += 1
            log.warning("leakline: could not build an event from a LiteLLM call: %r", exc)

    # ------------------------------------------------------------ LiteLLM hooks

    def log_success_event(
        self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any
    ) -> None:
        self._record(kwargs, response_obj, False, start_time, end_time)

    def log_failure_event(
        self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any
    ) -> None:
        self._record(kwargs, response_obj, True, start_time, end_time)

    async def async_log_success_event(
        self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any
    ) -> None:
        self._record(kwargs, response_obj, False, start_time, end_time)

    async def async_log_failure_event(
        self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any
    ) -> None:
        self._record(kwargs, response_obj, True, start_time, end_time)


# the instance the LiteLLM proxy config names (litellm_settings.callbacks)
leakline_logger = LeaklineLogger()
