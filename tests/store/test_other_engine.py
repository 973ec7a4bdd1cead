"""Another engine reads the same Iceberg table (issue 30): DuckDB's iceberg extension, not
pyiceberg, scans the table from its metadata file and gets the same row count and the same
per-version leak rates as ``leakline rates``.

The extension ships for duckdb 1.5.5 only, so it runs in its own venv,
``.venv-iceberg-reader``, which ``python3 dev.py test`` installs (pinned) before the tests.
The extension files come inside the registry packages and load offline."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from test_snapshot_reads import commit, real_rows

from leakline.pipeline.store.catalog import open_catalog
from leakline.pipeline.store.database import query_rates, read_only
from leakline.pipeline.store.snapshot import local_path
from leakline.pipeline.store.tables import SAMPLES

ROOT = Path(__file__).resolve().parents[2]
READER = Path(os.environ.get("LEAKLINE_ICEBERG_READER_VENV", ROOT / ".venv-iceberg-reader"))

# runs in the side venv: load the packaged extensions (no download), scan the metadata
SCAN = """
import json, pathlib, sys
import duckdb, duckdb_extension_avro, duckdb_extension_iceberg

def extension(module, name):
    folder = pathlib.Path(module.__file__).parent / "extensions" / f"v{duckdb.__version__}"
    return str(folder / f"{name}.duckdb_extension")

con = duckdb.connect(config={"autoinstall_known_extensions": False,
                             "autoload_known_extensions": False})
con.execute(f"LOAD '{extension(duckdb_extension_avro, 'avro')}'")
con.execute(f"LOAD '{extension(duckdb_extension_iceberg, 'iceberg')}'")
scan = "iceberg_scan(?)"
rows = con.execute(
    f"SELECT engine_version, count(*), count(*) FILTER (WHERE leaking) FROM {scan} GROUP BY 1",
    [sys.argv[1]],
).fetchall()
print(json.dumps({"duckdb": duckdb.__version__, "versions": rows}))
"""


@pytest.mark.slow
def test_duckdbs_iceberg_extension_reads_the_same_rates(tmp_path: Path) -> None:
    python = READER / "bin" / "python"
    if not python.exists():
        pytest.skip(f"no {READER.name}: `python3 dev.py test` creates it before the tests")
    rows = real_rows(800, seed=33)
    assert rows.num_rows == 800
    commit(tmp_path, rows.slice(0, 500), 0)
    commit(tmp_path, rows.slice(500), 500)
    table = open_catalog(tmp_path).load_table(SAMPLES)
    metadata = local_path(table.metadata_location)
    assert metadata is not None
    done = subprocess.run(
        [str(python), "-c", SCAN, metadata], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    other = json.loads(done.stdout)
    assert other["duckdb"] == "1.5.5"  # really the other engine, not leakline's DuckDB
    theirs = {
        version: (total, leaking, round(leaking / total, 4))
        for version, total, leaking in other["versions"]
    }
    with read_only(tmp_path) as con:
        ours = {
            r["engine.version"]: (r["total"], r["leaking"], r["rate"])
            for r in query_rates(con, ["engine.version"])
        }
    assert sum(t for t, _, _ in theirs.values()) == 800
    assert len(ours) >= 3 and any(leaking for _, leaking, _ in ours.values())
    assert theirs == ours
