"""``leakline export``: labeled samples from the store as training data and regression cases.

Reads ``samples_reviewed`` (a review overrides the machine labels) through a
read-only DuckDB connection, keeps rows whose text was stored, dedupes them by
normalised text, stratifies by version, adds clean negatives at a stated ratio and
writes ``samples.jsonl`` + ``samples.parquet`` + ``manifest.json`` (contract 2).
With ``--regression DIR`` it also writes contract-1 regression cases.

Every choice is deterministic (hash order, never random; no clock in hashed
content), so exporting the same range twice gives byte-identical JSONL.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
import unicodedata
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.core.command import add_data_dir, register, run_standalone
from leakline.pipeline.core.config import from_env
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.events.versions import VERSION_COLUMNS, VERSION_KEY_COLUMNS
from leakline.pipeline.query import filters

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

EXPORT_FORMAT = "leakline.export/1"
SAMPLES_JSONL = "samples.jsonl"
SAMPLES_PARQUET = "samples.parquet"
MANIFEST = "manifest.json"
DEFAULT_CLEAN_RATIO = 0.3
DEFAULT_PER_VERSION_CAP = 1000
MACHINE_SOURCES = ("rule", "heuristic", "classifier")
SOURCES = (*MACHINE_SOURCES, "reviewed")
APIS = ("chat.completions", "responses", "messages")
# contract-3 version key: what "one version" means when stratifying
STRATA_COLUMNS = VERSION_KEY_COLUMNS
_ROW_COLUMNS = (
    "event_id",
    "ts",
    "api",
    "stream",
    *VERSION_COLUMNS,
    "labels",
    "effective_labels",
    "label_source",
    "sources",
    "findings",
    "visible_text",
    "reasoning_text",
)


# ------------------------------------------------------------------ filter


@dataclass(frozen=True)
class ExportFilter:
    """Which stored rows may be exported. Values are bound parameters, never SQL."""

    since: datetime | None = None
    until: datetime | None = None
    labels: tuple[str, ...] = ()  # leaking rows must carry one of these (effective labels)
    versions: tuple[tuple[str, str], ...] = ()  # (event-contract field, value)
    api: str | None = None
    stream: bool | None = None
    sources: tuple[str, ...] = ()  # tiers that labelled a leaking row; "reviewed" = a person

    def to_dict(self) -> dict[str, Any]:
        by_field: dict[str, list[str]] = defaultdict(list)
        for name, value in self.versions:
            by_field[name].append(value)
        return {
            "since": _rfc3339(self.since) if self.since else None,
            "until": _rfc3339(self.until) if self.until else None,
            "labels": sorted(self.labels),
            "versions": {k: sorted(v) for k, v in sorted(by_field.items())},
            "api": self.api,
            "stream": self.stream,
            "sources": sorted(self.sources),
        }


@dataclass(frozen=True)
class ExportOptions:
    clean_ratio: float = DEFAULT_CLEAN_RATIO  # share of clean negatives in the output
    per_version_cap: int | None = DEFAULT_PER_VERSION_CAP  # per version, leaking and clean each

    def to_dict(self) -> dict[str, Any]:
        return {"clean_ratio": self.clean_ratio, "per_version_cap": self.per_version_cap}


def parse_time(text: str, flag: str) -> datetime:
    """RFC 3339 or a relative duration (``7d``): the one grammar of ``query.filters``."""
    return filters.parse_time(text, flag)


def parse_version_filters(items: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """``--version FIELD=VALUE`` pairs (a bare VALUE means engine.version), the older
    spelling of ``--where``; fields are whitelisted (``query.filters.FIELDS``)."""
    return filters.parse_pairs(items, "--version", bare="engine.version")


def check_labels(labels: Iterable[str]) -> tuple[str, ...]:
    names = tuple(sorted({label.strip() for label in labels if label.strip()}))
    unknown = [n for n in names if n not in ALL_LABELS]
    if unknown:
        raise LeaklineError(
            f"unknown label(s): {', '.join(unknown)}", hint="labels are: " + ", ".join(ALL_LABELS)
        )
    return names


def build_query(flt: ExportFilter, columns: Sequence[str]) -> tuple[str, list[Any]]:
    """SELECT over ``samples_reviewed``: column names from a whitelist, values bound."""
    where = filters.Where(flt.versions, flt.since, flt.until)  # the one filter grammar
    window, params = where.sql()
    conditions = ["text_stored", *window]
    if flt.api:
        conditions.append("api = ?")
        params.append(flt.api)
    if flt.stream is not None:
        conditions.append("stream = ?")
        params.append(flt.stream)
    # label and source filters pick leaking rows; clean rows stay candidates for negatives
    positive = []
    if flt.labels:
        positive.append("list_has_any(effective_labels, CAST(? AS VARCHAR[]))")
        params.append(list(flt.labels))
    tiers = [s for s in flt.sources if s in MACHINE_SOURCES]
    reviewed = "reviewed" in flt.sources
    if flt.sources:
        either = []
        if tiers:
            either.append("list_has_any(sources, CAST(? AS VARCHAR[]))")
            params.append(tiers)
        if reviewed:
            either.append("label_source = 'reviewed'")
        positive.append("(" + " OR ".join(either) + ")")
    clean = "len(effective_labels) = 0"
    if reviewed and not tiers:
        clean += " AND label_source = 'reviewed'"
    if positive:
        conditions.append(
            f"(({clean}) OR (len(effective_labels) > 0 AND {' AND '.join(positive)}))"
        )
    sql = (
        f"SELECT {', '.join(columns)} FROM samples_reviewed\n"
        f"WHERE {' AND '.join(conditions)}\nORDER BY ts, event_id"
    )
    return sql, params


# ------------------------------------------------------------------ reading


def fetch_candidates(
    con: duckdb.DuckDBPyConnection,
    data_dir: Path,
    flt: ExportFilter,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Text-stored rows matching the filter, oldest first, with effective labels."""
    import duckdb

    from leakline.pipeline.core.errors import StoreError
    from leakline.pipeline.store.database import ensure_review_views

    try:
        ensure_review_views(con, data_dir)
        present = {d[0] for d in con.execute("SELECT * FROM samples_reviewed LIMIT 0").description}
        # rows written before the event_json column existed simply have no case to offer
        event_json = "event_json" if "event_json" in present else "NULL AS event_json"
        sql, params = build_query(flt, [*_ROW_COLUMNS, event_json])
        total_row = con.execute(f"SELECT count(*) FROM ({sql})", params).fetchone()
        total = int(total_row[0]) if total_row else 0
        cursor = con.execute(sql, params)
        names = [d[0] for d in cursor.description]
        rows: list[dict[str, Any]] = []
        while batch := cursor.fetchmany(2000):
            rows.extend(dict(zip(names, row, strict=True)) for row in batch)
            if on_progress:
                on_progress(len(rows), total)
    except duckdb.Error as exc:
        raise StoreError(f"export query failed: {exc}") from exc
    if on_progress:
        on_progress(len(rows), len(rows))
    return rows


# ------------------------------------------------------------------ selection

_SPACE = re.compile(r"\s+")
_DIGITS = re.compile(r"\d+")


def normalise_text(text: str | None) -> str:
    """Case-folded, NFKC, digits masked, whitespace collapsed: near-copies compare equal."""
    if not text:
        return ""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _SPACE.sub(" ", _DIGITS.sub("0", folded)).strip()


def text_key(row: dict[str, Any]) -> str:
    """The dedupe key (and case id source): api + normalised visible and reasoning text.

    With no text at all (a tool call with broken arguments, reasoning cut by length)
    the findings' evidence and labels stand in, so such rows do not all collapse.
    """
    visible = normalise_text(row.get("visible_text"))
    reasoning = normalise_text(row.get("reasoning_text"))
    material = f"{row.get('api')}\x1f{visible}\x1f{reasoning}"
    if not visible and not reasoning:
        evidence = sorted(f.get("evidence", "") for f in _findings(row))
        material += "\x1e" + normalise_text("\x1f".join(evidence))
        material += "\x1e" + ",".join(sorted(row.get("effective_labels") or ()))
    return hashlib.sha256(material.encode()).hexdigest()


def _findings(row: dict[str, Any]) -> list[dict[str, Any]]:
    import orjson

    raw = row.get("findings")
    if not raw:
        return []
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return []
    return [f for f in value if isinstance(f, dict)] if isinstance(value, list) else []


def version_key(row: dict[str, Any]) -> str:
    return "|".join(str(row.get(c) or "unknown") for c in STRATA_COLUMNS)


@dataclass
class Candidate:
    """One distinct text: the earliest row with it, and every event that repeated it."""

    row: dict[str, Any]
    key: str
    event_ids: list[str] = field(default_factory=list)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(sorted(self.row.get("effective_labels") or ()))

    @property
    def version(self) -> str:
        return version_key(self.row)


@dataclass
class Selection:
    samples: list[Candidate]
    candidates: int = 0  # rows read
    distinct: int = 0  # after dedupe
    leaking_available: int = 0
    clean_available: int = 0
    capped: int = 0  # leaking distinct texts left out by the per-version cap
    clean_wanted: int = 0
    warnings: list[str] = field(default_factory=list)

    def stats(self) -> dict[str, Any]:
        return {
            "rows_read": self.candidates,
            "distinct_texts": self.distinct,
            "duplicates_dropped": self.candidates - self.distinct,
            "leaking_available": self.leaking_available,
            "clean_available": self.clean_available,
            "leaking_capped": self.capped,
            "clean_wanted": self.clean_wanted,
        }


def dedupe(rows: Iterable[dict[str, Any]]) -> list[Candidate]:
    """Rows must come oldest first: the first row with a text represents it."""
    groups: dict[str, Candidate] = {}
    for row in rows:
        key = text_key(row)
        found = groups.get(key)
        if found is None:
            groups[key] = Candidate(row, key, [row["event_id"]])
        else:
            found.event_ids.append(row["event_id"])
    return list(groups.values())


def _interleave(buckets: dict[Any, list[Candidate]]) -> list[Candidate]:
    """Round-robin over buckets (sorted by name), each bucket in hash order."""
    ordered = [sorted(buckets[name], key=lambda c: c.key) for name in sorted(buckets)]
    out: list[Candidate] = []
    depth = max((len(b) for b in ordered), default=0)
    for i in range(depth):
        out.extend(bucket[i] for bucket in ordered if i < len(bucket))
    return out


def select(rows: Sequence[dict[str, Any]], options: ExportOptions) -> Selection:
    """Dedupe, cap per version, add clean negatives; deterministic throughout."""
    distinct = dedupe(rows)
    selection = Selection([], candidates=len(rows), distinct=len(distinct))
    cap = options.per_version_cap
    by_version: dict[str, list[Candidate]] = defaultdict(list)
    clean_by_version: dict[str, list[Candidate]] = defaultdict(list)
    for cand in distinct:
        (by_version if cand.labels else clean_by_version)[cand.version].append(cand)
    chosen: list[Candidate] = []
    for version in sorted(by_version):
        # within a version, alternate between label sets so a cap keeps the rare ones
        by_labels: dict[tuple[str, ...], list[Candidate]] = defaultdict(list)
        for cand in by_version[version]:
            by_labels[cand.labels].append(cand)
        ordered = _interleave(by_labels)
        kept = ordered if cap is None else ordered[:cap]
        selection.capped += len(ordered) - len(kept)
        chosen.extend(kept)
    selection.leaking_available = sum(len(v) for v in by_version.values())
    selection.clean_available = sum(len(v) for v in clean_by_version.values())
    ratio = options.clean_ratio
    wanted = int(len(chosen) * ratio / (1.0 - ratio) + 0.5) if ratio < 1.0 else 0
    selection.clean_wanted = wanted
    pools = {
        v: sorted(c, key=lambda x: x.key)[:cap] if cap is not None else c
        for v, c in clean_by_version.items()
    }
    cleans = _interleave(pools)[:wanted]
    if len(cleans) < wanted:
        selection.warnings.append(
            f"only {len(cleans)} clean negatives with stored text for the {wanted} that a "
            f"clean ratio of {ratio} asks for; raise the worker's --clean-text-rate"
        )
    chosen.extend(cleans)
    chosen.sort(key=lambda c: (c.row["ts"], c.row["event_id"]))
    selection.samples = chosen
    return selection


# ------------------------------------------------------------------ output


def _rfc3339(value: datetime) -> str:
    value = value.astimezone(UTC)
    text = value.strftime("%Y-%m-%dT%H:%M:%S")
    if value.microsecond:
        text += f".{value.microsecond:06d}"
    return text + "Z"


def _versions(row: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        "engine": {"name": row["engine_name"], "version": row["engine_version"]},
        "model": {"name": row["model_name"], "revision": row["model_revision"]},
        "chat_template": {"name": row["template_name"], "hash": row["template_hash"]},
        "parsers": {"reasoning": row["reasoning_parser"], "tool_call": row["tool_call_parser"]},
        "gateway": {"name": row["gateway_name"], "version": row["gateway_version"]},
    }


def export_line(cand: Candidate) -> dict[str, Any]:
    """One contract-2 line."""
    from leakline.pipeline.events.lang import guess_lang

    row = cand.row
    reviewed = row["label_source"] == "reviewed"
    sources = set(row.get("sources") or ())
    if reviewed:
        sources.add("reviewed")
    text = row.get("visible_text") or ""
    reasoning = row.get("reasoning_text") or None
    return {
        "event_id": row["event_id"],
        "ts": _rfc3339(row["ts"]),
        "api": row["api"],
        "stream": bool(row["stream"]),
        **_versions(row),
        "labels": list(cand.labels),
        "machine_labels": sorted(row.get("labels") or ()),
        "label_source": "reviewed" if reviewed else "machine",
        "sources": sorted(sources),
        "text": text,
        "reasoning_text": reasoning,
        "lang": guess_lang(text or reasoning or ""),
    }


def _struct(*names: str) -> pa.DataType:
    import pyarrow as pa

    return pa.struct([(n, pa.string()) for n in names])


def export_schema() -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [
            ("event_id", pa.string()),
            ("ts", pa.timestamp("us", tz="UTC")),
            ("api", pa.string()),
            ("stream", pa.bool_()),
            ("engine", _struct("name", "version")),
            ("model", _struct("name", "revision")),
            ("chat_template", _struct("name", "hash")),
            ("parsers", _struct("reasoning", "tool_call")),
            ("gateway", _struct("name", "version")),
            ("labels", pa.list_(pa.string())),
            ("machine_labels", pa.list_(pa.string())),
            ("label_source", pa.string()),
            ("sources", pa.list_(pa.string())),
            ("text", pa.string()),
            ("reasoning_text", pa.string()),
            ("lang", pa.string()),
        ]
    )


def _atomic_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _sha256_file(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def _counts(lines: Sequence[dict[str, Any]], versions: Sequence[str]) -> dict[str, Any]:
    by_label: Counter[str] = Counter()
    for line in lines:
        by_label.update(line["labels"])
    clean = sum(1 for line in lines if not line["labels"])
    return {
        "total": len(lines),
        "leaking": len(lines) - clean,
        "clean": clean,
        "by_label": dict(sorted(by_label.items())),
        "by_version": dict(sorted(Counter(versions).items())),
        "by_lang": dict(sorted(Counter(line["lang"] for line in lines).items())),
        "by_label_source": dict(sorted(Counter(line["label_source"] for line in lines).items())),
    }


def _version_list(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    import orjson

    seen: dict[bytes, dict[str, Any]] = {}
    for row in rows:
        versions = _versions(row)
        seen.setdefault(orjson.dumps(versions, option=orjson.OPT_SORT_KEYS), versions)
    return [seen[k] for k in sorted(seen)]


def write_samples(
    out: Path,
    selection: Selection,
    flt: ExportFilter,
    options: ExportOptions,
    on_progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Write samples.jsonl, samples.parquet and manifest.json; return the manifest."""
    import orjson
    import pyarrow as pa
    import pyarrow.parquet as pq

    out.mkdir(parents=True, exist_ok=True)
    lines = []
    blob = bytearray()
    total = len(selection.samples)
    for i, cand in enumerate(selection.samples, 1):
        line = export_line(cand)
        lines.append(line)
        blob += orjson.dumps(line, option=orjson.OPT_SORT_KEYS) + b"\n"
        if on_progress and (i % 500 == 0 or i == total):
            on_progress(i, total)
    jsonl = out / SAMPLES_JSONL
    _atomic_bytes(jsonl, bytes(blob))
    table = pa.Table.from_pylist(
        [
            {**line, "ts": cand.row["ts"]}
            for line, cand in zip(lines, selection.samples, strict=True)
        ],
        schema=export_schema(),
    )
    parquet = out / SAMPLES_PARQUET
    tmp = parquet.with_name(f".{parquet.name}.{os.getpid()}.tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, parquet)
    manifest = {
        "format": EXPORT_FORMAT,
        "created_at": _rfc3339(datetime.now(UTC)),
        "filter": {**flt.to_dict(), **options.to_dict()},
        "counts": _counts(lines, [c.version for c in selection.samples]),
        "versions": _version_list(c.row for c in selection.samples),
        "selection": selection.stats(),
        "content_hash": "sha256:" + hashlib.sha256(blob).hexdigest(),
        "files": {
            SAMPLES_JSONL: {"sha256": _sha256_file(jsonl), "lines": len(lines)},
            SAMPLES_PARQUET: {"sha256": _sha256_file(parquet), "rows": table.num_rows},
        },
        "warnings": list(selection.warnings),
    }
    _atomic_bytes(
        out / MANIFEST,
        orjson.dumps(manifest, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n",
    )
    return manifest


# ------------------------------------------------------------------ regression cases

MISMATCH_POLICIES = ("skip", "keep")


def build_case(cand: Candidate) -> dict[str, Any] | None:
    """A contract-1 case, or None when the row has no stored event."""
    import orjson

    raw = cand.row.get("event_json")
    if not raw:
        return None
    row = cand.row
    return {
        "case_id": cand.key[:16],
        "event": orjson.loads(raw),
        "expected_labels": list(cand.labels),
        "origin": {
            **_versions(row),
            "api": row["api"],
            "stream": bool(row["stream"]),
            "first_seen": _rfc3339(row["ts"]),
            "event_ids": sorted(cand.event_ids),
            "label_source": "reviewed" if row["label_source"] == "reviewed" else "machine",
        },
    }


def write_regression(
    directory: Path,
    selection: Selection,
    flt: ExportFilter,
    options: ExportOptions,
    on_mismatch: str = "skip",
    on_progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Write ``directory/cases/*.json`` and ``directory/manifest.json`` (contract 1).

    Each case is replayed through the current detectors first. A case whose replayed
    labels differ from its expected labels (redaction changed the text, the detectors
    changed since it was stored, or a reviewer corrected them) is listed under
    ``mismatches`` and, with ``on_mismatch="skip"``, left out, so a fresh seed passes.
    """
    from leakline.pipeline.curation.regression import (
        FORMAT,
        replay_case,
        write_cases,
        write_manifest,
    )

    cases, mismatches = [], []
    without_event = 0
    total = len(selection.samples)
    for i, cand in enumerate(selection.samples, 1):
        case = build_case(cand)
        if case is None:
            without_event += 1
        else:
            result = replay_case(case)
            if result.ok:
                cases.append(case)
            else:
                mismatches.append(
                    {
                        "case_id": case["case_id"],
                        "event_id": cand.row["event_id"],
                        "expected": list(result.expected),
                        "replayed": list(result.actual),
                        "error": result.error,
                        "label_source": case["origin"]["label_source"],
                        "kept": on_mismatch == "keep",
                    }
                )
                if on_mismatch == "keep":
                    cases.append(case)
        if on_progress and (i % 50 == 0 or i == total):
            on_progress(i, total)
    directory.mkdir(parents=True, exist_ok=True)
    _, digest = write_cases(directory, cases)
    by_label: Counter[str] = Counter()
    for case in cases:
        by_label.update(case["expected_labels"])
    manifest = {
        "format": FORMAT,
        "created_at": _rfc3339(datetime.now(UTC)),
        "filter": {**flt.to_dict(), **options.to_dict()},
        "counts": {
            "cases": len(cases),
            "by_label": dict(sorted(by_label.items())),
            "clean": sum(1 for c in cases if not c["expected_labels"]),
            "without_stored_event": without_event,
            "mismatched": len(mismatches),
        },
        "versions": _version_list(
            cand.row for cand in selection.samples if cand.key[:16] in {c["case_id"] for c in cases}
        ),
        "content_hash": digest,
        "on_mismatch": on_mismatch,
        "mismatches": sorted(mismatches, key=lambda m: m["case_id"]),
    }
    write_manifest(directory, manifest)
    return manifest


# ------------------------------------------------------------------ command


class _NoBar:
    """Stands in for the rich progress bar with --quiet."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, *args: Any, **kwargs: Any) -> int:
        return 0

    def update(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class ExportResult:
    samples: dict[str, Any] | None
    regression: dict[str, Any] | None


def run_export(
    data_dir: Path,
    out: Path | None,
    flt: ExportFilter = ExportFilter(),
    options: ExportOptions = ExportOptions(),
    regression: Path | None = None,
    on_mismatch: str = "skip",
    show_progress: bool = True,
    as_of: str | None = None,
) -> ExportResult:
    from leakline.pipeline.core.progress import progress_bar
    from leakline.pipeline.store.database import read_only, require_store

    if out is None and regression is None:
        raise LeaklineError(
            "nothing to write", hint="pass --out DIR (training data) and/or --regression DIR"
        )
    require_store(data_dir)  # before a progress bar is drawn for nothing
    bar_or_none: Any = progress_bar() if show_progress else _NoBar()
    with bar_or_none as bar:
        read = bar.add_task("reading the store", total=None)
        with read_only(data_dir, as_of=as_of) as con:
            rows = fetch_candidates(
                con, data_dir, flt, lambda n, t: bar.update(read, completed=n, total=t)
            )
        selection = select(rows, options)
        samples = cases = None
        if out is not None:
            task = bar.add_task("writing samples", total=len(selection.samples))
            samples = write_samples(
                out, selection, flt, options, lambda n, t: bar.update(task, completed=n, total=t)
            )
        if regression is not None:
            task = bar.add_task("replaying cases", total=len(selection.samples))
            cases = write_regression(
                regression,
                selection,
                flt,
                options,
                on_mismatch,
                lambda n, t: bar.update(task, completed=n, total=t),
            )
    return ExportResult(samples, cases)


DESCRIPTION = """\
Export labeled samples from DATA_DIR/leakline.duckdb as training data (and regression cases).

Only rows whose text was stored are exported (every leaking row; clean rows at the worker's
--clean-text-rate). A review (`leakline review`) overrides the machine labels. Steps:
  1 filter (time, labels, versions, api, stream, source) - label/source filters pick the
    leaking rows; clean rows stay candidates for negatives
  2 dedupe by normalised text (case-folded, whitespace collapsed, digits masked), earliest kept
  3 per version (engine|version|model|template|reasoning parser|tool parser) keep at most
    --per-version-cap leaking texts, alternating between label sets, in hash order
  4 add clean negatives so they make up --clean-ratio of the output, round-robin by version
Writes OUT/samples.jsonl, OUT/samples.parquet and OUT/manifest.json (counts, versions, the
filter, sha256 of the JSONL). The same store and filter give byte-identical JSONL.

--regression DIR writes DIR/cases/<case_id>.json (the stored redacted event + expected
labels + origin) and DIR/manifest.json. Cases are replayed through the current detectors
first; ones that disagree are listed in the manifest and skipped (--on-mismatch keep keeps
them). Stale case files in DIR/cases are removed.

examples:
  leakline export --data-dir leakline-demo --out export/
  leakline export --out export/ --label preamble --version engine.version=0.31.0 --no-stream
  leakline export --out export/ --regression tests/regression --per-version-cap 6"""


def _ratio(text: str) -> float:
    value = float(text)
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"must be at least 0 and below 1, got {text}")
    return value


def _cap(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (no cap) or a positive integer, got {text}")
    return value


def _configure(p: argparse.ArgumentParser) -> None:
    add_data_dir(p, as_of=True)
    p.add_argument("--out", metavar="DIR", type=Path, help="write samples.jsonl/.parquet here")
    p.add_argument(
        "--regression", metavar="DIR", type=Path, help="also write regression cases to DIR"
    )
    filters.add_filter_args(p)
    p.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="LABEL",
        help="only leaking samples with this (effective) label; repeat for any of several",
    )
    p.add_argument(
        "--version",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="the same as --where, e.g. engine.version=0.31.0 or model.name=Qwen/Qwen3-8B "
        "(a bare VALUE means engine.version)",
    )
    p.add_argument("--api", choices=APIS, help="only this API")
    p.add_argument(
        "--stream",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="only streamed (--stream) or non-streamed (--no-stream) samples",
    )
    p.add_argument(
        "--source",
        action="append",
        default=[],
        choices=SOURCES,
        help="only leaking samples labelled by this tier (reviewed = by a person); repeatable",
    )
    p.add_argument(
        "--clean-ratio",
        type=_ratio,
        default=DEFAULT_CLEAN_RATIO,
        metavar="R",
        help=f"share of clean negatives in the output, 0 <= R < 1 (default: {DEFAULT_CLEAN_RATIO})",
    )
    p.add_argument(
        "--per-version-cap",
        type=_cap,
        default=DEFAULT_PER_VERSION_CAP,
        metavar="N",
        help="at most N leaking and N clean samples per version; 0 = no cap "
        f"(default: {DEFAULT_PER_VERSION_CAP})",
    )
    p.add_argument(
        "--on-mismatch",
        choices=MISMATCH_POLICIES,
        default="skip",
        help="regression cases whose replay disagrees with their labels: skip them (listed "
        "in the manifest) or keep them (the regression tests then fail on them)",
    )
    p.add_argument(
        "--include-gate",
        action="store_true",
        help="export gate replies too (left out by default: they are not production traffic)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_export)


def add_parser(subparsers: Any) -> None:
    """Register ``export`` on the ``leakline`` sub-command parsers."""
    register(
        subparsers,
        "export",
        "labeled samples as training data (JSONL + Parquet) and regression cases",
        DESCRIPTION,
        _configure,
    )


def filter_from_args(args: argparse.Namespace) -> ExportFilter:
    where = filters.where_from_args(args, aliases=[("version", "--version", "engine.version")])
    if not args.include_gate:  # gate replies are not production traffic
        where = where.production_only()
    return ExportFilter(
        since=where.since,
        until=where.until,
        labels=check_labels(args.label),
        versions=where.pairs,
        api=args.api,
        stream=args.stream,
        sources=tuple(sorted(set(args.source))),
    )


def cmd_export(args: argparse.Namespace) -> int:
    flt = filter_from_args(args)
    options = ExportOptions(args.clean_ratio, args.per_version_cap or None)
    settings = from_env(data_dir=args.data_dir)
    result = run_export(
        settings.data_dir,
        args.out,
        flt,
        options,
        regression=args.regression,
        on_mismatch=args.on_mismatch,
        show_progress=not args.quiet,
        as_of=args.as_of,
    )
    if result.samples is not None:
        counts = result.samples["counts"]
        print(
            f"exported {counts['total']} samples ({counts['leaking']} leaking, "
            f"{counts['clean']} clean) to {args.out} - {result.samples['content_hash']}"
        )
        from leakline.pipeline.core.term import safe

        for warning in result.samples["warnings"]:  # may quote event ids
            print(f"warning: {safe(warning)}", file=sys.stderr)
    if result.regression is not None:
        counts = result.regression["counts"]
        print(
            f"wrote {counts['cases']} regression cases ({counts['clean']} clean) to "
            f"{args.regression}; {counts['mismatched']} disagreed with the detectors "
            f"({result.regression['on_mismatch']}), {counts['without_stored_event']} had no "
            "stored event"
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m leakline.pipeline.curation.export``: the same command without the ``leakline`` entry point."""
    return run_standalone("export", DESCRIPTION, _configure, argv)


if __name__ == "__main__":
    sys.exit(main())
