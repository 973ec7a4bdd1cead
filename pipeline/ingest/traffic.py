"""Getting events into Kafka: ``leakline replay`` and ``leakline simulate``."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson

from leakline.pipeline.core.command import open_output
from leakline.pipeline.core.config import Settings
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.core.progress import progress_bar
from leakline.pipeline.kafka.io import (
    ProduceReport,
    ensure_topics,
    produce,
    resolve_idempotence,
)


def _lines(name: str, max_bytes: int | None = None) -> tuple[Iterator[bytes], int | None]:
    """The non-blank lines of FILE (or stdin for -), and how many there are if known.

    A file with a line over ``max_bytes`` is refused before anything is sent; stdin and
    pipes are read once, so there the producer refuses such lines one by one."""
    if name == "-":
        return (line.rstrip(b"\r\n") for line in sys.stdin.buffer if line.strip()), None
    path = Path(name)
    if not path.exists() or path.is_dir():
        raise LeaklineError(
            f"cannot read {name}: no such file",
            hint="pass an existing JSONL file, or - to read stdin",
        )

    def gen() -> Iterator[bytes]:
        with path.open("rb") as handle:
            for line in handle:
                if line.strip():
                    yield line.rstrip(b"\r\n")

    if not path.is_file():  # a pipe or device (/dev/stdin, <(...)): read once, no total
        return gen(), None
    total = 0
    oversize: list[tuple[int, int]] = []
    with path.open("rb") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                total += 1
                size = len(line.rstrip(b"\r\n"))
                if max_bytes is not None and size > max_bytes:
                    oversize.append((number, size))
    if oversize:
        shown = ", ".join(f"line {n} ({size} bytes)" for n, size in oversize[:5])
        more = f" and {len(oversize) - 5} more" if len(oversize) > 5 else ""
        raise LeaklineError(
            f"{name}: {shown}{more} over the worker's limit of {max_bytes} bytes per event;"
            " nothing was sent",
            hint="shrink or drop those events (the worker would only dead-letter them), or "
            "raise --max-event-bytes on both replay and the worker",
        )
    return gen(), total


def send_payloads(
    settings: Settings,
    payloads: Iterator[bytes],
    total: int | None,
    topic: str | None = None,
    label: str = "replay",
) -> ProduceReport:
    topic = topic or settings.topics.events

    async def run() -> ProduceReport:
        await ensure_topics(
            settings.bootstrap,
            [settings.topics.events, settings.topics.dlq, settings.topics.samples, topic],
            settings.partitions,
            timeout_s=settings.connect_timeout_s,
            security=settings.security,
        )
        idempotent = await resolve_idempotence(
            settings.idempotence, settings.bootstrap, settings.security
        )
        with progress_bar() as bar:
            task = bar.add_task(f"{label} → {topic}", total=total)
            return await produce(
                settings.bootstrap,
                topic,
                payloads,
                on_sent=lambda n: bar.advance(task, n),
                security=settings.security,
                idempotent=idempotent,
                max_event_bytes=settings.max_event_bytes,
            )

    return asyncio.run(run())


def replay_file(name: str, settings: Settings, topic: str | None = None) -> ProduceReport:
    lines, total = _lines(name, settings.max_event_bytes)
    return send_payloads(settings, lines, total, topic)


def simulate_traffic(
    settings: Settings,
    *,
    count: int,
    seed: int,
    leak_ratio: float,
    stream_ratio: float,
    malformed: int,
    out: str | None,
) -> int:
    from leakline.pipeline.simulate.traffic_model import Mix, malformed_payloads, simulate

    mix = Mix(leak_ratio=leak_ratio, stream_ratio=stream_ratio)
    events = (orjson.dumps(s.event) for s in simulate(count, seed=seed, mix=mix))
    bad = malformed_payloads(malformed, seed=seed) if malformed else []
    if out is not None:
        with open_output(out) as handle:
            for payload in events:
                handle.write(payload + b"\n")
            for payload in bad:
                handle.write(payload.replace(b"\n", b" ") + b"\n")
        return 0

    def everything() -> Iterator[bytes]:
        yield from events
        yield from bad

    report = send_payloads(settings, everything(), count + len(bad), label="simulate")
    print(
        f"simulated {report.sent} events ({len(bad)} malformed) to {settings.topics.events}",
        file=sys.stderr,
    )
    return 1 if report.failed else 0
