"""Which stored columns name a version. Kept free of heavy imports: the CLI loads it for `--help`."""

from __future__ import annotations

# version fields, in the order they are grouped by
VERSION_COLUMNS = (
    "engine_name",
    "engine_version",
    "model_name",
    "model_revision",
    "template_name",
    "template_hash",
    "reasoning_parser",
    "tool_call_parser",
    "gateway_name",
    "gateway_version",
)
# the version key of live stats and export strata (contract 3): these fields joined by "|"
VERSION_KEY_COLUMNS = (
    "engine_name",
    "engine_version",
    "model_name",
    "template_name",
    "reasoning_parser",
    "tool_call_parser",
)
