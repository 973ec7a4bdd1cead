"""``leakline gate`` against a real engine-sim process: pass, fail, baselines, misuse."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gate_kit import HAND_CASES, WEATHER_SCHEMA, make_case, write_cases

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.cli import main as cli_main
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.gate.cases import Case, Combo, build_request, combos_for, load_cases
from leakline.pipeline.gate.rates import Rates, baseline_from_file, compare, parse_version_spec


def gate(
    url: str, cases: Path, data: Path, model: str, version: str, *extra: str
) -> tuple[int, dict[str, Any] | None]:
    """Run the real CLI entry point in-process; returns (exit status, report)."""
    report = data.parent / f"report-{version}-{model}.json"
    status = cli_main(
        [
            "gate",
            "--regression",
            str(cases),
            "--endpoint",
            url,
            "--model",
            model,
            "--data-dir",
            str(data),
            "--engine-name",
            "sim",
            "--engine-version",
            version,
            "--report",
            str(report),
            *extra,
        ]
    )
    return status, json.loads(report.read_text()) if report.exists() else None


# ------------------------------------------------------------------ cases and variants


def test_combinations_cover_stream_stop_structured_and_tools_where_declared(
    case_dir: Path,
) -> None:
    cases = load_cases(case_dir)
    assert len(cases) == 6
    by_tools = {bool(c.request.get("tools")): combos_for(c) for c in cases}
    assert len(by_tools[False]) == 8 and len(by_tools[True]) == 16
    assert {c.tools for c in by_tools[False]} == {False}
    assert len(set(by_tools[True])) == 16


def test_requests_are_rebuilt_for_each_api() -> None:
    api, request = HAND_CASES[2]  # a Responses case with a json_schema and max_output_tokens
    case = Case("c1", api, request, ())
    combo = Combo(stream=True, stop=True, structured=True, tools=False)
    same = build_request(case, combo, "responses", "cand")
    assert same["model"] == "cand" and same["stream"] is True and same["stop"] == ["\nUser:"]
    assert same["text"]["format"]["schema"] == WEATHER_SCHEMA  # the case's own schema
    assert same["input"] == request["input"] and same["max_output_tokens"] == 512
    chat = build_request(case, combo, "chat.completions", "cand")
    assert chat["messages"] == [{"role": "user", "content": request["input"][0]["content"]}]
    assert chat["response_format"]["json_schema"]["schema"] == WEATHER_SCHEMA
    assert chat["max_tokens"] == 512
    plain = build_request(case, Combo(False, False, False, False), "messages", "cand")
    assert "stop_sequences" not in plain and "output_config" not in plain
    assert "stream" not in plain and plain["max_tokens"] == 512
    with_stop = build_request(case, combo, "messages", "cand")
    assert with_stop["stop_sequences"] == ["\nUser:"]
    assert with_stop["output_config"]["format"]["type"] == "json_schema"

    tool_case = Case("c2", *HAND_CASES[1], ())
    for target, key in (
        ("chat.completions", "function"),
        ("responses", "name"),
        ("messages", "input_schema"),
    ):
        body = build_request(tool_case, Combo(False, False, False, True), target, "cand")
        assert key in body["tools"][0]
        assert "tools" not in build_request(
            tool_case, Combo(False, False, False, False), target, "cand"
        )


def test_compare_applies_the_tolerance() -> None:
    base = Rates(100, 0.10, {label: 0.0 for label in ALL_LABELS} | {"preamble": 0.10})
    same = Rates(100, 0.12, {label: 0.0 for label in ALL_LABELS} | {"preamble": 0.12})
    worse = Rates(100, 0.13, {label: 0.0 for label in ALL_LABELS} | {"preamble": 0.13})
    assert not any(r["regressed"] for r in compare(same, base, 0.02))
    regressed = {r["label"] for r in compare(worse, base, 0.02) if r["regressed"]}
    assert regressed == {"overall", "preamble"}


def test_rate_file_errors_and_missing_labels(tmp_path: Path) -> None:
    good = tmp_path / "rates.json"
    good.write_text(json.dumps({"overall": 0.1, "labels": {"preamble": 0.05}}))
    rates = baseline_from_file(good).rates
    assert rates.get("preamble") == 0.05 and rates.get("truncated") == 0.0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"overall": 3, "labels": {}}))
    with pytest.raises(LeaklineError, match="between 0 and 1"):
        baseline_from_file(bad)
    with pytest.raises(LeaklineError) as info:
        parse_version_spec("engine.version")
    assert "FIELD=VALUE" in (info.value.hint or "")
    with pytest.raises(LeaklineError) as unknown:
        parse_version_spec("engine.colour=red")
    assert "engine.version" in (unknown.value.hint or "")


# ------------------------------------------------------------------ against engine-sim


def test_one_case_passes_on_good_and_fails_on_stop(sim_url: str, tmp_path: Path) -> None:
    """The fast path of the whole gate: 8 variants of one case, two runs."""
    api, request = HAND_CASES[0]
    cases = write_cases(tmp_path / "one", [make_case(api, request, [], "hand-0")])
    rates = tmp_path / "zero.json"
    rates.write_text(json.dumps({"overall": 0.0, "labels": {}}))
    data = tmp_path / "data"
    status, good = gate(sim_url, cases, data, "sim-good", "1", "--baseline-rates", str(rates))
    assert status == 0 and good is not None and good["requests"] == 8 and good["passed"]
    status, bad = gate(sim_url, cases, data, "sim-stop", "2", "--baseline-rates", str(rates))
    assert status == 1 and bad is not None
    # two of the eight variants (stream + stop, with and without json) leak: 25% > 0% + 2%
    assert bad["candidate_rates"]["overall"] == 0.25
    assert set(bad["regressed_labels"]) == {
        "overall",
        "boundary_token",
        "reasoning_leak",
        "structured_invalid",  # the leaked reasoning tail sits in front of the JSON
    }
    assert [r for r in bad["leaking"] if not (r["stream"] and r["stop"])] == []


@pytest.mark.slow
def test_good_passes_and_leaky_fails_against_a_rate_file(
    sim_url: str, case_dir: Path, tmp_path: Path
) -> None:
    data, rates = tmp_path / "data", tmp_path / "good-rates.json"
    status, first = gate(sim_url, case_dir, data, "sim-good", "1.0", "--write-rates", str(rates))
    assert status == 0 and first is not None
    written = json.loads(rates.read_text())
    assert written["format"] == "leakline.rates/1" and written["total"] == 64
    assert written["overall"] == 0.0 and set(written["labels"]) == set(ALL_LABELS)

    status, good = gate(sim_url, case_dir, data, "sim-good", "1.1", "--baseline-rates", str(rates))
    assert status == 0 and good is not None and good["passed"] is True
    assert good["regressed_labels"] == [] and good["errors"] == 0 and good["requests"] == 64

    status, leaky = gate(
        sim_url, case_dir, data, "sim-leaky", "2.0", "--baseline-rates", str(rates)
    )
    assert status == 1 and leaky is not None and leaky["passed"] is False
    assert {
        "overall",
        "preamble",
        "tool_call_as_text",
        "structured_invalid",
        "boundary_token",
        "reasoning_leak",
    } <= set(leaky["regressed_labels"])
    assert "truncated" not in leaky["regressed_labels"]
    rows = {(r["stream"], r["stop"], r["structured"], r["tools"]): r for r in leaky["matrix"]}
    assert len(rows) == 16
    # the stop leak shows only in the stream x stop rows of the matrix
    for (stream, stop, _, _), row in rows.items():
        assert (row["labels"]["boundary_token"] > 0) == (stream and stop)

    # with a tolerance of 100% nothing can regress
    status, lenient = gate(
        sim_url,
        case_dir,
        data,
        "sim-leaky",
        "2.1",
        "--baseline-rates",
        str(rates),
        "--tolerance",
        "1",
    )
    assert status == 0 and lenient is not None and lenient["passed"]


@pytest.mark.slow
def test_baseline_from_a_stored_version(sim_url: str, case_dir: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    status, _ = gate(
        sim_url, case_dir, data, "sim-good", "0.31.0", "--write-rates", str(tmp_path / "r.json")
    )
    assert status == 0
    status, report = gate(
        sim_url, case_dir, data, "sim-stop", "0.32.0", "--baseline-version", "engine.version=0.31.0"
    )
    assert status == 1 and report is not None
    assert report["baseline"]["source"] == "store" and report["baseline"]["total"] == 64
    assert set(report["regressed_labels"]) >= {"boundary_token", "reasoning_leak"}
    assert "tool_call_as_text" not in report["regressed_labels"]

    # both versions sit side by side in the store, as gate replies: out of production rates
    def rates(*extra: str) -> list[dict[str, Any]]:
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "leakline.pipeline.cli",
                "rates",
                "--data-dir",
                str(data),
                "--by",
                "engine.version",
                "--format",
                "json",
                *extra,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return json.loads(out.stdout)

    assert rates() == []
    rows = {r["engine.version"]: r for r in rates("--include-gate")}
    assert rows["0.31.0"]["leaking"] == 0 and rows["0.31.0"]["total"] == 64
    assert rows["0.32.0"]["boundary_token"] > 0

    # the same version as baseline and candidate is misuse
    assert (
        gate(
            sim_url,
            case_dir,
            data,
            "sim-good",
            "0.31.0",
            "--baseline-version",
            "engine.version=0.31.0",
        )[0]
        == 2
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "profile", "regressed"),
    [
        ("--responses", "sim-wrong-parser", "final_in_reasoning"),
        ("--messages", "sim-preamble", "preamble"),
    ],
)
def test_responses_and_messages_modes(
    sim_url: str, case_dir: Path, tmp_path: Path, mode: str, profile: str, regressed: str
) -> None:
    data, rates = tmp_path / "data", tmp_path / "rates.json"
    status, good = gate(sim_url, case_dir, data, "sim-good", "a", mode, "--write-rates", str(rates))
    assert status == 0 and good is not None and good["candidate_rates"]["overall"] == 0.0
    assert good["api"] == mode.removeprefix("--")
    status, bad = gate(sim_url, case_dir, data, profile, "b", mode, "--baseline-rates", str(rates))
    assert status == 1 and bad is not None and regressed in bad["regressed_labels"]


# ------------------------------------------------------------------ misuse


def test_missing_case_directory_is_misuse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = cli_main(
        [
            "gate",
            "--regression",
            str(tmp_path / "nope"),
            "--endpoint",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--engine-name",
            "e",
            "--engine-version",
            "1",
            "--baseline-rates",
            str(tmp_path / "r.json"),
            "--data-dir",
            str(tmp_path / "d"),
        ]
    )
    assert status == 2
    err = capsys.readouterr().err
    assert "no regression case directory" in err and "hint:" in err and "export --regression" in err


def test_missing_baseline_is_misuse(
    case_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = cli_main(
        [
            "gate",
            "--regression",
            str(case_dir),
            "--endpoint",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--engine-name",
            "e",
            "--engine-version",
            "1",
            "--data-dir",
            str(tmp_path / "d"),
        ]
    )
    assert status == 2 and "--baseline-version" in capsys.readouterr().err


def test_unreachable_endpoint_exits_2_with_a_hint(
    case_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rates = tmp_path / "r.json"
    rates.write_text(json.dumps({"overall": 0.0, "labels": {}}))
    status = cli_main(
        [
            "gate",
            "--regression",
            str(case_dir),
            "--endpoint",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--engine-name",
            "e",
            "--engine-version",
            "1",
            "--baseline-rates",
            str(rates),
            "--data-dir",
            str(tmp_path / "d"),
        ]
    )
    assert status == 2
    err = capsys.readouterr().err
    assert "cannot reach http://127.0.0.1:9/v1" in err
    assert "hint:" in err and "engine-sim" in err and "Traceback" not in err
    assert not (tmp_path / "d" / "samples").exists()  # nothing stored


def test_wrong_endpoint_path_is_misuse(
    sim_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api, request = HAND_CASES[0]
    cases = write_cases(tmp_path / "one", [make_case(api, request, [], "hand-0")])
    rates = tmp_path / "r.json"
    rates.write_text(json.dumps({"overall": 0.0, "labels": {}}))
    status, report = gate(
        sim_url.removesuffix("/v1"),
        cases,
        tmp_path / "d",
        "sim-good",
        "1",
        "--baseline-rates",
        str(rates),
    )
    assert status == 2 and report is None
    err = capsys.readouterr().err
    assert "all 8 requests" in err and "404" in err and "/v1" in err
