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
    "json_decode_us_per_event",
    "pipeline_cpu_vs_json_decode",
    "freshness_p50_s",
    "freshness_p99_s",
    "rates_query_10m_s",
    "rss_growth_pct",
    "learner_us_per_event",
    "learner_vs_json_decode",
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
    # issue 19's ratio is the worker's whole CPU over the decode floor of the same run
    cpu = figures["pipeline_main_cpu_us_per_event"] + figures["pipeline_children_cpu_us_per_event"]
    assert figures["json_decode_us_per_event"] > 0
    assert figures["pipeline_cpu_vs_json_decode"] == pytest.approx(
        cpu / figures["json_decode_us_per_event"], rel=0.02
    )
    # the dev install has mypyc, so the run (workers included) used the compiled detectors
    assert figures["_machine"]["detectors_build"] == "compiled"
    assert figures["pipeline_worker_detectors"] == "compiled"


def test_record_appends_a_row_with_the_commit_to_the_cost_table(tmp_path: Path) -> None:
    import importlib.util

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        spec = importlib.util.spec_from_file_location("harness", ROOT / "benchmarks" / "harness.py")
        assert spec is not None and spec.loader is not None
        harness = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(harness)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    readme = tmp_path / "README.md"
    readme.write_text(
        f"intro\n{harness.RECORD_START}\n{harness.RECORD_HEADER}\n| old | row |\n"
        f"{harness.RECORD_END}\nafter\n"
    )
    figures = {
        "pipeline_worker_detectors": "compiled",
        "pipeline_batch_size": 2000,
        "pipeline_events_per_s": 12345,
        "pipeline_main_cpu_us_per_event": 40.0,
        "pipeline_children_cpu_us_per_event": 100.0,
        "json_decode_us_per_event": 15.0,
        "pipeline_cpu_vs_json_decode": 9.33,
    }
    row = harness.record(figures, "a | note", readme=readme)
    text = readme.read_text()
    assert text.startswith("intro\n") and text.endswith("after\n")
    assert "| old | row |" in text and row in text
    assert text.index("| old | row |") < text.index(row) < text.index(harness.RECORD_END)
    head = harness.commit().split("+")[0]
    assert f"| {head}" in row and "12,345" in row and "9.33x" in row and "a / note" in row
    (tmp_path / "plain.md").write_text("no table here\n")
    with pytest.raises(SystemExit):
        harness.record(figures, "x", readme=tmp_path / "plain.md")
