"""Parquet sink: one file per (day, source partition) per flushed batch.

File names come from the source partition and offset range, so two workers can
never clash, and a batch that is re-processed after a crash rewrites the same
name atomically instead of adding a second copy. Rows that still end up twice
(a batch re-cut differently after a restart) are removed by event_id in the
DuckDB views.

Each day directory holds ``part-*.parquet`` files from the workers (the fresh tail,
duplicates possible) and ``compact-*.parquet`` files from ``leakline.pipeline.store.compact`` (older
parts merged once, unique by event_id). The zero-row placeholder ``_empty.parquet``
matches every glob below, so no view ever sees an empty glob.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from leakline.pipeline.events.rows import SAMPLE_SCHEMA
from leakline.pipeline.store.layout import (
    PART_PREFIX,
    PARTITION_KEY,
    PLACEHOLDER_DAY,
    PLACEHOLDER_NAME,
    samples_root,
)


def ensure_placeholder(data_dir: Path) -> None:
    target = samples_root(data_dir) / f"{PARTITION_KEY}={PLACEHOLDER_DAY}" / PLACEHOLDER_NAME
    # rewritten when SAMPLE_SCHEMA gained columns, so views over older parts still see them
    if not target.exists() or pq.read_schema(target).names != SAMPLE_SCHEMA.names:
        atomic_write(SAMPLE_SCHEMA.empty_table(), target)


# Fresh parts live until compaction rewrites them with zstd (store/compact.py). zstd sets
# up a compressor for every column chunk, 64 of them in each part file: parts written
# with it cost the worker ~1.6x the CPU of lz4 ones, which are ~25 % larger
# (benchmarks/sink_bench.py; issue 19).
PART_COMPRESSION = "lz4"


def atomic_write(table: pa.Table, target: Path, compression: str = "zstd") -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    pq.write_table(table, tmp, compression=compression)
    os.replace(tmp, target)


class ParquetSink:
    """Writes Arrow tables of SAMPLE_SCHEMA into a hive-partitioned dataset."""

    def __init__(self, data_dir: Path) -> None:
        self.root = samples_root(data_dir)
        ensure_placeholder(data_dir)

    def write(self, table: pa.Table) -> list[Path]:
        """Write one batch; returns the files written. Raises OSError on failure."""
        if table.num_rows == 0:
            return []
        days = pc.strftime(table["ts"], format="%Y-%m-%d")
        written = []
        unique_days = pc.unique(days).to_pylist()
        for day in unique_days:
            # most batches hold one day: then the table is used as it is, not copied
            by_day = table if len(unique_days) == 1 else table.filter(pc.equal(days, day))
            partitions = pc.unique(by_day["src_partition"]).to_pylist()
            for partition in partitions:
                part = (
                    by_day
                    if len(partitions) == 1
                    else by_day.filter(pc.equal(by_day["src_partition"], partition))
                )
                offsets = pc.min_max(part["src_offset"])
                name = (
                    f"{PART_PREFIX}{part['src_topic'][0].as_py()}-p{partition:04d}"
                    f"-o{offsets['min'].as_py():012d}-{offsets['max'].as_py():012d}.parquet"
                )
                target = self.root / f"{PARTITION_KEY}={day}" / name
                atomic_write(part, target, PART_COMPRESSION)
                written.append(target)
        return written
