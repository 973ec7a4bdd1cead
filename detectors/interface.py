"""What a detector is (the protocol) and the registries' lookup errors.

Kept out of the mypyc build (``detectors/native.py``): a compiled class is neither a
runtime-checkable ``Protocol`` nor can it subclass a built-in exception.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Protocol, runtime_checkable

from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Source


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


class UnknownFamilyError(KeyError):
    def __init__(self, name: str, known: Iterable[str]) -> None:
        super().__init__(f"unknown model family {name!r}; known families: {', '.join(known)}")
