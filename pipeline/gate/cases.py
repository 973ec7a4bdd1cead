"""Regression cases (contract 1) and the request variants ``leakline gate`` replays.

Every case is replayed in each combination of streaming x stop x structured output,
plus tools where the case declared tools. When the gate speaks the case's own API
the recorded request is kept (history, tool results, sampling settings) and only
the varied fields change; for another API the conversation is carried over as
text turns.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.gate.engine.gen import ToolSpec, read_request
from leakline.pipeline.query.filters import FIELDS, Where, parse_time

CASE_FORMAT = "leakline.regression/1"
# a stop string a healthy answer never contains, so "with stop" changes only the engine path
DEFAULT_STOP = ["\nUser:"]
DEFAULT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}
DEFAULT_MAX_TOKENS = 1024  # Messages requires max_tokens
SCHEMA_NAME = "leakline_gate"
_VARIED = (
    "model",
    "stream",
    "stream_options",
    "stop",
    "stop_sequences",
    "response_format",
    "output_format",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
)


@dataclass(frozen=True)
class Case:
    case_id: str
    api: str
    request: dict[str, Any]
    expected_labels: tuple[str, ...]
    # where the case came from (contract 1 ``origin``: engine, model, template, ... versions)
    origin: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def values(self) -> dict[str, Any]:
        """The case's origin by ``--where`` field name (``query.filters.FIELDS``)."""
        out: dict[str, Any] = {"api": self.origin.get("api", self.api)}
        for name in FIELDS:
            section, _, key = name.partition(".")
            part = self.origin.get(section)
            if key and isinstance(part, dict) and part.get(key) is not None:
                out[name] = part[key]
        if "stream" in self.origin:
            out["stream"] = self.origin["stream"]
        return out

    def first_seen(self) -> datetime | None:
        text = self.origin.get("first_seen")
        if not isinstance(text, str):
            return None
        try:
            return parse_time(text, "first_seen")
        except LeaklineError:
            return None

    def stratum(self) -> tuple[tuple[str, ...], str]:
        """(label set, origin version): ``--max-cases`` samples across these."""
        v = self.values()
        version = " ".join(
            str(v.get(name, "unknown")) for name in ("engine.name", "engine.version", "model.name")
        )
        return tuple(sorted(self.expected_labels)), version


def select_cases(
    cases: list[Case], where: Where | None = None, max_cases: int | None = None, seed: int = 0
) -> list[Case]:
    """The cases ``where`` keeps (by origin fields; ``--since``/``--until`` by first_seen),
    then at most ``max_cases`` of them, stratified: every (label set, origin version)
    stratum gets a case before any gets a second. Deterministic for a ``seed``."""
    if where is not None:
        cases = [c for c in cases if where.matches(c.values(), c.first_seen())]
    if max_cases is None or len(cases) <= max_cases:
        return cases
    strata: dict[tuple[tuple[str, ...], str], list[Case]] = {}
    for case in cases:
        strata.setdefault(case.stratum(), []).append(case)

    def shuffled(group: list[Case]) -> list[Case]:
        key = lambda c: hashlib.sha256(f"{seed}\0{c.case_id}".encode()).digest()  # noqa: E731
        return sorted(group, key=key)

    queues = [
        shuffled(group) for _, group in sorted(strata.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    ]
    chosen: list[Case] = []
    while len(chosen) < max_cases:
        for queue in queues:
            if queue and len(chosen) < max_cases:
                chosen.append(queue.pop(0))
    picked = {c.case_id for c in chosen}
    return [c for c in cases if c.case_id in picked]  # the directory's order


@dataclass(frozen=True, order=True)
class Combo:
    stream: bool
    stop: bool
    structured: bool
    tools: bool

    @property
    def slug(self) -> str:
        return "-".join(
            name if on else f"no{name}"
            for name, on in (
                ("stream", self.stream),
                ("stop", self.stop),
                ("json", self.structured),
                ("tools", self.tools),
            )
        )

    def as_dict(self) -> dict[str, bool]:
        return {
            "stream": self.stream,
            "stop": self.stop,
            "structured": self.structured,
            "tools": self.tools,
        }


def load_cases(directory: Path) -> list[Case]:
    """Read DIR/manifest.json and DIR/cases/*.json; misuse raises LeaklineError."""
    hint = "write one with `leakline export --regression DIR` (contract 1)"
    if not directory.is_dir():
        raise LeaklineError(f"no regression case directory at {directory}", hint=hint)
    manifest_path = directory / "manifest.json"
    try:
        manifest = orjson.loads(manifest_path.read_bytes())
    except FileNotFoundError:
        raise LeaklineError(f"{manifest_path} is missing", hint=hint) from None
    except orjson.JSONDecodeError as exc:
        raise LeaklineError(f"{manifest_path} is not JSON: {exc}", hint=hint) from None
    if not isinstance(manifest, dict) or manifest.get("format") != CASE_FORMAT:
        raise LeaklineError(
            f"{manifest_path} is not a {CASE_FORMAT} manifest",
            hint=hint,
        )
    cases = []
    for path in sorted((directory / "cases").glob("*.json")):
        try:
            raw = orjson.loads(path.read_bytes())
            event = raw["event"]
            api, request = event["api"], event["request"]
            if api not in ("chat.completions", "responses", "messages"):
                raise ValueError(f"unknown api {api!r}")
            if not isinstance(request, dict):
                raise ValueError("event.request is not an object")
            cases.append(
                Case(
                    case_id=str(raw.get("case_id") or path.stem),
                    api=api,
                    request=request,
                    expected_labels=tuple(raw.get("expected_labels") or ()),
                    origin=raw.get("origin") if isinstance(raw.get("origin"), dict) else {},
                )
            )
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise LeaklineError(f"bad regression case {path}: {exc}", hint=hint) from None
    if not cases:
        raise LeaklineError(f"no cases in {directory / 'cases'}", hint=hint)
    return cases


def combos_for(case: Case) -> list[Combo]:
    with_tools = (False, True) if read_request(case.api, case.request).tools else (False,)
    return [
        Combo(stream, stop, structured, tools)
        for stream, stop, structured, tools in itertools.product(
            (False, True), (False, True), (False, True), with_tools
        )
    ]


# ------------------------------------------------------------------ conversation as text


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    out = []
    for part in content if isinstance(content, list) else []:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str):
            out.append(part["text"])
        elif part.get("type") in ("tool_result", "function_call_output"):
            out.append("Tool result: " + _text(part.get("content") or part.get("output")))
    return "\n".join(t for t in out if t)


def _turns(api: str, request: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """(system text, [(role, text)]) of a request, tool traffic flattened to text."""
    system: list[str] = []
    turns: list[tuple[str, str]] = []
    if api == "chat.completions":
        for m in request.get("messages") or []:
            if not isinstance(m, dict):
                continue
            role, text = m.get("role"), _text(m.get("content"))
            if role in ("system", "developer"):
                system.append(text)
            elif role == "tool":
                turns.append(("user", f"Tool result: {text}"))
            elif role in ("user", "assistant") and text:
                turns.append((str(role), text))
    elif api == "responses":
        if isinstance(request.get("instructions"), str):
            system.append(request["instructions"])
        raw = request.get("input")
        items = [{"role": "user", "content": raw}] if isinstance(raw, str) else raw or []
        for item in items:
            if not isinstance(item, dict):
                continue
            if item.get("type") == "function_call_output":
                turns.append(("user", f"Tool result: {_text(item.get('output'))}"))
            elif item.get("role") in ("system", "developer"):
                system.append(_text(item.get("content")))
            elif item.get("role") in ("user", "assistant"):
                text = _text(item.get("content"))
                if text:
                    turns.append((str(item["role"]), text))
    else:
        system.append(_text(request.get("system")))
        for m in request.get("messages") or []:
            if isinstance(m, dict) and m.get("role") in ("user", "assistant"):
                text = _text(m.get("content"))
                if text:
                    turns.append((str(m["role"]), text))
    merged: list[tuple[str, str]] = []
    for role, text in turns:  # Messages needs alternating roles
        if merged and merged[-1][0] == role:
            merged[-1] = (role, merged[-1][1] + "\n\n" + text)
        else:
            merged.append((role, text))
    if not merged or merged[0][0] != "user":
        merged.insert(0, ("user", "Hello."))
    return "\n\n".join(s for s in system if s), merged


def _conversation(target: str, source: str, request: dict[str, Any]) -> dict[str, Any]:
    system, turns = _turns(source, request)
    if target == "chat.completions":
        messages = [{"role": "system", "content": system}] if system else []
        return {"messages": messages + [{"role": r, "content": t} for r, t in turns]}
    if target == "responses":
        body: dict[str, Any] = {"input": [{"role": r, "content": t} for r, t in turns]}
        if system:
            body["instructions"] = system
        return body
    body = {"messages": [{"role": r, "content": t} for r, t in turns]}
    if system:
        body["system"] = system
    return body


# ------------------------------------------------------------------ variant requests


def _tools(target: str, tools: tuple[ToolSpec, ...]) -> list[dict[str, Any]]:
    if target == "chat.completions":
        return [
            {
                "type": "function",
                "function": {"name": t.name, "description": t.description, "parameters": t.schema},
            }
            for t in tools
        ]
    if target == "responses":
        return [
            {
                "type": "function",
                "name": t.name,
                "description": t.description,
                "parameters": t.schema,
            }
            for t in tools
        ]
    return [{"name": t.name, "description": t.description, "input_schema": t.schema} for t in tools]


def build_request(case: Case, combo: Combo, target: str, model: str) -> dict[str, Any]:
    """The body the gate sends for one case in one combination, in ``target``'s API."""
    view = read_request(case.api, case.request)
    if target == case.api:
        body = {k: copy.deepcopy(v) for k, v in case.request.items() if k not in _VARIED}
        if isinstance(body.get("text"), dict):
            body["text"] = {k: v for k, v in body["text"].items() if k != "format"} or None
        if isinstance(body.get("output_config"), dict):
            body["output_config"] = {
                k: v for k, v in body["output_config"].items() if k != "format"
            } or None
        body = {k: v for k, v in body.items() if v is not None}
        if target == "chat.completions" and "max_completion_tokens" in body:
            body.pop("max_tokens", None)
    else:
        body = _conversation(target, case.api, case.request)
        if view.max_tokens:
            key = {"chat.completions": "max_tokens", "responses": "max_output_tokens"}
            body[key.get(target, "max_tokens")] = view.max_tokens
    body["model"] = model
    if target == "messages":
        body.setdefault("max_tokens", view.max_tokens or DEFAULT_MAX_TOKENS)
    if combo.stream:
        body["stream"] = True
    if combo.stop:
        stop = list(view.stop) or DEFAULT_STOP
        body["stop_sequences" if target == "messages" else "stop"] = stop
    if combo.structured:
        schema = view.schema if view.structured == "json_schema" and view.schema else DEFAULT_SCHEMA
        if target == "chat.completions":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": SCHEMA_NAME, "schema": schema, "strict": True},
            }
        elif target == "responses":
            fmt = {"type": "json_schema", "name": SCHEMA_NAME, "schema": schema, "strict": True}
            body["text"] = {**body.get("text", {}), "format": fmt}
        else:
            body["output_config"] = {
                **body.get("output_config", {}),
                "format": {"type": "json_schema", "schema": schema},
            }
    if combo.tools:
        body["tools"] = _tools(target, view.tools)
        if target == case.api and "tool_choice" in case.request:
            body["tool_choice"] = copy.deepcopy(case.request["tool_choice"])
    return body
