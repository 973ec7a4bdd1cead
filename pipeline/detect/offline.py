"""Offline detection over JSONL (``leakline detect``): the same detectors, no Kafka.

The classifier tier runs too, with the model a worker on the same data directory
would use (the promoted one in ``$LEAKLINE_DATA_DIR/models``, else the shipped one),
so offline and stream labels agree.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any, BinaryIO, TextIO

import orjson

from leakline.detectors import Exchange, Verdict, run_detectors
from leakline.detectors.classifier import ArtifactError, OpeningClassifier, classify
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.events.contract import ContractError, decode_event
from leakline.pipeline.events.normalise import normalise

BATCH = 256
_DEFAULT: Any = object()


@dataclass
class DetectSummary:
    lines: int = 0
    valid: int = 0
    invalid: int = 0
    leaking: int = 0
    labels: Counter[str] = field(default_factory=Counter)

    def render(self) -> str:
        labels = ", ".join(f"{k}={v}" for k, v in sorted(self.labels.items())) or "none"
        return (
            f"leakline detect: {self.lines} lines, {self.valid} valid, {self.invalid} invalid, "
            f"{self.leaking} leaking; labels: {labels}"
        )


@cache
def default_classifier() -> OpeningClassifier | None:
    """The promoted model of DATA_DIR/models, else the shipped one (loaded once)."""
    from leakline.models.registry import load_current
    from leakline.pipeline.core.config import from_env

    try:
        return load_current(from_env().models_dir)
    except ArtifactError as exc:
        raise LeaklineError(
            f"cannot load the classifier: {exc}",
            hint="promote a good model with `leakline train`, or fix DATA_DIR/models/registry.json",
        ) from None


def _decide(raw: bytes, max_event_bytes: int) -> dict[str, object] | tuple[Exchange, Verdict]:
    try:
        event = decode_event(raw, max_event_bytes)
    except ContractError as exc:
        return {"event_id": exc.event_id, "error": exc.reason}
    try:
        exchange = normalise(event)
        return exchange, run_detectors(exchange)
    except Exception as exc:  # detectors must not raise; if one does, report and go on
        return {
            "event_id": event.get("event_id"),
            "error": f"internal error: {type(exc).__name__}: {exc}",
        }


def detect_lines(
    raws: list[bytes],
    max_event_bytes: int,
    classifier: OpeningClassifier | None = _DEFAULT,
    threshold: float | None = None,
) -> list[dict[str, object]]:
    """Output objects for a batch of lines: the classifier scores them in one call."""
    model = default_classifier() if classifier is _DEFAULT else classifier
    decided = [_decide(raw, max_event_bytes) for raw in raws]
    pairs = [d for d in decided if isinstance(d, tuple)]
    if model is not None and pairs:
        merged = iter(classify(pairs, model, threshold))
        decided = [(d[0], next(merged)) if isinstance(d, tuple) else d for d in decided]
    return [d[1].to_dict() if isinstance(d, tuple) else d for d in decided]


def detect_line(
    raw: bytes, max_event_bytes: int, classifier: OpeningClassifier | None = _DEFAULT
) -> dict[str, object]:
    """The output object for one input line: a verdict or an error."""
    return detect_lines([raw], max_event_bytes, classifier)[0]


def detect_stream(
    source: BinaryIO,
    sink: TextIO,
    max_event_bytes: int,
    classifier: OpeningClassifier | None = _DEFAULT,
    threshold: float | None = None,
) -> DetectSummary:
    summary = DetectSummary()
    pending: list[bytes] = []

    def flush() -> None:
        for result in detect_lines(pending, max_event_bytes, classifier, threshold):
            if "error" in result:
                summary.invalid += 1
            else:
                summary.valid += 1
                labels = result.get("labels") or []
                assert isinstance(labels, list)
                summary.leaking += bool(labels)
                summary.labels.update(labels)
            sink.write(orjson.dumps(result).decode())
            sink.write("\n")
        pending.clear()

    for raw in source:
        raw = raw.strip()
        if not raw:
            continue
        summary.lines += 1
        pending.append(raw)
        if len(pending) >= BATCH:
            flush()
    flush()
    sink.flush()
    return summary
