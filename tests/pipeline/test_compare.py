"""``leakline compare`` on a real store with known counts (``rates_kit``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import rates_kit
from leakline_testkit import leakline

from leakline.pipeline.query.stats import sample_size, two_proportion, wilson


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return rates_kit.build(tmp_path_factory.mktemp("compare") / "data")


def compare(store: Path, *args: str, columns: int = 100):
    env = {**os.environ, "COLUMNS": str(columns)}
    return leakline("compare", *args, "--data-dir", str(store), env=env)


def as_json(store: Path, *args: str) -> dict:
    done = compare(store, *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_per_label_rates_intervals_difference_and_test(store: Path) -> None:
    result = as_json(store, "engine.version=0.31.0", "engine.version=0.32.0")
    assert (result["a"]["total"], result["b"]["total"]) == (400, 400)
    rows = {r["key"]: r for r in result["rows"]}
    overall = rows["overall"]
    assert (overall["a"]["leaking"], overall["b"]["leaking"]) == (40, 80)
    assert (overall["a"]["low"], overall["a"]["high"]) == pytest.approx(wilson(40, 400), abs=1e-6)
    assert overall["diff"] == pytest.approx(0.1)
    assert overall["p_value"] == pytest.approx(two_proportion(40, 400, 80, 400).p_value)
    assert overall["p_value"] < 0.001 and overall["significant"]
    assert overall["needed_per_side"] == sample_size(0.1, 0.2) and overall["enough"]
    truncated = rows["truncated"]  # 8/400 vs 0/400
    assert truncated["diff"] == pytest.approx(-0.02)
    assert truncated["b"]["rate"] == 0.0 and truncated["b"]["high"] > 0
    assert rows["mixed_chunk"]["p_value"] == 1.0 and not rows["mixed_chunk"]["significant"]


def test_small_side_is_marked_and_not_called_significant_too_early(store: Path) -> None:
    result = as_json(store, "engine.version=0.31.0", "engine.version=0.33.0", "--detect", "0.05")
    overall = result["rows"][0]
    assert overall["b"]["small"] and overall["b"]["total"] == 10
    assert not overall["significant"]  # 10 % of 400 vs 20 % of 10: could be chance
    assert overall["needed_per_side"] == sample_size(0.1, 0.15) == 686
    assert not overall["enough"]


def test_shared_where_and_since_narrow_both_sides(store: Path) -> None:
    result = as_json(store, "engine.version=0.31.0", "engine.version=0.32.0", "--since", "1h")
    assert (result["a"]["total"], result["b"]["total"]) == (100, 400)
    result = as_json(
        store, "engine.version=0.31.0", "engine.version=0.32.0", "--where", "engine.version=x"
    )  # a selector's field replaces the same --where field
    assert result["a"]["total"] == 400


def test_by_field(store: Path) -> None:
    result = as_json(store, "engine.version=0.31.0", "engine.version=0.32.0", "--by", "model.name")
    assert [r["key"] for r in result["rows"]] == ["overall", "Qwen/Qwen3-8B"]
    assert result["rows"][1]["b"]["total"] == 400


def test_gate_replays_only_when_asked(store: Path) -> None:
    done = compare(store, "engine.version=0.32.0", "engine.version=0.34.0")
    assert done.returncode == 2
    assert "no stored events match engine.version=0.34.0" in done.stderr
    assert "hint: list what is stored with `leakline rates --by engine.version`" in done.stderr
    result = as_json(store, "engine.version=0.32.0", "engine.version=0.34.0", "--include-gate")
    assert result["rows"][0]["b"]["rate"] == 1.0


def test_table_reads_in_100_columns(store: Path) -> None:
    done = compare(store, "engine.version=0.31.0", "engine.version=0.33.0")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    text = done.stdout
    assert "A: source=production, engine.version=0.31.0  (400 events)" in text
    assert "10.0% (7.4–13.3)" in text and "20.0%* (5.7–51.0)" in text
    assert "+10.0 pp" in text and "mixed_chunk" not in text  # neither side has it


def test_misuse(store: Path) -> None:
    done = compare(store, "engine.version=0.31.0", "engine.version=0.31.0")
    assert done.returncode == 2 and "same population" in done.stderr
    done = compare(store, "0.31.0", "engine.version=0.32.0")
    assert done.returncode == 2 and "is not FIELD=VALUE" in done.stderr
