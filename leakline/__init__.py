"""leakline: continuous measurement of output-integrity leaks in LLM gateway traffic.

The one installed namespace. Its packages live in the repository's top-level folders:

- ``leakline.detectors`` (``detectors/``): pure functions over one exchange, no I/O.
- ``leakline.pipeline`` (``pipeline/``): Kafka, Faust, storage, live views and the CLI.
- ``leakline.models`` (``models/``): training and versioning the opening classifier.

Importing this package is cheap: nothing heavy loads until a subpackage needs it.
"""

__version__ = "0.1.0"
