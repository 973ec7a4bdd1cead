"""--idempotence auto|on|off: idempotent producers where the broker grants producer ids.

Tansu (the dev/test broker) does not, so here the real broker exercises the refusal and
the fallback; that the app's producer then asks for idempotence is checked on the
settings aiokafka receives. Apache Kafka (docker-compose) takes the granted path.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from aiokafka import AIOKafkaProducer
from leakline_testkit import leakline

from leakline.pipeline.core.config import Settings
from leakline.pipeline.core.errors import BrokerError
from leakline.pipeline.kafka.broker import EmbeddedBroker
from leakline.pipeline.kafka.io import idempotence_supported, resolve_idempotence
from leakline.pipeline.worker.app import build_app

UNREACHABLE = "127.0.0.1:9"


def test_tansu_grants_no_producer_ids(broker: EmbeddedBroker) -> None:
    supported, why = asyncio.run(idempotence_supported(broker.bootstrap))
    assert not supported
    assert why  # the broker's answer, for the log line


def test_auto_falls_back_to_at_least_once_with_a_warning(
    broker: EmbeddedBroker, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="leakline.pipeline.kafka.io"):
        assert asyncio.run(resolve_idempotence("auto", broker.bootstrap)) is False
    assert "does not support it" in caplog.text and broker.bootstrap in caplog.text


def test_on_refuses_a_broker_without_producer_ids(broker: EmbeddedBroker) -> None:
    with pytest.raises(BrokerError) as raised:
        asyncio.run(resolve_idempotence("on", broker.bootstrap))
    assert "does not support idempotent producers" in str(raised.value)
    assert "--idempotence auto" in (raised.value.hint or "")


def test_off_never_asks_the_broker() -> None:
    # "on" against nothing fails, so "off" returning at once shows it did not ask
    with pytest.raises(BrokerError):
        asyncio.run(resolve_idempotence("on", UNREACHABLE))
    assert asyncio.run(resolve_idempotence("off", UNREACHABLE)) is False


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="auto"):
        asyncio.run(resolve_idempotence("sometimes", UNREACHABLE))


def _producer_settings(app: object) -> dict[str, object]:
    """What Faust's producer thread passes to aiokafka (ProducerThread._new_producer)."""
    producer = app.producer  # type: ignore[attr-defined]
    return {
        **producer._settings_default(),
        **producer._settings_auth(),
        **producer._settings_extra(),
    }


@pytest.mark.parametrize("idempotent", [True, False])
def test_the_worker_producer_asks_for_idempotence_only_when_resolved(
    tmp_path: Path, idempotent: bool
) -> None:
    app = build_app(Settings(bootstrap=UNREACHABLE, data_dir=tmp_path), idempotent)
    settings = _producer_settings(app)
    assert settings.get("enable_idempotence", False) is idempotent
    if idempotent:
        assert settings["acks"] == "all"  # aiokafka requires it with idempotence

    async def construct() -> None:  # aiokafka validates the combination in __init__
        await AIOKafkaProducer(**settings).stop()

    asyncio.run(construct())


def test_worker_with_idempotence_on_exits_with_advice_on_tansu(
    broker: EmbeddedBroker, tmp_path: Path
) -> None:
    result = leakline(
        "worker",
        "--bootstrap",
        broker.bootstrap,
        "--data-dir",
        str(tmp_path / "data"),
        "--idempotence",
        "on",
    )
    assert result.returncode != 0
    assert "does not support idempotent producers" in result.stderr
    assert "--idempotence auto" in result.stderr
    assert "Traceback" not in result.stderr
