"""``leakline review``: the interactive loop (real subprocess, stdin fed) and scripted flags."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

from leakline.pipeline.cli import main
from leakline.pipeline.curation.review import MARK_CLOSE, MARK_OPEN


def reviewed(store: Path) -> dict[str, dict[str, Any]]:
    with duckdb.connect(str(store / "leakline.duckdb"), read_only=True) as con:
        con.execute("SET file_search_path = ?", [str(store)])  # views read relative paths
        cursor = con.execute(
            "SELECT event_id, labels, effective_labels, label_source, reviewer, review_note "
            "FROM samples_reviewed WHERE label_source = 'reviewed'"
        )
        names = [d[0] for d in cursor.description]
        return {row[0]: dict(zip(names, row, strict=True)) for row in cursor.fetchall()}


def pending_ids(store: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> list[str]:
    assert main(["review", "--data-dir", str(store), "--list", *extra]) == 0
    out = capsys.readouterr().out
    return [line.split("\t")[0] for line in out.splitlines() if line]


def test_interactive_loop_accepts_corrects_and_quits(
    store_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, third = pending_ids(store_copy, capsys, "--label", "preamble", "--limit", "3")
    keys = "a\nx\nc\nbogus\nreasoning_leak, truncated\nq\n"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.cli",
            "review",
            "--data-dir",
            str(store_copy),
            "--label",
            "preamble",
            "--limit",
            "3",
            "--reviewer",
            "ana",
            "--note",
            "pass 1",
        ],
        input=keys,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"[1/3] {first}" in out and f"[2/3] {second}" in out and f"[3/3] {third}" in out
    assert "machine labels: " in out and "preamble" in out
    # the leaking span is marked (no terminal here, so brackets instead of colours)
    assert MARK_OPEN in out and MARK_CLOSE in out.split(MARK_OPEN, 1)[1]
    assert "unknown key 'x'" in out
    assert "unknown label(s): bogus" in out
    assert "accepted 1, corrected 1, skipped 0 (quit early)" in out
    got = reviewed(store_copy)
    assert set(got) == {first, second}  # the third was shown, then q
    assert got[first]["effective_labels"] == got[first]["labels"]  # accepted as is
    assert "preamble" in got[first]["labels"]
    assert got[second]["effective_labels"] == ["reasoning_leak", "truncated"]
    assert got[second]["reviewer"] == "ana" and got[second]["review_note"] == "pass 1"
    # reviewed samples are no longer pending
    assert first not in pending_ids(store_copy, capsys, "--label", "preamble")


def test_end_of_input_saves_what_was_decided(store_copy: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.cli",
            "review",
            "--data-dir",
            str(store_copy),
            "--limit",
            "5",
        ],
        input="s\na\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "accepted 1, corrected 0, skipped 1 (quit early)" in proc.stdout
    assert len(reviewed(store_copy)) == 1


def test_latest_review_wins_and_keeps_history(
    store_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event_id = pending_ids(store_copy, capsys, "--limit", "1")[0]
    assert main(["review", "--data-dir", str(store_copy), "--set", f"{event_id}=preamble"]) == 0
    assert main(["review", "--data-dir", str(store_copy), "--set", f"{event_id}="]) == 0
    assert reviewed(store_copy)[event_id]["effective_labels"] == []
    assert main(["review", "--data-dir", str(store_copy), "--accept", event_id]) == 0
    got = reviewed(store_copy)[event_id]
    assert got["effective_labels"] == got["labels"]
    with duckdb.connect(str(store_copy / "leakline.duckdb"), read_only=True) as con:
        con.execute("SET file_search_path = ?", [str(store_copy)])
        history = con.execute(
            "SELECT action, labels, previous_labels FROM reviews_all WHERE event_id = ? "
            "ORDER BY reviewed_at",
            [event_id],
        ).fetchall()
    assert [h[0] for h in history] == ["correct", "correct", "accept"]
    assert history[1][2] == ["preamble"] and history[2][2] == []


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        pytest.param(["--set", "no-equals-sign"], "EVENT_ID=LABELS", id="set-format"),
        pytest.param(["--set", "x=preamble,bogus"], "labels are:", id="unknown-label"),
        pytest.param(["--accept", "no-such-event"], "--list", id="unknown-event"),
        pytest.param(["--label", "bogus", "--list"], "labels are:", id="unknown-filter-label"),
        pytest.param(["--limit", "0"], "--limit", id="limit"),
    ],
)
def test_review_misuse_exits_2_with_a_hint(
    sim_store: Path, capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    before = sorted((sim_store / "reviews").glob("*.parquet"))
    assert main(["review", "--data-dir", str(sim_store), *argv]) == 2
    err = capsys.readouterr().err
    assert "hint:" in err and needle in err
    assert sorted((sim_store / "reviews").glob("*.parquet")) == before
