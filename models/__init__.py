"""Classifier training, evaluation and versioned artifacts (the preamble classifier).

Not built yet: the training loop, artifacts and model cards arrive with the
export/retrain issue. ``detectors`` will reach this package only through a small
loading interface.
"""
