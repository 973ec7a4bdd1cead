"""``--health-port`` (issue 36): /healthz from a child process, judged by the loop's
heartbeat, answers fast while the loop is blocked, and says so when it is stuck."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from leakline.pipeline.core.config import Settings
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.worker.liveness import (
    Heartbeat,
    LivenessServer,
    health_port,
    start_liveness,
)


def _get(port: int, path: str = "/healthz") -> tuple[int, dict[str, object], float]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path)
    resp = conn.getresponse()
    body = json.loads(resp.read())
    conn.close()
    return resp.status, body, time.perf_counter() - started


def test_the_probe_answers_while_the_loop_is_blocked_and_reports_a_stuck_loop() -> None:
    heartbeat = Heartbeat()
    server = LivenessServer("127.0.0.1", 0, heartbeat, stale_s=0.5).start()
    try:
        assert _get(server.port)[:2] == (200, {"alive": True, "starting": True})

        async def main() -> list[tuple[int, dict[str, object], float]]:
            beat = asyncio.ensure_future(heartbeat.run(0.05))
            await asyncio.sleep(0.3)
            seen = [await asyncio.to_thread(_get, server.port)]
            # block the loop itself for 1.5 s, probing from a thread meanwhile: a /healthz
            # served on this loop would answer only after the block
            probe = asyncio.ensure_future(asyncio.to_thread(_probe_late, server.port))
            await asyncio.sleep(0)
            time.sleep(1.5)
            seen.append(await probe)
            await asyncio.sleep(0.2)  # the loop runs again: fresh beats
            seen.append(await asyncio.to_thread(_get, server.port))
            beat.cancel()
            return seen

        running, stuck, recovered = asyncio.run(main())
    finally:
        server.close()
    assert running[0] == 200 and running[1]["alive"] is True
    status, body, latency = stuck
    assert status == 503 and body["alive"] is False
    assert 0.5 <= float(body["loop_heartbeat_age_s"]) < 1.5  # type: ignore[arg-type]
    assert latency < 0.25  # answered during the block, not after it
    assert recovered[0] == 200 and float(recovered[1]["loop_heartbeat_age_s"]) < 0.5  # type: ignore[arg-type]


def _probe_late(port: int) -> tuple[int, dict[str, object], float]:
    time.sleep(0.9)  # well into the block, past stale_s
    return _get(port)


def test_only_healthz_is_served_and_a_silent_client_does_not_hold_the_probe() -> None:
    server = LivenessServer("127.0.0.1", 0, Heartbeat()).start()
    try:
        silent = socket.create_connection(("127.0.0.1", server.port))  # sends nothing
        assert _get(server.port, "/metrics")[0] == 404
        status, _, latency = _get(server.port)
        assert status == 200 and latency < 2.0  # the silent one was cut at its timeout
        silent.close()
    finally:
        server.close()


def test_a_taken_port_fails_with_a_clear_error() -> None:
    with (
        socket.create_server(("127.0.0.1", 0)) as taken,
        pytest.raises(LeaklineError, match="health probes"),
    ):
        LivenessServer("127.0.0.1", taken.getsockname()[1], Heartbeat())


def test_the_web_server_brings_a_health_listener_on_the_next_port_unless_told_otherwise():
    assert health_port(Settings()) == (None, False)  # no web server: nothing to probe
    assert health_port(Settings(web_enabled=True, web_port=7000)) == (7001, False)
    assert health_port(Settings(web_enabled=True, health_port=9000)) == (9000, True)
    assert health_port(Settings(health_port=9000)) == (9000, True)
    assert health_port(Settings(web_enabled=True, health_off=True)) == (None, False)


def test_a_taken_default_port_only_warns_but_a_taken_chosen_port_fails(caplog) -> None:
    taken = socket.create_server(("127.0.0.1", 0))
    try:
        port = taken.getsockname()[1]
        with caplog.at_level("WARNING"):
            beat = start_liveness(Settings(web_enabled=True, web_port=port - 1))
        assert beat is None  # the loop stamps nothing, the worker starts anyway
        assert "no separate health listener" in caplog.text
        with pytest.raises(LeaklineError, match="cannot listen for health probes"):
            start_liveness(Settings(health_port=port))
    finally:
        taken.close()


def test_the_probe_process_exits_with_its_worker() -> None:
    """A killed worker must not leave a process that answers for it (nor holds the port)."""
    script = textwrap.dedent(
        """
        import sys, time
        from leakline.pipeline.worker.liveness import Heartbeat, LivenessServer
        if __name__ == "__main__":
            server = LivenessServer("127.0.0.1", 0, Heartbeat()).start()
            print(server.port, server.process.pid, flush=True)
            time.sleep(60)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    port, child = (int(x) for x in parent.stdout.readline().split())
    assert _get(port)[0] == 200
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"the probe process {child} still listens after its worker died")


@pytest.mark.slow
def test_a_web_worker_answers_probes_on_the_next_port_and_takes_the_probe_with_it(
    broker, tmp_path
) -> None:
    """By default (issue 36): ``--web`` alone brings the fast probe, at the web port + 1."""
    from leakline_testkit import spawn_worker

    from leakline.pipeline.kafka.broker import free_port

    while True:  # a free port whose next one is free too
        web = free_port()
        with contextlib.suppress(OSError), socket.create_server(("127.0.0.1", web + 1)):
            break
    port = web + 1
    worker = spawn_worker(broker.bootstrap, tmp_path / "data", "--web", "--web-port", str(web))
    try:
        deadline = time.monotonic() + 120
        status, body = 0, dict[str, object]()
        while time.monotonic() < deadline and "loop_heartbeat_age_s" not in body:
            assert worker.proc.poll() is None, worker.log_text()[-3000:]
            with contextlib.suppress(OSError):  # not listening yet
                status, body, _ = _get(port)
            time.sleep(0.2)
        assert status == 200 and body["alive"] is True, worker.log_text()[-3000:]
        assert float(body["loop_heartbeat_age_s"]) < 2.0  # type: ignore[arg-type]
    finally:
        worker.proc.kill()  # no clean shutdown: the probe process must notice on its own
        worker.proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return
        time.sleep(0.2)
    pytest.fail("the probe port still answers after the worker was killed")
