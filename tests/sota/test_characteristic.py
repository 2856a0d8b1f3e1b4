"""The dependent best of m on a lattice of counts, from characteristic functions (issue 33 item 2).

Against the step-by-step computation of :mod:`benchtrust.sota._conditional`: equal where the lattice is
every count and every k a node; beyond, the exact cdf lies inside the bracket at every lattice point and
the expected best score and the interval's ends are within the stated ``error_bound``. A coarser error
budget (monkeypatched) makes the lattice and the grid of k coarse on test sets small enough for the exact
computation to be quick. Boards on n = 10^7 are computed, and agree with direct simulation.
"""

import numpy as np
import pytest

from benchtrust.sota import (
    _best_of,
    _characteristic,
    _dependence,
    bundled_leaderboard,
    leaderboard,
    read_leaderboard,
    simulate_best_of,
)


@pytest.fixture(scope="module")
def cassava():
    """Every 32nd score of the Cassava board (a real spread, from chance to 0.913)."""
    return read_leaderboard(bundled_leaderboard("cassava"), direction="higher", classes=5).scores[::32]


def model(theta, n, **options):
    """The dependent model (ρ = 0.6, θ0 the best) of classifiers with true accuracies ``theta``."""
    settings = {"classifiers": None, "reference_accuracy": None, "fixed_reference": False} | options
    return _best_of._prepare(theta, test_size=n, correlation=0.6, alpha=0.05, invalid="drop", **settings)


def both(m, pooled):
    """(lattice cdf, exact cdf at its lattice points) of a model."""
    right, wrong = _dependence.conditional_accuracies(
        m.theta, reference_accuracy=m.reference_accuracy, correlation=m.correlation
    )
    k, weights = m.reference_counts()
    got = _characteristic.lattice_cdf(k, weights, 1 - right, 1 - wrong, m.counts, m.test_size, pooled=pooled)
    first, cdf = _best_of._dependent_failures_cdf(m, pooled=pooled)
    exact = np.interp(got.z, np.arange(first, first + cdf.size), cdf, left=0.0, right=1.0)
    return got, exact


@pytest.mark.parametrize("pooled", [False, True])
def test_every_count_and_every_k_is_the_exact_cdf(cassava, pooled):
    got, exact = both(model(cassava, 600), pooled)
    assert got.spacing == 1
    assert np.array_equal(got.low, got.high)  # every k a node: no bracket
    assert np.abs(got.low - exact).max() < 3e-12  # the step-by-step cdf: within 2e-12 (_conditional)


@pytest.mark.parametrize("pooled", [False, True])
def test_the_bracket_holds_the_exact_cdf(cassava, pooled, monkeypatch):
    monkeypatch.setattr(_characteristic, "_SCORE_ERROR", 2e-3)  # L = 4 counts on n = 2,000
    m = model(cassava, 2000)
    got, exact = both(m, pooled)
    assert got.spacing == 4
    assert 2 < got.nodes < m.reference_counts()[0].size  # a bracket
    assert (got.low <= exact + 1e-13).all()
    assert (exact <= got.high + 1e-13).all()
    assert (got.high - got.low).max() > 1e-3  # the bracket is not empty


@pytest.mark.parametrize("pooled", [False, True])
def test_the_result_is_within_its_bound(cassava, pooled, monkeypatch):
    monkeypatch.setattr(_characteristic, "_SCORE_ERROR", 2e-3)
    m = model(cassava, 2000)
    exact = _best_of._exact(m, pooled=pooled)
    monkeypatch.setattr(_best_of, "LARGE_TEST_SET", 2000)
    got = _best_of._exact(m, pooled=pooled)
    assert exact.error_bound == 0 and got.error_bound > 0
    assert abs(got.expected_max - exact.expected_max) <= got.error_bound
    assert max(abs(a - b) for a, b in zip(got.ci, exact.ci, strict=True)) <= got.error_bound
    assert "on a lattice of 4 counts" in got.method
    assert ("bootstrap over classifiers" in got.method) == pooled


def test_a_fixed_reference_is_one_node():
    m = model(np.linspace(0.875, 0.9, 50), 10**6, reference_accuracy=0.9, fixed_reference=True)
    got = _best_of._exact(m)
    assert np.isclose(got.pmf.sum(), 1.0)
    assert got.error_bound <= 5e-5


@pytest.mark.parametrize("pooled", [False, True])
def test_ten_million_items_agree_with_simulation(pooled):
    """Table 2's classifiers on n = 10^7: the lattice result against 4,000 simulated boards."""
    theta = np.linspace(0.875, 0.9, 1000)
    m = model(theta, 10**7, reference_accuracy=0.9)
    got = _best_of._exact(m, pooled=pooled)
    assert got.error_bound <= 5e-5
    assert np.isclose(got.pmf.sum(), 1.0)
    if not pooled:
        sim = simulate_best_of(
            theta, test_size=10**7, correlation=0.6, reference_accuracy=0.9, simulations=4000, seed=7
        )
        assert abs(got.expected_max - sim.expected_max) < 4 * got.sd_max / np.sqrt(4000) + got.error_bound


def test_a_large_board_says_it_was_computed_on_a_lattice():
    scores = np.round(np.linspace(0.90, 0.95, 20), 4)
    r = leaderboard(scores, test_size=2_000_000, direction="higher")
    assert 0 < r.error_bound <= 5e-5
    assert r.to_dict()["error_bound"] == r.error_bound
    assert "within" in str(r) and "of exact" in str(r)
    small = leaderboard(scores[-4:], test_size=10_000, direction="higher")
    assert small.error_bound == 0 and "of exact" not in str(small)


def test_progress_counts_the_nodes():
    m = model(np.linspace(0.875, 0.9, 20), 10**6, reference_accuracy=0.9)
    right, wrong = _dependence.conditional_accuracies(m.theta, reference_accuracy=0.9, correlation=0.6)
    k, weights = m.reference_counts()
    seen = []
    got = _characteristic.lattice_cdf(
        k, weights, 1 - right, 1 - wrong, m.counts, m.test_size, progress=lambda *a: seen.append(a)
    )
    assert seen[-1] == (got.nodes, got.nodes)
