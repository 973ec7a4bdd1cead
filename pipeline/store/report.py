"""Rendering rate rows as a table, JSON or CSV, with their 95 % Wilson intervals.

``with_intervals`` adds to each row from ``database.query_rates``: ``rate_low``,
``rate_high``, ``small`` (fewer than ``stats.SMALL_N`` events: shown, but marked), and per
label ``<label>_rate``, ``<label>_low``, ``<label>_high`` beside the ``<label>`` count.
The tables fit the terminal (as ``tail``'s do): per-label rates go in a second, long
table (one line per group and label) instead of one column per label. Piped or
redirected (and without ``$COLUMNS``) they take their natural width instead, so every
value prints whole (``term.output_width``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any, TextIO

import orjson

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.core.term import layout_width, safe
from leakline.pipeline.core.term import text as safe_text
from leakline.pipeline.query.stats import SMALL_N, is_small, wilson

SMALL_MARK = "*"


def interval_fields(k: int, n: int, prefix: str) -> dict[str, float | None]:
    """``{prefix}rate``/``_low``/``_high`` of k in n, rounded to 4 places (None for n = 0)."""
    bounds = wilson(k, n)
    return {
        f"{prefix}rate": round(k / n, 4) if n else None,
        f"{prefix}low": round(bounds[0], 4) if bounds else None,
        f"{prefix}high": round(bounds[1], 4) if bounds else None,
    }


def with_intervals(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        n, k = int(row["total"]), int(row["leaking"])
        new = dict(row)
        new.update(interval_fields(k, n, ""))
        new["rate_low"], new["rate_high"] = new.pop("low"), new.pop("high")
        new["small"] = is_small(n)
        for label in ALL_LABELS:
            new.update(interval_fields(int(row.get(label) or 0), n, f"{label}_"))
        out.append(new)
    return out


def csv_fields(by: Sequence[str]) -> list[str]:
    """The column order of ``rates --format csv`` (also used when no row matched)."""
    fields = [*by, "total", "leaking", "rate", "rate_low", "rate_high", "small"]
    for label in ALL_LABELS:
        fields += [label, f"{label}_rate", f"{label}_low", f"{label}_high"]
    return [*fields, "tool_call_finishes", "schema_accuracy"]


def print_rates(
    rows: list[dict[str, Any]],
    by: Sequence[str],
    fmt: str,
    out: TextIO,
    title_note: str = "",
    width: int | None = None,
) -> None:
    rows = with_intervals(rows)
    if fmt == "json":
        out.write(orjson.dumps(rows, option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    if fmt == "csv":
        writer = csv.DictWriter(
            out, fieldnames=csv_fields(by), lineterminator="\n", extrasaction="ignore"
        )
        writer.writeheader()
        writer.writerows(rows)
        return
    out.write(rates_table_text(rows, by, title_note, width))


def pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def interval(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return "–"
    return f"{low * 100:.1f}–{high * 100:.1f}%"


def rates_table_text(
    rows: list[dict[str, Any]], by: Sequence[str], title_note: str = "", width: int | None = None
) -> str:
    """A terminal table no wider than ``width`` (default: the terminal); label rates share
    a second table, one line per (group, label) that occurs, so any number of labels fits."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    if rows and "rate_low" not in rows[0]:
        rows = with_intervals(rows)
    if not rows:
        return safe("no stored events match" + (f" ({title_note})" if title_note else "")) + "\n"
    title = "leak rates" + (f" by {', '.join(by)}" if by else "")  # by: the user's, still text
    table = Table(
        title=Text(safe(title) + (f"\n{safe(title_note)}" if title_note else "")),
        show_footer=len(rows) > 1,
        expand=True,
    )
    total = sum(r["total"] for r in rows)
    leaking = sum(r["leaking"] for r in rows)
    overall = interval_fields(leaking, total, "")
    for i, field in enumerate(by):
        table.add_column(
            safe_text(field),
            footer="all" if i == 0 else "",
            overflow="fold",
            ratio=1,
            min_width=len(field),
        )
    table.add_column("n", justify="right", footer=str(total), no_wrap=True)
    table.add_column("leaking", justify="right", footer=str(leaking), no_wrap=True)
    table.add_column("rate", justify="right", footer=pct(overall["rate"]), no_wrap=True)
    table.add_column(
        "95% CI", justify="right", footer=interval(overall["low"], overall["high"]), no_wrap=True
    )
    # K2VV schema accuracy: schema-valid tool-call responses over tool-call finishes
    with_tools = any(r.get("tool_call_finishes") for r in rows)
    if with_tools:
        table.add_column("schema acc.", justify="right", overflow="fold")
    for row in rows:
        table.add_row(
            *(safe_text(row[f]) for f in by),  # event data: never markup
            str(row["total"]),
            str(row["leaking"]),
            pct(row["rate"]) + (SMALL_MARK if row["small"] else ""),
            interval(row["rate_low"], row["rate_high"]),
            *(
                (f"{pct(row['schema_accuracy'])} of {row['tool_call_finishes']}",)
                if with_tools
                else ()
            ),
        )
    labels = Table(
        title=safe_text("label rates" + (f" by {', '.join(by)}" if by else "")), expand=True
    )
    if by:
        labels.add_column(safe_text(", ".join(by)), overflow="fold", ratio=1)
    labels.add_column("label", no_wrap=True)
    for name in ("n", "count", "rate", "95% CI"):
        labels.add_column(name, justify="right", no_wrap=True)
    for row in rows:
        key = " · ".join(str(row[f]) for f in by)
        shown = [label for label in ALL_LABELS if row.get(label)]
        for i, label in enumerate(shown):
            labels.add_row(
                *((safe_text(key) if i == 0 else "",) if by else ()),
                label,
                str(row["total"]) if i == 0 else "",
                str(row[label]),
                pct(row[f"{label}_rate"]) + (SMALL_MARK if row["small"] else ""),
                interval(row[f"{label}_low"], row[f"{label}_high"]),
                end_section=i == len(shown) - 1,
            )
    shown_tables = [table, labels] if labels.row_count else [table]
    width = layout_width(*shown_tables, width=width)
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, no_color=True, highlight=False)
    for item in shown_tables:
        console.print(item)
    if any(r["small"] for r in rows):
        console.print(
            f"{SMALL_MARK} fewer than {SMALL_N} events: the rate is shown, read its interval"
        )
    return buffer.getvalue()
