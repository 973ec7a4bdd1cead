"""``leakline tail`` misuse and an unreachable broker: clear errors, no traceback."""

from __future__ import annotations

import subprocess
import sys

from leakline.pipeline.kafka.broker import free_port


def tail(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "leakline.pipeline.cli", "tail", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_unreachable_broker_is_a_clear_error() -> None:
    done = tail("--bootstrap", f"127.0.0.1:{free_port()}", "--once")
    assert done.returncode == 2
    assert "cannot reach Kafka" in done.stderr
    assert "hint:" in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_filter_is_rejected_before_connecting() -> None:
    done = tail("--bootstrap", f"127.0.0.1:{free_port()}", "--version", "engine=vllm")
    assert done.returncode == 2
    assert "unknown field 'engine' in --version" in done.stderr
    assert "engine.version" in done.stderr  # the hint lists the fields
    assert "cannot reach Kafka" not in done.stderr


def test_help_explains_the_panes() -> None:
    done = tail("--help")
    assert done.returncode == 0
    for text in ("leak.stats", "leak.samples", "--from-beginning", "--max-seconds", "plain"):
        assert text in done.stdout
