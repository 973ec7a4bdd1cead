"""Which Iceberg catalog holds the store, and where its warehouse is.

One setting, ``--catalog`` (``$LEAKLINE_CATALOG``), read the way pyiceberg users already
configure catalogs:

- unset or ``local``: pyiceberg's SQL catalog on SQLite, ``DATA_DIR/catalog.db``, with the
  warehouse beside it (``DATA_DIR/warehouse``). No server: the demo and the tests use it.
- a SQLAlchemy URI (``postgresql+psycopg://…``, ``sqlite:///…``): the SQL catalog there.
  The warehouse comes from ``$LEAKLINE_WAREHOUSE`` (``s3://bucket/prefix``, ``file:///…``),
  else ``DATA_DIR/warehouse``. An ``s3://`` warehouse takes its credentials from the
  standard ``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY`` / ``AWS_SESSION_TOKEN`` /
  ``AWS_REGION`` variables and its endpoint from ``$LEAKLINE_S3_ENDPOINT`` (else
  ``AWS_ENDPOINT_URL_S3`` / ``AWS_ENDPOINT_URL``; unset means AWS itself).
- any other word: a catalog of that name from ``.pyiceberg.yaml`` or
  ``PYICEBERG_CATALOG__<NAME>__…`` variables (a REST catalog, Glue, …), loaded by
  pyiceberg itself, with its own warehouse and credentials
  (``PYICEBERG_CATALOG__<NAME>__S3__ENDPOINT`` and so on): nothing of ours is added.

pyiceberg is imported here only when a catalog is opened: commands that never touch the
store keep their start-up time.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from leakline.pipeline.core.config import ENV_CATALOG, ENV_S3_ENDPOINT, ENV_WAREHOUSE
from leakline.pipeline.core.errors import LeaklineError

if TYPE_CHECKING:
    from pyiceberg.catalog import Catalog

LOCAL = "local"
NAMESPACE = "leakline"
CATALOG_FILE = "catalog.db"
WAREHOUSE_DIR = "warehouse"
# the name pyiceberg gives the SQL catalog: it is the catalog_name column of its tables
SQL_CATALOG_NAME = "leakline"
# pyiceberg asks AWS itself for a bucket's region when none is given: never right for an
# endpoint of ours (and this may have no route to AWS), so such a warehouse gets this one
DEFAULT_S3_REGION = "us-east-1"
# FileIO property <- the first of these variables that is set
S3_FROM_ENV: dict[str, tuple[str, ...]] = {
    "s3.endpoint": (ENV_S3_ENDPOINT, "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"),
    "s3.access-key-id": ("AWS_ACCESS_KEY_ID",),
    "s3.secret-access-key": ("AWS_SECRET_ACCESS_KEY",),
    "s3.session-token": ("AWS_SESSION_TOKEN",),
    "s3.region": ("AWS_REGION", "AWS_DEFAULT_REGION"),
}


def catalog_setting(value: str | None = None) -> str:
    """The ``--catalog`` value in effect: the flag, else ``$LEAKLINE_CATALOG``, else local."""
    return (value or os.environ.get(ENV_CATALOG) or LOCAL).strip()


def is_uri(setting: str) -> bool:
    return "://" in setting


def open_catalog(data_dir: Path, setting: str | None = None) -> Catalog:
    """The catalog that ``setting`` names, created on first use where it is ours (SQL)."""
    from pyiceberg.catalog import load_catalog

    chosen = catalog_setting(setting)
    try:
        if chosen == LOCAL or is_uri(chosen):
            warehouse = os.environ.get(ENV_WAREHOUSE) or _local_warehouse(data_dir)
            if chosen == LOCAL:
                data_dir.mkdir(parents=True, exist_ok=True)
                uri = f"sqlite:///{(data_dir / CATALOG_FILE).resolve()}"
            else:
                uri = chosen
            catalog = load_catalog(
                SQL_CATALOG_NAME,
                type="sql",
                uri=uri,
                warehouse=warehouse,
                **warehouse_io_properties(warehouse),
            )
        else:
            # read .pyiceberg.yaml and PYICEBERG_CATALOG__… now: pyiceberg's own copy is
            # taken at its import, before a test or an embedding program sets them
            from pyiceberg.utils.config import Config

            current = Config().get_catalog_config(chosen) or {}
            props = {key: value for key, value in current.items() if isinstance(value, str)}
            catalog = load_catalog(chosen, **props)
        catalog.create_namespace_if_not_exists(NAMESPACE)
    except LeaklineError:
        raise
    except Exception as exc:  # pyiceberg and its drivers raise many kinds: one clear message
        raise LeaklineError(
            f"cannot open the Iceberg catalog {_shown(chosen)!r}: {type(exc).__name__}: {exc}",
            hint="--catalog local (the default), a SQLAlchemy URI such as "
            "postgresql+psycopg://user@host/db, or the name of a catalog in .pyiceberg.yaml "
            "or PYICEBERG_CATALOG__<NAME>__URI",
        ) from exc
    return catalog


def warehouse_io_properties(warehouse: str) -> dict[str, str]:
    """pyiceberg FileIO properties for our own SQL catalog's warehouse: for ``s3://``, the
    endpoint and credentials from the environment (see the module doc); else none."""
    if not warehouse.startswith(("s3://", "s3a://")):
        return {}
    props: dict[str, str] = {}
    for prop, names in S3_FROM_ENV.items():
        value = next((os.environ[n] for n in names if os.environ.get(n)), None)
        if value:
            props[prop] = value
    if "s3.endpoint" in props:
        props.setdefault("s3.region", DEFAULT_S3_REGION)
    return props


def _local_warehouse(data_dir: Path) -> str:
    path = (data_dir / WAREHOUSE_DIR).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path.as_uri()


def _shown(setting: str) -> str:
    """A catalog setting without its password, for messages and logs."""
    if not is_uri(setting) or "@" not in setting:
        return setting
    scheme, rest = setting.split("://", 1)
    credentials, host = rest.rsplit("@", 1)
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in credentials else setting


def is_iceberg_store(data_dir: Path, setting: str | None = None) -> bool:
    """Whether the store at ``data_dir`` is Iceberg tables (a catalog is configured, or
    the local one exists) rather than the older Parquet layout of our own."""
    chosen = catalog_setting(setting)
    return chosen != LOCAL or (data_dir / CATALOG_FILE).exists()
