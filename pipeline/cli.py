"""The ``leakline`` command line. It only assembles: each command is defined, with its
parser, in the subpackage that owns it, and nothing imports this module.

Heavy modules are imported inside each command, so ``leakline --help`` and
``leakline detect --help`` start instantly.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from leakline import __version__
from leakline.models.cli import add_parser as add_train
from leakline.pipeline.core.command import report
from leakline.pipeline.core.commands import add_detect
from leakline.pipeline.core.config import ENV_BOOTSTRAP, ENV_DATA_DIR
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.curation.diagnose import add_parser as add_diagnose
from leakline.pipeline.curation.export import add_parser as add_export
from leakline.pipeline.curation.review import add_parser as add_review
from leakline.pipeline.demo import add_demo
from leakline.pipeline.gate.engine.sim import add_parser as add_engine_sim
from leakline.pipeline.gate.run import add_parser as add_gate
from leakline.pipeline.ingest.commands import add_replay, add_simulate
from leakline.pipeline.live.tail import add_parser as add_tail
from leakline.pipeline.store.commands import add_rates
from leakline.pipeline.store.compact import add_parser as add_compact
from leakline.pipeline.worker.commands import add_dlq, add_worker

EPILOG = f"""\
environment:
  {ENV_BOOTSTRAP}   Kafka bootstrap server (instead of --bootstrap)
  {ENV_DATA_DIR}    data directory with the Parquet dataset and leakline.duckdb (instead of --data-dir)

start here:
  leakline demo                          embedded broker + worker + simulated traffic, then rates
  leakline detect events.jsonl           label gateway events offline, one JSON line per event
  leakline rates --by engine.version     leak rates per engine version from the store
  leakline tail                          live rates and the newest leaks, from Kafka
  leakline export --out DIR --regression CASES     training data and regression cases
  leakline train --data DIR              retrain and promote the preamble classifier
  leakline gate --regression CASES --endpoint URL ...   gate a candidate engine (exit 1 = regression)
"""

# in the order `leakline --help` lists them
COMMANDS = (
    add_detect,
    add_worker,
    add_replay,
    add_simulate,
    add_rates,
    add_dlq,
    add_diagnose,
    add_train,
    add_export,
    add_review,
    add_gate,
    add_engine_sim,
    add_tail,
    add_compact,
    add_demo,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="leakline",
        description="Measure output-integrity leaks (reasoning, boundary tokens, tool calls as "
        "text, preambles, broken structured output) in LLM gateway traffic.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"leakline {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except LeaklineError as exc:
        return report(args.command, exc)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
