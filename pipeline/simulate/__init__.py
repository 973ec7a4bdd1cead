"""Synthetic gateway traffic: what ``leakline simulate``, the demo, the tests and the
benchmarks send.

Owns: ``traffic_model`` (the fleet of engines, versions and families, the leak mix and the
events it yields) and ``texts`` (the en/ko/zh text banks it draws from).

May import: ``pipeline.core``.
"""
