"""``leakline tail`` on a real Tansu broker: known contract-3/4 records in, printed lines out.

The records are built with the worker's own code (``process_batch`` for leak.samples,
``leakline.pipeline.live.stats.batch_stats`` for leak.stats); the expected rates are counted from the
batch rows independently.
"""

from __future__ import annotations

import asyncio
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
from aiokafka import AIOKafkaProducer

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import BatchResult, RawRecord, process_batch
from leakline.pipeline.kafka.io import ensure_topics
from leakline.pipeline.live.stats import batch_stats
from leakline.pipeline.simulate.traffic_model import Mix, encode_event, simulate

SAMPLES, STATS = "leak.samples", "leak.stats"
VERSION = ("engine_name", "engine_version", "model_name")


@dataclass
class Traffic:
    results: list[BatchResult]

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for result in self.results:
            cols = result.rows.columns
            out += [{k: cols[k][i] for k in cols} for i in range(len(result.rows))]
        return out

    def samples(self) -> list[dict[str, Any]]:
        return [orjson.loads(s.value) for r in self.results for s in r.samples]

    def expected_rates(
        self, keep: Any = lambda row: True
    ) -> dict[tuple[str, ...], tuple[int, int]]:
        totals: Counter[tuple[str, ...]] = Counter()
        leaking: Counter[tuple[str, ...]] = Counter()
        for row in self.rows():
            if keep(row):
                key = tuple(row[c] for c in VERSION)
                totals[key] += 1
                leaking[key] += bool(row["leaking"])
        return {k: (totals[k], leaking[k]) for k in totals}


def make_traffic(count: int, seed: int, batches: int = 3) -> Traffic:
    events = [s.event for s in simulate(count, seed=seed, mix=Mix(leak_ratio=0.5))]
    results = []
    step = -(-count // batches)
    for b in range(0, count, step):
        records = [
            RawRecord(e["event_id"].encode(), encode_event(e), Origin("gateway.events", 0, b + i))
            for i, e in enumerate(events[b : b + step])
        ]
        results.append(
            process_batch(
                records, worker_id=f"w-{seed}", clean_text_rate=0.0, max_event_bytes=4 << 20
            )
        )
    return Traffic(results)


def publish(bootstrap: str, traffic: Traffic, *, stats: bool = True, samples: bool = True) -> None:
    async def run() -> None:
        await ensure_topics(bootstrap, [SAMPLES] + ([STATS] if stats else []), partitions=2)
        producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all")
        await producer.start()
        try:
            for result in traffic.results:
                if samples:
                    for s in result.samples:
                        await producer.send_and_wait(SAMPLES, s.value, key=s.key)
                if stats:
                    for record in batch_stats(result, "w-test", datetime.now(UTC)):
                        key, value = record.encode()
                        await producer.send_and_wait(STATS, value, key=key)
        finally:
            await producer.stop()

    asyncio.run(run())


def tail_cmd(bootstrap: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "leakline.pipeline.cli", "tail", "--bootstrap", bootstrap, *args]


def run_tail(bootstrap: str, *args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        tail_cmd(bootstrap, "--format", "plain", *args),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


RATE = re.compile(
    r"^rate engine\.name=(\S+) engine\.version=(\S+) model\.name=(\S+) "
    r"total=(\d+) leaking=(\d+) rate=([\d.]+) labels=(\S*)$"
)


def printed_rates(stdout: str) -> dict[tuple[str, ...], tuple[int, int, float, str]]:
    """The last rate block's rows."""
    blocks = stdout.split("\nrates at ")
    assert len(blocks) > 1 or stdout.startswith("rates at "), stdout[-2000:]
    out = {}
    for line in blocks[-1].splitlines():
        m = RATE.match(line)
        if m:
            out[m.group(1, 2, 3)] = (
                int(m.group(4)),
                int(m.group(5)),
                float(m.group(6)),
                m.group(7),
            )
    return out


def leak_lines(stdout: str) -> dict[str, str]:
    # the event id is JSON-quoted (core/term.py); test ids hold no space
    return {
        orjson.loads(line.split()[1]): line
        for line in stdout.splitlines()
        if line.startswith("leak ")
    }


pytestmark = pytest.mark.slow


def test_tail_prints_rates_per_version_and_every_leak(broker: Any) -> None:
    traffic = make_traffic(240, seed=11)
    publish(broker.bootstrap, traffic)
    done = run_tail(broker.bootstrap, "--from-beginning", "--once", "--window", "0")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr

    expected = traffic.expected_rates()
    rates = printed_rates(done.stdout)
    assert {k: v[:2] for k, v in rates.items()} == expected
    for key, (total, leaking, rate, _) in rates.items():
        assert rate == pytest.approx(leaking / total, abs=1e-4), key

    samples = traffic.samples()
    lines = leak_lines(done.stdout)
    assert set(lines) == {s["event_id"] for s in samples}
    # the leaking span of the first finding with a span is wrapped in [[ ]]
    highlighted = 0
    for s in samples:
        finding = next((f for f in s["findings"] if f.get("span")), None)
        if finding is None:
            continue
        start, end = finding["span"]
        hit = s["visible_text"][start:end].replace("\n", "⏎")
        if 0 < len(hit) <= 100:
            span_json = orjson.loads(
                lines[s["event_id"]].split(" span=", 1)[1].split(" evidence=")[0]
            )
            assert f"[[{hit}]]" in span_json, (s["event_id"], hit, span_json)
            highlighted += 1
        assert f"engine.version={s['engine']['version'] or 'unknown'}" in lines[s["event_id"]]
    assert highlighted >= 10


def test_tail_filters_apply_to_both_panes(broker: Any) -> None:
    traffic = make_traffic(240, seed=12)
    publish(broker.bootstrap, traffic)
    samples = traffic.samples()
    label_counts = Counter(label for s in samples for label in s["labels"])
    label = "preamble" if label_counts["preamble"] else label_counts.most_common(1)[0][0]

    done = run_tail(
        broker.bootstrap,
        "--from-beginning",
        "--once",
        "--window",
        "0",
        "--version",
        "engine.version=0.31.0",
        "--label",
        label,
    )
    assert done.returncode == 0, done.stderr
    want = {
        s["event_id"]
        for s in samples
        if s["engine"]["version"] == "0.31.0" and label in s["labels"]
    }
    assert want, "the simulated traffic should have such leaks"
    assert set(leak_lines(done.stdout)) == want
    rates = printed_rates(done.stdout)
    assert {k: v[:2] for k, v in rates.items()} == traffic.expected_rates(
        lambda row: row["engine_version"] == "0.31.0"
    )
    # the label filter narrows the label column to the chosen label, with exact counts
    for key, (_, _, _, labels) in rates.items():
        per_key = sum(
            label in row["labels"]
            for row in traffic.rows()
            if tuple(row[c] for c in VERSION) == key
        )
        assert labels == (f"{label}:{per_key}" if per_key else ""), key

    model = "Qwen/Qwen3-32B"
    done = run_tail(broker.bootstrap, "--from-beginning", "--once", "--model", model)
    assert done.returncode == 0, done.stderr
    assert set(leak_lines(done.stdout)) == {
        s["event_id"] for s in samples if s["model"]["name"] == model
    }
    assert {k[2] for k in printed_rates(done.stdout)} == {model}


def _wait_for_line(proc: subprocess.Popen[str], text: str, timeout: float = 60) -> str:
    """Read stderr until a line containing ``text`` (the tail says when it is following)."""
    assert proc.stderr is not None
    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stderr], [], [], 0.5)
        if ready:
            line = proc.stderr.readline()
            seen += line
            if text in line:
                return line
            if not line and proc.poll() is not None:
                break
    raise AssertionError(f"no {text!r} on stderr:\n{seen}")


def test_tail_follows_new_records_only_by_default(broker: Any) -> None:
    old = make_traffic(60, seed=13, batches=1)
    new = make_traffic(120, seed=14, batches=2)
    publish(broker.bootstrap, old)
    proc = subprocess.Popen(
        tail_cmd(broker.bootstrap, "--format", "plain", "--max-seconds", "15", "--interval", "1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_line(proc, "following")
        publish(broker.bootstrap, new)
        stdout, stderr = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    assert set(leak_lines(stdout)) == {s["event_id"] for s in new.samples()}
    assert {k: v[:2] for k, v in printed_rates(stdout).items()} == new.expected_rates()
    # the periodic table was printed while running, not only on exit
    assert stdout.count("rates at ") >= 2


def test_tail_picks_up_a_stats_topic_created_after_it_started(broker: Any) -> None:
    first = make_traffic(40, seed=18, batches=1)
    later = make_traffic(80, seed=19, batches=2)
    publish(broker.bootstrap, first, stats=False)  # no leak.stats topic yet
    proc = subprocess.Popen(
        tail_cmd(broker.bootstrap, "--format", "plain", "--max-seconds", "15", "--interval", "1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_line(proc, "following")
        publish(broker.bootstrap, later)  # creates leak.stats, then fills both topics
        stdout, stderr = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    assert "waiting for worker stats" in stdout  # said so before the topic existed
    # the new topic is read from its beginning; samples keep their position across re-assigns
    assert {k: v[:2] for k, v in printed_rates(stdout).items()} == later.expected_rates()
    assert sorted(leak_lines(stdout)) == sorted(s["event_id"] for s in later.samples())


def test_tail_without_stats_shows_leaks_and_waits_for_rates(broker: Any) -> None:
    traffic = make_traffic(80, seed=15, batches=1)
    publish(broker.bootstrap, traffic, stats=False)
    done = run_tail(broker.bootstrap, "--from-beginning", "--once")
    assert done.returncode == 0, done.stderr
    assert set(leak_lines(done.stdout)) == {s["event_id"] for s in traffic.samples()}
    assert "waiting for worker stats on leak.stats" in done.stdout
    assert not printed_rates_lines(done.stdout)


def printed_rates_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("rate ")]


def test_tail_stops_cleanly_on_ctrl_c(broker: Any) -> None:
    traffic = make_traffic(40, seed=16, batches=1)
    publish(broker.bootstrap, traffic)
    proc = subprocess.Popen(
        tail_cmd(broker.bootstrap, "--format", "plain", "--from-beginning", "--window", "0"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_line(proc, "following")
        time.sleep(1)  # let it read what is there; the assertions below do not depend on it
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert "rates at " in stdout  # the final table is printed on the way out


def test_tail_rich_format_renders_tables(broker: Any) -> None:
    traffic = make_traffic(60, seed=17, batches=1)
    publish(broker.bootstrap, traffic)
    done = subprocess.run(
        tail_cmd(
            broker.bootstrap, "--format", "rich", "--from-beginning", "--once", "--window", "0"
        ),
        capture_output=True,
        text=True,
        timeout=90,
        env={**os.environ, "COLUMNS": "220"},
    )
    assert done.returncode == 0, done.stderr
    assert "leak rates by version" in done.stdout
    assert "newest leaks" in done.stdout
    newest = traffic.samples()[-1]["event_id"]
    assert newest in done.stdout


def test_tail_rates_match_the_store_with_a_real_worker(broker: Any, tmp_path: Any) -> None:
    from leakline_testkit import spawn_worker, wait_stored

    from leakline.pipeline.kafka.io import produce
    from leakline.pipeline.simulate.traffic_model import malformed_payloads
    from leakline.pipeline.store.database import query_rates, read_only

    valid = [encode_event(s.event) for s in simulate(300, seed=21, mix=Mix(leak_ratio=0.4))]
    bad = malformed_payloads(7, seed=21)
    worker = spawn_worker(broker.bootstrap, tmp_path / "data")
    try:
        report = asyncio.run(
            produce(broker.bootstrap, "gateway.events", valid[:150] + bad + valid[150:])
        )
        assert report.failed == 0
        wait_stored(worker, len(valid))
        done = run_tail(broker.bootstrap, "--from-beginning", "--once", "--window", "3600")
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
    assert done.returncode == 0, done.stderr

    with read_only(tmp_path / "data") as con:
        store = query_rates(con, ["engine.name", "engine.version", "model.name"])
        leaking_ids = {
            r[0] for r in con.execute("select event_id from samples where leaking").fetchall()
        }
    expected = {
        (r["engine.name"], r["engine.version"], r["model.name"]): (r["total"], r["leaking"])
        for r in store
    }
    printed = printed_rates(done.stdout)
    assert {k: v[:2] for k, v in printed.items()} == expected
    for key, (_, _, rate, _) in printed.items():
        store_rate = next(
            r["rate"]
            for r in store
            if (r["engine.name"], r["engine.version"], r["model.name"]) == key
        )
        assert rate == pytest.approx(store_rate, abs=1.1e-4), key
    assert f"dead_lettered={len(bad)}" in done.stdout
    assert set(leak_lines(done.stdout)) == leaking_ids


def test_tail_since_until_and_where(broker: Any) -> None:
    """--since/--until keep records by their own time (and read from the beginning);
    --where uses the grammar of the store commands."""
    old, new = make_traffic(60, seed=21, batches=1), make_traffic(90, seed=22, batches=2)

    async def run() -> None:
        await ensure_topics(broker.bootstrap, [SAMPLES, STATS], partitions=2)
        producer = AIOKafkaProducer(bootstrap_servers=broker.bootstrap, acks="all")
        await producer.start()
        try:
            for traffic, ts in (
                (old, "2020-01-01T00:00:00+00:00"),
                (new, "2020-01-02T00:00:00+00:00"),
            ):
                for result in traffic.results:
                    for record in batch_stats(result, "w-since", datetime.fromisoformat(ts)):
                        key, value = record.encode()
                        await producer.send_and_wait(STATS, value, key=key)
        finally:
            await producer.stop()

    asyncio.run(run())
    window = ("--since", "2020-01-01T12:00:00Z", "--until", "2020-01-03T00:00:00Z")
    done = run_tail(broker.bootstrap, "--once", *window)
    assert done.returncode == 0, done.stderr
    assert {k: v[:2] for k, v in printed_rates(done.stdout).items()} == new.expected_rates()
    assert leak_lines(done.stdout) == {}  # every sample's own time (2026) is outside the window
    done = run_tail(broker.bootstrap, "--once", *window, "--where", "engine.version=0.31.0")
    assert {k: v[:2] for k, v in printed_rates(done.stdout).items()} == new.expected_rates(
        lambda row: row["engine_version"] == "0.31.0"
    )
    done = run_tail(broker.bootstrap, "--once", "--where", "model.revision=abc")
    assert done.returncode == 2 and "parsers.tool_call" in done.stderr
