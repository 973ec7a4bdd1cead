"""``leakline rates`` as a user runs it: intervals, per-label rates, small groups, the
terminal width, the filter grammar, and gate replays kept out by default."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
import rates_kit
from leakline_testkit import leakline

from leakline.pipeline.store.database import read_only


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return rates_kit.build(tmp_path_factory.mktemp("rates") / "data")


def rates(store: Path, *args: str, columns: int = 100):
    env = {**os.environ, "COLUMNS": str(columns)}
    return leakline("rates", "--data-dir", str(store), *args, env=env)


def test_json_has_intervals_per_label_rates_and_small_marks(store: Path) -> None:
    done = rates(store, "--by", "engine.version", "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = {r["engine.version"]: r for r in json.loads(done.stdout)}
    assert set(rows) == {"0.31.0", "0.32.0", "0.33.0"}  # the gate's 0.34.0 is left out
    v31 = rows["0.31.0"]
    assert (v31["total"], v31["leaking"], v31["rate"]) == (400, 40, 0.1)
    assert (v31["rate_low"], v31["rate_high"]) == (0.0743, 0.1333)  # Wilson 40/400
    assert (v31["preamble"], v31["preamble_rate"], v31["truncated_rate"]) == (40, 0.1, 0.02)
    assert v31["truncated_low"] < 0.02 < v31["truncated_high"]
    assert v31["small"] is False
    small = rows["0.33.0"]
    assert small["small"] is True
    assert (small["rate"], small["rate_low"], small["rate_high"]) == (0.2, 0.0567, 0.5098)


def test_csv_has_the_same_columns(store: Path) -> None:
    done = rates(store, "--by", "engine.version", "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [r["engine.version"] for r in rows] == ["0.31.0", "0.32.0", "0.33.0"]
    assert rows[1]["rate_low"] == "0.1637" and rows[1]["rate_high"] == "0.242"
    assert rows[1]["preamble_rate"] == "0.2"


def test_table_fits_100_columns_and_marks_small_groups(store: Path) -> None:
    done = rates(store, "--by", "engine.name,engine.version,model.name", columns=100)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    text = done.stdout
    assert "10.0%" in text and "7.4–13.3%" in text  # 0.31.0 with its interval
    assert "20.0%*" in text  # 2 of 10: shown, marked small
    assert "fewer than 30 events" in text
    assert "label rates" in text and "preamble" in text and "reasoning_leak" in text
    assert "0.34.0" not in text
    narrow = rates(store, "--by", "engine.version", columns=60)
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 60


def test_since_relative_and_where(store: Path) -> None:
    done = rates(store, "--by", "engine.version", "--since", "1h", "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = {r["engine.version"]: r["total"] for r in json.loads(done.stdout)}
    assert rows == {"0.31.0": 100, "0.32.0": 400, "0.33.0": 10}
    done = rates(store, "--by", "", "--where", "engine.version=0.31.0", "--until", "1d")
    assert done.returncode == 0, done.stderr
    assert " 300 " in done.stdout
    alias = rates(store, "--by", "", "--version", "0.32.0", "--format", "json")
    assert json.loads(alias.stdout)[0]["total"] == 400
    both = rates(
        store,
        "--by",
        "engine.version",
        "--where",
        "engine.version=0.31.0",
        "--where",
        "engine.version=0.32.0",
        "--format",
        "json",
    )
    assert [r["engine.version"] for r in json.loads(both.stdout)] == ["0.31.0", "0.32.0"]


def test_bad_filters_say_what_exists(store: Path) -> None:
    done = rates(store, "--where", "engine.versoin=1")
    assert done.returncode == 2
    assert "unknown field 'engine.versoin'" in done.stderr
    assert "engine.version" in done.stderr and "parsers.reasoning" in done.stderr
    assert "Traceback" not in done.stderr
    done = rates(store, "--since", "yesterday")
    assert done.returncode == 2 and "7d" in done.stderr and "Conversion" not in done.stderr


def test_gate_rows_only_when_asked(store: Path) -> None:
    done = rates(store, "--by", "engine.version,source", "--include-gate", "--format", "json")
    rows = {(r["engine.version"], r["source"]): r["total"] for r in json.loads(done.stdout)}
    assert rows[("0.34.0", "gate")] == 50
    assert rows[("0.31.0", "production")] == 400
    only = rates(store, "--by", "engine.version", "--where", "source=gate", "--format", "json")
    assert [r["engine.version"] for r in json.loads(only.stdout)] == ["0.34.0"]


def test_views_have_intervals_and_leave_gate_rows_out(store: Path) -> None:
    with read_only(store) as con:
        rows = con.execute(
            "SELECT engine_version, total, leaking, rate_low, rate_high FROM leak_rates "
            "ORDER BY engine_version"
        ).fetchall()
        assert rows == [
            ("0.31.0", 400, 40, 0.0743, 0.1333),
            ("0.32.0", 400, 80, 0.1637, 0.242),
            ("0.33.0", 10, 2, 0.0567, 0.5098),
        ]
        label = con.execute(
            "SELECT rate, rate_low, rate_high FROM label_rates "
            "WHERE engine_version = '0.31.0' AND label = 'truncated'"
        ).fetchone()
        assert label[0] == 0.02 and label[1] < 0.02 < label[2]
        assert con.execute(
            "SELECT round(wilson_low(2, 10), 4), round(wilson_high(2, 10), 4)"
        ).fetchone() == (0.0567, 0.5098)
        assert con.execute(
            "SELECT row_source(src_topic), count(*) FROM samples GROUP BY ALL ORDER BY 1"
        ).fetchall() == [("gate", 50), ("production", 810)]
