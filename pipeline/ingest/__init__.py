"""Every door that puts events on ``gateway.events``.

Owns: ``integrations`` (OpenTelemetry spans, the collector relay), ``http`` (``POST
/ingest``), ``otlp`` (``POST /v1/traces``, OTLP/HTTP), ``traffic`` (``leakline replay`` and
``leakline simulate``) and their commands (``commands``, ``otlp_commands``). The library a
gateway embeds (event builder, version metadata, sender, the LiteLLM callback) is
``leakline.client``, its own distribution (``client/``).

May import: ``client``, ``pipeline.core``, ``pipeline.simulate``.
"""
