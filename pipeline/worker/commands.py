"""The worker's commands: ``leakline worker`` and ``leakline dlq`` (what its dead-letter
topic holds). Only parsers and thin runners; heavy modules load when a command runs."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from leakline.pipeline.core.command import (
    add_bootstrap,
    add_command,
    add_data_dir,
    add_idempotence,
    non_negative,
    open_output,
    positive,
    positive_int,
    ratio,
    settings_from_args,
)
from leakline.pipeline.core.config import MAX_EVENT_BYTES
from leakline.pipeline.core.http_limits import add_limit_args, limits_from_args


def add_worker(subparsers: Any) -> None:
    """Register ``worker`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "worker",
        cmd_worker,
        "run a Faust worker: gateway.events -> detectors -> store",
        "Consume gateway.events, validate (invalid -> gateway.events.dlq with the reason), run the\n"
        "detectors in micro-batches, publish leaking samples to leak.samples and write every\n"
        "exchange to the Parquet dataset under DATA_DIR/samples with DuckDB views in\n"
        "DATA_DIR/leakline.duckdb. Stops cleanly, with its child processes, on SIGINT, SIGTERM\n"
        "and SIGHUP.\n"
        "Scale out by starting more workers with the same --bootstrap (one consumer group).",
    )
    add_bootstrap(p)
    add_data_dir(p)
    p.add_argument(
        "--partitions",
        type=positive_int,
        default=4,
        help="partitions for topics this worker creates (existing topics are kept)",
    )
    p.add_argument(
        "--batch-size", type=positive_int, default=2000, help="max events per micro-batch"
    )
    p.add_argument(
        "--batch-within",
        type=positive,
        default=0.5,
        help="max seconds to fill a micro-batch (lower: fresher data, more files)",
    )
    p.add_argument(
        "--inline-batches",
        action="store_true",
        help="decode, detect and build rows in the worker process itself (one core) instead "
        "of its child processes (Faust's loop keeps fetching meanwhile)",
    )
    p.add_argument(
        "--batch-processes",
        type=positive_int,
        default=None,
        metavar="N",
        help="child processes doing the batch work (default: the usable cores, up to 4; "
        "each loads the detectors and the classifier, ~150 MB)",
    )
    p.add_argument(
        "--session-timeout", type=float, default=10.0, help="Kafka group session timeout, s"
    )
    add_idempotence(p)
    p.add_argument(
        "--clean-text-rate",
        type=ratio,
        default=0.05,
        help="share of clean exchanges whose full text is stored (leaks always are)",
    )
    p.add_argument(
        "--max-event-bytes",
        type=positive_int,
        default=MAX_EVENT_BYTES,
        help="dead-letter events larger than this (default: %(default)s)",
    )
    p.add_argument(
        "--redact",
        default="default",
        metavar="SPEC",
        help="redaction of stored and published text: 'default' (email, phone, api_key, "
        "bearer, card, aws_secret, national_id, iban, private_key), comma-separated rule names, or 'raw' to store text unredacted",
    )
    web = p.add_argument_group(
        "live dashboard and Prometheus /metrics",
        "Served by the worker's web server: http://HOST:PORT/dashboard and /metrics.",
    )
    web.add_argument("--web", action="store_true", help="serve the dashboard and /metrics")
    web.add_argument(
        "--web-host",
        metavar="HOST",
        help="bind address (default: 127.0.0.1); any other address requires a token",
    )
    web.add_argument("--web-port", type=positive_int, metavar="PORT", help="default: 6066")
    web.add_argument(
        "--web-allowed-host",
        action="append",
        metavar="NAME",
        help="also answer requests whose Host header is NAME (repeatable; e.g. the name a "
        "proxy or Prometheus uses). Others get 421: a page on a domain that resolves to "
        "this address (DNS rebinding) cannot read the dashboard",
    )
    web.add_argument(
        "--web-token",
        metavar="TOKEN",
        help="bearer token for every route, or with --web-write-token for the read routes "
        "(dashboard, /metrics) only (prefer $LEAKLINE_WEB_TOKEN: flags show in `ps`)",
    )
    web.add_argument(
        "--web-write-token",
        metavar="TOKEN",
        help="a separate bearer token for the write routes (/ingest, /v1/traces): they then "
        "refuse the read token, and it reads nothing; recommended whenever the dashboard is "
        "shared (prefer $LEAKLINE_WEB_WRITE_TOKEN)",
    )
    add_limit_args(web)
    health = web.add_mutually_exclusive_group()
    health.add_argument(
        "--health-port",
        type=positive_int,
        metavar="PORT",
        help="answer GET /healthz on PORT (same bind address) from a child process of its "
        "own: 200 while the event loop's heartbeat is under 10 s old, 503 once it is older. "
        "It answers in milliseconds while the loop is busy, so point liveness probes here "
        "(default with --web: the web port + 1, e.g. 6067)",
    )
    health.add_argument(
        "--no-health-port",
        action="store_true",
        help="no separate health listener; only the web server's /healthz, which waits "
        "behind a busy event loop",
    )
    web.add_argument(
        "--live-max-versions",
        type=positive_int,
        metavar="N",
        help="version keys the live table (dashboard, regressions) keeps: the N busiest; "
        "the rest are counted as 'other' (default: 200)",
    )
    p.add_argument(
        "--classifier-threshold",
        type=ratio,
        metavar="P",
        help="probability at which the classifier tier labels an opening "
        "(default: the model's own threshold, chosen for precision)",
    )
    p.add_argument(
        "--models-dir",
        type=Path,
        metavar="DIR",
        help="classifier registry to follow; a newly promoted model is loaded without a "
        "restart (default: DATA_DIR/models, else the shipped model)",
    )
    p.add_argument(
        "--compact-every",
        type=non_negative,
        default=300.0,
        metavar="SECONDS",
        help="merge older Parquet parts into compact files this often (0 = off; several "
        "workers on one data dir take turns; see `leakline compact`)",
    )
    p.add_argument(
        "--compact-grace",
        type=non_negative,
        default=600.0,
        metavar="SECONDS",
        help="only merge parts not modified for this long",
    )
    p.add_argument(
        "--store",
        choices=["parquet", "iceberg"],
        default="parquet",
        help="parquet: part files under DATA_DIR/samples (the default); iceberg: the "
        "Iceberg samples table of --catalog, exactly once (each commit carries its Kafka "
        "offsets, and the worker resumes where the table says)",
    )
    p.add_argument(
        "--commit-interval",
        type=positive,
        default=5.0,
        metavar="SECONDS",
        help="with --store iceberg: commit the files written since the last commit this "
        "often (one catalog commit; records are acknowledged after it)",
    )
    p.add_argument("--loglevel", default="info", choices=["debug", "info", "warning", "error"])


def cmd_worker(args: argparse.Namespace) -> int:
    from leakline.pipeline.http.auth import ENV_WEB_TOKEN, ENV_WEB_WRITE_TOKEN
    from leakline.pipeline.worker.app import run_worker

    settings = settings_from_args(
        args,
        partitions=args.partitions,
        batch_size=args.batch_size,
        batch_within_s=args.batch_within,
        batch_in_child=not args.inline_batches,
        batch_processes=args.batch_processes,
        session_timeout_s=args.session_timeout,
        clean_text_sample_rate=args.clean_text_rate,
        redaction=args.redact,
        max_event_bytes=args.max_event_bytes,
        web_enabled=args.web or None,
        web_host=args.web_host,
        web_allowed_hosts=tuple(args.web_allowed_host or ()),
        web_port=args.web_port,
        web_limits=limits_from_args(args),
        health_port=args.health_port,
        health_off=args.no_health_port,
        web_token=args.web_token or os.environ.get(ENV_WEB_TOKEN) or None,
        web_write_token=args.web_write_token or os.environ.get(ENV_WEB_WRITE_TOKEN) or None,
        live_max_versions=args.live_max_versions,
        classifier_threshold=args.classifier_threshold,
        classifier_models_dir=args.models_dir,
        compact_every_s=args.compact_every,
        compact_grace_s=args.compact_grace,
        idempotence=args.idempotence,
        store=args.store,
        commit_interval_s=args.commit_interval,
    )
    run_worker(settings, loglevel=args.loglevel)
    return 0


def add_dlq(subparsers: Any) -> None:
    """Register ``dlq`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "dlq",
        cmd_dlq,
        "what the dead-letter topic holds, by kind of reason",
        "Read gateway.events.dlq and count its dead letters by kind of reason (not valid JSON,\n"
        "schema violation at a field, event too large, internal error), each source event\n"
        "once however many copies the topic holds. --show prints the newest payloads (raw:\n"
        "dead letters are not redacted); --out writes one JSON line per dead letter (source,\n"
        "reason, time, payload); `jq -r .payload FILE` gives the raw lines back, to fix and\n"
        "send again with `leakline replay`.",
    )
    add_bootstrap(p)
    p.add_argument("--topic", help="dead-letter topic (default: gateway.events.dlq)")
    p.add_argument(
        "--last",
        type=positive_int,
        metavar="N",
        help="only the newest N records of each partition (default: all)",
    )
    p.add_argument(
        "--show", type=positive_int, metavar="N", help="print the newest N dead letters too"
    )
    p.add_argument(
        "--out",
        metavar="FILE|-",
        help="write the dead letters as JSON lines (-: to stdout, the summary to stderr)",
    )
    p.add_argument("--format", default="table", choices=["table", "json"])


def cmd_dlq(args: argparse.Namespace) -> int:
    import asyncio
    import contextlib

    import orjson

    from leakline.pipeline.worker.dead_letters import collect, summarise, summary_text

    settings = settings_from_args(args)
    topic = args.topic or settings.topics.dlq
    with contextlib.ExitStack() as stack:
        # opened first: an unwritable --out fails before the topic is read
        out = stack.enter_context(open_output(args.out)) if args.out else None
        letters = asyncio.run(
            collect(settings.bootstrap, topic, tail=args.last, security=settings.security)
        )
        summary = summarise(letters, topic)
        if out is not None:
            for letter in summary.newest:
                out.write(orjson.dumps(letter.to_json()) + b"\n")
            print(f"wrote {summary.letters} dead letters to {args.out}", file=sys.stderr)
    report_to = sys.stderr if args.out == "-" else sys.stdout  # stdout carries the lines
    if args.format == "json":
        report_to.write(
            orjson.dumps(summary.to_json(args.show or 0), option=orjson.OPT_INDENT_2).decode()
            + "\n"
        )
    else:
        report_to.write(summary_text(summary, args.show or 0))
    return 0
