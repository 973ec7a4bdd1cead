"""Dashboard routes on the worker's aiohttp server (Faust web): page, JSON, SSE, /metrics.

Every JSON answer is aggregated and bounded (top-N versions + "other", paginated
samples), so the browser never receives the store or an unbounded list.

Counts are by event time (the event's ``ts``, as in the store) unless ``basis=ingest``
asks for processing time. The 7- and 30-day windows and the event page read the store
through callables the worker hands in (``LiveState.history``, ``LiveState.find_event``):
this package never imports the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from aiohttp import web

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.events.versions import VERSION_COLUMNS
from leakline.pipeline.live.metrics import CONTENT_TYPE, WorkerMetrics
from leakline.pipeline.live.stats import (
    BASES,
    BUCKET_S,
    COMPACT_EVERY_S,
    DEFAULT_BASIS,
    DEFAULT_MAX_VERSIONS,
    HISTORY_BUCKET_S,
    HISTORY_WINDOWS,
    OTHER,
    WINDOWS,
    Buckets,
    SampleRing,
    add_counts,
    basis_buckets,
    buckets_from_items,
    buckets_from_rows,
    cap_buckets,
    empty_counts,
    first_seen,
    highlight,
    rate_row,
    series,
    top_rows,
    version_regressions,
    window_totals,
)
from leakline.pipeline.query.stats import wilson

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
    # read from the store by the worker (``pipeline.store.history``), None without one:
    # (since, until, bucket seconds, basis) -> rows of counts; event_id -> stored row
    history: Callable[[float, float, int, str], list[dict[str, Any]]] | None = None
    find_event: Callable[[str], dict[str, Any] | None] | None = None
    # the fleet learner's suggestions (``pipeline.families.marker_suggestions.read_all``: every
    # worker's file in the data directory, with its status), None without a learner
    suggestions: Callable[[], list[dict[str, Any]]] | None = None
    # version keys any view sees (the busiest; the rest summed as "other", issue 36)
    max_versions: int = DEFAULT_MAX_VERSIONS
    # the live table's raw entries ``((name, window), counts)``, copied in one step on the
    # loop, for the regression pass in a thread (None: the pass reads ``buckets``)
    entries: Callable[[], list[tuple[Any, Any]]] | None = None
    # the last regression pass (``refresh_regressions``, on the worker's timer) and when
    found_regressions: list[dict[str, Any]] | None = None
    regressions_at: float | None = None


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


def event_page_html() -> str:
    """The event page (``/event/<id>``), self-contained like the dashboard."""
    html = _static("event.html")
    return html.replace("/*STYLE*/", _static("dashboard.css")).replace(
        "/*SCRIPT*/", _static("event.js")
    )


PAGE_HEADERS = {
    # everything is inline and same-origin; no CDN, no framing, no referrer leak
    "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; "
    "style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
HISTORY_TTL_S = 30.0
MAX_EVENT_ID = 512


def _dumps(value: Any) -> str:
    return json.dumps(value, default=str)


def _int(request: web.Request, name: str, default: int, lo: int, hi: int) -> int:
    try:
        value = int(request.query.get(name, default))
    except ValueError:
        raise web.HTTPBadRequest(text=f"{name} must be an integer") from None
    return min(max(value, lo), hi)


def _window(request: web.Request, state: LiveState | None = None) -> str:
    window = request.query.get("window", "5m")
    allowed = list(WINDOWS) + (list(HISTORY_WINDOWS) if state and state.history else [])
    if window not in allowed:
        raise web.HTTPBadRequest(text="window must be one of " + ", ".join(allowed))
    return window


def _basis(request: web.Request) -> str:
    basis = request.query.get("basis", DEFAULT_BASIS)
    if basis not in BASES:
        raise web.HTTPBadRequest(text="basis must be one of " + ", ".join(BASES))
    return basis


def live_buckets(state: LiveState, basis: str) -> Buckets:
    """The live table of one basis, at most ``state.max_versions`` keys plus "other"."""
    return cap_buckets(basis_buckets(state.buckets(), basis), state.max_versions)


def regressions_of(buckets: Buckets, now: float) -> list[dict[str, Any]]:
    """New versions significantly worse than the one they replaced: event time, 24 h."""
    return version_regressions(window_totals(buckets, now, WINDOWS["24h"]), first_seen(buckets))


def regressions(state: LiveState, now: float | None = None) -> list[dict[str, Any]]:
    now = time.time() if now is None else now
    return regressions_of(live_buckets(state, "event"), now)


def regressions_of_entries(
    entries: list[tuple[Any, Any]], max_versions: int, now: float
) -> list[dict[str, Any]]:
    """The pass over a copy of the table's entries: pure data, so it runs in a thread."""
    buckets = cap_buckets(basis_buckets(buckets_from_items(entries), "event"), max_versions)
    return regressions_of(buckets, now)


async def refresh_regressions(state: LiveState) -> list[dict[str, Any]]:
    """One regression pass. The table's entries are copied on the loop (one
    ``list(dict.items())``); the buckets, the cap and the pass are built from that copy in
    a thread, which touches no Faust object. The result is kept for the routes and set on
    the metrics. The worker runs it on a timer; a route runs it only when no pass is
    recent (issue 36: never per call)."""
    now = time.time()
    if state.entries is not None:
        entries = state.entries()
        found = await asyncio.to_thread(regressions_of_entries, entries, state.max_versions, now)
    else:
        found = regressions(state, now)
    state.found_regressions, state.regressions_at = found, time.monotonic()
    state.metrics.set_regressions(found)
    return found


async def current_regressions(state: LiveState) -> list[dict[str, Any]]:
    """The last pass when it is recent (3 timer periods), else a new one."""
    at = state.regressions_at
    if state.found_regressions is None or at is None or time.monotonic() - at > 3 * COMPACT_EVERY_S:
        return await refresh_regressions(state)
    return state.found_regressions


def _filters(request: web.Request) -> tuple[str | None, str | None]:
    return request.query.get("label") or None, request.query.get("version") or None


def _label_view(counts: dict[str, Any], label: str | None) -> dict[str, Any]:
    """With a label filter, "leaking" means "carries this label"."""
    if label is None:
        return counts
    n = int(counts["labels"].get(label, 0))
    return {**counts, "leaking": n, "labels": {label: n} if n else {}}


def overview(
    state: LiveState,
    request: web.Request,
    now: float | None = None,
    history: Buckets | None = None,
) -> dict[str, Any]:
    """Totals per window, the version rows of the selected one; ``history``: the store's
    buckets of a 7- or 30-day window (``HISTORY_BUCKET_S`` each), fetched by the caller."""
    now = time.time() if now is None else now
    label, version = _filters(request)
    window = _window(request, state)
    basis = _basis(request)
    top = _int(request, "top", 15, 1, MAX_TOP)
    buckets = live_buckets(state, basis)
    per_window = {}
    rows: list[dict[str, Any]] = []
    versions: list[str] = []
    sources: list[tuple[str, Buckets, int, int]] = [
        (name, buckets, seconds, BUCKET_S) for name, seconds in WINDOWS.items()
    ]
    if window in HISTORY_WINDOWS:
        sources.append((window, history or {}, HISTORY_WINDOWS[window], HISTORY_BUCKET_S))
    for name, source, seconds, size in sources:
        totals = window_totals(source, now, seconds, size)
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
        "windows": [name for name, *_ in sources],
        "history_windows": list(HISTORY_WINDOWS) if state.history else [],
        "basis": basis,
        "bucket_s": HISTORY_BUCKET_S if window in HISTORY_WINDOWS else BUCKET_S,
        "filters": {"label": label, "version": version},
        "totals": per_window,
        "rows": rows,
        "versions": versions,
        "labels": list(ALL_LABELS),
        "stats_partitions": state.stats_partitions(),
        "stats_applied": state.stats_applied,
        "samples_seen": state.ring.seen,
        "model": {
            "version": state.metrics.model_version,
            "known": state.metrics.model_known,
            "reload_failures": state.metrics.model_reload_failures_seen,
        },
        "regressions": (
            state.found_regressions
            if state.found_regressions is not None
            else regressions(state, now)
        ),
        "event_page": state.find_event is not None,
    }


TREND_VERSIONS = 5  # per-version trend lines: the busiest versions of the window


def _for_label(points: list[dict[str, Any]], label: str | None) -> list[dict[str, Any]]:
    """Points whose "leaking" and rate (with its interval) count only ``label``."""
    if label:
        for point in points:
            point["labels"] = {label: point["labels"].get(label, 0)}
            point["leaking"] = point["labels"][label]
            point["rate"] = point["leaking"] / point["total"] if point["total"] else 0.0
            bounds = wilson(point["leaking"], point["total"])
            point["rate_low"], point["rate_high"] = bounds if bounds else (None, None)
    return points


def time_series(
    state: LiveState, request: web.Request, history: Buckets | None = None
) -> dict[str, Any]:
    """The rate over time; ``by_version``: the same per busiest version (trend lines of
    the selected label, or of any leak), unless one version is selected."""
    now = time.time()
    label, version = _filters(request)
    window = _window(request, state)
    basis = _basis(request)
    if window in HISTORY_WINDOWS:
        buckets, seconds, size = history or {}, HISTORY_WINDOWS[window], HISTORY_BUCKET_S
    else:
        buckets, seconds, size = live_buckets(state, basis), WINDOWS[window], BUCKET_S
    points = _for_label(
        series(buckets, now, seconds, points=60, keys=[version] if version else None, size=size),
        label,
    )
    by_version = []
    if not version:
        totals = window_totals(buckets, now, seconds, size)
        busiest = sorted(totals, key=lambda k: (-totals[k]["total"], k))[:TREND_VERSIONS]
        for key in busiest:
            line = series(buckets, now, seconds, points=60, keys=[key], size=size)
            by_version.append({"key": key, "points": _for_label(line, label)})
    return {
        "window": window,
        "basis": basis,
        "now": now,
        "points": points,
        "by_version": by_version,
    }


def event_view(row: dict[str, Any]) -> dict[str, Any]:
    """A stored row as the event page shows it: versions, the visible text cut into
    marked segments, findings with their diagnosis, and the redacted request/response."""
    findings = [f for f in row.get("findings") or [] if isinstance(f, dict)]
    stored = row.get("visible_text")
    text = stored if isinstance(stored, str) else ""
    event = row.get("event_json") if isinstance(row.get("event_json"), dict) else None
    shown = []
    for f in findings:
        details = f.get("details")
        diagnosis = details.get("diagnosis") if isinstance(details, dict) else None
        diagnosis = diagnosis if isinstance(diagnosis, dict) else {}
        shown.append(
            {
                **{
                    name: f.get(name)
                    for name in (
                        "label",
                        "detector_id",
                        "detector_version",
                        "source",
                        "layer",
                        "remediation",
                        "confidence",
                        "evidence",
                        "span",
                    )
                },
                "diagnosis": {
                    name: diagnosis.get(name) for name in ("rule", "layer", "reason", "fix")
                }
                if diagnosis
                else None,
            }
        )
    versions = {name: row.get(name) for name in (*VERSION_COLUMNS, "classifier_version")}
    return {
        "event_id": row.get("event_id"),
        "ts": row.get("ts"),
        "ingested_at": row.get("ingested_at"),
        "api": row.get("api"),
        "stream": row.get("stream"),
        "source": row.get("source"),
        "finish_reason": row.get("finish_reason"),
        "labels": list(row.get("labels") or []),
        "versions": versions,
        "detector_versions": row.get("detector_versions"),
        "remediation": {
            "action": row.get("remediation_action"),
            "outcome": row.get("remediation_outcome"),
        },
        "text_stored": bool(row.get("text_stored")),
        "segments": highlight(text, [f.get("span") for f in findings if f.get("span")]),
        "reasoning_text": row.get("reasoning_text"),
        "findings": shown,
        "request": event.get("request") if event else None,
        "response": (event.get("response") or event.get("chunks")) if event else None,
    }


MAX_MARKERS = 50  # suggestions the card lists (the newest open ones)
MARKERS_TTL_S = 5.0  # the suggestion files are read at most this often
_MARKER_TEXT = 200  # characters of an example the card shows
_MARKER_GROUP = ("model", "engine", "engine_version", "template_hash")


def _text(value: Any, limit: int = 120) -> str:
    """A string field of a suggestion for the browser: str, bounded (the page shows it as
    text; the files are the worker's, but their shapes and examples are event data)."""
    return value[:limit] if isinstance(value, str) else ""


def _of(value: Any, kind: type, default: Any) -> Any:
    """``value`` when it is a ``kind``, else ``default``: the files may be odd."""
    return value if isinstance(value, kind) else default


def markers_view(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The "new markers seen" card: open suggestions (not accepted yet), newest first, with
    only the fields it shows. A suggestion is never a label: the card says what to run."""
    open_ = [s for s in items if s.get("status") != "accepted"]
    open_.sort(key=lambda s: str(s.get("first_seen") or ""), reverse=True)
    out = []
    for s in open_[:MAX_MARKERS]:
        group: dict[str, Any] = _of(s.get("group"), dict, {})
        examples: list[Any] = _of(s.get("examples"), list, [])
        out.append(
            {
                "id": _text(s.get("id"), 40),
                "shape": [_text(x) for x in _of(s.get("shape"), list, [])[:2]],
                "kind": _text(s.get("kind"), 10),
                "where": [_text(x, 10) for x in _of(s.get("where"), list, [])[:4]],
                "group": {k: _text(group.get(k)) for k in _MARKER_GROUP},
                "count": s.get("count") if isinstance(s.get("count"), int) else 0,
                "events": s.get("events") if isinstance(s.get("events"), int) else 0,
                "first_seen": _text(s.get("first_seen"), 40),
                "example": _text(examples[0], _MARKER_TEXT) if examples else "",
            }
        )
    return {
        "suggestions": out,
        "open": len(open_),
        "accepted": len(items) - len(open_),
        "enabled": True,
    }


def install(app: web.Application, state: LiveState) -> None:
    """Add the dashboard routes to the (not yet started) aiohttp application."""

    async def dashboard(request: web.Request) -> web.StreamResponse:
        return web.Response(text=page_html(), content_type="text/html", headers=PAGE_HEADERS)

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

    # the store is read at most every HISTORY_TTL_S per (window, basis): a 30-day scan
    # must not run on every batch while dashboards are open
    history_cache: dict[tuple[str, str], tuple[float, Buckets]] = {}

    async def store_buckets(request: web.Request) -> Buckets | None:
        window = _window(request, state)
        if window not in HISTORY_WINDOWS or state.history is None:
            return None
        basis = _basis(request)
        hit = history_cache.get((window, basis))
        if hit is not None and time.monotonic() - hit[0] < HISTORY_TTL_S:
            return hit[1]
        now = time.time()
        try:
            rows = await asyncio.to_thread(
                state.history, now - HISTORY_WINDOWS[window], now + 1, HISTORY_BUCKET_S, basis
            )
        except Exception as exc:  # a locked or damaged store: say so, keep serving
            raise web.HTTPServiceUnavailable(
                text=json.dumps({"error": f"the store's history is unavailable: {exc}"}),
                content_type="application/json",
            ) from None
        buckets = buckets_from_rows(rows)
        history_cache[(window, basis)] = (time.monotonic(), buckets)
        return buckets

    async def api_overview(request: web.Request) -> web.StreamResponse:
        history = await store_buckets(request)
        await current_regressions(state)
        return web.json_response(
            cached("overview", request, lambda: overview(state, request, history=history))
        )

    async def api_series(request: web.Request) -> web.StreamResponse:
        history = await store_buckets(request)
        return web.json_response(
            cached("series", request, lambda: time_series(state, request, history))
        )

    markers_cache: list[tuple[float, dict[str, Any]]] = []

    async def api_markers(request: web.Request) -> web.StreamResponse:
        if state.suggestions is None:
            return web.json_response(
                {"suggestions": [], "open": 0, "accepted": 0, "enabled": False}
            )
        if markers_cache and time.monotonic() - markers_cache[0][0] < MARKERS_TTL_S:
            return web.json_response(markers_cache[0][1])
        try:
            items = await asyncio.to_thread(state.suggestions)
        except Exception as exc:  # an unreadable data directory: say so, keep serving
            return web.json_response(
                {"error": f"the suggestions are unavailable: {exc}"}, status=503
            )
        view = markers_view(items)
        markers_cache[:] = [(time.monotonic(), view)]
        return web.json_response(view)

    async def api_event(request: web.Request) -> web.StreamResponse:
        event_id = request.query.get("id", "").strip()
        if not event_id or len(event_id) > MAX_EVENT_ID:
            raise web.HTTPBadRequest(text=f"id: an event_id of 1 to {MAX_EVENT_ID} characters")
        if state.find_event is None:
            return web.json_response({"error": "this worker reads no store"}, status=503)
        try:
            row = await asyncio.to_thread(state.find_event, event_id)
        except Exception as exc:
            return web.json_response({"error": f"the store cannot be read: {exc}"}, status=503)
        if row is None:
            return web.json_response(
                {"error": f"no stored event {event_id!r}", "event_id": event_id}, status=404
            )
        return web.json_response(event_view(row), dumps=_dumps)

    async def event_page(request: web.Request) -> web.StreamResponse:
        return web.Response(text=event_page_html(), content_type="text/html", headers=PAGE_HEADERS)

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
        await current_regressions(state)  # sets the gauges when it runs a pass
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
    app.router.add_get("/dashboard/api/event", api_event)
    app.router.add_get("/dashboard/api/markers", api_markers)
    app.router.add_get("/event/{event_id:.+}", event_page)  # an event_id may hold a "/"
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/healthz", healthz)  # liveness and readiness probes (no token)
    app.router.add_get("/readyz", readyz)


__all__ = [
    "OTHER",
    "LiveState",
    "event_view",
    "install",
    "overview",
    "page_html",
    "refresh_regressions",
    "regressions",
    "time_series",
]
