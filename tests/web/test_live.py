"""live.py without a broker: contract-3 records, bucket sums, windows, top-N, highlighting."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import orjson

from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.process import RawRecord, process_batch
from leakline.pipeline.live.stats import (
    DIMS,
    OTHER,
    UNKNOWN_KEY,
    SampleRing,
    add_counts,
    batch_stats,
    buckets_from_items,
    dims_of,
    highlight,
    parse_stats,
    series,
    top_rows,
    version_key,
    window_totals,
)
from leakline.pipeline.simulate.traffic_model import Mix, malformed_payloads, simulate

NOW = datetime(2026, 11, 29, 12, 0, 30, tzinfo=UTC)


def _batch(count: int = 120, bad: int = 3):
    events = [s.event for s in simulate(count, seed=5, mix=Mix(leak_ratio=0.4))]
    payloads = [orjson.dumps(e) for e in events] + malformed_payloads(bad, seed=5)
    records = [RawRecord(None, p, Origin("gateway.events", 0, i)) for i, p in enumerate(payloads)]
    return events, process_batch(
        records, worker_id="w1", clean_text_rate=0.0, max_event_bytes=1 << 22
    )


def test_batch_stats_counts_every_version_key_once() -> None:
    events, result = _batch()
    stats = batch_stats(result, "w1", NOW)
    keys = [s.key for s in stats]
    assert len(keys) == len(set(keys))
    cols = result.rows.columns
    expected_total: Counter[str] = Counter()
    expected_leaking: Counter[str] = Counter()
    expected_labels: dict[str, Counter[str]] = {}
    for i in range(len(result.rows)):
        key = "|".join(cols[d][i] for d in DIMS)
        expected_total[key] += 1
        expected_leaking[key] += bool(cols["leaking"][i])
        expected_labels.setdefault(key, Counter()).update(cols["labels"][i])
    by_key = {s.key: s for s in stats}
    for key, total in expected_total.items():
        assert by_key[key].counts["total"] == total
        assert by_key[key].counts["leaking"] == expected_leaking[key]
        assert by_key[key].counts["labels"] == dict(expected_labels[key])
    assert sum(s.counts["total"] for s in stats) == len(events)
    assert by_key[UNKNOWN_KEY].counts["dead_lettered"] == 3
    assert len(expected_total) > 3  # the simulator spreads versions


def test_record_follows_contract_3() -> None:
    _, result = _batch(20, 1)
    record = batch_stats(result, "w1", NOW)[0]
    key, value = record.encode()
    body = orjson.loads(value)
    assert key.decode() == record.key and key.decode().count("|") == 5
    assert set(body) == {
        "v",
        "worker_id",
        "ts",
        "dims",
        "total",
        "leaking",
        "labels",
        "dead_lettered",
    }
    assert body["v"] == 1 and body["worker_id"] == "w1" and body["ts"] == "2026-11-29T12:00:30Z"
    assert version_key(body["dims"]) == record.key
    back = parse_stats(value)
    assert back is not None and back.key == record.key and back.counts == record.counts
    assert parse_stats(orjson.dumps({**body, "v": 2})) is None
    assert parse_stats(b"not json") is None


def test_version_key_keeps_six_fields() -> None:
    key = version_key({"engine_name": "vllm", "engine_version": "0.1|beta", "model_name": ""})
    assert key == "vllm|0.1/beta|unknown|unknown|unknown|unknown"
    assert dims_of(key)["engine_version"] == "0.1/beta"


def _counts(total: int, leaking: int = 0, **labels: int) -> dict:
    return {"total": total, "leaking": leaking, "labels": labels, "dead_lettered": 0}


def test_windows_are_sums_of_buckets() -> None:
    now = 1_000_000_040.0  # 20 s into a minute bucket
    items = [
        (("a", (now - 20, now + 39.9)), _counts(10, 2, preamble=2)),  # current bucket
        (("a", (now - 260, now - 200.1)), _counts(5, 1, preamble=1)),  # 4 min ago
        (["a", [now - 620, now - 560.1]], _counts(7, 7, truncated=7)),  # 10 min, list-shaped
        (("a", (now - 7220, now - 7160.1)), _counts(100)),  # 2 h ago
        (("b", (now - 80, now - 20.1)), _counts(3, 3, boundary_token=3)),
    ]
    buckets = buckets_from_items(items)
    five = window_totals(buckets, now, 300)
    assert five["a"]["total"] == 15 and five["a"]["leaking"] == 3
    assert five["a"]["labels"] == {"preamble": 3}
    assert five["b"]["total"] == 3
    hour = window_totals(buckets, now, 3600)
    assert hour["a"]["total"] == 22 and hour["a"]["labels"] == {"preamble": 3, "truncated": 7}
    day = window_totals(buckets, now, 86400)
    assert day["a"]["total"] == 122


def test_top_rows_fold_the_rest_into_other() -> None:
    totals = {f"k{i}|x|x|x|x|x": _counts(100 - i, i) for i in range(30)}
    rows = top_rows(totals, 5)
    assert [r["key"] for r in rows[:5]] == [f"k{i}|x|x|x|x|x" for i in range(5)]
    assert rows[-1]["key"] == OTHER and rows[-1]["versions"] == 25
    assert rows[-1]["total"] == sum(100 - i for i in range(5, 30))
    assert sum(r["total"] for r in rows) == sum(c["total"] for c in totals.values())


def test_series_steps_cover_the_window() -> None:
    now = 1_000_000_040.0  # 20 s into a minute bucket
    buckets = buckets_from_items(
        [
            (("a", (now - 20, 0)), _counts(4, 1, preamble=1)),
            (("b", (now - 20, 0)), _counts(6, 3, preamble=3)),
            (("a", (now - 1820, 0)), _counts(10, 5, truncated=5)),
        ]
    )
    points = series(buckets, now, 3600, points=60)
    assert len(points) == 60 and all(p["step"] == 60 for p in points)
    assert points[-1]["total"] == 10 and points[-1]["leaking"] == 4
    assert sum(p["total"] for p in points) == 20
    only_a = series(buckets, now, 3600, points=60, keys=["a"])
    assert sum(p["total"] for p in only_a) == 14
    day = series(buckets, now, 86400, points=96)
    assert all(p["step"] == 900 for p in day) and sum(p["total"] for p in day) == 20


def test_add_counts_does_not_mutate() -> None:
    a = _counts(1, 1, x=1)
    b = add_counts(a, _counts(2, 0, x=2, y=1))
    assert a == _counts(1, 1, x=1)
    assert b == {"total": 3, "leaking": 1, "labels": {"x": 3, "y": 1}, "dead_lettered": 0}


def test_highlight_marks_spans_and_keeps_text_inert() -> None:
    text = "ok <script>alert(1)</script> </think> tail"
    start = text.index("</think>")
    segments = highlight(text, [[start, start + 8], [start + 2, start + 5], [-5, 1], [90, 99]])
    assert "".join(s["text"] for s in segments) == text
    marked = [s["text"] for s in segments if s["mark"]]
    assert marked == ["o", "</think>"]
    assert highlight("", []) == [{"text": "", "mark": False}]


def test_sample_ring_is_bounded_filtered_and_paged() -> None:
    ring = SampleRing(size=5)
    for i in range(8):
        ring.add(
            orjson.dumps(
                {
                    "event_id": f"e{i}",
                    "engine": {"name": "vllm", "version": "1" if i % 2 else "2"},
                    "labels": ["preamble"] if i % 3 else ["boundary_token"],
                    "visible_text": "x" * 10,
                    "findings": [{"label": "preamble", "span": [0, 3], "layer": "model"}],
                }
            )
        )
    assert ring.add(b"{broken") is False
    assert ring.seen == 8 and len(ring.items) == 5
    page = ring.page(limit=2)
    assert [i["event_id"] for i in page["items"]] == ["e7", "e6"] and page["total"] == 5
    assert [i["event_id"] for i in ring.page(offset=4, limit=2)["items"]] == ["e3"]
    v1 = "vllm|1|unknown|unknown|unknown|unknown"
    assert [i["event_id"] for i in ring.page(key=v1)["items"]] == ["e7", "e5", "e3"]
    assert [i["event_id"] for i in ring.page(label="boundary_token")["items"]] == ["e6", "e3"]
    assert ring.page()["items"][0]["segments"][0] == {"text": "xxx", "mark": True}
