"""Sources of the hand-made labeled corpus (see ``tests/corpus/README.md``).

``shapes`` builds gateway events for the three APIs, ``profiles`` holds the
model/engine/parser rows, ``tools`` the declared tools and output schemas, and
``cases_*`` the hand-written cases, one module per theme.
"""
