"""Known traffic for the dashboard and /metrics tests, with its expected counts.

The expected numbers come from running the same payloads through ``process_batch``
in the test process (the worker's whole job minus I/O), so the live views are
checked against an independent computation, not against themselves.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from leakline.pipeline.core.config import from_env
from leakline.pipeline.events.contract import rejection_of
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.ingest.traffic import send_payloads
from leakline.pipeline.live.stats import DIMS
from leakline.pipeline.simulate.traffic_model import Mix, malformed_payloads, simulate

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TOKEN = "dashboard-test-token-0123456789"


@dataclass
class KnownTraffic:
    payloads: list[bytes]
    total: int = 0
    leaking: int = 0
    dead: int = 0
    dead_by_reason: Counter[str] = field(default_factory=Counter)  # metric reason label
    per_key: Counter[str] = field(default_factory=Counter)
    leaking_per_key: Counter[str] = field(default_factory=Counter)
    labels_per_key: dict[str, Counter[str]] = field(default_factory=dict)
    samples: dict[str, dict[str, Any]] = field(default_factory=dict)  # event_id -> record
    key_of: dict[str, str] = field(default_factory=dict)  # event_id -> version key

    def send(self, bootstrap: str, data_dir: Path) -> None:
        settings = from_env(bootstrap=bootstrap, data_dir=data_dir)
        # in a thread of its own: Playwright's sync API keeps an event loop in this one
        with ThreadPoolExecutor(1) as pool:
            report = pool.submit(
                send_payloads,
                settings,
                iter(self.payloads),
                len(self.payloads),
                None,
                "test traffic",
            ).result(timeout=120)
        assert not report.failed


def known_traffic(
    count: int,
    malformed: int,
    seed: int,
    languages: tuple[str, ...] = ("en", "ko", "zh"),
    start: datetime | None = None,
) -> KnownTraffic:
    """``start``: the first event's ``ts`` (default a minute ago: the dashboard counts by
    event time, and the simulator's ~0.25 s spacing ends the events about now)."""
    mix = Mix(leak_ratio=0.4, languages=languages)
    start = start or datetime.now(UTC) - timedelta(seconds=60)
    events = [s.event for s in simulate(count, seed=seed, mix=mix, start=start)]
    payloads = [orjson.dumps(e) for e in events] + malformed_payloads(malformed, seed=seed)
    result = process_batch(
        [RawRecord(None, p, Origin("t", 0, i)) for i, p in enumerate(payloads)],
        worker_id="expected",
        clean_text_rate=0.0,
        max_event_bytes=4 * 1024 * 1024,
    )
    known = KnownTraffic(
        payloads,
        dead=len(result.dead_letters),
        dead_by_reason=Counter(rejection_of(d.reason) for d in result.dead_letters),
    )
    cols = result.rows.columns
    for i in range(len(result.rows)):
        key = "|".join(cols[d][i] for d in DIMS)
        known.total += 1
        known.per_key[key] += 1
        known.key_of[cols["event_id"][i]] = key
        known.labels_per_key.setdefault(key, Counter()).update(cols["labels"][i])
        if cols["leaking"][i]:
            known.leaking += 1
            known.leaking_per_key[key] += 1
    for sample in result.samples:
        record = orjson.loads(sample.value)
        known.samples[record["event_id"]] = record
    return known


def get_json(url: str, timeout: float = 5.0) -> Any:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


def wait_dashboard_ready(base: str, worker: Any, timeout_s: float = 180.0) -> dict[str, Any]:
    """Until the web server answers and this worker owns the leak.stats partition."""
    deadline = time.monotonic() + timeout_s
    last: Any = None
    while time.monotonic() < deadline:
        if worker.proc.poll() is not None:
            raise AssertionError(f"worker exited:\n{worker.log_text()[-3000:]}")
        try:
            last = get_json(base + "/dashboard/api/overview")
            if last["stats_partitions"] == [0]:
                return last
        except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
            last = exc
        time.sleep(0.5)
    raise AssertionError(f"dashboard not ready: {last}\n{worker.log_text()[-3000:]}")
