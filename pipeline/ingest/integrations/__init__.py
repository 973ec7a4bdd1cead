"""Ready-made producers for gateway ecosystems (LiteLLM, OpenTelemetry)."""
