"""Fixtures for the notebook tests: a generated store, and a notebook runner."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import nbformat
import pytest
from nb_store import NOTEBOOKS, Executed, UpgradeStore, build_upgrade_store
from nbclient import NotebookClient


@pytest.fixture(scope="session")
def upgrade_store(tmp_path_factory: pytest.TempPathFactory) -> UpgradeStore:
    return build_upgrade_store(tmp_path_factory.mktemp("nb-store") / "data")


@pytest.fixture
def run_notebook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., Executed]]:
    """Execute a notebook from notebooks/ in a fresh python3 kernel with the given env."""

    def run(name: str, **env: str) -> Executed:
        figures = tmp_path / "figures"
        monkeypatch.setenv("LEAKLINE_FIGURES_DIR", str(figures))
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        # the kernel inherits this process's environment and runs in tmp_path
        client = NotebookClient(
            nb,
            timeout=600,
            kernel_name="python3",
            resources={"metadata": {"path": str(tmp_path)}},
        )
        client.execute()
        return Executed(nb, figures)

    yield run
