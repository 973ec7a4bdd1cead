"""The artifact format: numpy inference equals scikit-learn; hashes are checked on load."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

from leakline.detectors.classifier import (
    ArtifactError,
    FeatureSpec,
    Head,
    OpeningClassifier,
    featurize,
    ngram_bucket,
    parse_artifact,
    sha256_hex,
)
from leakline.models.registry import (
    SHIPPED_DIR,
    load_promoted,
    load_version,
    promote,
    read_registry,
)
from leakline.models.texts import composed_examples

TEXTS = [e["text"] for e in composed_examples(0)]
TARGETS = np.array([int("preamble" in e["labels"]) for e in composed_examples(0)])


def _matrix(texts: list[str], spec: FeatureSpec) -> csr_matrix:
    row, col, value = featurize(texts, spec)
    return csr_matrix((value, (row, col)), shape=(len(texts), spec.buckets))


def test_numpy_scores_equal_sklearn_predict_proba_after_a_json_round_trip() -> None:
    spec = FeatureSpec()
    x = _matrix(TEXTS, spec)
    model = LogisticRegression(C=10.0, solver="liblinear").fit(x, TARGETS)
    head = Head("preamble", float(model.intercept_[0]), 0.5, model.coef_[0].astype(np.float64))
    artifact = OpeningClassifier("preamble", "t-1", spec, (head,)).to_json()
    loaded = parse_artifact(artifact, sha256_hex(artifact))

    unseen = [
        "Let me look that up for you.\n\nIt opens at nine.",
        "먼저 자료를 확인해 볼게요.",
        "答案是42。",
        "",
        "   ",
        "🙂 emoji first, then words",
    ]
    for texts in (TEXTS, unseen):
        expected = model.predict_proba(_matrix(texts, spec))[:, 1]
        got = loaded.scores(texts)[:, 0]
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert loaded.version == "t-1"
    assert ((loaded.scores(TEXTS)[:, 0] >= 0.5) == TARGETS).mean() > 0.95


def test_vectorised_hash_follows_the_reference_function() -> None:
    spec = FeatureSpec(ngram_min=1, ngram_max=3, buckets=1 << 18, opening_chars=120)
    text = "Ok. 네"
    row, col, _ = featurize([text], spec)
    framed = "\x02ok. 네\x03"
    first_end = framed.index(".")
    expected = []
    for n in range(1, 4):
        for i in range(len(framed) - n + 1):
            region = 1 if i <= first_end else 2
            expected.append(ngram_bucket(framed[i : i + n], region, spec))
    got = Counter(col.tolist())
    got.subtract(expected)
    # what is left is the one script token (latin)
    assert sorted(got.elements()) == [col[-1]] and len(col) == len(expected) + 1


def test_shipped_model_loads_only_with_matching_hashes(tmp_path: Path) -> None:
    shipped = load_promoted(SHIPPED_DIR)
    assert shipped is not None and shipped.head("preamble") is not None
    entry = read_registry(SHIPPED_DIR)["promoted"]
    assert shipped.version == entry["version"] and shipped.sha256 == entry["sha256"]


def _copy_shipped(tmp_path: Path) -> tuple[Path, str]:
    models = tmp_path / "models"
    shutil.copytree(SHIPPED_DIR, models)
    return models, read_registry(models)["promoted"]["version"]


def test_tampered_artifact_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    models, version = _copy_shipped(tmp_path)
    assert load_promoted(models) is not None
    artifact = models / version / "model.json"
    doc = orjson.loads(artifact.read_bytes())
    doc["heads"][0]["intercept"] += 5.0  # a model that flags everything
    artifact.write_bytes(orjson.dumps(doc))
    with pytest.raises(ArtifactError, match="sha256 .* does not match"):
        load_promoted(models)
    with pytest.raises(ArtifactError, match="refusing to load"):
        load_version(models, version)
    with pytest.raises(ArtifactError):
        promote(models, version)


def test_card_and_registry_must_agree(tmp_path: Path) -> None:
    models, version = _copy_shipped(tmp_path)
    card_path = models / version / "card.json"
    card = orjson.loads(card_path.read_bytes())
    card["sha256"] = "0" * 64
    card_path.write_bytes(orjson.dumps(card))
    with pytest.raises(ArtifactError, match="registry"):
        load_promoted(models)


def test_artifact_is_data_only_json() -> None:
    version = read_registry(SHIPPED_DIR)["promoted"]["version"]
    raw = (SHIPPED_DIR / version / "model.json").read_bytes()
    doc = orjson.loads(raw)  # plain JSON: nothing to execute
    assert doc["format"] == "leakline.classifier/1"
    assert set(doc["features"]) >= {"hash", "ngram_min", "ngram_max", "buckets"}
    with pytest.raises(ArtifactError, match="not JSON|format"):
        parse_artifact(b"\x80\x04pickle", sha256_hex(b"\x80\x04pickle"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=300), min_size=1, max_size=8))
def test_any_text_scores_to_a_probability(texts: list[str]) -> None:
    model = load_promoted(SHIPPED_DIR)
    assert model is not None
    texts = [*texts, "\ud800 lone surrogate", "İstanbul ǅ ﬃ"]  # case mapping changes lengths
    probs = model.scores(texts)
    assert probs.shape == (len(texts), len(model.heads))
    assert np.all((probs >= 0) & (probs <= 1))
    # scoring one text alone gives the same as scoring it in a batch
    np.testing.assert_allclose(model.scores(texts[:1]), probs[:1], atol=1e-12)
