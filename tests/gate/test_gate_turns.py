"""``leakline gate`` against engine-sim's ``runaway`` and ``stalled`` profiles fails on the
new turn-level labels, and ``diagnose --include-gate`` names each label's cause; ``good``
stays clean (issue 34)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_gate import gate


def _diagnose(data: Path, version: str) -> dict[str, Any]:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.cli",
            "diagnose",
            "--data-dir",
            str(data),
            "--format",
            "json",
            "--include-gate",
            "--where",
            f"engine.version={version}",
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    (only,) = json.loads(out.stdout)
    return only


@pytest.mark.slow
def test_runaway_and_stalled_fail_the_gate_and_diagnose_names_the_cause(
    sim_url: str, case_dir: Path, tmp_path: Path
) -> None:
    data, rates = tmp_path / "data", tmp_path / "good.json"
    status, first = gate(sim_url, case_dir, data, "sim-good", "1.0", "--write-rates", str(rates))
    assert status == 0 and first is not None
    good = _diagnose(data, "1.0")
    assert good["leaking"] == 0 and good["most_likely"] is None

    expected = {
        "runaway": ("runaway_turn", "runaway_stop_eos", "template"),
        "stalled": ("stalled_turn", "stalled_tool_parser", "parser"),
    }
    for n, (profile, (label, rule, layer)) in enumerate(expected.items()):
        version = f"2.{n}"
        status, report = gate(
            sim_url, case_dir, data, f"sim-{profile}", version, "--baseline-rates", str(rates)
        )
        assert status == 1 and report is not None and report["passed"] is False, profile
        assert label in report["regressed_labels"], report["regressed_labels"]
        found = _diagnose(data, version)
        assert found["steps"]["collect"]["labels"].get(label, 0) > 0
        top = found["most_likely"]
        assert top is not None and (top["rule"], top["layer"]) == (rule, layer), top
        assert top["reason"] and top["fix"]
