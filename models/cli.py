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
    p.add_argument(
        "--models-dir",
        type=Path,
        metavar="DIR",
        help="where artifacts and registry.json live (default: DATA_DIR/models)",
    )
    add_data_dir(p)
    p.add_argument("--force", action="store_true", help="promote even if F1 regresses")
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
    from leakline.models.train import metrics_table, train_and_register

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
            examples, models_dir, sources=sources, seed=args.seed, force=args.force, progress=say
        )
        bar.update(task, description="done", total=1, completed=1)
    out = sys.stdout
    out.write(f"model {result.version} -> {result.artifact_dir}\n")
    out.write(f"held-out split, compared with {result.baseline_version or 'no promoted model'}:\n")
    out.write(metrics_table(result.metrics, result.baseline_metrics) + "\n")
    if result.regressions:
        out.write("regressions: " + "; ".join(result.regressions) + "\n")
    if result.promoted:
        forced = " (forced)" if result.regressions else ""
        out.write(f"promoted{forced}: {models_dir / 'registry.json'} -> {result.version}\n")
        return 0
    out.write("not promoted (use --force to promote anyway)\n")
    return 1
