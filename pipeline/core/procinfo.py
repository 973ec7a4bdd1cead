"""Resident memory and CPU time of a process and its children, from /proc (Linux).

A worker runs its batch work in child processes (pipeline/worker/offload.py), so the memory a
worker costs is the sum over its process tree. Used by the tests and benchmarks that
watch a worker's memory, and by the harness to split a worker's CPU time.
"""

from __future__ import annotations

import os
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
