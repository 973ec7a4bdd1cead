"""Parquet sink + DuckDB views: round trip, dedupe by event_id, safe queries."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from leakline_testkit import verdict

from leakline.pipeline.core.errors import StoreError
from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import SAMPLE_SCHEMA, RowBuilder, _keep_below, keep_text
from leakline.pipeline.store.database import RateFilter, db_path, init_store, query_rates, read_only
from leakline.pipeline.store.sink import ParquetSink

NOW = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)


def event(i: int, version: str, ts: str = "2026-11-01T10:00:00Z") -> dict:
    return {
        "event_id": f"e{i}",
        "ts": ts,
        "api": "chat.completions",
        "request": {"stop": ["x"]},
        "response": {"choices": [{"message": {"content": f"answer {i}"}, "finish_reason": "stop"}]},
        "engine": {"name": "vllm", "version": version},
        "model": {"name": "qwen3"},
    }


def write_events(
    sink: ParquetSink,
    specs: list[tuple[int, str, list[str]]],
    partition: int = 0,
    first_offset: int = 0,
    ts: str = "2026-11-01T10:00:00Z",
) -> None:
    rows = RowBuilder("w1", clean_text_rate=0.0)
    for n, (i, version, labels) in enumerate(specs):
        e = event(i, version, ts)
        rows.add(
            e,
            normalise(e),
            verdict(e["event_id"], labels),
            Origin("gateway.events", partition, first_offset + n),
            NOW,
        )
    sink.write(rows.table())


@pytest.fixture
def store(tmp_path: Path) -> Path:
    init_store(tmp_path)
    return tmp_path


def test_empty_store_answers_with_no_rows(store: Path) -> None:
    with read_only(store) as con:
        assert query_rates(con, ["engine.version"]) == []
        assert con.execute("select count(*) from leak_rates").fetchone() == (0,)


def test_round_trip_parquet_to_rates(store: Path) -> None:
    sink = ParquetSink(store)
    write_events(
        sink,
        [
            (1, "0.30.2", ["boundary_token", "reasoning_leak"]),
            (2, "0.30.2", []),
            (3, "0.31.0", []),
            (4, "0.31.0", ["preamble"]),
        ],
    )
    files = sorted(store.glob("samples/day=2026-11-01/*.parquet"))
    assert [f.name for f in files] == [
        "part-gateway.events-p0000-o000000000000-000000000003.parquet"
    ]
    assert pq.read_schema(files[0]).remove_metadata().equals(SAMPLE_SCHEMA)
    with read_only(store) as con:
        rows = query_rates(con, ["engine.version"])
    assert [(r["engine.version"], r["total"], r["leaking"], r["rate"]) for r in rows] == [
        ("0.30.2", 2, 1, 0.5),
        ("0.31.0", 2, 1, 0.5),
    ]
    assert rows[0]["reasoning_leak"] == 1 and rows[0]["preamble"] == 0 and rows[1]["preamble"] == 1


def test_redelivered_events_count_once(store: Path) -> None:
    sink = ParquetSink(store)
    write_events(sink, [(1, "v1", ["preamble"]), (2, "v1", [])], first_offset=0)
    # the same events again at new offsets (a replay) and in a re-cut batch after a crash
    write_events(sink, [(1, "v1", ["preamble"]), (2, "v1", [])], first_offset=10)
    write_events(sink, [(2, "v1", []), (3, "v1", [])], first_offset=1)
    with read_only(store) as con:
        assert con.execute("select count(*) from samples_all").fetchone() == (6,)
        rows = query_rates(con, [])
        view = con.execute("select total, leaking from leak_rates").fetchall()
    assert (rows[0]["total"], rows[0]["leaking"]) == (3, 1)
    assert view == [(3, 1)]


def test_a_batch_is_split_into_one_lz4_part_per_day_and_partition(store: Path) -> None:
    rows = RowBuilder("w1", clean_text_rate=0.0)
    spread = [  # (day, partition) of each event, interleaved as a fetch would mix them
        ("2026-11-01", 0), ("2026-11-02", 1), ("2026-11-01", 1), ("2026-11-02", 0),
        ("2026-11-01", 0), ("2026-11-01", 1),
    ]  # fmt: skip
    for n, (day, partition) in enumerate(spread):
        e = event(n, "v1", f"{day}T10:00:00Z")
        rows.add(e, normalise(e), verdict(e["event_id"], []), Origin("t", partition, 10 + n), NOW)
    written = ParquetSink(store).write(rows.table())
    found = {}
    for path in written:
        table = pq.read_table(path)
        found[(path.parent.name, path.name)] = sorted(table["event_id"].to_pylist())
        # fresh parts trade size for the worker's CPU; compaction rewrites them with zstd
        assert pq.ParquetFile(path).metadata.row_group(0).column(0).compression == "LZ4"
        assert table.schema.names == SAMPLE_SCHEMA.names
    assert found == {
        ("day=2026-11-01", "part-t-p0000-o000000000010-000000000014.parquet"): ["e0", "e4"],
        ("day=2026-11-01", "part-t-p0001-o000000000012-000000000015.parquet"): ["e2", "e5"],
        ("day=2026-11-02", "part-t-p0001-o000000000011-000000000011.parquet"): ["e1"],
        ("day=2026-11-02", "part-t-p0000-o000000000013-000000000013.parquet"): ["e3"],
    }


def test_same_batch_rewritten_replaces_the_file(store: Path) -> None:
    sink = ParquetSink(store)
    write_events(sink, [(1, "v1", [])])
    write_events(sink, [(1, "v1", [])])
    assert len(list(store.glob("samples/day=2026-11-01/*.parquet"))) == 1


def test_views_work_from_the_duckdb_file_alone(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plain ``duckdb`` CLI, run in the data dir (the views name their files relative
    to it, so a copied or moved store reads its own; elsewhere, SET file_search_path)."""
    write_events(ParquetSink(store), [(1, "v1", ["truncated"])])
    monkeypatch.chdir(store)
    con = duckdb.connect(db_path(store).name, read_only=True)
    try:
        assert con.execute(
            "select engine_version, total, leaking, truncated from leak_rates"
        ).fetchall() == [("v1", 1, 1, 1)]
        assert con.execute(
            "select label, leaking from label_rates where leaking > 0"
        ).fetchall() == [("truncated", 1)]
        assert con.execute("select detector_id, events from detector_rates").fetchall() == [
            ("test_detector", 1)
        ]
    finally:
        con.close()


def test_group_by_several_fields_and_time_filter(store: Path) -> None:
    sink = ParquetSink(store)
    write_events(sink, [(1, "v1", ["preamble"])], ts="2026-11-01T10:00:00Z")
    write_events(sink, [(2, "v1", [])], partition=1, ts="2026-11-03T10:00:00Z")
    with read_only(store) as con:
        rows = query_rates(con, ["engine.name", "model.name", "stop", "day"])
        late = query_rates(con, ["day"], RateFilter(since="2026-11-02T00:00:00Z"))
    assert [(r["engine.name"], r["model.name"], r["stop"], r["day"]) for r in rows] == [
        ("vllm", "qwen3", True, "2026-11-01"),
        ("vllm", "qwen3", True, "2026-11-03"),
    ]
    assert [(r["day"], r["total"]) for r in late] == [("2026-11-03", 1)]


def test_filters_are_parameters_not_sql(store: Path) -> None:
    write_events(ParquetSink(store), [(1, "v1", [])])
    hostile = "x' OR 1=1; DROP VIEW samples; --"
    with read_only(store) as con:
        assert query_rates(con, [], RateFilter(api=hostile)) == []
        assert query_rates(con, [], RateFilter(engine_name=hostile)) == []
        assert query_rates(con, [])[0]["total"] == 1  # the view is still there


def test_unknown_group_field_lists_the_known_ones(store: Path) -> None:
    with read_only(store) as con, pytest.raises(StoreError) as info:
        query_rates(con, ["engine.version", "engine_version; drop"])
    assert "unknown --by field" in str(info.value) and "engine.version" in (info.value.hint or "")


def test_missing_store_gives_a_hint(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as info, read_only(tmp_path / "nope"):
        pass
    assert "leakline demo" in (info.value.hint or "")


def test_text_kept_for_leaks_and_a_stable_sample_of_clean() -> None:
    assert keep_text("anything", leaking=True, clean_rate=0.0)
    decisions = [keep_text(f"id{i}", leaking=False, clean_rate=0.1) for i in range(5000)]
    assert 350 < sum(decisions) < 650
    assert decisions == [keep_text(f"id{i}", leaking=False, clean_rate=0.1) for i in range(5000)]


@pytest.mark.parametrize("rate", [1e-12, 0.05, 0.1, 1 / 3, 0.5, 0.999999, 1.0, 1.5])
def test_text_sampling_matches_the_float_rule(rate: float) -> None:
    # keep_text compares the hash's bytes with a threshold found once per rate; the rule
    # it must reproduce is the float division below, at the threshold's edges too
    def rule(value: int) -> bool:
        return value / 2**64 < rate

    ids = [f"evt-{i}" for i in range(3000)]
    digests = [
        int.from_bytes(hashlib.blake2b(i.encode(), digest_size=8).digest(), "big") for i in ids
    ]
    assert [keep_text(i, False, rate) for i in ids] == [rule(d) for d in digests]
    below = int.from_bytes(_keep_below(rate)[:8], "big") if rate <= 1.0 else 2**64
    edges = [v for v in (below - 2, below - 1, below, below + 1) if 0 <= v < 2**64]
    assert [v.to_bytes(8, "big") < _keep_below(rate) for v in edges] == [rule(v) for v in edges]


def test_init_store_is_repeatable(store: Path) -> None:
    init_store(store)
    init_store(store)
    with read_only(store) as con:
        assert query_rates(con, []) == []


def _tool_event(i: int, arguments: str, remediation: dict | None = None) -> dict:
    event = {
        "event_id": f"t{i}",
        "ts": "2026-11-01T10:00:00Z",
        "api": "chat.completions",
        "engine": {"name": "vllm", "version": "v1"},
        "request": {
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": "f",
                        "parameters": {
                            "type": "object",
                            "properties": {"x": {"type": "integer"}},
                            "required": ["x"],
                        },
                    },
                }
            ]
        },
        "response": {
            "choices": [
                {
                    "finish_reason": "tool_calls",
                    "message": {
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "c",
                                "type": "function",
                                "function": {"name": "f", "arguments": arguments},
                            }
                        ],
                    },
                }
            ]
        },
    }
    if remediation:
        event["remediation"] = remediation
    return event


def test_schema_accuracy_and_remediation_ratios(store: Path) -> None:
    from leakline.detectors import run_detectors

    rows = RowBuilder("w1", 0.0)
    specs = [
        ('{"x": 1}', None),
        ('{"x": 2}', None),
        (
            '{"x": "two"}',
            {"action": "regenerate", "attempts": 1, "extra_tokens": 120, "outcome": "fixed"},
        ),
        (
            "not json",
            {"action": "fallback", "attempts": 2, "extra_tokens": 300, "outcome": "failed"},
        ),
    ]
    for i, (arguments, remediation) in enumerate(specs):
        e = _tool_event(i, arguments, remediation)
        x = normalise(e)
        rows.add(e, x, run_detectors(x), Origin("gateway.events", 0, i), NOW)
    ParquetSink(store).write(rows.table())
    with read_only(store) as con:
        rates = query_rates(con, ["engine.version"])
        accuracy = con.execute(
            "select tool_call_finishes, schema_valid, schema_accuracy from tool_schema_accuracy"
        ).fetchall()
        ratios = dict(
            (action, (events, share, extra))
            for action, events, share, extra in con.execute(
                "select action, events, share, extra_tokens from remediation_ratios"
            ).fetchall()
        )
    assert (rates[0]["tool_call_finishes"], rates[0]["schema_accuracy"]) == (4, 0.5)
    assert rates[0]["tool_args_invalid"] == 2
    assert accuracy == [(4, 2, 0.5)]
    assert ratios == {
        "none": (2, 0.5, None),
        "regenerate": (1, 0.25, 120),
        "fallback": (1, 0.25, 300),
    }
