"""pipeline/core/procinfo.py: memory and CPU time of a process tree, read from /proc."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from leakline.pipeline.core.procinfo import cpu_seconds, tree_cpu_seconds, tree_rss_mib

BURN = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"


def test_cpu_of_a_tree_includes_a_busy_child() -> None:
    child = subprocess.Popen([sys.executable, "-c", BURN + "time.sleep(30)"])
    try:
        deadline = time.monotonic() + 20
        while (cpu_seconds(child.pid) or 0.0) < 0.25:  # its burn is done
            assert time.monotonic() < deadline
            time.sleep(0.05)
        tree = tree_cpu_seconds(os.getpid())
        assert os.getpid() in tree and child.pid in tree
        assert tree[child.pid] >= 0.25
        assert (tree_rss_mib(os.getpid()) or 0) > (tree_rss_mib(child.pid) or 0) > 0
    finally:
        child.kill()
        child.wait()
    assert cpu_seconds(child.pid) is None  # gone
