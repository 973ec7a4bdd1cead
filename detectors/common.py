"""Plumbing shared by the built-in detectors: stamping findings with the detector's identity."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, ClassVar

from detectors.finding import Finding
from detectors.labels import Label, Layer, Remediation, Source

# A response can repeat a token thousands of times; one finding per occurrence is
# useful only up to a point.
MAX_FINDINGS = 64

_LABEL_VALUES: dict[Label, str] = {label: label.value for label in Label}

# Finding is a frozen, slotted dataclass: its generated __init__ sets each of its ten
# fields through object.__setattr__, ~2 µs per finding. Writing the slots through their
# descriptors is equivalent and about three times faster. Used only while the fields
# are exactly these (tests/detectors/test_robustness.py compares both constructions).
_FINDING_FIELDS = (
    "label",
    "detector_id",
    "detector_version",
    "source",
    "layer",
    "remediation",
    "confidence",
    "evidence",
    "span",
    "details",
)


def _slot_setters() -> tuple[Any, ...] | None:
    if tuple(f.name for f in fields(Finding)) != _FINDING_FIELDS:
        return None
    if getattr(Finding, "__post_init__", None) is not None:
        return None
    setters = tuple(
        getattr(Finding.__dict__.get(name), "__set__", None) for name in _FINDING_FIELDS
    )
    return None if any(s is None for s in setters) else setters


_SETTERS = _slot_setters()


def new_finding(
    label: str,
    detector_id: str,
    detector_version: str,
    source: Source,
    layer: Layer,
    remediation: Remediation,
    confidence: float,
    evidence: str,
    span: tuple[int, int] | None,
    details: dict[str, Any],
) -> Finding:
    """``Finding(...)`` with all ten fields given positionally, built the fast way."""
    if _SETTERS is None:
        return Finding(
            label,
            detector_id,
            detector_version,
            source,
            layer,
            remediation,
            confidence,
            evidence,
            span,
            details,
        )
    made = object.__new__(Finding)
    s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 = _SETTERS
    s0(made, label)
    s1(made, detector_id)
    s2(made, detector_version)
    s3(made, source)
    s4(made, layer)
    s5(made, remediation)
    s6(made, confidence)
    s7(made, evidence)
    s8(made, span)
    s9(made, details)
    return made


def _snippet(text: str, span: tuple[int, int]) -> str:
    """``evidence_snippet(text, *span)`` with its defaults, inlined (it runs per finding)."""
    start, end = span
    lo = start - 24 if start > 24 else 0
    hi = end + 24
    if hi >= len(text):
        snippet = text[lo:]
        tail = ""
    else:
        snippet = text[lo:hi]
        tail = "…"
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
