"""Detector test helpers: build an ``Exchange`` from a few keywords, run one detector."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest

from leakline.detectors import Exchange, Finding, ResponseFormat, StreamFacts, ToolCall, Versions
from leakline.detectors.base import get_detector

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "unit": {"type": "string", "enum": ["c", "f"]},
    },
    "required": ["city"],
    "additionalProperties": False,
}
TOOLS = {"get_weather": WEATHER_SCHEMA, "search_docs": None}


def build_exchange(
    text: str = "",
    *,
    tools: dict[str, Any] | None = None,
    calls: Iterable[tuple[str | None, str]] = (),
    fmt: str | None = None,
    schema: dict[str, Any] | None = None,
    finish: str | None = "stop",
    reasoning: str = "",
    model: str | None = None,
    reasoning_parser: str | None = None,
    tool_parser: str | None = None,
    api: str = "chat.completions",
    stream: bool = False,
    commentary: str = "",
    renders_phases: bool | None = None,
    mixed: tuple[int, ...] = (),
    pieces: tuple[str, ...] = (),
    prompt: str = "",
) -> Exchange:
    """An ``Exchange`` with sensible defaults; keywords name only what a test cares about."""
    return Exchange(
        event_id="test",
        api=api,
        stream=stream,
        visible_text=text,
        reasoning_text=reasoning,
        reasoning_field="reasoning" if reasoning else None,
        tool_calls=tuple(ToolCall(name, args, f"call_{i}") for i, (name, args) in enumerate(calls)),
        declared_tools=dict(tools or {}),
        response_format=ResponseFormat(fmt, schema) if fmt else None,
        finish_reason=finish,
        raw_finish_reason=finish,
        commentary_text=commentary,
        renders_phases=renders_phases,
        stream_facts=StreamFacts(len(pieces), mixed, pieces),
        versions=Versions(
            model_name=model, reasoning_parser=reasoning_parser, tool_call_parser=tool_parser
        ),
        prompt_text=prompt,
    )


def findings_of(detector_id: str, exchange: Exchange, label: str | None = None) -> list[Finding]:
    """What one registered detector says, optionally only one label."""
    found = get_detector(detector_id).detect(exchange)
    return [f for f in found if label is None or f.label == label]


@pytest.fixture(scope="session")
def make_exchange() -> Callable[..., Exchange]:
    return build_exchange


@pytest.fixture(scope="session")
def tools() -> dict[str, Any]:
    """Declared tools: ``get_weather`` (``WEATHER_SCHEMA``) and schemaless ``search_docs``."""
    return TOOLS


@pytest.fixture(scope="session")
def detect() -> Callable[..., list[Finding]]:
    """``detect(detector_id, text, **exchange_keywords)`` -> that detector's findings."""

    def run(detector_id: str, text: str = "", **kwargs: Any) -> list[Finding]:
        return findings_of(detector_id, build_exchange(text, **kwargs))

    return run
