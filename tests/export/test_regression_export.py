"""``leakline export --regression DIR``: contract-1 cases from a real store."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from leakline.pipeline.cli import main
from leakline.pipeline.curation.export import ExportFilter, ExportOptions, run_export
from leakline.pipeline.curation.regression import case_bytes, case_paths, load_case, replay_case

CASE_KEYS = {"case_id", "event", "expected_labels", "origin"}
ORIGIN_KEYS = {
    "engine",
    "model",
    "chat_template",
    "parsers",
    "gateway",
    "api",
    "stream",
    "first_seen",
    "event_ids",
    "label_source",
}


def regress(store: Path, target: Path, on_mismatch: str = "skip", **opts: object) -> dict:
    options = ExportOptions(**{"clean_ratio": 0.3, "per_version_cap": 4, **opts})  # type: ignore[arg-type]
    result = run_export(
        store,
        None,
        ExportFilter(),
        options,
        regression=target,
        on_mismatch=on_mismatch,
        show_progress=False,
    )
    assert result.regression is not None and result.samples is None
    return result.regression


def test_cases_follow_contract_1_and_replay(sim_store: Path, tmp_path: Path) -> None:
    manifest = regress(sim_store, tmp_path)
    paths = case_paths(tmp_path)
    assert manifest["counts"]["cases"] == len(paths) > 40
    assert manifest["format"] == "leakline.regression/1"
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in paths)).hexdigest()
    assert manifest["content_hash"] == f"sha256:{digest}"
    on_disk = json.loads((tmp_path / "manifest.json").read_text("utf-8"))
    assert on_disk["counts"] == manifest["counts"] and on_disk["filter"]["per_version_cap"] == 4
    clean = 0
    for path in paths:
        text = path.read_text("utf-8")
        case = json.loads(text)
        assert set(case) == CASE_KEYS and set(case["origin"]) == ORIGIN_KEYS
        assert path.stem == case["case_id"]
        assert text.encode() == case_bytes(case)  # canonical: nested key order as recorded
        assert case["expected_labels"] == sorted(case["expected_labels"])
        assert case["event"]["event_id"] in case["origin"]["event_ids"]
        assert case["origin"]["first_seen"].endswith("Z")
        assert replay_case(case).ok
        clean += not case["expected_labels"]
    assert clean == manifest["counts"]["clean"] > 0


def test_regression_export_is_stable_and_drops_stale_cases(sim_store: Path, tmp_path: Path) -> None:
    first = regress(sim_store, tmp_path)
    before = {p.name: p.read_bytes() for p in case_paths(tmp_path)}
    stale = tmp_path / "cases" / "0000stale0000000.json"
    stale.write_text("{}")
    second = regress(sim_store, tmp_path)
    assert not stale.exists()
    assert {p.name: p.read_bytes() for p in case_paths(tmp_path)} == before
    assert first["content_hash"] == second["content_hash"]
    smaller = regress(sim_store, tmp_path, per_version_cap=2)
    assert smaller["counts"]["cases"] < first["counts"]["cases"]
    assert {p.name for p in case_paths(tmp_path)} < set(before)


def test_a_review_the_detectors_disagree_with_is_listed_and_skipped(
    store_copy: Path, tmp_path: Path
) -> None:
    manifest = regress(store_copy, tmp_path / "before")
    assert manifest["mismatches"] == []
    victim = next(
        load_case(p) for p in case_paths(tmp_path / "before") if load_case(p)["expected_labels"]
    )
    event_id = victim["event"]["event_id"]
    # a reviewer says this leak is clean; the detectors still flag it
    assert main(["review", "--data-dir", str(store_copy), "--set", f"{event_id}="]) == 0
    skipped = regress(store_copy, tmp_path / "skip")
    assert [m["event_id"] for m in skipped["mismatches"]] == [event_id]
    mismatch = skipped["mismatches"][0]
    assert mismatch["expected"] == [] and mismatch["replayed"] == victim["expected_labels"]
    assert mismatch["label_source"] == "reviewed" and not mismatch["kept"]
    assert victim["case_id"] not in {p.stem for p in case_paths(tmp_path / "skip")}
    kept = regress(store_copy, tmp_path / "keep", on_mismatch="keep")
    assert kept["mismatches"][0]["kept"]
    case = load_case(tmp_path / "keep" / "cases" / f"{victim['case_id']}.json")
    assert case["origin"]["label_source"] == "reviewed" and case["expected_labels"] == []
    assert not replay_case(case).ok  # the regression test would fail on it, as it should


def test_cli_writes_both_outputs(sim_store: Path, tmp_path: Path, capsys: object) -> None:
    code = main(
        [
            "export",
            "--data-dir",
            str(sim_store),
            "--out",
            str(tmp_path / "out"),
            "--regression",
            str(tmp_path / "reg"),
            "--api",
            "messages",
            "--quiet",
        ]
    )
    assert code == 0
    samples = (tmp_path / "out" / "samples.jsonl").read_text("utf-8").splitlines()
    cases = case_paths(tmp_path / "reg")
    assert samples and cases and len(cases) <= len(samples)
    assert all(load_case(p)["event"]["api"] == "messages" for p in cases)
