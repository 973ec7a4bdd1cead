"""Fixtures for the integration tests: a real engine-sim process per test module."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

# LiteLLM must never reach the network here (cost map, tokenizers)
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")


@dataclass
class EngineSim:
    proc: subprocess.Popen[bytes]
    base_url: str  # http://127.0.0.1:PORT/v1


def start_engine_sim(log: Path, profile: str = "good", timeout_s: float = 60.0) -> EngineSim:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.gate.engine.sim",
            "--port",
            "0",
            "--profile",
            profile,
        ],
        stdout=subprocess.PIPE,
        stderr=log.open("ab"),
        start_new_session=True,
    )
    deadline = time.monotonic() + timeout_s
    assert proc.stdout is not None
    line = b""
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line or proc.poll() is not None:
            break
    match = re.search(rb"(http://127\.0\.0\.1:\d+/v1)", line)
    if not match:
        proc.kill()
        raise AssertionError(f"engine-sim did not start: {line!r} {log.read_text()[-2000:]}")
    return EngineSim(proc, match.group(1).decode())


@pytest.fixture
def engine_sim(tmp_path: Path) -> Iterator[EngineSim]:
    sim = start_engine_sim(tmp_path / "engine-sim.log")
    try:
        yield sim
    finally:
        sim.proc.terminate()
        try:
            sim.proc.wait(10)
        except subprocess.TimeoutExpired:
            sim.proc.kill()
            sim.proc.wait()
