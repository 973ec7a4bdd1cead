"""Which Iceberg catalog holds the store, and where its warehouse is.

One setting, ``--catalog`` (``$LEAKLINE_CATALOG``), read the way pyiceberg users already
configure catalogs:

- unset or ``local``: pyiceberg's SQL catalog on SQLite, ``DATA_DIR/catalog.db``, with the
  warehouse beside it (``DATA_DIR/warehouse``). No server: the demo and the tests use it.
- a SQLAlchemy URI (``postgresql+psycopg://…``, ``sqlite:///…``): the SQL catalog there.
  The warehouse comes from ``$LEAKLINE_WAREHOUSE`` (``s3://bucket/prefix``, ``file:///…``),
  else ``DATA_DIR/warehouse``.
- any other word: a catalog of that name from ``.pyiceberg.yaml`` or
  ``PYICEBERG_CATALOG__<NAME>__…`` variables (a REST catalog, Glue, …), loaded by
  pyiceberg itself, with its own warehouse and credentials.

pyiceberg is imported here only when a catalog is opened: commands that never touch the
store keep their start-up time.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from leakline.pipeline.core.config import ENV_CATALOG, ENV_WAREHOUSE
from leakline.pipeline.core.errors import LeaklineError

if TYPE_CHECKING:
    from pyiceberg.catalog import Catalog

LOCAL = "local"
NAMESPACE = "leakline"
CATALOG_FILE = "catalog.db"
WAREHOUSE_DIR = "warehouse"
# the name pyiceberg gives the SQL catalog: it is the catalog_name column of its tables
SQL_CATALOG_NAME = "leakline"


def catalog_setting(value: str | None = None) -> str:
    """The ``--catalog`` value in effect: the flag, else ``$LEAKLINE_CATALOG``, else local."""
    return (value or os.environ.get(ENV_CATALOG) or LOCAL).strip()


def is_uri(setting: str) -> bool:
    return "://" in setting


def open_catalog(data_dir: Path, setting: str | None = None) -> Catalog:
    """The catalog that ``setting`` names, created on first use where it is ours (SQL)."""
    from pyiceberg.catalog import load_catalog

    chosen = catalog_setting(setting)
    warehouse = os.environ.get(ENV_WAREHOUSE) or _local_warehouse(data_dir)
    try:
        if chosen == LOCAL:
            data_dir.mkdir(parents=True, exist_ok=True)
            uri = f"sqlite:///{(data_dir / CATALOG_FILE).resolve()}"
            catalog = load_catalog(SQL_CATALOG_NAME, type="sql", uri=uri, warehouse=warehouse)
        elif is_uri(chosen):
            catalog = load_catalog(SQL_CATALOG_NAME, type="sql", uri=chosen, warehouse=warehouse)
        else:
            catalog = load_catalog(chosen)
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
