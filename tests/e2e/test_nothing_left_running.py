"""`kill` and a closed terminal stop the demo and everything it started, a worker killed
with -9 leaves no child behind (issue 32, defect 1), and a worker's shutdown log reads as
a clean stop (defect 9).

Every process a test starts carries a tag in its environment (``leakline_testkit.TAG``),
which every descendant inherits: the broker, the worker, its batch, decoder and liveness
children, and multiprocessing's resource tracker.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from leakline_testkit import TAG, spawn_worker, tagged, wait_until

from leakline.pipeline.core.procinfo import tree_pids
from leakline.pipeline.kafka.broker import EmbeddedBroker, free_port

pytestmark = pytest.mark.slow

GONE_WITHIN_S = 10.0


def holders(folder: Path) -> set[int]:
    """Processes with a file under ``folder`` open (or as their working directory)."""
    inside = str(folder.resolve())
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            links = [entry / "cwd", *(entry / "fd").iterdir()]
        except OSError:
            continue
        for link in links:
            try:
                target = os.readlink(link)
            except OSError:
                continue
            if target == inside or target.startswith(inside + "/"):
                found.add(int(entry.name))
                break
    return found


def listening(port: int) -> bool:
    """Whether a server holds ``port``. Bound as servers bind (SO_REUSEADDR): the closed
    connections of the stopped one wait out TIME_WAIT, and do not keep a new one out."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def read(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_demo_keep_running_leaves_nothing_behind(tmp_path: Path, sig: signal.Signals) -> None:
    """SIGTERM and SIGHUP stop the demo as Ctrl-C does: its broker and worker, and the
    worker's children, end, and the ports and the data dir are free. (After SIGKILL the
    children stop themselves: tests/cli/test_signals.py and the worker test below.)"""
    tag = uuid.uuid4().hex
    data_dir, out, err = tmp_path / "demo", tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        demo = subprocess.Popen(
            [sys.executable, "-m", "leakline.pipeline.cli", "demo", "--count", "20"]
            + ["--keep-running", "--data-dir", str(data_dir)],
            stdout=stdout,
            stderr=stderr,
            env={**os.environ, TAG: tag},
        )
    try:
        assert wait_until(lambda: "keep running" in read(err) or demo.poll() is not None, 120)
        assert demo.poll() is None, read(err)[-3000:]
        web = re.search(r"live dashboard: http://127\.0\.0\.1:(\d+)/dashboard", read(out))
        broker = re.search(r"embedded broker \(Tansu\) on 127\.0\.0\.1:(\d+)", read(err))
        assert web and broker
        ports = [int(web.group(1)), int(broker.group(1))]
        started = tagged(tag)
        # the demo, the broker, the worker, its batch and decoder children, the tracker
        assert len(started) >= 6 and demo.pid in started
        assert all(listening(port) for port in ports)
        assert holders(data_dir)

        demo.send_signal(sig)
        gone = wait_until(lambda: not tagged(tag), GONE_WITHIN_S)
        assert gone, f"left running after {sig.name}: {sorted(tagged(tag))}\n{read(err)[-2000:]}"
        assert not any(listening(port) for port in ports)
        assert not holders(data_dir)
        assert demo.wait(1) == 0  # stopped as Ctrl-C stops it: the demo's own exit
        assert "Traceback" not in read(err)
        # DuckDB's bindings (nanobind) report objects alive at interpreter exit; the
        # worker's frozen start-up heap was never collected then: ~100 lines every time
        assert "nanobind: leaked" not in read(data_dir / "worker.log")
    finally:
        for pid in tagged(tag):  # a failed test must not leave them to the next one
            os.kill(pid, signal.SIGKILL)
        demo.wait(5)


def test_worker_children_end_when_the_worker_is_killed(tmp_path: Path) -> None:
    """A worker with every kind of child (batch children, the web server's decoder, the
    liveness child of ``--health-port``) killed with -9: the children watch it and end."""
    tag = uuid.uuid4().hex
    with EmbeddedBroker(log_path=tmp_path / "broker.log") as broker:
        worker = spawn_worker(
            broker.bootstrap,
            tmp_path / "data",
            "--web",
            "--web-port",
            str(free_port()),
            "--health-port",
            str(free_port()),
            env={TAG: tag},
        )
        try:
            assert wait_until(
                lambda: "ready for batches" in worker.log_text() or worker.proc.poll() is not None,
                90,
            )
            assert worker.proc.poll() is None, worker.log_text()[-3000:]
            # the worker, multiprocessing's resource tracker, 2 batch children, the
            # decoder (started beside the web server) and the liveness child
            assert wait_until(lambda: len(tree_pids(worker.proc.pid)) >= 6, 30)
            assert tree_pids(worker.proc.pid) <= tagged(tag)
            worker.proc.kill()
            worker.proc.wait(5)
            assert wait_until(lambda: not tagged(tag), GONE_WITHIN_S), sorted(tagged(tag))
        finally:
            for pid in tagged(tag):  # a failed test must not leave them to the next one
                os.kill(pid, signal.SIGKILL)
            worker.proc.wait(5)
