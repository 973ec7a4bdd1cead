"""Issue 36, finding 10: ``gate`` sends the API key to the endpoint, so plain http beyond
loopback is refused unless ``--allow-plain-http`` says so. A real HTTP server on this
host's non-loopback address records what reaches it."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from gate_kit import HAND_CASES, make_case, write_cases

from leakline.pipeline.cli import main as cli_main
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.gate.run import check_endpoint

KEY = "sk-test-not-a-real-key-0123456789abcdef"


def _outside_address() -> str | None:
    """This host's address on its default route (no packet is sent), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.123", 9))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


@pytest.fixture
def recorder() -> Iterator[tuple[str, list[dict[str, str]]]]:
    host = _outside_address()
    if host is None:
        pytest.skip("no non-loopback address on this host")
    seen: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            seen.append({"authorization": self.headers.get("Authorization") or ""})
            self.send_response(500)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer((host, 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}/v1", seen
    finally:
        server.shutdown()
        server.server_close()


def _gate(url: str, tmp_path: Path, *extra: str) -> int:
    api, request = HAND_CASES[0]
    cases = write_cases(tmp_path / "one", [make_case(api, request, [], "hand-0")])
    rates = tmp_path / "zero.json"
    rates.write_text(json.dumps({"overall": 0.0, "labels": {}}))
    return cli_main(
        ["gate", "--regression", str(cases), "--endpoint", url, "--model", "m",
         "--data-dir", str(tmp_path / "data"), "--engine-name", "sim", "--engine-version", "1",
         "--baseline-rates", str(rates), "--api-key", KEY, "--timeout", "5", *extra]
    )  # fmt: skip


def test_plain_http_beyond_loopback_is_refused_before_any_request(
    recorder: tuple[str, list[dict[str, str]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, seen = recorder
    assert _gate(url, tmp_path) == 2
    err = capsys.readouterr().err
    assert "refusing to send the API key over plain http" in err and "--allow-plain-http" in err
    assert seen == []


def test_the_flag_lets_it_through(
    recorder: tuple[str, list[dict[str, str]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, seen = recorder
    assert _gate(url, tmp_path, "--allow-plain-http") == 2  # the recorder answers 500
    assert "requests to" in capsys.readouterr().err
    assert seen and seen[0]["authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize(
    "endpoint",
    ["http://127.0.0.1:8000/v1", "http://localhost:8000/v1", "http://[::1]:8000/v1",
     "https://engine.example.com/v1"],
)  # fmt: skip
def test_loopback_and_https_are_allowed(endpoint: str) -> None:
    check_endpoint(endpoint, sends_key=True)


@pytest.mark.parametrize("endpoint", ["ftp://engine/v1", "engine:8000/v1", "http:///v1"])
def test_endpoints_that_are_not_http_urls_are_refused(endpoint: str) -> None:
    with pytest.raises(LeaklineError, match="http"):
        check_endpoint(endpoint, sends_key=False)


def test_without_a_key_plain_http_is_allowed() -> None:
    check_endpoint("http://engine.internal:8000/v1", sends_key=False)
