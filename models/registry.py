"""Versioned artifacts, the promoted pointer, and hot reload.

Layout of a models directory (the shipped one is ``models/artifacts/`` in the package;
``leakline train`` writes to ``DATA_DIR/models`` unless told otherwise)::

    MODELS_DIR/registry.json              {"format": "leakline.registry/1",
                                           "promoted": {"version", "sha256", "promoted_at",
                                                        "forced"} | null,
                                           "history": [... every promotion, oldest first]}
    MODELS_DIR/<name>-<version>/model.json     the artifact (JSON, data only)
    MODELS_DIR/<name>-<version>/card.json      the model card (metrics, hashes, versions)
    MODELS_DIR/<name>-<version>/MODEL_CARD.md  the same card for people

A model is loaded only when the sha256 of its ``model.json`` equals both the hash in
the registry entry and the one in its card.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from leakline.detectors.classifier import ArtifactError, OpeningClassifier, load_artifact

log = logging.getLogger("leakline.models")

REGISTRY = "registry.json"
REGISTRY_FORMAT = "leakline.registry/1"
SHIPPED_DIR = Path(__file__).resolve().parent / "artifacts"


def default_models_dir(data_dir: Path) -> Path:
    return Path(data_dir) / "models"


def read_registry(models_dir: Path) -> dict[str, Any]:
    path = Path(models_dir) / REGISTRY
    if not path.exists():
        return {"format": REGISTRY_FORMAT, "promoted": None, "history": []}
    try:
        doc = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError) as exc:
        raise ArtifactError(f"cannot read {path}: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != REGISTRY_FORMAT:
        raise ArtifactError(f"{path} is not a {REGISTRY_FORMAT} file")
    return doc


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)  # a reader sees the old or the new file, never half of one


def promote(models_dir: Path, version: str, *, forced: bool = False) -> dict[str, Any]:
    """Point the registry at ``models_dir/version`` (its card's sha256 is re-checked)."""
    models_dir = Path(models_dir)
    where = artifact_dir(models_dir, version)
    card = read_card(where)
    load_artifact(where / "model.json", card["sha256"])  # refuse a bad artifact
    doc = read_registry(models_dir)
    entry = {
        "version": version,
        "sha256": card["sha256"],
        "promoted_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "forced": forced,
    }
    doc["promoted"] = entry
    doc.setdefault("history", []).append(entry)
    _write_atomic(
        models_dir / REGISTRY, orjson.dumps(doc, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
    )
    return entry


def artifact_dir(models_dir: Path, version: str) -> Path:
    """``models_dir/version``, refusing a version that would leave the directory: it must
    be one plain name (no separator, not ``.`` or ``..``) and resolve inside it, so a
    symlink out of the directory is refused too."""
    root = Path(models_dir).resolve()
    if version in ("", ".", "..") or "/" in version or "\\" in version or "\0" in version:
        raise ArtifactError(f"model version {version!r} is not a name inside {root}")
    path = root / version
    if path.resolve().parent != root:
        raise ArtifactError(f"model version {version!r} does not resolve inside {root}")
    return path


def read_card(artifact_dir: Path) -> dict[str, Any]:
    path = Path(artifact_dir) / "card.json"
    try:
        card = orjson.loads(path.read_bytes())
    except FileNotFoundError:
        raise ArtifactError(f"no model card at {path}") from None
    except (OSError, orjson.JSONDecodeError) as exc:
        raise ArtifactError(f"cannot read model card {path}: {exc}") from None
    if not isinstance(card, dict) or not isinstance(card.get("sha256"), str):
        raise ArtifactError(f"model card {path} has no sha256")
    return card


def load_version(models_dir: Path, version: str, sha256: str | None = None) -> OpeningClassifier:
    """Load one artifact after checking its hash against its card (and the registry's)."""
    where = artifact_dir(models_dir, version)
    card = read_card(where)
    if sha256 is not None and card["sha256"] != sha256:
        raise ArtifactError(
            f"model card of {version} says sha256 {card['sha256']}, the registry {sha256}"
        )
    return load_artifact(where / "model.json", card["sha256"])


def load_promoted(models_dir: Path) -> OpeningClassifier | None:
    """The promoted model of ``models_dir``; None when nothing was promoted there."""
    entry = read_registry(models_dir).get("promoted")
    if not entry:
        return None
    return load_version(models_dir, str(entry["version"]), str(entry["sha256"]))


def load_current(models_dir: Path | None) -> OpeningClassifier | None:
    """The promoted model of ``models_dir``, else the shipped one, else None."""
    if models_dir is not None:
        model = load_promoted(models_dir)
        if model is not None:
            return model
    return load_promoted(SHIPPED_DIR)


@dataclass
class _Stamp:
    mtime_ns: int
    size: int


def _stamp(path: Path) -> _Stamp | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return _Stamp(st.st_mtime_ns, st.st_size)


class ModelWatcher:
    """Holds the current classifier and swaps in a newly promoted one.

    ``current()`` is called once per batch; it stats the registry file at most every
    ``check_every_s`` seconds and reloads only when its mtime or size changed. A model
    that fails its hash check or does not parse is refused: the old one stays.
    ``refusals`` counts those refusals (at start-up too), for the worker's
    ``leakline_model_reload_failures_total``.
    """

    def __init__(
        self, models_dir: Path | None, check_every_s: float = 2.0, clock: Any = time.monotonic
    ) -> None:
        self.models_dir = Path(models_dir) if models_dir is not None else None
        self.check_every_s = check_every_s
        self.clock = clock
        self.model: OpeningClassifier | None = None
        self._seen: _Stamp | None = None
        self._last_check = clock()
        self.refusals = 0
        try:
            self._seen = self._registry_stamp()
            self.model = load_current(self.models_dir)
        except ArtifactError as exc:
            self.refusals += 1
            log.error("classifier not loaded, running without it: %s", exc)
            try:
                self.model = load_promoted(SHIPPED_DIR)
            except ArtifactError as shipped_exc:
                log.error("the shipped classifier does not load either: %s", shipped_exc)
        if self.model is not None:
            log.info("classifier %s loaded", self.model.version)

    def _registry_stamp(self) -> _Stamp | None:
        return _stamp(self.models_dir / REGISTRY) if self.models_dir is not None else None

    @property
    def version(self) -> str | None:
        return self.model.version if self.model is not None else None

    def current(self) -> OpeningClassifier | None:
        now = self.clock()
        if now - self._last_check < self.check_every_s:
            return self.model
        self._last_check = now
        stamp = self._registry_stamp()
        if stamp == self._seen:
            return self.model
        self._seen = stamp
        try:
            fresh = load_promoted(self.models_dir) if self.models_dir is not None else None
        except ArtifactError as exc:
            self.refusals += 1
            fresh = self._last_good()
            kept = fresh.version if fresh is not None else self.version
            log.error("refused the newly promoted classifier, keeping %s: %s", kept, exc)
        if fresh is not None and (self.model is None or fresh.sha256 != self.model.sha256):
            log.info("classifier reloaded: %s -> %s", self.version, fresh.version)
            self.model = fresh
        return self.model

    def _last_good(self) -> OpeningClassifier | None:
        """The newest promotion in the registry's history that still loads, if any.

        Each batch process follows the registry on its own, so one that took no batch
        between a good promotion and a refused one would otherwise keep an older model
        than its siblings. Falling back to the last good promotion keeps them on one."""
        if self.models_dir is None:
            return None
        try:
            history = read_registry(self.models_dir).get("history")
        except ArtifactError:
            return None
        for entry in reversed(history if isinstance(history, list) else []):
            if not isinstance(entry, dict):
                continue
            if self.model is not None and entry.get("sha256") == self.model.sha256:
                return self.model  # what it runs is the newest good one: nothing to load
            try:
                return load_version(self.models_dir, str(entry["version"]), str(entry["sha256"]))
            except (ArtifactError, KeyError):
                continue
        return None
