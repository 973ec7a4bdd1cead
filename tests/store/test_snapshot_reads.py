"""Store commands read one snapshot of the Iceberg table (issue 30, part 3).

The same real rows (simulated traffic through the real detectors) go into the Parquet
layout of today and into an Iceberg table in two fenced commits; every store command
answers the same on both, ``--as-of`` reads the first commit, and a reader that loops
while 50 commits land never sees a count go back. Real SQLite catalogs, real files."""

from __future__ import annotations

import contextlib
import io
import json
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import pyarrow as pa
import pytest
from leakline_testkit import leakline

from leakline.pipeline.cli import main
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.simulate.traffic_model import simulate
from leakline.pipeline.store import snapshot
from leakline.pipeline.store.catalog import open_catalog
from leakline.pipeline.store.database import init_store, macro_sql, query_rates, read_only
from leakline.pipeline.store.offsets import commit_fenced, write_data_files
from leakline.pipeline.store.sink import ParquetSink
from leakline.pipeline.store.tables import samples_table

TOPIC = "gateway.events"


def real_rows(count: int, seed: int) -> pa.Table:
    events = simulate(count, seed=seed, start=datetime(2026, 11, 1, tzinfo=UTC))
    records = [
        RawRecord(s.event["event_id"].encode(), orjson.dumps(s.event), Origin(TOPIC, 0, i))
        for i, s in enumerate(events)
    ]
    result = process_batch(
        records,
        worker_id="snap",
        clean_text_rate=0.3,
        max_event_bytes=4 << 20,
        now=datetime(2026, 11, 3, tzinfo=UTC),
    )
    return result.rows.table()


def parquet_store(data_dir: Path, rows: pa.Table) -> Path:
    init_store(data_dir)
    ParquetSink(data_dir).write(rows)
    init_store(data_dir)
    return data_dir


def commit(data_dir: Path, rows: pa.Table, first: int) -> int:
    table = samples_table(open_catalog(data_dir))
    done = commit_fenced(
        table, write_data_files(table, rows), {(TOPIC, 0): (first, first + rows.num_rows)}
    )
    assert done.committed and done.snapshot_id is not None
    return done.snapshot_id


@dataclass(frozen=True)
class Stores:
    parquet: Path  # all rows, today's layout
    parquet_first: Path  # the first commit's rows only, today's layout
    iceberg: Path  # all rows, in two commits
    first_snapshot: int
    between: datetime  # a time after the first commit and before the second


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Stores:
    root = tmp_path_factory.mktemp("snapshots")
    rows = real_rows(1200, seed=31)
    assert rows.num_rows == 1200
    half = rows.num_rows // 2
    first = commit(root / "iceberg", rows.slice(0, half), 0)
    table = open_catalog(root / "iceberg").load_table("leakline.samples")
    stamped = table.snapshot_by_id(first)
    assert stamped is not None
    between = datetime.fromtimestamp(stamped.timestamp_ms / 1000, UTC) + timedelta(milliseconds=1)
    while datetime.now(UTC) <= between + timedelta(milliseconds=5):  # distinct timestamps
        threading.Event().wait(0.005)
    commit(root / "iceberg", rows.slice(half), half)
    return Stores(
        parquet=parquet_store(root / "parquet", rows),
        parquet_first=parquet_store(root / "parquet_first", rows.slice(0, half)),
        iceberg=root / "iceberg",
        first_snapshot=first,
        between=between,
    )


def run(*args: str) -> str:
    """``leakline ARGS`` in this process (one subprocess per call would triple the time)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    assert code == 0, err.getvalue()
    return out.getvalue()


def rates(data_dir: Path, *args: str) -> list[dict]:
    out = run(
        "rates",
        "--data-dir",
        str(data_dir),
        "--by",
        "engine.version,day",
        "--format",
        "json",
        *args,
    )
    return json.loads(out)


def test_rates_are_identical_on_both_layouts(stores: Stores) -> None:
    old, new = rates(stores.parquet), rates(stores.iceberg)
    assert sum(r["total"] for r in new) == 1200
    assert len(new) >= 3 and any(r["leaking"] for r in new)
    assert new == old


def test_compare_diagnose_and_export_are_identical_on_both_layouts(
    stores: Stores, tmp_path: Path
) -> None:
    versions = sorted(rates(stores.parquet), key=lambda r: -r["total"])
    a, b = (f"engine.version={v['engine.version']}" for v in versions[:2])
    for command in (["compare", a, b], ["diagnose"]):
        outs = [
            run(*command, "--data-dir", str(d), "--format", "json")
            for d in (stores.parquet, stores.iceberg)
        ]
        assert json.loads(outs[0]) == json.loads(outs[1]), command
    exported = []
    for d in (stores.parquet, stores.iceberg):
        out = tmp_path / d.name
        run("export", "--data-dir", str(d), "--out", str(out), "--quiet")
        exported.append((out / "samples.jsonl").read_bytes())
    assert exported[0] == exported[1] and exported[0].count(b"\n") > 100


def test_as_of_reads_the_first_commit(stores: Stores) -> None:
    first_only = rates(stores.parquet_first)
    assert sum(r["total"] for r in first_only) == 600
    assert rates(stores.iceberg, "--as-of", str(stores.first_snapshot)) == first_only
    when = stores.between.isoformat().replace("+00:00", "Z")
    assert rates(stores.iceberg, "--as-of", when) == first_only
    # review --list reads the same snapshot: the second commit's ids are not pending yet
    listed = run("review", "--list", "--limit", "2000", "--data-dir", str(stores.iceberg))
    then = run(
        "review", "--list", "--limit", "2000", "--data-dir", str(stores.iceberg), "--as-of", when
    )
    assert 0 < then.count("\n") < listed.count("\n")


def test_as_of_says_clearly_when_there_is_no_such_snapshot(stores: Stores) -> None:
    early = leakline("rates", "--data-dir", str(stores.iceberg), "--as-of", "2000-01-01T00:00:00Z")
    assert early.returncode == 2
    assert "no snapshot yet at 2000-01-01" in early.stderr and "snapshots run from" in early.stderr
    unknown = leakline("rates", "--data-dir", str(stores.iceberg), "--as-of", "12345")
    assert unknown.returncode == 2 and "no snapshot with that id" in unknown.stderr
    old = leakline("compare", "a=b", "c=d", "--data-dir", str(stores.parquet), "--as-of", "1h")
    assert old.returncode == 2 and "needs an Iceberg store" in old.stderr


def test_a_table_without_files_reads_as_empty_with_every_column(tmp_path: Path) -> None:
    samples_table(open_catalog(tmp_path))  # created, never committed to
    with read_only(tmp_path) as con:
        assert query_rates(con, ["engine.version"]) == []
        columns = {d[0] for d in con.execute("SELECT * FROM samples_reviewed").description}
    assert {"event_id", "labels", "day", "effective_labels"} <= columns


def test_the_pyiceberg_reader_gives_the_same_rates_as_the_duckdb_scan(stores: Stores) -> None:
    """The fallback for s3:// warehouses and delete files, forced on a local table."""
    import duckdb

    table = snapshot.load_samples(stores.iceberg)
    direct = snapshot.plan(table, table.current_snapshot())
    assert direct.direct and len(direct.paths) >= 2
    forced = snapshot.SnapshotFiles(direct.snapshot_id, (), direct=False, why_not="test")
    con = duckdb.connect(":memory:")
    try:
        for sql in [*snapshot.samples_view_sql(con, table, forced), *macro_sql()]:
            con.execute(sql)
        fallback = query_rates(con, ["engine.version", "day"])
    finally:
        con.close()
    with read_only(stores.iceberg) as con:
        assert fallback == query_rates(con, ["engine.version", "day"])


def test_a_reader_during_50_commits_never_sees_the_count_go_back(tmp_path: Path) -> None:
    rows = real_rows(500, seed=32)
    assert rows.num_rows == 500
    samples_table(open_catalog(tmp_path))
    seen: list[int] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def reader() -> None:
        while not done.is_set():
            try:
                with read_only(tmp_path) as con:
                    got = query_rates(con, [])
                seen.append(got[0]["total"] if got else 0)
            except BaseException as exc:  # noqa: BLE001 - any error fails the test
                errors.append(exc)
                return

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for batch in range(50):
            commit(tmp_path, rows.slice(batch * 10, 10), batch * 10)
    finally:
        done.set()
        thread.join()
    assert not errors, errors[0]
    assert len(seen) >= 10  # the reader really ran while the commits landed
    assert all(a <= b for a, b in zip(seen, seen[1:], strict=False)), seen
    assert len(set(seen)) >= 3  # and saw the table grow, in whole commits of 10
    assert all(n % 10 == 0 for n in seen)
    with read_only(tmp_path) as con:
        assert query_rates(con, [])[0]["total"] == 500
