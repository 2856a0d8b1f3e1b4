"""One classifier on one test set, and the chance that any of m reaches a value (paper §3.2, §3.4)."""

import numpy as np
import pytest
from scipy import stats

from benchtrust import InputError, Interval
from benchtrust.sota import clopper_pearson, prob_any_reaches, prob_beats, single_tail_for_any

# ------------------------------------------------------------------------------------- clopper_pearson


@pytest.mark.parametrize("n", [1, 7, 100, 3000])
@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.3])
def test_clopper_pearson_no_item_right(n, alpha):
    """0 of n right: the interval is [0, 1 - (α/2)^(1/n)] (P(K = 0 | θ) = α/2 at the upper end)."""
    interval = clopper_pearson(0.0, test_size=n, alpha=alpha)
    assert isinstance(interval, Interval)
    assert interval.low == 0.0
    assert interval.high == pytest.approx(1 - (alpha / 2) ** (1 / n), rel=1e-12)


@pytest.mark.parametrize("n", [1, 7, 100, 3000])
@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.3])
def test_clopper_pearson_every_item_right(n, alpha):
    """n of n right: the interval is [(α/2)^(1/n), 1]."""
    interval = clopper_pearson(1.0, test_size=n, alpha=alpha)
    assert interval.high == 1.0
    assert interval.low == pytest.approx((alpha / 2) ** (1 / n), rel=1e-12)


@pytest.mark.parametrize(("correct", "n"), [(1, 10), (9, 10), (2700, 3000), (15, 20), (500, 1000)])
def test_clopper_pearson_tails_are_alpha_half(correct, n):
    """The defining property: P(K >= k | θ_low) = α/2 and P(K <= k | θ_high) = α/2, K ~ B(n, θ)."""
    low, high = clopper_pearson(correct / n, test_size=n)
    assert 0 < low < correct / n < high < 1
    assert stats.binom.sf(correct - 1, n, low) == pytest.approx(0.025, rel=1e-9)
    assert stats.binom.cdf(correct, n, high) == pytest.approx(0.025, rel=1e-9)


def test_clopper_pearson_rounds_to_the_nearest_count():
    assert clopper_pearson(0.90001, test_size=3000) == clopper_pearson(0.9, test_size=3000)
    assert clopper_pearson(2 / 3, test_size=3) == clopper_pearson(0.6667, test_size=3)


def test_clopper_pearson_narrows_with_alpha_and_n():
    wide = clopper_pearson(0.9, test_size=3000, alpha=0.01)
    usual = clopper_pearson(0.9, test_size=3000)
    bigger = clopper_pearson(0.9, test_size=30000)
    assert wide.low < usual.low < bigger.low < 0.9 < bigger.high < usual.high < wide.high


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"accuracy": -0.1, "test_size": 10}, "accuracy"),
        ({"accuracy": 1.1, "test_size": 10}, "accuracy"),
        ({"accuracy": 0.5, "test_size": 0}, "test_size"),
        ({"accuracy": 0.5, "test_size": 2.5}, "test_size"),
        ({"accuracy": 0.5, "test_size": 10, "alpha": 0.0}, "alpha"),
        ({"accuracy": 0.5, "test_size": 10, "alpha": 1.0}, "alpha"),
    ],
)
def test_clopper_pearson_bad_input(kwargs, argument):
    with pytest.raises(InputError, match=argument):
        clopper_pearson(**kwargs)


# ------------------------------------------------------------------------------------------ prob_beats


def test_prob_beats_value_between_grid_points_rounds_up():
    """θ̂ takes values k/n only: θ̂ >= 0.72 on 20 items means at least 15 right, the same as >= 0.75."""
    n, theta = 20, 0.5
    p = prob_beats(0.72, test_size=n, accuracy=theta)
    assert p == prob_beats(0.75, test_size=n, accuracy=theta)
    assert p == pytest.approx(stats.binom.sf(14, n, theta), rel=1e-14)
    # Just above a grid point is the next grid point ...
    assert prob_beats(0.70 + 1e-6, test_size=n, accuracy=theta) == pytest.approx(
        stats.binom.sf(14, n, theta), rel=1e-14
    )
    # ... but a grid point up to rounding noise is that grid point (0.7 * 20 = 14.000000000000002).
    assert prob_beats(0.7, test_size=n, accuracy=theta) == pytest.approx(
        stats.binom.sf(13, n, theta), rel=1e-14
    )
    assert prob_beats(14 / 20 + 1e-13, test_size=n, accuracy=theta) == pytest.approx(
        stats.binom.sf(13, n, theta), rel=1e-14
    )


def test_prob_beats_ends():
    assert prob_beats(0.0, test_size=20, accuracy=0.3) == pytest.approx(1.0, abs=1e-15)
    assert prob_beats(1.0, test_size=20, accuracy=0.3) == pytest.approx(0.3**20, rel=1e-12)
    assert prob_beats(0.5, test_size=20, accuracy=1.0) == 1.0
    assert prob_beats(0.5, test_size=20, accuracy=0.0) == 0.0


@pytest.mark.parametrize(("value", "n", "theta"), [(0.9213, 3000, 0.9105), (0.55, 100, 0.5), (0.3, 7, 0.2)])
def test_prob_beats_against_the_binomial_tail(value, n, theta):
    needed = int(np.ceil(value * n - 1e-9))
    want = float(np.sum(stats.binom.pmf(np.arange(needed, n + 1), n, theta)))
    assert prob_beats(value, test_size=n, accuracy=theta) == pytest.approx(want, rel=1e-10)


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"value": 1.2, "test_size": 10, "accuracy": 0.5}, "value"),
        ({"value": -0.1, "test_size": 10, "accuracy": 0.5}, "value"),
        ({"value": 0.5, "test_size": 0, "accuracy": 0.5}, "test_size"),
        ({"value": 0.5, "test_size": 10, "accuracy": 1.5}, "accuracy"),
    ],
)
def test_prob_beats_bad_input(kwargs, argument):
    with pytest.raises(InputError, match=argument):
        prob_beats(**kwargs)


# ----------------------------------------------------------------------------------- prob_any_reaches


def test_prob_any_reaches_vector_is_the_product_formula():
    """Eq. 7-8: 1 - prod_j P(θ̂_j < value)."""
    n, value = 200, 0.8
    theta = np.array([0.6, 0.7, 0.72, 0.75, 0.78, 0.7])
    needed = round(value * n)
    below = [stats.binom.cdf(needed - 1, n, t) for t in theta]
    want = 1.0 - np.prod(below)
    assert prob_any_reaches(value, test_size=n, accuracy=theta) == pytest.approx(want, rel=1e-12)
    assert prob_any_reaches(value, test_size=n, accuracy=list(theta), classifiers=6) == pytest.approx(
        want, rel=1e-12
    )


def test_prob_any_reaches_identical_is_equation_2():
    n, value, theta, m = 3000, 0.92, 0.9, 1000
    p = stats.binom.sf(round(value * n) - 1, n, theta)
    want = -np.expm1(m * np.log1p(-p))
    assert prob_any_reaches(value, test_size=n, accuracy=theta, classifiers=m) == pytest.approx(
        want, rel=1e-12
    )
    assert prob_any_reaches(value, test_size=n, accuracy=[theta] * m) == pytest.approx(want, rel=1e-12)


def test_prob_any_reaches_one_classifier_is_prob_beats():
    for value in (0.7, 0.72, 0.85):
        assert prob_any_reaches(value, test_size=20, accuracy=0.6, classifiers=1) == pytest.approx(
            prob_beats(value, test_size=20, accuracy=0.6), rel=1e-14
        )


def test_prob_any_reaches_tiny_probabilities_keep_their_precision():
    """m P for tiny P, where 1 - (1 - P)^m computed naively would lose every digit."""
    n, theta = 1000, 0.5
    p = stats.binom.sf(899, n, theta)  # P(at least 900 of 1000 right) ~ 1e-150
    assert prob_any_reaches(0.9, test_size=n, accuracy=theta, classifiers=10) == pytest.approx(
        10 * p, rel=1e-9
    )


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"accuracy": 0.5}, "classifiers"),
        ({"accuracy": 0.5, "classifiers": 0}, "classifiers"),
        ({"accuracy": [0.5, 0.6], "classifiers": 3}, "classifiers"),
        ({"accuracy": [0.5, 1.6]}, "accuracy"),
        ({"accuracy": 0.5, "classifiers": 3, "test_size": 0}, "test_size"),
        ({"accuracy": 0.5, "classifiers": 3, "value": 2.0}, "value"),
    ],
)
def test_prob_any_reaches_bad_input(kwargs, argument):
    kwargs = {"value": 0.6, "test_size": 20, **kwargs}
    with pytest.raises(InputError, match=argument):
        prob_any_reaches(**kwargs)


# -------------------------------------------------------------------------------- single_tail_for_any


@pytest.mark.parametrize("probability", [1e-12, 0.001, 0.025, 0.5, 0.975, 0.999999])
@pytest.mark.parametrize("m", [1, 2, 1000, 10**9])
def test_single_tail_for_any_inverts_equation_2(probability, m):
    p_x = single_tail_for_any(probability, classifiers=m)
    assert 0 < p_x <= probability
    # 1 - (1 - P_x)^m, evaluated without cancellation.
    assert -np.expm1(m * np.log1p(-p_x)) == pytest.approx(probability, rel=1e-10)


def test_single_tail_for_any_one_classifier_is_the_identity():
    for probability in (1e-9, 0.025, 0.9):
        assert single_tail_for_any(probability, classifiers=1) == pytest.approx(probability, rel=1e-15)


def test_single_tail_for_any_decreases_with_m():
    tails = [single_tail_for_any(0.025, classifiers=m) for m in (1, 10, 100, 1000, 10**6)]
    assert np.all(np.diff(tails) < 0)
    # For large m, P_x ~ -log(1 - probability) / m.
    assert tails[-1] == pytest.approx(-np.log1p(-0.025) / 10**6, rel=1e-6)


def test_single_tail_for_any_round_trip_with_prob_any_reaches():
    """The P_x of §3.4 gives back α/2 through Eq. 2 at the count where the binomial cdf reaches it."""
    m = 1000
    p_x = single_tail_for_any(0.025, classifiers=m)
    x = int(stats.binom.ppf(p_x, 3000, 0.1))  # failures
    reached = prob_any_reaches((3000 - x) / 3000, test_size=3000, accuracy=0.9, classifiers=m)
    just_missed = prob_any_reaches((3000 - x + 1) / 3000, test_size=3000, accuracy=0.9, classifiers=m)
    assert just_missed < 0.025 <= reached


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"probability": 0.0, "classifiers": 10}, "probability"),
        ({"probability": 1.0, "classifiers": 10}, "probability"),
        ({"probability": 0.5, "classifiers": 0}, "classifiers"),
        ({"probability": 0.5, "classifiers": 1.5}, "classifiers"),
    ],
)
def test_single_tail_for_any_bad_input(kwargs, argument):
    with pytest.raises(InputError, match=argument):
        single_tail_for_any(**kwargs)
