"""The wheel installs one namespace, ``leakline``, and nothing else at the top level.

Builds the wheel from this checkout, installs it (without dependencies) into a fresh
venv, and compares the venv's top-level names before and after.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _run(*cmd: str | Path, cwd: Path | None = None) -> str:
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=cwd)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # built from a copy: pip builds in the source tree, and a checkout's build/ may hold
    # leftovers of another build (a compiled one) that would slip into the wheel
    src = tmp_path_factory.mktemp("src") / "leakline"
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", "leakline-*"))  # fmt: skip
    out = tmp_path_factory.mktemp("wheel")
    # no build isolation: the build uses this environment's setuptools, nothing is fetched
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--quiet", "-w", out, src)  # fmt: skip
    (built,) = out.glob("leakline-*.whl")
    return built


def _site_packages(env: Path) -> Path:
    purelib = sysconfig.get_path("purelib", vars={"base": str(env), "platbase": str(env)})
    return Path(purelib)


def test_the_wheel_installs_only_the_leakline_namespace(wheel, tmp_path):
    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    site = _site_packages(env)
    before = {p.name for p in site.iterdir()}
    _run(env / "bin" / "python", "-m", "pip", "install", "--no-deps", "--quiet",
         "--disable-pip-version-check", wheel)  # fmt: skip
    added = {p.name for p in site.iterdir()} - before
    assert {name for name in added if not name.endswith(".dist-info")} == {"leakline"}

    # the repository folders are subpackages of the namespace, with their data files
    root = site / "leakline"
    for sub in ("pipeline", "detectors", "models"):
        assert (root / sub / "__init__.py").is_file(), sub
    assert (root / "pipeline" / "schemas" / "gateway_event.v1.json").is_file()
    assert (root / "pipeline" / "live" / "web" / "static" / "index.html").is_file()
    assert list((root / "models" / "artifacts").rglob("*.json"))

    # the pure detectors import from the installed copy, outside the repository
    out = _run(env / "bin" / "python", "-c",
               "import leakline, leakline.detectors as d; print(leakline.__version__, d.__file__)",
               cwd=tmp_path)  # fmt: skip
    assert str(site) in out


def test_the_wheel_holds_no_stray_top_level_names(wheel):
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"leakline"}
