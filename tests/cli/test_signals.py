"""SIGTERM and SIGHUP stop a command as Ctrl-C does, and the programs a command starts end
with it even when it is killed with -9 (issue 32, defect 1). Real processes, real signals.

The end-to-end cases (the demo, a worker with all its children) are in
tests/e2e/test_nothing_left_running.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from leakline_testkit import TAG, tagged, wait_until

from leakline.pipeline.core.procinfo import parent_death_signal

# A command's shape: cleanup in ``finally``, run inside ``stop_on_signals`` as cli.main does.
COMMAND = """
import asyncio, signal, sys, time
from leakline.pipeline.core.command import Stopped, stop_on_signals, stopped

marker, mode = sys.argv[1], sys.argv[2]


async def own_handler() -> None:  # the worker's way: SIGTERM handled on the event loop
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", flush=True)
    await stop.wait()
    print("stopped by its own handler", flush=True)


async def busy() -> None:  # tasks in flight when the signal comes (the demo's producer)
    async def tick() -> None:
        while True:
            await asyncio.sleep(0.001)
    ticking = asyncio.ensure_future(tick())
    print("ready", flush=True)
    await asyncio.sleep(60)
    ticking.cancel()


try:
    with stop_on_signals():
        try:
            if mode == "own-handler":
                asyncio.run(own_handler())
            elif mode == "asyncio":
                asyncio.run(busy())
            else:
                print("ready", flush=True)
                time.sleep(60)
        finally:
            time.sleep(0.5)  # a slow cleanup: a second signal must not cut it short
            open(marker, "w").write("cleaned up")
except Stopped as exc:
    sys.exit(stopped("probe", exc))
"""


def start(tmp_path: Path, mode: str, ignore_hangup: bool = False) -> subprocess.Popen[str]:
    def nohup() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    proc = subprocess.Popen(
        [sys.executable, "-c", COMMAND, str(tmp_path / "cleaned"), mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=nohup if ignore_hangup else None,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    return proc


@pytest.mark.parametrize("mode", ["sleeping", "asyncio"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_runs_the_cleanup_ctrl_c_runs(
    tmp_path: Path, sig: signal.Signals, mode: str
) -> None:
    proc = start(tmp_path, mode)
    proc.send_signal(sig)
    threading.Timer(0.2, proc.send_signal, (signal.SIGTERM,)).start()  # the second one
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 128 + sig
    assert (tmp_path / "cleaned").read_text() == "cleaned up"
    assert f"leakline probe: stopped by {sig.name}" in err
    assert "Traceback" not in err and "exception" not in err.lower()


def test_hangup_takes_the_commands_own_sigterm_way(tmp_path: Path) -> None:
    proc = start(tmp_path, "own-handler")
    proc.send_signal(signal.SIGHUP)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert "stopped by its own handler" in out
    assert (tmp_path / "cleaned").exists()


def test_a_hangup_ignored_by_nohup_stays_ignored(tmp_path: Path) -> None:
    proc = start(tmp_path, "sleeping", ignore_hangup=True)
    proc.send_signal(signal.SIGHUP)
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(1.0)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=10)
    assert proc.returncode == 128 + signal.SIGTERM


# A command that starts the embedded broker and a program, as the demo does, then waits.
STARTER = """
import subprocess, sys, time
from leakline.pipeline.kafka.broker import EmbeddedBroker
from leakline.pipeline.core.procinfo import parent_death_signal

broker = EmbeddedBroker().start()
subprocess.Popen(["sleep", "60"], start_new_session=True, preexec_fn=parent_death_signal())
print("ready", flush=True)
time.sleep(60)
"""


def test_programs_started_end_when_their_starter_is_killed() -> None:
    """kill -9 leaves no way to clean up: the broker and the program get SIGTERM from the
    kernel (PR_SET_PDEATHSIG) instead of running on, adopted by init."""
    tag = uuid.uuid4().hex
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, TAG: tag},
    )
    try:
        assert starter.stdout is not None and starter.stdout.readline() == "ready\n"
        assert len(tagged(tag)) == 3  # the starter, the broker, sleep
        starter.kill()
        starter.wait(5)
        assert wait_until(lambda: not tagged(tag), 5), sorted(tagged(tag))
    finally:
        for pid in tagged(tag):
            os.kill(pid, signal.SIGKILL)


def test_no_parent_death_signal_off_the_main_thread() -> None:
    """The kernel signals when the starting *thread* ends: a child started from a
    short-lived thread would be stopped with it, so none is armed there."""
    assert parent_death_signal() is not None
    found: list[object] = []
    thread = threading.Thread(target=lambda: found.append(parent_death_signal()))
    thread.start()
    thread.join()
    assert found == [None]
