"""The Iceberg samples table: commits carry their Kafka offsets, and the fence refuses a
batch that another owner already stored (issue 30). Real SQLite catalog, real files."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pytest

from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.events.rows import SAMPLE_SCHEMA
from leakline.pipeline.store.catalog import open_catalog
from leakline.pipeline.store.offsets import (
    OFFSETS_PROPERTY,
    CommitResult,
    commit_fenced,
    committed_offsets,
    decode_offsets,
    encode_offsets,
    write_data_files,
)
from leakline.pipeline.store.tables import SAMPLES, samples_table

TOPIC = "gateway.events"


def rows(ids: list[str], day: int = 1) -> pa.Table:
    columns: dict[str, list[object]] = {f.name: [None] * len(ids) for f in SAMPLE_SCHEMA}
    columns["event_id"] = list(ids)
    columns["ts"] = [datetime(2026, 12, day, 12, tzinfo=UTC)] * len(ids)
    columns["schema_version"] = [1] * len(ids)
    columns["labels"] = [[] for _ in ids]
    return pa.table(columns, schema=SAMPLE_SCHEMA)


def stored_ids(data_dir: Path) -> list[str]:
    table = open_catalog(data_dir).load_table(SAMPLES)
    return sorted(table.scan(selected_fields=("event_id",)).to_arrow()["event_id"].to_pylist())


def test_offsets_survive_a_round_trip_through_the_summary() -> None:
    offsets = {(TOPIC, 0): 10, (TOPIC, 11): 3, ("other", 2): 0}
    assert decode_offsets(encode_offsets(offsets)) == offsets


def test_the_local_catalog_is_created_in_the_data_directory(tmp_path: Path) -> None:
    table = samples_table(open_catalog(tmp_path))
    assert (tmp_path / "catalog.db").is_file()
    assert table.spec().fields[0].name == "ts_day"  # partitioned by day of ts
    assert [f.name for f in table.schema().fields] == SAMPLE_SCHEMA.names
    assert committed_offsets(table) == {}


def test_a_commit_stores_rows_and_offsets_in_one_snapshot(tmp_path: Path) -> None:
    table = samples_table(open_catalog(tmp_path))
    done = commit_fenced(table, write_data_files(table, rows(["a", "b"])), {(TOPIC, 0): (0, 2)})
    assert done.committed and done.attempts == 1
    table.refresh()
    assert committed_offsets(table) == {(TOPIC, 0): 2}
    summary = table.current_snapshot().summary
    assert summary is not None and summary[OFFSETS_PROPERTY]
    assert stored_ids(tmp_path) == ["a", "b"]
    # partitions are carried forward: a commit for partition 1 keeps partition 0's offset
    commit_fenced(table, write_data_files(table, rows(["c"])), {(TOPIC, 1): (7, 8)})
    assert committed_offsets(table) == {(TOPIC, 0): 2, (TOPIC, 1): 8}


def test_the_fence_drops_a_batch_that_another_owner_already_stored(tmp_path: Path) -> None:
    table = samples_table(open_catalog(tmp_path))
    commit_fenced(table, write_data_files(table, rows(["a", "b"])), {(TOPIC, 0): (0, 2)})
    # a stale owner re-sends [0, 2) after the new owner stored it
    stale_files = write_data_files(table, rows(["a", "b"]))
    done = commit_fenced(table, stale_files, {(TOPIC, 0): (0, 2)})
    assert not done.committed and done.stale == {(TOPIC, 0): (2, 0)}
    assert stored_ids(tmp_path) == ["a", "b"]  # once
    assert not any(Path(f.file_path.removeprefix("file://")).exists() for f in stale_files)
    # a batch that skips ahead (a gap) is refused too: nothing is lost silently
    assert not commit_fenced(table, [], {(TOPIC, 0): (5, 6)}).committed


def test_a_batch_with_no_rows_still_moves_its_offsets(tmp_path: Path) -> None:
    table = samples_table(open_catalog(tmp_path))
    commit_fenced(table, write_data_files(table, rows(["a"])), {(TOPIC, 0): (0, 1)})
    assert commit_fenced(table, [], {(TOPIC, 0): (1, 4)}).committed  # all dead letters
    assert commit_fenced(
        table, write_data_files(table, rows(["e"])), {(TOPIC, 0): (4, 5)}
    ).committed
    assert committed_offsets(table) == {(TOPIC, 0): 5}
    assert stored_ids(tmp_path) == ["a", "e"]


def race_for_one_range(data_dir: Path, owners: int = 4) -> list[CommitResult]:
    """``owners`` writers that all read offset 0 and all try to commit [0, 50) at once."""
    samples_table(open_catalog(data_dir))
    results: list[CommitResult] = []
    barrier = threading.Barrier(owners)

    def owner() -> None:
        table = open_catalog(data_dir).load_table(SAMPLES)
        files = write_data_files(table, rows([f"e{i}" for i in range(50)]))
        barrier.wait()
        results.append(commit_fenced(table, files, {(TOPIC, 0): (0, 50)}))

    _run_all(threading.Thread(target=owner) for _ in range(owners))
    return results


def owners_of_partitions(data_dir: Path, partitions: int = 3) -> list[CommitResult]:
    """One writer per partition, three batches of five events each, all at once."""
    samples_table(open_catalog(data_dir))
    results: list[CommitResult] = []

    def owner(partition: int) -> None:
        table = open_catalog(data_dir).load_table(SAMPLES)
        for batch in range(3):
            ids = [f"p{partition}-{batch}-{i}" for i in range(5)]
            files = write_data_files(table, rows(ids))
            results.append(
                commit_fenced(table, files, {(TOPIC, partition): (batch * 5, batch * 5 + 5)})
            )

    _run_all(threading.Thread(target=owner, args=(p,)) for p in range(partitions))
    return results


def _run_all(threads: Iterable[threading.Thread]) -> None:
    started = list(threads)
    for t in started:
        t.start()
    for t in started:
        t.join()


def test_two_owners_racing_for_one_range_store_it_once(tmp_path: Path) -> None:
    """The check and the swap are one step: of the writers that all read offset 0 and
    all try to commit [0, 50), exactly one lands, through real catalog conflicts."""
    results = race_for_one_range(tmp_path)
    assert sum(r.committed for r in results) == 1
    assert stored_ids(tmp_path) == sorted(f"e{i}" for i in range(50))


def test_concurrent_owners_of_different_partitions_all_land(tmp_path: Path) -> None:
    results = owners_of_partitions(tmp_path)
    assert all(r.committed for r in results)
    table = open_catalog(tmp_path).load_table(SAMPLES)
    assert committed_offsets(table) == {(TOPIC, p): 15 for p in range(3)}
    assert len(stored_ids(tmp_path)) == 45


def test_a_new_column_is_schema_evolution_and_old_rows_read_null(tmp_path: Path) -> None:
    catalog = open_catalog(tmp_path)
    old = pa.schema([f for f in SAMPLE_SCHEMA if f.name != "detection_cut"])
    from leakline.pipeline.store.tables import ensure_table

    table = ensure_table(catalog, SAMPLES, old, day_of="ts")
    commit_fenced(
        table, write_data_files(table, rows(["old"]).select(old.names)), {(TOPIC, 0): (0, 1)}
    )
    table = samples_table(catalog)  # the current SAMPLE_SCHEMA: adds detection_cut
    field = table.schema().find_field("detection_cut")
    assert field.field_id > max(
        f.field_id for f in table.schema().fields if f.name != "detection_cut"
    )
    read = table.scan().to_arrow()
    assert read["detection_cut"].to_pylist() == [None]


def test_a_bad_catalog_setting_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LeaklineError, match="cannot open the Iceberg catalog") as err:
        open_catalog(tmp_path, "no-such-catalog")
    assert "pyiceberg.yaml" in (err.value.hint or "")
