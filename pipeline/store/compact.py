"""Compaction: merge older Parquet parts once, deduplicated, so queries only dedupe the tail.

Workers write ``samples/day=D/part-*.parquet`` (one file per day and source partition per
flushed batch); a redelivered or replayed event can be stored twice. ``compact`` takes the
parts older than a grace period and, per day, writes their rows into ONE new
``compact-<UTC stamp>-<8 hex>.parquet`` (zstd, sorted by ``ts``, written under a temporary
name and renamed): deduplicated by event_id (the earliest copy, ordered by ingested_at,
src_partition, src_offset, as the ``samples`` view does) and without the event_ids that any
compact file already holds. Then it deletes the merged parts. Compact files are therefore
unique by event_id across the store, and the ``samples`` view only dedupes the part files
among themselves and against the compacted rows of the days they touch
(``leakline.pipeline.store.database.samples_view_sql``).

Crash safety, without a journal:

- dies before the rename: a hidden ``.compact-*.tmp`` file is left, which no view reads;
  the next run removes it and starts over;
- dies after the rename, before (or while) deleting the parts: their rows are in the
  compact file and the view drops fresh rows whose event_id is compacted, so nothing is
  counted twice; the next run finds nothing new in them and deletes them;
- a worker re-writes a part that was merged and deleted (a batch processed again after a
  crash): the view drops its already compacted rows, the next run deletes it;
- merging a day's many compact files: they are first renamed back to part files (each
  rename is atomic and the files are disjoint, so every row still counts once), then
  compacted like any part.

Unreadable files (truncated, zeroed, garbled) would fail every day's compaction and every
query: each run first moves them to ``DATA_DIR/quarantine/`` with a reason file
(``leakline.pipeline.store.quarantine``) and reports them in ``quarantined``.

One compactor per data directory at a time: ``flock`` on ``DATA_DIR/.compact.lock``,
non-blocking. A second one (another worker, or ``leakline compact``) skips its turn.
"""

from __future__ import annotations

import argparse
import errno
import fcntl
import os
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from leakline.pipeline.core.command import add_data_dir, register, run_standalone
from leakline.pipeline.core.config import from_env
from leakline.pipeline.core.errors import StoreError
from leakline.pipeline.store.layout import COMPACT_PREFIX, PART_PREFIX, PARTITION_KEY, samples_root
from leakline.pipeline.store.quarantine import Quarantined, quarantine_unreadable

LOCK_NAME = ".compact.lock"
SPILL_DIR = ".compact-spill"
TMP_PREFIX = ".compact-"
DEFAULT_GRACE_S = 600.0
# a day with this many compact files gets them merged into one
MERGE_AT = 32
DEDUPE_ORDER = "ingested_at, src_partition, src_offset"


@dataclass
class DayReport:
    day: str
    parts: int  # part files merged (and deleted)
    compact_files_merged: int  # older compact files of the day folded into the new one
    rows_in: int
    rows_kept: int
    written: Path | None
    seconds: float

    @property
    def duplicates_dropped(self) -> int:
        return self.rows_in - self.rows_kept


@dataclass
class CompactReport:
    data_dir: Path
    grace_s: float
    skipped: bool = False
    days: list[DayReport] = field(default_factory=list)
    waiting: int = 0  # part files still within the grace period
    errors: list[str] = field(default_factory=list)
    quarantined: list[Quarantined] = field(default_factory=list)  # unreadable files moved
    seconds: float = 0.0

    @property
    def files_merged(self) -> int:
        return sum(d.parts for d in self.days)

    @property
    def files_written(self) -> int:
        return sum(1 for d in self.days if d.written)

    @property
    def rows_kept(self) -> int:
        return sum(d.rows_kept for d in self.days)

    @property
    def duplicates_dropped(self) -> int:
        return sum(d.duplicates_dropped for d in self.days)

    def summary(self) -> str:
        if self.skipped:
            return (
                f"skipped: another compaction holds {self.data_dir / LOCK_NAME}; "
                "it will be merged by that one"
            )
        grace = f"{self.waiting} part file(s) still inside the {self.grace_s:g} s grace"
        if not self.days:
            text = f"nothing to merge ({grace}) in {self.seconds:.1f} s"
        else:
            folded = sum(d.compact_files_merged for d in self.days)
            text = (
                f"merged {self.files_merged} part file(s)"
                + (f" and {folded} compact file(s)" if folded else "")
                + f" of {len(self.days)} day(s) into {self.files_written} compact file(s):"
                f" kept {self.rows_kept:,} rows, dropped {self.duplicates_dropped:,}"
                f" duplicate(s) in {self.seconds:.1f} s; {grace}"
            )
        if self.quarantined:
            text += (
                f"; quarantined {len(self.quarantined)} unreadable file(s) in "
                f"{self.data_dir / 'quarantine'}: "
                + ", ".join(f"{q.original} ({q.reason[:120]})" for q in self.quarantined)
            )
        if self.errors:
            text += f"; {len(self.errors)} day(s) failed: " + "; ".join(self.errors)
        return text


def _sql_str(value: str | Path) -> str:
    return "'" + str(value).replace("'", "''") + "'"


def _sql_list(paths: Sequence[Path]) -> str:
    return "[" + ", ".join(_sql_str(p.as_posix()) for p in paths) + "]"


def _read(paths: Sequence[Path]) -> str:
    # hive_partitioning off: ``day`` comes from the directory and is never stored in a file
    return f"read_parquet({_sql_list(paths)}, union_by_name = true, hive_partitioning = false)"


@contextmanager
def compaction_lock(data_dir: Path) -> Iterator[bool]:
    """Yields True when this process holds the data dir's compaction lock, else False."""
    fd = os.open(data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _stamp(now: float) -> str:
    return datetime.fromtimestamp(now, UTC).strftime("%Y%m%dT%H%M%SZ")


def _fingerprint(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _fsync(path: Path, directory: bool = False) -> None:
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if directory else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _day_dirs(root: Path) -> list[Path]:
    return sorted(p for p in root.glob(f"{PARTITION_KEY}=*") if p.is_dir())


def _compact_files(day_dir: Path) -> list[Path]:
    return sorted(day_dir.glob(f"{COMPACT_PREFIX}*.parquet"))


def _demote(compacts: list[Path], now: float) -> list[Path]:
    """Rename compact files to part files, so the next write folds them into one."""
    demoted = []
    for path in compacts:
        target = path.with_name(
            f"{PART_PREFIX}compacted-{_stamp(now)}-{uuid.uuid4().hex[:8]}.parquet"
        )
        os.rename(path, target)
        demoted.append(target)
    return demoted


def _compact_day(
    con: Any,
    day_dir: Path,
    parts: list[Path],
    folded: list[Path],
    compacted: list[Path],
    now: float,
) -> DayReport:
    started = time.perf_counter()
    sources = parts + folded
    fingerprints = {p: _fingerprint(p) for p in parts}
    rows_in, distinct = con.execute(
        f"SELECT count(*), count(DISTINCT event_id) FROM {_read(sources)}"
    ).fetchone()
    # the earliest copy of each event_id among the sources (the window only when needed:
    # it costs as much as writing the file) ...
    query = f"SELECT * FROM {_read(sources)} f"
    # ... unless a compact file of any day has it already: the compact files stay unique
    # by event_id across the whole store, even for an event_id that came back with another
    # ts (and so on another day)
    if compacted:
        query += (
            f"\nWHERE NOT EXISTS (SELECT 1 FROM {_read(compacted)} c WHERE c.event_id = f.event_id)"
        )
    if distinct != rows_in:
        query += f"\nQUALIFY row_number() OVER (PARTITION BY event_id ORDER BY {DEDUPE_ORDER}) = 1"
    query += "\nORDER BY ts"
    name = f"{COMPACT_PREFIX}{_stamp(now)}-{uuid.uuid4().hex[:8]}.parquet"
    target = day_dir / name
    tmp = day_dir / f"{TMP_PREFIX}{name}.{os.getpid()}.tmp"
    try:
        row = con.execute(
            f"COPY ({query}) TO {_sql_str(tmp)} (FORMAT parquet, COMPRESSION zstd)"
        ).fetchone()
        rows_kept = int(row[0]) if row else 0
        if rows_kept:
            _fsync(tmp)
            os.replace(tmp, target)
            _fsync(day_dir, directory=True)
        else:
            tmp.unlink(missing_ok=True)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    # The rows are safely in ``target`` (or were compacted before): drop the sources. A part
    # re-written by a worker since we read it (new inode, size or mtime) is left for the
    # next run, which drops its already compacted rows.
    removed = 0
    for path, seen in fingerprints.items():
        if seen is not None and _fingerprint(path) == seen:
            path.unlink(missing_ok=True)
            removed += 1
    for path in folded:
        path.unlink(missing_ok=True)
    return DayReport(
        day=day_dir.name.partition("=")[2],
        parts=removed,
        compact_files_merged=len(folded),
        rows_in=int(rows_in),
        rows_kept=rows_kept,
        written=target if rows_kept else None,
        seconds=time.perf_counter() - started,
    )


def compact(
    data_dir: Path,
    grace_s: float = DEFAULT_GRACE_S,
    now: float | None = None,
    *,
    merge_at: int = MERGE_AT,
    threads: int | None = None,
    memory_limit: str | None = None,
    on_day: Callable[[DayReport], None] | None = None,
) -> CompactReport:
    """Merge every part file older than ``grace_s`` into one deduplicated compact file
    per day. ``now`` (epoch seconds) is for tests. ``threads`` / ``memory_limit`` bound
    DuckDB (a worker compacts with one thread). Raises StoreError when ``data_dir`` holds
    no store; a day that fails is reported in ``errors`` and left as it was."""
    import duckdb

    started = time.perf_counter()
    data_dir = Path(data_dir)
    root = samples_root(data_dir)
    if not root.is_dir():
        raise StoreError(
            f"no leakline store at {data_dir} (missing {root.name}/)",
            hint="pass the --data-dir a worker writes to (or set $LEAKLINE_DATA_DIR)",
        )
    report = CompactReport(data_dir=data_dir, grace_s=grace_s)
    with compaction_lock(data_dir) as held:
        if not held:
            report.skipped = True
            return report
        # one unreadable file would fail every day's merge (and every query)
        report.quarantined = quarantine_unreadable(data_dir)
        from leakline.pipeline.store.sink import ensure_placeholder  # pyarrow: load on use

        ensure_placeholder(data_dir)
        clock = time.time() if now is None else now
        cutoff_ns = int((clock - grace_s) * 1e9)
        for stale in root.glob(f"*/{TMP_PREFIX}*.tmp"):  # from a compactor that died
            stale.unlink(missing_ok=True)
        spill = data_dir / SPILL_DIR
        con = duckdb.connect()
        try:
            con.execute(f"SET temp_directory = {_sql_str(spill)}")
            if threads:
                con.execute(f"SET threads = {int(threads)}")
            if memory_limit:
                con.execute(f"SET memory_limit = {_sql_str(memory_limit)}")
            for day_dir in _day_dirs(root):
                parts = []
                for path in sorted(day_dir.glob(f"{PART_PREFIX}*.parquet")):
                    seen = _fingerprint(path)
                    if seen is None:
                        continue
                    if seen[2] <= cutoff_ns:
                        parts.append(path)
                    else:
                        report.waiting += 1
                if not parts:
                    continue
                day_compacts = _compact_files(day_dir)
                folded = _demote(day_compacts, clock) if len(day_compacts) + 1 >= merge_at else []
                # every day's compact files, this run's included (after the demotion)
                compacted = sorted(root.glob(f"*/{COMPACT_PREFIX}*.parquet"))
                try:
                    day = _compact_day(con, day_dir, parts, folded, compacted, clock)
                except (duckdb.Error, OSError) as exc:
                    report.errors.append(f"{day_dir.name}: {exc}")
                    continue
                report.days.append(day)
                if on_day:
                    on_day(day)
        finally:
            con.close()
            with suppress(OSError):
                spill.rmdir()  # DuckDB removes its spill files, not the directory
    report.seconds = time.perf_counter() - started
    return report


# ------------------------------------------------------------------ command line

DESCRIPTION = """\
Merge the older Parquet parts of DATA_DIR/samples into one deduplicated compact file per
day, so rate queries only dedupe the fresh tail instead of every stored row.

Parts older than --grace seconds are merged: their rows, deduplicated by event_id and
without events that are already compacted, go into DATA_DIR/samples/day=D/compact-*.parquet
(written under a temporary name, then renamed); then the parts are deleted. Every event
counts once before, during and after a compaction, and after a crash at any point. One
compaction runs at a time per data directory (a lock file); workers compact on their own
every 300 s (leakline worker --compact-every). Prints one summary line per run.
Each run first reads every Parquet file of the store and moves unreadable ones (truncated,
zeroed, garbled) to DATA_DIR/quarantine/day=D/, each with a NAME.reason.json (where it was,
why, its size): one such file would fail every query. Their events are then not counted
(`leakline rates` says so on stderr) until the file is repaired and moved back.
Exit status 0 when the run finished (or another compaction held the lock), 1 when a day
could not be compacted (it is left as it was)."""


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0 seconds, got {text}")
    return value


def _interval(text: str) -> float:
    value = _seconds(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0 seconds, got {text}")
    return value


def _configure(p: argparse.ArgumentParser) -> None:
    add_data_dir(p)
    p.add_argument(
        "--grace",
        type=_seconds,
        default=DEFAULT_GRACE_S,
        metavar="SECONDS",
        help="only merge part files not modified for this long (default: 600)",
    )
    p.add_argument(
        "--watch",
        type=_interval,
        metavar="SECONDS",
        help="run again every SECONDS until interrupted (default: run once)",
    )
    p.set_defaults(func=cmd_compact)


def add_parser(subparsers: Any) -> None:
    """Register ``compact`` on the ``leakline`` sub-command parsers."""
    register(
        subparsers,
        "compact",
        "merge older Parquet parts into deduplicated compact files (faster queries)",
        DESCRIPTION,
        _configure,
    )


def _refresh_views(data_dir: Path) -> None:
    """Views of a store made by an older leakline dedupe every row (correct, but slow):
    re-create them when the DuckDB file is free. Compaction is correct either way."""
    from leakline.pipeline.store.database import db_path, init_store

    if not db_path(data_dir).exists():
        return
    try:
        init_store(data_dir, timeout_s=5.0)
    except StoreError as exc:
        print(f"note: views not refreshed ({exc}); a worker start does it", file=sys.stderr)


def cmd_compact(args: argparse.Namespace) -> int:
    data_dir = from_env(data_dir=args.data_dir).data_dir
    if not samples_root(data_dir).is_dir():
        raise StoreError(
            f"no leakline store at {data_dir} (missing {samples_root(data_dir).name}/)",
            hint="pass the --data-dir a worker writes to (or set $LEAKLINE_DATA_DIR)",
        )

    def progress(day: DayReport) -> None:
        print(
            f"  day {day.day}: {day.parts + day.compact_files_merged} file(s), "
            f"{day.rows_kept:,} rows kept, {day.duplicates_dropped:,} duplicate(s) dropped "
            f"({day.seconds:.1f} s)",
            file=sys.stderr,
            flush=True,
        )

    first = True
    try:
        while True:
            report = compact(data_dir, grace_s=args.grace, on_day=progress)
            if first:  # after the first run: it moved unreadable files out of the views' way
                _refresh_views(data_dir)
                first = False
            stamp = f"{datetime.now().strftime('%H:%M:%S')} " if args.watch else ""
            print(f"{stamp}leakline compact {data_dir}: {report.summary()}", flush=True)
            if not args.watch:
                return 1 if report.errors else 0
            time.sleep(args.watch)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m leakline.pipeline.store.compact``: the same command without the ``leakline`` entry point."""
    return run_standalone("compact", DESCRIPTION, _configure, argv)


if __name__ == "__main__":
    sys.exit(main())
