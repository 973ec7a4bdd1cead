"""Precision / recall / F1 per language, and heuristics vs heuristics + classifier.

``python -m leakline.models.evaluate`` prints the shipped (or ``--models-dir``'s promoted)
model's figures on the fresh hold-out sets, openings the heuristics were never tuned on
and the classifier never trained on:

- ``models/data/holdout.jsonl``: preambles and clean answers (the preamble head);
- ``models/data/holdout_untagged.jsonl``: untagged self-talk openings and answers that
  sound like it (first person, "Hmm", "Actually"), scored for ``reasoning_leak`` together
  with every line of the first set as further negatives. One of its negatives exposed a
  self_talk_cues bug, fixed in v3 before these figures were taken. Its Korean lines are no
  longer unseen: self_talk_cues v4's speech-level signal (``heuristics.speech_level``) was
  written after reading a dozen of them, so its Korean recall flatters that signal, and v5's
  ``heuristics.notes_block`` was written after reading its English and Chinese misses;
- ``models/data/holdout_untagged_v2.jsonl``: a second, larger untagged set written without
  sight of the detectors. Only its odd-numbered ids (``unread_half``), never read while
  tuning, are scored: the honest figure for untagged reasoning;
- ``tests/corpus/precision_clean.jsonl`` (a source checkout only): short clean answers
  (greetings, yes/no, confirmations, lists, code; en/ko/zh, with and without whitespace
  around them), where every label is a false positive.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from leakline.detectors import Exchange, run_detectors
from leakline.detectors.classifier import OpeningClassifier, classify
from leakline.models.data import (
    HOLDOUT,
    HOLDOUT_UNTAGGED,
    HOLDOUT_UNTAGGED_V2,
    PRECISION_SET,
    Example,
    read_holdout,
    read_precision_set,
    unread_half,
)

Metrics = dict[str, dict[str, float]]


def prf(truth: Sequence[int], pred: Sequence[int]) -> dict[str, float]:
    t = np.asarray(truth, dtype=bool)
    p = np.asarray(pred, dtype=bool)
    tp = int((t & p).sum())
    fp = int((~t & p).sum())
    fn = int((t & ~p).sum())
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "support": int(t.sum()),
        "n": len(t),
        "tp": tp,
        "fp": fp,
        "fn": fn,
    }


UNDEFINED = "–"  # a ratio with nothing to divide by: no predictions (P) or no positives (R)


def shown_prf(m: dict[str, float]) -> tuple[str, str, str]:
    """P, R and F1 of ``prf`` as printed: ``–`` where a ratio is undefined.

    ``prf`` stores precision 1.0 when nothing was predicted (so that F1 can be computed
    and compared), but printed as ``1.000`` beside recall 0 it reads as a perfect score.
    Figures without ``tp``/``fp`` (older cards) are printed as stored.
    """
    predicted = m["tp"] + m["fp"] if "tp" in m and "fp" in m else None
    p = UNDEFINED if predicted == 0 else f"{m['precision']:.3f}"
    r = UNDEFINED if "support" in m and not m["support"] else f"{m['recall']:.3f}"
    f1 = UNDEFINED if p == UNDEFINED and r == UNDEFINED else f"{m['f1']:.3f}"
    return p, r, f1


def per_language(examples: Sequence[Example], truth: Sequence[int], pred: Sequence[int]) -> Metrics:
    """Figures per language plus ``all``; languages without examples are left out."""
    out: Metrics = {"all": prf(truth, pred)}
    for lang in sorted({e.lang for e in examples}):
        idx = [i for i, e in enumerate(examples) if e.lang == lang]
        out[lang] = prf([truth[i] for i in idx], [pred[i] for i in idx])
    return out


def head_metrics(
    model: OpeningClassifier, examples: Sequence[Example], threshold: float | None = None
) -> dict[str, Metrics]:
    """Each head's figures on the examples that carry a target for its label."""
    result: dict[str, Metrics] = {}
    scores = model.scores([e.text for e in examples]) if examples else np.zeros((0, 0))
    for j, head in enumerate(model.heads):
        idx = [i for i, e in enumerate(examples) if e.target(head.label) is not None]
        if not idx:
            continue
        cut = head.threshold if threshold is None else threshold
        chosen = [examples[i] for i in idx]
        truth = [int(examples[i].target(head.label) or 0) for i in idx]
        pred = [int(scores[i, j] >= cut) for i in idx]
        result[head.label] = per_language(chosen, truth, pred)
    return result


def _exchange(example: Example, i: int) -> Exchange:
    return Exchange(
        event_id=f"eval-{i}",
        api="chat.completions",
        stream=False,
        visible_text=example.text,
        finish_reason="stop",
    )


def tiers_on(
    model: OpeningClassifier | None,
    examples: Sequence[Example],
    label: str = "preamble",
    threshold: float | None = None,
) -> dict[str, Metrics]:
    """``label`` figures of the heuristics alone and of heuristics + classifier."""
    pairs = []
    for i, example in enumerate(examples):
        exchange = _exchange(example, i)
        pairs.append((exchange, run_detectors(exchange)))
    truth = [int(label in e.labels) for e in examples]
    heuristics = [int(label in v.labels) for _, v in pairs]
    result = {"heuristics": per_language(examples, truth, heuristics)}
    if model is not None:
        merged = classify(pairs, model, threshold)
        result["heuristics+classifier"] = per_language(
            examples, truth, [int(label in v.labels) for v in merged]
        )
    return result


def holdout_report(
    model: OpeningClassifier | None, threshold: float | None = None
) -> dict[str, Any]:
    if not HOLDOUT.exists():  # an installed wheel without models/data
        return {"set": None, "examples": 0, "preamble": {}}
    examples = read_holdout()
    report: dict[str, Any] = {
        "set": "models/data/holdout.jsonl",
        "examples": len(examples),
        "preamble": tiers_on(model, examples, "preamble", threshold),
    }
    if HOLDOUT_UNTAGGED.exists():
        untagged = read_holdout(HOLDOUT_UNTAGGED) + examples
        report["reasoning_leak"] = tiers_on(model, untagged, "reasoning_leak", threshold)
    if HOLDOUT_UNTAGGED_V2.exists():
        unread = unread_half(read_holdout(HOLDOUT_UNTAGGED_V2))
        report["reasoning_leak_unread"] = tiers_on(model, unread, "reasoning_leak", threshold)
    return report


def clean_set_report(
    model: OpeningClassifier | None, threshold: float | None = None
) -> dict[str, Any]:
    """False positives of each tier on the clean precision set (every label counts)."""
    if not PRECISION_SET.exists():  # an installed wheel without tests/
        return {"set": None, "items": 0}
    examples = read_precision_set()
    pairs = []
    for i, example in enumerate(examples):
        exchange = _exchange(example, i)
        pairs.append((exchange, run_detectors(exchange)))
    tiers = {"heuristics": [v for _, v in pairs]}
    if model is not None:
        tiers["heuristics+classifier"] = classify(pairs, model, threshold)
    report: dict[str, Any] = {"set": "tests/corpus/precision_clean.jsonl", "items": len(examples)}
    for tier, verdicts in tiers.items():
        by_lang: dict[str, dict[str, float]] = {}
        for lang in ("all", *sorted({e.lang for e in examples})):
            flags = [
                bool(v.labels)
                for e, v in zip(examples, verdicts, strict=True)
                if lang in ("all", e.lang)
            ]
            by_lang[lang] = {
                "n": len(flags),
                "flagged": sum(flags),
                "fp_rate": round(sum(flags) / len(flags), 4) if flags else 0.0,
            }
        report[tier] = by_lang
    return report


def render(report: dict[str, Metrics], title: str) -> str:
    lines = [title, f"{'tier':24} {'lang':5} {'P':>6} {'R':>6} {'F1':>6} {'pos':>4} {'n':>4}"]
    for tier, metrics in report.items():
        for lang, m in metrics.items():
            p, r, f1 = shown_prf(m)
            lines.append(f"{tier:24} {lang:5} {p:>6} {r:>6} {f1:>6} {m['support']:4d} {m['n']:4d}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    from leakline.models.registry import load_current

    parser = argparse.ArgumentParser(prog="python -m leakline.models.evaluate", description=__doc__)
    parser.add_argument("--models-dir", type=Path, help="use this directory's promoted model")
    parser.add_argument("--threshold", type=float, help="override the heads' thresholds")
    args = parser.parse_args(argv)
    model = load_current(args.models_dir)
    report = holdout_report(model, args.threshold)
    name = model.version if model is not None else "no classifier"
    sys.stdout.write(render(report["preamble"], f"hold-out preamble figures ({name})"))
    if "reasoning_leak" in report:
        title = f"hold-out untagged reasoning_leak figures ({name})"
        sys.stdout.write("\n" + render(report["reasoning_leak"], title))
    if "reasoning_leak_unread" in report:
        title = f"unread half of the second untagged set, reasoning_leak ({name})"
        sys.stdout.write("\n" + render(report["reasoning_leak_unread"], title))
    clean = clean_set_report(model, args.threshold)
    if clean["set"] is not None:
        sys.stdout.write(f"\nclean precision set ({clean['items']} answers), any label\n")
        sys.stdout.write(f"{'tier':24} {'lang':5} {'flagged':>7} {'n':>4} {'FP rate':>8}\n")
        for tier in ("heuristics", "heuristics+classifier"):
            for lang, m in clean.get(tier, {}).items():
                sys.stdout.write(
                    f"{tier:24} {lang:5} {m['flagged']:7d} {m['n']:4d} {m['fp_rate']:8.2%}\n"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
