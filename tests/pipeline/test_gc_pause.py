"""The collector policies of the worker (main process) and its batch children."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from leakline.pipeline.core.gc_pause import BatchCollector, paused_gc, settle_long_running


@pytest.fixture
def restored_gc() -> Iterator[None]:
    threshold, enabled = gc.get_threshold(), gc.isenabled()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
        (gc.enable if enabled else gc.disable)()


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_paused_gc_restores_the_previous_state(restored_gc: None) -> None:
    gc.enable()
    with paused_gc():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    with paused_gc():
        pass
    assert not gc.isenabled()  # it was off before: left off


def test_settle_long_running_freezes_and_raises_only_the_young_threshold(restored_gc: None) -> None:
    gc.set_threshold(700, 10, 10)
    settle_long_running(12_345)
    assert gc.get_threshold() == (12_345, 10, 10)
    assert gc.get_freeze_count() > 0


def test_batch_collector_runs_only_between_batches(restored_gc: None) -> None:
    collector = BatchCollector(full_every=3)
    collector.start()
    assert not gc.isenabled()
    cycle = _cycle()
    junk = [[i] for i in range(50_000)]  # far past any threshold: no automatic collection
    del junk
    assert cycle() is not None
    assert collector.between_batches() >= 2  # the two nodes
    assert cycle() is None


def test_batch_collector_collects_everything_every_full_every_batches(restored_gc: None) -> None:
    generations: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    collector = BatchCollector(full_every=3)
    collector.start()
    gc.callbacks.append(record)
    try:
        for _ in range(6):
            collector.between_batches()
    finally:
        gc.callbacks.remove(record)
    assert generations == [1, 1, 2, 1, 1, 2]
