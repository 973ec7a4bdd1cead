"""Configuration: env and flags, and SASL/TLS passed through to every Kafka client."""

from __future__ import annotations

from pathlib import Path

import pytest
from leakline_testkit import leakline

from leakline.pipeline.core.config import KafkaSecurity, from_env, security_from_env
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.kafka.broker import EmbeddedBroker
from leakline.pipeline.kafka.io import client_options
from leakline.pipeline.worker.app import faust_credentials


def test_environment_stands_in_for_flags(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("LEAKLINE_BOOTSTRAP", "kafka:9092")
    monkeypatch.setenv("LEAKLINE_DATA_DIR", str(tmp_path))
    settings = from_env()
    assert settings.bootstrap == "kafka:9092" and settings.data_dir == tmp_path
    assert from_env(bootstrap="other:1").bootstrap == "other:1"


def test_plaintext_by_default() -> None:
    assert client_options(security_from_env()) == {}
    assert faust_credentials(KafkaSecurity()) is None


def test_sasl_scram_passes_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEAKLINE_SASL_PASSWORD", "s3cret")
    security = security_from_env(
        protocol="SASL_PLAINTEXT", sasl_mechanism="SCRAM-SHA-512", sasl_username="leakline"
    )
    assert client_options(security) == {
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": "SCRAM-SHA-512",
        "sasl_plain_username": "leakline",
        "sasl_plain_password": "s3cret",
    }
    creds = faust_credentials(security)
    assert (creds.username, creds.password, creds.mechanism.value) == (
        "leakline",
        "s3cret",
        "SCRAM-SHA-512",
    )
    assert "s3cret" not in repr(security)


def test_tls_builds_an_ssl_context() -> None:
    security = security_from_env(protocol="SSL")
    options = client_options(security)
    assert options["security_protocol"] == "SSL" and options["ssl_context"] is not None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"protocol": "SASL_SSL"}, "mechanism", id="sasl_without_mechanism"),
        pytest.param(
            {"protocol": "SASL_SSL", "sasl_mechanism": "PLAIN"}, "username", id="sasl_without_user"
        ),
        pytest.param(
            {"protocol": "KERBEROS"}, "unknown Kafka security protocol", id="bad_protocol"
        ),
    ],
)
def test_incomplete_security_settings_say_what_to_do(
    kwargs: dict, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LEAKLINE_SASL_PASSWORD", raising=False)
    with pytest.raises(LeaklineError, match=message) as info:
        security_from_env(**kwargs)
    assert info.value.hint


def test_replay_talks_tls_when_told_to(broker: EmbeddedBroker, tmp_path: Path) -> None:
    """Tansu listens in plaintext: a replay told to use TLS must fail to connect, never
    fall back to sending the events in the clear."""
    source = tmp_path / "events.jsonl"
    source.write_bytes(b'{"event_id": "tls-1"}\n')
    result = leakline(
        "replay",
        str(source),
        "--bootstrap",
        broker.bootstrap,
        "--security-protocol",
        "SSL",
        "--connect-timeout",
        "3",
    )
    assert result.returncode != 0, result.stderr[-2000:]
    assert "cannot reach Kafka" in result.stderr and "Traceback" not in result.stderr
    assert "replayed 1 events" not in result.stderr


def test_record_sizes_come_from_one_place() -> None:
    """The broker in docker-compose.yml takes the records leakline's clients send, and a
    dead letter of the largest event the worker processes still fits a record."""
    import re

    from leakline.pipeline.core import config

    compose = (Path(__file__).parents[2] / "docker-compose.yml").read_text()
    (broker_limit,) = re.findall(r"KAFKA_MESSAGE_MAX_BYTES:\s*(\d+)", compose)
    assert int(broker_limit) == config.MAX_RECORD_BYTES
    assert config.MAX_EVENT_BYTES <= config.MAX_DEAD_LETTER_BYTES < config.MAX_RECORD_BYTES
    assert config.Settings().max_event_bytes == config.MAX_EVENT_BYTES
