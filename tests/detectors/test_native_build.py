"""The mypyc-compiled detectors (detectors/native.py) behave exactly like the Python source.

The slow test builds the compiled copy (cached under build/native while the sources are
unchanged), then runs the detector, corpus and regression suites against it in a
subprocess, and compares verdicts on a simulated mix between the two builds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from leakline.detectors import native

REPO = Path(__file__).resolve().parents[2]
_EXPECT = "LEAKLINE_EXPECT_NATIVE"

# Prints one JSON line per simulated event: its verdict, whichever build is imported.
_VERDICTS = """
import json, sys
from leakline.detectors import native, run_detectors
from leakline.pipeline.core.contract import validate_event
from leakline.pipeline.core.normalise import normalise
from leakline.pipeline.simulate.traffic_model import simulate
print(json.dumps({"compiled": native.compiled()}))
for sim in simulate(int(sys.argv[1]), seed=5):
    verdict = run_detectors(normalise(validate_event(sim.event)))
    print(json.dumps(verdict.to_dict(), sort_keys=True, default=str))
"""


def test_the_build_under_test_is_the_one_expected():
    expected = os.environ.get(_EXPECT)
    if expected is None:
        pytest.skip("set by test_compiled_detectors_pass_the_suites")
    assert native.compiled() == (expected == "1")


def _run(args: list[str], pythonpath: list[Path], tmp: Path, **env: str) -> str:
    proc = subprocess.run(
        args,
        # outside the repository: the working directory would come first on sys.path
        cwd=tmp,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(map(str, pythonpath)), **env},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get(_EXPECT) is not None, reason="already inside the check")
def test_compiled_detectors_pass_the_suites_and_match_the_source(tmp_path):
    built = native.build(REPO / "build" / "native")
    compiled_path = [built]

    # every detector, corpus and regression test, against the compiled modules
    _run(
        [
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
            "--rootdir", str(REPO), "-c", str(REPO / "pyproject.toml"),
            "-o", f"pythonpath={REPO / 'tests'}",
            str(REPO / "tests" / "detectors"),
            str(REPO / "tests" / "corpus"),
            str(REPO / "tests" / "regression"),
        ],
        compiled_path,
        tmp_path,
        **{_EXPECT: "1"},
    )  # fmt: skip

    # the same verdicts, field for field, on a simulated mix of every deployment
    script = tmp_path / "verdicts.py"
    script.write_text(_VERDICTS)
    fast = _run([sys.executable, str(script), "3000"], compiled_path, tmp_path).splitlines()
    source = _run([sys.executable, str(script), "3000"], [REPO], tmp_path).splitlines()
    assert json.loads(fast[0]) == {"compiled": True}
    assert json.loads(source[0]) == {"compiled": False}
    assert len(fast) == len(source) == 3001
    leaking = sum(1 for line in source[1:] if json.loads(line)["labels"])
    assert leaking > 300  # the comparison covers findings, not just clean verdicts
    for ours, theirs in zip(fast[1:], source[1:], strict=True):
        assert ours == theirs
