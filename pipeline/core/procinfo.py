"""Process trees on Linux: their memory and CPU time (from /proc), and children that end
with their parent.

A worker runs its batch work in child processes (pipeline/worker/offload.py), so the memory a
worker costs is the sum over its process tree. Used by the tests and benchmarks that
watch a worker's memory, and by the harness to split a worker's CPU time.

A command that starts processes (the demo's broker and worker, a worker's batch, decoder
and liveness children) stops them on its way out; a parent killed with SIGKILL has no way
out, so its children watch it instead: ``parent_death_signal`` for a program started with
``subprocess.Popen``, ``exit_with_parent`` inside a Python child.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(c) for c in task.read_text().split()]
        except (OSError, ValueError):
            continue
    return found


def rss_kib(pid: int) -> int | None:
    """VmRSS of one process in KiB; None when it is gone (or has no memory of its own)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def tree_rss_mib(pid: int) -> float | None:
    """VmRSS of ``pid`` plus every descendant, in MiB; None when ``pid`` is gone."""
    own = rss_kib(pid)
    if own is None:
        return None
    total, todo = own, _children(pid)
    while todo:
        child = todo.pop()
        total += rss_kib(child) or 0
        todo += _children(child)
    return total / 1024


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of one process so far; None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU time so far of ``pid`` and of every live descendant, by pid."""
    out: dict[int, float] = {}
    todo = [pid]
    while todo:
        current = todo.pop()
        seconds = cpu_seconds(current)
        if seconds is not None:
            out[current] = seconds
            todo += _children(current)
    return out


def tree_pids(pid: int) -> set[int]:
    """``pid`` and every live descendant (an orphan adopted by init is no longer listed)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        current = todo.pop()
        if current not in found:
            found.add(current)
            todo += _children(current)
    return found


# ------------------------------------------------------------ children that end with their parent

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PARENT_CHECK_S = 1.0  # how often a child's watcher thread looks whether its parent still runs


def parent_death_signal(sig: int = signal.SIGTERM) -> Callable[[], None] | None:
    """A ``preexec_fn`` for ``subprocess.Popen``: the child gets ``sig`` as soon as this
    process ends, however it ends (SIGKILL too), and stops as it would on ``kill``.

    None off Linux, and off the main thread: the kernel sends the signal when the *thread*
    that started the child ends, and a child started by a short-lived thread would be
    stopped with that thread."""
    if not sys.platform.startswith("linux"):
        return None
    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up here, before the fork
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def arm() -> None:  # runs in the child between fork and exec
        prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:  # the parent ended before the line above
            os._exit(1)

    return arm


def exit_with_parent(parent: int, check_s: float = PARENT_CHECK_S) -> threading.Thread:
    """In a Python child process (``multiprocessing``): a daemon thread ends this process
    with ``os._exit`` once ``parent`` is gone (killed with SIGKILL, or left through
    ``os._exit`` without stopping its pools), where it would otherwise wait on its pipe
    forever, adopted by init. Polling ``getppid`` follows the process, not the thread that
    started the child (which ``parent_death_signal`` follows): a pool may start a child
    from any thread. Whatever work the child held was not acknowledged by anyone."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(check_s)
        os._exit(0)

    thread = threading.Thread(target=watch, name="leakline-exit-with-parent", daemon=True)
    thread.start()
    return thread
