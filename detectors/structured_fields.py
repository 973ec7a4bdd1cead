"""The fields of a structured answer, and which of them are in-schema reasoning slots.

Shared by ``heuristics/structured_reasoning.py`` (reasoning prose in a field that is not a
slot), ``rules/reasoning_slots.py`` (a slot used wrongly) and the row builder (slots kept
beside the row as observational data). Pure: no I/O.

A *reasoning slot* is a property the schema reserves for the model's thinking ("in-schema
chain of thought"). A property is a slot when

- its schema carries ``"x-leakline-reasoning": true`` (at any depth of ``properties``);
- the detector configuration names it (a bare property name matches at any depth, a JSON
  Pointer such as ``/evidence`` matches exactly);
- it is the only top-level property named like reasoning (``SLOT_NAMES``) in the schema
  (or, without a schema, in the answer).

Paths are JSON Pointers (RFC 6901) into the answer: ``/action``, ``/evidence/0``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from leakline.detectors.exchange import Exchange
from leakline.detectors.finding import slot_setters
from leakline.detectors.text import loads, unwrap_fence

ANNOTATION: Final = "x-leakline-reasoning"
# names of a lone reasoning property (lower case, compared after lower-casing)
SLOT_NAMES: Final = frozenset(
    {"reasoning", "thoughts", "thought", "thinking", "chain_of_thought", "scratchpad", "cot"}
)
_KINDS: Final = frozenset({"json_object", "json_schema"})
# walking stops here: a hostile answer must not cost more than a normal one
MAX_FIELDS: Final = 256
_MAX_DEPTH: Final = 16


@dataclass(frozen=True, slots=True)
class Field:
    """One string value of the answer."""

    path: str  # JSON Pointer
    name: str  # the nearest property name ("" inside a top-level array)
    text: str
    schema: dict[str, Any] | None  # the property's (or array item's) schema, when known


@dataclass(frozen=True, slots=True)
class Answer:
    """A parsed structured answer and its reasoning slots."""

    value: Any
    schema: dict[str, Any] | None
    slots: tuple[str, ...]  # slot paths (top-level or nested), in answer order


def escape(key: str) -> str:
    if "~" not in key and "/" not in key:
        return key
    return key.replace("~", "~0").replace("/", "~1")


def parse(exchange: Exchange) -> Any:
    """The JSON value of a structured answer; ``None`` when there is none to read.

    A whole-text fence is unwrapped (``structured_invalid`` reports the fence itself)."""
    fmt = exchange.response_format
    if fmt is None or fmt.kind not in _KINDS or exchange.tool_calls:
        return None
    text = exchange.visible_text
    if "{" not in text and "[" not in text:
        return None
    try:
        return loads_visible(text)
    except ValueError:
        inner = unwrap_fence(text)
        if inner is None:
            return None
        try:
            return loads(inner)
        except ValueError:
            return None


# The last text decoded by ``loads_visible`` and its value (swapped whole, like ``_LAST``).
_LAST_VALUE: tuple[str | None, Any] = (None, None)


def loads_visible(text: str) -> Any:
    """``loads(text)``, remembered for the last text: ``structured_output`` and then
    ``answer`` decode the same visible text. The value is shared: never mutate it."""
    global _LAST_VALUE
    last = _LAST_VALUE
    if last[0] is text:
        return last[1]
    value = loads(text)  # a ValueError is not remembered (rare: the next caller decides)
    _LAST_VALUE = (text, value)
    return value


# The last exchange read and its answer, as one tuple (swapped atomically, like
# ``cues.prepare``): both structured detectors, then the row builder, ask in turn.
_LAST: tuple[Exchange | None, frozenset[str], Answer | None] = (None, frozenset(), None)


def answer(exchange: Exchange, configured: frozenset[str] = frozenset()) -> Answer | None:
    """The structured answer with its slots, or None (not structured, not JSON, empty)."""
    global _LAST
    last = _LAST
    if last[0] is exchange and last[1] == configured:
        return last[2]
    found = _answer(exchange, configured)
    _LAST = (exchange, configured, found)
    return found


def _answer(exchange: Exchange, configured: frozenset[str]) -> Answer | None:
    if exchange.response_format is None:
        return None
    value = parse(exchange)
    if not isinstance(value, (dict, list)) or not value:
        return None
    fmt = exchange.response_format
    schema = fmt.schema if fmt is not None and isinstance(fmt.schema, dict) else None
    return Answer(value, schema, tuple(_slots(value, schema, configured)))


def _properties(schema: dict[str, Any] | None) -> dict[str, Any]:
    if schema is None:
        return {}
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def _slots(value: Any, schema: dict[str, Any] | None, configured: frozenset[str]) -> list[str]:
    found: list[str] = []
    _annotated_or_configured(value, schema, configured, "", found, 0)
    if isinstance(value, dict):
        names = list(_properties(schema)) or list(value)
        lone = [n for n in names if isinstance(n, str) and n.lower() in SLOT_NAMES]
        if len(lone) == 1 and lone[0] in value:
            path = "/" + escape(lone[0])
            if path not in found:
                found.append(path)
    return found


def _annotated_or_configured(
    value: Any,
    schema: dict[str, Any] | None,
    configured: frozenset[str],
    prefix: str,
    found: list[str],
    depth: int,
) -> None:
    if not isinstance(value, dict) or depth > _MAX_DEPTH:
        return
    props = _properties(schema)
    for key, item in value.items():
        if not isinstance(key, str):
            continue
        sub = props.get(key)
        sub = sub if isinstance(sub, dict) else None
        # the path only when something needs it: most values are neither slots nor objects
        if (sub is not None and sub.get(ANNOTATION) is True) or key in configured:
            found.append(f"{prefix}/{escape(key)}")
            continue
        if configured:
            path = f"{prefix}/{escape(key)}"
            if path in configured:
                found.append(path)
                continue
        if isinstance(item, dict) and depth < _MAX_DEPTH:
            _annotated_or_configured(
                item, sub, configured, f"{prefix}/{escape(key)}", found, depth + 1
            )


def in_slot(path: str, slots: tuple[str, ...]) -> bool:
    return any(path == s or path.startswith(s + "/") for s in slots)


def fields(value: Any, schema: dict[str, Any] | None) -> list[Field]:
    """Every string value with its path, name and schema (at most ``MAX_FIELDS``), in
    document order."""
    out: list[Field] = []
    _walk(value, schema, "", "", 0, out)
    return out


def _walk(
    item: Any, sub: dict[str, Any] | None, path: str, name: str, depth: int, out: list[Field]
) -> None:
    if len(out) >= MAX_FIELDS:
        return
    if isinstance(item, str):
        out.append(_field(path, name, item, sub))
    elif depth > _MAX_DEPTH:
        return
    elif isinstance(item, dict):
        props = _properties(sub)
        for key, child in item.items():
            # numbers, booleans and nulls hold no string: not worth a call
            if not isinstance(key, str) or not isinstance(child, _WALKED):
                continue
            child_schema = props.get(key)
            child_schema = child_schema if isinstance(child_schema, dict) else None
            _walk(child, child_schema, f"{path}/{escape(key)}", key, depth + 1, out)
    elif isinstance(item, list):
        items = sub.get("items") if sub is not None else None
        items = items if isinstance(items, dict) else None
        for i, child in enumerate(item):
            if isinstance(child, _WALKED):
                _walk(child, items, f"{path}/{i}", name, depth + 1, out)


_WALKED: Final = (str, dict, list)
_FIELD_SETTERS = slot_setters(Field, ("path", "name", "text", "schema"))


def _field(path: str, name: str, text: str, schema: dict[str, Any] | None) -> Field:
    """``Field(...)`` through its slots (see ``finding.slot_setters``): once per string."""
    if _FIELD_SETTERS is None:
        return Field(path, name, text, schema)
    made = Field.__new__(Field)
    s0, s1, s2, s3 = _FIELD_SETTERS
    s0(made, path)
    s1(made, name)
    s2(made, text)
    s3(made, schema)
    return made


def slot_values(exchange: Exchange, configured: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The answer's reasoning slots as ``{path: value}`` (empty when it has none)."""
    parsed = answer(exchange, configured)
    if parsed is None or not parsed.slots:
        return {}
    out: dict[str, Any] = {}
    for path in parsed.slots:
        node: Any = parsed.value
        for part in path.split("/")[1:]:
            key = part.replace("~1", "/").replace("~0", "~")
            node = node.get(key) if isinstance(node, dict) else None
        out[path] = node
    return out
