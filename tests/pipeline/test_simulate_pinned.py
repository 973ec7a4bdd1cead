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
        "2303e747f79cb0748ffea5afd6b4eabb3bfe00bab7ca1db6a9e03f5ddbe7b123",
    ),
    "production_mix": (
        lambda: _events(500, 7, PRODUCTION_MIX),
        "4e9f1bc160759135a62e8a1eb5d2e66be7a3ea5ca63ab08211383a9009c618af",
    ),
    "payloads_with_malformed": (
        lambda: _payloads(500, 7, Mix(malformed_ratio=0.1)),
        "cfdb8e26e2352bd86dcc8467801ad67f163518b3b5c1bec6da0d705cfe4636fe",
    ),
    "malformed_cases": (
        lambda: _malformed(3 * len(MALFORMED_KINDS), 1),
        "7cc8a5ba631e793b4d07a30f4e73e7c034d8d73aa0762ae84aff45ea5c70e62b",
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
