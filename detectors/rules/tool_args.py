"""``tool_args_invalid``: a structured tool call names an undeclared tool or has bad arguments."""

from __future__ import annotations

from typing import Any

from leakline.detectors import schema
from leakline.detectors.common import MAX_FINDINGS, DetectorBase
from leakline.detectors.exchange import Exchange, ToolCall
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.text import loads


class ToolArgs(DetectorBase):
    id = "tool_args"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        if not exchange.tool_calls:
            return []
        findings = []
        for index, call in enumerate(exchange.tool_calls[:MAX_FINDINGS]):
            problem = _problem(call, exchange.declared_tools)
            if problem is None:
                continue
            details: dict[str, Any] = {"index": index, "tool": call.name, **problem}
            if call.call_id is not None:
                details["call_id"] = call.call_id
            findings.append(
                self.finding(
                    Label.TOOL_ARGS_INVALID,
                    layer=Layer.MODEL,
                    remediation=Remediation.REGENERATE,
                    confidence=1.0,
                    evidence=_evidence(call, problem),
                    details=details,
                )
            )
        return findings


def _problem(call: ToolCall, declared: dict[str, Any]) -> dict[str, Any] | None:
    if declared and call.name not in declared:
        return {"reason": "unknown_tool", "declared": sorted(declared)[:20]}
    try:
        args = loads(call.arguments)
    except (ValueError, TypeError):
        return {"reason": "not_json"}
    if not isinstance(args, dict):
        return {"reason": "not_object", "type": type(args).__name__}
    violation = schema.check(declared.get(call.name or ""), args) if declared else None
    if violation is not None:
        return {"reason": "schema", "error": violation.message, "path": violation.path}
    return None


def _evidence(call: ToolCall, problem: dict[str, Any]) -> str:
    args = call.arguments if len(call.arguments) <= 120 else call.arguments[:120] + "…"
    reason = problem.get("error", problem["reason"])
    return f"{call.name}({args}): {reason}"
