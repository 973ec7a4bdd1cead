"""Issue 18, part 3: one planted secret of each kind, in every place an event carries
text, sent through a real worker; nothing raw may be found anywhere it can reach."""

from __future__ import annotations

import asyncio
import time
import urllib.request
from pathlib import Path

import orjson
import pytest
from leakline_testkit import every_place, spawn_worker, wait_stored

from leakline.pipeline.kafka.broker import free_port
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.live.web.wiring import TABLE_NAME
from leakline.pipeline.simulate.planted import PLANTED, find_planted, planted_events


def _wait_samples(port: int, count: int, timeout_s: float = 60.0) -> None:
    url = f"http://127.0.0.1:{port}/dashboard/api/samples?limit=100"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                page = orjson.loads(response.read())
            items = page.get("samples", page.get("items", [])) if isinstance(page, dict) else page
            if len(items) >= count:
                return
        except OSError:
            pass
        time.sleep(0.5)


@pytest.mark.slow
def test_planted_secrets_reach_no_output_raw(broker, tmp_path: Path) -> None:
    events = planted_events()
    payloads = [orjson.dumps(e) for e in events]
    assert set(find_planted(b"\n".join(payloads))) == set(PLANTED)  # the finder finds them
    port = free_port()
    store = tmp_path / "store"
    worker = spawn_worker(
        broker.bootstrap, store, "--web", "--web-port", str(port), "--batch-within", "0.2"
    )
    try:
        report = asyncio.run(produce(broker.bootstrap, "gateway.events", payloads))
        assert report.sent == len(payloads), report
        wait_stored(worker, len(events))
        _wait_samples(port, len(events))
        places = every_place(broker.bootstrap, store, port, worker.log_text(), tmp_path / "out")
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
    places["worker log"] = worker.log_text().encode()
    assert any(name.startswith("topic leak.samples") for name in places), sorted(places)
    assert any(name.startswith("topic leak.stats") for name in places), sorted(places)
    changelog = f"topic leakline-{TABLE_NAME}-changelog"  # the dashboard's windowed table
    assert changelog in places, sorted(n for n in places if n.startswith("topic"))
    assert any(name.startswith("file regression/cases/") for name in places), sorted(places)
    leaks = {name: kinds for name, blob in places.items() if (kinds := find_planted(blob))}
    assert not leaks, leaks
    assert b"[AWS_SECRET]" in b"".join(v for k, v in places.items() if "visible_text" in k)
