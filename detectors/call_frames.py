"""Call frames: where text is a tool call whatever its syntax (used by ``generic_tool_calls``).

A declared tool name is strong evidence when it sits in a *frame* that only a call
puts it in, so these finders start from the names the request declared (one
``LiteralScanner`` per tool set, cached) and look at what surrounds each hit:

- ``declared_json``: a small JSON object holding the name as a value beside an object (or
  stringified object, or an ``…input``/``…args`` string) of arguments, whatever the keys;
- ``declared_call``: ``name(k=v)`` / ``name({...})`` standing alone at the end of a line;
- ``react``: ``Action: name`` at a line start, then an ``Action Input:`` line;
- ``tool_fence``: a fence whose info string names the tool or says tool/tool_call/tool_code;
- ``declared_sep``: ``name::{…}``, ``name => {…}``, ``name: {…}`` (the name opening a line);
- ``marker_call``: a bracketed call word (``<<call>>``, ``[[tool]]``, ``【function】``) then
  the name and JSON arguments.

And, from real reports, with or without declared tools:

- ``token_segment``: a call (a call object, or a function-like name then a JSON object)
  sitting between special tokens that no call markup row claims;
- ``tool_code``: a fence tagged ``tool_code`` (or another tool word) calling an API object's
  method, parsed with ``ast`` (never evaluated); the method name is the tool;
- ``bracket_prose``: ``[tool_call: search for "…"]``, ``[Calling get_weather with {…}]``,
  ``[invoke NAME for "…"]``, ``[Using tool NAME to look up "…"]``, ``[tool: NAME k=v]`` (the
  weaker call words "invoke", "use tool" and "tool:" need a function-like or declared name
  and arguments: stage directions and inventories use them too);
- ``whole_object``: with no declared tools, a reply that is only ``{"name": verb_noun,
  "arguments": {…}}`` (gateways drop ``tools`` from the log), unless the prompt asks for
  JSON. Lower confidence than with tools.

What stays clean: prose about a function (no frame; a call inside a sentence), code in a
fence with prose around it unless the fence is tagged as a tool or follows ``Action:``,
inline code and quotes, a tool *definition* (arguments shaped like a JSON Schema), data
objects that mention a tool name, and a frame the prompt itself contains.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Any

from leakline.detectors.generic import ANGLE, BRACKET
from leakline.detectors.text import LiteralScanner, decode_at, loads, outside_code, probe
from leakline.detectors.tool_markup import Call, balanced_end, calls_from_value, pythonic_calls

# (start, end, syntax, token, calls, confidence)
Block = tuple[int, int, str, str, list[Call], float]

_MAX_FRAME = 4_000
# a call frame object: the name, the arguments and a few bookkeeping keys
_MAX_FRAME_KEYS = 5
# how far back from a name its opening brace may sit
_BRACE_REACH = 120
_WORD = re.compile(r"\w")


@lru_cache(maxsize=256)
def _scanner(names: tuple[str, ...]) -> LiteralScanner:
    return LiteralScanner(names)


@lru_cache(maxsize=1024)
def _probe(name: str) -> str:
    return probe(name)


def declared_blocks(text: str, declared: dict[str, Any], prompt: str) -> list[Block]:
    """Frames around the declared names in ``text``."""
    # Most texts hold none of the names: a rare character of each, then the name, is all
    # they cost. A scanner is built (cached) only for the names present: tool sets vary
    # per request, and a cache keyed by every set would keep rebuilding scanners.
    present = [name for name in declared if _probe(name) in text and name in text]
    if not present:
        return []
    present.sort()
    hits = _scanner(tuple(present)).finditer(text)
    out: list[Block] = []
    pos = 0
    for hit in hits:
        start, end, name = hit
        if start < pos or not _bounded(text, start, end):
            continue
        block = _frame_at(text, start, end, name)
        if block is None or quoted_from(prompt, text, block[0], block[1]):
            continue
        pos = block[1]
        out.append(block)
    return out


def _bounded(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return _WORD.match(before) is None and _WORD.match(after) is None


def _frame_at(text: str, start: int, end: int, name: str) -> Block | None:
    before = text[start - 1] if start else ""
    after = text[end : end + 1]
    if before == '"' and after == '"':
        return _json_frame(text, start, name)
    line_start = text.rfind("\n", 0, start) + 1
    head = text[line_start:start]
    if _ACTION.fullmatch(head) is not None:
        return _react(text, line_start, end, name)
    if _FENCE_INFO.fullmatch(head) is not None and _line_rest_blank(text, end):
        return _named_fence(text, line_start, end, name)
    if after == "(":
        return _paren_call(text, start, end, head)
    marker = _MARKER_BEFORE.search(head)
    if marker is not None:
        return _marker_frame(text, line_start + marker.start(), end, name)
    sep = _SEP.match(text, end)
    if sep is not None and (not head.strip() or sep["sep"] != ":"):
        return _sep_frame(text, start, sep.end(), name, head)
    return None


# --------------------------------------------------------------------------- JSON frames


def _json_frame(text: str, start: int, name: str) -> Block | None:
    """The nearest enclosing small JSON object that holds ``name`` as a call's name."""
    lo = max(0, start - _BRACE_REACH)
    brace = text.rfind("{", lo, start)
    while brace >= 0:
        try:
            value, end = decode_at(text, brace)
        except ValueError:
            value, end = None, -1
        if end > start:
            call = _frame_call(value, name)
            if call is None:
                return None
            first, last = brace, end
            if brace and text[brace - 1] == "[":
                listed = _listed_calls(text, brace - 1, name)
                if listed is not None:
                    call_list, last = listed
                    first = brace - 1
                    if not _json_visible(text, first, last):
                        return None
                    return (first, last, "declared_json", name, call_list, 0.85)
            if not _json_visible(text, first, last):
                return None
            return (first, last, "declared_json", name, [call], 0.85)
        brace = text.rfind("{", lo, brace)
    return None


def _listed_calls(text: str, start: int, name: str) -> tuple[list[Call], int] | None:
    try:
        value, end = decode_at(text, start)
    except ValueError:
        return None
    if not isinstance(value, list):
        return None
    calls = []
    for item in value:
        call = _frame_call(item, None)
        if call is None:
            return None
        calls.append(call)
    return (calls, end) if any(c["name"] == name for c in calls) else None


# keys whose string value is the tool's input itself (LangChain's "action_input": "…")
_INPUT_KEY = re.compile(r"(?i)(?:input|args?|arguments|params?|parameters|query)$")
# what a call frame may carry besides the name and the arguments
_BOOKKEEPING = frozenset(
    {"id", "call_id", "type", "index", "thought", "thoughts", "reasoning", "log", "tool_call_id"}
)
_SCHEMA_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


def _frame_call(value: Any, name: str | None) -> Call | None:
    """``{<any key>: name, <other key>: arguments}`` as a call, else None.

    ``name`` None: any string value that reads as a function name. Arguments are an
    object, a string holding one, or a string under an input-like key (``{"input": s}``).
    """
    if not isinstance(value, dict) or not 2 <= len(value) <= _MAX_FRAME_KEYS:
        return None
    found_name: str | None = None
    args: dict[str, Any] | None = None
    for key, item in value.items():
        if (
            isinstance(item, str)
            and found_name is None
            and (item == name or (name is None and function_like(item)))
        ):
            found_name = item
        elif args is None and isinstance(item, dict):
            args = item
        elif args is None and isinstance(item, str) and _INPUT_KEY.search(key) is not None:
            args = _string_args(item)
        elif key.lower() not in _BOOKKEEPING:
            return None  # a data object that mentions a tool, not a call
    if found_name is None or args is None or schema_like(args):
        return None
    return {"name": found_name, "arguments": args}


def _string_args(raw: str) -> dict[str, Any]:
    body = raw.strip()
    if body[:1] == "{":
        try:
            decoded = loads(body)
        except ValueError:
            decoded = None
        if isinstance(decoded, dict):
            return decoded
    return {"input": raw}


def schema_like(args: dict[str, Any]) -> bool:
    """Arguments that describe parameters rather than pass them: a JSON Schema, or
    type names as every value (``{"city": "string"}``): documentation."""
    if "properties" in args and ("type" in args or "required" in args):
        return True
    return bool(args) and all(isinstance(v, str) and v in _SCHEMA_TYPES for v in args.values())


_NOT_NAMES = frozenset({"json", "text", "python", "assistant", "user", "system", "tool"})
_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
_CAMEL = re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+")


def function_like(name: str) -> bool:
    """A name that reads as a function: verb_noun snake case or camelCase (one word such as
    ``Paris`` or ``Bob`` does not), optionally behind a dotted namespace."""
    tail = name.rsplit(".", 1)[-1]
    if tail in _NOT_NAMES or len(tail) > 64:
        return False
    return _SNAKE.fullmatch(tail) is not None or _CAMEL.fullmatch(tail) is not None


_REACT_FENCE_HEAD = re.compile(r"[ \t]*Action:[ \t]*\n[ \t]*(?:```|~~~)")


def _json_visible(text: str, start: int, end: int) -> bool:
    """Outside code; or in a fence tagged as a tool, or one that follows an ``Action:`` line."""
    if outside_code(text, start, end):
        return True
    fence = text.rfind("\n", 0, start)
    opener = text.rfind("\n", 0, fence) + 1 if fence > 0 else 0
    line = text[opener:fence] if fence > 0 else ""
    info = _FENCE_TAG.fullmatch(line.strip())
    if info is not None:
        return True
    return _REACT_FENCE_HEAD.search(text, max(0, opener - 40), fence) is not None


# --------------------------------------------------------------------------- line frames

_ACTION = re.compile(r"[ \t>*-]*Action[ \t]*[:：][ \t]*")
_ACTION_INPUT = re.compile(r"[ \t>*-]*Action[ _]Input[ \t]*[:：][ \t]*", re.IGNORECASE)
_STOPS = ("\nObservation", "\nThought", "\nAction:", "\nFinal Answer")


def _react(text: str, line_start: int, end: int, name: str) -> Block | None:
    """``Action: name`` then ``Action Input: …`` on the next line (JSON or a string)."""
    if not _line_rest_blank(text, end):
        return None
    nl = text.find("\n", end)
    if nl < 0:
        return None
    found = _ACTION_INPUT.match(text, nl + 1)
    if found is None:
        return None
    at = found.end()
    stop = min([s for s in (text.find(w, at) for w in _STOPS) if s >= 0] or [len(text)])
    raw = text[at:stop]
    args: dict[str, Any] | None = None
    block_end = stop
    if text[at : at + 1] == "{":
        try:
            value, block_end = decode_at(text, at)
        except ValueError:
            value = None
        args = value if isinstance(value, dict) else None
    if args is None:
        args = _string_args(raw.strip())
        block_end = at + len(raw.rstrip())
    if not outside_code(text, line_start, block_end):
        return None
    return (line_start, block_end, "react", "Action:", [{"name": name, "arguments": args}], 0.85)


def _line_rest_blank(text: str, pos: int) -> bool:
    nl = text.find("\n", pos)
    rest = text[pos : nl if nl >= 0 else len(text)]
    return not rest or rest.isspace()


_FENCE_INFO = re.compile(r"[ \t]{0,3}(?:```|~~~)[ \t]*")


def _named_fence(text: str, line_start: int, end: int, name: str) -> Block | None:
    """A fence whose info string is the tool's name, holding its arguments."""
    body_start = text.find("\n", end) + 1
    if body_start <= 0:
        return None
    close = _fence_close(text, body_start)
    body = text[body_start:close].strip()
    args = _json_object(body)
    if args is None or schema_like(args):
        return None
    block_end = text.find("\n", close)
    block_end = len(text) if block_end < 0 else block_end
    return (line_start, block_end, "tool_fence", name, [{"name": name, "arguments": args}], 0.85)


def _fence_close(text: str, pos: int) -> int:
    for mark in ("\n```", "\n~~~"):
        at = text.find(mark, pos - 1)
        if at >= 0:
            return at
    return len(text)


def _json_object(body: str) -> dict[str, Any] | None:
    if body[:1] != "{":
        return None
    try:
        value = loads(body)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# the call alone: nothing but spaces, ";" or a full stop after it on its line
_CALL_TAIL = re.compile(r"[ \t;.]*(?:\n|$)")
# what may precede a call on its line: nothing, or the end of a sentence
_SENTENCE_END = re.compile(r"(?:^|.*[.!?。！？:：][ \t]*)$", re.DOTALL)
_EXAMPLE_CUE = re.compile(
    r"(?i)\b(?:e\.g\.|example|for instance|such as)|예를 들어|예시|例如|比如|示例"
)


def _paren_call(text: str, start: int, end: int, head: str) -> Block | None:
    """``name(k=v)`` or ``name({...})`` alone at the end of its line, after nothing or a
    finished sentence (not an example)."""
    close = balanced_end(text, end)
    if close < 0 or _CALL_TAIL.match(text, close) is None:
        return None
    if _SENTENCE_END.match(head) is None or _EXAMPLE_CUE.search(head) is not None:
        return None
    source = text[start:close]
    calls = pythonic_calls(source)
    if not calls:
        inner = text[end + 1 : close - 1].strip()
        args = _json_object(inner)
        if args is None:
            return None
        calls = [{"name": text[start:end], "arguments": args}]
    if len(calls) != 1 or not calls[0]["arguments"] or not outside_code(text, start, close):
        return None
    return (start, close, "declared_call", text[start:end], calls, 0.85)


# name::{…}, name => {…}, name: {…}
_SEP = re.compile(r"[ \t]*(?P<sep>::|=>|->|:|：)[ \t]*(?=[{\[])")


def _sep_frame(text: str, start: int, args_at: int, name: str, head: str) -> Block | None:
    if head.strip() and _SENTENCE_END.match(head) is None:
        return None
    try:
        value, end = decode_at(text, args_at)
    except ValueError:
        return None
    if not isinstance(value, dict) or schema_like(value):
        return None
    if _CALL_TAIL.match(text, end) is None or not outside_code(text, start, end):
        return None
    return (start, end, "declared_sep", name, [{"name": name, "arguments": value}], 0.85)


# --------------------------------------------------------------------------- call markers

_CALL_WORD = r"(?:tool_?calls?|function_?calls?|call|tool|function|invoke|action|tool_use)"
_MARKER_BEFORE = re.compile(
    r"(?:<<|\[\[|【|«|⟪|《|〈)[ \t]*"
    + _CALL_WORD
    + r"[ \t]*(?:>>|\]\]|】|»|⟫|》|〉)[ \t]*[:：]?[ \t]*$",
    re.IGNORECASE,
)
# one pattern per opener, each starting with its literal (CPython skips to it fast)
_MARKERS = tuple(
    re.compile(
        re.escape(opener)
        + r"[ \t]*"
        + _CALL_WORD
        + r"[ \t]*(?:>>|\]\]|】|»|⟫|》|〉)[ \t]*[:：]?[ \t]*"
        r"(?P<name>[A-Za-z_][\w.\-]{0,127})[ \t]*[(:]?[ \t]*(?=\{)",
        re.IGNORECASE,
    )
    for opener in ("<<", "[[")
)
_MARKER_BITS = (ANGLE, BRACKET)


def _marker_frame(text: str, start: int, name_end: int, name: str) -> Block | None:
    at = name_end
    while at < len(text) and text[at] in " \t:(":
        at += 1
    try:
        value, end = decode_at(text, at)
    except ValueError:
        return None
    if not isinstance(value, dict) or schema_like(value):
        return None
    if not outside_code(text, start, end):
        return None
    close = _MARKER_CLOSE.match(text, end)
    if close is not None:
        end = close.end()
    return (
        start,
        end,
        "marker_call",
        text[start:name_end],
        [{"name": name, "arguments": value}],
        0.85,
    )


_MARKER_CLOSE = re.compile(
    r"[ \t)]*(?:<</|\[\[/|【/|«/|⟪/|《/|〈/)[ \t]*"
    + _CALL_WORD
    + r"[ \t]*(?:>>|\]\]|】|»|⟫|》|〉)",
    re.IGNORECASE,
)


def marker_blocks(text: str, marks: int) -> list[Block]:
    """Call markers with a function-like name and JSON arguments, tools declared or not.
    ``marks``: ``generic.marks(text)`` (a two-character ``in`` is skipped when its first
    character is known absent)."""
    out: list[Block] = []
    for opener, bit, pattern in zip(("<<", "[["), _MARKER_BITS, _MARKERS, strict=True):
        if not marks & bit or opener not in text:
            continue
        for found in pattern.finditer(text):
            if not function_like(found["name"]):
                continue
            block = _marker_frame(text, found.start(), found.end("name"), found["name"])
            if block is not None:
                out.append(block)
    return out


# --------------------------------------------------------------------------- tool fences

_TOOL_TAGS = r"(?:tool_code|tool_calls?|function_calls?|tool_use|tool|tool-call|tool-code)"
_FENCE_TAG = re.compile(r"(?:```|~~~)[ \t]*" + _TOOL_TAGS + r"[ \t]*", re.IGNORECASE)
_FENCE_TAG_LINE = re.compile(
    r"^[ \t]{0,3}(?:```|~~~)[ \t]*" + _TOOL_TAGS + r"[ \t]*$", re.MULTILINE | re.IGNORECASE
)


def tool_fence_blocks(text: str) -> list[Block]:
    """Fences tagged as a tool holding calls: JSON call objects or Python calls (``tool_code``:
    ``print(default_api.get_weather(city="Paris"))``; the method name is the tool)."""
    out: list[Block] = []
    pos = 0
    while True:
        at = text.find("```", pos)
        if at < 0:
            break
        line_start = text.rfind("\n", 0, at) + 1
        found = _FENCE_TAG_LINE.match(text, line_start)
        nl = text.find("\n", at)
        if nl < 0:
            break
        pos = nl + 1
        if found is None:
            continue
        close = _fence_close(text, nl + 1)
        body = text[nl + 1 : close].strip()
        calls = _fence_calls(body)
        end = text.find("\n", close + 1)
        end = len(text) if end < 0 or close >= len(text) else end
        pos = max(pos, end)
        if calls:
            syntax = "tool_code" if body[:1] not in "{[" else "tool_fence"
            tag = text[at:nl].strip()
            out.append((line_start, end, syntax, tag, calls, 0.9))
    return out


def _fence_calls(body: str) -> list[Call]:
    if not body:
        return []
    if body[0] in "{[":
        try:
            value = loads(body)
        except ValueError:
            return []
        calls = calls_from_value(value, require_arguments=True)
        if calls:
            return calls
        one = _frame_call(value, None)
        return [one] if one is not None else []
    return code_calls(body)


def code_calls(source: str) -> list[Call]:
    """Calls in Python pseudo-code, parsed with ``ast`` (never evaluated): each statement a
    call with literal keyword arguments, optionally inside ``print(...)``; a method called
    on an API object is named by the method (``default_api.get_weather`` -> ``get_weather``)."""
    if len(source) > _MAX_FRAME:
        return []
    try:
        tree = ast.parse(source, mode="exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    calls: list[Call] = []
    for statement in tree.body:
        node = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(statement, ast.Assign):
            node = statement.value
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "print"
            and len(node.args) == 1
        ):
            node = node.args[0]
        if not isinstance(node, ast.Call):
            return []
        found = pythonic_calls(ast.unparse(node))
        if not found:
            return []
        for call in found:
            calls.append({"name": call["name"].rsplit(".", 1)[-1], "arguments": call["arguments"]})
    return calls


# --------------------------------------------------------------------------- bracketed prose

_BRACKET_CALL = re.compile(
    r"\[[ \t]*(?P<head>tool[_ ]?call|function[_ ]?call|calling|call(?:ing)? tool|invok(?:e|ing)|"
    r"us(?:e|ing) tool|tool(?=[ \t]*[:：])|调用|呼叫|호출)[ \t]*[:：]?[ \t]*"
    r"(?P<name>[A-Za-z_][\w.\-]{0,127})(?P<rest>[^\[\]\n]{0,400})\]",
    re.IGNORECASE,
)
# heads a stage direction or an inventory can open with ("[Invoke the spirits]",
# "[tool: hammer]"): the name must read as a function (or be declared) and carry arguments
_WEAK_HEADS = frozenset({"invoke", "use tool", "tool"})
_WITH = re.compile(r"^[ \t]*(?:with|for|using|on|:|：)?[ \t]*", re.IGNORECASE)
_QUOTED = re.compile(r"^[\"“'«「](?P<q>[^\"”'»」]{1,300})[\"”'»」][ \t.]*$")
# a few plain words before the quoted argument: "to look up \"P3\"", "to get the fare for \"…\""
_WORDS_QUOTED = re.compile(
    r"^(?:[A-Za-z]+[ \t]+){1,5}[\"“'«「](?P<q>[^\"”'»」]{1,300})[\"”'»」][ \t.]*$"
)
# unquoted keyword arguments: "route=Mokpo-Jeju", "floor=4, wing=B"
_PAIR = r"[A-Za-z_]\w{0,63}=(?:\"[^\"\n]{0,200}\"|[^\s,\"=]{1,200})"
_PAIRS = re.compile(
    r"^" + _PAIR + r"(?:[ \t]*,?[ \t]+" + _PAIR + r"|[ \t]*,[ \t]*" + _PAIR + r")*$"
)
_PAIR_ITEM = re.compile(
    r"(?P<key>[A-Za-z_]\w{0,63})=(?:\"(?P<quoted>[^\"\n]*)\"|(?P<raw>[^\s,\"=]+))"
)
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]{0,15})(?:\.[0-9]+)?|true|false|null")


def bracket_blocks(text: str, declared: dict[str, Any]) -> list[Block]:
    """``[tool_call: search for "…"]``, ``[Calling get_weather with {…}]``: a call word, a
    name (declared, function-like, or after an explicit ``tool_call:``) and its arguments."""
    out: list[Block] = []
    for found in _BRACKET_CALL.finditer(text):
        end = found.end()
        if text[end : end + 1] == "(":
            continue  # a Markdown link
        name = found["name"]
        weak = found["head"].lower() in _WEAK_HEADS
        explicit = not weak and (
            "_" in found["head"] or ":" in found.group()[: found.start("name") - found.start()]
        )
        if name not in declared and not function_like(name) and not explicit:
            continue
        args = _prose_args(found["rest"])
        if args is None or (weak and not args) or not outside_code(text, found.start(), end):
            continue
        out.append(
            (
                found.start(),
                end,
                "bracket_prose",
                found.group("head"),
                [{"name": name, "arguments": args}],
                0.8,
            )
        )
    return out


def _prose_args(rest: str) -> dict[str, Any] | None:
    body = _WITH.sub("", rest, count=1).strip()
    if not body:
        return {}
    obj = _json_object(body)
    if obj is not None:
        return obj
    quoted = _QUOTED.match(body)
    if quoted is not None:
        return {"input": quoted["q"]}
    calls = pythonic_calls("f(" + body + ")") if "=" in body else None
    if calls:
        return calls[0]["arguments"]
    if body[:1] in "\"“'«「":
        return {"input": body}
    worded = _WORDS_QUOTED.match(body)
    if worded is not None:
        return {"input": worded["q"]}
    if "=" in body and _PAIRS.match(body) is not None:
        return {m["key"]: _pair_value(m) for m in _PAIR_ITEM.finditer(body)}
    return None


def _pair_value(found: re.Match[str]) -> Any:
    quoted = found["quoted"]
    if quoted is not None:
        return quoted
    raw = found["raw"]
    return loads(raw) if _SCALAR.fullmatch(raw) is not None else raw


# --------------------------------------------------------------------------- whole reply

# the prompt asks for JSON, or for an object with name and arguments
_ASKS_JSON = re.compile(r"(?i)json|\bobject\b|\barguments\b|객체|对象|对象|オブジェクト")
_CALL_KEYS = frozenset({"name", "arguments", "parameters", "id", "type", "call_id", "function"})


_INK = re.compile(r"\S")


def whole_object(text: str, prompt: str) -> Block | None:
    """The whole reply (optionally one fence) is a call object, with no declared tools."""
    ink = _INK.search(text)
    if ink is None or text[ink.start()] not in "{[`~":
        return None
    start = ink.start()
    end = len(text)
    while end > start and text[end - 1].isspace():
        end -= 1
    body = text[start:end]
    if body[:3] in ("```", "~~~"):
        nl = body.find("\n")
        close = body.rfind("\n")
        if nl < 0 or close <= nl or body[close + 1 :].strip().strip("`~") != "":
            return None
        body = body[nl + 1 : close].strip()
    if body[:1] not in "{[" or _ASKS_JSON.search(prompt) is not None:
        return None
    try:
        value = loads(body)
    except ValueError:
        return None
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(i, dict) and set(i) <= _CALL_KEYS for i in items):
        return None
    calls = calls_from_value(value, require_arguments=True)
    if not calls or not all(function_like(c["name"]) for c in calls):
        return None
    if any(schema_like(c["arguments"]) for c in calls):
        return None
    for item in items:
        raw = item.get("arguments", item.get("parameters"))
        if isinstance(item.get("function"), dict):
            raw = item["function"].get("arguments")
        if isinstance(raw, str) and not raw.strip().startswith("{"):
            return None
    return (start, end, "whole_object", "{", calls, 0.6)


# --------------------------------------------------------------------------- between tokens


def token_segment_blocks(text: str, hits: list[Any], declared: dict[str, Any]) -> list[Block]:
    """Calls between special tokens: a segment that is a call object, or a function-like
    (or declared) name on its own segment or line followed by a JSON object."""
    out: list[Block] = []
    bounds = [(h.start, h.end) for h in hits]
    for i, (_, seg_start) in enumerate(bounds):
        seg_end = bounds[i + 1][0] if i + 1 < len(bounds) else len(text)
        segment = text[seg_start:seg_end]
        if "{" in segment:
            call, (lo, hi) = _segment_call(segment, declared)
            if call is not None:
                token = hits[i].literal
                out.append((seg_start + lo, seg_start + hi, "token_segment", token, call, 0.8))
            continue
        name = segment.strip()
        if i + 1 >= len(bounds) or not (name in declared or function_like(name)):
            continue
        # NAME<|sep|>{args}: the name fills one segment, its arguments the next
        nxt_end = bounds[i + 2][0] if i + 2 < len(bounds) else len(text)
        args = _json_object(text[bounds[i + 1][1] : nxt_end].strip())
        if args is not None and not schema_like(args):
            calls: list[Call] = [{"name": name, "arguments": args}]
            out.append((seg_start, nxt_end, "token_segment", hits[i].literal, calls, 0.8))
    return out


_NAME_LINE = re.compile(r"(?:^|\n)[ \t]*(?P<name>[A-Za-z_][\w.\-]{0,127})[ \t]*\n?[ \t]*(?=\{)")


def _segment_call(
    segment: str, declared: dict[str, Any]
) -> tuple[list[Call] | None, tuple[int, int]]:
    at = segment.find("{")
    while at >= 0:
        try:
            value, end = decode_at(segment, at)
        except ValueError:
            at = segment.find("{", at + 1)
            continue
        calls = calls_from_value(value, require_arguments=True)
        if calls and all(c["name"] in declared or function_like(c["name"]) for c in calls):
            return calls, (at, end)
        if isinstance(value, dict) and not schema_like(value):
            named = None
            for m in _NAME_LINE.finditer(segment, 0, at + 1):
                if m.end() == at:
                    named = m
            if named is not None and (named["name"] in declared or function_like(named["name"])):
                return [{"name": named["name"], "arguments": value}], (named.start("name"), end)
        return None, (0, 0)
    return None, (0, 0)


def quoted_from(prompt: str, text: str, start: int, end: int) -> bool:
    """The frame is in the prompt (the answer quotes what the user pasted)."""
    if not prompt:
        return False
    snippet = text[start : min(end, start + 48)]
    return len(snippet) >= 16 and snippet in prompt


__all__ = [
    "Block",
    "bracket_blocks",
    "quoted_from",
    "code_calls",
    "declared_blocks",
    "function_like",
    "marker_blocks",
    "schema_like",
    "token_segment_blocks",
    "tool_fence_blocks",
    "whole_object",
]
