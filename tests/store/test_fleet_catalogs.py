"""The fleet setups of the store (issue 30): pyiceberg's SQL catalog on PostgreSQL with the
warehouse on S3, and an Iceberg REST catalog by name. Real servers (tests/store_servers.py):
PostgreSQL from the pgserver wheel, S3 and the REST catalog from SeaweedFS. The fenced
commit holds there as it does on the embedded SQLite catalog."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from test_exactly_once_commits import (
    TOPIC,
    owners_of_partitions,
    race_for_one_range,
    rows,
    stored_ids,
)

from leakline.pipeline.core.config import ENV_S3_ENDPOINT, ENV_WAREHOUSE
from leakline.pipeline.events.rows import SAMPLE_SCHEMA
from leakline.pipeline.store.catalog import open_catalog, warehouse_io_properties
from leakline.pipeline.store.offsets import commit_fenced, committed_offsets, write_data_files
from leakline.pipeline.store.tables import SAMPLES, samples_table

# --- the warehouse's S3 settings, from the environment (no server needed) ---


def test_an_s3_warehouse_takes_endpoint_and_keys_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_SESSION_TOKEN", "AWS_REGION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.setenv(ENV_S3_ENDPOINT, "http://127.0.0.1:8333")
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://elsewhere:1")  # ours wins
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "key")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    assert warehouse_io_properties("s3://bucket/prefix") == {
        "s3.endpoint": "http://127.0.0.1:8333",
        "s3.access-key-id": "key",
        "s3.secret-access-key": "secret",
        # an endpoint of ours gets a region, else pyiceberg would ask AWS for the bucket's
        "s3.region": "us-east-1",
    }
    monkeypatch.setenv("AWS_REGION", "eu-west-3")
    assert warehouse_io_properties("s3://bucket")["s3.region"] == "eu-west-3"
    assert warehouse_io_properties("file:///srv/warehouse") == {}


def test_aws_itself_gets_no_endpoint_and_no_assumed_region(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (ENV_S3_ENDPOINT, "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_REGION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "key")
    props = warehouse_io_properties("s3://bucket")
    assert "s3.endpoint" not in props and "s3.region" not in props


def test_an_unreachable_postgresql_catalog_is_a_clear_error_without_its_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leakline.pipeline.core.errors import LeaklineError
    from leakline.pipeline.kafka.broker import free_port

    monkeypatch.setenv(ENV_WAREHOUSE, (tmp_path / "warehouse").as_uri())
    uri = f"postgresql+psycopg://leakline:hunter2@127.0.0.1:{free_port()}/catalog"
    with pytest.raises(LeaklineError, match="cannot open the Iceberg catalog") as err:
        open_catalog(tmp_path, uri)
    assert "leakline:***@127.0.0.1" in str(err.value)
    assert "hunter2" not in str(err.value)


# --- on the real servers ---


@pytest.mark.slow
def test_a_table_written_there_reads_back_the_same_rows(tmp_path: Path, fleet_catalog: str) -> None:
    table = samples_table(open_catalog(tmp_path))
    assert table.location().startswith("s3://")
    ids = [f"e{i}" for i in range(40)]
    batch = rows(ids[:25], day=1).to_pylist() + rows(ids[25:], day=2).to_pylist()
    done = commit_fenced(
        table,
        write_data_files(table, pa.Table.from_pylist(batch, schema=SAMPLE_SCHEMA)),
        {(TOPIC, 0): (0, 40)},
    )
    assert done.committed
    # a fresh catalog (as another worker or reader would open it) sees the same table
    again = open_catalog(tmp_path).load_table(SAMPLES)
    read = again.scan().to_arrow().sort_by("event_id")
    assert read["event_id"].to_pylist() == sorted(ids)
    assert sorted(read["ts"].to_pylist()) == sorted(row["ts"] for row in batch)
    assert committed_offsets(again) == {(TOPIC, 0): 40}
    # the files are in the object store, in two day partitions, not on local disk
    files = list(again.inspect.files()["file_path"].to_pylist())
    assert len(files) == 2 and all(f.startswith("s3://") for f in files)
    assert all(again.io.new_input(f).exists() for f in files)
    assert not (tmp_path / "warehouse").exists()


@pytest.mark.slow
def test_the_fence_drops_a_stale_batch_and_deletes_its_files(
    tmp_path: Path, fleet_catalog: str
) -> None:
    table = samples_table(open_catalog(tmp_path))
    commit_fenced(table, write_data_files(table, rows(["a", "b"])), {(TOPIC, 0): (0, 2)})
    stale_files = write_data_files(table, rows(["a", "b"]))
    assert all(table.io.new_input(f.file_path).exists() for f in stale_files)
    done = commit_fenced(table, stale_files, {(TOPIC, 0): (0, 2)})
    assert not done.committed and done.stale == {(TOPIC, 0): (2, 0)}
    assert stored_ids(tmp_path) == ["a", "b"]
    assert not any(table.io.new_input(f.file_path).exists() for f in stale_files)


@pytest.mark.slow
def test_four_owners_racing_for_one_range_store_it_once(tmp_path: Path, fleet_catalog: str) -> None:
    """Of four writers that all read offset 0 and all try to commit [0, 50), exactly one
    lands: the catalog's compare-and-swap refuses the others, which then see the fence."""
    results = race_for_one_range(tmp_path)
    assert len(results) == 4
    assert sum(r.committed for r in results) == 1
    assert stored_ids(tmp_path) == sorted(f"e{i}" for i in range(50))
    assert committed_offsets(open_catalog(tmp_path).load_table(SAMPLES)) == {(TOPIC, 0): 50}


@pytest.mark.slow
def test_concurrent_owners_of_different_partitions_all_land(
    tmp_path: Path, fleet_catalog: str
) -> None:
    results = owners_of_partitions(tmp_path)
    assert len(results) == 9 and all(r.committed for r in results)
    table = open_catalog(tmp_path).load_table(SAMPLES)
    assert committed_offsets(table) == {(TOPIC, p): 15 for p in range(3)}
    assert len(stored_ids(tmp_path)) == 45


def test_the_rest_catalog_environment_names_pyiceberg_properties(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The PYICEBERG_CATALOG__… variables the fixture (and the docs) use become the
    dotted properties pyiceberg expects."""
    from pyiceberg.utils.config import Config
    from store_servers import SeaweedFS

    for key, value in SeaweedFS("http://s3:1", "http://rest:2").rest_catalog_env("fleet").items():
        monkeypatch.setenv(key, value)
    props = Config().get_catalog_config("fleet")
    assert props is not None
    assert props["type"] == "rest" and props["uri"] == "http://rest:2"
    assert props["s3.endpoint"] == "http://s3:1"
    assert props["s3.access-key-id"] == "leakline"
    assert props["warehouse"] == "s3://tables"
