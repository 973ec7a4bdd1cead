"""``leakline engine-sim``: an OpenAI/Anthropic-compatible test double of an LLM engine.

Owns: ``profiles`` (one row per failure mode), ``gen`` (what a request "generates"),
``wire`` (rendering for the three APIs), ``server`` (aiohttp routes, SSE) and ``sim`` (the
command and ``spawn_engine_sim`` for tests).
"""
