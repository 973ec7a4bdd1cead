#!/usr/bin/env python3
"""Set-up and tasks in one place (the project's Makefile equivalent).

    python3 dev.py demo      # create .venv, install leakline + the embedded broker, run `leakline demo`
    python3 dev.py test      # create .venv, install leakline[dev] and Debian's chromium, lint,
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
    inputs = [ROOT / "pyproject.toml", ROOT / "setup.py", LOCK]
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
            "-e",
            f".[{extra}]",
        )
        stamp.touch()


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


def ensure_chromium() -> None:
    """The dashboard test drives Debian's chromium (Playwright never downloads a browser)."""
    if shutil.which("chromium") or os.environ.get("LEAKLINE_CHROMIUM"):
        return
    apt = shutil.which("apt-get")
    if not apt or os.geteuid() != 0:
        sys.exit(
            "the browser tests need Debian's chromium: run `sudo apt-get install -y chromium`, "
            "or set LEAKLINE_CHROMIUM to a Chromium binary"
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = [apt, "install", "-y", "-q", "--no-install-recommends", "chromium"]
    print("+", " ".join(install), flush=True)
    if subprocess.run(install, env=env, stdout=subprocess.DEVNULL).returncode != 0:
        subprocess.run([apt, "update", "-q"], env=env, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(install, env=env, check=True, stdout=subprocess.DEVNULL)


CODE = (
    "leakline",
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
    for name, target in [("__init__.py", "leakline/__init__.py"), *((p, p) for p in PACKAGES)]:
        link = view / name
        if not link.is_symlink():
            link.symlink_to(Path("../../..") / target)
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
        ensure_chromium()
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
