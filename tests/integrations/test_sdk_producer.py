"""The official openai/anthropic SDKs against engine-sim, events sent with the producer
library, labeled by a real worker: the gateway path a Python gateway would embed."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from typing import Any

import anthropic
import openai
import orjson
import pytest
from leakline_testkit import read_topic, spawn_worker, wait_stored

from leakline import __version__
from leakline.client import EventMeta, LeakProducer, ProducerConfig, build_event
from leakline.pipeline.detect.offline import detect_line
from leakline.pipeline.store.database import read_only

pytestmark = pytest.mark.slow

META = EventMeta(model_revision="rev-7", reasoning_parser="qwen3", tool_call_parser="hermes")
QUESTION = [{"role": "user", "content": "How do I rotate the API keys?"}]


async def parse(raw: Any) -> Any:
    parsed = raw.parse()  # sync in some SDK versions, a coroutine in others
    return await parsed if inspect.isawaitable(parsed) else parsed


async def chat(client: openai.AsyncOpenAI, profile: str, stream: bool) -> dict[str, Any]:
    body = {"model": f"sim-{profile}", "messages": QUESTION, "stream": stream}
    raw = await client.chat.completions.with_raw_response.create(**body)
    parsed = await parse(raw)
    if stream:
        chunks = [chunk async for chunk in parsed]  # what an accumulating gateway keeps
        return build_event(
            request=body,
            chunks=chunks,
            meta=META,
            headers=raw.headers,
            event_id=f"oa-{profile}-stream",
        )
    return build_event(
        request=body,
        response=parsed,
        meta=META,
        headers=raw.headers,
        event_id=f"oa-{profile}-plain",
    )


async def responses(client: openai.AsyncOpenAI, stream: bool) -> dict[str, Any]:
    body = {
        "model": "sim-tool-parser-only",
        "input": "How do I rotate the API keys?",
        "stream": stream,
    }
    raw = await client.responses.with_raw_response.create(**body)
    parsed = await parse(raw)
    if stream:
        events = [e async for e in parsed]
        return build_event(
            request=body,
            chunks=events,
            meta=META,
            headers=raw.headers,
            event_id="oa-responses-stream",
        )
    return build_event(
        request=body, response=parsed, meta=META, headers=raw.headers, event_id="oa-responses-plain"
    )


async def messages(client: anthropic.AsyncAnthropic, stream: bool) -> dict[str, Any]:
    body = {
        "model": "sim-tool-parser-only",
        "messages": QUESTION,
        "max_tokens": 512,
        "stream": stream,
    }
    raw = await client.messages.with_raw_response.create(**body)
    parsed = await parse(raw)
    if stream:
        events = [e async for e in parsed]
        return build_event(
            request=body,
            chunks=events,
            meta=META,
            headers=raw.headers,
            event_id="an-messages-stream",
        )
    return build_event(
        request=body, response=parsed, meta=META, headers=raw.headers, event_id="an-messages-plain"
    )


def test_openai_and_anthropic_sdk_events_end_up_labeled(broker, engine_sim, tmp_path: Path) -> None:
    worker = spawn_worker(broker.bootstrap, tmp_path / "data")

    async def gateway() -> list[dict[str, Any]]:
        oa = openai.AsyncOpenAI(base_url=engine_sim.base_url, api_key="sk-test", max_retries=0)
        an = anthropic.AsyncAnthropic(
            base_url=engine_sim.base_url.removesuffix("/v1"), api_key="sk-test", max_retries=0
        )
        events = []
        async with LeakProducer(ProducerConfig(bootstrap=broker.bootstrap)) as producer:
            for profile in ("good", "tool-parser-only", "mixed-chunk"):
                for stream in (False, True):
                    events.append(await chat(oa, profile, stream))
            for stream in (False, True):
                events.append(await responses(oa, stream))
                events.append(await messages(an, stream))
            assert all(producer.submit(e) for e in events)
            assert await producer.flush(60), producer.stats
        return events

    try:
        events = asyncio.run(gateway())
        wait_stored(worker, len(events))
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]

    assert not read_topic(broker.bootstrap, "gateway.events.dlq")
    with read_only(tmp_path / "data") as con:
        rows = {
            r[0]: r[1:]
            for r in con.execute(
                "select event_id, labels, engine_name, engine_version, model_name, "
                "model_revision, reasoning_parser, stream from samples"
            ).fetchall()
        }
    assert set(rows) == {e["event_id"] for e in events}
    for event in events:
        labels, engine, version, model, revision, parser, stream = rows[event["event_id"]]
        # the stored verdict is the offline verdict of exactly what the producer sent
        offline = detect_line(orjson.dumps(event), 4 * 1024 * 1024)
        assert sorted(labels) == offline["labels"], event["event_id"]
        # versions: engine from engine-sim's headers, model from the body, the rest configured
        assert (engine, version) == ("leakline-engine-sim", __version__)
        assert model == event["request"]["model"]
        assert (revision, parser) == ("rev-7", "qwen3")
        assert stream == event["request"]["stream"]

    def labels_of(eid: str) -> list[str]:
        return sorted(rows[eid][0])

    assert labels_of("oa-good-plain") == [] and labels_of("oa-good-stream") == []
    for eid in (
        "oa-tool-parser-only-plain",
        "oa-tool-parser-only-stream",
        "oa-responses-plain",
        "oa-responses-stream",
        "an-messages-plain",
        "an-messages-stream",
    ):
        assert {"boundary_token", "reasoning_leak"} <= set(labels_of(eid)), eid
    # chunk-level fact: only visible when the stream's chunks were kept
    assert "mixed_chunk" in labels_of("oa-mixed-chunk-stream")
    assert "mixed_chunk" not in labels_of("oa-mixed-chunk-plain")
