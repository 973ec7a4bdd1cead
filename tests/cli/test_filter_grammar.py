"""One filter grammar across the commands that read stored samples: ``--where
FIELD=VALUE`` (the ``--by`` field names), ``--since``/``--until`` with RFC 3339 or a
relative duration, and an unknown field answered with the list of fields. Each command
runs as a user runs it, on a real store (``rates_kit``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import rates_kit
from leakline_testkit import leakline

from leakline.pipeline.query.filters import FIELDS


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return rates_kit.build(tmp_path_factory.mktemp("grammar") / "data")


@pytest.mark.parametrize(
    "command",
    [
        ["rates"],
        ["export", "--out", "/tmp/never-written"],
        ["review", "--list"],
        ["diagnose"],
        ["compare", "engine.version=0.31.0", "engine.version=0.32.0"],
    ],
    ids=lambda c: c[0],
)
def test_unknown_field_and_bad_time_are_explained(store: Path, command: list[str]) -> None:
    done = leakline(*command, "--data-dir", str(store), "--where", "engine.colour=red")
    assert done.returncode == 2, done.stderr
    assert "unknown field 'engine.colour'" in done.stderr
    assert all(name in done.stderr for name in FIELDS)
    assert "Traceback" not in done.stderr
    done = leakline(*command, "--data-dir", str(store), "--since", "last tuesday")
    assert done.returncode == 2, done.stderr
    assert "--since 'last tuesday' is not a time" in done.stderr and "7d" in done.stderr


def _export(store: Path, out: Path, *args: str) -> list[dict]:
    done = leakline("export", "--data-dir", str(store), "--out", str(out), "--quiet", *args)
    assert done.returncode == 0, done.stderr
    return [json.loads(x) for x in (out / "samples.jsonl").read_text().splitlines()]


def test_export_where_since_until_and_the_version_alias(store: Path, tmp_path: Path) -> None:
    recent = _export(store, tmp_path / "a", "--where", "engine.version=0.32.0", "--since", "1h")
    assert recent and {x["engine"]["version"] for x in recent} == {"0.32.0"}
    alias = _export(store, tmp_path / "b", "--version", "0.32.0", "--since", "1h")
    assert alias == recent
    # 0.31.0 leaked only in its three-day-old traffic
    assert _export(store, tmp_path / "c", "--where", "engine.version=0.31.0", "--since", "1h") == []
    old = _export(store, tmp_path / "d", "--where", "engine.version=0.31.0", "--until", "1d")
    assert old and {x["engine"]["version"] for x in old} == {"0.31.0"}


def test_review_list_where(store: Path) -> None:
    done = leakline(
        "review", "--list", "--data-dir", str(store), "--where", "engine.version=0.33.0"
    )
    assert done.returncode == 0, done.stderr
    listed = [line for line in done.stdout.splitlines() if line.startswith("0.33.0-")]
    assert len(listed) == 2  # the two leaking (text-stored) rows of 0.33.0


def test_diagnose_where_and_gate_rows(store: Path) -> None:
    done = leakline("diagnose", "--data-dir", str(store), "--format", "json")
    assert done.returncode == 0, done.stderr
    versions = {d["engine_version"] for d in json.loads(done.stdout)}
    assert versions == {"0.31.0", "0.32.0", "0.33.0"}  # the gate replays stay out
    done = leakline(
        "diagnose", "--data-dir", str(store), "--format", "json",
        "--where", "engine.version=0.32.0", "--since", "2h",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (only,) = json.loads(done.stdout)
    assert (only["engine_version"], only["total"]) == ("0.32.0", 400)
    done = leakline(
        "diagnose", "--data-dir", str(store), "--format", "json", "--include-gate",
        "--where", "source=gate",
    )  # fmt: skip
    assert [d["engine_version"] for d in json.loads(done.stdout)] == ["0.34.0"]


def test_export_and_review_leave_gate_replies_out(store: Path, tmp_path: Path) -> None:
    assert _export(store, tmp_path / "a", "--where", "engine.version=0.34.0") == []
    gate = _export(store, tmp_path / "b", "--where", "engine.version=0.34.0", "--include-gate")
    assert gate and {x["engine"]["version"] for x in gate} == {"0.34.0"}
    listed = leakline("review", "--list", "--data-dir", str(store), "--limit", "1000")
    assert listed.returncode == 0, listed.stderr
    assert "0.34.0-" not in listed.stdout and "0.31.0-" in listed.stdout
    listed = leakline(
        "review", "--list", "--data-dir", str(store), "--where", "source=gate", "--limit", "1000"
    )
    assert sum(line.startswith("0.34.0-") for line in listed.stdout.splitlines()) == 50
