"""One snapshot of the Iceberg store, as DuckDB views (issue 30: readers read a snapshot).

A reader picks one snapshot (the current one, or the one ``--as-of`` names), asks
pyiceberg for the data files of that snapshot (``plan_files``: manifests only, no data is
read) and lets DuckDB scan exactly those files. The list is fixed when the connection is
made, so a query never sees half of a commit and never races a compaction, and no
read-time dedupe is needed: the table holds each event once (``offsets.commit_fenced``).

DuckDB reads local files only here (it has no S3 reader offline), and it does not apply
Iceberg delete files. A snapshot on another warehouse (``s3://``), or one that another
engine wrote with merge-on-read deletes, is read by pyiceberg itself (``to_arrow``) and
handed to DuckDB as a table: slower and held in memory, but the same rows.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

import duckdb

from leakline.pipeline.core.errors import StoreError
from leakline.pipeline.store.layout import PARTITION_KEY

if TYPE_CHECKING:
    import pyarrow as pa
    from pyiceberg.table import Table
    from pyiceberg.table.snapshots import Snapshot

log = logging.getLogger(__name__)

AS_OF_HINT = (
    "--as-of takes a time (RFC 3339, e.g. 2026-11-02T12:00:00Z, or a duration ago, e.g. 2h) "
    "or a snapshot id (the `snapshot_id` column of the table's snapshots)"
)
# the rows of the snapshot, in DuckDB, when they cannot be scanned from their files
MATERIALISED = "samples_snapshot"
# a zero-row table of the current schema: every column exists even before any file has it
EMPTY = "samples_schema"


def load_samples(data_dir: Path) -> Table:
    """The samples table of the store's catalog; a clear error when there is none."""
    from pyiceberg.exceptions import NoSuchTableError

    from leakline.pipeline.store.catalog import open_catalog
    from leakline.pipeline.store.tables import SAMPLES

    catalog = open_catalog(data_dir)
    try:
        return catalog.load_table(SAMPLES)
    except NoSuchTableError:
        raise StoreError(
            f"the Iceberg catalog of {data_dir} has no {SAMPLES} table yet",
            hint="start a worker with --store iceberg on this data dir, or check --catalog",
        ) from None


def resolve_snapshot(table: Table, as_of: str | None) -> Snapshot | None:
    """The snapshot to read: the current one, the one with id ``as_of``, or the one that
    was current at time ``as_of``. None for a table that has no snapshot yet (no rows)."""
    if as_of is None:
        return table.current_snapshot()
    text = as_of.strip()
    if text.isdigit():
        snapshot = table.snapshot_by_id(int(text))
        if snapshot is None:
            raise StoreError(
                f"--as-of {text}: the table has no snapshot with that id", hint=_known(table)
            )
        return snapshot
    from leakline.pipeline.query.filters import parse_time

    when = parse_time(text, "--as-of")
    found = table.snapshot_as_of_timestamp(int(when.timestamp() * 1000))
    if found is None:
        raise StoreError(
            f"--as-of {text}: the table had no snapshot yet at {when.isoformat()}",
            hint=_known(table),
        )
    return found


def _known(table: Table) -> str:
    history = table.history()
    if not history:
        return "the table has no snapshots yet"
    first, last = history[0], history[-1]
    return (
        f"its snapshots run from {_ms(first.timestamp_ms)} (id {first.snapshot_id}) "
        f"to {_ms(last.timestamp_ms)} (id {last.snapshot_id}); {AS_OF_HINT}"
    )


def _ms(timestamp_ms: int) -> str:
    return datetime.fromtimestamp(timestamp_ms / 1000, UTC).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class SnapshotFiles:
    """What one snapshot holds, and whether DuckDB can scan its files directly."""

    snapshot_id: int | None
    paths: tuple[str, ...]  # local paths of the data files (when ``direct``)
    direct: bool
    why_not: str = ""  # why the rows are read by pyiceberg instead


def plan(table: Table, snapshot: Snapshot | None) -> SnapshotFiles:
    """The data files of ``snapshot``, planned by pyiceberg from its manifests."""
    if snapshot is None:
        return SnapshotFiles(None, (), direct=True)
    paths = []
    for task in table.scan(snapshot_id=snapshot.snapshot_id).plan_files():
        if task.delete_files:
            return SnapshotFiles(snapshot.snapshot_id, (), False, "it has delete files")
        local = local_path(task.file.file_path)
        if local is None:
            why = f"its files are not local ({task.file.file_path.split('://', 1)[0]}://)"
            return SnapshotFiles(snapshot.snapshot_id, (), False, why)
        paths.append(local)
    return SnapshotFiles(snapshot.snapshot_id, tuple(paths), direct=True)


def local_path(location: str) -> str | None:
    """A file path for a local warehouse location (``file://`` URI or a bare path)."""
    if "://" not in location:
        return location
    parsed = urlparse(location)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    return unquote(parsed.path)


def _sql_list(items: Sequence[str]) -> str:
    return "[" + ", ".join("'" + item.replace("'", "''") + "'" for item in items) + "]::VARCHAR[]"


def _create_table(con: duckdb.DuckDBPyConnection, name: str, rows: pa.Table) -> None:
    # materialised in DuckDB: the views then hold no reference to a Python object
    con.register("_arrow_rows", rows)
    try:
        con.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT * FROM _arrow_rows")
    finally:
        con.unregister("_arrow_rows")


def samples_view_sql(
    con: duckdb.DuckDBPyConnection, table: Table, files: SnapshotFiles
) -> list[str]:
    """The sample views over one snapshot, with the names of the Parquet layout's views.

    ``samples`` is every row of the snapshot: no dedupe, the table is exactly-once. The
    layout's ``samples_compacted`` is the same rows (all of them are unique), and
    ``samples_parts`` / ``samples_fresh`` (its not-yet-compacted tail) are empty.
    ``samples_files`` lists the snapshot's files, fixed for the connection's life. The
    ``day`` column of the old hive layout (``--by day``) is the UTC date of ``ts``.
    Side effect: creates the zero-row schema table (and the snapshot's rows, when they
    cannot be scanned from their files) on ``con``.
    """
    _create_table(con, EMPTY, table.schema().as_arrow().empty_table())
    if files.direct and files.paths:
        rows = (
            f"SELECT * FROM {EMPTY}\nUNION ALL BY NAME\n"
            f"SELECT * FROM read_parquet({_sql_list(files.paths)}, union_by_name = true)"
        )
    elif files.direct:  # a table with no data file: an empty relation of its schema
        rows = f"SELECT * FROM {EMPTY}"
    else:
        log.info("reading snapshot %s through pyiceberg: %s", files.snapshot_id, files.why_not)
        arrow = table.scan(snapshot_id=files.snapshot_id).to_arrow()
        _create_table(con, MATERIALISED, arrow)
        rows = f"SELECT * FROM {EMPTY}\nUNION ALL BY NAME\nSELECT * FROM {MATERIALISED}"
    day = f"strftime(timezone('UTC', ts), '%Y-%m-%d') AS {PARTITION_KEY}"
    return [
        f"CREATE OR REPLACE VIEW samples_all AS\nSELECT *, {day} FROM (\n{rows}\n)",
        "CREATE OR REPLACE VIEW samples_compacted AS SELECT * FROM samples_all",
        "CREATE OR REPLACE VIEW samples_parts AS SELECT * FROM samples_all WHERE false",
        "CREATE OR REPLACE VIEW samples_fresh AS SELECT * FROM samples_parts",
        f"CREATE OR REPLACE VIEW samples_files AS\nSELECT unnest({_sql_list(files.paths)}) AS file",
        "CREATE OR REPLACE VIEW samples AS SELECT * FROM samples_all",
    ]
