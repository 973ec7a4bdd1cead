#!/usr/bin/env python3
"""Set-up and tasks in one place (the project's Makefile equivalent).

    python3 dev.py demo      # create .venv, install leakline + the embedded broker, run `leakline demo`
    python3 dev.py test      # create .venv, install leakline[dev], Debian's chromium and promtool,
                             # .venv-iceberg-reader (DuckDB's iceberg extension), lint,
                             # build the docs (mkdocs --strict), run every test
    python3 dev.py lint      # ruff + mypy only
    python3 dev.py docs      # build the docs site into build/site (mkdocs --strict)
    python3 dev.py lock      # write requirements.lock: the exact versions installed in .venv

Only Python 3.11 and pip are needed; everything else comes from the package registry.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("LEAKLINE_VENV", ROOT / ".venv"))
BIN = VENV / "bin"
# the exact tested versions; pyproject.toml holds the ranges
LOCK = ROOT / "requirements.lock"


def sh(*cmd: str | Path) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT)


def ensure_venv(extra: str) -> None:
    if sys.version_info[:2] != (3, 11):
        sys.exit(f"leakline needs Python 3.11; this is {sys.version.split()[0]}")
    if not (BIN / "python").exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / f".installed-{extra}"
    inputs = [ROOT / "pyproject.toml", ROOT / "setup.py", ROOT / "client" / "pyproject.toml", LOCK]
    newest = max(p.stat().st_mtime for p in inputs if p.exists())
    if not stamp.exists() or stamp.stat().st_mtime < newest:
        locked = ["-c", LOCK] if LOCK.exists() else []
        sh(
            BIN / "python",
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            *locked,
            # leakline-client (client/): the producer library and leakline/__init__.py
            "-e",
            "./client",
            "-e",
            f".[{extra}]",
        )
        stamp.touch()


# another Iceberg reader for tests/store/test_other_engine.py: DuckDB's iceberg extension,
# which ships for duckdb 1.5.5 only (leakline itself uses a newer DuckDB), in its own venv
ICEBERG_READER = Path(os.environ.get("LEAKLINE_ICEBERG_READER_VENV", ROOT / ".venv-iceberg-reader"))
ICEBERG_READER_PINS = (
    "duckdb==1.5.5",
    "duckdb-extension-avro==1.5.5",
    "duckdb-extension-iceberg==1.5.5",
)


def ensure_iceberg_reader() -> None:
    """The side venv with the pinned reader, installed at set-up (never at test time)."""
    python = ICEBERG_READER / "bin" / "python"
    stamp = ICEBERG_READER / ".installed"
    if stamp.exists() and stamp.read_text() == "\n".join(ICEBERG_READER_PINS):
        return
    if not python.exists():
        venv.EnvBuilder(with_pip=True).create(ICEBERG_READER)
    sh(
        python,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        *ICEBERG_READER_PINS,
    )
    stamp.write_text("\n".join(ICEBERG_READER_PINS))


def lock() -> None:
    """Write requirements.lock from the dev environment (run after the tests pass)."""
    frozen = subprocess.run(
        [
            BIN / "python",
            "-m",
            "pip",
            "freeze",
            "--exclude-editable",
            "--disable-pip-version-check",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    pins = sorted((line for line in frozen.splitlines() if "==" in line), key=str.lower)
    header = (
        "# The exact versions leakline is tested with (Python 3.11, x86_64): written by\n"
        "# `python3 dev.py lock` from the dev environment; dev.py, CI and the Docker image\n"
        "# install with `pip install -c requirements.lock`. Ranges are in pyproject.toml.\n"
    )
    LOCK.write_text(header + "\n".join(pins) + "\n")
    print(f"wrote {len(pins)} pins to {LOCK.name}")


def ensure_debian(binary: str, package: str, why: str, override: str | None = None) -> None:
    """Install Debian's ``package`` when ``binary`` is missing (as root), else say how."""
    if shutil.which(binary) or (override and os.environ.get(override)):
        return
    apt = shutil.which("apt-get")
    if not apt or os.geteuid() != 0:
        alt = f", or set {override} to a {binary} binary" if override else ""
        sys.exit(f"{why} need Debian's {package}: run `sudo apt-get install -y {package}`{alt}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = [apt, "install", "-y", "-q", "--no-install-recommends", package]
    print("+", " ".join(install), flush=True)
    if subprocess.run(install, env=env, stdout=subprocess.DEVNULL).returncode != 0:
        subprocess.run([apt, "update", "-q"], env=env, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(install, env=env, check=True, stdout=subprocess.DEVNULL)


def ensure_test_tools() -> None:
    # Playwright drives Debian's chromium and never downloads a browser
    ensure_debian("chromium", "chromium", "the browser tests", override="LEAKLINE_CHROMIUM")
    # promtool (in Debian's prometheus) unit-tests deploy/prometheus/alerts.yml
    ensure_debian("promtool", "prometheus", "the alert-rule tests")


CODE = (
    "client",
    "pipeline",
    "detectors",
    "models",
    "tests",
    "benchmarks",
    "docs/hooks.py",
    "dev.py",
    "setup.py",
)
PACKAGES = ("pipeline", "detectors", "models")


def typecheck_view() -> Path:
    """build/typecheck/leakline: the installed namespace as links to the repository folders.

    mypy names modules after their path, and cannot follow the editable install's
    package_dir mapping, so it checks this view (edits show through the links)."""
    view = ROOT / "build" / "typecheck" / "leakline"
    view.mkdir(parents=True, exist_ok=True)
    links = [
        ("__init__.py", "client/leakline/__init__.py"),
        ("client", "client/leakline/client"),
        *((p, p) for p in PACKAGES),
    ]
    for name, target in links:
        link, want = view / name, Path("../../..") / target
        if link.is_symlink() and Path(os.readlink(link)) != want:
            link.unlink()  # a view from an older layout
        if not link.is_symlink():
            link.symlink_to(want)
    return view


def lint() -> None:
    sh(BIN / "ruff", "check", *CODE)
    sh(BIN / "ruff", "format", "--check", *CODE)
    sh(BIN / "mypy", typecheck_view().relative_to(ROOT))


def docs() -> None:
    """The docs site (mkdocs.yml): --strict, so a broken link or a missing page fails."""
    sh(BIN / "mkdocs", "build", "--strict", "--quiet")


def main(argv: list[str]) -> int:
    task = argv[0] if argv else "help"
    rest = argv[1:]
    if task == "demo":
        ensure_venv("broker")
        sh(BIN / "leakline", "demo", *rest)
    elif task == "test":
        ensure_venv("dev")
        ensure_test_tools()
        ensure_iceberg_reader()
        lint()
        docs()
        # the slowest tests are listed at the end, to keep an eye on the CI time
        sh(BIN / "python", "-m", "pytest", *(rest or ["-q", "--durations=15"]))
    elif task == "lint":
        ensure_venv("dev")
        lint()
    elif task == "docs":
        ensure_venv("dev")
        docs()
        print(f"docs: {ROOT / 'build' / 'site' / 'index.html'}")
    elif task == "lock":
        ensure_venv("dev")
        lock()
    else:
        print(__doc__)
        return 0 if task in ("help", "-h", "--help") else 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode)
