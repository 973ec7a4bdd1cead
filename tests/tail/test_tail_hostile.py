"""``leakline tail`` and ``leakline dlq`` on a real Tansu broker holding hostile event data
(issue 36, finding 6): rich markup, terminal escape sequences and line-forging newlines in
event ids (a LiteLLM client sets the id through a header), stats records and dead-letter
reasons. The leak samples come from the worker's own ``process_batch``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
from aiokafka import AIOKafkaProducer
from leakline_testkit import leakline
from test_tail_broker import STATS, Traffic, publish, tail_cmd

from leakline.pipeline.core.term import safe
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import DeadLetter, RawRecord, process_batch
from leakline.pipeline.kafka.io import ensure_topics
from leakline.pipeline.simulate.traffic_model import Mix, encode_event, simulate

MARKUP = "[/][bold]x[/bold]"
CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"
TITLE = "\x1b]0;owned\x07"
CLEAR = "\x1b[2J\x9b0m"
FORGED = "\nleak forged-id engine.name=vllm labels=preamble"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

pytestmark = pytest.mark.slow


def hostile_traffic(count: int = 60) -> Traffic:
    events = [s.event for s in simulate(count, seed=5, mix=Mix(leak_ratio=0.5))]
    for i, event in enumerate(events):
        if i % 3 == 0:
            event["event_id"] = f"id{i}{MARKUP}{CLIPBOARD}{FORGED}"
    records = [
        RawRecord(e["event_id"].encode(), encode_event(e), Origin("gateway.events", 0, i))
        for i, e in enumerate(events)
    ]
    result = process_batch(records, worker_id="w", clean_text_rate=0.0, max_event_bytes=4 << 20)
    return Traffic([result])


async def _send(bootstrap: str, topic: str, values: list[bytes]) -> None:
    await ensure_topics(bootstrap, [topic], partitions=1)
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all")
    await producer.start()
    try:
        for value in values:
            await producer.send_and_wait(topic, value)
    finally:
        await producer.stop()


def hostile_stats() -> bytes:
    """A stats record as anyone who can write to leak.stats could send it."""
    word = f"v{MARKUP}{TITLE}{FORGED}"
    return orjson.dumps(
        {
            "v": 1,
            "worker_id": word,
            "ts": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "dims": {"engine_name": word, "engine_version": word, "model_name": "m"},
            "total": 10,
            "leaking": 2,
            "labels": {f"preamble{MARKUP}{CLEAR}": 2},
            "dead_lettered": 0,
        }
    )


def _no_raw(text: str) -> None:
    assert not RAW.search(text), repr(RAW.search(text))
    assert "Traceback" not in text and "MarkupError" not in text, text[-2000:]


def test_plain_tail_quotes_ids_and_prints_no_escape(broker: Any) -> None:
    traffic = hostile_traffic()
    publish(broker.bootstrap, traffic, stats=False)
    asyncio.run(_send(broker.bootstrap, STATS, [hostile_stats()]))
    done = leakline(
        *tail_cmd(broker.bootstrap, "--format", "plain", "--from-beginning", "--once")[3:]
    )
    _no_raw(done.stdout)
    _no_raw(done.stderr)
    assert done.returncode == 0, done.stderr[-2000:]
    samples = traffic.samples()
    hostile = [s for s in samples if "\x1b" in s["event_id"]]
    assert hostile, "the simulated traffic should leak in some hostile events"
    lines = [line for line in done.stdout.splitlines() if line.startswith("leak ")]
    # one line per sample: the newline in the id forged none
    assert len(lines) == len(samples), done.stdout[-3000:]
    decode = json.JSONDecoder().raw_decode
    ids = {decode(line, len("leak "))[0] for line in lines}
    assert ids == {safe(s["event_id"]) for s in samples}
    rates = [line for line in done.stdout.splitlines() if line.startswith("rate ")]
    assert len(rates) == 1 and rates[0].count(" engine.version=") == 1, rates
    assert rates[0].startswith('rate engine.name="v[/][bold]x[/bold]␛]0;owned␇⏎leak forged')


def test_rich_tail_renders_markup_as_text(broker: Any) -> None:
    traffic = hostile_traffic()
    publish(broker.bootstrap, traffic, stats=False)
    asyncio.run(_send(broker.bootstrap, STATS, [hostile_stats()]))
    env = {**os.environ, "COLUMNS": "300", "TERM": "xterm-256color"}
    done = leakline(
        *tail_cmd(broker.bootstrap, "--format", "rich", "--from-beginning", "--once")[3:],
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    _no_raw(done.stdout)  # no colours either: stdout is not a terminal
    _no_raw(done.stderr)
    # the stats dims and label as visible text; the event column folds the hostile ids
    assert "v[/][bold]x[/bold]␛]0;owned␇⏎leak forged-id" in done.stdout
    assert "preamble[/][bold]x[/bold]␛[2J\ufffd0m 2" in done.stdout
    assert re.search(r"│ id\d+\[/\]\[bold\]x\[/bold\]␛\]5", done.stdout), done.stdout


def test_dlq_prints_a_hostile_reason_as_text(broker: Any) -> None:
    reason = f"schema violation at event_id: {MARKUP}{TITLE}{CLEAR}{FORGED}"
    letter = DeadLetter(None, b'{"event_id": 1}', reason, Origin("gateway.events", 0, 7))

    async def send() -> None:
        await ensure_topics(broker.bootstrap, ["gateway.events.dlq"], partitions=1)
        producer = AIOKafkaProducer(bootstrap_servers=broker.bootstrap)
        await producer.start()
        try:
            await producer.send_and_wait(
                "gateway.events.dlq",
                letter.value,
                key=letter.source.encode(),
                headers=letter.headers(),
            )
        finally:
            await producer.stop()

    asyncio.run(send())
    done = leakline(
        "dlq", "--bootstrap", broker.bootstrap, "--show", "1", env={**os.environ, "COLUMNS": "300"}
    )
    assert done.returncode == 0, done.stderr[-2000:]
    _no_raw(done.stdout)
    _no_raw(done.stderr)
    assert "[/][bold]x[/bold]␛]0;owned␇" in done.stdout
    assert not any(line.startswith("leak forged") for line in done.stdout.splitlines())
