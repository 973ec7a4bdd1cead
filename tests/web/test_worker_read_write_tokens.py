"""Separate read and write tokens on a real worker's web server (issue 36, finding 10).

The finding: the dashboard's token also POSTed /ingest (and, before this round, one such
request could kill the worker). With ``$LEAKLINE_WEB_WRITE_TOKEN`` set, the write routes
take only the write token and the dashboard's token only reads. The write token is given
through the environment, as the docs recommend, so this test ran against the worker from
before the change too (which ignored it, and accepted the read token's POST: 202).
"""

from __future__ import annotations

import http.client
import json
import time

import orjson
import pytest
from leakline_testkit import spawn_worker

from leakline.pipeline.kafka.broker import free_port

pytestmark = pytest.mark.slow

READ = "dashboard-token-" + "r" * 24
WRITE = "gateway-write-token-" + "w" * 24
NDJSON = {"Content-Type": "application/x-ndjson"}
EVENT = orjson.dumps(
    {
        "event_id": "rw-worker-1",
        "api": "chat.completions",
        "request": {},
        "response": {"choices": [{"message": {"content": "hi"}}]},
    }
)


def request(
    port: int,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        # the SSE stream never ends: its first bytes are enough
        data = response.read(1) if "events" in path else response.read()
        return response.status, data
    finally:
        conn.close()


@pytest.fixture
def rw_worker(broker, tmp_path):
    port = free_port()
    worker = spawn_worker(
        broker.bootstrap,
        tmp_path / "data",
        "--web",
        "--web-port",
        str(port),
        env={"LEAKLINE_WEB_TOKEN": READ, "LEAKLINE_WEB_WRITE_TOKEN": WRITE},
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert worker.proc.poll() is None, worker.log_text()[-3000:]
            assert time.monotonic() < deadline, worker.log_text()[-3000:]
            try:
                if request(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.3)
        yield port
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_dashboard_token_no_longer_writes(rw_worker: int) -> None:
    port = rw_worker
    status, body = request(port, "POST", "/ingest", {**bearer(READ), **NDJSON}, EVENT)
    assert status == 403, body
    assert "read token cannot write" in json.loads(body)["error"]
    otlp = {**bearer(READ), "Content-Type": "application/json"}
    status, body = request(port, "POST", "/v1/traces", otlp, b'{"resourceSpans": []}')
    assert status == 403, body
    # the write token writes (the broker acknowledged the event)
    status, body = request(port, "POST", "/ingest", {**bearer(WRITE), **NDJSON}, EVENT)
    assert status == 202 and json.loads(body)["accepted"] == 1, body


def test_the_write_token_reads_nothing_and_probes_stay_tokenless(rw_worker: int) -> None:
    port = rw_worker
    for path in ("/metrics", "/dashboard/api/overview"):
        assert request(port, "GET", path, bearer(READ))[0] == 200, path
        status, body = request(port, "GET", path, bearer(WRITE))
        assert status == 403 and b"write token cannot read" in body, (path, body)
        assert request(port, "GET", path)[0] == 401, path
    assert request(port, "GET", f"/dashboard?token={READ}")[0] == 200
    assert request(port, "GET", f"/dashboard?token={WRITE}")[0] == 403
    assert request(port, "GET", "/healthz")[0] == 200
    assert request(port, "GET", "/readyz")[0] in (200, 503)  # ready or not, never 401
