"""What a worker writing the Iceberg table has written but not yet committed.

The worker writes each batch's rows as data files at once and commits every commit
interval (``--commit-interval``): one fenced commit (``pipeline/store/offsets.py``) of
all the files written since, with each source partition's offset range. This module
keeps that state, and decides which records of a batch may join it:

- A partition's records join only where they continue exactly what is already held:
  offset ``expected[p]``, the table's offset for ``p`` when the consumer was last
  positioned, moved on by every batch kept since. Records from before a seek (still in
  the pipeline when it happened), or of a partition no longer assigned, are refused:
  not stored and never acknowledged. A run that starts *after* ``expected`` in a batch
  fetched since the last seek means records went missing: the worker seeks again.
- Merged ranges therefore never hide a hole, and the fence only has to compare a
  range's first offset with the table's.

Acknowledgements (``ack``) are opaque here: the worker's Faust messages, acked in the
order their batches were taken once the commit that holds them has landed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

A = TypeVar("A")  # what acknowledges a record (a Faust message)

# source partition -> [first, next) offsets
Ranges = dict[int, tuple[int, int]]


@dataclass
class Admission(Generic[A]):
    """The part of a batch that may join the pending commit."""

    kept: Ranges = field(default_factory=dict)
    acks: list[A] = field(default_factory=list)
    refused: int = 0
    reseek: bool = False  # records went missing: position the consumer again


@dataclass
class Pending(Generic[A]):
    """Files written and ranges covered since the last commit, and what to ack after it."""

    files: list[Any] = field(default_factory=list)
    ranges: Ranges = field(default_factory=dict)
    acks: list[A] = field(default_factory=list)

    def add(self, kept: Ranges, files: Iterable[Any], acks: Iterable[A]) -> None:
        for partition, (first, nxt) in kept.items():
            held = self.ranges.get(partition)
            if held is not None and held[1] != first:  # would store a range twice or skip one
                raise ValueError(f"partition {partition}: {first} does not follow {held}")
            self.ranges[partition] = (held[0] if held else first, nxt)
        self.files.extend(files)
        self.acks.extend(acks)

    def __bool__(self) -> bool:
        return bool(self.ranges)


class TableWriter(Generic[A]):
    """The pending commit of one worker, and where each assigned partition continues."""

    def __init__(self, topic: str) -> None:
        self.topic = topic
        # assigned partition -> next offset accepted (None: the table never saw it)
        self.expected: dict[int, int | None] = {}
        self.epoch = 0  # bumped at every seek: batches fetched before it are refused
        self.pending: Pending[A] = Pending()
        self.committing: Pending[A] | None = None  # taken by a commit in progress
        # where dropped ranges began, for partitions the table has no offset of yet
        self.dropped_from: dict[int, int] = {}

    # -- positioning -------------------------------------------------------------------

    def position(self, partitions: Iterable[int], table: Mapping[int, int]) -> dict[int, int]:
        """The consumer is being positioned on ``partitions``: returns where each one
        should resume (the table's offset, or the end of what we hold uncommitted when
        that continues the table), and refuses everything fetched before."""
        self.epoch += 1
        resume: dict[int, int] = {}
        expected: dict[int, int | None] = {}
        for partition in partitions:
            at = table.get(partition, self.dropped_from.get(partition))
            end = self._continuation(partition, at)
            expected[partition] = end
            if end is not None:
                resume[partition] = end
        self.expected = expected
        self.dropped_from = {}
        return resume

    def _continuation(self, partition: int, at: int | None) -> int | None:
        """Where ``partition`` continues from table offset ``at`` through what we hold."""
        end = at
        for held in (self.committing, self.pending):
            if held is None or partition not in held.ranges:
                continue
            first, nxt = held.ranges[partition]
            if end is None or first == end:
                end = nxt  # continues the table (or the table never saw the partition)
            elif held is self.committing and nxt == end:
                continue  # our commit in progress has landed already
            else:
                return at  # stale: the fence drops it; resume from the table
        return end

    def revoke(self, partitions: Iterable[int]) -> None:
        for partition in partitions:
            self.expected.pop(partition, None)

    # -- batches -----------------------------------------------------------------------

    def admit(self, records: Iterable[tuple[int, int, A]], epoch: int) -> Admission[A]:
        """Which of a batch's ``(partition, offset, ack)`` records may be stored.
        ``epoch``: ``self.epoch`` when the batch left the consumer."""
        by_partition: dict[int, list[tuple[int, A]]] = {}
        for partition, offset, ack in records:
            by_partition.setdefault(partition, []).append((offset, ack))
        admission: Admission[A] = Admission()
        for partition, run in by_partition.items():
            if partition not in self.expected:  # not ours (any more)
                admission.refused += len(run)
                continue
            want = self.expected[partition]
            fresh = run if want is None else [r for r in run if r[0] >= want]
            admission.refused += len(run) - len(fresh)
            if not fresh:
                continue  # all fetched again after a seek back: already held
            first = min(offset for offset, _ in fresh)
            if want is not None and first != want:
                admission.refused += len(fresh)
                # fetched since the last seek and still not where we are: a hole
                admission.reseek = admission.reseek or epoch == self.epoch
                continue
            nxt = max(offset for offset, _ in fresh) + 1
            self.expected[partition] = nxt
            admission.kept[partition] = (first, nxt)
            admission.acks.extend(ack for _, ack in fresh)
        return admission

    def hold(self, admission: Admission[A], files: Iterable[Any]) -> None:
        self.pending.add(admission.kept, files, admission.acks)

    # -- commits -----------------------------------------------------------------------

    def take(self) -> Pending[A] | None:
        """What the next commit covers (None: nothing to commit)."""
        if not self.pending:
            return None
        self.committing, self.pending = self.pending, Pending()
        return self.committing

    def landed(self) -> None:
        self.committing = None

    def fenced(self) -> Pending[A]:
        """Another owner stored a range of the commit: it is dropped, and so is all that
        came after it. Returns what came after (its files are for deletion)."""
        for held in (self.committing, self.pending):
            for partition, (first, _nxt) in (held.ranges if held else {}).items():
                self.dropped_from.setdefault(partition, first)
        later, self.pending, self.committing = self.pending, Pending(), None
        self.expected = {}  # nothing is admitted until the consumer is positioned again
        return later

    def table_ranges(self, held: Pending[A]) -> dict[tuple[str, int], tuple[int, int]]:
        return {(self.topic, p): r for p, r in held.ranges.items()}
