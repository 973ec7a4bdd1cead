"""POST /ingest: on the worker's web server end to end, and standalone for auth and limits."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import aiohttp
import orjson
import pytest
from aiohttp import web
from leakline_testkit import read_topic, spawn_worker, wait_stored

from leakline.pipeline.ingest.http import AiokafkaSender, IngestConfig, register_ingest
from leakline.pipeline.kafka.broker import free_port
from leakline.pipeline.kafka.io import ensure_topics
from leakline.pipeline.store.database import read_only

pytestmark = pytest.mark.slow

NDJSON = {"Content-Type": "application/x-ndjson"}


def event(eid: str, content: str) -> dict:
    return {
        "event_id": eid,
        "api": "chat.completions",
        "request": {},
        "engine": {"name": "kong-upstream", "version": "7.7"},
        "response": {"choices": [{"message": {"content": content}, "finish_reason": "stop"}]},
    }


def ndjson(*items: object) -> bytes:
    return b"\n".join(i if isinstance(i, bytes) else orjson.dumps(i) for i in items) + b"\n"


async def post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, dict]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=body, headers=headers) as resp,
    ):
        return resp.status, json.loads(await resp.text())


def wait_http(port: int, timeout_s: float = 120.0) -> None:
    async def probe() -> bool:
        try:
            async with (
                aiohttp.ClientSession() as s,
                s.get(
                    f"http://127.0.0.1:{port}/metrics", timeout=aiohttp.ClientTimeout(total=2)
                ) as r,
            ):
                return r.status < 500
        except (aiohttp.ClientError, TimeoutError, OSError):
            return False

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if asyncio.run(probe()):
            return
        time.sleep(0.5)
    raise AssertionError(f"web server on {port} did not come up")


def test_ndjson_on_the_worker_web_server(broker, tmp_path: Path) -> None:
    port = free_port()
    token = "w" * 32  # the worker's web token guards /ingest like every other route
    worker = spawn_worker(
        broker.bootstrap,
        tmp_path / "data",
        "--web",
        "--web-port",
        str(port),
        env={"LEAKLINE_WEB_TOKEN": token},
    )
    url = f"http://127.0.0.1:{port}/ingest"
    auth = {"Authorization": f"Bearer {token}"}
    try:
        wait_http(port)
        status, _ = asyncio.run(post(url, ndjson(event("no-token", "x")), NDJSON))
        assert status == 401
        good = [event("in-clean", "Paris."), event("in-leak", "<think>hmm</think>Paris.")]
        status, body = asyncio.run(post(url, ndjson(*good), {**NDJSON, **auth}))
        assert (status, body) == (202, {"accepted": 2, "rejected": 0})

        mixed = ndjson(
            event("in-mixed-ok", "Fine."),
            b"{not json",
            {"event_id": "in-no-api", "request": {}, "response": {}},
            b"",  # blank lines are skipped, not errors
            event("in-mixed-ok-2", "Also fine."),
        )
        status, body = asyncio.run(post(url, mixed, {**NDJSON, **auth}))
        assert status == 400
        assert body["accepted"] == 2 and body["rejected"] == 2
        assert [e["line"] for e in body["errors"]] == [2, 3]
        assert "not valid JSON" in body["errors"][0]["reason"]
        assert body["errors"][1]["event_id"] == "in-no-api"
        assert "api" in body["errors"][1]["reason"]

        # one JSON event (not NDJSON)
        status, body = asyncio.run(
            post(
                url,
                orjson.dumps(event("in-single", "Ok.")),
                {"Content-Type": "application/json", **auth},
            )
        )
        assert (status, body) == (202, {"accepted": 1, "rejected": 0})
        status, body = asyncio.run(
            post(url, b'{"event_id": "x"}', {"Content-Type": "application/json", **auth})
        )
        assert status == 400 and body["accepted"] == 0

        wait_stored(worker, 5)
        time.sleep(1.0)  # an unexpected extra row would show up now
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
    with read_only(tmp_path / "data") as con:
        rows = dict(con.execute("select event_id, labels from samples").fetchall())
        engines = {
            r[0] for r in con.execute("select distinct engine_version from samples").fetchall()
        }
    assert set(rows) == {"in-clean", "in-leak", "in-mixed-ok", "in-mixed-ok-2", "in-single"}
    assert rows["in-clean"] == [] and "boundary_token" in rows["in-leak"]
    assert engines == {"7.7"}
    # invalid lines were refused at the door: nothing of them reached Kafka or the DLQ
    assert read_topic(broker.bootstrap, "gateway.events.dlq") == []


def test_standalone_token_limits_and_broker_down(broker) -> None:
    token = "t" * 32

    async def run() -> None:
        await ensure_topics(broker.bootstrap, ["gateway.events"], 1)
        sender = AiokafkaSender(broker.bootstrap, request_timeout_s=3.0)
        await sender.start()
        app = web.Application()
        register_ingest(
            app, sender, IngestConfig(token=token, max_body_bytes=4096, send_timeout_s=3.0)
        )
        runner = web.AppRunner(app)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        url = f"http://127.0.0.1:{port}/ingest"
        auth = {"Authorization": f"Bearer {token}", **NDJSON}
        try:
            assert (await post(url, ndjson(event("s1", "a")), NDJSON))[0] == 401
            wrong = {**NDJSON, "Authorization": "Bearer " + "x" * 32}
            assert (await post(url, ndjson(event("s1", "a")), wrong))[0] == 401
            assert await post(url, ndjson(event("s1", "a")), auth) == (
                202,
                {"accepted": 1, "rejected": 0},
            )
            status, body = await post(
                url, ndjson(*[event(f"big{i}", "y" * 500) for i in range(10)]), auth
            )
            assert status == 413 and "split" in body["error"]
            status, _ = await post(url, b"a,b\n", {**auth, "Content-Type": "text/csv"})
            assert status == 415
            keys = [
                r.key
                for r in await asyncio.to_thread(read_topic, broker.bootstrap, "gateway.events")
            ]
            assert keys == [b"s1"]
            # the broker goes away: 503 with Retry-After, nothing promised
            broker.stop()
            status, body = await post(url, ndjson(event("s2", "b")), auth)
            assert status == 503 and body["accepted"] == 0
        finally:
            await runner.cleanup()
            await sender.stop()

    asyncio.run(run())
