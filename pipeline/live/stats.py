"""Live statistics: per-batch ``leak.stats`` records (contract 3) and their windowed sums.

The worker turns every processed batch into one record per distinct version key and
publishes them to ``leak.stats``. The dashboard's Faust table keeps those counts in
one-minute buckets; a rolling window (5 min, 1 h, 24 h) is the sum of its buckets, so
the dashboard never scans the store. Everything here is pure (no Kafka, no Faust) so
the arithmetic is tested without a broker.

Two time bases (``BASES``): a record's counts are placed at its ``ts`` (when the batch
was processed: **ingest** time), and its optional ``minutes`` field splits the same
events by the minute of their own ``ts`` (**event** time, what the store's ``ts`` column
and ``rates --since`` use). The dashboard shows event time unless asked otherwise.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

from leakline.pipeline.events.process import BatchResult
from leakline.pipeline.events.versions import VERSION_KEY_COLUMNS
from leakline.pipeline.query.stats import two_proportion, wilson

STATS_VERSION = 1
UNKNOWN = "unknown"
DIMS = VERSION_KEY_COLUMNS  # the version key (contract 3)
UNKNOWN_KEY = "|".join([UNKNOWN] * len(DIMS))
OTHER = "other"

BUCKET_S = 60  # one tumbling bucket per minute
RETENTION_S = 24 * 3600  # buckets expire after the longest window
WINDOWS: dict[str, int] = {"5m": 300, "1h": 3600, "24h": 86400}
# read from the store (read-only DuckDB) in hourly buckets, when the worker wires it in
HISTORY_WINDOWS: dict[str, int] = {"7d": 7 * 86400, "30d": 30 * 86400}
HISTORY_BUCKET_S = 3600
# "event": the event's own ts (the store's basis, the default); "ingest": when processed
BASES = ("event", "ingest")
DEFAULT_BASIS = "event"

Counts = dict[str, Any]  # {"total", "leaking", "labels": {label: n}, "dead_lettered"}


def empty_counts() -> Counts:
    return {"total": 0, "leaking": 0, "labels": {}, "dead_lettered": 0}


def add_counts(a: Mapping[str, Any] | None, b: Mapping[str, Any]) -> Counts:
    """A new counts dict: ``a + b`` (Faust table values are replaced, never mutated)."""
    out = empty_counts()
    for part in (a or {}, b):
        out["total"] += int(part.get("total", 0) or 0)
        out["leaking"] += int(part.get("leaking", 0) or 0)
        out["dead_lettered"] += int(part.get("dead_lettered", 0) or 0)
        for label, n in (part.get("labels") or {}).items():
            out["labels"][label] = out["labels"].get(label, 0) + int(n)
    return out


def _clean(value: Any) -> str:
    # "|" is the key separator; a version string holding one must not shift the fields
    text = value if isinstance(value, str) and value else UNKNOWN
    return text.replace("|", "/")


def version_key(dims: Mapping[str, Any]) -> str:
    return "|".join(_clean(dims.get(name)) for name in DIMS)


def dims_of(key: str) -> dict[str, str]:
    parts = key.split("|")
    if len(parts) != len(DIMS):
        return {name: (OTHER if key == OTHER else UNKNOWN) for name in DIMS}
    return dict(zip(DIMS, parts, strict=True))


def rfc3339(ts: datetime) -> str:
    return ts.astimezone(UTC).isoformat().replace("+00:00", "Z")


def parse_time(text: Any) -> float | None:
    if not isinstance(text, str):
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()


@dataclass(frozen=True, slots=True)
class StatsRecord:
    """One contract-3 record: counts of one version key in one batch.

    ``minutes``: the same counts split by the minute of each event's own ``ts`` (epoch
    seconds of the minute's start), for the event-time basis. Optional in the contract:
    a reader that ignores it sees the ingest-time counts, as before.
    """

    key: str
    worker_id: str
    ts: str
    counts: Counts
    minutes: tuple[tuple[float, Counts], ...] = ()

    def value(self) -> dict[str, Any]:
        out = {
            "v": STATS_VERSION,
            "worker_id": self.worker_id,
            "ts": self.ts,
            "dims": dims_of(self.key),
            **self.counts,
        }
        if self.minutes:
            out["minutes"] = [[start, counts] for start, counts in self.minutes]
        return out

    def encode(self) -> tuple[bytes, bytes]:
        return self.key.encode(), orjson.dumps(self.value())


def _count_row(counts: Counts, leaking: bool, labels: Iterable[str]) -> None:
    counts["total"] += 1
    if leaking:
        counts["leaking"] += 1
    for label in labels:
        counts["labels"][label] = counts["labels"].get(label, 0) + 1


def event_minute(ts: Any, now: float) -> float | None:
    """The minute an event is counted in on the event-time basis: the minute of its
    ``ts``; a ``ts`` in the future counts now (a clock ahead of ours); one older than the
    live retention (24 h) is left to the store's history (None)."""
    t = ts.timestamp() if isinstance(ts, datetime) else parse_time(ts)
    if t is None or t > now:
        t = now
    if t < now - RETENTION_S:
        return None
    return bucket_start(t)


def batch_stats(result: BatchResult, worker_id: str, now: datetime) -> list[StatsRecord]:
    """One record per distinct version key in the batch; dead letters on the unknown key.

    Each record also splits its counts by event minute (``minutes``); dead letters have
    no event time and are placed at ``now``.
    """
    cols = result.rows.columns
    now_s = now.timestamp()
    per_key: dict[str, Counts] = {}
    per_minute: dict[str, dict[float, Counts]] = {}
    # a batch holds few version sets: each one's key is built once (issue 19)
    keys: dict[tuple[Any, ...], str] = {}
    dims_of_rows = zip(*(cols[name] for name in DIMS), strict=True)
    rows = zip(dims_of_rows, cols["leaking"], cols["labels"], cols["ts"], strict=True)
    for dims, leaking, labels, ts in rows:
        key = keys.get(dims)
        if key is None:
            key = keys[dims] = version_key(dict(zip(DIMS, dims, strict=True)))
        _count_row(per_key.setdefault(key, empty_counts()), leaking, labels)
        minute = event_minute(ts, now_s)
        if minute is not None:
            slot = per_minute.setdefault(key, {})
            _count_row(slot.setdefault(minute, empty_counts()), leaking, labels)
    if result.dead_letters:
        per_key.setdefault(UNKNOWN_KEY, empty_counts())["dead_lettered"] += len(result.dead_letters)
        dead = per_minute.setdefault(UNKNOWN_KEY, {}).setdefault(
            bucket_start(now_s), empty_counts()
        )
        dead["dead_lettered"] += len(result.dead_letters)
    ts = rfc3339(now)
    return [
        StatsRecord(key, worker_id, ts, counts, tuple(sorted(per_minute.get(key, {}).items())))
        for key, counts in sorted(per_key.items())
    ]


def parse_stats(value: Any) -> StatsRecord | None:
    """A record read back from ``leak.stats`` (bytes or decoded JSON); None if not v1."""
    if isinstance(value, bytes | bytearray | memoryview):
        try:
            value = orjson.loads(value)
        except orjson.JSONDecodeError:
            return None
    if not isinstance(value, dict) or value.get("v") != STATS_VERSION:
        return None
    dims = value.get("dims")
    if not isinstance(dims, dict):
        return None
    counts = add_counts(None, value)
    minutes = []
    raw_minutes = value.get("minutes")
    for item in raw_minutes if isinstance(raw_minutes, list) else ():
        try:
            start, part = float(item[0]), item[1]
        except (TypeError, ValueError, IndexError):
            continue
        if isinstance(part, dict):
            minutes.append((start, add_counts(None, part)))
    return StatsRecord(
        version_key(dims),
        str(value.get("worker_id", "")),
        str(value.get("ts")),
        counts,
        tuple(minutes),
    )


# ---------------------------------------------------------------- windows over buckets

Buckets = Mapping[str, Mapping[float, Mapping[str, Any]]]  # key -> bucket start -> counts


def bucket_start(ts: float, size: int = BUCKET_S) -> float:
    return float(int(ts // size) * size)


def buckets_from_items(items: Iterable[tuple[Any, Any]]) -> dict[str, dict[float, Counts]]:
    """Faust windowed-table items ``((key, (start, end)), counts)`` as key -> start -> counts.

    Keys come back as lists after a changelog recovery (JSON), so both shapes are read.
    """
    out: dict[str, dict[float, Counts]] = {}
    for raw_key, counts in items:
        try:
            key, window = raw_key
            start = float(window[0])
        except (TypeError, ValueError, IndexError):
            continue
        if isinstance(key, str) and isinstance(counts, dict):
            slot = out.setdefault(key, {})
            # table values are replaced, never mutated: shared until two must be summed
            slot[start] = counts if start not in slot else add_counts(slot[start], counts)
    return out


# the live table holds both bases: event-time buckets under "event|" + version key (seven
# "|"-separated fields; a version key has six, so the two never collide)
EVENT_PREFIX = "event|"


def basis_buckets(buckets: Buckets, basis: str) -> Buckets:
    """The buckets of one basis out of the live table's (both bases in one table)."""
    if basis == "event":
        n = len(EVENT_PREFIX)
        return {k[n:]: v for k, v in buckets.items() if k.startswith(EVENT_PREFIX)}
    return {k: v for k, v in buckets.items() if not k.startswith(EVENT_PREFIX)}


# ---------------------------------------------------------------- bounded cardinality

# version keys the live table keeps (issue 36): the busiest by volume; the rest are folded
# into OTHER. Admission lets in up to ADMIT_FACTOR x the cap between two compactions, so
# a new version gets a slot at once and keeps it at the next compaction if it is busy.
DEFAULT_MAX_VERSIONS = 200
ADMIT_FACTOR = 2
COMPACT_EVERY_S = 10.0  # compaction and the regression pass run this often


def key_volume(per_bucket: Mapping[float, Mapping[str, Any]]) -> int:
    """Events of one key over its buckets (dead letters count: they are traffic too)."""
    return sum(
        int(c.get("total", 0) or 0) + int(c.get("dead_lettered", 0) or 0)
        for c in per_bucket.values()
    )


def busiest(volumes: Mapping[str, int], cap: int) -> set[str]:
    """The ``cap`` keys with the most volume (ties by key, so the choice is stable);
    OTHER is never one of them: it is where the rest goes."""
    ranked = sorted((k for k in volumes if k != OTHER), key=lambda k: (-volumes[k], k))
    return set(ranked[:cap])


def cap_buckets(buckets: Buckets, cap: int) -> Buckets:
    """At most ``cap`` version keys plus OTHER: the busiest keys as they are, every other
    key's buckets summed into OTHER's, bucket by bucket (no event leaves the totals)."""
    extra = [k for k in buckets if k != OTHER]
    if len(extra) <= cap:
        return buckets
    kept = busiest({k: key_volume(buckets[k]) for k in extra}, cap)
    out: dict[str, Mapping[float, Mapping[str, Any]]] = {k: buckets[k] for k in kept}
    other: dict[float, Counts] = {s: add_counts(None, c) for s, c in buckets.get(OTHER, {}).items()}
    for key in extra:
        if key not in kept:
            for start, counts in buckets[key].items():
                other[start] = add_counts(other.get(start), counts)
    out[OTHER] = other
    return out


def _version_of(name: str) -> str:
    """The version key of a live table key (either basis)."""
    return name[len(EVENT_PREFIX) :] if name.startswith(EVENT_PREFIX) else name


class LiveCap:
    """Bounds the version keys of the live table (both bases follow their version key).

    ``route`` is the per-record admission (one set lookup): a known key keeps its own
    entries; a new one is admitted while fewer than ``ADMIT_FACTOR * cap`` are, else its
    counts go to OTHER. ``compact`` (on a timer) keeps the ``cap`` busiest keys of the
    table and moves every entry of the others into OTHER's entry of the same window:
    a table restored with 20,000 versions is back to ``cap`` at the first compaction.
    """

    def __init__(self, cap: int = DEFAULT_MAX_VERSIONS) -> None:
        if cap < 1:
            raise ValueError("the live version cap must be at least 1")
        self.cap = cap
        self.admitted: set[str] = set()
        self.routed_to_other = 0  # records folded at admission
        self.folded_keys = 0  # version keys folded by compactions

    def route(self, key: str) -> str:
        if key in self.admitted:
            return key
        if len(self.admitted) < ADMIT_FACTOR * self.cap:
            self.admitted.add(key)
            return key
        self.routed_to_other += 1
        return OTHER

    def compact(
        self, data: MutableMapping[Any, Any], items: Iterable[tuple[Any, Any]] | None = None
    ) -> int:
        """Fold the keys beyond the cap into OTHER in ``data`` (the table:
        ``(name, (start, end)) -> counts``; ``items``: its entries, read from the store
        underneath when given). Returns the version keys folded."""
        entries: dict[str, list[tuple[Any, Any]]] = {}
        volumes: dict[str, int] = {}
        for raw_key, counts in list(data.items() if items is None else items):
            try:
                name, window = raw_key
            except (TypeError, ValueError):
                continue
            if not isinstance(name, str) or not isinstance(counts, Mapping):
                continue
            version = _version_of(name)
            entries.setdefault(version, []).append((raw_key, counts))
            if not name.startswith(EVENT_PREFIX):  # volume on one basis: no double count
                volumes[version] = volumes.get(version, 0) + key_volume({0.0: counts})
            else:
                volumes.setdefault(version, 0)
        kept = busiest(volumes, self.cap)
        folded = [v for v in entries if v not in kept and v != OTHER]
        for version in folded:
            for raw_key, counts in entries[version]:
                name, window = raw_key
                target = (EVENT_PREFIX + OTHER if name.startswith(EVENT_PREFIX) else OTHER, window)
                data[target] = add_counts(data.get(target), counts)
                del data[raw_key]
        self.admitted = kept
        self.folded_keys += len(folded)
        return len(folded)


def buckets_from_rows(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[float, Counts]]:
    """Store history rows (version columns, ``bucket``, counts) as key -> start -> counts."""
    out: dict[str, dict[float, Counts]] = {}
    for row in rows:
        slot = out.setdefault(version_key(row), {})
        start = float(row["bucket"])
        slot[start] = add_counts(slot.get(start), row)
    return out


def first_seen(buckets: Buckets) -> dict[str, float]:
    """Per key, the start of its earliest bucket with events."""
    out = {}
    for key, per_bucket in buckets.items():
        starts = [start for start, counts in per_bucket.items() if counts.get("total")]
        if starts:
            out[key] = min(starts)
    return out


# what may change between a version key and the one it replaces, for the same model
REPLACEABLE = {
    "engine": ("engine_name", "engine_version"),
    "template": ("template_name",),
    "reasoning_parser": ("reasoning_parser",),
    "tool_call_parser": ("tool_call_parser",),
}
REGRESSION_ALPHA = 0.01
REGRESSION_MIN_EVENTS = 30  # per side: below this the z-test is not trusted


def version_regressions(
    totals: Mapping[str, Counts],
    seen: Mapping[str, float],
    alpha: float = REGRESSION_ALPHA,
    min_events: int = REGRESSION_MIN_EVENTS,
) -> list[dict[str, Any]]:
    """New versions whose leak rate is significantly above the version they replaced.

    For the same model, key B *replaces* key A when exactly one of the ``REPLACEABLE``
    parts differs and B was first seen later than A; of several such A, the latest seen.
    B regresses when its rate is above A's and the one-sided two-proportion test
    (``query.stats.two_proportion``) gives p < ``alpha``, with ``min_events`` on each side.

    Found by lookups, not pairwise (issue 36): per part, keys are grouped by every other
    field (the model among them), so A and B differ in exactly that part when they share
    a group; each group is sorted by first seen and B's predecessor is a bisection.
    O(n log n) in the number of keys.
    """
    dims = {
        k: dims_of(k)
        for k in totals
        if k in seen and k != OTHER and dims_of(k)["model_name"] != UNKNOWN
    }
    # part -> (every field but the part's) -> [(first seen, key)], sorted
    groups: dict[str, dict[tuple[str, ...], list[tuple[float, str]]]] = {}
    group_of: dict[str, dict[str, tuple[str, ...]]] = {}  # part -> key -> its group
    for part, fields in REPLACEABLE.items():
        rest = [f for f in DIMS if f not in fields]
        table: dict[tuple[str, ...], list[tuple[float, str]]] = {}
        mine = group_of[part] = {}
        for key, d in dims.items():
            g = mine[key] = tuple(d[f] for f in rest)
            table.setdefault(g, []).append((seen[key], key))
        for members in table.values():
            members.sort()
        groups[part] = table
    found = []
    for new, d_new in dims.items():
        best: tuple[float, str, str] | None = None
        for part in REPLACEABLE:
            group = groups[part][group_of[part][new]]
            if len(group) < 2:
                continue
            # the latest member first seen strictly before ``new``
            i = bisect_left(group, (seen[new], "")) - 1
            if i >= 0 and (best is None or group[i][0] > best[0]):
                best = (group[i][0], group[i][1], part)
        if best is None:
            continue
        _, old, part = best
        a, b = totals[old], totals[new]
        if a["total"] < min_events or b["total"] < min_events:
            continue
        test = two_proportion(a["leaking"], a["total"], b["leaking"], b["total"], "greater")
        if test.diff is not None and test.diff > 0 and test.p_value < alpha:
            fields = REPLACEABLE[part]
            found.append(
                {
                    "key": new,
                    "previous_key": old,
                    "model": d_new["model_name"],
                    "changed": part,
                    "version": "/".join(d_new[f] for f in fields),
                    "previous": "/".join(dims[old][f] for f in fields),
                    "rate": test.rate_b,
                    "previous_rate": test.rate_a,
                    "total": b["total"],
                    "previous_total": a["total"],
                    "p_value": test.p_value,
                }
            )
    return sorted(found, key=lambda r: (r["model"], r["key"]))


def window_totals(
    buckets: Buckets, now: float, window_s: int, size: int = BUCKET_S
) -> dict[str, Counts]:
    """Per key, the sum of the buckets that overlap ``[now - window_s, now]``.

    The current (partial) bucket counts; the oldest bucket is dropped once it lies
    wholly before the window, so a window is at most one bucket longer than asked.
    """
    since = now - window_s
    out: dict[str, Counts] = {}
    for key, per_bucket in buckets.items():
        total = None
        for start, counts in per_bucket.items():
            if start + size > since and start <= now:
                total = add_counts(total, counts)
        if total is not None and (total["total"] or total["dead_lettered"]):
            out[key] = total
    return out


def rate_row(key: str, counts: Mapping[str, Any]) -> dict[str, Any]:
    """Counts and rate of one key; ``rate_low``/``rate_high`` bound its 95 % Wilson
    interval (None when ``total`` is 0: no data, which the dashboard shows as such)."""
    total = int(counts.get("total", 0))
    leaking = int(counts.get("leaking", 0))
    bounds = wilson(leaking, total)
    return {
        "key": key,
        "dims": dims_of(key),
        "total": total,
        "leaking": leaking,
        "rate": leaking / total if total else 0.0,
        "rate_low": bounds[0] if bounds else None,
        "rate_high": bounds[1] if bounds else None,
        "labels": dict(sorted((counts.get("labels") or {}).items())),
        "dead_lettered": int(counts.get("dead_lettered", 0)),
    }


def top_rows(totals: Mapping[str, Counts], n: int) -> list[dict[str, Any]]:
    """The ``n`` busiest version keys, then one "other" row summing the rest (and what
    the live table already folded into "other": one "other" row, always the last)."""
    ordered = sorted(
        ((k, v) for k, v in totals.items() if k != OTHER), key=lambda kv: (-kv[1]["total"], kv[0])
    )
    rows = [rate_row(key, counts) for key, counts in ordered[:n]]
    rest = [counts for _, counts in ordered[n:]]
    if OTHER in totals:
        rest.append(totals[OTHER])
    if rest:
        other = None
        for counts in rest:
            other = add_counts(other, counts)
        row = rate_row(OTHER, other or empty_counts())
        row["versions"] = len(ordered) - len(rows)  # named versions folded here
        rows.append(row)
    return rows


def sum_counts(totals: Iterable[Mapping[str, Any]]) -> Counts:
    out = empty_counts()
    for counts in totals:
        out = add_counts(out, counts)
    return out


def series(
    buckets: Buckets,
    now: float,
    window_s: int,
    *,
    points: int = 60,
    keys: Iterable[str] | None = None,
    size: int = BUCKET_S,
) -> list[dict[str, Any]]:
    """Counts over time: ``window_s`` cut into at most ``points`` steps of whole buckets."""
    step = max(size, -(-window_s // points // size) * size)
    end = bucket_start(now, step) + step
    first = end - step * max(1, -(-window_s // step))
    wanted = set(keys) if keys is not None else None
    steps: dict[float, Counts] = {}
    for key, per_bucket in buckets.items():
        if wanted is not None and key not in wanted:
            continue
        for start, counts in per_bucket.items():
            if first <= start < end:
                slot = bucket_start(start - first, step) + first
                steps[slot] = add_counts(steps.get(slot), counts)
    out = []
    t = first
    while t < end:
        counts = steps.get(t, empty_counts())
        out.append({"t": t, "step": step, **rate_row("", counts)})
        t += step
    for point in out:
        point.pop("key", None)
        point.pop("dims", None)
    return out


# ---------------------------------------------------------------- newest samples


def highlight(text: str, spans: Iterable[Any]) -> list[dict[str, Any]]:
    """``text`` cut into segments ``{"text", "mark"}``; marked where a finding's span lies.

    Overlapping spans are merged; spans outside the text are clipped. The browser puts
    each segment in a text node, so hostile text never becomes markup.
    """
    ranges = []
    for span in spans:
        try:
            start, end = int(span[0]), int(span[1])
        except (TypeError, ValueError, IndexError):
            continue
        start, end = max(0, start), min(len(text), end)
        if end > start:
            ranges.append((start, end))
    merged: list[list[int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out, pos = [], 0
    for start, end in merged:
        if start > pos:
            out.append({"text": text[pos:start], "mark": False})
        out.append({"text": text[start:end], "mark": True})
        pos = end
    if pos < len(text) or not out:
        out.append({"text": text[pos:], "mark": False})
    return out


def sample_view(record: Mapping[str, Any]) -> dict[str, Any]:
    """A ``leak.samples`` record as the dashboard shows it."""
    engine = record.get("engine") or {}
    model = record.get("model") or {}
    template = record.get("chat_template") or {}
    parsers = record.get("parsers") or {}
    key = version_key(
        {
            "engine_name": engine.get("name"),
            "engine_version": engine.get("version"),
            "model_name": model.get("name"),
            "template_name": template.get("name"),
            "reasoning_parser": parsers.get("reasoning"),
            "tool_call_parser": parsers.get("tool_call"),
        }
    )
    raw_text = record.get("visible_text")
    text = raw_text if isinstance(raw_text, str) else ""
    findings = [f for f in record.get("findings") or [] if isinstance(f, dict)]
    return {
        "event_id": str(record.get("event_id", "")),
        "ts": record.get("ts"),
        "api": record.get("api"),
        "stream": bool(record.get("stream")),
        "key": key,
        "dims": dims_of(key),
        "labels": [str(label) for label in record.get("labels") or []],
        "segments": highlight(text, [f.get("span") for f in findings if f.get("span")]),
        "findings": [
            {
                name: f.get(name)
                for name in ("label", "evidence", "layer", "remediation", "source", "span")
            }
            for f in findings
        ],
    }


class SampleRing:
    """The newest leak samples, bounded; filtered and paginated on request."""

    def __init__(self, size: int = 500) -> None:
        self.items: deque[dict[str, Any]] = deque(maxlen=size)
        self.seen = 0  # samples ever added, so clients notice changes

    def add(self, value: bytes | Mapping[str, Any]) -> bool:
        if isinstance(value, bytes | bytearray | memoryview):
            try:
                value = orjson.loads(value)
            except orjson.JSONDecodeError:
                return False
        if not isinstance(value, Mapping):
            return False
        self.items.append(sample_view(value))
        self.seen += 1
        return True

    def matching(
        self, label: str | None = None, key: str | None = None
    ) -> Iterator[dict[str, Any]]:
        for item in reversed(self.items):  # newest first
            if label and label not in item["labels"]:
                continue
            if key and item["key"] != key:
                continue
            yield item

    def page(
        self, label: str | None = None, key: str | None = None, offset: int = 0, limit: int = 20
    ) -> dict[str, Any]:
        found = list(self.matching(label, key))
        return {
            "total": len(found),
            "offset": offset,
            "limit": limit,
            "items": found[offset : offset + limit],
            "capacity": self.items.maxlen,
        }
