"""notebooks/per_version_leak_rates.ipynb runs against a generated store and shows its data."""

from __future__ import annotations

import csv
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from leakline_testkit import verdict
from nb_store import NEW, OLD, UpgradeStore

from leakline.pipeline.events.normalise import normalise
from leakline.pipeline.events.origin import Origin
from leakline.pipeline.events.rows import RowBuilder
from leakline.pipeline.query.filters import Where
from leakline.pipeline.query.stats import wilson
from leakline.pipeline.store.database import init_store, query_rates, read_only
from leakline.pipeline.store.sink import ParquetSink

pytestmark = pytest.mark.slow  # each test starts a Jupyter kernel

GATE_VERSION = "0.99.0-gate"
NOW = datetime(2026, 11, 3, 12, 0, tzinfo=UTC)

FIGURES = (
    "rates_by_version.png",
    "label_rates_by_version.png",
    "stream_stop_heatmap.png",
    "upgrade_timeseries.png",
)


def _with_gate_replays(store: UpgradeStore, data_dir: Path) -> UpgradeStore:
    """A copy of the store plus a gate run of a vLLM candidate that leaks every time:
    replays are not production traffic, so the notebook must not plot them."""
    shutil.copytree(store.data_dir, data_dir)
    rows = RowBuilder("gate", clean_text_rate=0.0)
    for i in range(60):
        e = {
            "event_id": f"gate-nb-{i}",
            "ts": "2026-11-03T11:00:00Z",
            "api": "chat.completions",
            "request": {"messages": [{"role": "user", "content": "hi"}]},
            "response": {"choices": [{"message": {"content": "x"}, "finish_reason": "stop"}]},
            "engine": {"name": "vllm", "version": GATE_VERSION},
            "model": {"name": "Qwen/Qwen3-8B"},
        }
        rows.add(
            e, normalise(e), verdict(e["event_id"], ["preamble"]), Origin("gate-nb", 0, i), NOW
        )
    ParquetSink(data_dir).write(rows.table())
    init_store(data_dir)
    return UpgradeStore(data_dir, store.events, store.upgrade_first_ts)


def test_notebook_plots_rates_heatmaps_and_the_upgrade(
    upgrade_store: UpgradeStore, run_notebook, tmp_path: Path
) -> None:
    upgrade_store = _with_gate_replays(upgrade_store, tmp_path / "with-gate")
    done = run_notebook(
        "per_version_leak_rates.ipynb", LEAKLINE_DATA_DIR=str(upgrade_store.data_dir)
    )

    for name in FIGURES:
        png = done.figures / name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
        assert png.stat().st_size > 5000, name  # a real plot, not an empty canvas
    assert done.png_outputs() == len(FIGURES)

    # the printed/CSV table is what `leakline rates` computes from the same store
    with read_only(upgrade_store.data_dir) as con:
        expected = query_rates(
            con, ["engine.name", "engine.version", "model.name"], Where().production_only()
        )
    with (done.figures / "rates_by_version.csv").open() as f:
        table = list(csv.DictReader(f))
    assert [
        (r["engine_name"], r["engine_version"], r["model_name"], int(r["total"]), int(r["leaking"]))
        for r in table
    ] == [
        (r["engine.name"], r["engine.version"], r["model.name"], r["total"], r["leaking"])
        for r in expected
    ]
    assert sum(int(r["total"]) for r in table) == upgrade_store.events
    text = done.stream_text()
    assert GATE_VERSION not in text
    for r in expected[:3]:
        low, high = wilson(r["leaking"], r["total"])
        assert (
            f"{r['total']:>6} {r['leaking']:>7} {r['rate']:>7.2%} "
            f"{round(low, 4):>6.1%}–{round(high, 4):<6.1%}"
        ) in text
    assert [float(r["rate_low"]) for r in table] == [
        round(wilson(r["leaking"], r["total"])[0], 4) for r in expected
    ]

    # it found the upgrade where the data has it
    first = upgrade_store.upgrade_first_ts.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert f"upgrade: vllm {OLD} -> {NEW} at {first}" in text
    with (done.figures / "upgrade_series.csv").open() as f:
        series = list(csv.DictReader(f))
    assert {r["engine_version"] for r in series} == {OLD, NEW}
    upgrade_s = upgrade_store.upgrade_first_ts.timestamp()
    assert "bucket: 5 min" in text  # three hours of data: 36 buckets of five minutes
    for r in series:  # old version before the upgrade, new one after it
        assert float(r["bucket"]) % 300 == 0
        if r["engine_version"] == OLD:
            assert float(r["bucket"]) <= upgrade_s
        else:
            assert float(r["bucket"]) + 300 > upgrade_s
    assert sum(int(r["total"]) for r in series) == sum(
        r["total"] for r in expected if r["engine.name"] == "vllm"
    )
    assert datetime.fromtimestamp(min(float(r["bucket"]) for r in series), UTC).hour == 9
    with read_only(upgrade_store.data_dir) as con:
        before, after = con.execute(
            "SELECT count(*) FILTER (WHERE leaking) / count(*) FROM "
            "(SELECT epoch(ts) >= ? AS after, leaking FROM samples WHERE engine_name = 'vllm' "
            "AND row_source(src_topic) = 'production') "
            "GROUP BY after ORDER BY after",
            [upgrade_s],
        ).fetchall()
    assert f"before the upgrade: {before[0]:.2%}" in text
    assert f"after  the upgrade: {after[0]:.2%}" in text
    assert before[0] > after[0]  # the simulated fleet: 0.31.0 leaks less than 0.30.2


def test_notebook_says_clearly_when_there_is_no_store(tmp_path, run_notebook) -> None:
    from nbclient.exceptions import CellExecutionError

    with pytest.raises(CellExecutionError) as err:
        run_notebook("per_version_leak_rates.ipynb", LEAKLINE_DATA_DIR=str(tmp_path / "nothing"))
    assert "no store at" in str(err.value)
