"""``leakline gate`` made safe and statistical: the plan and an ETA before the first
request, ``--max-cases`` stratified sampling, Ctrl-C (cancel within 2 s, a partial report
marked incomplete, exit 130), significance on top of the tolerance, and a stored baseline
made of the same cases rather than production traffic. Against real engine-sim processes."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gate_kit import HAND_CASES, make_case, write_cases
from test_gate import gate

from leakline.pipeline.demo import stop_process
from leakline.pipeline.gate.cases import Case, select_cases
from leakline.pipeline.gate.engine.sim import spawn_engine_sim
from leakline.pipeline.gate.rates import gate_case_key
from leakline.pipeline.query.filters import Where


@pytest.fixture(scope="module")
def slow_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An engine-sim that takes 1.5 s per request: a run long enough to interrupt."""
    log = tmp_path_factory.mktemp("slow-sim") / "engine-sim.log"
    proc, url = spawn_engine_sim("good", log_path=log, delay_s=1.5)
    try:
        yield url
    finally:
        stop_process(proc)


def _case(i: int, labels: tuple[str, ...], version: str) -> Case:
    return Case(
        f"c{i:03d}",
        "chat.completions",
        {"messages": [{"role": "user", "content": str(i)}]},
        labels,
        {"engine": {"name": "vllm", "version": version}, "model": {"name": "m"}},
    )


def test_max_cases_is_stratified_by_label_set_and_version() -> None:
    cases = [_case(i, (), "0.31.0") for i in range(40)]  # a big clean stratum
    cases += [_case(100 + i, ("preamble",), "0.31.0") for i in range(5)]
    cases += [_case(200 + i, ("truncated",), "0.30.2") for i in range(2)]
    cases += [_case(300, ("boundary_token", "reasoning_leak"), "0.30.2")]
    picked = select_cases(cases, max_cases=6)
    assert len(picked) == 6
    strata = {c.stratum() for c in picked}
    assert strata == {c.stratum() for c in cases}  # every stratum before any second case
    assert select_cases(cases, max_cases=6) == picked  # deterministic
    assert select_cases(cases, max_cases=6, seed=1) != picked
    assert len(select_cases(cases, max_cases=100)) == len(cases)
    only = select_cases(cases, Where((("engine.version", "0.30.2"),)))
    assert {c.case_id for c in only} == {"c200", "c201", "c300"}


def test_gate_event_ids_name_their_case_and_combination() -> None:
    assert gate_case_key("gate-0123456789ab-c001-stream-nostop-json-notools") == (
        "c001",
        "stream-nostop-json-notools",
    )
    assert gate_case_key("sim-1-000") is None


def _gate_process(url: str, cases: Path, data: Path, report: Path, *extra: str):
    rates = data.parent / "zero.json"
    rates.write_text(json.dumps({"overall": 0.0, "labels": {}}))
    cmd = [
        sys.executable, "-m", "leakline.pipeline.cli", "gate", "--regression", str(cases),
        "--endpoint", url, "--model", "sim-good", "--data-dir", str(data),
        "--engine-name", "sim", "--engine-version", "9", "--baseline-rates", str(rates),
        "--report", str(report), *extra,
    ]  # fmt: skip
    return subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ}
    )


@pytest.mark.slow
def test_ctrl_c_cancels_within_2s_and_writes_an_incomplete_report(
    slow_url: str, case_dir: Path, tmp_path: Path
) -> None:
    data, report = tmp_path / "data", tmp_path / "report.json"
    proc = _gate_process(slow_url, case_dir, data, report, "--concurrency", "2")
    assert proc.stderr is not None
    plan = proc.stderr.readline()  # printed before the first request
    # 6 cases (two with tools: 16 combinations) = 64 requests at 1.5 s, 2 in flight: ~48 s
    assert plan.startswith("gate plan: 6 cases x combinations (8 each, 16 with tools) = 64 ")
    time.sleep(5)  # a few requests finish
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    took = time.monotonic() - sent
    assert proc.returncode == 130, err
    assert took < 2.0, f"took {took:.1f}s to stop"
    written = json.loads(report.read_text())
    assert written["incomplete"] is True and written["passed"] is False
    assert 0 < written["requests"] < written["planned_requests"] == 64
    assert written["candidate_rates"]["total"] == written["requests"]
    assert written["stored_files"] == []
    assert not list((data / "samples").glob("*/*.parquet")) if (data / "samples").exists() else True
    assert "INCOMPLETE" in out and "interrupted" in err


@pytest.mark.slow
def test_plan_eta_and_max_cases(sim_url: str, case_dir: Path, tmp_path: Path) -> None:
    data, report = tmp_path / "data", tmp_path / "report.json"
    proc = _gate_process(sim_url, case_dir, data, report, "--max-cases", "2")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "gate plan: 2 of 6 cases (--max-cases 2, stratified by label set and version)" in err
    # the expected time before replaying (piped stderr: plain progress lines, issue 32)
    assert re.search(r"gate estimate: about \d+ s for \d+ requests", err), err
    written = json.loads(report.read_text())
    assert written["cases"] == 2 and written["cases_available"] == 6
    assert written["requests"] == written["planned_requests"] in (16, 24)


def test_rise_within_noise_is_not_a_regression(sim_url: str, tmp_path: Path) -> None:
    api, request = HAND_CASES[0]
    cases = write_cases(tmp_path / "one", [make_case(api, request, [], "hand-0")])
    # the baseline leaked 1 of 8; sim-stop leaks 2 of 8 (stream + stop): 25 % > 12.5 % + 2 %
    base = tmp_path / "base.json"
    base.write_text(json.dumps({"overall": 0.125, "labels": {}, "total": 8}))
    args = ("--baseline-rates", str(base))
    status, report = gate(sim_url, cases, tmp_path / "d", "sim-stop", "2", *args)
    assert status == 0 and report is not None and report["passed"], report
    overall = report["comparison"][0]
    assert overall["label"] == "overall" and overall["above_tolerance"]
    assert not overall["significant"] and overall["p_value"] > 0.05
    assert overall["candidate_interval"][0] < 0.125 < overall["candidate_interval"][1]
    status, strict = gate(sim_url, cases, tmp_path / "d", "sim-stop", "3", *args, "--alpha", "1")
    assert status == 1 and strict is not None and "overall" in strict["regressed_labels"]


@pytest.mark.slow
def test_stored_baseline_is_the_same_cases_not_production(
    sim_url: str, case_dir: Path, tmp_path: Path
) -> None:
    import rates_kit

    data = rates_kit.build(tmp_path / "data")  # production traffic at vllm 0.31.0: 400 events
    first: tuple[int, dict[str, Any] | None] = gate(
        sim_url, case_dir, data, "sim-good", "0.31.0", "--write-rates", str(tmp_path / "r.json")
    )
    assert first[0] == 0
    status, report = gate(
        sim_url, case_dir, data, "sim-good", "0.32.0", "--baseline-version",
        "engine.version=0.31.0", "--max-cases", "3",
    )  # fmt: skip
    assert status == 0 and report is not None, report
    # the baseline is the 0.31.0 gate replies of these three cases' combinations only
    assert report["baseline"]["source"] == "store"
    assert report["baseline"]["total"] == report["requests"] < 64
    assert report["baseline"]["overall"] == 0.0
    assert report["baseline"]["coverage"] == {"matched": 32, "planned": 32}
    status, prod = gate(
        sim_url, case_dir, data, "sim-good", "0.32.1", "--baseline-version",
        "engine.version=0.31.0", "--baseline-from", "production", "--max-cases", "3",
    )  # fmt: skip
    assert prod is not None and prod["baseline"]["source"] == "store:production"
    assert prod["baseline"]["total"] == 400 and prod["baseline"]["overall"] == 0.1
    # 0.33.0 has production traffic but was never gated: no baseline of the same cases
    done = subprocess.run(
        [
            sys.executable, "-m", "leakline.pipeline.cli", "gate", "--regression", str(case_dir),
            "--endpoint", sim_url, "--model", "sim-good", "--data-dir", str(data),
            "--engine-name", "sim", "--engine-version", "0.40.0",
            "--baseline-version", "engine.version=0.33.0",
        ],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "no stored gate replies of these regression cases" in done.stderr
    assert "--baseline-from production" in done.stderr


def test_where_picks_cases_by_origin(case_dir: Path, tmp_path: Path, capsys) -> None:
    from leakline.pipeline.cli import main as cli_main

    rates = tmp_path / "zero.json"
    rates.write_text(json.dumps({"overall": 0.0, "labels": {}}))
    common = [
        "gate", "--regression", str(case_dir), "--endpoint", "http://127.0.0.1:9/v1",
        "--model", "m", "--engine-name", "e", "--engine-version", "1",
        "--baseline-rates", str(rates), "--data-dir", str(tmp_path / "d"),
    ]  # fmt: skip
    assert cli_main([*common, "--where", "engine.colour=red"]) == 2
    err = capsys.readouterr().err
    assert "unknown field 'engine.colour'" in err and "engine.version" in err
    assert cli_main([*common, "--where", "engine.version=0.99.0"]) == 2
    assert "no regression case matches engine.version=0.99.0" in capsys.readouterr().err
    assert cli_main([*common, "--since", "soon"]) == 2
    assert "is not a time" in capsys.readouterr().err
