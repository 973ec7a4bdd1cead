"""The ingest commands: ``leakline replay`` (a JSONL file to Kafka) and ``leakline
simulate`` (synthetic traffic to Kafka or a file). Heavy modules load when a command runs."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from leakline.pipeline.core.command import (
    add_bootstrap,
    add_command,
    add_idempotence,
    positive_int,
    ratio,
    settings_from_args,
)
from leakline.pipeline.core.config import MAX_EVENT_BYTES


def _add_producer_options(p: argparse.ArgumentParser) -> None:
    """``--idempotence`` and ``--connect-timeout``, shared by the commands that produce to Kafka."""
    add_idempotence(p)
    p.add_argument(
        "--connect-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long to wait for the broker before giving up",
    )


def add_replay(subparsers: Any) -> None:
    """Register ``replay`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "replay",
        cmd_replay,
        "produce gateway events from a JSONL file to Kafka",
        "Send each line of FILE (or stdin) as one record to gateway.events, keyed by event_id.\n"
        "Lines are sent as-is: the worker validates and dead-letters bad ones.",
    )
    p.add_argument("file", metavar="FILE|-", help="JSONL input; - for stdin")
    add_bootstrap(p)
    p.add_argument("--topic", help="target topic (default: gateway.events)")
    p.add_argument(
        "--max-event-bytes",
        type=positive_int,
        default=MAX_EVENT_BYTES,
        help="refuse lines larger than this, the worker's --max-event-bytes (default: %(default)s)",
    )
    _add_producer_options(p)


def cmd_replay(args: argparse.Namespace) -> int:
    from leakline.pipeline.ingest.traffic import replay_file

    settings = settings_from_args(
        args,
        connect_timeout_s=args.connect_timeout,
        idempotence=args.idempotence,
        max_event_bytes=args.max_event_bytes,
    )
    report = replay_file(args.file, settings, topic=args.topic)
    refused = (
        f", {report.refused} refused: over the worker's limit of {args.max_event_bytes} bytes"
        if report.refused
        else ""
    )
    print(
        f"replayed {report.sent} events to {args.topic or settings.topics.events}"
        f" ({report.retried} retries, {report.failed} failed{refused})",
        file=sys.stderr,
    )
    return 1 if report.failed or report.refused else 0


def add_simulate(subparsers: Any) -> None:
    """Register ``simulate`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "simulate",
        cmd_simulate,
        "generate realistic synthetic gateway traffic",
        "Generate events from a fleet of simulated engines, versions and model families in\n"
        "English, Korean and Chinese, with a configurable mix of leaks and clean answers,\n"
        "streaming and non-streaming. Writes JSONL with --out, else produces to Kafka.",
    )
    add_bootstrap(p)
    p.add_argument("--count", type=positive_int, default=1000, help="number of valid events")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same events)")
    p.add_argument("--leak-ratio", type=ratio, default=0.3, help="share of events designed to leak")
    p.add_argument("--stream-ratio", type=ratio, default=0.4, help="share of streamed events")
    p.add_argument(
        "--malformed", type=int, default=0, help="also send this many malformed payloads"
    )
    p.add_argument("--out", metavar="FILE|-", help="write JSONL here instead of producing to Kafka")
    _add_producer_options(p)


def cmd_simulate(args: argparse.Namespace) -> int:
    from leakline.pipeline.ingest.traffic import simulate_traffic

    settings = settings_from_args(
        args, connect_timeout_s=args.connect_timeout, idempotence=args.idempotence
    )
    return simulate_traffic(
        settings,
        count=args.count,
        seed=args.seed,
        leak_ratio=args.leak_ratio,
        stream_ratio=args.stream_ratio,
        malformed=args.malformed,
        out=args.out,
    )
