"""Both wheels built from this checkout once per session: ``leakline-client`` and ``leakline``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run(*cmd: str | Path, cwd: Path | None = None, timeout: float = 600) -> str:
    proc = subprocess.run(
        [str(c) for c in cmd], capture_output=True, text=True, cwd=cwd, timeout=timeout
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


@dataclass(frozen=True)
class Wheels:
    client: Path
    main: Path


@pytest.fixture(scope="session")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Wheels:
    # built from a copy: pip builds in the source tree, and a checkout's build/ may hold
    # leftovers of another build (a compiled one) that would slip into the wheel. The copy
    # follows symlinks, so the client's schema link becomes the file it points at.
    src = tmp_path_factory.mktemp("src") / "leakline"
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", "leakline-*",
        "test-artifacts"))  # fmt: skip
    out = tmp_path_factory.mktemp("wheels")
    # no build isolation: the builds use this environment's setuptools, nothing is fetched
    for project in (src / "client", src):
        run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
            "--quiet", "-w", out, project)  # fmt: skip
    (client,) = out.glob("leakline_client-*.whl")
    (main,) = out.glob("leakline-*.whl")
    return Wheels(client=client, main=main)
