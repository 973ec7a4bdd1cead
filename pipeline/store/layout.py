"""The dataset's layout on disk: where samples live and how their files are named.

Pure paths and names (no pyarrow), so commands that only look at the store's files start
fast. Each day directory holds ``part-*.parquet`` files from the workers (the fresh tail,
duplicates possible) and ``compact-*.parquet`` files from ``compact`` (older parts merged
once, unique by event_id); the zero-row placeholder ``_empty.parquet`` matches every glob.
"""

from __future__ import annotations

from pathlib import Path

SAMPLES_DIR = "samples"
PARTITION_KEY = "day"
# a zero-row file so DuckDB views resolve before the first real flush
PLACEHOLDER_DAY = "1970-01-01"
PLACEHOLDER_NAME = "_empty.parquet"
PART_PREFIX = "part-"
COMPACT_PREFIX = "compact-"
# file-name globs inside a day directory; each also matches the placeholder ("_")
ALL_GLOB = "*.parquet"
PARTS_GLOB = "[p_]*.parquet"  # part-*.parquet: fresh, duplicates possible
COMPACT_GLOB = "[c_]*.parquet"  # compact-*.parquet: deduped by leakline.pipeline.store.compact


def samples_root(data_dir: Path) -> Path:
    """The hive-partitioned samples dataset under a data directory."""
    return data_dir / SAMPLES_DIR


REVIEWS_DIR = "reviews"


def reviews_root(data_dir: Path) -> Path:
    """The review-decision parts (``leakline.pipeline.store.reviews``) under a data dir."""
    return data_dir / REVIEWS_DIR
