#!/usr/bin/env python3
"""Quality of the detectors on leakline's own labeled corpus (tests/corpus/cases).

Runs ``detectors.run_detectors(normalise(validate_event(event)))`` on every case and compares the
labels with ``expected_labels``. Reports, per label, tp/fp/fn with precision, recall and F1; the
clean false-positive rate (share of clean cases that got any label), also per hard-negative kind;
preamble precision/recall/F1 per language; ``reasoning_leak`` recall on tagged vs untagged
positives; and whether each stream x stop variant group came out as labeled.

python tests/corpus/quality.py                  # the tables
python tests/corpus/quality.py --errors         # plus every disagreeing case (on stderr)
python tests/corpus/quality.py --json           # everything as JSON on stdout
python tests/corpus/quality.py --json out.json  # ... or written to a file (tables still printed)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from leakline.detectors import ALL_LABELS, run_detectors
from leakline.pipeline.core.contract import validate_event
from leakline.pipeline.core.normalise import normalise

CASES_DIR = Path(__file__).resolve().parent / "cases"
LANGS = ("en", "ko", "zh", "ja")
FORMS = ("tagged", "untagged")


def _ratio(num: int, den: int, empty: float = 1.0) -> float:
    return num / den if den else empty


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Quality:
    cases: int = 0
    exact: int = 0
    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    fn: Counter[str] = field(default_factory=Counter)
    errors: list[dict[str, object]] = field(default_factory=list)
    # per language: label -> lang -> count
    tp_lang: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    fp_lang: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    fn_lang: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    # clean cases: how many, how many got any label, which labels, per hard-negative kind
    clean: int = 0
    clean_flagged: int = 0
    clean_fp_labels: Counter[str] = field(default_factory=Counter)
    kind_cases: Counter[str] = field(default_factory=Counter)
    kind_flagged: Counter[str] = field(default_factory=Counter)
    # reasoning_leak positives by reasoning_form: found / missed
    form_tp: Counter[str] = field(default_factory=Counter)
    form_fn: Counter[str] = field(default_factory=Counter)
    # variant groups: group -> list of (case_id, expected, got)
    groups: dict[str, list[tuple[str, list[str], list[str]]]] = field(default_factory=dict)

    # -- per label -------------------------------------------------------------
    def precision(self, label: str) -> float:
        return _ratio(self.tp[label], self.tp[label] + self.fp[label])

    def recall(self, label: str) -> float:
        return _ratio(self.tp[label], self.tp[label] + self.fn[label])

    def f1(self, label: str) -> float:
        return _f1(self.precision(label), self.recall(label))

    # -- per label and language --------------------------------------------------
    def lang_precision(self, label: str, lang: str) -> float:
        tp, fp = self.tp_lang[label][lang], self.fp_lang[label][lang]
        return _ratio(tp, tp + fp)

    def lang_recall(self, label: str, lang: str) -> float:
        tp, fn = self.tp_lang[label][lang], self.fn_lang[label][lang]
        return _ratio(tp, tp + fn)

    def lang_f1(self, label: str, lang: str) -> float:
        return _f1(self.lang_precision(label, lang), self.lang_recall(label, lang))

    # -- clean cases and reasoning forms -----------------------------------------
    @property
    def clean_fp_rate(self) -> float:
        """Share of clean cases (no expected label) that got at least one label."""
        return _ratio(self.clean_flagged, self.clean, empty=0.0)

    def kind_fp_rate(self, kind: str) -> float:
        return _ratio(self.kind_flagged[kind], self.kind_cases[kind], empty=0.0)

    def form_recall(self, form: str) -> float:
        return _ratio(self.form_tp[form], self.form_tp[form] + self.form_fn[form])

    def group_ok(self, name: str) -> bool:
        return all(set(exp) == set(got) for _, exp, got in self.groups[name])

    def as_dict(self) -> dict[str, object]:
        return {
            "cases": self.cases,
            "exact_match": round(_ratio(self.exact, self.cases, 0.0), 4),
            "labels": {
                label: {
                    "tp": self.tp[label],
                    "fp": self.fp[label],
                    "fn": self.fn[label],
                    "precision": round(self.precision(label), 4),
                    "recall": round(self.recall(label), 4),
                    "f1": round(self.f1(label), 4),
                }
                for label in ALL_LABELS
            },
            "clean": {
                "cases": self.clean,
                "flagged": self.clean_flagged,
                "false_positive_rate": round(self.clean_fp_rate, 4),
                "false_positive_labels": dict(self.clean_fp_labels),
                "by_kind": {
                    kind: {
                        "cases": self.kind_cases[kind],
                        "flagged": self.kind_flagged[kind],
                        "false_positive_rate": round(self.kind_fp_rate(kind), 4),
                    }
                    for kind in sorted(self.kind_cases)
                },
            },
            "preamble_by_lang": {
                lang: {
                    "tp": self.tp_lang["preamble"][lang],
                    "fp": self.fp_lang["preamble"][lang],
                    "fn": self.fn_lang["preamble"][lang],
                    "precision": round(self.lang_precision("preamble", lang), 4),
                    "recall": round(self.lang_recall("preamble", lang), 4),
                    "f1": round(self.lang_f1("preamble", lang), 4),
                }
                for lang in LANGS
            },
            "reasoning_leak_by_form": {
                form: {
                    "positives": self.form_tp[form] + self.form_fn[form],
                    "found": self.form_tp[form],
                    "recall": round(self.form_recall(form), 4),
                }
                for form in FORMS
            },
            "groups": {
                name: {
                    "ok": self.group_ok(name),
                    "members": [
                        {"case_id": cid, "expected": exp, "got": got} for cid, exp, got in members
                    ],
                }
                for name, members in sorted(self.groups.items())
            },
        }


def load_cases(cases_dir: Path = CASES_DIR) -> list[dict]:
    cases = []
    for path in sorted(cases_dir.glob("*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            cases.extend(json.loads(line) for line in handle if line.strip())
    return cases


def evaluate(cases: list[dict]) -> Quality:
    quality = Quality()
    for case in cases:
        expected = set(case["expected_labels"])
        got = set(run_detectors(normalise(validate_event(case["event"]))).labels)
        lang = case.get("lang", "?")
        quality.cases += 1
        quality.exact += got == expected
        for label in got & expected:
            quality.tp[label] += 1
            quality.tp_lang[label][lang] += 1
        for label in got - expected:
            quality.fp[label] += 1
            quality.fp_lang[label][lang] += 1
        for label in expected - got:
            quality.fn[label] += 1
            quality.fn_lang[label][lang] += 1
        if not expected:
            quality.clean += 1
            quality.clean_flagged += bool(got)
            quality.clean_fp_labels.update(got)
            if "kind" in case:
                quality.kind_cases[case["kind"]] += 1
                quality.kind_flagged[case["kind"]] += bool(got)
        form = case.get("reasoning_form")
        if form is not None and "reasoning_leak" in expected:
            if "reasoning_leak" in got:
                quality.form_tp[form] += 1
            else:
                quality.form_fn[form] += 1
        if "group" in case:
            quality.groups.setdefault(case["group"], []).append(
                (case["case_id"], sorted(expected), sorted(got))
            )
        if got != expected:
            quality.errors.append(
                {
                    "case_id": case["case_id"],
                    "expected": sorted(expected),
                    "got": sorted(got),
                    "note": case.get("note", ""),
                }
            )
    return quality


def render(quality: Quality) -> str:
    head = f"{'label':<22}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}{'f1':>7}"
    lines = [head]
    for label in ALL_LABELS:
        lines.append(
            f"{label:<22}{quality.tp[label]:>5}{quality.fp[label]:>5}{quality.fn[label]:>5}"
            f"{quality.precision(label):>11.3f}{quality.recall(label):>8.3f}{quality.f1(label):>7.3f}"
        )
    lines.append(
        f"{quality.cases} cases, exact label-set match {_ratio(quality.exact, quality.cases, 0.0):.1%}"
    )

    fp_labels = ", ".join(f"{k} {v}" for k, v in quality.clean_fp_labels.most_common()) or "none"
    lines += [
        "",
        f"clean false-positive rate: {quality.clean_flagged}/{quality.clean} clean cases got a label "
        f"({quality.clean_fp_rate:.1%}); labels: {fp_labels}",
        f"{'hard-negative kind':<22}{'cases':>7}{'flagged':>9}{'fp rate':>9}",
    ]
    for kind in sorted(quality.kind_cases):
        lines.append(
            f"{kind:<22}{quality.kind_cases[kind]:>7}{quality.kind_flagged[kind]:>9}"
            f"{quality.kind_fp_rate(kind):>9.1%}"
        )

    lines += [
        "",
        f"{'preamble by lang':<22}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}{'f1':>7}",
    ]
    for lang in LANGS:
        tp, fp, fn = (
            q["preamble"][lang] for q in (quality.tp_lang, quality.fp_lang, quality.fn_lang)
        )
        if tp + fp + fn == 0:
            continue
        lines.append(
            f"{lang:<22}{tp:>5}{fp:>5}{fn:>5}{quality.lang_precision('preamble', lang):>11.3f}"
            f"{quality.lang_recall('preamble', lang):>8.3f}{quality.lang_f1('preamble', lang):>7.3f}"
        )

    lines += ["", f"{'reasoning_leak form':<22}{'positives':>10}{'found':>7}{'recall':>8}"]
    for form in FORMS:
        n = quality.form_tp[form] + quality.form_fn[form]
        lines.append(
            f"{form:<22}{n:>10}{quality.form_tp[form]:>7}{quality.form_recall(form):>8.3f}"
        )

    if quality.groups:
        ok = sum(quality.group_ok(name) for name in quality.groups)
        lines += ["", f"variant groups matching their labels: {ok}/{len(quality.groups)}"]
        for name in sorted(quality.groups):
            if not quality.group_ok(name):
                bad = [cid for cid, exp, got in quality.groups[name] if set(exp) != set(got)]
                lines.append(f"  {name}: differs on {', '.join(bad)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--errors", action="store_true", help="list every case whose labels disagree (stderr)"
    )
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="FILE",
        help="write all figures as JSON to FILE (stdout when FILE is omitted or '-')",
    )
    args = parser.parse_args(argv)
    quality = evaluate(load_cases())
    data = json.dumps(quality.as_dict(), indent=2, ensure_ascii=False)
    if args.json == "-":
        print(data)
    else:
        print(render(quality))
        if args.json:
            Path(args.json).write_text(data + "\n", encoding="utf-8")
    if args.errors:
        for error in quality.errors:
            print(json.dumps(error, ensure_ascii=False), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
