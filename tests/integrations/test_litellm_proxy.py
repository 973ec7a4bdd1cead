"""The real LiteLLM proxy (``litellm --config``) in front of engine-sim, with the leakline
callback configured the way the README says, driven by the ``openai`` SDK (streamed and
not, with and without tools): events reach a real worker, and the store has the proxy's
name and version, the model, the engine version from engine-sim's headers and the labels
``leakline detect`` gives the same events.

The proxy's runtime is not ``litellm[proxy]`` here: that extra pins ``litellm-proxy`` and
``litellm-proxy-extras`` releases the package index does not have, so the dev extra lists
the modules the proxy imports at start-up (pyproject.toml, "LiteLLM proxy").
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

import orjson
import pytest
from leakline_testkit import read_topic, spawn_worker, wait_stored

from leakline import __version__

pytestmark = pytest.mark.slow

CONFIG = """\
model_list:
  - model_name: qwen3-clean
    litellm_params: {{model: openai/sim-good, api_base: "{base}", api_key: none}}
  - model_name: qwen3-leaky
    litellm_params: {{model: openai/sim-tool-parser-only, api_base: "{base}", api_key: none}}
  - model_name: qwen3-tools-as-text
    litellm_params: {{model: openai/sim-tools-as-text, api_base: "{base}", api_key: none}}
litellm_settings:
  callbacks: ["leakline.client.litellm.leakline_logger"]
"""

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_proxy(
    config: Path, env: dict[str, str], log: Path
) -> tuple[subprocess.Popen[bytes], str]:
    litellm_bin = shutil.which("litellm", path=str(Path(sys.executable).parent))
    if litellm_bin is None:
        pytest.skip("the litellm CLI is not installed (pip install 'leakline[dev]')")
    port = _free_port()
    proc = subprocess.Popen(
        [litellm_bin, "--config", str(config), "--host", "127.0.0.1", "--port", str(port)],
        cwd=config.parent,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    import urllib.request

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the LiteLLM proxy exited:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/liveliness", timeout=2):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise AssertionError(f"the LiteLLM proxy did not start:\n{log.read_text()[-4000:]}")


def test_litellm_proxy_with_the_leakline_callback_end_to_end(
    broker, engine_sim, tmp_path: Path
) -> None:
    import openai

    from leakline.pipeline.detect.offline import detect_line
    from leakline.pipeline.store.database import read_only

    worker = spawn_worker(broker.bootstrap, tmp_path / "data")
    config = tmp_path / "proxy" / "config.yaml"
    config.parent.mkdir()
    config.write_text(CONFIG.format(base=engine_sim.base_url))
    master_key = "sk-" + secrets.token_hex(24)
    env = {
        **os.environ,
        # offline: the bundled cost map, no other fetches (README, integrations page)
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "LITELLM_OFFLINE_MODE": "true",
        "LITELLM_MASTER_KEY": master_key,
        "LEAKLINE_BOOTSTRAP": broker.bootstrap,
        "LEAKLINE_REASONING_PARSER": "qwen3",
        "LEAKLINE_TOOL_CALL_PARSER": "hermes",
    }
    proxy, base = _start_proxy(config, env, tmp_path / "proxy.log")
    requests: list[dict[str, Any]] = []
    try:
        client = openai.OpenAI(base_url=f"{base}/v1", api_key=master_key, max_retries=0)
        question = [{"role": "user", "content": "How do I rotate the API keys?"}]
        weather = [{"role": "user", "content": "What is the weather in Seoul?"}]
        for model in ("qwen3-clean", "qwen3-leaky"):
            for stream in (False, True):
                requests.append({"model": model, "messages": question, "stream": stream})
        for stream in (False, True):
            requests.append(
                {
                    "model": "qwen3-tools-as-text",
                    "messages": weather,
                    "tools": [WEATHER_TOOL],
                    "stream": stream,
                }
            )
        for body in requests:
            reply = client.chat.completions.create(**body)
            if body["stream"]:
                assert list(reply)  # read the stream to its end, as a client does
        wait_stored(worker, len(requests), timeout_s=120)
    finally:
        proxy.send_signal(signal.SIGTERM)
        try:
            proxy.wait(30)
        except subprocess.TimeoutExpired:
            proxy.kill()
        assert worker.stop() == 0, worker.log_text()[-3000:]

    assert not read_topic(broker.bootstrap, "gateway.events.dlq")
    events = {}
    for record in read_topic(broker.bootstrap, "gateway.events"):
        event = orjson.loads(record.value)
        events[event["event_id"]] = event
    assert len(events) == len(requests), sorted(events)
    with read_only(tmp_path / "data") as con:
        rows = {
            r[0]: r[1:]
            for r in con.execute(
                "select event_id, labels, gateway_name, gateway_version, engine_name, "
                "engine_version, model_name, reasoning_parser, stream from samples"
            ).fetchall()
        }
    assert set(rows) == set(events)
    by_request: dict[tuple[str, bool], list[str]] = {}
    for event_id, event in events.items():
        labels, gateway, gateway_version, engine, engine_version, model, parser, stream = rows[
            event_id
        ]
        offline = detect_line(orjson.dumps(event), 4 * 1024 * 1024)
        assert sorted(labels) == offline["labels"], event_id
        # the proxy's name and version, the engine's from engine-sim's x-leakline-* headers
        # (LiteLLM passes them on as llm_provider-x-leakline-*), the parser from the env
        assert (gateway, gateway_version) == ("litellm", metadata.version("litellm"))
        assert (engine, engine_version) == ("leakline-engine-sim", __version__)
        assert parser == "qwen3"
        assert model, event_id
        assert event["request"]["model"].startswith("qwen3-")  # the body the client sent
        by_request[(event["request"]["model"], bool(stream))] = sorted(labels)
    assert set(by_request) == {(b["model"], b["stream"]) for b in requests}
    assert by_request[("qwen3-clean", False)] == [] and by_request[("qwen3-clean", True)] == []
    for stream in (False, True):
        assert "reasoning_leak" in by_request[("qwen3-leaky", stream)]
        assert "tool_call_as_text" in by_request[("qwen3-tools-as-text", stream)]


def test_the_compose_gateway_config_runs_as_is(broker, engine_sim, tmp_path: Path) -> None:
    """deploy/litellm/config.yaml (docker-compose.yml's `litellm` service), unchanged, with
    the service's environment pointed at engine-sim."""
    import openai

    from leakline.pipeline.store.database import read_only

    config = Path(__file__).resolve().parents[2] / "deploy" / "litellm" / "config.yaml"
    worker = spawn_worker(broker.bootstrap, tmp_path / "data")
    master_key = "sk-" + secrets.token_hex(24)
    env = {
        **os.environ,
        "LITELLM_MASTER_KEY": master_key,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "LITELLM_OFFLINE_MODE": "true",
        "UPSTREAM_MODEL": "openai/sim-tool-parser-only",
        "UPSTREAM_API_BASE": engine_sim.base_url,
        "UPSTREAM_API_KEY": "none",
        "LEAKLINE_BOOTSTRAP": broker.bootstrap,
        "LEAKLINE_ENGINE": "vllm",
        "LEAKLINE_ENGINE_VERSION": "0.11.0",
        "LEAKLINE_REASONING_PARSER": "",  # compose passes unset ones as empty: unknown
    }
    proxy, base = _start_proxy(config, env, tmp_path / "proxy.log")
    try:
        client = openai.OpenAI(base_url=f"{base}/v1", api_key=master_key, max_retries=0)
        client.chat.completions.create(
            model="default",
            messages=[{"role": "user", "content": "How do I rotate the API keys?"}],
            user="alice@example.com",
            # request tags (LiteLLM's `metadata.tags`): key:value ones become event tags
            extra_body={"metadata": {"tags": ["tenant:acme", "route:help"]}},
        )
        wait_stored(worker, 1, timeout_s=120)
    finally:
        proxy.send_signal(signal.SIGTERM)
        try:
            proxy.wait(30)
        except subprocess.TimeoutExpired:
            proxy.kill()
        assert worker.stop() == 0, worker.log_text()[-3000:]
    with read_only(tmp_path / "data") as con:
        (row,) = con.execute(
            "select labels, gateway_name, engine_name, engine_version, reasoning_parser, tags, "
            "prompt_tokens, latency_ms from samples"
        ).fetchall()
    labels, gateway, engine, engine_version, parser, tags, prompt_tokens, latency = row
    # operator dimensions from the proxy's metadata; the user only as a hash
    stored_tags = orjson.loads(tags)
    assert (stored_tags["tenant"], stored_tags["route"]) == ("acme", "help"), stored_tags
    assert "alice" not in tags
    assert prompt_tokens and latency and latency > 0
    assert "reasoning_leak" in labels
    # configured versions win over engine-sim's headers; an empty variable is unknown
    assert (gateway, engine, engine_version) == ("litellm", "vllm", "0.11.0")
    assert parser in (None, "unknown", "")
