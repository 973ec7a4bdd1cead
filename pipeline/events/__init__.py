"""Where an event becomes a row: bytes -> event -> ``Exchange`` -> verdict -> stored row.

Owns: the event contract (``contract``, the JSON Schema in ``pipeline/schemas/``),
``normalise`` (event -> ``Exchange``), ``request_config`` (the request's thinking, tool
strictness and sampling as stored dimensions, and the history it carries), ``process`` (a
batch of records -> rows, samples and dead letters), ``rows`` (the one stored schema),
``origin`` (where a record came from), ``redact`` and ``safe_logging`` (log records that
never carry an event), ``versions``, ``lang``, ``memo``.

May import: ``pipeline.core``, ``leakline.client``, ``leakline.detectors``.
"""
