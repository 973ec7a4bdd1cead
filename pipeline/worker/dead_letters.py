"""Reading the dead-letter topic: what ``leakline dlq`` shows and the worker's ledger loads.

Every dead letter carries the raw payload, the reason (``leakline.reason``) and its source
coordinates (``leakline.source`` = topic/partition/offset, also the key). A source can be
on the topic twice (a produce request resent after a network cut, on a broker without
idempotent producers), so everything here counts sources, and says how many copies.
"""

from __future__ import annotations

import base64
import io
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiokafka import AIOKafkaConsumer, TopicPartition

from leakline.pipeline.core.config import KafkaSecurity
from leakline.pipeline.core.errors import BrokerError
from leakline.pipeline.events.process import REASON_HEADER, SOURCE_HEADER
from leakline.pipeline.events.redact import Redactor, safe_reason
from leakline.pipeline.kafka.io import CONNECT_ERRORS, client_options, connect_error_text


@dataclass(frozen=True, slots=True)
class DeadLetterRecord:
    source: str
    reason: str
    payload: bytes
    timestamp_ms: int
    partition: int
    offset: int

    @property
    def kind(self) -> str:
        """The reason without its details: "not valid JSON", "schema violation at …"."""
        return self.reason.split(":", 1)[0].strip() or "no reason given"

    def to_json(self) -> dict[str, Any]:
        """One line of ``leakline dlq --out``: the payload as text when it is UTF-8."""
        line: dict[str, Any] = {
            "source": self.source,
            "reason": self.reason,
            "timestamp": _iso(self.timestamp_ms),
            "dlq_partition": self.partition,
            "dlq_offset": self.offset,
        }
        try:
            line["payload"] = self.payload.decode()
        except UnicodeDecodeError:
            line["payload_base64"] = base64.b64encode(self.payload).decode()
        return line


def _iso(timestamp_ms: int) -> str:
    return datetime.fromtimestamp(timestamp_ms / 1000, UTC).isoformat(timespec="milliseconds")


def _decode(message: Any) -> DeadLetterRecord:
    headers = dict(message.headers or ())
    source = headers.get(SOURCE_HEADER) or message.key or b""
    reason = headers.get(REASON_HEADER) or b""
    return DeadLetterRecord(
        source=source.decode(errors="replace"),
        # letters written before reasons were made safe (or by another producer) can
        # quote the raw value: shown redacted and cut like new ones
        reason=safe_reason(reason.decode(errors="replace")),
        payload=message.value or b"",
        timestamp_ms=message.timestamp,
        partition=message.partition,
        offset=message.offset,
    )


async def read_dead_letters(
    bootstrap: str,
    topic: str,
    *,
    tail: int | None = None,
    security: KafkaSecurity | None = None,
    on_total: Callable[[int], None] | None = None,
    on_read: Callable[[int], None] | None = None,
) -> AsyncIterator[DeadLetterRecord]:
    """Every dead letter on ``topic`` now (or about the last ``tail`` of each partition).

    Reads to the end offsets taken at the start; a missing topic holds none. Tansu
    reports an end as its last record batch's first offset + 1, and a fetch returns
    whole batches, so that batch is read in full.
    Raises ``KafkaError``/``OSError`` when the broker cannot be reached.
    """
    consumer = AIOKafkaConsumer(
        bootstrap_servers=bootstrap, enable_auto_commit=False, **client_options(security)
    )
    try:
        await consumer.start()
        partitions = consumer.partitions_for_topic(topic)
        if not partitions:
            await consumer.topics()  # refreshes metadata
            partitions = consumer.partitions_for_topic(topic) or set()
        tps = [TopicPartition(topic, p) for p in sorted(partitions)]
        if not tps:
            if on_total:
                on_total(0)
            return
        consumer.assign(tps)
        ends = await consumer.end_offsets(tps)
        starts = await consumer.beginning_offsets(tps)
        firsts = {
            tp: starts[tp] if tail is None else max(starts[tp], ends[tp] - tail) for tp in tps
        }
        for tp in tps:
            consumer.seek(tp, firsts[tp])
        if on_total:
            on_total(sum(ends[tp] - firsts[tp] for tp in tps))
        remaining = {tp for tp in tps if ends[tp] > firsts[tp]}
        while remaining:
            batch = await consumer.getmany(*remaining, timeout_ms=1000)
            for messages in batch.values():
                for message in messages:
                    yield _decode(message)
                if on_read:
                    on_read(len(messages))
            for tp in list(remaining):
                if await consumer.position(tp) >= ends[tp]:
                    remaining.discard(tp)
    finally:
        await consumer.stop()


# ------------------------------------------------------------------ leakline dlq


@dataclass
class KindRow:
    kind: str
    letters: int = 0  # distinct sources
    copies: int = 0  # records on the topic
    newest_ms: int = 0
    example: str = ""  # the newest full reason


@dataclass
class DlqSummary:
    topic: str
    letters: int = 0
    copies: int = 0
    kinds: dict[str, KindRow] = field(default_factory=dict)
    newest: list[DeadLetterRecord] = field(default_factory=list)  # one per source, newest last

    def to_json(self, show: int) -> dict[str, Any]:
        return {
            "topic": self.topic,
            "dead_letters": self.letters,
            "copies": self.copies,
            "by_kind": [
                {
                    "kind": row.kind,
                    "dead_letters": row.letters,
                    "copies": row.copies,
                    "newest": _iso(row.newest_ms),
                    "example_reason": row.example,
                }
                for row in self.rows()
            ],
            "newest": [letter.to_json() for letter in self.newest[-show:]] if show else [],
        }

    def rows(self) -> list[KindRow]:
        return sorted(self.kinds.values(), key=lambda row: (-row.letters, row.kind))


def summarise(letters: list[DeadLetterRecord], topic: str) -> DlqSummary:
    """Count sources (not records) per kind of reason; keep each source's first copy."""
    summary = DlqSummary(topic, copies=len(letters))
    seen: dict[str, DeadLetterRecord] = {}
    for letter in letters:
        row = summary.kinds.setdefault(letter.kind, KindRow(letter.kind))
        row.copies += 1
        if letter.source in seen:
            continue
        seen[letter.source] = letter
        row.letters += 1
        if letter.timestamp_ms >= row.newest_ms:
            row.newest_ms, row.example = letter.timestamp_ms, letter.reason
    summary.letters = len(seen)
    summary.newest = sorted(seen.values(), key=lambda letter: letter.timestamp_ms)
    return summary


def summary_text(summary: DlqSummary, show: int) -> str:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from leakline.pipeline.core.term import safe
    from leakline.pipeline.core.term import text as safe_text

    buffer = io.StringIO()
    console = Console(file=buffer, width=200)
    if not summary.letters:
        console.print(safe_text(f"no dead letters on {summary.topic}"))
        return buffer.getvalue()
    repeats = summary.copies - summary.letters
    table = Table(
        title=safe_text(
            f"dead letters on {summary.topic}: {summary.letters}"
            + (f" ({repeats} repeated copies not counted)" if repeats else "")
        ),
        show_footer=True,
    )
    table.add_column("kind of reason", footer="all")
    table.add_column("dead letters", justify="right", footer=str(summary.letters))
    table.add_column("newest")
    table.add_column("newest reason", overflow="fold")
    for row in summary.rows():
        # the reason and its kind carry values from the payload: text, never markup
        table.add_row(
            safe_text(row.kind), str(row.letters), _iso(row.newest_ms), safe_text(row.example)
        )
    console.print(table)
    for letter in summary.newest[-show:] if show else []:
        # a glance at the payload, redacted: the raw bytes are for --out / --format json
        # (replaying a fixed event), not for a terminal that others may see
        preview = Redactor.default().redact_text(letter.payload[:200].decode(errors="replace"))
        line = Text("\n")
        line.append(safe(letter.source), style="bold")
        line.append(f" at {_iso(letter.timestamp_ms)}: {safe(letter.reason)}")
        console.print(line, highlight=False)
        # repr escapes every non-printable character; safe() is for the ellipsis-free rest
        console.print(
            safe(repr(preview)) + (" …" if len(letter.payload) > 200 else ""),
            markup=False,
            highlight=False,
        )
    return buffer.getvalue()


async def collect(
    bootstrap: str,
    topic: str,
    *,
    tail: int | None,
    security: KafkaSecurity | None,
    progress: bool = True,
) -> list[DeadLetterRecord]:
    """Read the topic with a progress bar on stderr; a broker error becomes BrokerError."""
    from leakline.pipeline.core.progress import progress_bar

    letters: list[DeadLetterRecord] = []
    with progress_bar() as bar:
        task = bar.add_task(f"reading {topic}", total=None, visible=progress)
        expected = 0

        def total(count: int) -> None:
            nonlocal expected
            expected = count
            bar.update(task, total=count)

        def read(count: int) -> None:
            # Tansu's end offsets can fall short of the last batch (read_dead_letters)
            bar.update(task, advance=count, total=max(expected, len(letters)))

        try:
            async for letter in read_dead_letters(
                bootstrap, topic, tail=tail, security=security, on_total=total, on_read=read
            ):
                letters.append(letter)
        except CONNECT_ERRORS as exc:
            raise BrokerError(
                f"cannot read {topic} from Kafka at {bootstrap}: {connect_error_text(exc)}",
                hint="check --bootstrap / $LEAKLINE_BOOTSTRAP and the security settings",
            ) from exc
    return letters
