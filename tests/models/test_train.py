"""`leakline train`: writes versioned artifacts, promotes only without regression."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from leakline.models.registry import load_promoted, read_registry
from leakline.pipeline.cli import main


def _train(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["train", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_train_promotes_refuses_a_regression_and_force_overrides(
    tmp_path: Path,
    write_export: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    good = write_export("good.jsonl")
    models = tmp_path / "models"

    status, out, _ = _train(capsys, "--data", str(good), "--models-dir", str(models), "--force")
    assert status == 0, out
    first = read_registry(models)["promoted"]
    card = orjson.loads((models / first["version"] / "card.json").read_bytes())
    assert card["sha256"] == first["sha256"]
    assert card["data"]["manifest_sha256"].startswith("sha256:")
    assert {"en", "ko", "zh"} <= set(card["metrics"]["preamble"])
    assert card["libraries"]["scikit-learn"]
    assert (models / first["version"] / "MODEL_CARD.md").read_text().startswith("# Model card")
    assert "held-out split" in out and "preamble" in out

    # the same data again: no regression against the promoted model, so it is promoted
    status, out, _ = _train(capsys, "--data", str(good), "--models-dir", str(models))
    assert status == 0, out
    second = read_registry(models)["promoted"]
    assert second["version"] != first["version"]
    assert f"compared with {first['version']}" in out

    # the same data with a crippled estimator (almost no capacity): F1 collapses on the
    # same held-out split, so the registry stays put
    monkeypatch.setattr("leakline.models.train.C", 1e-4)
    bad = good
    status, out, _ = _train(capsys, "--data", str(bad), "--models-dir", str(models))
    assert status == 1
    assert "not promoted" in out and "regressions:" in out
    assert read_registry(models)["promoted"] == second
    refused = sorted(p.name for p in models.iterdir() if p.is_dir())
    assert len(refused) == 3  # the refused artifact is kept for inspection

    status, out, _ = _train(capsys, "--data", str(bad), "--models-dir", str(models), "--force")
    assert status == 0
    forced = read_registry(models)["promoted"]
    assert forced["forced"] is True and forced["version"] not in (
        first["version"],
        second["version"],
    )
    assert load_promoted(models).version == forced["version"]


def test_export_directory_is_accepted(
    tmp_path: Path, write_export: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    export = write_export("samples.jsonl", keep=lambda e: e["lang"] != "zh")
    status, out, _ = _train(
        capsys, "--data", str(export.parent), "--models-dir", str(tmp_path / "m"), "--force"
    )
    assert status == 0, out
    card_dir = next(p for p in (tmp_path / "m").iterdir() if p.is_dir())
    card = orjson.loads((card_dir / "card.json").read_bytes())
    assert set(card["data"]["counts"]["by_lang"]) == {"en", "ko"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--data", "/nonexistent/export.jsonl"], "no training data at"),
        ([], "nothing to train on"),
        (["--data", "EMPTY"], "no usable lines"),
        (["--data", "GARBAGE"], "is not an export line"),
    ],
)
def test_bad_data_gives_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    (tmp_path / "empty.jsonl").write_text("\n")
    (tmp_path / "garbage.jsonl").write_text("{not json\n")
    args = [
        str(tmp_path / "empty.jsonl")
        if a == "EMPTY"
        else str(tmp_path / "garbage.jsonl")
        if a == "GARBAGE"
        else a
        for a in args
    ]
    status, _, err = _train(capsys, *args, "--models-dir", str(tmp_path / "m"))
    assert status == 2
    assert message in err and "hint:" in err
    assert "Traceback" not in err
    assert not (tmp_path / "m" / "registry.json").exists()


def test_too_few_preambles_is_refused_before_writing(
    tmp_path: Path, write_export: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    export = write_export("few.jsonl", keep=lambda e: "preamble" not in e["labels"])
    status, _, err = _train(capsys, "--data", str(export), "--models-dir", str(tmp_path / "m"))
    assert status == 2 and "not enough preamble examples" in err
    assert not (tmp_path / "m").exists() or not any((tmp_path / "m").iterdir())


def test_a_head_with_no_baseline_is_withheld_unless_asked_for(
    tmp_path: Path,
    write_export: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The written texts hold untagged self-talk, so a reasoning_leak head is fitted; the
    shipped model (the baseline of an empty models dir) has none to compare it with."""
    monkeypatch.setattr("leakline.models.train.MIN_EXTRA_HEAD_F1", 0.0)  # not dropped as weak
    export = write_export("samples.jsonl")
    models = tmp_path / "models"

    def heads(version: str) -> list[str]:
        doc = orjson.loads((models / version / "model.json").read_bytes())
        return [h["label"] for h in doc["heads"]]

    # --force: promoted despite F1 regressions against the shipped model, and still withheld
    status, out, _ = _train(capsys, "--data", str(export), "--models-dir", str(models), "--force")
    assert status == 0, out
    first = read_registry(models)["promoted"]["version"]
    card = orjson.loads((models / first / "card.json").read_bytes())
    assert heads(first) == ["preamble"]
    assert "no baseline" in card["withheld"]["reasoning_leak"] and card["new_heads"] == []
    assert "head reasoning_leak withheld: no baseline" in out
    assert "reasoning_leak" not in card["metrics"]
    assert main(["models", "show", first, "--models-dir", str(models)]) == 0
    assert "reasoning_leak: withheld (no baseline" in capsys.readouterr().out

    # asked for: shipped, and said so
    status, out, _ = _train(
        capsys, "--data", str(export), "--models-dir", str(models), "--new-heads"
    )
    assert status == 0, out
    second = read_registry(models)["promoted"]["version"]
    assert heads(second) == ["preamble", "reasoning_leak"]
    card = orjson.loads((models / second / "card.json").read_bytes())
    assert card["new_heads"] == ["reasoning_leak"] and card["withheld"] == {}
    assert "new heads without a baseline, shipped (--new-heads): reasoning_leak" in out

    # now the promoted model has the head: the next model's head has a baseline and ships
    status, out, _ = _train(capsys, "--data", str(export), "--models-dir", str(models))
    assert status == 0, out
    third = read_registry(models)["promoted"]["version"]
    assert heads(third) == ["preamble", "reasoning_leak"]
    card = orjson.loads((models / third / "card.json").read_bytes())
    assert card["new_heads"] == [] and card["withheld"] == {}
    assert "reasoning_leak" in card["baseline"]["metrics"]


def test_a_language_with_nothing_predicted_shows_no_precision_and_says_why_it_promotes(
    tmp_path: Path,
    write_export: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A model with almost no capacity predicts nothing: precision is undefined there
    (no predictions), not 1.000, and the output says what the promotion rule decided."""
    data = write_export("good.jsonl")
    models = tmp_path / "models"
    status, out, _ = _train(capsys, "--data", str(data), "--models-dir", str(models), "--force")
    assert status == 0, out
    monkeypatch.setattr("leakline.models.train.C", 1e-4)

    # against a working promoted model: the silent languages are regressions, refused
    status, out, _ = _train(capsys, "--data", str(data), "--models-dir", str(models))
    assert status == 1, out
    rows = [line.split() for line in out.splitlines() if line.startswith("preamble ")]
    silent = [r for r in rows if r[1] != "all" and r[2] == "–"]
    assert silent, out
    assert all(r[3] == "0.000" for r in silent), out  # recall 0 on real positives
    assert not any(r[2] == "1.000" and r[3] == "0.000" for r in rows), out
    for r in silent:
        assert f"preamble/{r[1]}: nothing predicted" in out
        assert "blocks promotion" in out

    # forced in, then the same crippled training again: F1 cannot drop below 0, so the
    # rule lets it through, and the output says so rather than printing P 1.000
    status, out, _ = _train(capsys, "--data", str(data), "--models-dir", str(models), "--force")
    assert status == 0, out
    status, out, _ = _train(capsys, "--data", str(data), "--models-dir", str(models))
    assert status == 0, out
    assert "promoted: " in out
    rows = [line.split() for line in out.splitlines() if line.startswith("preamble ")]
    for lang in (r[1] for r in rows if r[1] != "all" and r[2] == "–"):
        assert f"preamble/{lang}: nothing predicted" in out
    assert "no loss against the promoted model" in out, out
