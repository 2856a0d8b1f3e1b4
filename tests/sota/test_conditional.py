"""The dependent model's conditional cdfs: classifiers left out with a proof, k run in parts.

On the Cassava board's accuracies (a real spread: 3,755 teams from chance to 0.913) with n = 1000 and
ρ = 0.6, the exact distribution of the best must not depend on which classifiers the first run takes
(the bound of ``_left_out`` adds any it cannot leave out) nor on the parts the values of k are run in.
"""

import dataclasses
import threading
import warnings

import numpy as np
import pytest

from benchtrust.sota import (
    _conditional,
    _dependence,
    _two_binomials,
    bundled_leaderboard,
    leaderboard,
    read_leaderboard,
)
from benchtrust.sota._best_of import WINDOW_TAIL, _exact, _prepare

N = 1000


@pytest.fixture(scope="module")
def cassava():
    return read_leaderboard(bundled_leaderboard("cassava"), direction="higher", classes=5).scores


def dependent(scores):
    """The dependent model (ρ = 0.6, θ0 the best score) with the scores as true accuracies, n = 1000."""
    return _prepare(
        scores,
        test_size=N,
        classifiers=scores.size,
        correlation=0.6,
        reference_accuracy=None,
        fixed_reference=False,
        alpha=0.05,
        invalid="drop",
    )


def exact(scores, pooled):
    return _exact(dependent(scores), pooled=pooled)


def assert_same_distribution(got, want):
    """The same cdf to 1e-12 wherever either window has it (0 below and 1 above a window)."""
    score = np.union1d(got.score, want.score)

    def cdf(result):
        return np.interp(score, result.score, result.cdf, left=0.0, right=1.0)

    np.testing.assert_allclose(cdf(got), cdf(want), rtol=0, atol=1e-12)
    assert got.expected_max == pytest.approx(want.expected_max, abs=1e-12)


@pytest.mark.parametrize("pooled", [False, True], ids=["plain", "bootstrap"])
def test_classifiers_left_out_do_not_change_the_distribution(cassava, pooled, monkeypatch):
    default = exact(cassava, pooled)
    monkeypatch.setattr(_conditional, "_REACH", np.inf)  # every classifier in the first run
    everyone = exact(cassava, pooled)
    monkeypatch.setattr(_conditional, "_REACH", 0.0)  # only the strongest: the bound adds the rest
    strongest_first = exact(cassava, pooled)
    assert_same_distribution(default, everyone)
    assert_same_distribution(strongest_first, everyone)


def test_the_bound_adds_the_classifiers_that_matter(cassava):
    """The strongest alone gives a distribution far from the whole board's: after a run of it, the bound
    must add classifiers (the test above checks that it adds enough), and it proves the weakest
    negligible even so."""
    model = dependent(cassava)
    alone = _exact(dataclasses.replace(model, theta=model.theta[-1:], counts=model.counts[-1:]))
    assert np.abs(alone.cdf - np.interp(alone.score, *exact_cdf(model))).max() > 1e-3
    right, wrong = _dependence.conditional_accuracies(
        model.theta, reference_accuracy=model.reference_accuracy, correlation=0.6
    )
    q1, q0, counts = 1.0 - right, 1.0 - wrong, model.counts  # ascending accuracy: the strongest last
    k, weights = model.reference_counts()
    tolerance = WINDOW_TAIL / (weights * k.size)
    m = counts.sum()
    run = _conditional._conditional_run(k, weights, tolerance, q1[-1:], q0[-1:], counts[-1:], N, m, False)
    needed = _conditional._left_out(k, tolerance / 2, q1[:-1], q0[:-1], counts[:-1], N, m, False, run)
    assert needed[-1]  # the second strongest
    assert not needed[0]  # the weakest


def exact_cdf(model):
    result = _exact(model)
    return result.score, result.cdf


def test_finished_pairs_stay_finite():
    """A small dependent board with the bootstrap: pairs (team, k) finish long before their k, and
    past the recurrence's stable range their values must not overflow into warnings (a random board
    that once did)."""
    counts = [1212, 933, 1065, 1032, 1201, 1405, 1509, 1015, 1237, 782, 1055]
    counts += [1512, 872, 1452, 1287, 985, 1381, 1001, 1459, 843, 849]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = leaderboard(
            np.array(counts) / 1558, test_size=1558, direction="higher", correlation=0.6, resamples=1000
        )
    assert result.cropped.sota <= result.observed_max
    assert np.isfinite(result.conservative.ci).all()


@pytest.mark.parametrize("pooled", [False, True], ids=["plain", "bootstrap"])
def test_memory_bounds_do_not_change_the_distribution(cassava, pooled, monkeypatch):
    """Memory is bounded by running the values of k in parts of at most _PAIRS pairs (halved when the
    bound adds classifiers), keeping at most _CELLS values of log(1 - F) for the bound (coarser blocks),
    working on _SLICE elements of it and summing _TERMS terms of the direct pmf sums at a time: with all
    of them tiny, the distribution is the same."""
    default = exact(cassava, pooled)
    for name, value in {"_PAIRS": 300, "_CELLS": 100, "_SLICE": 1000}.items():
        monkeypatch.setattr(_conditional, name, value)
    monkeypatch.setattr(_two_binomials, "_TERMS", 64)
    assert_same_distribution(exact(cassava, pooled), default)


def test_an_interrupted_computation_stops_at_once(cassava, monkeypatch):
    """An exception raised in the progress callback (as Ctrl-C is raised between two steps) ends the
    computation there: no part after it is run, and no thread is left behind."""
    monkeypatch.setattr(_conditional, "_PAIRS", 2000)  # many parts
    before = threading.active_count()
    calls = []

    def interrupt(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _exact(dependent(cassava), pooled=True, progress=interrupt)
    assert len(calls) == 1
    assert threading.active_count() == before


def test_progress_counts_the_values_of_k(cassava):
    """The counted progress of the dependent model: values of k finished, of all of them, ending at all."""
    calls = []
    model = dependent(cassava)
    _exact(model, pooled=True, progress=lambda done, total: calls.append((done, total)))
    k, _ = model.reference_counts()
    assert calls[-1] == (k.size, k.size)
    assert all(total == k.size and 0 <= done <= k.size for done, total in calls)


def test_log_complement_is_the_logarithm_to_rounding():
    """log(1 - F) by its four-term series below _SERIES and by log1p above: within a few units of 2^-53
    of log1p(-F), relatively, for F from subnormal to 1 (and a rounding past 1, taken as 1), on both
    sides of _SERIES. A series used too far (or a wrong coefficient) is off by far more there."""
    edge = _conditional._SERIES
    cdf = np.concatenate(
        [
            [0.0, 5e-324, 1e-300, 1e-20, np.nextafter(edge, 0.0), edge, np.nextafter(edge, 1.0)],
            np.geomspace(1e-30, 1.0, 4001),
            edge * np.linspace(0.5, 2.0, 1001),
            [0.5, 1.0 - 2**-52, 1.0, 1.0 + 2**-52],
        ]
    )
    with np.errstate(divide="ignore"):  # as the caller: log(1 - 1) is -inf
        got = _conditional._log_complement(cdf, np.empty(cdf.size))
        want = np.log1p(-np.minimum(cdf, 1.0))
    one = cdf >= 1.0
    assert np.isneginf(got[one]).all()
    np.testing.assert_allclose(got[~one], want[~one], rtol=4 * 2.0**-53, atol=0)
