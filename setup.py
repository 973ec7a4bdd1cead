"""Build hooks that pyproject.toml cannot express.

- **The namespace.** The repository keeps ``pipeline/``, ``detectors/`` and ``models/`` at
  the top; they install as ``leakline.pipeline``, ``leakline.detectors`` and
  ``leakline.models`` (``package_dir``). ``leakline/__init__.py`` (the version) and
  ``leakline.client`` come from the ``leakline-client`` distribution in ``client/``, which
  this one depends on. Nothing else is installed at the top level of site-packages
  (``tests/packaging`` checks both wheels).
- **The compiled build.** ``LEAKLINE_COMPILE=1`` compiles ``native.MODULES`` (the
  detectors and the pipeline's per-event core) with mypyc (``detectors/native.py``).
  Without the variable, or for an editable install (a stale
  extension module would shadow edits), the build is pure Python.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import find_packages, setup

NAMESPACE = "leakline"
FOLDERS = ("pipeline", "detectors", "models")


def _editable() -> bool:
    return any(arg.startswith("editable") or arg == "develop" for arg in sys.argv)


def _layout() -> dict[str, Any]:
    packages: list[str] = []
    for folder in FOLDERS:
        packages += [f"{NAMESPACE}.{folder}"]
        packages += [f"{NAMESPACE}.{folder}.{sub}" for sub in find_packages(folder)]
    package_dir = {f"{NAMESPACE}.{f}": f for f in FOLDERS}
    if _editable():
        # An editable install maps `leakline` to client/leakline as well (what
        # `pip install -e ./client` maps it to), else setuptools' finder would take it for
        # a namespace package and hide the client's __init__.py. A wheel never ships it.
        packages.append(NAMESPACE)
        package_dir[NAMESPACE] = f"client/{NAMESPACE}"
    return {"packages": packages, "package_dir": package_dir}


def _compiled() -> dict[str, Any]:
    if os.environ.get("LEAKLINE_COMPILE") != "1":
        return {}
    if _editable():
        print("LEAKLINE_COMPILE ignored for an editable install", file=sys.stderr)
        return {}
    try:
        from mypyc.build import mypycify
    except ImportError:  # first pass: ask the build front-end for the compiler
        return {"setup_requires": ["mypy==2.4.1"]}
    native = runpy.run_path("detectors/native.py")
    # mypyc names modules after their path, so it compiles a staged copy of
    # leakline/detectors and leakline/pipeline
    staged = native["stage"](Path("build") / "mypyc-src")
    modules = [str(staged / m) for m in native["MODULES"]]
    # the shared runtime library of both lands inside the namespace
    # (leakline/detectors__mypyc.*.so), not at the top of site-packages under a hash name
    args = ["--config-file", native["MYPY_CONFIG"], *modules]
    return {"ext_modules": mypycify(args, group_name="leakline.detectors")}


setup(**_layout(), **_compiled())
