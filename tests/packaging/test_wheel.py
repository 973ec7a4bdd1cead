"""The two wheels install one namespace, ``leakline``, and nothing else at the top level.

Builds both wheels from this checkout (``conftest.wheels``), installs them (without
dependencies) into a fresh venv, and compares the venv's top-level names before and after.
The client wheel owns ``leakline/__init__.py``; the two never ship the same file.
"""

from __future__ import annotations

import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import Wheels, run

pytestmark = pytest.mark.slow


def _site_packages(env: Path) -> Path:
    purelib = sysconfig.get_path("purelib", vars={"base": str(env), "platbase": str(env)})
    return Path(purelib)


def test_the_wheels_install_only_the_leakline_namespace(wheels: Wheels, tmp_path: Path) -> None:
    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    site = _site_packages(env)
    before = {p.name for p in site.iterdir()}
    run(env / "bin" / "python", "-m", "pip", "install", "--no-deps", "--quiet",
        "--disable-pip-version-check", wheels.client, wheels.main)  # fmt: skip
    added = {p.name for p in site.iterdir()} - before
    assert {name for name in added if not name.endswith(".dist-info")} == {"leakline"}

    # the repository folders are subpackages of the namespace, with their data files
    root = site / "leakline"
    assert (root / "__init__.py").is_file()
    for sub in ("client", "pipeline", "detectors", "models"):
        assert (root / sub / "__init__.py").is_file(), sub
    # the schema is installed once, by the client, as a file (not a link into the checkout)
    schema = root / "client" / "schemas" / "gateway_event.v1.json"
    assert schema.is_file() and not schema.is_symlink()
    assert not (root / "pipeline" / "schemas").exists()
    assert (root / "pipeline" / "live" / "web" / "static" / "index.html").is_file()
    assert list((root / "models" / "artifacts").rglob("*.json"))

    # the pure detectors and the contract import from the installed copy, outside the repository
    code = (
        "import leakline, leakline.detectors as d;"
        "from leakline.client.contract import event_schema;"
        "print(leakline.__version__, d.__file__, event_schema()['title'])"
    )
    out = run(env / "bin" / "python", "-c", code, cwd=tmp_path)
    assert str(site) in out and "gateway event v1" in out


def _files(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {n for n in archive.namelist() if ".dist-info/" not in n}


def test_the_wheels_hold_no_stray_top_level_names(wheels: Wheels) -> None:
    for wheel in (wheels.client, wheels.main):
        assert {name.split("/")[0] for name in _files(wheel)} == {"leakline"}, wheel.name


def test_the_wheels_share_no_file(wheels: Wheels) -> None:
    client, main = _files(wheels.client), _files(wheels.main)
    assert not client & main
    assert "leakline/__init__.py" in client
    assert all(n.startswith("leakline/client/") for n in client - {"leakline/__init__.py"})


def test_the_main_wheel_requires_the_client_at_its_own_version(wheels: Wheels) -> None:
    with zipfile.ZipFile(wheels.main) as archive:
        (meta,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        text = archive.read(meta).decode()
    version = wheels.main.name.split("-")[1]
    assert f"Requires-Dist: leakline-client=={version}" in text
