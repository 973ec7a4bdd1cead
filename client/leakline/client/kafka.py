"""Kafka settings the producer shares with the leakline worker: topic, sizes, SASL/TLS.

The leakline pipeline imports these from here, so a gateway and the worker agree on the
topic name and the record limits.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from leakline.client import _json

ENV_BOOTSTRAP = "LEAKLINE_BOOTSTRAP"
DEFAULT_BOOTSTRAP = "127.0.0.1:9092"
EVENTS_TOPIC = "gateway.events"

# The worker processes events up to MAX_EVENT_BYTES and dead-letters larger ones; the
# producers refuse them up front. MAX_RECORD_BYTES is the Kafka record limit everywhere
# (producers' request size, the worker's fetch size, the topics' max.message.bytes). A
# dead letter needs DLQ_HEADROOM_BYTES for its key, headers and batch framing.
MAX_EVENT_BYTES = 4 * 1024 * 1024
MAX_RECORD_BYTES = 8 * 1024 * 1024
DLQ_HEADROOM_BYTES = 64 * 1024


class SecurityConfigError(ValueError):
    """Inconsistent SASL/TLS settings. ``hint`` says what to set."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


@dataclass(frozen=True)
class KafkaSecurity:
    """SASL/TLS settings passed through to every Kafka client.

    The password is read from $LEAKLINE_SASL_PASSWORD only, so it never shows up in
    a process list.
    """

    protocol: str = "PLAINTEXT"  # PLAINTEXT | SSL | SASL_PLAINTEXT | SASL_SSL
    sasl_mechanism: str | None = None  # PLAIN | SCRAM-SHA-256 | SCRAM-SHA-512
    sasl_username: str | None = None
    sasl_password: str | None = field(default=None, repr=False)
    ssl_cafile: str | None = None
    ssl_certfile: str | None = None
    ssl_keyfile: str | None = None

    PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
    MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")

    @property
    def uses_sasl(self) -> bool:
        return self.protocol.startswith("SASL")

    @property
    def uses_tls(self) -> bool:
        return self.protocol in ("SSL", "SASL_SSL")

    def check(self) -> KafkaSecurity:
        """Self, or SecurityConfigError when the settings cannot work."""
        if self.protocol not in self.PROTOCOLS:
            raise SecurityConfigError(
                f"unknown Kafka security protocol {self.protocol!r}",
                hint="choose from: " + ", ".join(self.PROTOCOLS),
            )
        if self.uses_sasl:
            if self.sasl_mechanism not in self.MECHANISMS:
                raise SecurityConfigError(
                    f"SASL needs a mechanism, got {self.sasl_mechanism!r}",
                    hint="set --sasl-mechanism to one of: " + ", ".join(self.MECHANISMS),
                )
            if not self.sasl_username or self.sasl_password is None:
                raise SecurityConfigError(
                    "SASL needs a username and a password",
                    hint="pass --sasl-username and set $LEAKLINE_SASL_PASSWORD",
                )
        return self


def security_from_env(
    environ: Mapping[str, str] | None = None, **overrides: str | None
) -> KafkaSecurity:
    """$LEAKLINE_SECURITY_PROTOCOL, $LEAKLINE_SASL_*, $LEAKLINE_SSL_*, then overrides.

    Raises SecurityConfigError when the result cannot work."""
    env = (os.environ if environ is None else environ).get
    values: dict[str, Any] = {
        "protocol": env("LEAKLINE_SECURITY_PROTOCOL", "PLAINTEXT"),
        "sasl_mechanism": env("LEAKLINE_SASL_MECHANISM"),
        "sasl_username": env("LEAKLINE_SASL_USERNAME"),
        "sasl_password": env("LEAKLINE_SASL_PASSWORD"),
        "ssl_cafile": env("LEAKLINE_SSL_CAFILE"),
        "ssl_certfile": env("LEAKLINE_SSL_CERTFILE"),
        "ssl_keyfile": env("LEAKLINE_SSL_KEYFILE"),
    }
    values.update({k: v for k, v in overrides.items() if v is not None})
    return KafkaSecurity(**values).check()


def ssl_context(security: KafkaSecurity) -> ssl.SSLContext:
    from aiokafka.helpers import create_ssl_context

    return create_ssl_context(
        cafile=security.ssl_cafile, certfile=security.ssl_certfile, keyfile=security.ssl_keyfile
    )


def client_options(security: KafkaSecurity | None) -> dict[str, Any]:
    """aiokafka keyword arguments for SASL/TLS (empty for plain connections)."""
    if security is None or security.protocol == "PLAINTEXT":
        return {}
    options: dict[str, Any] = {"security_protocol": security.protocol}
    if security.uses_tls:
        options["ssl_context"] = ssl_context(security)
    if security.uses_sasl:
        options.update(
            sasl_mechanism=security.sasl_mechanism,
            sasl_plain_username=security.sasl_username,
            sasl_plain_password=security.sasl_password,
        )
    return options


def key_of(line: bytes) -> bytes | None:
    """The event_id as the record key when the line is a JSON object that has one."""
    try:
        value = _json.loads(line)
    except ValueError:
        return None
    event_id = value.get("event_id") if isinstance(value, dict) else None
    return event_id.encode() if isinstance(event_id, str) else None
