"""Means that are ranked or compared do not depend on the order of the runs (issue 29, item 5).

Floating-point sums depend on the order of their terms: (0.1 + 0.2) + 0.3 != (0.3 + 0.2) + 0.1. Every
statistic of :mod:`benchtrust.compare` that averages runs uses :func:`benchtrust._exact.exact_mean` (a
correctly rounded sum), so permuting the runs within each (method, task) cell changes nothing, bit for
bit, and two methods with the same runs in another order tie exactly.
"""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import _exact
from benchtrust._exact import exact_mean, exact_sum, exact_variance
from benchtrust.compare import (
    aggregate,
    correlated_t_test,
    effect_sizes,
    rank_test,
    read_task_scores,
    signed_rank_test,
)

#: Scores with few decimals, as real tables print them (the sums of such scores round in the last bit).
DECIMALS = st.integers(0, 1000).map(lambda k: k / 1000)


def table(values, runs_order=None):
    """A long table of `values` (methods, tasks, runs), each cell's runs labelled 0..runs-1 in the order
    `runs_order[i, j]` gives (default: as given)."""
    m, t, r = values.shape
    rows = []
    for i in range(m):
        for j in range(t):
            order = range(r) if runs_order is None else runs_order[i][j]
            rows += [(f"m{i}", f"t{j}", k, values[i, j, p]) for k, p in enumerate(order)]
    return read_task_scores(
        pd.DataFrame(rows, columns=["method", "task", "run", "score"]), direction="higher"
    )


@st.composite
def permuted_tables(draw):
    """A table, the same table with the runs of every cell permuted, and the permutation's seed."""
    m, t, r = draw(st.integers(2, 4)), draw(st.integers(2, 5)), draw(st.integers(2, 7))
    values = np.array(draw(st.lists(DECIMALS, min_size=m * t * r, max_size=m * t * r))).reshape(m, t, r)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    order = [[rng.permutation(r) for _ in range(t)] for _ in range(m)]
    return table(values), table(values, order)


def same(x, y):
    """Equal bit for bit, NaN equal to NaN."""
    return np.array_equal(np.asarray(x, dtype=float), np.asarray(y, dtype=float), equal_nan=True)


@settings(max_examples=12, deadline=None)
@given(permuted_tables(), st.sampled_from(["nemenyi", "holm"]))
def test_rank_statistics_do_not_depend_on_the_order_of_the_runs(tables, posthoc):
    first, second = (rank_test(scores, posthoc=posthoc) for scores in tables)
    for name in ("scores", "ranks", "average_ranks", "z", "p_values"):
        assert same(getattr(first, name), getattr(second, name)), name
    for name in ("friedman", "friedman_p_value", "iman_davenport", "iman_davenport_p_value"):
        assert same(getattr(first, name), getattr(second, name)), name
    assert first.groups == second.groups and first.tied_tasks == second.tied_tasks
    assert first.to_frame().equals(second.to_frame())


@settings(max_examples=10, deadline=None)
@given(permuted_tables())
def test_every_compared_mean_does_not_depend_on_the_order_of_the_runs(tables):
    one, two = tables
    first, second = aggregate(one, resamples=0), aggregate(two, resamples=0)
    for name in ("mean", "median", "iqm", "rank"):
        assert same(getattr(first, name), getattr(second, name)), name
    first, second = (effect_sizes(s, "m0", "m1", paired=False, resamples=None) for s in tables)
    for name in ("mean_a", "mean_b", "g", "a12"):
        assert same(getattr(first, name), getattr(second, name)), name
    first, second = (signed_rank_test(s, "m0", "m1", samples=100, seed=0) for s in tables)
    assert same(first.differences, second.differences)
    assert same(first.probabilities, second.probabilities)


@st.composite
def equal_runs(draw):
    """A table where m1 has m0's runs in another order on every task, with a third method."""
    t, r = draw(st.integers(2, 5)), draw(st.integers(2, 8))
    values = np.array(draw(st.lists(DECIMALS, min_size=3 * t * r, max_size=3 * t * r))).reshape(3, t, r)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values[1] = np.array([rng.permutation(row) for row in values[0]])
    return table(values)


@settings(max_examples=12, deadline=None)
@given(equal_runs())
def test_methods_with_the_same_runs_in_another_order_tie_exactly(scores):
    result = rank_test(scores)
    assert (result.scores[0] == result.scores[1]).all()
    assert (result.ranks[0] == result.ranks[1]).all()
    assert result.average_ranks[0] == result.average_ranks[1]
    assert not result.different[0, 1]
    summary = aggregate(scores, resamples=0)
    assert summary.mean[0] == summary.mean[1] and summary.iqm[0] == summary.iqm[1]
    assert summary.rank[0] == summary.rank[1]
    assert (signed_rank_test(scores, "m0", "m1", samples=100, seed=0).differences == 0).all()
    effect = effect_sizes(scores, "m0", "m1", paired=False)
    assert np.isnan(effect.g).all() or (np.nan_to_num(effect.g) == 0).all()


def test_the_issue_example_ties_at_175_and_225():
    # task t0: m0 and m1 have runs 0.1, 0.2, 0.3 in two orders (summed in order, their means differ in the
    # last bit); m2 is worst. Task t1: m2 best, m0 second, m1 third.
    values = np.array(
        [
            [[0.1, 0.2, 0.3], [0.5, 0.5, 0.5]],
            [[0.3, 0.2, 0.1], [0.4, 0.4, 0.4]],
            [[0.0, 0.0, 0.0], [0.9, 0.9, 0.9]],
        ]
    )
    assert np.mean(values[0, 0]) != np.mean(values[1, 0])  # the defect's cause
    result = rank_test(table(values))
    assert result.average_ranks.tolist() == [1.75, 2.25, 2.0]
    assert result.tied_tasks == 1


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=1, max_size=30),
    st.randoms(use_true_random=False),
)
def test_exact_mean_is_a_function_of_the_multiset(values, random):
    shuffled = list(values)
    random.shuffle(shuffled)
    padded = np.array([values + [np.nan] * 5, shuffled + [np.nan] * 0 + [np.nan] * 5])
    assert same(exact_mean(padded)[0], exact_mean(padded)[1])
    assert same(exact_mean(values), exact_mean(shuffled))
    mean = float(exact_mean(values))
    assert min(values) <= mean <= max(values)
    if all(abs(v) < 1e300 for v in values):
        assert float(exact_sum(values)) == math.fsum(values)
        assert same(exact_variance(values), exact_variance(shuffled))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=1, max_size=8),
    st.integers(0, 2**32 - 1),
)
def test_many_short_rows_sum_as_math_fsum_bit_for_bit(values, seed):
    """The rows of a long table's cells are summed together in numpy (``_exact._compensated_sums``): every
    sum is math.fsum's, bit for bit, those the proof cannot vouch for (near halfway, overflow, zero) summed
    by fsum itself. Rows of hypothesis's floats, shuffled, scaled and with halfway cases mixed in."""
    rng = np.random.default_rng(seed)
    base = np.array(values)
    rows = np.array([rng.permutation(base) * rng.choice([1.0, 0.5, 2.0**-30, -1.0]) for _ in range(64)])
    halfway = np.ones((64, base.size + 1))
    halfway[:, 0] = 2.0**53  # 2^53 + 1 is halfway between two floats: ties to even, or not, by the rest
    halfway[:, 1:] = rng.choice([1.0, 0.5, 2.0**-60, -(2.0**-60), 3.0], size=(64, base.size))
    for table in (rows, halfway, np.round(rng.random((4096, base.size)), 4)):
        want = []
        for row in table:
            try:
                want.append(math.fsum(row))
            except OverflowError:
                want.append(np.nan)
        got = exact_sum(table)
        finite = ~np.isnan(want)
        assert (got[finite].view(np.int64) == np.array(want)[finite].view(np.int64)).all() or (
            got[finite] == np.array(want)[finite]  # zeros: 0.0 and -0.0 compare equal
        ).all()


def test_rows_near_halfway_are_left_to_fsum():
    """The proof declines what it cannot vouch for: 2^53 + 1 + 2^-60 must round up, which the float sums
    alone cannot see; such rows go to math.fsum (a proof that accepted them would round down)."""
    rows = np.tile([2.0**53, 1.0, 2.0**-60], (64, 1))
    _, proved = _exact._compensated_sums(rows)
    assert not proved.any()
    assert (exact_sum(rows) == math.fsum([2.0**53, 1.0, 2.0**-60])).all()
    assert math.fsum([2.0**53, 1.0, 2.0**-60]) == 2.0**53 + 2


@pytest.mark.parametrize("value", [0.4, 0.1, 1e300, 1e-300, -7.3])
def test_equal_values_have_their_value_as_mean_and_no_variance(value):
    runs = np.full((2, 7), value)
    assert (exact_mean(runs) == value).all()
    assert (exact_variance(runs) == 0).all()


def test_uci_published_ranks_hold(uci_runs):
    # Demšar's procedure on Benavoli et al.'s data: the numbers of tests/papers still hold
    result = rank_test(uci_runs)
    assert np.round(result.average_ranks, 4).tolist() == [3.6852, 2.4444, 2.7037, 3.25, 2.9167]
    assert correlated_t_test(uci_runs, "nbc", "aode", rope=1, folds=10).decisions.count("b_better") == 14
