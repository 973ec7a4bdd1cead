"""JSON Schema validation with one cached validator per schema, and a fast path.

A schema that is itself malformed never raises here: it is treated as
"cannot check" (``check`` returns None), because bad request data must not
crash a detector.

Most tool and response schemas are small objects of typed properties. For those
a compiled predicate (``_fast``) decides valid/invalid without jsonschema's
per-keyword machinery; any keyword it does not model sends the whole schema to
jsonschema. Messages always come from jsonschema: the fast path only answers
"valid?", and an invalid instance is re-checked by jsonschema for its errors, so
both paths report the same verdicts and the same messages
(``tests/detectors/test_schema.py`` holds them to that).
"""

from __future__ import annotations

import json
import re
import warnings
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from typing import Any

from jsonschema import (
    Draft6Validator,
    Draft7Validator,
    Draft201909Validator,
    Draft202012Validator,
    SchemaError,
)
from jsonschema.exceptions import best_match
from jsonschema.validators import validator_for

try:  # orjson canonicalises a schema ~10x faster than json.dumps; it is optional here
    import orjson

    _SORTED = orjson.OPT_SORT_KEYS
except ImportError:  # pragma: no cover - orjson is a project dependency
    orjson = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class SchemaViolation:
    message: str
    path: str  # JSON Pointer into the instance, "" for the root


Predicate = Callable[[Any], bool]


@dataclass(frozen=True, slots=True)
class _Compiled:
    validator: Any  # a jsonschema validator, or None when the schema cannot be used
    fast: Predicate | None  # None: use the validator


_UNUSABLE = _Compiled(None, None)
_MAX_CACHED = 512
# canonical schema text -> compiled entry
_BY_TEXT: OrderedDict[str, _Compiled] = OrderedDict()
# id(schema) -> (schema, entry): a fast path when the same dict object comes back.
# Holding the schema keeps its id from being reused by another object.
_BY_ID: OrderedDict[int, tuple[Any, _Compiled]] = OrderedDict()


def _remember(cache: OrderedDict, key: Any, value: Any) -> None:
    cache[key] = value
    if len(cache) > _MAX_CACHED:
        cache.popitem(last=False)


def _canonical(schema: dict[str, Any]) -> str | None:
    if orjson is not None:
        try:
            return orjson.dumps(schema, option=_SORTED).decode()
        except (TypeError, ValueError):
            pass  # non-str keys, integers beyond 64 bits, ...: the slower encoder copes
    try:
        return json.dumps(schema, sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        return None


def _entry(schema: Any) -> _Compiled:
    known = _BY_ID.get(id(schema))
    if known is not None and known[0] is schema:
        return known[1]
    entry = _UNUSABLE
    if isinstance(schema, dict):
        text = _canonical(schema)
        if text is not None:
            cached = _BY_TEXT.get(text)
            if cached is None:
                cached = _compile(schema)
                _remember(_BY_TEXT, text, cached)
            entry = cached
    _remember(_BY_ID, id(schema), (schema, entry))
    return entry


def validator(schema: Any) -> Any:
    """A compiled jsonschema validator for ``schema``, or None when it is not a usable schema."""
    return _entry(schema).validator


def _compile(schema: dict[str, Any]) -> _Compiled:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an unknown "$schema" only warns
            cls = validator_for(schema)
            cls.check_schema(schema)
            compiled = cls(schema)
    except SchemaError:
        return _UNUSABLE
    except Exception:  # anything else a hostile schema can provoke
        return _UNUSABLE
    return _Compiled(compiled, fast_predicate(schema, cls))


def is_valid(schema: Any, instance: Any) -> bool | None:
    """True/False when ``schema`` can be checked, None when it cannot (malformed schema)."""
    entry = _entry(schema)
    if entry.validator is None:
        return None
    try:
        if entry.fast is not None:
            return entry.fast(instance)
        return bool(entry.validator.is_valid(instance))
    except Exception:  # unresolvable $ref, bad regex in "pattern", recursion: cannot check
        return None


def check(schema: Any, instance: Any) -> SchemaViolation | None:
    """The most relevant violation of ``schema`` by ``instance``; None when valid or uncheckable."""
    if is_valid(schema, instance) is not False:
        return None
    found = violations(schema, instance, limit=1)
    return found[0] if found else None


def violations(schema: Any, instance: Any, limit: int = 3) -> list[SchemaViolation]:
    """Up to ``limit`` violations, the most relevant first; [] when valid or uncheckable."""
    compiled = _entry(schema).validator
    if compiled is None or limit <= 0:
        return []
    try:
        errors = list(islice(compiled.iter_errors(instance), 64))
        best = best_match(errors)
    except Exception:
        return []
    if best is None:
        return []
    ordered = [best] + [e for e in errors if e is not best]
    return [
        SchemaViolation(_short(e.message), "".join(f"/{p}" for p in e.absolute_path))
        for e in ordered[:limit]
    ]


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[:limit] + "…"


# --------------------------------------------------------------------------- the fast path

# Dialects where every keyword below means the same thing (draft 4 differs on 1.0 as integer).
_FAST_DIALECTS = (Draft6Validator, Draft7Validator, Draft201909Validator, Draft202012Validator)
# Keywords that never affect validity (format is an annotation without a format checker).
_ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "format",
        "contentMediaType",
        "contentEncoding",
    }
)
_HANDLED = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "enum",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "pattern",
        "items",
        "minItems",
        "maxItems",
    }
)


def _is_integer(x: Any) -> bool:
    if isinstance(x, bool):
        return False
    return isinstance(x, int) or (isinstance(x, float) and x.is_integer())


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


_TYPES: dict[str, Predicate] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "integer": _is_integer,
    "number": _is_number,
}


class _Unsupported(Exception):
    """The schema uses something the fast path does not model: use jsonschema."""


def fast_predicate(schema: Any, cls: Any) -> Predicate | None:
    """A plain-Python validity test equivalent to ``cls(schema).is_valid``, or None.

    ``schema`` must already have passed ``cls.check_schema``.
    """
    if cls not in _FAST_DIALECTS:
        return None
    try:
        return _node(schema, frozenset(cls.VALIDATORS), 0)
    except (_Unsupported, re.error, RecursionError, TypeError, ValueError, KeyError):
        return None


def _node(schema: Any, keywords: frozenset[str], depth: int) -> Predicate:
    if depth > 8:
        raise _Unsupported("deep")
    if schema is True:
        return lambda x: True
    if schema is False:
        return lambda x: False
    if not isinstance(schema, dict):
        raise _Unsupported("schema type")
    for key in schema:
        if key not in _HANDLED and key not in _ANNOTATIONS and key in keywords:
            raise _Unsupported(key)
    checks: list[Predicate] = []
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        tests = tuple(_TYPES[name] for name in names)
        checks.append(tests[0] if len(tests) == 1 else _any_type(tests))
    if "enum" in schema:
        options = schema["enum"]
        if not all(isinstance(o, str) for o in options):
            raise _Unsupported("enum of non-strings")  # jsonschema's equality rules differ
        checks.append(_in_enum(frozenset(options)))
    checks.extend(_number_checks(schema))
    checks.extend(_string_checks(schema))
    checks.extend(_array_checks(schema, keywords, depth))
    checks.extend(_object_checks(schema, keywords, depth))
    return _all(checks)


def _all(checks: list[Predicate]) -> Predicate:
    """One predicate that is true when every check is (unrolled for the common sizes)."""
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        a, b = checks
        return lambda x: a(x) and b(x)
    if len(checks) == 3:
        a, b, c = checks
        return lambda x: a(x) and b(x) and c(x)
    frozen = tuple(checks)

    def every(x: Any) -> bool:
        for check in frozen:  # noqa: SIM110 - a plain loop beats all(<genexpr>) here
            if not check(x):
                return False
        return True

    return every


def _any_type(tests: tuple[Predicate, ...]) -> Predicate:
    def check(x: Any) -> bool:
        return any(t(x) for t in tests)

    return check


def _in_enum(allowed: frozenset[str]) -> Predicate:
    def check(x: Any) -> bool:
        return isinstance(x, str) and x in allowed

    return check


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "minimum": lambda x, b: x >= b,
    "maximum": lambda x, b: x <= b,
    "exclusiveMinimum": lambda x, b: x > b,
    "exclusiveMaximum": lambda x, b: x < b,
}


def _bound(ok: Callable[[Any, Any], bool], bound: Any) -> Predicate:
    def check(x: Any) -> bool:
        return not _is_number(x) or ok(x, bound)

    return check


def _number_checks(schema: dict[str, Any]) -> list[Predicate]:
    out: list[Predicate] = []
    for key, ok in _COMPARE.items():
        if key in schema:
            bound = schema[key]
            if not _is_number(bound):
                raise _Unsupported(key)  # draft-4 boolean exclusive* never gets here
            out.append(_bound(ok, bound))
    return out


def _length(kind: type[str] | type[list[Any]], low: int, high: float) -> Predicate:
    def check(x: Any) -> bool:
        return not isinstance(x, kind) or low <= len(x) <= high

    return check


def _matches(search: Callable[[str], Any]) -> Predicate:
    def check(x: Any) -> bool:
        return not isinstance(x, str) or search(x) is not None

    return check


def _each(item: Predicate) -> Predicate:
    def check(x: Any) -> bool:
        return not isinstance(x, list) or all(item(v) for v in x)

    return check


def _string_checks(schema: dict[str, Any]) -> list[Predicate]:
    out: list[Predicate] = []
    if "minLength" in schema or "maxLength" in schema:
        out.append(_length(str, schema.get("minLength", 0), schema.get("maxLength", float("inf"))))
    if "pattern" in schema:
        out.append(_matches(re.compile(schema["pattern"]).search))  # jsonschema: re.search too
    return out


def _array_checks(schema: dict[str, Any], keywords: frozenset[str], depth: int) -> list[Predicate]:
    out: list[Predicate] = []
    if "items" in schema:
        items = schema["items"]
        if not isinstance(items, dict | bool):
            raise _Unsupported("tuple items")
        out.append(_each(_node(items, keywords, depth + 1)))
    if "minItems" in schema or "maxItems" in schema:
        out.append(_length(list, schema.get("minItems", 0), schema.get("maxItems", float("inf"))))
    return out


def _object_checks(schema: dict[str, Any], keywords: frozenset[str], depth: int) -> list[Predicate]:
    properties = schema.get("properties", {})
    subs = tuple((name, _node(sub, keywords, depth + 1)) for name, sub in properties.items())
    required = tuple(schema.get("required", ()))
    extra = schema.get("additionalProperties", True)
    if extra is not True and extra is not False:
        raise _Unsupported("additionalProperties schema")
    closed = frozenset(properties) if extra is False else None
    if not subs and not required and closed is None:
        return []

    # One pass per object: required keys, then unknown keys, then each present property.
    def obj(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        for key in required:
            if key not in x:
                return False
        if closed is not None:
            for key in x:
                if key not in closed:
                    return False
        for name, ok in subs:  # noqa: SIM110 - a plain loop beats all(<genexpr>) here
            if name in x and not ok(x[name]):
                return False
        return True

    return [obj]
