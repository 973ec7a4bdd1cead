"""``leakline tail``: a live terminal view over Kafka, without the web server.

Reads ``leak.stats`` (rates, contract 3) and ``leak.samples`` (newest leaks, contract 4)
with a plain aiokafka consumer: no consumer group, every partition assigned, starting
at the end (or the beginning with ``--from-beginning``). Partitions and topics that
appear later (a worker creates ``leak.stats`` on its first start) are picked up from
their beginning, since everything in them is newer than the tail.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

from leakline.pipeline.core.command import (
    HelpFormatter,
    add_bootstrap,
    non_negative,
    positive,
    settings_from_args,
)
from leakline.pipeline.core.config import KafkaSecurity
from leakline.pipeline.core.errors import BrokerError
from leakline.pipeline.live.tail_view import (
    DEFAULT_BY,
    VERSION_FIELDS,
    LeakFeed,
    LeakSample,
    RollingRates,
    TailFilter,
    parse_sample,
    parse_stats,
    plain_leak_line,
    plain_rates,
    resolve_by,
    rich_view,
)
from leakline.pipeline.query.filters import add_filter_args, where_from_args

STATS_TOPIC = "leak.stats"
REFRESH_S = 5.0  # how often to look for new topics/partitions

DESCRIPTION = """\
A live view of leaks over Kafka (no web server needed):
  - rolling leak rates per version, from the worker's per-batch counts on leak.stats
  - the newest leaking exchanges from leak.samples, with the leaking span highlighted
    and the detector's evidence, layer and suggested fix
Without a consumer group: every partition is read, starting at the end (new traffic
only) unless --from-beginning or --since. Filters apply to both panes: --where (or
--version) and --model keep matching versions; --since/--until keep records by their own
time; --label keeps leaks with any of the labels and narrows the rate table's label
columns (totals stay the denominators).
On a terminal the view redraws in place; piped (or --format plain) it prints one
`leak ...` line per new leak and a `rates ...` block every --interval seconds and on exit.
Stop with Ctrl-C, --max-seconds or --once.

examples:
  leakline tail --bootstrap 127.0.0.1:9092
  leakline tail --label reasoning_leak --where engine.version=0.31.0
  leakline tail --since 1h --once --format plain      the last hour, then exit
  leakline tail --from-beginning --once --format plain | grep '^rate '
"""


@dataclass(frozen=True)
class TailOptions:
    bootstrap: str
    samples_topic: str
    stats_topic: str
    filt: TailFilter
    by: tuple[str, ...] = DEFAULT_BY
    window_s: float = 300.0
    from_beginning: bool = False
    once: bool = False
    max_seconds: float | None = None
    plain: bool = True
    interval_s: float = 10.0
    leaks_shown: int = 12
    security: KafkaSecurity | None = None


# ------------------------------------------------------------------ outputs


class PlainOutput:
    """Line-oriented output for pipes and tests."""

    def __init__(self, opts: TailOptions, rates: RollingRates, out: TextIO) -> None:
        self.opts, self.rates, self.out = opts, rates, out
        self.dirty = True
        self.last = time.monotonic()

    def started(self, note: str) -> None:
        print(note, file=sys.stderr, flush=True)

    def leak(self, sample: LeakSample) -> None:
        self.out.write(plain_leak_line(sample, self.opts.filt.labels) + "\n")
        self.out.flush()

    def changed(self) -> None:
        self.dirty = True

    def tick(self, now: datetime) -> None:
        if self.dirty and time.monotonic() - self.last >= self.opts.interval_s:
            self._print_rates(now)

    def close(self, now: datetime) -> None:
        self._print_rates(now)

    def _print_rates(self, now: datetime) -> None:
        self.out.write("\n".join(plain_rates(self.rates, now)) + "\n")
        self.out.flush()
        self.dirty = False
        self.last = time.monotonic()


class RichOutput:
    """A rich Live view redrawn in place (at most 4 times a second)."""

    def __init__(self, opts: TailOptions, rates: RollingRates, feed: LeakFeed) -> None:
        from rich.console import Console
        from rich.live import Live

        self.opts, self.rates, self.feed = opts, rates, feed
        self.console = Console()
        self.header = f"leakline tail · {opts.bootstrap} · filters: {opts.filt.describe()}"
        self.live = Live(self._render(), console=self.console, refresh_per_second=4)
        self.live.start()

    def _render(self) -> Any:
        return rich_view(self.rates, self.feed, self.header, ["Ctrl-C to quit"])

    def started(self, note: str) -> None:
        self.header = note

    def leak(self, sample: LeakSample) -> None:
        pass  # the feed already holds it; the next tick redraws

    def changed(self) -> None:
        pass

    def tick(self, now: datetime) -> None:
        self.live.update(self._render())

    def close(self, now: datetime) -> None:
        self.live.update(self._render())
        self.live.stop()


# ------------------------------------------------------------------ Kafka


class _Reader:
    """Assigns every partition of both topics and remembers positions across re-assigns."""

    def __init__(self, opts: TailOptions) -> None:
        from aiokafka import AIOKafkaConsumer

        from leakline.pipeline.kafka.io import client_options

        self.opts = opts
        self.consumer = AIOKafkaConsumer(
            bootstrap_servers=opts.bootstrap,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            request_timeout_ms=15000,
            **client_options(opts.security),
        )
        self.positions: dict[Any, int] = {}
        self.targets: dict[Any, int] = {}  # --once: end offsets seen at start

    async def start(self) -> None:
        from leakline.pipeline.kafka.io import CONNECT_ERRORS, connect_error_text

        try:
            await self.consumer.start()
        except CONNECT_ERRORS as exc:
            with contextlib.suppress(Exception):
                await self.consumer.stop()
            raise BrokerError(
                f"cannot reach Kafka at {self.opts.bootstrap}: {connect_error_text(exc)}",
                hint="check --bootstrap / $LEAKLINE_BOOTSTRAP (a worker must be publishing "
                "there), or run `leakline demo --keep-running` for a local broker",
            ) from None
        await self.refresh(initial=True)
        if self.opts.once:
            self.targets = dict(await self.consumer.end_offsets(list(self.positions)))

    async def refresh(self, initial: bool = False) -> None:
        from aiokafka import TopicPartition

        # consumer.topics() fetches fresh metadata but does not keep it, and
        # partitions_for_topic() only knows topics seen at bootstrap or assigned, so a
        # topic created later (leak.stats on a worker's first start) needs this call
        cluster = await self.consumer._client.fetch_all_metadata()
        found = {
            TopicPartition(topic, p)
            for topic in (self.opts.samples_topic, self.opts.stats_topic)
            for p in cluster.partitions_for_topic(topic) or ()
        }
        new = found - set(self.positions)
        if not new:
            return
        self.consumer.assign(sorted(found))
        for tp, offset in self.positions.items():
            self.consumer.seek(tp, offset)
        if initial and not self.opts.from_beginning:
            await self.consumer.seek_to_end(*new)
        else:
            await self.consumer.seek_to_beginning(*new)
        for tp in new:  # resolve now, so nothing produced after "ready" is skipped
            self.positions[tp] = await self.consumer.position(tp)

    def caught_up(self) -> bool:
        return all(self.positions.get(tp, 0) >= end for tp, end in self.targets.items())

    async def poll(self, timeout_ms: int) -> list[tuple[str, bytes | None]]:
        if not self.positions:
            await asyncio.sleep(timeout_ms / 1000)
            return []
        batch = await self.consumer.getmany(timeout_ms=timeout_ms, max_records=5000)
        out: list[tuple[str, bytes | None]] = []
        for tp, messages in batch.items():
            for m in messages:
                out.append((tp.topic, m.value))
                self.positions[tp] = m.offset + 1
        return out

    async def stop(self) -> None:
        await self.consumer.stop()


async def run_tail(opts: TailOptions, out: TextIO = sys.stdout) -> int:
    """Consume until Ctrl-C/SIGTERM, --max-seconds, or (--once) the end offsets at start."""
    rates = RollingRates(opts.window_s, opts.by, opts.filt)
    feed = LeakFeed(opts.leaks_shown)
    reader = _Reader(opts)
    await reader.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    view: PlainOutput | RichOutput = (
        PlainOutput(opts, rates, out) if opts.plain else RichOutput(opts, rates, feed)
    )
    where = "the beginning" if opts.from_beginning else "now"
    view.started(
        f"leakline tail: following {opts.samples_topic} and {opts.stats_topic} on "
        f"{opts.bootstrap} from {where} ({len(reader.positions)} partitions; "
        f"filters: {opts.filt.describe()})"
    )
    deadline = time.monotonic() + opts.max_seconds if opts.max_seconds else None
    last_refresh = time.monotonic()
    try:
        while not stop.is_set():
            if deadline is not None and time.monotonic() >= deadline:
                break
            if opts.once and reader.caught_up():
                break
            wait_ms = 250
            if deadline is not None:
                wait_ms = max(1, min(wait_ms, int((deadline - time.monotonic()) * 1000)))
            for topic, value in await reader.poll(wait_ms):
                now = datetime.now(UTC)
                if topic == opts.stats_topic:
                    record = parse_stats(value)
                    if record is not None:
                        rates.add(record, now)
                        view.changed()
                else:
                    sample = parse_sample(value)
                    if sample is not None and feed.add(sample, opts.filt):
                        view.leak(sample)
            now = datetime.now(UTC)
            if rates.expire(now):
                view.changed()
            view.tick(now)
            if not opts.once and time.monotonic() - last_refresh >= REFRESH_S:
                await reader.refresh()
                last_refresh = time.monotonic()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
        view.close(datetime.now(UTC))
        await reader.stop()
    return 0


# ------------------------------------------------------------------ CLI


def add_parser(subparsers: Any) -> None:
    """Register ``tail`` on the ``leakline`` sub-command parsers."""
    p = subparsers.add_parser(
        "tail",
        help="live terminal view of leak rates and the newest leaks (Kafka only)",
        description=DESCRIPTION,
        formatter_class=HelpFormatter,
    )
    p.set_defaults(func=cmd_tail)
    add_bootstrap(p)
    p.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="LABEL",
        help="only leaks with this label (repeat for any of several)",
    )
    p.add_argument(
        "--version",
        action="append",
        default=[],
        dest="versions",
        metavar="FIELD=VALUE",
        help="the same as --where, e.g. engine.version=0.31.0",
    )
    add_filter_args(p, fields=VERSION_FIELDS, what="records")
    p.add_argument("--model", metavar="NAME", help="only this model (same as model.name=NAME)")
    p.add_argument(
        "--by",
        default=",".join(DEFAULT_BY),
        metavar="FIELDS",
        help="group the rate table by these version fields",
    )
    p.add_argument(
        "--window",
        type=non_negative,
        default=None,
        metavar="SECONDS",
        help="rolling window of the rates; 0 counts everything read "
        "(default: 300, or 0 with --since)",
    )
    p.add_argument(
        "--from-beginning",
        action="store_true",
        help="read the topics from their beginning instead of new records only",
    )
    stop = p.add_mutually_exclusive_group()
    stop.add_argument(
        "--once",
        action="store_true",
        help="read up to the end offsets present at start, print, and exit",
    )
    stop.add_argument("--max-seconds", type=positive, metavar="S", help="exit after S seconds")
    p.add_argument(
        "--format",
        choices=["rich", "plain"],
        help="rich redraws in place; plain prints lines (default: rich on a terminal)",
    )
    p.add_argument(
        "--interval",
        type=positive,
        default=10.0,
        metavar="SECONDS",
        help="plain format: print the rate table at most this often (and on exit)",
    )
    p.add_argument("--leaks", type=int, default=12, metavar="N", help="newest leaks kept on screen")


def cmd_tail(args: argparse.Namespace, out: TextIO | None = None) -> int:
    settings = settings_from_args(args)
    # the client logs every failed connect; the view (or the error below) says it once
    logging.getLogger("aiokafka").setLevel(logging.CRITICAL)
    # --since reads the topics from their beginning and keeps the records from then on
    where = where_from_args(args, fields=VERSION_FIELDS)
    filt = TailFilter.build(
        args.label, args.versions, args.model, args.where, where.since, where.until
    )
    window = args.window if args.window is not None else (0.0 if where.since else 300.0)
    stream = out or sys.stdout
    plain = args.format == "plain" or (args.format is None and not stream.isatty())
    opts = TailOptions(
        bootstrap=settings.bootstrap,
        samples_topic=settings.topics.samples,
        stats_topic=getattr(settings.topics, "stats", STATS_TOPIC),
        filt=filt,
        by=resolve_by(args.by),
        window_s=window,
        from_beginning=args.from_beginning or where.since is not None,
        once=args.once,
        max_seconds=args.max_seconds,
        plain=plain,
        interval_s=args.interval,
        leaks_shown=max(1, args.leaks),
        security=settings.security,
    )
    try:
        return asyncio.run(run_tail(opts, stream))
    except KeyboardInterrupt:  # Ctrl-C before the signal handlers were installed
        return 130
