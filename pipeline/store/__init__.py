"""The storage boundary: the samples as Iceberg tables (opt-in this release) or the older
hive-partitioned Parquet layout, and the DuckDB views every reader queries.

Owns: the Iceberg side, ``catalog`` (which catalog and warehouse), ``tables`` (schema,
partitions, evolution), ``offsets`` (commits that carry their Kafka offsets, and the fence),
``snapshot`` (one snapshot's files as the views), ``migrate`` (the old layout into the
table); the Parquet side, ``layout`` (where samples live, file names; no pyarrow), ``sink``
(batches -> Parquet parts, never clashing between workers), ``compact``, ``quarantine``;
and for both, ``database`` (views, macros, the queries the CLI runs, read-only opening),
``reviews`` (reviewed labels beside the samples), ``report`` (tables, JSON, CSV),
``compare`` and ``history``, and the ``rates``, ``sql`` and ``store`` commands.

May import: ``pipeline.core``, ``pipeline.events``, ``pipeline.query``, ``leakline.detectors``.
"""
