"""The one result type every detector returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from detectors.labels import Layer, Remediation, Source


@dataclass(frozen=True, slots=True)
class Finding:
    """One piece of evidence that a response broke an output boundary.

    ``span`` is a half-open ``(start, end)`` character range in the exchange's
    ``visible_text``; it is ``None`` when the finding is not about visible text
    (for example ``truncated`` or ``mixed_chunk``).
    """

    label: str
    detector_id: str
    detector_version: str
    source: Source
    layer: Layer
    remediation: Remediation
    confidence: float
    evidence: str
    span: tuple[int, int] | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def evolve(self, *, layer: Layer, details: dict[str, Any]) -> Finding:
        """A copy with another layer and details (cheaper than dataclasses.replace)."""
        return Finding(
            self.label,
            self.detector_id,
            self.detector_version,
            self.source,
            self.layer if layer is None else layer,
            self.remediation,
            self.confidence,
            self.evidence,
            self.span,
            details,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "detector_id": self.detector_id,
            "detector_version": self.detector_version,
            "source": self.source.value,
            "layer": self.layer.value,
            "remediation": self.remediation.value,
            "confidence": round(self.confidence, 4),
            "evidence": self.evidence,
            "span": list(self.span) if self.span is not None else None,
            "details": self.details,
        }


def evidence_snippet(text: str, start: int, end: int, context: int = 24, limit: int = 160) -> str:
    """A short excerpt around ``text[start:end]`` for humans reading a finding."""
    lo = max(0, start - context)
    hi = min(len(text), end + context)
    snippet = text[lo:hi]
    if len(snippet) > limit:
        snippet = snippet[:limit] + "…"
    return ("…" if lo > 0 else "") + snippet + ("…" if hi < len(text) else "")
