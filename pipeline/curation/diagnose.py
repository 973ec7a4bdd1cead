"""``leakline diagnose``: which layer of the serving stack the stored leaks point at.

Per (engine, engine version, model) slice of the ``samples`` view (one row per
event_id) it runs six steps and then ranks candidate causes:

1. collect          totals, leak rate, per-label counts, the detectors' own layers
2. boundary tokens  reasoning leaks with a visible delimiter (parser/template side), in
                    structured output fields, or untagged (the model did not emit the
                    boundary, or the thinking flag); the three add up to the leaks
3. streaming        leak rate streamed vs not, and paired variants of the same request
4. stop             the stream x stop cells, stream+stop against the rest, stop pairs
5. parsers          reasoning x tool-call parser combinations, a missing reasoning parser,
                    a reasoning parser from another family than the model
6. client           commentary rendered, mixed chunks, reasoning field mismatch

"Leak" in steps 2-4 means a delimiter-type leak: ``reasoning_leak`` or ``boundary_token``.
**Paired variants** are rows sharing ``request_key`` (the request minus its stream/stop
settings) that were sent streamed and not, or with and without stop; a variant counts as
leaking when any of its rows leaks. A pair whose label sets differ is the strongest
evidence there is: same request, same engine, only one setting changed.

Scoring (transparent, every number is printed):

- A candidate is one row of ``leakline.detectors.diagnosis`` (same id, layer, reason and fix).
- ``excess`` = events the cause explains beyond the background. For a contrast
  (stream+stop vs the other variants, streamed vs non-streamed without stop) it is
  ``k_exposed - n_exposed * rate_control``, where the control is the *worst* other
  variant with at least ``MIN_GROUP`` events (so a leak that streaming alone explains is
  not credited to stop); without a usable control group it falls back to the discordant
  pairs of the weakest variant (``only_exposed - only_control``). For a configuration fact (missing or mismatched
  reasoning parser) the control is the slice's other parser settings when there are
  at least ``MIN_GROUP`` of them, else zero. For an evidence fact (commentary rendered,
  truncated inside reasoning, ...) it is the number of events showing it; delimiter leaks
  that a standing-out contrast already explains are not counted again as facts.
- It **stands out** when ``excess >= 1`` and: for a contrast, a two-proportion z >=
  ``Z_MIN`` with at least ``MIN_GROUP`` events per side, or a one-sided exact sign test on
  the discordant pairs with p <= ``PAIR_P_MAX``; for a configuration fact, the z test
  above whenever a control group exists; an evidence fact always.
- Candidates are ranked by (stands out, excess, strength of evidence: paired > contrast >
  configuration > fact). The top one, if it stands out, is the most likely layer.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from leakline.detectors.diagnosis import (
    UNKNOWN,
    model_families,
    parser_family,
    parser_mismatch,
    rule,
    stop_setting,
    suggested_reasoning_parser,
    tool_parser_only,
)
from leakline.detectors.labels import ALL_LABELS, Layer
from leakline.pipeline.core.command import add_data_dir, register, run_standalone
from leakline.pipeline.core.config import from_env
from leakline.pipeline.core.errors import StoreError
from leakline.pipeline.families.files import activate_data_dir
from leakline.pipeline.query.filters import Where, add_filter_args, where_from_args

if TYPE_CHECKING:  # DuckDB, Arrow and the store load only when the command runs
    import duckdb

MIN_GROUP = 5  # events on each side before a rate contrast counts
Z_MIN = 1.96  # two-proportion z for a contrast to stand out (one-sided p ~ 0.025)
PAIR_P_MAX = 0.05  # one-sided exact sign test on discordant pairs
FIELD_PAIRS_SHOWN = 3  # (engine field, client field) pairs named on the client line

# evidence kinds, strongest first (the last sort key)
PAIRED, CONTRAST, CONFIG, FACT = "paired", "contrast", "configuration", "fact"
_STRENGTH = {PAIRED: 3, CONTRAST: 2, CONFIG: 1, FACT: 0}

# ------------------------------------------------------------------ SQL (constants only)

_BOUNDARY = "list_has_any(labels, ['reasoning_leak', 'boundary_token'])"


def _has_finding(label: str, key: str, values: Sequence[str]) -> str:
    """SQL: a stored finding with ``label`` has ``details.key`` in ``values``.

    Built from the constants in this module only; user input never reaches it.
    """
    listed = ", ".join(f"'{v}'" for v in values)
    return (
        "len(list_filter(CAST(findings AS JSON[]), lambda f: "
        f"json_extract_string(f, '$.label') = '{label}' AND "
        f"json_extract_string(f, '$.details.{key}') IN ({listed}))) > 0"
    )


_FIELDS = "('reasoning', 'reasoning_content')"
_COUNTS: dict[str, str] = {
    "total": "true",
    "leaking": "leaking",
    "boundary": _BOUNDARY,
    "reasoning_any": f"{_BOUNDARY} OR list_contains(labels, 'final_in_reasoning')",
    **{label: f"list_contains(labels, '{label}')" for label in ALL_LABELS},
    **{f"layer_{layer.value}": f"list_contains(layers, '{layer.value}')" for layer in Layer},
    "tagged": "list_contains(labels, 'reasoning_leak') AND list_contains(labels, 'boundary_token')",
    "untagged": "list_contains(labels, 'reasoning_leak') "
    "AND NOT list_contains(labels, 'boundary_token') AND NOT "
    + _has_finding("reasoning_leak", "delimited", ["structured_field"]),
    # the rest of the reasoning leaks: no delimiter, found in a structured output field
    # (tagged + untagged + in_fields = reasoning_leak, so step 2 accounts for every leak)
    "in_fields": "list_contains(labels, 'reasoning_leak') "
    "AND NOT list_contains(labels, 'boundary_token') AND "
    + _has_finding("reasoning_leak", "delimited", ["structured_field"]),
    "boundary_only": "list_contains(labels, 'boundary_token') "
    "AND NOT list_contains(labels, 'reasoning_leak')",
    "lone_end": "leaking AND " + _has_finding("reasoning_leak", "delimited", ["lone_end"]),
    "structured_unparsed": "leaking AND "
    + _has_finding("structured_invalid", "reason", ["fenced", "prefix_text", "not_json"]),
    "structured_unparsed_with_reasoning": "leaking AND reasoning_field IS NOT NULL AND "
    + _has_finding("structured_invalid", "reason", ["fenced", "prefix_text", "not_json"]),
    "structured_schema": "leaking AND "
    + _has_finding("structured_invalid", "reason", ["schema", "not_object"]),
    "truncated_in_reasoning": "leaking AND " + _has_finding("truncated", "in_reasoning", ["true"]),
    "preamble_plain": "list_contains(labels, 'preamble') "
    "AND NOT list_contains(labels, 'commentary_rendered')",
    "field_mismatch": f"reasoning_field IN {_FIELDS} AND client_reasoning_field IN {_FIELDS} "
    "AND reasoning_field <> client_reasoning_field",
    # reasoning inside structured output, in-schema CoT slots, history (request side)
    "field_reasoning_thinking": "thinking = 'on' AND "
    + _has_finding("reasoning_leak", "delimited", ["structured_field"]),
    "field_reasoning_other": "thinking <> 'on' AND "
    + _has_finding("reasoning_leak", "delimited", ["structured_field"]),
    "slot_order": _has_finding("reasoning_slot", "problem", ["answer_first"]),
    "slot_bound": _has_finding("reasoning_slot", "problem", ["over_max_length", "over_max_items"]),
}
_SLICE = ("engine_name", "engine_version", "model_name")
_CELL = (*_SLICE, "stream", "has_stop", "reasoning_parser", "tool_call_parser")


def _cells_sql(where: str) -> str:
    counts = ",\n    ".join(
        f"count(*) FILTER (WHERE {expr}) AS {name}" for name, expr in _COUNTS.items()
    )
    return f"SELECT {', '.join(_CELL)},\n    {counts}\nFROM samples\nWHERE {where}\nGROUP BY ALL"


def _fields_sql(where: str) -> str:
    """Which reasoning field the engine wrote and the client read, where they differ."""
    return f"""
SELECT {", ".join(_SLICE)}, reasoning_field, client_reasoning_field, count(*) AS events
FROM samples
WHERE {where} AND {_COUNTS["field_mismatch"]}
GROUP BY ALL
ORDER BY events DESC"""


def _pairs_sql(where: str) -> str:
    """Ordered pairs of variants (stream, has_stop) of the same request, per slice."""
    same = " AND ".join(f"a.{c} = b.{c}" for c in (*_SLICE, "request_key"))
    return f"""
WITH v AS (
    SELECT {", ".join(_SLICE)}, request_key, stream, has_stop,
        bool_or({_BOUNDARY}) AS leak,
        list_sort(list_distinct(flatten(list(labels)))) AS label_set
    FROM samples
    WHERE {where} AND request_key IS NOT NULL
    GROUP BY ALL
)
SELECT {", ".join(f"a.{c}" for c in _SLICE)},
    a.stream AS a_stream, a.has_stop AS a_stop, b.stream AS b_stream, b.has_stop AS b_stop,
    count(*) AS pairs,
    count(*) FILTER (WHERE a.label_set <> b.label_set) AS disagree,
    count(*) FILTER (WHERE a.leak AND NOT b.leak) AS a_only
FROM v a JOIN v b ON {same} AND (a.stream <> b.stream OR a.has_stop <> b.has_stop)
GROUP BY ALL"""


# ------------------------------------------------------------------ statistics


@dataclass(frozen=True)
class Count:
    """``k`` events with the outcome out of ``n``."""

    n: int = 0
    k: int = 0

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else 0.0

    def __add__(self, other: Count) -> Count:
        return Count(self.n + other.n, self.k + other.k)

    def text(self) -> str:
        return f"{self.k}/{self.n} ({self.rate:.1%})"

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "k": self.k, "rate": round(self.rate, 4)}


def two_proportion_z(a: Count, b: Count, min_group: int = MIN_GROUP) -> float | None:
    """Pooled two-proportion z of ``a`` over ``b``; None below ``min_group`` events a side."""
    if a.n < min_group or b.n < min_group:
        return None
    pooled = (a.k + b.k) / (a.n + b.n)
    if pooled in (0.0, 1.0):
        return 0.0
    se = math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n))
    return (a.rate - b.rate) / se


def one_sided_p(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def sign_test_p(wins: int, losses: int) -> float:
    """One-sided exact binomial p of at least ``wins`` of ``wins + losses`` at 1/2."""
    n = wins + losses
    if n == 0:
        return 1.0
    return sum(math.comb(n, i) for i in range(wins, n + 1)) / 2**n


def _p_text(p: float) -> str:
    return "p<0.0001" if p < 1e-4 else f"p={p:.4f}"


@dataclass(frozen=True)
class Pairs:
    """Paired variants: how many, how many disagree, who alone leaks."""

    pairs: int = 0
    disagree: int = 0
    only_exposed: int = 0
    only_control: int = 0

    def __add__(self, other: Pairs) -> Pairs:
        return Pairs(
            self.pairs + other.pairs,
            self.disagree + other.disagree,
            self.only_exposed + other.only_exposed,
            self.only_control + other.only_control,
        )

    @property
    def p(self) -> float:
        return sign_test_p(self.only_exposed, self.only_control)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "pairs": self.pairs,
            "disagree": self.disagree,
            "only_exposed": self.only_exposed,
            "only_control": self.only_control,
        }
        if self.only_exposed + self.only_control:
            out["sign_test_p"] = round(self.p, 6)
        return out


# ------------------------------------------------------------------ results


@dataclass(frozen=True)
class Candidate:
    """One possible cause, with the numbers behind it."""

    rule: str
    layer: str
    kind: str  # paired | contrast | configuration | fact
    excess: float
    share: float  # excess / events in the slice
    stands_out: bool
    evidence: str
    reason: str
    fix: str
    stats: dict[str, Any] = field(default_factory=dict)

    def sort_key(self) -> tuple[bool, float, int]:
        return (self.stands_out, round(self.excess, 6), _STRENGTH[self.kind])

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "layer": self.layer,
            "kind": self.kind,
            # a count of events stays an int; an estimate (contrast, configuration) keeps 2 places
            "excess": whole
            if abs(self.excess - (whole := round(self.excess))) < 1e-9
            else round(self.excess, 2),
            "share": round(self.share, 4),
            "stands_out": self.stands_out,
            "evidence": self.evidence,
            "reason": self.reason,
            "fix": self.fix,
            "stats": self.stats,
        }


@dataclass(frozen=True)
class VersionDiagnosis:
    """The six steps and the ranked candidates for one (engine, version, model) slice."""

    engine_name: str
    engine_version: str
    model_name: str
    total: int
    leaking: int
    steps: dict[str, dict[str, Any]]
    candidates: list[Candidate]

    @property
    def rate(self) -> float:
        return self.leaking / self.total if self.total else 0.0

    @property
    def top(self) -> Candidate | None:
        """The most likely cause, or None when no layer stands out."""
        first = self.candidates[0] if self.candidates else None
        return first if first is not None and first.stands_out else None

    @property
    def layer(self) -> str | None:
        return self.top.layer if self.top else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine_name": self.engine_name,
            "engine_version": self.engine_version,
            "model_name": self.model_name,
            "total": self.total,
            "leaking": self.leaking,
            "rate": round(self.rate, 4),
            "most_likely_layer": self.layer,
            "most_likely": self.top.to_dict() if self.top else None,
            "steps": self.steps,
            "candidates": [c.to_dict() for c in self.candidates],
        }


# ------------------------------------------------------------------ per-slice analysis

Variant = tuple[bool, bool]  # (stream, has_stop)
VARIANTS: tuple[Variant, ...] = ((True, True), (True, False), (False, True), (False, False))
_VARIANT_NAMES = {
    (True, True): "stream+stop",
    (True, False): "stream",
    (False, True): "stop",
    (False, False): "neither",
}


def _known(value: Any) -> str | None:
    return value if isinstance(value, str) and value and value != UNKNOWN else None


@dataclass
class _Slice:
    key: tuple[str, str, str]
    cells: list[dict[str, Any]]
    pair_rows: dict[tuple[Variant, Variant], tuple[int, int, int]]
    # (engine field, client field) -> events, most frequent first
    field_pairs: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def model(self) -> str:
        return self.key[2]

    def sum(self, column: str, where: Callable[[dict[str, Any]], bool] = lambda c: True) -> int:
        return sum(int(c[column]) for c in self.cells if where(c))

    def count(self, column: str, where: Callable[[dict[str, Any]], bool]) -> Count:
        return Count(self.sum("total", where), self.sum(column, where))

    def pairs(self, exposed: Iterable[Variant], control: Iterable[Variant]) -> Pairs:
        out = Pairs()
        control = tuple(control)
        for a in exposed:
            for b in control:
                n, disagree, a_only = self.pair_rows.get((a, b), (0, 0, 0))
                b_only = self.pair_rows.get((b, a), (0, 0, 0))[2]
                out += Pairs(n, disagree, a_only, b_only)
        return out

    # configuration predicates, per cell
    def tool_only(self, c: Mapping[str, Any]) -> bool:
        return tool_parser_only(c["reasoning_parser"], c["tool_call_parser"], self.model)

    def mismatch(self, c: Mapping[str, Any]) -> bool:
        return parser_mismatch(self.model, c["reasoning_parser"])

    def misconfigured(self, c: Mapping[str, Any]) -> bool:
        return self.tool_only(c) or self.mismatch(c)

    def prefilled(self, c: Mapping[str, Any]) -> bool:
        families = (*model_families(self.model), parser_family(c["reasoning_parser"]))
        return any(f is not None and f.start_prefilled for f in families)

    def reasoning_model(self, c: Mapping[str, Any]) -> bool:
        if _known(c["reasoning_parser"]):
            return True
        return any(f.reasoning_end for f in model_families(self.model))

    def context(self, where: Callable[[dict[str, Any]], bool] = lambda c: True) -> dict[str, str]:
        """Template values for the rule texts, from the largest matching parser combination."""
        chosen = [c for c in self.cells if where(c)] or self.cells
        top = max(chosen, key=lambda c: c["total"])
        rp, tp = _known(top["reasoning_parser"]), _known(top["tool_call_parser"])
        models = model_families(self.model)
        family = parser_family(rp)
        engine_field, client_field = next(iter(self.field_pairs), ("?", "?"))
        return {
            "model": _known(self.model) or "the model",
            "model_family": models[0].name if models else "unknown",
            "reasoning_parser": rp or "none",
            "parser_family": family.name if family else "unknown",
            "tool_parser": tp or "none",
            "suggested_parser": suggested_reasoning_parser(self.model, tp)
            or "<the model family's parser>",
            "engine": " ".join(x for x in self.key[:2] if _known(x)) or "the engine",
            "engine_field": engine_field,
            "client_field": client_field,
            "stop_setting": stop_setting(self.key[0]),
        }


def _in(variants: Iterable[Variant]) -> Callable[[dict[str, Any]], bool]:
    chosen = set(variants)
    return lambda c: (bool(c["stream"]), bool(c["has_stop"])) in chosen


def _candidate(
    s: _Slice,
    rule_id: str,
    kind: str,
    excess: float,
    stands_out: bool,
    evidence: str,
    stats: dict[str, Any],
    layer: Layer | None = None,
    context: Mapping[str, str] | None = None,
    reason: str | None = None,
) -> Candidate:
    row = rule(rule_id)
    why, fix = row.explain(context or s.context())
    total = s.sum("total")
    excess = max(0.0, excess)
    return Candidate(
        rule=rule_id,
        layer=(layer or row.layer or Layer.MODEL).value,
        kind=kind,
        excess=excess,
        share=excess / total if total else 0.0,
        stands_out=stands_out and excess >= 1,
        evidence=evidence,
        reason=reason or why,
        fix=fix,
        stats=stats,
    )


def _contrast(
    s: _Slice,
    rule_id: str,
    exposed_variant: Variant,
    control_variants: Sequence[Variant],
    reason: str | None = None,
) -> Candidate:
    """One variant against the others, conservatively.

    The rate control is the other variant with the highest leak rate among those with
    at least ``MIN_GROUP`` events (all of them pooled when none has that many), so a
    leak that streaming alone explains is not credited to stream+stop. The paired test
    likewise uses the control variant whose pairs give the weakest evidence.
    """
    name = _VARIANT_NAMES[exposed_variant]
    exposed = s.count("boundary", _in([exposed_variant]))
    by_variant = {v: s.count("boundary", _in([v])) for v in control_variants}
    eligible = [v for v in control_variants if by_variant[v].n >= MIN_GROUP]
    if eligible:
        worst = max(eligible, key=lambda v: (by_variant[v].rate, by_variant[v].n))
        control, control_name = by_variant[worst], _VARIANT_NAMES[worst]
    else:
        control = sum(by_variant.values(), Count())
        control_name = "+".join(_VARIANT_NAMES[v] for v in control_variants)
    z = two_proportion_z(exposed, control)
    contrast_ok = z is not None and z >= Z_MIN
    pooled = s.pairs([exposed_variant], control_variants)
    paired = {v: s.pairs([exposed_variant], [v]) for v in control_variants}
    paired = {v: p for v, p in paired.items() if p.pairs}
    weakest_variant = max(paired, key=lambda v: (paired[v].p, -paired[v].pairs), default=None)
    weakest = paired[weakest_variant] if weakest_variant is not None else Pairs()
    paired_ok = (
        weakest.only_exposed > weakest.only_control and weakest.p <= PAIR_P_MAX and bool(paired)
    )
    if control.n >= MIN_GROUP:
        excess = exposed.k - exposed.n * control.rate
    else:
        excess = weakest.only_exposed - weakest.only_control
    parts = [f"{name} {exposed.text()} vs {control_name} {control.text()}"]
    if z is not None:
        parts.append(f"z={z:.2f}, {_p_text(one_sided_p(z))}")
    else:
        parts.append(f"too few events for a rate test (need {MIN_GROUP} a side)")
    if weakest_variant is not None:
        other = _VARIANT_NAMES[weakest_variant]
        parts.append(
            f"paired: {pooled.pairs} same-request pairs, {pooled.disagree} disagree; "
            f"weakest against {other}: {weakest.only_exposed} leak only as {name}, "
            f"{weakest.only_control} only as {other} (sign test {_p_text(weakest.p)})"
        )
    stats = {
        "exposed": exposed.to_dict(),
        "control": control.to_dict(),
        "control_variant": control_name,
        "z": round(z, 3) if z is not None else None,
        "pairs": pooled.to_dict(),
        "pairs_weakest": None
        if weakest_variant is None
        else {"variant": _VARIANT_NAMES[weakest_variant], **weakest.to_dict()},
    }
    return _candidate(
        s,
        rule_id,
        PAIRED if paired_ok else CONTRAST,
        excess,
        contrast_ok or paired_ok,
        "; ".join(parts),
        stats,
        reason=reason,
    )


def _config(
    s: _Slice,
    rule_id: str,
    exposed_cell: Callable[[dict[str, Any]], bool],
    outcome: str,
    what: str,
) -> Candidate:
    exposed = s.count(outcome, exposed_cell)
    control = s.count(outcome, lambda c: not exposed_cell(c))
    z = two_proportion_z(exposed, control)
    has_control = control.n >= MIN_GROUP
    excess = exposed.k - exposed.n * control.rate if has_control else exposed.k
    combos = sorted(
        {
            f"reasoning={c['reasoning_parser']} tool={c['tool_call_parser']}"
            for c in s.cells
            if exposed_cell(c)
        }
    )
    evidence = f"{what} ({', '.join(combos) or 'none'}): {exposed.text()} leak"
    if has_control:
        evidence += f" vs other parser settings {control.text()}"
        if z is not None:
            evidence += f", z={z:.2f}"
    stats = {"exposed": exposed.to_dict(), "control": control.to_dict(), "combos": combos}
    ok = exposed.k > 0 and (not has_control or z is None or z >= Z_MIN)
    return _candidate(
        s, rule_id, CONFIG, excess, ok, evidence, stats, context=s.context(exposed_cell)
    )


def _fact(
    s: _Slice,
    rule_id: str,
    column: str,
    what: str,
    where: Callable[[dict[str, Any]], bool] = lambda c: True,
    layer: Layer | None = None,
    reason: str | None = None,
) -> Candidate:
    k = s.sum(column, where)
    total = s.sum("total")
    evidence = f"{k} of {total} events: {what}"
    stats = {"events": k, "total": total}
    return _candidate(s, rule_id, FACT, k, k > 0, evidence, stats, layer=layer, reason=reason)


def _candidates(s: _Slice) -> list[Candidate]:
    fine = lambda c: not s.misconfigured(c)  # noqa: E731
    plain = _in([(False, False)])
    streaming_reason = (
        "leaks appear when streamed and not otherwise: the engine's streaming "
        "boundary handling (a delimiter split over deltas, several tokens per step)"
    )
    stream_stop = _contrast(
        s, "stream_stop_desync", (True, True), [(True, False), (False, True), (False, False)]
    )
    streaming = _contrast(
        s, "stream_split_delimiter", (True, False), [(False, False)], streaming_reason
    )
    # delimiter leaks a standing-out contrast or the template fact already explain
    explained: set[Variant] = set()
    if stream_stop.stands_out:
        explained.add((True, True))
    if streaming.stands_out:
        explained.update({(True, True), (True, False)})
    prefilled_plain = lambda c: plain(c) and fine(c) and s.prefilled(c)  # noqa: E731
    unexplained = lambda c: fine(c) and not _in(explained)(c)  # noqa: E731
    has_parser = lambda c: _known(c["reasoning_parser"]) is not None  # noqa: E731
    for cell in s.cells:
        cell["delimited_other"] = int(cell["boundary_token"]) - (
            int(cell["lone_end"]) if prefilled_plain(cell) else 0
        )
    found = [
        stream_stop,
        streaming,
        _config(
            s,
            "tool_parser_without_reasoning_parser",
            s.tool_only,
            "boundary",
            "tool-call parser without reasoning parser",
        ),
        _config(
            s,
            "reasoning_parser_family_mismatch",
            s.mismatch,
            "reasoning_any",
            "reasoning parser of another family than the model",
        ),
        _fact(
            s,
            "prefilled_start_tag",
            "lone_end",
            "a lone end tag, non-streamed and without stop, on a family whose template "
            "prefills the start tag",
            where=prefilled_plain,
        ),
        _fact(
            s,
            "visible_delimiter",
            "delimited_other",
            "delimiters visible with a matching parser, not explained by stream/stop",
            where=lambda c: unexplained(c) and has_parser(c),
            layer=Layer.PARSER,
            reason="delimiters reach the visible text whatever the stream/stop settings, with "
            "a parser that should match: it does not recognise this model version's or chat "
            "template's output",
        ),
        _fact(
            s,
            "no_reasoning_parser_reported",
            "delimited_other",
            "delimiters visible where no parser is reported",
            where=lambda c: unexplained(c) and not has_parser(c),
            layer=Layer.PARSER,
        ),
        _fact(
            s,
            "untagged_reasoning",
            "untagged",
            "reasoning visible with no delimiter while the parsers are set right",
            where=fine,
            layer=Layer.MODEL,
        ),
        _fact(
            s,
            "final_in_reasoning_thinking_off",
            "final_in_reasoning",
            "the answer went to the reasoning field with a matching parser",
            where=lambda c: not s.mismatch(c),
            layer=Layer.PARSER,
        ),
        _fact(s, "commentary_rendered_client", "commentary_rendered", "commentary rendered"),
        _fact(s, "mixed_chunk_client", "mixed_chunk", "stream chunks with reasoning and content"),
        _fact(
            s,
            "reasoning_field_mismatch",
            "field_mismatch",
            "the client reads the other reasoning field than the engine wrote "
            "(no label: the reasoning is silently lost)",
        ),
        _fact(
            s,
            "structured_grammar_skipped",
            "structured_unparsed",
            "fences/prose around requested JSON on a reasoning model",
            where=s.reasoning_model,
        ),
        _fact(
            s,
            "structured_grammar_skipped",
            "structured_unparsed_with_reasoning",
            "fences/prose around requested JSON with reasoning present",
            where=lambda c: not s.reasoning_model(c),
        ),
        _fact(s, "structured_schema_violation", "structured_schema", "JSON breaking the schema"),
        _fact(s, "truncated_in_reasoning", "truncated_in_reasoning", "truncated inside reasoning"),
        _fact(
            s,
            "tool_call_not_parsed",
            "tool_call_as_text",
            "tool calls left in text",
            layer=Layer.PARSER,
        ),
        _fact(s, "tool_args_model", "tool_args_invalid", "invalid tool args", layer=Layer.MODEL),
        _fact(
            s, "preamble_model", "preamble_plain", "preambles (not commentary)", layer=Layer.MODEL
        ),
        _fact(
            s,
            "thinking_with_grammar",
            "field_reasoning_thinking",
            "reasoning in structured fields of requests with thinking on and a json_schema",
        ),
        _fact(
            s,
            "structured_field_reasoning",
            "field_reasoning_other",
            "reasoning in structured fields with thinking off or unset",
        ),
        _fact(s, "reasoning_slot_order", "slot_order", "answers written before reasoning slots"),
        _fact(s, "reasoning_slot_bound", "slot_bound", "reasoning slots over maxLength/maxItems"),
        _fact(s, "runaway_stop_eos", "runaway_turn", "replies that ran on into the next turn"),
        _fact(
            s,
            "stalled_tool_parser",
            "stalled_turn",
            "replies that only announced an action and ended the turn",
        ),
        _fact(
            s,
            "empty_stripped_output",
            "empty_response",
            "empty replies (no text, call or reasoning)",
        ),
        _fact(
            s,
            "history_template_mismatch",
            "history_mismatch",
            "histories that break the family's reasoning-across-turns rules",
        ),
    ]
    # two rows of the same rule (structured on reasoning models): keep the larger
    best: dict[str, Candidate] = {}
    for candidate in found:
        kept = best.get(candidate.rule)
        if kept is None or candidate.sort_key() > kept.sort_key():
            best[candidate.rule] = candidate
    return sorted(best.values(), key=Candidate.sort_key, reverse=True)


def _steps(s: _Slice) -> dict[str, dict[str, Any]]:
    total, leaking = s.sum("total"), s.sum("leaking")
    labels = {label: s.sum(label) for label in ALL_LABELS if s.sum(label)}
    layers = {layer.value: s.sum(f"layer_{layer.value}") for layer in Layer}
    reasoning, tagged, untagged = s.sum("reasoning_leak"), s.sum("tagged"), s.sum("untagged")
    share = tagged / reasoning if reasoning else None
    if not reasoning:
        reading = "no reasoning leaks"
    elif share is not None and share >= 0.5:
        reading = "mostly delimited: the model emitted the boundary, look at parser/template"
    else:
        reading = "mostly untagged: the model did not emit the boundary, or the template's thinking flag disagrees"
    cells = {_VARIANT_NAMES[v]: s.count("boundary", _in([v])) for v in VARIANTS}
    stream = s.count("boundary", lambda c: bool(c["stream"]))
    non_stream = s.count("boundary", lambda c: not c["stream"])
    rest = [(True, False), (False, True), (False, False)]
    z_stream = two_proportion_z(stream, non_stream)
    z_stream_stop = two_proportion_z(cells["stream+stop"], s.count("boundary", _in(rest)))
    combos: dict[tuple[str, str], Count] = defaultdict(Count)
    finals: dict[tuple[str, str], int] = defaultdict(int)
    for c in s.cells:
        key = (c["reasoning_parser"], c["tool_call_parser"])
        combos[key] += Count(int(c["total"]), int(c["boundary"]))
        finals[key] += int(c["final_in_reasoning"])
    combo_rows = [
        {
            "reasoning_parser": rp,
            "tool_call_parser": tp,
            "events": count.n,
            "boundary_leaks": count.k,
            "final_in_reasoning": finals[(rp, tp)],
            "missing_reasoning_parser": tool_parser_only(rp, tp, s.model),
            "family_mismatch": parser_mismatch(s.model, rp),
        }
        for (rp, tp), count in sorted(combos.items(), key=lambda kv: -kv[1].n)
    ]
    return {
        "collect": {
            "total": total,
            "leaking": leaking,
            "rate": round(leaking / total, 4) if total else 0.0,
            "labels": labels,
            "detector_layers": {k: v for k, v in layers.items() if v},
        },
        "boundary_tokens": {
            "reasoning_leaks": reasoning,
            "with_delimiter": tagged,
            "in_structured_fields": s.sum("in_fields"),
            "untagged": untagged,
            "delimiter_share": round(share, 4) if share is not None else None,
            "lone_end_tags": s.sum("lone_end"),
            "delimiter_without_reasoning": s.sum("boundary_only"),
            "reading": reading,
        },
        "streaming": {
            "stream": stream.to_dict(),
            "non_stream": non_stream.to_dict(),
            "z": round(z_stream, 3) if z_stream is not None else None,
            "pairs": _stream_pairs(s).to_dict(),
        },
        "stop": {
            "cells": {name: count.to_dict() for name, count in cells.items()},
            "z_stream_stop_vs_rest": round(z_stream_stop, 3) if z_stream_stop is not None else None,
            "pairs": _stop_pairs(s).to_dict(),
            "pairs_streamed": s.pairs([(True, True)], [(True, False)]).to_dict(),
        },
        "parsers": {
            "combinations": combo_rows,
            "missing_reasoning_parser_events": s.sum("total", s.tool_only),
            "family_mismatch_events": s.sum("total", s.mismatch),
        },
        "client": {
            "commentary_rendered": s.sum("commentary_rendered"),
            "mixed_chunk": s.sum("mixed_chunk"),
            "reasoning_field_mismatch": s.sum("field_mismatch"),
            "field_pairs": [
                {"engine_field": e, "client_field": c, "events": n}
                for (e, c), n in s.field_pairs.items()
            ],
        },
    }


def _stream_pairs(s: _Slice) -> Pairs:
    """Streamed vs non-streamed variants with the same stop setting."""
    return s.pairs([(True, True)], [(False, True)]) + s.pairs([(True, False)], [(False, False)])


def _stop_pairs(s: _Slice) -> Pairs:
    """With vs without stop, same stream setting."""
    return s.pairs([(True, True)], [(True, False)]) + s.pairs([(False, True)], [(False, False)])


# ------------------------------------------------------------------ the query side


def _where(
    engine_version: str | None,
    engine_name: str | None,
    model_name: str | None,
    where: Where | None = None,
) -> tuple[str, list[Any]]:
    conditions, params = ["true"], []
    if where is not None:
        more, values = where.sql()
        conditions += more
        params += values
    for column, value in (
        ("engine_version", engine_version),
        ("engine_name", engine_name),
        ("model_name", model_name),
    ):
        if value is not None:
            conditions.append(f"{column} = ?")
            params.append(value)
    return " AND ".join(conditions), params


def _fetch(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    import duckdb

    from leakline.pipeline.store.database import StoreErrorKind, classify

    try:
        cursor = con.execute(sql, params)
    except duckdb.Error as exc:
        if classify(exc) is StoreErrorKind.MISSING:
            raise StoreError(
                "the store has no views yet", hint="start a worker once on this data dir"
            ) from exc
        raise StoreError(f"diagnose query failed: {exc}") from exc
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def diagnose_store(
    con: duckdb.DuckDBPyConnection,
    *,
    engine_version: str | None = None,
    engine_name: str | None = None,
    model_name: str | None = None,
    where: Where | None = None,
) -> list[VersionDiagnosis]:
    """One ``VersionDiagnosis`` per (engine, version, model) in the slice, most leaking first.

    ``where``: the ``--where``/``--since``/``--until`` filter. Filter values are bound
    parameters. Raises ``StoreError`` when nothing matches.
    """
    flt = where
    condition, params = _where(engine_version, engine_name, model_name, flt)
    cells = _fetch(con, _cells_sql(condition), params)
    if not cells:
        asked = {
            "--version": engine_version,
            "--engine": engine_name,
            "--model": model_name,
        }
        shown = ", ".join(f"{k} {v!r}" for k, v in asked.items() if v is not None)
        if flt is not None and (flt.pairs or flt.since or flt.until):
            shown = ", ".join(x for x in (shown, flt.describe()) if x)
        raise StoreError(
            f"no stored events match {shown}" if shown else "the store holds no events yet",
            hint="list what is stored with `leakline rates --by engine.name,engine.version,model.name`"
            if shown
            else "start a worker with --data-dir pointing here, or run `leakline demo`",
        )
    pair_rows: dict[tuple[str, str, str], dict[tuple[Variant, Variant], tuple[int, int, int]]]
    pair_rows = defaultdict(dict)
    for row in _fetch(con, _pairs_sql(condition), params):
        key = (row["engine_name"], row["engine_version"], row["model_name"])
        variants = ((row["a_stream"], row["a_stop"]), (row["b_stream"], row["b_stop"]))
        pair_rows[key][variants] = (row["pairs"], row["disagree"], row["a_only"])
    fields: dict[tuple[str, str, str], dict[tuple[str, str], int]] = defaultdict(dict)
    for row in _fetch(con, _fields_sql(condition), params):
        key = (row["engine_name"], row["engine_version"], row["model_name"])
        fields[key][(row["reasoning_field"], row["client_reasoning_field"])] = row["events"]
    by_slice: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for cell in cells:
        by_slice[(cell["engine_name"], cell["engine_version"], cell["model_name"])].append(cell)
    out = []
    for key, slice_cells in by_slice.items():
        s = _Slice(key, slice_cells, pair_rows.get(key, {}), fields.get(key, {}))
        out.append(
            VersionDiagnosis(
                engine_name=key[0],
                engine_version=key[1],
                model_name=key[2],
                total=s.sum("total"),
                leaking=s.sum("leaking"),
                steps=_steps(s),
                candidates=_candidates(s),
            )
        )
    return sorted(out, key=lambda d: (-d.leaking, d.engine_name, d.engine_version, d.model_name))


# ------------------------------------------------------------------ rendering


def _render_one(d: VersionDiagnosis, others: int) -> list[str]:
    st = d.steps
    lines = [
        f"== engine {d.engine_name} {d.engine_version} · model {d.model_name}: "
        f"{d.total} events, {d.leaking} leaking ({d.rate:.1%})"
    ]
    labels = ", ".join(f"{k} {v}" for k, v in st["collect"]["labels"].items()) or "none"
    layers = ", ".join(f"{k} {v}" for k, v in st["collect"]["detector_layers"].items()) or "none"
    lines.append(f"1 collect    labels: {labels}; detectors' layers: {layers}")
    b = st["boundary_tokens"]
    share = f"{b['delimiter_share']:.0%}" if b["delimiter_share"] is not None else "-"
    lines.append(
        f"2 boundary   {b['reasoning_leaks']} reasoning leaks: {b['with_delimiter']} with a "
        f"delimiter ({share}), {b['in_structured_fields']} in structured fields, "
        f"{b['untagged']} untagged; {b['lone_end_tags']} lone end tags "
        f"-> {b['reading']}"
    )
    sm = st["streaming"]
    z = f", z={sm['z']:.2f}" if sm["z"] is not None else ""
    lines.append(
        f"3 streaming  stream {_c(sm['stream'])} vs non-stream {_c(sm['non_stream'])}{z}; "
        f"pairs {_pairs_text(sm['pairs'], 'streamed', 'non-streamed')}"
    )
    sp = st["stop"]
    cells = " · ".join(f"{name} {_c(c)}" for name, c in sp["cells"].items())
    lines.append(f"4 stop       {cells}; pairs {_pairs_text(sp['pairs'], 'with stop', 'without')}")
    combos = "; ".join(
        f"reasoning={c['reasoning_parser']} tool={c['tool_call_parser']}: {c['events']} events, "
        f"{c['boundary_leaks']} delimiter leaks, {c['final_in_reasoning']} final_in_reasoning"
        + (" [no reasoning parser]" if c["missing_reasoning_parser"] else "")
        + (" [family mismatch]" if c["family_mismatch"] else "")
        for c in st["parsers"]["combinations"]
    )
    lines.append(f"5 parsers    {combos}")
    cl = st["client"]
    lines.append(
        f"6 client     commentary rendered {cl['commentary_rendered']}, mixed chunks "
        f"{cl['mixed_chunk']}, reasoning field mismatch {cl['reasoning_field_mismatch']}"
        + "".join(
            f" (engine {f['engine_field']} -> client reads {f['client_field']}: {f['events']})"
            for f in cl["field_pairs"][:FIELD_PAIRS_SHOWN]
        )
        + _more(cl["field_pairs"][FIELD_PAIRS_SHOWN:])
    )
    top = d.top
    if top is None:
        lines.append("-> no leak layer stands out" + (" (no leaks)" if not d.leaking else ""))
    else:
        lines.append(
            f"-> most likely layer: {top.layer.upper()} ({top.rule}; {top.kind}; explains "
            f"{_events(top.excess)} of {d.total} events, {top.share:.1%})"
        )
        lines.append(f"   evidence: {top.evidence}")
        lines.append(f"   why: {top.reason}")
        lines.append(f"   fix to try: {top.fix}")
    rest = [c for c in d.candidates if c is not top and (c.excess > 0 or c.stands_out)]
    if rest:
        lines.append("   other candidates:")
        for c in rest[:others]:
            mark = "*" if c.stands_out else " "
            lines.append(
                f"   {mark} {c.layer:<8} {c.rule} (excess {_events(c.excess)}, {c.kind}): "
                f"{c.evidence}"
            )
    return lines


def _events(excess: float) -> str:
    """Events a candidate explains: a whole count as one; an estimate (a count less the
    control's expected share) rounded, and marked as such, never as ``1764.0``."""
    whole = round(excess)
    return str(whole) if abs(excess - whole) < 1e-9 else f"~{whole}"


def _more(pairs: Sequence[Mapping[str, Any]]) -> str:
    """The field pairs past those shown, so that the shown ones sum to the mismatch count."""
    if not pairs:
        return ""
    return f" (+{len(pairs)} more pairs: {sum(int(p['events']) for p in pairs)})"


def _c(count: Mapping[str, Any]) -> str:
    return f"{count['k']}/{count['n']} ({count['rate']:.1%})"


def _pairs_text(p: Mapping[str, Any], exposed: str, control: str) -> str:
    text = f"{p['pairs']} ({p['disagree']} disagree"
    if p["pairs"]:
        text += f"; leak only {exposed} {p['only_exposed']}, only {control} {p['only_control']}"
    return text + ")"


def render_table(diagnoses: Sequence[VersionDiagnosis], others: int = 5) -> str:
    from leakline.pipeline.core.term import safe

    # each line holds version strings and evidence from events: one printable line each
    blocks = ["\n".join(safe(line) for line in _render_one(d, others)) for d in diagnoses]
    legend = (
        "(delimiter leaks = reasoning_leak or boundary_token; * = also stands out; "
        "scoring: `leakline diagnose --help`)"
    )
    return "\n\n".join(blocks) + "\n" + legend + "\n"


def render_json(diagnoses: Sequence[VersionDiagnosis]) -> str:
    import orjson

    return (
        orjson.dumps([d.to_dict() for d in diagnoses], option=orjson.OPT_INDENT_2).decode() + "\n"
    )


# ------------------------------------------------------------------ command line

DESCRIPTION = """\
Find the layer (model / template / parser / api / client) that stored leaks point at,
per engine version and model, and the fix to try. Six steps over DATA_DIR/leakline.duckdb
(each event_id counted once):
  1 collect: totals, leak rate, per-label counts
  2 boundary tokens: reasoning leaks delimited (parser/template), in structured fields,
    or untagged (model/template)
  3 streaming vs non-streaming leak rates
  4 stop vs no stop, especially stream+stop
  5 reasoning x tool-call parser combinations; missing or wrong-family reasoning parser
  6 client path: commentary rendered, mixed chunks, reasoning field mismatch
Paired variants (the same request sent streamed and not, or with and without stop, via
request_key) whose labels disagree are the strongest evidence.

scoring: each candidate's excess = events it explains beyond its control group's rate
(for stream+stop the control is the worst other variant, so streaming alone is not
credited to stop). A contrast stands out with a two-proportion z >= 1.96 (>= 5 events a
side) or a one-sided exact sign test p <= 0.05 on the discordant pairs; configuration
facts (missing or wrong-family reasoning parser) and evidence facts stand out when they
explain at least one event. Ranked by excess, then evidence strength
(paired > contrast > configuration > fact). Exit status 0 when the store was read."""


def _configure(p: argparse.ArgumentParser) -> None:
    add_data_dir(p, as_of=True)
    p.add_argument(
        "--version",
        dest="engine_version",
        metavar="ENGINE_VERSION",
        help="only this engine version (default: every version, one diagnosis each)",
    )
    p.add_argument("--engine", dest="engine_name", metavar="NAME", help="only this engine name")
    p.add_argument("--model", dest="model_name", metavar="NAME", help="only this model name")
    add_filter_args(p)
    p.add_argument(
        "--include-gate", action="store_true", help="read gate replays too (left out by default)"
    )
    p.add_argument("--format", default="table", choices=["table", "json"], help="output format")
    p.set_defaults(func=cmd_diagnose)


def add_parser(subparsers: Any) -> None:
    """Register ``diagnose`` on the ``leakline`` sub-command parsers."""
    register(
        subparsers,
        "diagnose",
        "which layer the stored leaks point at, and the fix to try",
        DESCRIPTION,
        _configure,
    )


def cmd_diagnose(args: argparse.Namespace) -> int:
    from leakline.pipeline.store.database import read_only

    settings = from_env(data_dir=args.data_dir)
    where = where_from_args(args)
    if not args.include_gate:
        where = where.production_only()
    activate_data_dir(settings.data_dir)  # imported families join the built-in table
    with read_only(settings.data_dir, as_of=args.as_of) as con:
        result = diagnose_store(
            con,
            engine_version=args.engine_version,
            engine_name=args.engine_name,
            model_name=args.model_name,
            where=where,
        )
    sys.stdout.write(render_json(result) if args.format == "json" else render_table(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m leakline.pipeline.curation.diagnose``: the same command without the ``leakline`` entry point."""
    return run_standalone("diagnose", DESCRIPTION, _configure, argv)


if __name__ == "__main__":
    sys.exit(main())
