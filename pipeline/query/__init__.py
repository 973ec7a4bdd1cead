"""What every reader of samples shares, stored or streamed.

Owns: ``filters`` (the one filter grammar of the CLI and the dashboard) and ``stats`` (the
statistics behind every rate: intervals, tests, plain Python).

May import: ``pipeline.core``.
"""
