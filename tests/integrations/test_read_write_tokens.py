"""Issue 36, finding 10 (last bullet): one token both read and wrote.

With a write token set, ``/ingest`` and ``/v1/traces`` take only it, and the read token
(the dashboard's) only reads; without one, one token does both, as before. Real aiohttp
servers on loopback: the worker's middleware over the real ingest and OTLP handlers, and
the standalone ``otlp-receiver`` (``serve_otlp``). The worker itself is in
tests/web/test_worker_read_write_tokens.py.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import orjson
import pytest
from aiohttp import web

from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.core.http_limits import ServerLimits
from leakline.pipeline.http.auth import check_exposure, token_middleware
from leakline.pipeline.http.guard import GuardedAppRunner
from leakline.pipeline.ingest.http import IngestConfig, register_ingest
from leakline.pipeline.ingest.otlp import register_otlp
from leakline.pipeline.kafka.broker import free_port

READ = "read-token-" + "r" * 24
WRITE = "write-token-" + "w" * 24
NDJSON = {"Content-Type": "application/x-ndjson"}
JSON = {"Content-Type": "application/json"}
EVENT = orjson.dumps(
    {
        "event_id": "rw1",
        "api": "chat.completions",
        "request": {},
        "response": {"choices": [{"message": {"content": "hi"}}]},
    }
)
EMPTY_EXPORT = orjson.dumps({"resourceSpans": []})


class Recorder:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    async def __call__(self, topic: str, key: bytes | None, value: bytes) -> None:
        self.sent.append(value)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


Client = Callable[..., Awaitable[tuple[int, Any]]]


def _run(
    token: str | None, write_token: str | None, body: Callable[[Client, Recorder], Awaitable[None]]
) -> None:
    """The worker's routes in miniature: a read route (/metrics), the probes, /ingest and
    /v1/traces, behind the worker's token middleware and its ``GuardedAppRunner``."""

    async def main() -> None:
        recorder = Recorder()
        app = web.Application(client_max_size=2**20)
        app.middlewares.append(token_middleware(token, write_token))
        config = IngestConfig(limits=ServerLimits())
        register_ingest(app, recorder, config)
        register_otlp(app, recorder, config)

        async def ok(_: web.Request) -> web.Response:
            return web.Response(text="ok")

        for path in ("/metrics", "/healthz", "/readyz", "/dashboard"):
            app.router.add_get(path, ok)
        runner = GuardedAppRunner(app, ServerLimits(), access_log=None)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            async with aiohttp.ClientSession() as session:

                async def call(
                    method: str, path: str, headers: dict[str, str] | None = None, data: Any = None
                ) -> tuple[int, Any]:
                    url = f"http://127.0.0.1:{port}{path}"
                    async with session.request(method, url, headers=headers, data=data) as r:
                        text = await r.text()
                        try:
                            return r.status, orjson.loads(text)
                        except orjson.JSONDecodeError:
                            return r.status, text

                await body(call, recorder)
        finally:
            await runner.cleanup()

    asyncio.run(main())


def test_with_a_write_token_the_read_token_cannot_write() -> None:
    """The finding: the dashboard's token POSTed /ingest. Now 403, and nothing is sent."""

    async def body(call: Client, recorder: Recorder) -> None:
        status, answer = await call("POST", "/ingest", {**bearer(READ), **NDJSON}, EVENT)
        assert status == 403, answer
        assert "read token cannot write" in answer["error"]
        assert "LEAKLINE_WEB_WRITE_TOKEN" in answer["error"]
        status, answer = await call("POST", "/v1/traces", {**bearer(READ), **JSON}, EMPTY_EXPORT)
        assert status == 403, answer
        assert not recorder.sent
        # the write token writes
        status, answer = await call("POST", "/ingest", {**bearer(WRITE), **NDJSON}, EVENT)
        assert (status, answer["accepted"]) == (202, 1), answer
        status, _ = await call("POST", "/v1/traces", {**bearer(WRITE), **JSON}, EMPTY_EXPORT)
        assert status == 200
        assert recorder.sent == [EVENT]

    _run(READ, WRITE, body)


def test_with_a_write_token_it_reads_nothing_and_the_read_token_still_reads() -> None:
    async def body(call: Client, recorder: Recorder) -> None:
        assert (await call("GET", "/metrics", bearer(READ)))[0] == 200
        assert (await call("GET", f"/dashboard?token={READ}"))[0] == 200
        status, answer = await call("GET", "/metrics", bearer(WRITE))
        assert status == 403 and "write token cannot read" in answer["error"], answer
        assert (await call("GET", f"/dashboard?token={WRITE}"))[0] == 403
        # no token, or a wrong one: 401 on either kind of route; probes stay tokenless
        for method, path in (("GET", "/metrics"), ("POST", "/ingest"), ("POST", "/v1/traces")):
            assert (await call(method, path))[0] == 401, path
            assert (await call(method, path, bearer("x" * 40)))[0] == 401, path
        assert (await call("GET", "/healthz"))[0] == 200
        assert (await call("GET", "/readyz"))[0] == 200
        # a query token never writes, whichever it is
        status, _ = await call("POST", f"/ingest?token={WRITE}", NDJSON, EVENT)
        assert status == 401
        # other spellings of the write path are not a side door for the read token
        for path in ("/ingest/", "//ingest", "/INGEST", "/%69ngest"):
            status, _ = await call("POST", path, {**bearer(READ), **NDJSON}, EVENT)
            assert status in (403, 404, 405), (path, status)
        assert not recorder.sent

    _run(READ, WRITE, body)


def test_without_a_write_token_one_token_reads_and_writes_as_before() -> None:
    async def body(call: Client, recorder: Recorder) -> None:
        assert (await call("GET", "/metrics", bearer(READ)))[0] == 200
        status, answer = await call("POST", "/ingest", {**bearer(READ), **NDJSON}, EVENT)
        assert status == 202, answer
        assert (await call("POST", "/v1/traces", {**bearer(READ), **JSON}, EMPTY_EXPORT))[0] == 200
        assert (await call("POST", "/ingest", NDJSON, EVENT))[0] == 401
        assert recorder.sent == [EVENT]

    _run(READ, None, body)


def test_a_write_token_alone_guards_the_writes_and_leaves_loopback_reads_open() -> None:
    async def body(call: Client, recorder: Recorder) -> None:
        assert (await call("GET", "/metrics"))[0] == 200  # as with no token at all
        assert (await call("POST", "/ingest", NDJSON, EVENT))[0] == 401
        assert (await call("POST", "/ingest", {**bearer(WRITE), **NDJSON}, EVENT))[0] == 202
        assert recorder.sent == [EVENT]

    _run(None, WRITE, body)


def test_the_write_token_follows_the_read_tokens_rules() -> None:
    with pytest.raises(LeaklineError, match="write token is too short"):
        check_exposure("127.0.0.1", READ, "short")
    with pytest.raises(LeaklineError, match="same as the web token"):
        check_exposure("127.0.0.1", READ, READ)
    # the worker's reads need the read token beyond loopback, a write token does not do
    with pytest.raises(LeaklineError, match="without a token"):
        check_exposure("0.0.0.0", None, WRITE)
    check_exposure("0.0.0.0", READ, WRITE)
    # a receiver of writes only is guarded by either
    check_exposure("0.0.0.0", None, WRITE, reads=False)
    with pytest.raises(LeaklineError, match="without a token"):
        check_exposure("0.0.0.0", None, None, reads=False)


def test_the_worker_refuses_a_short_write_token_before_any_io() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "leakline.pipeline.cli",
            "worker",
            "--bootstrap",
            "127.0.0.1:1",
            "--web",
            "--web-token",
            READ,
            "--web-write-token",
            "short",
        ],  # fmt: skip
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode != 0 and b"write token is too short" in proc.stderr, proc.stderr[-800:]


def test_otlp_receiver_takes_only_the_write_token_when_set() -> None:
    from leakline.pipeline.core.config import Settings
    from leakline.pipeline.ingest.otlp import serve_otlp

    async def main() -> None:
        stop = asyncio.Event()
        bound: list[int] = []
        task = asyncio.create_task(
            serve_otlp(
                Settings(bootstrap="127.0.0.1:1"),
                "127.0.0.1",
                0,
                token=READ,
                write_token=WRITE,
                stop=stop,
                ready=bound.append,
            )
        )
        while not bound:
            await asyncio.sleep(0.05)
        url = f"http://127.0.0.1:{bound[0]}/v1/traces"
        try:
            async with aiohttp.ClientSession() as session:
                async with session.post(
                    url, data=EMPTY_EXPORT, headers={**bearer(READ), **JSON}
                ) as resp:
                    assert resp.status == 403
                    assert "read token cannot write" in (await resp.json())["error"]
                async with session.post(url, data=EMPTY_EXPORT, headers=JSON) as resp:
                    assert resp.status == 401
                async with session.post(
                    url, data=EMPTY_EXPORT, headers={**bearer(WRITE), **JSON}
                ) as resp:
                    assert resp.status == 200, await resp.text()
        finally:
            stop.set()
            await task

    asyncio.run(main())
