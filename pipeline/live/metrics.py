"""Prometheus metrics of one worker, in its own CollectorRegistry.

Labels (bounded): ``engine``, ``engine_version``, ``model``, ``reasoning_parser``,
``tool_call_parser`` on the event counters, plus ``label`` on the leak counter (the fixed
names of ``labels.ALL_LABELS``) and ``reason`` on the dead-letter counter
(``contract.Rejection``).
At most ``max_version_sets`` distinct version label sets are kept; later ones are
counted under ``other`` in every version label, and
``leakline_version_sets_overflow_total`` says how many events went there.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from leakline.pipeline.events.contract import rejection_of
from leakline.pipeline.live.stats import OTHER, StatsRecord, dims_of

VERSION_LABELS = ("engine", "engine_version", "model", "reasoning_parser", "tool_call_parser")
DEFAULT_MAX_VERSION_SETS = 100
CONTENT_TYPE = CONTENT_TYPE_LATEST

# *_created samples double the series count and no dashboard here reads them
disable_created_metrics()


class VersionCap:
    """Maps version label sets to themselves until ``limit`` sets were seen, then to "other"."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seen: set[tuple[str, ...]] = set()

    def __call__(self, labels: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
        if labels in self.seen:
            return labels, False
        if len(self.seen) < self.limit:
            self.seen.add(labels)
            return labels, False
        return tuple(OTHER for _ in labels), True


class WorkerMetrics:
    def __init__(self, max_version_sets: int = DEFAULT_MAX_VERSION_SETS) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.cap = VersionCap(max_version_sets)
        r = self.registry
        self.events = Counter(
            "leakline_events", "Valid events processed", VERSION_LABELS, registry=r
        )
        self.leaking = Counter(
            "leakline_leaking_events",
            "Events with at least one leak label",
            VERSION_LABELS,
            registry=r,
        )
        self.leaks = Counter(
            "leakline_leaks", "Events per leak label", (*VERSION_LABELS, "label"), registry=r
        )
        self.dead_letters = Counter(
            "leakline_dead_letters",
            "Payloads sent to the dead-letter topic, by kind of reason",
            ("reason",),
            registry=r,
        )
        self.overflow = Counter(
            "leakline_version_sets_overflow",
            "Events counted under version labels 'other' (cardinality cap reached)",
            registry=r,
        )
        self.batches = Counter("leakline_batches", "Micro-batches processed", registry=r)
        self.lag = Gauge(
            "leakline_consumer_lag",
            "Highwater minus position per assigned partition",
            ("topic", "partition"),
            registry=r,
        )
        self.quarantined = Counter(
            "leakline_quarantined_files",
            "Unreadable Parquet files this worker moved to DATA_DIR/quarantine/",
            registry=r,
        )
        self.compaction_failures = Counter(
            "leakline_compaction_failures",
            "Periodic compactions (or days of one) that failed",
            registry=r,
        )
        self.store_fenced = Counter(
            "leakline_store_fenced_batches",
            "Iceberg commits dropped by the fence: another owner had stored their offsets",
            registry=r,
        )
        self.model_reload_failures = Counter(
            "leakline_model_reload_failures",
            "Promoted classifiers a batch process refused (hash or parse check failed); "
            "it keeps the model it has. Counted once per batch process",
            registry=r,
        )
        self.model_info = Gauge(
            "leakline_model_info",
            "The classifier the batch processes run (value 1; version 'none' without one)",
            ("version",),
            registry=r,
        )
        self.version_regression = Gauge(
            "leakline_version_regression",
            "1 per new version whose leak rate (24 h, event time) is significantly above the "
            "version it replaced for the same model (one-sided two-proportion test)",
            ("model", "changed", "version", "previous"),
            registry=r,
        )
        self.marker_suggestions = Gauge(
            "leakline_marker_suggestions",
            "Marker shapes this worker's fleet learner suggests (never labels until accepted; "
            "`leakline families suggest`), by kind: token or pair",
            ("kind",),
            registry=r,
        )
        for kind in ("token", "pair"):  # 0 from the start: the panel shows 0, not "no data"
            self.marker_suggestions.labels(kind).set(0)
        self.model_version: str | None = None
        self.model_known = False  # observe_model was called (before: no info series)
        self.model_reload_failures_seen = 0
        self.flush = Histogram(
            "leakline_sink_flush_seconds",
            "Time to write one batch's Parquet files",
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
            registry=r,
        )

    def observe_batch(
        self, records: Iterable[StatsRecord], dead_letter_reasons: Iterable[str] = ()
    ) -> None:
        self.batches.inc()
        # a fixed label set (contract.Rejection), whatever details the reasons carry
        for rejection, n in collections.Counter(map(rejection_of, dead_letter_reasons)).items():
            self.dead_letters.labels(rejection).inc(n)
        for record in records:
            counts = record.counts
            if not counts["total"]:
                continue
            d = dims_of(record.key)
            labels, capped = self.cap(
                (
                    d["engine_name"],
                    d["engine_version"],
                    d["model_name"],
                    d["reasoning_parser"],
                    d["tool_call_parser"],
                )
            )
            if capped:
                self.overflow.inc(counts["total"])
            self.events.labels(*labels).inc(counts["total"])
            if counts["leaking"]:
                self.leaking.labels(*labels).inc(counts["leaking"])
            for label, n in counts["labels"].items():
                self.leaks.labels(*labels, label).inc(n)

    def observe_model(self, version: str | None, refusals: int = 0) -> None:
        """The running classifier (one ``leakline_model_info`` series) and new refusals."""
        if refusals:
            self.model_reload_failures.inc(refusals)
            self.model_reload_failures_seen += refusals
        if version != self.model_version or not self.model_known:
            self.model_info.clear()
            self.model_info.labels(version or "none").set(1)
            self.model_version = version
            self.model_known = True

    def set_regressions(self, found: Iterable[dict[str, Any]]) -> None:
        """``stats.version_regressions`` as gauges; a cleared one disappears."""
        self.version_regression.clear()
        for r in found:
            self.version_regression.labels(
                r["model"], r["changed"], r["version"], r["previous"]
            ).set(1)

    def set_lag(self, lags: Iterable[tuple[str, int, int]]) -> None:
        self.lag.clear()  # revoked partitions must disappear
        for topic, partition, lag in lags:
            self.lag.labels(topic, str(partition)).set(max(0, lag))

    def render(self) -> bytes:
        return generate_latest(self.registry)
