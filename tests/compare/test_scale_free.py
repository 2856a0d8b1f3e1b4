"""Effect sizes and variances do not depend on the scale of the scores (issue 29, item 7).

Hedges' g, Cliff's δ, Vargha-Delaney A and the correlated t-test are scale-free quantities: scores
multiplied by a power of two (exactly) give the same values bit for bit, scores near 1e300 or 1e-300 the
same values as near 1 (no overflow of squares to inf, no underflow to 0), and no numpy warning is given.
Runs with no spread leave g not defined, said in words, without a warning.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust.compare import (
    aggregate,
    correlated_t_test,
    effect_sizes,
    rank_test,
    read_task_scores,
    signed_rank_test,
)

SCALES = [2.0**-1000, 2.0**-500, 2.0**-20, 1.0, 2.0**40, 2.0**500, 2.0**990]


def table(values, direction="higher"):
    m, t, r = values.shape
    rows = [(f"m{i}", f"t{j}", k, values[i, j, k]) for i in range(m) for j in range(t) for k in range(r)]
    return read_task_scores(
        pd.DataFrame(rows, columns=["method", "task", "run", "score"]), direction=direction
    )


def quietly(call):
    """`call()`, failing on any warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


@st.composite
def runs(draw):
    t, r = draw(st.integers(1, 3)), draw(st.integers(2, 6))
    values = draw(st.lists(st.integers(1, 999), min_size=2 * t * r, max_size=2 * t * r))
    return np.array(values, dtype=float).reshape(2, t, r) / 1000


@settings(max_examples=15, deadline=None)
@given(runs(), st.sampled_from(SCALES))
def test_effect_sizes_are_the_same_at_every_power_of_two(values, scale):
    base = quietly(lambda: effect_sizes(table(values), "m0", "m1", paired=False))
    scaled = quietly(lambda: effect_sizes(table(values * scale), "m0", "m1", paired=False))
    for name in ("g", "g_low", "g_high", "a12", "a12_low", "a12_high"):
        np.testing.assert_array_equal(getattr(scaled, name), getattr(base, name), err_msg=name)
    assert scaled.overall_g == base.overall_g or (np.isnan(scaled.overall_g) and np.isnan(base.overall_g))


@pytest.mark.parametrize("scale", [1e300, 1e-300, 3e-310])
def test_hedges_g_near_the_ends_of_the_floats_is_that_of_the_same_scores_near_1(scale):
    values = np.array([[[0.9, 0.8, 0.85, 0.95]], [[0.5, 0.6, 0.55, 0.45]]])
    base = effect_sizes(table(values), "m0", "m1")
    scaled = quietly(lambda: effect_sizes(table(values * scale), "m0", "m1"))
    np.testing.assert_allclose(scaled.g, base.g, rtol=1e-9 if scale > 1e-305 else 1e-3)
    assert scaled.g[0] > 2 and "negligible" not in str(scaled).split("Hedges' g averaged")[1][:80]


@pytest.mark.parametrize("value", [0.5, 1e300, 1e-300, 0.0])
def test_constant_runs_leave_g_not_defined_in_words_without_a_warning(value):
    values = np.full((2, 2, 4), value)
    values[1] += np.array([[0.0], [value / 2 + 1]])  # m1: the same runs on t0, more on t1
    result = quietly(lambda: effect_sizes(table(values), "m0", "m1"))
    assert np.isnan(result.g).all()
    assert "not defined" in result.verdict
    assert "nan" not in str(result).lower()


@settings(max_examples=10, deadline=None)
@given(runs(), st.sampled_from(SCALES))
def test_correlated_t_is_the_same_at_every_power_of_two(values, scale):
    base = quietly(lambda: correlated_t_test(table(values), "m0", "m1", folds=2))
    scaled = quietly(lambda: correlated_t_test(table(values * scale), "m0", "m1", folds=2))
    for name in ("p_a_better", "p_rope", "p_b_better"):
        np.testing.assert_array_equal(getattr(scaled, name), getattr(base, name), err_msg=name)
    np.testing.assert_array_equal(scaled.mean, base.mean * scale)


@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_every_task_analysis_is_quiet_near_the_ends_of_the_floats(scale):
    rng = np.random.default_rng(3)
    scores = table(rng.uniform(1, 1.7, size=(3, 4, 5)) * scale)
    quietly(lambda: rank_test(scores))
    result = quietly(lambda: aggregate(scores, resamples=100, seed=0))
    assert np.isfinite(result.mean).all() and np.isfinite(result.iqm_ci.low).all()
    assert np.isfinite(quietly(lambda: signed_rank_test(scores, "m0", "m1", samples=100)).differences).all()
