"""The one filter grammar: ``--where FIELD=VALUE``, ``--since``/``--until``."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime, timedelta

import pytest

from leakline.pipeline.core.errors import LeaklineError
from leakline.pipeline.query.filters import (
    FIELDS,
    Where,
    add_filter_args,
    parse_pairs,
    parse_time,
    where_from_args,
)

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("1h", NOW - timedelta(hours=1), id="hours"),
        pytest.param("7d", NOW - timedelta(days=7), id="days"),
        pytest.param("30m", NOW - timedelta(minutes=30), id="minutes"),
        pytest.param("2w", NOW - timedelta(days=14), id="weeks"),
        pytest.param("90s", NOW - timedelta(seconds=90), id="seconds"),
        pytest.param("2026-11-01T09:00:00Z", datetime(2026, 11, 1, 9, tzinfo=UTC), id="rfc3339"),
        pytest.param("2026-11-01", datetime(2026, 11, 1, tzinfo=UTC), id="date"),
        pytest.param(
            "2026-11-01T10:00:00+01:00", datetime(2026, 11, 1, 9, tzinfo=UTC), id="offset"
        ),
    ],
)
def test_times(text: str, expected: datetime) -> None:
    assert parse_time(text, "--since", NOW) == expected


def test_bad_time_says_what_is_accepted() -> None:
    with pytest.raises(LeaklineError) as err:
        parse_time("yesterday", "--since", NOW)
    assert "--since 'yesterday'" in str(err.value)
    assert "7d" in (err.value.hint or "") and "RFC 3339" in (err.value.hint or "")


def test_unknown_field_lists_the_fields() -> None:
    with pytest.raises(LeaklineError) as err:
        parse_pairs(["engine.versoin=1"])
    assert "engine.versoin" in str(err.value)
    for name in FIELDS:
        assert name in (err.value.hint or "")


def test_pairs_and_bare_alias() -> None:
    assert parse_pairs(["engine.version=0.31.0,model.name=Q/a,b"]) == (
        ("engine.version", "0.31.0"),
        ("model.name", "Q/a,b"),
    )
    assert parse_pairs(["0.31.0"], "--version", bare="engine.version") == (
        ("engine.version", "0.31.0"),
    )
    with pytest.raises(LeaklineError):
        parse_pairs(["0.31.0"])  # --where needs FIELD=VALUE


def test_sql_same_field_any_different_fields_all() -> None:
    where = Where(
        (("engine.version", "a"), ("engine.version", "b"), ("stream", "True")),
        since=datetime(2026, 11, 1, tzinfo=UTC),
    )
    conditions, params = where.sql()
    assert conditions == [
        "ts >= CAST(? AS TIMESTAMPTZ)",
        "(CAST(engine_version AS VARCHAR) = ? OR CAST(engine_version AS VARCHAR) = ?)",
        "(CAST(stream AS VARCHAR) = ?)",
    ]
    assert params == ["2026-11-01T00:00:00+00:00", "a", "b", "true"]
    assert where.matches({"engine.version": "b", "stream": True})
    assert not where.matches({"engine.version": "c", "stream": True})
    assert not where.matches(
        {"engine.version": "a", "stream": True}, ts=datetime(2026, 10, 1, tzinfo=UTC)
    )


def test_production_only_unless_a_source_is_asked() -> None:
    assert Where().production_only().pairs == (("source", "production"),)
    gate = Where((("source", "gate"),))
    assert gate.production_only() == gate


def test_args_with_aliases() -> None:
    p = argparse.ArgumentParser()
    add_filter_args(p)
    p.add_argument("--version", action="append", default=[])
    args = p.parse_args(
        ["--where", "api=responses", "--version", "0.31.0", "--since", "1h", "--until", "10m"]
    )
    where = where_from_args(args, aliases=[("version", "--version", "engine.version")], now=NOW)
    assert where.pairs == (("api", "responses"), ("engine.version", "0.31.0"))
    assert (where.since, where.until) == (NOW - timedelta(hours=1), NOW - timedelta(minutes=10))
    args = p.parse_args(["--since", "1h", "--until", "2h"])
    with pytest.raises(LeaklineError, match="not before"):
        where_from_args(args, now=NOW)
