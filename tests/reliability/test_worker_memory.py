"""A real worker under a burst of traffic plus hostile payloads: bounded memory, nothing lost.

Real Tansu broker, real worker process (``--batch-size 500``). Two equal halves of
traffic are sent one after the other; each half is 10k simulated events plus hostile
payloads (an oversized event, depth-10000 JSON, 100k-chunk streams). The worker's
RSS is sampled from ``/proc/<pid>/status`` throughout. After each half has been
stored the RSS is read again: the second half may not leave the worker more than
``GROWTH`` bigger than the first did (a leak grows with traffic; a warm-up does not),
and the peak must stay under ``PEAK_BOUND_MIB``.

Measured on the 2-core reference machine: ~235 MiB after the first half, +2..8 %
after the second, peak ~320 MiB; five such segments in a row plateau at 245-260 MiB
(peak 390 MiB), so the growth bound catches a leak, not warm-up.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import orjson
import pytest
from leakline_testkit import RssSampler, read_topic, spawn_worker, wait_stored

from leakline.pipeline.core.config import MAX_RECORD_BYTES
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.simulate.traffic_model import Mix, simulate

pytestmark = pytest.mark.slow

HALF = 10_000
GROWTH = 0.15  # RSS after the second half <= RSS after the first half * 1.15
PEAK_BOUND_MIB = 768  # measured ~320 MiB on the reference 2-core machine
SETTLE_S = 3.0


def hostile(tag: str) -> tuple[list[bytes], list[bytes]]:
    """(payloads the worker must store, payloads it must dead-letter) for one half."""
    stored = []
    # 100k stream chunks in just under the 4 MiB limit
    for i in range(3):
        chunks = [{"choices": [{"delta": {"content": "a"}}]}] * 100_000
        event = {
            "event_id": f"hostile-{tag}-chunks-{i}",
            "api": "chat.completions",
            "request": {},
            "stream": True,
            "chunks": chunks,
        }
        payload = orjson.dumps(event)
        assert len(payload) < 4 * 1024 * 1024
        stored.append(payload)
    # deep but decodable JSON, control characters and NUL bytes
    stored.append(
        (
            f'{{"event_id":"hostile-{tag}-deep-ok","api":"chat.completions","request":'
            + '{"a":' * 900
            + "1"
            + "}" * 900
            + ',"response":{"choices":[{"message":{"content":"<think>x</think>y\\u0000"}}]}}'
        ).encode()
    )
    dead = [
        # oversized: over the 4 MiB limit, under the producer's 8 MiB request size
        orjson.dumps(
            {
                "event_id": f"hostile-{tag}-big",
                "api": "chat.completions",
                "request": {},
                "response": {"choices": [{"message": {"content": "x" * (5 * 1024 * 1024)}}]},
            }
        ),
        ("[" * 10_000 + "]" * 10_000).encode(),  # nesting orjson refuses
        f'{{"event_id":"hostile-{tag}-deep","request":'.encode() + b'{"a":' * 10_000,
        b"\xff\xfe not json",
    ]
    return stored, dead


def send(bootstrap: str, payloads: list[bytes]) -> None:
    # as a gateway with its own producer could: leakline's refuses events over the
    # worker's limit (MAX_EVENT_BYTES), the broker takes records up to MAX_RECORD_BYTES
    report = asyncio.run(
        produce(bootstrap, "gateway.events", payloads, max_event_bytes=MAX_RECORD_BYTES)
    )
    assert report.failed == 0 and report.sent == len(payloads)


def test_worker_memory_is_bounded_under_a_burst_with_hostile_payloads(
    broker, tmp_path: Path
) -> None:
    events = [
        orjson.dumps(s.event)
        for s in simulate(2 * HALF, seed=23, mix=Mix(leak_ratio=0.4, stream_ratio=0.5))
    ]
    worker = spawn_worker(broker.bootstrap, tmp_path / "data", "--batch-size", "500")
    sampler = RssSampler(worker.proc.pid)
    sampler.start()
    marks: dict[str, float] = {}
    started = time.monotonic()
    try:
        expected = 0
        dead_expected = 0
        for half, tag in ((events[:HALF], "a"), (events[HALF:], "b")):
            good, bad = hostile(tag)
            # hostile payloads spread through the burst, not bunched at one end
            step = len(half) // (len(good) + len(bad) + 1)
            mixed: list[bytes] = []
            extras = good + bad
            for i, payload in enumerate(half):
                mixed.append(payload)
                if extras and i % step == step - 1:
                    mixed.append(extras.pop(0))
            mixed.extend(extras)
            send(broker.bootstrap, mixed)
            expected += len(half) + len(good)
            dead_expected += len(bad)
            wait_stored(worker, expected, timeout_s=120)
            time.sleep(SETTLE_S)
            marks[tag] = sampler.settled(SETTLE_S - 1)
            marks[f"{tag}_at_s"] = time.monotonic() - started
        dlq = read_topic(broker.bootstrap, "gateway.events.dlq", timeout_s=60)
    finally:
        sampler.stop()
        code = worker.stop()
    log = worker.log_text()
    assert code == 0, log[-3000:]

    first, second, peak = marks["a"], marks["b"], sampler.peak
    during = [rss for _, rss in sampler.samples]
    print(
        f"\nworker RSS: start {during[0]:.0f} MiB, after first half {first:.0f} MiB "
        f"(t={marks['a_at_s']:.0f}s), after second half {second:.0f} MiB "
        f"(t={marks['b_at_s']:.0f}s), peak {peak:.0f} MiB, "
        f"{len(during)} samples; growth {100 * (second / first - 1):+.1f}%"
    )
    assert len(dlq) >= dead_expected  # redelivery may repeat one, never lose one
    reasons = {r.headers.get("leakline.reason", b"").decode()[:24] for r in dlq}
    assert any(r.startswith("event too large") for r in reasons), reasons
    assert any(r.startswith("not valid JSON") for r in reasons), reasons
    assert second <= first * (1 + GROWTH), f"RSS grew {first:.0f} -> {second:.0f} MiB"
    assert peak < PEAK_BOUND_MIB, f"peak RSS {peak:.0f} MiB"
