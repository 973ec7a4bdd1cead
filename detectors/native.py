"""The optional mypyc build: which modules compile, building them, and whether this
process runs them.

The detectors and the per-event core of the pipeline (normalising, redaction, building
rows) are plain, type-checked Python. mypyc compiles the same source into C extension
modules: the detectors run about 1.5x faster, and ``process_batch`` costs about 0.7x
of the Python source's (``benchmarks/detectors_bench.py``, ``benchmarks/batch_bench.py``). The Python source
stays the reference: every build gives the same verdicts and rows
(``tests/detectors/test_native_build.py``), and an install without a C compiler simply
runs the Python.

Two ways to get the compiled build:

- a wheel or install with ``LEAKLINE_COMPILE=1`` (``setup.py`` compiles ``MODULES``);
- ``build(root)``: a copy of ``leakline.detectors`` and ``leakline.pipeline`` in a cache
  folder, ``MODULES`` compiled and every other file as it is, to put first on
  ``PYTHONPATH`` (what the benchmarks and the equivalence test use). Both subpackages are
  regular packages, so each is staged whole: the installed one would otherwise shadow the
  copy, or half of it would be missing. The rest of ``leakline`` (``client``, ``models``)
  still comes from the installed package.

Editable installs are never compiled: a stale extension module would shadow edits.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
# the folder that holds detectors/ and pipeline/: the repository, or the installed leakline/
SOURCE_ROOT = PACKAGE_DIR.parent
# the subpackages staged whole (see the module docstring)
STAGED = ("detectors", "pipeline")
_IGNORED = ("__pycache__", "*.so", "*.pyc")
MYPY_CONFIG = str(PACKAGE_DIR / "mypy-native.ini")
# Paths relative to the folder that holds the staged ``leakline/`` (see ``stage``). Left out: package __init__
# files, interface.py (a Protocol and KeyError subclasses), classifier.py
# (numpy does the work there) and this module. From the pipeline only the per-event
# core that gains from it (docs/design/compiled-build.md): process.py stays Python (its
# frozen slotted dataclasses cross to and from the batch children by pickle, which
# compiled frozen classes refuse), and so does Origin (pipeline/events/origin.py), which
# crosses with them;
# contract.py and memo.py would gain nothing measurable (orjson and leakline.client do
# the decoding; memo.remember runs on misses only).
MODULES: tuple[str, ...] = (
    "leakline/detectors/base.py",
    "leakline/detectors/call_frames.py",
    "leakline/detectors/common.py",
    "leakline/detectors/diagnosis.py",
    "leakline/detectors/exchange.py",
    "leakline/detectors/families.py",
    "leakline/detectors/finding.py",
    "leakline/detectors/generic.py",
    "leakline/detectors/labels.py",
    "leakline/detectors/remediation.py",
    "leakline/detectors/roles.py",
    "leakline/detectors/schema.py",
    "leakline/detectors/streaming.py",
    "leakline/detectors/structured_fields.py",
    "leakline/detectors/text.py",
    "leakline/detectors/tool_markup.py",
    "leakline/detectors/heuristics/cues.py",
    "leakline/detectors/heuristics/preamble_cues.py",
    "leakline/detectors/heuristics/self_talk_cues.py",
    "leakline/detectors/heuristics/speech_level.py",
    "leakline/detectors/heuristics/notes_block.py",
    "leakline/detectors/heuristics/plan_block.py",
    "leakline/detectors/heuristics/structured_reasoning.py",
    "leakline/detectors/heuristics/stalled_turn.py",
    "leakline/detectors/rules/api_contract.py",
    "leakline/detectors/rules/boundary_tokens.py",
    "leakline/detectors/rules/empty_response.py",
    "leakline/detectors/rules/finish_reason.py",
    "leakline/detectors/rules/generic_tokens.py",
    "leakline/detectors/rules/generic_tool_calls.py",
    "leakline/detectors/rules/reasoning_history.py",
    "leakline/detectors/rules/reasoning_slots.py",
    "leakline/detectors/rules/role_header.py",
    "leakline/detectors/rules/runaway_turn.py",
    "leakline/detectors/rules/structured_output.py",
    "leakline/detectors/rules/tool_args.py",
    "leakline/detectors/rules/tool_call_text.py",
    "leakline/pipeline/events/normalise.py",
    "leakline/pipeline/events/redact.py",
    "leakline/pipeline/events/request_config.py",
    "leakline/pipeline/events/rows.py",
)


def module_names(package: str = "leakline") -> list[str]:
    """The dotted names of the ``MODULES`` in ``package``."""
    names = [path.removesuffix(".py").replace("/", ".") for path in MODULES]
    return [name for name in names if name.startswith(package + ".")]


def _is_compiled(name: str) -> bool:
    return not (importlib.import_module(name).__file__ or "").endswith(".py")


def compiled(package: str = "leakline.detectors") -> bool:
    """True when this process imported the mypyc-compiled build of ``package``
    (``leakline.detectors`` or ``leakline.pipeline``; one build compiles both)."""
    return _is_compiled(module_names(package)[0])


def compiled_modules() -> dict[str, bool]:
    """Every module of ``MODULES`` and whether this process runs it compiled (imports them)."""
    return {name: _is_compiled(name) for name in module_names()}


def _staged_files(folder: Path) -> list[Path]:
    """The files of ``folder`` that ``stage`` copies (``_IGNORED`` left out)."""
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.relative_to(folder).parts
        and path.suffix not in (".so", ".pyc")
    )


def source_digest() -> str:
    """A digest of every staged file, the build's mypy settings and the compiler's version."""
    import mypy.version

    digest = hashlib.sha256(mypy.version.__version__.encode())
    digest.update(Path(MYPY_CONFIG).read_bytes())
    digest.update("\n".join(MODULES).encode())
    for folder in STAGED:
        root = SOURCE_ROOT / folder
        for path in _staged_files(root):
            digest.update(str(path.relative_to(SOURCE_ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


_EXTEND_PATH = "\nfrom pkgutil import extend_path\n\n__path__ = extend_path(__path__, __name__)\n"


def stage(dest: Path) -> Path:
    """Copy the sources to ``dest/leakline/detectors`` and ``dest/leakline/pipeline``
    (plus the namespace's ``__init__``).

    mypyc names a module after its path, so it must see ``leakline/detectors/x.py``."""
    namespace = dest / "leakline"
    for folder in STAGED:
        shutil.rmtree(namespace / folder, ignore_errors=True)
        shutil.copytree(
            SOURCE_ROOT / folder, namespace / folder, ignore=shutil.ignore_patterns(*_IGNORED)
        )
    # a source checkout: the namespace's __init__ lives in the leakline-client tree (client/),
    # formerly at the top; installed, the detectors' parent folder is leakline/ itself
    candidates = (
        SOURCE_ROOT / "client" / "leakline" / "__init__.py",
        SOURCE_ROOT / "leakline" / "__init__.py",
        SOURCE_ROOT / "__init__.py",
    )
    init = next((path for path in candidates if path.exists()), candidates[-1])
    # the copy also searches the other ``leakline/`` folders on sys.path (leakline-client's
    # ``leakline.client``): only ``leakline.detectors`` and ``leakline.pipeline`` come
    # from this folder
    (namespace / "__init__.py").write_text(
        init.read_text(encoding="utf-8") + _EXTEND_PATH, encoding="utf-8"
    )
    return dest


class NativeBuildError(RuntimeError):
    pass


def build(cache: Path, *, quiet: bool = True) -> Path:
    """A compiled copy of ``detectors/`` and ``pipeline/`` under ``cache``; the folder to
    put on ``sys.path``.

    Reused while the sources and mypy are unchanged (a build takes about a minute on
    two cores). Raises ``NativeBuildError`` with the compiler's output when it fails.
    """
    try:
        root = cache / source_digest()
    except ImportError as exc:
        raise NativeBuildError("mypyc is not installed: pip install 'leakline[dev]'") from exc
    done = root / ".built"
    if done.exists():
        return root
    work = cache / f".building-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    stage(work)
    proc = subprocess.run(
        # mypyc type-checks first, with the project's mypy settings
        [sys.executable, "-m", "mypyc", "--config-file", MYPY_CONFIG, *MODULES],
        cwd=work,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise NativeBuildError(f"mypyc failed:\n{proc.stdout[-4000:]}{proc.stderr[-4000:]}")
    if not quiet:
        print(proc.stdout[-2000:], file=sys.stderr)
    shutil.rmtree(work / "build", ignore_errors=True)
    (work / ".built").touch()
    try:
        work.rename(root)
    except OSError:  # another process finished the same build first
        shutil.rmtree(work, ignore_errors=True)
    return root


def run_compiled(script: Path, argv: list[str], cache: Path) -> int:
    """Run ``script argv`` in a child process that imports the compiled build; its exit code.

    The child finds the compiled ``leakline.detectors`` and ``leakline.pipeline`` first on
    ``PYTHONPATH`` and the rest of ``leakline`` in the installed package; processes it
    starts inherit the same path. It runs in the build folder, so ``python -m`` children (whose path starts with the working directory) import
    the compiled build too: give it absolute paths.
    """
    built = build(cache)
    paths = [str(built), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    return subprocess.run([sys.executable, str(script), *argv], env=env, cwd=built).returncode


def available() -> bool:
    """True when this environment can compile the build (mypyc is installed)."""
    import importlib.util

    return importlib.util.find_spec("mypyc") is not None
