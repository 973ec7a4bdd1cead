"""The Host header and where a token may travel, on a real worker's web server (issue 18,
item 6).

- DNS rebinding: a page on evil.example whose name resolves to 127.0.0.1 reaches the
  loopback dashboard with ``Host: evil.example``; the worker answers only to the bound
  address, the loopback names, and names configured with ``--web-allowed-host``.
- A token in the query string ends up in logs and browser history: it is accepted only on
  the two GETs a browser cannot add a header to (the page, and its EventSource stream),
  never on POST /ingest or the JSON and /metrics routes; a token given twice is refused.
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

TOKEN = "host-and-tokens-" + "t" * 24
EVENT = orjson.dumps(
    {
        "event_id": "h1",
        "api": "chat.completions",
        "request": {},
        "response": {"choices": [{"message": {"content": "hi"}}]},
    }
)


def request(
    port: int,
    method: str,
    path: str,
    host: str | None = None,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> int:
    """One raw HTTP request with exactly the Host header given (``None``: the default)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=host is not None, skip_accept_encoding=True)
        if host is not None:
            conn.putheader("Host", host)
        for name, value in (headers or {}).items():
            conn.putheader(name, value)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        response.read(1)  # the SSE stream never ends: its status is enough
        return response.status
    finally:
        conn.close()


def _wait_up(worker, port: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert worker.proc.poll() is None, worker.log_text()[-3000:]
        try:
            if request(port, "GET", "/healthz") == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(worker.log_text()[-3000:])


@pytest.fixture
def web_worker(broker, tmp_path):
    port = free_port()
    worker = spawn_worker(
        broker.bootstrap,
        tmp_path / "data",
        "--web",
        "--web-port",
        str(port),
        "--web-token",
        TOKEN,
        "--web-allowed-host",
        "leakline.internal",
    )
    try:
        _wait_up(worker, port)
        yield port
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]


def test_the_loopback_dashboard_refuses_a_foreign_host(web_worker: int) -> None:
    port = web_worker
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    for host in (f"127.0.0.1:{port}", "127.0.0.1", f"localhost:{port}", "leakline.internal"):
        assert request(port, "GET", "/metrics", host, bearer) == 200, host
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}"):
        for path in ("/metrics", "/dashboard", "/dashboard/api/overview"):
            assert request(port, "GET", path, host, bearer) == 421, (host, path)
        assert request(port, "POST", "/ingest", host, bearer, EVENT) == 421, host
    # the probes answer whatever the Host: orchestrators use the pod's address
    assert request(port, "GET", "/healthz", "10.1.2.3:6066") == 200


def test_a_query_token_only_opens_the_page_and_its_event_stream(web_worker: int) -> None:
    port = web_worker
    query = f"?token={TOKEN}"
    assert request(port, "GET", "/dashboard" + query) == 200
    assert request(port, "GET", "/dashboard/api/events" + query) == 200
    for path in ("/metrics", "/dashboard/api/overview", "/dashboard/api/samples"):
        assert request(port, "GET", path + query) == 401, path
    ndjson = {"Content-Type": "application/x-ndjson"}
    assert request(port, "POST", "/ingest" + query, headers=ndjson, body=EVENT) == 401
    bearer = {"Authorization": f"Bearer {TOKEN}", **ndjson}
    assert request(port, "POST", "/ingest", headers=bearer, body=EVENT) == 202


def test_a_token_given_twice_is_refused(web_worker: int) -> None:
    port = web_worker
    twice = f"?token={TOKEN}&token={TOKEN}"
    assert request(port, "GET", "/dashboard/api/events" + twice) == 400
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    assert request(port, "GET", f"/dashboard?token={TOKEN}", headers=bearer) == 400
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("GET", "/metrics")
        conn.putheader("Authorization", f"Bearer {TOKEN}")
        conn.putheader("Authorization", "Bearer other-token-of-some-length")
        conn.endheaders()
        response = conn.getresponse()
        assert response.status == 400, response.read()
        assert "more than once" in json.loads(response.read())["error"]
    finally:
        conn.close()
