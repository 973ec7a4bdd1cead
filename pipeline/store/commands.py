"""``leakline rates``: leak rates per version from the store. The queries are in ``database``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from leakline.pipeline.core.command import (
    add_command,
    add_data_dir,
    settings_from_args,
)
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
