"""The storage boundary: the hive-partitioned Parquet dataset and the DuckDB views over it.

Owns: ``sink`` (batches -> Parquet parts, never clashing between workers), ``database``
(views, macros, the queries the CLI runs, read-only opening), ``compact``, ``reviews``
(reviewed labels beside the samples), ``report`` (tables, JSON, CSV) and ``leakline rates``.

May import: ``pipeline.core``, ``leakline.detectors``.
"""
