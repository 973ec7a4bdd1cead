"""What the dashboard reads from the store: counts beyond the live 24 h, and one event.

Both open the DuckDB file read-only (``database.read_only``) and return plain data, so
the worker can hand them to the dashboard (``pipeline.live`` never imports the store).
Production rows only in the counts (gate replays stay out, as in ``rates``); one event is
found whatever its source.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import orjson

from leakline.pipeline.core.errors import StoreError
from leakline.pipeline.events.versions import VERSION_KEY_COLUMNS
from leakline.pipeline.store.database import UNREADABLE_HINT, execute_retrying, read_only

# the time column of each basis: the event's own ts, or when the worker stored it
BASIS_COLUMNS = {"event": "ts", "ingest": "ingested_at"}

EVENT_COLUMNS = (
    "event_id",
    "ts",
    "ingested_at",
    "api",
    "stream",
    *VERSION_KEY_COLUMNS,
    "model_revision",
    "template_hash",
    "gateway_name",
    "gateway_version",
    "finish_reason",
    "leaking",
    "labels",
    "findings",
    "detector_versions",
    "classifier_version",
    "remediation_action",
    "remediation_outcome",
    "text_stored",
    "visible_text",
    "reasoning_text",
    "event_json",
    "worker_id",
)


def history_rows(
    data_dir: Path, since: float, until: float, size: int, basis: str = "event"
) -> list[dict[str, Any]]:
    """Counts per version key and ``size``-second bucket of ``[since, until)`` (epoch
    seconds): the version columns, ``bucket`` (its start), ``total``, ``leaking``,
    ``labels`` ({label: n}) and ``dead_lettered`` (always 0: dead letters are not stored)."""
    if basis not in BASIS_COLUMNS:
        raise ValueError(f"basis must be one of {', '.join(BASIS_COLUMNS)}")
    column = BASIS_COLUMNS[basis]
    dims = ", ".join(VERSION_KEY_COLUMNS)
    bucket = f"floor(epoch({column}) / {int(size)}) * {int(size)}"
    where = (
        f"row_source(src_topic) = 'production' AND {column} >= to_timestamp(?) "
        f"AND {column} < to_timestamp(?)"
    )
    counts_sql = f"""SELECT {dims}, {bucket} AS bucket, count(*) AS total,
    count(*) FILTER (WHERE leaking) AS leaking
FROM samples WHERE {where} GROUP BY ALL"""
    labels_sql = f"""SELECT {dims}, {bucket} AS bucket, label, count(*) AS n
FROM (SELECT *, unnest(labels) AS label FROM samples WHERE {where}) GROUP BY ALL"""
    try:
        with read_only(data_dir) as con:
            counts = execute_retrying(con, counts_sql, [since, until]).fetchall()
            labels = execute_retrying(con, labels_sql, [since, until]).fetchall()
    except duckdb.Error as exc:
        raise StoreError(f"history query failed: {exc}", hint=UNREADABLE_HINT) from exc
    width = len(VERSION_KEY_COLUMNS)
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in counts:
        out[row[: width + 1]] = {
            **dict(zip(VERSION_KEY_COLUMNS, row[:width], strict=True)),
            "bucket": float(row[width]),
            "total": int(row[width + 1]),
            "leaking": int(row[width + 2]),
            "labels": {},
            "dead_lettered": 0,
        }
    for row in labels:
        entry = out.get(row[: width + 1])
        if entry is not None:
            entry["labels"][str(row[width + 1])] = int(row[width + 2])
    return list(out.values())


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    return value


def find_event(data_dir: Path, event_id: str) -> dict[str, Any] | None:
    """The stored row of ``event_id`` (first copy), with ``findings``, ``event_json`` and
    ``detector_versions`` parsed; None when the store has no such event."""
    sql = (
        f"SELECT {', '.join(EVENT_COLUMNS)}, row_source(src_topic) AS source "
        "FROM samples WHERE event_id = ? LIMIT 1"
    )
    try:
        with read_only(data_dir) as con:
            cursor = execute_retrying(con, sql, [event_id])
            names = [d[0] for d in cursor.description]
            row = cursor.fetchone()
    except duckdb.Error as exc:
        raise StoreError(f"event query failed: {exc}", hint=UNREADABLE_HINT) from exc
    if row is None:
        return None
    out = {name: _plain(value) for name, value in zip(names, row, strict=True)}
    for name in ("findings", "event_json", "detector_versions"):
        text = out.get(name)
        if isinstance(text, str):
            try:
                out[name] = orjson.loads(text)
            except orjson.JSONDecodeError:
                out[name] = None
    return out
