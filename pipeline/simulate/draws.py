"""Seeded random draws: every random choice the simulator makes goes through these.

They use only ``rng.random()`` and ``rng.getrandbits()``, whose output a seed fixes, so the
same seed gives the same traffic on every Python version (``random.choice``, ``randint``
and ``sample`` have changed how they consume the generator before, and cost more).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import Any


def cumulative(weights: list[float]) -> list[float]:
    """Running totals of ``weights``, the table ``pick_weighted`` draws from."""
    return list(accumulate(weights))


def pick_weighted(rng: random.Random, items: Sequence[Any], cum: list[float]) -> Any:
    """One of ``items``, weighted by the running totals ``cum`` (see ``cumulative``)."""
    return items[bisect_right(cum, rng.random() * cum[-1])]


def choice(rng: random.Random, seq: Any) -> Any:
    """``rng.choice`` via ``rng.random()``."""
    return seq[int(rng.random() * len(seq))]


def randint(rng: random.Random, a: int, b: int) -> int:
    """An integer in ``[a, b]``, both ends included."""
    return a + int(rng.random() * (b - a + 1))


def randrange(rng: random.Random, a: int, b: int | None = None, step: int = 1) -> int:
    """Like ``rng.randrange``: ``randrange(rng, n)`` is in ``[0, n)``."""
    if b is None:
        a, b = 0, a
    return a + step * int(rng.random() * ((b - a + step - 1) // step))


def sample(rng: random.Random, seq: Any, k: int) -> list[Any]:
    """``k`` distinct elements of ``seq``, in the order drawn."""
    pool = list(seq)
    return [pool.pop(int(rng.random() * len(pool))) for _ in range(k)]


def hex_digits(rng: random.Random, n: int = 24) -> str:
    """``n`` random lowercase hex digits, for ids and signatures."""
    return f"{rng.getrandbits(4 * n):0{n}x}"
