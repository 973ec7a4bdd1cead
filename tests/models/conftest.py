"""Fixtures for the classifier tests: small exports in the contract-2 shape."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import orjson
import pytest

from leakline.models.texts import composed_examples


def export_line(text: str, labels: Sequence[str], lang: str, i: int) -> dict[str, object]:
    """One `leakline export` line (contract 2) around a text."""
    return {
        "event_id": f"ev-{i}",
        "ts": "2026-01-01T00:00:00Z",
        "api": "chat.completions",
        "stream": False,
        "engine": {"name": "vllm", "version": "0.11.0"},
        "model": {"name": "m", "revision": "r"},
        "chat_template": {"name": "t", "hash": "h"},
        "parsers": {"reasoning": "qwen3", "tool_call": "hermes"},
        "gateway": {"name": "g", "version": "1"},
        "labels": list(labels),
        "machine_labels": list(labels),
        "label_source": "machine",
        "sources": ["heuristic"] if labels else [],
        "text": text,
        "reasoning_text": None,
        "lang": lang,
    }


@pytest.fixture
def write_export(tmp_path: Path) -> Callable[..., Path]:
    """Writes the written training texts (optionally filtered) as an export."""

    def write(name: str = "samples.jsonl", keep: Callable[[dict], bool] | None = None) -> Path:
        path = tmp_path / name
        with path.open("wb") as out:
            for i, e in enumerate(composed_examples(0)):
                if keep is not None and not keep(e):
                    continue
                line = export_line(e["text"], e["labels"], e["lang"], i)
                out.write(orjson.dumps(line) + b"\n")
        return path

    return write
