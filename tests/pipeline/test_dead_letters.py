"""Reading the DLQ (pipeline/worker/dead_letters.py) and ``leakline dlq``, on a real broker.

Dead letters are written here the way the worker writes them (``DeadLetter.headers()``),
in several produce requests per partition, with a repeated copy of two sources.
"""

from __future__ import annotations

import asyncio
import base64
import json
import subprocess
from pathlib import Path

import pytest
from aiokafka import AIOKafkaProducer
from leakline_testkit import leakline

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import DeadLetter
from leakline.pipeline.kafka.broker import EmbeddedBroker
from leakline.pipeline.kafka.io import ensure_topics
from leakline.pipeline.worker.dead_letters import read_dead_letters, summarise
from leakline.pipeline.worker.dlq import recorded_sources

DLQ = "test.dlq"
PARTITIONS = 3
NOT_UTF8 = b"\xff\xfe{broken"


def _letters() -> list[DeadLetter]:
    letters = []
    for offset in range(24):
        origin = Origin("gateway.events", offset % 4, offset)
        if offset % 3 == 0:
            value, reason = b"{not json", "not valid JSON: unexpected character: line 1 column 2"
        elif offset % 3 == 1:
            value = b'{"event_id": "e%d"}' % offset
            reason = "schema violation at (root): 'ts' is a required property"
        else:
            value, reason = b"x" * 64, "event too large: 64 bytes > limit 32"
        letters.append(DeadLetter(None, value, reason, origin))
    letters.append(DeadLetter(None, NOT_UTF8, "not valid JSON: bad bytes", Origin("e", 0, 99)))
    return letters


async def _publish(bootstrap: str, letters: list[DeadLetter], repeat: list[DeadLetter]) -> None:
    await ensure_topics(bootstrap, [DLQ], PARTITIONS)
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap)
    await producer.start()
    try:
        for i in range(0, len(letters), 5):  # several record batches per partition
            for letter in letters[i : i + 5]:
                await producer.send(
                    DLQ,
                    letter.value,
                    key=letter.source.encode(),
                    headers=letter.headers(),
                    partition=letter.origin.offset % PARTITIONS,
                )
            await producer.flush()
        for letter in repeat:  # a resent copy, as after a cut produce request
            await producer.send_and_wait(
                DLQ, letter.value, key=letter.source.encode(), headers=letter.headers()
            )
    finally:
        await producer.stop()


@pytest.fixture
def published(broker: EmbeddedBroker) -> tuple[str, list[DeadLetter]]:
    letters = _letters()
    asyncio.run(_publish(broker.bootstrap, letters, repeat=letters[:2]))
    return broker.bootstrap, letters


async def _read_all(bootstrap: str, tail: int | None = None) -> list:
    return [letter async for letter in read_dead_letters(bootstrap, DLQ, tail=tail)]


def test_every_record_is_read_including_each_partitions_last_batch(published) -> None:
    bootstrap, letters = published
    read = asyncio.run(_read_all(bootstrap))
    assert len(read) == len(letters) + 2
    assert {letter.source for letter in read} == {letter.source for letter in letters}
    by_source = {letter.source: letter for letter in read}
    for letter in letters:
        assert by_source[letter.source].payload == letter.value
        assert by_source[letter.source].reason == letter.reason


def test_the_summary_counts_sources_once_and_groups_by_kind(published) -> None:
    bootstrap, letters = published
    summary = summarise(asyncio.run(_read_all(bootstrap)), DLQ)
    assert summary.letters == len(letters) and summary.copies == len(letters) + 2
    counts = {row.kind: row.letters for row in summary.rows()}
    assert counts == {
        "not valid JSON": 9,
        "schema violation at (root)": 8,
        "event too large": 8,
    }
    assert sum(row.copies for row in summary.rows()) == len(letters) + 2


def test_tail_reads_the_newest_records_of_each_partition(published) -> None:
    bootstrap, _ = published
    everything = asyncio.run(_read_all(bootstrap))
    newest = {(p, max(r.offset for r in everything if r.partition == p)) for p in range(PARTITIONS)}
    read = asyncio.run(_read_all(bootstrap, tail=1))
    # "about": Tansu's end offset is the last record batch's first offset + 1, so the
    # tail can hold that whole batch
    assert newest <= {(r.partition, r.offset) for r in read}
    assert len(read) <= 2 * PARTITIONS < len(everything)


def test_the_worker_ledger_reads_the_same_sources(published) -> None:
    bootstrap, letters = published
    sources = asyncio.run(recorded_sources(bootstrap, DLQ))
    assert sources == {letter.source for letter in letters}


def _dlq_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return leakline("dlq", "--topic", DLQ, *args)


def test_cli_json_and_out_file(published, tmp_path: Path) -> None:
    bootstrap, letters = published
    out = tmp_path / "dead.jsonl"
    result = _dlq_cli(
        "--bootstrap", bootstrap, "--format", "json", "--show", "2", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["dead_letters"] == len(letters) and report["copies"] == len(letters) + 2
    assert len(report["newest"]) == 2
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == len(letters)  # one per source
    payloads = {line["source"]: line for line in lines}
    for letter in letters:
        line = payloads[letter.source]
        if letter.value == NOT_UTF8:
            assert base64.b64decode(line["payload_base64"]) == NOT_UTF8
        else:
            assert line["payload"].encode() == letter.value
        assert line["reason"] == letter.reason


def test_cli_table_names_the_kinds_and_the_repeats(published) -> None:
    bootstrap, letters = published
    result = _dlq_cli("--bootstrap", bootstrap, "--show", "1")
    assert result.returncode == 0, result.stderr
    assert f"dead letters on {DLQ}: {len(letters)}" in result.stdout
    assert "2 repeated copies not counted" in result.stdout
    for kind in ("not valid JSON", "schema violation at (root)", "event too large"):
        assert kind in result.stdout


def test_cli_on_a_topic_that_does_not_exist(broker: EmbeddedBroker) -> None:
    result = _dlq_cli("--bootstrap", broker.bootstrap)
    assert result.returncode == 0, result.stderr
    assert f"no dead letters on {DLQ}" in result.stdout


def test_cli_without_a_broker_says_what_to_check() -> None:
    result = _dlq_cli("--bootstrap", "127.0.0.1:9")
    assert result.returncode == 2
    assert "cannot read test.dlq" in result.stderr and "hint:" in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_out_to_stdout_moves_the_summary_to_stderr(published) -> None:
    bootstrap, letters = published
    result = _dlq_cli("--bootstrap", bootstrap, "--out", "-")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == len(letters)
    assert f"dead letters on {DLQ}: {len(letters)}" in result.stderr
