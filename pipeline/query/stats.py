"""The statistics behind every rate leakline shows: one module, plain Python.

- ``wilson``: the Wilson score interval of a proportion (95 % by default). Unlike the
  normal approximation it stays inside [0, 1] and is honest for small groups: 2 of 10 and
  200 of 1,000 are both 20 %, but their intervals are 6-51 % and 18-23 %.
- ``two_proportion``: the pooled two-proportion z-test (``compare``, ``gate``).
- ``binomial_above``: the exact one-sided binomial test against a known rate (``gate``
  with a rate file that has no counts).
- ``sample_size``: how many events per group a two-proportion test needs to see a given
  difference at a given significance and power.

The DuckDB macros ``wilson_low(k, n)`` / ``wilson_high(k, n)`` (``store.database``) compute
the same interval in SQL; a test keeps the two in agreement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

CONFIDENCE = 0.95
Z95 = NormalDist().inv_cdf(0.975)  # 1.959963...
# a group with fewer events than this is marked "small": its rate is shown, with a wide interval
SMALL_N = 30
ALTERNATIVES = ("two-sided", "greater", "less")


def _z(confidence: float) -> float:
    if confidence == CONFIDENCE:
        return Z95
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """The Wilson score interval of ``k`` successes in ``n`` trials; None when ``n == 0``
    (no data is not a rate of 0)."""
    if n <= 0:
        return None
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    z = _z(confidence)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the bounds are exact at k = 0 and k = n; clamp float noise
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def is_small(n: int) -> bool:
    """Fewer than ``SMALL_N`` events: shown, but marked."""
    return n < SMALL_N


@dataclass(frozen=True)
class ProportionTest:
    """The result of ``two_proportion``: ``diff = rate_b - rate_a``."""

    rate_a: float | None
    rate_b: float | None
    diff: float | None
    z: float
    p_value: float
    alternative: str

    def to_dict(self) -> dict[str, object]:
        return {
            "diff": self.diff,
            "z": round(self.z, 6),
            "p_value": round(self.p_value, 8),
            "alternative": self.alternative,
        }


def two_proportion(
    k_a: int, n_a: int, k_b: int, n_b: int, alternative: str = "two-sided"
) -> ProportionTest:
    """Pooled two-proportion z-test of B against A.

    ``alternative``: "two-sided" (rates differ), "greater" (B above A) or "less". With an
    empty group, or both groups all 0 % or all 100 %, there is no evidence: z = 0, p = 1.
    """
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}, got {alternative!r}")
    rate_a = k_a / n_a if n_a else None
    rate_b = k_b / n_b if n_b else None
    diff = rate_b - rate_a if rate_a is not None and rate_b is not None else None
    if diff is None:
        return ProportionTest(rate_a, rate_b, None, 0.0, 1.0, alternative)
    pooled = (k_a + k_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return ProportionTest(rate_a, rate_b, diff, 0.0, 1.0, alternative)
    z = diff / se
    normal = NormalDist()
    if alternative == "greater":
        p = 1 - normal.cdf(z)
    elif alternative == "less":
        p = normal.cdf(z)
    else:
        p = 2 * (1 - normal.cdf(abs(z)))
    return ProportionTest(rate_a, rate_b, diff, z, min(1.0, max(0.0, p)), alternative)


def binomial_above(k: int, n: int, p0: float) -> float:
    """One-sided exact binomial p-value: the chance of ``k`` or more in ``n`` when the true
    rate is ``p0``. For a baseline known only as a rate (a rate file without counts)."""
    if not 0 <= p0 <= 1:
        raise ValueError("p0 must be between 0 and 1")
    if n <= 0 or k <= 0:
        return 1.0
    if p0 == 0:
        return 0.0
    if p0 == 1:
        return 1.0
    # sum the upper tail in log space: stable for n in the tens of thousands
    log_p, log_q = math.log(p0), math.log1p(-p0)
    terms = [
        math.lgamma(n + 1)
        - math.lgamma(i + 1)
        - math.lgamma(n - i + 1)
        + i * log_p
        + (n - i) * log_q
        for i in range(k, n + 1)
    ]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def sample_size(
    p_a: float, p_b: float, alpha: float = 0.05, power: float = 0.8, two_sided: bool = True
) -> int | None:
    """Events needed in *each* group for a two-proportion z-test at ``alpha`` to detect
    rates ``p_a`` vs ``p_b`` with probability ``power`` (Fleiss, no continuity correction).
    None when the rates are equal (no sample is large enough)."""
    if not (0 <= p_a <= 1 and 0 <= p_b <= 1):
        raise ValueError("rates must be between 0 and 1")
    if not (0 < alpha < 1 and 0 < power < 1):
        raise ValueError("alpha and power must be between 0 and 1")
    if p_a == p_b:
        return None
    normal = NormalDist()
    z_alpha = normal.inv_cdf(1 - alpha / 2 if two_sided else 1 - alpha)
    z_beta = normal.inv_cdf(power)
    p_bar = (p_a + p_b) / 2
    top = z_alpha * math.sqrt(2 * p_bar * (1 - p_bar)) + z_beta * math.sqrt(
        p_a * (1 - p_a) + p_b * (1 - p_b)
    )
    return math.ceil(top * top / ((p_a - p_b) ** 2))


def wilson_sql(k: str, n: str, bound: str) -> str:
    """The Wilson bound as a DuckDB expression over two SQL expressions (``bound``: low or
    high); NULL when ``n`` is 0. The store's ``wilson_low``/``wilson_high`` macros use it."""
    sign = "-" if bound == "low" else "+"
    z2 = f"{Z95 * Z95!r}"
    p = f"(({k})::DOUBLE / ({n}))"
    expr = (
        f"(({p} + {z2} / (2 * ({n}))) {sign} {Z95!r} * sqrt({p} * (1 - {p}) / ({n}) "
        f"+ {z2} / (4 * ({n}) * ({n})))) / (1 + {z2} / ({n}))"
    )
    edge = f"WHEN ({k}) = 0 THEN 0.0" if bound == "low" else f"WHEN ({k}) = ({n}) THEN 1.0"
    clamp = "greatest(0.0, " if bound == "low" else "least(1.0, "
    return f"CASE WHEN ({n}) IS NULL OR ({n}) = 0 THEN NULL {edge} ELSE {clamp}{expr}) END"
