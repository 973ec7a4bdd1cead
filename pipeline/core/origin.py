"""Where a Kafka record came from.

Kept out of the mypyc build (``detectors/native.py``) in a module of its own: records and
dead letters carry an ``Origin`` to and from the batch children by pickle, and a compiled
frozen dataclass cannot be unpickled (``FrozenInstanceError``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a record came from; offsets make redeliveries recognisable."""

    topic: str
    partition: int
    offset: int
