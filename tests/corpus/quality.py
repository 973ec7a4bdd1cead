#!/usr/bin/env python3
"""Quality of the detectors on leakline's own labeled corpus (tests/corpus/cases).

Runs ``detectors.run_detectors(normalise(validate_event(event)))`` on every case and compares the
labels with ``expected_labels``. Reports, per label, tp/fp/fn with precision, recall and F1; the
clean false-positive rate (share of clean cases that got any label), also per hard-negative kind;
preamble precision/recall/F1 per language; ``reasoning_leak`` recall on tagged vs untagged
positives; and whether each stream x stop variant group came out as labeled.

Two figures use the full detector stack (rules, heuristics and the shipped classifier, as
``leakline detect`` runs them): preamble recall per language on the corpus, and the
false-positive rate on the clean-traffic precision set (``precision_clean.jsonl``, built by
``precision_src.py``: greetings, one-line answers, yes/no, confirmations, lists and code in
en/ko/zh, with and without whitespace around them).

python tests/corpus/quality.py                  # the tables
python tests/corpus/quality.py --errors         # plus every disagreeing case (on stderr)
python tests/corpus/quality.py --json           # everything as JSON on stdout
python tests/corpus/quality.py --json out.json  # ... or written to a file (tables still printed)
python tests/corpus/quality.py --invented [--split dev|heldout] [--json] [--errors]
                                                # the invented-shape generator's seeds (issue 29)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from leakline.detectors import ALL_LABELS, run_detectors
from leakline.pipeline.events.contract import validate_event
from leakline.pipeline.events.normalise import normalise

CASES_DIR = Path(__file__).resolve().parent / "cases"
PRECISION_SET = Path(__file__).resolve().parent / "precision_clean.jsonl"
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


@dataclass
class Precision:
    """The full stack on the clean precision set: every line should get no label."""

    items: int = 0
    flagged: int = 0
    labels: Counter[str] = field(default_factory=Counter)
    model: str | None = None
    # "lang" / "kind" / "whitespace" / "api" -> value -> [items, flagged]
    by: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    errors: list[dict[str, object]] = field(default_factory=list)

    @property
    def fp_rate(self) -> float:
        return _ratio(self.flagged, self.items, empty=0.0)

    def as_dict(self) -> dict[str, object]:
        return {
            "items": self.items,
            "flagged": self.flagged,
            "false_positive_rate": round(self.fp_rate, 4),
            "labels": dict(self.labels),
            "classifier": self.model,
            "by": {
                axis: {k: {"items": n, "flagged": f} for k, (n, f) in sorted(values.items())}
                for axis, values in self.by.items()
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


def stack_verdicts(events: list[dict], model: object | None) -> list[tuple[str, ...]]:
    """Labels of the full stack (rules, heuristics, then the classifier in one batch)."""
    from leakline.detectors.classifier import classify

    pairs = []
    for event in events:
        exchange = normalise(validate_event(event))
        pairs.append((exchange, run_detectors(exchange)))
    verdicts = classify(pairs, model) if model is not None else [v for _, v in pairs]  # type: ignore[arg-type]
    return [v.labels for v in verdicts]


def shipped_model() -> object | None:
    """The classifier the package ships (what ``leakline detect`` runs with no DATA_DIR model)."""
    from leakline.models.registry import SHIPPED_DIR, load_promoted

    return load_promoted(SHIPPED_DIR)


def stack_preamble(cases: list[dict], model: object | None) -> dict[str, dict[str, int]]:
    """Preamble tp/fp/fn per language with the full stack (the classifier included)."""
    out: dict[str, dict[str, int]] = {lang: {"tp": 0, "fp": 0, "fn": 0} for lang in LANGS}
    for case, labels in zip(cases, stack_verdicts([c["event"] for c in cases], model), strict=True):
        expected, got = "preamble" in case["expected_labels"], "preamble" in labels
        row = out.setdefault(case.get("lang", "?"), {"tp": 0, "fp": 0, "fn": 0})
        if expected or got:
            row["tp" if expected and got else "fn" if expected else "fp"] += 1
    return out


def load_precision_set(path: Path = PRECISION_SET) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


_REQUEST = {
    "chat": lambda user: {"model": "m", "messages": [{"role": "user", "content": user}]},
    "responses": lambda user: {"model": "m", "input": user},
    "messages": lambda user: {
        "model": "m",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": user}],
    },
}


def precision_event(item: dict) -> dict:
    """A gateway event v1 whose visible text is ``item["text"]``, in ``item["api"]``'s shape."""
    text, api, eid = item["text"], item["api"], item["id"]
    if api == "chat":
        body = {
            "id": eid,
            "object": "chat.completion",
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
        }
        return {
            "event_id": eid,
            "api": "chat.completions",
            "request": _REQUEST["chat"]("hi"),
            "response": body,
        }
    if api == "chat_stream":
        cut = max(1, len(text) // 2)
        pieces = [text[:cut], text[cut:]] if len(text) > 1 else [text]
        chunks = [
            {
                "id": eid,
                "object": "chat.completion.chunk",
                "model": "m",
                "choices": [
                    {
                        "index": 0,
                        "delta": {"role": "assistant", "content": piece},
                        "finish_reason": None,
                    }
                ],
            }
            for piece in pieces
        ]
        chunks.append(
            {
                "id": eid,
                "object": "chat.completion.chunk",
                "model": "m",
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            }
        )
        request = dict(_REQUEST["chat"]("hi"), stream=True)
        return {
            "event_id": eid,
            "api": "chat.completions",
            "stream": True,
            "request": request,
            "chunks": chunks,
        }
    if api == "responses":
        body = {
            "id": eid,
            "object": "response",
            "status": "completed",
            "model": "m",
            "output": [
                {
                    "type": "message",
                    "id": "msg_" + eid,
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}],
                }
            ],
        }
        return {
            "event_id": eid,
            "api": "responses",
            "request": _REQUEST["responses"]("hi"),
            "response": body,
        }
    body = {
        "id": eid,
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
    }
    return {
        "event_id": eid,
        "api": "messages",
        "request": _REQUEST["messages"]("hi"),
        "response": body,
    }


def evaluate_precision(items: list[dict], model: object | None) -> Precision:
    """The full stack over the clean precision set."""
    result = Precision(model=getattr(model, "version", None))
    for item, labels in zip(
        items, stack_verdicts([precision_event(i) for i in items], model), strict=True
    ):
        result.items += 1
        result.flagged += bool(labels)
        result.labels.update(labels)
        for axis in ("lang", "kind", "whitespace", "api"):
            row = result.by.setdefault(axis, {}).setdefault(item[axis], [0, 0])
            row[0] += 1
            row[1] += bool(labels)
        if labels:
            result.errors.append({"id": item["id"], "got": list(labels), "text": item["text"]})
    return result


def render_stack(preamble: dict[str, dict[str, int]], precision: Precision) -> str:
    lines = [
        f"full stack (rules + heuristics + classifier {precision.model or 'none'})",
        f"{'preamble by lang':<22}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}",
    ]
    for lang, row in preamble.items():
        tp, fp, fn = row["tp"], row["fp"], row["fn"]
        if tp + fp + fn:
            lines.append(
                f"{lang:<22}{tp:>5}{fp:>5}{fn:>5}{_ratio(tp, tp + fp):>11.3f}{_ratio(tp, tp + fn):>8.3f}"
            )
    labels = ", ".join(f"{k} {v}" for k, v in precision.labels.most_common()) or "none"
    lines += [
        "",
        f"clean precision set: {precision.flagged}/{precision.items} answers got a label "
        f"({precision.fp_rate:.2%}); labels: {labels}",
    ]
    for axis in ("lang", "kind", "whitespace", "api"):
        cells = ", ".join(
            f"{k} {f}/{n}" for k, (n, f) in sorted(precision.by.get(axis, {}).items())
        )
        lines.append(f"  by {axis}: {cells}")
    return "\n".join(lines)


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
    parser.add_argument(
        "--invented",
        action="store_true",
        help="measure on the invented-shape generator (invented_shapes.py) instead of the corpus",
    )
    parser.add_argument(
        "--split",
        choices=("dev", "heldout"),
        default="dev",
        help="with --invented: which frozen seeds (invented_seeds.json); default dev",
    )
    args = parser.parse_args(argv)
    if args.invented:
        return main_invented(args.split, args.json, args.errors)
    cases = load_cases()
    quality = evaluate(cases)
    model = shipped_model()
    stack = stack_preamble(cases, model)
    precision = evaluate_precision(load_precision_set(), model)
    figures = quality.as_dict()
    figures["full_stack"] = {"preamble_by_lang": stack, "precision_set": precision.as_dict()}
    data = json.dumps(figures, indent=2, ensure_ascii=False)
    if args.json == "-":
        print(data)
    else:
        print(render(quality))
        print()
        print(render_stack(stack, precision))
        print()
        print(render_structured_fields(structured_fields_quality()))
        if args.json:
            Path(args.json).write_text(data + "\n", encoding="utf-8")
    if args.errors:
        for error in quality.errors + precision.errors:
            print(json.dumps(error, ensure_ascii=False), file=sys.stderr)
    return 0


# ------------------------------------------------- invented shapes (issue 29)

DELIMITED = "tagged"  # the generator marks reasoning in an invented frame as the tagged form


def invented_cases(split: str) -> list[dict]:
    """The generator's cases for every frozen seed of ``split``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import invented_shapes

    return invented_shapes.generate_split(split)


def invented_figures(cases: list[dict], quality: Quality) -> dict[str, Any]:
    """What ``evaluate`` measured, regrouped by the generator's classes: recall per
    ``shape_class`` (over the labels its cases expect) and flags per clean look-alike.
    A case missing from ``quality.errors`` got exactly its expected labels."""
    got_by_id = {str(e["case_id"]): set(e["got"]) for e in quality.errors}  # type: ignore[call-overload]
    per_class: dict[str, Counter[str]] = defaultdict(Counter)
    lookalike: dict[str, Counter[str]] = defaultdict(Counter)
    for case in cases:
        expected = set(case["expected_labels"])
        got = got_by_id.get(case["case_id"], expected)
        row = per_class[case["shape_class"]]
        row["cases"] += 1
        row["exact"] += got == expected
        row["tp"] += len(expected & got)
        row["fn"] += len(expected - got)
        row["fp"] += len(got - expected)
        if not expected:
            kind = lookalike[case.get("lookalike", "?")]
            kind["cases"] += 1
            kind["flagged"] += bool(got)
            kind.update(got)
    classes = {
        cls: {
            "cases": row["cases"],
            "exact": row["exact"],
            "tp": row["tp"],
            "fn": row["fn"],
            "fp": row["fp"],
            "recall": round(_ratio(row["tp"], row["tp"] + row["fn"]), 4),
        }
        for cls, row in sorted(per_class.items())
    }
    flags = {
        kind: {
            "cases": row["cases"],
            "flagged": row["flagged"],
            "labels": {k: v for k, v in row.items() if k not in ("cases", "flagged")},
        }
        for kind, row in sorted(lookalike.items())
    }
    return {
        "cases": quality.cases,
        "exact_match": round(_ratio(quality.exact, quality.cases, 0.0), 4),
        "labels": {
            label: {
                "tp": quality.tp[label],
                "fp": quality.fp[label],
                "fn": quality.fn[label],
                "precision": round(quality.precision(label), 4),
                "recall": round(quality.recall(label), 4),
            }
            for label in ALL_LABELS
            if quality.tp[label] + quality.fp[label] + quality.fn[label]
        },
        "delimited_reasoning_recall": round(quality.form_recall(DELIMITED), 4),
        "untagged_reasoning_recall": round(quality.form_recall("untagged"), 4),
        "clean": {"cases": quality.clean, "flagged": quality.clean_flagged},
        "shape_classes": classes,
        "clean_by_lookalike": flags,
    }


def render_invented(split: str, figures: dict[str, Any]) -> str:
    lines = [
        f"invented shapes, {split} seeds: {figures['cases']} cases, exact label-set match "
        f"{figures['exact_match']:.1%}",
        f"{'label':<22}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}",
    ]
    for label, row in figures["labels"].items():
        lines.append(
            f"{label:<22}{row['tp']:>5}{row['fp']:>5}{row['fn']:>5}"
            f"{row['precision']:>11.3f}{row['recall']:>8.3f}"
        )
    lines += [
        f"reasoning_leak recall: delimited {figures['delimited_reasoning_recall']:.3f}, "
        f"untagged {figures['untagged_reasoning_recall']:.3f}",
        "",
        f"{'shape class':<22}{'cases':>7}{'exact':>7}{'recall':>8}{'fp':>5}",
    ]
    for cls, row in figures["shape_classes"].items():
        lines.append(
            f"{cls:<22}{row['cases']:>7}{row['exact']:>7}{row['recall']:>8.3f}{row['fp']:>5}"
        )
    clean = figures["clean"]
    lines += [
        "",
        f"clean flags: {clean['flagged']}/{clean['cases']} clean cases got a label",
        f"{'look-alike':<24}{'cases':>7}{'flagged':>9}  labels",
    ]
    for kind, row in figures["clean_by_lookalike"].items():
        labels = ", ".join(f"{k} {v}" for k, v in sorted(row["labels"].items()))
        lines.append(f"{kind:<24}{row['cases']:>7}{row['flagged']:>9}  {labels}")
    return "\n".join(lines)


def main_invented(split: str, json_out: str | None, errors: bool) -> int:
    if errors and split == "heldout":
        print(
            "refusing --errors on the held-out split: its cases must stay unseen so that the "
            "figures measure shapes nobody tuned on (invented_seeds.json); list errors on dev",
            file=sys.stderr,
        )
        return 2
    cases = invented_cases(split)
    quality = evaluate(cases)
    figures = invented_figures(cases, quality)
    data = json.dumps(figures, indent=2, ensure_ascii=False)
    if json_out == "-":
        print(data)
    else:
        print(render_invented(split, figures))
        if json_out:
            Path(json_out).write_text(data + "\n", encoding="utf-8")
    if errors:
        shape = {c["case_id"]: c["shape_class"] for c in cases}
        for error in quality.errors:
            print(
                json.dumps(dict(error, shape_class=shape[error["case_id"]]), ensure_ascii=False),
                file=sys.stderr,
            )
    return 0


# ------------------------------------------------- reasoning inside structured output (issue 20)


def structured_fields_quality() -> list:
    """Field-level precision/recall of ``structured_reasoning`` on both halves of the
    hand-written structured-answer set (``structured_fields.py``), plus the fresh set
    written after the cues were frozen (reported only)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import structured_fields

    return [structured_fields.evaluate(half) for half in structured_fields.SETS]


def render_structured_fields(results: list) -> str:
    import structured_fields

    return structured_fields.render(results)


if __name__ == "__main__":
    sys.exit(main())
