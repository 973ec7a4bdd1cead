"""The fleet learner: bounded counting, suggestions, the suggestions file and the CLI."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from leakline.detectors import marker_shapes as ms
from leakline.pipeline.cli import main as cli_main
from leakline.pipeline.worker.marker_learner import (
    MarkerLearner,
    MisraGries,
    WorkerLearner,
    wilson,
)

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "marker_learner.py"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("marker_learner_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_misra_gries_bounds_hold() -> None:
    rng = random.Random(1)
    table = MisraGries(8)
    truth: dict[str, int] = {}
    for _ in range(5000):
        key = f"k{min(int(rng.expovariate(0.3)), 60)}"
        table.add(key)
        truth[key] = truth.get(key, 0) + 1
    assert len(table.counts) <= 8
    for key, n in truth.items():
        assert table.lower(key) <= n <= table.upper(key)
    assert table.lower("k0") > 0  # the heaviest survives


def test_wilson_interval() -> None:
    low, high = wilson(30, 100, 3.0)
    assert 0.0 < low < 0.3 < high < 1.0
    assert wilson(0, 0, 3.0) == (0.0, 1.0)


def _fleet(
    learner: MarkerLearner, leak: str | None, events: int, seed: int = 0
) -> list[dict[str, Any]]:
    """Three versions of one model plus another model; the new version may write ``leak``."""
    rng = random.Random(seed)
    groups = [ms.group_key("m", "vllm", v, "t") for v in ("1", "2", "3")] + [
        ms.group_key("other", "sglang", "1", "t")
    ]
    found = []
    for _ in range(events // 100):
        batch: dict[str, tuple[int, list[Any]]] = {}
        for _ in range(100):
            key = rng.choice(groups)
            n, seen = batch.get(key, (0, []))
            text = rng.choice(["<alice> hi\nok", "Plain.", "[Chorus]\nla la", "<note>\nx\n</note>"])
            if leak is not None and key == groups[2] and rng.random() < 0.3:
                text = f"{leak}\n{text}"
            s = ms.sighting(text, "hello")
            batch[key] = (n + 1, seen + ([s] if s is not None else []))
        learner.add(batch)
        found += learner.review()
    return found


def test_a_version_that_starts_writing_a_marker_is_suggested() -> None:
    learner = MarkerLearner(known=lambda: ())
    assert _fleet(learner, None, 4000) == []
    found = _fleet(learner, "⟨|deliberate|⟩", 3000, seed=1)
    assert [s["shape"] for s in found] == [["⟨|deliberate|⟩"]]
    item = found[0]
    assert item["group"]["engine_version"] == "3"
    assert item["baseline"] == "siblings"
    assert item["interval"][0] <= item["rate"] <= item["interval"][1]
    assert item["row"]["boundary_tokens"] == ["⟨|deliberate|⟩"]
    assert item["row"]["model_patterns"] == ["m"]
    assert 1 <= len(item["examples"]) <= 3


def test_known_literals_and_memory_are_bounded() -> None:
    learner = MarkerLearner(known=lambda: ["⟨|deliberate|⟩"], max_groups=2, max_models=2)
    _fleet(learner, None, 2000)
    assert _fleet(learner, "⟨|deliberate|⟩", 3000, seed=1) == []  # a row has it already
    assert len(learner.groups) <= 2 and len(learner.models) <= 2


def test_worker_learner_file_suggest_and_accept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    worker = WorkerLearner(tmp_path, "w-1", "default", learner=MarkerLearner(known=lambda: ()))
    rng = random.Random(2)
    keys = [ms.group_key("acme-7b", "vllm", v, "t") for v in ("1", "2")]
    for _ in range(60):
        batch: dict[str, tuple[int, list[Any]]] = {}
        for _ in range(100):
            key = rng.choice(keys)
            n, seen = batch.get(key, (0, []))
            text = "<note>\nx\n</note>"
            if key == keys[1] and rng.random() < 0.3:
                text = "〈〈ponder〉〉 mail bob@example.com then 〈〈/ponder〉〉\nAnswer."
            s = ms.sighting(text, "q")
            batch[key] = (n + 1, seen + ([s] if s is not None else []))
        worker.observe(batch)
    assert worker.counts()["pair"] == 1
    assert cli_main(["families", "suggest", "--data-dir", str(tmp_path), "--format", "json"]) == 0
    items = orjson.loads(capsys.readouterr().out)["suggestions"]
    assert len(items) == 1
    item = items[0]
    assert item["status"] == "new" and item["shape"] == ["〈〈ponder〉〉", "〈〈/ponder〉〉"]
    assert item["row"]["reasoning_start"] == ["〈〈ponder〉〉"]
    assert all("bob@example.com" not in e for e in item["examples"])  # redacted
    assert (
        cli_main(["families", "suggest", "--data-dir", str(tmp_path), "--where", "model=nope"]) == 0
    )
    assert "no suggestions" in capsys.readouterr().out
    assert cli_main(["families", "accept", item["id"], "--data-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    families = orjson.loads((tmp_path / "families.json").read_bytes())
    assert [f["name"] for f in families["families"]] == [f"learned-{item['id']}"]
    # accepted: the row now labels the marker (a suggestion alone never did)
    text = "〈〈ponder〉〉 hmm 〈〈/ponder〉〉\nAnswer."
    assert (
        cli_main(
            [
                "families",
                "check",
                text,
                "--data-dir",
                str(tmp_path),
                "--format",
                "json",
                "--model",
                "acme-7b",
            ]
        )
        == 0
    )
    labels = orjson.loads(capsys.readouterr().out)["labels"]
    assert "reasoning_leak" in labels
    assert (
        cli_main(["families", "suggest", "--data-dir", str(tmp_path), "--where", "status=accepted"])
        == 0
    )
    assert item["id"] in capsys.readouterr().out
    assert cli_main(["families", "accept", item["id"], "--data-dir", str(tmp_path)]) == 2


def test_process_batch_collects_sightings() -> None:
    from leakline.pipeline.events.origin import Origin
    from leakline.pipeline.events.process import RawRecord, process_batch

    def record(i: int, text: str) -> RawRecord:
        event = {
            "event_id": f"e{i}",
            "api": "chat.completions",
            "model": {"name": "acme"},
            "engine": {"name": "vllm", "version": "1"},
            "request": {"model": "acme", "messages": [{"role": "user", "content": "hi"}]},
            "response": {
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ]
            },
        }
        return RawRecord(None, orjson.dumps(event), Origin("t", 0, i))

    records = [record(0, "⟨|x_y|⟩ hello"), record(1, "Plain answer.")]
    result = process_batch(
        records, worker_id="w", clean_text_rate=0.0, max_event_bytes=1 << 20, markers=True
    )
    assert result.markers is not None
    [(events, sightings)] = result.markers.values()
    assert events == 2 and sightings[0][0] == (("⟨|x_y|⟩", ms.WHERE_START),)
    plain = process_batch(records, worker_id="w", clean_text_rate=0.0, max_event_bytes=1 << 20)
    assert plain.markers is None


def test_benchmark_seeds_fast() -> None:
    """Five report seeds and a 20k clean fleet (the full figures: benchmarks/README.md)."""
    bench = _bench()
    runs = [bench.leak_run(seed, 3000, 4000, 100) for seed in range(100, 105)]
    assert all(
        r["events_to_suggestion"] is not None and r["events_to_suggestion"] <= 2000 for r in runs
    ), runs
    assert all(not r["false_suggestions"] for r in runs)
    clean = bench.clean_run(100, 20_000, 100)
    assert clean["false_suggestions"] == []


def test_misra_gries_weighted_updates_keep_the_bounds() -> None:
    """``update`` with a batch's counts keeps ``lower <= true <= upper`` like ``add``."""
    rng = random.Random(2)
    table = MisraGries(8)
    truth: dict[str, int] = {}
    for _ in range(300):
        batch: dict[str, int] = {}
        for _ in range(rng.randint(1, 30)):
            key = f"k{min(int(rng.expovariate(0.25)), 60)}"
            batch[key] = batch.get(key, 0) + 1
            truth[key] = truth.get(key, 0) + 1
        table.update(batch.items())
        assert len(table.counts) <= 8
    for key, n in truth.items():
        assert table.lower(key) <= n <= table.upper(key)
    assert table.lower("k0") > 0
    assert table.dropped <= sum(truth.values()) / 9  # Misra-Gries: at most N / (k + 1)
