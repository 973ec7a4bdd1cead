"""Leave-one-family-out: how well leakline sees a model family it has no row for.

For each row of the family table (``leakline.detectors.families``), the detectors run
with that row left out (``families_excluding``; its tool markup goes too when no other
row uses it), so only the generic layer and the other rows remain:

- recall per label on that family's own corpus cases (``tests/corpus/cases``): every
  ``boundary_token`` and ``tool_call_as_text`` positive, and the ``reasoning_leak``
  positives whose reasoning is delimited (``reasoning_form == "tagged"``);
- the false-positive rate over every clean corpus case (hard negatives included): a
  clean case that gets any label is a false positive.

A corpus case belongs to the row its ``family`` field names, through ``ALIASES`` for
corpus names that are not row names (``qwq`` is served as Qwen3), else to the first row
its model name and parsers point at. ``--generic-only`` adds one more run with *every*
row left out: the generic layer alone, the strictest zero-day measurement.

    .venv/bin/python benchmarks/lofo.py                        # table on stdout
    .venv/bin/python benchmarks/lofo.py --out lofo.json --markdown lofo.md
    .venv/bin/python benchmarks/lofo.py --families qwen3,kimi_k2 --generic-only

``--probes`` adds a measurement that needs no corpus case, so it covers the rows that have
none: each row's own literals written into short answers (en/ko/zh), up to two of each
kind: a reasoning span between its start and end delimiters, its end delimiter alone after
reasoning, and its boundary tokens after an answer. The labels the detectors give a probe *with* the row
are the reference; recall is the share of them the detectors still give with the row left
out. Tool-call markup is not probed (a row names its syntax by pattern, not by example).

Targets (issue 14): zero-day recall >= 0.90 for boundary_token and tool_call_as_text,
>= 0.80 for delimited reasoning_leak; clean false positives <= 0.5 %. Figures are
printed with their targets, never judged: the exit status is 0 whenever it ran.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from leakline.detectors import Exchange, run_detectors
from leakline.detectors.families import (
    ModelFamily,
    active_families,
    families_excluding,
    named_for,
)
from leakline.pipeline.events.normalise import normalise

REPO = Path(__file__).resolve().parents[1]
CASES_DIR = REPO / "tests" / "corpus" / "cases"
LABELS = ("boundary_token", "tool_call_as_text", "reasoning_leak")
TARGETS = {"boundary_token": 0.90, "tool_call_as_text": 0.90, "reasoning_leak": 0.80}
CLEAN_FP_TARGET = 0.005
# Corpus family names that are not row names: the row that serves them.
ALIASES = {
    "qwq": "qwen3",
    "qwen3_coder": "qwen3",
    "cohere": "cohere_command3",
    "magistral": "mistral",
    "llama4": "llama3",
}
# The detectors that read the family table (what leaving a row out changes).
TABLE_DETECTORS = ("boundary_tokens", "tool_call_text")
GENERIC = "(generic only)"


@dataclass
class Case:
    case_id: str
    family: str  # the corpus family
    row: str | None  # the family row it belongs to
    labels: frozenset[str]
    tagged: bool  # reasoning_leak is delimited
    exchange: Exchange


@dataclass
class Result:
    name: str
    cases: int = 0
    tp: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABELS, 0))
    pos: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABELS, 0))
    clean: int = 0
    clean_flagged: int = 0
    flagged_ids: list[str] = field(default_factory=list)
    missed_ids: dict[str, list[str]] = field(default_factory=dict)
    # findings of the table-driven detectors on this family's cases, with and without the row
    table_findings_with_row: int = 0
    table_findings_without_row: int = 0

    def recall(self, label: str) -> float | None:
        return self.tp[label] / self.pos[label] if self.pos[label] else None

    @property
    def clean_fp_rate(self) -> float:
        return self.clean_flagged / self.clean if self.clean else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "cases": self.cases,
            "recall": {
                label: {
                    "tp": self.tp[label],
                    "positives": self.pos[label],
                    "recall": self.recall(label),
                }
                for label in LABELS
            },
            "clean": {
                "cases": self.clean,
                "flagged": self.clean_flagged,
                "fp_rate": self.clean_fp_rate,
                "flagged_ids": self.flagged_ids,
            },
            "missed": self.missed_ids,
            "table_findings": {
                "with_row": self.table_findings_with_row,
                "without_row": self.table_findings_without_row,
            },
        }


def load_cases(cases_dir: Path = CASES_DIR, rows: Iterable[str] | None = None) -> list[Case]:
    """Every corpus case, normalised once, with the family row it belongs to."""
    known = {f.name for f in (active_families() if rows is None else ())} or set(rows or ())
    cases = []
    for path in sorted(cases_dir.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            raw = json.loads(line)
            exchange = normalise(raw["event"])
            cases.append(
                Case(
                    case_id=raw["case_id"],
                    family=raw["family"],
                    row=_row_of(raw["family"], exchange, known),
                    labels=frozenset(raw["expected_labels"]),
                    tagged=raw.get("reasoning_form") == "tagged",
                    exchange=exchange,
                )
            )
    return cases


def _row_of(family: str, exchange: Exchange, known: set[str]) -> str | None:
    if family in known:
        return family
    if ALIASES.get(family) in known:
        return ALIASES[family]
    v = exchange.versions
    named = named_for(v.reasoning_parser, v.tool_call_parser, v.model_name)
    return named[0].name if named else None


def _counted(case: Case, label: str) -> bool:
    return label in case.labels and (label != "reasoning_leak" or case.tagged)


def _table_findings(cases: Sequence[Case]) -> int:
    return sum(
        1
        for case in cases
        for f in run_detectors(case.exchange).findings
        if f.detector_id in TABLE_DETECTORS
    )


def evaluate(
    name: str, own: Sequence[Case], clean: Sequence[Case], leave_out: Sequence[str]
) -> Result:
    """One run: ``leave_out`` rows removed; recall on ``own``, false positives on ``clean``."""
    result = Result(name, cases=len(own), clean=len(clean))
    positives = [c for c in own if any(_counted(c, label) for label in LABELS)]
    result.table_findings_with_row = _table_findings(positives)
    with families_excluding(leave_out):
        result.table_findings_without_row = _table_findings(positives)
        for case in positives:
            got = set(run_detectors(case.exchange).labels)
            for label in LABELS:
                if _counted(case, label):
                    result.pos[label] += 1
                    if label in got:
                        result.tp[label] += 1
                    else:
                        result.missed_ids.setdefault(label, []).append(case.case_id)
        for case in clean:
            if run_detectors(case.exchange).labels:
                result.clean_flagged += 1
                result.flagged_ids.append(case.case_id)
    return result


def run(
    cases: Sequence[Case], families: Sequence[str] | None = None, generic_only: bool = False
) -> list[Result]:
    rows = [f.name for f in active_families()]
    chosen = rows if not families else [f for f in rows if f in set(families)]
    clean = [c for c in cases if not c.labels]
    results = [
        evaluate(name, [c for c in cases if c.row == name], clean, [name]) for name in chosen
    ]
    if generic_only:
        own = [c for c in cases if c.row in set(chosen) or c.family == "unknown"]
        results.append(evaluate(GENERIC, own, clean, rows))
    return results


def overall(results: Sequence[Result]) -> dict[str, Any]:
    """Micro-averaged over the leave-one-out runs (the generic-only run is not included)."""
    runs = [r for r in results if r.name != GENERIC]
    tp = {label: sum(r.tp[label] for r in runs) for label in LABELS}
    pos = {label: sum(r.pos[label] for r in runs) for label in LABELS}
    flagged = sum(r.clean_flagged for r in runs)
    checked = sum(r.clean for r in runs)
    return {
        "recall": {label: (tp[label] / pos[label] if pos[label] else None) for label in LABELS},
        "positives": pos,
        "clean_fp_rate": flagged / checked if checked else 0.0,
        "clean_fp_worst": max((r.clean_fp_rate for r in runs), default=0.0),
        "targets": {**TARGETS, "clean_fp": CLEAN_FP_TARGET},
    }


def _cell(result: Result, label: str) -> str:
    value = result.recall(label)
    if value is None:
        return "—"
    return f"{value:.2f} ({result.tp[label]}/{result.pos[label]})"


def table(results: Sequence[Result]) -> str:
    head = f"{'left out':<18}{'cases':>6}  {'boundary_token':<16}{'tool_call_as_text':<19}"
    head += f"{'reasoning (delim.)':<20}{'clean FP':>9}"
    lines = [head]
    for r in results:
        lines.append(
            f"{r.name:<18}{r.cases:>6}  {_cell(r, 'boundary_token'):<16}"
            f"{_cell(r, 'tool_call_as_text'):<19}{_cell(r, 'reasoning_leak'):<20}"
            f"{r.clean_fp_rate:>8.2%}"
        )
    summary = overall(results)
    rec = summary["recall"]
    lines.append(
        "overall (micro)         "
        + "  ".join(
            f"{label} {rec[label]:.3f} (target {TARGETS[label]:.2f})"
            for label in LABELS
            if rec[label] is not None
        )
        + f"  clean FP {summary['clean_fp_rate']:.3%} (target {CLEAN_FP_TARGET:.1%})"
    )
    return "\n".join(lines)


def markdown(results: Sequence[Result]) -> str:
    lines = [
        "| left out | cases | boundary_token | tool_call_as_text | reasoning_leak (delimited) | clean FP |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.name} | {r.cases} | {_cell(r, 'boundary_token')} | "
            f"{_cell(r, 'tool_call_as_text')} | {_cell(r, 'reasoning_leak')} | "
            f"{r.clean_fp_rate:.2%} ({r.clean_flagged}/{r.clean}) |"
        )
    summary = overall(results)
    rec = summary["recall"]
    cells = " | ".join(
        "—" if rec[label] is None else f"**{rec[label]:.3f}** (≥ {TARGETS[label]:.2f})"
        for label in LABELS
    )
    lines.append(
        f"| **overall** | | {cells} | **{summary['clean_fp_rate']:.2%}** (≤ {CLEAN_FP_TARGET:.1%}) |"
    )
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ row probes

# (reasoning, answer) per language: the text around a row's literals in its probes
PROBE_TEXTS = (
    (
        "The user wants the boiling point of water at sea level. It is 100 degrees "
        "Celsius; I will say so briefly.",
        "Water boils at 100 °C at sea level.",
    ),
    (
        "사용자가 해수면에서 물의 끓는점을 묻고 있다. 섭씨 100도이니 짧게 답하면 된다.",
        "해수면에서 물은 섭씨 100도에서 끓습니다.",
    ),
    ("用户问海平面上水的沸点。答案是摄氏一百度，简短回答即可。", "在海平面上，水在100摄氏度沸腾。"),
)
# at most this many literals of each kind per row: the rest are spellings of the same idea
PROBES_PER_KIND = 2


@dataclass(frozen=True)
class Probe:
    row: str
    kind: str  # "delimited", "end only", "token"
    literal: str
    text: str


def row_probes(row: ModelFamily) -> list[Probe]:
    """Short answers that show ``row``'s own literals, in each language of PROBE_TEXTS."""
    shapes: list[tuple[str, str, str]] = []  # (kind, literal, template with {r} and {a})
    ends = row.reasoning_end or ("",)
    for i, start in enumerate(row.reasoning_start[:PROBES_PER_KIND]):
        end = ends[min(i, len(ends) - 1)]  # the rows list paired spellings in the same order
        shapes.append(("delimited", start, f"{start}{{r}}{end}\n\n{{a}}"))
    for closer in row.reasoning_end[:PROBES_PER_KIND]:
        shapes.append(("end only", closer, f"{{r}}{closer}\n\n{{a}}"))
    for token in row.boundary_tokens[:PROBES_PER_KIND]:
        shapes.append(("token", token, f"{{a}}{token}"))
    return [
        Probe(row.name, kind, literal, template.format(r=reasoning, a=answer))
        for kind, literal, template in shapes
        for reasoning, answer in PROBE_TEXTS
    ]


def probe_exchange(probe: Probe, index: int) -> Exchange:
    """A non-streamed chat answer from a model no row names, without parsers."""
    event = {
        "event_id": f"probe-{index}",
        "api": "chat.completions",
        "stream": False,
        "request": {
            "model": "example/unlisted-model",
            "messages": [{"role": "user", "content": "At what temperature does water boil?"}],
        },
        "model": {"name": "example/unlisted-model"},
        "response": {
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": probe.text},
                    "finish_reason": "stop",
                }
            ]
        },
    }
    return normalise(event)


@dataclass
class ProbeResult:
    name: str
    probes: int = 0
    reference: int = 0  # labels the detectors gave the probes with the row
    recovered: int = 0  # of those, the labels they still gave without it
    missed: list[dict[str, Any]] = field(default_factory=list)

    @property
    def recall(self) -> float | None:
        return self.recovered / self.reference if self.reference else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "probes": self.probes,
            "reference_labels": self.reference,
            "recovered_labels": self.recovered,
            "recall": self.recall,
            "missed": self.missed,
        }


def run_probes(families: Sequence[str] | None = None) -> list[ProbeResult]:
    """Each chosen row's probes, with the row and then with it left out."""
    results = []
    for row in active_families():
        if families and row.name not in families:
            continue
        probes = row_probes(row)
        exchanges = [probe_exchange(p, i) for i, p in enumerate(probes)]
        with_row = [frozenset(run_detectors(x).labels) for x in exchanges]
        with families_excluding([row.name]):
            without = [frozenset(run_detectors(x).labels) for x in exchanges]
        result = ProbeResult(row.name, probes=len(probes))
        for probe, ref, got in zip(probes, with_row, without, strict=True):
            result.reference += len(ref)
            result.recovered += len(ref & got)
            if ref - got:
                result.missed.append(
                    {"kind": probe.kind, "literal": probe.literal, "labels": sorted(ref - got)}
                )
        results.append(result)
    return results


def probe_table(results: Sequence[ProbeResult]) -> str:
    lines = [f"{'row probes':<18}{'probes':>7}  {'labels recovered without the row':<34}missed"]
    for r in results:
        cell = "—" if r.recall is None else f"{r.recall:.2f} ({r.recovered}/{r.reference})"
        missed = sorted({f"{m['kind']} {m['literal']}" for m in r.missed})
        lines.append(f"{r.name:<18}{r.probes:>7}  {cell:<34}{'; '.join(missed)}")
    reference = sum(r.reference for r in results)
    recovered = sum(r.recovered for r in results)
    if reference:
        lines.append(
            f"overall (micro)          {recovered / reference:.3f} ({recovered}/{reference})"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", type=Path, help="write the result as JSON")
    ap.add_argument("--markdown", type=Path, help="write a README-ready markdown table")
    ap.add_argument("--families", help="comma-separated rows to leave out (default: every row)")
    ap.add_argument("--generic-only", action="store_true", help="also run with every row left out")
    ap.add_argument("--cases", type=Path, default=CASES_DIR, help="corpus cases folder")
    ap.add_argument(
        "--probes",
        action="store_true",
        help="also probe every row with its own literals (covers rows without corpus cases)",
    )
    args = ap.parse_args(argv)

    cases = load_cases(args.cases)
    families = args.families.split(",") if args.families else None
    results = run(cases, families, args.generic_only)
    print(table(results))
    probes = run_probes(families) if args.probes else []
    if probes:
        print()
        print(probe_table(probes))
    if args.out:
        payload = {
            "families": {r.name: r.as_dict() for r in results},
            "overall": overall(results),
            "corpus_cases": len(cases),
        }
        if probes:
            payload["probes"] = {r.name: r.as_dict() for r in probes}
        args.out.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    if args.markdown:
        args.markdown.write_text(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
