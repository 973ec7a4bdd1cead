"""The ``leakline`` command line. It only assembles: each command is defined, with its
parser, in the subpackage that owns it, and nothing imports this module.

Heavy modules are imported inside each command, so ``leakline --help`` and
``leakline detect --help`` start instantly.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from leakline import __version__
from leakline.pipeline.core.command import Parser, Stopped, report, stop_on_signals, stopped
from leakline.pipeline.core.config import ENV_BOOTSTRAP, ENV_DATA_DIR
from leakline.pipeline.core.errors import LeaklineError

EPILOG = f"""\
environment:
  {ENV_BOOTSTRAP}   Kafka bootstrap server (instead of --bootstrap)
  {ENV_DATA_DIR}    data directory with the Parquet dataset and leakline.duckdb (instead of --data-dir)

start here:
  leakline demo                          embedded broker + worker + simulated traffic, then rates
  leakline detect events.jsonl           label gateway events offline, one JSON line per event
  leakline rates --by engine.version     leak rates per engine version from the store
  leakline compare engine.version=0.31.0 engine.version=0.32.0   two populations, with significance
  leakline tail                          live rates and the newest leaks, from Kafka
  leakline export --out DIR --regression CASES     training data and regression cases
  leakline train --data DIR              retrain and promote the preamble classifier
  leakline gate --regression CASES --endpoint URL ...   gate a candidate engine (exit 1 = regression)
"""

# (command, module, registrar) in the order `leakline --help` lists them. A run imports only
# its own command's module, so `leakline rates` does not pay for Faust, Arrow or the SDKs.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("detect", "leakline.pipeline.detect.commands", "add_detect"),
    ("worker", "leakline.pipeline.worker.commands", "add_worker"),
    ("replay", "leakline.pipeline.ingest.commands", "add_replay"),
    ("simulate", "leakline.pipeline.ingest.commands", "add_simulate"),
    ("otlp-receiver", "leakline.pipeline.ingest.otlp_commands", "add_otlp_receiver"),
    ("otlp-relay", "leakline.pipeline.ingest.otlp_commands", "add_otlp_relay"),
    ("rates", "leakline.pipeline.store.commands", "add_rates"),
    ("compare", "leakline.pipeline.store.compare", "add_parser"),
    ("sql", "leakline.pipeline.store.commands", "add_sql"),
    ("dlq", "leakline.pipeline.worker.commands", "add_dlq"),
    ("diagnose", "leakline.pipeline.curation.diagnose", "add_parser"),
    ("train", "leakline.models.cli", "add_parser"),
    ("models", "leakline.models.cli", "add_models"),
    ("export", "leakline.pipeline.curation.export", "add_parser"),
    ("review", "leakline.pipeline.curation.review", "add_parser"),
    ("gate", "leakline.pipeline.gate.run", "add_parser"),
    ("engine-sim", "leakline.pipeline.gate.engine.sim", "add_parser"),
    ("tail", "leakline.pipeline.live.tail", "add_parser"),
    ("compact", "leakline.pipeline.store.compact", "add_parser"),
    ("store", "leakline.pipeline.store.commands", "add_store"),
    ("demo", "leakline.pipeline.demo", "add_demo"),
    ("families", "leakline.pipeline.families.commands", "add_families"),
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``leakline`` parser with every command, or with ``only`` that one (faster)."""
    parser = Parser(
        prog="leakline",
        description="Measure output-integrity leaks (reasoning, boundary tokens, tool calls as "
        "text, preambles, broken structured output) in LLM gateway traffic.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"leakline {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module, registrar in COMMANDS:
        if only is None or name == only:
            getattr(importlib.import_module(module), registrar)(sub)
    return parser


def _command_named(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs, when it names one before any option; else None (all)."""
    known = {name for name, _, _ in COMMANDS}
    if argv and argv[0] in known:
        return argv[0]
    if list(argv) == ["--version"]:
        return ""  # no command needs loading to print the version
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(only=_command_named(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    from leakline.pipeline.events import safe_logging

    safe_logging.install()  # no log line carries an event, at any level
    try:
        with stop_on_signals():  # kill and a closed terminal clean up as Ctrl-C does
            return int(args.func(args) or 0)
    except LeaklineError as exc:
        return report(args.command, exc)
    except Stopped as exc:
        return stopped(args.command, exc)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
