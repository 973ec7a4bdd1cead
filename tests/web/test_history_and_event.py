"""Event-time counts, version regressions, the store's history and one event, without a
broker: contract-3 ``minutes``, ``version_regressions`` (query.stats' test), the routes
with store callables, and ``pipeline.store.history`` on a real DuckDB store."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import orjson
from aiohttp import web

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.live.metrics import WorkerMetrics
from leakline.pipeline.live.stats import (
    EVENT_PREFIX,
    RETENTION_S,
    SampleRing,
    batch_stats,
    bucket_start,
    buckets_from_rows,
    empty_counts,
    parse_stats,
    version_regressions,
)
from leakline.pipeline.live.web import LiveState, install
from leakline.pipeline.query.stats import two_proportion
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.history import find_event, history_rows
from leakline.pipeline.store.sink import ParquetSink

NOW = datetime(2026, 11, 29, 12, 0, 30, tzinfo=UTC)


def gateway_event(i: int, text: str, version: str, ts: datetime | str | None) -> bytes:
    body: dict[str, Any] = {
        "event_id": f"ev-{version}-{i}",
        "api": "chat.completions",
        "engine": {"name": "vllm", "version": version},
        "model": {"name": "qwen3-8b"},
        "chat_template": {"name": "qwen3"},
        "parsers": {"reasoning": "qwen3", "tool_call": "hermes"},
        "request": {"model": "m", "messages": [{"role": "user", "content": "what is 2+2?"}]},
        "response": {
            "id": "x",
            "object": "chat.completion",
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
        },
    }
    if ts is not None:
        body["ts"] = ts.isoformat() if isinstance(ts, datetime) else ts
    return orjson.dumps(body)


LEAK = "<think>The user asks 2+2. I should answer.</think>The answer is 4."
CLEAN = "The answer is 4."


def _process(payloads: list[bytes]):
    records = [RawRecord(None, p, Origin("gateway.events", 0, i)) for i, p in enumerate(payloads)]
    return process_batch(records, worker_id="w", clean_text_rate=1.0, max_event_bytes=1 << 22)


def test_records_split_their_counts_by_event_minute() -> None:
    now_s = NOW.timestamp()
    payloads = [
        gateway_event(0, LEAK, "1", NOW - timedelta(minutes=3)),
        gateway_event(1, CLEAN, "1", NOW - timedelta(minutes=3)),
        gateway_event(2, CLEAN, "1", NOW - timedelta(minutes=40)),
        gateway_event(3, LEAK, "1", NOW + timedelta(hours=2)),  # a clock ahead: counted now
        gateway_event(4, CLEAN, "1", NOW - timedelta(days=3)),  # older than 24 h: store only
        b"{broken",
    ]
    records = batch_stats(_process(payloads), "w", NOW)
    by_key = {r.key: r for r in records}
    key = "vllm|1|qwen3-8b|qwen3|qwen3|hermes"
    record = by_key[key]
    assert record.counts["total"] == 5 and record.counts["leaking"] == 2
    minutes = dict(record.minutes)
    assert minutes[bucket_start(now_s - 180)]["total"] == 2
    assert minutes[bucket_start(now_s - 180)]["leaking"] == 1
    assert minutes[bucket_start(now_s - 2400)]["total"] == 1
    assert minutes[bucket_start(now_s)]["leaking"] == 1
    assert sum(c["total"] for c in minutes.values()) == 4  # the 3-day-old one is not live
    assert all(start >= now_s - RETENTION_S - 60 for start in minutes)
    # dead letters have no event time: placed at now
    dead = [r for r in records if r.counts["dead_lettered"]]
    assert dict(dead[0].minutes)[bucket_start(now_s)]["dead_lettered"] == 1
    # contract 3 round trip keeps the minutes; a reader without them still sees the totals
    back = parse_stats(record.encode()[1])
    assert back is not None and back.minutes == record.minutes and back.counts == record.counts


def _counts(total: int, leaking: int) -> dict[str, Any]:
    return {**empty_counts(), "total": total, "leaking": leaking}


OLD = "vllm|0.31.0|qwen3-8b|qwen3|qwen3|hermes"
NEW = "vllm|0.32.0|qwen3-8b|qwen3|qwen3|hermes"


def test_a_new_version_significantly_worse_than_the_one_it_replaced_is_flagged() -> None:
    totals = {OLD: _counts(400, 8), NEW: _counts(200, 30)}
    found = version_regressions(totals, {OLD: 100.0, NEW: 200.0})
    test = two_proportion(8, 400, 30, 200, "greater")
    assert found == [
        {
            "key": NEW,
            "previous_key": OLD,
            "model": "qwen3-8b",
            "changed": "engine",
            "version": "vllm/0.32.0",
            "previous": "vllm/0.31.0",
            "rate": 30 / 200,
            "previous_rate": 8 / 400,
            "total": 200,
            "previous_total": 400,
            "p_value": test.p_value,
        }
    ]
    # seen the other way round, 0.31.0 replaced 0.32.0, and its lower rate is no regression
    assert not version_regressions(totals, {OLD: 300.0, NEW: 200.0})
    assert not version_regressions({OLD: _counts(400, 30), NEW: _counts(200, 8)}, {OLD: 1, NEW: 2})
    # same rate: not significant
    assert not version_regressions({OLD: _counts(400, 40), NEW: _counts(200, 21)}, {OLD: 1, NEW: 2})
    # too few events on one side: not judged
    assert not version_regressions({OLD: _counts(400, 8), NEW: _counts(20, 10)}, {OLD: 1, NEW: 2})
    # another model, or two parts changed at once: not a replacement
    other_model = "vllm|0.32.0|llama|qwen3|qwen3|hermes"
    assert not version_regressions(
        {OLD: _counts(400, 8), other_model: _counts(200, 30)}, {OLD: 1, other_model: 2}
    )
    two_parts = "vllm|0.32.0|qwen3-8b|qwen3-v2|qwen3|hermes"
    assert not version_regressions(
        {OLD: _counts(400, 8), two_parts: _counts(200, 30)}, {OLD: 1, two_parts: 2}
    )


def _live_state(now: float, history_rows_: list[dict[str, Any]], rows_by_id: dict) -> LiveState:
    minute = bucket_start(now)
    buckets = {
        # ingest time: everything arrived this minute; event time: spread out
        OLD: {minute: _counts(400, 8)},
        NEW: {minute: _counts(200, 30)},
        EVENT_PREFIX + OLD: {minute - 1800: _counts(400, 8)},
        EVENT_PREFIX + NEW: {minute - 120: _counts(200, 30)},
    }
    metrics = WorkerMetrics()
    metrics.observe_model("preamble-test", 2)
    calls: list[tuple[float, float, int, str]] = []

    def history(since: float, until: float, size: int, basis: str) -> list[dict[str, Any]]:
        calls.append((since, until, size, basis))
        return history_rows_

    state = LiveState(
        buckets=lambda: buckets,
        ring=SampleRing(5),
        metrics=metrics,
        worker_id="w",
        history=history,
        find_event=rows_by_id.get,
    )
    state.calls = calls  # type: ignore[attr-defined]
    return state


async def _serve(state: LiveState) -> tuple[web.AppRunner, str]:
    app = web.Application()
    install(app, state)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}"


def test_routes_basis_history_regressions_model_and_event() -> None:
    import time

    now = time.time()
    three_days_ago = bucket_start(now - 3 * 86400, 3600)
    history = [
        {
            "engine_name": "vllm",
            "engine_version": "0.30.0",
            "model_name": "qwen3-8b",
            "template_name": "qwen3",
            "reasoning_parser": "qwen3",
            "tool_call_parser": "hermes",
            "bucket": three_days_ago,
            "total": 50,
            "leaking": 5,
            "labels": {"preamble": 5},
            "dead_lettered": 0,
        }
    ]
    row = {
        "event_id": "ev-1",
        "labels": ["boundary_token"],
        "visible_text": "<think>x</think>four",
        "text_stored": True,
        "findings": [
            {
                "label": "boundary_token",
                "span": [0, 7],
                "layer": "parser",
                "remediation": "strip",
                "details": {"diagnosis": {"rule": "r", "reason": "why", "fix": "do this"}},
            }
        ],
        "event_json": {"request": {"messages": []}, "response": {"choices": []}},
        "engine_name": "vllm",
    }
    state = _live_state(now, history, {"ev-1": row})

    async def run() -> dict[str, Any]:
        runner, base = await _serve(state)
        out: dict[str, Any] = {}
        try:
            async with aiohttp.ClientSession() as http:
                for name, query in {
                    "event5m": {"window": "5m"},
                    "ingest5m": {"window": "5m", "basis": "ingest"},
                    "event1h": {"window": "1h"},
                    "history": {"window": "7d"},
                }.items():
                    async with http.get(base + "/dashboard/api/overview", params=query) as r:
                        assert r.status == 200, await r.text()
                        out[name] = await r.json()
                async with http.get(base + "/dashboard/api/series", params={"window": "30d"}) as r:
                    out["series30d"] = await r.json()
                async with http.get(base + "/dashboard/api/overview?basis=wall") as r:
                    out["bad_basis"] = r.status
                async with http.get(base + "/dashboard/api/event", params={"id": "ev-1"}) as r:
                    out["event"] = (r.status, await r.json())
                async with http.get(base + "/dashboard/api/event", params={"id": "nope"}) as r:
                    out["missing"] = (r.status, await r.json())
                async with http.get(base + "/event/ev-1") as r:
                    out["page"] = (r.status, await r.text())
                async with http.get(base + "/metrics") as r:
                    out["metrics"] = await r.text()
        finally:
            await runner.cleanup()
        return out

    out = asyncio.run(run())
    # event time (default): only the new version's events are in the last 5 minutes
    assert out["event5m"]["basis"] == "event"
    assert out["event5m"]["totals"]["5m"]["total"] == 200
    assert out["event1h"]["totals"]["1h"]["total"] == 600
    # ingest time: everything was processed this minute
    assert out["ingest5m"]["totals"]["5m"]["total"] == 600
    assert out["bad_basis"] == 400
    # 7 days: read from the store's callable, hourly buckets, basis passed through
    hist = out["history"]
    assert hist["windows"] == ["5m", "1h", "24h", "7d"] and hist["bucket_s"] == 3600
    assert hist["totals"]["7d"]["total"] == 50 and hist["totals"]["7d"]["leaking"] == 5
    assert [r["dims"]["engine_version"] for r in hist["rows"]] == ["0.30.0"]
    assert state.calls[0][2:] == (3600, "event")  # type: ignore[attr-defined]
    assert sum(p["total"] for p in out["series30d"]["points"]) == 50
    # the regression, the model
    assert [r["version"] for r in hist["regressions"]] == ["vllm/0.32.0"]
    assert hist["model"] == {"version": "preamble-test", "known": True, "reload_failures": 2}
    assert (
        'leakline_version_regression{changed="engine",model="qwen3-8b",previous="vllm/0.31.0",'
        'version="vllm/0.32.0"} 1.0' in out["metrics"]
    )
    assert 'leakline_model_info{version="preamble-test"} 1.0' in out["metrics"]
    assert "leakline_model_reload_failures_total 2.0" in out["metrics"]
    # one event: marked span, diagnosis, request/response
    status, event = out["event"]
    assert status == 200
    assert event["segments"] == [
        {"text": "<think>", "mark": True},
        {"text": "x</think>four", "mark": False},
    ]
    assert event["findings"][0]["diagnosis"]["fix"] == "do this"
    assert event["request"] == {"messages": []} and event["response"] == {"choices": []}
    assert out["missing"][0] == 404 and "nope" in out["missing"][1]["error"]
    assert out["page"][0] == 200 and "/dashboard/api/event" in out["page"][1]


def test_without_a_store_the_history_windows_and_events_are_refused() -> None:
    state = LiveState(
        buckets=lambda: {}, ring=SampleRing(5), metrics=WorkerMetrics(), worker_id="w"
    )

    async def run() -> tuple[int, int]:
        runner, base = await _serve(state)
        try:
            async with aiohttp.ClientSession() as http:
                async with http.get(base + "/dashboard/api/overview?window=7d") as r:
                    window = r.status
                async with http.get(base + "/dashboard/api/event?id=x") as r:
                    event = r.status
        finally:
            await runner.cleanup()
        return window, event

    assert asyncio.run(run()) == (400, 503)


def test_store_history_and_event_lookup_on_a_real_store(tmp_path: Path) -> None:
    data = tmp_path / "data"
    now = datetime.now(UTC).replace(microsecond=0)
    payloads = [
        gateway_event(i, LEAK if i % 2 else CLEAN, "0.31.0", now - timedelta(days=3))
        for i in range(6)
    ]
    payloads += [gateway_event(i, LEAK, "0.32.0", now - timedelta(minutes=5)) for i in range(4)]
    before = datetime.now(UTC).timestamp()
    result = _process(payloads)
    init_store(data)
    ParquetSink(data).write(result.rows.table())
    after = datetime.now(UTC).timestamp()
    since, until = (now - timedelta(days=7)).timestamp(), now.timestamp() + 1
    rows = history_rows(data, since, until, 3600, "event")
    buckets = buckets_from_rows(rows)
    old = buckets["vllm|0.31.0|qwen3-8b|qwen3|qwen3|hermes"]
    assert list(old) == [bucket_start((now - timedelta(days=3)).timestamp(), 3600)]
    only = next(iter(old.values()))
    assert (only["total"], only["leaking"]) == (6, 3)
    assert only["labels"] == {"boundary_token": 3, "reasoning_leak": 3}
    # ingest time: everything was stored just now, so nothing is 3 days old
    ingest = buckets_from_rows(history_rows(data, since, until, 3600, "ingest"))
    starts = {start for per in ingest.values() for start in per}
    assert starts <= {bucket_start(before, 3600), bucket_start(after, 3600)}
    assert sum(c["total"] for per in ingest.values() for c in per.values()) == 10
    event = find_event(data, "ev-0.32.0-1")
    assert event is not None and event["engine_version"] == "0.32.0"
    assert event["labels"] == ["boundary_token", "reasoning_leak"]
    assert event["event_json"]["request"]["messages"][0]["content"] == "what is 2+2?"
    assert event["findings"][0]["details"]["diagnosis"]["fix"]
    assert event["source"] == "production"
    assert find_event(data, "no-such-event") is None


def test_a_query_token_opens_the_event_page_but_not_its_data() -> None:
    from leakline.pipeline.http.auth import token_middleware

    token = "event-page-token-0123456789"
    state = LiveState(
        buckets=lambda: {},
        ring=SampleRing(5),
        metrics=WorkerMetrics(),
        worker_id="w",
        find_event={"a/b": {"event_id": "a/b"}}.get,
    )

    async def run() -> list[int]:
        app = web.Application(middlewares=[token_middleware(token)])
        install(app, state)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        base = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
        statuses = []
        try:
            async with aiohttp.ClientSession() as http:
                for path, params, headers in [
                    ("/event/a%2Fb", {}, {}),
                    ("/event/a%2Fb", {"token": token}, {}),
                    ("/dashboard/api/event", {"id": "a/b", "token": token}, {}),
                    ("/dashboard/api/event", {"id": "a/b"}, {"Authorization": f"Bearer {token}"}),
                ]:
                    async with http.get(base + path, params=params, headers=headers) as r:
                        statuses.append(r.status)
        finally:
            await runner.cleanup()
        return statuses

    assert asyncio.run(run()) == [401, 200, 401, 200]
