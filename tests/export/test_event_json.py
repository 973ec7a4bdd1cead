"""The redacted gateway event stored with text-stored rows (the material of regression cases)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import orjson
from export_store import store_events

from leakline.pipeline.events.contract import validate_event

SECRET = "kim.minji@example.com"


def chat(event_id: str, content: list[str], *, stream: bool, prompt: str) -> dict[str, Any]:
    event: dict[str, Any] = {
        "event_id": event_id,
        "ts": "2026-11-01T10:00:00Z",
        "api": "chat.completions",
        "request": {"model": "Qwen/Qwen3-8B", "messages": [{"role": "user", "content": prompt}]},
        "engine": {"name": "vllm", "version": "0.31.0"},
        "model": {"name": "Qwen/Qwen3-8B", "revision": "b968826d9c46"},
        "parsers": {"reasoning": "qwen3"},
    }
    if stream:
        event["stream"] = True
        event["chunks"] = [
            {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
            for piece in content
        ] + [{"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]
    else:
        event["response"] = {
            "choices": [{"message": {"content": "".join(content)}, "finish_reason": "stop"}]
        }
    return validate_event(event)


def stored(data_dir: Path) -> dict[str, dict[str, Any]]:
    with duckdb.connect(str(data_dir / "leakline.duckdb"), read_only=True) as con:
        con.execute("SET file_search_path = ?", [str(data_dir)])  # views read relative paths
        cursor = con.execute(
            "SELECT event_id, labels, text_stored, visible_text, event_json FROM samples"
        )
        names = [d[0] for d in cursor.description]
        return {row[0]: dict(zip(names, row, strict=True)) for row in cursor.fetchall()}


def test_event_json_is_redacted_like_the_text(tmp_path: Path) -> None:
    leak = chat(
        "e-leak",
        [f"Plan: mail {SECRET} first.</think>", "Your answer is ready."],
        stream=False,
        prompt=f"write to {SECRET} about 010-1234-5678",
    )
    rows = stored(store_events(tmp_path, [leak], clean_text_rate=0.0))
    row = rows["e-leak"]
    assert row["labels"] and row["text_stored"]
    assert SECRET not in row["visible_text"] and "[EMAIL]" in row["visible_text"]
    raw = row["event_json"]
    assert raw is not None and SECRET not in raw and "010-1234-5678" not in raw
    event = orjson.loads(raw)
    assert "[EMAIL]" in event["request"]["messages"][0]["content"]
    # ids, times and versions stay as the row stores them: the case replays faithfully
    assert (event["event_id"], event["ts"], event["engine"]) == (
        "e-leak",
        "2026-11-01T10:00:00Z",
        {"name": "vllm", "version": "0.31.0"},
    )
    validate_event(event)


def test_a_secret_split_across_chunks_drops_the_event_not_the_row(tmp_path: Path) -> None:
    split = chat(
        "e-split",
        ["Reasoning here.</think>Write to kim.minji@exa", "mple.com today."],
        stream=True,
        prompt="who do I write to?",
    )
    whole = chat(
        "e-whole",
        ["Reasoning here.</think>Write to the team", " today."],
        stream=True,
        prompt="who do I write to?",
    )
    rows = stored(store_events(tmp_path, [split, whole], clean_text_rate=0.0))
    assert rows["e-split"]["labels"] and SECRET not in rows["e-split"]["visible_text"]
    assert rows["e-split"]["event_json"] is None
    assert rows["e-whole"]["event_json"] is not None
    assert len(orjson.loads(rows["e-whole"]["event_json"])["chunks"]) == 3


def test_rows_without_text_carry_no_event(tmp_path: Path) -> None:
    clean = chat("e-clean", ["Paris is the capital of France."], stream=False, prompt="capital?")
    rows = stored(store_events(tmp_path, [clean], clean_text_rate=0.0))
    assert rows["e-clean"]["text_stored"] is False
    assert rows["e-clean"]["event_json"] is None


def test_strings_seen_clean_before_do_not_hide_a_new_secret(tmp_path: Path) -> None:
    """Secret-free strings are remembered between events; a secret never is."""
    first = chat("e-1", ["Plan.</think>", "Done."], stream=False, prompt="same prompt")
    second = chat("e-2", ["Plan.</think>", f"Done, {SECRET}."], stream=False, prompt="same prompt")
    third = chat("e-3", ["Plan.</think>", f"Done, {SECRET}."], stream=False, prompt="same prompt")
    rows = stored(store_events(tmp_path, [first, second, third], clean_text_rate=0.0))
    for event_id in ("e-2", "e-3"):
        raw = rows[event_id]["event_json"]
        assert raw is not None and SECRET not in raw and "[EMAIL]" in raw
