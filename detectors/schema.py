"""JSON Schema validation with one cached validator per schema.

A schema that is itself malformed never raises here: it is treated as
"cannot check" (``check`` returns None), because bad request data must not
crash a detector.
"""

from __future__ import annotations

import json
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from jsonschema import SchemaError
from jsonschema.exceptions import best_match
from jsonschema.validators import validator_for


@dataclass(frozen=True, slots=True)
class SchemaViolation:
    message: str
    path: str  # JSON Pointer into the instance, "" for the root


_MAX_CACHED = 512
# canonical schema text -> validator, or None for a schema that cannot be used
_BY_TEXT: OrderedDict[str, Any] = OrderedDict()
# id(schema) -> (schema, validator): a fast path when the same dict object comes back.
# Holding the schema keeps its id from being reused by another object.
_BY_ID: OrderedDict[int, tuple[Any, Any]] = OrderedDict()


def _remember(cache: OrderedDict, key: Any, value: Any) -> None:
    cache[key] = value
    if len(cache) > _MAX_CACHED:
        cache.popitem(last=False)


def validator(schema: Any) -> Any:
    """A compiled validator for ``schema``, or None when it is not a usable schema."""
    known = _BY_ID.get(id(schema))
    if known is not None and known[0] is schema:
        return known[1]
    compiled = None
    if isinstance(schema, dict):
        try:
            text = json.dumps(schema, sort_keys=True, default=str)
        except (TypeError, ValueError, RecursionError):
            text = None
        if text is not None and text in _BY_TEXT:
            compiled = _BY_TEXT[text]
        elif text is not None:
            compiled = _compile(schema)
            _remember(_BY_TEXT, text, compiled)
    _remember(_BY_ID, id(schema), (schema, compiled))
    return compiled


def _compile(schema: dict[str, Any]) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an unknown "$schema" only warns
            cls = validator_for(schema)
            cls.check_schema(schema)
            return cls(schema)
    except SchemaError:
        return None
    except Exception:  # anything else a hostile schema can provoke
        return None


def check(schema: Any, instance: Any) -> SchemaViolation | None:
    """The most relevant violation of ``schema`` by ``instance``; None when valid or uncheckable."""
    compiled = validator(schema)
    if compiled is None:
        return None
    try:
        if compiled.is_valid(instance):
            return None
        error = best_match(compiled.iter_errors(instance))
    except Exception:  # unresolvable $ref, bad regex in "pattern", recursion: cannot check
        return None
    if error is None:
        return None
    path = "".join(f"/{part}" for part in error.absolute_path)
    return SchemaViolation(message=_short(error.message), path=path)


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[:limit] + "…"
