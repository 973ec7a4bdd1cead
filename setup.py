"""Build hook: ``LEAKLINE_COMPILE=1`` compiles the detectors with mypyc (detectors/native.py).

Everything else about the package is in pyproject.toml. Without the variable, or for an
editable install (a stale extension module would shadow edits), the build is pure Python.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import Any

from setuptools import setup


def _compiled() -> dict[str, Any]:
    if os.environ.get("LEAKLINE_COMPILE") != "1":
        return {}
    if any(arg.startswith("editable") or arg == "develop" for arg in sys.argv):
        print("LEAKLINE_COMPILE ignored for an editable install", file=sys.stderr)
        return {}
    try:
        from mypyc.build import mypycify
    except ImportError:  # first pass: ask the build front-end for the compiler
        return {"setup_requires": ["mypy==2.4.1"]}
    modules = runpy.run_path("detectors/native.py")["MODULES"]
    return {"ext_modules": mypycify(["--config-file", "detectors/mypy-native.ini", *modules])}


setup(**_compiled())
