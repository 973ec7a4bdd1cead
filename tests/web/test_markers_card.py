"""The dashboard's "new markers seen" card: the route's view of the suggestion files, and
the card in real headless Chromium (Debian's), with hostile event text in a suggestion.

The worker hands the card ``marker_suggestions.read_all`` over its data directory
(``tests/learner/test_learner_broker.py`` drives a real worker to write one); here the
files are written with ``marker_suggestions.write`` and served by the same routes."""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from dashboard_kit import CHROMIUM_ARGS

from leakline.pipeline.families import marker_suggestions as sg
from leakline.pipeline.live.metrics import WorkerMetrics
from leakline.pipeline.live.stats import SampleRing
from leakline.pipeline.live.web import LiveState, install
from leakline.pipeline.live.web.views import MAX_MARKERS, markers_view

CHROMIUM = "/usr/bin/chromium"
HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'


def _suggestion(sid: str, shape: list[str], first_seen: str, example: str) -> dict[str, Any]:
    return {
        "id": sid,
        "group": {
            "model": "acme-chat-7b",
            "engine": "vllm",
            "engine_version": "2.0",
            "template_hash": "tmpl-2.0",
        },
        "shape": shape,
        "kind": "pair" if len(shape) == 2 else "token",
        "where": ["start", "pair"] if len(shape) == 2 else ["end"],
        "first_seen": first_seen,
        "count": 42,
        "events": 310,
        "examples": [example],
        "row": {"name": sg.row_name(sid)},
    }


def _write(data_dir: Path) -> None:
    sg.write(
        sg.worker_path(data_dir, "w-1"),
        "w-1",
        "2026-12-07T00:00:00+00:00",
        [
            _suggestion(
                "aaaa000001",
                ["⟪⟪mull⟫⟫", "⟪⟪/mull⟫⟫"],
                "2026-12-07T10:00:00+00:00",
                f"⟪⟪mull⟫⟫ {HOSTILE} ⟪⟪/mull⟫⟫ The answer is 4.",
            ),
            _suggestion("bbbb000002", ["<" + "b onmouseover=x>"], "2026-12-07T11:00:00+00:00", ""),
            _suggestion("cccc000003", ["[[eot_x]]"], "2026-12-07T09:00:00+00:00", "done [[eot_x]]"),
        ],
    )


def test_the_view_lists_open_suggestions_newest_first_and_bounded(tmp_path: Path) -> None:
    _write(tmp_path)
    items = sg.read_all(tmp_path)
    assert {s["status"] for s in items} == {"new"}  # no families file: none accepted
    for item in items:  # as if the oldest one's row were in the families file
        item["status"] = "accepted" if item["id"] == "cccc000003" else "new"
    view = markers_view(items)
    assert [s["id"] for s in view["suggestions"]] == ["bbbb000002", "aaaa000001"]
    assert view["open"] == 2 and view["accepted"] == 1 and view["enabled"] is True
    first = view["suggestions"][1]
    assert first["shape"] == ["⟪⟪mull⟫⟫", "⟪⟪/mull⟫⟫"] and first["count"] == 42
    assert first["group"]["engine_version"] == "2.0"
    assert "row" not in first  # only what the card shows
    many = [
        _suggestion(f"{i:010d}", ["<x>"], f"2026-12-07T{i % 24:02d}:00:00", "e" * 5000)
        for i in range(3 * MAX_MARKERS)
    ]
    view = markers_view(many)
    assert len(view["suggestions"]) == MAX_MARKERS and view["open"] == 3 * MAX_MARKERS
    assert all(len(s["example"]) <= 200 for s in view["suggestions"])
    # odd files never break the view: wrong types read as empty
    odd = markers_view([{"id": 7, "shape": None, "group": "x", "examples": "no", "count": "9"}])
    assert odd["suggestions"][0]["count"] == 0 and odd["suggestions"][0]["example"] == ""


def _state(suggestions: Any) -> LiveState:
    return LiveState(
        buckets=lambda: {},
        ring=SampleRing(5),
        metrics=WorkerMetrics(),
        worker_id="w-1",
        suggestions=suggestions,
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """The dashboard routes in a thread of their own, over ``tmp_path``'s suggestions."""
    _write(tmp_path)
    state = _state(functools.partial(sg.read_all, tmp_path))
    loop = asyncio.new_event_loop()
    started: list[str] = []
    ready = threading.Event()
    runner_box: list[web.AppRunner] = []

    async def start() -> None:
        app = web.Application()
        install(app, state)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        started.append(f"http://127.0.0.1:{port}")
        runner_box.append(runner)
        ready.set()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(20)
    try:
        yield started[0]
    finally:
        state.closing.set()
        asyncio.run_coroutine_threadsafe(runner_box[0].cleanup(), loop).result(20)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(20)


def test_without_a_learner_the_route_says_so() -> None:
    async def run() -> dict[str, Any]:
        import aiohttp

        app = web.Application()
        install(app, _state(None))
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        try:
            async with aiohttp.ClientSession() as session:
                url = f"http://127.0.0.1:{port}/dashboard/api/markers"
                async with session.get(url) as response:
                    assert response.status == 200
                    return dict(await response.json())
        finally:
            await runner.cleanup()

    assert asyncio.run(run()) == {"suggestions": [], "open": 0, "accepted": 0, "enabled": False}


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_the_card_renders_suggestions_as_text(served: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1400})
            page.goto(f"{served}/dashboard")
            panel = page.locator("#markers-panel")
            expect(panel).to_be_visible(timeout=30_000)
            rows = page.locator("#markers tbody tr")
            expect(rows).to_have_count(3, timeout=30_000)  # nothing accepted in the file
            # newest first: the token, the pair, then the oldest
            assert rows.evaluate_all("rs => rs.map(r => r.dataset.id)") == [
                "bbbb000002",
                "aaaa000001",
                "cccc000003",
            ]
            pair = page.locator('#markers tr[data-id="aaaa000001"]')
            expect(pair.locator("td.shape")).to_have_text("⟪⟪mull⟫⟫ … ⟪⟪/mull⟫⟫")
            expect(pair.locator("td.num")).to_have_text("42 of 310")
            expect(pair).to_contain_text("acme-chat-7b")
            expect(pair).to_contain_text("vllm 2.0")
            expect(pair).to_contain_text("2026-12-07T10:00:00+00:00")
            # the example is event text: shown verbatim, never parsed as markup
            expect(pair.locator("td.example")).to_contain_text(HOSTILE)
            assert page.locator("#markers img, #markers script").count() == 0
            token = page.locator('#markers tr[data-id="bbbb000002"] td.shape')
            expect(token).to_have_text("<b onmouseover=x>")
            assert page.locator("#markers b").count() == 0
            assert page.evaluate("window.__pwned === undefined")
            expect(page.locator("#markers-sub")).to_have_text("3 open, 0 accepted")
        finally:
            browser.close()
