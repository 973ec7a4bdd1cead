"""Rule detectors: exact checks over family tables, JSON (Schema) and API facts.

Importing this package registers the rules, in this order (cheapest and most
certain first).
"""

from detectors.base import register
from detectors.rules.api_contract import ApiContract
from detectors.rules.boundary_tokens import BoundaryTokens
from detectors.rules.finish_reason import FinishReason
from detectors.rules.structured_output import StructuredOutput
from detectors.rules.tool_args import ToolArgs
from detectors.rules.tool_call_text import ToolCallText

RULES = (
    BoundaryTokens(),
    ToolCallText(),
    ToolArgs(),
    StructuredOutput(),
    FinishReason(),
    ApiContract(),
)

for _rule in RULES:
    register(_rule)

__all__ = [
    "RULES",
    "ApiContract",
    "BoundaryTokens",
    "FinishReason",
    "StructuredOutput",
    "ToolArgs",
    "ToolCallText",
]
