"""Version metadata for an event: from configuration, environment or response headers.

Precedence when building an event: explicit configuration, then response headers,
then the response body (``model``). Engines expose little on their own: vLLM and
SGLang send no version headers, OpenAI and Anthropic only reveal who they are.
A gateway (or an nginx in front of the engine) can add the ``x-leakline-*``
headers below; ``leakline engine-sim`` sends the engine ones.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

# response header -> EventMeta field
HEADER_FIELDS: dict[str, str] = {
    "x-leakline-engine": "engine_name",
    "x-leakline-engine-version": "engine_version",
    "x-leakline-model": "model_name",
    "x-leakline-model-revision": "model_revision",
    "x-leakline-chat-template": "template_name",
    "x-leakline-chat-template-hash": "template_hash",
    "x-leakline-reasoning-parser": "reasoning_parser",
    "x-leakline-tool-call-parser": "tool_call_parser",
}
# LiteLLM re-exposes upstream headers with this prefix in _hidden_params["additional_headers"]
LITELLM_HEADER_PREFIX = "llm_provider-"

# environment variable -> EventMeta field (the LiteLLM callback and ProducerConfig.from_env)
ENV_FIELDS: dict[str, str] = {
    "LEAKLINE_ENGINE": "engine_name",
    "LEAKLINE_ENGINE_VERSION": "engine_version",
    "LEAKLINE_MODEL": "model_name",
    "LEAKLINE_MODEL_REVISION": "model_revision",
    "LEAKLINE_CHAT_TEMPLATE": "template_name",
    "LEAKLINE_CHAT_TEMPLATE_HASH": "template_hash",
    "LEAKLINE_REASONING_PARSER": "reasoning_parser",
    "LEAKLINE_TOOL_CALL_PARSER": "tool_call_parser",
    "LEAKLINE_GATEWAY": "gateway_name",
    "LEAKLINE_GATEWAY_VERSION": "gateway_version",
    "LEAKLINE_CLIENT_REASONING_FIELD": "client_reasoning_field",
}


@dataclass(frozen=True)
class EventMeta:
    """What produced a response: engine, model, chat template, parsers, gateway, client.

    Every field is optional; a missing one is stored as "unknown".
    """

    engine_name: str | None = None
    engine_version: str | None = None
    model_name: str | None = None
    model_revision: str | None = None
    template_name: str | None = None
    template_hash: str | None = None
    reasoning_parser: str | None = None
    tool_call_parser: str | None = None
    gateway_name: str | None = None
    gateway_version: str | None = None
    client_reasoning_field: str | None = None  # "reasoning" | "reasoning_content"
    client_renders_phases: bool | None = None
    # operator dimensions every event of this gateway carries (region, deployment, app, ...);
    # per-request tags given to build_event win over these
    tags: Mapping[str, str] | None = None

    def merged(self, fallback: EventMeta) -> EventMeta:
        """This metadata, with fields it leaves empty taken from ``fallback``."""
        return replace(
            self,
            **{
                f.name: getattr(fallback, f.name)
                for f in fields(self)
                if getattr(self, f.name) is None and getattr(fallback, f.name) is not None
            },
        )

    def event_fields(self) -> dict[str, Any]:
        """The optional v1 version objects, only those with at least one known member
        (``tags`` are added by ``build_event``)."""
        groups: dict[str, dict[str, Any]] = {
            "engine": {"name": self.engine_name, "version": self.engine_version},
            "model": {"name": self.model_name, "revision": self.model_revision},
            "chat_template": {"name": self.template_name, "hash": self.template_hash},
            "parsers": {"reasoning": self.reasoning_parser, "tool_call": self.tool_call_parser},
            "gateway": {"name": self.gateway_name, "version": self.gateway_version},
            "client": {
                "reasoning_field": self.client_reasoning_field,
                "renders_phases": self.client_renders_phases,
            },
        }
        return {
            name: {k: v for k, v in group.items() if v is not None}
            for name, group in groups.items()
            if any(v is not None for v in group.values())
        }

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> EventMeta:
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {f: env[n] for n, f in ENV_FIELDS.items() if env.get(n)}
        tags = parse_tags(env.get(ENV_TAGS, ""))
        if tags:
            values["tags"] = tags
        return cls(**values)


# static operator dimensions: LEAKLINE_TAGS="region=eu-west-1,deployment=blue"
ENV_TAGS = "LEAKLINE_TAGS"


def parse_tags(text: str) -> dict[str, str]:
    """``key=value,key=value`` (also ``key:value``) -> a dict; blank items are skipped."""
    out: dict[str, str] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep:
            key, sep, value = item.partition(":")
        if sep and key.strip():
            out[key.strip()] = value.strip()
    return out


def _engine_from_vendor_headers(headers: Mapping[str, str]) -> str | None:
    # managed APIs identify themselves; self-hosted engines (vLLM, SGLang) do not
    if any(k.startswith("openai-") for k in headers):
        return "openai"
    if any(k.startswith("anthropic-") for k in headers):
        return "anthropic"
    return None


def meta_from_headers(headers: Mapping[str, Any] | None) -> EventMeta:
    """EventMeta from response headers (case-insensitive; LiteLLM's ``llm_provider-`` prefix ok)."""
    if not headers:
        return EventMeta()
    lower: dict[str, str] = {}
    for key, value in dict(headers).items():
        name = str(key).lower()
        if name.startswith(LITELLM_HEADER_PREFIX):
            name = name[len(LITELLM_HEADER_PREFIX) :]
        if isinstance(value, (str, int, float)):
            lower[name] = str(value)
    values: dict[str, Any] = {f: lower[h] for h, f in HEADER_FIELDS.items() if lower.get(h)}
    if "engine_name" not in values:
        vendor = _engine_from_vendor_headers(lower)
        if vendor:
            values["engine_name"] = vendor
    return EventMeta(**values)
