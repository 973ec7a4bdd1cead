"""The streaming application around the detectors, one subpackage per subsystem.

Read the tree in the order data flows (``ARCHITECTURE.md`` has the picture):

- ``core``: one event from bytes to a stored row, plus shared plumbing (config, errors,
  Kafka helpers, the embedded broker, progress bars).
- ``simulate``: synthetic gateway traffic.
- ``ingest``: every door that puts events on ``gateway.events``.
- ``store``: the Parquet dataset and the DuckDB boundary.
- ``live``: what watches the stream while it flows (stats, dashboard, metrics, tail).
- ``worker``: the Faust worker and its delivery guarantees.
- ``curation``: from stored rows to reviewed training data and regression cases.
- ``gate``: replaying regression cases against a candidate engine, and the engine simulator.
- ``cli`` and ``demo``: assembly only; nothing imports them.

Importing this package is cheap; Faust, aiokafka, DuckDB and Arrow load only in the
modules that need them.
"""
