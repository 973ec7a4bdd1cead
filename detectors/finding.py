"""The one result type every detector returns."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from leakline.detectors.labels import Layer, Remediation, Source


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
        return new_finding(
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


def slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Any, ...] | None:
    """The slot descriptors' ``__set__`` of a frozen, slotted dataclass, in field order.

    A frozen dataclass's generated ``__init__`` sets each field through
    ``object.__setattr__`` (~0.2 µs a field); writing the slots through their
    descriptors, on an instance made by ``cls.__new__(cls)``, is equivalent and about
    three times faster. That holds for the compiled build too: mypyc compiles the class,
    but ``dataclass`` still generates its ``__init__`` as Python (an ``Exchange`` took
    ~2.5 µs to construct there), while the attributes' descriptors are C. None when
    ``cls`` no longer has exactly the fields ``names`` or has a ``__post_init__``:
    callers then use the constructor (``tests/detectors/test_common.py`` compares both
    constructions, and the slow native-build test runs it compiled).
    """
    if tuple(f.name for f in fields(cls)) != names:
        return None
    if getattr(cls, "__post_init__", None) is not None:
        return None
    setters = tuple(getattr(cls.__dict__.get(name), "__set__", None) for name in names)
    return None if any(s is None for s in setters) else setters


FINDING_FIELDS = (
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
_SETTERS = slot_setters(Finding, FINDING_FIELDS)


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
    """``Finding(...)`` with all ten fields given positionally, built the fast way.

    Runs once per finding, and a response with many tokens makes many findings.
    """
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
    made = Finding.__new__(Finding)
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


def evidence_snippet(text: str, start: int, end: int, context: int = 24, limit: int = 160) -> str:
    """A short excerpt around ``text[start:end]`` for humans reading a finding."""
    lo = max(0, start - context)
    hi = min(len(text), end + context)
    snippet = text[lo:hi]
    if len(snippet) > limit:
        snippet = snippet[:limit] + "…"
    return ("…" if lo > 0 else "") + snippet + ("…" if hi < len(text) else "")
