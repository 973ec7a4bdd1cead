"""Planted secrets: events that carry one secret of every redaction kind in every place an
event can carry text, and a finder that says which of them survive in some output.

The privacy test (``tests/reliability/test_planted_secrets.py``) and the ``planted``
scenario of ``benchmarks/reliability.py`` send ``planted_events()`` through a real worker
and run ``find_planted`` over everything the event can reach: Parquet columns,
``event_json``, every topic the worker writes, ``/metrics``, the dashboard API, export
files, regression cases and the worker log.
"""

from __future__ import annotations

import json
from typing import Any

# one secret per redaction rule (pipeline/events/redact.py RULES), all synthetic
PLANTED: dict[str, str] = {
    "email": "jane.planted@example.com",
    "phone": "+82 10-4321-8765",
    "api_key": "sk-proj-Pl4nt3dK3yAbC123DEF456ghi789",
    "bearer": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkLXVzZXItNDIifQ.cGxhbnRlZC1zaWduYXR1cmUtMTIz",
    "card": "4111 1111 1111 1111",
    "aws_secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYPLANTED421",
    "kr_rrn": "900101-1234567",
    "us_ssn": "078-05-1121",
    "iban": "GB82 WEST 1234 5698 7654 32",
    "private_key": (
        "-----BEGIN RSA PRIVATE KEY-----\n"
        "MIIEowIBAAKCAQEAPlAnTeDk3yB0dyL1n3OnEz3VS5JJcds3xfn/ygWyF8PbnGy0\n"
        "AHB7MhgHcTz6sE2I2yPBaFDrBz9vFqU4yKpLaNtEdK3yB0dyL1n3TwOq1Vz8xV+7\n"
        "-----END RSA PRIVATE KEY-----"
    ),
}

VERSION_FIELDS = (
    ("engine", "name"),
    ("engine", "version"),
    ("model", "name"),
    ("model", "revision"),
    ("chat_template", "name"),
    ("chat_template", "hash"),
    ("parsers", "reasoning"),
    ("parsers", "tool_call"),
    ("gateway", "name"),
    ("gateway", "version"),
)


def fragments(secret: str) -> list[str]:
    """What must not be found of one secret: itself, each long line of it, its JSON
    form (escaped newlines), its digits without separators and, for long ones, a core
    that any partial copy (a secret cut by a chunk boundary) would still hold."""
    out = [secret, json.dumps(secret)[1:-1]]
    out += [line for line in secret.splitlines() if len(line) >= 12]
    digits = "".join(ch for ch in secret if ch.isdigit())
    if len(digits) >= 9 and len(digits) * 2 > len(secret):
        out.append(digits)
    if "BEGIN" not in secret and len(secret) >= 24:
        middle = len(secret) // 2
        out += [secret[middle - 6 : middle + 6], secret[-10:]]
    return list(dict.fromkeys(out))


def find_planted(blob: bytes | str) -> list[str]:
    """The kinds of ``PLANTED`` whose secret (or a fragment of it) is in ``blob``."""
    text = blob.decode("utf-8", "replace") if isinstance(blob, bytes) else blob
    return [kind for kind, secret in PLANTED.items() if any(f in text for f in fragments(secret))]


def _all_secrets(sep: str = " | ") -> str:
    return sep.join(f"{kind}: {secret}" for kind, secret in PLANTED.items())


def _chat(event_id: str, message: dict[str, Any], request: dict[str, Any] | None = None) -> dict:
    return {
        "event_id": event_id,
        "ts": "2026-12-02T03:00:00Z",
        "api": "chat.completions",
        "stream": False,
        "request": request or {"messages": [{"role": "user", "content": "hello"}]},
        "response": {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]},
        "engine": {"name": "vllm", "version": "0.10.1"},
        "model": {"name": "Qwen/Qwen3-8B"},
    }


def planted_events(prefix: str = "planted") -> list[dict[str, Any]]:
    """Five leaking events, one per place: content, reasoning, tool arguments, version
    fields, and a stream whose every secret is cut in two by a chunk boundary."""
    secrets = _all_secrets()
    content = _chat(f"{prefix}-content", {"content": f"<think>ok</think>Here: {secrets}"})
    reasoning = _chat(
        f"{prefix}-reasoning",
        {"content": "<think>x</think>Done.", "reasoning_content": f"Noted {secrets}"},
    )
    tool_request = {
        "messages": [{"role": "user", "content": "look it up"}],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "lookup",
                    "parameters": {"type": "object", "properties": {}},
                },
            }
        ],
    }
    tool_args = _chat(
        f"{prefix}-tool-args",
        {
            "content": "<think>calling</think>Looking it up.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": json.dumps(PLANTED)},
                }
            ],
        },
        tool_request,
    )
    versions = _chat(f"{prefix}-versions", {"content": "<think>v</think>Versions."})
    for (obj, member), secret in zip(VERSION_FIELDS, PLANTED.values(), strict=True):
        versions.setdefault(obj, {})[member] = secret
    versions["remediation"] = {"action": PLANTED["email"], "outcome": PLANTED["kr_rrn"]}
    return [content, reasoning, tool_args, versions, streamed_split(f"{prefix}-stream")]


def streamed_split(event_id: str) -> dict[str, Any]:
    """A streamed answer in which each secret is cut in the middle by a chunk boundary,
    in the visible text and in the reasoning."""
    visible, reasoning = ["<think>s</think>Here: "], ["Noted "]
    for secret in PLANTED.values():
        cut = len(secret) // 2
        visible[-1] += secret[:cut]
        visible.append(secret[cut:] + " | ")
        reasoning[-1] += secret[:cut]
        reasoning.append(secret[cut:] + "; ")
    chunks: list[dict[str, Any]] = [
        {"choices": [{"index": 0, "delta": {"reasoning_content": piece}}]} for piece in reasoning
    ]
    chunks += [
        {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
        for piece in visible
    ]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    return {
        "event_id": event_id,
        "ts": "2026-12-02T03:00:00Z",
        "api": "chat.completions",
        "stream": True,
        "request": {"messages": [{"role": "user", "content": "hello"}], "stream": True},
        "chunks": chunks,
        "engine": {"name": "vllm", "version": "0.10.1"},
        "model": {"name": "Qwen/Qwen3-8B"},
    }
