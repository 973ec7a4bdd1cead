"""Plumbing shared by the built-in detectors: stamping findings with the detector's identity."""

from __future__ import annotations

from typing import Any, ClassVar

from leakline.detectors.finding import _SETTERS, Finding, new_finding
from leakline.detectors.finding import FINDING_FIELDS as _FINDING_FIELDS
from leakline.detectors.labels import Label, Layer, Remediation, Source

# A response can repeat a token thousands of times; one finding per occurrence is
# useful only up to a point.
MAX_FINDINGS = 64

_LABEL_VALUES: dict[Label, str] = {label: label.value for label in Label}
# The fast Finding construction lives with Finding; the detectors (and the test that
# compares it with the constructor) reach it through here.
__all__ = ["MAX_FINDINGS", "_FINDING_FIELDS", "_SETTERS", "DetectorBase", "new_finding"]


def _snippet(text: str, span: tuple[int, int]) -> str:
    """``evidence_snippet(text, *span)`` with its defaults, inlined (it runs per finding)."""
    start, end = span
    lo = start - 24 if start > 24 else 0
    hi = end + 24
    tail = "" if hi >= len(text) else "…"
    # never copy more than the 161 characters that decide the snippet (a span can
    # cover a whole long reasoning region)
    snippet = text[lo : min(hi, lo + 161)]
    if len(snippet) > 160:
        snippet = snippet[:160] + "…"
    return ("…" + snippet if lo else snippet) + tail


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
            evidence = _snippet(text, span) if span is not None else ""
        # Positional and without the enum's ``.value`` descriptor: this runs once per
        # finding, and a response with many tokens makes many findings.
        return new_finding(
            _LABEL_VALUES[label],
            self.id,
            self.version,
            self.source,
            layer,
            remediation,
            confidence,
            evidence,
            span,
            details if details is not None else {},
        )

    def span_finding(
        self,
        label: str,
        layer: Layer,
        remediation: Remediation,
        confidence: float,
        text: str,
        start: int,
        end: int,
        details: dict[str, Any],
    ) -> Finding:
        """``finding(...)`` for a span of ``text``, positional: for loops over many hits."""
        return new_finding(
            label,
            self.id,
            self.version,
            self.source,
            layer,
            remediation,
            confidence,
            _snippet(text, (start, end)),
            (start, end),
            details,
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} v{self.version}>"
