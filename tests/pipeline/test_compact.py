"""Compaction (pipeline/store/compact.py): real Parquet parts, real DuckDB, exact counts throughout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq
import pytest
from leakline_testkit import verdict

from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.store.compact import LOCK_NAME, compact, compaction_lock
from leakline.pipeline.store.database import execute_retrying, init_store, query_rates, read_only
from leakline.pipeline.store.layout import PLACEHOLDER_DAY, PLACEHOLDER_NAME, samples_root
from leakline.pipeline.store.sink import ParquetSink

T0 = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)
DAY1, DAY2 = "2026-11-01T10:00:00Z", "2026-11-02T09:00:00Z"

# the definition every store made before compaction existed still has in its DuckDB file
OLD_SAMPLES_VIEW = """
SELECT * FROM read_parquet('{glob}', hive_partitioning = true, union_by_name = true,
                           hive_types = {{'day': VARCHAR}})
QUALIFY row_number() OVER (PARTITION BY event_id ORDER BY ingested_at, src_partition, src_offset) = 1
"""


def _event(i: int, version: str, ts: str | None) -> dict[str, Any]:
    event: dict[str, Any] = {
        "event_id": f"e{i}",
        "api": "chat.completions",
        "request": {},
        "response": {"choices": [{"message": {"content": f"answer {i}"}, "finish_reason": "stop"}]},
        "engine": {"name": "vllm", "version": version},
        "model": {"name": "qwen3"},
    }
    if ts is not None:
        event["ts"] = ts
    return event


def _labels(i: int) -> list[str]:
    return [["preamble"], [], ["reasoning_leak", "boundary_token"], []][i % 4]


def write(
    store: Path,
    ids: range | list[int],
    *,
    partition: int = 0,
    offset: int = 0,
    ts: str | None = DAY1,
    ingested: datetime = T0,
) -> list[Path]:
    """One sink batch: the events ``ids`` at consecutive offsets of ``partition``."""
    rows = RowBuilder("w1", clean_text_rate=0.0)
    for n, i in enumerate(ids):
        event = _event(i, f"v{i % 3}", ts)
        rows.add(
            event,
            normalise(event),
            verdict(event["event_id"], _labels(i)),
            Origin("gateway.events", partition, offset + n),
            ingested,
        )
    return ParquetSink(store).write(rows.table())


def age(store: Path, seconds: float = 3600) -> None:
    """Make every part file look ``seconds`` old (past the compaction grace)."""
    when = time.time() - seconds
    for path in samples_root(store).glob("*/part-*.parquet"):
        os.utime(path, (when, when))


def files(store: Path, prefix: str) -> list[Path]:
    return sorted(samples_root(store).glob(f"*/{prefix}*.parquet"))


SNAPSHOT_SQL = {
    "samples": "select event_id, day, engine_version, leaking, labels from samples",
    "leak_rates": "select * from leak_rates",
    "label_rates": "select * from label_rates",
    "detector_rates": "select * from detector_rates",
    "tool_schema_accuracy": "select * from tool_schema_accuracy",
    "remediation_ratios": "select * from remediation_ratios",
}


def snapshot(store: Path) -> dict[str, Any]:
    """Every view built on ``samples``, plus the rates the CLI prints."""
    with read_only(store) as con:
        out: dict[str, Any] = {
            name: sorted(con.execute(sql).fetchall(), key=repr)
            for name, sql in SNAPSHOT_SQL.items()
        }
        for by in (["engine.version"], ["day", "engine.version"], []):
            out[f"rates {by}"] = query_rates(con, by)
    return out


def counts(store: Path) -> tuple[int, int, int]:
    """(rows in samples, distinct event_ids in samples, rows stored in total)."""
    with read_only(store) as con:
        row = con.execute("select count(*), count(distinct event_id) from samples").fetchone()
        raw = con.execute("select count(*) from samples_all").fetchone()
    assert row and raw
    return row[0], row[1], raw[0]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    init_store(tmp_path)
    return tmp_path


def test_rates_identical_before_and_after_compaction(store: Path) -> None:
    # duplicates within the fresh parts: a redelivered batch re-cut at other offsets
    write(store, range(0, 40), offset=0)
    write(store, range(30, 50), offset=40, ingested=T0.replace(minute=5))
    write(store, range(60, 70), partition=1, ts=DAY2)
    before = snapshot(store)
    assert counts(store) == (60, 60, 70)
    age(store)

    report = compact(store)
    assert (report.files_merged, report.files_written) == (3, 2)
    assert (report.rows_kept, report.duplicates_dropped) == (60, 10)
    assert files(store, "part-") == []
    assert snapshot(store) == before
    assert counts(store) == (60, 60, 60)

    # fresh-vs-compacted: a replay of compacted events at new offsets ...
    write(store, range(0, 10), offset=500, ingested=T0.replace(hour=12))
    # ... and a worker re-writing a part that compaction already merged and deleted
    rewritten = write(store, range(0, 40), offset=0)
    assert counts(store) == (60, 60, 110)
    assert snapshot(store) == before

    age(store)
    report = compact(store)
    assert (report.rows_kept, report.duplicates_dropped, report.files_written) == (0, 50, 0)
    assert not any(p.exists() for p in rewritten)
    assert snapshot(store) == before
    assert counts(store) == (60, 60, 60)

    # a genuinely new event next to more duplicates is kept once
    write(store, [0, 1, 99], offset=900)
    assert counts(store)[:2] == (61, 61)
    age(store)
    report = compact(store)
    assert (report.rows_kept, report.duplicates_dropped) == (1, 2)
    assert counts(store) == (61, 61, 61)


def test_compact_files_are_unique_sorted_and_day_free(store: Path) -> None:
    for k in range(3):
        write(store, range(k * 10, k * 10 + 20), offset=k * 20, ingested=T0.replace(minute=k))
    age(store)
    compact(store)
    [path] = files(store, "compact-")
    assert path.parent.name == "day=2026-11-01"
    table = pq.read_table(path)
    assert "day" not in table.column_names
    ids = table["event_id"].to_pylist()
    assert len(ids) == len(set(ids)) == 40
    ts = table["ts"].to_pylist()
    assert ts == sorted(ts)
    # the earliest copy won, as in the samples view
    first = {r["event_id"]: r["ingested_at"] for r in table.to_pylist()}
    assert first["e15"].minute == 0 and first["e25"].minute == 1


def test_grace_leaves_recent_parts_alone(store: Path) -> None:
    write(store, range(0, 10))
    age(store)
    fresh = write(store, range(10, 20), offset=10)
    report = compact(store, grace_s=600)
    assert report.files_merged == 1 and report.waiting == 1
    assert all(p.exists() for p in fresh)
    assert counts(store) == (20, 20, 20)
    # with an explicit clock, the same part becomes old enough
    report = compact(store, grace_s=600, now=time.time() + 601)
    assert report.files_merged == 1 and report.waiting == 0
    assert files(store, "part-") == []


def test_second_compactor_skips_while_the_lock_is_held(store: Path) -> None:
    write(store, range(0, 10))
    age(store)
    with compaction_lock(store) as held:
        assert held
        report = compact(store)
        assert report.skipped and "skipped" in report.summary()
        assert len(files(store, "part-")) == 1
    assert (store / LOCK_NAME).exists()
    assert compact(store).files_merged == 1


def test_crash_between_write_and_delete_is_not_double_counted(store: Path, tmp_path: Path) -> None:
    write(store, range(0, 30))
    write(store, range(20, 30), offset=30)  # redelivered
    write(store, range(30, 40), partition=1, ts=DAY2)
    before = snapshot(store)
    age(store)
    # the crash state: the compact files are written, the parts are still there
    saved = tmp_path / "saved"
    saved.mkdir()
    parts = files(store, "part-")
    for p in parts:
        shutil.copy2(p, saved / f"{p.parent.name}--{p.name}")
    compact(store)
    for p in saved.iterdir():
        day, name = p.name.split("--")
        shutil.copy2(p, samples_root(store) / day / name)
    # and a temporary file of a compactor killed while writing
    stale = samples_root(store) / "day=2026-11-01" / ".compact-x.parquet.123.tmp"
    shutil.copy2(files(store, "compact-")[0], stale)

    assert counts(store) == (40, 40, 90)
    assert snapshot(store) == before
    report = compact(store)  # the next run finishes the job
    assert (report.rows_kept, report.files_written, report.duplicates_dropped) == (0, 0, 50)
    assert files(store, "part-") == [] and not stale.exists()
    assert counts(store) == (40, 40, 40)
    assert snapshot(store) == before


def test_events_without_ts_are_matched_across_days(store: Path) -> None:
    # no ts: the row is stamped with its ingestion time, so a replay can land on another day
    write(store, range(0, 10), ts=None, ingested=T0)
    age(store)
    compact(store)
    write(store, range(0, 10), offset=100, ts=None, ingested=T0.replace(day=3))
    with read_only(store) as con:
        days = con.execute("select distinct day from samples_all order by 1").fetchall()
    assert days == [("2026-11-01",), ("2026-11-03",)]
    assert counts(store) == (10, 10, 20)
    age(store)
    report = compact(store)
    assert (report.rows_kept, report.duplicates_dropped) == (0, 10)
    assert counts(store) == (10, 10, 10)


def test_an_event_id_back_with_another_ts_is_dropped_by_the_next_compaction(store: Path) -> None:
    write(store, range(0, 10), ts=DAY1)
    age(store)
    compact(store)
    # not a redelivery (that carries the same ts) but the same event_id sent again a day
    # later: the view's per-day probe cannot see it until the next compaction, which
    # checks the compact files of every day
    write(store, range(0, 10), partition=1, ts=DAY2, ingested=T0.replace(day=2))
    age(store)
    report = compact(store)
    assert (report.rows_kept, report.duplicates_dropped) == (0, 10)
    assert counts(store) == (10, 10, 10)


def test_many_compact_files_of_a_day_are_merged_into_one(store: Path) -> None:
    for k in range(5):
        write(store, range(k * 10, k * 10 + 15), offset=k * 100, ingested=T0.replace(minute=k))
        age(store)
        compact(store, merge_at=3)
        assert len(files(store, "compact-")) < 3
        assert counts(store)[:2] == (k * 10 + 15,) * 2
    report = compact(store, merge_at=3)
    assert report.days == []  # nothing new: nothing rewritten
    assert counts(store) == (55, 55, 55)


def test_old_views_stay_correct_after_compaction(store: Path) -> None:
    write(store, range(0, 20))
    write(store, range(10, 30), offset=20)
    age(store)
    compact(store)
    write(store, range(0, 5), offset=900)
    glob = (samples_root(store.resolve()) / "*" / "*.parquet").as_posix()
    con = duckdb.connect()
    try:
        total = con.execute(f"select count(*) from ({OLD_SAMPLES_VIEW.format(glob=glob)})")
        assert total.fetchone() == (30,)
    finally:
        con.close()
    assert counts(store)[:2] == (30, 30)


def test_old_data_dir_with_only_the_placeholder(tmp_path: Path) -> None:
    placeholder = samples_root(tmp_path) / f"day={PLACEHOLDER_DAY}" / PLACEHOLDER_NAME
    ParquetSink(tmp_path)  # what an older leakline left: just the zero-row placeholder
    assert [p.name for p in samples_root(tmp_path).rglob("*") if p.is_file()] == [PLACEHOLDER_NAME]
    report = compact(tmp_path)
    assert report.days == [] and "nothing to merge" in report.summary()
    init_store(tmp_path)
    with read_only(tmp_path) as con:
        assert query_rates(con, ["engine.version"]) == []
        for view in ("samples", "samples_all", "samples_compacted", "samples_fresh"):
            assert con.execute(f"select count(*) from {view}").fetchone() == (0,)
    assert placeholder.exists()


def test_missing_store_raises_with_a_hint(tmp_path: Path) -> None:
    from leakline.pipeline.core.errors import StoreError

    with pytest.raises(StoreError) as info:
        compact(tmp_path / "nope")
    assert "--data-dir" in (info.value.hint or "")


def test_a_query_retries_when_a_merged_file_vanished() -> None:
    class Flaky:
        calls = 0

        def execute(self, sql: str, params: list[Any]) -> str:
            self.calls += 1
            if self.calls == 1:
                raise duckdb.IOException('Cannot open file "x.parquet": No such file or directory')
            return "ok"

    flaky = Flaky()
    assert execute_retrying(flaky, "select 1") == "ok"  # type: ignore[arg-type]
    assert flaky.calls == 2


def test_rates_run_again_when_the_compact_files_changed_meanwhile(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import leakline.pipeline.store.database

    write(store, range(0, 5))
    # a compact file came, then a part went, then the store held still
    listings = iter(
        [
            {"p1", "p2"},
            {"p1", "p2", "compact-1"},
            {"p1", "p2", "compact-1"},
            {"p2"},
            {"p2"},
            {"p2", "p3"},
        ]
    )
    runs = []
    real = leakline.pipeline.store.database.execute_retrying
    monkeypatch.setattr(
        leakline.pipeline.store.database, "stored_files", lambda con: next(listings)
    )
    monkeypatch.setattr(
        leakline.pipeline.store.database,
        "execute_retrying",
        lambda *a, **k: runs.append(1) or real(*a, **k),
    )
    with read_only(store) as con:
        assert query_rates(con, [])[0]["total"] == 5
    assert len(runs) == 3


def leakline(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "leakline.pipeline.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_help_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from leakline.pipeline.cli import main

    with pytest.raises(SystemExit) as shown:
        main(["compact", "--help"])
    out = capsys.readouterr().out
    assert shown.value.code == 0
    assert "--grace SECONDS" in out and "--watch SECONDS" in out and "deduplicated" in out
    with pytest.raises(SystemExit) as bad:
        main(["compact", "--data-dir", str(tmp_path), "--watch", "0"])
    assert bad.value.code == 2 and "must be > 0" in capsys.readouterr().err

    # a real process: the message and the hint, exit status 2, no traceback
    missing = leakline("compact", "--data-dir", str(tmp_path / "nope"))
    assert missing.returncode == 2
    assert "no leakline store" in missing.stderr and "hint:" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_cli_compacts_and_prints_a_summary(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from leakline.pipeline.cli import main

    write(store, range(0, 10))
    write(store, range(5, 15), offset=10)
    age(store)
    assert main(["compact", "--data-dir", str(store), "--grace", "60"]) == 0
    out = capsys.readouterr().out
    assert "merged 2 part file(s)" in out and "kept 15 rows" in out
    assert "dropped 5 duplicate(s)" in out
    assert counts(store) == (15, 15, 15)


def test_worker_flags_reach_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    import leakline.pipeline.worker.app
    from leakline.pipeline.cli import main

    seen = {}
    monkeypatch.setattr(
        leakline.pipeline.worker.app, "run_worker", lambda s, loglevel: seen.update(s=s)
    )
    assert main(["worker", "--compact-every", "0", "--compact-grace", "30"]) == 0
    assert (seen["s"].compact_every_s, seen["s"].compact_grace_s) == (0.0, 30.0)
    assert main(["worker"]) == 0
    assert (seen["s"].compact_every_s, seen["s"].compact_grace_s) == (300.0, 600.0)
    with pytest.raises(SystemExit):
        main(["worker", "--compact-every", "-1"])


@pytest.mark.slow
def test_a_worker_compacts_its_store_while_consuming(broker: Any, tmp_path: Path) -> None:
    import asyncio

    import orjson
    from leakline_testkit import spawn_worker, wait_stored

    from leakline.pipeline.kafka.io import produce
    from leakline.pipeline.simulate.traffic_model import simulate

    payloads = [orjson.dumps(s.event) for s in simulate(300, seed=5)]
    data_dir = tmp_path / "data"
    worker = spawn_worker(
        broker.bootstrap,
        data_dir,
        "--batch-size",
        "50",
        "--compact-every",
        "1",
        "--compact-grace",
        "0",
    )
    try:
        for chunk in (payloads[:150], payloads[100:]):  # 50 events sent twice
            report = asyncio.run(produce(broker.bootstrap, "gateway.events", chunk))
            assert report.failed == 0
        wait_stored(worker, 300)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            files(data_dir, "part-") or not files(data_dir, "compact-")
        ):
            time.sleep(0.5)
        assert files(data_dir, "part-") == [], worker.log_text()[-3000:]
        assert counts(data_dir) == (300, 300, 300)
        assert "compaction: merged" in worker.log_text()
    finally:
        worker.stop()
