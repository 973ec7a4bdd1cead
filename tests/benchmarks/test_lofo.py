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


def test_granite_text_headers_are_seen_without_their_row(lofo, cases):
    """Plain-text headers on lines of their own: without the row the table rules lose them,
    and the generic header pair (generic_tokens v5) finds every granite leak of the corpus
    (0/5 before it), with no clean case flagged."""
    (result,) = lofo.run(cases, ["granite"])
    assert result.table_findings_without_row < result.table_findings_with_row
    assert result.pos["boundary_token"] >= 5 and result.pos["reasoning_leak"] >= 5
    assert result.recall("boundary_token") == 1.0
    assert result.recall("reasoning_leak") == 1.0
    assert result.clean_flagged == 0


def test_cli_writes_json_and_markdown(lofo, tmp_path):
    out, md = tmp_path / "lofo.json", tmp_path / "lofo.md"
    assert lofo.main(["--families", "seed_oss", "--out", str(out), "--markdown", str(md)]) == 0
    payload = json.loads(out.read_text())
    assert set(payload["families"]) == {"seed_oss"}
    assert "seed_oss" in md.read_text()
    assert len(active_families()) == len(active_table().families)


def test_row_probes_measure_rows_that_have_no_corpus_case(lofo, cases):
    without_cases = {c.row for c in cases}
    assert "apertus" not in without_cases  # the corpus has no apertus case
    results = lofo.run_probes(["qwen3", "apertus"])
    assert [r.name for r in results] == ["qwen3", "apertus"]
    for r in results:
        assert r.probes > 0 and r.reference > 0  # the row itself sees every probe
        assert r.probes % len(lofo.PROBE_TEXTS) == 0  # each shape in every language
    qwen3 = results[0]
    assert qwen3.recall == 1.0 and not qwen3.missed  # <think> has a generic shape
    assert len(active_families()) == len(active_table().families)  # every row is back


def test_row_probes_report_plain_text_delimiters_as_missed(lofo):
    """The measurement can fail: granite's plain-text header written inline, as the probes
    write it (no line break after it), is no header pair and has no token shape."""
    (granite,) = lofo.run_probes(["granite"])
    assert granite.recall is not None and granite.recall < 1.0
    assert any(m["literal"] == "Here is my thought process:" for m in granite.missed)
    assert "granite" in lofo.probe_table([granite])


def test_cli_writes_the_probes_when_asked(lofo, tmp_path):
    out = tmp_path / "lofo.json"
    assert lofo.main(["--families", "seed_oss", "--probes", "--out", str(out)]) == 0
    payload = json.loads(out.read_text())
    assert set(payload["probes"]) == {"seed_oss"}
    assert payload["probes"]["seed_oss"]["reference_labels"] > 0
