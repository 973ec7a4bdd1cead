"""The worker's side of the Iceberg samples table: write files now, commit them later.

A worker writes each batch's rows as data files at once (``write``), and commits all the
files written since its last commit in one fenced step (``commit``), with the offset
range of every source partition they cover (``offsets.commit_fenced``). Both are
blocking calls into pyiceberg and the catalog: the worker runs them in a thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.compute as pc

from leakline.pipeline.store.catalog import open_catalog
from leakline.pipeline.store.offsets import (
    CommitResult,
    TopicPartition,
    commit_fenced,
    committed_offsets,
    write_data_files,
)
from leakline.pipeline.store.tables import SAMPLES, samples_table

if TYPE_CHECKING:
    from pyiceberg.manifest import DataFile
    from pyiceberg.table import Table

# partition -> [first, next) offsets of that partition kept from a batch
Kept = Mapping[int, tuple[int, int]]


def keep_rows(rows: pa.Table, kept: Kept) -> pa.Table:
    """The rows whose source (partition, offset) falls in ``kept``; others were refused
    (a stale or out-of-order run, see ``pipeline/worker/table_writer.py``)."""
    if rows.num_rows == 0 or not kept:
        return rows.slice(0, 0)
    part, offset = rows["src_partition"], rows["src_offset"]
    mask = None
    for partition, (first, nxt) in kept.items():
        one = pc.and_(
            pc.equal(part, partition),
            pc.and_(pc.greater_equal(offset, first), pc.less(offset, nxt)),
        )
        mask = one if mask is None else pc.or_(mask, one)
    return rows.filter(mask)


class TableSink:
    """The samples table of one data directory's catalog, opened once per worker.
    ``write`` and ``commit`` may run at once in two threads, each one at a time."""

    def __init__(self, data_dir: Path, catalog: str | None = None) -> None:
        self.catalog = open_catalog(data_dir, catalog)
        # one table object per thread of use: pyiceberg's table metadata is not safe to
        # read in one thread (a write) while another copies it (a commit)
        self.table: Table = samples_table(self.catalog)
        self.writing: Table = self.catalog.load_table(SAMPLES)

    def write(self, rows: pa.Table) -> list[DataFile]:
        """Data files for ``rows``, written but not yet part of the table."""
        return write_data_files(self.writing, rows)

    def commit(
        self, files: list[DataFile], ranges: Mapping[TopicPartition, tuple[int, int]]
    ) -> CommitResult:
        """One fenced commit of ``files`` with the offset ``ranges`` they cover."""
        return commit_fenced(self.table, files, ranges)

    def offsets(self) -> dict[TopicPartition, int]:
        """Where each source partition resumes, as the table's current snapshot says.
        A table object of its own: a commit may be refreshing ``self.table`` meanwhile."""
        return committed_offsets(self.catalog.load_table(SAMPLES))
