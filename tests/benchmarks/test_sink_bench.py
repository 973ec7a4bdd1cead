"""benchmarks/sink_bench.py runs (CI keeps it from rotting); its timings are not judged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_sink_bench_quick_writes_its_figures(tmp_path: Path) -> None:
    out = tmp_path / "sink.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "sink_bench.py"), "--quick", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    figures = json.loads(out.read_text())
    assert all(figures[k] > 0 for k in ("json_decode_us_per_event", "sink_write_us_per_event"))
    # lz4 parts are larger than zstd ones, by a bounded amount (compaction shrinks them later)
    assert 1.0 < figures["part_bytes_vs_zstd"] < 2.0
    assert "part codec: lz4" in proc.stdout
