"""The Prometheus alert rules in deploy/prometheus/: promtool checks them and runs their
unit tests (alerts.test.yml) when it is installed (Debian: `apt-get install prometheus`;
CI installs it), and every metric they read is one a worker exposes."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from leakline.pipeline.live.metrics import WorkerMetrics
from leakline.pipeline.live.stats import StatsRecord

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "deploy" / "prometheus"
PROMTOOL = shutil.which("promtool")

needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="promtool is not installed")


@needs_promtool
def test_rules_are_valid() -> None:
    done = subprocess.run(
        [str(PROMTOOL), "check", "rules", "alerts.yml"],
        cwd=RULES,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS: 12 rules found" in done.stdout


@needs_promtool
def test_rule_unit_tests_pass() -> None:
    done = subprocess.run(
        [str(PROMTOOL), "test", "rules", "alerts.test.yml"],
        cwd=RULES,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout


def test_every_alert_has_a_unit_test() -> None:
    alerts = set(re.findall(r"- alert: (\w+)", (RULES / "alerts.yml").read_text()))
    tested = set(re.findall(r"alertname: (\w+)", (RULES / "alerts.test.yml").read_text()))
    assert alerts and alerts == tested, alerts ^ tested


def test_rules_read_metrics_a_worker_exposes() -> None:
    rules = (RULES / "alerts.yml").read_text()
    exprs = "\n".join(
        line for line in rules.splitlines() if not line.lstrip().startswith(("#", "summary"))
    )
    used = set(re.findall(r"\b(leakline_[a-z_]+)", exprs))
    m = WorkerMetrics()
    key = "vllm|0.31.0|qwen|t|qwen3|hermes"
    m.observe_batch(
        [
            StatsRecord(
                key,
                "w",
                "2026-11-29T00:00:00Z",
                {"total": 2, "leaking": 1, "labels": {"preamble": 1}, "dead_lettered": 1},
            )
        ],
        ["event too large: 9"],
    )
    m.set_lag([("gateway.events", 0, 1)])
    m.observe_model("preamble-x", 1)
    m.set_regressions(
        [{"model": "qwen", "changed": "engine", "version": "vllm/2", "previous": "vllm/1"}]
    )
    exposed = set(re.findall(r"^(leakline_[a-z_]+)", m.render().decode(), re.M))
    assert used <= exposed, used - exposed
    assert "leakline_events_total" in used and "leakline_consumer_lag" in used
    assert "leakline_model_reload_failures_total" in used


def test_prometheus_loads_the_rules() -> None:
    prom = (RULES / "prometheus.yml").read_text()
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "rule_files:\n  - /etc/prometheus/alerts.yml" in prom
    assert "./deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro" in compose
