"""One filter grammar for every command that reads stored or streamed samples.

``rates``, ``compare``, ``export``, ``review``, ``diagnose``, ``gate`` and ``tail`` take::

    --where FIELD=VALUE     repeatable; the same FIELD twice = any of, different fields = all of
    --since TIME            at or after; RFC 3339 (2026-11-01T09:00:00Z, 2026-11-01) or a
    --until TIME            relative duration back from now: 90s, 30m, 1h, 7d, 2w

FIELD is one of the names ``--by`` groups by (``FIELDS``). An unknown field, a missing ``=``
or an unreadable time is a ``LeaklineError`` whose hint lists what is accepted. Values are
bound parameters; column names come only from ``FIELDS``.

``source`` tells production traffic from gate replays (``leakline gate`` stores its replies
from a ``gate-<run id>`` topic): rate views count ``source=production`` unless asked.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from leakline.pipeline.core.errors import LeaklineError

GATE_TOPIC_PREFIX = "gate-"
SOURCE_SQL = (
    f"(CASE WHEN starts_with(src_topic, '{GATE_TOPIC_PREFIX}') THEN 'gate' ELSE 'production' END)"
)
SOURCES = ("production", "gate")

# user-facing names (event-contract spelling) -> stored column (or a SQL expression over one)
FIELDS: dict[str, str] = {
    "engine.name": "engine_name",
    "engine.version": "engine_version",
    "model.name": "model_name",
    "model.revision": "model_revision",
    "chat_template.name": "template_name",
    "chat_template.hash": "template_hash",
    "parsers.reasoning": "reasoning_parser",
    "parsers.tool_call": "tool_call_parser",
    "gateway.name": "gateway_name",
    "gateway.version": "gateway_version",
    "api": "api",
    "stream": "stream",
    "stop": "has_stop",
    "structured": "structured",
    "tools": "has_tools",
    "finish_reason": "finish_reason",
    "day": "day",  # the hive partition key of the dataset
    "source": SOURCE_SQL,
    # request configuration (``leakline.pipeline.events.request_config``)
    "thinking": "thinking",
    "reasoning_effort": "reasoning_effort",
    "tool_choice": "tool_choice",
    "tools.strict": "tools_strict",
    "response_format": "response_format_type",
    "response_format.strict": "response_format_strict",
    "temperature": "temperature_bucket",
}

# operator dimensions: ``tags.KEY`` for any KEY the event contract allows, read from the
# stored ``tags`` JSON (absent -> "unknown", like a missing version)
TAGS_PREFIX = "tags."
TAG_FIELDS_HINT = "tags.KEY (an event tag, e.g. tags.tenant)"
_TAG_KEY = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def field_column(name: str, fields: Mapping[str, str] = FIELDS) -> str | None:
    """The stored column (or SQL over one) of a ``--by``/``--where`` field, None if unknown.

    ``tags.KEY`` works wherever ``fields`` is ``FIELDS`` (the stored samples); the key is
    checked against the contract's pattern, so it is safe inside the SQL."""
    if name in fields:
        return fields[name]
    key = name[len(TAGS_PREFIX) :] if name.startswith(TAGS_PREFIX) else ""
    if fields is FIELDS and _TAG_KEY.fullmatch(key):
        return f"coalesce(json_extract_string(tags, '$.\"{key}\"'), 'unknown')"
    return None


def known_fields(fields: Mapping[str, str] = FIELDS) -> str:
    """The field names for a hint."""
    names = list(fields) + ([TAG_FIELDS_HINT] if fields is FIELDS else [])
    return ", ".join(names)


_RELATIVE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|d|w)\s*$", re.IGNORECASE)
_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
TIME_HINT = (
    "use RFC 3339 (2026-11-01T09:00:00Z or 2026-11-01) or a duration back from now: 30m, 1h, 7d"
)


def parse_time(text: str, flag: str = "--since", now: datetime | None = None) -> datetime:
    """An aware UTC datetime from RFC 3339 or a relative duration (``7d`` = 7 days ago)."""
    match = _RELATIVE.match(text)
    if match:
        seconds = float(match.group(1)) * _UNITS[match.group(2).lower()]
        return (now or datetime.now(UTC)) - timedelta(seconds=seconds)
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise LeaklineError(f"{flag} {text!r} is not a time", hint=TIME_HINT) from None
    return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


def parse_pair(
    text: str,
    flag: str = "--where",
    fields: Mapping[str, str] = FIELDS,
    bare: str | None = None,
) -> tuple[str, str]:
    """``FIELD=VALUE`` -> (field, value). ``bare`` names the field a value without ``=``
    means (``--version 0.31.0`` = engine.version); without it, ``=`` is required."""
    name, sep, value = text.partition("=")
    if not sep:
        if bare is None:
            raise LeaklineError(
                f"{flag} {text!r} is not FIELD=VALUE",
                hint="use FIELD=VALUE (e.g. engine.version=0.31.0) with FIELD one of: "
                + ", ".join(fields),
            )
        name, value = bare, text
    name, value = name.strip(), value.strip()
    if field_column(name, fields) is None:
        raise LeaklineError(
            f"unknown field {name!r} in {flag} {text!r}",
            hint="use FIELD=VALUE with FIELD one of: " + known_fields(fields),
        )
    if not value:
        raise LeaklineError(f"{flag} {text!r} has no value", hint=f"e.g. {name}=VALUE")
    return name, value


def parse_pairs(
    items: Iterable[str],
    flag: str = "--where",
    fields: Mapping[str, str] = FIELDS,
    bare: str | None = None,
) -> tuple[tuple[str, str], ...]:
    """Several ``FIELD=VALUE`` (each item may also hold a comma-separated list)."""
    pairs = []
    for item in items:
        for part in _split(item):
            pairs.append(parse_pair(part, flag, fields, bare))
    return tuple(pairs)


def _split(item: str) -> list[str]:
    # "a=1,b=2" is two pairs; "a=1,2" stays one value (a comma inside a value is kept)
    parts: list[str] = []
    for chunk in item.split(","):
        if parts and "=" not in chunk:
            parts[-1] += "," + chunk
        else:
            parts.append(chunk)
    return [p for p in parts if p.strip()]


@dataclass(frozen=True)
class Where:
    """``--where`` pairs plus a ``--since``/``--until`` window over event time (``ts``)."""

    pairs: tuple[tuple[str, str], ...] = ()
    since: datetime | None = None
    until: datetime | None = None
    fields: Mapping[str, str] = field(default_factory=lambda: FIELDS, compare=False, repr=False)

    def values(self, name: str) -> list[str]:
        return [v for n, v in self.pairs if n == name]

    def production_only(self) -> Where:
        """``source=production`` unless a ``source`` was asked for: gate replays are not
        production traffic."""
        if self.values("source"):
            return self
        return replace(self, pairs=(*self.pairs, ("source", "production")))

    def sql(self, ts: str = "ts") -> tuple[list[str], list[Any]]:
        """Conditions (to AND together) and their bound parameters."""
        conditions: list[str] = []
        params: list[Any] = []
        if self.since is not None:
            conditions.append(f"{ts} >= CAST(? AS TIMESTAMPTZ)")
            params.append(self.since.isoformat())
        if self.until is not None:
            conditions.append(f"{ts} < CAST(? AS TIMESTAMPTZ)")
            params.append(self.until.isoformat())
        grouped: dict[str, list[str]] = {}
        for name, value in self.pairs:
            grouped.setdefault(name, []).append(value)
        for name, values in grouped.items():
            column = field_column(name, self.fields)  # whitelisted by parse_pair
            conditions.append(
                "(" + " OR ".join(f"CAST({column} AS VARCHAR) = ?" for _ in values) + ")"
            )
            params.extend(_cell(v) for v in values)
        return conditions, params

    def clause(self, ts: str = "ts") -> tuple[str, list[Any]]:
        """``WHERE ...`` (or an empty string) and its parameters."""
        conditions, params = self.sql(ts)
        return ("WHERE " + " AND ".join(conditions)) if conditions else "", params

    def matches(self, values: Mapping[str, Any], ts: datetime | None = None) -> bool:
        """The same test in Python, on a row keyed by field name (for live records)."""
        if ts is not None:
            if self.since is not None and ts < self.since:
                return False
            if self.until is not None and ts >= self.until:
                return False
        grouped: dict[str, set[str]] = {}
        for name, value in self.pairs:
            grouped.setdefault(name, set()).add(_cell(value))
        return all(_cell(_value(values, n)) in vs for n, vs in grouped.items())

    def describe(self) -> str:
        parts = [f"{n}={v}" for n, v in self.pairs]
        if self.since is not None:
            parts.append(f"since {_iso(self.since)}")
        if self.until is not None:
            parts.append(f"until {_iso(self.until)}")
        return ", ".join(parts) or "everything"


def _value(values: Mapping[str, Any], name: str) -> Any:
    if name in values or not name.startswith(TAGS_PREFIX):
        return values.get(name)
    tags = values.get("tags")
    return tags.get(name[len(TAGS_PREFIX) :]) if isinstance(tags, Mapping) else None


def _cell(value: Any) -> str:
    """How a stored value reads in a filter: booleans as true/false (DuckDB's spelling)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower()
    return "unknown" if value is None else str(value)


def _iso(ts: datetime) -> str:
    return ts.isoformat(timespec="seconds").replace("+00:00", "Z")


# ------------------------------------------------------------------ argparse


def add_filter_args(
    p: argparse.ArgumentParser | argparse._ArgumentGroup,
    *,
    fields: Mapping[str, str] = FIELDS,
    times: bool = True,
    what: str = "events",
) -> None:
    """``--where`` (repeatable) and, with ``times``, ``--since``/``--until``."""
    p.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help=f"only {what} with this value, e.g. engine.version=0.31.0; repeat: the same field "
        "= any of, different fields = all of. Fields: " + ", ".join(fields),
    )
    if times:
        p.add_argument(
            "--since",
            metavar="TIME",
            help=f"only {what} at or after TIME: RFC 3339 or a duration back from now (1h, 7d)",
        )
        p.add_argument(
            "--until",
            metavar="TIME",
            help=f"only {what} before TIME: RFC 3339 or a duration back from now (1h, 7d)",
        )


def where_from_args(
    args: argparse.Namespace,
    *,
    fields: Mapping[str, str] = FIELDS,
    aliases: Sequence[tuple[str, str, str | None]] = (),
    now: datetime | None = None,
) -> Where:
    """The ``Where`` of a command's ``--where``/``--since``/``--until``; ``aliases`` adds
    older flags with the same meaning, as (attribute, flag, the field a bare value means)."""
    pairs = list(parse_pairs(getattr(args, "where", None) or (), "--where", fields))
    for attr, flag, bare in aliases:
        items = getattr(args, attr, None) or ()
        if isinstance(items, str):
            items = [items]
        pairs.extend(parse_pairs(items, flag, fields, bare))
    since = getattr(args, "since", None)
    until = getattr(args, "until", None)
    now = now or datetime.now(UTC)
    where = Where(
        tuple(pairs),
        parse_time(since, "--since", now) if since else None,
        parse_time(until, "--until", now) if until else None,
        fields,
    )
    if where.since and where.until and where.since >= where.until:
        raise LeaklineError(
            f"--since {since} is not before --until {until}", hint="the window would be empty"
        )
    return where
