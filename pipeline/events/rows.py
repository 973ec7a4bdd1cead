"""The one schema of stored samples, and the builder that fills it column by column.

Every exchange becomes one row (rates need a denominator). Full text is kept for
leaking rows and for a deterministic sample of clean ones.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import orjson
import pyarrow as pa

from leakline.detectors import Exchange, Finding, Verdict
from leakline.detectors.structured_fields import slot_values
from leakline.pipeline.events.normalise import (
    FINISH_REASONS,
    REASONING_EFFORTS,
    TOOL_CHOICES,
    in_vocabulary,
    normalise,
)
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.redact import (
    Redactor,
    SafeText,
    json_safe,
    safe_id,
    safe_label,
    secret_name,
)
from leakline.pipeline.events.request_config import DIMENSION_COLUMNS, dimensions
from leakline.pipeline.events.versions import VERSION_COLUMNS

UNKNOWN = "unknown"
SCHEMA_VERSION = 1

SAMPLE_SCHEMA = pa.schema(
    [
        ("event_id", pa.string()),
        ("ts", pa.timestamp("us", tz="UTC")),
        ("ingested_at", pa.timestamp("us", tz="UTC")),
        ("api", pa.string()),
        ("stream", pa.bool_()),
        ("engine_name", pa.string()),
        ("engine_version", pa.string()),
        ("model_name", pa.string()),
        ("model_revision", pa.string()),
        ("template_name", pa.string()),
        ("template_hash", pa.string()),
        ("reasoning_parser", pa.string()),
        ("tool_call_parser", pa.string()),
        ("gateway_name", pa.string()),
        ("gateway_version", pa.string()),
        ("has_stop", pa.bool_()),
        ("structured", pa.bool_()),
        ("has_tools", pa.bool_()),
        ("finish_reason", pa.string()),
        ("request_key", pa.string()),  # same request streamed/not, with/without stop
        ("reasoning_field", pa.string()),  # where the engine put reasoning
        ("client_reasoning_field", pa.string()),  # where the client reads it
        ("renders_phases", pa.bool_()),
        ("chunk_count", pa.int32()),
        ("first_leak_chunk", pa.int32()),  # stream chunk holding the first leaking byte
        # K2VV schema accuracy: schema-valid calls over tool-call finishes
        ("tool_call_finish", pa.bool_()),
        ("tool_calls_schema_valid", pa.bool_()),
        ("leaking", pa.bool_()),
        ("labels", pa.list_(pa.string())),
        ("sources", pa.list_(pa.string())),
        ("n_findings", pa.int32()),
        ("findings", pa.string()),  # JSON list of Finding.to_dict()
        ("suggested_remediation", pa.list_(pa.string())),
        ("layers", pa.list_(pa.string())),
        ("detector_versions", pa.string()),  # JSON object id -> version
        ("classifier_version", pa.string()),
        ("remediation_action", pa.string()),
        ("remediation_outcome", pa.string()),
        ("remediation_attempts", pa.int64()),
        ("remediation_extra_tokens", pa.int64()),
        ("text_stored", pa.bool_()),
        ("visible_text", pa.string()),
        ("reasoning_text", pa.string()),
        ("src_topic", pa.string()),
        ("src_partition", pa.int32()),
        ("src_offset", pa.int64()),
        ("worker_id", pa.string()),
        ("schema_version", pa.int16()),
        # the whole gateway event, redacted like the text, for text-stored rows only:
        # regression cases replay it (``leakline export --regression``)
        ("event_json", pa.string()),
        # request configuration as dimensions (``leakline.pipeline.events.request_config``)
        ("thinking", pa.string()),  # on | off | default
        ("reasoning_effort", pa.string()),
        ("thinking_budget", pa.int64()),
        ("include_reasoning", pa.bool_()),
        ("tool_choice", pa.string()),  # auto | none | required | named | default | no_tools
        ("tools_strict", pa.string()),  # all | some | none | no_tools
        ("response_format_type", pa.string()),  # text | json_object | json_schema
        ("response_format_strict", pa.bool_()),
        ("temperature_bucket", pa.string()),
        # in-schema reasoning slots of a structured answer, JSON {path: value}, redacted;
        # observational data, kept whenever the row keeps text
        ("reasoning_slots", pa.string()),
        # operator dimensions: the event's tags as JSON {key: value}, values redacted like
        # text (``--by tags.KEY``); token counts and the gateway's latency
        ("tags", pa.string()),
        ("prompt_tokens", pa.int64()),
        ("completion_tokens", pa.int64()),
        ("reasoning_tokens", pa.int64()),
        ("latency_ms", pa.float64()),
        # the detectors did not read all of this event (detectors/budget.py): "chars",
        # "budget:<skipped detector ids>", or both joined by ";"; null when they did
        ("detection_cut", pa.string()),
    ]
)

# a larger event is not kept whole (its row still holds the text and findings)
EVENT_JSON_MAX_BYTES = 1 << 20
# Integer and float columns hold counts and times, bounded to what they can be: a client
# that puts a card number (16 digits) or a phone number (10+) in ``thinking_budget`` or
# ``usage`` gets NULL stored. The largest context windows are 10M tokens; a gateway call
# lasts less than a day; a remediation retries a handful of times.
MAX_TOKENS = 10_000_000
MAX_LATENCY_MS = 86_400_000.0
MAX_ATTEMPTS = 1_000
# the event's members that ``event_json`` keeps (the contract's properties): anything else
# at the top level is not part of an exchange and is not stored
EVENT_MEMBERS = frozenset(
    {
        "event_id", "ts", "api", "stream", "request", "response", "chunks", "engine", "model",
        "chat_template", "parsers", "gateway", "client", "remediation", "tags", "usage",
        "latency_ms",
    }
)  # fmt: skip
# event fields the row stores in columns of their own (ids, times, versions): not redacted
# as text (a version that looks like a phone number must survive), but every string in them
# must pass ``safe_label`` like the columns do (``_safe_plain``)
_PLAIN_FIELDS = (
    "event_id",
    "ts",
    "api",
    "stream",
    "engine",
    "model",
    "chat_template",
    "parsers",
    "gateway",
    "client",
    "remediation",
)


def keep_text(event_id: str, leaking: bool, clean_rate: float) -> bool:
    """Leaking rows always keep text; clean rows by a hash of the id, so a
    redelivered event gets the same decision."""
    if leaking:
        return True
    if clean_rate <= 0:
        return False
    below = _KEEP_BELOW.get(clean_rate)
    if below is None:
        if len(_KEEP_BELOW) >= 16:  # a worker has one rate; a caller trying many stays bounded
            _KEEP_BELOW.clear()
        below = _KEEP_BELOW[clean_rate] = _keep_below(clean_rate)
    # big-endian bytes of one length compare as the integers they spell
    return hashlib.blake2b(event_id.encode(), digest_size=8).digest() < below


# clean_rate -> _keep_below(clean_rate)
_KEEP_BELOW: dict[float, bytes] = {}


def _keep_below(clean_rate: float) -> bytes:
    """The 8-byte hash values that keep their text are those below this one.

    The rule is ``int(digest) / 2**64 < clean_rate`` (a float division); it holds
    for every value below a threshold, found here once by bisection with that very
    expression, so the decisions are the same bit for bit. The per-row float
    division of a 64-bit integer cost more than the hash (issue 19)."""
    lo, hi = 0, 2**64
    while lo < hi:
        mid = (lo + hi) // 2
        if mid / 2**64 < clean_rate:
            lo = mid + 1
        else:
            hi = mid
    # a rate above every value keeps all: nine bytes compare above any eight
    return lo.to_bytes(8, "big") if lo < 2**64 else b"\xff" * 9


def findings_to_json(findings: Sequence[Finding]) -> str:
    """Findings as JSON. Rescued tool-call arguments may hold integers beyond 64 bits or
    nesting orjson refuses; those are made storable rather than failing the batch."""
    dicts = [f.to_dict() for f in findings]
    try:
        return orjson.dumps(dicts).decode()
    except TypeError:  # orjson.JSONEncodeError
        return orjson.dumps(json_safe(dicts)).decode()


def first_leak_chunk(exchange: Exchange, verdict: Verdict) -> int | None:
    """Index of the stream chunk that carried the first leaking visible byte.

    Counts only chunks with visible text, in arrival order; None when not streamed
    or when no finding has a span.
    """
    pieces = exchange.stream_facts.visible_pieces
    starts = [f.span[0] for f in verdict.findings if f.span is not None]
    if not pieces or not starts:
        return None
    first, offset = min(starts), 0
    for index, piece in enumerate(pieces):
        offset += len(piece)
        if first < offset:
            return index
    return len(pieces) - 1


def parse_ts(value: Any, fallback: datetime) -> datetime:
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return fallback
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return fallback


def _latency(value: Any) -> float | None:
    ok = type(value) in (int, float) and 0 <= value <= MAX_LATENCY_MS
    return float(value) if ok else None


def _remediation(event: dict[str, Any]) -> dict[str, Any]:
    value = event.get("remediation")
    return value if isinstance(value, dict) else {}


class RowBuilder:
    """Accumulates rows; ``columns`` and ``table()`` give them column by column.

    Each row is kept as one tuple in ``SAMPLE_SCHEMA`` order and the columns are made
    by one transpose when asked for: ~70 list appends per row cost more than the rest
    of building a clean row (issue 19)."""

    def __init__(
        self, worker_id: str, clean_text_rate: float, redactor: Redactor | None = None
    ) -> None:
        self.worker_id = worker_id
        self.clean_text_rate = clean_text_rate
        # nothing is stored unredacted unless the caller passes Redactor.raw() on purpose
        self.redactor = redactor if redactor is not None else Redactor.default()
        # rows as added; None for rows that came as a table (``from_table``)
        self._rows: list[tuple[Any, ...]] | None = []
        self._columns: dict[str, list[Any]] | None = None
        # rows that came as an Arrow table (``from_table``), until more are added
        self._table: pa.Table | None = None
        # the JSON of the last detector-versions dict seen: verdicts share one dict
        self._versions_json: tuple[dict[str, str], str] | None = None

    @classmethod
    def from_table(cls, worker_id: str, clean_text_rate: float, table: pa.Table) -> RowBuilder:
        """Rows that arrive as an Arrow table (a batch child's): ``table()`` is that table,
        and ``columns`` are made from it only if someone asks."""
        if table.schema != SAMPLE_SCHEMA:
            raise ValueError("table does not match SAMPLE_SCHEMA")
        built = cls(worker_id, clean_text_rate)
        built._rows, built._table = None, table
        return built

    @property
    def columns(self) -> dict[str, list[Any]]:
        """The rows as one list per ``SAMPLE_SCHEMA`` column (read-only by convention)."""
        if self._columns is None and self._table is not None:
            self._columns = self._table.to_pydict()
        if self._columns is None:
            rows = self._rows or []
            if rows:
                lists = [list(values) for values in zip(*rows, strict=True)]
            else:
                lists = [[] for _ in SAMPLE_SCHEMA.names]
            self._columns = dict(zip(SAMPLE_SCHEMA.names, lists, strict=True))
        return self._columns

    def __len__(self) -> int:
        if self._table is not None:
            return int(self._table.num_rows)
        if self._columns is not None:
            return len(self._columns["event_id"])
        return len(self._rows or ())

    def _detector_versions(self, versions: dict[str, str]) -> str:
        cached = self._versions_json
        if cached is not None and cached[0] is versions:
            return cached[1]
        text = orjson.dumps(versions, option=orjson.OPT_SORT_KEYS).decode()
        self._versions_json = (versions, text)
        return text

    def add(
        self,
        event: dict[str, Any],
        exchange: Exchange,
        verdict: Verdict,
        origin: Origin,
        now: datetime,
        classifier_version: str | None = None,
        clean_keep: bool | None = None,
    ) -> SafeText | None:
        """Add one row. Returns the redacted text and findings that were stored, if any.

        ``clean_keep``: ``keep_text(event_id, False, clean_text_rate)`` when the caller
        has it already (``process_batch`` decides it right after detection)."""
        versions = exchange.versions
        rem = _remediation(event)
        findings = verdict.findings
        if verdict.leaking:
            stored = True
        elif clean_keep is None:
            stored = keep_text(exchange.event_id, False, self.clean_text_rate)
        else:
            stored = clean_keep
        # findings carry evidence snippets, so they are redacted whenever there are any
        redact = stored or bool(findings)
        safe = self.redactor.redact_exchange(exchange, findings) if redact else None
        # everything that can fail is computed before the row is added: all or nothing
        findings_json = (
            findings_to_json(safe.findings if safe is not None else findings) if findings else "[]"
        )
        event_json = stored_event_json(event, self.redactor, exchange, safe) if stored else None
        tags_json = self._tags(event)
        tool_finish = exchange.finish_reason == "tool_calls" and bool(exchange.tool_calls)
        dims = dimensions(exchange)
        # free-form words the client or engine chose: a known word or "other"
        dims["reasoning_effort"] = in_vocabulary(dims["reasoning_effort"], REASONING_EFFORTS)
        dims["tool_choice"] = in_vocabulary(dims["tool_choice"], TOOL_CHOICES)
        dims["thinking_budget"] = _int_or_none(dims["thinking_budget"], MAX_TOKENS)
        usage = event.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        kept = safe is not None and stored
        row = (
            safe_id(exchange.event_id, self.redactor),
            parse_ts(event.get("ts"), now),
            now,
            exchange.api,
            exchange.stream,
            *[getattr(versions, name) or UNKNOWN for name in VERSION_COLUMNS],
            bool(exchange.stop),
            exchange.structured,
            exchange.has_tools,
            in_vocabulary(exchange.finish_reason or UNKNOWN, FINISH_REASONS),
            exchange.request_key,
            exchange.reasoning_field,
            _label_or_none(exchange.client_reasoning_field),
            exchange.renders_phases,
            exchange.stream_facts.chunk_count if exchange.stream else None,
            first_leak_chunk(exchange, verdict) if findings else None,
            tool_finish,
            (tool_finish and "tool_args_invalid" not in verdict.labels) if tool_finish else None,
            verdict.leaking,
            list(verdict.labels),
            sorted({f.source.value for f in findings}) if findings else [],
            len(findings),
            findings_json,
            sorted({f.remediation.value for f in findings}) if findings else [],
            sorted({f.layer.value for f in findings}) if findings else [],
            self._detector_versions(verdict.detector_versions),
            classifier_version,
            _label_or_none(rem.get("action")),
            _label_or_none(rem.get("outcome")),
            _int_or_none(rem.get("attempts"), MAX_ATTEMPTS),
            _int_or_none(rem.get("extra_tokens"), MAX_TOKENS),
            stored,
            safe.visible_text if kept else None,  # type: ignore[union-attr]
            safe.reasoning_text if kept else None,  # type: ignore[union-attr]
            origin.topic,
            origin.partition,
            origin.offset,
            self.worker_id,
            SCHEMA_VERSION,
            event_json,
            *[dims[name] for name in DIMENSION_COLUMNS],
            self._slots(exchange) if stored and exchange.response_format is not None else None,
            tags_json,
            _int_or_none(usage.get("prompt_tokens"), MAX_TOKENS),
            _int_or_none(usage.get("completion_tokens"), MAX_TOKENS),
            _int_or_none(usage.get("reasoning_tokens"), MAX_TOKENS),
            _latency(event.get("latency_ms")),
            verdict.cut or None,
        )
        if self._rows is None:  # more rows after ``from_table``: back to row form
            self._rows = [tuple(r) for r in zip(*self.columns.values(), strict=True)]
        self._rows.append(row)
        self._columns = self._table = None
        return safe

    def _tags(self, event: dict[str, Any]) -> str | None:
        tags = event.get("tags")
        if not isinstance(tags, dict) or not tags:
            return None
        safe = self.redactor.redact_value(tags)  # a tag value may hold an e-mail or a key
        return orjson.dumps(safe, option=orjson.OPT_SORT_KEYS).decode()

    def _slots(self, exchange: Exchange) -> str | None:
        slots = slot_values(exchange)
        if not slots:
            return None
        try:
            safe = self.redactor.redact_value(slots)
            return orjson.dumps(safe).decode()
        except Exception:  # hostile shapes: keep the row, not the slots
            return None

    def table(self) -> pa.Table:
        if self._table is not None:
            return self._table
        return pa.table(self.columns, schema=SAMPLE_SCHEMA)


def stored_event_json(
    event: dict[str, Any],
    redactor: Redactor,
    exchange: Exchange | None = None,
    safe: SafeText | None = None,
) -> str | None:
    """The event as JSON with every string (and key) redacted by ``redactor``.

    None when it is too large, or when a streamed event hides a secret across chunk
    boundaries: chunks are redacted one by one, so the reassembled texts are checked
    again and the event is dropped rather than stored with a secret in it. This copy
    is best effort: it never costs the row itself.
    """
    try:
        return _event_json(event, redactor, exchange, safe)
    except Exception:  # hostile shapes (deep nesting, huge numbers): keep the row, not the copy
        return None


def _event_json(
    event: dict[str, Any], redactor: Redactor, exchange: Exchange | None, safe: SafeText | None
) -> str | None:
    if not EVENT_MEMBERS.issuperset(event):  # unknown top-level members are not kept
        event = {k: v for k, v in event.items() if k in EVENT_MEMBERS}
    plain = _safe_plain(event, redactor) if redactor.enabled else {}
    changed = _may_need_redaction(event, redactor)
    if changed:
        redacted = redactor.redact_value(event)
        # the row keeps these in its own columns; a version string or an id that merely
        # looks like a number must survive so the case replays faithfully
        redacted.update({k: event[k] for k in _PLAIN_FIELDS if k in event})
        redacted.update(plain)
    elif plain:
        redacted = {**event, **plain}
    else:
        redacted = event
    # keys stay in the recorded order: a JSON Schema's property order is the order an engine
    # writes them in (reasoning slots before the answer), which a replayed case must keep
    try:
        raw = orjson.dumps(redacted)
    except TypeError:  # orjson.JSONEncodeError: too deep, or an integer beyond 64 bits
        raw = orjson.dumps(json_safe(redacted))
    if len(raw) > EVENT_JSON_MAX_BYTES:
        return None
    if redactor.enabled and event.get("chunks") is not None:
        # chunks are redacted one by one: a secret cut in two by a chunk boundary is
        # missed, or only its first part is replaced. The stored chunks must reassemble
        # into exactly the texts that redacting the whole texts gives, else no copy.
        if exchange is None:
            exchange = normalise(event)
        again = exchange if not changed else normalise(orjson.loads(raw))
        if safe is not None:
            whole = [safe.visible_text, safe.reasoning_text]
        else:
            whole = [redactor.redact_text(exchange.visible_text)]
            whole.append(redactor.redact_text(exchange.reasoning_text))
        whole.append(redactor.redact_text(exchange.commentary_text))
        whole += [redactor.redact_text(call.arguments) for call in exchange.tool_calls]
        stored = [again.visible_text, again.reasoning_text, again.commentary_text]
        stored += [call.arguments for call in again.tool_calls]
        if stored != whole:
            return None
    return raw.decode()


# strings already found secret-free, per rule set: system prompts, tool schemas and keys
# repeat across events, so most of an event is known clean after the first few
_CLEAN_CACHE: dict[tuple[str, ...], dict[str, None]] = {}
_CLEAN_CACHE_MAX = 50_000
_CLEAN_CACHE_MAX_LEN = 8_192
_MAX_SCAN_DEPTH = 64


def _may_need_redaction(event: dict[str, Any], redactor: Redactor) -> bool:
    """Whether any string in the event would change. Most events hold no secret, and
    one scan over all new strings joined by NUL (no rule matches across it) is far
    cheaper than redacting a few hundred chunk deltas one by one."""
    if not redactor.enabled:
        return False
    pieces: list[str] = []
    for key, value in event.items():
        if key in _PLAIN_FIELDS:
            continue
        pieces.append(key)
        if not _collect_strings(value, pieces, 0):
            return True  # unusually deep: let the full pass (which caps depth) decide
    known = _CLEAN_CACHE.setdefault(redactor.names, {})
    # known strings first, then duplicates: most strings are known, and a lookup costs
    # less than an insert (same strings, same order as deduplicating first)
    fresh = list(dict.fromkeys([p for p in pieces if p not in known]))
    if not fresh:
        return False
    # a member named like a secret is replaced whole whatever its value: never cached clean
    if any(secret_name(p) for p in fresh):
        return True
    joined = "\x00".join(fresh)
    # cut guards look at a string's own start and end: leave those to the full pass
    if "\u2026" in joined or redactor.redact(joined).changed:
        return True
    if len(known) + len(fresh) > _CLEAN_CACHE_MAX:
        known.clear()
    known.update((p, None) for p in fresh if len(p) <= _CLEAN_CACHE_MAX_LEN)
    return False


def _collect_strings(value: Any, out: list[str], depth: int) -> bool:
    """Append every string, key and long integer; False when nesting is too deep."""
    if depth >= _MAX_SCAN_DEPTH - 2:
        return _collect_strings_deep(value, out, depth)
    # The strings of a container and of the containers in it are taken here, not by a
    # call each: most of an event is stream chunks, dicts of lists of dicts of strings.
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            out.append(key if type(key) is str else str(key))
            if type(item) is str:
                out.append(item)
            elif not _collect_inner(item, out, depth + 1):
                return False
    elif kind is list:
        for item in value:
            if type(item) is str:
                out.append(item)
            elif not _collect_inner(item, out, depth + 1):
                return False
    else:
        return _collect_strings_deep(value, out, depth)
    return True


def _collect_inner(value: Any, out: list[str], depth: int) -> bool:
    """``_collect_strings`` for a value in a container: its own strings without a call each."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            out.append(key if type(key) is str else str(key))
            kind = type(item)
            if kind is str:
                out.append(item)
            elif (
                kind is dict or kind is list or (kind is int and not -1_000_000 < item < 1_000_000)
            ) and not _collect_strings(item, out, depth + 1):
                return False
    elif kind is list:
        for item in value:
            kind = type(item)
            if kind is str:
                out.append(item)
            elif (
                kind is dict or kind is list or (kind is int and not -1_000_000 < item < 1_000_000)
            ) and not _collect_strings(item, out, depth + 1):
                return False
    elif kind is int and not -1_000_000 < value < 1_000_000:
        return _collect_strings_deep(value, out, depth)
    return True


def _collect_strings_deep(value: Any, out: list[str], depth: int) -> bool:
    """``_collect_strings`` near the depth limit, where any value one level too deep,
    even a string, makes the walk give up."""
    if depth > _MAX_SCAN_DEPTH:
        return False
    kind = type(value)
    if kind is str:
        out.append(value)
    elif kind is dict:
        for key, item in value.items():
            out.append(key if type(key) is str else str(key))
            if not _collect_strings_deep(item, out, depth + 1):
                return False
    elif kind is list:
        for item in value:
            if not _collect_strings_deep(item, out, depth + 1):
                return False
    elif kind is int and not -1_000_000 < value < 1_000_000:
        if value.bit_length() > 4000:
            return False
        out.append(str(value))
    return True


def safe_ts(value: Any) -> str | None:
    """The event's ``ts`` when it is a time (the contract does not check the format), else
    None: published samples carry it as the client wrote it."""
    return value if type(value) is str and _is_time(value) else None


def _is_time(value: str) -> bool:
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _label_or_none(value: Any) -> str | None:
    return safe_label(value) if isinstance(value, str) and value else None


def _safe_plain(event: dict[str, Any], redactor: Redactor) -> dict[str, Any]:
    """The plain fields whose copy in ``event_json`` must change: every string in the
    version objects (known members or not), ``ts`` and the remediation words pass
    ``safe_label``; nested values are redacted as text."""
    out: dict[str, Any] = {}
    event_id = event.get("event_id")
    if type(event_id) is str and safe_id(event_id, redactor) != event_id:
        out["event_id"] = safe_id(event_id, redactor)
    ts = event.get("ts")
    # a time first: ts is unique per event, so safe_label would scan every one of them
    if type(ts) is str and ts and not _is_time(ts) and safe_label(ts) != ts:
        out["ts"] = safe_label(ts)
    for key in ("engine", "model", "chat_template", "parsers", "gateway", "client", "remediation"):
        obj = event.get(key)
        if type(obj) is not dict:
            continue
        clean: dict[str, Any] = {}
        for name, value in obj.items():
            if type(name) is not str or safe_label(name) != name:
                continue  # a key that is not a name is dropped, never stored
            if type(value) is str:
                clean[name] = safe_label(value) if value else value
            elif value is None or type(value) is bool:
                clean[name] = value
            else:  # numbers too: a card number is a number ("attempts": 4111111111111111)
                clean[name] = redactor.redact_value(value)
        if clean != obj:
            out[key] = clean
    return out


def _int_or_none(value: Any, most: int = 2**63 - 1) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most:
        return value
    return None
