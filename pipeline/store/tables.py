"""The store's Iceberg tables: created on first use, evolved when the stored schema grows.

The samples table is ``SAMPLE_SCHEMA`` (``pipeline/events/rows.py``) with Iceberg field
ids, partitioned by the day of ``ts``. A column added to ``SAMPLE_SCHEMA`` becomes a
schema-evolution commit (``union_by_name``): rows written before it read the new column
as null, and no file is rewritten.

Every table turns pyiceberg's own commit retries off: a commit of ours carries the Kafka
offsets it covers and must be checked against the table again before it is retried
(``offsets.commit_fenced``), which pyiceberg's blind retry would skip.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyarrow as pa

from leakline.pipeline.events.rows import SAMPLE_SCHEMA
from leakline.pipeline.store.catalog import NAMESPACE

if TYPE_CHECKING:
    from pyiceberg.catalog import Catalog
    from pyiceberg.table import Table

SAMPLES = f"{NAMESPACE}.samples"
DAY_FIELD = "ts_day"
TABLE_PROPERTIES = {
    "format-version": "2",
    "commit.retry.num-retries": "0",  # we retry, after checking the fence again
    "write.parquet.compression-codec": "zstd",
}


def samples_table(catalog: Catalog) -> Table:
    """The samples table, created (partitioned by day of ``ts``) or evolved as needed."""
    return ensure_table(catalog, SAMPLES, SAMPLE_SCHEMA, day_of="ts")


def ensure_table(
    catalog: Catalog, identifier: str, schema: pa.Schema, day_of: str | None = None
) -> Table:
    """Load ``identifier``, creating it from ``schema`` (and a day partition on ``day_of``)
    when absent, and adding the columns ``schema`` has that the table lacks."""
    from pyiceberg.exceptions import NoSuchTableError, TableAlreadyExistsError

    try:
        table = catalog.load_table(identifier)
    except NoSuchTableError:
        try:
            table = _create(catalog, identifier, schema, day_of)
        except TableAlreadyExistsError:  # another worker created it first
            table = catalog.load_table(identifier)
    have = {f.name for f in table.schema().fields}
    missing = [f.name for f in schema if f.name not in have]
    if missing:
        _evolve(table, schema)
        table = catalog.load_table(identifier)
    return table


def _create(catalog: Catalog, identifier: str, schema: pa.Schema, day_of: str | None) -> Table:
    from pyiceberg.transforms import DayTransform

    tx = catalog.create_table_transaction(identifier, schema=schema, properties=TABLE_PROPERTIES)
    if day_of is not None:
        with tx.update_spec() as spec:
            spec.add_field(day_of, DayTransform(), DAY_FIELD)
    tx.commit_transaction()
    return catalog.load_table(identifier)


def _evolve(table: Table, schema: pa.Schema) -> None:
    """Add the new columns; a concurrent evolution by another worker is as good as ours."""
    from pyiceberg.exceptions import CommitFailedException

    try:
        with table.update_schema() as update:
            update.union_by_name(schema)
    except CommitFailedException:
        table.refresh()
        if any(f.name not in {g.name for g in table.schema().fields} for f in schema):
            raise
