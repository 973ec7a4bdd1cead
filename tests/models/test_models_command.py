"""``leakline models list|show|promote|rollback`` on a real models directory, and the
worker's model watcher following what it does."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
from classifier_kit import make_variant
from leakline_testkit import leakline

from leakline.models.registry import ModelWatcher, read_registry


def models(models_dir: Path, *args: str):
    return leakline("models", *args, "--models-dir", str(models_dir))


def test_promote_rollback_and_the_watcher_follows(tmp_path: Path) -> None:
    mdir = tmp_path / "models"
    make_variant(mdir, "preamble-v1")
    make_variant(mdir, "preamble-v2")
    watcher = ModelWatcher(mdir, check_every_s=0.0)
    shipped = watcher.version  # nothing promoted here yet: the shipped model

    done = models(mdir, "list")
    assert done.returncode == 0, done.stderr
    assert "(shipped)" in done.stdout and "  preamble-v1  models dir" in done.stdout

    for version in ("preamble-v1", "preamble-v2"):
        done = models(mdir, "promote", version)
        assert done.returncode == 0, done.stderr
        assert watcher.current() is not None and watcher.version == version
    listing = json.loads(models(mdir, "list", "--format", "json").stdout)
    assert listing["live"] == "preamble-v2" and listing["live_from"] == "models dir"
    assert [v["version"] for v in listing["versions"] if v["promoted"]] == ["preamble-v2"]

    done = models(mdir, "rollback")
    assert done.returncode == 0, done.stderr
    assert "preamble-v2 -> preamble-v1" in done.stdout
    assert read_registry(mdir)["promoted"]["version"] == "preamble-v1"
    watcher.current()
    assert watcher.version == "preamble-v1" != shipped


def test_misuse_is_explained(tmp_path: Path) -> None:
    mdir = tmp_path / "models"
    make_variant(mdir, "preamble-v1")
    make_variant(mdir, "preamble-bad", tamper=True)
    done = models(mdir, "rollback")
    assert done.returncode == 2 and "nothing to roll back to" in done.stderr
    done = models(mdir, "promote", "preamble-nope")
    assert done.returncode == 2 and "leakline models list" in done.stderr
    done = models(mdir, "promote", "preamble-bad")  # its hash does not match its card
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert read_registry(mdir)["promoted"] is None
    card = mdir / "preamble-v1" / "card.json"
    doc = orjson.loads(card.read_bytes())
    doc["regressions"] = ["preamble F1 ko 0.90 -> 0.80"]
    card.write_bytes(orjson.dumps(doc))
    done = models(mdir, "promote", "preamble-v1")
    assert done.returncode == 2 and "--force" in done.stderr
    assert models(mdir, "promote", "preamble-v1", "--force").returncode == 0
    assert read_registry(mdir)["promoted"]["forced"] is True
    shown = models(mdir, "show", "preamble-v1")
    assert shown.returncode == 0 and "regressions: preamble F1 ko" in shown.stdout
