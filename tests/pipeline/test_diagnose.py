"""``leakline diagnose`` on real Parquet data: real events -> detectors -> rows -> DuckDB."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest

from leakline.detectors import run_detectors
from leakline.pipeline.core.errors import StoreError
from leakline.pipeline.curation.diagnose import (
    Count,
    add_parser,
    diagnose_store,
    main,
    render_table,
    sign_test_p,
    two_proportion_z,
)
from leakline.pipeline.events.contract import validate_event
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.store.database import init_store, read_only
from leakline.pipeline.store.sink import ParquetSink

NOW = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
QWEN = "Qwen/Qwen3-8B"


def _chunk(finish: str | None = None, **delta: str) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def chat(
    event_id: str,
    *,
    question: str,
    content: list[str],
    reasoning: str = "",
    stream: bool = False,
    stop: bool = False,
    model: str = QWEN,
    reasoning_parser: str | None = "qwen3",
    tool_parser: str | None = None,
    version: str = "0.31.0",
    reasoning_field: str = "reasoning",
) -> dict[str, Any]:
    """A chat.completions event; ``content`` is the list of visible deltas."""
    request: dict[str, Any] = {"model": model, "messages": [{"role": "user", "content": question}]}
    if stop:
        request["stop"] = ["\nUser:"]
    if stream:
        request["stream"] = True
    parsers = {k: v for k, v in (("reasoning", reasoning_parser), ("tool_call", tool_parser)) if v}
    event: dict[str, Any] = {
        "event_id": event_id,
        "ts": "2026-11-01T10:00:00Z",
        "api": "chat.completions",
        "request": request,
        "engine": {"name": "vllm", "version": version},
        "model": {"name": model},
        "parsers": parsers,
    }
    if stream:
        chunks = [_chunk(**{reasoning_field: reasoning})] if reasoning else []
        chunks += [_chunk(content=piece) for piece in content]
        chunks.append(_chunk(finish="stop"))
        event["chunks"] = chunks
    else:
        message = {"content": "".join(content)}
        if reasoning:
            message[reasoning_field] = reasoning
        event["response"] = {"choices": [{"message": message, "finish_reason": "stop"}]}
    return validate_event(event)


def store_events(data_dir: Path, events: Iterable[dict[str, Any]]) -> Path:
    """Run the real detectors on each event and write the rows as the worker would."""
    init_store(data_dir)
    rows = RowBuilder("w1", clean_text_rate=1.0)
    for offset, event in enumerate(events):
        exchange = normalise(event)
        rows.add(event, exchange, run_detectors(exchange), Origin("gateway.events", 0, offset), NOW)
    ParquetSink(data_dir).write(rows.table())
    return data_dir


def variants(prefix: str, n: int, leaks: set[tuple[bool, bool]], **kw: Any) -> list[dict[str, Any]]:
    """``n`` requests, each sent in all four (stream, stop) variants; ``leaks`` leak ``</think>``."""
    events = []
    for i in range(n):
        for stream in (True, False):
            for stop in (True, False):
                question = f"What is {i} + {i}?"
                if (stream, stop) in leaks:
                    content = [f"so it is {2 * i}.", "</think>", f"\n\nThe answer is {2 * i}."]
                    reasoning = f"The user asks {i}+{i}, "
                else:
                    content = [f"The answer is {2 * i}."]
                    reasoning = f"The user asks {i}+{i}, so it is {2 * i}."
                events.append(
                    chat(
                        f"{prefix}-{i}-{int(stream)}{int(stop)}",
                        question=question,
                        content=content,
                        reasoning=reasoning,
                        stream=stream,
                        stop=stop,
                        **kw,
                    )
                )
    return events


@pytest.fixture
def stream_stop_store(tmp_path: Path) -> Path:
    return store_events(tmp_path, variants("a", 12, {(True, True)}))


# ------------------------------------------------------------------ scenarios


def test_stream_stop_leak_points_at_the_parser(stream_stop_store: Path) -> None:
    with read_only(stream_stop_store) as con:
        [d] = diagnose_store(con, engine_version="0.31.0")
    assert (d.engine_name, d.engine_version, d.model_name) == ("vllm", "0.31.0", QWEN)
    assert (d.total, d.leaking) == (48, 12)
    top = d.top
    assert top is not None and d.layer == "parser"
    assert top.rule == "stream_stop_desync" and top.kind == "paired"
    assert top.stats["exposed"] == {"n": 12, "k": 12, "rate": 1.0}
    # the control is the worst other variant (here all are clean; stream without stop first)
    assert top.stats["control"] == {"n": 12, "k": 0, "rate": 0.0}
    assert top.stats["control_variant"] == "stream"
    assert top.stats["pairs"]["only_exposed"] == 36 and top.stats["pairs"]["only_control"] == 0
    assert top.stats["pairs_weakest"]["only_exposed"] == 12
    assert top.excess == 12 and "drop `stop`" in top.fix
    # the six steps carry the numbers
    steps = d.steps
    assert steps["collect"]["labels"]["boundary_token"] == 12
    assert steps["boundary_tokens"]["with_delimiter"] == 12
    assert steps["boundary_tokens"]["lone_end_tags"] == 12
    assert steps["streaming"]["stream"] == {"n": 24, "k": 12, "rate": 0.5}
    assert steps["streaming"]["pairs"]["only_exposed"] == 12  # streamed-only leaks, with stop
    assert steps["stop"]["cells"]["stream+stop"]["k"] == 12
    assert steps["stop"]["cells"]["neither"]["k"] == 0
    assert steps["stop"]["pairs_streamed"]["disagree"] == 12
    assert steps["parsers"]["combinations"][0]["reasoning_parser"] == "qwen3"
    assert steps["client"] == {
        "commentary_rendered": 0,
        "mixed_chunk": 0,
        "reasoning_field_mismatch": 0,
        "field_pairs": [],
    }
    # the lone end tag is not blamed on the template: it does not happen without stream+stop
    assert all(c.rule != "prefilled_start_tag" or not c.stands_out for c in d.candidates)
    text = render_table([d])
    assert "most likely layer: PARSER (stream_stop_desync" in text
    assert "stream+stop 12/12 (100.0%) vs stream 0/12 (0.0%)" in text


def test_streaming_alone_is_not_credited_to_stop(tmp_path: Path) -> None:
    events = variants("s", 10, {(True, True), (True, False)})
    with read_only(store_events(tmp_path, events)) as con:
        [d] = diagnose_store(con)
    assert d.top is not None and d.top.rule == "stream_split_delimiter" and d.layer == "parser"
    assert d.top.excess == 10 and d.top.kind == "paired"
    [stop] = [c for c in d.candidates if c.rule == "stream_stop_desync"]
    assert not stop.stands_out and stop.stats["control_variant"] == "stream"


def test_stream_stop_without_pairs_still_stands_out_on_rates(tmp_path: Path) -> None:
    events = variants("a", 6, {(True, True)})
    for e in events:  # every request distinct: no request_key pairs
        e["request"]["messages"][0]["content"] += e["event_id"]
    with read_only(store_events(tmp_path, events)) as con:
        [d] = diagnose_store(con)
    assert d.top is not None and d.top.rule == "stream_stop_desync" and d.top.kind == "contrast"
    assert d.top.stats["pairs"]["pairs"] == 0 and d.top.stats["z"] > 1.96


def test_qwen3_with_deepseek_r1_parser_is_a_parser_mismatch(tmp_path: Path) -> None:
    events = [
        chat(
            f"b{i}",
            question=f"Say hi {i}",
            content=[""] if i % 2 else ["Hello!"],
            reasoning=f"The user says hi {i}. Hello!",
            reasoning_parser="deepseek_r1",
            reasoning_field="reasoning_content",
        )
        for i in range(16)
    ]
    with read_only(store_events(tmp_path, events)) as con:
        [d] = diagnose_store(con, model_name=QWEN)
    assert d.steps["collect"]["labels"] == {"final_in_reasoning": 8}
    assert d.top is not None and d.layer == "parser"
    assert d.top.rule == "reasoning_parser_family_mismatch" and d.top.kind == "configuration"
    assert d.top.excess == 8 and "--reasoning-parser qwen3" in d.top.fix
    assert "deepseek_r1" in d.top.reason
    [combo] = d.steps["parsers"]["combinations"]
    assert combo["family_mismatch"] and combo["final_in_reasoning"] == 8


def _responses(event_id: str, *, commentary: str | None, answer: str) -> dict[str, Any]:
    output = []
    if commentary:
        output.append(
            {
                "type": "message",
                "phase": "commentary",
                "content": [{"type": "output_text", "text": commentary}],
            }
        )
    output.append(
        {
            "type": "message",
            "phase": "final_answer",
            "content": [{"type": "output_text", "text": answer}],
        }
    )
    return validate_event(
        {
            "event_id": event_id,
            "ts": "2026-11-01T10:00:00Z",
            "api": "responses",
            "request": {"model": "gpt-5.4", "input": event_id},
            "response": {"status": "completed", "output": output},
            "engine": {"name": "openai", "version": "2026-10"},
            "model": {"name": "gpt-5.4"},
            "client": {"renders_phases": True},
        }
    )


def test_rendered_commentary_points_at_the_client(tmp_path: Path) -> None:
    events = [
        _responses(
            f"c{i}",
            commentary="Let me look that up first." if i < 6 else None,
            answer="Paris is the capital of France.",
        )
        for i in range(10)
    ]
    with read_only(store_events(tmp_path, events)) as con:
        [d] = diagnose_store(con, engine_name="openai")
    assert d.steps["client"]["commentary_rendered"] == 6
    assert d.top is not None and d.layer == "client"
    assert d.top.rule == "commentary_rendered_client" and d.top.excess == 6
    assert 'phase == "commentary"' in d.top.fix
    # the preambles are the rendered commentary, not a model habit
    assert all(c.rule != "preamble_model" or c.excess == 0 for c in d.candidates)


def test_clean_data_has_no_layer_standing_out(tmp_path: Path) -> None:
    with read_only(store_events(tmp_path, variants("d", 6, set()))) as con:
        [d] = diagnose_store(con)
    assert d.leaking == 0 and d.top is None and d.layer is None
    assert not any(c.stands_out for c in d.candidates)
    assert "no leak layer stands out (no leaks)" in render_table([d])


def test_each_engine_version_gets_its_own_diagnosis(tmp_path: Path) -> None:
    old = variants("old", 8, {(True, True)}, version="0.30.2")
    new = variants("new", 8, set(), version="0.31.0")
    with read_only(store_events(tmp_path, old + new)) as con:
        found = diagnose_store(con)
        only_new = diagnose_store(con, engine_version="0.31.0", engine_name="vllm", model_name=QWEN)
    assert [(d.engine_version, d.layer) for d in found] == [("0.30.2", "parser"), ("0.31.0", None)]
    assert [d.engine_version for d in only_new] == ["0.31.0"]


def test_delimiters_in_every_variant_point_at_the_parser(tmp_path: Path) -> None:
    events = []
    for i in range(6):
        for stream in (True, False):
            events.append(
                chat(
                    f"v{i}{int(stream)}",
                    question=f"q{i}",
                    content=[f"<think>The user wants {i}.</think>", f"It is {i}."],
                    stream=stream,
                )
            )
    with read_only(store_events(tmp_path, events)) as con:
        [d] = diagnose_store(con)
    assert d.top is not None and d.top.rule == "visible_delimiter" and d.layer == "parser"
    assert d.top.excess == 12
    assert not any(c.stands_out for c in d.candidates if c.kind in ("contrast", "paired"))
    assert d.steps["streaming"]["pairs"] == {
        "pairs": 6,
        "disagree": 0,
        "only_exposed": 0,
        "only_control": 0,
    }


def test_tool_parser_alone_is_named(tmp_path: Path) -> None:
    events = [
        chat(
            f"t{i}",
            question=f"q{i}",
            content=[f"<think>The user wants {i}.</think>It is {i}."],
            model="Qwen/Qwen3-Coder-30B-A3B-Instruct",
            reasoning_parser=None,
            tool_parser="qwen3_xml",
        )
        for i in range(6)
    ]
    with read_only(store_events(tmp_path, events)) as con:
        [d] = diagnose_store(con)
    assert d.top is not None and d.top.rule == "tool_parser_without_reasoning_parser"
    assert "--reasoning-parser qwen3 together with --tool-call-parser qwen3_xml" in d.top.fix
    assert d.steps["parsers"]["missing_reasoning_parser_events"] == 6


def test_reasoning_field_mismatch_is_counted_without_a_label(tmp_path: Path) -> None:
    events = []
    for i in range(5):
        event = chat(f"f{i}", question=f"q{i}", content=["4"], reasoning="2+2")
        event["client"] = {"reasoning_field": "reasoning_content"}
        events.append(event)
    with read_only(store_events(tmp_path, events)) as con:
        [d] = diagnose_store(con)
    assert d.leaking == 0 and d.steps["client"]["reasoning_field_mismatch"] == 5
    assert d.top is not None and d.top.rule == "reasoning_field_mismatch" and d.layer == "client"
    assert "read both fields" in d.top.fix
    assert "wrote reasoning to 'reasoning' but the client reads 'reasoning_content'" in d.top.reason
    assert d.steps["client"]["field_pairs"] == [
        {"engine_field": "reasoning", "client_field": "reasoning_content", "events": 5}
    ]


# ------------------------------------------------------------------ safety and errors


def test_injection_in_version_is_a_bound_parameter(stream_stop_store: Path) -> None:
    hostile = "0.31.0' OR 1=1; DROP VIEW samples; --"
    with read_only(stream_stop_store) as con:
        with pytest.raises(StoreError) as info:
            diagnose_store(con, engine_version=hostile)
        assert "no stored events match" in str(info.value)
        assert "leakline rates" in (info.value.hint or "")
        for kw in ("engine_name", "model_name"):
            with pytest.raises(StoreError):
                diagnose_store(con, **{kw: hostile})
        assert len(diagnose_store(con)) == 1  # the view is still there
        assert con.execute("select count(*) from samples").fetchone() == (48,)


def test_missing_and_empty_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as info, read_only(tmp_path / "nope"):
        pass
    assert "leakline demo" in (info.value.hint or "")
    init_store(tmp_path)
    with read_only(tmp_path) as con, pytest.raises(StoreError) as empty:
        diagnose_store(con)
    assert "no events" in str(empty.value) and empty.value.hint


def test_statistics() -> None:
    assert two_proportion_z(Count(4, 4), Count(100, 0)) is None  # below the minimum group
    z = two_proportion_z(Count(10, 10), Count(30, 0))
    assert z is not None and z > 5
    assert two_proportion_z(Count(10, 0), Count(10, 0)) == 0.0
    assert sign_test_p(5, 0) == pytest.approx(1 / 32)
    assert sign_test_p(0, 0) == 1.0
    assert sign_test_p(3, 3) > 0.5


# ------------------------------------------------------------------ command line


def test_cli_handler_table_and_json(
    stream_stop_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--data-dir", str(stream_stop_store), "--version", "0.31.0"]) == 0
    out = capsys.readouterr().out
    assert "most likely layer: PARSER" in out and "fix to try:" in out
    for step in ("1 collect", "2 boundary", "3 streaming", "4 stop", "5 parsers", "6 client"):
        assert step in out
    assert main(["--data-dir", str(stream_stop_store), "--format", "json"]) == 0
    [row] = orjson.loads(capsys.readouterr().out)
    assert row["most_likely_layer"] == "parser"
    assert row["most_likely"]["rule"] == "stream_stop_desync"
    assert row["steps"]["stop"]["cells"]["stream+stop"] == {"n": 12, "k": 12, "rate": 1.0}


def test_cli_errors_exit_2_with_a_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert "error: no leakline store" in err and "hint:" in err


def test_add_parser_registers_the_subcommand(stream_stop_store: Path) -> None:
    parser = argparse.ArgumentParser(prog="leakline")
    parser.add_argument(
        "--version", action="version", version="leakline x"
    )  # as leakline.pipeline.cli
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        ["diagnose", "--data-dir", str(stream_stop_store), "--model", QWEN, "--format", "json"]
    )
    assert (args.command, args.engine_version, args.model_name) == ("diagnose", None, QWEN)
    assert args.func(args) == 0
    args = parser.parse_args(["diagnose", "--version", "0.31.0", "--engine", "vllm"])
    assert (args.engine_version, args.engine_name, args.format) == ("0.31.0", "vllm", "table")


def test_module_entry_help() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "leakline.pipeline.curation.diagnose", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert "stream+stop" in done.stdout and "--version ENGINE_VERSION" in done.stdout


def test_registering_the_command_stays_light() -> None:
    """``leakline --help`` imports add_parser: DuckDB and Arrow must not load with it."""
    code = (
        "import sys, leakline.pipeline.curation.diagnose; "
        "print(','.join(m for m in ('duckdb', 'pyarrow') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == ""
