"""Error rates of the conclusion criteria (paper §4.2, Fig. 6), by simulation.

Performances are higher-is-better and normal (appendix G). B has mean 0; A has mean Δ, chosen so that the
true probability that one run of A beats one run of B under the ideal estimator is p:
P(A > B) = Φ(Δ / (σ√2)), i.e. Δ = σ√2 Φ⁻¹(p).

* Ideal estimator (§3.2.1): each of the k runs of an algorithm is independent, R ~ N(μ, σ²), so that
  μ̂_(k) ~ N(μ, σ²/k).
* Biased estimator (§3.2.2, simulated as in §4.2): first a bias b ~ N(0, Var(μ̃_(k) | ξ)) per algorithm
  and simulation (one hyperparameter optimisation shared by its k runs), then k runs R ~ N(μ + b,
  Var(R̂_e | ξ)).

Criteria (§4.1), all deciding "A is better than B":

* single point: one run of each, R_A1 - R_B1 > δ;
* average: mean of the k runs of A minus that of B > δ; δ = 1.9952σ by default (§4.2);
* probability of outperforming: P̂(A > B) (Eq. 9) over the k pairs, with its percentile-bootstrap interval
  (appendix C.5, read off its exact bootstrap distribution: W* ~ Binomial(k, P̂(A > B))) having lower
  end > 0.5 and upper end > γ (C.6).

The same random draws serve every value of p (common random numbers), so each estimated rate is a
non-decreasing function of p, and each value of p costs one comparison of arrays.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from benchtrust._io import InputError, check_count, check_number, check_probability, check_seed
from benchtrust.compare import _text
from benchtrust.compare._outperform import _exact_interval

#: §4.2: the average and single-point criteria's threshold δ = 1.9952σ (fitted to paperswithcode.com).
DELTA_PER_SIGMA = 1.9952

#: Largest (points x simulations x runs) block of comparisons made at once.
_CHUNK = 8_000_000

#: Names of the criteria, in the order of the paper's Fig. 6 legend.
CRITERIA = ("single_point", "average", "probability_of_outperforming")

#: Two criteria's false-positive rates (sums over the estimators of means of k/simulations) closer than
#: this are a tie: they differ by rounding only.
_TIE = 1e-12


@dataclasses.dataclass(frozen=True, eq=False)
class ErrorRatesResult:
    """Rates of detection "A is better than B" of three criteria, against the true P(A > B) (Fig. 6).

    For true P(A > B) <= 0.5 a detection is a false positive; for P(A > B) > γ a missed detection is a
    false negative; in between (significant but not meaningful) either is defensible.

    Attributes
    ----------
    probabilities : numpy.ndarray
        The true P(A > B) simulated (the x axis of Fig. 6).
    differences : numpy.ndarray
        The matching mean differences Δ = σ√2 Φ⁻¹(P(A > B)), in the units of σ.
    rates : dict
        ``rates[criterion][estimator]``: the rate of detections at each probability; criteria
        "single_point", "average", "probability_of_outperforming"; estimators "ideal" and, when simulated,
        "biased".
    sigma : float
        σ, the standard deviation of one performance under the ideal estimator.
    conditional_sd, bias_sd : float or None
        sqrt(Var(R̂_e | ξ)) and sqrt(Var(μ̃_(k) | ξ)) of the biased estimator (None if not simulated).
    runs : int
        k, runs of each algorithm.
    simulations : int
        Simulated comparisons per probability.
    delta : float
        δ of the single-point and average criteria.
    gamma : float
        γ of the probability-of-outperforming criterion.
    alpha : float
        1 - the level of its percentile-bootstrap interval.
    """

    probabilities: np.ndarray
    differences: np.ndarray
    rates: dict
    sigma: float
    conditional_sd: float | None
    bias_sd: float | None
    runs: int
    simulations: int
    delta: float
    gamma: float
    alpha: float

    @property
    def estimators(self):
        """The estimators simulated: ("ideal",) or ("ideal", "biased")."""
        return tuple(self.rates[CRITERIA[0]])

    def region_rates(self):
        """Average error rates in the regions of §4.2, per criterion and estimator.

        ``false_positive``: the mean detection rate over the simulated P(A > B) <= 0.5 (H0 true);
        ``false_negative``: the mean rate of missed detections over P(A > B) > γ (H1 true). None when no
        simulated probability lies in the region. The averages weigh the simulated probabilities equally.
        """
        null = self.probabilities <= 0.5
        meaningful = self.probabilities > self.gamma
        out = {"false_positive": {}, "false_negative": {}}
        for criterion, by in self.rates.items():
            out["false_positive"][criterion] = {
                e: float(r[null].mean()) if null.any() else None for e, r in by.items()
            }
            out["false_negative"][criterion] = {
                e: float(1 - r[meaningful].mean()) if meaningful.any() else None for e, r in by.items()
            }
        return out

    def __repr__(self):
        def span(x):
            return f"{x[0]:.3f}..{x[-1]:.3f}"

        parts = [f"{c}[{e}]={span(self.rates[c][e])}" for c in CRITERIA for e in self.estimators]
        return (
            f"ErrorRatesResult(probabilities={self.probabilities[0]:g}..{self.probabilities[-1]:g} "
            f"({self.probabilities.size} points), runs={self.runs}, simulations={self.simulations}, "
            f"sigma={self.sigma:g}, delta={self.delta:.6g}, gamma={self.gamma:g}, rates: {', '.join(parts)})"
        )

    def __str__(self):
        """The readable summary ``benchtrust compare error-rates`` prints (paper §4.2, Fig. 6)."""
        return _text.error_rates_text(self)

    @property
    def lowest_false_positive(self) -> tuple[str, ...]:
        """The criteria with the lowest false-positive rate, summed over the estimators simulated (§4.2).

        More than one when they tie; empty when no simulated P(A > B) is <= 0.5 (no rate was measured).
        """
        if not (self.probabilities <= 0.5).any():
            return ()
        totals = {c: sum(by.values()) for c, by in self.region_rates()["false_positive"].items()}
        lowest = min(totals.values())
        return tuple(c for c, total in totals.items() if total <= lowest + _TIE)

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §4.2): the criteria with the lowest false-positive rate."""
        return _text.error_rates_verdict(self)

    def _repr_html_(self):
        from benchtrust._html import section_html
        from benchtrust.compare._section import error_rates_section

        return section_html(error_rates_section(self))

    def to_frame(self):
        """The simulated rates as a pandas DataFrame in long form, one row per point, criterion and estimator.

        Columns ``probability`` (the true P(A > B)), ``difference`` (Δ), ``criterion``, ``estimator`` and
        ``rate`` (the rate of detections "A is better than B").
        """
        import pandas as pd

        frames = [
            pd.DataFrame(
                {
                    "probability": self.probabilities,
                    "difference": self.differences,
                    "criterion": criterion,
                    "estimator": estimator,
                    "rate": rates,
                }
            )
            for criterion, by in self.rates.items()
            for estimator, rates in by.items()
        ]
        return pd.concat(frames, ignore_index=True)

    def to_dict(self):
        """The result as plain JSON types (infinite Δ, at P(A > B) = 1, as None)."""
        return {
            "probabilities": self.probabilities.tolist(),
            "differences": [float(d) if np.isfinite(d) else None for d in self.differences],
            "rates": {c: {e: r.tolist() for e, r in by.items()} for c, by in self.rates.items()},
            "region_rates": self.region_rates(),
            "sigma": self.sigma,
            "conditional_sd": self.conditional_sd,
            "bias_sd": self.bias_sd,
            "runs": self.runs,
            "simulations": self.simulations,
            "delta": self.delta,
            "gamma": self.gamma,
            "alpha": self.alpha,
        }


def _positive(value, name):
    number = check_number(value, name)
    if number <= 0:
        raise InputError(f"{name}: expected a positive number, got {value!r}")
    return number


def _probabilities(values):
    if values is None:
        return np.linspace(0.4, 1.0, 25)
    try:
        p = np.atleast_1d(np.asarray(values, dtype=float))
    except (TypeError, ValueError):
        raise InputError(f"probabilities: expected a list of numbers, got {values!r:.60}") from None
    if p.ndim != 1 or p.size == 0:
        raise InputError("probabilities: expected a non-empty list of probabilities")
    bad = np.flatnonzero(~((p > 0) & (p <= 1)))
    if bad.size:
        raise InputError(f"probabilities: expected values in (0, 1], got {p[bad[0]]!r}")
    return p


def error_rates(
    sigma,
    *,
    runs=50,
    conditional_sd=None,
    bias_sd=None,
    probabilities=None,
    delta=None,
    gamma=0.75,
    alpha=0.05,
    simulations=1000,
    seed=None,
):
    """Simulate the detection rates of the single-point, average and P(A > B) criteria (§4.2, Fig. 6).

    For each true P(A > B) = p, the mean of A is set to Δ = σ√2 Φ⁻¹(p) above that of B, ``simulations``
    benchmarks of k = ``runs`` runs per algorithm are drawn from the ideal estimator (independent
    N(μ, σ²) runs) and, if ``conditional_sd`` and ``bias_sd`` are given, from the biased estimator (a shared
    bias b ~ N(0, bias_sd²) per algorithm, then runs N(μ + b, conditional_sd²)), and each criterion decides
    whether A is better than B:

    * single point: R_A1 - R_B1 > δ (the first run of each);
    * average: mean(R_A) - mean(R_B) > δ;
    * probability of outperforming: the percentile-bootstrap interval of P̂(A > B) (Eq. 9 over the k pairs,
      appendix C.5, exact: binomial quantiles) at level 1 - α has lower end > 0.5 and upper end > γ (C.6).

    Parameters
    ----------
    sigma : float
        σ, the standard deviation of one performance measure with all sources of variation randomised
        (ideal estimator, §3.2.1), e.g. as measured in §2.2.
    runs : int, default 50
        k, runs (data splits) per algorithm (§4.2 uses 50).
    conditional_sd : float, optional
        sqrt(Var(R̂_e | ξ)): spread of the runs around a fixed hyperparameter optimisation (§3.2.2, Eq. 7).
    bias_sd : float, optional
        sqrt(Var(μ̃_(k) | ξ)): spread of the biased estimator across hyperparameter optimisations (§3.3).
        Give both or neither; with neither, only the ideal estimator is simulated.
    probabilities : sequence of float, optional
        The true P(A > B) to simulate, in (0, 1]; default 25 values from 0.4 to 1 (Fig. 6).
    delta : float, optional
        δ, the threshold of the single-point and average criteria; default 1.9952σ (§4.2).
    gamma : float, default 0.75
        γ, the threshold of a meaningful P(A > B).
    alpha : float, default 0.05
        The interval of P(A > B) has level 1 - α.
    simulations : int, default 1000
        Simulated benchmarks per probability.
    seed : int or numpy.random.Generator, optional
        Source of randomness; the same seed gives the same result.

    Returns
    -------
    ErrorRatesResult

    Examples
    --------
    >>> from benchtrust.compare._error_rates import error_rates
    >>> r = error_rates(0.01, conditional_sd=0.008, bias_sd=0.004, probabilities=[0.4, 0.5, 1],
    ...                 simulations=20_000, seed=0)
    >>> r.estimators
    ('ideal', 'biased')
    >>> [round(float(x), 2) for x in r.rates["probability_of_outperforming"]["ideal"]]  # exact: 0.016 at 0.5
    [0.0, 0.02, 1.0]
    >>> round(float(r.rates["single_point"]["ideal"][1]), 2)  # Φ(-1.9952/√2) = 0.079
    0.08
    """
    from scipy import stats

    sigma = _positive(sigma, "sigma")
    k = check_count(runs, "runs")
    if (conditional_sd is None) != (bias_sd is None):
        missing = "bias_sd" if bias_sd is None else "conditional_sd"
        raise InputError(f"{missing}: give both conditional_sd and bias_sd to simulate the biased estimator")
    biased = conditional_sd is not None
    if biased:
        conditional_sd = _positive(conditional_sd, "conditional_sd")
        bias_sd = check_number(bias_sd, "bias_sd")
        if bias_sd < 0:
            raise InputError(f"bias_sd: expected a non-negative number, got {bias_sd!r}")
    p = _probabilities(probabilities)
    delta = DELTA_PER_SIGMA * sigma if delta is None else check_number(delta, "delta")
    gamma = check_probability(gamma, "gamma")
    alpha = check_probability(alpha, "alpha")
    sims = check_count(simulations, "simulations")
    rng = check_seed(seed)

    differences = sigma * np.sqrt(2.0) * stats.norm.ppf(p)
    # Wins needed for the P(A > B) decision: the decision is monotone in the number of wins w.
    # Continuous performances never tie: the interval only depends on the number of wins w = 0..k.
    low, high = np.array([_exact_interval(k, w, 0, alpha) for w in range(k + 1)]).T
    decide = (low > 0.5) & (high > gamma)

    # (2 algorithms, simulations, runs) noise; B's mean is 0, A's is Δ.
    draws = {"ideal": sigma * rng.standard_normal((2, sims, k))}
    if biased:
        bias = bias_sd * rng.standard_normal((2, sims, 1))
        draws["biased"] = bias + conditional_sd * rng.standard_normal((2, sims, k))

    shift = differences[:, None]  # (points, 1)
    rates = {c: {} for c in CRITERIA}
    for name, noise in draws.items():
        a, b = noise
        single = (a[:, 0] - b[:, 0])[None, :] + shift > delta
        average = (a.mean(axis=1) - b.mean(axis=1))[None, :] + shift > delta
        # Wins of A: runs where Δ + a_i > b_i, i.e. Δ > b_i - a_i, per (point, simulation).
        gaps = b - a
        wins = np.empty((differences.size, sims), dtype=np.int64)  # (points, simulations)
        step = max(1, _CHUNK // gaps.size)  # bound the (points, simulations, runs) comparison's memory
        for first in range(0, differences.size, step):
            part = shift[first : first + step, :, None] > gaps[None, :, :]
            wins[first : first + step] = part.sum(axis=2)
        rates["single_point"][name] = single.mean(axis=1)
        rates["average"][name] = average.mean(axis=1)
        rates["probability_of_outperforming"][name] = decide[wins].mean(axis=1)

    return ErrorRatesResult(
        probabilities=p,
        differences=differences,
        rates=rates,
        sigma=sigma,
        conditional_sd=conditional_sd,
        bias_sd=bias_sd,
        runs=k,
        simulations=sims,
        delta=float(delta),
        gamma=gamma,
        alpha=alpha,
    )
