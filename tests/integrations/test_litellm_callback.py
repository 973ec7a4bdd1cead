"""The real LiteLLM SDK against engine-sim with the leakline callback registered:
events reach Kafka, a worker labels them, the store has the right labels and versions."""

from __future__ import annotations

import asyncio
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest
from leakline_testkit import read_topic, spawn_worker, wait_stored

from leakline import __version__
from leakline.pipeline.store.database import read_only

litellm = pytest.importorskip("litellm")  # the optional extra: pip install 'leakline[litellm]'

from leakline.client.litellm import LeaklineLogger  # noqa: E402

# LiteLLM's own pydantic models warn on import and on dump; not ours to fix
pytestmark = [
    pytest.mark.filterwarnings("ignore:.*ReadOnly.*:UserWarning"),
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning"),
]

# every address a socket connected or resolved while the test ran (LiteLLM must stay offline)
_OUTBOUND: list[str] = []
_WATCH = {"on": False}


def _audit(event: str, args: tuple) -> None:  # type: ignore[type-arg]
    if not _WATCH["on"]:
        return
    if event == "socket.getaddrinfo" and args[0] not in ("127.0.0.1", "localhost", None):
        _OUTBOUND.append(f"resolve {args[0]}")
    elif event == "socket.connect" and isinstance(args[1], tuple) and args[1][0] != "127.0.0.1":
        _OUTBOUND.append(f"connect {args[1]}")


sys.addaudithook(_audit)

QUESTION = [{"role": "user", "content": "How do I rotate the API keys?"}]
PROFILES = ("good", "tool-parser-only")


def wait_for(predicate, timeout_s: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def test_hooks_never_raise_into_litellm() -> None:
    """Garbage from LiteLLM is counted, not raised; non-chat call types are skipped."""
    sent: list[dict] = []

    class Collect:
        def submit(self, event: dict) -> bool:
            sent.append(event)
            return True

    logger = LeaklineLogger(producer=Collect())
    logger.log_success_event({"call_type": "embedding"}, object(), None, None)
    logger.log_success_event(
        {"call_type": "completion", "litellm_call_id": "a"}, object(), None, None
    )  # a response that is no chat completion
    logger.log_failure_event(None, None, None, None)  # type: ignore[arg-type]
    asyncio.run(
        logger.async_log_success_event(
            {"litellm_call_id": "b", "model": "m", "messages": []},
            {"choices": [{"message": {"content": "hi"}}]},
            None,
            None,
        )
    )
    asyncio.run(logger.async_log_success_event({"litellm_call_id": "b"}, {}, None, None))
    assert logger.errors == 2
    assert [e["event_id"] for e in sent] == ["litellm-b"]  # the second "b" is a duplicate
    assert sent[0]["gateway"]["name"] == "litellm"


def test_proxy_config_entry_resolves_to_the_logger() -> None:
    """The documented `litellm_settings.callbacks` entry, resolved by the proxy's own loader
    (the proxy server itself needs `litellm[proxy]`, not installed here)."""
    from litellm.proxy.common_utils.callback_utils import _loaded_callback_or_raise
    from litellm.proxy.types_utils.utils import get_instance_fn

    from leakline.client import litellm as litellm_callback

    entry = "leakline.client.litellm.leakline_logger"
    resolved = _loaded_callback_or_raise(entry, get_instance_fn(entry))
    assert resolved is litellm_callback.leakline_logger
    # importing it created no producer: the proxy imports config modules before forking workers
    assert litellm_callback.leakline_logger._producer is None


@pytest.mark.slow
def test_litellm_sdk_calls_end_up_labeled(
    broker, engine_sim, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the documented configuration path: environment only
    monkeypatch.setenv("LEAKLINE_BOOTSTRAP", broker.bootstrap)
    monkeypatch.setenv("LEAKLINE_MODEL_REVISION", "rev-l")
    monkeypatch.setenv("LEAKLINE_REASONING_PARSER", "qwen3")
    logger = LeaklineLogger()
    monkeypatch.setattr(litellm, "callbacks", [logger])
    worker = spawn_worker(broker.bootstrap, tmp_path / "data")
    common = {"api_base": engine_sim.base_url, "api_key": "sk-test", "messages": QUESTION}

    _WATCH["on"] = True
    try:
        calls = 0
        for profile in PROFILES:
            model = f"openai/sim-{profile}"
            reply = litellm.completion(model=model, **common)
            assert reply.choices[0].message.content
            for _ in litellm.completion(model=model, stream=True, **common):
                pass
            calls += 2

        async def async_calls() -> None:
            for profile in PROFILES:
                model = f"openai/sim-{profile}"
                await litellm.acompletion(model=model, **common)
                stream = await litellm.acompletion(model=model, stream=True, **common)
                async for _ in stream:
                    pass
            await asyncio.sleep(0.5)  # LiteLLM runs async success hooks as tasks

        asyncio.run(async_calls())
        calls += 4
        # the Responses API through LiteLLM, streamed and not
        for stream in (False, True):
            reply = litellm.responses(
                model="openai/sim-tool-parser-only",
                api_base=engine_sim.base_url,
                api_key="sk-test",
                input="How do I rotate the API keys?",
                stream=stream,
            )
            if stream:
                for _ in reply:
                    pass
            calls += 1
        # a failing call (engine-sim rejects an unknown profile with HTTP 400)
        with pytest.raises(litellm.BadRequestError):
            litellm.completion(
                model="openai/sim-good",
                extra_headers={"x-leakline-profile": "no-such-profile"},
                num_retries=0,
                **common,
            )
        calls += 1
        wait_for(lambda: logger.producer.stats.queued >= calls, 60, "LiteLLM hooks")
        stats = logger.producer.close(timeout_s=60)
        assert stats.sent == calls and stats.dropped == 0 and logger.errors == 0, stats
        wait_stored(worker, calls)
        time.sleep(1.0)  # a duplicate (a call logged twice) would show up now
    finally:
        _WATCH["on"] = False
        assert worker.stop() == 0, worker.log_text()[-3000:]

    assert _OUTBOUND == []  # offline: LiteLLM reached nothing beyond loopback
    assert not read_topic(broker.bootstrap, "gateway.events.dlq")
    with read_only(tmp_path / "data") as con:
        rows = con.execute(
            "select event_id, labels, engine_name, engine_version, model_name, model_revision, "
            "reasoning_parser, gateway_name, gateway_version, stream, finish_reason, api "
            "from samples order by event_id"
        ).fetchall()
        raw_rows = con.execute("select count(*) from samples_all").fetchone()[0]
    assert len(rows) == calls == raw_rows  # one event per call, none twice
    assert all(r[0].startswith("litellm-") for r in rows)
    # the failed call has no finish reason (engine-sim's 400 carries no engine headers)
    failed = [r for r in rows if r[10] == "unknown"]
    answered = [r for r in rows if r[10] != "unknown"]
    by_model: dict[tuple[str, bool], list[tuple]] = {}
    for row in answered:
        by_model.setdefault((row[4], row[9]), []).append(row)
    versions = {(r[2], r[3], r[5], r[6], r[7], r[8]) for r in answered}
    assert versions == {
        (
            "leakline-engine-sim",
            __version__,
            "rev-l",
            "qwen3",
            "litellm",
            metadata.version("litellm"),
        )
    }

    # clean profile: clean, streamed or not, sync or async
    good = by_model[("sim-good", False)] + by_model[("sim-good", True)]
    assert len(good) == 4 and [r for r in good if r[1]] == []
    # the leaky profile (reasoning merged into content) shows up as what it is, in both APIs
    leaky = by_model[("sim-tool-parser-only", False)] + by_model[("sim-tool-parser-only", True)]
    assert sorted(r[11] for r in leaky) == ["chat.completions"] * 4 + ["responses"] * 2
    for row in leaky:
        assert {"boundary_token", "reasoning_leak"} <= set(row[1]), row
    # both modes reached the store as streamed / not streamed
    assert len(by_model[("sim-tool-parser-only", True)]) == 3
    # the failed call is stored too: its model, no labels, no engine version to claim
    assert len(failed) == 1 and failed[0][1] == [] and failed[0][4] == "sim-good"
    assert failed[0][2:4] == ("unknown", "unknown")
