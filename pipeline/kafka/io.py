"""Small aiokafka helpers: topic creation and batched producing with retries."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaConnectionError, KafkaError, TopicAlreadyExistsError

# re-exported: the pipeline keeps importing its Kafka helpers from here
from leakline.client.kafka import client_options as client_options
from leakline.client.kafka import key_of as key_of
from leakline.client.kafka import ssl_context as ssl_context
from leakline.pipeline.core.config import (
    IDEMPOTENCE_MODES,
    MAX_EVENT_BYTES,
    MAX_RECORD_BYTES,
    KafkaSecurity,
)
from leakline.pipeline.core.errors import BrokerError

log = logging.getLogger(__name__)

# What a client's start() raises when the broker cannot be reached or refuses the login.
# aiokafka's SCRAM client raises KeyError when the server's final message is an error
# ("e=..." in RFC 5802, which Tansu sends for a wrong password or an unknown user)
# instead of a KafkaError, so a bad password would otherwise end in a traceback.
CONNECT_ERRORS: tuple[type[BaseException], ...] = (KafkaError, OSError, TimeoutError, KeyError)


def connect_error_text(exc: BaseException) -> str:
    """What went wrong, in words (a KeyError from the SASL exchange says nothing)."""
    if isinstance(exc, KeyError):
        return "the broker refused the SASL login (check the user name and $LEAKLINE_SASL_PASSWORD)"
    return str(exc) or type(exc).__name__


async def ensure_topics(
    bootstrap: str,
    names: Iterable[str],
    partitions: int,
    timeout_s: float = 30.0,
    security: KafkaSecurity | None = None,
) -> None:
    """Create topics that do not exist yet; waits for the broker with backoff."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    delay = 0.2
    while True:
        admin = AIOKafkaAdminClient(
            bootstrap_servers=bootstrap, request_timeout_ms=10000, **client_options(security)
        )
        try:
            # an attempt can hang (a TLS handshake with a plaintext listener waits for the
            # 10 s request timeout): never past the deadline
            await asyncio.wait_for(admin.start(), max(0.5, deadline - loop.time()))
            existing = set(await admin.list_topics())
            # the record limit travels with the topic, whatever the broker's default
            missing = [
                NewTopic(
                    name,
                    num_partitions=partitions,
                    replication_factor=1,
                    topic_configs={"max.message.bytes": str(MAX_RECORD_BYTES)},
                )
                for name in names
                if name not in existing
            ]
            if missing:
                with contextlib.suppress(TopicAlreadyExistsError):  # another worker won the race
                    await admin.create_topics(missing)
            return
        except CONNECT_ERRORS as exc:
            why = connect_error_text(exc)
            if isinstance(exc, TimeoutError) and not str(exc):
                why = "no answer in time (TLS or SASL settings that do not match?)"
            if loop.time() + delay > deadline:
                raise BrokerError(
                    f"cannot reach Kafka at {bootstrap}: {why}",
                    hint="check --bootstrap / $LEAKLINE_BOOTSTRAP, or run `leakline demo` "
                    "for the embedded broker",
                ) from exc
            log.warning(
                "Kafka at %s not reachable yet (%s); retrying in %.1fs", bootstrap, why, delay
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
        finally:
            await admin.close()


async def idempotence_supported(
    bootstrap: str, security: KafkaSecurity | None = None, timeout_s: float = 10.0
) -> tuple[bool, str]:
    """Whether the broker grants producer ids (InitProducerId), and if not, why.

    Apache Kafka does; Tansu answers with an error. aiokafka asks during ``start()``.
    """
    producer = AIOKafkaProducer(
        bootstrap_servers=bootstrap, enable_idempotence=True, **client_options(security)
    )
    try:
        await asyncio.wait_for(producer.start(), timeout_s)
        return True, ""
    except (KafkaError, OSError, TimeoutError) as exc:
        return False, f"{type(exc).__name__}: {exc}"
    finally:
        await producer.stop()


async def resolve_idempotence(
    mode: str, bootstrap: str, security: KafkaSecurity | None = None
) -> bool:
    """Turn ``--idempotence auto|on|off`` into whether producers enable idempotence.

    Without it, a produce request cut by the network in flight is resent by aiokafka and
    the broker may keep both copies (at-least-once).
    """
    if mode not in IDEMPOTENCE_MODES:
        raise ValueError(f"idempotence must be one of {IDEMPOTENCE_MODES}, got {mode!r}")
    if mode == "off":
        return False
    supported, why = await idempotence_supported(bootstrap, security)
    if supported:
        log.info("idempotent producer: on (the broker at %s grants producer ids)", bootstrap)
        return True
    if mode == "on":
        raise BrokerError(
            f"the broker at {bootstrap} does not support idempotent producers ({why})",
            hint="use --idempotence auto to fall back to at-least-once, or off",
        )
    log.warning(
        "idempotent producer: off, the broker at %s does not support it (%s); a produce "
        "request cut in flight may land twice",
        bootstrap,
        why,
    )
    return False


@dataclass
class ProduceReport:
    sent: int = 0
    failed: int = 0
    retried: int = 0
    refused: int = 0  # over max_event_bytes: never sent (the worker would dead-letter them)


async def produce(
    bootstrap: str,
    topic: str,
    payloads: Iterable[bytes],
    *,
    on_sent: Callable[[int], None] | None = None,
    retries: int = 5,
    window: int = 2000,
    security: KafkaSecurity | None = None,
    idempotent: bool = False,
    max_event_bytes: int = MAX_EVENT_BYTES,
) -> ProduceReport:
    """Send payloads as-is (the worker validates), keyed by event_id.

    Sends are pipelined in windows; a failed send is retried with backoff and
    counted in the report rather than dropped silently. A payload over
    ``max_event_bytes`` (the worker's limit) is refused: logged and counted, not sent.
    """
    report = ProduceReport()
    producer = AIOKafkaProducer(
        bootstrap_servers=bootstrap,
        linger_ms=5,
        max_batch_size=256 * 1024,
        acks="all",
        max_request_size=MAX_RECORD_BYTES,
        enable_idempotence=idempotent,
        **client_options(security),
    )
    try:
        await producer.start()
    except (KafkaConnectionError, KafkaError, OSError) as exc:
        await producer.stop()
        raise BrokerError(
            f"cannot reach Kafka at {bootstrap}: {exc}",
            hint="check --bootstrap / $LEAKLINE_BOOTSTRAP",
        ) from exc

    async def send_one(payload: bytes) -> None:
        delay = 0.2
        for attempt in range(retries + 1):
            try:
                await (await producer.send(topic, payload, key=key_of(payload)))
                report.sent += 1
                return
            except KafkaError as exc:
                if attempt == retries:
                    report.failed += 1
                    log.error("giving up on a record after %d attempts: %s", attempt + 1, exc)
                    return
                report.retried += 1
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    try:
        pending: list[bytes] = []
        for number, payload in enumerate(payloads, 1):
            if len(payload) > max_event_bytes:
                report.refused += 1
                log.error(
                    "record %d is %d bytes, over the worker's limit of %d bytes: not sent",
                    number,
                    len(payload),
                    max_event_bytes,
                )
                continue
            pending.append(payload)
            if len(pending) >= window:
                await asyncio.gather(*(send_one(p) for p in pending))
                if on_sent:
                    on_sent(len(pending))
                pending = []
        if pending:
            await asyncio.gather(*(send_one(p) for p in pending))
            if on_sent:
                on_sent(len(pending))
    finally:
        await producer.stop()
    return report
