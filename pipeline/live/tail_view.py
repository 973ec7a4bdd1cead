"""What ``leakline tail`` shows: rolling rates from ``leak.stats`` and the newest leaks
from ``leak.samples``, rendered for a terminal (rich) or as plain lines.

Pure: no Kafka here, so the aggregation and the rendering are tested without a broker.
Rates come only from ``leak.stats`` (contract 3: every processed event is counted
there, so it has the denominators); ``leak.samples`` holds leaking exchanges only.
"""

from __future__ import annotations

import json
from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from leakline.detectors.labels import ALL_LABELS
from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.core.term import field as plain_field
from leakline.pipeline.core.term import quoted, safe
from leakline.pipeline.core.term import text as safe_text
from leakline.pipeline.query.filters import parse_pairs

UNKNOWN = "unknown"

# user-facing names (event-contract spelling) -> dims key of contract 3
VERSION_FIELDS: dict[str, str] = {
    "engine.name": "engine_name",
    "engine.version": "engine_version",
    "model.name": "model_name",
    "chat_template.name": "template_name",
    "parsers.reasoning": "reasoning_parser",
    "parsers.tool_call": "tool_call_parser",
}
DEFAULT_BY = ("engine.name", "engine.version", "model.name")
SPAN_CONTEXT = 48  # characters shown either side of a leaking span
SPAN_MAX = 120  # a longer span is cut in the middle


# ------------------------------------------------------------------ filters


@dataclass(frozen=True)
class TailFilter:
    """``--label`` (any of); ``--where``/``--version FIELD=VALUE`` and ``--model`` (the same
    field = any of, different fields = all of, as ``query.filters``); ``--since``/``--until``
    over the records' own time."""

    labels: frozenset[str] = frozenset()
    versions: tuple[tuple[str, str], ...] = ()  # (dims key, value)
    since: datetime | None = None
    until: datetime | None = None

    @classmethod
    def build(
        cls,
        labels: Iterable[str] = (),
        versions: Iterable[str] = (),
        model: str | None = None,
        where: Iterable[str] = (),
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> TailFilter:
        chosen = frozenset(labels)
        unknown = sorted(chosen - set(ALL_LABELS))
        if unknown:
            raise LeaklineError(
                f"unknown label(s): {', '.join(unknown)}",
                hint="choose from: " + ", ".join(ALL_LABELS),
            )
        pairs = [
            *parse_pairs(versions, "--version", VERSION_FIELDS),
            *parse_pairs(where, "--where", VERSION_FIELDS),
        ]
        if model:
            pairs.append(("model.name", model))
        return cls(chosen, tuple((VERSION_FIELDS[n], v) for n, v in pairs), since, until)

    def match_dims(self, dims: Mapping[str, str]) -> bool:
        wanted: dict[str, set[str]] = {}
        for key, value in self.versions:
            wanted.setdefault(key, set()).add(value)
        return all(dims.get(key, UNKNOWN) in values for key, values in wanted.items())

    def match_labels(self, labels: Iterable[str]) -> bool:
        return not self.labels or not self.labels.isdisjoint(labels)

    def match_ts(self, ts: datetime | None) -> bool:
        """Inside ``--since``/``--until`` (a record without a time passes)."""
        if ts is None:
            return True
        if self.since is not None and ts < self.since:
            return False
        return self.until is None or ts < self.until

    def describe(self) -> str:
        names = {v: k for k, v in VERSION_FIELDS.items()}
        parts = [f"{names[k]}={v}" for k, v in self.versions]
        if self.labels:
            parts.append("label in " + ",".join(sorted(self.labels)))
        for word, ts in (("since", self.since), ("until", self.until)):
            if ts is not None:
                parts.append(f"{word} {ts.isoformat(timespec='seconds').replace('+00:00', 'Z')}")
        return "; ".join(parts) or "none"


def resolve_by(text: str) -> tuple[str, ...]:
    names = tuple(f.strip() for f in text.split(",") if f.strip())
    bad = [n for n in names if n not in VERSION_FIELDS]
    if bad or not names:
        raise LeaklineError(
            f"bad --by {text!r}", hint="comma-separated fields from: " + ", ".join(VERSION_FIELDS)
        )
    return names


# ------------------------------------------------------------------ records


def parse_ts(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        ts = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return ts if ts.tzinfo else ts.replace(tzinfo=UTC)


@dataclass(frozen=True)
class StatsRecord:
    """One ``leak.stats`` value (contract 3)."""

    ts: datetime | None
    worker_id: str
    dims: dict[str, str]
    total: int
    leaking: int
    labels: dict[str, int]
    dead_lettered: int


def parse_stats(value: bytes | None) -> StatsRecord | None:
    """None for anything that is not a v1 stats record: a live view skips, never crashes."""
    try:
        data = json.loads(value or b"")
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("v") != 1:
        return None
    dims: dict[str, Any] = data["dims"] if isinstance(data.get("dims"), dict) else {}
    labels: dict[str, Any] = data["labels"] if isinstance(data.get("labels"), dict) else {}
    try:
        return StatsRecord(
            ts=parse_ts(data.get("ts")),
            worker_id=str(data.get("worker_id", UNKNOWN)),
            dims={k: str(dims.get(k) or UNKNOWN) for k in VERSION_FIELDS.values()},
            total=int(data.get("total", 0)),
            leaking=int(data.get("leaking", 0)),
            labels={str(k): int(v) for k, v in labels.items()},
            dead_lettered=int(data.get("dead_lettered", 0)),
        )
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True)
class LeakSample:
    """One ``leak.samples`` value (contract 4), with versions flattened like the stats dims."""

    event_id: str
    ts: str | None
    api: str
    stream: bool
    dims: dict[str, str]
    labels: tuple[str, ...]
    findings: tuple[dict[str, Any], ...]
    visible_text: str


def parse_sample(value: bytes | None) -> LeakSample | None:
    try:
        data = json.loads(value or b"")
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("event_id"), str):
        return None

    def part(name: str, key: str) -> str:
        section = data.get(name)
        got = section.get(key) if isinstance(section, dict) else None
        return str(got) if got not in (None, "") else UNKNOWN

    dims = {
        "engine_name": part("engine", "name"),
        "engine_version": part("engine", "version"),
        "model_name": part("model", "name"),
        "template_name": part("chat_template", "name"),
        "reasoning_parser": part("parsers", "reasoning"),
        "tool_call_parser": part("parsers", "tool_call"),
    }
    findings = [f for f in data.get("findings") or [] if isinstance(f, dict)]
    return LeakSample(
        event_id=data["event_id"],
        ts=data.get("ts") if isinstance(data.get("ts"), str) else None,
        api=str(data.get("api") or UNKNOWN),
        stream=bool(data.get("stream")),
        dims=dims,
        labels=tuple(str(x) for x in data.get("labels") or []),
        findings=tuple(findings),
        visible_text=str(data.get("visible_text") or ""),
    )


# ------------------------------------------------------------------ aggregation


@dataclass
class RateRow:
    key: tuple[str, ...]
    total: int = 0
    leaking: int = 0
    labels: Counter[str] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.leaking / self.total if self.total else 0.0

    def top_labels(self, only: frozenset[str] = frozenset(), n: int = 3) -> list[tuple[str, int]]:
        items = [(k, v) for k, v in self.labels.items() if v and (not only or k in only)]
        items.sort(key=lambda kv: (-kv[1], kv[0]))
        return items if only else items[:n]


@dataclass
class RollingRates:
    """Stats records of the last ``window_s`` seconds (by the record's own ``ts``;
    0 keeps everything), grouped by ``by``. Records failing the version filter are
    dropped; the label filter only narrows the per-label columns, never the totals."""

    window_s: float
    by: tuple[str, ...] = DEFAULT_BY
    filt: TailFilter = field(default_factory=TailFilter)
    records: deque[tuple[datetime, StatsRecord]] = field(default_factory=deque)
    seen: int = 0  # every parsed record, before filters: tells "no stats yet" from "none match"

    def add(self, record: StatsRecord, received: datetime) -> bool:
        self.seen += 1
        if not (self.filt.match_dims(record.dims) and self.filt.match_ts(record.ts)):
            return False
        self.records.append((record.ts or received, record))
        return True

    def expire(self, now: datetime) -> bool:
        if self.window_s <= 0:
            return False
        before = len(self.records)
        kept = [(t, r) for t, r in self.records if (now - t).total_seconds() <= self.window_s]
        self.records = deque(kept)
        return len(kept) != before

    def rows(self) -> list[RateRow]:
        groups: dict[tuple[str, ...], RateRow] = {}
        for _, rec in self.records:
            if rec.total <= 0:
                continue  # a dead-letter-only record has no exchanges to rate
            key = tuple(rec.dims[VERSION_FIELDS[name]] for name in self.by)
            row = groups.setdefault(key, RateRow(key))
            row.total += rec.total
            row.leaking += rec.leaking
            row.labels.update(rec.labels)
        return sorted(groups.values(), key=lambda r: r.key)

    def dead_lettered(self) -> int:
        return sum(r.dead_lettered for _, r in self.records)

    def workers(self) -> set[str]:
        return {r.worker_id for _, r in self.records}


@dataclass
class LeakFeed:
    """The newest leak samples that pass the filters, newest first."""

    size: int = 12
    items: deque[LeakSample] = field(default_factory=deque)
    count: int = 0

    def add(self, sample: LeakSample, filt: TailFilter) -> bool:
        if not (
            filt.match_dims(sample.dims)
            and filt.match_labels(sample.labels)
            and filt.match_ts(parse_ts(sample.ts))
        ):
            return False
        self.items.appendleft(sample)
        while len(self.items) > self.size:
            self.items.pop()
        self.count += 1
        return True


# ------------------------------------------------------------------ the leaking span


@dataclass(frozen=True)
class Excerpt:
    before: str
    span: str
    after: str
    finding: dict[str, Any] | None


def excerpt(sample: LeakSample, only: frozenset[str] = frozenset()) -> Excerpt:
    """The text around the first finding with a span (of a filtered label if any)."""
    text = sample.visible_text
    chosen = None
    for f in sample.findings:
        if only and f.get("label") not in only:
            continue
        if chosen is None:
            chosen = f
        span = f.get("span")
        if isinstance(span, list) and len(span) == 2 and all(isinstance(x, int) for x in span):
            chosen = f
            start, end = max(0, span[0]), min(len(text), span[1])
            if start < end:
                hit = text[start:end]
                if len(hit) > SPAN_MAX:
                    half = SPAN_MAX // 2
                    hit = hit[:half] + "…" + hit[-half:]
                before = text[max(0, start - SPAN_CONTEXT) : start]
                after = text[end : end + SPAN_CONTEXT]
                return Excerpt(
                    ("…" if start > SPAN_CONTEXT else "") + before,
                    hit,
                    after + ("…" if end + SPAN_CONTEXT < len(text) else ""),
                    f,
                )
    # no usable span (e.g. invalid structured output): show the start of the text
    return Excerpt("", "", text[: SPAN_CONTEXT * 2] + ("…" if len(text) > 96 else ""), chosen)


def _oneline(text: str) -> str:
    """Event text on one line, with every control character replaced (core/term.py)."""
    return safe(text)


def version_text(dims: Mapping[str, str]) -> str:
    return f"{dims['engine_name']} {dims['engine_version']} {dims['model_name']}"


# ------------------------------------------------------------------ plain rendering


def plain_leak_line(sample: LeakSample, only: frozenset[str] = frozenset()) -> str:
    """One line per leak; the leaking span is wrapped in [[ ]]. The event id and the free
    text are JSON-quoted, other values quoted unless one plain word: event data can
    neither start a line nor add a field."""
    ex = excerpt(sample, only)
    text = (
        _oneline(ex.before) + (f"[[{_oneline(ex.span)}]]" if ex.span else "") + _oneline(ex.after)
    )
    f = ex.finding or {}
    parts = [
        "leak",
        quoted(sample.event_id),
        f"engine.name={plain_field(sample.dims['engine_name'])}",
        f"engine.version={plain_field(sample.dims['engine_version'])}",
        f"model.name={plain_field(sample.dims['model_name'])}",
        f"api={plain_field(sample.api)}",
        f"stream={'yes' if sample.stream else 'no'}",
        "labels=" + plain_field(",".join(sample.labels)),
        "span=" + quoted(text),
        "evidence=" + quoted(str(f.get("evidence") or "")),
        f"layer={plain_field(f.get('layer') or UNKNOWN)}",
        f"fix={plain_field(f.get('remediation') or UNKNOWN)}",
    ]
    return " ".join(parts)


def _window_text(window_s: float) -> str:
    return f"last {window_s:g}s" if window_s > 0 else "since start"


def plain_rates(rates: RollingRates, now: datetime) -> list[str]:
    """A header line, then one ``rate`` line per version group (key=value, greppable)."""
    rows = rates.rows()
    stamp = now.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    if not rates.seen:
        return [f"rates at {stamp}: waiting for worker stats on leak.stats"]
    head = (
        f"rates at {stamp} ({_window_text(rates.window_s)}, {len(rows)} versions, "
        f"{len(rates.workers())} workers, dead_lettered={rates.dead_lettered()})"
    )
    lines = [head]
    for row in rows:
        fields = " ".join(
            f"{name}={plain_field(value)}" for name, value in zip(rates.by, row.key, strict=True)
        )
        labels = plain_field(",".join(f"{k}:{v}" for k, v in row.top_labels(rates.filt.labels)))
        lines.append(
            f"rate {fields} total={row.total} leaking={row.leaking} rate={row.rate:.4f} "
            f"labels={labels}"
        )
    if not rows:
        lines.append("rate (no exchanges match in this window)")
    return lines


# ------------------------------------------------------------------ rich rendering

SPAN_STYLE = "bold white on red"


def span_text(sample: LeakSample, only: frozenset[str] = frozenset()) -> Text:
    ex = excerpt(sample, only)
    text = Text()
    text.append(_oneline(ex.before), style="dim")
    if ex.span:
        text.append(_oneline(ex.span), style=SPAN_STYLE)
    text.append(_oneline(ex.after), style="dim")
    return text


def rates_table(rates: RollingRates) -> RenderableType:
    if not rates.seen:
        return Text(
            "rates: waiting for worker stats on leak.stats "
            "(the worker publishes one record per batch)",
            style="yellow",
        )
    table = Table(
        title=f"leak rates by version ({_window_text(rates.window_s)})",
        title_justify="left",
        expand=True,
    )
    for name in rates.by:
        table.add_column(name, overflow="fold")
    table.add_column("total", justify="right")
    table.add_column("leaking", justify="right")
    table.add_column("rate", justify="right")
    table.add_column("labels" if rates.filt.labels else "top labels")
    for row in rates.rows():
        style = "bold red" if row.rate >= 0.2 else ("yellow" if row.rate >= 0.05 else "green")
        labels = ", ".join(
            f"{k} {v} ({v / row.total:.1%})" for k, v in row.top_labels(rates.filt.labels)
        )
        table.add_row(
            *(safe_text(k) for k in row.key),
            str(row.total),
            str(row.leaking),
            Text(f"{row.rate:.2%}", style=style),
            safe_text(labels),
        )
    return table


def leaks_table(feed: LeakFeed, only: frozenset[str] = frozenset()) -> RenderableType:
    table = Table(
        title=f"newest leaks ({feed.count} shown so far)", title_justify="left", expand=True
    )
    table.add_column("event", overflow="fold", max_width=24)
    table.add_column("version", overflow="fold", max_width=28)
    table.add_column("labels", overflow="fold", max_width=28)
    table.add_column("leaking span", ratio=3)
    table.add_column("evidence", ratio=2, overflow="fold")
    for sample in feed.items:
        ex = excerpt(sample, only)
        f = ex.finding or {}
        evidence = safe_text(str(f.get("evidence") or ""))
        evidence.append(
            f"\n{safe(f.get('layer', UNKNOWN))} → {safe(f.get('remediation', UNKNOWN))}", "cyan"
        )
        table.add_row(
            safe_text(sample.event_id),
            safe_text(version_text(sample.dims)),
            safe_text(", ".join(sample.labels), style="magenta"),
            span_text(sample, only),
            evidence,
        )
    return table


def rich_view(
    rates: RollingRates, feed: LeakFeed, header: str, footer: Sequence[str] = ()
) -> RenderableType:
    parts: list[RenderableType] = [
        safe_text(header, style="bold"),
        rates_table(rates),
        leaks_table(feed, rates.filt.labels),
    ]
    if rates.seen:
        parts.append(
            Text(
                f"dead-lettered in window: {rates.dead_lettered()} · workers: "
                f"{len(rates.workers())} · live counts are at-least-once; the store is exact",
                style="dim",
            )
        )
    parts.extend(safe_text(line, style="dim") for line in footer)
    return Group(*parts)
