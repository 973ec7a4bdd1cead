"""What consuming costs before any detection: raw aiokafka, Faust per event, Faust in batches.

One preloaded topic of production-mix events (6 KB on average), three consumers in
turn, each in its own process and consumer group, doing no work but taking and
acknowledging every record:

- ``raw``: aiokafka ``getmany`` (the floor; no Faust)
- ``faust-events``: a plain ``faust.App`` agent with ``stream.noack_take`` and
  ``stream.ack`` per event (the way the worker consumed until 2026-12-01)
- ``faust-batches``: ``leakline.pipeline.worker.faust_transport.LeaklineApp`` with the topic routed in
  batches to an agent, acknowledged with ``Consumer.ack`` (the way the worker consumes)

Prints events/s and CPU µs per event of each, and each one's ratio to ``raw`` from the
same run (the machine is shared, so only the ratios compare across runs).

    .venv/bin/python benchmarks/faust_floor.py            # 60 000 events
    .venv/bin/python benchmarks/faust_floor.py --events 20000 --json floor.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from leakline.pipeline.core.procinfo import cpu_seconds  # noqa: E402

MODES = ("raw", "faust-events", "faust-batches")
BATCH = 2000


class Meter:
    """Events and CPU from the first record on (group joins are not consumption)."""

    def __init__(self, total: int, out: Path) -> None:
        self.total, self.out, self.seen = total, out, 0
        self.started = 0.0
        self.cpu0 = 0.0

    def add(self, n: int) -> bool:
        if self.seen == 0:
            self.started, self.cpu0 = time.perf_counter(), _cpu()
        self.seen += n
        if self.seen < self.total:
            return False
        elapsed, cpu = time.perf_counter() - self.started, _cpu() - self.cpu0
        self.out.write_text(
            json.dumps(
                {
                    "events_per_s": round(self.seen / elapsed),
                    "cpu_us_per_event": round(cpu / self.seen * 1e6, 1),
                }
            )
        )
        return True


def _cpu() -> float:
    return cpu_seconds(os.getpid()) or 0.0


def consume_raw(bootstrap: str, topic: str, meter: Meter) -> None:
    from aiokafka import AIOKafkaConsumer

    async def run() -> None:
        consumer = AIOKafkaConsumer(
            topic,
            bootstrap_servers=bootstrap,
            group_id="floor-raw",
            auto_offset_reset="earliest",
            enable_auto_commit=False,
            max_partition_fetch_bytes=8 << 20,
            fetch_max_bytes=64 << 20,
        )
        await consumer.start()
        try:
            while True:
                batch = await consumer.getmany(timeout_ms=1000, max_records=BATCH)
                count = sum(len(records) for records in batch.values())
                if count and meter.add(count):
                    return
        finally:
            await consumer.stop()

    asyncio.run(run())


def consume_faust(
    bootstrap: str, topic_name: str, meter: Meter, batched: bool, datadir: Path
) -> None:
    import faust
    from faust.worker import Worker

    from leakline.pipeline.worker.faust_transport import BatchRoute, LeaklineApp

    app_class = LeaklineApp if batched else faust.App
    app = app_class(
        "floor-batches" if batched else "floor-events",
        broker=f"kafka://{bootstrap}",
        value_serializer="raw",
        key_serializer="raw",
        datadir=str(datadir),
        store="memory://",
        topic_allow_declare=False,
        web_enabled=False,
        broker_commit_every=BATCH,
        consumer_auto_offset_reset="earliest",
        consumer_max_fetch_size=8 << 20,
        stream_buffer_maxsize=2 * BATCH,
    )
    topic = app.topic(topic_name, value_serializer="raw", key_serializer="raw")

    def done() -> None:
        os._exit(0)  # the figure is written; no graceful Faust shutdown to wait for

    if batched:
        assert isinstance(app, LeaklineApp)
        channel = app.channel(maxsize=2)

        async def deliver(messages: list[Any]) -> None:
            await channel.send(value=messages)

        app.topics.add(topic)
        app.route_batches(BatchRoute(topic_name, BATCH, 1.0, deliver))

        @app.agent(channel)
        async def take_batches(stream: Any) -> None:
            ack = app.consumer.ack
            async for messages in stream:
                for message in messages:
                    ack(message)
                if meter.add(len(messages)):
                    done()

    else:

        @app.agent(topic)
        async def take_events(stream: Any) -> None:
            async for events in stream.noack_take(BATCH, within=1.0):
                for event in events:
                    await stream.ack(event)
                if meter.add(len(events)):
                    done()

    Worker(app, loglevel="warning", quiet=True, redirect_stdouts=False).execute_from_commandline()


def run_mode(mode: str, bootstrap: str, topic: str, total: int, root: Path) -> dict[str, Any]:
    out = root / f"{mode}.json"
    cmd = [sys.executable, __file__, "--consume", mode, "--bootstrap", bootstrap]
    cmd += ["--topic", topic, "--events", str(total), "--out", str(out)]
    subprocess.run(cmd, cwd=root, timeout=900, check=True, stdout=subprocess.DEVNULL)
    return dict(json.loads(out.read_text()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=60000, help="events to preload and consume")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--consume", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--bootstrap", help=argparse.SUPPRESS)
    parser.add_argument("--topic", default="gateway.events", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.consume:  # one consumer, in its own process
        meter = Meter(args.events, args.out)
        if args.consume == "raw":
            consume_raw(args.bootstrap, args.topic, meter)
        else:
            datadir = args.out.parent / f"faust-{args.consume}"
            consume_faust(
                args.bootstrap, args.topic, meter, args.consume == "faust-batches", datadir
            )
        return 0

    from harness import Stage, events

    with tempfile.TemporaryDirectory(prefix="leakline-floor-") as tmp:
        root = Path(tmp)
        stage = Stage(root, "floor")
        try:
            print(f"preloading {args.events} production-mix events ...", file=sys.stderr)
            stage.send(events(args.events, seed=5))
            figures = {
                m: run_mode(m, stage.broker.bootstrap, "gateway.events", args.events, root)
                for m in MODES
            }
        finally:
            stage.close()
    raw = figures["raw"]["events_per_s"]
    print(f"{'consumer':<15}{'events/s':>10}{'CPU µs/event':>14}{'x raw':>8}")
    for mode, f in figures.items():
        print(
            f"{mode:<15}{f['events_per_s']:>10}{f['cpu_us_per_event']:>14}"
            f"{f['events_per_s'] / raw:>8.2f}"
        )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
