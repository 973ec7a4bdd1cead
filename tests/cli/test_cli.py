"""The CLI contract: exact spellings, JSON lines, errors that say what to do."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest
from leakline_testkit import leakline, read_topic

from leakline.detectors import run_detectors
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.store.database import init_store
from leakline.pipeline.store.sink import ParquetSink

THINK = {
    "event_id": "t1",
    "api": "chat.completions",
    "request": {},
    "response": {
        "choices": [{"message": {"content": "<think>hm</think>Yes."}, "finish_reason": "stop"}]
    },
}
CLEAN = {
    "event_id": "c1",
    "api": "chat.completions",
    "request": {},
    "response": {"choices": [{"message": {"content": "Yes."}, "finish_reason": "stop"}]},
}


def test_detect_writes_one_line_per_input_line(tmp_path: Path) -> None:
    src = tmp_path / "events.jsonl"
    src.write_bytes(
        b"\n".join(
            [
                orjson.dumps(THINK),
                b'{"event_id": "broken", "api": "nope", "request": {}, "response": {}}',
                b"{not json",
                orjson.dumps(CLEAN),
            ]
        )
        + b"\n"
    )
    result = leakline("detect", str(src))
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["event_id"] for line in lines] == ["t1", "broken", None, "c1"]
    assert lines[0]["labels"] == ["boundary_token", "reasoning_leak"]
    finding = lines[0]["findings"][0]
    assert {
        "label",
        "detector_id",
        "detector_version",
        "span",
        "evidence",
        "remediation",
        "layer",
    } <= set(finding)
    assert "api" in lines[1]["error"] and "JSON" in lines[2]["error"]
    assert lines[3] == {"event_id": "c1", "labels": [], "findings": []}
    assert "4 lines, 2 valid, 2 invalid, 1 leaking" in result.stderr


def test_detect_reads_stdin() -> None:
    result = leakline("detect", "-", stdin=orjson.dumps(CLEAN) + b"\n")
    assert result.returncode == 0 and json.loads(result.stdout)["event_id"] == "c1"


def test_detect_missing_file_says_what_to_do() -> None:
    result = leakline("detect", "/nonexistent/events.jsonl")
    assert result.returncode == 2
    assert "cannot read" in result.stderr and "hint:" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def store(tmp_path: Path) -> Path:
    init_store(tmp_path)
    rows = RowBuilder("w", 0.0)
    now = datetime(2026, 11, 1, tzinfo=UTC)
    for i, (event, version) in enumerate([(THINK, "0.30.2"), (CLEAN, "0.30.2"), (CLEAN, "0.31.0")]):
        event = {**event, "event_id": f"e{i}", "engine": {"name": "vllm", "version": version}}
        x = normalise(event)
        rows.add(event, x, run_detectors(x), Origin("gateway.events", 0, i), now)
    ParquetSink(tmp_path).write(rows.table())
    return tmp_path


def test_rates_json_rows(store: Path) -> None:
    result = leakline(
        "rates", "--data-dir", str(store), "--by", "engine.version", "--format", "json"
    )
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [(r["engine.version"], r["total"], r["leaking"], r["rate"]) for r in rows] == [
        ("0.30.2", 2, 1, 0.5),
        ("0.31.0", 1, 0, 0.0),
    ]
    assert (
        rows[0]["boundary_token"] == 1
        and rows[0]["reasoning_leak"] == 1
        and rows[1]["preamble"] == 0
    )


def test_rates_csv_and_table(store: Path) -> None:
    csv_out = leakline(
        "rates", "--data-dir", str(store), "--by", "engine.name,engine.version", "--format", "csv"
    )
    assert csv_out.stdout.splitlines()[0].startswith(
        "engine.name,engine.version,total,leaking,rate,"
    )
    assert csv_out.stdout.splitlines()[1].startswith("vllm,0.30.2,2,1,0.5,")
    table = leakline("rates", "--data-dir", str(store), "--by", "engine.version")
    assert "0.30.2" in table.stdout and "50.0%" in table.stdout and "boundary_token" in table.stdout


def test_rates_reads_data_dir_from_environment(store: Path) -> None:
    import os

    env = {**os.environ, "LEAKLINE_DATA_DIR": str(store)}
    result = leakline("rates", "--by", "", "--format", "json", env=env)
    assert json.loads(result.stdout)[0]["total"] == 3


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(
            ["rates", "--data-dir", "/nonexistent", "--by", "engine.version"],
            "leakline demo",
            id="no_store",
        ),
        pytest.param(["rates", "--by", "engine.versoin"], "choose from", id="bad_by_field"),
        pytest.param(["rates", "--format", "xml"], "invalid choice", id="bad_format"),
        pytest.param(["simulate", "--leak-ratio", "2"], "between 0 and 1", id="bad_ratio"),
        pytest.param(["frobnicate"], "invalid choice", id="unknown_command"),
        pytest.param(
            ["simulate", "--count", "5", "--out", "/nonexistent/sim.jsonl"],
            "cannot write /nonexistent/sim.jsonl",
            id="simulate_unwritable_out",
        ),
        pytest.param(
            ["dlq", "--bootstrap", "127.0.0.1:9", "--out", "/nonexistent/dlq.jsonl"],
            "cannot write /nonexistent/dlq.jsonl",
            id="dlq_unwritable_out",
        ),
    ],
)
def test_misuse_prints_help_not_traceback(args: list[str], expected: str, store: Path) -> None:
    if args[:2] == ["rates", "--by"]:
        args = ["rates", "--data-dir", str(store), *args[1:]]
    result = leakline(*args)
    assert result.returncode == 2
    assert expected in result.stderr and "Traceback" not in result.stderr


def test_no_command_prints_help() -> None:
    result = leakline()
    assert result.returncode == 2 and "leakline demo" in result.stderr


def _commands() -> list[str]:
    import argparse

    from leakline.pipeline.cli import build_parser

    parser = build_parser()
    return [
        name
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    ]


@pytest.mark.parametrize("command", _commands())
def test_every_command_has_help(command: str) -> None:
    result = leakline(command, "--help")
    assert result.returncode == 0 and "usage: leakline " + command in result.stdout


def test_simulate_to_jsonl_then_detect(tmp_path: Path) -> None:
    out = tmp_path / "sim.jsonl"
    assert (
        leakline("simulate", "--count", "50", "--malformed", "5", "--out", str(out)).returncode == 0
    )
    lines = out.read_bytes().splitlines()
    assert len(lines) == 55
    detected = leakline("detect", str(out))
    assert "55 lines, 50 valid, 5 invalid" in detected.stderr


def test_replay_produces_every_line(broker, tmp_path: Path) -> None:
    src = tmp_path / "events.jsonl"
    src.write_bytes(orjson.dumps(THINK) + b"\n" + b"{broken\n" + orjson.dumps(CLEAN) + b"\n\n")
    result = leakline("replay", str(src), "--bootstrap", broker.bootstrap)
    assert result.returncode == 0, result.stderr
    assert "replayed 3 events" in result.stderr
    records = read_topic(broker.bootstrap, "gateway.events")
    assert sorted(r.value for r in records) == sorted(
        [orjson.dumps(THINK), b"{broken", orjson.dumps(CLEAN)]
    )
    assert {r.key for r in records} == {b"t1", b"c1", None}


@pytest.mark.parametrize("source", ["-", "/dev/stdin"])
def test_replay_reads_a_pipe(broker, source: str) -> None:
    # `-` and a path that is not a regular file (/dev/stdin, <(zcat ...)) are read once
    lines = orjson.dumps(THINK) + b"\n" + orjson.dumps(CLEAN) + b"\n"
    result = leakline("replay", source, "--bootstrap", broker.bootstrap, stdin=lines)
    assert result.returncode == 0, result.stderr
    assert "replayed 2 events" in result.stderr
    records = read_topic(broker.bootstrap, "gateway.events")
    assert sorted(r.key for r in records) == [b"c1", b"t1"]


def test_replay_to_an_unreachable_broker_fails_clearly(tmp_path: Path) -> None:
    from leakline.pipeline.kafka.broker import free_port

    src = tmp_path / "events.jsonl"
    src.write_bytes(orjson.dumps(CLEAN) + b"\n")
    result = leakline(
        "replay", str(src), "--bootstrap", f"127.0.0.1:{free_port()}", "--connect-timeout", "3"
    )
    assert result.returncode == 2
    assert "cannot reach Kafka" in result.stderr and "hint:" in result.stderr


# What a command may not load just to parse its arguments (they cost ~0.4 s together).
_HEAVY = ("faust", "pyarrow", "sklearn", "openai", "anthropic", "litellm", "duckdb")


@pytest.mark.parametrize("command", _commands())
def test_a_command_loads_only_its_own_module(command: str) -> None:
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from leakline.pipeline import cli\n"
        "try:\n"
        f"    cli.main([{command!r}, '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print('LOADED=' + ','.join(m for m in {_HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    loaded = out.strip().splitlines()[-1]
    assert loaded == "LOADED=", f"`leakline {command} --help` {loaded}"


def test_version_loads_no_command() -> None:
    result = leakline("--version")
    assert result.returncode == 0 and result.stdout.startswith("leakline ")


def test_rates_on_a_store_loads_no_pyarrow(store: Path) -> None:
    # issue 19: `leakline rates` answers in ~0.3 s; pyarrow (and numpy with it) alone
    # took ~0.17 s to import, and reading rates through DuckDB never needs it
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from leakline.pipeline import cli\n"
        f"code = cli.main(['rates', '--data-dir', {str(store)!r}, '--format', 'json'])\n"
        f"print('LOADED=' + ','.join(m for m in {_HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    lines = out.strip().splitlines()
    assert json.loads("\n".join(lines[:-1]))  # the rates were printed
    assert lines[-1] == "LOADED=duckdb", lines[-1]


def _command_paths() -> list[tuple[str, ...]]:
    """Every command and nested action (``families import``), read from the parser itself."""
    import argparse

    from leakline.pipeline.cli import build_parser

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> list[tuple[str, ...]]:
        found = [path] if path else []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found += walk(sub, (*path, name))
        return found

    return walk(build_parser(), ())


@pytest.mark.parametrize("path", _command_paths(), ids=" ".join)
def test_misuse_of_a_command_prints_its_own_usage_and_a_hint(
    path: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    from leakline.pipeline.cli import main

    with pytest.raises(SystemExit) as exit_:
        main([*path, "--no-such-option-xyz"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    command = " ".join(("leakline", *path))
    assert err.startswith(f"usage: {command} "), err
    assert f"{command}: error: " in err
    assert f"hint: `{command} --help` lists its options" in err


def test_rates_with_an_unknown_option_names_it_under_the_usage_of_rates() -> None:
    result = leakline("rates", "--bogus")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: leakline rates ")
    assert "leakline rates: error: unrecognized arguments: --bogus" in result.stderr
    assert "Traceback" not in result.stderr
