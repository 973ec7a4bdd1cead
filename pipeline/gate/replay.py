"""The gate's side of a replay: send one request with the official SDK, and the candidate
versions (``Tags``) to stamp on the event that ``leakline.client.build_event`` makes of it.

chat.completions and Responses go through ``openai``; Messages through ``anthropic``.
A streamed reply is kept as the SDK's parsed chunks/events (``model_dump``), a
non-streamed one as the parsed body, so the event holds exactly what a client saw.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from leakline import __version__
from leakline.pipeline.core.errors import LeaklineError, install_hint

GATEWAY_NAME = "leakline-gate"
# fields the SDK call needs as positional keywords; everything else goes by name or extra_body
_REQUIRED = {
    "chat.completions": ("model", "messages"),
    "responses": ("model",),
    "messages": ("model", "messages", "max_tokens"),
}


@dataclass(frozen=True)
class Tags:
    """The candidate's versions, stored on every event the gate produces."""

    engine_name: str
    engine_version: str
    model_name: str
    model_revision: str | None = None
    template_name: str | None = None
    template_hash: str | None = None
    reasoning_parser: str | None = None
    tool_call_parser: str | None = None

    def group_values(self) -> dict[str, str | None]:
        """The tags under their ``leakline rates --by`` names."""
        return {
            "engine.name": self.engine_name,
            "engine.version": self.engine_version,
            "model.name": self.model_name,
            "model.revision": self.model_revision,
            "chat_template.name": self.template_name,
            "chat_template.hash": self.template_hash,
            "parsers.reasoning": self.reasoning_parser,
            "parsers.tool_call": self.tool_call_parser,
            "gateway.name": GATEWAY_NAME,
        }

    def event_fields(self) -> dict[str, Any]:
        return {
            "engine": {"name": self.engine_name, "version": self.engine_version},
            "model": {"name": self.model_name, "revision": self.model_revision},
            "chat_template": {"name": self.template_name, "hash": self.template_hash},
            "parsers": {"reasoning": self.reasoning_parser, "tool_call": self.tool_call_parser},
            "gateway": {"name": GATEWAY_NAME, "version": __version__},
        }


class ReplayError(Exception):
    """One request failed; ``connection`` tells an unreachable endpoint from a bad reply."""

    def __init__(self, message: str, *, connection: bool) -> None:
        super().__init__(message)
        self.connection = connection


def _dump(obj: Any) -> dict[str, Any]:
    # exclude_unset: only what was on the wire (extra fields such as `reasoning` included)
    dumped = obj.model_dump(mode="json", exclude_unset=True)
    return dumped if isinstance(dumped, dict) else {"value": dumped}


def openai_base_url(endpoint: str) -> str:
    return endpoint.rstrip("/")


def anthropic_base_url(endpoint: str) -> str:
    """The Anthropic SDK appends /v1/messages itself; accept ``…/v1`` like the OpenAI mode."""
    url = endpoint.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


def require_sdk(api: str) -> None:
    """Refuse before any work when the official SDK for ``api`` is missing (the gate extra)."""
    sdk = "anthropic" if api == "messages" else "openai"
    try:
        __import__(sdk)
    except ImportError:
        raise LeaklineError(
            f"the official {sdk} SDK is not installed (leakline's gate extra)",
            hint=install_hint("gate"),
        ) from None


class Replayer:
    """One SDK client per gate run; ``send`` is safe to call from several threads."""

    def __init__(self, api: str, endpoint: str, api_key: str, timeout_s: float) -> None:
        self.api = api
        self.endpoint = endpoint
        require_sdk(api)
        if api == "messages":
            import anthropic

            self.client: Any = anthropic.Anthropic(
                base_url=anthropic_base_url(endpoint),
                api_key=api_key,
                max_retries=0,
                timeout=timeout_s,
            )
            self._create: Callable[..., Any] = self.client.messages.create
            self._errors: tuple[type[Exception], type[Exception]] = (
                anthropic.APIConnectionError,
                anthropic.APIError,
            )
        else:
            import openai

            self.client = openai.OpenAI(
                base_url=openai_base_url(endpoint),
                api_key=api_key,
                max_retries=0,
                timeout=timeout_s,
            )
            self._create = (
                self.client.responses.create
                if api == "responses"
                else self.client.chat.completions.create
            )
            self._errors = (openai.APIConnectionError, openai.APIError)
        self._known = set(inspect.signature(self._create).parameters) - {
            "extra_body",
            "extra_headers",
            "extra_query",
            "timeout",
        }

    def send(self, body: dict[str, Any]) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """(response, chunks): one of them is filled. Raises ReplayError."""
        known = {k: v for k, v in body.items() if k in self._known}
        extra = {k: v for k, v in body.items() if k not in self._known}
        connection_error, api_error = self._errors
        try:
            reply = self._create(**known, extra_body=extra or None)
            if body.get("stream") is True:
                return None, [_dump(chunk) for chunk in reply]
            return _dump(reply), []
        except connection_error as exc:
            raise ReplayError(f"cannot reach {self.endpoint}: {exc}", connection=True) from None
        except api_error as exc:
            raise ReplayError(f"{type(exc).__name__}: {exc}"[:500], connection=False) from None
        except TypeError as exc:  # the SDK refused an argument
            raise LeaklineError(f"the {self.api} SDK refused the request: {exc}") from None
        except Exception as exc:  # a reply the SDK cannot parse is a failed request, not a crash
            raise ReplayError(f"{type(exc).__name__}: {exc}"[:500], connection=False) from None
