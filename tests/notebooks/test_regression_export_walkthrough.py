"""notebooks/regression_export_walkthrough.ipynb runs `leakline export` and inspects its output."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from nb_store import UpgradeStore

from leakline.pipeline.store.database import read_only

pytestmark = pytest.mark.slow  # starts a Jupyter kernel and runs `leakline export`

EXPORT_MODULE = Path(__file__).resolve().parents[2] / "pipeline" / "curation" / "export.py"


@pytest.mark.skipif(not EXPORT_MODULE.exists(), reason="leakline export is not built yet")
def test_walkthrough_exports_checks_and_replays_cases(
    upgrade_store: UpgradeStore, run_notebook, tmp_path: Path
) -> None:
    out = tmp_path / "export-out"
    done = run_notebook(
        "regression_export_walkthrough.ipynb",
        LEAKLINE_DATA_DIR=str(upgrade_store.data_dir),
        LEAKLINE_EXPORT_DIR=str(out),
    )
    png = done.figures / "regression_cases.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert done.png_outputs() == 1
    text = done.stream_text()

    manifest = json.loads((out / "regression" / "manifest.json").read_text())
    cases = [
        json.loads(p.read_text()) for p in sorted((out / "regression" / "cases").glob("*.json"))
    ]
    assert manifest["format"] == "leakline.regression/1"
    assert cases and manifest["counts"]["cases"] == len(cases)
    assert "content hash verified: True" in text
    assert f"{len(cases)}/{len(cases)} cases replay to their expected labels" in text

    # the printed per-label table is the tally of the case files
    tally = Counter(label for c in cases for label in c["expected_labels"])
    for label, n in tally.items():
        assert f"{label:<22} {n:>5}" in text
    assert f"{'(clean)':<22} {manifest['counts']['clean']:>5}" in text

    # the cap of 25 leaking texts per version held, and the versions come from the store
    per_version = Counter(
        tuple(c["origin"][k]["name"] for k in ("engine", "model"))
        + (c["origin"]["engine"]["version"],)
        for c in cases
        if c["expected_labels"]
    )
    assert max(per_version.values()) <= 25
    with read_only(upgrade_store.data_dir) as con:
        stored = set(
            con.execute(
                "SELECT DISTINCT engine_name, model_name, engine_version FROM samples"
            ).fetchall()
        )
        leaking_text = con.execute(
            "SELECT count(*) FROM samples WHERE leaking AND text_stored"
        ).fetchone()[0]
    assert set(per_version) <= stored
    assert sum(per_version.values()) <= leaking_text
    assert f"rows with stored text: {leaking_text} leaking" in text

    lines = (out / "export" / "samples.jsonl").read_text().splitlines()
    assert f"samples.jsonl: {len(lines)} lines" in text
    assert "manifest agrees: True" in text
