"""Train the opening classifier, compare it with the promoted one, write and promote it.

scikit-learn is used here only: ``LogisticRegression`` on the hashed character n-gram
features of :mod:`leakline.detectors.classifier`. The fitted coefficients are written to a JSON
artifact that the worker scores with numpy.
"""

from __future__ import annotations

import platform
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from leakline.detectors.classifier import (
    FeatureSpec,
    Head,
    OpeningClassifier,
    featurize,
    parse_artifact,
    sha256_hex,
)
from leakline.models.data import Example, manifest_hash, split
from leakline.models.evaluate import (
    UNDEFINED,
    Metrics,
    clean_set_report,
    head_metrics,
    holdout_report,
    shown_prf,
)
from leakline.models.registry import (
    SHIPPED_DIR,
    load_current,
    promote,
)
from leakline.pipeline.core.errors import LeaklineError

NAME = "preamble"
HEADS = ("preamble", "reasoning_leak")
C = 30.0
# a new model may lose at most this much F1 per (head, language) against the promoted one
EPSILON = 0.02
# thresholds are picked for precision: the lowest cut whose cross-validated precision is
# at least this (the tier runs on every clean exchange the heuristics leave)
TARGET_PRECISION = 0.95
_GRID = tuple(round(x, 2) for x in np.arange(0.5, 0.96, 0.05))
MIN_POSITIVES = 8
# a head other than preamble ships only when it is useful on the held-out split, and
# only when the promoted model has that head too (so its F1 has a baseline to hold):
# a head with no baseline is withheld unless asked for (``new_heads``, `train --new-heads`)
MIN_EXTRA_HEAD_F1 = 0.6

Progress = Callable[[str], None]


def _matrix(texts: Sequence[str], spec: FeatureSpec) -> Any:
    from scipy.sparse import csr_matrix

    row, col, value = featurize(texts, spec)
    return csr_matrix((value, (row, col)), shape=(len(texts), spec.buckets))


def _fit(x: Any, y: np.ndarray, seed: int) -> tuple[np.ndarray, float]:
    """Dense coefficients over all buckets, and the intercept."""
    from sklearn.linear_model import LogisticRegression
    from threadpoolctl import threadpool_limits

    # fit on the buckets that occur only: liblinear's cost grows with the column count
    used = np.unique(x.indices)
    model = LogisticRegression(
        C=C, class_weight="balanced", solver="liblinear", max_iter=5000, random_state=seed
    )
    with threadpool_limits(1):  # BLAS threads only fight each other on a small problem
        model.fit(x[:, used], y)
    weights = np.zeros(x.shape[1], dtype=np.float64)
    weights[used] = model.coef_[0]
    return weights, float(model.intercept_[0])


def _pick_threshold(x: Any, y: np.ndarray, seed: int) -> float:
    """The lowest grid cut with cross-validated precision >= TARGET_PRECISION."""
    from sklearn.model_selection import StratifiedKFold

    folds = min(5, int(y.sum()), int((1 - y).sum()))
    if folds < 2:
        return 0.7
    probs = np.zeros(len(y))
    for train_idx, test_idx in StratifiedKFold(folds, shuffle=True, random_state=seed).split(x, y):
        w, b = _fit(x[train_idx], y[train_idx], seed)
        probs[test_idx] = 1 / (1 + np.exp(-(x[test_idx] @ w + b)))
    for cut in _GRID:
        pred = probs >= cut
        if pred.sum() and (y[pred] == 1).mean() >= TARGET_PRECISION:
            return float(cut)
    return float(_GRID[-1])


def fit_model(
    train: Sequence[Example],
    version: str,
    seed: int = 0,
    spec: FeatureSpec | None = None,
    progress: Progress | None = None,
) -> OpeningClassifier:
    """Fit one head per label that has enough positives in ``train``."""
    spec = spec or FeatureSpec()
    say = progress or (lambda _msg: None)
    heads: list[Head] = []
    for label in HEADS:
        chosen = [e for e in train if e.target(label) is not None]
        y = np.asarray([e.target(label) for e in chosen], dtype=np.int64)
        if y.sum() < MIN_POSITIVES or (1 - y).sum() < MIN_POSITIVES:
            say(f"head {label}: {int(y.sum())} positives, too few; skipped")
            continue
        x = _matrix([e.text for e in chosen], spec)
        say(f"head {label}: fitting on {len(y)} examples ({int(y.sum())} positive)")
        threshold = _pick_threshold(x, y, seed)
        weights, intercept = _fit(x, y, seed)
        heads.append(Head(label, intercept, threshold, weights))
        say(f"head {label}: threshold {threshold:.2f}")
    if not any(h.label == "preamble" for h in heads):
        raise LeaklineError(
            "not enough preamble examples to train on",
            hint=f"the data needs at least {MIN_POSITIVES} lines with 'preamble' in labels and "
            f"{MIN_POSITIVES} clean lines; add --with-corpus to include the project's corpus",
        )
    return OpeningClassifier(NAME, version, spec, tuple(heads))


def regressions(new: dict[str, Metrics], old: dict[str, Metrics]) -> list[str]:
    """(head, language) pairs whose F1 dropped by more than EPSILON."""
    found = []
    for label, by_lang in old.items():
        for lang, m in by_lang.items():
            if lang == "all" or not m["support"] or label not in new or lang not in new[label]:
                continue
            drop = m["f1"] - new[label][lang]["f1"]
            if drop > EPSILON:
                found.append(
                    f"{label}/{lang}: F1 {new[label][lang]['f1']:.3f} < promoted {m['f1']:.3f}"
                )
    return found


@dataclass
class TrainResult:
    version: str
    artifact_dir: Path
    metrics: dict[str, Metrics]
    baseline_version: str | None
    baseline_metrics: dict[str, Metrics] | None
    regressions: list[str]
    promoted: bool
    card: dict[str, Any] = field(default_factory=dict)
    # heads fitted but not shipped, with the reason; and new heads shipped on request
    withheld: dict[str, str] = field(default_factory=dict)
    new_heads: list[str] = field(default_factory=list)


def _libraries() -> dict[str, str]:
    import scipy
    import sklearn

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
    }


def train_and_register(
    examples: Sequence[Example],
    models_dir: Path,
    *,
    sources: Sequence[str],
    seed: int = 0,
    force: bool = False,
    new_heads: bool = False,
    progress: Progress | None = None,
) -> TrainResult:
    """Split, fit, evaluate against the promoted model, write the artifact, maybe promote.

    A head other than ``preamble`` that the promoted model lacks has no baseline to be
    compared with: it is withheld (named in the card's ``withheld``) unless ``new_heads``.
    """
    say = progress or (lambda _msg: None)
    if not examples:
        raise LeaklineError(
            "the training data has no usable lines",
            hint="export labeled samples with `leakline export`, or add --with-corpus",
        )
    data_hash = manifest_hash(examples)
    train, test = split(examples, seed)
    say(f"{len(examples)} examples: {len(train)} train, {len(test)} held out ({data_hash[:19]})")
    created = datetime.now(UTC)
    version = f"{NAME}-{created.strftime('%Y%m%dT%H%M%SZ')}-{data_hash[7:15]}"
    taken = 1
    while (Path(models_dir) / version).exists():  # same data trained twice in one second
        taken += 1
        version = f"{NAME}-{created.strftime('%Y%m%dT%H%M%SZ')}-{data_hash[7:15]}-{taken}"
    model = fit_model(train, version, seed, progress=say)
    metrics = head_metrics(model, test)
    weak = [
        h.label
        for h in model.heads
        if h.label != "preamble"
        and metrics.get(h.label, {}).get("all", {}).get("f1", 0) < MIN_EXTRA_HEAD_F1
    ]
    withheld = {
        label: f"held-out F1 {metrics.get(label, {}).get('all', {}).get('f1', 0):.3f} "
        f"< {MIN_EXTRA_HEAD_F1}"
        for label in weak
    }
    baseline = load_current(models_dir)
    unbaselined = [
        h.label
        for h in model.heads
        if h.label != "preamble"
        and h.label not in withheld
        and (baseline is None or baseline.head(h.label) is None)
    ]
    if not new_heads:
        for label in unbaselined:
            withheld[label] = (
                f"no baseline: {baseline.version if baseline else 'no promoted model'} has no "
                f"{label} head to compare with (--new-heads ships it)"
            )
        unbaselined = []
    if withheld:
        for label, why in withheld.items():
            say(f"head {label} withheld: {why}")
        model = replace(model, heads=tuple(h for h in model.heads if h.label not in withheld))
        metrics = {k: v for k, v in metrics.items() if k not in withheld}
    baseline_metrics = head_metrics(baseline, test) if baseline is not None else None
    found = regressions(metrics, baseline_metrics) if baseline_metrics else []
    data = model.to_json()
    sha = sha256_hex(data)
    parse_artifact(data, sha)  # what the worker will load must round-trip
    holdout = holdout_report(model)["preamble"]
    clean_set = clean_set_report(model)
    counts = {
        "examples": len(examples),
        "train": len(train),
        "test": len(test),
        "by_origin": _count(e.origin for e in examples),
        "by_lang": _count(e.lang for e in examples),
        "preamble": sum("preamble" in e.labels for e in examples),
        "untagged_reasoning": sum(e.target("reasoning_leak") == 1 for e in examples),
        "clean": sum(not e.labels for e in examples),
    }
    promote_it = force or not found
    card = {
        "name": NAME,
        "version": version,
        "format": "leakline.classifier/1",
        "artifact": "model.json",
        "sha256": sha,
        "created_at": created.isoformat(timespec="seconds"),
        "data": {"manifest_sha256": data_hash, "sources": list(sources), "counts": counts},
        "split": {"test_share": 0.25, "seed": seed, "by": "sha256(seed:group)"},
        "training": {
            "estimator": "LogisticRegression",
            "C": C,
            "class_weight": "balanced",
            "solver": "liblinear",
            "target_precision": TARGET_PRECISION,
        },
        "features": model.spec.to_dict(),
        "thresholds": {h.label: h.threshold for h in model.heads},
        "metrics": metrics,
        "baseline": {
            "version": baseline.version if baseline else None,
            "metrics": baseline_metrics,
        },
        "holdout": holdout,
        "clean_set": clean_set,
        "regressions": found,
        "withheld": withheld,
        "new_heads": unbaselined,
        "promoted": promote_it,
        "forced": bool(force and found),
        "libraries": _libraries(),
    }
    artifact_dir = Path(models_dir) / version
    artifact_dir.mkdir(parents=True, exist_ok=False)
    try:
        (artifact_dir / "model.json").write_bytes(data)
        (artifact_dir / "card.json").write_bytes(
            orjson.dumps(card, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
        )
        (artifact_dir / "MODEL_CARD.md").write_text(render_card(card), encoding="utf-8")
    except OSError:
        shutil.rmtree(artifact_dir, ignore_errors=True)
        raise
    if promote_it:
        promote(models_dir, version, forced=bool(force and found))
    return TrainResult(
        version,
        artifact_dir,
        metrics,
        baseline.version if baseline else None,
        baseline_metrics,
        found,
        promote_it,
        card,
        withheld,
        unbaselined,
    )


def _count(values: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items()))


def metrics_table(metrics: dict[str, Metrics], other: dict[str, Metrics] | None = None) -> str:
    lines = [
        f"{'head':15} {'lang':5} {'P':>6} {'R':>6} {'F1':>6} {'pos':>4} {'n':>5}"
        + ("  promoted F1" if other is not None else "")
    ]
    for label, by_lang in metrics.items():
        for lang, m in by_lang.items():
            p, r, f1 = shown_prf(m)
            line = f"{label:15} {lang:5} {p:>6} {r:>6} {f1:>6} {m['support']:4d} {m['n']:5d}"
            if other is not None:
                o = other.get(label, {}).get(lang)
                line += f"  {o['f1']:.3f}" if o else "  -"
            lines.append(line)
    return "\n".join(lines)


def silent_notes(metrics: dict[str, Metrics], baseline: dict[str, Metrics] | None) -> list[str]:
    """One line per (head, language) where the model predicted nothing on real positives,
    saying what the promotion rule made of it.

    The rule (``regressions``) compares F1 per (head, language) with the promoted model's
    on the same held-out split. Predicting nothing gives recall 0 and F1 0: against a
    promoted F1 above ``EPSILON`` that is a regression and blocks promotion; against a
    promoted F1 of at most ``EPSILON`` the promoted model catches (next to) nothing there
    either, so promoting loses nothing. Without a baseline the rule has nothing to check.
    """
    notes = []
    for label, by_lang in metrics.items():
        for lang, m in by_lang.items():
            if lang == "all" or not m["support"] or shown_prf(m)[0] != UNDEFINED:
                continue
            what = f"{label}/{lang}: nothing predicted on {m['support']} positives (recall 0)"
            old = (baseline or {}).get(label, {}).get(lang)
            if old is None:
                notes.append(
                    f"{what}; no promoted figure to compare with, so the rule cannot check it"
                )
            elif old["f1"] - m["f1"] > EPSILON:
                notes.append(
                    f"{what}; the promoted F1 there is {old['f1']:.3f}: a regression, it blocks promotion"
                )
            else:
                notes.append(
                    f"{what}; the promoted F1 there is {old['f1']:.3f}, within the tolerance {EPSILON}: "
                    "no loss against the promoted model, so the rule allows promotion"
                )
    return notes


def render_card(card: dict[str, Any]) -> str:
    holdout = card["holdout"]
    hold_lines = []
    for tier, by_lang in holdout.items():
        for lang, m in by_lang.items():
            hold_lines.append(
                f"| {tier} | {lang} | {' | '.join(shown_prf(m))} | {m['support']} | {m['n']} |"
            )
    rows = []
    for label, by_lang in card["metrics"].items():
        for lang, m in by_lang.items():
            rows.append(
                f"| {label} | {lang} | {' | '.join(shown_prf(m))} | {m['support']} | {m['n']} |"
            )
    clean = card.get("clean_set") or {}
    clean_lines = [
        f"| {tier} | {lang} | {m['flagged']} | {m['n']} | {m['fp_rate']:.2%} |"
        for tier in ("heuristics", "heuristics+classifier")
        for lang, m in clean.get(tier, {}).items()
    ]
    clean_section = (
        f"""
## Clean precision set (`{clean["set"]}`)

Short clean answers (greetings, one-line answers, yes/no, confirmations, lists, code;
en/ko/zh, with and without whitespace around them): every label is a false positive.

| tier | lang | flagged | n | FP rate |
|---|---|---:|---:|---:|
{chr(10).join(clean_lines)}
"""
        if clean.get("set")
        else ""
    )
    libs = ", ".join(f"{k} {v}" for k, v in card["libraries"].items())
    base = card["baseline"]["version"] or "none"
    trimmed = (
        " (whitespace around it removed, runs inside it one character, newlines hashed as spaces)"
        if card["features"].get("whitespace") == "collapsed"
        else ""
    )
    return f"""# Model card: {card["version"]}

A logistic regression over hashed character n-grams ({card["features"]["ngram_min"]}-{card["features"]["ngram_max"]}) of the first
{card["features"]["opening_chars"]} characters of the visible text{trimmed}, with the first
sentence marked. Heads: {", ".join(card["thresholds"])}. It runs after the rules and
heuristics on exchanges they did not already label, and its findings carry
`source=classifier`. The preamble head only scores answers that pass the gate the
heuristics pass too (`precedes_answer`: an answer follows the opening sentence).

- artifact: `model.json` (JSON, data only), sha256 `{card["sha256"]}`
- created: {card["created_at"]}
- data manifest: `{card["data"]["manifest_sha256"]}` from {", ".join(card["data"]["sources"])}
- counts: {card["data"]["counts"]}
- thresholds (chosen for cross-validated precision >= {card["training"]["target_precision"]}):
  {card["thresholds"]}
- libraries: {libs}
- compared with: {base}; regressions: {card["regressions"] or "none"}; promoted: {card["promoted"]}
- heads withheld: {card.get("withheld") or "none"}; new heads without a baseline: {card.get("new_heads") or "none"}

## Held-out split (25% of groups, never trained on)

| head | lang | P | R | F1 | positives | n |
|---|---|---:|---:|---:|---:|---:|
{chr(10).join(rows)}

## Fresh hold-out set (`models/data/holdout.jsonl`), preamble

Written for this evaluation after the training texts: never trained on, and the
heuristics were never tuned on it.

| tier | lang | P | R | F1 | positives | n |
|---|---|---:|---:|---:|---:|---:|
{chr(10).join(hold_lines)}
{clean_section}"""


def ship(progress: Progress | None = None, seed: int = 0) -> TrainResult:
    """Rebuild the shipped model from the corpus and the written texts (maintainers only)."""
    from leakline.models.data import read_corpus, read_texts

    examples = read_corpus() + read_texts(seed)
    return train_and_register(
        examples,
        SHIPPED_DIR,
        sources=["tests/corpus/cases", "models/texts.py"],
        seed=seed,
        force=True,
        progress=progress,
    )
