"""Synthetic gateway traffic for ``leakline simulate`` and ``leakline demo``: the event stream.

``simulate`` yields gateway events v1 (``pipeline/schemas/gateway_event.v1.json``), each
with the labels it was *designed* to carry (``detectors/LABELS.md``), so the simulator
doubles as a labelled corpus for end-to-end checks of the detectors and the pipeline.
For each event it draws a deployment (``fleet``), a language and topic, a scenario
(``scenarios``), and writes the request and response of the deployment's API
(``writers``).

``malformed_payloads`` returns payloads that must be dead-lettered, and
``simulate_payloads`` interleaves them with encoded events according to
``Mix.malformed_ratio`` (what a producer publishes to the events topic).

Pure Python, standard library only, deterministic for a given seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from leakline.pipeline.core.gc_pause import paused_gc
from leakline.pipeline.simulate import texts as T
from leakline.pipeline.simulate.draws import choice, hex_digits, randint, randrange
from leakline.pipeline.simulate.fleet import pick_deployment
from leakline.pipeline.simulate.plan import EventContext
from leakline.pipeline.simulate.scenarios import (
    BOUNDARY,
    REASONING,
    STRUCTURED,
    TOOL_ARGS,
    TOOL_TEXT,
    plan_response,
)
from leakline.pipeline.simulate.writers import request_body, response_body

__all__ = [
    "DEFAULT_START",
    "MALFORMED_KINDS",
    "PRODUCTION_MIX",
    "Mix",
    "Payload",
    "SimulatedEvent",
    "encode_event",
    "malformed_cases",
    "malformed_payloads",
    "simulate",
    "simulate_payloads",
]

DEFAULT_START = datetime(2026, 11, 1, tzinfo=UTC)
# mean spacing between events when no rate is given
_DEFAULT_MEAN_GAP_S = 0.25


# ============================================================================ public types


@dataclass(frozen=True)
class SimulatedEvent:
    event: dict[str, Any]
    expected_labels: tuple[str, ...]  # sorted


@dataclass(frozen=True)
class Mix:
    """The traffic mix. Languages are drawn uniformly from ``languages`` (repeat one to
    weight it). ``malformed_ratio`` only applies to ``simulate_payloads``."""

    leak_ratio: float = 0.3  # share of events designed to leak
    stream_ratio: float = 0.4  # share streamed
    languages: tuple[str, ...] = ("en", "ko", "zh")
    malformed_ratio: float = 0.0  # share of malformed payloads (simulate_payloads only)
    # (min, max) characters for clean free-text answers: more answer paragraphs of the same
    # language are appended up to a length drawn log-uniformly from the range (production
    # sizes; JSON answers and designed leaks keep their length). None: the short answers.
    answer_chars: tuple[int, int] | None = None


# What production traffic looks like to the benchmarks: few leaks, answers of 0.5-8 KB.
PRODUCTION_MIX = Mix(leak_ratio=0.05, stream_ratio=0.4, answer_chars=(512, 8192))


@dataclass(frozen=True)
class Payload:
    """One message for the events topic. ``expected_labels`` is None for a malformed
    payload, which the pipeline must dead-letter."""

    key: bytes | None
    value: bytes
    expected_labels: tuple[str, ...] | None


# ============================================================================ assembly

_REMEDIATION_FOR = (
    (TOOL_TEXT, "rescue"),
    (STRUCTURED, "regenerate"),
    (TOOL_ARGS, "regenerate"),
    (BOUNDARY, "strip"),
    (REASONING, "regenerate"),
)


def _remediation(rng: random.Random, labels: set[str]) -> dict[str, Any] | None:
    action = next((a for label, a in _REMEDIATION_FOR if label in labels), None)
    if action is None:
        return None
    if action == "strip":
        return {"action": "strip", "attempts": 0, "extra_tokens": 0, "outcome": "fixed"}
    if action == "rescue":
        ok = rng.random() < 0.85
        return {
            "action": "rescue",
            "attempts": 0,
            "extra_tokens": 0,
            "outcome": "fixed" if ok else "failed",
        }
    attempts = 1 if rng.random() < 0.8 else 2
    ok = rng.random() < 0.75
    return {
        "action": "regenerate",
        "attempts": attempts,
        "extra_tokens": attempts * randrange(rng, 150, 900, 10),
        "outcome": "fixed" if ok else "failed",
    }


def _tokens(text: str | None) -> int:
    # a rough count (about three characters a token) for usage and max_tokens
    return max(1, len(text) // 3) if text else 0


def _ts(t: datetime) -> str:
    return t.isoformat(timespec="milliseconds")[:23] + "Z"


_ID_PREFIX = {"chat.completions": "chatcmpl-", "responses": "resp_", "messages": "msg_"}


def _one(rng: random.Random, seed: int, i: int, mix: Mix, ts: datetime) -> SimulatedEvent:
    stream = rng.random() < mix.stream_ratio
    leak = rng.random() < mix.leak_ratio
    lang = mix.languages[int(rng.random() * len(mix.languages))]
    dep = pick_deployment(rng, leak=leak)
    topic = T.TOPICS[int(rng.random() * len(T.TOPICS))]
    c = EventContext(rng, dep, lang, topic, stream)
    plan = plan_response(c, leak=leak, answer_chars=mix.answer_chars)

    call_prefix = "toolu_" if dep.api == "messages" else "call_"
    ids = {
        "resp": _ID_PREFIX[dep.api] + hex_digits(rng),
        "prior_call": call_prefix + hex_digits(rng),
    }
    for j in range(len(plan.calls)):
        ids[f"call{j}"] = call_prefix + hex_digits(rng)
        ids[f"fc{j}"] = "fc_" + hex_digits(rng)
    if dep.api == "responses":
        ids.update(
            rs="rs_" + hex_digits(rng), msg="msg_" + hex_digits(rng), msg_c="msg_" + hex_digits(rng)
        )
    elif dep.api == "messages":
        ids["sig"] = hex_digits(rng, 48)

    out_tokens = (
        _tokens(plan.content)
        + _tokens(plan.reasoning)
        + _tokens(plan.commentary)
        + sum(_tokens(a) + 8 for _, a in plan.calls)
    )
    if plan.finish == "length":
        limits = (2048, 4096) if plan.thinking else (256, 512, 1024)
        budget: int = max(out_tokens, choice(rng, limits))
        out_tokens = budget
        max_tokens: int | None = budget
    else:
        max_tokens = choice(rng, (None, 1024, 2048, 4096, 8192)) if dep.api != "messages" else None
        if max_tokens is not None:
            max_tokens = max(max_tokens, out_tokens + 64)
    request, in_chars = request_body(c, plan, ids, max_tokens)
    in_tokens = 40 + in_chars // 3
    usage = {
        "prompt_tokens": in_tokens,
        "completion_tokens": out_tokens,
        "total_tokens": in_tokens + out_tokens,
    }
    body_key, body = response_body(c, plan, ids, int(ts.timestamp()), usage, max_tokens)

    event: dict[str, Any] = {
        "event_id": f"sim-{seed}-{i:07d}",
        "ts": _ts(ts),
        "api": dep.api,
        "stream": stream,
        "request": request,
        body_key: body,
        "engine": {"name": dep.engine, "version": dep.engine_version},
        "model": {"name": dep.model, "revision": dep.revision},
        "chat_template": {"name": dep.template, "hash": dep.template_hash},
        "parsers": {"reasoning": dep.reasoning_parser, "tool_call": dep.tool_parser},
        "gateway": {"name": "litellm", "version": dep.gateway_version},
        "client": {
            "reasoning_field": dep.reasoning_field if dep.api == "chat.completions" else None,
            "renders_phases": dep.renders_phases if dep.api == "responses" else None,
        },
    }
    if dep.remediation and plan.labels and rng.random() < 0.5:
        rem = _remediation(rng, plan.labels)
        if rem is not None:
            event["remediation"] = rem
    return SimulatedEvent(event, tuple(sorted(plan.labels)))


def _check_mix(mix: Mix) -> None:
    for name in ("leak_ratio", "stream_ratio", "malformed_ratio"):
        value = getattr(mix, name)
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"Mix.{name} must be between 0 and 1, got {value}")
    if not mix.languages:
        raise ValueError("Mix.languages must name at least one language")
    if mix.answer_chars is not None and not 0 < mix.answer_chars[0] <= mix.answer_chars[1]:
        raise ValueError(
            f"Mix.answer_chars must be (min, max) with 0 < min <= max, got {mix.answer_chars}"
        )
    unknown = [x for x in mix.languages if x not in T.LANGUAGES]
    if unknown:
        raise ValueError(f"unsupported language(s) {unknown}; choose from {list(T.LANGUAGES)}")


def _times(seed: int, start: datetime | None, rate_per_s: float | None) -> Iterator[datetime]:
    t0 = DEFAULT_START if start is None else start
    if t0.tzinfo is None:
        t0 = t0.replace(tzinfo=UTC)
    t0 = t0.astimezone(UTC)
    i = 0
    if rate_per_s is not None:
        while True:
            yield t0 + timedelta(seconds=i / rate_per_s)
            i += 1
    trng = random.Random(f"leakline-sim-times-{seed}")
    offset = 0.0
    while True:
        yield t0 + timedelta(seconds=offset)
        offset += trng.expovariate(1.0 / _DEFAULT_MEAN_GAP_S)


def simulate(
    count: int,
    *,
    seed: int = 0,
    mix: Mix = Mix(),
    start: datetime | None = None,
    rate_per_s: float | None = None,
) -> Iterator[SimulatedEvent]:
    """Yield ``count`` gateway events with the labels each was designed to carry.

    Deterministic for a given ``seed``: the same arguments give the same events, and a
    shorter run is a prefix of a longer one. Event ids are ``sim-{seed}-{i:07d}``.
    Timestamps start at ``start`` (default 2026-11-01T00:00:00Z) and are spaced
    ``1/rate_per_s`` seconds apart, or by random gaps averaging 0.25 s when no rate is
    given; the spacing never changes the content. ``mix.malformed_ratio`` is ignored here
    (see ``simulate_payloads``).
    """
    if count < 0:
        raise ValueError("count must be >= 0")
    if rate_per_s is not None and rate_per_s <= 0:
        raise ValueError("rate_per_s must be > 0")
    _check_mix(mix)
    return _generate(count, seed, mix, start, rate_per_s)


def _generate(
    count: int, seed: int, mix: Mix, start: datetime | None, rate_per_s: float | None
) -> Iterator[SimulatedEvent]:
    rng = random.Random(seed)
    times = _times(seed, start, rate_per_s)
    for i in range(count):
        # Building one event allocates a few hundred small containers that all stay alive;
        # pausing the cyclic GC while (and only while) our own code runs avoids collecting
        # them half-built, which roughly halves the cost when a caller keeps the events.
        with paused_gc():
            event = _one(rng, seed, i, mix, next(times))
        yield event


def encode_event(event: dict[str, Any]) -> bytes:
    """The JSON bytes a producer publishes for one event."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


# ============================================================================ malformed payloads

MALFORMED_KINDS: tuple[str, ...] = (
    "truncated_json",
    "not_json",
    "invalid_utf8",
    "json_array",
    "missing_event_id",
    "empty_event_id",
    "wrong_type_stream",
    "wrong_type_request",
    "unknown_api",
    "both_response_and_chunks",
    "neither_response_nor_chunks",
)

_NOT_JSON = (
    b"<html><head><title>502 Bad Gateway</title></head><body>502 Bad Gateway</body></html>",
    b"event_id=req-7781 api=chat.completions status=200 latency_ms=812",
    b"",
    b"   \n",
    b'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n',
    b"{'event_id': 'py-repr', 'api': 'chat.completions'}",
    b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
)


def _corrupt(rng: random.Random, kind: str, event: dict[str, Any]) -> bytes:
    ev = dict(event)
    if kind == "truncated_json":
        raw = encode_event(ev)
        return raw[: randint(rng, 1, len(raw) - 1)]
    if kind == "not_json":
        return choice(rng, _NOT_JSON)
    if kind == "invalid_utf8":
        raw = encode_event(ev)
        marker = b'"event_id":"'
        at = raw.find(marker) + len(marker)
        junk = choice(
            rng, (b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"\x80abc", b"\xf8\x88\x80\x80\x80")
        )
        return raw[:at] + junk + raw[at:]
    if kind == "json_array":
        return encode_event([ev] if rng.random() < 0.5 else [ev, ev])  # type: ignore[arg-type]
    if kind == "missing_event_id":
        del ev["event_id"]
    elif kind == "empty_event_id":
        ev["event_id"] = choice(rng, ("", 1234567))
    elif kind == "wrong_type_stream":
        ev["stream"] = choice(rng, ("yes", "true", 1))
    elif kind == "wrong_type_request":
        ev["request"] = choice(rng, ([], "POST /v1/chat/completions", None))
    elif kind == "unknown_api":
        ev["api"] = choice(
            rng, ("completions", "chat", "embeddings", "generate", "Chat.Completions")
        )
    elif kind == "both_response_and_chunks":
        if "chunks" in ev:
            ev["response"] = {
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "ok"},
                        "finish_reason": "stop",
                    }
                ]
            }
        else:
            ev["chunks"] = [
                {"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": None}]}
            ]
    elif kind == "neither_response_nor_chunks":
        ev.pop("response", None)
        ev.pop("chunks", None)
    else:
        raise ValueError(f"unknown malformed kind {kind!r}")
    return encode_event(ev)


def malformed_cases(count: int, *, seed: int = 0) -> list[tuple[str, bytes]]:
    """``count`` (kind, payload) pairs that a consumer must dead-letter.

    Kinds rotate through ``MALFORMED_KINDS``; the broken events are copies of simulated
    events with ids ``bad-{seed}-{i:07d}``, so they never collide with real ones.
    """
    rng = random.Random(f"leakline-malformed-{seed}")
    base = simulate(min(count, 32), seed=seed, mix=Mix(leak_ratio=0.3, stream_ratio=0.3))
    pool = [s.event for s in base]
    out = []
    for i in range(count):
        kind = MALFORMED_KINDS[i % len(MALFORMED_KINDS)]
        event = dict(pool[i % len(pool)])
        event["event_id"] = f"bad-{seed}-{i:07d}"
        out.append((kind, _corrupt(rng, kind, event)))
    return out


def malformed_payloads(count: int, *, seed: int = 0) -> list[bytes]:
    """Invalid inputs for DLQ testing: each fails JSON decoding or schema validation."""
    return [raw for _, raw in malformed_cases(count, seed=seed)]


def simulate_payloads(
    count: int,
    *,
    seed: int = 0,
    mix: Mix = Mix(),
    start: datetime | None = None,
    rate_per_s: float | None = None,
) -> Iterator[Payload]:
    """``count`` topic messages: encoded simulated events with a share
    ``mix.malformed_ratio`` replaced by malformed payloads. The events that stay valid are
    exactly those ``simulate`` yields at the same positions."""
    if count < 0:
        raise ValueError("count must be >= 0")
    _check_mix(mix)
    events = simulate(count, seed=seed, mix=mix, start=start, rate_per_s=rate_per_s)
    return _payloads(events, seed, mix.malformed_ratio)


def _payloads(events: Iterator[SimulatedEvent], seed: int, ratio: float) -> Iterator[Payload]:
    mrng = random.Random(f"leakline-payloads-{seed}")
    n_bad = 0
    for sim in events:
        event_id = sim.event["event_id"]
        if ratio > 0 and mrng.random() < ratio:
            kind = MALFORMED_KINDS[n_bad % len(MALFORMED_KINDS)]
            n_bad += 1
            yield Payload(event_id.encode(), _corrupt(mrng, kind, sim.event), None)
        else:
            yield Payload(event_id.encode(), encode_event(sim.event), sim.expected_labels)
