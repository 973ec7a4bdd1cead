"""What watches the stream while it flows.

Owns: ``stats`` (per-batch ``leak.stats`` records and their windowed sums), ``metrics``
(Prometheus), ``web`` (the dashboard and its routes) and ``tail`` / ``tail_view`` (the
terminal view over Kafka).

May import: ``pipeline.core``, ``leakline.detectors``.
"""
