"""The worker's Faust app fetches with a short broker-side wait (pipeline/faust_transport.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pipeline.broker import EmbeddedBroker
from pipeline.config import Settings
from pipeline.faust_transport import FETCH_MAX_WAIT_MS, LeaklineApp, Transport
from pipeline.worker import build_app


def test_the_worker_app_uses_the_leakline_transport(tmp_path: Path) -> None:
    app = build_app(Settings(bootstrap="127.0.0.1:9", data_dir=tmp_path))
    assert isinstance(app, LeaklineApp)
    assert isinstance(app.transport, Transport)


def test_started_consumer_sends_fetches_with_the_short_wait(
    broker: EmbeddedBroker, tmp_path: Path
) -> None:
    async def scenario() -> tuple[int, str | None, bool]:
        app = LeaklineApp("wait-check", broker=f"kafka://{broker.bootstrap}", datadir=str(tmp_path))
        thread = app.consumer._new_consumer_thread()
        # Faust's own worker-consumer construction, with only the wait changed
        consumer = thread._create_worker_consumer(app.transport)
        await consumer.start()
        try:
            return (
                consumer._fetcher._fetch_max_wait_ms,  # what every FetchRequest carries
                consumer._group_id,
                consumer._enable_auto_commit,
            )
        finally:
            await consumer.stop()

    wait_ms, group, auto_commit = asyncio.run(scenario())
    assert wait_ms == FETCH_MAX_WAIT_MS < 1500  # Faust's hard-coded wait is 1500 ms
    assert group == "wait-check" and auto_commit is False  # the rest is Faust's
