"""Unreadable Parquet files: found, moved out of the dataset, and reported.

One truncated, zeroed or garbled file under ``DATA_DIR/samples`` makes every query over the
dataset fail (DuckDB reads every file's footer, and the views union them all). Such files
are moved to ``DATA_DIR/quarantine/day=D/`` with a ``<name>.reason.json`` beside each
(where it was, why it is unreadable, its size and, when the footer still says, its row
count), so the rest stays queryable. The events in a quarantined file are not counted
until it is repaired and moved back; ``leakline rates`` says so on stderr.

``leakline compact`` and the worker's periodic compaction look for such files (a full
read of each file once per process and fingerprint); a worker also checks every footer
before it (re)creates the views at start.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from leakline.pipeline.store.layout import samples_root

QUARANTINE_DIR = "quarantine"
REASON_SUFFIX = ".reason.json"

# files fully read without error, by path: (inode, size, mtime_ns) when they were
_verified: dict[Path, tuple[int, int, int]] = {}
_verified_lock = threading.Lock()


@dataclass(frozen=True)
class Quarantined:
    path: Path  # where the file is now
    original: str  # where it was, relative to the data dir
    reason: str
    size: int


def quarantine_root(data_dir: Path) -> Path:
    return data_dir / QUARANTINE_DIR


def _fingerprint(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def unreadable(path: Path, full: bool = True) -> str | None:
    """Why ``path`` cannot be read as Parquet, or None when it can (or is gone).

    ``full`` reads every row group (a garbled page behind a good footer); otherwise
    only the footer and schema, which is what DuckDB reads to bind a view.
    """
    import pyarrow.parquet as pq

    seen = _fingerprint(path)
    if seen is None:
        return None
    with _verified_lock:
        if _verified.get(path) == seen:
            return None
    try:
        parquet = pq.ParquetFile(path)
        if full:
            for group in range(parquet.num_row_groups):
                parquet.read_row_group(group, use_threads=False)
    except FileNotFoundError:
        return None  # merged by a compaction meanwhile
    except Exception as exc:  # pyarrow raises several types for damaged files
        if _fingerprint(path) != seen:
            return None  # replaced while read (a worker re-wrote the part): not damaged
        return f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:1000]
    if full:
        with _verified_lock:
            _verified[path] = seen
    return None


def _rows_in_footer(path: Path) -> int | None:
    """How many rows the file held, when its footer still says (a garbled page)."""
    import pyarrow.parquet as pq

    try:
        return int(pq.read_metadata(path).num_rows)
    except Exception:  # the footer is damaged too
        return None


def move_to_quarantine(data_dir: Path, path: Path, reason: str) -> Quarantined | None:
    """Move one file to ``DATA_DIR/quarantine/`` with its reason file; None if it is gone."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None  # another process moved or merged it
    original = path.relative_to(data_dir).as_posix()
    target_dir = quarantine_root(data_dir) / path.parent.name
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / path.name
    n = 1
    while target.exists():  # a part name can come back (a batch processed again)
        target = target_dir / f"{path.stem}.{n}{path.suffix}"
        n += 1
    note = {
        "original_path": original,
        "reason": reason,
        "size": size,
        "rows": _rows_in_footer(path),
        "quarantined_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "by": f"pid {os.getpid()}",
    }
    # the reason first: a crash in between leaves a reason without a file, never the reverse
    target.with_name(target.name + REASON_SUFFIX).write_text(json.dumps(note, indent=1) + "\n")
    try:
        os.replace(path, target)
    except FileNotFoundError:
        target.with_name(target.name + REASON_SUFFIX).unlink(missing_ok=True)
        return None
    return Quarantined(target, original, reason, size)


def quarantine_unreadable(data_dir: Path, full: bool = True) -> list[Quarantined]:
    """Check every Parquet file of the dataset; move the unreadable ones to quarantine."""
    moved = []
    root = samples_root(data_dir)
    paths = sorted(root.glob("*/*.parquet"))
    for path in paths:
        reason = unreadable(path, full)
        if reason is not None:
            done = move_to_quarantine(data_dir, path, reason)
            if done is not None:
                moved.append(done)
    with _verified_lock:  # forget merged parts: a worker runs for weeks
        present = set(paths)
        for gone in [p for p in _verified if p.is_relative_to(root) and p not in present]:
            del _verified[gone]
    return moved


@dataclass(frozen=True)
class QuarantineSummary:
    files: int
    size: int
    rows: int  # rows the footers of the quarantined files still name (a lower bound)
    root: Path

    def note(self) -> str:
        rows = f", at least {self.rows:,} rows" if self.rows else ""
        return (
            f"note: {self.files} unreadable file(s) ({self.size:,} bytes{rows}) are in "
            f"quarantine at {self.root}: the events in them are not counted (see the "
            f"*{REASON_SUFFIX} files there)"
        )


def quarantine_summary(data_dir: Path) -> QuarantineSummary | None:
    """What is in quarantine now, or None when nothing is."""
    root = quarantine_root(data_dir)
    files = list(root.glob("*/*.parquet")) if root.is_dir() else []
    if not files:
        return None
    rows = 0
    for path in files:
        try:
            note = json.loads(path.with_name(path.name + REASON_SUFFIX).read_text())
            rows += int(note.get("rows") or 0)
        except (OSError, ValueError, TypeError, AttributeError):
            pass  # a reason file missing or edited by hand: the count is a lower bound
    return QuarantineSummary(len(files), sum(p.stat().st_size for p in files), rows, root)
