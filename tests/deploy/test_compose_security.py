"""docker-compose.yml publishes nothing beyond loopback without authentication, and its
Kafka client config reaches the clients (issue 36, finding 3).

docker is not available here: the compose file is read as YAML and its rules checked;
the client settings are checked on the real aiokafka/Faust objects the commands build;
and a real Tansu broker with authentication on shows that ``tail`` and ``dlq`` log in
with SCRAM (a refused login is a clear error, not a traceback). Tansu 0.6 keeps users in
memory and creates them only over an unauthenticated connection, so a successful SCRAM
login cannot be shown against it.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import os
import re
import signal
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from leakline_testkit import leakline

from leakline.pipeline.core.command import settings_from_args
from leakline.pipeline.kafka.broker import free_port, resolve_broker_binary, wait_for_port
from leakline.pipeline.live import tail
from leakline.pipeline.live.tail_view import TailFilter
from leakline.pipeline.worker.app import faust_credentials

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
VARIABLE = re.compile(r"\$\{(\w+)(?::?[-?]([^}]*))?\}")
SASL = {"SASL_PLAINTEXT", "SASL_SSL"}


def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def interpolate(text: str, env: Mapping[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error}: env first, then the default."""

    def one(m: re.Match[str]) -> str:
        name, default = m.group(1), m.group(2) or ""
        return env.get(name, default if "-" in m.group(0) else "")

    return VARIABLE.sub(one, text)


def mappings(service: dict[str, Any], env: Mapping[str, str]) -> Iterator[tuple[str, int]]:
    """(host address, container port) per published port; no address means every one."""
    for raw in service.get("ports") or []:
        text = interpolate(str(raw), env).split("/")[0]
        parts = text.rsplit(":", 2)
        host = parts[0] if len(parts) == 3 else "0.0.0.0"
        container = parts[-1].split("-")[0]
        yield host.strip("[]"), int(container)


def sasl_ports(kafka: dict[str, Any], env: Mapping[str, str]) -> set[int]:
    """The container ports of Kafka listeners whose protocol asks for a SASL login."""
    environment = {k: interpolate(str(v), env) for k, v in kafka["environment"].items()}
    protocol = dict(
        pair.split(":") for pair in environment["KAFKA_LISTENER_SECURITY_PROTOCOL_MAP"].split(",")
    )
    ports = set()
    for listener in environment["KAFKA_LISTENERS"].split(","):
        name, address = listener.split("://")
        if protocol[name] in SASL:
            ports.add(int(address.rsplit(":", 1)[1]))
    return ports


def loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def host_variables() -> set[str]:
    """Every variable used in a port mapping's host part."""
    names = set()
    for service in compose()["services"].values():
        for raw in service.get("ports") or []:
            names |= {m.group(1) for m in VARIABLE.finditer(str(raw).rsplit(":", 2)[0])}
    return names


@pytest.mark.parametrize("widened", [False, True], ids=["defaults", "every-address-0.0.0.0"])
def test_nothing_beyond_loopback_without_a_sasl_login(widened: bool) -> None:
    """With the defaults everything is on loopback; with every publish address an operator
    can set turned to 0.0.0.0, only a SASL listener may be reachable."""
    env = dict.fromkeys(host_variables(), "0.0.0.0") if widened else {}
    services = compose()["services"]
    allowed = sasl_ports(services["kafka"], env)
    assert allowed, "the kafka service has no SASL listener"
    published = []
    for name, service in services.items():
        for host, port in mappings(service, env):
            published.append((name, host, port))
            if not loopback(host):
                assert name == "kafka" and port in allowed, (name, host, port)
    assert ("kafka", "0.0.0.0" if widened else "127.0.0.1", 29092) in published
    if not widened:
        assert all(loopback(host) for _, host, _ in published), published


def test_the_plaintext_listener_is_never_published() -> None:
    kafka = compose()["services"]["kafka"]
    published = {port for _, port in mappings(kafka, {})}
    assert 9092 not in published and 9093 not in published
    assert published <= sasl_ports(kafka, {})


def test_the_scram_user_is_created_at_start_from_the_environment() -> None:
    services = compose()["services"]
    kafka_env = services["kafka"]["environment"]
    mechanism = kafka_env["KAFKA_SASL_ENABLED_MECHANISMS"]
    assert mechanism == "SCRAM-SHA-512"
    users = services["kafka-users"]
    assert users["depends_on"]["kafka"]["condition"] == "service_healthy"
    assert users["environment"]["LEAKLINE_KAFKA_PASSWORD"].startswith(
        "${LEAKLINE_KAFKA_PASSWORD:?"
    )  # required: compose refuses to start without it, no default password
    command = " ".join(users["command"])
    assert "--bootstrap-server kafka:9092" in command and "--entity-type users" in command
    assert f"{mechanism}=[" in command and "password=$$LEAKLINE_KAFKA_PASSWORD" in command
    # the broker's JAAS file names the SCRAM login module and holds no secret
    mount = next(v for v in services["kafka"]["volumes"] if "jaas" in v)
    source, target = mount.split(":")[:2]
    assert target in kafka_env["KAFKA_OPTS"]
    jaas = (ROOT / source).read_text()
    assert "ScramLoginModule required;" in jaas and "password" not in jaas


def test_the_advertised_outside_listener_is_the_published_one() -> None:
    kafka = compose()["services"]["kafka"]
    advertised = interpolate(kafka["environment"]["KAFKA_ADVERTISED_LISTENERS"], {})
    external = next(a for a in advertised.split(",") if a.startswith("EXTERNAL://"))
    assert external == "EXTERNAL://localhost:29092"
    # the services inside the network use the internal listener
    for name in ("worker", "litellm"):
        assert compose()["services"][name]["environment"]["LEAKLINE_BOOTSTRAP"] == "kafka:9092"


# ------------------------------------------------------------------ the client config

CLIENT_ENV = {  # what the compose file and docs/operations/deployment.md tell a client
    "LEAKLINE_SECURITY_PROTOCOL": "SASL_PLAINTEXT",
    "LEAKLINE_SASL_MECHANISM": "SCRAM-SHA-512",
    "LEAKLINE_SASL_USERNAME": "leakline",
    "LEAKLINE_SASL_PASSWORD": "pw-from-the-environment",
}


def _tail_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    tail.add_parser(parser.add_subparsers())
    return parser.parse_args(["tail", *argv])


def test_the_client_config_reaches_the_tail_consumer(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in CLIENT_ENV.items():
        monkeypatch.setenv(key, value)
    header = COMPOSE.read_text()
    for key in CLIENT_ENV:
        assert key in header  # the compose file documents the same variables
    settings = settings_from_args(_tail_args("--bootstrap", "127.0.0.1:29092"))
    opts = tail.TailOptions(
        bootstrap=settings.bootstrap,
        samples_topic="leak.samples",
        stats_topic="leak.stats",
        filt=TailFilter(),
        security=settings.security,
    )

    async def build() -> dict[str, Any]:
        reader = tail._Reader(opts)  # the real AIOKafkaConsumer tail starts
        client = vars(reader.consumer._client)
        await reader.consumer.stop()
        return client

    client = asyncio.run(build())
    assert client["_security_protocol"] == "SASL_PLAINTEXT"
    assert client["_sasl_mechanism"] == "SCRAM-SHA-512"
    assert client["_sasl_plain_username"] == "leakline"
    assert client["_sasl_plain_password"] == "pw-from-the-environment"
    # the worker's Faust app gets the same login
    creds = faust_credentials(settings.security)
    assert (creds.username, creds.password, str(creds.mechanism.value)) == (
        "leakline",
        "pw-from-the-environment",
        "SCRAM-SHA-512",
    )


# ------------------------------------------------------------------ a real SASL broker


@pytest.fixture
def sasl_broker(tmp_path: Path) -> Iterator[str]:
    """Tansu with --authentication: every client must log in."""
    port = free_port()
    url = f"tcp://127.0.0.1:{port}"
    with open(tmp_path / "broker.log", "ab") as log:
        process = subprocess.Popen(
            [resolve_broker_binary(), "broker", "--listener-url", url]
            + ["--advertised-listener-url", url, "--authentication"],
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    try:
        assert wait_for_port("127.0.0.1", port, 15.0)
        yield f"127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.parametrize("command", [["tail", "--once", "--format", "plain"], ["dlq"]])
def test_a_refused_scram_login_is_a_clear_error(sasl_broker: str, command: list[str]) -> None:
    env = {**os.environ, **CLIENT_ENV, "LEAKLINE_SASL_PASSWORD": "not-the-password"}
    done = leakline(*command, "--bootstrap", sasl_broker, env=env)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "refused the SASL login" in done.stderr
    assert "not-the-password" not in done.stderr + done.stdout
