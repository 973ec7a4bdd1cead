"""Tool-call markup that models write into text, one row per syntax, with its rescue function.

A row is data: the literal ``cues`` that must occur (a cheap prefilter), the
``pattern`` that matches one call block, and ``rescue`` which turns a match into
``[{"name": str, "arguments": dict}]`` plus the offset where the block ends.
Family rows in ``leakline.detectors.families`` point at these rows.

Rescue never raises: a block it cannot parse is still markup, just with no calls.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from leakline.detectors.text import decode_at, find_json_value, loads

Call = dict[str, Any]
# match -> (rescued calls, end offset of the block in match.string)
Rescue = Callable[[re.Match[str]], tuple[list[Call], int]]


# eq=False: rows compare and hash by identity (cheap in caches; rows are unique).
@dataclass(frozen=True, slots=True, eq=False)
class ToolMarkup:
    """One tool-call syntax as it appears in text.

    ``bare`` marks syntaxes that are ordinary JSON (Llama-3's bare call object):
    a match counts only when it rescues a call to a declared tool. A bare row whose
    pattern has a ``name`` group captures the first call's name with it, so a block
    naming an undeclared tool is dropped before any costlier check.

    ``opener``: a cue found with no parsable block after it is still markup (a special
    token such as ``[TOOL_CALLS]``). False for cues that prose can contain as words.
    """

    name: str
    cues: tuple[str, ...]
    pattern: re.Pattern[str]
    rescue: Rescue
    bare: bool = False
    opener: bool = True


# --------------------------------------------------------------------------- call shapes


def call_from_object(obj: Any, *, require_arguments: bool = False) -> Call | None:
    """A call from ``{"name"|"tool_name", "arguments"|"parameters"}`` or ``{"function": {...}}``.

    Arguments given as a JSON string (OpenAI wire style) are decoded. Returns None
    when the object is not call-shaped.
    """
    if not isinstance(obj, dict):
        return None
    inner = obj.get("function")
    if isinstance(inner, dict) and "name" in inner:
        obj = inner
    # Cohere Command writes {"tool_call_id", "tool_name", "parameters"}.
    name = obj.get("name", obj.get("tool_name"))
    if not isinstance(name, str) or not name.strip():
        return None
    for key in ("arguments", "parameters"):
        if key not in obj:
            continue
        args = obj[key]
        if isinstance(args, str):
            try:
                args = loads(args)
            except ValueError:
                return None
        if not isinstance(args, dict) or (key == "parameters" and _definition(obj, args)):
            return None
        return {"name": name, "arguments": args}
    if require_arguments:
        return None
    return {"name": name, "arguments": {}}


def _definition(obj: dict[str, Any], params: dict[str, Any]) -> bool:
    """A tool *definition* (``{"name", "description", "parameters": <JSON Schema>}``), as API
    docs and tool listings show one: not a call."""
    return "description" in obj and "properties" in params and params.get("type") == "object"


def calls_from_value(value: Any, *, require_arguments: bool = False) -> list[Call] | None:
    """Calls from one JSON value: a call object, or a non-empty list of only call objects."""
    items = value if isinstance(value, list) else [value]
    if not items:
        return None
    calls = []
    for item in items:
        call = call_from_object(item, require_arguments=require_arguments)
        if call is None:
            return None
        calls.append(call)
    return calls


def _json_run(body: str) -> list[Call]:
    """Calls from consecutive JSON values in ``body`` (separators such as ``;`` are skipped)."""
    calls: list[Call] = []
    pos = 0
    while len(calls) < 64:
        found = find_json_value(body[pos:]) if pos else find_json_value(body)
        if found is None:
            break
        _, end, value = found
        calls.extend(calls_from_value(value) or [])
        pos += end
    return calls


def _coerce(raw: str) -> Any:
    """A parameter value from XML-ish markup: JSON scalars/containers when they parse, else text."""
    value = raw.strip("\n")
    try:
        decoded = loads(value)
    except ValueError:
        return value
    return value if isinstance(decoded, str) else decoded


def _one(name: str, args: Any) -> list[Call]:
    name = name.strip()
    if not name or not isinstance(args, dict):
        return []
    return [{"name": name, "arguments": args}]


def _object_at(text: str, pos: int) -> Any:
    """The JSON object/array starting at the first opening bracket at or after ``pos``."""
    found = find_json_value(text[pos:])
    return None if found is None else found[2]


# --------------------------------------------------------------------------- rescues


def _rescue_json_body(m: re.Match[str]) -> tuple[list[Call], int]:
    return _json_run(m["body"]), m.end()


_QWEN_PARAM = re.compile(
    r"<parameter=(?P<key>[^>\n]{1,128})>(?P<value>.*?)(?:</parameter>|(?=<parameter=)|\Z)",
    re.DOTALL,
)


def _rescue_qwen3_xml(m: re.Match[str]) -> tuple[list[Call], int]:
    args = {p["key"].strip(): _coerce(p["value"]) for p in _QWEN_PARAM.finditer(m["body"])}
    return _one(m["name"], args), m.end()


_GLM_PAIR = re.compile(
    r"<arg_key>(?P<key>.*?)</arg_key>\s*<arg_value>(?P<value>.*?)(?:</arg_value>|\Z)", re.DOTALL
)


def _rescue_glm45(m: re.Match[str]) -> tuple[list[Call], int]:
    body = m["body"].strip()
    if body and not body.startswith("<arg_key>"):
        return [], m.end()
    args = {p["key"].strip(): _coerce(p["value"]) for p in _GLM_PAIR.finditer(body)}
    return _one(m["name"], args), m.end()


_MISTRAL_NAMED = re.compile(
    r"(?P<name>[A-Za-z_][\w.\-]{0,127})\s*(?:\[CALL_ID\]\s*[\w\-]*\s*)?(?:\[ARGS\])?\s*"
)


def _rescue_mistral(m: re.Match[str]) -> tuple[list[Call], int]:
    text = m.string
    pos = m.start("body")
    while pos < m.end() and text[pos].isspace():
        pos += 1
    if text[pos : pos + 1] in ("[", "{"):
        try:
            value, end = decode_at(text, pos)
        except ValueError:
            return [], m.end()
        return calls_from_value(value) or [], end
    named = _MISTRAL_NAMED.match(text, pos, m.end())
    if named is None:
        return [], m.end()
    try:
        args, end = decode_at(text, named.end())
    except ValueError:
        return [], m.end()
    return _one(named["name"], args), end


def _rescue_bare_json(m: re.Match[str]) -> tuple[list[Call], int]:
    try:
        value, end = decode_at(m.string, m.start())
    except ValueError:
        return [], m.end()
    call = call_from_object(value, require_arguments=True)
    return ([call] if call else []), end


def _rescue_harmony(m: re.Match[str]) -> tuple[list[Call], int]:
    body = m["body"]
    at = body.find("<|message|>")
    return _one(m["name"], _object_at(body, max(at, 0))), m.end()


def _rescue_kimi(m: re.Match[str]) -> tuple[list[Call], int]:
    # the reference is "functions.NAME:INDEX"
    ref = m["ref"].strip()
    if ref.startswith("functions."):
        ref = ref[len("functions.") :]
    name = ref.rsplit(":", 1)[0] if ":" in ref else ref
    return _one(name, _object_at(m["body"], 0)), m.end()


def _rescue_deepseek(m: re.Match[str]) -> tuple[list[Call], int]:
    head = m["head"].strip()
    body = m["body"]
    if head in ("", "function"):
        # V3 / R1: "function<sep>NAME\n```json\n{...}\n```"
        name, _, rest = body.partition("\n")
        return _one(name, _object_at(rest, 0)), m.end()
    # V3.1: "NAME<sep>{...}"
    return _one(head, _object_at(body, 0)), m.end()


_INVOKE = re.compile(
    r'<invoke name="(?P<name>[^"]{1,128})">(?P<body>.*?)(?:</invoke>|\Z)', re.DOTALL
)
_INVOKE_PARAM = re.compile(
    r'<parameter name="(?P<key>[^"]{1,128})"[^>]*>(?P<value>.*?)(?:</parameter>|\Z)', re.DOTALL
)


def _rescue_invokes(m: re.Match[str]) -> tuple[list[Call], int]:
    calls: list[Call] = []
    for inv in _INVOKE.finditer(m["body"]):
        args = {p["key"]: _coerce(p["value"]) for p in _INVOKE_PARAM.finditer(inv["body"])}
        calls.extend(_one(inv["name"], args))
    return calls, m.end()


_GEMMA_QUOTE = '<|"|>'
_ESCAPE_QUOTE = "<escape>"
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_][\w\-]*)\s*:")


def _brace_args(body: str, quote: str) -> Any:
    """``{key:<q>text<q>,n:3}`` as JSON: strings sit between quote tokens, keys are bare."""
    parts = body.strip().split(quote)
    if len(parts) % 2 == 0:
        return None
    rebuilt = "".join(
        json.dumps(part) if i % 2 else _BARE_KEY.sub(r'\1"\2":', part)
        for i, part in enumerate(parts)
    )
    try:
        return loads(rebuilt)
    except ValueError:
        return None


def _rescue_gemma4(m: re.Match[str]) -> tuple[list[Call], int]:
    # Gemma 4 writes call:NAME{key:<|"|>text<|"|>,n:3}
    return _one(m["name"], _brace_args(m["body"], _GEMMA_QUOTE)), m.end()


def _rescue_functiongemma(m: re.Match[str]) -> tuple[list[Call], int]:
    # FunctionGemma writes call:NAME{key:<escape>text<escape>,n:3}
    return _one(m["name"], _brace_args(m["body"], _ESCAPE_QUOTE)), m.end()


_DSML_INVOKE = re.compile(
    r'<｜DSML｜invoke name="(?P<name>[^"]{1,128})">(?P<body>.*?)(?:</｜DSML｜invoke>|\Z)', re.DOTALL
)
_DSML_PARAM = re.compile(
    r'<｜DSML｜parameter name="(?P<key>[^"]{1,128})"(?: string="(?P<string>true|false)")?>'
    r"(?P<value>.*?)(?:</｜DSML｜parameter>|\Z)",
    re.DOTALL,
)


def _rescue_dsml(m: re.Match[str]) -> tuple[list[Call], int]:
    # DeepSeek V3.2/V4: string="true" keeps the text; otherwise the value is JSON
    calls: list[Call] = []
    for inv in _DSML_INVOKE.finditer(m["body"]):
        args = {
            p["key"]: p["value"] if p["string"] == "true" else _coerce(p["value"])
            for p in _DSML_PARAM.finditer(inv["body"])
        }
        calls.extend(_one(inv["name"], args))
    return calls, m.end()


_STEP_INVOKE = re.compile(
    r'<steptml:invoke name="(?P<name>[^"]{1,128})">(?P<body>.*?)(?:</steptml:invoke>|\Z)',
    re.DOTALL,
)
_STEP_PARAM = re.compile(
    r'<steptml:parameter name="(?P<key>[^"]{1,128})">(?P<value>.*?)(?:</steptml:parameter>|\Z)',
    re.DOTALL,
)


def _rescue_step3(m: re.Match[str]) -> tuple[list[Call], int]:
    calls: list[Call] = []
    for inv in _STEP_INVOKE.finditer(m["body"]):
        args = {p["key"]: _coerce(p["value"]) for p in _STEP_PARAM.finditer(inv["body"])}
        calls.extend(_one(inv["name"], args))
    return calls, m.end()


def _rescue_json_after(m: re.Match[str]) -> tuple[list[Call], int]:
    """Calls from the one JSON value right after the match (``functools[...]``)."""
    try:
        value, end = decode_at(m.string, m.end())
    except ValueError:
        return [], m.end()
    return calls_from_value(value) or [], end


def _rescue_apertus(m: re.Match[str]) -> tuple[list[Call], int]:
    # Apertus: [{"NAME": {args}}, ...], one key per object
    found = find_json_value(m["body"])
    items = found[2] if found is not None else None
    calls: list[Call] = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and len(item) == 1:
            name, args = next(iter(item.items()))
            calls.extend(_one(name, args))
    return calls, m.end()


_MINICPM_PARAM = re.compile(
    r"<param\s+name=[\"'](?P<key>[^\"']{1,128})[\"']>(?P<value>.*?)(?:</param>|\Z)", re.DOTALL
)


def _rescue_minicpm(m: re.Match[str]) -> tuple[list[Call], int]:
    # MiniCPM: <function name="NAME"><param name="k">v</param></function>; CDATA kept as text
    args: dict[str, Any] = {}
    for p in _MINICPM_PARAM.finditer(m["body"]):
        value = p["value"].strip()
        if value.startswith("<![CDATA[") and value.endswith("]]>"):
            args[p["key"]] = value[len("<![CDATA[") : -len("]]>")]
        else:
            args[p["key"]] = _coerce(value)
    return _one(m["name"], args), m.end()


_LONGCAT_PAIR = re.compile(
    r"<longcat_arg_key>(?P<key>.*?)</longcat_arg_key>\s*"
    r"<longcat_arg_value>(?P<value>.*?)(?:</longcat_arg_value>|\Z)",
    re.DOTALL,
)


def _rescue_longcat(m: re.Match[str]) -> tuple[list[Call], int]:
    # LongCat-Flash: a JSON call object, or NAME + <longcat_arg_key>/<longcat_arg_value> pairs
    body = m["body"].strip()
    if body.startswith(("{", "[")):
        return _json_run(body), m.end()
    name, _, rest = body.partition("<longcat_arg_key>")
    args = {
        p["key"].strip(): _coerce(p["value"])
        for p in _LONGCAT_PAIR.finditer("<longcat_arg_key>" + rest if rest else "")
    }
    return _one(name, args), m.end()


# Python call syntax (Llama 3.2/4 "pythonic", Olmo 3): parsed with ``ast`` (never evaluated).
_MAX_PYTHONIC = 20_000
_PY_LITERALS = {"true": True, "false": False, "null": None, "True": True, "False": False}


class _NotLiteral(Exception):
    pass


def _literal(node: ast.AST) -> Any:
    """A JSON-like value from a literal expression; JSON's true/false/null are accepted too."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, bytes | complex):
        return node.value
    if isinstance(node, ast.Name) and node.id in _PY_LITERALS:
        return _PY_LITERALS[node.id]
    if isinstance(node, ast.List | ast.Tuple):
        return [_literal(e) for e in node.elts]
    if isinstance(node, ast.Dict):
        out = {}
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                raise _NotLiteral("**spread")
            k = _literal(key)
            if not isinstance(k, str):
                raise _NotLiteral("non-string key")
            out[k] = _literal(value)
        return out
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub | ast.UAdd)
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, int | float)
        and not isinstance(node.operand.value, bool)
    ):
        number = node.operand.value
        return -number if isinstance(node.op, ast.USub) else number
    raise _NotLiteral(type(node).__name__)


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _pythonic_call(node: ast.AST) -> Call | None:
    if not isinstance(node, ast.Call) or node.args:
        return None
    name = _dotted(node.func)
    if name is None:
        return None
    args: dict[str, Any] = {}
    try:
        for kw in node.keywords:
            if kw.arg is None:
                return None
            args[kw.arg] = _literal(kw.value)
    except (_NotLiteral, RecursionError):
        return None
    return {"name": name, "arguments": args}


def pythonic_calls(source: str) -> list[Call] | None:
    """Calls from ``[f(a=1), g()]``, a single ``f(a=1)``, or one call per line; else None."""
    source = source.strip()
    if not source or len(source) > _MAX_PYTHONIC:
        return None
    calls = _parsed_calls(source)
    if calls is None and "\n" in source:  # Olmo 3 writes one call per line
        lines = [line.strip() for line in source.splitlines() if line.strip()]
        calls = _parsed_calls("[" + ", ".join(lines) + "]")
    return calls


def _parsed_calls(source: str) -> list[Call] | None:
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    body = tree.body
    nodes = body.elts if isinstance(body, ast.List) else [body]
    calls = [_pythonic_call(node) for node in nodes]
    if not nodes or any(call is None for call in calls):
        return None
    return [call for call in calls if call is not None]


_CLOSERS = {"[": "]", "(": ")", "{": "}"}


def balanced_end(text: str, start: int, limit: int = _MAX_PYTHONIC) -> int:
    """The offset just past the bracket group opening at ``text[start]``; -1 if it never closes.

    Quotes (``'``/``"``, with backslash escapes) are skipped, so brackets inside
    string literals do not count.
    """
    stack: list[str] = []
    quote = ""
    i = start
    stop = min(len(text), start + limit)
    while i < stop:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in _CLOSERS:
            stack.append(_CLOSERS[ch])
        elif ch in ")]}":
            if not stack or stack.pop() != ch:
                return -1
            if not stack:
                return i + 1
        i += 1
    return -1


def _rescue_pythonic_list(m: re.Match[str]) -> tuple[list[Call], int]:
    end = balanced_end(m.string, m.start())
    if end < 0:
        return [], m.end()
    return pythonic_calls(m.string[m.start() : end]) or [], end


def _rescue_pythonic_body(m: re.Match[str]) -> tuple[list[Call], int]:
    body = m["body"]
    calls = pythonic_calls(body)
    if calls is None:
        calls = _json_run(body)
    return calls, m.end()


# --------------------------------------------------------------------------- the table

_F = re.DOTALL

QWEN3_XML = ToolMarkup(
    name="qwen3_xml",
    cues=("<function=",),
    pattern=re.compile(
        r"(?:<tool_call>\s*)?<function=(?P<name>[^>\n]{1,128})>(?P<body>.*?)"
        r"(?:</function>(?:\s*</tool_call>)?|\Z)",
        _F,
    ),
    rescue=_rescue_qwen3_xml,
)
GLM45 = ToolMarkup(
    name="glm45",
    cues=("<tool_call>",),
    pattern=re.compile(
        r"<tool_call>\s*(?P<name>[A-Za-z_](?:[\w.\-]{0,126}\w)?)(?=\s*(?:<arg_key>|</tool_call>|\n|\Z))"
        r"\s*(?P<body>.*?)(?:</tool_call>|\Z)",
        _F,
    ),
    rescue=_rescue_glm45,
)
# After the more specific <tool_call> syntaxes: it matches any <tool_call> block.
HERMES = ToolMarkup(
    name="hermes",
    cues=("<tool_call>",),
    pattern=re.compile(r"<tool_call>(?P<body>.*?)(?:</tool_call>|\Z)", _F),
    rescue=_rescue_json_body,
)
MISTRAL = ToolMarkup(
    name="mistral",
    cues=("[TOOL_CALLS]",),
    pattern=re.compile(r"\[TOOL_CALLS\](?P<body>.*?)(?=\[TOOL_CALLS\]|</s>|\Z)", _F),
    rescue=_rescue_mistral,
)
LLAMA3_PYTHON_TAG = ToolMarkup(
    name="llama3_python_tag",
    cues=("<|python_tag|>",),
    pattern=re.compile(r"<\|python_tag\|>(?P<body>.*?)(?:<\|eom_id\|>|<\|eot_id\|>|\Z)", _F),
    rescue=_rescue_json_body,
)
LLAMA3_JSON = ToolMarkup(
    name="llama3_json",
    cues=('"name"',),
    pattern=re.compile(r'\{\s*"name"\s*:\s*"'),
    rescue=_rescue_bare_json,
    bare=True,
)
# The recipient "to=functions.NAME" must be followed by what a harmony header carries
# next (a special token, the "json"/"code" constraint, or the arguments): prose that
# names the convention ("addressed with to=functions.x in the header") is not a call.
HARMONY = ToolMarkup(
    name="harmony",
    cues=("to=functions.",),
    pattern=re.compile(
        r"to=functions\.(?P<name>[\w\-]+(?:\.[\w\-]+)*)"
        r"(?=\s*(?:<\||json|code|\{))(?P<body>.*?)"
        r"(?:<\|call\|>|(?=<\|start\|>|<\|end\|>)|\Z)",
        _F,
    ),
    rescue=_rescue_harmony,
    opener=False,
)
KIMI_K2 = ToolMarkup(
    name="kimi_k2",
    cues=("<|tool_calls_section_begin|>", "<|tool_call_begin|>"),
    pattern=re.compile(
        r"(?:<\|tool_calls_section_begin\|>\s*)?<\|tool_call_begin\|>\s*(?P<ref>[^<]{0,200}?)\s*"
        r"<\|tool_call_argument_begin\|>(?P<body>.*?)"
        r"(?:<\|tool_call_end\|>(?:\s*<\|tool_calls_section_end\|>)?|\Z)",
        _F,
    ),
    rescue=_rescue_kimi,
)
# DeepSeek's markers use U+FF5C (fullwidth bar) and U+2581, not ASCII.
DEEPSEEK = ToolMarkup(
    name="deepseek",
    cues=("<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>"),
    pattern=re.compile(
        r"(?:<｜tool▁calls▁begin｜>\s*)?<｜tool▁call▁begin｜>(?P<head>[^<]{0,200}?)<｜tool▁sep｜>"
        r"(?P<body>.*?)(?:<｜tool▁call▁end｜>(?:\s*<｜tool▁calls▁end｜>)?|\Z)",
        _F,
    ),
    rescue=_rescue_deepseek,
)
MINIMAX_M2 = ToolMarkup(
    name="minimax_m2",
    cues=("<minimax:tool_call>",),
    pattern=re.compile(r"<minimax:tool_call>(?P<body>.*?)(?:</minimax:tool_call>|\Z)", _F),
    rescue=_rescue_invokes,
)
CLAUDE_XML = ToolMarkup(
    name="claude_xml",
    cues=("<function_calls>",),
    pattern=re.compile(r"<function_calls>(?P<body>.*?)(?:</function_calls>|\Z)", _F),
    rescue=_rescue_invokes,
)
GEMMA4 = ToolMarkup(
    name="gemma4",
    cues=("<|tool_call>",),
    pattern=re.compile(
        r"<\|tool_call>\s*call:(?P<name>[\w.\-]{1,128})\s*(?P<body>.*?)(?:<tool_call\|>|\Z)", _F
    ),
    rescue=_rescue_gemma4,
)
# Granite 3.x: <|tool_call|>[{"name": ..., "arguments": {...}}]
GRANITE = ToolMarkup(
    name="granite",
    cues=("<|tool_call|>",),
    pattern=re.compile(r"<\|tool_call\|>(?P<body>.*?)(?=<\|tool_call\|>|<\|end_of_text\|>|\Z)", _F),
    rescue=_rescue_json_body,
)

# Cohere Command A / R7B: <|START_ACTION|>[{"tool_call_id": "0", "tool_name": …,
# "parameters": {…}}]<|END_ACTION|> (seen in transformers' Cohere response schema tests).
COHERE_ACTION = ToolMarkup(
    name="cohere_action",
    cues=("<|START_ACTION|>",),
    pattern=re.compile(r"<\|START_ACTION\|>(?P<body>.*?)(?:<\|END_ACTION\|>|\Z)", _F),
    rescue=_rescue_json_body,
)
# Llama-Nemotron (vLLM's llama_nemotron_json): <TOOLCALL>[{"name": …, "arguments": …}]</TOOLCALL>
NEMOTRON_TOOLCALL = ToolMarkup(
    name="nemotron_toolcall",
    cues=("<TOOLCALL>",),
    pattern=re.compile(r"<TOOLCALL>(?P<body>.*?)(?:</TOOLCALL>|\Z)", _F),
    rescue=_rescue_json_body,
)
# Olmo 3: one pythonic call per line inside <function_calls>…</function_calls>. Claude's
# XML uses the same wrapper with <invoke> inside, so this row only takes a body that
# starts with a call ("name(").
OLMO3_PYTHONIC = ToolMarkup(
    name="olmo3_pythonic",
    cues=("<function_calls>",),
    pattern=re.compile(
        r"<function_calls>\s*(?P<body>[A-Za-z_][\w.]*\(.*?)(?:</function_calls>|\Z)", _F
    ),
    rescue=_rescue_pythonic_body,
)
# Llama 4 wraps pythonic calls in <|python_start|>…<|python_end|> (vLLM llama4_pythonic).
LLAMA4_PYTHON_START = ToolMarkup(
    name="llama4_python_start",
    cues=("<|python_start|>",),
    pattern=re.compile(r"<\|python_start\|>(?P<body>.*?)(?:<\|python_end\|>|\Z)", _F),
    rescue=_rescue_pythonic_body,
)
# Llama 3.2 / Llama 4 "pythonic": [get_weather(city="Seoul"), get_time()]. Ordinary text
# can look like this, so it is bare: it counts only when every name is a declared tool.
PYTHONIC = ToolMarkup(
    name="pythonic",
    cues=("(",),
    pattern=re.compile(r"\[\s*(?P<name>[A-Za-z_][\w.]*)\s*\("),
    rescue=_rescue_pythonic_list,
    bare=True,
)

# DeepSeek V3.2 (<｜DSML｜function_calls>) and V4 (<｜DSML｜tool_calls>): <｜DSML｜invoke
# name="…"> with <｜DSML｜parameter name="…" string="true|false"> (vLLM/SGLang deepseekv32/v4).
DEEPSEEK_DSML = ToolMarkup(
    name="deepseek_dsml",
    cues=("<｜DSML｜function_calls>", "<｜DSML｜tool_calls>"),
    pattern=re.compile(
        r"<｜DSML｜(?:function_calls|tool_calls)>(?P<body>.*?)"
        r"(?:</｜DSML｜(?:function_calls|tool_calls)>|\Z)",
        _F,
    ),
    rescue=_rescue_dsml,
)
# StepFun Step-3: <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke
# name="…"><steptml:parameter name="…">…</steptml:parameter></steptml:invoke><｜tool_call_end｜>
# (ASCII underscores, unlike DeepSeek's U+2581).
STEP3 = ToolMarkup(
    name="step3",
    cues=("<｜tool_calls_begin｜>", "<｜tool_call_begin｜>"),
    pattern=re.compile(
        r"(?:<｜tool_calls_begin｜>|<｜tool_call_begin｜>)(?P<body>.*?)(?:<｜tool_calls_end｜>|\Z)",
        _F,
    ),
    rescue=_rescue_step3,
)
# Hunyuan-A13B (and AI21 Jamba): <tool_calls>[{"name": …, "arguments": …}]</tool_calls>
TOOL_CALLS_JSON = ToolMarkup(
    name="tool_calls_json",
    cues=("<tool_calls>",),
    pattern=re.compile(r"<tool_calls>(?P<body>.*?)(?:</tool_calls>|\Z)", _F),
    rescue=_rescue_json_body,
)
# InternLM2 / Intern-S1: <|action_start|><|plugin|>{"name": …, "parameters": …}<|action_end|>
INTERNLM_ACTION = ToolMarkup(
    name="internlm_action",
    cues=("<|action_start|>",),
    pattern=re.compile(
        r"<\|action_start\|>\s*<\|plugin\|>(?P<body>.*?)(?:<\|action_end\|>|\Z)", _F
    ),
    rescue=_rescue_json_body,
)
# Phi-4-mini: functools[{"name": …, "arguments": …}] (vLLM phi4_mini_json). A word prose
# about Python could contain, so only a parsable list counts.
PHI4_FUNCTOOLS = ToolMarkup(
    name="phi4_functools",
    cues=("functools[",),
    pattern=re.compile(r"functools(?=\[)"),
    rescue=_rescue_json_after,
    opener=False,
)
# Granite-20B-FunctionCalling: <function_call> {"name": …, "arguments": …}, one per call.
GRANITE_FC = ToolMarkup(
    name="granite_fc",
    cues=("<function_call>",),
    pattern=re.compile(r"<function_call>(?P<body>.*?)(?=<function_call>|<\|endoftext\|>|\Z)", _F),
    rescue=_rescue_json_body,
)
# Liquid LFM2: <|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|> (pythonic; JSON
# lists are accepted too).
LFM2 = ToolMarkup(
    name="lfm2",
    cues=("<|tool_call_start|>",),
    pattern=re.compile(r"<\|tool_call_start\|>(?P<body>.*?)(?:<\|tool_call_end\|>|\Z)", _F),
    rescue=_rescue_pythonic_body,
)
# Meituan LongCat-Flash: <longcat_tool_call>{json}</longcat_tool_call>; later releases write
# NAME + <longcat_arg_key>/<longcat_arg_value> pairs inside the same wrapper.
LONGCAT = ToolMarkup(
    name="longcat",
    cues=("<longcat_tool_call>",),
    pattern=re.compile(r"<longcat_tool_call>(?P<body>.*?)(?:</longcat_tool_call>|\Z)", _F),
    rescue=_rescue_longcat,
)
# FunctionGemma: <start_function_call>call:NAME{key:<escape>text<escape>}<end_function_call>
FUNCTIONGEMMA = ToolMarkup(
    name="functiongemma",
    cues=("<start_function_call>",),
    pattern=re.compile(
        r"<start_function_call>\s*call:(?P<name>[\w.\-]{1,128})\s*(?P<body>.*?)"
        r"(?:<end_function_call>|\Z)",
        _F,
    ),
    rescue=_rescue_functiongemma,
)
# Swiss AI Apertus: <|tools_prefix|>[{"NAME": {args}}]<|tools_suffix|>
APERTUS = ToolMarkup(
    name="apertus",
    cues=("<|tools_prefix|>",),
    pattern=re.compile(r"<\|tools_prefix\|>(?P<body>.*?)(?:<\|tools_suffix\|>|\Z)", _F),
    rescue=_rescue_apertus,
)
# MiniCPM 4/5 (vLLM/SGLang minicpm5): <function name="NAME"><param name="k">v</param></function>,
# no wrapper. Qwen3-Coder's <function=NAME> is a different row.
MINICPM_XML = ToolMarkup(
    name="minicpm_xml",
    cues=("<function name=",),
    pattern=re.compile(
        r"<function name=[\"'](?P<name>[^\"'\n]{1,128})[\"'][^>\n]{0,200}>(?P<body>.*?)"
        r"(?:</function>|\Z)",
        _F,
    ),
    rescue=_rescue_minicpm,
)
# GigaChat 3: <|function_call|>{"name": …, "arguments": …} (the inline marker; the
# "function call<|role_sep|>" header form is caught by its <|role_sep|> token).
GIGACHAT = ToolMarkup(
    name="gigachat",
    cues=("<|function_call|>",),
    pattern=re.compile(
        r"<\|function_call\|>(?P<body>.*?)(?=</s>|<\|message_sep\|>|<\|function_call\|>|\Z)", _F
    ),
    rescue=_rescue_json_body,
)

# Scan order: earlier rows win where matches overlap, so specific before generic.
TOOL_MARKUPS: tuple[ToolMarkup, ...] = (
    QWEN3_XML,
    GLM45,
    HERMES,
    MISTRAL,
    LLAMA3_PYTHON_TAG,
    LLAMA4_PYTHON_START,
    HARMONY,
    KIMI_K2,
    DEEPSEEK,
    MINIMAX_M2,
    OLMO3_PYTHONIC,
    CLAUDE_XML,
    GEMMA4,
    GRANITE,
    COHERE_ACTION,
    NEMOTRON_TOOLCALL,
    DEEPSEEK_DSML,
    STEP3,
    TOOL_CALLS_JSON,
    INTERNLM_ACTION,
    PHI4_FUNCTOOLS,
    GRANITE_FC,
    LFM2,
    LONGCAT,
    FUNCTIONGEMMA,
    APERTUS,
    MINICPM_XML,
    GIGACHAT,
    PYTHONIC,
    LLAMA3_JSON,
)
