"""Issue 36, finding 5 (acceptance): every secret kind planted in every field an event has,
sent through a real worker (debug logging on, dashboard served, a real broker), and every
sink scanned: Parquet, the DuckDB store, ``leakline export``, the dashboard JSON, ``tail``
output, the worker log at debug level, dead letters (reasons, ``leakline dlq``), and every
topic the worker writes. Issue 18's planted events (text, reasoning, tool arguments,
version fields, split chunks) ride along."""

from __future__ import annotations

import asyncio
import json
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import orjson
import pytest
from leakline_testkit import every_place, leakline, read_topic, spawn_worker, wait_stored
from test_planted_secrets import _wait_samples

from leakline.pipeline.kafka.broker import free_port
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.simulate.planted import PLANTED, fragments, planted_events

# the formats issue 36 found slipping through, next to issue 18's kinds
SIDE_DOORS: dict[str, str] = {
    "rrn_fullwidth": "850505－1234567",
    "rrn_space": "851231 2345678",
    "card_mixed": "5555 5555-5555.4444",
    "glued_key": "sk-proj-GlU3dK3yAbC123DEF456ghi789",  # planted as "mykey" + this
    "member_value": "hunter2-planted",  # under "password" / "x-api-key": no pattern knows it
    "card_number": "4111111111111111",  # as an integer and a float
}
KINDS = {**PLANTED, **SIDE_DOORS}
LEAKING = "<think>plan</think>Here: "
SECRETS_TEXT = " | ".join(
    ("mykey" + v if k == "glued_key" else v) for k, v in KINDS.items() if k != "member_value"
)
CARD_INT = int(SIDE_DOORS["card_number"])


def find(blob: bytes | str) -> list[str]:
    text = blob.decode("utf-8", "replace") if isinstance(blob, bytes) else blob
    return [kind for kind, secret in KINDS.items() if any(f in text for f in fragments(secret))]


def _event(event_id: str, **fields: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "event_id": event_id,
        "ts": "2026-12-02T03:00:00Z",
        "api": "chat.completions",
        "request": {"messages": [{"role": "user", "content": "hi"}]},
        "response": {
            "choices": [{"message": {"content": LEAKING + SECRETS_TEXT}, "finish_reason": "stop"}]
        },
    }
    event.update(fields)
    return event


def side_door_events() -> list[dict[str, Any]]:
    """One event per kind of field: ids and times, free-form dimensions, numbers, tags,
    request members named like secrets, unknown top-level members."""
    tools = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
    return [
        _event(f"id {PLANTED['email']} {SIDE_DOORS['rrn_space']}", ts=PLANTED["us_ssn"]),
        _event(
            "side-dimensions",
            request={
                "messages": [{"role": "user", "content": "hi"}],
                "reasoning_effort": PLANTED["api_key"],
                "tool_choice": PLANTED["email"],
                "tools": tools,
            },
            response={
                "choices": [
                    {"message": {"content": LEAKING}, "finish_reason": SIDE_DOORS["card_mixed"]}
                ]
            },
        ),
        _event(
            "side-numbers",
            request={"messages": [], "thinking": {"type": "enabled", "budget_tokens": CARD_INT}},
            usage={"prompt_tokens": CARD_INT, "completion_tokens": CARD_INT},
            latency_ms=float(CARD_INT),
            remediation={"action": "retry", "attempts": CARD_INT, "extra_tokens": CARD_INT},
        ),
        _event(
            "side-tags",
            tags={
                "password": SIDE_DOORS["member_value"],
                "note": SIDE_DOORS["rrn_fullwidth"],
                "owner": PLANTED["email"],
            },
        ),
        _event(
            "side-members",
            request={
                "messages": [{"role": "user", "content": f"key mykey{SIDE_DOORS['glued_key']}"}],
                "api_key": SIDE_DOORS["member_value"],
                "extra_headers": {"x-api-key": SIDE_DOORS["member_value"]},
                "metadata": {"note": json.dumps({"password": SIDE_DOORS["member_value"]})},
            },
            debug_copy={"raw": SECRETS_TEXT, "password": SIDE_DOORS["member_value"]},
        ),
    ]


def dead_letter_payloads() -> list[bytes]:
    """Invalid events whose reasons would quote a secret."""
    bad_type = _event("side-dlq-1", latency_ms=PLANTED["api_key"])
    bad_model = _event("side-dlq-2", model=f"{PLANTED['email']} {SIDE_DOORS['card_mixed']}")
    return [orjson.dumps(bad_type), orjson.dumps(bad_model)]


@pytest.mark.slow
def test_every_secret_in_every_field_reaches_no_sink(broker, tmp_path: Path) -> None:
    events = planted_events("p36") + side_door_events()
    payloads = [orjson.dumps(e) for e in events]
    # the finder finds every kind in what was sent
    assert set(find(b"\n".join(payloads))) == set(KINDS)
    port = free_port()
    store = tmp_path / "store"
    worker = spawn_worker(
        broker.bootstrap,
        store,
        "--web",
        "--web-port",
        str(port),
        "--batch-within",
        "0.2",
        "--loglevel",
        "debug",
    )
    try:
        sent = payloads + dead_letter_payloads()
        report = asyncio.run(produce(broker.bootstrap, "gateway.events", sent))
        assert report.sent == len(sent), report
        wait_stored(worker, len(events))
        _wait_samples(port, len(events))
        places = every_place(broker.bootstrap, store, port, "", tmp_path / "out")
        base = f"http://127.0.0.1:{port}/dashboard/api"
        listing = places["web /dashboard/api/samples?limit=100"]
        ids = [row["event_id"] for row in _rows(orjson.loads(listing))]
        assert len(ids) >= len(events), listing[:500]
        for event_id in ids:
            query = urllib.parse.urlencode({"id": event_id})
            with urllib.request.urlopen(f"{base}/event?{query}", timeout=10) as response:
                places[f"web /dashboard/api/event {event_id}"] = response.read()
        tail = leakline(
            "tail", "--bootstrap", broker.bootstrap, "--from-beginning", "--once",
            "--format", "plain", "--by", "engine.name",
        )  # fmt: skip
        assert tail.returncode == 0, tail.stderr
        places["tail output"] = (tail.stdout + tail.stderr).encode()
        dlq = leakline("dlq", "--bootstrap", broker.bootstrap, "--show", "10")
        assert dlq.returncode == 0, dlq.stderr
        places["dlq output"] = (dlq.stdout + dlq.stderr).encode()
        letters = read_topic(broker.bootstrap, "gateway.events.dlq")
        assert len(letters) == 2
        places["dlq reasons"] = b"\n".join(r.headers.get("leakline.reason", b"") for r in letters)
        from leakline.pipeline.store.database import read_only

        with read_only(store) as con:
            rows = con.execute("select * from samples").fetchall()
        places["store samples view"] = json.dumps(rows, default=str).encode()
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
    log = worker.log_text()
    assert " DEBUG " in log or "[D]" in log or "debug" in log.lower(), log[:2000]
    places["worker log (debug)"] = log.encode()
    assert any(name.startswith("parquet") for name in places)
    assert (
        "side-numbers" in places["tail output"].decode() or "p36-" in places["tail output"].decode()
    )
    leaks = {name: kinds for name, blob in places.items() if (kinds := find(blob))}
    assert not leaks, leaks


def _rows(page: Any) -> list[dict[str, Any]]:
    if isinstance(page, list):
        return page
    for key in ("events", "items", "rows", "samples"):
        if isinstance(page.get(key), list):
            return page[key]
    raise AssertionError(f"no rows in {str(page)[:300]}")
