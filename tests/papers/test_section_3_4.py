"""§3.4 of Møllersen & Holsbø, a simulated public competition: m = 1000 classifiers, n = 3000, θ = 0.90.

Every printed number is recomputed through the public API and compared at its printed precision.
"""

import pytest
from scipy import stats

from benchtrust.sota import best_of, clopper_pearson, prob_any_reaches, prob_beats, single_tail_for_any

M, N, THETA, ALPHA = 1000, 3000, 0.90, 0.05


@pytest.fixture(scope="module")
def best():
    return best_of(THETA, classifiers=M, test_size=N, alpha=ALPHA)


@pytest.fixture(scope="module")
def interval():
    return clopper_pearson(THETA, test_size=N, alpha=ALPHA)


def test_section_3_4_clopper_pearson_interval(interval):
    """ "The 95% confidence interval for θ if we have observed θ̂ = 0.90 is (0.8887, 0.9105)"."""
    assert (round(interval.low, 4), round(interval.high, 4)) == (0.8887, 0.9105)


def test_section_3_4_all_but_certain_that_someone_beats_the_upper_limit(interval):
    """With 1000 classifiers at θ = 0.90, P(at least one reaches θ_{1-α/2}) "is close to 1"."""
    assert prob_any_reaches(interval.high, test_size=N, accuracy=THETA, classifiers=M) > 0.999


def test_section_3_4_single_tail_probability():
    """P_x = 0.00002532: each classifier's chance of at most x failures for α/2 among 1000."""
    p_x = single_tail_for_any(ALPHA / 2, classifiers=M)
    assert f"{p_x:.4g}" == "2.532e-05"
    assert 1.0 - (1.0 - p_x) ** M == pytest.approx(ALPHA / 2, rel=1e-9)


def test_section_3_4_multiplicity_adjusted_upper_limit(best):
    """θ^m_{1-α/2} = 0.9213, both from the exact distribution and from P_x by the binomial cdf."""
    assert round(best.ci[1], 4) == 0.9213
    # From first principles: the smallest number x of failures with P(X <= x) >= P_x, X ~ B(n, 1 - θ).
    p_x = single_tail_for_any(ALPHA / 2, classifiers=M)
    x = int(stats.binom.ppf(p_x, N, 1 - THETA))
    assert stats.binom.cdf(x, N, 1 - THETA) >= p_x > stats.binom.cdf(x - 1, N, 1 - THETA)
    assert round((N - x) / N, 4) == 0.9213
    assert best.ci[1] == pytest.approx((N - x) / N, abs=1e-12)


def test_section_3_4_expected_value_and_sd(best):
    """E(θ̂_max) = 0.9173 with a standard deviation of 0.001817."""
    assert round(best.expected_max, 4) == 0.9173
    assert round(best.sd_max, 6) == 0.001817


def test_section_3_4_new_classifier_beats_the_adjusted_limit(best, interval):
    """A new classifier with θ' = θ_{1-α/2}: P(θ̂' >= θ^m_{1-α/2}) = 0.0190 (red area of Fig. 1)."""
    p = prob_beats(best.ci[1], test_size=N, accuracy=interval.high)
    assert round(p, 4) == 0.0190


def test_section_3_4_new_classifier_beats_the_expected_best(best, interval):
    """P(θ̂' >= E(θ̂_max)) = 0.0996 (blue + red area of Fig. 1): 9 in 10 better classifiers look worse."""
    p = prob_beats(best.expected_max, test_size=N, accuracy=interval.high)
    assert round(p, 4) == 0.0996
    # The same from scipy: at least ceil(n E) correct items out of n, with probability θ' each.
    needed = -(-best.expected_max * N // 1)
    assert p == pytest.approx(stats.binom.sf(needed - 1, N, interval.high), rel=1e-12)
