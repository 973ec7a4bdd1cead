"""Fleet catalogs for the store tests: real PostgreSQL and SeaweedFS servers, started once
per session (only by the tests that ask), and a ``fleet_catalog`` fixture that points
``open_catalog`` at one of them the way an operator would: through the environment."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_servers import SeaweedFS, postgres, seaweedfs

from leakline.pipeline.core.config import ENV_CATALOG, ENV_S3_ENDPOINT, ENV_WAREHOUSE

REST_NAME = "seaweed"  # the REST catalog, by name (PYICEBERG_CATALOG__SEAWEED__…)
# start-up seconds per server, for the report at the end of the session
STARTUP: dict[str, float] = {}


@pytest.fixture(scope="session")
def postgres_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    started = time.perf_counter()
    with postgres(tmp_path_factory.mktemp("postgres")) as uri:
        STARTUP["postgresql"] = time.perf_counter() - started
        yield uri


@pytest.fixture(scope="session")
def object_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SeaweedFS]:
    started = time.perf_counter()
    with seaweedfs(tmp_path_factory.mktemp("seaweedfs")) as server:
        STARTUP["seaweedfs"] = time.perf_counter() - started
        yield server


@pytest.fixture(params=["postgresql+s3", "rest"])
def fleet_catalog(
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    object_store: SeaweedFS,
    tmp_path: Path,
) -> Iterator[str]:
    """The --catalog setting of a fleet catalog, with its environment set; the tables it
    held are dropped afterwards (the servers are shared by the session)."""
    if request.param == "rest":
        for key, value in object_store.rest_catalog_env(REST_NAME).items():
            monkeypatch.setenv(key, value)
        setting = REST_NAME
    else:
        uri = request.getfixturevalue("postgres_uri")
        # each test its own warehouse prefix: no file of another test is in the way
        monkeypatch.setenv(ENV_WAREHOUSE, f"s3://{object_store.bucket}/{request.node.name}")
        monkeypatch.setenv(ENV_S3_ENDPOINT, object_store.s3_endpoint)
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", object_store.access_key)
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", object_store.secret_key)
        setting = uri
    monkeypatch.setenv(ENV_CATALOG, setting)
    yield setting
    _drop_tables(tmp_path, setting)


def _drop_tables(data_dir: Path, setting: str) -> None:
    from leakline.pipeline.store.catalog import NAMESPACE, open_catalog

    catalog = open_catalog(data_dir, setting)
    for identifier in catalog.list_tables(NAMESPACE):
        catalog.purge_table(identifier)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if STARTUP:
        shown = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in STARTUP.items())
        terminalreporter.write_line(f"fleet servers started: {shown}")
