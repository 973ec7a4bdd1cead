"""``query.stats`` against published values, and the DuckDB macros against ``query.stats``."""

from __future__ import annotations

import duckdb
import pytest

from leakline.pipeline.query.stats import is_small, sample_size, two_proportion, wilson, wilson_sql


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Wilson (1927) / Newcombe (1998) table values
        pytest.param(2, 10, 0.0567, 0.5098, id="2_of_10"),
        pytest.param(200, 1000, 0.1764, 0.2259, id="200_of_1000"),
        pytest.param(0, 10, 0.0, 0.2775, id="none"),
        pytest.param(10, 10, 0.7225, 1.0, id="all"),
        pytest.param(81, 263, 0.2553, 0.3662, id="newcombe_81_263"),
        pytest.param(15, 148, 0.0624, 0.1605, id="newcombe_15_148"),
    ],
)
def test_wilson_matches_published_values(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got is not None
    assert got == pytest.approx((low, high), abs=1e-4)


def test_same_rate_different_evidence() -> None:
    small, large = wilson(2, 10), wilson(200, 1000)
    assert small and large
    assert small[1] - small[0] > 8 * (large[1] - large[0])
    assert is_small(10) and not is_small(1000)


def test_no_data_is_not_zero() -> None:
    assert wilson(0, 0) is None
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_two_proportion_z_test() -> None:
    # 30/100 vs 45/100: pooled z = 2.191, two-sided p = 0.0285 (textbook example)
    t = two_proportion(30, 100, 45, 100)
    assert t.z == pytest.approx(2.1909, abs=1e-4)
    assert t.p_value == pytest.approx(0.02846, abs=1e-5)
    assert t.diff == pytest.approx(0.15)
    greater = two_proportion(30, 100, 45, 100, alternative="greater")
    assert greater.p_value == pytest.approx(t.p_value / 2)
    assert two_proportion(45, 100, 30, 100, alternative="greater").p_value > 0.9


def test_two_proportion_without_evidence() -> None:
    assert two_proportion(0, 0, 5, 10).p_value == 1.0
    assert two_proportion(0, 50, 0, 50).p_value == 1.0  # both 0 %: nothing differs
    assert two_proportion(0, 50, 0, 50).diff == 0.0


@pytest.mark.parametrize(
    ("p_a", "p_b", "power", "n"),
    [
        # Fleiss, Levin & Paik, table A.4 (no continuity correction), alpha 0.05 two-sided
        pytest.param(0.10, 0.15, 0.8, 686, id="10_vs_15"),
        pytest.param(0.20, 0.30, 0.8, 294, id="20_vs_30"),
        pytest.param(0.05, 0.10, 0.9, 582, id="5_vs_10_power_90"),
    ],
)
def test_sample_size(p_a: float, p_b: float, power: float, n: int) -> None:
    assert sample_size(p_a, p_b, power=power) == n
    assert sample_size(p_b, p_a, power=power) == n
    assert sample_size(0.1, 0.1) is None


def test_duckdb_wilson_sql_agrees_with_python() -> None:
    con = duckdb.connect()
    con.execute(f"CREATE MACRO wl(k, n) AS {wilson_sql('k', 'n', 'low')}")
    con.execute(f"CREATE MACRO wh(k, n) AS {wilson_sql('k', 'n', 'high')}")
    for k, n in [(0, 1), (1, 1), (2, 10), (200, 1000), (7, 9), (0, 300), (299, 300)]:
        low, high = con.execute("SELECT wl(?, ?), wh(?, ?)", [k, n, k, n]).fetchone()
        assert (low, high) == pytest.approx(wilson(k, n), abs=1e-12), (k, n)
    assert con.execute("SELECT wl(0, 0), wh(0, 0)").fetchone() == (None, None)


def test_binomial_above() -> None:
    from leakline.pipeline.query.stats import binomial_above

    # P(X >= 3 | n = 10, p = 0.1) = 1 - (0.9^10 + 10 * 0.1 * 0.9^9 + 45 * 0.01 * 0.9^8) = 0.0702
    assert binomial_above(3, 10, 0.1) == pytest.approx(0.0701908, abs=1e-6)
    assert binomial_above(1, 8, 0.0) == 0.0  # any leak against a 0 % baseline
    assert binomial_above(0, 8, 0.2) == 1.0
    assert binomial_above(300, 1000, 0.25) == pytest.approx(1.935903e-4, rel=1e-5)  # scipy binom.sf
