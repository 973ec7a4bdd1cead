"""Turn one batch of raw Kafka records into stored rows, samples and dead letters.

This is the worker's whole job minus the I/O, so it is tested without a broker.
"""

from __future__ import annotations

import base64
import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

import orjson

from leakline.detectors import Detector, Exchange, Verdict, run_detectors
from leakline.detectors.classifier import OpeningClassifier, classify
from leakline.detectors.marker_shapes import group_key, tally
from leakline.pipeline.core.config import MAX_DEAD_LETTER_BYTES
from leakline.pipeline.core.gc_pause import paused_gc
from leakline.pipeline.events.contract import ContractError, Rejection, decode_event
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.redact import Redactor, json_safe, safe_id, safe_reason
from leakline.pipeline.events.rows import RowBuilder, keep_text, safe_ts

log = logging.getLogger("leakline.process")


class RawRecord(NamedTuple):
    """One Kafka record as the worker took it (a named tuple: one per event, made fast)."""

    key: bytes | None
    value: bytes
    origin: Origin


REASON_HEADER = "leakline.reason"
SOURCE_HEADER = "leakline.source"


def source_key(topic: str, partition: int, offset: int) -> str:
    """Where a record came from; dead letters carry it as key and header."""
    return f"{topic}/{partition}/{offset}"


@dataclass(frozen=True, slots=True)
class DeadLetter:
    """A rejected payload: the raw bytes unchanged, plus why and where from."""

    key: bytes | None
    value: bytes
    reason: str
    origin: Origin

    @property
    def source(self) -> str:
        return source_key(self.origin.topic, self.origin.partition, self.origin.offset)

    def headers(self) -> list[tuple[str, bytes]]:
        return [(REASON_HEADER, self.reason.encode()), (SOURCE_HEADER, self.source.encode())]

    def fitted(self, limit: int = MAX_DEAD_LETTER_BYTES) -> DeadLetter:
        """Itself when its payload fits a dead letter, else a reference to the source record."""
        size = len(self.value) + len(self.key or b"")
        return self if size <= limit else self.as_reference()

    def as_reference(self) -> DeadLetter:
        """A small JSON stand-in for a payload too large for the DLQ: where the record is
        (topic, partition, offset), its size and sha256, and its first bytes."""
        reference = {
            "leakline_dead_letter": "reference",
            "source": self.source,
            "topic": self.origin.topic,
            "partition": self.origin.partition,
            "offset": self.origin.offset,
            "size": len(self.value),
            "sha256": hashlib.sha256(self.value).hexdigest(),
            "head_base64": base64.b64encode(self.value[:REFERENCE_HEAD_BYTES]).decode(),
        }
        reason = f"{self.reason}; dead-lettered as a reference ({len(self.value)} bytes)"
        key = self.key if self.key is None or len(self.key) <= 1024 else None
        return DeadLetter(key, orjson.dumps(reference), reason, self.origin)


# how many leading bytes of an oversize payload its DLQ reference keeps
REFERENCE_HEAD_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class Sample:
    """A leaking exchange published to ``leak.samples``."""

    key: bytes
    value: bytes


@dataclass
class BatchResult:
    rows: RowBuilder
    dead_letters: list[DeadLetter] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    # the live-stats records (``leakline.pipeline.live.stats.batch_stats``) when whoever
    # built the rows also counted them: a batch child, where the columns are Python lists
    stats: list[Any] | None = None
    # the fleet learner's input (``process_batch(markers=True)``): per version group, its
    # events and the candidate marker shapes of its responses (``marker_shapes.sighting``)
    markers: dict[str, tuple[int, list[Any]]] | None = None


def _sample_payload(row: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(row, default=str)
    except TypeError:  # an integer beyond 64 bits or too deep nesting in finding details
        return orjson.dumps(json_safe(row), default=str)


# What a row reads from its event besides the exchange (RowBuilder.add, the sample)
_ROW_FIELDS = ("ts", "remediation", "tags", "usage", "latency_ms")
# marks an event cut down to _ROW_FIELDS (not a gateway field name)
_HELD_ONLY = "\x00leakline.held"


def _held(event: dict[str, Any]) -> dict[str, Any]:
    """What of a decoded event waits for the batch's classifier when its row will not
    store it (a clean row that ``keep_text`` does not sample): the few fields a row
    reads. Letting the rest go right after detection keeps the batch's working set
    small: holding all 2000 decoded events took twice the decoding's CPU (cold memory
    and caches; issue 19). An event the classifier turns into a leak is decoded again
    from its bytes."""
    held = {name: event[name] for name in _ROW_FIELDS if name in event}
    held[_HELD_ONLY] = True
    return held


def _sight(result: BatchResult, exchange: Exchange) -> None:
    """Count the event for its version group, with its candidate shapes when it has some."""
    v = exchange.versions
    if result.markers is None:
        result.markers = {}
    tally(
        result.markers,
        group_key(v.model_name, v.engine_name, v.engine_version, v.template_hash),
        exchange.visible_text,
        exchange.prompt_text,
    )


@paused_gc()  # the batch's objects live until it is done: see pipeline/core/gc_pause.py
def process_batch(
    records: Sequence[RawRecord],
    *,
    worker_id: str,
    clean_text_rate: float,
    max_event_bytes: int,
    detectors: Sequence[Detector] | None = None,
    now: datetime | None = None,
    redactor: Redactor | None = None,
    classifier: OpeningClassifier | None = None,
    classifier_threshold: float | None = None,
    markers: bool = False,
) -> BatchResult:
    """Validate, normalise and detect every record. Never raises on bad input.

    Rules and heuristics run per exchange; then ``classifier`` (when given) scores,
    in one batched call, the openings they left unlabeled. Every row records the
    classifier's version. Text and findings are redacted (``redactor``, default
    rules unless told otherwise) before they are stored or published. ``markers``: also
    collect each response's candidate marker shapes for the fleet learner (``markers``).
    """
    now = now or datetime.now(UTC)
    result = BatchResult(RowBuilder(worker_id, clean_text_rate, redactor))
    # (record, event or what is held of it, exchange, verdict, keep_text's decision
    # for the row if clean, made once here; None when the rules found a leak)
    decoded: list[tuple[RawRecord, dict[str, Any], Exchange, Verdict, bool | None]] = []
    for record in records:
        try:
            event = decode_event(record.value, max_event_bytes)
            exchange = normalise(event)
            verdict = run_detectors(exchange, detectors)
            clean_keep = (
                None if verdict.leaking else keep_text(exchange.event_id, False, clean_text_rate)
            )
            if clean_keep is False:
                event = _held(event)
            if markers:
                _sight(result, exchange)
        except ContractError as exc:
            # too large to dead-letter whole (a record near the Kafka limit): a reference
            dead = DeadLetter(record.key, record.value, safe_reason(exc.reason), record.origin)
            result.dead_letters.append(dead.fitted())
            continue
        except Exception as exc:  # a bug in normalise/detectors must not stop the stream
            reason = safe_reason(f"{Rejection.INTERNAL}: {type(exc).__name__}: {exc}")
            result.dead_letters.append(DeadLetter(record.key, record.value, reason, record.origin))
            continue
        decoded.append((record, event, exchange, verdict, clean_keep))
    version = classifier.version if classifier is not None else None
    if classifier is not None and decoded:
        try:
            verdicts = classify([(d[2], d[3]) for d in decoded], classifier, classifier_threshold)
        except Exception:  # a broken model must not stop the stream: rows keep rule verdicts
            log.exception("classifier %s failed on a batch; skipped", version)
            verdicts, version = [d[3] for d in decoded], None
        decoded = [(r, e, x, v, k) for (r, e, x, _, k), v in zip(decoded, verdicts, strict=True)]
    for record, event, exchange, verdict, clean_keep in decoded:
        if verdict.leaking and _HELD_ONLY in event:  # the classifier made it a leak: stored whole
            event = decode_event(record.value, max_event_bytes)
        safe = result.rows.add(
            event, exchange, verdict, record.origin, now, version, clean_keep=clean_keep
        )
        if verdict.leaking and safe is not None:
            v = exchange.versions
            # the id and time as the row stores them: a client's string can hold a secret
            event_id = safe_id(exchange.event_id, result.rows.redactor)
            result.samples.append(
                Sample(
                    key=event_id.encode(),
                    value=_sample_payload(
                        {
                            "event_id": event_id,
                            "ts": safe_ts(event.get("ts")),
                            "api": exchange.api,
                            "stream": exchange.stream,
                            "engine": {"name": v.engine_name, "version": v.engine_version},
                            "model": {"name": v.model_name, "revision": v.model_revision},
                            "chat_template": {"name": v.template_name, "hash": v.template_hash},
                            "parsers": {
                                "reasoning": v.reasoning_parser,
                                "tool_call": v.tool_call_parser,
                            },
                            "labels": list(verdict.labels),
                            "findings": [f.to_dict() for f in safe.findings],
                            "visible_text": safe.visible_text[:8192],
                            "classifier_version": version,
                        }
                    ),
                )
            )
    return result
