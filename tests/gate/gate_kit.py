"""Gate test data: hand-written requests and a contract-1 case directory writer."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from leakline.pipeline.curation.regression import case_bytes

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
    "required": ["city", "celsius"],
    "additionalProperties": False,
}
LOOKUP_TOOL = {
    "type": "object",
    "properties": {"employee_id": {"type": "string", "pattern": "^E\\d{5}$"}},
    "required": ["employee_id"],
    "additionalProperties": False,
}

# hand-written requests, one per API, plus tools and a structured-output case
HAND_CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "chat.completions",
        {
            "model": "Qwen/Qwen3-8B",
            "messages": [
                {"role": "system", "content": "You answer platform questions."},
                {"role": "user", "content": "How often should we rotate the gateway API keys?"},
            ],
            "max_tokens": 1024,
        },
    ),
    (
        "chat.completions",
        {
            "model": "Qwen/Qwen3-8B",
            "messages": [{"role": "user", "content": "Is employee E41207 eligible for leave?"}],
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": "lookup_employee",
                        "description": "Look up an employee record by ID.",
                        "parameters": LOOKUP_TOOL,
                    },
                }
            ],
            "tool_choice": "auto",
        },
    ),
    (
        "responses",
        {
            "model": "gpt-5.4",
            "input": [{"role": "user", "content": "이번 주말 부산 날씨를 알려 주세요"}],
            "text": {"format": {"type": "json_schema", "name": "w", "schema": WEATHER_SCHEMA}},
            "max_output_tokens": 512,
        },
    ),
    (
        "messages",
        {
            "model": "claude-sonnet-4-5",
            "max_tokens": 1024,
            "system": "你帮助员工解答日常问题。",
            "messages": [{"role": "user", "content": "报销单一般几天能批下来？"}],
        },
    ),
]


def make_case(
    api: str, request: dict[str, Any], labels: list[str], origin_id: str
) -> dict[str, Any]:
    body = json.dumps(request, sort_keys=True, ensure_ascii=False)
    case_id = hashlib.sha256(f"{api}\0{body}".encode()).hexdigest()[:16]
    return {
        "case_id": case_id,
        "event": {"event_id": origin_id, "api": api, "request": request, "response": {}},
        "expected_labels": sorted(labels),
        "origin": {
            "engine": {"name": "vllm", "version": "0.31.0"},
            "model": {"name": request.get("model"), "revision": None},
            "chat_template": {"name": None, "hash": None},
            "parsers": {"reasoning": None, "tool_call": None},
            "gateway": {"name": None, "version": None},
            "api": api,
            "stream": bool(request.get("stream")),
            "first_seen": "2026-11-01T00:00:00Z",
            "event_ids": [origin_id],
            "label_source": "machine",
        },
    }


def write_cases(directory: Path, cases: list[dict[str, Any]]) -> Path:
    """A contract-1 directory: manifest.json + cases/<case_id>.json, written as
    ``leakline export --regression`` writes them (``case_bytes``: nested order kept)."""
    (directory / "cases").mkdir(parents=True, exist_ok=True)
    blobs = []
    for case in cases:
        blob = case_bytes(case)
        (directory / "cases" / f"{case['case_id']}.json").write_bytes(blob)
        blobs.append((case["case_id"], blob))
    digest = hashlib.sha256(b"".join(b for _, b in sorted(blobs))).hexdigest()
    manifest = {
        "format": "leakline.regression/1",
        "created_at": "2026-11-29T00:00:00Z",
        "filter": {"test": True},
        "counts": {"cases": len(cases), "by_label": {}, "clean": len(cases)},
        "versions": [],
        "content_hash": f"sha256:{digest}",
    }
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return directory
