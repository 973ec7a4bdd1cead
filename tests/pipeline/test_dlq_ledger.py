"""The DLQ ledger: which sources a worker must not dead-letter again.

The Kafka half (reading the DLQ tail) runs in tests/reliability; this is the memory half.
"""

from __future__ import annotations

from leakline.pipeline.events.process import source_key
from leakline.pipeline.worker.dlq import Ledger


def test_a_new_ledger_is_stale_and_empty() -> None:
    ledger = Ledger()
    assert ledger.stale
    assert len(ledger) == 0
    assert source_key("gateway.events", 0, 1) not in ledger


def test_load_replaces_the_contents_and_clears_stale() -> None:
    ledger = Ledger()
    ledger.add(["gateway.events/0/1"])
    ledger.load(["gateway.events/0/7", "gateway.events/1/3"])
    assert not ledger.stale
    assert "gateway.events/0/7" in ledger
    assert "gateway.events/1/3" in ledger
    assert "gateway.events/0/1" not in ledger


def test_what_was_published_after_a_load_is_remembered() -> None:
    # the rebalance race: a batch taken before the rebalance is published after the
    # reload, then its records come back in a redelivered batch
    ledger = Ledger()
    ledger.load([])
    published = [source_key("gateway.events", 2, offset) for offset in (10, 11)]
    ledger.add(published)
    assert all(source in ledger for source in published)
    assert not ledger.stale


def test_the_ledger_is_capped_and_forgets_the_oldest_first() -> None:
    ledger = Ledger(limit=3)
    ledger.load(["a", "b"])
    ledger.add(["c", "d"])
    assert len(ledger) == 3
    assert "a" not in ledger
    assert all(source in ledger for source in ("b", "c", "d"))
    ledger.add(["b", "e"])  # seen again: b becomes the newest
    assert len(ledger) == 3
    assert "c" not in ledger
    assert all(source in ledger for source in ("d", "b", "e"))


def test_a_load_larger_than_the_cap_keeps_the_newest() -> None:
    ledger = Ledger(limit=2)
    ledger.load(["old", "middle", "new"])
    assert len(ledger) == 2
    assert "old" not in ledger
