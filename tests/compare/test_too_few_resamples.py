"""No conclusion from too few resamples or samples, and an honest Monte Carlo error (issue 29, item 6).

A percentile interval of level 1 - α from K resamples needs K >= 1 + 2/α (its ends are then order
statistics with a replicate beyond each); a decision at threshold t from S posterior samples needs
S >= 3/(1 - t). Every resampling or sampling API refuses fewer, naming the argument and the minimum; the
Monte Carlo error of a probability is never 0.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust.compare import (
    aggregate,
    effect_sizes,
    improvement_probabilities,
    performance_profile,
    probability_of_outperforming,
    read_task_scores,
    signed_rank_test,
)
from benchtrust.compare._bootstrap import minimum_resamples
from benchtrust.compare._monte_carlo import fewest_draws, monte_carlo_error
from benchtrust.compare._pipelines._error_rates import error_rates
from benchtrust.compare._tasks._signed_rank import minimum_samples

ALPHAS = st.floats(0.001, 0.9).map(lambda a: round(a, 3)).filter(lambda a: a > 0)


@pytest.fixture(scope="module")
def scores():
    rng = np.random.default_rng(0)
    rows = [
        (m, f"t{t}", r, float(rng.normal(0.7 + 0.02 * i, 0.05)))
        for i, m in enumerate("ABC")
        for t in range(4)
        for r in range(6)
    ]
    return read_task_scores(
        pd.DataFrame(rows, columns=["method", "task", "run", "score"]), direction="higher"
    )


#: Each resampling API, called on the table with (resamples, alpha).
CALLS = {
    "aggregate": lambda s, k, a: aggregate(s, resamples=k, alpha=a, seed=0),
    "profile": lambda s, k, a: performance_profile(s, resamples=k, alpha=a, thresholds=[0.7], seed=0),
    "improvement": lambda s, k, a: improvement_probabilities(s, resamples=k, alpha=a, seed=0),
    "effect": lambda s, k, a: effect_sizes(s, "A", "B", resamples=k, alpha=a, seed=0),
    "outperform": lambda s, k, a: probability_of_outperforming(
        s.scores[0].ravel(), s.scores[1].ravel(), resamples=k, alpha=a, seed=0
    ),
}


@settings(max_examples=200, deadline=None)
@given(ALPHAS)
def test_the_minimum_puts_a_replicate_beyond_each_end_and_one_fewer_does_not(alpha):
    k = minimum_resamples(alpha)
    # numpy.percentile's position of the lower end among K sorted replicates: (K - 1) α/2
    assert (k - 1) * alpha / 2 >= 1 - 1e-9
    assert (k - 2) * alpha / 2 < 1
    replicates = np.arange(float(k))
    low, high = np.percentile(replicates, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    assert replicates[0] < low < high < replicates[-1] or (low >= 1 and high <= k - 2)


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.2])
def test_every_resampling_api_refuses_fewer_than_the_minimum_and_names_it(scores, name, alpha):
    fewest = minimum_resamples(alpha)
    for k in (1, 2, fewest - 1):
        with pytest.raises(InputError, match=rf"^resamples: .*needs at least {fewest} resamples.*got {k}"):
            CALLS[name](scores, k, alpha)
    if alpha == 0.05:  # the least accepted works (others are the same check)
        CALLS[name](scores, fewest, alpha)


def test_one_resample_gives_no_zero_width_interval_that_excludes_the_estimate(scores):
    with pytest.raises(InputError, match="at least 41"):
        aggregate(scores, resamples=1)
    result = aggregate(scores, resamples=0)  # point estimates only, said so
    assert np.isnan(result.iqm_ci.low).all() and "point estimates" in str(result)


@pytest.mark.parametrize("threshold", [0.5, 0.9, 0.95, 0.99])
def test_signed_rank_refuses_fewer_samples_than_its_threshold_needs(scores, threshold):
    fewest = minimum_samples(threshold)
    assert 3 / fewest <= 1 - threshold + 1e-12 and 3 / (fewest - 1) > 1 - threshold
    with pytest.raises(InputError, match=rf"^samples: .*at least {fewest} .*got {fewest - 1}"):
        signed_rank_test(scores, "A", "C", samples=fewest - 1, threshold=threshold, seed=0)
    result = signed_rank_test(scores, "A", "C", samples=fewest, threshold=threshold, seed=0)
    assert (result.standard_errors > 0).all()


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**7), st.sampled_from([0.0, 1.0]))
def test_monte_carlo_error_of_zero_or_one_is_never_zero(samples, p):
    error = float(monte_carlo_error(np.array([p]), samples)[0])
    assert error > 0
    # about 1/S: between the binomial error of p = 1/(S + 1) and the rule of three
    assert error <= 3 / samples and error >= 0.5 / (samples + 1)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 10**6), st.floats(0, 1))
def test_monte_carlo_error_is_at_least_the_binomial_one_inside(samples, p):
    error = float(monte_carlo_error(np.array([p]), samples)[0])
    if 1 / (samples + 1) <= p <= samples / (samples + 1):
        assert error == pytest.approx(np.sqrt(p * (1 - p) / samples))
    assert error > 0


@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.3])
def test_error_rate_simulations_fewer_than_3_over_alpha_are_refused(alpha):
    fewest = fewest_draws(alpha)
    assert 3 / fewest <= alpha + 1e-12 < 3 / (fewest - 1)
    with pytest.raises(InputError, match=rf"^simulations: .*at least {fewest} simulations.*got {fewest - 1}"):
        error_rates(0.01, runs=5, alpha=alpha, probabilities=[0.5], simulations=fewest - 1, seed=0)
    error_rates(0.01, runs=5, alpha=alpha, probabilities=[0.5], simulations=fewest, seed=0)
