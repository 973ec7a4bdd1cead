"""One unreadable Parquet file must not make the store unqueryable (issue 18, item 2).

Real Parquet parts written by the sink, real DuckDB, the CLI as separate processes, and a
real worker on a real broker. A part is truncated, zeroed or garbled (bytes in the middle
overwritten, footer intact). ``leakline compact`` and the worker's periodic compaction
move such files to ``DATA_DIR/quarantine/`` with a reason file; then ``rates``,
``diagnose`` and ``export`` work on the rest, ``rates`` says what was lost on stderr, and
the worker counts quarantined files and compaction failures on /metrics.
"""

from __future__ import annotations

import json
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest
from leakline_testkit import leakline, spawn_worker, verdict
from prometheus_client.parser import text_string_to_metric_families

from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.kafka.broker import free_port
from leakline.pipeline.store.database import init_store, query_rates, read_only
from leakline.pipeline.store.layout import samples_root
from leakline.pipeline.store.sink import ParquetSink

DAY1, DAY2 = "2026-11-01T10:00:00Z", "2026-11-02T09:00:00Z"
T0 = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)


def write(store: Path, ids: range, *, partition: int, offset: int, ts: str) -> list[Path]:
    """One sink batch: the events ``ids`` at consecutive offsets of ``partition``."""
    rows = RowBuilder("w1", clean_text_rate=1.0)
    for n, i in enumerate(ids):
        event = {
            "event_id": f"e{i}",
            "api": "chat.completions",
            "ts": ts,
            "request": {},
            "response": {"choices": [{"message": {"content": f"<think>plan</think>answer {i}"}}]},
            "engine": {"name": "vllm", "version": f"v{i % 3}"},
        }
        labels = ["reasoning_leak"] if i % 2 else []
        rows.add(
            event,
            normalise(event),
            verdict(event["event_id"], labels),
            Origin("gateway.events", partition, offset + n),
            T0,
        )
    return ParquetSink(store).write(rows.table())


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def zero(path: Path) -> None:
    path.write_bytes(b"\0" * path.stat().st_size)


def garble(path: Path) -> None:
    """Overwrite the column chunks, keep the magic bytes and the footer: only a full read
    notices."""
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little") + 8
    for i in range(4, len(data) - footer):
        data[i] = (data[i] * 31 + 7) % 256
    path.write_bytes(bytes(data))


CORRUPTIONS = {"truncated": truncate, "zeroed": zero, "garbled": garble}


def store_with_bad_parts(tmp_path: Path, corrupt: list[str]) -> tuple[Path, int, list[Path]]:
    """Days 1 and 2 with 40 good events each, plus one bad part per corruption on day 1."""
    store = tmp_path / "data"
    init_store(store)
    write(store, range(0, 40), partition=0, offset=0, ts=DAY1)
    write(store, range(40, 80), partition=0, offset=40, ts=DAY2)
    bad = []
    for n, kind in enumerate(corrupt):
        ids = range(1000 + 100 * n, 1000 + 100 * n + 30)
        (path,) = write(store, ids, partition=1 + n, offset=0, ts=DAY1)
        CORRUPTIONS[kind](path)
        bad.append(path)
    return store, 80, bad


def _quarantined(store: Path) -> list[Path]:
    return sorted(p for p in (store / "quarantine").rglob("*.parquet"))


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
def test_a_bad_part_breaks_queries_until_compact_quarantines_it(tmp_path: Path, kind: str) -> None:
    store, good, (bad,) = store_with_bad_parts(tmp_path, [kind])
    before = leakline("rates", "--data-dir", str(store), "--by", "")
    assert before.returncode == 2  # the store is unqueryable with the bad part in it

    done = leakline("compact", "--data-dir", str(store), "--grace", "0")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    assert "quarantined 1 unreadable file" in done.stdout + done.stderr
    assert not bad.exists()
    (moved,) = _quarantined(store)
    assert moved.name == bad.name
    reason = json.loads(moved.with_name(moved.name + ".reason.json").read_text())
    assert reason["original_path"] == str(bad.relative_to(store))
    assert reason["reason"] and reason["size"] == moved.stat().st_size
    assert reason["rows"] == (30 if kind == "garbled" else None)  # the footer, if intact

    rates = leakline("rates", "--data-dir", str(store), "--by", "", "--format", "json")
    assert rates.returncode == 0, rates.stderr
    assert json.loads(rates.stdout)[0]["total"] == good
    assert "1 unreadable file" in rates.stderr and "quarantine" in rates.stderr, rates.stderr
    for command in (
        ["diagnose", "--data-dir", str(store)],
        ["export", "--data-dir", str(store), "--out", str(tmp_path / "out.jsonl")],
    ):
        result = leakline(*command)
        assert result.returncode == 0, (command, result.stderr[-2000:])


def test_compact_quarantines_every_kind_in_one_run_and_keeps_the_rest(tmp_path: Path) -> None:
    store, good, bad = store_with_bad_parts(tmp_path, list(CORRUPTIONS))
    done = leakline("compact", "--data-dir", str(store), "--grace", "0")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert sorted(p.name for p in _quarantined(store)) == sorted(p.name for p in bad)
    with read_only(store) as con:
        assert query_rates(con, [])[0]["total"] == good
    assert not list(samples_root(store).rglob("part-*.parquet"))  # the good ones merged


def test_a_bad_compact_file_is_quarantined_too(tmp_path: Path) -> None:
    store, good, _ = store_with_bad_parts(tmp_path, [])
    assert leakline("compact", "--data-dir", str(store), "--grace", "0").returncode == 0
    (day2,) = samples_root(store).glob("day=2026-11-02/compact-*.parquet")
    truncate(day2)
    write(store, range(80, 90), partition=0, offset=80, ts=DAY1)  # new work
    done = leakline("compact", "--data-dir", str(store), "--grace", "0")
    assert done.returncode == 0, done.stdout + done.stderr
    assert [p.name for p in _quarantined(store)] == [day2.name]
    with read_only(store) as con:
        assert query_rates(con, [])[0]["total"] == good - 40 + 10


# ------------------------------------------------------------------ the worker


def _scrape(port: int) -> dict[str, float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _wait_metric(worker, port: int, name: str, at_least: float, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    seen: dict[str, float] = {}
    while time.monotonic() < deadline:
        assert worker.proc.poll() is None, worker.log_text()[-3000:]
        try:
            seen = _scrape(port)
        except OSError:
            seen = {}
        if seen.get(name, 0) >= at_least:
            return
        time.sleep(0.5)
    raise AssertionError(f"{name} never reached {at_least}: {seen}\n{worker.log_text()[-3000:]}")


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind",
    [
        pytest.param("zeroed", id="zeroed_found_at_start"),
        pytest.param("garbled", id="garbled_found_by_periodic_compaction"),
    ],
)
def test_the_worker_quarantines_a_bad_part_and_counts_it(broker, tmp_path, kind: str) -> None:
    store, good, (bad,) = store_with_bad_parts(tmp_path, [kind])
    port = free_port()
    worker = spawn_worker(
        broker.bootstrap,
        store,
        "--web",
        "--web-port",
        str(port),
        "--compact-every",
        "1",
        "--compact-grace",
        "0",
    )
    try:
        _wait_metric(worker, port, "leakline_quarantined_files_total", 1)
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
    assert not bad.exists() and [p.name for p in _quarantined(store)] == [bad.name]
    assert "WARNING" in worker.log_text() and "quarantine" in worker.log_text()
    with read_only(store) as con:
        assert query_rates(con, [])[0]["total"] == good


@pytest.mark.slow
def test_a_failing_compaction_logs_a_warning_and_is_counted(broker, tmp_path) -> None:
    store, _, _ = store_with_bad_parts(tmp_path, [])
    (store / ".compact.lock").mkdir()  # compaction cannot take its lock: it fails each time
    port = free_port()
    worker = spawn_worker(
        broker.bootstrap, store, "--web", "--web-port", str(port), "--compact-every", "1"
    )
    try:
        _wait_metric(worker, port, "leakline_compaction_failures_total", 2)
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
    assert "[WARNING] compaction failed" in worker.log_text()
