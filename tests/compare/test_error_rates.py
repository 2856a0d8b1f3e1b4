"""error_rates: the simulated detection rates of §4.2 / Fig. 6 against closed forms derived here."""

import json

import numpy as np
import pytest
from scipy import stats

from benchtrust import InputError
from benchtrust.compare._error_rates import error_rates

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
    # Ideal runs are independent, so the wins of A over k pairs are Binomial(k, P(A > B)).
    decide = _decision_by_wins(K, 0.05, 0.75)
    w = np.arange(K + 1)
    for p, got in zip(PROBS, simulated.rates["probability_of_outperforming"]["ideal"], strict=True):
        rate = stats.binom.pmf(w, K, p) @ decide
        assert abs(got - rate) <= _tolerance(rate), (p, got, rate)


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


def test_paper_observations_fig6():
    """§4.2: single point ≈10 % false positives and ≈75 % false negatives; average conservative."""
    r = error_rates(1.0, probabilities=[0.5, 0.75], simulations=SIMS, seed=5)
    single = r.rates["single_point"]["ideal"]
    assert 0.05 < single[0] < 0.12  # Φ(-1.9952/√2) = 0.079
    assert 0.7 < 1 - single[1] < 0.8  # 1 - Φ(0.674 - 1.411) = 0.77
    assert r.rates["average"]["ideal"][0] < 0.05
    assert 1 - r.rates["average"]["ideal"][1] > 0.9
    assert r.rates["probability_of_outperforming"]["ideal"][0] < 0.05


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
    assert set(r.rates) == {"single_point", "average", "probability_of_outperforming"}
    assert r.conditional_sd is None and r.bias_sd is None


def test_to_dict_is_plain_json_and_repr_is_readable():
    r = error_rates(0.01, conditional_sd=0.01, bias_sd=0.0, probabilities=[0.5, 1.0], simulations=50, seed=0)
    d = json.loads(json.dumps(r.to_dict()))
    assert d["differences"][1] is None  # Δ = ∞ at P(A > B) = 1
    assert d["delta"] == pytest.approx(1.9952 * 0.01)
    assert set(d["rates"]["average"]) == {"ideal", "biased"}
    text = repr(r)
    assert text.startswith("ErrorRatesResult(") and "runs=50" in text and "delta=" in text


def test_runs_and_gamma_change_the_decision_threshold():
    # One run: the interval of P(A > B) from one pair is [0, 0] or [1, 1], so one win suffices.
    r = error_rates(1.0, runs=1, probabilities=[0.7], simulations=SIMS, seed=1)
    assert abs(r.rates["probability_of_outperforming"]["ideal"][0] - 0.7) <= _tolerance(0.7)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"sigma": 0}, "sigma"),
        ({"sigma": -1}, "sigma"),
        ({"sigma": "a"}, "sigma"),
        ({"runs": 0}, "runs"),
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
    options = {"sigma": 0.01, "simulations": 10, **kwargs}
    sigma = options.pop("sigma")
    with pytest.raises(InputError, match=f"^{name}:"):
        error_rates(sigma, **options)


def test_chunked_comparisons_give_the_same_wins(monkeypatch):
    from benchtrust.compare import _error_rates

    options = {"conditional_sd": 0.01, "bias_sd": 0.005, "simulations": 200, "seed": 4}
    whole = error_rates(0.01, **options).to_dict()
    monkeypatch.setattr(_error_rates, "_CHUNK", 1)  # one probability at a time
    assert error_rates(0.01, **options).to_dict() == whole


def test_region_rates_average_the_regions():
    r = error_rates(0.01, probabilities=[0.4, 0.5, 0.6, 0.8, 0.9], simulations=200, seed=6)
    regions = r.region_rates()
    for criterion, by in r.rates.items():
        rate = by["ideal"]
        assert regions["false_positive"][criterion]["ideal"] == pytest.approx(rate[:2].mean())
        assert regions["false_negative"][criterion]["ideal"] == pytest.approx(1 - rate[3:].mean())
    none = error_rates(0.01, probabilities=[0.6], simulations=10, seed=0).region_rates()
    assert none["false_positive"]["average"]["ideal"] is None
    assert none["false_negative"]["average"]["ideal"] is None
