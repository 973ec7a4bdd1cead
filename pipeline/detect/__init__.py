"""``leakline detect``: the event path and the imported families over JSONL, offline.

Owns: ``offline`` (events or texts from a file -> verdicts, no Kafka, no store) and the
command (``commands``).

May import: ``pipeline.core``, ``pipeline.events``, ``pipeline.families``,
``leakline.detectors``, ``leakline.models.registry``.
"""
