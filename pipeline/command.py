"""What every ``leakline`` command shares: errors as a message plus a hint (exit 2, never a
traceback), and running one subcommand on its own as ``python -m pipeline.<module>``."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from pipeline.config import DEFAULT_DATA_DIR, ENV_DATA_DIR
from pipeline.errors import LeaklineError


def report(command: str, exc: LeaklineError) -> int:
    print(f"leakline {command}: error: {exc}", file=sys.stderr)
    if exc.hint:
        print(f"hint: {exc.hint}", file=sys.stderr)
    return 2


def run_standalone(
    command: str,
    description: str,
    configure: Callable[[argparse.ArgumentParser], None],
    argv: Sequence[str] | None = None,
) -> int:
    """Parse and run one subcommand without the ``leakline`` entry point."""
    parser = argparse.ArgumentParser(
        prog=f"leakline {command}",
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    configure(parser)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except LeaklineError as exc:
        return report(command, exc)


def register(
    subparsers: Any,
    command: str,
    help_: str,
    description: str,
    configure: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Add one subcommand, defined in its own module, to the ``leakline`` parser."""
    parser = subparsers.add_parser(
        command,
        help=help_,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    configure(parser)


def add_data_dir(p: argparse.ArgumentParser) -> None:
    """The ``--data-dir`` option, the same for every command that reads or writes a store."""
    p.add_argument(
        "--data-dir",
        metavar="DIR",
        type=Path,
        help=f"data directory (default: ${ENV_DATA_DIR} or {DEFAULT_DATA_DIR})",
    )


def non_negative(text: str) -> float:
    """argparse type: a number >= 0."""
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {text}")
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer > 0."""
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def positive(text: str) -> float:
    """argparse type: a number > 0."""
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


@contextlib.contextmanager
def open_output(name: str) -> Iterator[BinaryIO]:
    """``--out FILE|-`` opened for writing bytes; a path that cannot be written to is a
    LeaklineError (exit 2 with a hint), not a traceback. ``-`` is stdout."""
    if name == "-":
        yield sys.stdout.buffer
        return
    try:
        handle = open(name, "wb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise LeaklineError(
            f"cannot write {name}: {exc.strerror}",
            hint="pass a file in an existing, writable directory, or - for stdout",
        ) from None
    with handle:
        yield handle
