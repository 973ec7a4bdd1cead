"""Where a Kafka record came from.

A module of its own, left out of the mypyc build (``detectors/native.py``) with
``process.py``: records and dead letters carry an ``Origin`` to and from the batch
children by pickle.
"""

from __future__ import annotations

from typing import NamedTuple


class Origin(NamedTuple):
    """Where a record came from; offsets make redeliveries recognisable.

    A named tuple, not a frozen dataclass: one is made per record in the worker's loop
    and again in a batch child, and a frozen dataclass's ``__init__`` costs twice as much
    (issue 19)."""

    topic: str
    partition: int
    offset: int
