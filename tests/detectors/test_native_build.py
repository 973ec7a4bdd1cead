"""The mypyc-compiled build (detectors/native.py) behaves exactly like the Python source.

The slow test builds the compiled copy (cached under build/native while the sources are
unchanged), then runs the detector, corpus and regression suites and the tests of the
compiled pipeline modules (normalising, the contract, redaction, privacy, rows and their
digests, hostile input) against it in a subprocess, and compares verdicts on a simulated
mix between the two builds.
"""

from __future__ import annotations

import importlib
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
from leakline.pipeline.events.contract import validate_event
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.simulate.traffic_model import simulate
print(json.dumps({"compiled": native.compiled()}))
for sim in simulate(int(sys.argv[1]), seed=5):
    verdict = run_detectors(normalise(validate_event(sim.event)))
    print(json.dumps(verdict.to_dict(), sort_keys=True, default=str))
"""


# the pipeline tests of what the build compiles (pipeline/core: normalise, redact,
# request_config, rows), and of what crosses to and from the batch children
_PIPELINE_TESTS = (
    "pipeline/test_row_equivalence.py",
    "pipeline/test_normalise.py",
    "pipeline/test_contract.py",
    "pipeline/test_request_config.py",
    "pipeline/test_redact.py",
    "pipeline/test_redaction_recall.py",
    "pipeline/test_privacy.py",
    "pipeline/test_rows.py",
    "pipeline/test_reasoning_slots_column.py",
    "pipeline/test_tags_store.py",
    "pipeline/test_dead_letters.py",
    "pipeline/test_offload.py",
    "export/test_event_json.py",
    "reliability/test_hostile_input.py",
    "reliability/test_planted_secrets.py",
)


def test_the_build_under_test_is_the_one_expected():
    expected = os.environ.get(_EXPECT)
    if expected is None:
        pytest.skip("set by test_compiled_detectors_pass_the_suites")
    files = {name: importlib.import_module(name).__file__ or "" for name in native.module_names()}
    assert len(files) == len(native.MODULES)
    if expected == "1":
        assert [name for name, file in files.items() if not file.endswith(".so")] == []
    else:
        assert [name for name, file in files.items() if not file.endswith(".py")] == []
    assert native.compiled() == native.compiled("leakline.pipeline") == (expected == "1")
    # pickled to and from the batch children: compiled frozen dataclasses cannot be unpickled
    for name in ("leakline.pipeline.events.process", "leakline.pipeline.events.origin"):
        assert (importlib.import_module(name).__file__ or "").endswith(".py"), name


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

    suite = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
        "--rootdir", str(REPO), "-c", str(REPO / "pyproject.toml"),
        "-o", f"pythonpath={REPO / 'tests'}",
    ]  # fmt: skip
    # every detector, corpus and regression test, against the compiled modules
    tests = [REPO / "tests" / folder for folder in ("detectors", "corpus", "regression")]
    _run([*suite, *map(str, tests)], compiled_path, tmp_path, **{_EXPECT: "1"})
    # the compiled pipeline modules' tests (and this file's check of the build), in a run
    # of their own: test modules import helpers from their folder's conftest, and one run
    # sees one module named conftest
    tests = [Path(__file__), *(REPO / "tests" / path for path in _PIPELINE_TESTS)]
    _run([*suite, *map(str, tests)], compiled_path, tmp_path, **{_EXPECT: "1"})

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
