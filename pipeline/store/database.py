"""The DuckDB boundary: views over the Parquet dataset, and the queries the CLI runs.

Only ``init_store`` opens the DuckDB file read-write (briefly, to (re)create the
views); everything else opens it read-only. DuckDB errors are mapped to a few
categories at one choke point so callers never match error strings.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import duckdb

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.core.errors import StoreError
from leakline.pipeline.query.filters import (
    FIELDS,
    SOURCE_SQL,
    Where,
    field_column,
    known_fields,
    parse_time,
)
from leakline.pipeline.query.stats import wilson_sql
from leakline.pipeline.store.catalog import CATALOG_FILE, is_iceberg_store
from leakline.pipeline.store.layout import (
    ALL_GLOB,
    COMPACT_GLOB,
    COMPACT_PREFIX,
    PARTITION_KEY,
    PARTS_GLOB,
    reviews_root,
    samples_root,
)

DB_NAME = "leakline.duckdb"

# user-facing --by/--where names (event contract spelling) -> stored column; one table for
# every command, in ``leakline.pipeline.query.filters``
GROUP_FIELDS = FIELDS


# what to do when a query fails on a damaged Parquet file (any failure that is not a
# missing view or a lock is most likely one)
UNREADABLE_HINT = (
    "if a Parquet file is unreadable, `leakline compact` moves it to DATA_DIR/quarantine/ "
    "and the rest stays queryable"
)


class StoreErrorKind(Enum):
    TRANSIENT = "transient"  # retry (the file is locked by a writer)
    MISSING = "missing"  # an undefined view/table: the store is not initialised
    TERMINAL = "terminal"


def classify(exc: Exception) -> StoreErrorKind:
    if isinstance(exc, duckdb.IOException) and "lock" in str(exc).lower():
        return StoreErrorKind.TRANSIENT
    if isinstance(exc, duckdb.CatalogException):
        return StoreErrorKind.MISSING
    return StoreErrorKind.TERMINAL


def file_vanished(exc: Exception) -> bool:
    """A Parquet file listed when the query started was gone when it was read: a
    compaction (``leakline.pipeline.store.compact``) merged it meanwhile. Running the query again sees
    the merged file instead."""
    return isinstance(exc, duckdb.IOException) and "no such file" in str(exc).lower()


def execute_retrying(
    con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any] = (), attempts: int = 3
) -> duckdb.DuckDBPyConnection:
    for attempt in range(1, attempts + 1):
        try:
            return con.execute(sql, list(params))
        except duckdb.IOException as exc:
            if not file_vanished(exc) or attempt == attempts:
                raise
            time.sleep(0.05 * attempt)
    raise AssertionError("unreachable")


def stored_files(con: duckdb.DuckDBPyConnection) -> set[str] | None:
    """The Parquet files right now (None for a store whose views predate compaction)."""
    try:
        return {row[0] for row in con.execute("SELECT file FROM samples_files").fetchall()}
    except duckdb.CatalogException:
        return None


def same_snapshot(before: set[str] | None, after: set[str] | None) -> bool:
    """True when a query that ran between the two listings saw one consistent store.

    A compaction renames its compact file into place, then deletes the merged parts (and
    a merge renames compact files to parts). A query lists the compact files and the parts
    at slightly different moments, so one that overlaps those steps could miss or repeat
    their rows. New part files from workers are harmless.
    """
    if before is None or after is None:
        return True

    def compact(files: set[str]) -> set[str]:
        return {f for f in files if Path(f).name.startswith(COMPACT_PREFIX)}

    return before <= after and compact(before) == compact(after)


def db_path(data_dir: Path) -> Path:
    return data_dir / DB_NAME


def _label_columns() -> str:
    # CASE skips the list search on the (many) rows without labels: ~10 % of a rates query
    return ",\n".join(
        f"    count(*) FILTER (WHERE CASE WHEN len(labels) > 0"
        f" THEN list_contains(labels, '{label}') ELSE false END) AS {label}"
        for label in ALL_LABELS
    )


def _glob(data_dir: Path, file_glob: str) -> str:
    # relative to the data dir (``file_search_path``, see ``connect``): a copied or moved
    # store reads its own files
    return (samples_root(Path()) / "*" / file_glob).as_posix().replace("'", "''")


def _read_samples(data_dir: Path, file_glob: str) -> str:
    glob = _glob(data_dir, file_glob)
    return f"""SELECT * FROM read_parquet('{glob}', hive_partitioning = true, union_by_name = true,
                           hive_types = {{'{PARTITION_KEY}': VARCHAR}})"""


def samples_view_sql(data_dir: Path) -> list[str]:
    """The sample views; ``samples`` counts every event_id once.

    ``samples_compacted`` (compact files, unique by event_id across the store) plus
    ``samples_fresh``: the part files, deduped among themselves (the earliest copy wins)
    and without the event_ids already compacted. A redelivered or replayed copy carries
    the event's own ``ts``, so it lands in the same day as the first: the probe into the
    compacted rows joins on (day, event_id), and DuckDB only reads the compacted days the
    fresh tail touches. An event without a usable ``ts`` is stamped with its ingestion
    time (``ts = ingested_at``), so its copies may land on other days: those rows are
    probed against every day (free when the tail has none). An event_id sent again with a
    different ``ts`` on another day is a different event to this probe until the next
    compaction, which checks every day.
    """
    order = "ORDER BY ingested_at, src_partition, src_offset"
    return [
        # every stored row, duplicates included
        f"CREATE OR REPLACE VIEW samples_all AS\n{_read_samples(data_dir, ALL_GLOB)}",
        f"CREATE OR REPLACE VIEW samples_compacted AS\n{_read_samples(data_dir, COMPACT_GLOB)}",
        f"CREATE OR REPLACE VIEW samples_parts AS\n{_read_samples(data_dir, PARTS_GLOB)}",
        # the stored files, for queries that must notice a compaction running meanwhile
        f"""CREATE OR REPLACE VIEW samples_files AS
SELECT file FROM glob('{_glob(data_dir, ALL_GLOB)}')""",
        # DuckDB lists the parts for ``f`` before those for the probes, so a part a worker
        # writes meanwhile can only add probe keys, never an unprobed row
        f"""CREATE OR REPLACE VIEW samples_fresh AS
SELECT f.* FROM (
    SELECT * FROM samples_parts
    QUALIFY row_number() OVER (PARTITION BY event_id {order}) = 1
) f
ANTI JOIN (
    SELECT c.{PARTITION_KEY}, c.event_id FROM samples_compacted c
    SEMI JOIN samples_parts p
        ON c.{PARTITION_KEY} = p.{PARTITION_KEY} AND c.event_id = p.event_id
) same_day ON same_day.{PARTITION_KEY} = f.{PARTITION_KEY} AND same_day.event_id = f.event_id
ANTI JOIN (
    SELECT c.event_id FROM samples_compacted c
    SEMI JOIN (
        SELECT CASE WHEN ts IS NOT DISTINCT FROM ingested_at THEN event_id END AS event_id
        FROM samples_parts
    ) p ON c.event_id = p.event_id
) any_day ON any_day.event_id = f.event_id""",
        # a redelivered event (same event_id) is counted once, whichever worker stored it
        """CREATE OR REPLACE VIEW samples AS
SELECT * FROM samples_compacted
UNION ALL BY NAME
SELECT * FROM samples_fresh""",
    ]


def view_sql(
    data_dir: Path, samples: list[str] | None = None, reviews: str | None = None
) -> list[str]:
    """Every view and macro of the store. ``samples`` replaces the sample views of the
    Parquet layout (``snapshot.samples_view_sql`` for an Iceberg snapshot); ``reviews``
    is what ``reviews_all`` selects from (see ``review_view_sql``)."""
    labels = _label_columns()
    label_list = "[" + ", ".join(f"'{label}'" for label in ALL_LABELS) + "]"
    return [
        *(samples_view_sql(data_dir) if samples is None else samples),
        *macro_sql(),
        # rate views count production traffic; gate replays (source = 'gate') stay out
        f"""CREATE OR REPLACE VIEW leak_rates AS
SELECT engine_name, engine_version, model_name,
    count(*) AS total,
    count(*) FILTER (WHERE leaking) AS leaking,
    round(count(*) FILTER (WHERE leaking) / count(*), 4) AS rate,
    round(wilson_low(count(*) FILTER (WHERE leaking), count(*)), 4) AS rate_low,
    round(wilson_high(count(*) FILTER (WHERE leaking), count(*)), 4) AS rate_high,
{labels}
FROM samples
WHERE row_source(src_topic) = 'production'
GROUP BY ALL
ORDER BY engine_name, engine_version, model_name""",
        f"""CREATE OR REPLACE VIEW label_rates AS
SELECT s.engine_name, s.engine_version, s.model_name, l.label,
    count(*) FILTER (WHERE list_contains(s.labels, l.label)) AS leaking,
    count(*) AS total,
    round(count(*) FILTER (WHERE list_contains(s.labels, l.label)) / count(*), 4) AS rate,
    round(wilson_low(count(*) FILTER (WHERE list_contains(s.labels, l.label)), count(*)), 4)
        AS rate_low,
    round(wilson_high(count(*) FILTER (WHERE list_contains(s.labels, l.label)), count(*)), 4)
        AS rate_high
FROM samples s CROSS JOIN (SELECT unnest({label_list}) AS label) l
WHERE row_source(s.src_topic) = 'production'
GROUP BY ALL
ORDER BY s.engine_name, s.engine_version, s.model_name, l.label""",
        """CREATE OR REPLACE VIEW detector_rates AS
SELECT s.engine_name, s.engine_version,
    f.finding->>'detector_id' AS detector_id,
    f.finding->>'detector_version' AS detector_version,
    f.finding->>'label' AS label,
    count(DISTINCT s.event_id) AS events
FROM samples s, unnest(CAST(s.findings AS JSON[])) AS f(finding)
GROUP BY ALL
ORDER BY events DESC""",
        # K2VV's schema accuracy: schema-valid tool-call responses over tool-call finishes
        """CREATE OR REPLACE VIEW tool_schema_accuracy AS
SELECT engine_name, engine_version, model_name, tool_call_parser,
    count(*) AS tool_call_finishes,
    count(*) FILTER (WHERE tool_calls_schema_valid) AS schema_valid,
    round(count(*) FILTER (WHERE tool_calls_schema_valid) / count(*), 4) AS schema_accuracy
FROM samples
WHERE tool_call_finish
GROUP BY ALL
ORDER BY engine_name, engine_version, model_name""",
        """CREATE OR REPLACE VIEW remediation_ratios AS
WITH per_action AS (
    SELECT engine_name, engine_version, coalesce(remediation_action, 'none') AS action,
        count(*) AS events, sum(remediation_extra_tokens) AS extra_tokens
    FROM samples
    GROUP BY engine_name, engine_version, coalesce(remediation_action, 'none')
)
SELECT *, round(events / sum(events) OVER (PARTITION BY engine_name, engine_version), 4) AS share
FROM per_action
ORDER BY engine_name, engine_version, events DESC""",
        *review_view_sql(data_dir, source=reviews),
    ]


def macro_sql() -> list[str]:
    """SQL macros for notebooks and ad-hoc queries: ``wilson_low(k, n)`` and
    ``wilson_high(k, n)`` (the 95 % Wilson interval of k in n, as ``query.stats.wilson``) and
    ``row_source(src_topic)`` ('gate' for ``leakline gate`` replays, else 'production')."""
    return [
        f"CREATE OR REPLACE MACRO wilson_low(k, n) AS {wilson_sql('k', 'n', 'low')}",
        f"CREATE OR REPLACE MACRO wilson_high(k, n) AS {wilson_sql('k', 'n', 'high')}",
        "CREATE OR REPLACE MACRO row_source(src_topic) AS " + SOURCE_SQL,
    ]


def review_view_sql(data_dir: Path, temp: bool = False, source: str | None = None) -> list[str]:
    """Reviewed labels beside the machine ones: the newest review per event_id wins.

    ``samples_reviewed`` is ``samples`` plus ``effective_labels`` (reviewed labels when a
    review exists, else the machine ``labels``), ``label_source`` ('machine' |
    'reviewed'), ``reviewer``, ``reviewed_at`` and ``review_note``. ``temp`` makes
    session-only views, for a read-only connection to a store created before reviews.
    ``source`` is a relation to read the reviews from instead of their Parquet files (a
    zero-row table while a read-only Iceberg store has none).
    """
    glob = (reviews_root(Path()) / "*.parquet").as_posix().replace("'", "''")
    kind = "TEMP VIEW" if temp else "VIEW"
    reviews = source or f"read_parquet('{glob}', union_by_name = true)"
    return [
        f"""CREATE OR REPLACE {kind} reviews_all AS
SELECT * FROM {reviews}""",
        f"""CREATE OR REPLACE {kind} reviews_latest AS
SELECT * FROM reviews_all
QUALIFY row_number() OVER (PARTITION BY event_id ORDER BY reviewed_at DESC, review_id DESC) = 1""",
        f"""CREATE OR REPLACE {kind} samples_reviewed AS
SELECT s.*,
    CASE WHEN r.event_id IS NULL THEN s.labels ELSE r.labels END AS effective_labels,
    CASE WHEN r.event_id IS NULL THEN 'machine' ELSE 'reviewed' END AS label_source,
    r.reviewer, r.reviewed_at, r.note AS review_note
FROM samples s LEFT JOIN reviews_latest r ON r.event_id = s.event_id""",
    ]


def has_relation(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    row = con.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = ?", [name]).fetchone()
    return bool(row and row[0])


def ensure_review_views(con: duckdb.DuckDBPyConnection, data_dir: Path) -> None:
    """Make ``samples_reviewed`` available on ``con``, even read-only on an older store."""
    if has_relation(con, "samples_reviewed"):
        return
    if not has_relation(con, "samples"):
        raise StoreError(
            f"the store at {data_dir} has no views yet",
            hint="start a worker once on this data dir, or run `leakline demo`",
        )
    if not any(reviews_root(data_dir).glob("*.parquet")):
        from leakline.pipeline.store.reviews import ensure_review_placeholder  # pyarrow: on use

        ensure_review_placeholder(data_dir)
    for sql in review_view_sql(data_dir, temp=True):
        con.execute(sql)


def connect(data_dir: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    """Open the store's DuckDB file. The views name their Parquet files relative to the
    data dir, so every connection searches files from there."""
    con = duckdb.connect(str(db_path(data_dir)), read_only=read_only)
    try:
        con.execute("SET file_search_path = ?", [str(data_dir.resolve())])
    except BaseException:
        con.close()
        raise
    return con


def _connect_waiting(
    data_dir: Path, read_only: bool, timeout_s: float
) -> duckdb.DuckDBPyConnection:
    """``connect``, retried while another process holds the file's lock, up to ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return connect(data_dir, read_only=read_only)
        except duckdb.Error as exc:
            if classify(exc) is not StoreErrorKind.TRANSIENT or time.monotonic() > deadline:
                mode = "" if read_only else " for writing"
                raise StoreError(f"cannot open {db_path(data_dir)}{mode}: {exc}") from exc
            time.sleep(0.2)


def init_store(data_dir: Path, timeout_s: float = 30.0) -> Path:
    """Create the dataset folder and (re)create the DuckDB views. Safe to repeat."""
    # pyarrow only here: read-only commands (rates, compare) never load it
    from leakline.pipeline.store.reviews import ensure_review_placeholder
    from leakline.pipeline.store.sink import ensure_placeholder

    path = db_path(data_dir)
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        ensure_placeholder(data_dir)
        ensure_review_placeholder(data_dir)
    except OSError as exc:  # a full disk or a read-only mount: say so, not a traceback
        raise StoreError(
            f"cannot prepare the store at {data_dir}: {exc}",
            hint="free space on that disk, or point --data-dir at a writable one",
        ) from exc
    con = _connect_waiting(data_dir, read_only=False, timeout_s=timeout_s)
    try:
        for sql in view_sql(data_dir):
            con.execute(sql)
    except duckdb.Error as exc:
        raise StoreError(
            f"cannot create the views in {path}: {exc}",
            hint="a full disk: free space on it; an unreadable Parquet file: "
            "`leakline compact` moves it to DATA_DIR/quarantine/",
        ) from exc
    finally:
        con.close()
    return path


def require_store(data_dir: Path) -> Path:
    """The store's DuckDB file (its catalog's file for an Iceberg store); a clear error
    (with what to do) when there is none."""
    if is_iceberg_store(data_dir):
        return data_dir / CATALOG_FILE
    path = db_path(data_dir)
    if not path.exists():
        raise StoreError(
            f"no leakline store at {data_dir} (missing {DB_NAME})",
            hint="start a worker with --data-dir pointing here, or run `leakline demo`",
        )
    return path


@contextmanager
def read_only(
    data_dir: Path, timeout_s: float = 10.0, as_of: str | None = None
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection with the store's views, for reading. An Iceberg store is read at one
    snapshot: the current one, or the one ``as_of`` (a time or a snapshot id) names."""
    iceberg = is_iceberg_store(data_dir) and not _migration_unfinished(data_dir)
    if iceberg:
        con = connect_snapshot(data_dir, as_of)
    elif as_of is not None:
        raise StoreError(
            f"--as-of needs an Iceberg store: the Parquet layout at {data_dir} keeps no snapshots",
            hint="drop --as-of, or read a store written with `leakline worker --store iceberg`",
        )
    else:
        require_store(data_dir)
        con = _connect_waiting(data_dir, read_only=True, timeout_s=timeout_s)
    try:
        if not iceberg:
            _refuse_foreign_views(con, data_dir)
        yield con
    finally:
        con.close()


def _migration_unfinished(data_dir: Path) -> bool:
    """An old-layout store whose move into the table has not finished (`store migrate`
    was stopped, or runs now): until it does, the old layout is the whole truth and the
    table only part of it, so readers stay on the old layout."""
    if not db_path(data_dir).exists():
        return False
    from leakline.pipeline.store.migrate import check_layout

    try:
        check_layout(data_dir)
    except StoreError:
        print(
            f"note: {data_dir} still reads the old store layout: its migration into the "
            "Iceberg table has not finished (run `leakline store migrate`)",
            file=sys.stderr,
        )
        return True
    return False


def connect_snapshot(data_dir: Path, as_of: str | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with every view of the store over ONE snapshot of
    the Iceberg samples table (``snapshot``); reviews stay Parquet files in the data dir."""
    from leakline.pipeline.store import snapshot

    table = snapshot.load_samples(data_dir)
    files = snapshot.plan(table, snapshot.resolve_snapshot(table, as_of))
    con = duckdb.connect(":memory:")
    try:
        # the review views name their files relative to the data dir, as in the DuckDB file
        con.execute("SET file_search_path = ?", [str(data_dir.resolve())])
        # a snapshot's files never change: read each footer once, not once per view bound
        con.execute("SET parquet_metadata_cache = true")
        samples = snapshot.samples_view_sql(con, table, files)
        reviews = None
        if not any(reviews_root(data_dir).glob("*.parquet")):
            from leakline.pipeline.store.reviews import REVIEW_SCHEMA

            con.register("_no_reviews", REVIEW_SCHEMA.empty_table())
            con.execute("CREATE TABLE reviews_none AS SELECT * FROM _no_reviews")
            con.unregister("_no_reviews")
            reviews = "reviews_none"
        for sql in view_sql(data_dir, samples=samples, reviews=reviews):
            con.execute(sql)
    except duckdb.Error as exc:
        con.close()
        raise StoreError(
            f"cannot read snapshot {files.snapshot_id} of the store at {data_dir}: {exc}",
            hint="a data file of the snapshot is missing or unreadable: check the warehouse",
        ) from exc
    except BaseException:
        con.close()
        raise
    return con


def _refuse_foreign_views(con: duckdb.DuckDBPyConnection, data_dir: Path) -> None:
    """Views made by an older leakline name absolute paths: in a copied or moved store
    they would read the original's files. Refuse until they are re-created here."""
    row = con.execute(
        "SELECT sql FROM duckdb_views() WHERE view_name = 'samples_all' AND NOT temporary"
    ).fetchone()
    ours = "'" + samples_root(data_dir.resolve()).as_posix().replace("'", "''") + "/"
    if row and "read_parquet('/" in row[0] and ours not in row[0]:
        con.close()
        raise StoreError(
            f"the views in {db_path(data_dir)} read files by absolute paths (made by an older "
            "leakline), which may be another store's",
            hint=f"re-create them: `leakline compact --data-dir {data_dir}` (or start a worker)",
        )


@dataclass(frozen=True)
class RateFilter:
    since: str | None = None
    until: str | None = None
    api: str | None = None
    engine_name: str | None = None

    def to_where(self) -> Where:
        pairs = [("api", self.api)] if self.api else []
        if self.engine_name:
            pairs.append(("engine.name", self.engine_name))
        return Where(
            tuple(pairs),
            parse_time(self.since, "--since") if self.since else None,
            parse_time(self.until, "--until") if self.until else None,
        )


def resolve_group_fields(by: Sequence[str]) -> list[tuple[str, str]]:
    """(user-facing name, stored column) pairs; unknown names raise with the known ones."""
    pairs = []
    for raw in by:
        name = raw.strip()
        if not name:
            continue
        column = field_column(name, GROUP_FIELDS)
        if column is None:
            raise StoreError(
                f"unknown --by field {name!r}",
                hint="choose from: " + known_fields(GROUP_FIELDS),
            )
        pairs.append((name, column))
    return pairs


def query_rates(
    con: duckdb.DuckDBPyConnection, by: Sequence[str], where: Where | RateFilter | None = None
) -> list[dict[str, Any]]:
    """Total, leaking, rate and per-label counts, grouped by ``by`` (event-contract names).

    Group columns come from a whitelist; filter values are bound parameters. ``where`` is
    applied as given (``Where.production_only`` leaves gate replays out).
    """
    pairs = resolve_group_fields(by)
    columns = [col for _, col in pairs]
    if where is None:
        where = Where()
    elif isinstance(where, RateFilter):
        where = where.to_where()
    conditions, params = where.sql()
    select_groups = [f'{col} AS "{name}"' for name, col in pairs]
    sql = f"""
SELECT {", ".join(select_groups + [""])}
    count(*) AS total,
    count(*) FILTER (WHERE leaking) AS leaking,
    round(count(*) FILTER (WHERE leaking) / count(*), 4) AS rate,
{_label_columns()},
    count(*) FILTER (WHERE tool_call_finish) AS tool_call_finishes,
    round(count(*) FILTER (WHERE tool_calls_schema_valid)
          / nullif(count(*) FILTER (WHERE tool_call_finish), 0), 4) AS schema_accuracy
FROM samples
{("WHERE " + " AND ".join(conditions)) if conditions else ""}
{("GROUP BY " + ", ".join(columns)) if columns else ""}
{("ORDER BY " + ", ".join(columns)) if columns else ""}"""
    try:
        for _ in range(5):
            # a compaction step while the query ran: run it again (see same_snapshot)
            before = stored_files(con)
            cursor = execute_retrying(con, sql, params)
            names = [d[0] for d in cursor.description]
            fetched = cursor.fetchall()
            if same_snapshot(before, stored_files(con)):
                break
    except duckdb.Error as exc:
        if classify(exc) is StoreErrorKind.MISSING:
            raise StoreError(
                "the store has no views yet", hint="start a worker once on this data dir"
            ) from exc
        raise StoreError(f"rates query failed: {exc}", hint=UNREADABLE_HINT) from exc
    rows = [dict(zip(names, row, strict=True)) for row in fetched]
    return [r for r in rows if r["total"]]
