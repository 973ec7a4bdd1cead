"""The gate's output: the stream x stop x structured x tools matrix, the verdict table
(rich, for the terminal) and the JSON files (report, rate file)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.gate.rates import OVERALL, Outcome, rates_of

REPORT_FORMAT = "leakline.gate/1"


# ------------------------------------------------------------------ report


def matrix(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    rows = []
    for combo in sorted({o.combo for o in outcomes}):
        rates = rates_of([o for o in outcomes if o.combo == combo])
        errors = sum(1 for o in outcomes if o.combo == combo and o.error)
        rows.append({**combo.as_dict(), **rates.to_json(), "errors": errors})
    return rows


def _pct(value: float) -> str:
    return f"{value:.1%}" if value else "·"


def _with_interval(rate: float, interval: list[float] | None) -> str:
    if not interval:
        return f"{rate:.1%}"
    return f"{rate:.1%} ({interval[0] * 100:.1f}–{interval[1] * 100:.1f})"


def render(report: dict[str, Any]) -> str:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from leakline.pipeline.core.term import safe
    from leakline.pipeline.core.term import text as safe_text

    labels = [
        label
        for label in ALL_LABELS
        if any(row["labels"][label] for row in report["matrix"])
        or any(
            c["label"] == label and (c["baseline"] or c["candidate"]) for c in report["comparison"]
        )
    ]
    table = Table(
        title=f"leak rates per combination ({report['api']}, {report['candidate']['engine']['version']})"
    )
    for name in ("stream", "stop", "structured", "tools"):
        table.add_column(name)
    table.add_column("n", justify="right")
    table.add_column("overall", justify="right")
    for label in labels:
        table.add_column(label, justify="right")
    for row in report["matrix"]:
        table.add_row(
            *("yes" if row[k] else "no" for k in ("stream", "stop", "structured", "tools")),
            str(row["total"]) + (f" ({row['errors']} failed)" if row["errors"] else ""),
            _pct(row["overall"]),
            *(_pct(row["labels"][label]) for label in labels),
        )
    buffer = io.StringIO()
    console = Console(file=buffer, width=1000)  # natural width: never truncate a label
    console.print(table)
    if report["comparison"]:
        alpha = report.get("alpha", 1.0)
        verdicts = Table(
            title=safe_text(
                f"candidate vs baseline ({report['baseline']['source']}: "
                f"{report['baseline']['spec']}), tolerance {report['tolerance']:.1%}, "
                f"alpha {alpha}"
            )
        )
        for name in ("label", "baseline (95% CI)", "candidate (95% CI)", "delta", "p", "verdict"):
            verdicts.add_column(name, justify="left" if name == "label" else "right")
        for row in report["comparison"]:
            if row["label"] != OVERALL and not (row["baseline"] or row["candidate"]):
                continue
            if row["regressed"]:
                verdict = "[red]REGRESSED[/red]"
            elif row.get("above_tolerance"):
                verdict = "above, not significant"
            else:
                verdict = "ok"
            p = row.get("p_value")
            verdicts.add_row(
                row["label"],
                _with_interval(row["baseline"], row.get("baseline_interval")),
                _with_interval(row["candidate"], row.get("candidate_interval")),
                f"{row['delta']:+.1%}",
                "–" if p is None else (f"{p:.2g}" if p >= 1e-6 else "<1e-6"),
                verdict,
            )
        console.print(verdicts)
    if report["errors"]:
        # the error text comes from the endpoint under test: text, never markup
        failed = Text(f"{report['errors']} request(s) failed", style="red")
        failed.append(f", e.g. {safe(report['failures'][0]['error'])}")
        console.print(failed)
    if report.get("triggering"):  # tool-call triggering (leakline.pipeline.gate.triggering)
        from leakline.pipeline.gate.triggering import render_lines

        for line in render_lines(report["triggering"]):
            console.print(line)
    if report.get("incomplete"):
        console.print(
            f"[yellow]INCOMPLETE: {report['requests']} of {report['planned_requests']} "
            "requests finished before Ctrl-C[/yellow]"
        )
    console.print(f"[bold]{report['summary']}[/bold]")
    return buffer.getvalue()


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")
