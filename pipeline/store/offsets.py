"""Exactly-once from Kafka: a table commit carries the source offsets that it covers.

Each commit of ours adds data files *and* records, in the snapshot summary, the next
offset of every source partition the table has stored (``leakline.kafka-offsets``: JSON
``{topic: {partition: next_offset}}``, every partition carried forward). One atomic
catalog step, so the table itself says where each partition resumes, whatever Kafka's
committed offsets say.

The fence: a batch covering ``[first, next)`` of a partition commits only if the table's
next offset for that partition is ``first`` (or the table has never seen the partition).
Otherwise another owner already stored those events (a rebalance, a stale worker that
kept running) and the batch is dropped whole. The check and the swap are one
compare-and-swap: the commit asserts that the table's head is the snapshot the check
read, and a conflict means refresh, check again, retry. Data files are written once,
before the loop; a dropped batch's files are deleted, and files of a commit that never
landed (a crash between write and commit) are for the orphan sweep.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pyarrow as pa

from leakline.pipeline.core.errors import LeaklineError

if TYPE_CHECKING:
    from pyiceberg.manifest import DataFile
    from pyiceberg.table import Table

log = logging.getLogger(__name__)

OFFSETS_PROPERTY = "leakline.kafka-offsets"
MAX_ATTEMPTS = 50  # commit conflicts before giving up (each one re-reads the metadata)

TopicPartition = tuple[str, int]
# partition -> (first offset of the batch, next offset after it)
Ranges = Mapping[TopicPartition, tuple[int, int]]


def encode_offsets(offsets: Mapping[TopicPartition, int]) -> str:
    nested: dict[str, dict[str, int]] = {}
    for (topic, partition), offset in sorted(offsets.items()):
        nested.setdefault(topic, {})[str(partition)] = offset
    return json.dumps(nested, separators=(",", ":"), sort_keys=True)


def decode_offsets(text: str) -> dict[TopicPartition, int]:
    nested = json.loads(text)
    return {
        (topic, int(partition)): int(offset)
        for topic, partitions in nested.items()
        for partition, offset in partitions.items()
    }


def committed_offsets(table: Table) -> dict[TopicPartition, int]:
    """The next offset of every source partition stored in ``table``'s current snapshot.

    A snapshot that carries none (a commit by another engine, or an expiry that forgot)
    defers to its parent: the newest ancestor that carries them speaks for the table."""
    from pyiceberg.table.snapshots import ancestors_of

    metadata = table.metadata
    for snapshot in ancestors_of(table.current_snapshot(), metadata):
        summary = snapshot.summary
        text = summary.get(OFFSETS_PROPERTY) if summary is not None else None
        if text:
            return decode_offsets(text)
    return {}


def write_data_files(table: Table, rows: pa.Table) -> list[DataFile]:
    """Parquet files for ``rows`` in the table's warehouse, not yet part of the table."""
    from pyiceberg.io.pyarrow import _check_pyarrow_schema_compatible, _dataframe_to_data_files

    if rows.num_rows == 0:
        return []
    metadata = table.metadata
    _check_pyarrow_schema_compatible(
        metadata.schema(), provided_schema=rows.schema, format_version=metadata.format_version
    )
    files = _dataframe_to_data_files(
        table_metadata=metadata, write_uuid=uuid.uuid4(), df=rows, io=table.io
    )
    return list(files)


@dataclass(frozen=True)
class CommitResult:
    committed: bool
    snapshot_id: int | None = None
    attempts: int = 0
    # partitions whose table offset did not match the batch's first (dropped batch)
    stale: dict[TopicPartition, tuple[int, int]] = field(default_factory=dict)


def commit_fenced(
    table: Table,
    data_files: Iterable[DataFile],
    ranges: Ranges,
    properties: Mapping[str, str] | None = None,
) -> CommitResult:
    """Append ``data_files`` and advance the offsets of ``ranges``, if the fence holds.

    ``ranges`` may cover partitions whose events made no row (all dead letters): the
    commit then only moves their offsets, so the next batch still meets the fence."""
    from pyiceberg.exceptions import CommitFailedException

    files = list(data_files)
    if not ranges:
        raise ValueError("a commit must cover at least one source partition")
    for attempt in range(1, MAX_ATTEMPTS + 1):
        table.refresh()
        current = committed_offsets(table)
        stale = {
            tp: (current[tp], first)
            for tp, (first, _next) in ranges.items()
            if tp in current and current[tp] != first
        }
        if stale:
            _discard(table, files)
            log.warning(
                "dropped a batch another owner already stored: %s",
                ", ".join(
                    f"{t}[{p}] table at {have}, batch from {f}"
                    for (t, p), (have, f) in stale.items()
                ),
            )
            return CommitResult(committed=False, attempts=attempt, stale=stale)
        merged = dict(current)
        merged.update({tp: nxt for tp, (_first, nxt) in ranges.items()})
        summary = {**(properties or {}), OFFSETS_PROPERTY: encode_offsets(merged)}
        tx = table.transaction()
        # the producer asserts that the branch head is still the snapshot read above:
        # that assertion is the compare-and-swap of the fence
        with tx.update_snapshot(snapshot_properties=summary).fast_append() as append:
            for data_file in files:
                append.append_data_file(data_file)
        try:
            committed = tx.commit_transaction()
        except CommitFailedException:
            continue  # somebody else committed in between: check the fence again
        snapshot = committed.current_snapshot()
        return CommitResult(
            committed=True,
            snapshot_id=snapshot.snapshot_id if snapshot is not None else None,
            attempts=attempt,
        )
    raise LeaklineError(
        f"the table {'.'.join(table.name())} kept changing under {MAX_ATTEMPTS} commit attempts",
        hint="too many writers commit to one table: use the commit coordinator, or a "
        "longer commit interval",
    )


def _discard(table: Table, files: list[DataFile]) -> None:
    for data_file in files:
        try:
            table.io.delete(data_file.file_path)
        except OSError as exc:  # left for the orphan sweep
            log.warning("could not delete %s: %s", data_file.file_path, exc)
