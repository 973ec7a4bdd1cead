"""Leak rates of a gate run, baselines (a stored version or a rate file), and the comparison.

Rate file (``--baseline-rates`` reads one, ``--write-rates`` writes one)::

    {"format": "leakline.rates/1", "overall": 0.05, "labels": {"preamble": 0.02, ...},
     "total": 160, "source": {...}}

``overall`` is the share of leaking replies, each label the share of replies carrying
it. A label missing from the file counts as 0.0.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.query.filters import Where
from leakline.pipeline.query.stats import binomial_above, two_proportion, wilson

if TYPE_CHECKING:
    from leakline.pipeline.gate.cases import Combo

RATES_FORMAT = "leakline.rates/1"
OVERALL = "overall"
_EPS = 1e-9  # rates are ratios of small integers; do not fail on float noise


# ------------------------------------------------------------------ results


@dataclass
class Outcome:
    case_id: str
    combo: Combo
    event_id: str
    labels: tuple[str, ...] = ()
    error: str | None = None


@dataclass
class Rates:
    total: int
    overall: float
    labels: dict[str, float] = field(default_factory=dict)

    def get(self, key: str) -> float:
        return self.overall if key == OVERALL else self.labels.get(key, 0.0)

    def count(self, key: str) -> int:
        """Replies behind a rate (rates are k / total, rounded to 6 places)."""
        return round(self.get(key) * self.total)

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "overall": self.overall,
            "labels": {label: self.labels.get(label, 0.0) for label in ALL_LABELS},
        }


def rates_of(outcomes: Sequence[Outcome]) -> Rates:
    done = [o for o in outcomes if o.error is None]
    total = len(done)
    if not total:
        return Rates(0, 0.0, {label: 0.0 for label in ALL_LABELS})
    counts = Counter(label for o in done for label in set(o.labels))
    return Rates(
        total=total,
        overall=round(sum(1 for o in done if o.labels) / total, 6),
        labels={label: round(counts[label] / total, 6) for label in ALL_LABELS},
    )


# ------------------------------------------------------------------ baselines


@dataclass(frozen=True)
class Baseline:
    source: str  # "store" (gate replies) | "store:production" | "file"
    spec: str
    rates: Rates
    # a gate-reply baseline: how many of the planned (case, combination) pairs it has
    coverage: tuple[int, int] | None = None


def parse_version_spec(spec: str) -> list[tuple[str, str]]:
    from leakline.pipeline.store.database import resolve_group_fields

    pairs = []
    for part in spec.split(","):
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise LeaklineError(
                f"bad --baseline-version {spec!r}",
                hint="use FIELD=VALUE[,FIELD=VALUE...], e.g. engine.version=0.31.0",
            )
        pairs.append((name.strip(), value.strip()))
    resolve_group_fields([name for name, _ in pairs])  # unknown fields raise with the list
    return pairs


def _cell(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


BASELINE_SOURCES = ("gate", "production")


def gate_case_key(event_id: str) -> tuple[str, str] | None:
    """(case id, combination slug) of a gate reply's event id
    (``gate-<run id>-<case id>-<stream>-<stop>-<json>-<tools>``), else None."""
    if not event_id.startswith("gate-"):
        return None
    run_and_rest = event_id[len("gate-") :].split("-", 1)
    if len(run_and_rest) != 2:
        return None
    parts = run_and_rest[1].rsplit("-", 4)
    if len(parts) != 5:
        return None
    return parts[0], "-".join(parts[1:])


def baseline_from_store(
    data_dir: Path,
    spec: str,
    source: str = "gate",
    plan: set[tuple[str, str]] | None = None,
) -> Baseline:
    """Per-label rates of the stored rows matching ``spec`` (group fields, bound values).

    ``source="gate"`` (the default): earlier gate replies of the same regression cases
    and combinations (``plan``: (case id[:40], slug) pairs), so baseline and candidate
    answer the same prompts. ``source="production"``: all production traffic at ``spec``,
    a different population (real prompts, not regression cases).
    """
    from leakline.pipeline.store.database import query_rates, read_only

    pairs = parse_version_spec(spec)
    fields = [name for name, _ in pairs]
    where = Where((*pairs, ("source", source)))
    matched = 0
    with read_only(data_dir) as con:
        if source == "production":
            rows = query_rates(con, fields, where)
            counts = _counts_of(rows)
        else:
            counts, matched = _gate_counts(con, where, plan)
        seen = [] if counts else query_rates(con, fields, Where((("source", source),)))
    if not counts or not counts[OVERALL][1]:
        shown = sorted({" ".join(f"{n}={_cell(r[n])}" for n in fields) for r in seen})
        what = "gate replies of these regression cases" if source == "gate" else "production events"
        raise LeaklineError(
            f"no stored {what} for baseline {spec} in {data_dir}",
            hint="stored "
            + source
            + ": "
            + ("; ".join(shown[:12]) or "nothing yet")
            + (
                ". Run the gate once against the current engine (same --regression) to store "
                "a baseline, or pass --baseline-from production to compare with production "
                "traffic"
                if source == "gate"
                else ""
            ),
        )
    total = counts[OVERALL][1]
    return Baseline(
        "store" if source == "gate" else "store:production",
        spec,
        Rates(
            total=total,
            overall=round(counts[OVERALL][0] / total, 6),
            labels={label: round(counts.get(label, (0, 0))[0] / total, 6) for label in ALL_LABELS},
        ),
        (matched, len(plan)) if source == "gate" and plan is not None else None,
    )


def _counts_of(rows: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    total = sum(int(r["total"]) for r in rows)
    if not total:
        return {}
    out = {OVERALL: (sum(int(r["leaking"]) for r in rows), total)}
    for label in ALL_LABELS:
        out[label] = (sum(int(r.get(label) or 0) for r in rows), total)
    return out


def _gate_counts(
    con: Any, where: Where, plan: set[tuple[str, str]] | None
) -> tuple[dict[str, tuple[int, int]], int]:
    """Counts over the gate replies in ``plan``, and how many planned pairs they cover."""
    clause, params = where.clause()
    rows = con.execute(f"SELECT event_id, labels FROM samples {clause}", params).fetchall()
    total, leaking = 0, 0
    per_label: Counter[str] = Counter()
    seen: set[tuple[str, str] | None] = set()
    for event_id, labels in rows:
        key = gate_case_key(event_id)
        if plan is not None and key not in plan:
            continue
        seen.add(key)
        total += 1
        leaking += bool(labels)
        per_label.update(set(labels or ()))
    if not total:
        return {}, 0
    counts = {
        OVERALL: (leaking, total),
        **{label: (per_label[label], total) for label in ALL_LABELS},
    }
    return counts, len(seen)


def _rate(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise LeaklineError(
            f"{where} must be a rate between 0 and 1, got {value!r}",
            hint='rate file format: {"overall": r, "labels": {label: r}}',
        )
    return float(value)


def baseline_from_file(path: Path) -> Baseline:
    hint = 'write one with `leakline gate ... --write-rates FILE`; format: {"overall": r, "labels": {label: r}}'
    try:
        data = orjson.loads(path.read_bytes())
    except OSError as exc:
        raise LeaklineError(f"cannot read rate file {path}: {exc.strerror}", hint=hint) from None
    except orjson.JSONDecodeError as exc:
        raise LeaklineError(f"rate file {path} is not JSON: {exc}", hint=hint) from None
    if not isinstance(data, dict) or "overall" not in data:
        raise LeaklineError(f"rate file {path} has no 'overall' rate", hint=hint)
    labels = data.get("labels") or {}
    if not isinstance(labels, dict):
        raise LeaklineError(f"rate file {path}: 'labels' must be an object", hint=hint)
    unknown = sorted(set(labels) - set(ALL_LABELS))
    if unknown:
        print(
            f"leakline gate: ignoring unknown labels in {path}: {', '.join(unknown)}",
            file=sys.stderr,
        )
    return Baseline(
        "file",
        str(path),
        Rates(
            total=int(data.get("total") or 0),
            overall=_rate(data["overall"], f"{path}: overall"),
            labels={
                label: _rate(labels.get(label, 0.0), f"{path}: labels.{label}")
                for label in ALL_LABELS
            },
        ),
    )


def compare(
    candidate: Rates, baseline: Rates, tolerance: float, alpha: float = 1.0
) -> list[dict[str, Any]]:
    """One row per label (and overall) with the verdict; regressions have ``regressed``.

    A rate regresses when the candidate is above the baseline by more than ``tolerance``
    **and** the rise is significant at ``alpha``: the one-sided pooled two-proportion
    z-test of ``leakline compare`` when the baseline has counts (a store, or a rate file
    with ``total``), else the exact binomial test against the baseline rate. ``alpha=1``
    checks the tolerance only.
    """
    rows = []
    for key in (OVERALL, *ALL_LABELS):
        cand, base = candidate.get(key), baseline.get(key)
        k_c, n_c = candidate.count(key), candidate.total
        if baseline.total:
            p_value = two_proportion(
                baseline.count(key), baseline.total, k_c, n_c, alternative="greater"
            ).p_value
            test = "two-proportion z, one-sided"
        else:
            p_value = binomial_above(k_c, n_c, base)
            test = "exact binomial against the baseline rate"
        above = cand > base + tolerance + _EPS
        significant = p_value <= alpha
        rows.append(
            {
                "label": key,
                "candidate": cand,
                "baseline": base,
                "delta": round(cand - base, 6),
                "candidate_interval": _interval(k_c, n_c),
                "baseline_interval": _interval(baseline.count(key), baseline.total),
                "p_value": p_value,
                "test": test,
                "above_tolerance": above,
                "significant": significant,
                "regressed": above and significant,
            }
        )
    return rows


def _interval(k: int, n: int) -> list[float] | None:
    bounds = wilson(k, n)
    return [round(bounds[0], 6), round(bounds[1], 6)] if bounds else None
