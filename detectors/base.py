"""The detector interface, the registry, and the function that runs them in order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from detectors.diagnosis import diagnose
from detectors.exchange import Exchange
from detectors.finding import Finding
from detectors.labels import Source


@runtime_checkable
class Detector(Protocol):
    """A detector has a stable id and version and returns findings for one exchange.

    ``detect`` must never raise on odd model output: bad output is what it measures.
    """

    id: ClassVar[str]
    version: ClassVar[str]
    source: ClassVar[Source]

    def detect(self, exchange: Exchange) -> list[Finding]: ...


class UnknownDetectorError(KeyError):
    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__(f"unknown detector {name!r}; known detectors: {', '.join(sorted(known))}")


_REGISTRY: dict[str, Detector] = {}


def register(detector: Detector) -> Detector:
    """Add a detector instance to the registry under its id (ids are unique)."""
    if detector.id in _REGISTRY:
        raise ValueError(f"detector id {detector.id!r} registered twice")
    _REGISTRY[detector.id] = detector
    return detector


def registered() -> dict[str, Detector]:
    """All registered detectors in registration order (cheapest tier first)."""
    return dict(zip((d.id for d in default_detectors()), default_detectors(), strict=True))


_defaults: tuple[Detector, ...] | None = None


def default_detectors() -> tuple[Detector, ...]:
    """The built-in detectors plus any registered since, in registration order."""
    global _defaults
    _load_builtin()
    if _defaults is None or len(_defaults) != len(_REGISTRY):
        _defaults = tuple(_REGISTRY.values())
    return _defaults


def get_detector(name: str) -> Detector:
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownDetectorError(name, _REGISTRY) from None


def _load_builtin() -> None:
    # Importing the packages registers their detectors: rules first, then heuristics.
    import detectors.heuristics  # noqa: F401, I001
    import detectors.rules  # noqa: F401


@dataclass(frozen=True, slots=True)
class Verdict:
    """All findings for one exchange, plus the sorted distinct labels."""

    event_id: str
    labels: tuple[str, ...]
    findings: tuple[Finding, ...]
    detector_versions: dict[str, str]

    @property
    def leaking(self) -> bool:
        return bool(self.labels)

    def to_dict(self) -> dict[str, object]:
        return {
            "event_id": self.event_id,
            "labels": list(self.labels),
            "findings": [f.to_dict() for f in self.findings],
        }


def run_detectors(exchange: Exchange, detectors: Sequence[Detector] | None = None) -> Verdict:
    """Run detectors in order and merge their findings into one verdict."""
    chosen = default_detectors() if detectors is None else detectors
    findings: list[Finding] = []
    for detector in chosen:
        findings.extend(detector.detect(exchange))
    # point each finding at the layer the evidence and the event's metadata implicate
    findings = diagnose(exchange, findings)
    labels = tuple(sorted({f.label for f in findings}))
    versions = {d.id: d.version for d in chosen}
    return Verdict(exchange.event_id, labels, tuple(findings), versions)
