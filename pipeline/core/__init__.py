"""One event from bytes to a stored row, plus the plumbing every subsystem shares.

Owns: the event contract (``contract``, the JSON Schema in ``pipeline/schemas/``),
``normalise`` (event -> ``Exchange``), ``request_config`` (the request's thinking, tools
strictness and sampling as stored dimensions, and the history it carries), ``process`` (a batch of records -> rows, samples and
dead letters), ``rows`` (the one stored schema), ``redact``, ``versions``, and the offline
``detect`` command. Shared plumbing: ``config``, ``errors``, ``command`` (CLI helpers),
``kafka_io``, ``broker`` (embedded Tansu), ``progress``, ``gc_pause``, ``procinfo``,
``failpoints``, ``lang``.

May import: ``leakline.detectors`` and ``leakline.models.registry`` (the classifier's loading
interface). Never another ``pipeline`` subpackage: everything else builds on this one.
"""
