"""Hostile and normal traffic together lose and double-count no normal event (issue 36).

Runs ``benchmarks/hostile_reliability.py --quick``: a real Tansu broker and a real worker
with ``/ingest`` behind a token, 1 500 normal events (half through Kafka, half through
``/ingest``) while array bodies near the body limit, thousands of distinct versions,
megabyte replies of call markup, malformed and deeply nested payloads and slow-body
clients hit the same worker. The benchmark restarts a worker that dies or passes its RSS
guard; the normal events must still be stored exactly once, and the dead-letter topic
must hold exactly the payloads the offline oracle rejects. The /healthz and RSS figures
are reported by the benchmark, not judged here (see docs/operations/threat-model.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_quick_run_loses_and_double_counts_no_normal_event(tmp_path: Path) -> None:
    out = tmp_path / "hostile.json"
    script = ROOT / "benchmarks" / "hostile_reliability.py"
    done = subprocess.run(
        [sys.executable, str(script), "--quick", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.exists(), done.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["normal_sent"] == 1500
    assert figures["normal_lost"] == 0, done.stdout
    assert figures["normal_duplicated"] == 0, done.stdout
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    # the hostile traffic ran: every request was made, poison reached the DLQ exactly
    assert len(figures["refused"]) >= 8, figures["refused"]
    assert figures["hostile_valid_sent"] > 5000  # the versions body and the markup replies
    assert figures["dlq_expected"] > 0 and figures["dlq_exact"], done.stdout
    assert figures["slow_clients"] == 20
    assert figures["healthz_probes"] > 0 and figures["peak_rss_mib"] > 0
