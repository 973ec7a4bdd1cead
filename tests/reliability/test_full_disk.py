"""A worker restarted on a full disk says so and exits 2, like on a read-only one (issue 18,
item 4). The disk is a real 4 MiB tmpfs (skipped where mounting is not allowed), filled
after a first worker created the store."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from leakline.pipeline.demo import start_worker, stop_process
from leakline.pipeline.store.database import init_store

pytestmark = pytest.mark.slow


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(disk: Path) -> None:
    with (disk / "filler").open("wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError:
            pass


def test_a_worker_restarted_on_a_full_disk_exits_2_with_a_message(
    broker, tmp_path: Path, small_disk: Path
) -> None:
    store = small_disk / "data"
    init_store(store)  # the first start
    _fill(small_disk)
    log_path = tmp_path / "worker.log"  # not on the full disk
    worker = start_worker(broker.bootstrap, store, log_path)
    try:
        rc = worker.wait(120)
    finally:
        stop_process(worker)
    log = log_path.read_text(errors="replace")
    assert rc == 2, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    assert "No space left on device" in log and "hint:" in log, log[-3000:]
