"""``leakline demo``: the whole flow in one command on the embedded broker."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from pipeline.broker import EmbeddedBroker
from pipeline.config import from_env
from pipeline.errors import LeaklineError
from pipeline.progress import progress_bar

DEMO_MARKER = ".leakline-demo"


def start_worker(
    bootstrap: str, data_dir: Path, log_path: Path, *extra: str, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """A worker in its own process, as a user would run it."""
    cmd = [
        sys.executable,
        "-m",
        "pipeline.cli",
        "worker",
        "--bootstrap",
        bootstrap,
        "--data-dir",
        str(data_dir),
        "--session-timeout",
        "6",
        *extra,
    ]
    with log_path.open("ab") as log:
        return subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, **env} if env else None,
        )


def stop_process(proc: subprocess.Popen[bytes], timeout: float = 30.0) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


def stored_event_count(data_dir: Path) -> int:
    from pipeline.errors import StoreError
    from pipeline.store import read_only

    try:
        with read_only(data_dir, timeout_s=2.0) as con:
            row = con.execute("SELECT count(DISTINCT event_id) FROM samples_all").fetchone()
    except StoreError:
        return 0
    return int(row[0]) if row else 0


def wait_for_stored(
    data_dir: Path, expected: int, worker: subprocess.Popen[bytes], timeout_s: float, log_path: Path
) -> int:
    deadline = time.monotonic() + timeout_s
    stored = 0
    with progress_bar() as bar:
        task = bar.add_task("stored in DuckDB", total=expected)
        while stored < expected:
            if worker.poll() is not None:
                raise LeaklineError(
                    f"the worker exited with status {worker.returncode}",
                    hint=f"see its log: {log_path}",
                )
            if time.monotonic() > deadline:
                raise LeaklineError(
                    f"only {stored} of {expected} events stored after {timeout_s:.0f}s",
                    hint=f"see the worker log: {log_path}",
                )
            time.sleep(0.5)
            stored = stored_event_count(data_dir)
            bar.update(task, completed=stored)
    return stored


def _fresh(data_dir: Path) -> None:
    """Clear a previous demo's output (only in a folder the demo created)."""
    if data_dir.exists() and any(data_dir.iterdir()) and not (data_dir / DEMO_MARKER).exists():
        raise LeaklineError(
            f"{data_dir} exists and was not created by `leakline demo`",
            hint="pass --data-dir with a new or a previous demo folder",
        )
    for name in ("samples", "leakline.duckdb", "leakline.duckdb.wal", "faust"):
        target = data_dir / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / DEMO_MARKER).write_text("created by leakline demo\n")


def run_demo(
    *,
    data_dir: Path,
    count: int,
    seed: int,
    bootstrap: str | None,
    broker_bin: str | None,
    keep_running: bool,
) -> int:
    from pipeline.report import rates_table_text
    from pipeline.store import db_path, query_rates, read_only
    from pipeline.traffic import simulate_traffic

    data_dir = data_dir.resolve()
    _fresh(data_dir)
    broker = None
    if bootstrap is None:
        broker = EmbeddedBroker(binary=broker_bin, log_path=data_dir / "broker.log").start()
        bootstrap = broker.bootstrap
        print(f"embedded broker (Tansu) on {bootstrap}", file=sys.stderr)
    worker_log = data_dir / "worker.log"
    worker = start_worker(bootstrap, data_dir, worker_log)
    print(f"worker pid {worker.pid}, log {worker_log}", file=sys.stderr)
    try:
        settings = from_env(bootstrap=bootstrap, data_dir=data_dir)
        malformed = max(5, count // 100)
        status = simulate_traffic(
            settings,
            count=count,
            seed=seed,
            leak_ratio=0.3,
            stream_ratio=0.4,
            malformed=malformed,
            out=None,
        )
        if status:
            raise LeaklineError("some simulated events could not be sent to the broker")
        wait_for_stored(data_dir, count, worker, timeout_s=180.0, log_path=worker_log)
        with read_only(data_dir) as con:
            rows = query_rates(con, ["engine.name", "engine.version", "model.name"])
        print(rates_table_text(rows, ["engine.name", "engine.version", "model.name"]))
        print(f"{malformed} malformed payloads went to {settings.topics.dlq}")
        print(f"DuckDB file: {db_path(data_dir)}")
        print(f'  try: duckdb {db_path(data_dir)} "from leak_rates"')
        print(f"       leakline rates --data-dir {data_dir} --by engine.version,parsers.reasoning")
        if keep_running:
            print(f"broker {bootstrap} and worker keep running; Ctrl-C to stop", file=sys.stderr)
            while worker.poll() is None:
                time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        stop_process(worker)
        if broker:
            broker.stop()
    return 0
