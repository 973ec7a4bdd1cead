"""Learned marker suggestions on disk: ``DATA_DIR/markers/<worker>.json``.

The worker's fleet learner (``pipeline/worker/marker_learner.py``) writes one file per
worker (workers sharing a data directory never write each other's file), atomically;
``leakline families suggest`` reads them all, and ``leakline families accept ID`` turns a
suggestion's family row into an imported family (``family_files``: the same file and
validation as ``families import``, so running workers reload it without a restart).

A suggestion is never a label: nothing is labelled until its row is accepted. Whether a
suggestion was accepted is read from the families file (a row named ``row_name(id)``), so
the worker's file stays the worker's alone.

File format::

    {"format": "leakline.marker-suggestions/1", "worker": "...", "updated": "...",
     "suggestions": [{"id", "group": {"model", "engine", "engine_version",
                      "template_hash"}, "shape": [literal] or [open, close], "kind",
                      "where", "first_seen", "last_seen", "count", "events", "rate",
                      "interval", "prompt_count", "others_count", "others_events",
                      "examples", "row"}, ...]}
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.families import files as ff

FORMAT = "leakline.marker-suggestions/1"
FOLDER = "markers"
ROW_PREFIX = "learned-"


class SuggestionError(LeaklineError):
    """A suggestion cannot be read or accepted; nothing was written."""


def folder(data_dir: Path) -> Path:
    return Path(data_dir) / FOLDER


def worker_path(data_dir: Path, worker_id: str) -> Path:
    """The file one worker writes (its id made safe for a file name)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in worker_id) or "worker"
    return folder(data_dir) / f"{safe}.json"


def row_name(suggestion_id: str) -> str:
    """The family name an accepted suggestion's row gets."""
    return ROW_PREFIX + suggestion_id


def write(path: Path, worker_id: str, updated: str, suggestions: Sequence[dict[str, Any]]) -> None:
    """Write one worker's suggestions atomically (a reader sees the old file or the new one)."""
    doc = {
        "format": FORMAT,
        "worker": worker_id,
        "updated": updated,
        "suggestions": list(suggestions),
    }
    data = orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def read_all(data_dir: Path) -> list[dict[str, Any]]:
    """Every worker's suggestions, one per id (the one seen most wins), each with its
    ``status``: ``accepted`` when the families file has its row, else ``new``. Files that
    do not read are skipped: a worker may be replacing one."""
    best: dict[str, dict[str, Any]] = {}
    base = folder(data_dir)
    paths = sorted(base.glob("*.json")) if base.is_dir() else []
    for path in paths:
        try:
            doc = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            continue
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            continue
        for item in doc.get("suggestions") or []:
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                continue
            item = {**item, "worker": doc.get("worker")}
            seen = best.get(item["id"])
            if seen is None or int(item.get("count") or 0) > int(seen.get("count") or 0):
                best[item["id"]] = item
    accepted = {row.name for row in ff.read_families(ff.families_path(data_dir))}
    out = []
    for item in best.values():
        item["status"] = "accepted" if row_name(item["id"]) in accepted else "new"
        out.append(item)
    out.sort(key=lambda s: (str(s.get("first_seen") or ""), s["id"]))
    return out


def matches(item: dict[str, Any], where: Sequence[str]) -> bool:
    """``--where field=value`` filters: every one must hold (``model``, ``engine``,
    ``engine_version``, ``template_hash``, ``status``, ``kind``, ``id``; ``~`` for a substring)."""
    for clause in where:
        op = (
            "~"
            if "~" in clause and ("=" not in clause or clause.find("~") < clause.find("="))
            else "="
        )
        name, _, value = clause.partition(op)
        name = name.strip()
        group = item.get("group") or {}
        actual = group.get(name) if name in group else item.get(name)
        if name not in group and name not in ("status", "kind", "id", "worker"):
            raise SuggestionError(
                f"cannot filter suggestions by {name!r}",
                hint="use model, engine, engine_version, template_hash, status, kind, id or worker",
            )
        actual = "" if actual is None else str(actual)
        if (op == "=" and actual != value) or (op == "~" and value not in actual):
            return False
    return True


def accept(data_dir: Path, suggestion_id: str) -> tuple[dict[str, Any], Path]:
    """Write the suggestion's row into the families file; returns (row, families file)."""
    from leakline.detectors.families import family_from_dict

    items = [s for s in read_all(data_dir) if s["id"] == suggestion_id]
    if not items:
        known = ", ".join(s["id"] for s in read_all(data_dir)) or "none"
        raise SuggestionError(
            f"no suggestion {suggestion_id!r}",
            hint=f"leakline families suggest lists them (known: {known})",
        )
    item = items[0]
    if item["status"] == "accepted":
        raise SuggestionError(
            f"suggestion {suggestion_id} was accepted already",
            hint=f"leakline families show {row_name(suggestion_id)}",
        )
    try:
        row = family_from_dict(item["row"])
    except (ValueError, KeyError, TypeError) as exc:
        raise SuggestionError(f"suggestion {suggestion_id} has no usable row: {exc}") from None
    path = ff.families_path(data_dir)
    rows = ff.merge(ff.read_families(path), row, replace=False)
    ff.write_families(path, rows)
    return item["row"], path


def render(items: Sequence[dict[str, Any]], fmt: str) -> str:
    """``families suggest`` output: JSON (one document) or a table."""
    if fmt == "json":
        return (
            orjson.dumps({"suggestions": list(items)}, option=orjson.OPT_INDENT_2).decode() + "\n"
        )
    if not items:
        return "no suggestions\n"
    lines = []
    for s in items:
        group = s.get("group") or {}
        low, high = (s.get("interval") or [0.0, 0.0])[:2]
        lines.append(
            f"{s['id']}  {s.get('status', 'new'):<8} {' … '.join(s.get('shape') or [])}"
            f"  ({s.get('kind')}, {'/'.join(s.get('where') or [])})"
        )
        lines.append(
            f"    group: {group.get('model')} {group.get('engine')} "
            f"{group.get('engine_version')} template {group.get('template_hash')}"
        )
        lines.append(
            f"    {s.get('count')} of {s.get('events')} responses, rate in [{low:.4f}, "
            f"{high:.4f}]; prompts {s.get('prompt_count')}; other versions "
            f"{s.get('others_count')} of {s.get('others_events')} ({s.get('baseline')}); "
            f"first seen {s.get('first_seen')}"
        )
        for example in s.get("examples") or []:
            lines.append(f"    e.g. {example!r}")
        row = s.get("row") or {}
        lines.append(f"    row: {orjson.dumps(row).decode()}")
    from leakline.pipeline.core.term import safe

    # shapes, examples and versions are learned from traffic: one printable line each
    return "\n".join(safe(line) for line in lines) + "\n"
