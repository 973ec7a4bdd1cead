"""``leakline store migrate``: the Parquet layout of our own moves into the Iceberg table.

The old store (``samples/day=D/part-*.parquet`` from the workers, ``compact-*.parquet``
from ``compact``) may hold an event_id more than once; the views dedupe at every query.
The migration decides once, over every old file, which copy of each event_id is kept, the
one the views keep: a compacted row first (compact files are unique across the store),
else the earliest copy by ``ingested_at, src_partition, src_offset`` (file name and row
number break the remaining ties, so the choice is the same on every run). Each commit
then appends the kept rows of a batch of old files.

Progress lives in the table, not in a side file: each migration commit names the old
files it covers in its snapshot summary (``leakline.migrate.files``), so data and
progress land in one atomic step. A run skips the files that a commit already names and
leaves out event_ids the table already holds (a compaction between two runs can move
migrated rows into a new compact file), so a killed run resumes with every event_id once
and a second run adds nothing. Every commit also carries ``leakline.kafka-offsets``
(``offsets.py``): for each (src_topic, src_partition) of the old store, the next offset
after its highest ``src_offset``, so a worker started with ``--store iceberg`` resumes
after the migrated events. The last commit sets the table property
``leakline.migrated``, which ``check_layout`` looks for (it survives snapshot expiry).

The old files stay until the user removes them (``--remove-old``, or by hand).
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from leakline.pipeline.core import failpoints
from leakline.pipeline.core.command import HelpFormatter, add_data_dir, positive_int
from leakline.pipeline.core.errors import StoreError
from leakline.pipeline.store.layout import (
    COMPACT_PREFIX,
    PART_PREFIX,
    PARTITION_KEY,
    PLACEHOLDER_NAME,
    samples_root,
)

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa
    from pyiceberg.table import Table

    from leakline.pipeline.store.quarantine import Quarantined

FILES_PROPERTY = "leakline.migrate.files"  # snapshot summary: old files this commit covers
DONE_PROPERTY = "leakline.migrated"  # table property: the migration finished
DEFAULT_BATCH_FILES = 200
# the copy of an event_id the views keep (database.samples_view_sql, compact.DEDUPE_ORDER),
# then file and row so that every run chooses the same one
KEEP_ORDER = "compacted DESC, ingested_at, src_partition, src_offset, filename, file_row_number"
# failpoints (pipeline/core/failpoints.py) for the resume tests
BEFORE_COMMIT = "migrate_before_commit"
AFTER_COMMIT = "migrate_after_commit"

MIGRATE_HINT = "run `leakline store migrate --data-dir DIR` first (it is resumable)"


def old_files(data_dir: Path) -> list[Path]:
    """The part and compact files of the old layout, sorted (no placeholder, no temp)."""
    root = samples_root(data_dir)
    found: list[Path] = []
    for prefix in (COMPACT_PREFIX, PART_PREFIX):
        found += root.glob(f"{PARTITION_KEY}=*/{prefix}*.parquet")
    return sorted(found)


def _name(data_dir: Path, path: Path) -> str:
    """How a migration commit names an old file: relative to the data dir, so a store
    moved to another directory resumes."""
    return path.relative_to(data_dir).as_posix()


def migrated_files(table: Table) -> set[str]:
    """The old files that the migration commits of ``table``'s current history cover."""
    from pyiceberg.table.snapshots import ancestors_of

    names: set[str] = set()
    for snapshot in ancestors_of(table.current_snapshot(), table.metadata):
        text = snapshot.summary.get(FILES_PROPERTY) if snapshot.summary is not None else None
        if text:
            names.update(json.loads(text))
    return names


def migration_done(table: Table) -> dict[str, Any] | None:
    text = table.properties.get(DONE_PROPERTY)
    return json.loads(text) if text else None


def check_layout(data_dir: Path, setting: str | None = None) -> None:
    """Refuse an Iceberg worker on a data dir whose old layout is not migrated yet: its
    events would be missing from the table, or read again from Kafka. Raises
    LeaklineError naming ``leakline store migrate``; returns when there is nothing to
    move or the migration finished."""
    from leakline.pipeline.store.catalog import is_iceberg_store

    files = old_files(data_dir)
    if not files:
        return
    what = f"{data_dir} holds {len(files)} Parquet file(s) of the old store layout"
    if not is_iceberg_store(data_dir, setting):
        raise StoreError(f"{what} and no Iceberg table", hint=MIGRATE_HINT)
    from pyiceberg.exceptions import NoSuchTableError

    from leakline.pipeline.store.catalog import open_catalog
    from leakline.pipeline.store.tables import SAMPLES

    try:
        table = open_catalog(data_dir, setting).load_table(SAMPLES)
    except NoSuchTableError:
        raise StoreError(f"{what} and no Iceberg samples table", hint=MIGRATE_HINT) from None
    if migration_done(table) is None:
        raise StoreError(f"{what}, and their migration did not finish", hint=MIGRATE_HINT)


@dataclass
class MigrateReport:
    data_dir: Path
    files_total: int = 0  # old files found
    files_skipped: int = 0  # already covered by an earlier run's commits
    files_migrated: int = 0  # covered by this run's commits
    rows_read: int = 0  # rows in the files this run covered
    rows_written: int = 0
    commits: int = 0
    table_rows: int = 0  # rows in the table afterwards
    distinct_events: int = 0  # distinct event_ids in the old store
    offsets: dict[tuple[str, int], int] = field(default_factory=dict)
    quarantined: list[Quarantined] = field(default_factory=list)
    removed: int = 0  # old files deleted by --remove-old
    seconds: float = 0.0

    @property
    def duplicates_dropped(self) -> int:
        """Rows of this run's files not written: a second copy of an event_id, or one
        the table already held."""
        return self.rows_read - self.rows_written

    def summary(self) -> str:
        text = (
            f"migrated {self.files_migrated} file(s)"
            + (f" ({self.files_skipped} done by an earlier run)" if self.files_skipped else "")
            + f" of {self.files_total}: read {self.rows_read:,} rows, wrote "
            f"{self.rows_written:,}, dropped {self.duplicates_dropped:,} duplicate(s) in "
            f"{self.commits} commit(s), {self.seconds:.1f} s. The table holds "
            f"{self.table_rows:,} rows; the old store held {self.distinct_events:,} "
            f"distinct event_ids. Kafka offsets set for {len(self.offsets)} partition(s)."
        )
        if self.quarantined:
            text += (
                f"\nquarantined {len(self.quarantined)} unreadable file(s) in "
                f"{self.data_dir / 'quarantine'} (not migrated): "
                + ", ".join(f"{q.original} ({q.reason[:120]})" for q in self.quarantined)
            )
        root = samples_root(self.data_dir)
        if self.removed:
            text += f"\nremoved {self.removed} old file(s) under {root}."
        elif self.files_total:
            text += (
                f"\nThe old files stay in {root}: remove them with "
                f"`leakline store migrate --data-dir {self.data_dir} --remove-old` "
                f"(or `rm -r {root}`)."
            )
        return text


def _sql_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _sql_list(values: Sequence[str]) -> str:
    return "[" + ", ".join(_sql_str(v) for v in values) + "]"


@contextmanager
def _locked(data_dir: Path) -> Iterator[None]:
    """The compaction lock: no compaction renames old files under a running migration."""
    from leakline.pipeline.store.compact import compaction_lock

    with compaction_lock(data_dir) as held:
        if not held:
            raise StoreError(
                f"a compaction or another migration holds {data_dir}/.compact.lock",
                hint="wait for it to finish (or stop `leakline compact --watch` and the "
                "old-layout workers), then run `leakline store migrate` again",
            )
        yield


def _keys(con: duckdb.DuckDBPyConnection, paths: list[str], stored: pa.Table | None) -> None:
    """Tables ``keys`` (every old row's identity) and ``keep`` (the rows to migrate)."""
    con.execute(
        f"""CREATE TEMP TABLE keys AS
SELECT filename, file_row_number, event_id, ingested_at, src_topic, src_partition, src_offset,
    filename LIKE {_sql_str("%/" + COMPACT_PREFIX + "%")} AS compacted
FROM read_parquet({_sql_list(paths)}, filename = true, file_row_number = true,
                  union_by_name = true, hive_partitioning = false)"""
    )
    kept = f"""SELECT filename, file_row_number, event_id FROM keys
QUALIFY row_number() OVER (PARTITION BY event_id ORDER BY {KEEP_ORDER}) = 1"""
    if stored is not None:
        con.register("stored_ids", stored)
        kept = f"SELECT * FROM ({kept}) k ANTI JOIN stored_ids s ON s.event_id = k.event_id"
    con.execute(f"CREATE TEMP TABLE keep AS {kept}")


def _next_offsets(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, int], int]:
    rows = con.execute(
        """SELECT src_topic, src_partition, max(src_offset) + 1 FROM keys
WHERE src_topic IS NOT NULL AND src_partition IS NOT NULL AND src_offset IS NOT NULL
GROUP BY ALL"""
    ).fetchall()
    return {(str(t), int(p)): int(n) for t, p, n in rows}


def _conform(rows: pa.Table) -> pa.Table:
    """An old file's rows as ``SAMPLE_SCHEMA``: columns it predates read null."""
    import pyarrow as pa

    from leakline.pipeline.events.rows import SAMPLE_SCHEMA

    if rows.schema.equals(SAMPLE_SCHEMA):
        return rows  # a file of the current schema: the usual case
    have = set(rows.column_names)
    columns = [
        rows[f.name] if f.name in have else pa.nulls(rows.num_rows, f.type) for f in SAMPLE_SCHEMA
    ]
    return pa.Table.from_arrays(columns, names=SAMPLE_SCHEMA.names).cast(SAMPLE_SCHEMA)


def _batch_rows(con: duckdb.DuckDBPyConnection, batch: list[Path]) -> tuple[pa.Table, int]:
    """The kept rows of ``batch`` (read with pyarrow: the stored types exactly), and how
    many rows the batch's files hold."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from leakline.pipeline.events.rows import SAMPLE_SCHEMA

    paths = [p.as_posix() for p in batch]
    keep = dict(
        con.execute(
            f"""SELECT filename, list(file_row_number ORDER BY file_row_number) FROM keep
WHERE filename IN (SELECT unnest({_sql_list(paths)})) GROUP BY filename"""
        ).fetchall()
    )
    read = 0
    tables = []
    for path in paths:
        rows = pq.read_table(path)
        read += rows.num_rows
        if keep.get(path):
            tables.append(_conform(rows.take(pa.array(keep[path], pa.int64()))))
    if not tables:
        return SAMPLE_SCHEMA.empty_table(), read
    return pa.concat_tables(tables), read


def _commit(
    table: Table,
    data_files: list[Any],
    names: list[str],
    offsets: dict[tuple[str, int], int],
    done: dict[str, Any] | None,
) -> None:
    """One atomic step: the batch's data files, the names of the old files it covers,
    the Kafka offsets (never moved back), and on the last batch the done marker. A
    commit conflict re-reads the table and tries again."""
    from pyiceberg.exceptions import CommitFailedException

    from leakline.pipeline.store.offsets import OFFSETS_PROPERTY, committed_offsets, encode_offsets

    for _attempt in range(50):
        table.refresh()
        if set(names) & migrated_files(table):
            raise StoreError(
                "another migration committed some of these files meanwhile",
                hint="run one `leakline store migrate` at a time per table",
            )
        merged = committed_offsets(table)
        for tp, nxt in offsets.items():
            merged[tp] = max(merged.get(tp, 0), nxt)
        summary = {
            OFFSETS_PROPERTY: encode_offsets(merged),
            FILES_PROPERTY: json.dumps(names, separators=(",", ":")),
        }
        tx = table.transaction()
        with tx.update_snapshot(snapshot_properties=summary).fast_append() as append:
            for data_file in data_files:
                append.append_data_file(data_file)
        if done is not None:
            tx.set_properties({DONE_PROPERTY: json.dumps(done, sort_keys=True)})
        try:
            tx.commit_transaction()
            return
        except CommitFailedException:
            continue
    raise StoreError(
        "the samples table kept changing under 50 migration commit attempts",
        hint="stop the workers that write it, then run `leakline store migrate` again",
    )


def _stored_ids(table: Table) -> pa.Table | None:
    """event_ids the table holds already (an earlier run's rows), or None when empty."""
    if _table_rows(table) == 0:
        return None
    return table.scan(selected_fields=("event_id",)).to_arrow()


def _table_rows(table: Table) -> int:
    """Rows in the current snapshot, from its summary (no file is read)."""
    snapshot = table.current_snapshot()
    summary = snapshot.summary if snapshot is not None else None
    total = summary.get("total-records") if summary is not None else None
    return int(total) if total else 0


def migrate(
    data_dir: Path,
    setting: str | None = None,
    *,
    batch_files: int = DEFAULT_BATCH_FILES,
    remove_old: bool = False,
    on_start: Callable[[int], None] | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> MigrateReport:
    """Move the old layout of ``data_dir`` into the samples table; see the module doc.
    ``on_start(files to migrate)`` and ``on_batch(files done)`` drive a progress bar."""
    import duckdb

    from leakline.pipeline.store.catalog import open_catalog
    from leakline.pipeline.store.offsets import write_data_files
    from leakline.pipeline.store.quarantine import quarantine_unreadable
    from leakline.pipeline.store.tables import samples_table

    started = time.perf_counter()
    data_dir = Path(data_dir).resolve()
    root = samples_root(data_dir)
    if not root.is_dir():
        raise StoreError(
            f"no old-layout store at {data_dir} (missing {root.name}/): nothing to migrate",
            hint="pass the --data-dir the old workers wrote to (or set $LEAKLINE_DATA_DIR)",
        )
    report = MigrateReport(data_dir=data_dir)
    with _locked(data_dir):
        # one unreadable file would fail the whole read: moved aside, as compact does
        report.quarantined = quarantine_unreadable(data_dir)
        files = old_files(data_dir)
        report.files_total = len(files)
        table = samples_table(open_catalog(data_dir, setting))
        done_before = migrated_files(table)
        pending = [p for p in files if _name(data_dir, p) not in done_before]
        report.files_skipped = len(files) - len(pending)
        if on_start is not None:
            on_start(len(pending))
        con = duckdb.connect()
        spill = data_dir / ".migrate-spill"
        try:
            con.execute(f"SET temp_directory = {_sql_str(spill.as_posix())}")
            if files:
                # every old file takes part in choosing the kept copy, migrated or not:
                # the same choice on every run
                _keys(con, [p.as_posix() for p in files], _stored_ids(table))
                report.offsets = _next_offsets(con)
                row = con.execute("SELECT count(DISTINCT event_id) FROM keys").fetchone()
                report.distinct_events = int(row[0]) if row else 0
            batches = [pending[i : i + batch_files] for i in range(0, len(pending), batch_files)]
            done_marker = {
                "at": datetime.now(UTC).isoformat(timespec="seconds"),
                "files": len(files),
                "events": report.distinct_events,
            }
            if not batches and migration_done(table) is None:
                _commit(table, [], [], report.offsets, done_marker)
                report.commits += 1
            for n, batch in enumerate(batches, 1):
                rows, read = _batch_rows(con, batch)
                data_files = write_data_files(table, rows)
                failpoints.hit(BEFORE_COMMIT)
                last = done_marker if n == len(batches) else None
                _commit(
                    table, data_files, [_name(data_dir, p) for p in batch], report.offsets, last
                )
                failpoints.hit(AFTER_COMMIT)
                report.commits += 1
                report.files_migrated += len(batch)
                report.rows_read += read
                report.rows_written += rows.num_rows
                if on_batch is not None:
                    on_batch(len(batch))
        finally:
            con.close()
            shutil.rmtree(spill, ignore_errors=True)
        table.refresh()
        report.table_rows = _table_rows(table)
        if remove_old:
            report.removed = _remove_old(data_dir, table)
    report.seconds = time.perf_counter() - started
    return report


def _remove_old(data_dir: Path, table: Table) -> int:
    """Delete the old files that the table's migration commits cover, and what is left of
    the old layout when nothing else remains. Files it does not cover stay."""
    covered = migrated_files(table)
    removed = 0
    for path in old_files(data_dir):
        if _name(data_dir, path) in covered:
            path.unlink(missing_ok=True)
            removed += 1
    root = samples_root(data_dir)
    for day_dir in sorted(root.glob(f"{PARTITION_KEY}=*")):
        with suppress(OSError):
            (day_dir / PLACEHOLDER_NAME).unlink(missing_ok=True)
            day_dir.rmdir()  # only when empty
    with suppress(OSError):
        root.rmdir()
    return removed


# ------------------------------------------------------------------ command line

DESCRIPTION = """\
Move a data directory of the old store layout (DATA_DIR/samples/day=*/part-*.parquet and
compact-*.parquet) into the Iceberg samples table (--catalog; by default SQLite in
DATA_DIR/catalog.db, files in DATA_DIR/warehouse).

Every event_id is stored once: of the copies the old store holds, the one its views count
(a compacted row, else the earliest ingested). Each commit covers --batch-files old files
and names them in its snapshot summary, so a run that is stopped or killed resumes where it
was, and a second run adds nothing. The commits also set the table's Kafka offsets to the
next offset after the highest migrated one of each source partition: a worker started
with --store iceberg resumes after the migrated events.
Unreadable Parquet files are moved to DATA_DIR/quarantine/ first (as `leakline compact`
does) and are not migrated. The old files stay until you remove them (--remove-old, or by
hand). Run it with the old-layout workers and `leakline compact --watch` stopped.
Exit status 0 when the migration finished."""


def add_migrate(sub: Any) -> None:
    """Register ``migrate`` on the ``leakline store`` action parsers."""
    p = sub.add_parser(
        "migrate",
        help="move the old Parquet layout into the Iceberg table (resumable)",
        description=DESCRIPTION,
        formatter_class=HelpFormatter,
    )
    p.set_defaults(func=cmd_migrate)
    add_data_dir(p)
    p.add_argument(
        "--batch-files",
        type=positive_int,
        default=DEFAULT_BATCH_FILES,
        metavar="N",
        help="old files per commit",
    )
    p.add_argument(
        "--remove-old",
        action="store_true",
        help="delete the migrated old files once the migration has finished",
    )


def cmd_migrate(args: argparse.Namespace) -> int:
    from leakline.pipeline.core.config import from_env
    from leakline.pipeline.core.progress import progress_bar

    data_dir = from_env(data_dir=args.data_dir).data_dir
    bar = progress_bar(eta=True)
    task = bar.add_task("migrating old files", total=None)
    with bar:
        report = migrate(
            data_dir,
            batch_files=args.batch_files,
            remove_old=args.remove_old,
            on_start=lambda total: bar.update(task, total=total),
            on_batch=lambda done: bar.advance(task, done),
        )
    print(f"leakline store migrate {report.data_dir}: {report.summary()}", flush=True)
    return 0
