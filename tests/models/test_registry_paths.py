"""Models load only from inside their models directory (issue 18, item 5).

Real artifact files: a valid artifact (a copy of the shipped one, hashes intact) is put
outside the models directory, and the registry names it by a version that climbs out.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import orjson
import pytest

from leakline.detectors.classifier import ArtifactError
from leakline.models.registry import (
    REGISTRY,
    REGISTRY_FORMAT,
    SHIPPED_DIR,
    ModelWatcher,
    load_promoted,
    load_version,
    promote,
    read_registry,
)


def _shipped_version() -> str:
    return str(read_registry(SHIPPED_DIR)["promoted"]["version"])


def _point_registry(models_dir: Path, version: str, sha256: str) -> None:
    models_dir.mkdir(parents=True, exist_ok=True)
    entry = {"version": version, "sha256": sha256, "promoted_at": "x", "forced": False}
    doc = {"format": REGISTRY_FORMAT, "promoted": entry, "history": [entry]}
    (models_dir / REGISTRY).write_bytes(orjson.dumps(doc))


@pytest.fixture
def outside(tmp_path: Path) -> tuple[Path, str]:
    """A valid artifact at tmp/outside/evil (version "evil", hashes matching), and its
    sha256."""
    evil = tmp_path / "outside" / "evil"
    shutil.copytree(SHIPPED_DIR / _shipped_version(), evil)
    model = orjson.loads((evil / "model.json").read_bytes())
    model["version"] = "evil"
    data = orjson.dumps(model)
    (evil / "model.json").write_bytes(data)
    card = orjson.loads((evil / "card.json").read_bytes())
    card["sha256"] = hashlib.sha256(data).hexdigest()
    (evil / "card.json").write_bytes(orjson.dumps(card))
    return evil, card["sha256"]


ESCAPES = ["../outside/evil", "..", "../outside", "/abs/evil", "a/../../outside/evil", ""]


@pytest.mark.parametrize("version", ESCAPES)
def test_a_version_that_leaves_the_models_dir_is_refused(
    tmp_path: Path, outside: tuple[Path, str], version: str
) -> None:
    models = tmp_path / "models"
    if version == "/abs/evil":
        version = str(outside[0])
    _point_registry(models, version, outside[1])
    with pytest.raises(ArtifactError, match="inside"):
        load_promoted(models)
    with pytest.raises(ArtifactError, match="inside"):
        load_version(models, version)
    with pytest.raises(ArtifactError, match="inside"):
        promote(models, version)


def test_a_symlink_out_of_the_models_dir_is_refused(
    tmp_path: Path, outside: tuple[Path, str]
) -> None:
    models = tmp_path / "models"
    models.mkdir()
    (models / "linked").symlink_to(outside[0], target_is_directory=True)
    _point_registry(models, "linked", outside[1])
    with pytest.raises(ArtifactError, match="inside"):
        load_promoted(models)


def test_the_worker_keeps_the_shipped_model_when_the_registry_points_outside(
    tmp_path: Path, outside: tuple[Path, str]
) -> None:
    models = tmp_path / "models"
    _point_registry(models, "../outside/evil", outside[1])
    watcher = ModelWatcher(models)
    assert watcher.model is not None and watcher.version == _shipped_version()


def test_a_version_inside_the_models_dir_still_loads(tmp_path: Path) -> None:
    models = tmp_path / "models"
    version = _shipped_version()
    shutil.copytree(SHIPPED_DIR / version, models / version)
    promote(models, version)
    model = load_promoted(models)
    assert model is not None and model.version == version
