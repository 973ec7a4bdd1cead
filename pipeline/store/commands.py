"""``leakline rates`` (leak rates per version) and ``leakline sql`` (the SQL door) over the
store. The queries and the read-only opening are in ``database``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from leakline.pipeline.core.command import (
    add_command,
    add_data_dir,
    settings_from_args,
)
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.query.filters import FIELDS, add_filter_args, where_from_args
from leakline.pipeline.query.stats import SMALL_N


def add_rates(subparsers: Any) -> None:
    """Register ``rates`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "rates",
        cmd_rates,
        "leak rates from the store, grouped by version fields",
        "Total, leaking and rate, with its 95 % Wilson interval, plus each label's count,\n"
        "rate and interval, from DATA_DIR/leakline.duckdb. Each event_id counts once, however\n"
        f"often it was delivered. Groups with fewer than {SMALL_N} events are marked with *.\n"
        "Gate replays (`leakline gate`) are left out unless --include-gate.\n"
        "Fields for --by and --where: " + ", ".join(FIELDS) + ".\n\n"
        "examples:\n"
        "  leakline rates --by engine.version,model.name --since 7d\n"
        "  leakline rates --by parsers.reasoning --where engine.name=vllm --format json\n"
        "  leakline rates --as-of 2026-11-02T00:00:00Z   (an Iceberg store, before a backfill)",
    )
    add_data_dir(p, as_of=True)
    p.add_argument(
        "--by",
        default="engine.version",
        metavar="FIELDS",
        help="comma-separated group fields; empty string for one overall row",
    )
    p.add_argument("--format", default="table", choices=["table", "json", "csv"])
    add_filter_args(p)
    p.add_argument(
        "--version",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="the same as --where (a bare VALUE means engine.version)",
    )
    p.add_argument("--api", choices=["chat.completions", "responses", "messages"])
    p.add_argument(
        "--include-gate",
        action="store_true",
        help="count gate replays too (the same as --where source=gate --where source=production)",
    )


def cmd_rates(args: argparse.Namespace) -> int:
    from leakline.pipeline.store.database import query_rates, read_only
    from leakline.pipeline.store.quarantine import quarantine_summary
    from leakline.pipeline.store.report import print_rates

    settings = settings_from_args(args)
    by = [f.strip() for f in args.by.split(",") if f.strip()] if args.by else []
    where = where_from_args(
        args, aliases=[("version", "--version", "engine.version"), ("api", "--api", "api")]
    )
    if not args.include_gate:
        where = where.production_only()
    with read_only(settings.data_dir, as_of=args.as_of) as con:
        rows = query_rates(con, by, where)
    print_rates(rows, by, args.format, sys.stdout, title_note=f"where: {where.describe()}")
    lost = quarantine_summary(settings.data_dir)  # unreadable files moved out of the store
    if lost is not None:
        print(lost.note(), file=sys.stderr)
    return 0


# ------------------------------------------------------------------ sql: the SQL door

SQL_FORMATS = ("table", "csv", "json")


def add_sql(subparsers: Any) -> None:
    """Register ``sql`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "sql",
        cmd_sql,
        "run a read-only SQL query over the store's views (the SQL door)",
        "Open DATA_DIR's store read-only and print the result of QUERY, written against the\n"
        "same views every store command reads (leak_rates, label_rates, samples, ...; see the\n"
        "Store views page). Without QUERY, list the views. Writes are refused; workers can keep\n"
        "writing while it runs. No duckdb binary is needed.\n\n"
        "examples:\n"
        "  leakline sql\n"
        '  leakline sql "from leak_rates"\n'
        '  leakline sql "select * from label_rates where rate > 0.01" --format csv',
    )
    add_data_dir(p)
    p.add_argument("query", nargs="?", metavar="QUERY", help="SQL; omitted: list the views")
    p.add_argument("--format", default="table", choices=SQL_FORMATS)


def cmd_sql(args: argparse.Namespace) -> int:
    import duckdb

    from leakline.pipeline.core.errors import LeaklineError
    from leakline.pipeline.store.database import read_only

    settings = settings_from_args(args)
    query = args.query if args.query and args.query.strip() else LIST_VIEWS
    with read_only(settings.data_dir) as con:
        try:
            cursor = con.execute(query)
            columns = [d[0] for d in cursor.description or ()]
            rows = cursor.fetchall() if columns else []
        except duckdb.Error as exc:
            raise LeaklineError(
                f"the query failed: {exc}",
                hint="the store opens read-only; `leakline sql` with no query lists the views",
            ) from exc
    print_result(columns, rows, args.format, sys.stdout)
    if query is LIST_VIEWS and args.format == "table":
        print('query one: leakline sql "from leak_rates"', file=sys.stderr)
    return 0


# the views a user queries: the store's own, not DuckDB's catalogue
LIST_VIEWS = (
    "SELECT view_name AS view FROM duckdb_views() "
    "WHERE NOT internal AND schema_name = 'main' ORDER BY view_name"
)


def print_result(columns: list[str], rows: list[tuple[Any, ...]], fmt: str, out: Any) -> None:
    """``rows`` as an aligned table of whole values, CSV or a JSON list of objects."""
    if fmt == "json":
        import orjson

        records = [dict(zip(columns, row, strict=True)) for row in rows]
        out.write(orjson.dumps(records, default=str, option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    if fmt == "csv":
        import csv

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(["" if v is None else v for v in row] for row in rows)
        return
    out.write(table_text(columns, rows))


def table_text(columns: list[str], rows: list[tuple[Any, ...]]) -> str:
    """Left-aligned columns, values never cut (a pipe reads them whole); event data is
    shown through ``term.safe``, so a value cannot add a line or drive the terminal."""
    from leakline.pipeline.core.term import safe

    cells = [[safe(c) for c in columns]]
    cells += [["NULL" if v is None else safe(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    noun = "row" if len(rows) == 1 else "rows"
    return "\n".join(lines) + f"\n({len(rows)} {noun})\n"


def add_store(subparsers: Any) -> None:
    """Register the ``store`` group (actions on the store itself) on the ``leakline``
    sub-command parsers. Each action's module loads only when ``store`` is asked for."""
    from leakline.pipeline.store.migrate import add_migrate

    p = add_command(
        subparsers,
        "store",
        _no_action,
        "work on the store itself: migrate the old Parquet layout into Iceberg",
        "Actions on the store itself.\n\n"
        "  migrate   move the old Parquet layout (DATA_DIR/samples) into the Iceberg table",
    )
    sub = p.add_subparsers(dest="store_command", metavar="ACTION")
    add_migrate(sub)


def _no_action(args: argparse.Namespace) -> int:
    raise LeaklineError("store needs an action", hint="leakline store migrate --help")
