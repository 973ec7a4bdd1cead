"""What ``leakline engine-sim`` "generates": a deterministic function of the request
and the profile row. No model runs; the text echoes a topic from the last user
message so a replay of the same request gets the same answer.

``read_request`` turns any of the three API bodies into one ``RequestView``;
``generate`` applies the profile's faults in one fixed order and returns a
``Generation`` that ``leakline.pipeline.gate.engine.wire`` renders for the API asked for.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from leakline.pipeline.gate.engine.profiles import Profile, ReasoningPlacement

# One token = a run of non-space characters with its leading space, or one CJK
# character; joining the pieces gives the text back exactly.
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff"
_TOKEN = re.compile(rf"\s*(?:[{_CJK}]|[^\s{_CJK}]+)|\s+$")
RUNAWAY_TOKENS = 512  # how far a never-ending reasoning runs when max_tokens is absent
THINK_START, THINK_END = "<think>", "</think>"


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def digest(*parts: Any) -> str:
    body = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(body.encode()).hexdigest()


# ------------------------------------------------------------------ request side


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    schema: dict[str, Any]


@dataclass(frozen=True)
class RequestView:
    """The parts of a request that decide the simulated answer, for any API."""

    api: str
    model: str
    user_text: str
    after_tool_result: bool
    tools: tuple[ToolSpec, ...]
    tool_choice: str | None  # "none", "required", a tool name, or None (auto)
    structured: str | None  # "json_schema" | "json_object" | None
    schema: dict[str, Any] | None
    stop: tuple[str, ...]
    max_tokens: int | None
    stream: bool
    stream_usage: bool  # chat: stream_options.include_usage
    key: str  # digest of the whole body: ids derive from it
    answer_key: str  # digest without model/stream/stop: the same question, the same answer


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = [_d(p) for p in _l(content)]
    return " ".join(p["text"] for p in parts if isinstance(p.get("text"), str))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _stop(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,) if value else ()
    return tuple(s for s in _l(value) if isinstance(s, str) and s)


def _choice(value: Any) -> str | None:
    if value in ("none", "required", "any"):
        return "none" if value == "none" else "required"
    obj = _d(value)
    if obj.get("type") in ("none", "any"):
        return "none" if obj["type"] == "none" else "required"
    name = obj.get("name") or _d(obj.get("function")).get("name")
    return name if isinstance(name, str) and name else None


def _format(fmt: dict[str, Any], schema: Any) -> tuple[str | None, dict[str, Any] | None]:
    kind = fmt.get("type")
    if kind == "json_schema":
        return kind, schema if isinstance(schema, dict) else {"type": "object"}
    if kind == "json_object":
        return kind, None
    return None, None


_VARIANT_FIELDS = frozenset({"model", "stream", "stream_options", "stop", "stop_sequences"})


def read_request(api: str, body: dict[str, Any]) -> RequestView:
    """Read a chat.completions, responses or messages request body."""
    key = digest(api, body)
    tools: list[ToolSpec] = []
    if api == "chat.completions":
        messages = [_d(m) for m in _l(body.get("messages"))]
        users = [m for m in messages if m.get("role") == "user"]
        user_text = _text(users[-1].get("content")) if users else ""
        after_tool = bool(messages) and messages[-1].get("role") in ("tool", "function")
        for tool in _l(body.get("tools")):
            fn = _d(_d(tool).get("function"))
            tools.append(
                ToolSpec(
                    str(fn.get("name") or ""),
                    str(fn.get("description") or ""),
                    _d(fn.get("parameters")),
                )
            )
        fmt = _d(body.get("response_format"))
        structured, schema = _format(fmt, _d(fmt.get("json_schema")).get("schema"))
        stop = _stop(body.get("stop"))
        max_tokens = _int(body.get("max_completion_tokens")) or _int(body.get("max_tokens"))
    elif api == "responses":
        raw = body.get("input")
        items = (
            [{"role": "user", "content": raw}] if isinstance(raw, str) else [_d(i) for i in _l(raw)]
        )
        users = [i for i in items if i.get("role") == "user"]
        user_text = _text(users[-1].get("content")) if users else ""
        after_tool = bool(items) and items[-1].get("type") == "function_call_output"
        for tool in _l(body.get("tools")):
            tool = _d(tool)
            if tool.get("type", "function") == "function":
                tools.append(
                    ToolSpec(
                        str(tool.get("name") or ""),
                        str(tool.get("description") or ""),
                        _d(tool.get("parameters")),
                    )
                )
        fmt = _d(_d(body.get("text")).get("format"))
        structured, schema = _format(fmt, fmt.get("schema"))
        stop = _stop(body.get("stop"))  # not in the OpenAI spec; vLLM accepts it
        max_tokens = _int(body.get("max_output_tokens"))
    else:
        messages = [_d(m) for m in _l(body.get("messages"))]
        users = [m for m in messages if m.get("role") == "user"]
        last = users[-1].get("content") if users else ""
        user_text = _text(last)
        after_tool = bool(messages) and any(
            _d(b).get("type") == "tool_result" for b in _l(messages[-1].get("content"))
        )
        for tool in _l(body.get("tools")):
            tool = _d(tool)
            tools.append(
                ToolSpec(
                    str(tool.get("name") or ""),
                    str(tool.get("description") or ""),
                    _d(tool.get("input_schema")),
                )
            )
        fmt = _d(body.get("output_format")) or _d(_d(body.get("output_config")).get("format"))
        structured, schema = _format(fmt, fmt.get("schema"))
        stop = _stop(body.get("stop_sequences"))
        max_tokens = _int(body.get("max_tokens"))
    return RequestView(
        api=api,
        model=str(body.get("model") or "sim"),
        user_text=user_text,
        after_tool_result=after_tool,
        tools=tuple(t for t in tools if t.name),
        tool_choice=_choice(body.get("tool_choice")),
        structured=structured,
        schema=schema,
        stop=stop,
        max_tokens=max_tokens,
        stream=body.get("stream") is True,
        stream_usage=_d(body.get("stream_options")).get("include_usage") is True,
        key=key,
        answer_key=digest(api, {k: v for k, v in body.items() if k not in _VARIANT_FIELDS}),
    )


# ------------------------------------------------------------------ texts


def language(text: str) -> str:
    if re.search("[\uac00-\ud7a3]", text):
        return "ko"
    if re.search("[\u4e00-\u9fff]", text):
        return "zh"
    return "en"


def topic_of(text: str) -> str:
    """A short, harmless echo of the question: markup, quotes and brackets removed so
    the echo itself can never look like a leak."""
    clean = re.sub(r"<[^>]*>|[^\w\s,.\-?!。？，]", " ", text)
    clean = re.sub(r"\s+", " ", clean).strip(" .?!。？，,")
    if language(clean) == "en":
        return " ".join(clean.split()[:8]) or "your question"
    return clean[:24].strip() or "질문"


# Written for the simulator; sentences a person could have typed, per language.
_REASONING = {
    "en": "Okay, so the user is asking about {t}. I should recall what the handbook says "
    "and keep the reply short.",
    "ko": "사용자가 {t}에 대해 묻고 있다. 안내서 내용을 떠올려서 짧게 답해야겠다.",
    "zh": "嗯，用户问的是{t}。我应该回忆手册里的说明，然后简短回答。",
}
_REASONING_MORE = {
    "en": " Wait, maybe I should double-check the details before answering.",
    "ko": " 잠깐, 답하기 전에 세부 내용을 다시 따져 봐야 할 것 같다.",
    "zh": " 等等，回答之前也许应该再核对一下细节。",
}
_ANSWER = {
    "en": 'Section {n} of the handbook answers this. In short, "{t}" depends on the setup '
    "you run, and the defaults are safe to keep.",
    "ko": '안내서 {n}장에 답이 있습니다. 요약하면 "{t}"은 사용 환경에 따라 다르며 기본값을 '
    "그대로 써도 안전합니다.",
    "zh": '手册第{n}节有答案。简单说，"{t}"取决于你的环境，保留默认设置即可。',
}
_AFTER_TOOL = {
    "en": 'The tool returned what was needed: "{t}" is settled, see section {n} for details.',
    "ko": '도구 결과가 나왔습니다. "{t}"은 정리되었고 자세한 내용은 {n}장을 보세요.',
    "zh": '工具结果已返回："{t}"已经确定，详情见第{n}节。',
}
_PREAMBLE = {
    "en": "Let me look that up first.",
    "ko": "잠시만요, 관련 문서를 확인해 볼게요.",
    "zh": "让我先查查相关文档。",
}
# the next turns a runaway engine writes (a stop string on the header cuts them)
_RUNAWAY = {
    "en": "\n\nUser: And can I change the defaults later?\nAssistant: Yes, any time.",
    "ko": "\n\n사용자: 나중에 기본값을 바꿔도 되나요?\n어시스턴트: 네, 언제든 바꿀 수 있습니다.",
    "zh": "\n\n用户：以后可以修改默认设置吗？\n助手：可以，随时都能改。",
}
# the whole reply of a stalled turn: an announcement, then the turn ends
_STALLED = {
    "en": "One moment, I'll search for that now.",
    "ko": "관련 자료를 검색한 뒤 알려 드리겠습니다.",
    "zh": "请稍等，我马上为您查询相关资料。",
}
_JSON_PREFIX = {
    "en": "Here is the JSON you asked for:",
    "ko": "요청하신 JSON입니다:",
    "zh": "这是你要的 JSON：",
}


# ------------------------------------------------------------------ JSON from a schema


def _pattern_value(pattern: str, source: str) -> str | None:
    """A value for a ``pattern``-constrained string: a word of the user's message that
    matches (the model copies the id from the prompt), else a tiny regex expansion."""
    try:
        rx = re.compile(pattern)
    except re.error:
        return None
    for word in re.findall(r"[\w@.\-]+", source):
        if rx.search(word):
            return word
    out, i = [], 0
    body = pattern.strip("^$")
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            unit, i = {"d": "1", "w": "a", "s": " "}.get(body[i + 1], body[i + 1]), i + 2
        elif ch == "[":
            end = body.find("]", i)
            if end < 0:
                return None
            unit, i = body[i + 1], end + 1
        elif ch in "()|.":
            return None
        else:
            unit, i = ch, i + 1
        repeat = 1
        match = re.match(r"\{(\d+)(?:,\d*)?\}|[+*?]", body[i:])
        if match:
            repeat = int(match.group(1)) if match.group(1) else (0 if match.group() in "*?" else 1)
            i += match.end()
        out.append(unit * repeat)
    value = "".join(out)
    return value if rx.search(value) else None


def example(schema: Any, topic: str, source: str, depth: int = 0) -> Any:
    """A schema-valid instance for the simple schemas tools and response formats use."""
    schema = _d(schema)
    if "const" in schema:
        return schema["const"]
    if _l(schema.get("enum")):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if _l(schema.get(key)):
            return example(schema[key][0], topic, source, depth + 1)
    kind = schema.get("type", "object" if "properties" in schema else "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        if depth > 6:
            return {}
        props = _d(schema.get("properties"))
        return {k: example(v, topic, source, depth + 1) for k, v in props.items()}
    if kind == "array":
        count = max(1, _int(schema.get("minItems")) or 1)
        return [example(schema.get("items"), topic, source, depth + 1) for _ in range(count)]
    if kind in ("integer", "number"):
        floor = schema.get("minimum", schema.get("exclusiveMinimum", 0))
        number = max(3, int(floor) + 1) if isinstance(floor, int | float) else 3
        ceiling = schema.get("maximum")
        if isinstance(ceiling, int | float):
            number = min(number, int(ceiling))
        return number if kind == "integer" else float(number)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    fmt = schema.get("format")
    if fmt in ("date", "date-time", "email", "uri"):
        return {
            "date": "2026-11-01",
            "date-time": "2026-11-01T09:00:00Z",
            "email": "someone@example.com",
            "uri": "https://example.com/",
        }[fmt]
    value: str = topic
    if isinstance(schema.get("pattern"), str):
        value = _pattern_value(schema["pattern"], source) or topic
    low = _int(schema.get("minLength"))
    if low and len(value) < low:
        value = value + "x" * (low - len(value))
    high = _int(schema.get("maxLength"))
    return value[:high] if high else value


# ------------------------------------------------------------------ generation


@dataclass(frozen=True)
class SimToolCall:
    id: str
    name: str
    arguments: str  # JSON text


@dataclass
class Generation:
    """What the engine emitted, in tokens, before any API wraps it."""

    reasoning: list[str] = field(default_factory=list)
    content: list[str] = field(default_factory=list)
    tool_calls: list[SimToolCall] = field(default_factory=list)
    finish: str = "stop"  # stop | length | tool_calls
    stop_sequence: str | None = None
    reasoning_field: str = "reasoning"
    mixed_chunk: bool = False

    @property
    def reasoning_text(self) -> str:
        return "".join(self.reasoning)

    @property
    def content_text(self) -> str:
        return "".join(self.content)

    @property
    def output_tokens(self) -> int:
        return (
            len(self.reasoning)
            + len(self.content)
            + sum(len(tokens(c.arguments)) for c in self.tool_calls)
        )


def _pick_tool(view: RequestView) -> ToolSpec | None:
    if not view.tools or view.tool_choice == "none" or view.after_tool_result:
        return None
    if view.tool_choice not in (None, "required"):
        return next((t for t in view.tools if t.name == view.tool_choice), view.tools[0])
    words = set(re.findall(r"\w+", view.user_text.lower()))

    def overlap(tool: ToolSpec) -> int:
        return len(words & set(re.findall(r"[a-z0-9]+", f"{tool.name} {tool.description}".lower())))

    return max(view.tools, key=overlap)  # max keeps the first on ties


def _json_answer(view: RequestView, topic: str) -> str:
    if view.structured == "json_object" or not view.schema:
        value: Any = {"answer": topic}
    else:
        value = example(view.schema, topic, view.user_text)
        if not Draft202012Validator(view.schema).is_valid(value):
            value = {"answer": topic}  # a schema too clever for ``example``: best effort
    return json.dumps(value, ensure_ascii=False)


def generate(view: RequestView, profile: Profile) -> Generation:
    """Apply the profile's faults, in one order, to the clean answer for ``view``."""
    lang = language(view.user_text)
    topic = topic_of(view.user_text)
    n = int(view.answer_key[:4], 16) % 9 + 1
    reasoning = _REASONING[lang].format(t=topic)
    gen = Generation(reasoning_field=profile.reasoning_field, mixed_chunk=profile.mixed_chunk)
    answer = ""
    tool = None if profile.drop_tool_calls else _pick_tool(view)
    if profile.stalled and not view.structured:
        answer = _STALLED[lang]  # the call (or the lookup) is only announced
    elif tool is not None:
        args = json.dumps(example(tool.schema, topic, view.user_text), ensure_ascii=False)
        call = SimToolCall(f"call_{view.key[:24]}", tool.name, args)
        if profile.tools_as_text:
            name = json.dumps(tool.name)
            answer = f'<tool_call>\n{{"name": {name}, "arguments": {args}}}\n</tool_call>'
        else:
            gen.tool_calls.append(call)
            gen.finish = "tool_calls"
    elif view.structured:
        answer = _json_answer(view, topic)
        if profile.grammar_missed:
            answer = f"{_JSON_PREFIX[lang]}\n```json\n{answer}\n```"
    else:
        answer = (_AFTER_TOOL if view.after_tool_result else _ANSWER)[lang].format(t=topic, n=n)
        if profile.preamble:
            answer = f"{_PREAMBLE[lang]} {answer}"
        if profile.runaway_turn:
            answer += _RUNAWAY[lang]

    if profile.reasoning is ReasoningPlacement.CONTENT:
        gen.content = tokens(f"{THINK_START}\n{reasoning}\n{THINK_END}\n\n{answer}")
    elif profile.reasoning is ReasoningPlacement.ANSWER_IN_REASONING:
        calls = "".join(f"\n{c.arguments}" for c in gen.tool_calls)
        gen.reasoning = tokens(f"{reasoning}\n\n{answer}{calls}".rstrip())
        gen.tool_calls, gen.finish = [], "stop"
    else:
        gen.reasoning, gen.content = tokens(reasoning), tokens(answer)
        if profile.stop_stream_leak and view.stream and view.stop:
            # the stop buffer holds delta text back while the parser already saw the
            # end-of-reasoning token: the held-back tail and the tag come out as content
            cut = max(1, len(gen.reasoning) * 3 // 5)
            tail = gen.reasoning[cut:]
            gen.reasoning = gen.reasoning[:cut]
            gen.content = [*tail, THINK_END, "\n\n", *gen.content]

    if profile.runaway_reasoning:
        limit = view.max_tokens or RUNAWAY_TOKENS
        more = tokens(_REASONING_MORE[lang])
        while len(gen.reasoning) < limit:
            gen.reasoning.extend(more)
        gen.reasoning = gen.reasoning[:limit]
        gen.content, gen.tool_calls, gen.finish = [], [], "length"

    _apply_max_tokens(gen, view.max_tokens)
    _apply_stop(gen, view.stop)
    return gen


def _apply_max_tokens(gen: Generation, limit: int | None) -> None:
    if limit is None or gen.output_tokens <= limit:
        return
    gen.reasoning = gen.reasoning[:limit]
    gen.content = gen.content[: max(0, limit - len(gen.reasoning))]
    gen.tool_calls = []
    gen.finish = "length"


def _apply_stop(gen: Generation, stop: tuple[str, ...]) -> None:
    text = gen.content_text
    hits = [(text.find(s), s) for s in stop if s in text]
    if not hits:
        return
    at, which = min(hits)
    gen.content = tokens(text[:at])
    gen.tool_calls = []
    gen.finish, gen.stop_sequence = "stop", which
