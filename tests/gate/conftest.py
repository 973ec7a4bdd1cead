"""Fixtures for the gate and engine-sim tests: one real engine-sim process per session
(profiles are picked per request through the model name ``sim-<profile>``) and a
regression case directory written by the test itself (contract 1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gate_kit import HAND_CASES, make_case, write_cases

from leakline.pipeline.demo import stop_process
from leakline.pipeline.gate.engine.sim import spawn_engine_sim
from leakline.pipeline.simulate.traffic_model import simulate


@pytest.fixture
def case_dir(tmp_path: Path) -> Path:
    """Four hand-written cases and two from ``leakline.pipeline.simulate.traffic_model`` (one with tools)."""
    cases = [make_case(api, req, [], f"hand-{i}") for i, (api, req) in enumerate(HAND_CASES)]
    picked: set[bool] = set()
    for sim in simulate(200, seed=11):
        event = sim.event
        has_tools = bool(event["request"].get("tools"))
        if event["api"] == "chat.completions" and has_tools not in picked:
            picked.add(has_tools)
            cases.append(
                make_case(
                    event["api"], event["request"], list(sim.expected_labels), event["event_id"]
                )
            )
        if len(picked) == 2:
            break
    return write_cases(tmp_path / "regression", cases)


@pytest.fixture(scope="session")
def sim_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One engine-sim process (default profile good) for the whole session."""
    log = tmp_path_factory.mktemp("engine-sim") / "engine-sim.log"
    proc, url = spawn_engine_sim("good", log_path=log)
    try:
        yield url
    finally:
        stop_process(proc)
