"""``leakline sql``, the store's SQL door: the same views as every store command, opened
read-only, printed as a table of whole values, CSV or JSON, from any working folder."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import rates_kit

from leakline.pipeline.cli import main

PER_VERSION = "select engine_version, count(*) as n from samples group by 1 order by 1"
# rates_kit's store: three production versions and a gate replay, all visible to SQL
EXPECTED = [("0.31.0", 400), ("0.32.0", 400), ("0.33.0", 10), ("0.34.0", 50)]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return rates_kit.build(tmp_path_factory.mktemp("sql") / "data")


def sql(capsys: pytest.CaptureFixture[str], store: Path, *args: str) -> tuple[int, str, str]:
    status = main(["sql", "--data-dir", str(store), *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_query_reads_the_views_with_their_counts(store: Path, capsys) -> None:
    status, out, _ = sql(capsys, store, PER_VERSION, "--format", "csv")
    assert status == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["engine_version", "n"]
    assert [(v, int(n)) for v, n in rows[1:]] == EXPECTED


def test_json_is_a_list_of_objects(store: Path, capsys) -> None:
    status, out, _ = sql(capsys, store, PER_VERSION, "--format", "json")
    assert status == 0
    assert json.loads(out) == [{"engine_version": v, "n": n} for v, n in EXPECTED]


def test_the_table_prints_whole_values_and_the_row_count(store: Path, capsys) -> None:
    long_value = "x" * 300  # wider than any terminal: a pipe must still read it whole
    status, out, _ = sql(capsys, store, f"select '{long_value}' as v, null as nothing")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["v", "nothing"]
    assert lines[2].split() == [long_value, "NULL"]
    assert lines[-1] == "(1 row)"


def test_event_data_cannot_drive_the_terminal_or_add_a_line(store: Path, capsys) -> None:
    status, out, _ = sql(capsys, store, "select chr(27) || '[2J' || chr(10) || 'forged' as v")
    assert status == 0
    assert "\x1b" not in out
    assert [line for line in out.splitlines() if line.startswith("forged")] == []
    assert "␛[2J⏎forged" in out


def test_no_query_lists_the_store_views(store: Path, capsys) -> None:
    status, out, err = sql(capsys, store)
    assert status == 0
    views = out.splitlines()[2:-1]
    assert {"leak_rates", "label_rates", "samples", "samples_reviewed"} <= set(views)
    assert not [v for v in views if v.startswith(("duckdb_", "pragma_", "sqlite_"))]
    assert "leakline sql" in err  # how to query one


@pytest.mark.parametrize(
    "statement", ["drop view leak_rates", "create table t as select 1", "delete from samples"]
)
def test_writes_are_refused_and_change_nothing(store: Path, capsys, statement: str) -> None:
    status, _, err = sql(capsys, store, statement)
    assert status == 2
    assert "the query failed" in err and "hint:" in err
    status, out, _ = sql(capsys, store, PER_VERSION, "--format", "json")
    assert status == 0 and len(json.loads(out)) == len(EXPECTED)


def test_a_bad_query_is_an_error_with_a_hint(store: Path, capsys) -> None:
    status, out, err = sql(capsys, store, "selec 1")
    assert status == 2 and out == ""
    assert "syntax error" in err and "with no query lists the views" in err


def test_a_missing_store_says_how_to_make_one(tmp_path: Path, capsys) -> None:
    status, _, err = sql(capsys, tmp_path / "nowhere", "select 1")
    assert status == 2 and "leakline demo" in err


def test_it_runs_from_any_folder_with_the_data_dir_from_the_environment(
    store: Path, tmp_path: Path
) -> None:
    # the views name their files relative to the store: a duckdb shell opened elsewhere
    # finds nothing; the command must not depend on where it is started
    done = subprocess.run(
        [sys.executable, "-m", "leakline.pipeline.cli", "sql", PER_VERSION, "--format", "csv"],
        cwd=tmp_path,
        env={**os.environ, "LEAKLINE_DATA_DIR": str(store)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == [f"{v},{n}" for v, n in EXPECTED]
