"""leakline: continuous measurement of output-integrity leaks in LLM gateway traffic.

The one installed namespace, shared by two distributions built from one repository:

- ``leakline-client`` (``client/``) ships this file (the version) and ``leakline.client``:
  the event builder, version metadata, the Kafka producer and the LiteLLM callback.
- ``leakline`` (depends on ``leakline-client``) adds ``leakline.detectors``
  (``detectors/``: pure functions over one exchange, no I/O), ``leakline.pipeline``
  (``pipeline/``: Kafka, Faust, storage, live views and the CLI) and ``leakline.models``
  (``models/``: training and versioning the opening classifier).

Importing this package is cheap: nothing heavy loads until a subpackage needs it.
"""

__version__ = "0.1.0"
