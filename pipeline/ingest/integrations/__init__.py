"""Ready-made producers for gateway ecosystems (OpenTelemetry; LiteLLM's is ``leakline.client.litellm``)."""
