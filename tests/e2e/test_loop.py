"""The whole loop on real parts (issue 4's acceptance):

simulated traffic -> Tansu -> worker -> store -> ``export`` (+ regression cases) ->
``review`` of a few labels -> ``train`` -> promote -> the running worker hot-reloads the
new model -> ``gate`` against ``engine-sim``: a good profile passes, a leaky one fails (1).

Every step is the ``leakline`` command a user would type, run as a subprocess.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest
from leakline_testkit import spawn_worker, wait_stored

from leakline.models.registry import read_registry
from leakline.pipeline.demo import stop_process
from leakline.pipeline.gate.engine.sim import spawn_engine_sim
from leakline.pipeline.kafka.io import produce
from leakline.pipeline.simulate.traffic_model import Mix, simulate
from leakline.pipeline.store.database import read_only

pytestmark = pytest.mark.slow


def leakline(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "leakline.pipeline.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def send(bootstrap: str, events: list[dict]) -> None:
    report = asyncio.run(produce(bootstrap, "gateway.events", [orjson.dumps(e) for e in events]))
    assert report.failed == 0


def classifier_versions(data_dir: Path, id_prefix: str) -> set[str]:
    with read_only(data_dir) as con:
        rows = con.execute(
            "select distinct classifier_version from samples where event_id like ?",
            [f"{id_prefix}%"],
        ).fetchall()
    return {r[0] for r in rows}


def test_traffic_export_review_train_reload_and_gate(broker, tmp_path: Path) -> None:
    data, models = tmp_path / "data", tmp_path / "models"
    export_dir, cases = tmp_path / "export", tmp_path / "regression"
    first = [s.event for s in simulate(1500, seed=101, mix=Mix(leak_ratio=0.35))]
    worker = spawn_worker(broker.bootstrap, data, "--models-dir", str(models))
    sim_procs: list[subprocess.Popen[bytes]] = []
    try:
        # 1. traffic through the broker and worker into the store
        send(broker.bootstrap, first)
        wait_stored(worker, len(first), timeout_s=240)
        shipped = read_registry(Path(__file__).resolve().parents[2] / "models" / "artifacts")
        assert classifier_versions(data, "") == {shipped["promoted"]["version"]}

        # 2. export training samples and regression cases
        done = leakline("export", "--data-dir", data, "--out", export_dir, "--quiet")
        assert done.returncode == 0, done.stderr
        # one case per version and label set keeps the gate runs below short
        done = leakline(
            "export",
            "--data-dir",
            data,
            "--out",
            tmp_path / "export-cases",
            "--regression",
            cases,
            "--per-version-cap",
            "1",
            "--quiet",
        )
        assert done.returncode == 0, done.stderr
        manifest = json.loads((export_dir / "manifest.json").read_text())
        assert manifest["counts"]["total"] > 100
        case_files = sorted((cases / "cases").glob("*.json"))
        assert len(case_files) >= 10

        # 3. a person reviews a few labels: confirm one leak, correct another to clean
        lines = [json.loads(x) for x in (export_dir / "samples.jsonl").read_text().splitlines()]
        leaks = [x for x in lines if x["labels"]]
        confirm, correct = leaks[0]["event_id"], leaks[1]["event_id"]
        done = leakline(
            "review",
            "--data-dir",
            data,
            "--accept",
            confirm,
            "--set",
            f"{correct}=",
            "--reviewer",
            "loop-test",
        )
        assert done.returncode == 0, done.stderr
        done = leakline("export", "--data-dir", data, "--out", tmp_path / "export2", "--quiet")
        assert done.returncode == 0, done.stderr
        reviewed = {
            x["event_id"]: x
            for x in map(
                json.loads, (tmp_path / "export2" / "samples.jsonl").read_text().splitlines()
            )
        }
        assert reviewed[confirm]["label_source"] == "reviewed"
        assert reviewed.get(correct, {"labels": []})["labels"] == []  # corrected to clean

        # 4. train on the reviewed export plus the project's corpus; it must be promoted
        done = leakline(
            "train",
            "--data",
            tmp_path / "export2",
            "--with-corpus",
            "--models-dir",
            models,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        promoted = read_registry(models)["promoted"]["version"]
        assert promoted != shipped["promoted"]["version"]

        # 5. the running worker picks the new model up without a restart
        later = [
            {**s.event, "event_id": f"after-{s.event['event_id']}"} for s in simulate(300, seed=202)
        ]
        deadline = time.monotonic() + 120
        sent = 0
        while time.monotonic() < deadline:
            send(broker.bootstrap, later[sent : sent + 50])
            sent += 50
            wait_stored(worker, len(first) + sent, timeout_s=120)
            if promoted in classifier_versions(data, "after-"):
                break
            if sent >= len(later):
                break
            time.sleep(1.0)
        assert promoted in classifier_versions(data, "after-"), "the worker never reloaded"
        assert worker.proc.poll() is None  # no restart happened

        # 6. gate a candidate engine: the good profile against a stored fleet version...
        good, good_url = spawn_engine_sim("good", log_path=tmp_path / "sim-good.log")
        sim_procs.append(good)
        with read_only(data) as con:
            (fleet_version,) = con.execute(
                "select engine_version from samples group by 1 order by count(*) desc limit 1"
            ).fetchone()
        # the candidates' rows go into the same store, next to the fleet they are gated on
        done = leakline(
            "gate",
            "--regression",
            cases,
            "--endpoint",
            good_url,
            "--model",
            "sim-good",
            "--engine-name",
            "engine-sim",
            "--engine-version",
            "good-1",
            "--data-dir",
            data,
            "--report",
            tmp_path / "good.json",
            "--baseline-version",
            f"engine.version={fleet_version}",
            # no gate run of the fleet version yet: compare with its production traffic
            "--baseline-from",
            "production",
            timeout=900,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
        assert json.loads((tmp_path / "good.json").read_text())["passed"] is True

        # ...then a leaky build against the good one, stored by the first gate run
        leaky, leaky_url = spawn_engine_sim("leaky", log_path=tmp_path / "sim-leaky.log")
        sim_procs.append(leaky)
        done = leakline(
            "gate",
            "--regression",
            cases,
            "--endpoint",
            leaky_url,
            "--model",
            "sim-leaky",
            "--engine-name",
            "engine-sim",
            "--engine-version",
            "leaky-2",
            "--data-dir",
            data,
            "--report",
            tmp_path / "leaky.json",
            "--baseline-version",
            "engine.version=good-1",
            timeout=900,
        )
        assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]
        report = json.loads((tmp_path / "leaky.json").read_text())
        assert report["passed"] is False and report["regressed_labels"]
    finally:
        for proc in sim_procs:
            stop_process(proc)
        code = worker.stop()
    assert code == 0, worker.log_text()[-3000:]
