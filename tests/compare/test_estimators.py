"""Tests of compare._pipelines._estimators: Algorithms 1-2, Fig. 1, Eq. 7 and the binomial model (Fig. 2)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from benchtrust._io import InputError
from benchtrust.compare._pipelines import _estimators as est
from benchtrust.compare._pipelines._study import RandomSearch, Study, out_of_bootstrap

P = 0.8  # accuracy of the simulated pipeline
N = 300  # examples in the data set
INIT_SD = 0.03
ORDER_SD = 0.005


def pipeline(train, test, hyperparameters, seeds):
    """Binomial(n', P)/n' test accuracy drawn afresh per test set, plus independent init and order terms."""
    accuracy = (np.random.default_rng(test).random(test.size) < P).mean()
    init = np.random.default_rng(seeds["init"]).normal(0, INIT_SD)
    order = np.random.default_rng(seeds["order"]).normal(0, ORDER_SD)
    return float(accuracy + init + order - (hyperparameters.get("lr", 0.3) - 0.3) ** 2)


def make_study(**kwargs):
    return Study(pipeline, data_size=N, sources=("split", "init", "order"), **kwargs)


def split_variance():
    """P(1-P) E[1/n'], the variance of the accuracy due to the out-of-bootstrap split, by simulation."""
    sizes = np.array([out_of_bootstrap(N, seed=s)[1].size for s in range(4000)])
    return P * (1 - P) * np.mean(1 / sizes)


# ------------------------------------------------------------------------------------------- Algorithm 1
def test_ideal_estimate_is_the_mean_and_std_of_k_fully_randomised_runs():
    study = make_study()
    estimate = est.ideal_estimate(study, runs=20, seed=4)
    scores = study.run(20, seed=4).scores
    assert estimate.mean == pytest.approx(scores.mean())
    assert estimate.std == pytest.approx(scores.std(ddof=1))
    assert estimate.fixed == ()
    assert estimate.estimator == "IdealEst"
    assert math.isnan(estimate.correlation)


@pytest.mark.slow
def test_ideal_estimate_has_uncorrelated_runs_and_std_sigma_over_root_k():
    estimate = est.ideal_estimate(make_study(), runs=5, seed=0, repetitions=400)
    sigma2 = split_variance() + INIT_SD**2 + ORDER_SD**2
    assert estimate.correlation == pytest.approx(0.0, abs=0.08)
    assert estimate.std_of_mean == pytest.approx(math.sqrt(sigma2 / 5), rel=0.1)  # Eq. 6
    assert estimate.std_of_mean_eq7 == pytest.approx(estimate.std_of_mean, rel=0.15)
    assert np.mean(estimate.means) == pytest.approx(P, abs=0.005)


# ------------------------------------------------------------------------------------------- Algorithm 2
def test_fixed_hopt_variants_fix_the_right_sources():
    study = make_study(search=RandomSearch({"lr": (0.0, 1.0)}, trials=5))
    assert est.fixed_hopt_estimate(study, runs=3, seed=0, vary="init").fixed == ("split", "order", "search")
    assert est.fixed_hopt_estimate(study, runs=3, seed=0, vary="data").fixed == ("init", "order", "search")
    all_ = est.fixed_hopt_estimate(study, runs=3, seed=0, vary="all")
    assert all_.fixed == ("search",)
    assert all_.estimator == "FixHOptEst(All)"
    assert len({row.hyperparameters["lr"] for row in all_.tables[0]}) == 1
    custom = est.fixed_hopt_estimate(study, runs=3, seed=0, vary=("init", "order"))
    assert custom.fixed == ("split", "search")


def test_fixed_hopt_init_has_the_init_variance_within_a_repetition():
    estimate = est.fixed_hopt_estimate(make_study(), runs=1500, seed=0, vary="init")
    assert estimate.std == pytest.approx(INIT_SD, rel=0.08)


@pytest.mark.slow
def test_fixed_hopt_init_correlation_and_equation_7_match_the_model():
    estimate = est.fixed_hopt_estimate(make_study(), runs=5, seed=1, vary="init", repetitions=400)
    between = split_variance() + ORDER_SD**2  # sources fixed within a repetition
    within = INIT_SD**2
    rho = between / (between + within)
    assert estimate.correlation == pytest.approx(rho, abs=0.08)
    expected = math.sqrt(est.mean_variance(between + within, runs=5, correlation=rho))
    assert estimate.std_of_mean == pytest.approx(expected, rel=0.1)
    assert estimate.std_of_mean_eq7 == pytest.approx(expected, rel=0.1)


@pytest.mark.slow
def test_randomising_more_sources_gives_a_better_estimator():
    """§3.3: FixHOptEst(k, Init) has a larger standard error than FixHOptEst(k, All) ≈ IdealEst(k)."""
    study = make_study()
    init = est.fixed_hopt_estimate(study, runs=10, seed=2, vary="init", repetitions=200)
    all_ = est.fixed_hopt_estimate(study, runs=10, seed=2, vary="all", repetitions=200)
    assert init.std_of_mean > 2 * all_.std_of_mean


def test_estimates_are_reproducible_and_serialisable():
    study = make_study()
    a = est.fixed_hopt_estimate(study, runs=4, seed=3, vary="data", repetitions=3)
    b = est.fixed_hopt_estimate(study, runs=4, seed=3, vary="data", repetitions=3)
    assert a.to_dict() == b.to_dict() and [t.rows for t in a.tables] == [t.rows for t in b.tables]
    record = json.loads(json.dumps(a.to_dict()))
    assert record["estimator"] == "FixHOptEst(Data)" and len(record["means"]) == 3
    assert "FixHOptEst(Data)(k=4)" in repr(a) and "rho=" in repr(a)
    single = est.ideal_estimate(study, runs=3, seed=0).to_dict()
    assert single["correlation"] is None


# ------------------------------------------------------------------------------------------- Fig. 1
def test_source_variances_have_the_model_values():
    result = est.source_variances(make_study(), runs=1500, seed=0)
    vs = split_variance()
    assert result.variances["split"] == pytest.approx(vs, rel=0.1)
    assert result.variances["init"] == pytest.approx(INIT_SD**2, rel=0.1)
    assert result.variances["order"] == pytest.approx(ORDER_SD**2, rel=0.1)
    assert result.variances["none"] == 0.0
    assert result.fractions["split"] == 1.0
    assert result.fractions["init"] == pytest.approx(INIT_SD**2 / vs, rel=0.15)
    json.dumps(result.to_dict())
    assert "SourceVariances(runs=1500" in repr(result)


def test_source_variances_of_chosen_sources_always_include_the_split():
    result = est.source_variances(make_study(), runs=5, seed=0, sources="init")
    assert list(result.variances) == ["split", "init", "none"]


# ------------------------------------------------------------------------------------------- ρ and Eq. 7
def test_average_correlation_recovers_a_known_intraclass_correlation():
    rng = np.random.default_rng(0)
    scores = rng.normal(0, math.sqrt(3), size=(3000, 1)) + rng.normal(0, 1, size=(3000, 4))
    assert est.average_correlation(scores) == pytest.approx(0.75, abs=0.02)


def test_average_correlation_of_independent_runs_is_near_zero_and_clipped():
    rng = np.random.default_rng(1)
    assert est.average_correlation(rng.normal(size=(3000, 3))) == pytest.approx(0.0, abs=0.03)
    # rows with identical means: the estimate -1/(k-1) is the lower bound
    assert est.average_correlation([[0.0, 1.0], [1.0, 0.0]]) == -1.0
    assert math.isnan(est.average_correlation(np.ones((3, 3))))


def test_mean_variance_limits():
    assert est.mean_variance(2.0, runs=1, correlation=0.7) == 2.0
    assert est.mean_variance(2.0, runs=8, correlation=0.0) == 0.25
    assert est.mean_variance(2.0, runs=8, correlation=1.0) == pytest.approx(2.0)
    assert est.mean_variance(2.0, runs=10**6, correlation=0.3) == pytest.approx(0.6, rel=1e-5)


def test_equation_7_matches_simulated_means_of_correlated_runs():
    rng = np.random.default_rng(2)
    rho, k = 0.4, 6
    scores = rng.normal(0, math.sqrt(rho), size=(20000, 1)) + rng.normal(
        0, math.sqrt(1 - rho), size=(20000, k)
    )
    assert scores.mean(axis=1).var() == pytest.approx(
        est.mean_variance(1.0, runs=k, correlation=rho), rel=0.05
    )


# ------------------------------------------------------------------------------------------- Fig. 2
def test_binomial_variance_is_vectorised():
    np.testing.assert_allclose(
        est.binomial_variance([0.5, 0.9], test_size=[100, 1000]), [0.0025, 0.9 * 0.1 / 1000]
    )
    assert est.binomial_variance(1.0, test_size=5) == 0.0


def test_measured_test_set_variance_matches_the_binomial_model():
    def accuracy_only(train, test, hyperparameters, seeds):
        return float((np.random.default_rng(test).random(test.size) < P).mean())

    runs = Study(accuracy_only, data_size=N, sources=("split",)).run(2000, seed=0)
    result = est.test_set_variance(runs)
    assert result.measured_std == pytest.approx(result.binomial_std, rel=0.06)
    assert result.binomial_std == pytest.approx(math.sqrt(split_variance()), rel=0.02)
    assert result.accuracy == pytest.approx(P, abs=0.003)
    assert result.test_size == pytest.approx(N / math.e, rel=0.02)
    json.dumps(result.to_dict())
    assert "TestSetVariance(measured std=" in repr(result)


# ------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda s: est.ideal_estimate("study", runs=3, seed=0), "study"),
        (lambda s: est.ideal_estimate(s, runs=1, seed=0), "runs"),
        (lambda s: est.ideal_estimate(s, runs=3, seed=0, repetitions=0), "repetitions"),
        (lambda s: est.ideal_estimate(s, runs=3, seed=-2), "seed"),
        (lambda s: est.fixed_hopt_estimate(s, runs=3, seed=0, vary="weights"), "vary"),
        (lambda s: est.fixed_hopt_estimate(s, runs=3, seed=0, vary=("init", "dropout")), "vary"),
        (lambda s: est.source_variances(s, runs=1, seed=0), "runs"),
        (lambda s: est.source_variances(s, runs=3, seed=0, sources=("dropout",)), "sources"),
        (lambda s: est.average_correlation([1.0, 2.0]), "scores"),
        (lambda s: est.average_correlation([[1.0, np.nan], [1.0, 2.0]]), "scores"),
        (lambda s: est.mean_variance(-1.0, runs=3, correlation=0.1), "variance"),
        (lambda s: est.mean_variance(1.0, runs=0, correlation=0.1), "runs"),
        (lambda s: est.mean_variance(1.0, runs=3, correlation=1.5), "correlation"),
        (lambda s: est.mean_variance(1.0, runs=3, correlation=-0.9), "correlation"),
        (lambda s: est.binomial_variance(1.2, test_size=10), "accuracy"),
        (lambda s: est.binomial_variance(0.5, test_size=0), "test_size"),
        (lambda s: est.binomial_variance(0.5, test_size=2.5), "test_size"),
        (lambda s: est.test_set_variance([0.5, 0.6]), "runs"),
        (lambda s: est.test_set_variance(s.run(1, seed=0)), "runs"),
    ],
)
def test_bad_input_raises_input_error_naming_the_argument(call, argument):
    with pytest.raises(InputError, match=f"^{argument}:"):
        call(make_study())


def test_fixed_hopt_cannot_vary_the_search():
    study = make_study(search=RandomSearch({"lr": (0.0, 1.0)}, trials=2))
    with pytest.raises(InputError, match=r"^vary:.*ideal_estimate"):
        est.fixed_hopt_estimate(study, runs=3, seed=0, vary=("init", "search"))


def test_test_set_variance_needs_accuracies():
    study = Study(
        lambda train, test, hyperparameters, seeds: 2.0 + seeds["init"] % 2,
        data_size=20,
        sources=("split", "init"),
    )
    with pytest.raises(InputError, match=r"^runs:.*\[0, 1\]"):
        est.test_set_variance(study.run(3, seed=0))
