"""The storage boundary: the hive-partitioned Parquet dataset and the DuckDB views over it.

Owns: ``layout`` (where samples live, file names; no pyarrow), ``sink`` (batches -> Parquet
parts, never clashing between workers), ``database`` (views, macros, the queries the CLI
runs, read-only opening), ``compact``, ``quarantine``, ``reviews`` (reviewed labels beside
the samples), ``report`` (tables, JSON, CSV), ``compare`` and ``history``, and the
``rates`` and ``sql`` commands.

May import: ``pipeline.core``, ``leakline.detectors``.
"""
