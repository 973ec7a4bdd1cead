"""``empty_response``: a turn that ended with nothing in it.

No visible text (empty or whitespace only), no structured tool call, no reasoning, and a
finish that explains nothing (not ``length``: that is ``truncated``; not ``content_filter``:
the provider's filter decided). Stripped special tokens, a reasoning parser that swallowed
the whole reply, or a template that ends the turn at once all end this way; the usage
still bills the completion tokens, which the finding reports.
"""

from __future__ import annotations

from typing import Final

from leakline.detectors.common import DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source

# finishes that explain an empty reply by themselves
_EXPLAINED: Final = frozenset({"length", "content_filter"})


def _blank(text: str) -> bool:
    """``not text.strip()`` without copying the text."""
    return not text or text.isspace()


class EmptyResponse(DetectorBase):
    id = "empty_response"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        if not _blank(exchange.visible_text) or exchange.tool_calls:
            return []
        if not _blank(exchange.reasoning_text):
            return []  # the answer went into reasoning: final_in_reasoning
        if not _blank(exchange.commentary_text):
            return []  # Responses commentary the client hides: the turn did say something
        if exchange.finish_reason in _EXPLAINED or exchange.response_format is not None:
            return []  # truncated / filtered / structured_invalid say it already
        billed = exchange.completion_tokens
        if exchange.finish_reason is None and not billed:
            # no finish and nothing billed: no turn ended here (an error body such as
            # {"error": {...}} from a failed call, a cut stream); nothing to say
            return []
        return [
            self.finding(
                Label.EMPTY_RESPONSE,
                # something between the model and the API removed or never let out the
                # text: stripped tokens, a parser, or the template (diagnosis tells which)
                layer=Layer.PARSER,
                remediation=Remediation.REGENERATE,
                confidence=1.0 if billed else 0.9,
                evidence=(
                    f"no text, no tool call, no reasoning; finish "
                    f"{exchange.raw_finish_reason or exchange.finish_reason or 'unknown'}; "
                    f"{'unknown' if billed is None else billed} completion tokens billed"
                ),
                details={
                    "completion_tokens": billed,
                    "finish_reason": exchange.finish_reason,
                    "visible_chars": len(exchange.visible_text),
                },
            )
        ]
