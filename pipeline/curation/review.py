"""``leakline review``: a person confirms or corrects machine labels before export.

Interactive: one stored sample at a time with its leaking spans highlighted, the
machine labels and the evidence; keys a=accept, c=correct (type labels), s=skip,
q=quit. Scripted: ``--accept EVENT_ID``, ``--set EVENT_ID=label1,label2`` (empty =
clean), ``--list`` (pending samples). Reviews are appended to DATA_DIR/reviews/
(``leakline.pipeline.store.reviews``); the newest per event_id wins in ``samples_reviewed``.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from leakline.pipeline.core.command import add_data_dir, register, run_standalone
from leakline.pipeline.core.config import from_env
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.query.filters import Where, add_filter_args, where_from_args

if TYPE_CHECKING:
    import duckdb

    from leakline.pipeline.store.reviews import Review, ReviewWriter

ENV_REVIEWER = "LEAKLINE_REVIEWER"
FLUSH_EVERY = 20  # decisions buffered before a part is written (and always on exit)
SHOW_CHARS = 1500
# shown around highlighted spans when the output is not a terminal (no colours there)
MARK_OPEN, MARK_CLOSE = "⟦", "⟧"

_COLUMNS = (
    "event_id",
    "ts",
    "api",
    "stream",
    "engine_name",
    "engine_version",
    "model_name",
    "template_name",
    "reasoning_parser",
    "tool_call_parser",
    "labels",
    "effective_labels",
    "label_source",
    "findings",
    "visible_text",
    "reasoning_text",
)


@dataclass(frozen=True)
class ReviewFilter:
    labels: tuple[str, ...] = ()  # machine labels: any of these
    versions: tuple[tuple[str, str], ...] = ()
    limit: int | None = 50
    where: Where = Where()  # --where / --since / --until (``versions`` is the older --version)


def pending(
    con: duckdb.DuckDBPyConnection, data_dir: Path, flt: ReviewFilter
) -> list[dict[str, Any]]:
    """Text-stored samples nobody reviewed yet: leaking first, then oldest first."""
    from leakline.pipeline.store.database import ensure_review_views

    ensure_review_views(con, data_dir)
    conditions = ["text_stored", "label_source = 'machine'"]
    params: list[Any] = []
    if flt.labels:
        conditions.append("list_has_any(labels, CAST(? AS VARCHAR[]))")
        params.append(list(flt.labels))
    window, values = Where(
        (*flt.versions, *flt.where.pairs), flt.where.since, flt.where.until
    ).sql()
    conditions += window
    params += values
    sql = (
        f"SELECT {', '.join(_COLUMNS)} FROM samples_reviewed WHERE {' AND '.join(conditions)}\n"
        "ORDER BY len(labels) = 0, ts, event_id"
    )
    if flt.limit is not None:
        sql += "\nLIMIT ?"
        params.append(flt.limit)
    return _rows(con, sql, params)


def lookup(con: duckdb.DuckDBPyConnection, data_dir: Path, event_id: str) -> dict[str, Any]:
    from leakline.pipeline.store.database import ensure_review_views

    ensure_review_views(con, data_dir)
    rows = _rows(
        con, f"SELECT {', '.join(_COLUMNS)} FROM samples_reviewed WHERE event_id = ?", [event_id]
    )
    if not rows:
        raise LeaklineError(
            f"no stored sample with event_id {event_id!r}",
            hint="`leakline review --list` shows samples waiting for review",
        )
    return rows[0]


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    import duckdb

    from leakline.pipeline.core.errors import StoreError

    try:
        cursor = con.execute(sql, params)
    except duckdb.Error as exc:
        raise StoreError(f"review query failed: {exc}") from exc
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def decide(
    row: dict[str, Any], labels: Sequence[str] | None, reviewer: str, note: str | None
) -> Review:
    """A review of ``row``: ``labels=None`` accepts the machine labels."""
    machine = tuple(sorted(row.get("labels") or ()))
    chosen = machine if labels is None else tuple(sorted(labels))
    from leakline.pipeline.store.reviews import Review  # pyarrow: load on use

    return Review(
        event_id=row["event_id"],
        labels=chosen,
        previous_labels=tuple(sorted(row.get("effective_labels") or ())),
        machine_labels=machine,
        action="accept" if labels is None else "correct",
        reviewer=reviewer,
        note=note,
    )


# ------------------------------------------------------------------ display


def _spans(row: dict[str, Any]) -> list[tuple[int, int]]:
    import orjson

    try:
        findings = orjson.loads(row.get("findings") or "[]")
    except orjson.JSONDecodeError:
        return []
    spans = sorted(
        (int(f["span"][0]), int(f["span"][1]))
        for f in findings
        if isinstance(f, dict) and isinstance(f.get("span"), list) and len(f["span"]) == 2
    )
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e) for s, e in merged if e > s]


def highlighted(text: str, spans: Sequence[tuple[int, int]], marks: bool) -> Any:
    """A rich Text with the leaking spans styled; with ``marks`` also bracketed. Control
    characters are replaced piece by piece (after slicing, so the spans stay aligned)."""
    from rich.text import Text

    from leakline.pipeline.core.term import safe_block

    shown = text[:SHOW_CHARS]
    out = Text()
    pos = 0
    for start, end in spans:
        start, end = max(start, pos), min(end, len(shown))
        if start >= end:
            continue
        out.append(safe_block(shown[pos:start]))
        piece = safe_block(shown[start:end])
        out.append(f"{MARK_OPEN}{piece}{MARK_CLOSE}" if marks else piece, style="bold red reverse")
        pos = end
    out.append(safe_block(shown[pos:]))
    if len(text) > SHOW_CHARS:
        out.append(f"… ({len(text) - SHOW_CHARS} more characters)", style="dim")
    return out


def show(console: Any, row: dict[str, Any], index: int, total: int) -> None:
    import orjson

    from leakline.pipeline.core.term import safe, safe_block
    from leakline.pipeline.core.term import text as safe_text

    marks = not console.is_terminal
    versions = " · ".join(
        str(row.get(c) or "unknown")
        for c in ("engine_name", "engine_version", "model_name", "template_name")
    )
    parsers = (
        f"{row.get('reasoning_parser') or 'unknown'}/{row.get('tool_call_parser') or 'unknown'}"
    )
    console.rule(safe_text(f"[{index}/{total}] {row['event_id']}"))
    # every value below is event data: safe() replaces control characters, markup is off
    console.print(
        safe(
            f"{versions} · parsers {parsers} · {row['api']} · "
            f"{'stream' if row['stream'] else 'no stream'}"
        ),
        markup=False,
        highlight=False,
    )
    machine = ", ".join(row.get("labels") or ()) or "(clean)"
    console.print(safe(f"machine labels: {machine}"), markup=False, highlight=False)
    try:
        findings = orjson.loads(row.get("findings") or "[]")
    except orjson.JSONDecodeError:
        findings = []
    for f in findings:
        if isinstance(f, dict):
            console.print(
                safe(
                    f"  - {f.get('label')} ({f.get('source')} {f.get('detector_id')}, "
                    f"layer {f.get('layer')}, confidence {f.get('confidence')}): "
                    f"{f.get('evidence')}"
                ),
                markup=False,
                highlight=False,
            )
    console.print("visible text:", style="bold")
    console.print(highlighted(row.get("visible_text") or "", _spans(row), marks), highlight=False)
    reasoning = row.get("reasoning_text") or ""
    if reasoning:
        console.print(f"reasoning ({len(reasoning)} chars):", style="bold")
        console.print(
            safe_block(reasoning[:400]) + ("…" if len(reasoning) > 400 else ""),
            markup=False,
            highlight=False,
        )


# ------------------------------------------------------------------ loop


@dataclass
class LoopSummary:
    accepted: int = 0
    corrected: int = 0
    skipped: int = 0
    quit_early: bool = False


def review_loop(
    rows: Sequence[dict[str, Any]],
    writer: ReviewWriter,
    reviewer: str,
    stdin: TextIO,
    console: Any,
    note: str | None = None,
) -> LoopSummary:
    """Ask about each row; a=accept, c=correct, s=skip, q=quit (EOF quits too)."""
    summary = LoopSummary()

    def ask(prompt: str) -> str | None:
        console.print(prompt, end="", markup=False, highlight=False)
        line = stdin.readline()
        if not line:
            console.print()
            return None
        if not console.is_terminal:  # piped input is not echoed: keep transcripts readable
            console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line.strip()

    try:
        for index, row in enumerate(rows, 1):
            show(console, row, index, len(rows))
            while True:
                key = ask("[a]ccept  [c]orrect  [s]kip  [q]uit > ")
                if key is None or key.lower() == "q":
                    summary.quit_early = True
                    return summary
                key = key.lower()
                if key == "a":
                    writer.add(decide(row, None, reviewer, note))
                    summary.accepted += 1
                    break
                if key == "s":
                    summary.skipped += 1
                    break
                if key == "c":
                    labels = _ask_labels(ask, console)
                    if labels is None:
                        summary.quit_early = True
                        return summary
                    writer.add(decide(row, labels, reviewer, note))
                    summary.corrected += 1
                    break
                console.print(f"unknown key {key!r}: type a, c, s or q", markup=False)
            if len(writer.pending) >= FLUSH_EVERY:
                writer.flush()
    finally:
        writer.flush()
    return summary


def _ask_labels(ask: Any, console: Any) -> list[str] | None:
    from leakline.detectors.labels import ALL_LABELS
    from leakline.pipeline.store.reviews import parse_labels

    console.print("labels: " + ", ".join(ALL_LABELS), markup=False, highlight=False)
    while True:
        text = ask("labels (comma-separated, empty = clean) > ")
        if text is None:
            return None
        try:
            return parse_labels(text)
        except LeaklineError as exc:
            console.print(f"{exc}; {exc.hint}", markup=False, highlight=False)


# ------------------------------------------------------------------ command

DESCRIPTION = """\
Confirm or correct machine labels before they become training data. Reviews are stored
beside the machine labels (DATA_DIR/reviews/, append-only Parquet; the newest review of an
event wins) and take precedence over them in `leakline export` (view samples_reviewed:
effective_labels, label_source).

Interactive (the default): shows pending samples (text stored, not reviewed yet; leaking
first) one at a time with the leaking spans highlighted, the machine labels and the
evidence. Keys: a = accept the machine labels, c = correct (type labels; empty = clean),
s = skip, q = quit. Decisions are saved on quit and every 20 decisions.

Scripted:
  leakline review --list --label preamble            pending samples, one per line
  leakline review --accept sim-7-0000042             the machine labels are right
  leakline review --set sim-7-0000042=preamble        these are the right labels
  leakline review --set sim-7-0000043=               this one is clean"""


def _configure(p: argparse.ArgumentParser) -> None:
    add_data_dir(p, as_of=True)
    p.add_argument("--list", action="store_true", help="list pending samples and exit")
    p.add_argument(
        "--accept", action="append", default=[], metavar="EVENT_ID", help="accept machine labels"
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="EVENT_ID=LABELS",
        help="set the labels (comma-separated; empty = clean)",
    )
    p.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="LABEL",
        help="only samples with this machine label (repeat for any of several)",
    )
    p.add_argument(
        "--version",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="the same as --where, e.g. engine.version=0.31.0 (a bare VALUE means engine.version)",
    )
    add_filter_args(p, what="samples")
    p.add_argument(
        "--include-gate",
        action="store_true",
        help="gate replies too (left out by default: they are not production traffic)",
    )
    p.add_argument("--limit", type=int, default=50, help="at most this many pending samples")
    p.add_argument(
        "--reviewer", help=f"who is reviewing (default: ${ENV_REVIEWER} or the login name)"
    )
    p.add_argument("--note", help="a note stored with every review of this run")
    p.set_defaults(func=cmd_review)


def add_parser(subparsers: Any) -> None:
    """Register ``review`` on the ``leakline`` sub-command parsers."""
    register(
        subparsers,
        "review",
        "confirm or correct labels (interactive, or --accept/--set/--list)",
        DESCRIPTION,
        _configure,
    )


def _reviewer(args: argparse.Namespace) -> str:
    if args.reviewer:
        return str(args.reviewer)
    env = os.environ.get(ENV_REVIEWER)
    if env:
        return env
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _parse_set(item: str) -> tuple[str, list[str]]:
    from leakline.pipeline.store.reviews import parse_labels

    event_id, sep, labels = item.partition("=")
    if not sep or not event_id.strip():
        raise LeaklineError(
            f"--set {item!r} is not EVENT_ID=LABELS",
            hint="e.g. --set sim-7-0000042=preamble,reasoning_leak, or --set sim-7-0000042= for clean",
        )
    return event_id.strip(), parse_labels(labels)


def cmd_review(args: argparse.Namespace) -> int:
    from rich.console import Console

    from leakline.pipeline.curation.export import check_labels, parse_version_filters
    from leakline.pipeline.store.database import read_only

    if args.limit is not None and args.limit <= 0:
        raise LeaklineError("--limit must be positive", hint="e.g. --limit 20")
    if args.as_of is not None and (not args.list or args.accept or args.set):
        raise LeaklineError(
            "--as-of lists samples as they were; a review decides on the store as it is",
            hint="use --as-of with --list only",
        )
    settings = from_env(data_dir=args.data_dir)
    data_dir = settings.data_dir
    flt = ReviewFilter(
        labels=check_labels(args.label),
        versions=parse_version_filters(args.version),
        limit=args.limit,
        where=where_from_args(args)
        if args.include_gate
        else where_from_args(args).production_only(),
    )
    sets = [_parse_set(item) for item in args.set]  # validate everything before writing
    reviewer = _reviewer(args)
    from leakline.pipeline.store.reviews import ReviewWriter  # pyarrow: load on use

    writer = ReviewWriter(data_dir)
    if args.accept or sets:
        with read_only(data_dir) as con:
            for event_id in args.accept:
                writer.add(decide(lookup(con, data_dir, event_id), None, reviewer, args.note))
            for event_id, labels in sets:
                writer.add(decide(lookup(con, data_dir, event_id), labels, reviewer, args.note))
        count = len(writer.pending)
        path = writer.flush()
        print(f"stored {count} review(s) in {path}")
        return 0
    with read_only(data_dir, as_of=args.as_of) as con:
        rows = pending(con, data_dir, flt)
    if args.list:
        from leakline.pipeline.core.term import safe

        for row in rows:
            shown = ",".join(row["labels"] or ()) or "clean"
            text = (row.get("visible_text") or "").replace("\n", " ")[:80]
            version = f"{row['engine_name']} {row['engine_version']} {row['model_name']}"
            # tab-separated: safe() turns a tab or newline in event data into a stand-in, so
            # no value adds a column or a row (the id stays bare for `cut -f1 | --accept`)
            cells = (row["event_id"], shown, version, text)
            print("\t".join(safe(c) for c in cells))
        print(f"{len(rows)} pending", file=sys.stderr)
        return 0
    if not rows:
        print("nothing to review: every stored sample matching the filter has a review")
        return 0
    console = Console(highlight=False)
    summary = review_loop(rows, writer, reviewer, sys.stdin, console, args.note)
    where = ", ".join(str(p) for p in writer.written) or "nothing written"
    print(
        f"accepted {summary.accepted}, corrected {summary.corrected}, skipped {summary.skipped}"
        f"{' (quit early)' if summary.quit_early else ''}; {where}"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m leakline.pipeline.curation.review``: the same command without the ``leakline`` entry point."""
    return run_standalone("review", DESCRIPTION, _configure, argv)


if __name__ == "__main__":
    sys.exit(main())
