"""docker-compose.yml runs the store's fleet setup: an Iceberg SQL catalog on PostgreSQL
and the warehouse on SeaweedFS's S3, and its workers use them (issue 30).

docker is not available here: the compose file is read as YAML, and the worker's
environment is handed to the real ``warehouse_io_properties`` to show that the settings
reach pyiceberg as the object store expects them."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from test_compose_security import COMPOSE, VARIABLE, interpolate

from leakline.pipeline.core.config import ENV_S3_ENDPOINT, ENV_WAREHOUSE
from leakline.pipeline.store.catalog import warehouse_io_properties

SECRETS = {"LEAKLINE_CATALOG_PASSWORD": "pg-secret", "LEAKLINE_S3_SECRET": "s3-secret"}


def services() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())["services"]
    return loaded


def environment(service: dict[str, Any]) -> dict[str, str]:
    return {k: interpolate(str(v), SECRETS) for k, v in service["environment"].items()}


def flag(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def objectstore_flags() -> dict[str, str]:
    command = services()["objectstore"]["command"]
    return dict(arg.lstrip("-").split("=", 1) for arg in command if "=" in arg)


def test_the_worker_stores_iceberg_tables_in_the_postgresql_catalog() -> None:
    all_services = services()
    worker = all_services["worker"]
    assert flag(worker["command"], "--store") == "iceberg"
    uri = urlsplit(flag(worker["command"], "--catalog"))
    assert uri.scheme == "postgresql+psycopg"
    catalog = all_services["catalog"]
    assert uri.hostname == "catalog" and uri.port == 5432
    assert uri.password is None  # in no command line: libpq reads PGPASSWORD
    db_env = environment(catalog)
    assert uri.username == db_env["POSTGRES_USER"] and uri.path == f"/{db_env['POSTGRES_DB']}"
    assert environment(worker)["PGPASSWORD"] == db_env["POSTGRES_PASSWORD"] == "pg-secret"
    assert worker["depends_on"]["catalog"] == {"condition": "service_healthy"}
    assert "pg_isready" in " ".join(catalog["healthcheck"]["test"])


def test_the_worker_warehouse_is_the_object_store_bucket(monkeypatch: pytest.MonkeyPatch) -> None:
    all_services = services()
    worker_env = environment(all_services["worker"])
    store_env = environment(all_services["objectstore"])
    warehouse = urlsplit(worker_env[ENV_WAREHOUSE])
    assert warehouse.scheme == "s3"
    assert warehouse.hostname in objectstore_flags()["bucket"].split(",")  # made at start
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    for name, value in worker_env.items():
        monkeypatch.setenv(name, value)
    props = warehouse_io_properties(worker_env[ENV_WAREHOUSE])
    endpoint = urlsplit(props["s3.endpoint"])
    assert (endpoint.hostname, endpoint.port) == ("objectstore", 8333)
    assert worker_env[ENV_S3_ENDPOINT] == props["s3.endpoint"]
    # the worker signs in with the object store's one identity
    assert props["s3.access-key-id"] == store_env["AWS_ACCESS_KEY_ID"]
    assert props["s3.secret-access-key"] == store_env["AWS_SECRET_ACCESS_KEY"] == "s3-secret"
    assert all_services["worker"]["depends_on"]["objectstore"] == {"condition": "service_healthy"}


def test_the_catalog_and_object_store_are_not_published_and_keep_their_data() -> None:
    loaded = yaml.safe_load(COMPOSE.read_text())
    for name in ("catalog", "objectstore"):
        service = loaded["services"][name]
        assert not service.get("ports"), name
        volume = service["volumes"][0].split(":")[0]
        assert volume in loaded["volumes"], (name, volume)  # a named volume, kept across runs
    assert "-master.telemetry=false" in loaded["services"]["objectstore"]["command"]


def test_the_secrets_come_from_the_environment_only() -> None:
    text = COMPOSE.read_text()
    for name in SECRETS:
        uses = [m for m in VARIABLE.finditer(text) if m.group(1) == name]
        assert uses and all(":?" in m.group(0) for m in uses), name  # required, no default
