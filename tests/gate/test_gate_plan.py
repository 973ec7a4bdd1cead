"""What ``leakline gate`` says before it sends anything (issue 32, defect 2): a missing SDK
is reported first, with an install hint that works where leakline is installed, and the plan
states its request count, its expected time and, when large, a ``--max-cases`` to use."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from gate_kit import HAND_CASES, make_case, write_cases
from test_gate import gate

import leakline.pipeline
from leakline.pipeline.core.errors import install_hint
from leakline.pipeline.gate.run import (
    LARGE_PLAN,
    GateConfig,
    duration_text,
    estimate_text,
    plan_text,
)

CHECKOUT = Path(leakline.pipeline.__file__).resolve().parents[1]
# runs the real CLI with the openai SDK absent: a None entry makes `import openai` raise
# ImportError, as it does where the gate extra was never installed
WITHOUT_OPENAI = (
    "import sys; sys.modules['openai'] = None; "
    "from leakline.pipeline.cli import main; sys.exit(main(sys.argv[1:]))"
)


def _extra_target(hint: str) -> tuple[Path, str, bool]:
    """(directory, extra, editable) of the ``pip install`` hint."""
    words = shlex.split(hint)
    assert words[words.index("install") - 1] == "pip"
    target = words[-1]
    source, _, extra = target.partition("[")
    return Path(source), extra.rstrip("]"), "-e" in words


def test_the_hint_installs_the_extra_into_this_editable_checkout() -> None:
    """This venv holds leakline as an editable checkout (the README's install): the hint must
    name that checkout, whose pyproject declares the extra, not the registry's leakline."""
    for extra in ("gate", "broker"):
        source, named, editable = _extra_target(install_hint(extra))
        assert editable and named == extra
        assert source.resolve() == CHECKOUT
        project = tomllib.loads((source / "pyproject.toml").read_text())["project"]
        assert project["name"] == "leakline" and extra in project["optional-dependencies"]


def test_missing_sdk_is_reported_first_with_the_checkout_hint(tmp_path: Path) -> None:
    api, request = HAND_CASES[0]
    cases = write_cases(tmp_path / "one", [make_case(api, request, [], "hand-0")])
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            WITHOUT_OPENAI,
            "gate",
            "--regression",
            str(cases),
            "--endpoint",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--engine-name",
            "e",
            "--engine-version",
            "1",
            "--write-rates",
            str(tmp_path / "r.json"),
            "--data-dir",
            str(tmp_path / "d"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2, out.stderr
    assert "openai SDK is not installed" in out.stderr and "Traceback" not in out.stderr
    assert "gate plan" not in out.stderr  # refused before planning or reading the store
    hint = next(line for line in out.stderr.splitlines() if "hint:" in line)
    source, extra, editable = _extra_target(hint.split("hint:", 1)[1])
    assert editable and extra == "gate" and source.resolve() == CHECKOUT


def test_a_large_plan_suggests_max_cases_and_a_small_one_does_not() -> None:
    config = GateConfig(
        regression=Path("r"),
        endpoint="http://127.0.0.1:8000/v1",
        model="m",
        api="chat.completions",
        data_dir=Path("d"),
        tags=None,  # type: ignore[arg-type]  # plan_text reads no tags
        tolerance=0.02,
        api_key="k",
        concurrency=4,
        timeout_s=120.0,
    )
    large = plan_text(config, 2945, 2945, 32936)  # the export of the issue
    assert "32,936 requests" in large and "--max-cases 178 " in large
    small = plan_text(config, 40, 40, LARGE_PLAN)
    assert f"{LARGE_PLAN:,} requests" in small and "--max-cases" not in small


def test_the_estimate_scales_the_first_request_by_concurrency() -> None:
    # 1 probe + ceil(32,935 / 4) = 8,234 waves of 1.8 s = 14,823 s
    text = estimate_text(32936, 4, 1.8)
    assert "about 4 h 07 min for 32,936 requests" in text and "first took 1.8 s" in text
    assert "about 6 s " in estimate_text(8, 4, 2.0)  # the probe + ceil(7 / 4) = 3 waves of 2 s
    assert duration_text(0.01) == "1 s" and duration_text(600) == "10 min"


def test_a_real_run_prints_plan_then_estimate_before_the_replies(
    sim_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api, request = HAND_CASES[0]
    cases = write_cases(tmp_path / "one", [make_case(api, request, [], "hand-0")])
    rates = tmp_path / "zero.json"
    rates.write_text(json.dumps({"overall": 0.0, "labels": {}}))
    status, report = gate(
        sim_url, cases, tmp_path / "data", "sim-good", "1", "--baseline-rates", str(rates)
    )
    assert status == 0 and report is not None and report["requests"] == 8
    err = capsys.readouterr().err
    plan = err.index("= 8 requests to")
    estimate = err.index("gate estimate: about ")
    assert plan < estimate and "for 8 requests (the first took" in err[estimate:]
