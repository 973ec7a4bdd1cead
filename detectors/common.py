"""Plumbing shared by the built-in detectors: stamping findings with the detector's identity."""

from __future__ import annotations

from typing import Any, ClassVar

from detectors.finding import Finding, evidence_snippet
from detectors.labels import Label, Layer, Remediation, Source

# A response can repeat a token thousands of times; one finding per occurrence is
# useful only up to a point.
MAX_FINDINGS = 64


class DetectorBase:
    """Base for built-in detectors. Subclasses set ``id``, ``source`` and implement ``detect``."""

    id: ClassVar[str]
    version: ClassVar[str] = "1"
    source: ClassVar[Source]

    def finding(
        self,
        label: Label,
        *,
        layer: Layer,
        remediation: Remediation,
        confidence: float,
        text: str = "",
        span: tuple[int, int] | None = None,
        evidence: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> Finding:
        """A finding from this detector; evidence defaults to a snippet of ``text`` at ``span``."""
        if evidence is None:
            evidence = evidence_snippet(text, span[0], span[1]) if span is not None else ""
        return Finding(
            label=label.value,
            detector_id=self.id,
            detector_version=self.version,
            source=self.source,
            layer=layer,
            remediation=remediation,
            confidence=confidence,
            evidence=evidence,
            span=span,
            details=details or {},
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} v{self.version}>"
