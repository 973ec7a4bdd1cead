"""Where Kafka is touched outside Faust: topics, producing, the embedded broker.

Owns: ``io`` (topic creation, batched producing with retries, TLS/SASL, idempotence),
``broker`` (the embedded Tansu broker for dev, tests and the demo).

May import: ``pipeline.core``, ``leakline.client``.
"""
