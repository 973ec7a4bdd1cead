"""What every leakline HTTP server applies before a handler runs.

Owns: ``auth`` (tokens, read/write split, Host checks against DNS rebinding) and ``guard``
(the connection cap and header timeout of ``core.http_limits``, applied to aiohttp).

May import: ``pipeline.core``.
"""
