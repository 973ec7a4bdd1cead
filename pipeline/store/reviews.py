"""Reviewed labels: append-only Parquet parts beside the samples dataset.

A review never rewrites a sample row. Each decision is one row in
``DATA_DIR/reviews/part-*.parquet``; the DuckDB view ``reviews_latest`` keeps the
newest review per event_id, and ``samples_reviewed`` puts its labels in front of
the machine labels (``effective_labels``, ``label_source``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.store.layout import reviews_root
from leakline.pipeline.store.sink import atomic_write

PLACEHOLDER_NAME = "_empty.parquet"
REVIEW_SCHEMA_VERSION = 1

REVIEW_SCHEMA = pa.schema(
    [
        ("review_id", pa.string()),
        ("event_id", pa.string()),
        ("labels", pa.list_(pa.string())),  # the reviewed labels; [] = clean
        ("previous_labels", pa.list_(pa.string())),  # effective labels before this review
        ("machine_labels", pa.list_(pa.string())),
        ("action", pa.string()),  # accept | correct
        ("reviewer", pa.string()),
        ("reviewed_at", pa.timestamp("us", tz="UTC")),
        ("note", pa.string()),
        ("schema_version", pa.int16()),
    ]
)


def ensure_review_placeholder(data_dir: Path) -> None:
    """A zero-row part so the review views resolve before the first review."""
    target = reviews_root(data_dir) / PLACEHOLDER_NAME
    if not target.exists():
        atomic_write(REVIEW_SCHEMA.empty_table(), target)


class UnknownLabelError(LeaklineError):
    pass


def parse_labels(text: str) -> list[str]:
    """``"preamble, reasoning_leak"`` -> sorted distinct labels; empty text -> [] (clean)."""
    names = sorted({part.strip() for part in text.split(",") if part.strip()})
    unknown = [n for n in names if n not in ALL_LABELS]
    if unknown:
        raise UnknownLabelError(
            f"unknown label(s): {', '.join(unknown)}",
            hint="labels are: " + ", ".join(ALL_LABELS) + " (empty = clean)",
        )
    return names


@dataclass(frozen=True, slots=True)
class Review:
    event_id: str
    labels: tuple[str, ...]
    previous_labels: tuple[str, ...]
    machine_labels: tuple[str, ...]
    action: str  # accept | correct
    reviewer: str
    note: str | None = None


class ReviewWriter:
    """Buffers reviews and writes them as one new part per flush.

    Timestamps strictly increase within a writer, so "latest review wins" is well
    defined even for two decisions on one event within the same microsecond.
    """

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.pending: list[tuple[Review, datetime]] = []
        self.written: list[Path] = []
        self._last = datetime.min.replace(tzinfo=UTC)

    def add(self, review: Review) -> None:
        now = datetime.now(UTC)
        if now <= self._last:
            now = self._last + timedelta(microseconds=1)
        self._last = now
        self.pending.append((review, now))

    def flush(self) -> Path | None:
        if not self.pending:
            return None
        table = reviews_table(self.pending)
        stamp = self.pending[0][1].strftime("%Y%m%dT%H%M%S%f")
        target = reviews_root(self.data_dir) / f"part-{stamp}-{uuid.uuid4().hex[:8]}.parquet"
        ensure_review_placeholder(self.data_dir)
        atomic_write(table, target)
        self.pending.clear()
        self.written.append(target)
        return target


def reviews_table(items: Sequence[tuple[Review, datetime]]) -> pa.Table:
    columns: dict[str, list[object]] = {name: [] for name in REVIEW_SCHEMA.names}
    for review, at in items:
        columns["review_id"].append(uuid.uuid4().hex)
        columns["event_id"].append(review.event_id)
        columns["labels"].append(list(review.labels))
        columns["previous_labels"].append(list(review.previous_labels))
        columns["machine_labels"].append(list(review.machine_labels))
        columns["action"].append(review.action)
        columns["reviewer"].append(review.reviewer)
        columns["reviewed_at"].append(at)
        columns["note"].append(review.note)
        columns["schema_version"].append(REVIEW_SCHEMA_VERSION)
    return pa.table(columns, schema=REVIEW_SCHEMA)
