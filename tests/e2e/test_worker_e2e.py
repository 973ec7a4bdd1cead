"""End to end on real processes: Tansu broker -> Faust worker -> Parquet/DuckDB + DLQ."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

import orjson
import pytest
from leakline_testkit import read_topic, spawn_worker, wait_stored

from leakline.pipeline.detect.offline import detect_line
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.simulate.traffic_model import Mix, malformed_payloads, simulate
from leakline.pipeline.store.database import query_rates, read_only

pytestmark = pytest.mark.slow

# hand-made, unambiguous cases with the labels they must get in the store
KNOWN = {
    "known-think": (
        {
            "api": "chat.completions",
            "request": {},
            "response": {
                "choices": [
                    {"message": {"content": "<think>add them</think>4"}, "finish_reason": "stop"}
                ]
            },
        },
        ["boundary_token", "reasoning_leak"],
    ),
    "known-clean": (
        {
            "api": "chat.completions",
            "request": {},
            "response": {
                "choices": [
                    {"message": {"content": "4", "reasoning": "2+2"}, "finish_reason": "stop"}
                ]
            },
        },
        [],
    ),
    "known-truncated": (
        {
            "api": "messages",
            "request": {},
            "response": {
                "stop_reason": "max_tokens",
                "content": [{"type": "thinking", "thinking": "long..."}],
            },
        },
        ["truncated"],
    ),
    "known-mixed": (
        {
            "api": "chat.completions",
            "request": {},
            "stream": True,
            "chunks": [
                {"choices": [{"index": 0, "delta": {"reasoning": "r", "content": "Hi"}}]},
                {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
            ],
        },
        ["mixed_chunk"],
    ),
}


def known_events() -> list[bytes]:
    return [
        orjson.dumps({"event_id": eid, "engine": {"name": "vllm", "version": "9.9.9"}, **body})
        for eid, (body, _) in KNOWN.items()
    ]


def send(bootstrap: str, payloads: list[bytes]) -> None:
    report = asyncio.run(produce(bootstrap, "gateway.events", payloads))
    assert report.failed == 0 and report.sent == len(payloads)


def test_events_flow_to_store_and_dlq(broker, tmp_path: Path) -> None:
    sim = list(simulate(400, seed=11, mix=Mix(leak_ratio=0.4, stream_ratio=0.5)))
    valid = [orjson.dumps(s.event) for s in sim] + known_events()
    bad = malformed_payloads(25, seed=11)
    worker = spawn_worker(broker.bootstrap, tmp_path / "data")
    try:
        # bad payloads between good ones: the worker must keep going
        mixed = valid[:200] + bad[:12] + valid[200:] + bad[12:]
        send(broker.bootstrap, mixed)
        wait_stored(worker, len(valid))
        time.sleep(1.5)  # a late duplicate or extra row would show up now
        dlq = read_topic(broker.bootstrap, "gateway.events.dlq")
        samples_topic = read_topic(broker.bootstrap, "leak.samples")
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]

    data_dir = tmp_path / "data"
    with read_only(data_dir) as con:
        stored = dict(con.execute("select event_id, labels from samples").fetchall())
        raw_rows = con.execute("select count(*) from samples_all").fetchone()[0]
        rates = query_rates(con, [])
    expected_ids = {orjson.loads(p)["event_id"] for p in valid}
    assert set(stored) == expected_ids
    assert raw_rows == len(valid)  # no crash, so no duplicate rows at all
    assert rates[0]["total"] == len(valid)

    # every malformed payload is on the DLQ exactly once, byte for byte, with a reason
    assert Counter(r.value for r in dlq) == Counter(bad)
    assert all(r.headers.get("leakline.reason") for r in dlq)
    assert all(r.headers["leakline.source"].startswith(b"gateway.events/") for r in dlq)

    # the stream labels are exactly what offline detection says for the same event
    for payload in valid:
        offline = detect_line(payload, 4 * 1024 * 1024)
        assert sorted(stored[offline["event_id"]]) == offline["labels"], offline["event_id"]
    for eid, (_, labels) in KNOWN.items():
        assert sorted(stored[eid]) == labels, eid

    # leak.samples carries exactly the leaking events
    leaking_ids = {eid for eid, labels in stored.items() if labels}
    assert {r.key.decode() for r in samples_topic} == leaking_ids
    assert len(leaking_ids) > 50


def test_replaying_the_same_events_leaves_rates_unchanged(broker, tmp_path: Path) -> None:
    payloads = [orjson.dumps(s.event) for s in simulate(300, seed=5)]
    worker = spawn_worker(broker.bootstrap, tmp_path / "data")
    try:
        send(broker.bootstrap, payloads)
        wait_stored(worker, len(payloads))
        with read_only(worker.data_dir) as con:
            before = query_rates(con, ["engine.version", "model.name"])
        send(broker.bootstrap, payloads)  # the same events, new offsets
        deadline = time.monotonic() + 60
        while True:
            with read_only(worker.data_dir) as con:
                raw = con.execute("select count(*) from samples_all").fetchone()[0]
            if raw >= 2 * len(payloads) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert raw == 2 * len(payloads)  # both deliveries were stored ...
        with read_only(worker.data_dir) as con:
            after = query_rates(con, ["engine.version", "model.name"])
    finally:
        worker.stop()
    assert after == before  # ... and counted once
    assert sum(r["total"] for r in after) == len(payloads)
