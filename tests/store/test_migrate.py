"""``leakline store migrate`` (issue 30 part 4): a real old-layout store (ParquetSink parts
with duplicates, a compacted day) moves into a real Iceberg table on a SQLite catalog.
Rates agree before and after, a killed run resumes with every event_id once, a second run
adds nothing, and the table's Kafka offsets resume after the migrated events."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from leakline_testkit import verdict

from leakline.pipeline.cli import main as cli_main
from leakline.pipeline.core.errors import LeaklineError, StoreError
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.store.catalog import open_catalog
from leakline.pipeline.store.compact import compact
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.layout import samples_root
from leakline.pipeline.store.migrate import (
    AFTER_COMMIT,
    BEFORE_COMMIT,
    check_layout,
    migrate,
    migrated_files,
    old_files,
)
from leakline.pipeline.store.offsets import commit_fenced, committed_offsets
from leakline.pipeline.store.sink import ParquetSink
from leakline.pipeline.store.tables import SAMPLES

TOPIC = "gateway.events"
T0 = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)
DAY1, DAY2 = "2026-11-01T10:00:00Z", "2026-11-02T09:00:00Z"
REPO = Path(__file__).resolve().parents[2]


def _event(i: int, ts: str) -> dict[str, Any]:
    return {
        "event_id": f"e{i}",
        "ts": ts,
        "api": "chat.completions",
        "request": {},
        "response": {"choices": [{"message": {"content": f"answer {i}"}, "finish_reason": "stop"}]},
        "engine": {"name": "vllm", "version": f"v{i % 3}"},
        "model": {"name": "qwen3"},
    }


def _labels(i: int) -> list[str]:
    return [["preamble"], [], ["reasoning_leak", "boundary_token"], [], []][i % 5]


def write(
    store: Path,
    ids: range,
    *,
    partition: int,
    offset: int,
    ts: str = DAY1,
    ingested: datetime = T0,
    leaking: bool | None = None,
) -> None:
    """One sink batch: events ``ids`` at consecutive offsets of ``partition``. ``leaking``
    overrides the labels, so that a second copy differs from the first one."""
    rows = RowBuilder("w1", clean_text_rate=0.0)
    for n, i in enumerate(ids):
        labels = _labels(i) if leaking is None else (["preamble"] if leaking else [])
        event = _event(i, ts)
        rows.add(
            event,
            normalise(event),
            verdict(event["event_id"], labels),
            Origin(TOPIC, partition, offset + n),
            ingested,
        )
    ParquetSink(store).write(rows.table())


def old_store(store: Path) -> Path:
    """Day 2 compacted (40 events) plus a late part that repeats 5 of them; day 1 in parts,
    20 events stored twice (partition 1, later, with other labels: the views keep the
    partition-0 copies). 140 distinct event_ids in 165 rows."""
    init_store(store)
    write(store, range(100, 140), partition=2, offset=0, ts=DAY2)
    assert compact(store, grace_s=0).rows_kept == 40
    # a replay of 5 compacted events onto partition 0: earlier in the order the views use
    # among parts, yet the compacted copies count
    write(store, range(130, 135), partition=0, offset=100, ts=DAY2, leaking=True)
    write(store, range(0, 60), partition=0, offset=0)
    write(store, range(60, 100), partition=0, offset=60)
    write(
        store, range(40, 60), partition=1, offset=0, ingested=T0 + timedelta(hours=1), leaking=True
    )
    init_store(store)
    return store


def rates(store: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    capsys.readouterr()
    by = "engine.version,model.name"
    assert cli_main(["rates", "--data-dir", str(store), "--by", by, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def table_rows(store: Path) -> pa.Table:
    return open_catalog(store).load_table(SAMPLES).scan().to_arrow()


def as_old_store(rows: pa.Table, store: Path) -> Path:
    """The table's rows in a fresh old-layout store, so the same rate SQL reads them
    (the table holds each event_id once, so the views' dedupe changes nothing)."""
    init_store(store)
    ParquetSink(store).write(rows)
    init_store(store)
    return store


def ids(store: Path) -> list[str]:
    return sorted(table_rows(store)["event_id"].to_pylist())


def run_cli(store: Path, *extra: str, failpoint: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "LEAKLINE_FAILPOINT"}
    if failpoint:
        env["LEAKLINE_FAILPOINT"] = failpoint
    return subprocess.run(
        [sys.executable, "-m", "leakline.pipeline.cli", "store", "migrate"]
        + ["--data-dir", str(store), *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )


def test_a_store_migrates_with_every_event_once_and_the_same_rates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = old_store(tmp_path / "old")
    before = rates(store, capsys)
    report = migrate(store, batch_files=2)
    assert (report.files_total, report.files_migrated, report.commits) == (5, 5, 3)
    assert (report.rows_read, report.rows_written, report.duplicates_dropped) == (165, 140, 25)
    assert report.table_rows == report.distinct_events == 140
    stored = table_rows(store)
    assert sorted(stored["event_id"].to_pylist()) == sorted(f"e{i}" for i in range(140))
    # the copy the views keep: the earliest one, and the compacted one
    kept = {
        r["event_id"]: r
        for r in stored.select(["event_id", "src_partition", "leaking"]).to_pylist()
    }
    assert all(kept[f"e{i}"]["src_partition"] == 0 for i in range(40, 60))
    assert [kept[f"e{i}"]["leaking"] for i in range(130, 135)] == [
        bool(_labels(i)) for i in range(130, 135)
    ]
    after = rates(as_old_store(stored, tmp_path / "again"), capsys)
    assert after == before
    assert sum(r["total"] for r in after) == 140


def test_offsets_resume_after_the_migrated_events(tmp_path: Path) -> None:
    store = old_store(tmp_path)
    migrate(store)
    table = open_catalog(store).load_table(SAMPLES)
    # partition 0: offsets 0..104 (the replayed copies' included); partition 1: 0..19;
    # partition 2: 0..39, all compacted
    assert committed_offsets(table) == {(TOPIC, 0): 105, (TOPIC, 1): 20, (TOPIC, 2): 40}
    # a worker of partition 0 resuming at 105 commits; one starting over at 0 is fenced
    assert not commit_fenced(table, [], {(TOPIC, 0): (0, 5)}).committed
    assert commit_fenced(table, [], {(TOPIC, 0): (105, 110)}).committed


def test_a_second_run_adds_nothing(tmp_path: Path) -> None:
    store = old_store(tmp_path)
    migrate(store)
    head = open_catalog(store).load_table(SAMPLES).current_snapshot()
    again = migrate(store)
    assert (again.files_skipped, again.files_migrated, again.rows_written, again.commits) == (
        5,
        0,
        0,
        0,
    )
    after = open_catalog(store).load_table(SAMPLES).current_snapshot()
    assert head is not None and after is not None and after.snapshot_id == head.snapshot_id
    assert len(ids(store)) == 140


@pytest.mark.parametrize("point", [AFTER_COMMIT, BEFORE_COMMIT])
def test_a_killed_migration_resumes_with_every_event_once(tmp_path: Path, point: str) -> None:
    store = old_store(tmp_path)
    killed = run_cli(store, "--batch-files", "1", failpoint=f"{point}@3")
    assert killed.returncode == 99, killed.stderr
    table = open_catalog(store).load_table(SAMPLES)
    landed = 3 if point == AFTER_COMMIT else 2
    assert len(migrated_files(table)) == landed
    with pytest.raises(StoreError, match="did not finish"):
        check_layout(store)  # a worker may not start on a half-migrated store
    done = run_cli(store, "--batch-files", "1")
    assert done.returncode == 0, done.stderr
    assert f"({landed} done by an earlier run)" in done.stdout
    assert ids(store) == sorted(set(ids(store))) and len(ids(store)) == 140
    check_layout(store)


def test_a_compaction_between_two_runs_does_not_duplicate(tmp_path: Path) -> None:
    """Killed after its first commit, then the old store is compacted (migrated parts
    merge into a new compact file): the resumed run skips the rows the table has."""
    store = old_store(tmp_path)
    assert run_cli(store, "--batch-files", "1", failpoint=f"{AFTER_COMMIT}@2").returncode == 99
    before = len(ids(store))
    assert 0 < before < 140
    compact(store, grace_s=0)
    report = migrate(store, batch_files=1)
    assert report.files_migrated >= 1
    assert len(ids(store)) == len(set(ids(store))) == 140


def test_check_layout_names_the_migration(tmp_path: Path) -> None:
    check_layout(tmp_path)  # nothing old: any store may start
    store = old_store(tmp_path / "old")
    with pytest.raises(LeaklineError) as err:
        check_layout(store)
    assert "no Iceberg table" in str(err.value)
    assert "leakline store migrate" in (err.value.hint or "")
    migrate(store)
    check_layout(store)


def test_unreadable_parts_go_to_quarantine_and_the_rest_migrates(tmp_path: Path) -> None:
    store = old_store(tmp_path)
    damaged = next(p for p in old_files(store) if "p0001" in p.name)  # the 20 late copies
    damaged.write_bytes(b"PAR1 not a parquet file")
    report = migrate(store)
    assert [q.original for q in report.quarantined] == [damaged.relative_to(store).as_posix()]
    assert "quarantined 1 unreadable file" in report.summary()
    assert len(ids(store)) == 140  # its events had first copies elsewhere


def test_no_old_store_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="nothing to migrate") as err:
        migrate(tmp_path)
    assert "--data-dir" in (err.value.hint or "")


def test_old_files_stay_unless_remove_old(tmp_path: Path) -> None:
    store = old_store(tmp_path)
    report = migrate(store)
    assert len(old_files(store)) == 5
    assert "--remove-old" in report.summary() and f"rm -r {samples_root(store)}" in report.summary()
    done = run_cli(store, "--remove-old")
    assert done.returncode == 0, done.stderr
    assert "removed 5 old file(s)" in done.stdout
    assert not samples_root(store).exists()
    assert len(ids(store)) == 140
    check_layout(store)


def test_a_file_written_before_a_column_existed_migrates_it_as_null(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    store = old_store(tmp_path)
    first = next(p for p in old_files(store) if "p0000-o000000000000" in p.name)
    whole = pq.read_table(first)
    assert whole["engine_version"].null_count == 0
    older = whole.drop_columns(["engine_version"])
    pq.write_table(older, first)  # as if written before the column existed
    migrate(store)
    stored = table_rows(store)
    assert len(set(stored["event_id"].to_pylist())) == stored.num_rows == 140
    versions = dict(
        zip(stored["event_id"].to_pylist(), stored["engine_version"].to_pylist(), strict=True)
    )
    assert {versions[e] for e in older["event_id"].to_pylist()} == {None}
    assert versions["e100"] == "v1"  # other files keep theirs


def test_readers_stay_on_the_old_layout_until_the_migration_finishes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A half-filled table must not stand in for the store: the old layout is read (with a
    note) until the last migration commit, and the table afterwards, with equal rates."""
    store = old_store(tmp_path)
    before = rates(store, capsys)
    assert run_cli(store, "--batch-files", "1", failpoint=f"{AFTER_COMMIT}@2").returncode == 99
    assert 0 < len(ids(store)) < 140  # the table holds part of the store
    assert rates(store, capsys) == before
    assert run_cli(store, "--batch-files", "1").returncode == 0
    after = rates(store, capsys)  # now read from the table, one snapshot, no dedupe
    assert after == before


def test_an_iceberg_worker_on_an_unmigrated_store_says_what_to_run(tmp_path: Path) -> None:
    store = old_store(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "leakline.pipeline.cli", "worker", "--store", "iceberg"]
        + ["--data-dir", str(store), "--bootstrap", "127.0.0.1:9"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert done.returncode == 2, done.stderr
    assert "old store layout" in done.stderr and "leakline store migrate" in done.stderr
    assert "Traceback" not in done.stderr
