"""``pip install leakline-client`` next to a gateway: aiokafka and nothing of the analysis stack.

The client wheel is installed alone, with its dependencies from the package index, into a
fresh venv per Python version (3.11 here, plus 3.9 and 3.13 when a pyenv interpreter is
found, or the interpreters in $LEAKLINE_CLIENT_PYTHONS, separated by ``:``). In that venv a
script builds events with ``build_event`` and sends them to a real broker with
``LeakProducer`` and ``ThreadedLeakProducer``; the test reads them back and checks them
against the contract the worker applies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from conftest import Wheels, run

from leakline.pipeline.events.contract import validate_event

pytestmark = pytest.mark.slow

# what `pip install leakline-client` may bring (aiokafka's own dependencies included)
ALLOWED = {"leakline-client", "aiokafka", "async-timeout", "packaging", "typing-extensions"}
ANALYSIS = {"faust-streaming", "duckdb", "pyarrow", "scikit-learn", "numpy", "jsonschema"}
BOOTSTRAP_TOOLS = {"pip", "setuptools", "wheel"}


def _interpreters() -> list[str]:
    listed = os.environ.get("LEAKLINE_CLIENT_PYTHONS")
    if listed:
        return [p for p in listed.split(":") if p]
    found = [sys.executable]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    for minor in ("3.9", "3.13"):
        candidates = sorted(pyenv.glob(f"{minor}.*/bin/python"))
        if candidates:
            found.append(str(candidates[-1]))
    return found


def _version(python: str) -> str:
    out = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                         capture_output=True, text=True, check=True)  # fmt: skip
    return out.stdout.strip()


PYTHONS = _interpreters()

SCRIPT = r"""
import asyncio, json, sys
import leakline
from leakline.client import (
    EventMeta, LeakProducer, ProducerConfig, ThreadedLeakProducer, build_event, validate_event,
)

bootstrap, topic = sys.argv[1], sys.argv[2]
meta = EventMeta(engine_name="vllm", engine_version="0.11.0", reasoning_parser="qwen3")
request = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
response = {"object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "<think>x</think>Hello"}}]}


async def main():
    config = ProducerConfig(bootstrap=bootstrap, topic=topic)
    async with LeakProducer(config) as producer:
        for n in range(20):
            event = build_event(request=request, response=response, meta=meta, event_id=f"a-{n}")
            assert producer.submit(event)
        assert not producer.submit({"event_id": "bad", "api": "nope"})  # invalid: dropped
        assert await producer.flush(30)
    return producer.stats


stats = asyncio.run(main())
threaded = ThreadedLeakProducer(ProducerConfig(bootstrap=bootstrap, topic=topic))
for n in range(5):
    threaded.submit(build_event(request=request, chunks=[], meta=meta, event_id=f"t-{n}"))
tstats = threaded.close(30)
try:
    import leakline.client.litellm  # noqa: F401
    litellm = "imported"
except ImportError as exc:
    litellm = str(exc)
heavy = sorted(m for m in ("faust", "duckdb", "pyarrow", "sklearn", "jsonschema") if m in sys.modules)
print(json.dumps({"version": leakline.__version__, "sent": stats.sent, "invalid": stats.invalid,
                  "threaded_sent": tstats.sent, "litellm": litellm, "heavy": heavy}))
"""


@pytest.mark.parametrize("python", PYTHONS, ids=[_version(p) for p in PYTHONS])
def test_the_client_installs_alone_and_sends_to_a_broker(
    python: str, wheels: Wheels, broker, tmp_path: Path
) -> None:
    env = tmp_path / "venv"
    run(python, "-m", "venv", env) if python != sys.executable else venv.EnvBuilder(
        with_pip=True
    ).create(env)
    py = env / "bin" / "python"
    # with its dependencies, from the package index: what a gateway team would get
    run(py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheels.client)
    listed = json.loads(run(py, "-m", "pip", "list", "--format=json",
                            "--disable-pip-version-check"))  # fmt: skip
    installed = {d["name"].lower().replace("_", "-") for d in listed} - BOOTSTRAP_TOOLS
    assert not installed & ANALYSIS, installed
    assert installed <= ALLOWED, f"unexpected dependencies: {sorted(installed - ALLOWED)}"

    script = tmp_path / "gateway.py"
    script.write_text(SCRIPT)
    topic = "gateway.events"
    out = json.loads(run(py, script, broker.bootstrap, topic, cwd=tmp_path).splitlines()[-1])
    assert out["sent"] == 20 and out["invalid"] == 1 and out["threaded_sent"] == 5
    assert "pip install litellm" in out["litellm"]  # a clear hint, not a NameError
    assert out["heavy"] == []

    from leakline_testkit import read_topic

    records = read_topic(broker.bootstrap, topic)
    ids = sorted(r.key.decode() for r in records if r.key)
    assert ids == sorted([f"a-{n}" for n in range(20)] + [f"t-{n}" for n in range(5)])
    for record in records:
        event = validate_event(json.loads(record.value))  # the worker's own contract
        assert event["engine"] == {"name": "vllm", "version": "0.11.0"}
        assert event["gateway"]["name"] == "leakline-producer"
        assert event["gateway"]["version"] == out["version"]
