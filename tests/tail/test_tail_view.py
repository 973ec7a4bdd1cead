"""The pure part of ``leakline tail``: parsing, filters, rolling windows and rendering."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import orjson
import pytest
from rich.console import Console

from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.live.tail_view import (
    SPAN_STYLE,
    LeakFeed,
    RollingRates,
    TailFilter,
    parse_sample,
    parse_stats,
    plain_leak_line,
    plain_rates,
    resolve_by,
    rich_view,
)

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DIMS = {
    "engine_name": "vllm",
    "engine_version": "0.31.0",
    "model_name": "Qwen/Qwen3-32B",
    "template_name": "qwen3_chat.jinja",
    "reasoning_parser": "qwen3",
    "tool_call_parser": "hermes",
}


def stats(ts: datetime, total: int, leaking: int, labels: dict[str, int], **dims: str) -> bytes:
    return orjson.dumps(
        {
            "v": 1,
            "worker_id": "w1",
            "ts": ts.isoformat().replace("+00:00", "Z"),
            "dims": {**DIMS, **dims},
            "total": total,
            "leaking": leaking,
            "labels": labels,
            "dead_lettered": 0,
        }
    )


def sample(event_id: str, text: str, span: tuple[int, int], **engine: str) -> bytes:
    return orjson.dumps(
        {
            "event_id": event_id,
            "ts": "2026-11-29T12:00:00Z",
            "api": "chat.completions",
            "stream": True,
            "engine": {"name": "vllm", "version": engine.get("version", "0.31.0")},
            "model": {"name": "Qwen/Qwen3-32B", "revision": None},
            "chat_template": {"name": None, "hash": None},
            "parsers": {"reasoning": "qwen3", "tool_call": None},
            "labels": ["boundary_token", "reasoning_leak"],
            "findings": [
                {
                    "label": "boundary_token",
                    "span": list(span),
                    "evidence": "stray </think>",
                    "layer": "parser",
                    "remediation": "strip",
                }
            ],
            "visible_text": text,
        }
    )


def test_rates_sum_records_per_version_and_expire_with_the_window() -> None:
    rates = RollingRates(300)
    for raw in (
        stats(NOW - timedelta(seconds=400), 50, 50, {"preamble": 50}),  # outside the window
        stats(NOW - timedelta(seconds=10), 10, 2, {"preamble": 2}),
        stats(NOW, 30, 4, {"preamble": 1, "truncated": 3}),
        stats(NOW, 5, 5, {"truncated": 5}, engine_version="0.30.2"),
    ):
        record = parse_stats(raw)
        assert record is not None
        rates.add(record, NOW)
    assert rates.expire(NOW)
    rows = {r.key: r for r in rates.rows()}
    new = rows[("vllm", "0.31.0", "Qwen/Qwen3-32B")]
    assert (new.total, new.leaking) == (40, 6)
    assert new.rate == pytest.approx(0.15)
    assert new.top_labels() == [("preamble", 3), ("truncated", 3)]  # ties by name
    assert rows[("vllm", "0.30.2", "Qwen/Qwen3-32B")].rate == 1.0
    assert not rates.expire(NOW)  # nothing further to drop


def test_filters_drop_other_versions_and_narrow_label_columns() -> None:
    filt = TailFilter.build(["truncated"], ["engine.version=0.31.0"], model="Qwen/Qwen3-32B")
    rates = RollingRates(0, filt=filt)
    for raw in (
        stats(NOW, 30, 4, {"preamble": 1, "truncated": 3}),
        stats(NOW, 5, 5, {"truncated": 5}, engine_version="0.30.2"),
    ):
        record = parse_stats(raw)
        assert record is not None
        rates.add(record, NOW)
    lines = plain_rates(rates, NOW)
    assert lines[1:] == [
        "rate engine.name=vllm engine.version=0.31.0 model.name=Qwen/Qwen3-32B "
        "total=30 leaking=4 rate=0.1333 labels=truncated:3"
    ]
    feed = LeakFeed()
    old = parse_sample(sample("a", "x</think>y", (1, 9), version="0.30.2"))
    new = parse_sample(sample("b", "x</think>y", (1, 9)))
    assert old is not None and new is not None
    leaks = TailFilter.build(["boundary_token"], ["engine.version=0.31.0"], model="Qwen/Qwen3-32B")
    assert not feed.add(old, leaks)
    assert not feed.add(new, filt)  # it has no truncated label
    assert feed.add(new, leaks)


@pytest.mark.parametrize(
    ("labels", "versions", "hint"),
    [
        (["nope"], [], "reasoning_leak"),
        ([], ["engine.version"], "FIELD=VALUE"),
        ([], ["gpu=a100"], "engine.name"),
    ],
)
def test_bad_filters_are_clear_errors(labels: list[str], versions: list[str], hint: str) -> None:
    with pytest.raises(LeaklineError) as err:
        TailFilter.build(labels, versions)
    assert hint in (err.value.hint or "")


def test_bad_by_lists_the_fields() -> None:
    assert resolve_by("engine.version, model.name") == ("engine.version", "model.name")
    with pytest.raises(LeaklineError):
        resolve_by("day")


def test_plain_leak_line_marks_the_span_on_one_line() -> None:
    text = "Let me think.\nDone.</think>\nThe answer is 4."
    start = text.index("</think>")
    parsed = parse_sample(sample("ev-1", text, (start, start + 8)))
    assert parsed is not None
    line = plain_leak_line(parsed)
    assert "\n" not in line
    assert line.startswith('leak "ev-1" engine.name=vllm engine.version=0.31.0 ')
    span = orjson.loads(line.split(" span=", 1)[1].split(" evidence=", 1)[0])
    assert span == "Let me think.⏎Done.[[</think>]]⏎The answer is 4."
    assert "layer=parser fix=strip" in line
    # missing versions read as "unknown", like the stats dims
    assert "template" not in line and parsed.dims["template_name"] == "unknown"


def test_rich_view_highlights_the_span_and_waits_for_stats() -> None:
    text = "prefix </think> suffix"
    parsed = parse_sample(sample("ev-2", text, (7, 15)))
    assert parsed is not None
    feed = LeakFeed()
    feed.add(parsed, TailFilter())
    console = Console(width=200, record=True, color_system="truecolor")
    console.print(rich_view(RollingRates(300), feed, "header"))
    out = console.export_text()
    assert "waiting for worker stats" in out
    assert "ev-2" in out
    styled = [
        seg
        for seg in console.render(rich_view(RollingRates(300), feed, "header"))
        if "</think>" in seg.text
    ]
    assert any(
        seg.style is not None and seg.style == console.get_style(SPAN_STYLE) for seg in styled
    )


def test_garbage_records_are_skipped() -> None:
    assert parse_stats(b"not json") is None
    assert parse_stats(orjson.dumps({"v": 2})) is None
    assert parse_stats(orjson.dumps({"v": 1, "total": "x"})) is None
    assert parse_sample(b"[]") is None
    assert parse_sample(orjson.dumps({"labels": []})) is None


def test_where_and_time_window_filter_both_panes() -> None:
    # --where engine.version=A --where engine.version=B: either version (the one grammar)
    filt = TailFilter.build(
        where=["engine.version=0.31.0", "engine.version=0.30.2"],
        since=NOW - timedelta(minutes=30),
        until=NOW - timedelta(minutes=5),
    )
    rates = RollingRates(0, filt=filt)
    kept = []
    for raw in (
        stats(NOW - timedelta(hours=2), 50, 50, {"preamble": 50}),  # before --since
        stats(NOW - timedelta(minutes=10), 10, 2, {"preamble": 2}),
        stats(NOW - timedelta(minutes=10), 5, 5, {"truncated": 5}, engine_version="0.30.2"),
        stats(NOW - timedelta(minutes=10), 7, 7, {"truncated": 7}, engine_version="0.29.0"),
        stats(NOW, 30, 4, {"preamble": 4}),  # after --until
    ):
        record = parse_stats(raw)
        assert record is not None
        kept.append(rates.add(record, NOW))
    assert kept == [False, True, True, False, False]
    assert {r.key[1]: r.total for r in rates.rows()} == {"0.31.0": 10, "0.30.2": 5}
    new = parse_sample(sample("b", "x</think>y", (1, 9)))  # ts = NOW: after --until
    assert new is not None and not LeakFeed().add(new, filt)
    assert "since 2026-11-29T11:30:00Z" in filt.describe()
    with pytest.raises(LeaklineError) as err:
        TailFilter.build(where=["model.revision=abc"])  # not in leak.stats dims
    assert "parsers.tool_call" in (err.value.hint or "")
