"""Resident memory of a process and its children, from /proc (Linux).

A worker runs its batch work in a child process (pipeline/offload.py), so the memory a
worker costs is the sum over its process tree. Used by the tests and benchmarks that
watch a worker's memory.
"""

from __future__ import annotations

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
