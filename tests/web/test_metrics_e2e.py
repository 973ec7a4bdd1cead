"""/metrics of a real worker after known traffic, and the token on a running server."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections import Counter

import pytest
from dashboard_kit import TOKEN, get_json, known_traffic, wait_dashboard_ready
from leakline_testkit import read_topic, spawn_worker, wait_stored
from prometheus_client.parser import text_string_to_metric_families

from leakline.pipeline.live.stats import EVENT_PREFIX, dims_of, parse_stats

pytestmark = pytest.mark.slow


def _status(url: str, headers: dict[str, str] | None = None) -> int:
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers=headers or {}), timeout=5
        ) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _scrape(base: str) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    request = urllib.request.Request(
        base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        text = response.read().decode()
    out: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return out


def _metric_labels(key: str) -> tuple[tuple[str, str], ...]:
    d = dims_of(key)
    return tuple(
        sorted(
            {
                "engine": d["engine_name"],
                "engine_version": d["engine_version"],
                "model": d["model_name"],
                "reasoning_parser": d["reasoning_parser"],
                "tool_call_parser": d["tool_call_parser"],
            }.items()
        )
    )


def test_metrics_count_known_traffic_behind_the_token(broker, tmp_path, web_port) -> None:
    known = known_traffic(count=300, malformed=6, seed=33)
    data = tmp_path / "data"
    worker = spawn_worker(
        broker.bootstrap, data, "--web", "--web-port", str(web_port), "--web-token", TOKEN
    )
    base = f"http://127.0.0.1:{web_port}"
    try:
        wait_dashboard_ready(base, worker)
        for path in ("/metrics", "/dashboard", "/dashboard/api/overview", "/dashboard/api/events"):
            assert _status(base + path) == 401, path
            assert _status(base + path, {"Authorization": "Bearer nope-nope-nope-nope"}) == 401
        assert _status(base + "/metrics", {"Authorization": f"Bearer {TOKEN}"}) == 200
        assert _status(base + f"/dashboard?token={TOKEN}") == 200

        known.send(broker.bootstrap, data)
        wait_stored(worker, known.total)
        deadline = time.monotonic() + 60
        while True:  # counters move after the Parquet write of each batch
            metrics = _scrape(base)
            if sum(metrics.get("leakline_events_total", {}).values()) >= known.total:
                break
            assert time.monotonic() < deadline, metrics.get("leakline_events_total")
            time.sleep(0.5)

        expected_events: Counter[tuple[tuple[str, str], ...]] = Counter()
        expected_leaking: Counter[tuple[tuple[str, str], ...]] = Counter()
        expected_labels: Counter[tuple[tuple[str, str], ...]] = Counter()
        for key, n in known.per_key.items():
            labels = _metric_labels(key)
            expected_events[labels] += n
            expected_leaking[labels] += known.leaking_per_key[key]
            for label, count in known.labels_per_key[key].items():
                expected_labels[tuple(sorted((*labels, ("label", label))))] += count
        assert metrics["leakline_events_total"] == dict(expected_events)
        assert {k: v for k, v in metrics["leakline_leaking_events_total"].items()} == {
            k: v for k, v in expected_leaking.items() if v
        }
        assert metrics["leakline_leaks_total"] == dict(expected_labels)
        dead = metrics["leakline_dead_letters_total"]
        assert {dict(k)["reason"]: v for k, v in dead.items()} == dict(known.dead_by_reason)
        assert sum(dead.values()) == known.dead == 6
        assert len(known.dead_by_reason) >= 2  # the malformed payloads differ in kind
        assert metrics["leakline_sink_flush_seconds_count"][()] >= 1
        lags = metrics.get("leakline_consumer_lag", {})
        assert lags and all(v >= 0 for v in lags.values())
        assert any(dict(k)["topic"] == "gateway.events" for k in lags)

        # contract 3 on the topic itself: the same totals, dead letters on the unknown key
        records = [parse_stats(r.value) for r in read_topic(broker.bootstrap, "leak.stats")]
        assert all(r is not None for r in records)
        per_key: Counter[str] = Counter()
        dead = 0
        for record in records:
            assert record is not None
            per_key[record.key] += record.counts["total"]
            dead += record.counts["dead_lettered"]
        assert +per_key == known.per_key and dead == known.dead
    finally:
        worker.stop()


def _end_offset(bootstrap: str, topic: str) -> int:
    import asyncio

    from aiokafka import AIOKafkaConsumer, TopicPartition

    async def run() -> int:
        consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap)
        await consumer.start()
        try:
            tp = TopicPartition(topic, 0)
            return int((await consumer.end_offsets([tp]))[tp])
        finally:
            await consumer.stop()

    return asyncio.run(run())


def test_live_table_survives_a_restart_from_its_changelog(broker, tmp_path, web_port) -> None:
    """The windowed counts live in the Faust table's changelog topic, not in process
    memory: a restarted worker restores them without re-consuming leak.stats.

    Tansu quirk: ListOffsets(latest) answers the *base offset of the last record batch*
    instead of the log end, and Faust restores a changelog only up to that offset, so
    on Tansu the changelog's last batch is not restored (on Kafka the end offset is right
    and everything is). The test computes what Faust must restore from the offset the
    broker reports, so it is exact on both.
    """
    import json

    from leakline.pipeline.kafka.broker import free_port

    known = known_traffic(count=120, malformed=2, seed=44)
    data = tmp_path / "data"
    worker = spawn_worker(
        broker.bootstrap, data, "--web", "--web-port", str(web_port), "--web-token", TOKEN
    )
    base = f"http://127.0.0.1:{web_port}"
    try:
        wait_dashboard_ready(base, worker)
        known.send(broker.bootstrap, data)
        wait_stored(worker, known.total)
        deadline = time.monotonic() + 60
        overview_url = base + "/dashboard/api/overview"
        while (last_hour := get_json(overview_url)["totals"]["1h"])["total"] < known.total:
            assert time.monotonic() < deadline, last_hour
            time.sleep(0.5)
        before = last_hour
        assert before["total"] == known.total and before["leaking"] == known.leaking
        assert before["dead_lettered"] == known.dead
    finally:
        assert worker.stop() == 0

    changelog = read_topic(broker.bootstrap, "leakline-leak_stats-changelog")
    reported_end = _end_offset(broker.bootstrap, "leakline-leak_stats-changelog")
    assert 0 < reported_end <= len(changelog)

    def restored_until(end: int, basis: str = "event") -> Counter[str]:
        """Per version key; the table holds both bases, event time under "event|" + key."""
        last = {r.key: json.loads(r.value) for r in changelog if r.offset < end}
        totals: Counter[str] = Counter()
        for key, value in last.items():
            name = json.loads(key)[0]
            if name.startswith(EVENT_PREFIX) == (basis == "event"):
                totals[name.removeprefix(EVENT_PREFIX)] += value["total"]
        return +totals

    # nothing missing on the topic, in either basis
    assert sum(restored_until(len(changelog)).values()) == known.total
    assert sum(restored_until(len(changelog), "ingest").values()) == known.total
    expected = restored_until(reported_end)

    port = free_port()
    worker = spawn_worker(
        broker.bootstrap, data, "--web", "--web-port", str(port), "--web-token", TOKEN
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_dashboard_ready(base, worker)
        deadline = time.monotonic() + 30  # the partition is assigned before recovery ends
        while True:
            after = get_json(base + "/dashboard/api/overview?window=1h&top=50")
            restored = {r["key"]: r["total"] for r in after["rows"] if r["total"]}
            if restored == dict(expected) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert restored == dict(expected)
        assert after["stats_applied"] == 0  # restored from the changelog, nothing re-consumed
        if reported_end == len(changelog):  # a broker with correct end offsets (Kafka)
            assert after["totals"]["1h"] == before
    finally:
        worker.stop()


def test_readyz_turns_200_once_the_worker_can_take_batches(broker, tmp_path, web_port) -> None:
    """/readyz answers 503 (without the token) until the batch processes are up.

    ``before_ready~8`` holds a real worker between starting its batch processes and
    calling itself ready, so the 503 is seen on a live server, not only in a unit test.
    """
    worker = spawn_worker(
        broker.bootstrap,
        tmp_path / "data",
        "--web",
        "--web-port",
        str(web_port),
        "--web-token",
        TOKEN,
        env={"LEAKLINE_FAILPOINT": "before_ready~8"},
    )
    base = f"http://127.0.0.1:{web_port}"
    try:
        statuses: list[int] = []
        deadline = time.monotonic() + 120
        while not statuses or statuses[-1] != 200:
            assert time.monotonic() < deadline, (statuses[-20:], worker.log_text()[-2000:])
            assert worker.proc.poll() is None, worker.log_text()[-3000:]
            try:
                live = _status(base + "/healthz")
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                live = 0  # the web server is not up yet
            if live == 200:
                said_ready = "ready for batches" in worker.log_text()  # read before asking
                ready = _status(base + "/readyz")
                assert ready == 200 or not said_ready, "logged ready, /readyz said no"
                statuses.append(ready)
            time.sleep(0.2)
        # it was alive and not ready for a while, then ready: and only after the log line
        print(f"/readyz: {statuses.count(503)} x 503, then 200")
        assert statuses.count(503) >= 5, statuses
        assert set(statuses) == {503, 200}
        assert "ready for batches" in worker.log_text()
        assert _status(base + "/metrics") == 401  # the probes opened nothing else
    finally:
        assert worker.stop() == 0
