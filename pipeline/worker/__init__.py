"""The Faust worker and its delivery guarantees.

Owns: ``app`` (the Faust app and agent: gateway.events -> process -> store + leak.samples,
flush before commit), ``faust_transport`` (batched fetching), ``offload`` (batch work in
child processes), ``dlq`` / ``dead_letters`` (the dead-letter ledger and reader) and the
``worker`` and ``dlq`` commands.

May import: ``pipeline.core``, ``pipeline.store``, ``pipeline.live``, ``pipeline.ingest``
(the worker serves ``POST /ingest``), ``leakline.detectors``, ``leakline.models.registry``.
"""
