"""Dashboard routes on the worker's aiohttp server (Faust web): page, JSON, SSE, /metrics.

Every JSON answer is aggregated and bounded (top-N versions + "other", paginated
samples), so the browser never receives the store or an unbounded list.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from aiohttp import web

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.live.metrics import CONTENT_TYPE, WorkerMetrics
from leakline.pipeline.live.stats import (
    BUCKET_S,
    OTHER,
    WINDOWS,
    Buckets,
    SampleRing,
    add_counts,
    empty_counts,
    rate_row,
    series,
    top_rows,
    window_totals,
)

MAX_TOP = 50
MAX_PAGE = 100
MAX_VERSIONS_LISTED = 200
SSE_TICK_S = 1.0
SSE_MAX_S = 300.0  # the browser reconnects; a stale connection never outlives this


@dataclass
class LiveState:
    """What the views read; the worker fills it."""

    buckets: Callable[[], Buckets]
    ring: SampleRing
    metrics: WorkerMetrics
    worker_id: str
    lag: Callable[[], Awaitable[list[tuple[str, int, int]]]] | None = None
    stats_partitions: Callable[[], list[int]] = field(default=lambda: [])
    stats_applied: int = 0  # leak.stats records folded into the table
    closing: asyncio.Event = field(default_factory=asyncio.Event)
    ready: bool = False  # the worker has started what it needs to take batches


def _static(name: str) -> str:
    return (
        resources.files("leakline.pipeline.live.web")
        .joinpath("static", name)
        .read_text(encoding="utf-8")
    )


def page_html() -> str:
    """One self-contained page: CSS and JS inlined, so one authorised request loads it."""
    html = _static("index.html")
    return html.replace("/*STYLE*/", _static("dashboard.css")).replace(
        "/*SCRIPT*/", _static("dashboard.js")
    )


def _int(request: web.Request, name: str, default: int, lo: int, hi: int) -> int:
    try:
        value = int(request.query.get(name, default))
    except ValueError:
        raise web.HTTPBadRequest(text=f"{name} must be an integer") from None
    return min(max(value, lo), hi)


def _window(request: web.Request) -> str:
    window = request.query.get("window", "5m")
    if window not in WINDOWS:
        raise web.HTTPBadRequest(text="window must be one of " + ", ".join(WINDOWS))
    return window


def _filters(request: web.Request) -> tuple[str | None, str | None]:
    return request.query.get("label") or None, request.query.get("version") or None


def _label_view(counts: dict[str, Any], label: str | None) -> dict[str, Any]:
    """With a label filter, "leaking" means "carries this label"."""
    if label is None:
        return counts
    n = int(counts["labels"].get(label, 0))
    return {**counts, "leaking": n, "labels": {label: n} if n else {}}


def overview(state: LiveState, request: web.Request, now: float | None = None) -> dict[str, Any]:
    now = time.time() if now is None else now
    label, version = _filters(request)
    window = _window(request)
    top = _int(request, "top", 15, 1, MAX_TOP)
    buckets = state.buckets()
    per_window = {}
    rows: list[dict[str, Any]] = []
    versions: list[str] = []
    for name, seconds in WINDOWS.items():
        totals = window_totals(buckets, now, seconds)
        if name == "24h":
            versions = sorted(totals, key=lambda k: -totals[k]["total"])[:MAX_VERSIONS_LISTED]
        if version:
            totals = {k: v for k, v in totals.items() if k == version}
        totals = {k: _label_view(v, label) for k, v in totals.items()}
        summed = empty_counts()
        for counts in totals.values():
            summed = add_counts(summed, counts)
        per_window[name] = rate_row("all", summed)
        if name == window:
            rows = top_rows(totals, top)
    return {
        "worker_id": state.worker_id,
        "now": now,
        "window": window,
        "windows": list(WINDOWS),
        "bucket_s": BUCKET_S,
        "filters": {"label": label, "version": version},
        "totals": per_window,
        "rows": rows,
        "versions": versions,
        "labels": list(ALL_LABELS),
        "stats_partitions": state.stats_partitions(),
        "stats_applied": state.stats_applied,
        "samples_seen": state.ring.seen,
    }


def time_series(state: LiveState, request: web.Request) -> dict[str, Any]:
    now = time.time()
    label, version = _filters(request)
    window = _window(request)
    points = series(
        state.buckets(), now, WINDOWS[window], points=60, keys=[version] if version else None
    )
    if label:
        for point in points:
            point["labels"] = {label: point["labels"].get(label, 0)}
            point["leaking"] = point["labels"][label]
            point["rate"] = point["leaking"] / point["total"] if point["total"] else 0.0
    return {"window": window, "now": now, "points": points}


def install(app: web.Application, state: LiveState) -> None:
    """Add the dashboard routes to the (not yet started) aiohttp application."""

    async def dashboard(request: web.Request) -> web.StreamResponse:
        return web.Response(
            text=page_html(),
            content_type="text/html",
            headers={
                # everything is inline and same-origin; no CDN, no framing, no referrer leak
                "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; "
                "style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; "
                "frame-ancestors 'none'",
                "Referrer-Policy": "no-referrer",
                "Cache-Control": "no-store",
            },
        )

    # answers are cached until the table changes (or 2 s pass): many open dashboards
    # refreshing on every batch then cost one aggregation, not one each
    cache: dict[tuple[Any, ...], dict[str, Any]] = {}

    def cached(kind: str, request: web.Request, build: Callable[[], dict[str, Any]]) -> Any:
        key = (
            kind,
            state.stats_applied,
            state.ring.seen,
            request.query_string,
            int(time.time() // 2),
        )
        if key not in cache:
            if len(cache) > 64:
                cache.clear()
            cache[key] = build()
        return cache[key]

    async def api_overview(request: web.Request) -> web.StreamResponse:
        return web.json_response(cached("overview", request, lambda: overview(state, request)))

    async def api_series(request: web.Request) -> web.StreamResponse:
        return web.json_response(cached("series", request, lambda: time_series(state, request)))

    async def api_samples(request: web.Request) -> web.StreamResponse:
        label, version = _filters(request)
        offset = _int(request, "offset", 0, 0, 100_000)
        limit = _int(request, "limit", 20, 1, MAX_PAGE)
        return web.json_response(state.ring.page(label, version, offset, limit))

    async def api_events(request: web.Request) -> web.StreamResponse:
        """SSE: an ``update`` event whenever the table or the sample ring changed."""
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        last: tuple[int, int] | None = None
        started = idle = time.monotonic()
        with contextlib.suppress(ConnectionResetError, asyncio.CancelledError):
            await response.write(b"retry: 2000\n\n")
            while not state.closing.is_set() and time.monotonic() - started < SSE_MAX_S:
                current = (state.stats_applied, state.ring.seen)
                if current != last:
                    last = current
                    idle = time.monotonic()
                    data = f'{{"stats": {current[0]}, "samples": {current[1]}}}'
                    await response.write(f"event: update\ndata: {data}\n\n".encode())
                elif time.monotonic() - idle > 15:
                    idle = time.monotonic()
                    await response.write(b": keep-alive\n\n")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(state.closing.wait(), SSE_TICK_S)
        return response

    async def metrics(request: web.Request) -> web.StreamResponse:
        if state.lag is not None:
            with contextlib.suppress(Exception):  # a scrape never fails on a rebalance
                state.metrics.set_lag(await state.lag())
        return web.Response(body=state.metrics.render(), headers={"Content-Type": CONTENT_TYPE})

    async def healthz(request: web.Request) -> web.StreamResponse:
        return web.json_response({"alive": True, "worker_id": state.worker_id})

    async def readyz(request: web.Request) -> web.StreamResponse:
        ready = state.ready and not state.closing.is_set()
        body = {"ready": ready, "worker_id": state.worker_id}
        return web.json_response(body, status=200 if ready else 503)

    async def on_shutdown(_: web.Application) -> None:
        state.closing.set()

    app.on_shutdown.append(on_shutdown)
    app.router.add_get("/dashboard", dashboard)
    app.router.add_get("/dashboard/api/overview", api_overview)
    app.router.add_get("/dashboard/api/series", api_series)
    app.router.add_get("/dashboard/api/samples", api_samples)
    app.router.add_get("/dashboard/api/events", api_events)
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/healthz", healthz)  # liveness and readiness probes (no token)
    app.router.add_get("/readyz", readyz)


__all__ = ["OTHER", "LiveState", "install", "overview", "page_html", "time_series"]
