"""leakline.pipeline.core.failpoints: crash points (name@N) and pause points (name~SECONDS)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from leakline.pipeline.core import failpoints

REPO = Path(__file__).resolve().parents[2]


def test_delay_is_zero_unless_its_point_is_armed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(failpoints.ENV, raising=False)
    assert failpoints.delay("before_finish") == 0.0
    monkeypatch.setenv(failpoints.ENV, "before_finish~0.25")
    assert failpoints.delay("before_finish") == 0.25
    assert failpoints.delay("after_write") == 0.0
    monkeypatch.setenv(failpoints.ENV, "after_write@2")  # a crash point is no pause
    assert failpoints.delay("after_write") == 0.0


def _run_hits(spec: str, name: str, times: int) -> int:
    code = f"from leakline.pipeline.core import failpoints\nfor _ in range({times}): failpoints.hit({name!r})\n"
    env = {failpoints.ENV: spec, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO).returncode


def test_a_crash_point_exits_on_its_nth_hit_and_a_pause_point_never_does() -> None:
    assert _run_hits("after_write@3", "after_write", 2) == 0
    assert _run_hits("after_write@3", "after_write", 3) == 99
    assert _run_hits("after_write", "after_write", 1) == 99  # no count: the first hit
    assert _run_hits("after_write~0.1", "after_write", 5) == 0
