"""Classifier training, evaluation, versioned artifacts and the promoted-model registry.

- ``leakline.models.train``: fit the opening classifier (scikit-learn), compare with the promoted
  model on the same held-out split, write ``<name>-<version>/`` and promote it.
- ``leakline.models.registry``: ``registry.json``, hash-checked loading, ``ModelWatcher`` (hot reload).
- ``leakline.models.evaluate``: per-language P/R/F1; heuristics vs heuristics + classifier.
- ``leakline.models.artifacts/``: the shipped model. ``leakline.models.data/holdout.jsonl``: fresh hold-out set.

Inference lives in ``leakline.detectors.classifier`` (numpy over the JSON artifact); ``detectors``
never imports this package.
"""
