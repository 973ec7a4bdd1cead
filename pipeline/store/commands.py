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


def add_rates(subparsers: Any) -> None:
    """Register ``rates`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "rates",
        cmd_rates,
        "leak rates from the store, grouped by version fields",
        "Total, leaking, rate and per-label counts from DATA_DIR/leakline.duckdb.\n"
        "Each event_id counts once, however often it was delivered.\n"
        "Group fields: engine.name, engine.version, model.name, model.revision,\n"
        "chat_template.name, chat_template.hash, parsers.reasoning, parsers.tool_call,\n"
        "gateway.name, gateway.version, api, stream, stop, structured, tools, finish_reason, day.",
    )
    add_data_dir(p)
    p.add_argument(
        "--by",
        default="engine.version",
        metavar="FIELDS",
        help="comma-separated group fields; empty string for one overall row",
    )
    p.add_argument("--format", default="table", choices=["table", "json", "csv"])
    p.add_argument("--since", metavar="TIME", help="only events at or after this RFC 3339 time")
    p.add_argument("--until", metavar="TIME", help="only events before this RFC 3339 time")
    p.add_argument("--api", choices=["chat.completions", "responses", "messages"])


def cmd_rates(args: argparse.Namespace) -> int:
    from leakline.pipeline.store.database import RateFilter, query_rates, read_only
    from leakline.pipeline.store.report import print_rates

    settings = settings_from_args(args)
    by = [f for f in args.by.split(",") if f.strip()] if args.by else []
    with read_only(settings.data_dir) as con:
        rows = query_rates(con, by, RateFilter(since=args.since, until=args.until, api=args.api))
    print_rates(rows, [f.strip() for f in by], args.format, sys.stdout)
    return 0
