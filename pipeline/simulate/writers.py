"""Wire writers: a planned response as the request, response and stream chunks of its API.

The three APIs the gateway sees are Chat Completions (``chat.completions``), Responses
(``responses``) and Anthropic Messages (``messages``). ``request_body`` writes what the
client sent and ``response_body`` what came back: one response object, or the stream
events in order, with texts cut into small deltas (``_pieces``).
"""

from __future__ import annotations

import json
import random
from typing import Any

from leakline.pipeline.simulate import texts as T
from leakline.pipeline.simulate.draws import choice
from leakline.pipeline.simulate.plan import EventContext, ResponsePlan
from leakline.pipeline.simulate.topics import SCHEMAS, Tool, as_json, tool_result

# stop sequences a request may set
_STOPS = (["Observation:"], ["\n\nUser:"], ["</answer>"], ["###"], ["\n\n\n"])


# ============================================================================ stream splitting


def _pieces(rng: random.Random, text: str, split: str | None = None) -> list[str]:
    """Split ``text`` into small deltas; if ``split`` occurs, cut inside it once."""
    if not text:
        return []
    n = len(text)
    # small deltas for short texts; long texts are coalesced to at most ~30 pieces
    avg = max(14.0, n / 25)
    lo, span = 0.4 * avg, 1.2 * avg
    cuts = set()
    pos = 0
    rnd = rng.random
    while True:
        pos += int(lo + rnd() * span)
        if pos >= n:
            break
        cuts.add(pos)
    if split:
        at = text.find(split)
        if at >= 0 and len(split) > 1:
            end = at + len(split)
            cuts = {x for x in cuts if not at < x < end}
            cuts.add(at + 1 + int(rng.random() * (len(split) - 1)))
    bounds = [0, *sorted(cuts), n]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


# ============================================================================ requests


def _chat_tool(t: Tool, strict: bool = False) -> dict[str, Any]:
    fn: dict[str, Any] = {"name": t.name, "description": t.description, "parameters": t.parameters}
    if strict:
        fn["strict"] = True
    return {"type": "function", "function": fn}


# model-name substrings of families whose template wants the reasoning of a tool-call turn
# passed back before the tool result (harmony analysis, interleaved thinking)
_REASONING_BACK = ("gpt-oss", "kimi-k2-thinking", "minimax-m2")


def _strict_names(c: EventContext, p: ResponsePlan, tools: tuple[Tool, ...]) -> set[str]:
    """The declared tools sent with ``strict: true``: all, the ones not called, or none."""
    if p.strict == "all":
        return {t.name for t in tools}
    if p.strict == "some":
        return {t.name for t in tools if t.name != c.tool.name}
    return set()


def _passes_reasoning_back(c: EventContext, p: ResponsePlan) -> bool:
    model = c.dep.model.lower()
    if c.dep.api == "messages":
        return bool(p.thinking)
    return any(m in model for m in _REASONING_BACK)


def _responses_tool(t: Tool) -> dict[str, Any]:
    return {
        "type": "function",
        "name": t.name,
        "description": t.description,
        "parameters": t.parameters,
    }


def _messages_tool(t: Tool) -> dict[str, Any]:
    return {"name": t.name, "description": t.description, "input_schema": t.parameters}


def request_body(
    c: EventContext, p: ResponsePlan, ids: dict[str, str], max_tokens: int | None
) -> tuple[dict[str, Any], int]:
    """The request body and a rough count of its input characters."""
    rng, dep, api = c.rng, c.dep, c.dep.api
    if p.prompt is not None:
        prompt = p.prompt
    elif p.structured:
        prompt = c.fmt(choice(rng, c.bank["json_prompt"]))
    else:
        prompt = c.prompt()
    if p.structured:
        system: str | None = choice(rng, T.JSON_SYSTEM_PROMPTS[c.lang])
    else:
        system = choice(rng, T.SYSTEM_PROMPTS[c.lang]) if rng.random() < 0.6 else None
    tools = (c.tool, *c.extra_tools) if p.tools else ()
    if tools and rng.random() < 0.5:
        tools = (*tools[1:], tools[0])
    schema_name = f"{c.topic}_result"
    schema = p.schema if p.schema is not None else SCHEMAS[c.topic]
    strict_names = _strict_names(c, p, tools)
    # the reasoning of the earlier tool-call turn, when the family wants it back
    wanted = p.followup and p.history != "missing" and _passes_reasoning_back(c, p)
    back = c.reasoning(short=True) if wanted else ""
    req: dict[str, Any] = {"model": dep.model}
    call_id = ids["prior_call"]
    prior_args = as_json(c.args()) if p.followup else ""
    result = as_json(tool_result(rng, c.lang, c.topic, c.v)) if p.followup else ""

    if api == "chat.completions":
        msgs: list[dict[str, Any]] = []
        if system:
            msgs.append({"role": "system", "content": system})
        if p.history == "resent":  # an earlier, finished turn that kept its reasoning
            msgs.append({"role": "user", "content": c.prompt()})
            msgs.append(
                {"role": "assistant", "content": c.answer(), "reasoning": c.reasoning(short=True)}
            )
        msgs.append({"role": "user", "content": prompt})
        if p.followup:
            turn: dict[str, Any] = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": c.tool.name, "arguments": prior_args},
                    }
                ],
            }
            if back:
                turn["reasoning"] = back
            msgs.append(turn)
            msgs.append({"role": "tool", "tool_call_id": call_id, "content": result})
        req["messages"] = msgs
        if tools:
            req["tools"] = [_chat_tool(t, t.name in strict_names) for t in tools]
            req["tool_choice"] = "auto"
        if p.structured == "json_schema":
            req["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": True},
            }
        elif p.structured == "json_object":
            req["response_format"] = {"type": "json_object"}
        if p.stop or rng.random() < 0.12:
            req["stop"] = list(choice(rng, _STOPS))
        if max_tokens is not None:
            req["max_tokens"] = max_tokens
        req["temperature"] = choice(rng, (0.2, 0.6, 0.7, 1.0))
        for k, val in dep.request_extra:
            req[k] = val
        if dep.think_style == "harmony":
            req["reasoning_effort"] = choice(rng, ("low", "medium", "high"))
        if p.thinking_kwarg is not None:
            kwargs = dict(req.get("chat_template_kwargs") or {})
            kwargs.pop("thinking", None)
            kwargs["enable_thinking"] = p.thinking_kwarg
            req["chat_template_kwargs"] = kwargs
        if c.stream:
            req["stream"] = True
            if rng.random() < 0.5:
                req["stream_options"] = {"include_usage": True}
        return req, len(prompt) + len(system or "") + len(result) + 150 * len(tools)

    if api == "responses":
        items: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
        if p.followup:
            if back:
                items.append(
                    {"type": "reasoning", "summary": [{"type": "summary_text", "text": back}]}
                )
            items.append(
                {
                    "type": "function_call",
                    "call_id": call_id,
                    "name": c.tool.name,
                    "arguments": prior_args,
                }
            )
            items.append({"type": "function_call_output", "call_id": call_id, "output": result})
        req["input"] = items if (p.followup or rng.random() < 0.6) else prompt
        if system:
            req["instructions"] = system
        if tools:
            req["tools"] = [_responses_tool(t) for t in tools]
            for body in req["tools"]:
                if body["name"] in strict_names:
                    body["strict"] = True
        if p.structured == "json_schema":
            req["text"] = {
                "format": {
                    "type": "json_schema",
                    "name": schema_name,
                    "schema": schema,
                    "strict": True,
                }
            }
        elif p.structured == "json_object":
            req["text"] = {"format": {"type": "json_object"}}
        if max_tokens is not None:
            req["max_output_tokens"] = max_tokens
        req["reasoning"] = {"effort": choice(rng, ("low", "medium", "high"))}
        if rng.random() < 0.5:
            req["store"] = False
        if c.stream:
            req["stream"] = True
        return req, len(prompt) + len(system or "") + len(result) + 150 * len(tools)

    # messages
    msgs = [{"role": "user", "content": prompt}]
    if p.followup:
        msgs.append(
            {
                "role": "assistant",
                "content": (
                    [{"type": "thinking", "thinking": back, "signature": ids["sig"]}]
                    if back
                    else []
                )
                + [{"type": "tool_use", "id": call_id, "name": c.tool.name, "input": c.args()}],
            }
        )
        msgs.append(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": call_id, "content": result}],
            }
        )
    req["max_tokens"] = max_tokens if max_tokens is not None else choice(rng, (2048, 4096, 8192))
    if system:
        req["system"] = system
    req["messages"] = msgs
    if tools:
        req["tools"] = [_messages_tool(t) for t in tools]
    if p.structured:
        req["output_format"] = {"type": "json_schema", "schema": schema}
    if p.thinking:
        # the API requires 1024 <= budget_tokens < max_tokens
        budgets = [b for b in (1024, 2048, 4096) if b < req["max_tokens"]] or [1024]
        req["thinking"] = {"type": "enabled", "budget_tokens": choice(rng, budgets)}
    if p.stop or rng.random() < 0.05:
        req["stop_sequences"] = list(choice(rng, _STOPS))
    if c.stream:
        req["stream"] = True
    return req, len(prompt) + len(system or "") + len(result) + 150 * len(tools)


# ============================================================================ responses


def response_body(
    c: EventContext,
    p: ResponsePlan,
    ids: dict[str, str],
    created: int,
    usage: dict[str, int],
    max_tokens: int | None,
) -> tuple[str, Any]:
    """The event field and its value: ``("response", body)`` or ``("chunks", events)``."""
    api = c.dep.api
    if api == "chat.completions":
        return _chat_body(c, p, ids, created, usage)
    if api == "responses":
        return _responses_body(c, p, ids, created, usage, max_tokens)
    return _messages_body(c, p, ids, usage)


def _chat_body(
    c: EventContext, p: ResponsePlan, ids: dict[str, str], created: int, usage: dict[str, int]
) -> tuple[str, Any]:
    dep, rng = c.dep, c.rng
    field = dep.reasoning_field
    calls = [(ids[f"call{j}"], name, args) for j, (name, args) in enumerate(p.calls)]
    if not c.stream:
        msg: dict[str, Any] = {"role": "assistant", "content": p.content}
        if field:
            msg[field] = p.reasoning or None
        elif p.reasoning:
            msg["reasoning"] = p.reasoning
        if calls:
            msg["tool_calls"] = [
                {"id": cid, "type": "function", "function": {"name": n, "arguments": a}}
                for cid, n, a in calls
            ]
        return "response", {
            "id": ids["resp"],
            "object": "chat.completion",
            "created": created,
            "model": dep.model,
            "choices": [{"index": 0, "message": msg, "finish_reason": p.finish, "logprobs": None}],
            "usage": usage,
        }

    rfield = field or "reasoning"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    head = chunk({"role": "assistant", "content": ""})
    head.update(id=ids["resp"], object="chat.completion.chunk", created=created, model=dep.model)
    chunks = [head]
    rp = _pieces(rng, p.reasoning)
    cp = _pieces(rng, p.content or "", p.split)
    if p.mixed and rp and cp:
        chunks.extend(chunk({rfield: x}) for x in rp[:-1])
        chunks.append(chunk({rfield: rp[-1], "content": cp[0]}))
        chunks.extend(chunk({"content": x}) for x in cp[1:])
    else:
        chunks.extend(chunk({rfield: x}) for x in rp)
        chunks.extend(chunk({"content": x}) for x in cp)
    for j, (cid, name, args) in enumerate(calls):
        chunks.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": j,
                            "id": cid,
                            "type": "function",
                            "function": {"name": name, "arguments": ""},
                        }
                    ]
                }
            )
        )
        chunks.extend(
            chunk({"tool_calls": [{"index": j, "function": {"arguments": x}}]})
            for x in _pieces(rng, args)
        )
    chunks.append(chunk({}, p.finish))
    if rng.random() < 0.5:
        chunks.append(
            {
                "id": ids["resp"],
                "object": "chat.completion.chunk",
                "created": created,
                "model": dep.model,
                "choices": [],
                "usage": usage,
            }
        )
    return "chunks", chunks


def _responses_items(c: EventContext, p: ResponsePlan, ids: dict[str, str]) -> list[dict[str, Any]]:
    dep = c.dep
    incomplete = p.finish == "length"
    items: list[dict[str, Any]] = []
    if p.reasoning or dep.engine == "openai":
        if dep.engine == "openai":
            summary = [{"type": "summary_text", "text": p.reasoning}] if p.reasoning else []
            items.append({"id": ids["rs"], "type": "reasoning", "summary": summary})
        else:
            items.append(
                {
                    "id": ids["rs"],
                    "type": "reasoning",
                    "summary": [],
                    "content": [{"type": "reasoning_text", "text": p.reasoning}],
                }
            )

    def message(mid: str, text: str, phase: str | None, status: str) -> dict[str, Any]:
        item: dict[str, Any] = {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "status": status,
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
        if phase:
            item["phase"] = phase
        return item

    if p.commentary:
        items.append(message(ids["msg_c"], p.commentary, "commentary", "completed"))
    if p.content is not None:
        items.append(
            message(
                ids["msg"],
                p.content,
                "final_answer" if dep.phases else None,
                "incomplete" if incomplete else "completed",
            )
        )
    for j, (name, args) in enumerate(p.calls):
        items.append(
            {
                "id": ids[f"fc{j}"],
                "type": "function_call",
                "call_id": ids[f"call{j}"],
                "name": name,
                "arguments": args,
                "status": "completed",
            }
        )
    return items


def _responses_body(
    c: EventContext,
    p: ResponsePlan,
    ids: dict[str, str],
    created: int,
    usage: dict[str, int],
    max_tokens: int | None,
) -> tuple[str, Any]:
    items = _responses_items(c, p, ids)
    incomplete = p.finish == "length"
    response: dict[str, Any] = {
        "id": ids["resp"],
        "object": "response",
        "created_at": created,
        "status": "incomplete" if incomplete else "completed",
        "incomplete_details": {"reason": "max_output_tokens"} if incomplete else None,
        "model": c.dep.revision if c.dep.engine == "openai" else c.dep.model,
        "output": items,
        "max_output_tokens": max_tokens,
        "usage": {
            "input_tokens": usage["prompt_tokens"],
            "output_tokens": usage["completion_tokens"],
            "total_tokens": usage["total_tokens"],
        },
    }
    if not c.stream:
        return "response", response

    rng = c.rng
    events: list[dict[str, Any]] = []

    def emit(kind: str, **fields: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **fields})

    emit(
        "response.created",
        response={
            "id": ids["resp"],
            "object": "response",
            "created_at": created,
            "status": "in_progress",
            "model": response["model"],
            "output": [],
        },
    )
    for idx, item in enumerate(items):
        kind = item["type"]
        if kind == "reasoning":
            emit(
                "response.output_item.added",
                output_index=idx,
                item={"id": item["id"], "type": "reasoning", "summary": []},
            )
            if "content" in item:
                for x in _pieces(rng, item["content"][0]["text"]):
                    emit(
                        "response.reasoning_text.delta",
                        item_id=item["id"],
                        output_index=idx,
                        content_index=0,
                        delta=x,
                    )
            elif item["summary"]:
                for x in _pieces(rng, item["summary"][0]["text"]):
                    emit(
                        "response.reasoning_summary_text.delta",
                        item_id=item["id"],
                        output_index=idx,
                        summary_index=0,
                        delta=x,
                    )
        elif kind == "message":
            added = {k: v for k, v in item.items() if k != "content"}
            added.update(status="in_progress", content=[])
            emit("response.output_item.added", output_index=idx, item=added)
            text = item["content"][0]["text"]
            split = p.split if item.get("phase") != "commentary" else None
            for x in _pieces(rng, text, split):
                emit(
                    "response.output_text.delta",
                    item_id=item["id"],
                    output_index=idx,
                    content_index=0,
                    delta=x,
                )
        else:
            emit(
                "response.output_item.added",
                output_index=idx,
                item={**item, "arguments": "", "status": "in_progress"},
            )
            for x in _pieces(rng, item["arguments"]):
                emit(
                    "response.function_call_arguments.delta",
                    item_id=item["id"],
                    output_index=idx,
                    delta=x,
                )
        emit("response.output_item.done", output_index=idx, item=item)
    emit("response.incomplete" if incomplete else "response.completed", response=response)
    return "chunks", events


def _messages_body(
    c: EventContext, p: ResponsePlan, ids: dict[str, str], usage: dict[str, int]
) -> tuple[str, Any]:
    rng, dep = c.rng, c.dep
    blocks: list[dict[str, Any]] = []
    if p.thinking:
        blocks.append({"type": "thinking", "thinking": p.reasoning, "signature": ids["sig"]})
    if p.content:
        blocks.append({"type": "text", "text": p.content})
    for j, (name, args) in enumerate(p.calls):
        blocks.append(
            {"type": "tool_use", "id": ids[f"call{j}"], "name": name, "input": json.loads(args)}
        )
    stop = {"stop": "end_turn", "length": "max_tokens", "tool_calls": "tool_use"}[p.finish]
    msg_usage = {
        "input_tokens": usage["prompt_tokens"],
        "output_tokens": usage["completion_tokens"],
    }
    if not c.stream:
        return "response", {
            "id": ids["resp"],
            "type": "message",
            "role": "assistant",
            "model": dep.model,
            "content": blocks,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": msg_usage,
        }
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {
                "id": ids["resp"],
                "type": "message",
                "role": "assistant",
                "model": dep.model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": usage["prompt_tokens"], "output_tokens": 1},
            },
        }
    ]
    for idx, block in enumerate(blocks):
        kind = block["type"]
        if kind == "thinking":
            events.append(
                {
                    "type": "content_block_start",
                    "index": idx,
                    "content_block": {"type": "thinking", "thinking": "", "signature": ""},
                }
            )
            events.extend(
                {
                    "type": "content_block_delta",
                    "index": idx,
                    "delta": {"type": "thinking_delta", "thinking": x},
                }
                for x in _pieces(rng, block["thinking"])
            )
            events.append(
                {
                    "type": "content_block_delta",
                    "index": idx,
                    "delta": {"type": "signature_delta", "signature": block["signature"]},
                }
            )
        elif kind == "text":
            events.append(
                {
                    "type": "content_block_start",
                    "index": idx,
                    "content_block": {"type": "text", "text": ""},
                }
            )
            events.extend(
                {
                    "type": "content_block_delta",
                    "index": idx,
                    "delta": {"type": "text_delta", "text": x},
                }
                for x in _pieces(rng, block["text"], p.split)
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
            events.extend(
                {
                    "type": "content_block_delta",
                    "index": idx,
                    "delta": {"type": "input_json_delta", "partial_json": x},
                }
                for x in _pieces(rng, as_json(block["input"]))
            )
        events.append({"type": "content_block_stop", "index": idx})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": usage["completion_tokens"]},
        }
    )
    events.append({"type": "message_stop"})
    return "chunks", events
