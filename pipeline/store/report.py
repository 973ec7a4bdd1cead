"""Rendering query results as a table, JSON or CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any, TextIO

import orjson

from leakline.detectors.labels import ALL_LABELS


def print_rates(rows: list[dict[str, Any]], by: Sequence[str], fmt: str, out: TextIO) -> None:
    if fmt == "json":
        out.write(orjson.dumps(rows, option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    if fmt == "csv":
        fields = (
            list(rows[0])
            if rows
            else [
                *by,
                "total",
                "leaking",
                "rate",
                *ALL_LABELS,
                "tool_call_finishes",
                "schema_accuracy",
            ]
        )
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return
    out.write(rates_table_text(rows, by))


def rates_table_text(rows: list[dict[str, Any]], by: Sequence[str]) -> str:
    """A terminal table; label columns appear only when some row has that label."""
    from rich.console import Console
    from rich.table import Table

    labels = [label for label in ALL_LABELS if any(r.get(label) for r in rows)]
    table = Table(
        title="leak rates" + (f" by {', '.join(by)}" if by else ""), show_footer=bool(rows)
    )
    total = sum(r["total"] for r in rows)
    leaking = sum(r["leaking"] for r in rows)
    for i, field in enumerate(by):
        table.add_column(field, footer="all" if i == 0 else "")
    table.add_column("total", justify="right", footer=str(total))
    table.add_column("leaking", justify="right", footer=str(leaking))
    table.add_column("rate", justify="right", footer=f"{leaking / total:.1%}" if total else "")
    for label in labels:
        table.add_column(label, justify="right", footer=str(sum(r.get(label) or 0 for r in rows)))
    # K2VV schema accuracy: schema-valid tool-call responses over tool-call finishes
    with_tools = any(r.get("tool_call_finishes") for r in rows)
    if with_tools:
        table.add_column("tool-call finishes", justify="right")
        table.add_column("schema accuracy", justify="right")
    for row in rows:
        table.add_row(
            *(str(row[f]) for f in by),
            str(row["total"]),
            str(row["leaking"]),
            f"{row['rate']:.1%}",
            *(str(row.get(label) or 0) for label in labels),
            *((str(row["tool_call_finishes"]), _pct(row["schema_accuracy"])) if with_tools else ()),
        )
    buffer = io.StringIO()
    # wide enough that rich never truncates a version string; the table keeps its natural width
    console = Console(file=buffer, width=1000)
    console.print(table if rows else "no stored events match")
    return buffer.getvalue()


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"
