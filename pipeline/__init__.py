"""leakline pipeline: Kafka/Faust wiring, event contract, storage, queries and the CLI.

Importing this package is cheap; Faust, aiokafka, DuckDB and Arrow load only in
the modules that need them.
"""

__version__ = "0.1.0"
