"""best_of and simulate_best_of: the distribution of the best accuracy among m classifiers (paper §3-4).

References are built here from scipy's binomial distribution (Eq. 2, Eq. 8, and Eq. 10-11 by direct
convolution over the reference classifier's count), or from the Monte Carlo counterpart.
"""

import dataclasses
import json
import warnings

import numpy as np
import pytest
from scipy import stats

from benchtrust import InputError
from benchtrust.sota import best_of, simulate_best_of

M, N = 50, 200
SPREAD = np.linspace(0.7, 0.8, M)

# The five models of Table 2 at a small size, plus the sixth combination (dependent, non-identical, fixed).
SMALL_MODELS = {
    "independent, identical": {"accuracy": 0.8, "classifiers": M},
    "dependent, identical, random reference": {"accuracy": 0.8, "classifiers": M, "correlation": 0.5},
    "dependent, identical, fixed reference": {
        "accuracy": 0.8,
        "classifiers": M,
        "correlation": 0.5,
        "fixed_reference": True,
    },
    "independent, non-identical": {"accuracy": SPREAD},
    "dependent, non-identical, random reference": {"accuracy": SPREAD, "correlation": 0.5},
    "dependent, non-identical, fixed reference": {
        "accuracy": SPREAD,
        "correlation": 0.5,
        "fixed_reference": True,
    },
}

# Unusual but valid settings: tiny and huge m, tiny n, accuracies near 0 and 1, strong correlation,
# accuracies on the Eq. 12 bounds (conditional accuracy exactly 0 or 1), other α.
LOW_BOUND = 0.36 * 0.9 / (0.1 + 0.36 * 0.9)  # Eq. 12 with ρ = 0.6, θ0 = 0.9
HIGH_BOUND = 0.9 / (0.9 + 0.36 * 0.1)  # its twin from Eq. 10
EDGE_CASES = {
    "one item": {"accuracy": 0.5, "classifiers": 1, "test_size": 1},
    "near perfect": {"accuracy": 0.999, "classifiers": 1000, "test_size": 50},
    "near zero": {"accuracy": 0.01, "classifiers": 2, "test_size": 10},
    "a million guessers": {"accuracy": 0.5, "classifiers": 10**6, "test_size": 20},
    "strong correlation": {
        "accuracy": 0.6,
        "classifiers": 5,
        "test_size": 100,
        "correlation": 0.95,
        "reference_accuracy": 0.6,
    },
    "on the Eq. 12 bounds": {
        "accuracy": [LOW_BOUND, 0.85, HIGH_BOUND],
        "test_size": 300,
        "correlation": 0.6,
        "reference_accuracy": 0.9,
    },
    "on the Eq. 12 bounds, fixed": {
        "accuracy": [LOW_BOUND, 0.85, HIGH_BOUND],
        "test_size": 300,
        "correlation": 0.6,
        "reference_accuracy": 0.9,
        "fixed_reference": True,
    },
    "wide alpha": {"accuracy": 0.7, "classifiers": 30, "test_size": 500, "alpha": 0.5},
    "tiny alpha": {"accuracy": 0.7, "classifiers": 30, "test_size": 500, "alpha": 1e-6},
    "dependent tiny alpha": {
        "accuracy": 0.7,
        "classifiers": 30,
        "test_size": 500,
        "correlation": 0.3,
        "alpha": 1e-6,
    },
}


def small(name):
    return best_of(test_size=N, **SMALL_MODELS[name])


def check_invariants(r):
    """What every BestOfResult must satisfy, whatever the model."""
    n = r.test_size
    assert r.score.shape == r.pmf.shape == r.cdf.shape
    assert r.score.size >= 1
    # Support: on the grid k/n, ascending by 1/n, inside [0, 1]; computed on a lattice of L counts
    # (error_bound > 0), ascending by L/n, each cell at its middle.
    k = r.score * n
    spacing = round(k[1] - k[0]) if r.error_bound > 0 and k.size > 1 else 1
    k = k - (spacing - 1) / 2
    np.testing.assert_allclose(k, np.round(k), atol=1e-6)
    np.testing.assert_array_equal(np.diff(np.round(k)), spacing)
    assert r.score[0] >= 0.0 and r.score[-1] <= 1.0
    # A distribution.
    assert np.all(np.isfinite(r.pmf)) and np.all(r.pmf >= 0)
    assert abs(r.pmf.sum() - 1.0) <= 1e-12
    assert np.all(np.diff(r.cdf) >= 0)
    assert abs(r.cdf[-1] - 1.0) <= 1e-12
    np.testing.assert_allclose(r.cdf, np.cumsum(r.pmf), rtol=0, atol=1e-12)
    # Moments agree with the arrays.
    assert np.isfinite(r.expected_max) and np.isfinite(r.sd_max) and r.sd_max >= 0
    assert r.expected_max == pytest.approx(float(r.pmf @ r.score), abs=1e-12)
    variance = float(r.pmf @ (r.score - r.expected_max) ** 2)
    assert r.sd_max == pytest.approx(np.sqrt(variance), rel=1e-6, abs=1e-12)
    # The central interval, as documented.
    low, high = r.ci
    assert low <= r.expected_max <= high
    half = r.alpha / 2
    i = int(np.argmin(np.abs(r.score - low)))
    assert r.score[i] == pytest.approx(low, abs=1e-12)
    assert r.cdf[i] >= half - 1e-13  # P(best <= low) >= α/2 ...
    assert i == 0 or r.cdf[i - 1] < half + 1e-13  # ... and low is the smallest such accuracy
    at_least = 1.0 - r.cdf + r.pmf  # P(best >= a)
    j = int(np.argmin(np.abs(r.score - high)))
    assert r.score[j] == pytest.approx(high, abs=1e-12)
    assert at_least[j] >= half - 1e-13  # P(best >= high) >= α/2 ...
    assert j == r.score.size - 1 or at_least[j + 1] < half + 1e-13  # ... the largest such
    # Bookkeeping.
    assert 0 < r.top_score < 1
    assert r.dropped >= 0 and r.classifiers >= 1


@pytest.mark.parametrize("name", SMALL_MODELS)
def test_invariants_small_models(name):
    r = small(name)
    assert r.model == name
    assert r.method == "exact"
    assert r.classifiers == M and r.test_size == N
    check_invariants(r)


# The five models of Table 2 at the paper's size (m = 1000, n = 3000).
TABLE_SIZE = {
    "independent, identical": {"accuracy": 0.9, "classifiers": 1000},
    "dependent, identical, random reference": {"accuracy": 0.9, "classifiers": 1000, "correlation": 0.6},
    "dependent, identical, fixed reference": {
        "accuracy": 0.9,
        "classifiers": 1000,
        "correlation": 0.6,
        "fixed_reference": True,
    },
    "independent, non-identical": {"accuracy": np.linspace(0.875, 0.9, 1000)},
    "dependent, non-identical, random reference": {
        "accuracy": np.linspace(0.875, 0.9, 1000),
        "correlation": 0.6,
    },
}


@pytest.mark.parametrize("name", TABLE_SIZE)
def test_invariants_table_2_size(name):
    r = best_of(test_size=3000, **TABLE_SIZE[name])
    assert r.model == name
    check_invariants(r)


@pytest.mark.parametrize("name", EDGE_CASES)
def test_invariants_edge_cases(name):
    check_invariants(best_of(**EDGE_CASES[name]))


@pytest.mark.parametrize("name", list(SMALL_MODELS) + list(EDGE_CASES))
def test_no_warnings_on_valid_input(name):
    kwargs = {"test_size": N, **SMALL_MODELS.get(name, {}), **EDGE_CASES.get(name, {})}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        best_of(**kwargs)


def test_near_perfect_classifiers_reach_full_accuracy():
    r = best_of(**EDGE_CASES["near perfect"])
    # P(some classifier gets all 50 right) = 1 - (1 - 0.999^50)^1000, within rounding.
    assert r.score[-1] == 1.0
    assert r.pmf[-1] == pytest.approx(1 - (1 - 0.999**50) ** 1000, abs=1e-15)


# ------------------------------------------------------------------ exact references from scipy alone


def best_pmf_from_failure_cdfs(n, failure_cdfs, counts):
    """P(best accuracy = (n - z)/n) for z = 0..n from each classifier's P(X_j <= z) (Eq. 8)."""
    none = np.ones(n + 1)
    for cdf, count in zip(failure_cdfs, counts, strict=True):
        none *= (1.0 - cdf) ** count
    cdf_z = 1.0 - none  # F(z) = P(Z <= z)
    return np.diff(cdf_z, prepend=0.0)  # indexed by z


def on_result_grid(r, pmf_by_z):
    """Reference pmf (indexed by failures z) at the result's accuracies."""
    z = np.round((1.0 - r.score) * r.test_size).astype(int)
    return pmf_by_z[z]


def test_one_classifier_is_the_binomial_distribution():
    n, theta = 50, 0.8
    r = best_of(theta, classifiers=1, test_size=n)
    k = np.round(r.score * n).astype(int)
    np.testing.assert_allclose(r.pmf, stats.binom.pmf(k, n, theta), rtol=0, atol=1e-14)
    assert r.expected_max == pytest.approx(theta, abs=1e-13)
    assert r.sd_max == pytest.approx(np.sqrt(theta * (1 - theta) / n), rel=1e-10)
    # The window holds all the mass up to 1e-15 at each end.
    assert stats.binom.cdf(k[0] - 1, n, theta) <= 1e-15
    assert stats.binom.sf(k[-1], n, theta) <= 1e-15
    # Central interval: the smallest k with P(K <= k) >= α/2, the largest k with P(K >= k) >= α/2.
    counts = np.arange(n + 1)
    k_low = counts[stats.binom.cdf(counts, n, theta) >= 0.025].min()
    k_high = counts[stats.binom.sf(counts - 1, n, theta) >= 0.025].max()
    assert r.ci == pytest.approx((k_low / n, k_high / n), abs=1e-12)


@pytest.mark.parametrize(("m", "n", "theta"), [(7, 40, 0.6), (1000, 300, 0.9), (3, 1000, 0.97)])
def test_independent_identical_is_equation_2(m, n, theta):
    r = best_of(theta, classifiers=m, test_size=n)
    z = np.arange(n + 1)
    reference = best_pmf_from_failure_cdfs(n, [stats.binom.cdf(z, n, 1 - theta)], [m])
    np.testing.assert_allclose(r.pmf, on_result_grid(r, reference), rtol=0, atol=1e-13)
    assert r.expected_max == pytest.approx(float(reference @ ((n - z) / n)), abs=1e-12)


def test_independent_non_identical_is_equation_8():
    n = 120
    theta = np.array([0.55, 0.6, 0.6, 0.72, 0.8])
    r = best_of(theta, test_size=n)
    assert r.model == "independent, non-identical" and r.classifiers == 5
    z = np.arange(n + 1)
    reference = best_pmf_from_failure_cdfs(n, [stats.binom.cdf(z, n, 1 - t) for t in theta], [1] * 5)
    np.testing.assert_allclose(r.pmf, on_result_grid(r, reference), rtol=0, atol=1e-13)


def eq_10_11(theta, theta0, rho):
    """P(Y_j = 1 | Y0 = 1) and P(Y_j = 1 | Y0 = 0), written out from the paper's Eq. 10 and 11."""
    shared = rho * np.sqrt(theta * (1 - theta) * theta0 * (1 - theta0))
    return (shared + theta * theta0) / theta0, (-shared + theta * (1 - theta0)) / (1 - theta0)


def dependent_reference(theta, n, theta0, rho, fixed):
    """P(best = (n-z)/n) by brute force: for every k, X_j | k is the convolution of two binomials."""
    theta = np.atleast_1d(theta)
    right, wrong = eq_10_11(theta, theta0, rho)
    ks = [int(np.floor(theta0 * n + 0.5))] if fixed else range(n + 1)
    total = np.zeros(n + 1)
    for k in ks:
        weight = 1.0 if fixed else stats.binom.pmf(k, n, theta0)
        cdfs = []
        for r1, r0 in zip(right, wrong, strict=True):
            failures = np.convolve(
                stats.binom.pmf(np.arange(k + 1), k, 1 - r1),
                stats.binom.pmf(np.arange(n - k + 1), n - k, 1 - r0),
            )
            cdfs.append(np.cumsum(failures))
        total += weight * best_pmf_from_failure_cdfs(n, cdfs, [1] * len(cdfs))
    return total


@pytest.mark.parametrize("fixed", [False, True], ids=["random Y0", "fixed y0"])
@pytest.mark.parametrize(
    "theta",
    [np.array([0.8] * 6), np.array([0.62, 0.7, 0.7, 0.75, 0.8])],
    ids=["identical", "non-identical"],
)
def test_dependent_is_equations_10_and_11_by_brute_force(theta, fixed):
    n, theta0, rho = 60, 0.8, 0.5
    r = best_of(theta, test_size=n, correlation=rho, reference_accuracy=theta0, fixed_reference=fixed)
    reference = dependent_reference(theta, n, theta0, rho, fixed)
    assert reference.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(r.pmf, on_result_grid(r, reference), rtol=0, atol=1e-13)
    z = np.arange(n + 1)
    assert r.expected_max == pytest.approx(float(reference @ ((n - z) / n)), abs=1e-12)


def test_dependent_default_reference_is_the_top_accuracy():
    theta = np.array([0.7, 0.75, 0.8])
    default = best_of(theta, test_size=100, correlation=0.4)
    explicit = best_of(theta, test_size=100, correlation=0.4, reference_accuracy=0.8)
    assert default.reference_accuracy == 0.8
    np.testing.assert_array_equal(default.pmf, explicit.pmf)


@pytest.mark.parametrize("fixed", [False, True], ids=["random Y0", "fixed y0"])
@pytest.mark.parametrize("accuracy", [0.8, SPREAD], ids=["identical", "non-identical"])
def test_vanishing_correlation_is_the_independent_model(accuracy, fixed):
    kwargs = {"accuracy": accuracy, "test_size": N}
    if np.ndim(accuracy) == 0:
        kwargs["classifiers"] = M
    independent = best_of(**kwargs)
    dependent = best_of(**kwargs, correlation=1e-9, fixed_reference=fixed)
    assert dependent.correlation == 1e-9 and dependent.model.startswith("dependent")
    grid = np.union1d(np.round(independent.score * N), np.round(dependent.score * N)).astype(int)

    def spread_out(r):
        out = np.zeros(grid.size)
        out[np.searchsorted(grid, np.round(r.score * N).astype(int))] = r.pmf
        return out

    np.testing.assert_allclose(spread_out(dependent), spread_out(independent), rtol=0, atol=1e-7)
    assert dependent.expected_max == pytest.approx(independent.expected_max, abs=1e-8)
    assert dependent.sd_max == pytest.approx(independent.sd_max, rel=1e-6)


# --------------------------------------------------------------------------------- against Monte Carlo

SIMULATIONS = 200_000


def pooled_chi_square(expected, observed, minimum=5.0):
    """Chi-square statistic and degrees of freedom, pooling neighbouring cells until each expects >= 5."""
    cells_e, cells_o = [], []
    e_run = o_run = 0.0
    for e, o in zip(expected, observed, strict=True):
        e_run += e
        o_run += o
        if e_run >= minimum:
            cells_e.append(e_run)
            cells_o.append(o_run)
            e_run = o_run = 0.0
    cells_e[-1] += e_run
    cells_o[-1] += o_run
    e, o = np.array(cells_e), np.array(cells_o)
    return float(((o - e) ** 2 / e).sum()), e.size - 1


@pytest.mark.slow
@pytest.mark.parametrize("name", SMALL_MODELS)
def test_exact_agrees_with_monte_carlo(name):
    exact = small(name)
    simulated = simulate_best_of(test_size=N, simulations=SIMULATIONS, seed=20240611, **SMALL_MODELS[name])
    assert simulated.method == f"monte carlo, {SIMULATIONS} simulations"
    assert simulated.model == exact.model
    check_invariants(simulated)
    # Moments.
    standard_error = exact.sd_max / np.sqrt(SIMULATIONS)
    assert abs(simulated.expected_max - exact.expected_max) <= 4 * standard_error
    assert simulated.sd_max == pytest.approx(exact.sd_max, rel=0.03)
    # The whole distribution, on the union of the two grids (in failures z).
    z_exact = np.round((1 - exact.score) * N).astype(int)
    z_sim = np.round((1 - simulated.score) * N).astype(int)
    z = np.arange(min(z_exact.min(), z_sim.min()), max(z_exact.max(), z_sim.max()) + 1)
    expected = np.zeros(z.size)
    expected[z_exact - z[0]] = exact.pmf * SIMULATIONS
    observed = np.zeros(z.size)
    observed[z_sim - z[0]] = np.round(simulated.pmf * SIMULATIONS)
    assert observed.sum() == SIMULATIONS
    statistic, dof = pooled_chi_square(expected, observed)
    assert stats.chi2.sf(statistic, dof) > 1e-3, (statistic, dof)
    # Kolmogorov-type: the largest cdf difference within the 0.1 % critical value 1.95 / sqrt(R).
    gap = np.max(np.abs(np.cumsum(expected) - np.cumsum(observed))) / SIMULATIONS
    assert gap <= 1.95 / np.sqrt(SIMULATIONS)


def test_monte_carlo_is_seeded_and_deterministic():
    kwargs = {"accuracy": 0.8, "classifiers": 20, "test_size": 100, "simulations": 5000}
    first = simulate_best_of(seed=123, **kwargs)
    again = simulate_best_of(seed=123, **kwargs)
    from_generator = simulate_best_of(seed=np.random.default_rng(123), **kwargs)
    other = simulate_best_of(seed=124, **kwargs)
    for r in (again, from_generator):
        np.testing.assert_array_equal(r.score, first.score)
        np.testing.assert_array_equal(r.pmf, first.pmf)
        assert r.to_dict() == first.to_dict()
    assert not (np.array_equal(other.score, first.score) and np.array_equal(other.pmf, first.pmf))
    dependent = {**kwargs, "correlation": 0.4}
    np.testing.assert_array_equal(
        simulate_best_of(seed=5, **dependent).pmf, simulate_best_of(seed=5, **dependent).pmf
    )


# ------------------------------------------------------------------------------------------ monotonicity


@pytest.mark.parametrize(
    "dependence",
    [{}, {"correlation": 0.6}, {"correlation": 0.6, "fixed_reference": True}],
    ids=["independent", "random Y0", "fixed y0"],
)
def test_expected_best_increases_with_m(dependence):
    expected = [
        best_of(0.9, classifiers=m, test_size=3000, **dependence).expected_max
        for m in (1, 2, 5, 10, 100, 1000, 10000)
    ]
    assert expected[0] == pytest.approx(0.9, abs=1e-12) or dependence  # one classifier: unbiased
    assert np.all(np.diff(expected) > 0), expected


def test_expected_best_decreases_towards_theta_with_n():
    sizes = (100, 1000, 3000, 10_000, 100_000, 1_000_000)
    results = [best_of(0.9, classifiers=1000, test_size=n) for n in sizes]
    bias = np.array([r.expected_max - 0.9 for r in results])
    assert np.all(bias > 0)
    assert np.all(np.diff(bias) < 0), bias
    assert bias[-1] < 0.0015
    assert np.all(np.diff([r.sd_max for r in results]) < 0)


def test_dependence_reduces_the_bias():
    independent = best_of(0.9, classifiers=1000, test_size=3000).expected_max
    previous = independent
    for rho in (0.2, 0.4, 0.6, 0.8):
        e = best_of(0.9, classifiers=1000, test_size=3000, correlation=rho).expected_max
        assert 0.9 < e < previous
        previous = e


# ---------------------------------------------------------------------------------- equivalent inputs


@pytest.mark.parametrize(
    "dependence",
    [{}, {"correlation": 0.5}, {"correlation": 0.5, "fixed_reference": True}],
    ids=["independent", "random Y0", "fixed y0"],
)
def test_list_of_equal_accuracies_equals_accuracy_and_count(dependence):
    as_list = best_of([0.8] * M, test_size=N, **dependence)
    as_count = best_of(0.8, classifiers=M, test_size=N, **dependence)
    assert as_list.model == as_count.model
    np.testing.assert_array_equal(as_list.score, as_count.score)
    np.testing.assert_allclose(as_list.pmf, as_count.pmf, rtol=0, atol=1e-15)
    moments = ("expected_max", "sd_max")
    assert {k: v for k, v in as_list.to_dict().items() if k not in moments} == {
        k: v for k, v in as_count.to_dict().items() if k not in moments
    }
    assert as_list.expected_max == pytest.approx(as_count.expected_max, abs=1e-15)
    assert as_list.sd_max == pytest.approx(as_count.sd_max, rel=1e-12)
    assert as_list.classifiers == M


def test_order_of_accuracies_does_not_matter():
    shuffled = np.random.default_rng(0).permutation(SPREAD)
    a = best_of(SPREAD, test_size=N, correlation=0.5)
    b = best_of(shuffled, test_size=N, correlation=0.5)
    np.testing.assert_allclose(a.pmf, b.pmf, rtol=0, atol=1e-15)


def test_inputs_are_not_modified():
    accuracy = np.array([0.8, 0.7, 0.75, 0.3])
    before = accuracy.copy()
    best_of(accuracy, test_size=N, correlation=0.5, invalid="drop")
    simulate_best_of(accuracy, test_size=N, correlation=0.5, invalid="drop", simulations=100, seed=1)
    np.testing.assert_array_equal(accuracy, before)


def test_accepts_whole_floats_for_counts():
    a = best_of(0.8, classifiers=50.0, test_size=200.0)
    b = best_of(0.8, classifiers=50, test_size=200)
    assert (a.classifiers, a.test_size) == (50, 200)
    assert type(a.classifiers) is int and type(a.test_size) is int
    np.testing.assert_array_equal(a.pmf, b.pmf)


# --------------------------------------------------------------------------------------------- at scale


def test_ten_million_classifiers_on_ten_million_items():
    theta = 0.9
    r = best_of(theta, classifiers=10**7, test_size=10**7)
    assert np.isfinite(r.expected_max) and np.isfinite(r.sd_max)
    assert theta < r.expected_max < 1
    assert 0 < r.sd_max < 1e-3
    assert abs(r.pmf.sum() - 1.0) <= 1e-12
    check_invariants(r)
    # The best is about 5.3 sd of one classifier above θ (the 1 - 1/m quantile of a normal is 5.2).
    one_sd = np.sqrt(theta * (1 - theta) / 10**7)
    assert 4.5 < (r.expected_max - theta) / one_sd < 6


def test_dependent_identical_with_a_hundred_thousand_items():
    r = best_of(0.9, classifiers=1000, test_size=10**5, correlation=0.6)
    assert r.model == "dependent, identical, random reference"
    assert np.isfinite(r.expected_max) and np.isfinite(r.sd_max)
    assert abs(r.pmf.sum() - 1.0) <= 1e-12
    check_invariants(r)
    independent = best_of(0.9, classifiers=1000, test_size=10**5)
    assert 0.9 < r.expected_max < independent.expected_max


@pytest.mark.slow
def test_dependent_non_identical_with_ten_thousand_items():
    accuracy = np.linspace(0.85, 0.9, 2000)
    r = best_of(accuracy, test_size=10**4, correlation=0.6, reference_accuracy=0.9)
    check_invariants(r)
    assert 0.9 < r.expected_max < best_of(accuracy, test_size=10**4).expected_max


# ----------------------------------------------------------------------------------- result and to_dict


def plain(value):
    """Whether ``value`` is built from JSON's plain Python types only (no numpy scalars)."""
    if isinstance(value, dict):
        return all(type(k) is str and plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain(v) for v in value)
    return value is None or type(value) in (str, int, float, bool)


def not_plain(d):
    """The keys of ``d`` whose values are not plain, with their types."""
    return {k: type(v).__name__ for k, v in d.items() if not plain(v)}


@pytest.mark.parametrize("name", SMALL_MODELS)
def test_to_dict_is_plain_json(name):
    r = small(name)
    for d in (r.to_dict(), r.to_dict(distribution=True)):
        assert not not_plain(d), not_plain(d)
        assert json.loads(json.dumps(d)) == d
    d = r.to_dict(distribution=True)
    assert d["expected_max"] == r.expected_max and d["ci"] == list(r.ci)
    assert d["distribution"]["pmf"] == r.pmf.tolist()
    assert d["model"] == name and d["classifiers"] == M and d["test_size"] == N


def test_to_dict_is_plain_json_for_numpy_inputs():
    """Arguments given as numpy scalars (as read from arrays) still give plain JSON types."""
    r = best_of(
        np.float64(0.8),
        classifiers=np.int64(M),
        test_size=np.int64(N),
        correlation=np.float32(0.5),
        reference_accuracy=np.float64(0.8),
        fixed_reference=np.bool_(True),
        alpha=np.float32(0.05),
    )
    d = r.to_dict(distribution=True)
    assert not not_plain(d), not_plain(d)
    json.dumps(d)


def test_simulated_to_dict_is_plain_json():
    r = simulate_best_of(SPREAD, test_size=N, correlation=0.5, simulations=1000, seed=1)
    d = r.to_dict(distribution=True)
    assert not not_plain(d), not_plain(d)
    json.dumps(d)


def test_result_is_frozen_and_readable():
    r = small("dependent, identical, random reference")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.expected_max = 0.5
    text = repr(r)
    assert "dependent, identical, random reference" in text
    assert f"{r.expected_max:.6f}" in text


# ------------------------------------------------------------------------------------------- bad input

BASE = {"accuracy": 0.8, "classifiers": 10, "test_size": 100}

BAD_INPUT = [
    ({"accuracy": 0.0}, "accuracy"),
    ({"accuracy": 1.0}, "accuracy"),
    ({"accuracy": -0.2}, "accuracy"),
    ({"accuracy": 1.5}, "accuracy"),
    ({"accuracy": float("nan")}, "accuracy"),
    ({"accuracy": [0.7, 1.0], "classifiers": None}, "accuracy"),
    ({"accuracy": [], "classifiers": None}, "accuracy"),
    ({"accuracy": [[0.7, 0.8]], "classifiers": None}, "accuracy"),
    ({"accuracy": "abc"}, "accuracy"),
    ({"accuracy": ["0.7", "x"], "classifiers": None}, "accuracy"),
    ({"accuracy": {"a": 0.7}}, "accuracy"),
    ({"classifiers": None}, "classifiers"),
    ({"classifiers": 2.5}, "classifiers"),
    ({"classifiers": 0}, "classifiers"),
    ({"classifiers": -3}, "classifiers"),
    ({"classifiers": "10"}, "classifiers"),
    ({"accuracy": [0.7, 0.8], "classifiers": 3}, "classifiers"),
    ({"test_size": 0}, "test_size"),
    ({"test_size": -5}, "test_size"),
    ({"test_size": 10.5}, "test_size"),
    ({"test_size": None}, "test_size"),
    ({"correlation": 1.0}, "correlation"),
    ({"correlation": -0.1}, "correlation"),
    ({"correlation": float("nan")}, "correlation"),
    ({"alpha": 0.0}, "alpha"),
    ({"alpha": 1.0}, "alpha"),
    ({"alpha": -0.05}, "alpha"),
    ({"invalid": "ignore"}, "invalid"),
    ({"invalid": None}, "invalid"),
    ({"correlation": 0.5, "reference_accuracy": 1.0}, "reference_accuracy"),
    ({"correlation": 0.5, "reference_accuracy": 0.0}, "reference_accuracy"),
]


@pytest.mark.parametrize("function", [best_of, simulate_best_of])
@pytest.mark.parametrize(
    ("change", "argument"),
    BAD_INPUT,
    ids=[", ".join(f"{k}={v!r}" for k, v in c.items()) for c, _ in BAD_INPUT],
)
def test_bad_input_raises_input_error_naming_the_argument(function, change, argument):
    kwargs = {**BASE, **change}
    if function is simulate_best_of:
        kwargs["simulations"] = 10
    with pytest.raises(InputError, match=argument):
        function(**kwargs)


@pytest.mark.parametrize("simulations", [0, -1, 2.5, "many"])
def test_bad_simulations(simulations):
    with pytest.raises(InputError, match="simulations"):
        simulate_best_of(**BASE, simulations=simulations)


def test_input_error_is_a_value_error():
    with pytest.raises(ValueError):
        best_of(**{**BASE, "test_size": 0})
