"""The detector interface, the registry, and the function that runs them in order."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import perf_counter

from leakline.detectors import budget
from leakline.detectors.diagnosis import diagnose
from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding, slot_setters
from leakline.detectors.interface import Detector, UnknownDetectorError
from leakline.detectors.labels import Source

_REGISTRY: dict[str, Detector] = {}


def register(detector: Detector) -> Detector:
    """Add a detector instance to the registry under its id (ids are unique)."""
    global _plan
    if detector.id in _REGISTRY:
        raise ValueError(f"detector id {detector.id!r} registered twice")
    _REGISTRY[detector.id] = detector
    _plan = None
    return detector


def registered() -> dict[str, Detector]:
    """All registered detectors in registration order (cheapest tier first)."""
    return dict(zip((d.id for d in default_detectors()), default_detectors(), strict=True))


_TIER_ORDER = {Source.RULE: 0, Source.HEURISTIC: 1, Source.CLASSIFIER: 2}
_defaults: tuple[Detector, ...] = ()
_default_versions: dict[str, str] = {}


def default_detectors() -> tuple[Detector, ...]:
    """The built-in detectors plus any registered since, in registration order."""
    global _defaults, _default_versions
    _load_builtin()
    if len(_defaults) != len(_REGISTRY):
        # cheapest tier first, whatever order the packages happened to be imported in
        _defaults = tuple(sorted(_REGISTRY.values(), key=lambda d: _TIER_ORDER.get(d.source, 9)))
        _default_versions = {d.id: d.version for d in _defaults}
    return _defaults


def get_detector(name: str) -> Detector:
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownDetectorError(name, _REGISTRY) from None


_BUILTIN_PACKAGES = (
    "leakline.detectors.rules",
    "leakline.detectors.heuristics",
)  # cheapest tier first
_builtin_loaded = False


def _load_builtin() -> None:
    """Importing the packages registers their detectors, in tier order."""
    global _builtin_loaded
    if _builtin_loaded:
        return
    for package in _BUILTIN_PACKAGES:
        importlib.import_module(package)
    _builtin_loaded = True


@dataclass(frozen=True, slots=True)
class Verdict:
    """All findings for one exchange, plus the sorted distinct labels.

    ``cut`` is empty when every detector read all of the event; else ``budget``'s notes
    (``chars``, ``budget:id,id``), joined by ``;``."""

    event_id: str
    labels: tuple[str, ...]
    findings: tuple[Finding, ...]
    detector_versions: dict[str, str]
    cut: str = ""

    @property
    def leaking(self) -> bool:
        return bool(self.labels)

    def to_dict(self) -> dict[str, object]:
        return {
            "event_id": self.event_id,
            "labels": list(self.labels),
            "findings": [f.to_dict() for f in self.findings],
        }


_VERDICT_SETTERS = slot_setters(
    Verdict, ("event_id", "labels", "findings", "detector_versions", "cut")
)


def _verdict(
    event_id: str,
    labels: tuple[str, ...],
    findings: tuple[Finding, ...],
    versions: dict[str, str],
    cut: str = "",
) -> Verdict:
    """``Verdict(...)`` built through its slots (see ``finding.slot_setters``): once per event."""
    if _VERDICT_SETTERS is None:
        return Verdict(event_id, labels, findings, versions, cut)
    made = Verdict.__new__(Verdict)
    s0, s1, s2, s3, s4 = _VERDICT_SETTERS
    s0(made, event_id)
    s1(made, labels)
    s2(made, findings)
    s3(made, versions)
    s4(made, cut)
    return made


Detect = Callable[[Exchange], list[Finding]]
# The default detectors' bound ``detect`` methods and versions, built on first use and
# dropped by ``register``: run_detectors then does no registry work per event.
_plan: tuple[tuple[Detect, ...], dict[str, str]] | None = None


def _default_plan() -> tuple[tuple[Detect, ...], dict[str, str]]:
    global _plan
    chosen = default_detectors()
    _plan = (tuple(d.detect for d in chosen), _default_versions)
    return _plan


def run_detectors(exchange: Exchange, detectors: Sequence[Detector] | None = None) -> Verdict:
    """Run detectors in order and merge their findings into one verdict."""
    if detectors is None:
        # versions are shared by every verdict; treat them as read-only
        detects, versions = _plan or _default_plan()
    else:
        chosen = tuple(detectors)
        detects = tuple(d.detect for d in chosen)
        versions = {d.id: d.version for d in chosen}
    findings: list[Finding] = []
    cut = ""
    if budget.text_size(exchange) > budget.TIMED_CHARS:
        findings, cut = _bounded_run(exchange, detects, versions)
    else:
        for detect in detects:
            found = detect(exchange)
            if found:
                findings += found
    if not findings:
        return _verdict(exchange.event_id, (), (), versions, cut)
    # point each finding at the layer the evidence and the event's metadata implicate
    findings = diagnose(exchange, findings)
    labels = tuple(sorted({f.label for f in findings}))
    return _verdict(exchange.event_id, labels, tuple(findings), versions, cut)


def _bounded_run(
    exchange: Exchange,
    detects: tuple[Detect, ...],
    versions: dict[str, str],
    seconds: float = budget.BUDGET_SECONDS,
) -> tuple[list[Finding], str]:
    """The detectors on a large event: its texts capped, the clock read before each one.

    Returns the findings and the ``cut`` note (see ``budget``)."""
    notes: list[str] = []
    shortened = budget.capped(exchange)
    if shortened is not None:
        exchange = shortened
        notes.append(budget.CUT_CHARS)
    findings: list[Finding] = []
    ids = list(versions)
    deadline = perf_counter() + seconds
    for index, detect in enumerate(detects):
        if perf_counter() > deadline:
            # ``versions`` is built from the same detectors, in the same order
            notes.append(budget.budget_note(ids[index:]))
            break
        found = detect(exchange)
        if found:
            findings += found
    return findings, ";".join(notes)
