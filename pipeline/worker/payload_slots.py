"""Batch payloads handed to the batch children through memory files, not the pool's pipe.

A 2,000-event batch is ~12 MB of raw Kafka values. Pickled through the process pool's
pipe (64 KiB at a time) it cost ~6 µs per event in the worker and ~7 µs in the child,
about 12 % of everything a worker spends on an event (issue 19; measured by
``benchmarks/harness.py``). Here the worker writes the values into an in-memory file
(``memfd_create``) with a couple of ``pwritev`` calls and sends only their lengths; the
child opens the same file once through ``/proc/<worker>/fd/<n>`` and reads a batch back
with one ``pread``. Together ~3 µs per event.

- **Nothing outlives the worker.** A memory file has no name: it is freed when the
  worker and its children have closed it, also after ``kill -9`` (the children leave
  within a second of the worker, ``procinfo.exit_with_parent``).
- **Bounded memory.** One file per batch in flight, at most ``MAX_SLOTS``; a file keeps
  the size of the largest batch it held, up to ``KEEP_BYTES``, and is emptied after a
  larger one. A batch over ``MAX_BATCH_BYTES`` goes through the pipe as before. The
  files are never mapped, so their pages count as shared memory of the machine, not as
  any process's RSS.
- **Fallback.** Where memory files or ``/proc/<pid>/fd`` are not available (not Linux,
  a hardened ``/proc``), ``available()`` says so and every batch takes the pipe.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

# the largest batch that goes through a memory file; a larger one takes the pipe
MAX_BATCH_BYTES = 256 * 1024 * 1024
# after a batch larger than this, its file is emptied again (no lasting 100 MiB files)
KEEP_BYTES = 32 * 1024 * 1024
# writev/pwritev take at most IOV_MAX (1024 on Linux) buffers per call
_IOV_MAX = 1024


@dataclass(frozen=True, slots=True)
class SlotRef:
    """What a child needs to read a batch's values: where the file is and their lengths."""

    pid: int  # the worker's
    fd: int  # the memory file's descriptor in the worker
    inode: int  # tells a reused descriptor number from the file the child opened before
    lengths: tuple[int, ...]


def available() -> bool:
    """Whether this platform has memory files at all (Linux)."""
    return hasattr(os, "memfd_create") and hasattr(os, "pwritev") and os.path.isdir("/proc/self/fd")


class Slot:
    """One memory file in the worker; holds one batch's values at a time."""

    def __init__(self) -> None:
        self.fd = os.memfd_create("leakline-batch", os.MFD_CLOEXEC)
        self.inode = os.fstat(self.fd).st_ino
        self.size = 0

    def write(self, values: list[bytes]) -> SlotRef:
        lengths = tuple(len(v) for v in values)
        offset = 0
        for start in range(0, len(values), _IOV_MAX):
            chunk = values[start : start + _IOV_MAX]
            want = sum(lengths[start : start + _IOV_MAX])
            wrote = os.pwritev(self.fd, chunk, offset)
            if wrote != want:  # a memory file takes all of it or raises; never split
                raise OSError(f"short write to a batch memory file: {wrote} of {want} bytes")
            offset += wrote
        self.size = max(self.size, offset)
        return SlotRef(os.getpid(), self.fd, self.inode, lengths)

    def release(self) -> None:
        """After the batch: empty the file if the batch was unusually large."""
        if self.size > KEEP_BYTES:
            os.ftruncate(self.fd, 0)
            self.size = 0

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


class SlotReader:
    """The child's side: the worker's memory files, opened once each."""

    def __init__(self) -> None:
        self._open: dict[tuple[int, int], int] = {}  # (pid, fd) -> own descriptor

    def read(self, ref: SlotRef) -> list[bytes]:
        fd = self._descriptor(ref)
        total = sum(ref.lengths)
        blob = os.pread(fd, total, 0)
        if len(blob) != total:
            raise OSError(f"batch memory file holds {len(blob)} of {total} bytes")
        values, offset = [], 0
        for length in ref.lengths:
            values.append(blob[offset : offset + length])
            offset += length
        return values

    def _descriptor(self, ref: SlotRef) -> int:
        key = (ref.pid, ref.fd)
        fd = self._open.get(key)
        if fd is not None and os.fstat(fd).st_ino == ref.inode:
            return fd
        if fd is not None:
            os.close(fd)
        fd = os.open(f"/proc/{ref.pid}/fd/{ref.fd}", os.O_RDONLY | os.O_CLOEXEC)
        self._open[key] = fd
        return fd

    def close(self) -> None:
        for fd in self._open.values():
            os.close(fd)
        self._open.clear()
