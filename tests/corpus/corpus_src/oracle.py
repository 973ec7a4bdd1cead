"""Consistency checks between a case's event and its expected labels.

This is not a detector. It reassembles each event the simple, literal way and
checks the labels whose rule is mechanical (finish reasons, schemas, chunk
facts, phases), plus necessary conditions for the text labels (for example
"boundary_token needs a known delimiter outside code"). A mismatch means the
case is mislabeled or the event was built wrong.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

import jsonschema


@dataclass
class Flat:
    api: str
    stream: bool
    visible: str = ""
    reasoning: str = ""
    commentary: str = ""
    renders_phases: bool | None = None
    calls: list[tuple[str | None, str]] = field(default_factory=list)
    finish: str | None = None
    mixed_chunks: list[int] = field(default_factory=list)
    declared: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    structured: bool = False
    out_schema: dict[str, Any] | None = None
    # pieces of visible text in arrival order (streams)
    pieces: list[str] = field(default_factory=list)


def _s(v: Any) -> str:
    return v if isinstance(v, str) else ""


def flatten(event: dict[str, Any]) -> Flat:
    api = event["api"]
    req = event["request"]
    f = Flat(api=api, stream="chunks" in event)
    client = event.get("client") or {}
    f.renders_phases = client.get("renders_phases")

    # declared tools and structured-output request
    for t in req.get("tools") or []:
        if api == "chat.completions":
            fn = t.get("function", {})
            f.declared[fn.get("name")] = fn.get("parameters")
        elif api == "responses":
            if t.get("type") == "function":
                f.declared[t.get("name")] = t.get("parameters")
        else:
            f.declared[t.get("name")] = t.get("input_schema")
    fmt = None
    if api == "chat.completions":
        rf = req.get("response_format")
        if rf and rf.get("type") in ("json_object", "json_schema"):
            fmt = rf
            f.out_schema = (rf.get("json_schema") or {}).get("schema")
    elif api == "responses":
        tf = (req.get("text") or {}).get("format")
        if tf and tf.get("type") in ("json_object", "json_schema"):
            fmt = tf
            f.out_schema = tf.get("schema")
    else:
        of = req.get("output_format")
        if of and of.get("type") in ("json_object", "json_schema"):
            fmt = of
            f.out_schema = of.get("schema")
    f.structured = fmt is not None

    if api == "chat.completions":
        _flat_chat(event, f)
    elif api == "responses":
        _flat_responses(event, f)
    else:
        _flat_messages(event, f)
    return f


def _flat_chat(event: dict[str, Any], f: Flat) -> None:
    if "response" in event:
        ch = event["response"]["choices"][0]
        msg = ch["message"]
        f.visible = _s(msg.get("content"))
        f.reasoning = _s(msg.get("reasoning")) or _s(msg.get("reasoning_content"))
        for tc in msg.get("tool_calls") or []:
            f.calls.append((tc["function"].get("name"), tc["function"].get("arguments", "")))
        f.finish = ch.get("finish_reason")
        return
    calls: dict[int, list[Any]] = {}
    for i, chunk in enumerate(event["chunks"]):
        for ch in chunk.get("choices") or []:
            d = ch.get("delta") or {}
            c = _s(d.get("content"))
            r = _s(d.get("reasoning")) or _s(d.get("reasoning_content"))
            if c:
                f.visible += c
                f.pieces.append(c)
            f.reasoning += r
            if c and r:
                f.mixed_chunks.append(i)
            for tc in d.get("tool_calls") or []:
                slot = calls.setdefault(tc["index"], [None, ""])
                fn = tc.get("function") or {}
                if fn.get("name"):
                    slot[0] = fn["name"]
                slot[1] += fn.get("arguments") or ""
            if ch.get("finish_reason"):
                f.finish = ch["finish_reason"]
    f.calls = [(v[0], v[1]) for _, v in sorted(calls.items())]


def _resp_output(
    f: Flat, output: list[dict[str, Any]], status: str, details: dict[str, Any] | None
) -> None:
    vis: list[str] = []
    for item in output:
        t = item.get("type")
        if t == "reasoning":
            f.reasoning += "".join(c.get("text", "") for c in item.get("content") or [])
        elif t == "message":
            text = "".join(
                c.get("text", "")
                for c in item.get("content") or []
                if c.get("type") == "output_text"
            )
            if item.get("phase") == "commentary":
                f.commentary += text
                if f.renders_phases is True:
                    vis.append(text)
            else:
                vis.append(text)
        elif t == "function_call":
            f.calls.append((item.get("name"), item.get("arguments", "")))
    f.visible = "".join(vis)
    if status == "incomplete" and (details or {}).get("reason") == "max_output_tokens":
        f.finish = "length"
    elif f.calls:
        f.finish = "tool_calls"
    else:
        f.finish = "stop"


def _flat_responses(event: dict[str, Any], f: Flat) -> None:
    if "response" in event:
        r = event["response"]
        _resp_output(f, r["output"], r["status"], r.get("incomplete_details"))
        return
    final = None
    deltas: dict[int, str] = {}
    for ev in event["chunks"]:
        if ev["type"] in ("response.completed", "response.incomplete"):
            final = ev["response"]
        elif ev["type"] == "response.output_text.delta":
            deltas[ev["output_index"]] = deltas.get(ev["output_index"], "") + ev["delta"]
            f.pieces.append(ev["delta"])
    assert final is not None, "stream without a terminal response event"
    _resp_output(f, final["output"], final["status"], final.get("incomplete_details"))
    for idx, text in deltas.items():
        item = final["output"][idx]
        assert "".join(c["text"] for c in item["content"]) == text, (
            "deltas disagree with the final item"
        )


def _msg_finish(stop_reason: str | None) -> str | None:
    return {"max_tokens": "length", "tool_use": "tool_calls"}.get(stop_reason or "", "stop")


def _flat_messages(event: dict[str, Any], f: Flat) -> None:
    if "response" in event:
        r = event["response"]
        for b in r["content"]:
            if b["type"] == "text":
                f.visible += b["text"]
            elif b["type"] == "thinking":
                f.reasoning += b["thinking"]
            elif b["type"] == "tool_use":
                f.calls.append((b["name"], json.dumps(b["input"], ensure_ascii=False)))
        f.finish = _msg_finish(r["stop_reason"])
        return
    blocks: dict[int, dict[str, Any]] = {}
    for ev in event["chunks"]:
        t = ev["type"]
        if t == "content_block_start":
            cb = ev["content_block"]
            blocks[ev["index"]] = {"type": cb["type"], "text": "", "name": cb.get("name")}
        elif t == "content_block_delta":
            d = ev["delta"]
            b = blocks[ev["index"]]
            if d["type"] == "text_delta":
                b["text"] += d["text"]
                f.pieces.append(d["text"])
            elif d["type"] == "thinking_delta":
                b["text"] += d["thinking"]
            elif d["type"] == "input_json_delta":
                b["text"] += d["partial_json"]
        elif t == "message_delta":
            f.finish = _msg_finish(ev["delta"].get("stop_reason"))
    for _, b in sorted(blocks.items()):
        if b["type"] == "text":
            f.visible += b["text"]
        elif b["type"] == "thinking":
            f.reasoning += b["text"]
        elif b["type"] == "tool_use":
            f.calls.append((b["name"], b["text"]))


# ------------------------------------------------------------------ text helpers

BOUNDARY_TOKENS = (
    "<think>",
    "</think>",
    "<thinking>",
    "</thinking>",
    "◁think▷",
    "◁/think▷",
    "<|start|>",
    "<|channel|>",
    "<|message|>",
    "<|end|>",
    "<|return|>",
    "<|call|>",
    "<|constrain|>",
    "<|thinking|>",
    "Here is my thought process:",
    "<seed:think>",
    "</seed:think>",
    "[THINK]",
    "[/THINK]",
    # Gemma 4 reasoning channel delimiters ("any known family")
    "<|channel>",
    "<channel|>",
    # Cohere Command A reasoning
    "<|START_THINKING|>",
    "<|END_THINKING|>",
    "<|START_RESPONSE|>",
    "<|END_RESPONSE|>",
    # EXAONE 4.0 turn and role tokens
    "[|endofturn|]",
    "[|user|]",
    "[|assistant|]",
    "[|system|]",
    "[|tool|]",
    # Apriel Thinker answer markers
    "[BEGIN FINAL RESPONSE]",
    "[END FINAL RESPONSE]",
)
TOOL_MARKUP = (
    "<tool_call>",
    "[TOOL_CALLS]",
    "<|python_tag|>",
    "to=functions.",
    "<function=",
    # DeepSeek V3 / V3.1 (fullwidth bars and U+2581)
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    # Kimi K2
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    # GLM-4.5 argument tags (the call itself opens with <tool_call>)
    "<arg_key>",
    # Granite
    "<|tool_call|>",
)

# Token shapes of families with no row (issue 14, the generic layer). A deliberately plain,
# independent spelling: evidence that a boundary_token / tool_call_as_text label can rest on.
GENERIC_TOKEN = re.compile(
    r"<\|[A-Za-z_][\w.▁-]{0,40}\|>|<｜[^｜\n]{1,40}｜>|</s>|<eos>|<(?:start|end)_of_turn>"
    r"|\[/?(?:INST|SYSTEM_PROMPT|TOOL_RESULTS|AVAILABLE_TOOLS)\]|<\|[A-Za-z_]\w*>|<[A-Za-z_]\w*\|>"
    r"|</?[a-z]+:think>"
)
GENERIC_CALL = re.compile(
    r"<\|[\w▁]*(?:tool_?call|python_tag)[\w▁]*\|?>|\[TOOL_CALLS\]"
    r"|<(?:\w+:)?(?:tool_call|function_call|tool_use)>|<invoke name="
)
GENERIC_PAIRS = (
    re.compile(r"<\|(?:begin|start)_of_(\w+)\|>(.*?)<\|end_of_\1\|>", re.S | re.I),
    re.compile(r"<([a-z]+):think>(.*?)</\1:think>", re.S),
)


def generic_outside(text: str, pattern: re.Pattern[str]) -> list[str]:
    """Matches of a generic shape outside code, not wrapped in quotes."""
    bare = outside_code(text)
    found = []
    for m in pattern.finditer(bare):
        before = bare[m.start() - 1] if m.start() else ""
        after = bare[m.end()] if m.end() < len(bare) else ""
        if before in _QUOTES and after == _QUOTES[before]:
            continue
        found.append(m.group())
    return found


def generic_reasoning_visible(text: str) -> bool:
    bare = outside_code(text)
    return any((m := p.search(bare)) is not None and m.group(2).strip() for p in GENERIC_PAIRS)


_FENCE = re.compile(r"(^|\n)[ \t]*(```|~~~)[^\n]*\n.*?(\n[ \t]*\2[ \t]*(?=\n|$)|$)", re.S)
_INLINE = re.compile(r"`[^`\n]+`")
_QUOTES = {'"': '"', "'": "'", "“": "”", "「": "」", "『": "』"}


def outside_code(text: str) -> str:
    """Blank out fenced blocks and inline code spans (keeps offsets)."""

    def blank(m: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    text = _FENCE.sub(blank, text)
    return _INLINE.sub(blank, text)


def tokens_outside(text: str, tokens: tuple[str, ...]) -> list[str]:
    """Tokens that occur outside code and are not wrapped directly in quotes."""
    bare = outside_code(text)
    found = []
    for tok in tokens:
        start = 0
        while (i := bare.find(tok, start)) != -1:
            start = i + 1
            before = bare[i - 1] if i > 0 else ""
            after = bare[i + len(tok)] if i + len(tok) < len(bare) else ""
            if before in _QUOTES and after == _QUOTES[before]:
                continue
            found.append(tok)
            break
    return found


REASONING_PAIRS = (
    ("<think>", "</think>"),
    ("<thinking>", "</thinking>"),
    ("◁think▷", "◁/think▷"),
    ("<seed:think>", "</seed:think>"),
    ("[THINK]", "[/THINK]"),
    ("<|channel>thought", "<channel|>"),
    ("<|channel|>analysis<|message|>", "<|end|>"),
    ("<|START_THINKING|>", "<|END_THINKING|>"),
    ("Here is my thought process:", "Here is my response:"),
    ("Here are my reasoning steps:", "[BEGIN FINAL RESPONSE]"),
)


def tagged_reasoning_visible(text: str) -> bool:
    """Non-empty text between a family's reasoning delimiters, before a lone end delimiter, or
    after a start delimiter that is never closed."""
    bare = outside_code(text)
    for tok in BOUNDARY_TOKENS:
        for q_open, q_close in _QUOTES.items():
            quoted = q_open + tok + q_close
            bare = bare.replace(quoted, " " * len(quoted))
    for start, end in REASONING_PAIRS:
        i = bare.find(start)
        j = bare.find(end, i + len(start) if i != -1 else 0)
        if i != -1 and j != -1 and bare[i + len(start) : j].strip():
            return True
        if i == -1 and j != -1 and bare[:j].strip():
            return True
        if i != -1 and j == -1 and bare[i + len(start) :].strip():
            return True  # opened and never closed (e.g. cut off by max_tokens)
    return generic_reasoning_visible(text)


def json_value(text: str) -> tuple[bool, Any]:
    if not text or text != text.strip():
        return False, None
    try:
        return True, json.loads(text)
    except ValueError:
        return False, None


def whole_text_call(text: str, declared: dict[str, Any]) -> bool:
    body = text.strip()
    m = re.fullmatch(r"```[a-z]*\n(.*)\n```", body, re.S)
    if m:
        body = m.group(1).strip()
    try:
        val = json.loads(body)
    except ValueError:
        return False
    items = val if isinstance(val, list) else [val]
    return bool(items) and all(
        isinstance(it, dict)
        and it.get("name") in declared
        and isinstance(it.get("arguments", it.get("parameters")), dict)
        for it in items
    )


def _pythonic_calls(line: str, declared: dict[str, Any]) -> bool:
    """A Llama 3.2 / Llama 4 pythonic call list, e.g. ``[get_weather(city="Seoul")]``."""
    line = line.strip()
    if not (line.startswith("[") and line.endswith("]")):
        return False
    try:
        node = ast.parse(line, mode="eval").body
    except SyntaxError:
        return False
    return (
        isinstance(node, ast.List)
        and bool(node.elts)
        and all(
            isinstance(c, ast.Call)
            and isinstance(c.func, ast.Name)
            and c.func.id in declared
            and not c.args
            for c in node.elts
        )
    )


def embedded_calls(text: str, declared: dict[str, Any]) -> list[str]:
    """Calls written outside code that are not marked up with a family token: a line holding a
    pythonic call list, or a Llama-3 style ``{"name": declared, "parameters": {...}}`` object."""
    bare = outside_code(text)
    found = []
    if any(_pythonic_calls(line, declared) for line in bare.splitlines()):
        found.append("pythonic call")
    dec = json.JSONDecoder()
    for m in re.finditer(r"\{", bare):
        try:
            val, _ = dec.raw_decode(bare, m.start())
        except ValueError:
            continue
        if (
            isinstance(val, dict)
            and val.get("name") in declared
            and isinstance(val.get("parameters"), dict)
        ):
            found.append("name/parameters JSON")
            break
        fn = val.get("function") if isinstance(val, dict) else None
        if isinstance(fn, dict) and fn.get("name") in declared and "arguments" in fn:
            found.append("wire-style function JSON")
            break
    return found


# ------------------------------------------------------------------ the checks


def mechanical_labels(f: Flat) -> set[str]:
    """Labels decided by structure alone (no language judgement)."""
    out: set[str] = set()
    if f.finish == "length":
        out.add("truncated")
    if not f.visible and not f.calls and f.finish != "length" and f.reasoning:
        out.add("final_in_reasoning")
    if f.api == "chat.completions" and f.stream and f.mixed_chunks:
        out.add("mixed_chunk")
    if f.api == "responses" and f.commentary and f.renders_phases is True:
        out.add("commentary_rendered")
    if f.structured and not f.calls:
        ok, val = json_value(f.visible)
        if ok and f.out_schema is not None:
            try:
                jsonschema.validate(val, f.out_schema)
            except jsonschema.ValidationError:
                ok = False
        elif ok and not isinstance(val, dict):
            ok = False
        if not ok:
            out.add("structured_invalid")
    if f.calls and f.declared:
        for name, raw in f.calls:
            if name not in f.declared:
                out.add("tool_args_invalid")
                continue
            try:
                args = json.loads(raw)
            except ValueError:
                out.add("tool_args_invalid")
                continue
            if not isinstance(args, dict):
                out.add("tool_args_invalid")
                continue
            sch = f.declared[name]
            if sch is not None:
                try:
                    jsonschema.validate(args, sch)
                except jsonschema.ValidationError:
                    out.add("tool_args_invalid")
    return out


MENTION = "mention-as-noun"

MECHANICAL = {
    "truncated",
    "final_in_reasoning",
    "mixed_chunk",
    "commentary_rendered",
    "structured_invalid",
    "tool_args_invalid",
}


def check_case(case: dict[str, Any]) -> list[str]:
    """Problems with one case; empty when the labels are consistent with the event."""
    problems: list[str] = []
    expected = set(case["expected_labels"])
    f = flatten(case["event"])

    mech = mechanical_labels(f)
    for label in sorted(MECHANICAL):
        if (label in mech) != (label in expected):
            problems.append(f"{label}: oracle says {label in mech}, case says {label in expected}")

    found = tokens_outside(f.visible, BOUNDARY_TOKENS)
    if MENTION in case["note"]:
        # An answer that explains a delimiter and names it in plain prose ("Qwen3 wraps its
        # reasoning in <think> tags") is clean by the product spec; the case must really show a
        # bare token, and must be clean.
        if not found:
            problems.append(f"note says {MENTION} but no delimiter is named outside code/quotes")
        if expected:
            problems.append(f"a {MENTION} case must be clean")
    else:
        if found and "boundary_token" not in expected:
            problems.append(f"boundary_token missing although {found} is visible outside code")
        generic = [
            t for t in generic_outside(f.visible, GENERIC_TOKEN) if not GENERIC_CALL.fullmatch(t)
        ]
        if "boundary_token" in expected and not found and not generic:
            problems.append(
                "boundary_token expected but no known or token-shaped delimiter is visible "
                "outside code"
            )
        if tagged_reasoning_visible(f.visible) and "reasoning_leak" not in expected:
            problems.append("reasoning_leak missing although delimited reasoning is visible")
    if "reasoning_leak" in expected and not f.visible:
        problems.append("reasoning_leak expected but visible text is empty")
    form = case.get("reasoning_form")
    if ("reasoning_leak" in expected) != (form is not None):
        problems.append("reasoning_form must be set exactly on reasoning_leak positives")
    elif form is not None:
        tagged = tagged_reasoning_visible(f.visible)
        if form not in ("tagged", "untagged") or (form == "tagged") != tagged:
            problems.append(f"reasoning_form {form!r} disagrees with the visible text")
    if case.get("kind") is not None and expected:
        problems.append("kind is only for clean cases")

    # Declared tools are not required (issue 14): framed markup counts without them.
    markup = tokens_outside(f.visible, TOOL_MARKUP)
    framed = markup + generic_outside(f.visible, GENERIC_CALL)
    if f.declared:
        markup += embedded_calls(f.visible, f.declared)
    as_text_possible = bool(f.declared) and not f.calls
    if "tool_call_as_text" in expected:
        if f.calls:
            problems.append("tool_call_as_text needs no structured call")
        elif not f.declared and not framed:
            problems.append("tool_call_as_text without declared tools needs framed call markup")
        elif (
            f.declared and not framed and not markup and not whole_text_call(f.visible, f.declared)
        ):
            problems.append("tool_call_as_text expected but no call markup or whole-text call JSON")
    elif as_text_possible and (markup or whole_text_call(f.visible, f.declared)):
        problems.append(
            f"tool_call_as_text missing although {markup or 'a whole-text call'} is visible"
        )
    elif not f.calls and not f.declared and (tokens := [t for t in markup if "<" in t or "[" in t]):
        problems.append(f"tool_call_as_text missing although {tokens} is visible (no tools needed)")

    if "preamble" in expected and (f.calls or not f.visible):
        problems.append("preamble needs visible text and no structured tool call")
    return problems
