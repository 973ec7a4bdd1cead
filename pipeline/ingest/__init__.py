"""Every door that puts events on ``gateway.events``.

Owns: ``producer`` (the library a gateway embeds: event builder, version metadata, sender),
``integrations`` (the LiteLLM callback, OpenTelemetry spans), ``http`` (``POST /ingest``),
``traffic`` (``leakline replay`` and ``leakline simulate``) and their ``commands``.

May import: ``pipeline.core``, ``pipeline.simulate``.
"""
