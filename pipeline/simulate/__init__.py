"""Synthetic gateway traffic: what ``leakline simulate``, the demo, the tests and the
benchmarks send.

Owns: ``traffic_model`` (the event stream: ``Mix``, ``simulate``, payloads and malformed
cases; what callers import), ``fleet`` (the deployments: engines, versions and families,
with their leak profiles), ``scenarios`` (what each event is designed to show, and its
labels), ``plan`` (one event's context and response plan), ``writers`` (request, response
and stream bodies of the three APIs), ``topics`` (tools, schemas and values per topic),
``texts`` (the en/ko/zh text banks) and ``draws`` (the seeded random draws).

May import: ``pipeline.core``.
"""
