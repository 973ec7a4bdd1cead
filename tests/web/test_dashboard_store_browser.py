"""The dashboard's store-backed parts in real headless Chromium, against a real broker and
worker: event time vs ingest time, the 7-day window read from the store, a flagged
version regression (page and /metrics), the classifier panel, the event page and the
search by event_id, and the version table at 1440 px."""

from __future__ import annotations

import os
import re
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import orjson
import pytest
from dashboard_kit import CHROMIUM_ARGS, TOKEN, get_json, wait_dashboard_ready
from leakline_testkit import spawn_worker, wait_stored

from leakline.models.registry import SHIPPED_DIR, read_registry
from leakline.pipeline.core.config import from_env
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.ingest.traffic import send_payloads

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(
    os.environ.get("LEAKLINE_TEST_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts")
)
LEAK = "<think>The user asks 2+2. I should answer.</think>The answer is 4."
CLEAN = "The answer is 4."
# long version strings, as real deployments have: the table must still show every column
OLD_V = "0.31.0+cu124.build-20261115-long-suffix"
NEW_V = "0.32.0+cu124.build-20261201-long-suffix"
ANCIENT_V = "0.30.0"
MODEL = "qwen3-8b-instruct-awq-int4-long-model-name"


def gateway_event(event_id: str, text: str, version: str, ts: datetime) -> bytes:
    return orjson.dumps(
        {
            "event_id": event_id,
            "ts": ts.isoformat(),
            "api": "chat.completions",
            "engine": {"name": "vllm", "version": version},
            "model": {"name": MODEL},
            "chat_template": {"name": "qwen3-chat-template-v2"},
            "parsers": {"reasoning": "qwen3", "tool_call": "hermes"},
            "request": {"model": MODEL, "messages": [{"role": "user", "content": "what is 2+2?"}]},
            "response": {
                "id": event_id,
                "object": "chat.completion",
                "model": MODEL,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
            },
        }
    )


def _send(bootstrap: str, data: Path, payloads: list[bytes]) -> None:
    from concurrent.futures import ThreadPoolExecutor

    settings = from_env(bootstrap=bootstrap, data_dir=data)
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's loop
        report = pool.submit(
            send_payloads, settings, iter(payloads), len(payloads), None, "test traffic"
        ).result(timeout=120)
    assert not report.failed


def _merged_marks(text: str, findings: list[dict]) -> list[str]:
    spans = sorted(
        (max(0, f["span"][0]), min(len(text), f["span"][1]))
        for f in findings
        if f.get("span") and f["span"][1] > f["span"][0]
    )
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [text[a:b] for a, b in merged if b > a]


def _metrics(base: str) -> str:
    request = urllib.request.Request(
        base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.read().decode()


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_store_history_event_page_regression_and_model(broker, tmp_path, web_port) -> None:
    from playwright.sync_api import expect, sync_playwright

    now = datetime.now(UTC)
    # the old engine version 20 minutes ago (1 leak in 60), the new one 2 minutes ago
    # (half leak), and a version last seen 3 days ago (only the store has it)
    old = [
        gateway_event(f"old-{i}", LEAK if i == 0 else CLEAN, OLD_V, now - timedelta(minutes=20))
        for i in range(60)
    ]
    new = [
        gateway_event(f"new-{i}", LEAK if i % 2 else CLEAN, NEW_V, now - timedelta(minutes=2))
        for i in range(60)
    ]
    ancient = [
        gateway_event(f"ancient-{i}", LEAK if i < 4 else CLEAN, ANCIENT_V, now - timedelta(days=3))
        for i in range(10)
    ]
    payloads = old + new + ancient
    expected = process_batch(
        [RawRecord(None, p, Origin("t", 0, i)) for i, p in enumerate(payloads)],
        worker_id="expected",
        clean_text_rate=0.0,
        max_event_bytes=1 << 22,
    )
    leaking = dict(
        zip(expected.rows.columns["event_id"], expected.rows.columns["leaking"], strict=True)
    )
    assert sum(leaking[f"new-{i}"] for i in range(60)) == 30
    assert sum(leaking[f"old-{i}"] for i in range(60)) == 1
    shipped = read_registry(SHIPPED_DIR)["promoted"]["version"]
    # what the event page must mark for new-1: its findings' spans, overlapping ones merged
    cols = expected.rows.columns
    at = cols["event_id"].index("new-1")
    marks = _merged_marks(cols["visible_text"][at], orjson.loads(cols["findings"][at]))
    assert marks

    data = tmp_path / "data"
    worker = spawn_worker(
        broker.bootstrap,
        data,
        "--web",
        "--web-port",
        str(web_port),
        env={"LEAKLINE_WEB_TOKEN": TOKEN},
    )
    base = f"http://127.0.0.1:{web_port}"
    try:
        wait_dashboard_ready(base, worker)
        _send(broker.bootstrap, data, payloads)
        wait_stored(worker, len(payloads))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 1600})
            page.goto(f"{base}/dashboard?token={TOKEN}")

            # event time (the default): the last 5 minutes hold the new version only, the
            # hour both, and the 3-day-old events are not live at all
            expect(page.locator("#f-basis")).to_have_value("event")
            expect(page.locator("#total-5m")).to_have_text("60", timeout=60_000)
            expect(page.locator("#leaking-5m")).to_have_text("30")
            expect(page.locator("#total-1h")).to_have_text("120")
            expect(page.locator("#total-24h")).to_have_text("120")
            # ingest time: all 130 were processed just now
            page.select_option("#f-basis", "ingest")
            expect(page.locator("#total-5m")).to_have_text("130", timeout=30_000)
            assert "basis=ingest" in page.url
            page.select_option("#f-basis", "event")
            expect(page.locator("#total-5m")).to_have_text("60", timeout=30_000)

            # the classifier the batch processes run
            expect(page.locator("#model-version")).to_have_text(shipped)
            expect(page.locator("#model-failures")).to_have_text("0")

            # the regression: flagged above the cards and on its row, and on /metrics
            # found by the worker's regression pass, which runs on a 10 s timer off the
            # loop (issue 36: never per request); a loaded CI machine delays Faust timers,
            # so allow several periods
            banner = page.locator("#regressions")
            expect(banner).to_be_visible(timeout=90_000)
            expect(banner.locator(".regression")).to_have_count(1)
            text = banner.inner_text()
            assert f"vllm/{OLD_V} → vllm/{NEW_V}" in text and MODEL in text
            new_key = f"vllm|{NEW_V}|{MODEL}|qwen3-chat-template-v2|qwen3|hermes"
            row = page.locator(f'#versions tbody tr[data-key="{new_key}"]')
            expect(row).to_have_class(re.compile("regressed"))
            expect(row.locator(".badge")).to_have_text("regression")
            metrics = _metrics(base)
            assert re.search(
                r'leakline_version_regression\{changed="engine",model="'
                + re.escape(MODEL)
                + r'",previous="vllm/'
                + re.escape(OLD_V)
                + r'",version="vllm/'
                + re.escape(NEW_V)
                + r'"\} 1\.0',
                metrics,
            ), metrics
            assert f'leakline_model_info{{version="{shipped}"}} 1.0' in metrics
            assert "leakline_model_reload_failures_total 0.0" in metrics

            # at 1440 px the version table fits its panel: the top labels are not clipped
            panel = page.locator("#versions").locator("xpath=..")
            widths = panel.evaluate("p => [p.scrollWidth, p.clientWidth]")
            assert widths[0] <= widths[1], widths
            # measured in one call inside the page: the table re-renders on every refresh,
            # so two separate bounding_box() calls can straddle a redraw (one came back None)
            edges = panel.evaluate(
                """(p, key) => {
                    const chips = p.querySelectorAll(`tr[data-key="${key}"] td.labels .chip`);
                    if (!chips.length) return null;
                    const c = chips[chips.length - 1].getBoundingClientRect();
                    const r = p.getBoundingClientRect();
                    return [c.right, r.right];
                }""",
                new_key,
            )
            assert edges is not None, "the regressed row has no label chips"
            assert edges[0] <= edges[1], edges
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "dashboard-1440.png"), full_page=True)

            # 7 days from the store: the 3-day-old version is back
            page.select_option("#f-window", "7d")
            expect(page.locator("#total-7d")).to_have_text("130", timeout=30_000)
            expect(page.locator("#leaking-7d")).to_have_text(str(sum(leaking.values())))
            ancient_key = f"vllm|{ANCIENT_V}|{MODEL}|qwen3-chat-template-v2|qwen3|hermes"
            expect(
                page.locator(f'#versions tbody tr[data-key="{ancient_key}"] .c-total')
            ).to_have_text("10")
            assert "window=7d" in page.url
            api = get_json(f"{base}/dashboard/api/series?window=30d")
            assert sum(p["total"] for p in api["points"]) == 130

            # search by event_id opens the event page: marked text, diagnosis, request
            page.fill("#search-id", "new-1")
            page.locator("#search button").click()
            page.wait_for_url(re.compile(r"/event/new-1\?token="))
            expect(page.locator("#content")).to_be_visible(timeout=30_000)
            assert page.locator("#text mark").all_text_contents() == marks
            expect(page.locator("#text")).to_have_text(LEAK)
            expect(page.locator('[data-fact="engine"]')).to_have_text(f"vllm {NEW_V}")
            expect(page.locator('[data-fact="classifier"]')).to_have_text(shipped)
            labels = page.locator("#findings tr.finding td:first-child").all_text_contents()
            assert set(labels) == {"boundary_token", "reasoning_leak"}
            fixes = page.locator("#findings td.fix").all_text_contents()
            assert any("--reasoning-parser" in fix for fix in fixes), fixes
            assert "what is 2+2?" in page.locator("#request").inner_text()
            assert (
                LEAK
                in orjson.loads(page.locator("#response").inner_text())["choices"][0]["message"][
                    "content"
                ]
            )

            page.screenshot(path=str(SHOTS / "event-page.png"), full_page=True)

            # an unknown id says so
            page.goto(f"{base}/event/{quote('no-such-event')}?token={TOKEN}")
            expect(page.locator("#status")).to_have_text(
                "no stored event 'no-such-event'", timeout=30_000
            )
            browser.close()
    finally:
        worker.stop()
