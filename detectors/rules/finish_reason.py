"""``truncated`` and ``final_in_reasoning``: what the finish reason and the field contents say."""

from __future__ import annotations

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source


def _blank(text: str) -> bool:
    """``not text.strip()`` without copying the text."""
    return not text or text.isspace()


# Finishes where empty content is explained by something other than a parser mismatch.
_NOT_A_MISMATCH = frozenset({"length", "content_filter", "tool_calls"})


class FinishReason(DetectorBase):
    id = "finish_reason"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        finish = exchange.finish_reason
        if finish == "length":
            return [self._truncated(exchange)]
        if (
            finish not in _NOT_A_MISMATCH
            and not exchange.tool_calls
            and _blank(exchange.visible_text)
            and not _blank(exchange.reasoning_text)
        ):
            return [self._final_in_reasoning(exchange)]
        return []

    def _truncated(self, exchange: Exchange) -> Finding:
        empty = _blank(exchange.visible_text)
        reasoning_chars = len(exchange.reasoning_text)
        return self.finding(
            Label.TRUNCATED,
            # The output budget ran out: a request/API-level limit, not a parsing fault.
            layer=Layer.API,
            remediation=Remediation.REGENERATE,
            confidence=1.0,
            evidence=(
                f"finish_reason=length ({exchange.raw_finish_reason or 'length'}); "
                f"{len(exchange.visible_text)} visible chars, {reasoning_chars} reasoning chars"
            ),
            details={
                "raw_finish_reason": exchange.raw_finish_reason,
                "empty_content": empty,
                "in_reasoning": empty and reasoning_chars > 0,
                "visible_chars": len(exchange.visible_text),
                "reasoning_chars": reasoning_chars,
            },
        )

    def _final_in_reasoning(self, exchange: Exchange) -> Finding:
        tail = exchange.reasoning_text.strip()[-120:]
        return self.finding(
            Label.FINAL_IN_REASONING,
            layer=Layer.PARSER,
            # Serve the reasoning field as the answer (what a matching parser would have done).
            remediation=Remediation.FALLBACK,
            confidence=0.9,
            evidence=f"content empty; {exchange.reasoning_field or 'reasoning'} ends: …{tail}",
            details={
                "reasoning_field": exchange.reasoning_field,
                "reasoning_chars": len(exchange.reasoning_text),
                "finish_reason": exchange.finish_reason,
                "action": "move_reasoning_to_content",
            },
        )
