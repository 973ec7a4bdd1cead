"""``leakline compare A B``: two populations of stored events side by side.

Each selector is ``FIELD=VALUE[,FIELD=VALUE...]`` over the ``--by`` fields (the one filter
grammar, ``query.filters``); ``--where``/``--since``/``--until`` narrow both populations
alike, so ``compare engine.version=0.31.0 engine.version=0.32.0 --where
model.name=Qwen/Qwen3-8B`` holds the model fixed. Per label (or per value of a field), it
shows both rates with their 95 % Wilson intervals, the difference B - A, the pooled
two-proportion z-test (``query.stats.two_proportion``; ``gate`` uses the same test) and the
events per side a test would need to see a given difference.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.core.command import add_data_dir, ratio, register, run_standalone
from leakline.pipeline.core.config import from_env
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.query.filters import (
    FIELDS,
    Where,
    add_filter_args,
    field_column,
    known_fields,
    parse_pairs,
    where_from_args,
)
from leakline.pipeline.query.stats import is_small, sample_size, two_proportion, wilson

if TYPE_CHECKING:
    import duckdb

COMPARE_FORMAT = "leakline.compare/1"
OVERALL = "overall"

DESCRIPTION = f"""\
Compare the leak rates of two populations of stored events, A and B, label by label.

SELECTOR is FIELD=VALUE[,FIELD=VALUE...] with the fields of `rates --by`. --where,
--since and --until apply to both sides (a selector's field replaces the same --where
field). For each label (--by label, the default) or each value of a field (--by FIELD,
overall rates), it prints A's and B's rate with 95 % Wilson intervals, the difference
B - A, the two-sided p-value of a pooled two-proportion z-test (significant when p <
--alpha; each row is its own test, not adjusted for the many rows), and "needed": the
events per side such a test needs to detect --detect (default: the observed difference)
with probability --power. Gate replays are left out unless --include-gate.

examples:
  leakline compare engine.version=0.31.0 engine.version=0.32.0 --where model.name=Qwen/Qwen3-8B
  leakline compare parsers.reasoning=qwen3 parsers.reasoning=deepseek_r1 --since 7d
  leakline compare engine.version=0.31.0 engine.version=0.32.0 --by model.name --format json

fields: {", ".join(FIELDS)}
exit status: 0 compared, 2 misuse or a side without events (with a hint)."""


@dataclass(frozen=True)
class Side:
    """One population: its selector, and counts per key (label or field value)."""

    selector: str
    where: Where
    total: int
    leaking: int
    counts: dict[str, tuple[int, int]]  # key -> (k, n)


def parse_selector(text: str) -> tuple[tuple[str, str], ...]:
    pairs = parse_pairs([text], "selector")
    if not pairs:
        raise LeaklineError(
            f"empty selector {text!r}",
            hint="e.g. engine.version=0.31.0 or model.name=Qwen/Qwen3-8B",
        )
    return pairs


def side_where(shared: Where, selector: Sequence[tuple[str, str]]) -> Where:
    """``shared`` with the selector's fields replacing the same fields of ``--where``."""
    fields = {name for name, _ in selector}
    kept = tuple(p for p in shared.pairs if p[0] not in fields)
    return Where((*kept, *selector), shared.since, shared.until)


def _side(con: duckdb.DuckDBPyConnection, selector: str, shared: Where, by: str | None) -> Side:
    from leakline.pipeline.store.database import query_rates

    where = side_where(shared, parse_selector(selector))
    overall = query_rates(con, [], where)
    if not overall:
        raise LeaklineError(
            f"no stored events match {selector} ({where.describe()})",
            hint="list what is stored with `leakline rates --by "
            + ",".join(dict.fromkeys(n for n, _ in where.pairs if n != "source"))
            + "`",
        )
    row = overall[0]
    total, leaking = int(row["total"]), int(row["leaking"])
    counts: dict[str, tuple[int, int]] = {OVERALL: (leaking, total)}
    if by is None:
        counts.update({label: (int(row.get(label) or 0), total) for label in ALL_LABELS})
    else:
        for group in query_rates(con, [by], where):
            counts[_text(group[by])] = (int(group["leaking"]), int(group["total"]))
    return Side(selector, where, total, leaking, counts)


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _part(k: int, n: int) -> dict[str, Any]:
    bounds = wilson(k, n)
    return {
        "leaking": k,
        "total": n,
        "rate": round(k / n, 6) if n else None,
        "low": round(bounds[0], 6) if bounds else None,
        "high": round(bounds[1], 6) if bounds else None,
        "small": is_small(n),
    }


def compare_rows(
    a: Side, b: Side, alpha: float, power: float, detect: float | None
) -> list[dict[str, Any]]:
    """One row per key present on either side; a key missing on one side is no data there."""
    keys = [OVERALL, *sorted(k for k in {*a.counts, *b.counts} if k != OVERALL)]
    if all(k in ALL_LABELS or k == OVERALL for k in keys):
        keys = [OVERALL, *(label for label in ALL_LABELS if label in keys)]
    rows = []
    for key in keys:
        k_a, n_a = a.counts.get(key, (0, 0))
        k_b, n_b = b.counts.get(key, (0, 0))
        test = two_proportion(k_a, n_a, k_b, n_b)
        target = detect
        if target is None:
            target = abs(test.diff) if test.diff else None
        needed = None
        if target and n_a:
            base = k_a / n_a
            other = min(1.0, base + target) if base + target <= 1 else max(0.0, base - target)
            needed = sample_size(base, other, alpha=alpha, power=power)
        rows.append(
            {
                "key": key,
                "a": _part(k_a, n_a),
                "b": _part(k_b, n_b),
                "diff": round(test.diff, 6) if test.diff is not None else None,
                "z": round(test.z, 4),
                "p_value": test.p_value,
                "significant": test.diff is not None and test.p_value < alpha,
                "detect": round(target, 6) if target else None,
                "needed_per_side": needed,
                "enough": needed is not None and min(n_a, n_b) >= needed,
            }
        )
    return rows


def run_compare(
    con: duckdb.DuckDBPyConnection,
    selector_a: str,
    selector_b: str,
    shared: Where,
    by: str | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    detect: float | None = None,
) -> dict[str, Any]:
    if by is not None and field_column(by) is None:
        raise LeaklineError(f"unknown --by {by!r}", hint="--by label, or one of: " + known_fields())
    if parse_selector(selector_a) == parse_selector(selector_b):
        raise LeaklineError(
            "A and B are the same population", hint="give B another value, e.g. the new version"
        )
    a = _side(con, selector_a, shared, by)
    b = _side(con, selector_b, shared, by)
    return {
        "format": COMPARE_FORMAT,
        "a": {"selector": a.selector, "where": a.where.describe(), "total": a.total},
        "b": {"selector": b.selector, "where": b.where.describe(), "total": b.total},
        "by": by or "label",
        "alpha": alpha,
        "power": power,
        "test": "pooled two-proportion z-test, two-sided",
        "rows": compare_rows(a, b, alpha, power, detect),
    }


# ------------------------------------------------------------------ rendering


def _cell(part: dict[str, Any]) -> str:
    if part["rate"] is None:
        return "no data"
    mark = "*" if part["small"] else ""
    return (
        f"{part['rate']:.1%}{mark} ({part['low'] * 100:.1f}–{part['high'] * 100:.1f})"
        f"\n{part['leaking']}/{part['total']}"
    )


def render_table(result: dict[str, Any], width: int | None = None) -> str:
    from rich.console import Console
    from rich.table import Table

    from leakline.pipeline.core.term import layout_width
    from leakline.pipeline.core.term import text as safe_text

    a, b = result["a"], result["b"]
    heads = [
        safe_text(f"A: {a['where']}  ({a['total']} events)"),
        safe_text(f"B: {b['where']}  ({b['total']} events)"),
    ]
    table = Table(expand=True)
    table.add_column(
        safe_text("label" if result["by"] == "label" else result["by"]), overflow="fold"
    )
    table.add_column("A rate (95% CI)\nleaking/n", justify="right")
    table.add_column("B rate (95% CI)\nleaking/n", justify="right")
    table.add_column("B - A", justify="right", no_wrap=True)
    table.add_column("p", justify="right", no_wrap=True)
    table.add_column("needed\nper side", justify="right")
    for row in result["rows"]:
        if row["key"] != "overall" and not (row["a"]["leaking"] or row["b"]["leaking"]):
            continue  # a label neither side has
        diff = "–" if row["diff"] is None else f"{row['diff'] * 100:+.1f} pp"
        p = f"{row['p_value']:.2g}" if row["p_value"] >= 1e-6 else "<1e-6"
        p += " !" if row["significant"] else ""
        needed = "–" if row["needed_per_side"] is None else str(row["needed_per_side"])
        if row["needed_per_side"] is not None and not row["enough"]:
            needed += " ↑"
        table.add_row(safe_text(row["key"]), _cell(row["a"]), _cell(row["b"]), diff, p, needed)
    buffer = io.StringIO()
    width = layout_width(*heads, table, width=width)
    console = Console(file=buffer, width=width, no_color=True, highlight=False)
    for head in heads:
        console.print(head)
    console.print(table)
    console.print(
        f"! significant at alpha {result['alpha']} (each row its own test) · * fewer than 30 "
        f"events · needed: events per side to detect the difference with power "
        f"{result['power']:.0%} (↑ = more than this side has)"
    )
    return buffer.getvalue()


# ------------------------------------------------------------------ CLI


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("selector_a", metavar="SELECTOR_A", help="e.g. engine.version=0.31.0")
    p.add_argument("selector_b", metavar="SELECTOR_B", help="e.g. engine.version=0.32.0")
    add_data_dir(p, as_of=True)
    p.add_argument(
        "--by",
        default="label",
        metavar="label|FIELD",
        help="rows per label (default), or the overall rate per value of FIELD",
    )
    add_filter_args(p)
    p.add_argument(
        "--include-gate", action="store_true", help="count gate replays too (left out by default)"
    )
    p.add_argument("--alpha", type=ratio, default=0.05, help="significance level (default: 0.05)")
    p.add_argument("--power", type=ratio, default=0.8, help="power for 'needed' (default: 0.8)")
    p.add_argument(
        "--detect",
        type=ratio,
        metavar="DIFF",
        help="difference in rate to size 'needed' for, e.g. 0.02 (default: the observed one)",
    )
    p.add_argument("--format", default="table", choices=["table", "json"])
    p.set_defaults(func=cmd_compare)


def add_parser(subparsers: Any) -> None:
    """Register ``compare`` on the ``leakline`` sub-command parsers."""
    register(
        subparsers,
        "compare",
        "two populations side by side: rates, intervals, difference, significance",
        DESCRIPTION,
        _configure,
    )


def cmd_compare(args: argparse.Namespace) -> int:
    import orjson

    from leakline.pipeline.store.database import read_only

    shared = where_from_args(args)
    if not args.include_gate:
        shared = shared.production_only()
    if not 0 < args.alpha < 1 or not 0 < args.power < 1:
        raise LeaklineError("--alpha and --power must be between 0 and 1 (exclusive)")
    settings = from_env(data_dir=args.data_dir)
    by = None if args.by == "label" else args.by
    with read_only(settings.data_dir, as_of=args.as_of) as con:
        result = run_compare(
            con, args.selector_a, args.selector_b, shared, by, args.alpha, args.power, args.detect
        )
    if args.format == "json":
        sys.stdout.write(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        sys.stdout.write(render_table(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m leakline.pipeline.store.compare``: the same command without ``leakline``."""
    return run_standalone("compare", DESCRIPTION, _configure, argv)


if __name__ == "__main__":
    sys.exit(main())
