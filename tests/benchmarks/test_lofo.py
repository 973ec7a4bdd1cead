"""benchmarks/lofo.py on a small subset: its shape, and that leaving a row out bites."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from leakline.detectors.families import active_families, active_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lofo():
    spec = importlib.util.spec_from_file_location("lofo", ROOT / "benchmarks" / "lofo.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["lofo"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cases(lofo):
    every = lofo.load_cases()
    wanted = {"seed_oss", "kimi_k2", "granite"}
    clean = [c for c in every if not c.labels][:60]
    return [c for c in every if c.row in wanted] + clean


def test_structure_and_restored_table(lofo, cases):
    before = active_table()
    results = lofo.run(cases, ["seed_oss", "kimi_k2", "granite"], generic_only=True)
    assert active_table().families == before.families  # every row is back
    assert [r.name for r in results] == ["kimi_k2", "granite", "seed_oss", lofo.GENERIC]
    for r in results:
        payload = r.as_dict()
        assert set(payload["recall"]) == set(lofo.LABELS)
        assert payload["clean"]["cases"] == sum(1 for c in cases if not c.labels)
        assert 0.0 <= payload["clean"]["fp_rate"] <= 1.0
    summary = lofo.overall(results)
    assert set(summary["recall"]) == set(lofo.LABELS)
    assert "\n" in lofo.table(results) and lofo.markdown(results).startswith("| left out")


def test_leaving_a_row_out_changes_what_the_table_rules_see(lofo, cases):
    """The measurement can fail: without its row, the family rules stop seeing seed_oss."""
    (result,) = lofo.run(cases, ["seed_oss"])
    assert result.table_findings_with_row > 0
    assert result.table_findings_without_row < result.table_findings_with_row
    assert result.pos["boundary_token"] > 0


def test_granite_text_headers_need_their_row(lofo, cases):
    """Plain-text headers have no token shape: the generic layer cannot see them (an honest
    zero-day miss the table reports rather than hides)."""
    (result,) = lofo.run(cases, ["granite"])
    assert result.recall("boundary_token") is not None
    assert result.recall("boundary_token") < 1.0


def test_cli_writes_json_and_markdown(lofo, tmp_path):
    out, md = tmp_path / "lofo.json", tmp_path / "lofo.md"
    assert lofo.main(["--families", "seed_oss", "--out", str(out), "--markdown", str(md)]) == 0
    payload = json.loads(out.read_text())
    assert set(payload["families"]) == {"seed_oss"}
    assert "seed_oss" in md.read_text()
    assert len(active_families()) == len(active_table().families)
