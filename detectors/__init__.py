"""leakline detectors: pure functions over a normalised exchange.

No Kafka, no I/O: a gateway can import this package inline.

    from leakline.detectors import run_detectors
    verdict = run_detectors(exchange)
"""

from leakline.detectors.base import (
    Detector,
    Verdict,
    get_detector,
    register,
    registered,
    run_detectors,
)
from leakline.detectors.exchange import Exchange, ResponseFormat, StreamFacts, ToolCall, Versions
from leakline.detectors.finding import Finding
from leakline.detectors.labels import ALL_LABELS, Label, Layer, Remediation, Source

__all__ = [
    "ALL_LABELS",
    "Detector",
    "Exchange",
    "Finding",
    "Label",
    "Layer",
    "Remediation",
    "ResponseFormat",
    "Source",
    "StreamFacts",
    "ToolCall",
    "Verdict",
    "Versions",
    "get_detector",
    "register",
    "registered",
    "run_detectors",
]
