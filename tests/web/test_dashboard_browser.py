"""The dashboard in real headless Chromium against a real broker and worker.

Open the page first, then send known events: the numbers must change to the right
values without a reload, a leak sample must show its highlighted span, and the version
filter must narrow everything to one version.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from dashboard_kit import CHROMIUM_ARGS, TOKEN, get_json, known_traffic, wait_dashboard_ready
from leakline_testkit import spawn_worker

from leakline.pipeline.query.stats import wilson

pytestmark = pytest.mark.slow

ARTIFACTS = Path(
    os.environ.get("LEAKLINE_TEST_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts")
)
CHROMIUM = "/usr/bin/chromium"


def _merged_marks(record: dict) -> list[str]:
    """The substrings the page must mark: finding spans, overlapping ones merged."""
    text = record["visible_text"]
    spans = sorted(
        (max(0, s[0]), min(len(text), s[1]))
        for s in (f.get("span") for f in record["findings"])
        if s and s[1] > s[0]
    )
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [text[a:b] for a, b in merged if b > a]


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_dashboard_updates_live_highlights_and_filters(broker, tmp_path, web_port) -> None:
    from playwright.sync_api import expect, sync_playwright

    # English only: the CI machine's Chromium has no CJK fonts, and the screenshot goes in README
    known = known_traffic(count=240, malformed=4, seed=21, languages=("en",))
    assert known.leaking and known.samples and len(known.per_key) > 3
    worker = spawn_worker(
        broker.bootstrap,
        tmp_path / "data",
        "--web",
        "--web-port",
        str(web_port),
        env={"LEAKLINE_WEB_TOKEN": TOKEN},
    )
    base = f"http://127.0.0.1:{web_port}"
    try:
        wait_dashboard_ready(base, worker)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1800})
            page.goto(f"{base}/dashboard?token={TOKEN}")
            expect(page.locator("#total-5m")).to_have_text("0", timeout=30_000)
            expect(page.locator("#conn-text")).to_have_text("live", timeout=30_000)
            # no events yet: "no data", not 0 %; the chart says so instead of a flat line
            expect(page.locator("#rate-5m")).to_have_text("no data")
            expect(page.locator("#chart [data-nodata]")).to_have_count(1)
            assert page.locator('link[rel="icon"]').count() == 1  # a favicon, inline
            page.evaluate("window.__notReloaded = true")

            known.send(broker.bootstrap, tmp_path / "data")

            # live: the numbers arrive over SSE, no reload
            expect(page.locator("#total-5m")).to_have_text(f"{known.total:,}", timeout=180_000)
            expect(page.locator("#leaking-5m")).to_have_text(f"{known.leaking:,}", timeout=30_000)
            expect(page.locator("#dead-5m")).to_have_text(str(known.dead), timeout=30_000)
            expect(page.locator("#total-24h")).to_have_text(f"{known.total:,}")
            assert page.evaluate("window.__notReloaded") is True
            # every rate carries its 95 % Wilson interval (query.stats), and the chart a band
            low, high = wilson(known.leaking, known.total)
            expect(page.locator("#rate-5m")).to_have_attribute(
                "title", f"95% CI {low * 100:.1f}–{high * 100:.1f}% of {known.total:,} events"
            )
            expect(page.locator("#rate-5m")).to_have_text(f"{known.leaking / known.total:.1%}")
            assert page.locator("#chart path.band").count() >= 1
            expect(page.locator("#chart [data-nodata]")).to_have_count(0)

            busiest, busiest_n = known.per_key.most_common(1)[0]
            row = page.locator(f'#versions tbody tr[data-key="{busiest}"]')
            expect(row.locator(".c-total")).to_have_text(f"{busiest_n:,}")
            expect(row.locator(".c-leaking")).to_have_text(f"{known.leaking_per_key[busiest]:,}")
            low, high = wilson(known.leaking_per_key[busiest], busiest_n)
            expect(row.locator(".c-rate")).to_have_attribute(
                "title", f"95% CI {low * 100:.1f}–{high * 100:.1f}% of {busiest_n:,} events"
            )

            # a leak sample with its leaking span(s) marked, evidence/layer/remediation shown
            expect(page.locator("#samples article.sample").first).to_be_visible(timeout=60_000)
            first = page.locator("#samples article.sample").first
            event_id = first.get_attribute("data-event-id")
            assert event_id in known.samples, event_id
            record = known.samples[event_id]
            assert first.locator("mark").all_text_contents() == _merged_marks(record)
            layers = first.locator("td.layer").all_text_contents()
            assert layers == [f["layer"] for f in record["findings"]]
            assert first.locator("td.remediation").all_text_contents() == [
                f["remediation"] for f in record["findings"]
            ]
            shown = first.locator("pre.text").inner_text()
            assert shown == (record["visible_text"] or "(no visible text)")

            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shot = ARTIFACTS / "dashboard.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000

            # version filter: totals, rows and samples narrow to the chosen version
            page.select_option("#f-version", busiest)
            expect(page.locator("#total-5m")).to_have_text(f"{busiest_n:,}", timeout=30_000)
            expect(page.locator("#leaking-5m")).to_have_text(f"{known.leaking_per_key[busiest]:,}")
            expect(page.locator("#versions tbody tr")).to_have_count(1)
            keys = page.locator("#samples article.sample").evaluate_all(
                "els => els.map(e => e.dataset.key)"
            )
            expected_samples = sum(1 for e in known.samples if known.key_of[e] == busiest)
            assert keys == [busiest] * min(10, expected_samples)
            # the filter is in the address, so a drill-down can be bookmarked or shared
            assert parse_qs(urlsplit(page.url).query)["version"] == [busiest]

            # label filter on top: "leaking" becomes the count of that label
            label, label_n = known.labels_per_key[busiest].most_common(1)[0]
            page.select_option("#f-label", label)
            expect(page.locator("#leaking-5m")).to_have_text(f"{label_n:,}", timeout=30_000)
            assert page.evaluate("window.__notReloaded") is True

            # the label alone: its trend per busiest version, one dashed line (or dot) each
            page.select_option("#f-version", "")
            trends = page.locator("#chart [data-version]")
            expect(trends.first).to_be_attached(timeout=30_000)
            shown = set(trends.evaluate_all("els => els.map(e => e.dataset.version)"))
            assert busiest in shown and len(shown) == min(5, len(known.per_key))
            api = get_json(f"{base}/dashboard/api/series?label={label}")
            line = next(v for v in api["by_version"] if v["key"] == busiest)
            assert sum(p["total"] for p in line["points"]) == busiest_n
            assert sum(p["leaking"] for p in line["points"]) == label_n
            browser.close()
        docs = Path(__file__).parents[2] / "docs"
        if os.environ.get("LEAKLINE_UPDATE_DOCS_SCREENSHOT"):
            docs.mkdir(exist_ok=True)
            shutil.copy(shot, docs / "dashboard.png")
    finally:
        worker.stop()
