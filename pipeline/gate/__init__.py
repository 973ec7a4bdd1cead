"""Gating an engine upgrade: replay regression cases against a candidate and compare rates.

Owns: ``run`` (``leakline gate``), ``cases`` (the cases and their request variants),
``replay`` (one request through the official SDK), ``rates`` (baselines and the
comparison), ``report`` (the matrix and verdict) and ``engine`` (``leakline engine-sim``,
a test double of an engine that fakes its failure modes).

May import: ``pipeline.core``, ``pipeline.store``, ``pipeline.ingest`` (the event builder),
``leakline.detectors``.
"""
