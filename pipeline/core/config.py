"""One frozen configuration object shared by the CLI, the worker and the demo."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field, replace
from pathlib import Path

from leakline.client.kafka import (  # shared with the gateways' producer (leakline-client)
    DEFAULT_BOOTSTRAP,
    DLQ_HEADROOM_BYTES,
    ENV_BOOTSTRAP,
    EVENTS_TOPIC,
    MAX_EVENT_BYTES,
    MAX_RECORD_BYTES,
    KafkaSecurity,
    SecurityConfigError,
)
from leakline.client.kafka import security_from_env as _security_from_env
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.core.http_limits import ServerLimits

ENV_DATA_DIR = "LEAKLINE_DATA_DIR"
# the store's Iceberg catalog and warehouse (pipeline/store/catalog.py)
ENV_CATALOG = "LEAKLINE_CATALOG"
ENV_WAREHOUSE = "LEAKLINE_WAREHOUSE"
# an S3-compatible endpoint for an s3:// warehouse (SeaweedFS, MinIO); unset: AWS itself
ENV_S3_ENDPOINT = "LEAKLINE_S3_ENDPOINT"
DEFAULT_DATA_DIR = "./leakline-data"

# Record sizes live in leakline.client.kafka: the worker processes events up to
# MAX_EVENT_BYTES (--max-event-bytes) and dead-letters larger ones; leakline's producers
# refuse them up front; MAX_RECORD_BYTES is the Kafka record limit everywhere
# (docker-compose.yml sets the broker's to the same number). A payload above
# MAX_DEAD_LETTER_BYTES is dead-lettered as a reference (source, size, sha256, head bytes).
MAX_DEAD_LETTER_BYTES = MAX_RECORD_BYTES - DLQ_HEADROOM_BYTES


@dataclass(frozen=True)
class Topics:
    events: str = EVENTS_TOPIC
    dlq: str = "gateway.events.dlq"
    samples: str = "leak.samples"
    # per-batch counts per version key (contract 3); feeds the dashboard's windowed table
    stats: str = "leak.stats"


def default_batch_processes() -> int:
    """Batch child processes per worker when not told: the usable cores, up to 4.

    On 2 cores two children beat one (5.7k vs 4.4k events/s on the production mix):
    once Faust delivers batches, the worker's own loop needs well under a core."""
    return max(1, min(4, len(os.sched_getaffinity(0))))


# producers' --idempotence: see leakline.pipeline.kafka.io.resolve_idempotence
IDEMPOTENCE_MODES = ("auto", "on", "off")


@dataclass(frozen=True)
class Settings:
    bootstrap: str = DEFAULT_BOOTSTRAP
    data_dir: Path = Path(DEFAULT_DATA_DIR)
    topics: Topics = field(default_factory=Topics)
    app_id: str = "leakline"
    partitions: int = 4
    # micro-batching (pipeline/worker/faust_transport.py): the consumer hands the agent up to
    # batch_size events, or what it has after batch_within seconds. 0.5 s keeps freshness
    # p99 ~1.3 s at 2k events/s on 2 cores (1.0 s: ~2 s) for twice the files of 1.0 s
    # in the fresh tail of a quiet store (compaction merges them)
    batch_size: int = 2000
    batch_within_s: float = 0.5
    max_event_bytes: int = MAX_EVENT_BYTES
    # full text is stored for every leaking row and for this share of clean rows
    clean_text_sample_rate: float = 0.05
    # redaction of stored/published text: "default" (all rules of
    # leakline.pipeline.events.redact.RULES), a comma-separated list of rule names, or "raw" (explicit opt-in)
    redaction: str = "default"
    # Tansu completes a first group join after about half the session timeout
    session_timeout_s: float = 10.0
    # how long producers wait for an unreachable broker before giving up
    connect_timeout_s: float = 30.0
    # idempotent producers (no second copy when a produce request is cut in flight):
    # "auto" uses them where the broker grants producer ids (Apache Kafka; Tansu does not)
    idempotence: str = "auto"
    web_host: str = "127.0.0.1"
    web_port: int = 6066
    web_enabled: bool = False
    # required when web_host is not loopback; every route (incl. /metrics) then checks it
    web_token: str | None = field(default=None, repr=False)
    # with it, /ingest and /v1/traces take only this token and web_token only reads
    # (issue 36: the dashboard's token could write); None: web_token does both
    web_write_token: str | None = field(default=None, repr=False)
    # Host names the web server answers to besides its bound address (and, on loopback,
    # localhost/127.0.0.1/::1): a DNS-rebinding page gets 421 (pipeline/http/auth.py)
    web_allowed_hosts: tuple[str, ...] = ()
    # connection cap, header/idle/body timeouts and the bodies in flight of the web server
    # (pipeline/core/http_limits.py)
    web_limits: ServerLimits = field(default_factory=ServerLimits)
    # /healthz from a child process on its own port, judged by the event loop's heartbeat
    # (pipeline/worker/liveness.py). None: web_port + 1 whenever the web server runs (a
    # taken port is then a warning, not an error); health_off: only the web's /healthz
    health_port: int | None = None
    health_off: bool = False
    live_samples: int = 500  # newest leak samples the dashboard keeps in memory
    # distinct version label sets on /metrics before new ones are counted as "other"
    metrics_max_version_sets: int = 100
    # version keys the live table (dashboard, regressions) keeps: the busiest; the rest are
    # summed as "other" (issue 36: one request of 20,000 versions froze every view)
    live_max_versions: int = 200
    security: KafkaSecurity = field(default_factory=KafkaSecurity)
    # classifier tier: None keeps each artifact head's own threshold; the promoted model
    # of models_dir (default DATA_DIR/models) wins over the shipped one, and the worker
    # looks for a newly promoted one every classifier_check_s seconds
    classifier_threshold: float | None = None
    classifier_models_dir: Path | None = None
    classifier_check_s: float = 2.0
    # run process_batch in child processes (pipeline/worker/offload.py): Faust's loop in the worker,
    # the batch work in batch_processes children (default: the usable cores, up to 4)
    batch_in_child: bool = True
    batch_processes: int = field(default_factory=default_batch_processes)
    # periodic compaction of the Parquet parts (pipeline/store/compact.py): every compact_every_s
    # seconds (0 = off), parts not modified for compact_grace_s seconds
    compact_every_s: float = 300.0
    compact_grace_s: float = 600.0
    # where the worker stores rows: "parquet" (the part-file layout) or "iceberg" (the
    # samples table, committed with its Kafka offsets every commit_interval_s seconds)
    store: str = "parquet"
    commit_interval_s: float = 5.0
    worker_id: str = field(default_factory=lambda: f"{socket.gethostname()}-{os.getpid()}")

    @property
    def faust_datadir(self) -> Path:
        return self.data_dir / "faust"

    @property
    def models_dir(self) -> Path:
        return self.classifier_models_dir or self.data_dir / "models"

    def with_overrides(self, **changes: object) -> Settings:
        clean = {k: v for k, v in changes.items() if v is not None}
        if "data_dir" in clean:
            clean["data_dir"] = Path(str(clean["data_dir"]))
        return replace(self, **clean)  # type: ignore[arg-type]


def security_from_env(**overrides: str | None) -> KafkaSecurity:
    """$LEAKLINE_SECURITY_PROTOCOL, $LEAKLINE_SASL_*, $LEAKLINE_SSL_*, then overrides."""
    try:
        return _security_from_env(None, **overrides)
    except SecurityConfigError as exc:
        raise LeaklineError(str(exc), hint=exc.hint) from None


def from_env(**overrides: object) -> Settings:
    """Defaults, then LEAKLINE_* environment variables, then explicit overrides."""
    base = Settings(
        bootstrap=os.environ.get(ENV_BOOTSTRAP, DEFAULT_BOOTSTRAP),
        data_dir=Path(os.environ.get(ENV_DATA_DIR, DEFAULT_DATA_DIR)),
    )
    return base.with_overrides(**overrides)
