"""`leakline demo` runs the whole flow in one command and leaves nothing running."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

pytestmark = pytest.mark.slow


def test_demo_end_to_end(tmp_path: Path) -> None:
    data_dir = tmp_path / "demo"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.cli",
            "demo",
            "--count",
            "400",
            "--data-dir",
            str(data_dir),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "leak rates by engine.name, engine.version, model.name" in result.stdout
    assert f"DuckDB file: {data_dir / 'leakline.duckdb'}" in result.stdout
    footer = re.search(r"│ all\s+│\s+│\s+│\s+(\d+) │\s+(\d+) │", result.stdout)
    assert footer and int(footer.group(1)) == 400 and 0 < int(footer.group(2)) < 400

    # the DuckDB file answers on its own, with the same totals
    con = duckdb.connect(str(data_dir / "leakline.duckdb"), read_only=True)
    con.execute("SET file_search_path = ?", [str(data_dir)])  # views read relative paths
    try:
        assert con.execute("select sum(total), sum(leaking) from leak_rates").fetchone() == (
            400,
            int(footer.group(2)),
        )
    finally:
        con.close()

    # broker and worker are gone
    port = re.search(r"embedded broker \(Tansu\) on 127\.0\.0\.1:(\d+)", result.stderr)
    assert port
    procs = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert f"127.0.0.1:{port.group(1)}" not in procs


def test_demo_refuses_a_folder_it_did_not_create(tmp_path: Path) -> None:
    (tmp_path / "precious.txt").write_text("keep me")
    result = subprocess.run(
        [sys.executable, "-m", "leakline.pipeline.cli", "demo", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "not created by `leakline demo`" in result.stderr
    assert (tmp_path / "precious.txt").read_text() == "keep me"
