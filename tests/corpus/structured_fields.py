"""Field-level benchmark of reasoning inside structured answers (``structured_reasoning``).

Places the hand-written texts of ``structured_fields_src.py`` into JSON answers of a
``json_schema`` request (thinking on), two shells per text, and labels every string field of
every answer: reasoning (a leak) or not. In-schema CoT answers put reasoning into designated
slots (``x-leakline-reasoning``, a lone leading ``reasoning``), which are never leaks.

``evaluate(half)`` runs the whole detector stack on each answer and counts, per string
field, whether ``structured_reasoning`` reported that field's path.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from structured_fields_src import (  # type: ignore[import-not-found]
        DEV,
        FRESH,
        HELDOUT,
        SLOT_TEXTS,
    )
else:
    from .structured_fields_src import DEV, FRESH, HELDOUT, SLOT_TEXTS

HALVES = {"dev": DEV, "heldout": HELDOUT}
# written after the cues were frozen, measured once: reported, not asserted
SETS = {**HALVES, "fresh": FRESH}
DETECTOR = "structured_reasoning"
_S = {"type": "string"}

# kind -> two shells: (schema properties, answer builder taking the text)
SHELLS: dict[str, list[tuple[dict[str, Any], Any]]] = {
    "planning": [
        ({"action": _S, "params": {"type": "object"}}, lambda t: {"action": t, "params": {}}),
        (
            {"category": _S, "priority": {"enum": ["low", "normal", "high"]}},
            lambda t: {"category": t, "priority": "normal"},
        ),
    ],
    "narration": [
        (
            {"answer": _S, "confidence": {"type": "number"}},
            lambda t: {"answer": t, "confidence": 0.8},
        ),
        ({"result": {"type": "object"}}, lambda t: {"result": {"final_answer": t, "sources": []}}),
    ],
    "echo": [
        (
            {"answer": _S, "confidence": {"type": "number"}},
            lambda t: {"answer": t, "confidence": 0.5},
        ),
        ({"reply": _S, "policy": _S}, lambda t: {"reply": "OK", "policy": t}),
    ],
    "description": [
        ({"title": _S, "description": _S}, lambda t: {"title": "Listing 2041", "description": t}),
        (
            {"name": _S, "details": {"type": "object"}},
            lambda t: {"name": "item-7", "details": {"description": t}},
        ),
    ],
    "summary": [
        ({"summary": _S, "tags": {"type": "array"}}, lambda t: {"summary": t, "tags": ["support"]}),
        (
            {"ticket_id": _S, "summary": _S, "sentiment": {"enum": ["neutral", "negative"]}},
            lambda t: {"ticket_id": "T-1042", "summary": t, "sentiment": "neutral"},
        ),
    ],
    "reply": [
        ({"reply": _S, "language": _S}, lambda t: {"reply": t, "language": "auto"}),
        (
            {"status": {"enum": ["ok"]}, "response": {"type": "object"}},
            lambda t: {"status": "ok", "response": {"text": t}},
        ),
    ],
    "message": [
        ({"message": _S}, lambda t: {"message": t}),
        ({"ticket": {"type": "object"}}, lambda t: {"ticket": {"id": "T-9", "message": t}}),
    ],
    "answer": [
        ({"answer": _S}, lambda t: {"answer": t}),
        ({"output": {"type": "object"}}, lambda t: {"output": {"answer": t, "confidence": 0.9}}),
    ],
    "explanation": [
        (
            {"answer": _S, "explanation": _S},
            lambda t: {"answer": "see explanation", "explanation": t},
        ),
        ({"decision": _S, "rationale": _S}, lambda t: {"decision": "approve", "rationale": t}),
    ],
}
COT_SCHEMA = {
    "type": "object",
    "properties": {
        "user_goal": {"type": "string", "maxLength": 200, "x-leakline-reasoning": True},
        "evidence": {
            "type": "array",
            "maxItems": 3,
            "items": {"type": "string", "maxLength": 200},
            "x-leakline-reasoning": True,
        },
        "action": {
            "enum": ["search_listing", "draft_contract", "list_overdue_rent", "export_report"]
        },
        "params": {"type": "object"},
    },
}
LONE_SCHEMA = {"type": "object", "properties": {"reasoning": _S, "answer": _S}}


@dataclass(frozen=True)
class Answer:
    case_id: str
    lang: str
    kind: str
    event: dict[str, Any]
    leaks: frozenset[str]  # JSON Pointers of the fields that are reasoning leaks


def _event(case_id: str, schema: dict[str, Any], value: Any) -> dict[str, Any]:
    return {
        "event_id": case_id,
        "api": "chat.completions",
        "stream": False,
        "request": {
            "model": "Qwen/Qwen3-8B",
            "messages": [{"role": "user", "content": "route this request"}],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": schema},
            },
            "chat_template_kwargs": {"enable_thinking": True},
        },
        "response": {
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {
                        "role": "assistant",
                        "content": json.dumps(value, ensure_ascii=False),
                    },
                }
            ]
        },
        "engine": {"name": "vllm", "version": "0.31.0"},
        "model": {"name": "Qwen/Qwen3-8B"},
    }


def _leak_path(kind: str, shell: int) -> str:
    return {
        ("planning", 0): "/action",
        ("planning", 1): "/category",
        ("narration", 0): "/answer",
        ("narration", 1): "/result/final_answer",
        ("echo", 0): "/answer",
        ("echo", 1): "/policy",
    }[(kind, shell)]


def answers(half: str) -> list[Answer]:
    """Every labeled answer of one half (``dev`` or ``heldout``)."""
    out: list[Answer] = []
    for lang, groups in SETS[half].items():
        for group, entries in groups.items():
            for n, (kind, text) in enumerate(entries):
                for shell, (props, build) in enumerate(SHELLS[kind]):
                    case_id = f"{half}-{lang}-{group}-{n:02d}-{shell}"
                    schema = {"type": "object", "properties": props}
                    leaks = frozenset({_leak_path(kind, shell)}) if group == "leak" else frozenset()
                    out.append(
                        Answer(case_id, lang, kind, _event(case_id, schema, build(text)), leaks)
                    )
        for n, text in enumerate(SLOT_TEXTS.get(half, {}).get(lang, ())):
            cot = {
                "user_goal": text,
                "evidence": [text],
                "action": "list_overdue_rent",
                "params": {},
            }
            lone = {"reasoning": text, "answer": "list_overdue_rent"}
            out.append(
                Answer(
                    f"{half}-{lang}-slot-{n:02d}-0",
                    lang,
                    "slot",
                    _event(f"{half}-{lang}-slot-{n:02d}-0", COT_SCHEMA, cot),
                    frozenset(),
                )
            )
            out.append(
                Answer(
                    f"{half}-{lang}-slot-{n:02d}-1",
                    lang,
                    "slot",
                    _event(f"{half}-{lang}-slot-{n:02d}-1", LONE_SCHEMA, lone),
                    frozenset(),
                )
            )
    return out


def string_paths(value: Any, prefix: str = "") -> list[str]:
    if isinstance(value, str):
        return [prefix]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in string_paths(v, f"{prefix}/{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in string_paths(v, f"{prefix}/{i}")]
    return []


@dataclass
class FieldQuality:
    half: str
    answers: int = 0
    fields: int = 0
    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    fn: Counter[str] = field(default_factory=Counter)
    errors: list[dict[str, Any]] = field(default_factory=list)

    def precision(self, lang: str | None = None) -> float:
        tp, fp = self._sum(self.tp, lang), self._sum(self.fp, lang)
        return tp / (tp + fp) if tp + fp else 1.0

    def recall(self, lang: str | None = None) -> float:
        tp, fn = self._sum(self.tp, lang), self._sum(self.fn, lang)
        return tp / (tp + fn) if tp + fn else 1.0

    @staticmethod
    def _sum(counter: Counter[str], lang: str | None) -> int:
        return counter[lang] if lang else sum(counter.values())

    def as_dict(self) -> dict[str, Any]:
        langs = sorted(set(self.tp) | set(self.fp) | set(self.fn))
        return {
            "half": self.half,
            "answers": self.answers,
            "string_fields": self.fields,
            "precision": round(self.precision(), 4),
            "recall": round(self.recall(), 4),
            "tp": sum(self.tp.values()),
            "fp": sum(self.fp.values()),
            "fn": sum(self.fn.values()),
            "by_lang": {
                lang: {
                    "precision": round(self.precision(lang), 4),
                    "recall": round(self.recall(lang), 4),
                }
                for lang in langs
            },
        }


def evaluate(half: str) -> FieldQuality:
    from leakline.detectors import run_detectors
    from leakline.pipeline.events.contract import validate_event
    from leakline.pipeline.events.normalise import normalise

    quality = FieldQuality(half)
    for item in answers(half):
        exchange = normalise(validate_event(item.event))
        verdict = run_detectors(exchange)
        found = {
            f.details.get("path")
            for f in verdict.findings
            if f.detector_id == DETECTOR and f.label == "reasoning_leak"
        }
        quality.answers += 1
        value = json.loads(item.event["response"]["choices"][0]["message"]["content"])
        for path in string_paths(value):
            quality.fields += 1
            truth, said = path in item.leaks, path in found
            if truth and said:
                quality.tp[item.lang] += 1
            elif said:
                quality.fp[item.lang] += 1
            elif truth:
                quality.fn[item.lang] += 1
            if truth != said:
                quality.errors.append(
                    {"case": item.case_id, "path": path, "expected": truth, "kind": item.kind}
                )
    return quality


def render(results: list[FieldQuality]) -> str:
    lines = ["reasoning inside structured output (field level, structured_reasoning)"]
    lines.append(
        f"{'half':<9}{'answers':>8}{'fields':>8}{'tp':>5}{'fp':>5}{'fn':>5}{'P':>8}{'R':>8}  per language P/R"
    )
    for q in results:
        d = q.as_dict()
        per = "  ".join(
            f"{lang} {v['precision']:.2f}/{v['recall']:.2f}" for lang, v in d["by_lang"].items()
        )
        lines.append(
            f"{q.half:<9}{d['answers']:>8}{d['string_fields']:>8}{d['tp']:>5}{d['fp']:>5}{d['fn']:>5}"
            f"{d['precision']:>8.3f}{d['recall']:>8.3f}  {per}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    found = [evaluate(half) for half in SETS]
    print(render(found))
    if "--errors" in sys.argv:
        for q in found:
            for error in q.errors:
                print(json.dumps(error, ensure_ascii=False), file=sys.stderr)
