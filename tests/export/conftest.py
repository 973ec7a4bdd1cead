"""Fixtures: a shared simulated store, and a private copy for tests that add reviews."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from export_store import SIM_COUNT, SIM_SEED, START, store_events

from leakline.pipeline.simulate.traffic_model import simulate
from leakline.pipeline.store.database import init_store


@pytest.fixture(scope="session")
def sim_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Shared and never written to by tests: copy it (``store_copy``) to add reviews."""
    data_dir = tmp_path_factory.mktemp("sim-store")
    # one event every 50 s: the traffic spans most of a day, so time filters can cut it
    events = (s.event for s in simulate(SIM_COUNT, seed=SIM_SEED, start=START, rate_per_s=0.02))
    return store_events(data_dir, events)


@pytest.fixture
def store_copy(sim_store: Path, tmp_path: Path) -> Path:
    target = tmp_path / "store"
    shutil.copytree(sim_store, target)
    init_store(target)  # the views hold absolute paths: point them at the copy
    return target
