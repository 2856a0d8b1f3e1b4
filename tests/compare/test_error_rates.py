"""error_rates: the detection rates of §4.2 / Fig. 6 (simulated, or exact where they can be) against
closed forms and quadratures derived here; the errors at the edges of the regions and the grid means."""

import json

import numpy as np
import pytest
from scipy import stats

from benchtrust import InputError
from benchtrust.compare._pipelines._error_rates import error_rates

SIGMA = 0.02
K = 50
SIMS = 20_000
PROBS = [0.4, 0.5, 0.6, 0.75, 0.85, 0.92, 0.97]


def _tolerance(rate, sims=SIMS):
    """Five Monte Carlo standard errors, plus a floor for rates near 0 or 1."""
    return 5 * np.sqrt(rate * (1 - rate) / sims) + 2e-3


def _decision_by_wins(k, alpha, gamma):
    """The P(A > B) decision for w = 0..k wins, from binomial quantiles (the bootstrap of C.5 in the limit).

    A bootstrap resample of k pairs with w wins has Binomial(k, w/k) wins; the percentile interval's ends are
    its α/2 and 1 - α/2 quantiles over k.
    """
    w = np.arange(k + 1)
    low = stats.binom.ppf(alpha / 2, k, w / k) / k
    high = stats.binom.ppf(1 - alpha / 2, k, w / k) / k
    return (low > 0.5) & (high > gamma)


@pytest.fixture(scope="module")
def simulated():
    return error_rates(
        SIGMA, runs=K, conditional_sd=0.015, bias_sd=0.006, probabilities=PROBS, simulations=SIMS, seed=11
    )


def test_threshold_criteria_match_their_normal_closed_forms(simulated):
    p = np.array(PROBS)
    delta = 1.9952 * SIGMA
    diff = SIGMA * np.sqrt(2) * stats.norm.ppf(p)
    sb, sc = 0.006, 0.015
    expected = {
        ("single_point", "ideal"): stats.norm.cdf((diff - delta) / (SIGMA * np.sqrt(2))),
        ("average", "ideal"): stats.norm.cdf((diff - delta) / (SIGMA * np.sqrt(2 / K))),
        ("single_point", "biased"): stats.norm.cdf((diff - delta) / np.sqrt(2 * (sb**2 + sc**2))),
        ("average", "biased"): stats.norm.cdf((diff - delta) / np.sqrt(2 * (sb**2 + sc**2 / K))),
    }
    for (criterion, estimator), rate in expected.items():
        got = simulated.rates[criterion][estimator]
        assert np.all(np.abs(got - rate) <= _tolerance(rate)), (criterion, estimator, got, rate)


def test_outperforming_with_the_ideal_estimator_is_a_binomial_sum(simulated):
    # Ideal runs are independent, so the wins of A over k pairs are Binomial(k, P(A > B)): the module
    # gives that sum exactly, not a simulation of it.
    decide = _decision_by_wins(K, 0.05, 0.75)
    w = np.arange(K + 1)
    expected = [stats.binom.pmf(w, K, p) @ decide for p in PROBS]
    got = simulated.rates["probability_of_outperforming"]["ideal"]
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-15)


def test_t_test_matches_the_noncentral_t(simulated):
    """Paired differences d_i ~ N(Δ, 2σ²): the t statistic is noncentral t(k - 1, Δ√k / (σ√2)); under the
    biased estimator, given the biases' difference D ~ N(0, 2 sb²), it is noncentral with Δ + D and sc."""
    sb, sc = 0.006, 0.015
    p = np.array(PROBS)
    diff = SIGMA * np.sqrt(2) * stats.norm.ppf(p)
    critical = stats.t.ppf(0.95, K - 1)
    ideal = stats.nct.sf(critical, K - 1, diff * np.sqrt(K) / (SIGMA * np.sqrt(2)))
    nodes, weights = np.polynomial.hermite_e.hermegauss(80)
    weights = weights / weights.sum()
    shifted = diff[:, None] + np.sqrt(2) * sb * nodes[None, :]
    biased = stats.nct.sf(critical, K - 1, shifted * np.sqrt(K) / (sc * np.sqrt(2))) @ weights
    for estimator, rate in (("ideal", ideal), ("biased", biased)):
        got = simulated.rates["t_test"][estimator]
        assert np.all(np.abs(got - rate) <= _tolerance(rate)), (estimator, got, rate)


def test_oracle_is_the_decision_of_c6_on_the_known_variance_interval():
    """The oracle knows s = σ√(2/k): its (1 - α) interval of P(A > B) is Φ((D ± z s) / (σ√2)) around the
    mean difference D ~ N(Δ, s²), and it concludes like C.6. Simulated here, decision by decision."""
    sigma, k, alpha, gamma = 0.02, 20, 0.1, 0.7
    r = error_rates(sigma, runs=k, alpha=alpha, gamma=gamma, probabilities=PROBS, simulations=60)
    s = sigma * np.sqrt(2 / k)
    z = stats.norm.ppf(1 - alpha / 2)
    mean_difference = s * np.random.default_rng(9).standard_normal(200_000)
    for p, got in zip(PROBS, r.rates["oracle"]["ideal"], strict=True):
        d = sigma * np.sqrt(2) * stats.norm.ppf(p) + mean_difference
        low = stats.norm.cdf((d - z * s) / (sigma * np.sqrt(2)))
        high = stats.norm.cdf((d + z * s) / (sigma * np.sqrt(2)))
        rate = np.mean((low > 0.5) & (high > gamma))
        assert abs(got - rate) <= _tolerance(got, 200_000), (p, got, rate)
    assert set(r.rates["oracle"]) == {"ideal"}  # one line, as in Fig. 6


def test_outperforming_with_the_biased_estimator_matches_quadrature(simulated):
    # Given the biases' difference D ~ N(0, 2 sb²), wins ~ Binomial(k, Φ((Δ + D) / (sc √2))).
    sb, sc = 0.006, 0.015
    decide = _decision_by_wins(K, 0.05, 0.75)
    w = np.arange(K + 1)
    nodes, weights = np.polynomial.hermite_e.hermegauss(80)
    weights = weights / weights.sum()
    for p, got in zip(PROBS, simulated.rates["probability_of_outperforming"]["biased"], strict=True):
        diff = SIGMA * np.sqrt(2) * stats.norm.ppf(p)
        q = stats.norm.cdf((diff + np.sqrt(2) * sb * nodes) / (sc * np.sqrt(2)))
        rate = weights @ (stats.binom.pmf(w[None, :], K, q[:, None]) @ decide)
        assert abs(got - rate) <= _tolerance(rate), (p, got, rate)


def test_single_point_without_threshold_detects_at_the_rate_p():
    # With δ = 0 one run each says "A better" exactly when A's run beats B's: probability P(A > B).
    r = error_rates(1.0, delta=0.0, probabilities=PROBS, simulations=SIMS, seed=3)
    rate = np.array(PROBS)
    assert np.all(np.abs(r.rates["single_point"]["ideal"] - rate) <= _tolerance(rate))


def test_rates_are_non_decreasing_in_p():
    r = error_rates(0.01, conditional_sd=0.009, bias_sd=0.003, simulations=500, seed=2)
    for by in r.rates.values():
        for rate in by.values():
            assert np.all(np.diff(rate) >= 0)
    assert r.probabilities[0] == 0.4 and r.probabilities[-1] == 1.0
    for by in r.rates.values():  # P(A > B) = 1: A always ahead by an infinite margin
        assert all(rate[-1] == 1.0 for rate in by.values())


def test_reproducible_with_a_seed_or_generator():
    options = {"conditional_sd": 0.01, "bias_sd": 0.005, "simulations": 300}
    one = error_rates(0.01, seed=7, **options).to_dict()
    assert one == error_rates(0.01, seed=7, **options).to_dict()
    assert one == error_rates(0.01, seed=np.random.default_rng(7), **options).to_dict()
    other = error_rates(0.01, seed=8, **options).to_dict()
    assert one["rates"] != other["rates"]


def test_ideal_only_without_the_biased_parameters():
    r = error_rates(0.01, probabilities=[0.5, 0.9], simulations=100, seed=0)
    assert r.estimators == ("ideal",)
    assert list(r.rates) == ["single_point", "average", "t_test", "probability_of_outperforming", "oracle"]
    assert all(set(by) == {"ideal"} for by in r.rates.values())
    assert r.conditional_sd is None and r.bias_sd is None


def test_to_dict_is_plain_json_and_repr_is_readable():
    r = error_rates(0.01, conditional_sd=0.01, bias_sd=0.0, probabilities=[0.5, 1.0], simulations=60, seed=0)
    d = json.loads(json.dumps(r.to_dict()))
    assert d == r.to_dict()
    assert d["differences"][1] is None  # Δ = ∞ at P(A > B) = 1
    assert set(d["edge_rates"]) == {"false_positive", "false_negative"}
    assert d["grid_mean_rates"]["false_negative"]["average"]["biased"] == 0.0  # only P(A > B) = 1 is >= γ
    assert "region_rates" not in d  # renamed: a mean over the grid is not a rate of the paper
    assert d["delta"] == pytest.approx(1.9952 * 0.01)
    assert set(d["rates"]["average"]) == {"ideal", "biased"}
    text = repr(r)
    assert text.startswith("ErrorRatesResult(") and "runs=50" in text and "delta=" in text


def test_runs_and_gamma_change_the_decision_threshold():
    """The P(A > B) test needs the wins of _decision_by_wins for k and γ; two runs conclude from 2 wins."""
    for k, gamma in ((2, 0.75), (10, 0.6), (10, 0.9), (50, 0.75)):
        decide = _decision_by_wins(k, 0.05, gamma)
        r = error_rates(1.0, runs=k, gamma=gamma, probabilities=[0.7], simulations=60, seed=1)
        rate = stats.binom.pmf(np.arange(k + 1), k, 0.7) @ decide
        assert r.rates["probability_of_outperforming"]["ideal"][0] == pytest.approx(rate, rel=1e-9)
    assert np.flatnonzero(_decision_by_wins(2, 0.05, 0.75)).tolist() == [2]


def test_one_run_is_refused_with_one_line():
    """One run has no variance: no t-test, no interval of P(A > B); a clear message, not a number."""
    with pytest.raises(InputError) as info:
        error_rates(0.01, runs=1)
    message = str(info.value)
    assert (
        message.startswith("runs: expected at least 2 runs of each algorithm, got 1") and "\n" not in message
    )


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"sigma": 0}, "sigma"),
        ({"sigma": -1}, "sigma"),
        ({"sigma": "a"}, "sigma"),
        ({"runs": 0}, "runs"),
        ({"runs": 1}, "runs"),
        ({"runs": 2.5}, "runs"),
        ({"conditional_sd": 0.1}, "bias_sd"),
        ({"bias_sd": 0.1}, "conditional_sd"),
        ({"conditional_sd": 0, "bias_sd": 0.1}, "conditional_sd"),
        ({"conditional_sd": 0.1, "bias_sd": -0.1}, "bias_sd"),
        ({"probabilities": [0.5, 1.2]}, "probabilities"),
        ({"probabilities": [0.0]}, "probabilities"),
        ({"probabilities": []}, "probabilities"),
        ({"probabilities": "abc"}, "probabilities"),
        ({"gamma": 1.0}, "gamma"),
        ({"alpha": 0}, "alpha"),
        ({"simulations": 0}, "simulations"),
        ({"delta": float("nan")}, "delta"),
        ({"seed": "seven"}, "seed"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_input_names_the_argument(kwargs, name):
    options = {"sigma": 0.01, "simulations": 60, **kwargs}
    sigma = options.pop("sigma")
    with pytest.raises(InputError, match=f"^{name}:"):
        error_rates(sigma, **options)


def test_chunked_comparisons_give_the_same_wins(monkeypatch):
    from benchtrust.compare._pipelines import _error_rates

    options = {"conditional_sd": 0.01, "bias_sd": 0.005, "simulations": 200, "seed": 4}
    whole = error_rates(0.01, **options).to_dict()
    monkeypatch.setattr(_error_rates, "_CHUNK", 1)  # one probability at a time
    assert error_rates(0.01, **options).to_dict() == whole


def test_grid_means_average_the_regions_with_gamma_inside():
    """H1 is P(A > B) >= γ (§4.1): the grid point at γ = 0.75 is in the false-negative region."""
    r = error_rates(0.01, probabilities=[0.4, 0.5, 0.6, 0.75, 0.9], simulations=200, seed=6)
    means = r.grid_mean_rates()
    for criterion, by in r.rates.items():
        rate = by["ideal"]
        assert means["false_positive"][criterion]["ideal"] == pytest.approx(rate[:2].mean())
        assert means["false_negative"][criterion]["ideal"] == pytest.approx(1 - rate[3:].mean())
    none = error_rates(0.01, probabilities=[0.6], simulations=60, seed=0).grid_mean_rates()
    assert none["false_positive"]["average"]["ideal"] is None
    assert none["false_negative"]["average"]["ideal"] is None


def test_edges_are_computed_whatever_the_grid():
    """The edge rates are the rates at P(A > B) = 0.5 (false positives) and at γ (false negatives), on the
    same draws as the grid; a grid without them gives the same edges."""
    options = {"conditional_sd": 0.01, "bias_sd": 0.004, "simulations": 300, "seed": 3, "gamma": 0.7}
    on = error_rates(0.01, probabilities=[0.4, 0.5, 0.7, 0.9], **options)
    off = error_rates(0.01, probabilities=[0.6], **options)
    for criterion, by in on.rates.items():
        for estimator, rate in by.items():
            assert on.edge_rates["false_positive"][criterion][estimator] == rate[1]
            assert on.edge_rates["false_negative"][criterion][estimator] == 1 - rate[2]
    assert off.edge_rates == on.edge_rates
    assert on.edge_errors("average") == sum(
        on.edge_rates[error]["average"][e]
        for error in ("false_positive", "false_negative")
        for e in on.estimators
    )


def test_the_verdict_names_the_fewest_errors_at_the_edges():
    r = error_rates(0.01, conditional_sd=0.01, bias_sd=0.004, simulations=300, seed=3)
    totals = {c: r.edge_errors(c) for c in r.rates if c != "oracle"}
    assert r.fewest_errors == (min(totals, key=totals.get),)
    words = " ".join(str(r).split())
    assert "the fewest errors of the criteria that do not know the variance" in r.verdict
    assert f"{100 * min(totals.values()):.1f}% false positives plus false negatives" in r.verdict
    assert r.verdict in words and "FP at 0.5" in words and "FN at \N{GREEK SMALL LETTER GAMMA}" in words
