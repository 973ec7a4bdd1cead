"""Offline detection over JSONL (``leakline detect``): the same detectors, no Kafka."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import BinaryIO, TextIO

import orjson

from detectors import run_detectors
from pipeline.contract import ContractError, decode_event
from pipeline.normalise import normalise


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


def detect_line(raw: bytes, max_event_bytes: int) -> dict[str, object]:
    """The output object for one input line: a verdict or an error."""
    try:
        event = decode_event(raw, max_event_bytes)
    except ContractError as exc:
        return {"event_id": exc.event_id, "error": exc.reason}
    try:
        return run_detectors(normalise(event)).to_dict()
    except Exception as exc:  # detectors must not raise; if one does, report and go on
        return {
            "event_id": event.get("event_id"),
            "error": f"internal error: {type(exc).__name__}: {exc}",
        }


def detect_stream(source: BinaryIO, sink: TextIO, max_event_bytes: int) -> DetectSummary:
    summary = DetectSummary()
    for raw in source:
        raw = raw.strip()
        if not raw:
            continue
        summary.lines += 1
        result = detect_line(raw, max_event_bytes)
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
    sink.flush()
    return summary
