"""The OpenTelemetry commands: ``leakline otlp-receiver`` (OTLP/HTTP in, events to Kafka)
and ``leakline otlp-relay`` (a collector's Kafka topic of OTLP/JSON in, events to Kafka)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from typing import Any

from leakline.pipeline.core.command import (
    add_bootstrap,
    add_command,
    positive_int,
    settings_from_args,
)
from leakline.pipeline.core.http_limits import add_limit_args, limits_from_args
from leakline.pipeline.http.auth import ENV_WEB_TOKEN as ENV_TOKEN  # the worker's secrets
from leakline.pipeline.http.auth import ENV_WEB_WRITE_TOKEN as ENV_WRITE_TOKEN
from leakline.pipeline.http.auth import check_exposure


def add_otlp_receiver(subparsers: Any) -> None:
    """Register ``otlp-receiver`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "otlp-receiver",
        cmd_otlp_receiver,
        "receive OTLP/HTTP traces and produce their GenAI spans as gateway events",
        "Serve POST /v1/traces (OTLP/HTTP, protobuf or JSON, gzip or not). Every GenAI chat\n"
        "span with message content becomes a gateway event on gateway.events; spans without\n"
        "content are counted and skipped. The worker's web server (--web) serves the same\n"
        "route. Versions the spans do not carry come from $LEAKLINE_ENGINE_VERSION & co.",
    )
    add_bootstrap(p)
    p.add_argument("--host", default="127.0.0.1", help="bind address (default: %(default)s)")
    p.add_argument(
        "--port", type=int, default=4318, help="port; 0 picks a free one (default: %(default)s)"
    )
    p.add_argument(
        "--max-body-bytes",
        type=positive_int,
        default=32 * 1024 * 1024,
        help="largest export request, as for /ingest (default: %(default)s)",
    )
    p.add_argument(
        "--token",
        help=f"bearer token every request must carry (prefer ${ENV_TOKEN}: flags show in `ps`); "
        "required when --host is not loopback (unless --write-token is set), at least 16 "
        "characters",
    )
    p.add_argument(
        "--write-token",
        help=f"the worker's write token (prefer ${ENV_WRITE_TOKEN}): when set, /v1/traces "
        "takes only it and refuses --token (403), as the worker's write routes do",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        metavar="NAME",
        help="also answer requests whose Host header is NAME (repeatable); others get 421, "
        "so a page on a domain that resolves to this address (DNS rebinding) cannot post",
    )
    add_limit_args(p)


def _stop_on_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)


def cmd_otlp_receiver(args: argparse.Namespace) -> int:
    from leakline.pipeline.ingest.otlp import TRACES_PATH, serve_otlp

    token = args.token or os.environ.get(ENV_TOKEN) or None
    write_token = args.write_token or os.environ.get(ENV_WRITE_TOKEN) or None
    # the worker's rules: a token beyond loopback, 16+ chars, the write token its own
    check_exposure(args.host, token, write_token, reads=False)
    limits = limits_from_args(args)
    settings = settings_from_args(args)

    def ready(port: int) -> None:
        print(f"otlp-receiver: http://{args.host}:{port}{TRACES_PATH}", file=sys.stderr, flush=True)

    async def run() -> Any:
        stop = asyncio.Event()
        _stop_on_signals(stop)
        return await serve_otlp(
            settings,
            args.host,
            args.port,
            token=token,
            write_token=write_token,
            max_body_bytes=args.max_body_bytes,
            allowed_host_names=tuple(args.allowed_host or ()),
            limits=limits,
            stop=stop,
            ready=ready,
        )

    stats = asyncio.run(run())
    print(f"otlp-receiver: {json.dumps(stats.as_dict())}", file=sys.stderr)
    return 0


def add_otlp_relay(subparsers: Any) -> None:
    """Register ``otlp-relay`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "otlp-relay",
        cmd_otlp_relay,
        "relay an OTel collector's Kafka topic of OTLP/JSON traces to gateway.events",
        "Consume OTLP/JSON export requests (the collector's kafka exporter with\n"
        "encoding: otlp_json) and produce their GenAI chat spans as gateway events.\n"
        "At-least-once: offsets are committed after the events are delivered.",
    )
    add_bootstrap(p)
    p.add_argument(
        "--source-topic", default="otlp_spans", help="the collector's topic (default: %(default)s)"
    )
    p.add_argument(
        "--group-id", default="leakline-otel", help="consumer group (default: %(default)s)"
    )


def cmd_otlp_relay(args: argparse.Namespace) -> int:
    from leakline.client import LeakProducer, ProducerConfig
    from leakline.client.metadata import EventMeta
    from leakline.pipeline.ingest.integrations.otel import relay_otlp

    settings = settings_from_args(args)
    print(
        f"otlp-relay: {args.source_topic} -> {settings.topics.events} on {settings.bootstrap}",
        file=sys.stderr,
        flush=True,
    )

    async def run() -> dict[str, int]:
        stop = asyncio.Event()
        _stop_on_signals(stop)
        config = ProducerConfig(
            bootstrap=settings.bootstrap, topic=settings.topics.events, security=settings.security
        )
        async with LeakProducer(config) as producer:
            return await relay_otlp(
                settings.bootstrap,
                producer,
                source_topic=args.source_topic,
                group_id=args.group_id,
                stop=stop,
                security=settings.security,
                meta=EventMeta.from_env(),
            )

    counts = asyncio.run(run())
    print(f"otlp-relay: {json.dumps(counts)}", file=sys.stderr)
    return 0
