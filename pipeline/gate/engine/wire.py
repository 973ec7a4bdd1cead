"""Render a simulated ``Generation`` as the three APIs put it on the wire.

``body(...)`` is the non-streaming JSON body; ``events(...)`` the stream as
``(event_name | None, payload)`` pairs, in the order the official SDKs expect:
chat.completions chunks (no event names, then ``[DONE]``), Responses stream
events (``response.created`` ... ``response.completed``), and Anthropic Messages
events (``message_start`` ... ``message_stop``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from leakline.pipeline.gate.engine.gen import Generation, RequestView, tokens

StreamEvent = tuple[str | None, dict[str, Any]]
# tokens per stream chunk: small enough that tags and words split across chunks
CHUNK_TOKENS = 2
MAX_CHUNKS = 200


def _groups(pieces: list[str], size: int = CHUNK_TOKENS) -> list[str]:
    # long texts (a runaway reasoning of thousands of tokens) get bigger chunks, so a
    # stream stays under ~MAX_CHUNKS events and a replay stays fast
    size = max(size, -(-len(pieces) // MAX_CHUNKS))
    return ["".join(pieces[i : i + size]) for i in range(0, len(pieces), size)]


def _usage_counts(view: RequestView, gen: Generation) -> tuple[int, int]:
    return len(tokens(view.user_text)) + 8, gen.output_tokens


# ------------------------------------------------------------------ chat.completions


def _chat_finish(gen: Generation) -> str:
    return gen.finish


def chat_body(view: RequestView, gen: Generation) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "content": gen.content_text or None,
        gen.reasoning_field: gen.reasoning_text or None,
    }
    if gen.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in gen.tool_calls
        ]
    prompt, completion = _usage_counts(view, gen)
    return {
        "id": f"chatcmpl-{view.key[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": view.model,
        "choices": [
            {"index": 0, "message": message, "finish_reason": _chat_finish(gen), "logprobs": None}
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


def chat_events(view: RequestView, gen: Generation) -> Iterator[StreamEvent]:
    created = int(time.time())
    base = {
        "id": f"chatcmpl-{view.key[:24]}",
        "object": "chat.completion.chunk",
        "created": created,
        "model": view.model,
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> StreamEvent:
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        return None, {**base, "choices": [choice]}

    yield chunk({"role": "assistant", "content": ""})
    reasoning, content = _groups(gen.reasoning), _groups(gen.content)
    if gen.mixed_chunk and reasoning and content:
        # the boundary chunk carries the last reasoning piece and the first answer piece
        *reasoning, last = reasoning
        first, *content = content
        yield from (chunk({gen.reasoning_field: piece}) for piece in reasoning)
        yield chunk({gen.reasoning_field: last, "content": first})
    else:
        yield from (chunk({gen.reasoning_field: piece}) for piece in reasoning)
    yield from (chunk({"content": piece}) for piece in content)
    for index, call in enumerate(gen.tool_calls):
        yield chunk(
            {
                "tool_calls": [
                    {
                        "index": index,
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": ""},
                    }
                ]
            }
        )
        for piece in _groups(tokens(call.arguments), 3):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, _chat_finish(gen))
    if view.stream_usage:
        prompt, completion = _usage_counts(view, gen)
        yield (
            None,
            {
                **base,
                "choices": [],
                "usage": {
                    "prompt_tokens": prompt,
                    "completion_tokens": completion,
                    "total_tokens": prompt + completion,
                },
            },
        )


# ------------------------------------------------------------------ responses


def _responses_items(view: RequestView, gen: Generation) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    if gen.reasoning:
        items.append(
            {
                "type": "reasoning",
                "id": f"rs_{view.key[:20]}",
                "summary": [],
                "content": [{"type": "reasoning_text", "text": gen.reasoning_text}],
            }
        )
    if gen.content:
        items.append(
            {
                "type": "message",
                "id": f"msg_{view.key[:20]}",
                "role": "assistant",
                "status": "completed" if gen.finish != "length" else "incomplete",
                "content": [
                    {
                        "type": "output_text",
                        "text": gen.content_text,
                        "annotations": [],
                        "logprobs": [],
                    }
                ],
            }
        )
    for index, call in enumerate(gen.tool_calls):
        items.append(
            {
                "type": "function_call",
                "id": f"fc_{view.key[:18]}{index:02d}",
                "call_id": call.id,
                "name": call.name,
                "arguments": call.arguments,
                "status": "completed",
            }
        )
    return items


def responses_body(
    view: RequestView, gen: Generation, request: dict[str, Any], *, done: bool = True
) -> dict[str, Any]:
    prompt, completion = _usage_counts(view, gen)
    incomplete = gen.finish == "length"
    return {
        "id": f"resp_{view.key[:24]}",
        "object": "response",
        "created_at": int(time.time()),
        "model": view.model,
        "status": ("incomplete" if incomplete else "completed") if done else "in_progress",
        "incomplete_details": {"reason": "max_output_tokens"} if incomplete and done else None,
        "output": _responses_items(view, gen) if done else [],
        "parallel_tool_calls": True,
        "tool_choice": request.get("tool_choice", "auto"),
        "tools": request.get("tools") or [],
        "text": request.get("text") or {"format": {"type": "text"}},
        "max_output_tokens": view.max_tokens,
        "error": None,
        "usage": {
            "input_tokens": prompt,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": completion,
            "output_tokens_details": {"reasoning_tokens": len(gen.reasoning)},
            "total_tokens": prompt + completion,
        }
        if done
        else None,
    }


def responses_events(
    view: RequestView, gen: Generation, request: dict[str, Any]
) -> Iterator[StreamEvent]:
    seq = iter(range(1_000_000))

    def ev(kind: str, **payload: Any) -> StreamEvent:
        return kind, {"type": kind, "sequence_number": next(seq), **payload}

    pending = responses_body(view, gen, request, done=False)
    yield ev("response.created", response=pending)
    yield ev("response.in_progress", response=pending)
    for index, item in enumerate(_responses_items(view, gen)):
        kind, item_id = item["type"], item["id"]
        if kind == "reasoning":
            yield ev("response.output_item.added", output_index=index, item={**item, "content": []})
            for piece in _groups(gen.reasoning):
                yield ev(
                    "response.reasoning_text.delta",
                    item_id=item_id,
                    output_index=index,
                    content_index=0,
                    delta=piece,
                )
            yield ev(
                "response.reasoning_text.done",
                item_id=item_id,
                output_index=index,
                content_index=0,
                text=gen.reasoning_text,
            )
        elif kind == "message":
            part = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
            yield ev(
                "response.output_item.added",
                output_index=index,
                item={**item, "status": "in_progress", "content": []},
            )
            yield ev(
                "response.content_part.added",
                item_id=item_id,
                output_index=index,
                content_index=0,
                part=part,
            )
            for piece in _groups(gen.content):
                yield ev(
                    "response.output_text.delta",
                    item_id=item_id,
                    output_index=index,
                    content_index=0,
                    delta=piece,
                    logprobs=[],
                )
            yield ev(
                "response.output_text.done",
                item_id=item_id,
                output_index=index,
                content_index=0,
                text=gen.content_text,
                logprobs=[],
            )
            yield ev(
                "response.content_part.done",
                item_id=item_id,
                output_index=index,
                content_index=0,
                part={**part, "text": gen.content_text},
            )
        else:
            yield ev(
                "response.output_item.added",
                output_index=index,
                item={**item, "arguments": "", "status": "in_progress"},
            )
            for piece in _groups(tokens(item["arguments"]), 3):
                yield ev(
                    "response.function_call_arguments.delta",
                    item_id=item_id,
                    output_index=index,
                    delta=piece,
                )
            yield ev(
                "response.function_call_arguments.done",
                item_id=item_id,
                output_index=index,
                arguments=item["arguments"],
                name=item["name"],
            )
        yield ev("response.output_item.done", output_index=index, item=item)
    final = responses_body(view, gen, request)
    kind = "response.incomplete" if gen.finish == "length" else "response.completed"
    yield ev(kind, response=final)


# ------------------------------------------------------------------ messages


def _stop_reason(gen: Generation) -> str:
    if gen.finish == "length":
        return "max_tokens"
    if gen.finish == "tool_calls":
        return "tool_use"
    return "stop_sequence" if gen.stop_sequence else "end_turn"


def _blocks(gen: Generation) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if gen.reasoning:
        blocks.append(
            {"type": "thinking", "thinking": gen.reasoning_text, "signature": "engine-sim"}
        )
    if gen.content:
        blocks.append({"type": "text", "text": gen.content_text})
    for call in gen.tool_calls:
        blocks.append(
            {
                "type": "tool_use",
                "id": f"toolu_{call.id[5:]}",
                "name": call.name,
                "input": json.loads(call.arguments),
            }
        )
    return blocks


def messages_body(view: RequestView, gen: Generation, *, done: bool = True) -> dict[str, Any]:
    prompt, completion = _usage_counts(view, gen)
    return {
        "id": f"msg_{view.key[:24]}",
        "type": "message",
        "role": "assistant",
        "model": view.model,
        "content": _blocks(gen) if done else [],
        "stop_reason": _stop_reason(gen) if done else None,
        "stop_sequence": gen.stop_sequence if done else None,
        "usage": {"input_tokens": prompt, "output_tokens": completion if done else 1},
    }


def messages_events(view: RequestView, gen: Generation) -> Iterator[StreamEvent]:
    def ev(kind: str, **payload: Any) -> StreamEvent:
        return kind, {"type": kind, **payload}

    yield ev("message_start", message=messages_body(view, gen, done=False))
    for index, block in enumerate(_blocks(gen)):
        kind = block["type"]
        if kind == "thinking":
            yield ev(
                "content_block_start",
                index=index,
                content_block={"type": "thinking", "thinking": "", "signature": ""},
            )
            for piece in _groups(gen.reasoning):
                yield ev(
                    "content_block_delta",
                    index=index,
                    delta={"type": "thinking_delta", "thinking": piece},
                )
            yield ev(
                "content_block_delta",
                index=index,
                delta={"type": "signature_delta", "signature": block["signature"]},
            )
        elif kind == "text":
            yield ev("content_block_start", index=index, content_block={"type": "text", "text": ""})
            for piece in _groups(gen.content):
                yield ev(
                    "content_block_delta", index=index, delta={"type": "text_delta", "text": piece}
                )
        else:
            yield ev("content_block_start", index=index, content_block={**block, "input": {}})
            for piece in _groups(tokens(json.dumps(block["input"], ensure_ascii=False)), 3):
                yield ev(
                    "content_block_delta",
                    index=index,
                    delta={"type": "input_json_delta", "partial_json": piece},
                )
        yield ev("content_block_stop", index=index)
    _, completion = _usage_counts(view, gen)
    yield ev(
        "message_delta",
        delta={"stop_reason": _stop_reason(gen), "stop_sequence": gen.stop_sequence},
        usage={"output_tokens": completion},
    )
    yield ev("message_stop")
