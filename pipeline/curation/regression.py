"""Regression cases (contract 1): write them, read them, replay them through the detectors.

A case is one stored (redacted) gateway event plus the labels it must get. The
project's pytest suite replays every case in ``tests/regression/cases/``, so a
detector change that flips a stored verdict fails a test.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leakline.detectors import Detector

FORMAT = "leakline.regression/1"
CASES_DIR = "cases"
MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What the detectors say about a case now, against what the case expects."""

    case_id: str
    expected: tuple[str, ...]
    actual: tuple[str, ...]
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.expected == self.actual

    def explain(self) -> str:
        if self.error is not None:
            return f"case {self.case_id}: cannot replay: {self.error}"
        missing = sorted(set(self.expected) - set(self.actual))
        extra = sorted(set(self.actual) - set(self.expected))
        parts = [f"case {self.case_id}: expected {list(self.expected)}, got {list(self.actual)}"]
        if missing:
            parts.append(f"no longer detected: {', '.join(missing)}")
        if extra:
            parts.append(f"newly detected: {', '.join(extra)}")
        return "; ".join(parts)


def detect_labels(
    event: dict[str, Any], detectors: Sequence[Detector] | None = None
) -> tuple[str, ...]:
    """The labels the detectors (default: all registered) give a gateway event, validated
    as the worker validates it."""
    from leakline.detectors import run_detectors
    from leakline.pipeline.events.contract import validate_event
    from leakline.pipeline.events.normalise import normalise

    return run_detectors(normalise(validate_event(event)), detectors).labels


def replay_case(case: dict[str, Any], detectors: Sequence[Detector] | None = None) -> ReplayResult:
    """Run the detectors on the case's event and compare with ``expected_labels``."""
    from leakline.pipeline.events.contract import ContractError

    case_id = str(case.get("case_id", "?"))
    expected = tuple(sorted(case.get("expected_labels") or ()))
    event = case.get("event")
    if not isinstance(event, dict):
        return ReplayResult(case_id, expected, (), "the case has no event object")
    try:
        actual = detect_labels(event, detectors)
    except ContractError as exc:
        return ReplayResult(case_id, expected, (), f"invalid gateway event: {exc.reason}")
    return ReplayResult(case_id, expected, tuple(sorted(actual)))


def case_paths(directory: Path) -> list[Path]:
    """Every case file of a regression directory, in name order."""
    return sorted((directory / CASES_DIR).glob("*.json"))


def load_case(path: Path) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return case


def case_bytes(case: dict[str, Any]) -> bytes:
    """The canonical file content: top-level keys sorted, indent 1, UTF-8, trailing newline.

    Nested objects keep their order: the recorded request's JSON Schema properties are the
    order an engine writes them in, so sorting them would replay another request."""
    ordered = {key: case[key] for key in sorted(case)}
    return (json.dumps(ordered, indent=1, ensure_ascii=False) + "\n").encode()


def content_hash(blobs: Iterable[bytes]) -> str:
    digest = hashlib.sha256()
    for blob in blobs:
        digest.update(blob)
    return "sha256:" + digest.hexdigest()


def write_cases(directory: Path, cases: Sequence[dict[str, Any]]) -> tuple[list[Path], str]:
    """Write one file per case into ``directory/cases`` and drop stale case files there.

    Returns the files and the content hash over the sorted case files' bytes.
    """
    target = directory / CASES_DIR
    target.mkdir(parents=True, exist_ok=True)
    blobs = {f"{case['case_id']}.json": case_bytes(case) for case in cases}
    for old in target.glob("*.json"):
        if old.name not in blobs:
            old.unlink()
    paths = []
    for name in sorted(blobs):
        path = target / name
        if not path.exists() or path.read_bytes() != blobs[name]:
            path.write_bytes(blobs[name])
        paths.append(path)
    return paths, content_hash(blobs[name] for name in sorted(blobs))


def write_manifest(directory: Path, manifest: dict[str, Any]) -> Path:
    path = directory / MANIFEST
    path.write_text(
        json.dumps(manifest, sort_keys=True, indent=1, ensure_ascii=False) + "\n", "utf-8"
    )
    return path
