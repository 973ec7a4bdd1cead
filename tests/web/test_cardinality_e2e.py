"""Many versions against a real worker (issue 36, finding 2): one /ingest request with
20,000 distinct version strings, through Kafka, the batch path, leak.stats and the live
table, then the probes, /metrics and the dashboard on loopback; and the table's
changelog (what a restart restores for 24 h) holds at most the cap of versions."""

from __future__ import annotations

import json
import time
import urllib.request

import orjson
import pytest
from dashboard_kit import TOKEN, get_json, wait_dashboard_ready
from leakline_testkit import read_topic, spawn_worker, wait_stored

from leakline.client.event import build_event
from leakline.client.metadata import EventMeta
from leakline.pipeline.live.stats import ADMIT_FACTOR, EVENT_PREFIX, OTHER

pytestmark = pytest.mark.slow

VERSIONS = 20_000
CAP = 50


def _events() -> bytes:
    lines = []
    for i in range(VERSIONS):
        meta = EventMeta(
            engine_name="vllm",
            engine_version=f"0.{i}.0",
            model_name="qwen3-8b",
            template_name="qwen3",
            reasoning_parser="qwen3",
            tool_call_parser="hermes",
        )
        event = build_event(
            request={"model": "qwen3-8b", "messages": [{"role": "user", "content": "hi"}]},
            response={
                "model": "qwen3-8b",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "hello"},
                        "finish_reason": "stop",
                    }
                ],
            },
            meta=meta,
            event_id=f"card-{i}",
        )
        lines.append(orjson.dumps(event))
    return b"\n".join(lines) + b"\n"


def _timed_get(url: str) -> tuple[float, int]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {TOKEN}"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as r:
        r.read()
        return time.perf_counter() - started, r.status


def test_twenty_thousand_versions_leave_the_worker_responsive(broker, tmp_path, web_port):
    data = tmp_path / "data"
    worker = spawn_worker(
        broker.bootstrap,
        data,
        "--web",
        "--web-port",
        str(web_port),
        "--web-token",
        TOKEN,
        "--live-max-versions",
        str(CAP),
    )
    base = f"http://127.0.0.1:{web_port}"
    try:
        wait_dashboard_ready(base, worker)
        request = urllib.request.Request(
            base + "/ingest",
            data=_events(),
            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/x-ndjson"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=120) as r:
            assert json.loads(r.read())["accepted"] == VERSIONS
        wait_stored(worker, VERSIONS, timeout_s=300)
        deadline = time.monotonic() + 120
        url = base + "/dashboard/api/overview?window=24h&top=50"
        while (day := get_json(url, timeout=30))["totals"]["24h"]["total"] < VERSIONS:
            assert time.monotonic() < deadline, day["totals"]
            time.sleep(1)
        # every event is counted, the named rows plus "other" hold them all
        assert day["totals"]["24h"]["total"] == VERSIONS
        assert sum(r["total"] for r in day["rows"]) == VERSIONS
        assert day["rows"][-1]["key"] == OTHER and len(day["rows"]) <= 51
        time.sleep(12)  # one compaction period (COMPACT_EVERY_S) at least
        figures = {}
        for path in ("/healthz", "/metrics", "/dashboard/api/overview", "/healthz"):
            seconds, status = _timed_get(base + path)
            assert status == 200, path
            figures[path] = seconds
        print({p: round(s * 1000, 1) for p, s in figures.items()}, "ms")
        assert all(s < 1.0 for s in figures.values()), figures
        metrics = _timed_get(base + "/metrics")
        assert metrics[1] == 200
        with urllib.request.urlopen(
            urllib.request.Request(base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        ) as r:
            text = r.read().decode()
        # Prometheus: at most 100 version label sets (metrics_max_version_sets) + "other"
        assert text.count("leakline_events_total{") <= 101
        after = get_json(url, timeout=30)
        assert after["totals"]["24h"]["total"] == VERSIONS  # compaction moved, lost nothing
    finally:
        assert worker.stop() == 0

    # the changelog (what a restart restores): the last value of each entry, tombstones
    # (None) for the folded ones; at most the admission bound (ADMIT_FACTOR x CAP: the
    # CAP busiest after a compaction plus the newcomers since) and "other" are left
    latest: dict[bytes, bytes | None] = {}
    for record in read_topic(broker.bootstrap, "leakline-leak_stats-changelog", timeout_s=120):
        assert record.key is not None
        latest[record.key] = record.value
    live = [json.loads(k)[0] for k, v in latest.items() if v is not None]
    versions = {name.removeprefix(EVENT_PREFIX) for name in live}
    assert OTHER in versions and len(versions - {OTHER}) <= ADMIT_FACTOR * CAP, len(versions)
    totals = sum(json.loads(v)["total"] for k, v in latest.items() if v is not None)
    assert totals == 2 * VERSIONS  # both bases, every event once in each
