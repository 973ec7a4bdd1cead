"""Metrics registry and token checks without a broker (a real aiohttp server on loopback)."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import aiohttp
import pytest
from aiohttp import web

from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.http.auth import token_middleware
from leakline.pipeline.live.metrics import WorkerMetrics
from leakline.pipeline.live.stats import OTHER, UNKNOWN_KEY, SampleRing, StatsRecord
from leakline.pipeline.live.web import LiveState, check_exposure, is_loopback
from leakline.pipeline.live.web.views import install, page_html

TOKEN = "t0k3n-for-tests-0123456789"


def _rec(key: str, total: int, leaking: int = 0, dead: int = 0, **labels: int) -> StatsRecord:
    counts = {"total": total, "leaking": leaking, "labels": labels, "dead_lettered": dead}
    return StatsRecord(key, "w", "2026-11-29T00:00:00Z", counts)


def test_metrics_count_by_version_and_label() -> None:
    m = WorkerMetrics()
    m.observe_batch(
        [
            _rec("vllm|0.31.0|qwen|tpl|qwen3|hermes", 10, 3, preamble=2, boundary_token=1),
            _rec(UNKNOWN_KEY, 0, dead=4),
        ],
        [
            "not valid JSON: unexpected end of data",
            "schema violation at (root): 'ts' is a required property",
            "schema violation at response: wrong type",
            "internal error while processing: KeyError: 'x'",
        ],
    )
    m.observe_batch([_rec("vllm|0.31.0|qwen|other-tpl|qwen3|hermes", 5, 1, preamble=1)])
    labels = {
        "engine": "vllm",
        "engine_version": "0.31.0",
        "model": "qwen",
        "reasoning_parser": "qwen3",
        "tool_call_parser": "hermes",
    }
    get = m.registry.get_sample_value
    assert get("leakline_events_total", labels) == 15  # templates are not a metric label
    assert get("leakline_leaking_events_total", labels) == 4
    assert get("leakline_leaks_total", {**labels, "label": "preamble"}) == 3
    assert get("leakline_leaks_total", {**labels, "label": "boundary_token"}) == 1
    assert get("leakline_dead_letters_total", {"reason": "schema"}) == 2
    assert get("leakline_dead_letters_total", {"reason": "not_json"}) == 1
    assert get("leakline_dead_letters_total", {"reason": "internal"}) == 1
    assert get("leakline_dead_letters_total", {"reason": "too_large"}) is None
    assert get("leakline_batches_total") == 2
    m.flush.observe(0.02)
    m.set_lag([("gateway.events", 0, 7), ("gateway.events", 1, -1)])
    text = m.render().decode()
    assert 'leakline_consumer_lag{partition="0",topic="gateway.events"} 7.0' in text
    assert 'leakline_consumer_lag{partition="1",topic="gateway.events"} 0.0' in text
    assert "leakline_sink_flush_seconds_count 1.0" in text
    assert "_created" not in text


def test_version_label_sets_are_capped() -> None:
    m = WorkerMetrics(max_version_sets=3)
    m.observe_batch([_rec(f"e|v{i}|m|t|r|p", 1, 1, preamble=1) for i in range(10)])
    text = m.render().decode()
    assert text.count("leakline_events_total{") == 4  # three kept + "other"
    other = dict.fromkeys(
        ("engine", "engine_version", "model", "reasoning_parser", "tool_call_parser"), OTHER
    )
    assert m.registry.get_sample_value("leakline_events_total", other) == 7
    assert m.registry.get_sample_value("leakline_version_sets_overflow_total") == 7


def test_exposure_rules() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert is_loopback("[::1]") and not is_loopback("0.0.0.0") and not is_loopback("10.1.2.3")
    check_exposure("127.0.0.1", None)
    check_exposure("0.0.0.0", TOKEN)
    with pytest.raises(LeaklineError, match="without a token"):
        check_exposure("0.0.0.0", None)
    with pytest.raises(LeaklineError, match="too short"):
        check_exposure("0.0.0.0", "short")


def test_exposed_worker_without_token_refuses_to_start() -> None:
    # no broker at this address: the check must fire before any connection attempt
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.cli",
            "worker",
            "--bootstrap",
            "127.0.0.1:1",
            "--web",
            "--web-host",
            "0.0.0.0",
            "--data-dir",
            "/nonexistent/leakline",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 2, proc.stderr
    assert "without a token" in proc.stderr and "LEAKLINE_WEB_TOKEN" in proc.stderr
    assert "Traceback" not in proc.stderr


def _state(worker_id: str = "w") -> LiveState:
    return LiveState(
        buckets=lambda: {}, ring=SampleRing(5), metrics=WorkerMetrics(), worker_id=worker_id
    )


async def _serve_protected(state: LiveState) -> tuple[web.AppRunner, str]:
    """The worker's routes behind the token middleware, on a real loopback port."""
    app = web.Application(middlewares=[token_middleware(TOKEN)])
    install(app, state)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}"


def test_every_route_needs_the_token() -> None:
    state = _state()

    async def run() -> None:
        runner, base = await _serve_protected(state)
        try:
            async with aiohttp.ClientSession() as http:
                paths = [
                    "/dashboard",
                    "/dashboard/api/overview",
                    "/dashboard/api/series",
                    "/dashboard/api/samples",
                    "/metrics",
                ]
                for path in paths:
                    async with http.get(base + path) as r:
                        assert r.status == 401, path
                    async with http.get(
                        base + path, headers={"Authorization": "Bearer wrong"}
                    ) as r:
                        assert r.status == 401, path
                    async with http.get(
                        base + path, headers={"Authorization": f"Bearer {TOKEN}"}
                    ) as r:
                        assert r.status == 200, path
                    # a query token only where a browser cannot send a header
                    async with http.get(base + path, params={"token": TOKEN}) as r:
                        assert r.status == (200 if path == "/dashboard" else 401), path
                async with http.get(base + "/dashboard/api/events") as r:
                    assert r.status == 401
                async with http.get(base + "/dashboard/api/events", params={"token": TOKEN}) as r:
                    assert r.status == 200 and r.headers["Content-Type"] == "text/event-stream"
                    first = await asyncio.wait_for(r.content.readuntil(b"\n\n"), 10)
                    assert first.startswith(b"retry:")
                    update = await asyncio.wait_for(r.content.readuntil(b"\n\n"), 10)
                    assert update.startswith(b"event: update")
                async with http.get(
                    base + "/dashboard/api/overview",
                    params={"window": "7d"},
                    headers={"Authorization": f"Bearer {TOKEN}"},
                ) as r:
                    assert r.status == 400
        finally:
            await runner.cleanup()

    asyncio.run(run())


def test_probes_answer_without_the_token_and_follow_readiness() -> None:
    state = _state("w-7")

    async def run() -> None:
        runner, base = await _serve_protected(state)
        try:
            async with aiohttp.ClientSession() as http:

                async def probe(path: str) -> tuple[int, dict[str, object]]:
                    async with http.get(base + path) as r:
                        return r.status, await r.json()

                assert await probe("/healthz") == (200, {"alive": True, "worker_id": "w-7"})
                assert await probe("/readyz") == (503, {"ready": False, "worker_id": "w-7"})
                state.ready = True
                assert await probe("/readyz") == (200, {"ready": True, "worker_id": "w-7"})
                state.closing.set()  # shutting down: take no new traffic
                assert (await probe("/readyz"))[0] == 503
                # only the two exact paths skip the token
                for path in ("/healthz/../metrics", "/readyz/x", "/HEALTHZ", "/metrics"):
                    async with http.get(base + path) as r:
                        assert r.status == 401, path
        finally:
            await runner.cleanup()

    asyncio.run(run())


def test_page_is_self_contained() -> None:
    html = page_html()
    assert "/*SCRIPT*/" not in html and "/*STYLE*/" not in html
    assert "EventSource" in html and "<mark" not in html  # marks are built as DOM nodes
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in html


def test_grafana_dashboard_queries_metrics_that_exist() -> None:
    import json
    import re
    from pathlib import Path

    root = Path(__file__).parents[2]
    dashboard = json.loads((root / "deploy/grafana/dashboards/leakline.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    used = {name for e in exprs for name in re.findall(r"leakline_[a-z_]+", e)}
    m = WorkerMetrics()
    m.observe_batch([_rec("vllm|1|m|t|r|p", 2, 1, dead=1, preamble=1)], ["event too large: 9"])
    m.flush.observe(0.1)
    m.set_lag([("gateway.events", 0, 1)])
    m.overflow.inc(0)
    exposed = set(re.findall(r"^(leakline_[a-z_]+)", m.render().decode(), re.M))
    assert used and used <= exposed, used - exposed
    # no YAML parser among the dependencies: plain text checks of the wiring
    compose = (root / "docker-compose.yml").read_text()
    prom = (root / "deploy/prometheus/prometheus.yml").read_text()
    assert "names: [worker]" in prom and "port: 6066" in prom
    assert "credentials_file: /run/secrets/leakline_web_token" in prom
    assert '"--web", "--web-host", "0.0.0.0", "--web-port", "6066"' in compose
    assert "LEAKLINE_WEB_TOKEN: ${LEAKLINE_WEB_TOKEN:?" in compose
    assert "u.urlopen('http://127.0.0.1:6066/readyz'" in compose  # the worker's healthcheck
