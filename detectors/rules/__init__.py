"""Rule detectors: exact checks over family tables, JSON (Schema) and API facts.

Importing this package registers the rules, in this order (cheapest and most
certain first).
"""

from leakline.detectors.base import register
from leakline.detectors.rules.api_contract import ApiContract
from leakline.detectors.rules.boundary_tokens import BoundaryTokens
from leakline.detectors.rules.empty_response import EmptyResponse
from leakline.detectors.rules.finish_reason import FinishReason
from leakline.detectors.rules.generic_tokens import GenericTokens
from leakline.detectors.rules.generic_tool_calls import GenericToolCalls
from leakline.detectors.rules.reasoning_history import ReasoningHistory
from leakline.detectors.rules.reasoning_slots import ReasoningSlots
from leakline.detectors.rules.role_header import RoleHeader
from leakline.detectors.rules.runaway_turn import RunawayTurn
from leakline.detectors.rules.structured_output import StructuredOutput
from leakline.detectors.rules.tool_args import ToolArgs
from leakline.detectors.rules.tool_call_text import ToolCallText

RULES = (
    BoundaryTokens(),
    GenericTokens(),
    RoleHeader(),
    ToolCallText(),
    GenericToolCalls(),
    ToolArgs(),
    StructuredOutput(),
    ReasoningSlots(),
    ReasoningHistory(),
    FinishReason(),
    EmptyResponse(),
    ApiContract(),
    RunawayTurn(),
)

for _rule in RULES:
    register(_rule)

__all__ = [
    "RULES",
    "ApiContract",
    "BoundaryTokens",
    "EmptyResponse",
    "FinishReason",
    "GenericTokens",
    "GenericToolCalls",
    "ReasoningHistory",
    "ReasoningSlots",
    "RoleHeader",
    "RunawayTurn",
    "StructuredOutput",
    "ToolArgs",
    "ToolCallText",
]
