"""The import layers of ``leakline``: data flows one way, and the CLI only assembles.

One table of allowed edges between packages. A module may import its own package and
the packages listed for it; anything else fails here with the offending import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import leakline

REPO = Path(__file__).resolve().parents[2]
FOLDERS = {
    # the leakline-client distribution (client/): what a gateway installs
    "client": REPO / "client" / "leakline" / "client",
    "pipeline": REPO / "pipeline",
    "detectors": REPO / "detectors",
    "models": REPO / "models",
}

# package -> the packages it may import (besides itself). ``models.registry`` is the
# classifier's small loading interface; nothing in ``pipeline`` may use the rest of models.
ALLOWED: dict[str, set[str]] = {
    # installed alone next to a gateway: it may import nothing else of leakline
    "client": set(),
    "detectors": set(),
    "models": {"detectors", "pipeline.core", "pipeline.events"},
    # plumbing at the bottom; then the event path, and what builds on it
    "pipeline.core": {"client"},
    "pipeline.kafka": {"client", "pipeline.core"},
    "pipeline.http": {"pipeline.core"},
    "pipeline.query": {"pipeline.core"},
    "pipeline.events": {"client", "pipeline.core", "detectors"},
    "pipeline.families": {"pipeline.core", "pipeline.events", "detectors"},
    "pipeline.detect": {
        "pipeline.core",
        "pipeline.events",
        "pipeline.families",
        "detectors",
        "models.registry",
    },
    "pipeline.simulate": {"pipeline.core"},
    "pipeline.ingest": {
        "client",
        "pipeline.core",
        "pipeline.events",
        "pipeline.http",
        "pipeline.kafka",
        "pipeline.simulate",
    },
    "pipeline.store": {"pipeline.core", "pipeline.events", "pipeline.query", "detectors"},
    "pipeline.live": {
        "pipeline.core",
        "pipeline.events",
        "pipeline.http",
        "pipeline.kafka",
        "pipeline.query",
        "detectors",
    },
    "pipeline.curation": {
        "pipeline.core",
        "pipeline.events",
        "pipeline.families",
        "pipeline.query",
        "pipeline.store",
        "detectors",
    },
    "pipeline.gate": {
        "client",
        "pipeline.core",
        "pipeline.events",
        "pipeline.families",
        "pipeline.kafka",
        "pipeline.query",
        "pipeline.store",
        "pipeline.ingest",
        "detectors",
    },
    "pipeline.worker": {
        "pipeline.core",
        "pipeline.events",
        "pipeline.families",
        "pipeline.http",
        "pipeline.kafka",
        "pipeline.store",
        "pipeline.live",
        "pipeline.ingest",
        "detectors",
        "models.registry",
    },
    "pipeline.demo": {
        "pipeline.core",
        "pipeline.kafka",
        "pipeline.simulate",
        "pipeline.ingest",
        "pipeline.store",
    },
    # the CLI assembles every command; nothing imports it (see test_nothing_imports_the_cli)
    "pipeline.cli": {
        "pipeline.core",
        "pipeline.events",
        "pipeline.kafka",
        "pipeline.detect",
        "pipeline.families",
        "pipeline.http",
        "pipeline.query",
        "pipeline.simulate",
        "pipeline.ingest",
        "pipeline.store",
        "pipeline.live",
        "pipeline.curation",
        "pipeline.gate",
        "pipeline.worker",
        "pipeline.demo",
        "models.cli",
    },
}


def _package_of(dotted: str) -> str:
    """``leakline.pipeline.store.sink`` -> ``pipeline.store``; ``leakline.detectors.x`` -> ``detectors``."""
    parts = dotted.split(".")[1:]
    if parts[0] == "pipeline" and len(parts) > 1:
        return f"pipeline.{parts[1]}"
    return parts[0]


def _modules() -> list[tuple[str, Path]]:
    found = []
    for folder, root in FOLDERS.items():
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root).with_suffix("").parts
            if rel[-1] == "__init__":
                rel = rel[:-1]
            found.append((".".join(("leakline", folder, *rel)), path))
    return found


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every ``leakline.…`` module a file imports, at any depth (lazy imports count too)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            pytest.fail(f"{path}:{node.lineno}: relative import; use leakline.…")
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("leakline"):
            for alias in node.names:
                out.append((node.lineno, f"{node.module}.{alias.name}"))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("leakline")]
    return out


def _allowed(source: str, target: str) -> bool:
    if target in ("leakline", "leakline.__version__"):
        return True
    rest = target.split(".")
    src_pkg = _package_of(source)
    tgt_pkg = _package_of(target)
    if rest[1] == "pipeline" and len(rest) == 2:
        return False  # `from leakline import pipeline`-style imports hide the edge
    if src_pkg == tgt_pkg:
        return True
    allowed = ALLOWED[src_pkg]
    # models may be allowed as a whole or one module of it (models.registry)
    return tgt_pkg in allowed or ".".join(rest[1:3]) in allowed


MODULES = _modules()


def test_every_package_has_a_row():
    packages = {_package_of(name) for name, _ in MODULES if name.count(".") >= 2}
    missing = packages - set(ALLOWED)
    assert not missing, f"add an ALLOWED row for {sorted(missing)}"


@pytest.mark.parametrize("name,path", MODULES, ids=[m for m, _ in MODULES])
def test_imports_follow_the_layers(name, path):
    bad = [
        f"{path.relative_to(REPO)}:{line}: {name} imports {target}"
        for line, target in _imports(path)
        if not _allowed(name, target)
    ]
    assert not bad, "\n".join(bad)


def test_nothing_imports_the_cli():
    offenders = [
        f"{path.relative_to(REPO)}:{line}"
        for name, path in MODULES
        if name != "leakline.pipeline.cli"
        for line, target in _imports(path)
        if target.startswith("leakline.pipeline.cli")
    ]
    assert not offenders, offenders


def test_subpackages_say_what_they_own_and_may_import():
    for init in sorted((REPO / "pipeline").glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert "Owns:" in doc, f"{init.relative_to(REPO)} has no 'Owns:' line"
        assert "May import:" in doc, f"{init.relative_to(REPO)} has no 'May import:' line"


def test_the_layer_table_catches_an_upward_import():
    # the checker itself can fail: store importing the worker is refused
    assert not _allowed("leakline.pipeline.store.sink", "leakline.pipeline.worker.app.x")
    assert not _allowed("leakline.pipeline.events.rows", "leakline.pipeline.store.sink.x")
    assert not _allowed("leakline.pipeline.core.config", "leakline.pipeline.events.rows.x")
    assert not _allowed("leakline.pipeline.events.rows", "leakline.pipeline.kafka.io.x")
    assert not _allowed("leakline.detectors.text", "leakline.pipeline.core.errors.X")
    assert not _allowed("leakline.pipeline.worker.app", "leakline.models.train.x")
    assert _allowed("leakline.pipeline.worker.app", "leakline.models.registry.ModelWatcher")
    assert leakline.__version__
