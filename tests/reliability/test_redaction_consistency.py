"""Issue 32, defect 10 (acceptance): whatever is redacted in one field is redacted in every
field an output shows. Two Chinese leaks go through a real worker (real broker, dashboard
served): one whose text holds no secret but an order number next to where the evidence is
cut (the evidence used to read ``[REDACTED]…`` beside the span in full), and one with a
phone number and a password inside the leaking span. Every output is read: ``tail``, the
dashboard's samples and event JSON and the event page, ``leakline export`` files and
regression cases, ``review --list``, Parquet, topics. The secrets appear in none, and in
each output a finding's evidence is a piece of the text that output shows."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import orjson
import pytest
from leakline_testkit import every_place, leakline, spawn_worker, wait_stored
from test_planted_secrets import _wait_samples

from leakline.pipeline.kafka.broker import free_port
from leakline.pipeline.kafka.io import produce

# no secret: an order number in a clause without spaces, right where a snippet is cut
PLAIN = (
    "好的我来想一想用户问的是订单2024011512345的问题我应该先查询再回答</think>"
    "您好，您的订单已经发货了，请注意查收，谢谢您的耐心等待。"
)
# a phone number and a password inside the span of the reasoning leak
SECRETS = ("13800138000", "Hunter2024xyz")
WITH_PII = (
    f"用户手机{SECRETS[0]}，密码：{SECRETS[1]}，订单2024011512345的问题我应该先查询再回答</think>"
    "您好，您的订单已经发货了，请注意查收，谢谢您的耐心等待。"
)
TEXTS = {"zh-plain": PLAIN, "zh-pii": WITH_PII}


def _event(event_id: str, text: str) -> dict[str, Any]:
    return {
        "event_id": event_id,
        "ts": "2026-12-02T03:00:00Z",
        "api": "chat.completions",
        "engine": {"name": "vllm", "version": "0.9.0"},
        "model": {"name": "Qwen/Qwen3-32B"},
        "parsers": {"reasoning": "qwen3", "tool_call": "hermes"},
        "request": {"messages": [{"role": "user", "content": "我的订单怎么样了"}]},
        "response": {"choices": [{"message": {"content": text}, "finish_reason": "stop"}]},
    }


def _core(evidence: str) -> str:
    """The evidence without the cut marks at its ends."""
    return evidence.strip("…")


def _segments_text(view: dict[str, Any]) -> str:
    return "".join(seg["text"] for seg in view["segments"])


def _check_findings(where: str, text: str, findings: list[dict[str, Any]]) -> None:
    spanned = [f for f in findings if f.get("span")]
    assert spanned, where
    for f in spanned:
        assert "[REDACTED]" not in f["evidence"], (where, f)
        assert _core(f["evidence"]) in text, (where, f["evidence"], text)


@pytest.mark.slow
def test_redaction_is_the_same_in_every_field_of_every_output(broker, tmp_path: Path) -> None:
    port = free_port()
    store = tmp_path / "store"
    worker = spawn_worker(
        broker.bootstrap, store, "--web", "--web-port", str(port), "--batch-within", "0.2"
    )
    try:
        payloads = [orjson.dumps(_event(k, v)) for k, v in TEXTS.items()]
        report = asyncio.run(produce(broker.bootstrap, "gateway.events", payloads))
        assert report.sent == len(payloads), report
        wait_stored(worker, len(payloads))
        _wait_samples(port, len(payloads))
        places = every_place(broker.bootstrap, store, port, "", tmp_path / "out")
        base = f"http://127.0.0.1:{port}/dashboard"
        samples = orjson.loads(places["web /dashboard/api/samples?limit=100"])
        samples = (
            samples.get("samples", samples.get("items")) if isinstance(samples, dict) else samples
        )
        assert {s["event_id"] for s in samples} == set(TEXTS)
        events = {}
        for event_id in TEXTS:
            query = urllib.parse.urlencode({"id": event_id})
            with urllib.request.urlopen(f"{base}/api/event?{query}", timeout=10) as response:
                raw = response.read()
            places[f"web /dashboard/api/event {event_id}"] = raw
            events[event_id] = orjson.loads(raw)
            page = f"http://127.0.0.1:{port}/event/{urllib.parse.quote(event_id)}"
            with urllib.request.urlopen(page, timeout=10) as response:
                places[f"web /event/{event_id}"] = response.read()
        tail = leakline(
            "tail", "--bootstrap", broker.bootstrap, "--from-beginning", "--once",
            "--format", "plain",
        )  # fmt: skip
        assert tail.returncode == 0, tail.stderr
        places["tail output"] = (tail.stdout + tail.stderr).encode()
        review = leakline("review", "--data-dir", str(store), "--list")
        assert review.returncode == 0, review.stderr
        places["review --list"] = (review.stdout + review.stderr).encode()
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]
    places["worker log"] = worker.log_text().encode()

    # no secret reaches any output
    leaks = {
        name: [s for s in SECRETS if s in blob.decode("utf-8", "replace")]
        for name, blob in places.items()
    }
    assert not {name: found for name, found in leaks.items() if found}
    # the redacted sample was redacted, the other not at all
    pii_view = events["zh-pii"]
    assert "[PHONE]" in _segments_text(pii_view) and "[API_KEY]" in _segments_text(pii_view)
    assert _segments_text(events["zh-plain"]) == PLAIN

    # in each output, a finding's evidence is a piece of the text shown beside it
    for sample in samples:
        _check_findings(f"samples {sample['event_id']}", _segments_text(sample), sample["findings"])
    for event_id, view in events.items():
        _check_findings(f"event {event_id}", _segments_text(view), view["findings"])
    lines = [line for line in tail.stdout.splitlines() if line.startswith("leak ")]
    assert len(lines) == len(TEXTS), tail.stdout
    for line in lines:
        span = json.loads(_field(line, "span")).replace("[[", "").replace("]]", "")
        evidence = json.loads(_field(line, "evidence"))
        assert "[REDACTED]" not in evidence, line
        assert _core(evidence) in span, line


def _field(line: str, name: str) -> str:
    """The JSON-quoted value of ``name=`` in a plain tail line."""
    m = re.search(rf' {name}=("(?:[^"\\]|\\.)*")', line)
    assert m, line
    return m.group(1)
