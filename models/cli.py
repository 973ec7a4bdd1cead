"""``leakline train``: registered on the ``leakline`` parser by ``add_parser``.

numpy, scikit-learn and the corpus are imported inside the command, so
``leakline --help`` stays instant.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from leakline.pipeline.core.command import add_data_dir
from leakline.pipeline.core.errors import LeaklineError

DESCRIPTION = """\
Train the opening classifier (preamble; untagged reasoning when the data supports it)
on labeled samples, compare it with the promoted model on the same held-out split, write
a versioned artifact with a model card to MODELS_DIR/<name>-<version>/, and promote it
when no language's F1 drops by more than 0.02 (or always with --force).

Data: a JSONL export (`leakline export`; one line per sample with text, labels, lang) or
an export directory holding samples.jsonl. --with-corpus adds the project's labeled corpus
(tests/corpus/cases) and the training texts written for it (models/texts.py).
A running worker whose --models-dir is MODELS_DIR picks up the promoted model within a
few seconds, without a restart.

Exit status: 0 promoted, 1 trained but not promoted (regression), 2 usage errors.

examples:
  leakline train --data export/samples.jsonl --with-corpus
  leakline train --data export/ --models-dir ./models --force
"""


def _add_store_dirs(p: argparse.ArgumentParser) -> None:
    """``--models-dir`` and ``--data-dir``, the same for ``train`` and ``models``."""
    p.add_argument(
        "--models-dir",
        type=Path,
        metavar="DIR",
        help="where artifacts and registry.json live (default: DATA_DIR/models)",
    )
    add_data_dir(p)


def add_parser(subparsers: Any) -> None:
    """Register ``train`` on the ``leakline`` sub-command parsers."""
    p = subparsers.add_parser(
        "train",
        help="train, evaluate and promote the preamble classifier",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--data", type=Path, metavar="PATH", help="export JSONL file or directory")
    p.add_argument(
        "--with-corpus",
        action="store_true",
        help="also train on the project's corpus and written training texts",
    )
    _add_store_dirs(p)
    p.add_argument("--force", action="store_true", help="promote even if F1 regresses")
    p.add_argument(
        "--new-heads",
        action="store_true",
        help="also ship heads the promoted model lacks (e.g. reasoning_leak): they have no "
        "baseline to compare with, so by default they are withheld",
    )
    p.add_argument("--seed", type=int, default=0, help="split and training seed (default: 0)")
    p.set_defaults(func=cmd_train)


def cmd_train(args: argparse.Namespace) -> int:
    from leakline.pipeline.core.config import from_env
    from leakline.pipeline.core.progress import progress_bar

    if args.data is None and not args.with_corpus:
        raise LeaklineError(
            "nothing to train on", hint="pass --data EXPORT.jsonl and/or --with-corpus"
        )
    settings = from_env(data_dir=args.data_dir)
    models_dir = args.models_dir or settings.models_dir
    from leakline.models.data import read_corpus, read_export, read_texts
    from leakline.models.evaluate import UNDEFINED
    from leakline.models.train import metrics_table, silent_notes, train_and_register

    sources: list[str] = []
    with progress_bar() as bar:
        task = bar.add_task("reading data", total=None)

        def say(message: str) -> None:
            bar.update(task, description=message)
            bar.console.print(message)

        examples = []
        if args.data is not None:
            examples += read_export(args.data)
            sources.append(str(args.data))
            say(f"{len(examples)} usable lines in {args.data}")
        if args.with_corpus:
            corpus = read_corpus() + read_texts(args.seed)
            examples += corpus
            sources += ["tests/corpus/cases", "models/texts.py"]
            say(f"{len(corpus)} corpus and written examples")
        result = train_and_register(
            examples,
            models_dir,
            sources=sources,
            seed=args.seed,
            force=args.force,
            new_heads=args.new_heads,
            progress=say,
        )
        bar.update(task, description="done", total=1, completed=1)
    out = sys.stdout
    out.write(f"model {result.version} -> {result.artifact_dir}\n")
    out.write(f"held-out split, compared with {result.baseline_version or 'no promoted model'}:\n")
    out.write(metrics_table(result.metrics, result.baseline_metrics) + "\n")
    if any(UNDEFINED in line for line in metrics_table(result.metrics).splitlines()[1:]):
        out.write(f"({UNDEFINED}: undefined, nothing predicted (P) or no positives (R))\n")
    for note in silent_notes(result.metrics, result.baseline_metrics):
        out.write(f"note: {note}\n")
    if result.regressions:
        out.write("regressions: " + "; ".join(result.regressions) + "\n")
    for label, why in result.withheld.items():
        out.write(f"head {label} withheld: {why}\n")
    if result.new_heads:
        out.write(
            f"new heads without a baseline, shipped (--new-heads): {', '.join(result.new_heads)}\n"
        )
    if result.promoted:
        forced = " (forced)" if result.regressions else ""
        out.write(f"promoted{forced}: {models_dir / 'registry.json'} -> {result.version}\n")
        return 0
    out.write("not promoted (use --force to promote anyway)\n")
    return 1


# ------------------------------------------------------------------ leakline models

MODELS_DESCRIPTION = """\
The classifier versions of a models directory (default: DATA_DIR/models) and which one
is promoted. A running worker with that --models-dir follows `promote` and `rollback`
within a few seconds, as it follows `train` (it watches MODELS_DIR/registry.json).
Without a promoted model there, workers use the shipped one (listed as "shipped").

  leakline models list                       versions, newest first; * = promoted (live)
  leakline models show VERSION               its model card: data, F1 per language vs. its baseline
  leakline models promote VERSION [--force]  make VERSION live (--force: even with F1 regressions)
  leakline models rollback                   make the previously promoted version live again

exit status: 0 done, 2 misuse (unknown version, nothing to roll back to) with a hint."""


def add_models(subparsers: Any) -> None:
    """Register ``models`` on the ``leakline`` sub-command parsers."""
    p = subparsers.add_parser(
        "models",
        help="list, inspect, promote and roll back classifier versions",
        description=MODELS_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "action",
        choices=["list", "show", "promote", "rollback"],
        help="what to do (see above)",
    )
    p.add_argument("version", nargs="?", metavar="VERSION", help="for show and promote")
    _add_store_dirs(p)
    p.add_argument("--force", action="store_true", help="promote despite recorded regressions")
    p.add_argument("--format", default="table", choices=["table", "json"])
    p.set_defaults(func=cmd_models)


def _versions(models_dir: Path) -> list[dict[str, Any]]:
    """Every artifact directory with a readable card, newest first."""
    from leakline.detectors.classifier import ArtifactError
    from leakline.models.registry import read_card

    found = []
    if models_dir.is_dir():
        for sub in sorted(models_dir.iterdir()):
            if not (sub / "card.json").is_file():
                continue
            try:
                card = read_card(sub)
            except ArtifactError:
                continue
            found.append({"dir": sub, "card": card, "version": sub.name})
    return sorted(found, key=lambda v: str(v["card"].get("created_at", "")), reverse=True)


def _f1(card: dict[str, Any], key: str = "metrics") -> dict[str, float]:
    """Overall F1 per head of a card (``baseline`` reads the baseline's)."""
    metrics = card.get(key) or {}
    if key == "baseline":
        metrics = metrics.get("metrics") or {}
    return {
        head: float(m["all"]["f1"])
        for head, m in metrics.items()
        if isinstance(m, dict) and isinstance(m.get("all"), dict) and "f1" in m["all"]
    }


def _listing(models_dir: Path) -> dict[str, Any]:
    from leakline.models.registry import SHIPPED_DIR, read_registry

    doc = read_registry(models_dir)
    live = (doc.get("promoted") or {}).get("version")
    rows = []
    for v in _versions(models_dir):
        rows.append(
            {
                "version": v["version"],
                "where": "models dir",
                "created_at": v["card"].get("created_at"),
                "f1": _f1(v["card"]),
                "regressions": v["card"].get("regressions") or [],
                "promoted": v["version"] == live,
            }
        )
    shipped = (read_registry(SHIPPED_DIR).get("promoted") or {}).get("version")
    for v in _versions(SHIPPED_DIR):
        if v["version"] == shipped:
            rows.append(
                {
                    "version": v["version"],
                    "where": "shipped",
                    "created_at": v["card"].get("created_at"),
                    "f1": _f1(v["card"]),
                    "regressions": v["card"].get("regressions") or [],
                    "promoted": live is None,
                }
            )
    return {
        "models_dir": str(models_dir),
        "live": live or shipped,
        "live_from": "models dir" if live else "shipped",
        "history": doc.get("history") or [],
        "versions": rows,
    }


def _previous(history: list[dict[str, Any]], current: str | None) -> dict[str, Any] | None:
    """The promotion before the current one (skipping re-promotions of the current)."""
    for entry in reversed(history):
        if entry.get("version") != current:
            return entry
    return None


def cmd_models(args: argparse.Namespace) -> int:
    import orjson

    from leakline.detectors.classifier import ArtifactError
    from leakline.models.registry import artifact_dir, promote, read_card, read_registry
    from leakline.pipeline.core.config import from_env

    settings = from_env(data_dir=args.data_dir)
    models_dir = Path(args.models_dir or settings.models_dir)
    out = sys.stdout
    if args.action in ("show", "promote") and not args.version:
        raise LeaklineError(
            f"`leakline models {args.action}` needs a VERSION",
            hint="see the versions with `leakline models list`",
        )
    try:
        if args.action == "list":
            listing = _listing(models_dir)
            if args.format == "json":
                out.write(orjson.dumps(listing, option=orjson.OPT_INDENT_2).decode() + "\n")
                return 0
            out.write(f"models dir: {models_dir}\n")
            out.write(f"live: {listing['live']} ({listing['live_from']})\n")
            for row in listing["versions"]:
                mark = "*" if row["promoted"] else " "
                f1 = " ".join(f"{h} F1 {v:.3f}" for h, v in sorted(row["f1"].items())) or "–"
                note = (
                    "  regressions: " + "; ".join(row["regressions"]) if row["regressions"] else ""
                )
                out.write(
                    f"{mark} {row['version']}  {row['where']}  {row['created_at']}  {f1}{note}\n"
                )
            if not listing["versions"]:
                out.write("no versions yet: `leakline train --data EXPORT` writes one\n")
            return 0
        if args.action == "show":
            try:
                where = artifact_dir(models_dir, args.version)
                card = read_card(where)
            except ArtifactError:
                from leakline.models.registry import SHIPPED_DIR

                where = artifact_dir(SHIPPED_DIR, args.version)
                card = read_card(where)
            if args.format == "json":
                out.write(orjson.dumps(card, option=orjson.OPT_INDENT_2).decode() + "\n")
                return 0
            base = _f1(card, "baseline")
            out.write(f"{card.get('version')}  ({where})\n")
            out.write(f"created {card.get('created_at')}  sha256 {card.get('sha256')}\n")
            counts = (card.get("data") or {}).get("counts") or {}
            out.write(
                f"data: {counts.get('examples', '?')} examples, by language {counts.get('by_lang', {})}\n"
            )
            for head, score in sorted(_f1(card).items()):
                before = f" (baseline {base[head]:.3f})" if head in base else " (no baseline)"
                out.write(f"  {head}: F1 {score:.3f}{before}\n")
            if card.get("regressions"):
                out.write("regressions: " + "; ".join(card["regressions"]) + "\n")
            for head, why in (card.get("withheld") or {}).items():
                out.write(f"  {head}: withheld ({why})\n")
            return 0
        doc = read_registry(models_dir)
        current = (doc.get("promoted") or {}).get("version")
        if args.action == "promote":
            card = read_card(artifact_dir(models_dir, args.version))
            if card.get("regressions") and not args.force:
                raise LeaklineError(
                    f"{args.version} was trained with regressions: "
                    + "; ".join(card["regressions"]),
                    hint="pass --force to promote it anyway",
                )
            entry = promote(models_dir, args.version, forced=args.force)
            unmatched = sorted(set(_f1(card)) - set(_f1(card, "baseline")))
            if unmatched:
                print(
                    f"note: {', '.join(unmatched)} had no baseline to compare with when trained",
                    file=sys.stderr,
                )
        else:  # rollback
            previous = _previous(doc.get("history") or [], current)
            if previous is None:
                raise LeaklineError(
                    f"nothing to roll back to in {models_dir / 'registry.json'}"
                    + (f" (only {current} was ever promoted)" if current else ""),
                    hint="`leakline models list` shows the versions; promote one with "
                    "`leakline models promote VERSION`",
                )
            entry = promote(
                models_dir, str(previous["version"]), forced=bool(previous.get("forced"))
            )
    except ArtifactError as exc:
        raise LeaklineError(str(exc), hint="`leakline models list` shows the versions") from None
    out.write(
        f"promoted: {current or 'shipped'} -> {entry['version']} in {models_dir / 'registry.json'}\n"
    )
    out.write("running workers with this --models-dir switch within a few seconds\n")
    return 0
