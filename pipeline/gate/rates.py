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
    source: str  # "store" | "file"
    spec: str
    rates: Rates


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


def baseline_from_store(data_dir: Path, spec: str) -> Baseline:
    """Per-label rates of the stored rows matching ``spec`` (group fields, bound values)."""
    from leakline.pipeline.store.database import query_rates, read_only

    pairs = parse_version_spec(spec)
    fields = [name for name, _ in pairs]
    with read_only(data_dir) as con:
        rows = query_rates(con, fields)
    match = [r for r in rows if all(_cell(r[name]) == value for name, value in pairs)]
    if not match:
        seen = sorted({" ".join(f"{n}={_cell(r[n])}" for n in fields) for r in rows})
        raise LeaklineError(
            f"no stored events for baseline {spec} in {data_dir}",
            hint="stored: "
            + ("; ".join(seen[:12]) or "nothing yet")
            + ". Run the gate once against the current engine to store a baseline.",
        )
    row = match[0]
    total = int(row["total"])
    return Baseline(
        "store",
        spec,
        Rates(
            total=total,
            overall=round(row["leaking"] / total, 6),
            labels={label: round((row.get(label) or 0) / total, 6) for label in ALL_LABELS},
        ),
    )


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


def compare(candidate: Rates, baseline: Rates, tolerance: float) -> list[dict[str, Any]]:
    """One row per label (and overall) with the verdict; regressions have ``regressed``."""
    rows = []
    for key in (OVERALL, *ALL_LABELS):
        cand, base = candidate.get(key), baseline.get(key)
        rows.append(
            {
                "label": key,
                "candidate": cand,
                "baseline": base,
                "delta": round(cand - base, 6),
                "regressed": cand > base + tolerance + _EPS,
            }
        )
    return rows
