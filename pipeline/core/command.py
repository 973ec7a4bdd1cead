"""What every ``leakline`` command shares: errors as a message plus a hint (exit 2, never a
traceback), ``kill`` and a closed terminal handled as Ctrl-C is, and running one subcommand
on its own as ``python -m leakline.pipeline.<package>.<module>``."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NoReturn

from leakline.pipeline.core.config import (
    DEFAULT_DATA_DIR,
    ENV_BOOTSTRAP,
    ENV_CATALOG,
    ENV_DATA_DIR,
    IDEMPOTENCE_MODES,
    Settings,
    from_env,
    security_from_env,
)
from leakline.pipeline.core.errors import LeaklineError


def report(command: str, exc: LeaklineError) -> int:
    from leakline.pipeline.core.term import safe

    # an error can quote a value read from a file or the broker: printable lines only
    print(f"leakline {command}: error: {safe(exc)}", file=sys.stderr)
    if exc.hint:
        print(f"hint: {safe(exc.hint)}", file=sys.stderr)
    return 2


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose misuse names the (sub)command misused.

    argparse hands a subcommand's unknown options back to the top-level parser, which
    then prints ``usage: leakline [-h] ... COMMAND`` and leaves the user to guess which
    options the command takes. Here the parser that received them reports them itself,
    with its own usage and a hint. Subparsers inherit the class (``add_subparsers`` uses
    the parent's class), so one class covers every command and nested action.
    """

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extra = super().parse_known_args(args, namespace)
        if extra:
            self.error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed, extra

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(
            2, f"{self.prog}: error: {message}\nhint: `{self.prog} --help` lists its options\n"
        )


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where Ctrl-C raises ``KeyboardInterrupt``: whatever a
    command does on Ctrl-C (its ``finally`` blocks, ``except KeyboardInterrupt``: stop the
    worker and broker it started) it does on ``kill`` and on a closed terminal too.
    Python's default for both signals is to end at once, skipping all of that."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def _stop(signum: int, frame: object) -> None:
    # a second signal (systemd and shells repeat them) must not cut short the cleanup
    # the first one started; SIGKILL remains, and the children watch for it (procinfo)
    for sig in STOP_SIGNALS:
        if signal.getsignal(sig) in (_stop, _hang_up):
            signal.signal(sig, signal.SIG_IGN)
    loop = _running_loop()
    if loop is not None:
        # inside a task's step it would end that task alone, with a traceback; raised by
        # a callback of its own it leaves the loop, and ``asyncio.run`` cancels the tasks
        loop.call_soon_threadsafe(_raise_stopped, signum)
        return
    raise Stopped(signum)


def _raise_stopped(signum: int) -> None:
    raise Stopped(signum)


def _running_loop() -> Any:
    """The asyncio loop running in this thread, if any (asyncio itself is not imported
    for that: a command that never loaded it runs none)."""
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _hang_up(signum: int, frame: object) -> None:
    handler = signal.getsignal(signal.SIGTERM)
    if handler is _stop or handler in (signal.SIG_DFL, None):
        _stop(signum, frame)
    else:  # the command stops on SIGTERM itself (an event loop's handler): go that way
        os.kill(os.getpid(), signal.SIGTERM)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGHUP stop the running command as Ctrl-C does
    (``Stopped``); the previous handlers come back after it.

    A signal set to be ignored (``nohup``) stays ignored. A command that handles SIGTERM
    on its event loop (the worker, the receivers, ``tail``, ``engine-sim``) replaces this
    handler with its own, and SIGHUP then takes the same way. Main thread only (Python
    runs signal handlers there)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    if previous[signal.SIGTERM] == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _stop)
    if previous[signal.SIGHUP] == signal.SIG_DFL:
        signal.signal(signal.SIGHUP, _hang_up)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            if handler is not None:  # None: set outside Python, left as it is
                signal.signal(sig, handler)


def stopped(command: str, exc: Stopped) -> int:
    """Say which signal stopped ``command``; the shell's exit status for it (128 + signal)."""
    print(f"leakline {command}: stopped by {signal.Signals(exc.signum).name}", file=sys.stderr)
    return 128 + exc.signum


def run_standalone(
    command: str,
    description: str,
    configure: Callable[[argparse.ArgumentParser], None],
    argv: Sequence[str] | None = None,
) -> int:
    """Parse and run one subcommand without the ``leakline`` entry point."""
    parser = Parser(
        prog=f"leakline {command}",
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    configure(parser)
    args = parser.parse_args(argv)
    try:
        with stop_on_signals():
            return int(args.func(args) or 0)
    except LeaklineError as exc:
        return report(command, exc)
    except Stopped as exc:
        return stopped(command, exc)


def add_command(
    subparsers: Any,
    name: str,
    func: Callable[[argparse.Namespace], int],
    help_: str,
    description: str,
) -> argparse.ArgumentParser:
    """Add one subcommand to the ``leakline`` parser; ``func(args)`` runs it."""
    p = subparsers.add_parser(
        name, help=help_, description=description, formatter_class=HelpFormatter
    )
    p.set_defaults(func=func)
    return p


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


def add_data_dir(p: argparse.ArgumentParser, as_of: bool = False) -> None:
    """``--data-dir`` and ``--catalog``, the same for every command that reads or writes a
    store; with ``as_of``, also ``--as-of`` (for commands that only read it)."""
    p.add_argument(
        "--data-dir",
        metavar="DIR",
        type=Path,
        help=f"data directory (default: ${ENV_DATA_DIR} or {DEFAULT_DATA_DIR})",
    )
    p.add_argument(
        "--catalog",
        metavar="NAME|URI",
        action=CatalogAction,
        help=f"the Iceberg catalog of the store (default: ${ENV_CATALOG} or `local`, "
        "SQLite in the data directory): a SQLAlchemy URI (postgresql+psycopg://…) or a "
        "catalog name from .pyiceberg.yaml / PYICEBERG_CATALOG__<NAME>__*",
    )
    if as_of:
        p.add_argument(
            "--as-of",
            metavar="TIME|SNAPSHOT_ID",
            help="read the Iceberg store as it was: the snapshot current at TIME (RFC 3339, "
            "or a duration ago such as 2h), or the snapshot with that id (default: now)",
        )


class CatalogAction(argparse.Action):
    """``--catalog`` holds for the whole process, as ``$LEAKLINE_CATALOG`` would: every
    store reader and writer it starts opens the same catalog without passing it along."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        os.environ[ENV_CATALOG] = str(values)


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


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Keeps the description's line breaks and shows defaults the help does not state."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        # options whose help already says where the default comes from need no "(default: None)"
        text = action.help or ""
        if "default:" in text or action.default is None:
            return text
        return super()._get_help_string(action)


def add_bootstrap(p: argparse.ArgumentParser) -> None:
    """``--bootstrap`` plus the Kafka security options, the same for every Kafka command."""
    p.add_argument(
        "--bootstrap",
        metavar="HOST:PORT",
        help=f"Kafka bootstrap server (default: ${ENV_BOOTSTRAP} or 127.0.0.1:9092)",
    )
    group = p.add_argument_group(
        "Kafka security", "SASL/TLS for every client; the password only via $LEAKLINE_SASL_PASSWORD"
    )
    group.add_argument(
        "--security-protocol",
        default=argparse.SUPPRESS,
        choices=["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"],
        help="default: $LEAKLINE_SECURITY_PROTOCOL or PLAINTEXT",
    )
    group.add_argument(
        "--sasl-mechanism",
        default=argparse.SUPPRESS,
        choices=["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"],
        help="default: $LEAKLINE_SASL_MECHANISM",
    )
    group.add_argument(
        "--sasl-username", default=argparse.SUPPRESS, help="default: $LEAKLINE_SASL_USERNAME"
    )
    group.add_argument(
        "--ssl-cafile", default=argparse.SUPPRESS, help="CA bundle (default: $LEAKLINE_SSL_CAFILE)"
    )
    group.add_argument(
        "--ssl-certfile",
        default=argparse.SUPPRESS,
        help="client certificate (default: $LEAKLINE_SSL_CERTFILE)",
    )
    group.add_argument(
        "--ssl-keyfile",
        default=argparse.SUPPRESS,
        help="client key (default: $LEAKLINE_SSL_KEYFILE)",
    )


def add_idempotence(p: argparse.ArgumentParser) -> None:
    """``--idempotence`` for the commands that produce to Kafka."""
    p.add_argument(
        "--idempotence",
        choices=IDEMPOTENCE_MODES,
        default="auto",
        help="idempotent producer, so a request the network cut in flight and the client "
        "resent is written once: auto (default) uses it where the broker grants producer "
        "ids (Apache Kafka; not Tansu), on requires it, off never asks",
    )


def settings_from_args(args: argparse.Namespace, **extra: object) -> Settings:
    """The one ``Settings`` of a command: its flags over the environment over defaults."""
    if "bootstrap" in vars(args):  # the command talks to Kafka
        flags = vars(args)
        extra["security"] = security_from_env(
            protocol=flags.get("security_protocol"),
            sasl_mechanism=flags.get("sasl_mechanism"),
            sasl_username=flags.get("sasl_username"),
            ssl_cafile=flags.get("ssl_cafile"),
            ssl_certfile=flags.get("ssl_certfile"),
            ssl_keyfile=flags.get("ssl_keyfile"),
        )
    return from_env(
        bootstrap=getattr(args, "bootstrap", None),
        data_dir=getattr(args, "data_dir", None),
        **extra,
    )


def ratio(text: str) -> float:
    """argparse type: a number from 0 to 1."""
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


class open_input:  # noqa: N801 - used like open()
    """``FILE|-`` opened for reading bytes; a missing file is a LeaklineError with a hint."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.handle = None

    def __enter__(self):  # type: ignore[no-untyped-def]
        if self.name == "-":
            return sys.stdin.buffer
        try:
            self.handle = open(self.name, "rb")  # noqa: SIM115
        except OSError as exc:
            raise LeaklineError(
                f"cannot read {self.name}: {exc.strerror}",
                hint="pass an existing JSONL file, or - to read stdin",
            ) from None
        return self.handle

    def __exit__(self, *exc: object) -> None:
        if self.handle:
            self.handle.close()
