"""From stored rows to reviewed training data and regression cases.

Owns: ``export`` (training data and regression cases), ``review`` (a person confirms or
corrects labels), ``regression`` (cases: write, read, replay through the detectors) and
``diagnose`` (which serving layer the stored leaks point at).

May import: ``pipeline.core``, ``pipeline.store``, ``leakline.detectors``.
"""
