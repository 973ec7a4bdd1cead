"""``tool_call_as_text`` for call markup no family row names (the generic layer).

``tool_call_text`` reports the active table's tool markup rows; this rule reports the
rest of what is shaped like a call, when the response has no structured tool call:

- a call section opened by a special token whose name says "tool call"
  (``<|tool_calls_section_begin|>``, ``[TOOL_CALLS]``, ``<|python_tag|>``, ``<|tool_call>``…),
  with or without a parsable call after it;
- XML-like call markup (``<tool_call>``, ``<function_call>``, ``<invoke name="…">``,
  ``<function=name>``, ``<ns:tool_call>``) holding a name *and* parameters;
- only when the request declared tools: a JSON call object/array (``{"name": …,
  "arguments"|"parameters": …}``, ``{"function": {…}}``) or a pythonic call list
  ``[name(k=v)]`` anywhere in the text, whose every name is a declared tool.

Then the call frames of ``call_frames`` (no JSON mode asked): declared names in a frame only
a call puts them in, calls between special tokens, ``tool_code`` fences, bracketed prose
calls, and a whole-reply call object when the log has no tools (see that module).

Without declared tools bare JSON never counts (the whole-reply frame aside): a user who asked for JSON may get
``{"name": "Bob", "arguments": …}`` as the answer. Framing (a special token or call tag)
is what makes text a call. Every finding has ``details["family"] = "unknown"``, the
``token`` (the opening literal) and ``syntax`` (``generic_token`` / ``generic_xml`` /
``generic_json`` / ``generic_pythonic``), and ``rescued_calls`` as ``tool_call_text``
writes them. Spans the family rows' markup covers are left to ``tool_call_text``.
"""

from __future__ import annotations

import re
from typing import Any

from leakline.detectors import call_frames, generic
from leakline.detectors.common import MAX_FINDINGS, DetectorBase
from leakline.detectors.exchange import Exchange
from leakline.detectors.families import FamilyTable, active_table
from leakline.detectors.finding import Finding
from leakline.detectors.labels import Label, Layer, Remediation, Source
from leakline.detectors.rules.boundary_tokens import drop_mentions
from leakline.detectors.rules.generic_tokens import masked
from leakline.detectors.rules.tool_call_text import (
    _MARKUP_NOUN,
    _validated,
    claimed_spans,
)
from leakline.detectors.text import (
    SpanIndex,
    crosses,
    decode_at,
    find_json_value,
    is_quoted,
    loads,
    outside_code,
    piece_boundaries,
    unwrap_fence,
)
from leakline.detectors.tool_markup import (
    Call,
    balanced_end,
    calls_from_value,
    pythonic_calls,
)

# Call tag names (case-insensitive, optional namespace): not HTML, not common XML vocabularies.
# Case-sensitive on purpose (the usual spellings listed): an IGNORECASE pattern loses
# CPython's fast skip to "<" and costs several microseconds on a long answer.
_CALL_TAG = re.compile(
    r"<(?P<tag>(?:[A-Za-z][\w-]{0,15}:)?(?:[Tt]ool_?[Cc]alls?|[Ff]unction_?[Cc]alls?"
    r"|[Ff]unction[Cc]all|[Tt]ool_?[Uu]se|tool_code|invoke|function(?==)"
    r"|TOOL_?CALLS?|TOOLCALL|FUNCTION_?CALLS?|TOOL_USE))(?P<attrs>[\s=][^<>]{0,300})?>"
)
_ATTR_NAME = re.compile(r"""^\s*(?:name\s*=\s*["']([^"'<>]{1,128})["']|=\s*([^\s<>"']{1,128}))""")
_CHILD_NAME = re.compile(
    r"<(?:name|tool_name|function_name)>\s*([^<>\s]{1,128})\s*</|<function=([^<>\n]{1,128})>"
)
_PARAM_ATTR = re.compile(
    r"""<(?:parameter|param|arg)\s+name\s*=\s*["'](?P<key>[^"']{1,128})["'][^>]*>(?P<value>.*?)"""
    r"""(?:</(?:parameter|param|arg)>|$)""",
    re.DOTALL,
)
_PARAM_EQ = re.compile(
    r"<parameter=(?P<key>[^>\n]{1,128})>(?P<value>.*?)(?:</parameter>|(?=<parameter=)|$)", re.DOTALL
)
_ARG_PAIR = re.compile(
    r"<arg_key>(?P<key>.*?)</arg_key>\s*<arg_value>(?P<value>.*?)(?:</arg_value>|$)", re.DOTALL
)
_FIRST_WORD = re.compile(r"\s*([A-Za-z_][\w.\-]{0,127})\s*(?:\n|<)")
_ARGS_CONTAINER = re.compile(r"<(?:arguments|parameters|args|input)\b", re.IGNORECASE)
# "functions.get_weather:0", "get_weather" (a call reference after a call token)
_REF = re.compile(r"\s*(?:call:|functions\.)?(?P<name>[A-Za-z_][\w.\-]{0,127})(?::\d+)?")
_JSON_HEAD = re.compile(r'\{\s*"(?:name|tool_name|function|type)"\s*:')
_WRAPPED_HEAD = re.compile(r'\{\s*"(?:tool_name|function|type)"\s*:')
_PY_HEAD = re.compile(r"\[\s*(?P<name>[A-Za-z_][\w.]*)\s*\(")
_MAX_BLOCK = 20_000


class GenericToolCalls(DetectorBase):
    id = "generic_tool_calls"
    # 4: an XML-ish call element ends at its close or where the next one of its tag opens
    # (linear on repeated unclosed markup, issue 36)
    version = "4"
    source = Source.RULE

    def detect(self, exchange: Exchange) -> list[Finding]:
        if exchange.tool_calls:
            return []
        text = exchange.visible_text
        if not text:
            return []
        declared = exchange.declared_tools
        found = generic.marks(text)
        free = exchange.response_format is None
        # "`" first: a one-character probe runs at memchr speed, "```" does not
        ticks = "`" in text and "```" in text
        if not found and not (free and (declared or ticks or _opens_json(text))):
            return []
        has_bracket = bool(found & generic.BRACKET)
        blocks: list[tuple[int, int, str, str, list[Call], float]] = []
        if found:
            blocks.extend(_token_blocks(exchange, text))
        if found & generic.ANGLE:
            blocks.extend(_xml_blocks(exchange, text))
            if "=" in text and "to=functions." in text:
                blocks.extend(_recipient_blocks(exchange, text))
        if declared and exchange.response_format is None:
            braced = "{" in text and ('"arguments"' in text or '"parameters"' in text)
            listed = has_bracket and "(" in text
            if braced or listed:
                json_row, pythonic_row = _bare_rows()
                if braced:
                    # a bare JSON row of the table already reads {"name": …} objects
                    head = _WRAPPED_HEAD if json_row else _JSON_HEAD
                    blocks.extend(_json_blocks(exchange, text, head))
                if listed and not pythonic_row:
                    blocks.extend(_pythonic_blocks(exchange, text))
        if free:
            # after the shapes above: at one start their reading wins (the sort is stable)
            blocks.extend(_frame_blocks(exchange, text, found, ticks))
        if not blocks:
            return []
        taken = SpanIndex(claimed_spans(text))
        blocks.sort(key=lambda b: (b[0], -b[1]))
        findings: list[Finding] = []
        bounds = piece_boundaries(exchange.stream_facts.visible_pieces, len(text))
        # blocks come sorted by start, so a block overlaps one taken before it exactly
        # when it starts before the furthest end taken so far (one comparison, not a
        # scan of every block taken: issue 36, repeated call markup)
        reach = -1
        for start, end, syntax, token, calls, confidence in blocks:
            if start < reach and start < end:
                continue
            if taken.overlaps(start, end):
                continue
            reach = max(reach, end)
            details: dict[str, Any] = {
                "syntax": syntax,
                "family": "unknown",
                "token": token,
                "rescued_calls": [_validated(call, declared) for call in calls],
            }
            unknown = sorted({c["name"] for c in calls if c["name"] not in declared})
            if unknown and declared:
                details["undeclared_tools"] = unknown
            if bounds and crosses(bounds, start, start + len(token)):
                details["split_across_chunks"] = True
            findings.append(
                self.finding(
                    Label.TOOL_CALL_AS_TEXT,
                    layer=Layer.PARSER,
                    remediation=Remediation.RESCUE if calls else Remediation.REGENERATE,
                    confidence=confidence,
                    text=text,
                    span=(start, end),
                    details=details,
                )
            )
            if len(findings) >= MAX_FINDINGS:
                break
        return findings


_INK = re.compile(r"\S")


def _opens_json(text: str) -> bool:
    """The reply opens with ``{`` or ``[``: without declared tools, marks or a fence, only a
    whole-reply call object can be a call."""
    ink = _INK.search(text)
    return ink is not None and text[ink.start()] in "{["


def _frame_blocks(
    exchange: Exchange, text: str, found: int, ticks: bool
) -> list[tuple[int, int, str, str, list[Call], float]]:
    """The call frames of ``call_frames`` (declared names in a frame, and the report classes).
    ``ticks``: the text holds a backtick fence marker."""
    declared = exchange.declared_tools
    prompt = exchange.prompt_text
    blocks: list[tuple[int, int, str, str, list[Call], float]] = []
    if declared:
        blocks.extend(call_frames.declared_blocks(text, declared, prompt))
    if ticks:
        blocks.extend(call_frames.tool_fence_blocks(text))
    if found & generic.BRACKET:
        blocks.extend(call_frames.bracket_blocks(text, declared))
    if found:
        blocks.extend(call_frames.marker_blocks(text, found))
        hits = [h for h in generic.scan(text) if outside_code(text, h.start, h.end)]
        if hits:
            blocks.extend(call_frames.token_segment_blocks(text, hits, declared))
    if not declared:
        whole = call_frames.whole_object(text, prompt)
        if whole is not None:
            blocks.append(whole)
    if prompt:
        blocks = [b for b in blocks if not call_frames.quoted_from(prompt, text, b[0], b[1])]
    return blocks


def _bare_rows() -> tuple[bool, bool]:
    """Whether the active table has bare rows that read JSON calls / pythonic call lists
    (then ``tool_call_text`` rescues declared calls in those shapes itself)."""
    return active_table().memo("generic_tool_calls", _bare_rows_of)


def _bare_rows_of(table: FamilyTable) -> tuple[bool, bool]:
    bare = [m for m in table.markups if m.bare]
    return (
        any('"name"' in m.cues for m in bare),
        any("(" in m.cues for m in bare),
    )


def _shown(exchange: Exchange, text: str, start: int, end: int) -> bool:
    """Outside code and quotes, not named as a word ("<tool_call> tags"), not from the prompt."""
    if not outside_code(text, start, end) or is_quoted(text, start, end):
        return False
    if _MARKUP_NOUN.match(text, end) is not None:
        return False
    return text[start:end] not in exchange.prompt_text


def _token_blocks(
    exchange: Exchange, text: str
) -> list[tuple[int, int, str, str, list[Call], float]]:
    scanned = generic.scan(text)
    hits = [h for h in scanned if generic.classify(h.literal).kind == "call"]
    if not hits:
        return []
    hits = drop_mentions(masked(text, hits), hits, (), ())
    out = []
    for start, end, opener in generic.call_blocks(text, scanned):
        if not any(h.start == start for h in hits):
            continue
        if not _shown(exchange, text, opener.start, opener.end):
            continue
        calls = _calls_in_section(text, opener.end, end)
        out.append((start, end, "generic_token", opener.literal, calls, 0.9))
    return out


def _calls_in_section(text: str, start: int, end: int) -> list[Call]:
    """Calls from a token-framed section: call JSON, or a name (reference) before JSON args."""
    body = _strip_tokens(text[start : min(end, start + _MAX_BLOCK)])
    found = find_json_value(body)
    if found is None:
        pythonic = pythonic_calls(body.strip()) if "(" in body else None
        return pythonic or []
    at, _, value = found
    calls = calls_from_value(value)
    if calls:
        return calls
    ref = _REF.match(body, 0, at)
    if ref is not None and isinstance(value, dict):
        return [{"name": ref["name"], "arguments": value}]
    return []


_ANY_TOKEN = re.compile(r"<[|｜][^<>]{0,80}?[|｜]?>|\[/?[A-Z][A-Z0-9_]{1,31}\]|<[\w:]{1,40}[|｜]>")


def _strip_tokens(body: str) -> str:
    """The section without its tokens (``[ARGS]``, ``<|tool_call_argument_begin|>``…)."""
    return _ANY_TOKEN.sub(" ", body) if ("<" in body or "[" in body) else body


def _xml_blocks(
    exchange: Exchange, text: str
) -> list[tuple[int, int, str, str, list[Call], float]]:
    out = []
    pos = 0
    lowered: str | None = None
    prompt: str | None = None
    # Per tag, the next close found and the next opener after the last one seen (-1:
    # none left). Remembered so that a reply of many unclosed openers costs one pass,
    # not a search to its end from each of them (issue 36: quadratic on repeated markup).
    closes: dict[str, int] = {}
    for match in _CALL_TAG.finditer(text):
        start = match.start()
        if start < pos:
            continue
        tag = match["tag"]
        close = f"</{tag}>"
        if lowered is None:
            lowered = text.lower() if "</" in text else ""
        opened = match.end()
        at = _next_close(lowered, close.lower(), opened, closes) if lowered else -1
        end = at + len(close) if at >= 0 else len(text)
        if not _shown(exchange, text, start, opened):
            continue
        if prompt is None:
            prompt = exchange.prompt_text.lower()
        if f"<{tag}".lower() in prompt:
            continue  # the prompt shows or asks for this markup
        # an element ends at its close, or where the next one of the same tag opens: the
        # markup does not nest, and every character then belongs to one body
        limit = min(end, opened + _MAX_BLOCK)
        following = _same_opener(tag).search(text, opened, limit)
        body = text[opened : following.start() if following is not None else limit]
        call = _xml_call(match["attrs"] or "", body)
        if call is None:
            continue
        pos = end
        out.append((start, end, "generic_xml", match.group(), call, 0.85))
    return out


def _next_close(lowered: str, close: str, after: int, seen: dict[str, int]) -> int:
    """``lowered.find(close, after)``, reusing the last answer while it still lies ahead."""
    known = seen.get(close)
    if known is not None and (known < 0 or known >= after):
        return known
    at = lowered.find(close, after)
    seen[close] = at
    return at


_SAME_OPENER: dict[str, re.Pattern[str]] = {}


def _same_opener(tag: str) -> re.Pattern[str]:
    """An opener of ``tag`` (a name, then no more name characters)."""
    pattern = _SAME_OPENER.get(tag)
    if pattern is None:
        if len(_SAME_OPENER) > 256:  # tags come from the text: keep the memo bounded
            _SAME_OPENER.clear()
        pattern = _SAME_OPENER[tag] = re.compile(f"<{re.escape(tag)}(?![\\w:-])")
    return pattern


def _xml_call(attrs: str, body: str) -> list[Call] | None:
    """The calls in one XML-ish call element, or None when it lacks a name or parameters."""
    head = _ATTR_NAME.match(attrs)
    name = (head.group(1) or head.group(2)) if head is not None else None
    if name is None:
        child = _CHILD_NAME.search(body)
        name = (child.group(1) or child.group(2)) if child is not None else None
    params: dict[str, Any] = {}
    framed = False
    for pattern in (_PARAM_ATTR, _PARAM_EQ, _ARG_PAIR):
        for m in pattern.finditer(body):
            framed = True
            params[m["key"].strip()] = _value(m["value"])
    if name is None and framed:
        first = _FIRST_WORD.match(body)  # GLM-style: "<tool_call>NAME\n<arg_key>…"
        name = first.group(1) if first is not None else None
    if name is None or not framed:
        found = find_json_value(body)
        if found is not None:
            calls = calls_from_value(found[2], require_arguments=True)
            if calls:
                return calls
            if name is not None and isinstance(found[2], dict):
                return [{"name": name, "arguments": found[2]}]
        if name is not None and _ARGS_CONTAINER.search(body) is not None:
            return [{"name": name, "arguments": {}}]
        if name is not None and "(" in body:
            return pythonic_calls(body.strip())
        if name is None and "(" in body:
            return pythonic_calls(body.strip())  # Olmo-style: <function_calls>f(a=1)</…>
        return None
    return [{"name": name, "arguments": params}]


# A harmony-style recipient in a special-token header: "<|…|>commentary to=functions.NAME …"
_RECIPIENT = re.compile(r"to=functions\.(?P<name>[\w\-]+(?:\.[\w\-]+)*)")
_HEADER_REACH = 48


def _recipient_blocks(
    exchange: Exchange, text: str
) -> list[tuple[int, int, str, str, list[Call], float]]:
    """``to=functions.NAME`` addressed inside a header of special tokens: a call."""
    out = []
    for match in _RECIPIENT.finditer(text):
        start = match.start()
        header = text.rfind("<|", max(0, start - _HEADER_REACH), start)
        if header < 0 or "\n" in text[header:start]:
            continue  # not inside a token header: prose that names the convention
        if not _shown(exchange, text, header, match.end()):
            continue
        end_token = text.find("<|call|>", match.end())
        end = end_token + len("<|call|>") if end_token >= 0 else len(text)
        found = find_json_value(text[match.end() : end])
        calls: list[Call] = []
        if found is not None and isinstance(found[2], dict):
            calls = [{"name": match["name"], "arguments": found[2]}]
        out.append((header, end, "generic_recipient", match.group(), calls, 0.85))
    return out


def _value(raw: str) -> Any:
    value = raw.strip()
    try:
        decoded = loads(value)
    except ValueError:
        return value
    return value if isinstance(decoded, str) else decoded


def _json_blocks(
    exchange: Exchange, text: str, head: re.Pattern[str]
) -> list[tuple[int, int, str, str, list[Call], float]]:
    declared = exchange.declared_tools
    out = []
    pos = 0
    for match in head.finditer(text):
        start = match.start()
        if start < pos:
            continue
        try:
            value, end = decode_at(text, start)
        except ValueError:
            continue
        calls = calls_from_value(value, require_arguments=True)
        if not calls or not all(c["name"] in declared for c in calls):
            continue
        if start > 0 and text[start - 1] == "[":
            start -= 1  # part of a list of calls: the list decodes the same
        if not outside_code(text, start, end) and not _whole_fence(text, start, end):
            continue
        pos = end
        out.append((start, end, "generic_json", "{", calls, 0.8))
    return out


def _whole_fence(text: str, start: int, end: int) -> bool:
    """The block is alone in one code fence that is the whole answer (no prose around)."""
    inner = unwrap_fence(text)
    return inner is not None and inner.strip() == text[start:end].strip()


def _pythonic_blocks(
    exchange: Exchange, text: str
) -> list[tuple[int, int, str, str, list[Call], float]]:
    declared = exchange.declared_tools
    out = []
    for match in _PY_HEAD.finditer(text):
        if match["name"] not in declared:
            continue
        start = match.start()
        end = balanced_end(text, start)
        if end < 0 or not outside_code(text, start, end):
            continue
        calls = pythonic_calls(text[start:end])
        if calls and all(c["name"] in declared for c in calls):
            out.append((start, end, "generic_pythonic", "[", calls, 0.8))
    return out
