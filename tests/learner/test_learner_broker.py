"""The fleet learner through a real broker and a real worker (issue 29, item 1).

A new version of one model starts writing an invented reasoning pair that no family row
knows. The running worker suggests it (its file in the data directory), ``families
suggest`` lists it, ``families accept`` writes the row, and the same worker, without a
restart, then labels the pair on new events through that row.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from leakline_testkit import spawn_worker, wait_stored

from leakline.pipeline.cli import main as cli_main
from leakline.pipeline.families import marker_suggestions as sg
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.store.database import read_only

pytestmark = pytest.mark.slow

MODEL = "acme-chat-7b"
OPEN, CLOSE = "⟪⟪mull⟫⟫", "⟪⟪/mull⟫⟫"  # invented: no family row has either literal
WORDS = [
    "the",
    "a",
    "model",
    "answer",
    "data",
    "value",
    "file",
    "time",
    "result",
    "table",
    "list",
    "query",
    "river",
    "music",
]


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 12))).capitalize() + "."


def _answer(rng: random.Random) -> str:
    """Ordinary content, brackets included (HTML, Markdown, a chat line, a TOML header)."""
    kind = rng.random()
    if kind < 0.2:
        return f"<div>\n  <p>{_sentence(rng)}</p>\n</div>"
    if kind < 0.35:
        return f"- [x] {_sentence(rng)}\n[docs](https://example.com/{rng.choice(WORDS)})"
    if kind < 0.45:
        return f'[package]\nname = "{rng.choice(WORDS)}"'
    return " ".join(_sentence(rng) for _ in range(rng.randint(1, 4)))


def _event(event_id: str, version: str, text: str, prompt: str) -> bytes:
    return orjson.dumps(
        {
            "event_id": event_id,
            "api": "chat.completions",
            "engine": {"name": "vllm", "version": version},
            "model": {"name": MODEL},
            "chat_template": {"hash": f"tmpl-{version}"},
            "request": {"model": MODEL, "messages": [{"role": "user", "content": prompt}]},
            "response": {
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ]
            },
        }
    )


def _traffic(rng: random.Random, prefix: str, count: int, new_share: float) -> list[bytes]:
    """``count`` events; a share from version 2.0, which writes the pair in 40 % of them."""
    out = []
    for i in range(count):
        prompt, answer = _sentence(rng), _answer(rng)
        version = "2.0" if rng.random() < new_share else "1.0"
        if version == "2.0" and rng.random() < 0.4:
            answer = f"{OPEN}\n{_sentence(rng)} {_sentence(rng)}\n{CLOSE}\n\n{answer}"
        out.append(_event(f"{prefix}{i}", version, answer, prompt))
    return out


def _send(bootstrap: str, payloads: list[bytes]) -> None:
    report = asyncio.run(produce(bootstrap, "gateway.events", payloads))
    assert report.failed == 0 and report.sent == len(payloads)


def _wait(cond: Any, timeout_s: float, what: str, log: Any) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}; worker log:\n{log()[-3000:]}")


def _findings(data_dir: Path, prefix: str) -> dict[str, tuple[list[str], list[dict[str, Any]]]]:
    with read_only(data_dir) as con:
        rows = con.execute(
            "select event_id, labels, findings from samples where event_id like ?",
            [prefix + "%"],
        ).fetchall()
    return {eid: (list(labels), orjson.loads(found or "[]")) for eid, labels, found in rows}


def _learned(found: list[dict[str, Any]]) -> set[str]:
    """The learned family rows that the findings name."""
    names = set()
    for finding in found:
        family = (finding.get("details") or {}).get("family")
        if isinstance(family, str) and family.startswith(sg.ROW_PREFIX):
            names.add(family)
    return names


def test_worker_suggests_a_new_marker_and_labels_it_once_accepted(
    broker: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(29)
    data = tmp_path / "data"
    worker = spawn_worker(broker.bootstrap, data)
    try:
        # the old version alone first (the baseline), then both versions
        before = _traffic(rng, "before-", 800, 0.0) + _traffic(rng, "during-", 700, 0.4)
        _send(broker.bootstrap, before)
        wait_stored(worker, len(before))
        # the worker writes a fresh suggestion at once; nothing was labelled for it
        _wait(lambda: sg.read_all(data), 30, "a suggestion file", worker.log_text)
        during = _findings(data, "during-")
        assert len(during) == 700
        assert not any(_learned(found) for _, found in during.values()), (
            "a suggestion must never label anything"
        )

        assert cli_main(["families", "suggest", "--data-dir", str(data), "--format", "json"]) == 0
        items = orjson.loads(capsys.readouterr().out)["suggestions"]
        assert [item["shape"] for item in items] == [[OPEN, CLOSE]], items
        item = items[0]
        assert item["group"] == {
            "model": MODEL,
            "engine": "vllm",
            "engine_version": "2.0",
            "template_hash": "tmpl-2.0",
        }
        assert item["status"] == "new" and item["kind"] == "pair"
        assert item["row"]["reasoning_start"] == [OPEN]
        assert item["row"]["reasoning_end"] == [CLOSE]
        assert any(OPEN in example for example in item["examples"])

        assert cli_main(["families", "accept", item["id"], "--data-dir", str(data)]) == 0
        capsys.readouterr()
        families = orjson.loads((data / "families.json").read_bytes())
        assert [row["name"] for row in families["families"]] == [sg.row_name(item["id"])]

        # the same worker process, no restart: the next events are labelled by that row
        time.sleep(3)  # past the batch children's families check (every 2 s)
        after = _traffic(rng, "after-", 300, 0.5)
        _send(broker.bootstrap, after)
        wait_stored(worker, len(before) + len(after))
        assert worker.proc.poll() is None  # never restarted
    finally:
        assert worker.stop() == 0, worker.log_text()[-3000:]

    written = {orjson.loads(p)["event_id"] for p in after if OPEN.encode() in p}
    assert written, "the traffic wrote the pair after the accept"
    stored = _findings(data, "after-")
    row = sg.row_name(item["id"])
    for eid in written:
        labels, found = stored[eid]
        assert "reasoning_leak" in labels, (eid, labels, found)
        assert row in _learned(found), (eid, found)
    plain = [eid for eid in stored if eid not in written]
    assert plain and not any(_learned(stored[eid][1]) for eid in plain)
    assert sg.read_all(data)[0]["status"] == "accepted"
