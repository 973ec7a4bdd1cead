"""Tool-call triggering in the gate, as K2VV measures it: did the candidate call a tool
where the reference did, with the same tool, and were its calls schema-valid?

The reference decision of a case is its *recorded* reply (the regression case's event): it
called a tool when it made a structured tool call, or when its labels say the call was left
in text (``tool_call_as_text``: the model decided to call, the parser lost it) or only
announced (``stalled_turn``: the turn ended on "I'll search for that now"). Only replays
with tools declared count. For each of them the candidate's reply is:

- **trigger**: a structured tool call, or not: precision, recall and F1 of "called a tool"
  against the reference;
- **tool-name agreement**: where both called, the same set of tool names;
- **schema accuracy per strict**: calls without ``tool_args_invalid`` over the replies that
  called a tool, split by the request's ``tools.strict`` (all / some / none).

A trigger F1 below the baseline's by more than the tolerance is a regression, like a leak
rate. The baseline's F1 comes from a rate file's ``"triggering"`` entry (``--write-rates``
writes it) or from the baseline version's stored gate replies of the same cases; without
either there is nothing to compare and the figures are reported only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from leakline.pipeline.events.normalise import normalise

TRIGGER_KEY = "trigger_f1"
# slug parts at the end of a gate event id: stream-stop-json-tools (see cases.Combo.slug)
_SLUG_PARTS = 4
_RUN_ID_CHARS = 12
MIN_REFERENCE_CALLS = 1  # F1 means nothing when the reference never calls a tool
# labels that say the recorded reply decided to call a tool that never became a structured
# call: left in text, or announced in text and the turn ended (names unknown either way)
CALL_INTENT_LABELS = frozenset({"tool_call_as_text", "stalled_turn"})


@dataclass
class Triggering:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    names_agree: int = 0
    names_compared: int = 0
    # tools.strict -> [schema-valid calls, replies that called a tool]
    schema: dict[str, list[int]] = field(default_factory=dict)

    def add(
        self,
        reference: tuple[str, ...] | None,
        called: tuple[str, ...],
        strict: str,
        schema_valid: bool,
    ) -> None:
        """One replay: ``reference`` None = the case called no tool; ``called`` the
        candidate's tool names (empty: no call)."""
        if reference is not None and called:
            self.tp += 1
            if reference:  # names known (not a call left in text)
                self.names_compared += 1
                self.names_agree += set(reference) == set(called)
        elif called:
            self.fp += 1
        elif reference is not None:
            self.fn += 1
        else:
            self.tn += 1
        if called:
            cell = self.schema.setdefault(strict, [0, 0])
            cell[0] += schema_valid
            cell[1] += 1

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def reference_calls(self) -> int:
        return self.tp + self.fn

    def to_json(self) -> dict[str, Any]:
        return {
            "replies": self.tp + self.fp + self.fn + self.tn,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "tool_name_agreement": round(self.names_agree / self.names_compared, 4)
            if self.names_compared
            else None,
            "tool_names_compared": self.names_compared,
            "schema_accuracy_by_strict": {
                strict: {"valid": v, "calls": n, "accuracy": round(v / n, 4)}
                for strict, (v, n) in sorted(self.schema.items())
            },
        }


Decision = tuple[str, ...] | None  # tool names called (() when left in text), None: no call
Key = tuple[str, str]  # (case_id[:40], combo slug): one replay of one case


@dataclass(frozen=True)
class Reply:
    decision: Decision
    strict: str  # the request's tools.strict
    schema_valid: bool  # no tool_args_invalid


def _has_reply(event: Mapping[str, Any]) -> bool:
    return bool(event.get("response")) or bool(event.get("chunks"))


def recorded_decisions(regression: Path) -> dict[str, Decision]:
    """case_id -> the recorded reply's decision, for the cases that keep their reply."""
    out: dict[str, Decision] = {}
    for path in sorted((regression / "cases").glob("*.json")):
        try:
            case = json.loads(path.read_text("utf-8"))
            if not _has_reply(case["event"]):
                continue
            exchange = normalise(case["event"])
        except Exception:  # an unreadable case: the gate's own loader reports it
            continue
        names = tuple(sorted({c.name or "" for c in exchange.tool_calls}))
        if names:
            out[case["case_id"]] = names
        elif CALL_INTENT_LABELS.intersection(case.get("expected_labels", ())):
            out[case["case_id"]] = ()
        else:
            out[case["case_id"]] = None
    return out


def reply_of(event: Mapping[str, Any], labels: Sequence[str]) -> Reply:
    exchange = normalise(dict(event))
    names = tuple(sorted({c.name or "" for c in exchange.tool_calls}))
    return Reply(
        names or None, exchange.config.tools_strict or "none", "tool_args_invalid" not in labels
    )


def run_replies(
    outcomes: Iterable[Any], events: Iterable[Mapping[str, Any]]
) -> dict[Key, tuple[str, Reply]]:
    """The candidate run's replays with tools declared: key -> (case_id, reply)."""
    by_id = {e["event_id"]: e for e in events}
    out: dict[Key, tuple[str, Reply]] = {}
    for o in outcomes:
        if o.error or not o.combo.tools or o.event_id not in by_id:
            continue
        out[(o.case_id[:40], o.combo.slug)] = (o.case_id, reply_of(by_id[o.event_id], o.labels))
    return out


def measure(
    replies: Mapping[Key, tuple[str, Reply]],
    reference: Callable[[Key, str], tuple[bool, Decision]],
) -> Triggering:
    """Count each replay whose ``reference(key, case_id)`` is known (first item True)."""
    result = Triggering()
    for key, (case_id, reply) in replies.items():
        known, decision = reference(key, case_id)
        if known:
            result.add(decision, reply.decision or (), reply.strict, reply.schema_valid)
    return result


def decisions_json(replies: Mapping[Key, tuple[str, Reply]]) -> dict[str, list[str] | None]:
    """A run's decisions for a rate file: ``"case40/slug": [names] | null``."""
    return {
        f"{k[0]}/{k[1]}": (list(r.decision) if r.decision is not None else None)
        for k, (_, r) in sorted(replies.items())
    }


def _case_key(event_id: str) -> Key | None:
    """``(case_id[:40], slug)`` of ``gate-<run id>-<case>-<slug>``."""
    if not event_id.startswith("gate-"):
        return None
    parts = event_id[len("gate-") + _RUN_ID_CHARS + 1 :].split("-")
    if len(parts) <= _SLUG_PARTS:
        return None
    return "-".join(parts[:-_SLUG_PARTS]), "-".join(parts[-_SLUG_PARTS:])


def baseline_from_rates_file(path: Path) -> tuple[float | None, dict[Key, Decision]]:
    """(F1 against the recorded cases, per-replay decisions) from a rate file."""
    try:
        data = json.loads(path.read_text("utf-8"))["triggering"]
    except (OSError, ValueError, KeyError, TypeError):
        return None, {}
    f1 = data.get("f1_recorded") if isinstance(data, dict) else None
    decisions: dict[Key, Decision] = {}
    raw = data.get("decisions") if isinstance(data, dict) else None
    for key, names in (raw or {}).items():
        case, _, slug = str(key).partition("/")
        decisions[(case, slug)] = tuple(names) if isinstance(names, list) else None
    return (float(f1) if isinstance(f1, int | float) else None), decisions


def baseline_from_store(data_dir: Path, spec: Sequence[tuple[str, str]]) -> dict[Key, Decision]:
    """The baseline version's stored gate replies (with tools): key -> decision."""
    from leakline.pipeline.query.filters import FIELDS
    from leakline.pipeline.store.database import read_only

    where = ["starts_with(src_topic, 'gate-')", "event_json IS NOT NULL", "has_tools"]
    params: list[Any] = []
    for name, value in spec:
        where.append(f"CAST({FIELDS[name]} AS VARCHAR) = ?")
        params.append(value)
    sql = f"SELECT event_id, event_json, labels FROM samples WHERE {' AND '.join(where)}"
    try:
        with read_only(data_dir) as con:
            rows = con.execute(sql, params).fetchall()
    except Exception:  # no store yet, or one without these columns: no baseline decisions
        return {}
    out: dict[Key, Decision] = {}
    for event_id, raw, labels in rows:
        key = _case_key(event_id)
        if key is None or not key[1].endswith("-tools"):
            continue
        try:
            out[key] = reply_of(json.loads(raw), labels or ()).decision
        except Exception:
            continue
    return out


def _row(
    name: str, baseline: float | None, candidate: Triggering, tolerance: float
) -> dict[str, Any]:
    usable = baseline is not None and candidate.reference_calls >= MIN_REFERENCE_CALLS
    drop = baseline - candidate.f1 if baseline is not None else None
    return {
        "label": name,
        "baseline": round(baseline, 4) if baseline is not None else None,
        "candidate": round(candidate.f1, 4),
        "drop": round(drop, 4) if drop is not None else None,
        "regressed": bool(usable and drop is not None and drop > tolerance + 1e-9),
    }


def gate_triggering(
    config: Any, outcomes: Iterable[Any], events: Iterable[Mapping[str, Any]]
) -> dict[str, Any]:
    """Everything ``leakline gate`` reports about triggering, for its config and run.

    ``vs_recorded``: against the cases' recorded replies (where kept); ``vs_baseline``:
    against the baseline run's decision on the same case and combination (its F1 against
    itself is 1, so the drop is ``1 - F1``)."""
    from leakline.pipeline.gate.rates import parse_version_spec

    replies = run_replies(outcomes, events)
    recorded = recorded_decisions(config.regression)
    vs_recorded = measure(replies, lambda k, c: (c in recorded, recorded.get(c)))
    baseline_f1: float | None = None
    baseline: dict[Key, Decision] = {}
    if config.baseline_rates is not None:
        baseline_f1, baseline = baseline_from_rates_file(config.baseline_rates)
    elif config.baseline_version is not None:
        baseline = baseline_from_store(config.data_dir, parse_version_spec(config.baseline_version))
    vs_baseline = measure(replies, lambda k, c: (k in baseline, baseline.get(k)))
    rows = [_row(TRIGGER_KEY + "_recorded", baseline_f1, vs_recorded, config.tolerance)]
    rows.append(_row(TRIGGER_KEY, 1.0 if baseline else None, vs_baseline, config.tolerance))
    regressed = [r for r in rows if r["regressed"]]
    return {
        "vs_recorded": vs_recorded.to_json(),
        "vs_baseline": vs_baseline.to_json() if baseline else None,
        "comparison": regressed[0] if regressed else rows[-1] if baseline else rows[0],
        "rows": rows,
        "f1_recorded": round(vs_recorded.f1, 4) if vs_recorded.reference_calls else None,
        "decisions": decisions_json(replies),
    }


def _figures(name: str, t: Mapping[str, Any]) -> str:
    names = t.get("tool_name_agreement")
    schema = ", ".join(
        f"{strict} {cell['accuracy']:.1%} of {cell['calls']}"
        for strict, cell in t.get("schema_accuracy_by_strict", {}).items()
    )
    return (
        f"tool-call triggering {name}: F1 {t['f1']:.2f} (precision {t['precision']:.2f}, "
        f"recall {t['recall']:.2f}; tp {t['tp']} fp {t['fp']} fn {t['fn']} tn {t['tn']}), "
        f"tool-name agreement {'–' if names is None else f'{names:.1%}'}, "
        f"schema accuracy by tools.strict: {schema or '–'}"
    )


def render_lines(triggering: Mapping[str, Any]) -> list[str]:
    """The gate's text lines about triggering (the JSON report holds the same figures)."""
    lines = []
    if triggering.get("vs_baseline"):
        lines.append(_figures("vs the baseline run", triggering["vs_baseline"]))
    recorded = triggering.get("vs_recorded") or {}
    if recorded.get("replies"):
        lines.append(_figures("vs the recorded cases", recorded))
    for row in triggering.get("rows", []):
        if row["baseline"] is None:
            continue
        verdict = "[red]REGRESSED[/red]" if row["regressed"] else "ok"
        lines.append(
            f"{row['label']}: baseline {row['baseline']:.2f}, candidate {row['candidate']:.2f} "
            f"(drop {row['drop']:+.2f}): {verdict}"
        )
    return lines
