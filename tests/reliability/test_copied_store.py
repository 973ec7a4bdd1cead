"""A copied or moved data directory reads its own files (issue 18, item 3).

Real Parquet parts, the real DuckDB file, ``leakline rates`` as a separate process. The
views once held absolute paths, so a copy whose parts were deleted still reported the
original's events, and a moved store read nothing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from leakline_testkit import leakline
from test_corrupt_store import DAY1, DAY2, write

from leakline.pipeline.store.database import init_store, query_rates, read_only
from leakline.pipeline.store.layout import samples_root


def _total(store: Path) -> int:
    done = leakline("rates", "--data-dir", str(store), "--by", "", "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    return rows[0]["total"] if rows else 0


def _store(tmp_path: Path) -> Path:
    store = tmp_path / "original"
    init_store(store)
    write(store, range(0, 30), partition=0, offset=0, ts=DAY1)
    write(store, range(30, 50), partition=0, offset=30, ts=DAY2)
    return store


def test_a_copy_whose_parts_were_deleted_reads_its_own_files(tmp_path: Path) -> None:
    original = _store(tmp_path)
    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    for part in samples_root(copy).rglob("part-*.parquet"):
        if "day=2026-11-02" in str(part):
            part.unlink()
    assert _total(original) == 50
    assert _total(copy) == 30
    with read_only(copy) as con:
        assert query_rates(con, [])[0]["total"] == 30


def test_a_moved_store_reads_its_files(tmp_path: Path) -> None:
    original = _store(tmp_path)
    moved = original.rename(tmp_path / "moved")
    assert _total(moved) == 50


def test_a_store_opened_from_another_working_directory_reads_its_files(
    tmp_path: Path, monkeypatch
) -> None:
    store = _store(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    with read_only(store) as con:
        assert query_rates(con, [])[0]["total"] == 50


def test_a_copy_with_views_of_an_older_leakline_is_refused_not_misread(tmp_path: Path) -> None:
    import duckdb

    original = _store(tmp_path)
    glob = (samples_root(original.resolve()) / "*" / "*.parquet").as_posix()
    con = duckdb.connect(str(original / "leakline.duckdb"))
    con.execute(f"CREATE OR REPLACE VIEW samples_all AS SELECT * FROM read_parquet('{glob}')")
    con.close()
    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    with read_only(original) as con:  # in place, an older store still reads
        assert con.execute("SELECT count(*) FROM samples_all").fetchone() == (50,)
    done = leakline("rates", "--data-dir", str(copy))
    assert done.returncode == 2 and "absolute paths" in done.stderr, done.stderr
    assert leakline("compact", "--data-dir", str(copy)).returncode == 0  # re-creates them
    assert _total(copy) == 50
