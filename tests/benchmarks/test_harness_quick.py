"""CI runs the performance harness in --quick mode so it cannot rot (figures are not judged)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
KEYS = (
    "detectors_events_per_s",
    "pipeline_events_per_s",
    "raw_baseline_events_per_s",
    "pipeline_vs_raw_ratio",
    "freshness_p50_s",
    "freshness_p99_s",
    "rates_query_10m_s",
    "rss_growth_pct",
)


def test_harness_quick_writes_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "perf.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "harness.py"), "--quick", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text())
    for key in KEYS:
        assert isinstance(figures[key], int | float), key
        # RSS can shrink after warm-up (a negative growth); every other figure cannot
        assert key == "rss_growth_pct" or figures[key] >= 0, key
        assert key in done.stdout  # the table names every figure
    assert figures["pipeline_events_per_s"] > 0 and figures["raw_baseline_events_per_s"] > 0
    # small batches leave work after the first stored one, so the steady state has a cost
    assert figures["pipeline_batch_size"] == 250
    assert figures["pipeline_children_cpu_us_per_event"] > 0
    # the dev install has mypyc, so the run (workers included) used the compiled detectors
    assert figures["_machine"]["detectors_build"] == "compiled"
    assert figures["pipeline_worker_detectors"] == "compiled"
