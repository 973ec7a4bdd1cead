"""Hot reload: a running worker follows the promoted pointer and refuses bad artifacts."""

from __future__ import annotations

import asyncio
import logging
import re
import time
import urllib.request
from pathlib import Path

import orjson
import pytest
from classifier_kit import CLEAN, MISSED, event, make_variant
from leakline_testkit import spawn_worker, wait_stored

from leakline.models.registry import REGISTRY, SHIPPED_DIR, ModelWatcher, promote, read_registry
from leakline.pipeline.kafka.broker import free_port
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.store.database import read_only


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _point_registry_at(models_dir: Path, version: str, sha: str) -> None:
    """What a careless copy would do: point the registry at an artifact without checks."""
    doc = read_registry(models_dir)
    doc["promoted"] = {"version": version, "sha256": sha, "promoted_at": "x", "forced": True}
    (models_dir / REGISTRY).write_bytes(orjson.dumps(doc))


def _watching(tmp_path: Path) -> tuple[Path, Clock, ModelWatcher, str]:
    """An empty models dir, a manual clock, a watcher checking every 2 s, and the shipped
    model's version (what the watcher runs until something is promoted)."""
    models = tmp_path / "models"
    models.mkdir()
    clock = Clock()
    watcher = ModelWatcher(models, check_every_s=2.0, clock=clock)
    return models, clock, watcher, read_registry(SHIPPED_DIR)["promoted"]["version"]


def test_watcher_swaps_in_a_promoted_model_and_refuses_a_tampered_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    models, clock, watcher, shipped = _watching(tmp_path)
    assert watcher.version == shipped  # nothing promoted here yet: the shipped model

    make_variant(models, "preamble-v2")
    promote(models, "preamble-v2")
    assert watcher.current().version == shipped  # not checked again before 2 s
    clock.now += 2.5
    assert watcher.current().version == "preamble-v2"

    sha = make_variant(models, "preamble-v3", tamper=True)
    _point_registry_at(models, "preamble-v3", sha)
    clock.now += 2.5
    with caplog.at_level(logging.ERROR, logger="leakline.models"):
        assert watcher.current().version == "preamble-v2"
    assert "refused the newly promoted classifier" in caplog.text
    assert "does not match" in caplog.text
    assert watcher.refusals == 1  # leakline_model_reload_failures_total counts these
    clock.now += 2.5
    assert watcher.current().version == "preamble-v2"  # not retried until the pointer moves
    assert watcher.refusals == 1


def test_a_watcher_that_missed_a_good_promotion_refuses_the_next_onto_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A batch process that took no batch between a good promotion and a tampered one
    # lands on the last good promotion, like its siblings that saw both, not on the
    # model it had before (the shipped one here).
    models, clock, watcher, shipped = _watching(tmp_path)
    assert watcher.version == shipped
    make_variant(models, "preamble-v2")
    promote(models, "preamble-v2")
    sha = make_variant(models, "preamble-v3", tamper=True)
    _point_registry_at(models, "preamble-v3", sha)
    clock.now += 2.5
    with caplog.at_level(logging.INFO, logger="leakline.models"):
        assert watcher.current().version == "preamble-v2"
    assert "refused the newly promoted classifier, keeping preamble-v2" in caplog.text
    assert f"classifier reloaded: {shipped} -> preamble-v2" in caplog.text
    assert watcher.refusals == 1
    # nothing good in the history at all: it keeps what it runs
    other = tmp_path / "other"
    other.mkdir()
    lone = ModelWatcher(other, check_every_s=2.0, clock=clock)
    _point_registry_at(other, "preamble-bad", make_variant(other, "preamble-bad", tamper=True))
    clock.now += 2.5
    assert lone.current().version == shipped and lone.refusals == 1


def _send(bootstrap: str, payloads: list[bytes]) -> None:
    report = asyncio.run(produce(bootstrap, "gateway.events", payloads))
    assert report.failed == 0 and report.sent == len(payloads)


def _versions(data_dir: Path) -> dict[str, str | None]:
    with read_only(data_dir) as con:
        rows = con.execute("select event_id, classifier_version from samples_all").fetchall()
    return dict(rows)


def _scrape(port: int) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    out: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return out


def _batch(prefix: str, n: int) -> list[bytes]:
    return [event(f"{prefix}-{i}", MISSED if i % 2 else CLEAN) for i in range(n)]


@pytest.mark.slow
def test_running_worker_picks_up_a_promoted_model_without_restart(broker, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data_dir = tmp_path / "data"
    models = tmp_path / "models"
    models.mkdir()
    shipped = read_registry(SHIPPED_DIR)["promoted"]["version"]
    port = free_port()
    worker = spawn_worker(
        broker.bootstrap,
        data_dir,
        "--models-dir",
        str(models),
        "--batch-within",
        "0.3",
        "--web",
        "--web-port",
        str(port),
    )
    try:
        _send(broker.bootstrap, _batch("a", 20))
        wait_stored(worker, 20, timeout_s=180)
        before = _versions(data_dir)
        assert set(before.values()) == {shipped}
        # /metrics: the model the batch process runs, nothing refused yet
        metrics = _scrape(port)
        assert metrics["leakline_model_info"] == {(("version", shipped),): 1.0}
        assert metrics["leakline_model_reload_failures_total"] == {(): 0.0}

        make_variant(models, "preamble-hot-2")
        promote(models, "preamble-hot-2")
        # keep sending small batches until a row carries the new version
        sent = 20
        deadline = time.monotonic() + 90
        switched = False
        round_no = 0
        while time.monotonic() < deadline and not switched:
            _send(broker.bootstrap, _batch(f"b{round_no}", 4))
            sent += 4
            round_no += 1
            wait_stored(worker, sent, timeout_s=120)
            switched = "preamble-hot-2" in _versions(data_dir).values()
        assert switched, worker.log_text()[-3000:]
        assert worker.proc.poll() is None  # same process, no restart
        assert "classifier reloaded" in worker.log_text()

        # a tampered artifact is refused: the worker keeps the model it has
        sha = make_variant(models, "preamble-hot-3", tamper=True)
        _point_registry_at(models, "preamble-hot-3", sha)
        deadline = time.monotonic() + 60
        while "refused the newly promoted classifier" not in worker.log_text():
            assert time.monotonic() < deadline, worker.log_text()[-3000:]
            _send(broker.bootstrap, _batch(f"c{round_no}", 2))
            sent += 2
            round_no += 1
            wait_stored(worker, sent, timeout_s=120)
        _send(broker.bootstrap, _batch("d", 10))
        sent += 10
        wait_stored(worker, sent, timeout_s=120)
        after = _versions(data_dir)
        assert {after[f"d-{i}"] for i in range(10)} == {"preamble-hot-2"}
        # the refusal came back from the batch process and is counted; the model kept shows
        metrics = _scrape(port)
        assert metrics["leakline_model_info"] == {(("version", "preamble-hot-2"),): 1.0}
        # each batch process follows the registry itself: one refusal per process that
        # took a batch since the pointer moved
        processes = int(re.search(r"ready for batches \((\d+) child", worker.log_text())[1])
        refused = metrics["leakline_model_reload_failures_total"][()]
        assert 1 <= refused <= processes, (refused, processes)
        assert refused == worker.log_text().count("refused the newly promoted classifier")
        assert "preamble-hot-3" not in after.values()
        assert {after[f"a-{i}"] for i in range(20)} == {shipped}
        # and the classifier still labels: odd-numbered events are preambles it catches
        with read_only(data_dir) as con:
            labels = dict(con.execute("select event_id, labels from samples").fetchall())
        assert all(labels[f"d-{i}"] == (["preamble"] if i % 2 else []) for i in range(10))
    finally:
        worker.stop()
