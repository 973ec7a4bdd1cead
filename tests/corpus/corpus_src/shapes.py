"""Builders that turn a hand-written case into a gateway event v1.

A case module creates one ``Theme`` and calls one builder per case:

    T = Theme("boundary")
    T.chat(["boundary_token"], "qwen3_noparser", "en", "why", user="...", content="...")

Builders cover the six API shapes: ``chat`` / ``chat_stream`` (chat.completions),
``resp`` / ``resp_stream`` (Responses), ``msg`` / ``msg_stream`` (Messages).
Everything is deterministic: ids are derived from the case id, times from the
case's position, and stream pieces from a fixed chopping rule, so rebuilding
gives byte-identical files.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

from .profiles import Profile, get_profile
from .tools import chat_tools, messages_tools, responses_tools, schema

LABELS = (
    "reasoning_leak",
    "boundary_token",
    "tool_call_as_text",
    "tool_args_invalid",
    "preamble",
    "structured_invalid",
    "truncated",
    "final_in_reasoning",
    "commentary_rendered",
    "mixed_chunk",
)

THEME_FILES = {
    "boundary": "boundary.jsonl",
    "streaming": "streaming.jsonl",
    "tools": "tools.jsonl",
    "structured": "structured.jsonl",
    "preamble": "preamble.jsonl",
    "truncation": "truncation.jsonl",
    "responses": "responses_api.jsonl",
    "messages": "messages_api.jsonl",
    "clean": "clean.jsonl",
    "hardneg": "hard_negatives.jsonl",
    "families": "families.jsonl",
    "tool_formats": "tool_formats.jsonl",
    "stop_variants": "stop_variants.jsonl",
    "generic": "generic.jsonl",
}

# Kinds of hard negatives (clean cases that look like a leak to a naive matcher); the optional
# ``kind`` field of a clean case names one of these.
HARDNEG_KINDS = (
    "tags-in-code",
    "tags-in-quotes",
    "mention-as-noun",
    "code-prints-tags",
    "json-answer",
    "call-json-explained",
    "call-with-text",
    "let-me-know",
    "preamble-lookalike",
    "self-talk-lookalike",
    "reasoning-field-only",
    "phase-hidden",
    "other-markup",
)
REASONING_FORMS = ("tagged", "untagged")

_BASE_TS = datetime(2026, 10, 7, 1, 0, 0, tzinfo=UTC)
_THEME_ORDER = list(THEME_FILES)

CASES: dict[str, list[dict[str, Any]]] = defaultdict(list)
_COUNTERS: dict[tuple[str, str, str], int] = defaultdict(int)


def _h(*parts: object, n: int = 24) -> str:
    return hashlib.sha1("|".join(str(p) for p in parts).encode()).hexdigest()[:n]


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def _compact(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _ntok(text: str | None) -> int:
    if not text:
        return 0
    # crude but deterministic: ~4 chars per latin token, ~1.5 per CJK char
    cjk = sum(1 for ch in text if ord(ch) > 0x2E80)
    return max(1, (len(text) - cjk) // 4 + int(cjk / 1.5))


# ---------------------------------------------------------------- stream pieces

_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\u3040-\u30ff\uff00-\uffef]")
_SIZES = (3, 5, 2, 4, 6, 3, 7, 2)


def chop(text: str, salt: int = 0) -> list[str]:
    """Split text into stream pieces of a few words (or a few CJK characters)."""
    if not text:
        return []
    units: list[str] = []
    for m in re.finditer(r"\s*\S+|\s+$", text):
        word = m.group(0)
        if _CJK.search(word) and len(word.strip()) > 3:
            # CJK runs: break every 2-3 characters so pieces look like BPE output
            lead = word[: len(word) - len(word.lstrip())]
            body = word.lstrip()
            step = 2 + (len(units) + salt) % 2
            chunks = [body[i : i + step] for i in range(0, len(body), step)]
            chunks[0] = lead + chunks[0]
            units.extend(chunks)
        else:
            units.append(word)
    pieces: list[str] = []
    i = 0
    k = salt
    while i < len(units):
        size = _SIZES[k % len(_SIZES)]
        pieces.append("".join(units[i : i + size]))
        i += size
        k += 1
    assert "".join(pieces) == text
    return pieces


def C(text: str) -> dict[str, Any]:
    return {"content": text}


def R(text: str) -> dict[str, Any]:
    return {"__r__": text}


def M(reasoning: str, content: str) -> dict[str, Any]:
    """One chunk carrying both reasoning and content (the mixed_chunk shape)."""
    assert reasoning.strip() and content.strip()
    return {"__r__": reasoning, "content": content}


def Cs(text: str, salt: int = 0) -> list[dict[str, Any]]:
    return [C(p) for p in chop(text, salt)]


def Rs(text: str, salt: int = 1) -> list[dict[str, Any]]:
    return [R(p) for p in chop(text, salt)]


def TC(
    index: int, name: str, args: str | dict[str, Any], *, pieces: list[str] | None = None
) -> list[dict[str, Any]]:
    """Stream deltas of one tool call: header delta, then argument fragments."""
    raw = args if isinstance(args, str) else _dumps(args)
    frags = pieces if pieces is not None else _arg_frags(raw)
    assert "".join(frags) == raw
    out: list[dict[str, Any]] = [
        {
            "tool_calls": [
                {
                    "index": index,
                    "id": "@id",
                    "type": "function",
                    "function": {"name": name, "arguments": ""},
                }
            ]
        }
    ]
    for frag in frags:
        out.append({"tool_calls": [{"index": index, "function": {"arguments": frag}}]})
    return out


def _arg_frags(raw: str) -> list[str]:
    frags = []
    i = 0
    k = 0
    while i < len(raw):
        step = (5, 9, 4, 11, 7)[k % 5]
        frags.append(raw[i : i + step])
        i += step
        k += 1
    return frags


# ---------------------------------------------------------------- structured requests


def rf_schema(name: str, strict: bool = True) -> dict[str, Any]:
    return {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": schema(name), "strict": strict},
    }


RF_JSON_OBJECT = {"type": "json_object"}


def tf_schema(name: str) -> dict[str, Any]:
    return {"format": {"type": "json_schema", "name": name, "schema": schema(name), "strict": True}}


TF_JSON_OBJECT = {"format": {"type": "json_object"}}


def of_schema(name: str) -> dict[str, Any]:
    return {"type": "json_schema", "schema": schema(name)}


# ---------------------------------------------------------------- items for Responses / Messages


def RS(text: str | list[str] | None = None, summary: list[str] | None = None) -> dict[str, Any]:
    return {"kind": "reasoning", "text": text, "summary": summary or []}


def MSG(text: str | list[str], phase: str | None = None) -> dict[str, Any]:
    return {"kind": "message", "text": text, "phase": phase}


def FC(name: str, args: str | dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "function_call",
        "name": name,
        "args": args if isinstance(args, str) else _compact(args),
    }


def TH(text: str | list[str]) -> dict[str, Any]:
    return {"kind": "thinking", "text": text}


def TX(text: str | list[str]) -> dict[str, Any]:
    return {"kind": "text", "text": text}


def TU(name: str, input: dict[str, Any] | str) -> dict[str, Any]:
    """A tool_use block. A str input is the raw streamed JSON (streaming only)."""
    return {"kind": "tool_use", "name": name, "input": input}


def _joined(text: str | list[str] | None) -> str:
    if text is None:
        return ""
    return text if isinstance(text, str) else "".join(text)


def _pieces(text: str | list[str] | None, salt: int) -> list[str]:
    if text is None:
        return []
    return list(text) if isinstance(text, list) else chop(text, salt)


# ---------------------------------------------------------------- the theme / registry


class Theme:
    def __init__(self, name: str) -> None:
        if name not in THEME_FILES:
            raise KeyError(f"unknown theme {name!r}; known: {', '.join(THEME_FILES)}")
        self.name = name

    # -- registry --------------------------------------------------------
    def _add(
        self,
        labels: list[str],
        prof: Profile,
        lang: str,
        note: str,
        build,
        tags: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        tags = dict(tags or {})
        for label in labels:
            if label not in LABELS:
                raise ValueError(f"unknown label {label!r}")
        if len(set(labels)) != len(labels):
            raise ValueError(f"duplicate label in {labels}")
        key = (self.name, prof.family, lang)
        _COUNTERS[key] += 1
        case_id = f"{self.name}-{prof.family}-{lang}-{_COUNTERS[key]:03d}"
        position = len(CASES[self.name])
        ts = _BASE_TS + timedelta(days=_THEME_ORDER.index(self.name), seconds=173 * position + 11)
        event = assemble(prof, case_id, ts, build)
        case = {
            "case_id": case_id,
            "expected_labels": sorted(labels),
            "family": prof.family,
            "lang": lang,
            "note": note,
        }
        case.update(_case_tags(labels, event, tags))
        case["event"] = event
        CASES[self.name].append(case)
        return case

    # -- chat.completions ---------------------------------------------------
    @staticmethod
    def _chat_request(
        prof, user, *, system, history, tools, tool_choice, rf, stop, max_tokens, tkw, stream, extra
    ):
        msgs: list[dict[str, Any]] = []
        if system:
            msgs.append({"role": "system", "content": system})
        if history:
            msgs.extend(history)
        msgs.append({"role": "user", "content": user})
        req: dict[str, Any] = {"model": prof.model, "messages": msgs}
        if tools:
            req["tools"] = chat_tools(*tools)
            req["tool_choice"] = tool_choice or "auto"
        if rf is not None:
            req["response_format"] = rf
        if stop is not None:
            req["stop"] = stop
        if max_tokens is not None:
            req["max_tokens"] = max_tokens
        if tkw is not None:
            req["chat_template_kwargs"] = tkw
        if stream:
            req["stream"] = True
        if extra:
            req.update(extra)
        return req

    @staticmethod
    def _client(client, rkey):
        if client is False:
            return None
        if client is None:
            return {"reasoning_field": rkey}
        return client

    def chat(
        self,
        labels: list[str],
        profile: str,
        lang: str,
        note: str,
        *,
        user: str,
        content: str | None,
        reasoning: str | None = None,
        rkey: str = "reasoning",
        tool_calls: list[tuple[str, str | dict[str, Any]]] | None = None,
        finish: str = "stop",
        system: str | None = None,
        history: list[dict[str, Any]] | None = None,
        tools: list[str] | None = None,
        tool_choice: Any = None,
        rf: dict[str, Any] | None = None,
        stop: list[str] | str | None = None,
        max_tokens: int | None = None,
        tkw: dict[str, Any] | None = None,
        client: dict[str, Any] | None | bool = None,
        extra: dict[str, Any] | None = None,
        group: str | None = None,
        kind: str | None = None,
        reasoning_form: str | None = None,
    ) -> dict[str, Any]:
        prof = get_profile(profile)
        tags = {"group": group, "kind": kind, "reasoning_form": reasoning_form}

        def build(case_id: str, created: int) -> dict[str, Any]:
            req = self._chat_request(
                prof,
                user,
                system=system,
                history=history,
                tools=tools,
                tool_choice=tool_choice,
                rf=rf,
                stop=stop,
                max_tokens=max_tokens,
                tkw=tkw,
                stream=False,
                extra=extra,
            )
            message: dict[str, Any] = {"role": "assistant", "content": content}
            if reasoning is not None:
                message[rkey] = reasoning
            elif prof.engine in ("vllm", "sglang"):
                message[rkey] = None
            calls = []
            for i, (name, args) in enumerate(tool_calls or []):
                raw = args if isinstance(args, str) else _dumps(args)
                calls.append(
                    {
                        "id": _call_id(prof, case_id, i),
                        "type": "function",
                        "function": {"name": name, "arguments": raw},
                    }
                )
            if calls or prof.engine in ("vllm", "sglang"):
                message["tool_calls"] = calls
            completion = (
                _ntok(content)
                + _ntok(reasoning)
                + sum(_ntok(c["function"]["arguments"]) for c in calls)
            )
            resp = {
                "id": f"chatcmpl-{_h(case_id)}",
                "object": "chat.completion",
                "created": created,
                "model": prof.model,
                "choices": [
                    {"index": 0, "message": message, "logprobs": None, "finish_reason": finish}
                ],
                "usage": {
                    "prompt_tokens": _ntok(user) + 18,
                    "completion_tokens": completion,
                    "total_tokens": _ntok(user) + 18 + completion,
                },
            }
            out = {"api": "chat.completions", "stream": False, "request": req, "response": resp}
            cl = self._client(client, rkey)
            if cl is not None:
                out["client"] = cl
            return out

        return self._add(labels, prof, lang, note, build, tags)

    def chat_stream(
        self,
        labels: list[str],
        profile: str,
        lang: str,
        note: str,
        *,
        user: str,
        deltas: list[dict[str, Any] | list[dict[str, Any]]],
        finish: str = "stop",
        rkey: str = "reasoning",
        system: str | None = None,
        history: list[dict[str, Any]] | None = None,
        tools: list[str] | None = None,
        tool_choice: Any = None,
        rf: dict[str, Any] | None = None,
        stop: list[str] | str | None = None,
        max_tokens: int | None = None,
        tkw: dict[str, Any] | None = None,
        client: dict[str, Any] | None | bool = None,
        usage_chunk: bool = False,
        extra: dict[str, Any] | None = None,
        group: str | None = None,
        kind: str | None = None,
        reasoning_form: str | None = None,
    ) -> dict[str, Any]:
        prof = get_profile(profile)
        tags = {"group": group, "kind": kind, "reasoning_form": reasoning_form}
        flat: list[dict[str, Any]] = []
        for d in deltas:
            flat.extend(d if isinstance(d, list) else [d])

        def build(case_id: str, created: int) -> dict[str, Any]:
            ex = dict(extra or {})
            if usage_chunk:
                ex["stream_options"] = {"include_usage": True}
            req = self._chat_request(
                prof,
                user,
                system=system,
                history=history,
                tools=tools,
                tool_choice=tool_choice,
                rf=rf,
                stop=stop,
                max_tokens=max_tokens,
                tkw=tkw,
                stream=True,
                extra=ex,
            )
            rid = f"chatcmpl-{_h(case_id)}"
            chunks: list[dict[str, Any]] = []
            completion = 0
            for i, d in enumerate(flat):
                delta: dict[str, Any] = {}
                if i == 0:
                    delta["role"] = "assistant"
                for k, v in d.items():
                    if k == "__r__":
                        delta[rkey] = v
                        completion += _ntok(v)
                    elif k == "tool_calls":
                        tcs = json.loads(json.dumps(v))
                        for tc in tcs:
                            if tc.get("id") == "@id":
                                tc["id"] = _call_id(prof, case_id, tc["index"])
                            completion += _ntok(tc.get("function", {}).get("arguments"))
                        delta[k] = tcs
                    else:
                        delta[k] = v
                        completion += _ntok(v) if isinstance(v, str) else 0
                chunks.append(_chat_chunk(rid, created, prof.model, delta, None))
            chunks.append(_chat_chunk(rid, created, prof.model, {}, finish))
            if usage_chunk:
                chunks.append(
                    {
                        "id": rid,
                        "object": "chat.completion.chunk",
                        "created": created,
                        "model": prof.model,
                        "choices": [],
                        "usage": {
                            "prompt_tokens": _ntok(user) + 18,
                            "completion_tokens": completion,
                            "total_tokens": _ntok(user) + 18 + completion,
                        },
                    }
                )
            out = {"api": "chat.completions", "stream": True, "request": req, "chunks": chunks}
            cl = self._client(client, rkey)
            if cl is not None:
                out["client"] = cl
            return out

        return self._add(labels, prof, lang, note, build, tags)

    # -- responses -------------------------------------------------------------
    @staticmethod
    def _resp_request(
        prof, user, *, instructions, tools, text, max_output_tokens, effort, stream, extra
    ):
        req: dict[str, Any] = {"model": prof.model, "input": user}
        if instructions:
            req["instructions"] = instructions
        if tools:
            req["tools"] = responses_tools(*tools)
        if text is not None:
            req["text"] = text
        if max_output_tokens is not None:
            req["max_output_tokens"] = max_output_tokens
        if effort is not None:
            req["reasoning"] = {"effort": effort}
        if stream:
            req["stream"] = True
        if extra:
            req.update(extra)
        return req

    @staticmethod
    def _resp_items(case_id: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for i, it in enumerate(items):
            if it["kind"] == "reasoning":
                item: dict[str, Any] = {
                    "type": "reasoning",
                    "id": f"rs_{_h(case_id, i, n=32)}",
                    "summary": [{"type": "summary_text", "text": s} for s in it["summary"]],
                }
                if it["text"] is not None:
                    item["content"] = [{"type": "reasoning_text", "text": _joined(it["text"])}]
            elif it["kind"] == "message":
                item = {
                    "type": "message",
                    "id": f"msg_{_h(case_id, i, n=32)}",
                    "status": "completed",
                    "role": "assistant",
                }
                if it["phase"] is not None:
                    item["phase"] = it["phase"]
                item["content"] = [
                    {"type": "output_text", "text": _joined(it["text"]), "annotations": []}
                ]
            elif it["kind"] == "function_call":
                item = {
                    "type": "function_call",
                    "id": f"fc_{_h(case_id, i, n=32)}",
                    "call_id": f"call_{_h(case_id, 'call', i)}",
                    "name": it["name"],
                    "arguments": it["args"],
                    "status": "completed",
                }
            else:
                raise ValueError(it["kind"])
            out.append(item)
        return out

    @staticmethod
    def _resp_body(prof, case_id, created, output, status, reason, user):
        otoks = 0
        rtoks = 0
        for item in output:
            if item["type"] == "reasoning":
                rtoks += sum(_ntok(c["text"]) for c in item.get("content", [])) or 64
            elif item["type"] == "message":
                otoks += sum(_ntok(c["text"]) for c in item["content"])
            else:
                otoks += _ntok(item["arguments"])
        return {
            "id": f"resp_{_h(case_id, n=32)}",
            "object": "response",
            "created_at": created,
            "status": status,
            "incomplete_details": {"reason": reason} if reason else None,
            "model": prof.model,
            "output": output,
            "usage": {
                "input_tokens": _ntok(user) + 24,
                "output_tokens": otoks + rtoks,
                "output_tokens_details": {"reasoning_tokens": rtoks},
                "total_tokens": _ntok(user) + 24 + otoks + rtoks,
            },
        }

    def resp(
        self,
        labels: list[str],
        profile: str,
        lang: str,
        note: str,
        *,
        user: str,
        items: list[dict[str, Any]],
        status: str = "completed",
        reason: str | None = None,
        instructions: str | None = None,
        tools: list[str] | None = None,
        text: dict[str, Any] | None = None,
        max_output_tokens: int | None = None,
        effort: str | None = None,
        client: dict[str, Any] | None | bool = None,
        extra: dict[str, Any] | None = None,
        group: str | None = None,
        kind: str | None = None,
        reasoning_form: str | None = None,
    ) -> dict[str, Any]:
        prof = get_profile(profile)
        tags = {"group": group, "kind": kind, "reasoning_form": reasoning_form}
        if status == "incomplete" and reason is None:
            reason = "max_output_tokens"

        def build(case_id: str, created: int) -> dict[str, Any]:
            req = self._resp_request(
                prof,
                user,
                instructions=instructions,
                tools=tools,
                text=text,
                max_output_tokens=max_output_tokens,
                effort=effort,
                stream=False,
                extra=extra,
            )
            output = self._resp_items(case_id, items)
            out = {
                "api": "responses",
                "stream": False,
                "request": req,
                "response": self._resp_body(prof, case_id, created, output, status, reason, user),
            }
            cl = {"reasoning_field": None, "renders_phases": None} if client is None else client
            if cl is not False:
                out["client"] = cl
            return out

        return self._add(labels, prof, lang, note, build, tags)

    def resp_stream(
        self,
        labels: list[str],
        profile: str,
        lang: str,
        note: str,
        *,
        user: str,
        items: list[dict[str, Any]],
        status: str = "completed",
        reason: str | None = None,
        instructions: str | None = None,
        tools: list[str] | None = None,
        text: dict[str, Any] | None = None,
        max_output_tokens: int | None = None,
        effort: str | None = None,
        client: dict[str, Any] | None | bool = None,
        extra: dict[str, Any] | None = None,
        group: str | None = None,
        kind: str | None = None,
        reasoning_form: str | None = None,
    ) -> dict[str, Any]:
        prof = get_profile(profile)
        tags = {"group": group, "kind": kind, "reasoning_form": reasoning_form}
        if status == "incomplete" and reason is None:
            reason = "max_output_tokens"

        def build(case_id: str, created: int) -> dict[str, Any]:
            req = self._resp_request(
                prof,
                user,
                instructions=instructions,
                tools=tools,
                text=text,
                max_output_tokens=max_output_tokens,
                effort=effort,
                stream=True,
                extra=extra,
            )
            output = self._resp_items(case_id, items)
            final = self._resp_body(prof, case_id, created, output, status, reason, user)
            events: list[dict[str, Any]] = []

            def emit(ev: dict[str, Any]) -> None:
                ev["sequence_number"] = len(events)
                events.append(ev)

            started = dict(
                final, status="in_progress", incomplete_details=None, output=[], usage=None
            )
            emit({"type": "response.created", "response": started})
            emit({"type": "response.in_progress", "response": started})
            for idx, (spec, item) in enumerate(zip(items, output, strict=True)):
                if item["type"] == "reasoning":
                    added = {"type": "reasoning", "id": item["id"], "summary": []}
                    emit({"type": "response.output_item.added", "output_index": idx, "item": added})
                    pieces = _pieces(spec["text"], idx + 1)
                    for p in pieces:
                        emit(
                            {
                                "type": "response.reasoning_text.delta",
                                "item_id": item["id"],
                                "output_index": idx,
                                "content_index": 0,
                                "delta": p,
                            }
                        )
                    if pieces:
                        emit(
                            {
                                "type": "response.reasoning_text.done",
                                "item_id": item["id"],
                                "output_index": idx,
                                "content_index": 0,
                                "text": _joined(spec["text"]),
                            }
                        )
                elif item["type"] == "message":
                    added = {k: v for k, v in item.items() if k != "content"}
                    added["status"] = "in_progress"
                    added["content"] = []
                    emit({"type": "response.output_item.added", "output_index": idx, "item": added})
                    emit(
                        {
                            "type": "response.content_part.added",
                            "item_id": item["id"],
                            "output_index": idx,
                            "content_index": 0,
                            "part": {"type": "output_text", "text": "", "annotations": []},
                        }
                    )
                    for p in _pieces(spec["text"], idx):
                        emit(
                            {
                                "type": "response.output_text.delta",
                                "item_id": item["id"],
                                "output_index": idx,
                                "content_index": 0,
                                "delta": p,
                            }
                        )
                    full = _joined(spec["text"])
                    emit(
                        {
                            "type": "response.output_text.done",
                            "item_id": item["id"],
                            "output_index": idx,
                            "content_index": 0,
                            "text": full,
                        }
                    )
                    emit(
                        {
                            "type": "response.content_part.done",
                            "item_id": item["id"],
                            "output_index": idx,
                            "content_index": 0,
                            "part": {"type": "output_text", "text": full, "annotations": []},
                        }
                    )
                else:
                    added = dict(item, arguments="", status="in_progress")
                    emit({"type": "response.output_item.added", "output_index": idx, "item": added})
                    for frag in _arg_frags(item["arguments"]):
                        emit(
                            {
                                "type": "response.function_call_arguments.delta",
                                "item_id": item["id"],
                                "output_index": idx,
                                "delta": frag,
                            }
                        )
                    emit(
                        {
                            "type": "response.function_call_arguments.done",
                            "item_id": item["id"],
                            "output_index": idx,
                            "arguments": item["arguments"],
                        }
                    )
                emit({"type": "response.output_item.done", "output_index": idx, "item": item})
            emit(
                {
                    "type": "response.completed"
                    if status == "completed"
                    else "response.incomplete",
                    "response": final,
                }
            )
            out = {"api": "responses", "stream": True, "request": req, "chunks": events}
            cl = {"reasoning_field": None, "renders_phases": None} if client is None else client
            if cl is not False:
                out["client"] = cl
            return out

        return self._add(labels, prof, lang, note, build, tags)

    # -- messages ----------------------------------------------------------------
    @staticmethod
    def _msg_request(
        prof,
        user,
        *,
        system,
        tools,
        output_format,
        max_tokens,
        thinking,
        stop_sequences,
        stream,
        extra,
    ):
        req: dict[str, Any] = {
            "model": prof.model,
            "max_tokens": max_tokens,
            "messages": [{"role": "user", "content": user}],
        }
        if system:
            req["system"] = system
        if tools:
            req["tools"] = messages_tools(*tools)
        if output_format is not None:
            req["output_format"] = output_format
        if thinking is not None:
            req["thinking"] = (
                {"type": "enabled", "budget_tokens": thinking}
                if isinstance(thinking, int)
                else thinking
            )
        if stop_sequences:
            req["stop_sequences"] = stop_sequences
        if stream:
            req["stream"] = True
        if extra:
            req.update(extra)
        return req

    @staticmethod
    def _msg_blocks(
        case_id: str, blocks: list[dict[str, Any]], stream: bool
    ) -> list[dict[str, Any]]:
        out = []
        for i, b in enumerate(blocks):
            if b["kind"] == "thinking":
                out.append(
                    {
                        "type": "thinking",
                        "thinking": _joined(b["text"]),
                        "signature": "Eq" + _h(case_id, "sig", i, n=40),
                    }
                )
            elif b["kind"] == "text":
                out.append({"type": "text", "text": _joined(b["text"])})
            else:
                inp = b["input"]
                if isinstance(inp, str) and not stream:
                    raise ValueError("a raw tool_use input is only possible in a stream")
                out.append(
                    {
                        "type": "tool_use",
                        "id": f"toolu_{_h(case_id, 'tu', i)}",
                        "name": b["name"],
                        "input": inp,
                    }
                )
        return out

    def msg(
        self,
        labels: list[str],
        profile: str,
        lang: str,
        note: str,
        *,
        user: str,
        blocks: list[dict[str, Any]],
        stop_reason: str = "end_turn",
        stop_sequence: str | None = None,
        system: str | None = None,
        tools: list[str] | None = None,
        output_format: dict[str, Any] | None = None,
        max_tokens: int = 2048,
        thinking: int | dict[str, Any] | None = None,
        stop_sequences: list[str] | None = None,
        client: dict[str, Any] | None | bool = None,
        extra: dict[str, Any] | None = None,
        group: str | None = None,
        kind: str | None = None,
        reasoning_form: str | None = None,
    ) -> dict[str, Any]:
        prof = get_profile(profile)
        tags = {"group": group, "kind": kind, "reasoning_form": reasoning_form}

        def build(case_id: str, created: int) -> dict[str, Any]:
            req = self._msg_request(
                prof,
                user,
                system=system,
                tools=tools,
                output_format=output_format,
                max_tokens=max_tokens,
                thinking=thinking,
                stop_sequences=stop_sequences,
                stream=False,
                extra=extra,
            )
            content = self._msg_blocks(case_id, blocks, stream=False)
            resp = {
                "id": f"msg_{_h(case_id)}",
                "type": "message",
                "role": "assistant",
                "model": prof.model,
                "content": content,
                "stop_reason": stop_reason,
                "stop_sequence": stop_sequence,
                "usage": {"input_tokens": _ntok(user) + 12, "output_tokens": _msg_tokens(content)},
            }
            out = {"api": "messages", "stream": False, "request": req, "response": resp}
            if client not in (None, False):
                out["client"] = client
            return out

        return self._add(labels, prof, lang, note, build, tags)

    def msg_stream(
        self,
        labels: list[str],
        profile: str,
        lang: str,
        note: str,
        *,
        user: str,
        blocks: list[dict[str, Any]],
        stop_reason: str = "end_turn",
        stop_sequence: str | None = None,
        system: str | None = None,
        tools: list[str] | None = None,
        output_format: dict[str, Any] | None = None,
        max_tokens: int = 2048,
        thinking: int | dict[str, Any] | None = None,
        stop_sequences: list[str] | None = None,
        ping: bool = True,
        client: dict[str, Any] | None | bool = None,
        extra: dict[str, Any] | None = None,
        group: str | None = None,
        kind: str | None = None,
        reasoning_form: str | None = None,
    ) -> dict[str, Any]:
        prof = get_profile(profile)
        tags = {"group": group, "kind": kind, "reasoning_form": reasoning_form}

        def build(case_id: str, created: int) -> dict[str, Any]:
            req = self._msg_request(
                prof,
                user,
                system=system,
                tools=tools,
                output_format=output_format,
                max_tokens=max_tokens,
                thinking=thinking,
                stop_sequences=stop_sequences,
                stream=True,
                extra=extra,
            )
            content = self._msg_blocks(case_id, blocks, stream=True)
            events: list[dict[str, Any]] = [
                {
                    "type": "message_start",
                    "message": {
                        "id": f"msg_{_h(case_id)}",
                        "type": "message",
                        "role": "assistant",
                        "model": prof.model,
                        "content": [],
                        "stop_reason": None,
                        "stop_sequence": None,
                        "usage": {"input_tokens": _ntok(user) + 12, "output_tokens": 1},
                    },
                }
            ]
            if ping:
                events.append({"type": "ping"})
            for idx, (spec, block) in enumerate(zip(blocks, content, strict=True)):
                if block["type"] == "thinking":
                    events.append(
                        {
                            "type": "content_block_start",
                            "index": idx,
                            "content_block": {"type": "thinking", "thinking": "", "signature": ""},
                        }
                    )
                    for p in _pieces(spec["text"], idx + 1):
                        events.append(
                            {
                                "type": "content_block_delta",
                                "index": idx,
                                "delta": {"type": "thinking_delta", "thinking": p},
                            }
                        )
                    events.append(
                        {
                            "type": "content_block_delta",
                            "index": idx,
                            "delta": {"type": "signature_delta", "signature": block["signature"]},
                        }
                    )
                elif block["type"] == "text":
                    events.append(
                        {
                            "type": "content_block_start",
                            "index": idx,
                            "content_block": {"type": "text", "text": ""},
                        }
                    )
                    for p in _pieces(spec["text"], idx):
                        events.append(
                            {
                                "type": "content_block_delta",
                                "index": idx,
                                "delta": {"type": "text_delta", "text": p},
                            }
                        )
                else:
                    events.append(
                        {
                            "type": "content_block_start",
                            "index": idx,
                            "content_block": {
                                "type": "tool_use",
                                "id": block["id"],
                                "name": block["name"],
                                "input": {},
                            },
                        }
                    )
                    raw = (
                        block["input"]
                        if isinstance(block["input"], str)
                        else _compact(block["input"])
                    )
                    for frag in _arg_frags(raw):
                        events.append(
                            {
                                "type": "content_block_delta",
                                "index": idx,
                                "delta": {"type": "input_json_delta", "partial_json": frag},
                            }
                        )
                events.append({"type": "content_block_stop", "index": idx})
            events.append(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop_reason, "stop_sequence": stop_sequence},
                    "usage": {"output_tokens": _msg_tokens(content)},
                }
            )
            events.append({"type": "message_stop"})
            out = {"api": "messages", "stream": True, "request": req, "chunks": events}
            if client not in (None, False):
                out["client"] = client
            return out

        return self._add(labels, prof, lang, note, build, tags)


def assemble(prof: Profile, case_id: str, ts: datetime, build) -> dict[str, Any]:
    """One gateway event: ids and time, the API body from ``build``, then who served it."""
    body = build(case_id, int(ts.timestamp()))
    event: dict[str, Any] = {"event_id": case_id, "ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ")}
    event.update(body)
    event["engine"] = {"name": prof.engine, "version": prof.engine_version}
    event["model"] = {"name": prof.model, "revision": prof.revision}
    if prof.template is not None:
        event["chat_template"] = {"name": prof.template, "hash": prof.template_hash()}
    if prof.engine in ("vllm", "sglang"):
        event["parsers"] = {"reasoning": prof.reasoning_parser, "tool_call": prof.tool_parser}
    if prof.gateway is not None:
        event["gateway"] = {"name": prof.gateway[0], "version": prof.gateway[1]}
    return event


def _case_tags(labels: list[str], event: dict[str, Any], tags: dict[str, Any]) -> dict[str, Any]:
    """The optional case fields: ``group``, ``kind`` (clean hard negatives) and ``reasoning_form``
    (``reasoning_leak`` positives; derived from the visible text when not given)."""
    from .oracle import flatten, tagged_reasoning_visible  # oracle does not import shapes

    out: dict[str, Any] = {}
    if tags.get("group"):
        out["group"] = tags["group"]
    kind = tags.get("kind")
    if kind is not None:
        if labels:
            raise ValueError("kind is only for clean cases (hard negatives)")
        if kind not in HARDNEG_KINDS:
            raise ValueError(f"unknown hard-negative kind {kind!r}")
        out["kind"] = kind
    form = tags.get("reasoning_form")
    if "reasoning_leak" in labels:
        derived = "tagged" if tagged_reasoning_visible(flatten(event).visible) else "untagged"
        if form is not None and form != derived:
            raise ValueError(f"reasoning_form {form!r} but the visible text is {derived}")
        out["reasoning_form"] = derived
    elif form is not None:
        raise ValueError("reasoning_form is only for reasoning_leak positives")
    return out


def _msg_tokens(content: list[dict[str, Any]]) -> int:
    n = 0
    for b in content:
        if b["type"] == "thinking":
            n += _ntok(b["thinking"])
        elif b["type"] == "text":
            n += _ntok(b["text"])
        else:
            n += _ntok(b["input"] if isinstance(b["input"], str) else _compact(b["input"]))
    return max(n, 1)


def _call_id(prof: Profile, case_id: str, i: int) -> str:
    if prof.engine == "vllm":
        return f"chatcmpl-tool-{_h(case_id, 'tc', i, n=32)}"
    if prof.family == "kimi_k2":
        return f"functions.{_h(case_id, 'tc', i, n=8)}:{i}"
    return f"call_{_h(case_id, 'tc', i)}"


def _chat_chunk(
    rid: str, created: int, model: str, delta: dict[str, Any], finish: str | None
) -> dict[str, Any]:
    return {
        "id": rid,
        "object": "chat.completion.chunk",
        "created": created,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }
