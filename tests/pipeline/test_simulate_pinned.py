"""Pinned digests of the simulator's output, so a refactor cannot silently change the traffic.

Every test, benchmark, notebook and the demo read the same seeded traffic, and many of
their expectations (label counts, benchmark baselines) depend on it byte for byte. The
digests below were computed before the simulator was split into modules (issue 15).

If a change to the traffic is intended, say so in the commit message and replace the
digest with the one the failure reports.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

import pytest

from leakline.pipeline.simulate.traffic_model import (
    MALFORMED_KINDS,
    PRODUCTION_MIX,
    Mix,
    encode_event,
    malformed_cases,
    simulate,
    simulate_payloads,
)


def _events(count: int, seed: int, mix: Mix) -> Iterable[bytes]:
    for sim in simulate(count, seed=seed, mix=mix):
        yield encode_event(sim.event) + b"\t" + ",".join(sim.expected_labels).encode()


def _payloads(count: int, seed: int, mix: Mix) -> Iterable[bytes]:
    for p in simulate_payloads(count, seed=seed, mix=mix):
        yield repr((p.key, p.value, p.expected_labels)).encode()


def _malformed(count: int, seed: int) -> Iterable[bytes]:
    for kind, raw in malformed_cases(count, seed=seed):
        yield kind.encode() + b"\t" + raw.hex().encode()


# 2,000 events at half leaks and half streams cover every scenario, API and deployment.
RUNS: dict[str, tuple[Callable[[], Iterable[bytes]], str]] = {
    "every_scenario": (
        lambda: _events(2000, 7, Mix(leak_ratio=0.5, stream_ratio=0.5)),
        "95ad47b418dbfb2413045bf971af820d2acefb759195a8bbac7da17d936a5c27",
    ),
    "production_mix": (
        lambda: _events(500, 7, PRODUCTION_MIX),
        "314416bac6779a86b651f4885879bad7225308832aba1a94a2186e25bc8f8b15",
    ),
    "payloads_with_malformed": (
        lambda: _payloads(500, 7, Mix(malformed_ratio=0.1)),
        "7e5ce114816a41b223f7e344488ae119dac53e17a7236c8bf24a4c5d8284be88",
    ),
    "malformed_cases": (
        lambda: _malformed(3 * len(MALFORMED_KINDS), 1),
        "e874ec2e58aa344ecf4c49c7c4e0c1c7ae48645ca8a5ad3789e1e374761f6fda",
    ),
}


def _digest(lines: Iterable[bytes]) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line + b"\n")
    return h.hexdigest()


@pytest.mark.parametrize("name", sorted(RUNS))
def test_fixed_seed_traffic_is_unchanged(name: str) -> None:
    produce, pinned = RUNS[name]
    assert _digest(produce()) == pinned, f"the simulated traffic changed ({name})"
