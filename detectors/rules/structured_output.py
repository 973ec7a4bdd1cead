"""``structured_invalid``: JSON output was requested and the visible text is not one valid value."""

from __future__ import annotations

from typing import Any

from leakline.detectors import schema
from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange, ResponseFormat
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.structured_fields import loads_visible
from leakline.detectors.text import find_json_value, loads, unwrap_fence

_KINDS = frozenset({"json_object", "json_schema"})
_FENCE_MARKS = ("```", "~~~")


class StructuredOutput(DetectorBase):
    id = "structured_output"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        fmt = exchange.response_format
        if fmt is None or fmt.kind not in _KINDS or exchange.tool_calls:
            return []
        text = exchange.visible_text
        if not text or text.isspace():
            return [self._invalid(text, "empty", Layer.PARSER, None, fmt)]
        try:
            value = loads_visible(text)
        except ValueError:
            return [self._unparsed(text, fmt)]
        problem = _shape_problem(value, fmt)
        if problem is None:
            return []
        reason, message = problem
        return [self._invalid(text, reason, Layer.MODEL, message, fmt)]

    def _unparsed(self, text: str, fmt: ResponseFormat) -> Finding:
        """Not one JSON value: say whether a fence or extra prose is all that is wrong."""
        inner = unwrap_fence(text)
        if inner is not None:
            reason, candidate = "fenced", inner
        else:
            found = find_json_value(text)
            fenced = any(mark in text for mark in _FENCE_MARKS)
            if found is None:
                reason, candidate = "not_json", None
            else:
                reason, candidate = (
                    ("fenced" if fenced else "prefix_text"),
                    text[found[0] : found[1]],
                )
        extra: dict[str, Any] = {}
        if candidate is not None:
            try:
                value = loads(candidate)
            except ValueError:
                extra["extracted_valid"] = False
            else:
                extra["extracted_valid"] = _shape_problem(value, fmt) is None
        return self._invalid(text, reason, Layer.PARSER, None, fmt, extra)

    def _invalid(
        self,
        text: str,
        reason: str,
        layer: Layer,
        message: str | None,
        fmt: ResponseFormat,
        extra: dict[str, Any] | None = None,
    ) -> Finding:
        details: dict[str, Any] = {"reason": reason, "kind": fmt.kind}
        if message is not None:
            details["error"] = message
        details.update(extra or {})
        span = (0, len(text)) if text else None
        return self.finding(
            Label.STRUCTURED_INVALID,
            layer=layer,
            remediation=Remediation.REGENERATE,
            confidence=1.0,
            text=text,
            span=span,
            evidence=None if span else f"empty content ({reason})",
            details=details,
        )


def _shape_problem(value: Any, fmt: ResponseFormat) -> tuple[str, str] | None:
    if fmt.kind == "json_object" and not isinstance(value, dict):
        return "not_object", f"expected a JSON object, got {type(value).__name__}"
    if fmt.kind == "json_schema" and fmt.schema is not None:
        violation = schema.check(fmt.schema, value)
        if violation is not None:
            where = f" at {violation.path}" if violation.path else ""
            return "schema", violation.message + where
    return None
