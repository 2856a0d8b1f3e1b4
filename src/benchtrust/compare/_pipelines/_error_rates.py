"""Error rates of the conclusion criteria (paper §4.2, Fig. 6), by simulation and, where it is exact, by
formula.

Performances are higher-is-better and normal (appendix G). B has mean 0; A has mean Δ, chosen so that the
true probability that one run of A beats one run of B under the ideal estimator is p:
P(A > B) = Φ(Δ / (σ√2)), i.e. Δ = σ√2 Φ⁻¹(p).

* Ideal estimator (§3.2.1): each of the k runs of an algorithm is independent, R ~ N(μ, σ²), so that
  μ̂_(k) ~ N(μ, σ²/k).
* Biased estimator (§3.2.2, simulated as in §4.2): first a bias b ~ N(0, Var(μ̃_(k) | ξ)) per algorithm
  and simulation (one hyperparameter optimisation shared by its k runs), then k runs R ~ N(μ + b,
  Var(R̂_e | ξ)).

Criteria, all deciding "A is better than B":

* single point (§4.1): one run of each, R_A1 - R_B1 > δ;
* average (§4.1): mean of the k runs of A minus that of B > δ; δ = 1.9952σ by default (§4.2);
* t-test (§4.2, "a t-test only differs from an average in that the threshold is computed based on the
  variance"): one-sided paired t-test of the k differences at level α;
* probability of outperforming (§4.1, C.4-C.6): P̂(A > B) (Eq. 9) over the k pairs, with its
  percentile-bootstrap interval (C.5, read off its exact bootstrap distribution: W* ~ Binomial(k,
  P̂(A > B))) having lower end > 0.5 and upper end > γ (C.6). The decision depends on the number of wins
  only: at k = 50 and γ = 0.75 it is "at least 33 wins of 50";
* oracle (Fig. 6, blue: "perfect knowledge of the variances"), one line, on the ideal estimator: the
  decision of C.6 on the interval a known variance gives. The mean difference D̂ is N(Δ, s²) with
  s² = 2σ²/k known; its (1 - α) interval D̂ ± z s, z = Φ⁻¹(1 - α/2), maps to one of P(A > B) through
  Φ(· / (σ√2)), so the oracle concludes when D̂ > max(z s, σ√2 Φ⁻¹(γ) - z s).

The errors are those of §4.1-4.2: a detection is a false positive where H0 holds, P(A > B) <= 0.5; a
missed detection is a false negative where the result is significant and meaningful, P(A > B) >= γ. Every
rate rises with P(A > B), so the largest error of each region is at its edge: false positives at
P(A > B) = 0.5, false negatives at P(A > B) = γ. Those edges are always computed, whatever the grid.

Exact rates: the P(A > B) test under the ideal estimator (its wins are Binomial(k, P(A > B)), so its
rate is a binomial sum) and the oracle (a normal tail). The others are simulated, the same random draws
serving every value of p (common random numbers), so each simulated rate is a non-decreasing function of
p, and each value of p costs one comparison of arrays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._io import InputError, Seed, check_count, check_number, check_probability, check_seed
from benchtrust._result import Description, Result
from benchtrust._words import ALPHA, GAMMA, SIGMA
from benchtrust.compare._bootstrap import check_progress
from benchtrust.compare._monte_carlo import fewest_draws
from benchtrust.compare._pipelines import _text
from benchtrust.compare._pipelines._outperform import _exact_interval
from benchtrust.compare._pipelines._plot import plot_error_rates
from benchtrust.compare._pipelines._text import COMPARE_QUESTION, SOURCE

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

#: §4.2: the average and single-point criteria's threshold δ = 1.9952σ (fitted to paperswithcode.com).
DELTA_PER_SIGMA = 1.9952

#: Largest (points x simulations x runs) block of comparisons made at once.
_CHUNK = 8_000_000

#: Names of the criteria: those of the paper's Fig. 6 and §4.2's t-test, then the oracle of Fig. 6.
CRITERIA = ("single_point", "average", "t_test", "probability_of_outperforming", "oracle")

#: The criteria a user can apply: all but the oracle, which knows the variance.
USABLE = CRITERIA[:-1]

#: Fewest runs of each algorithm: one run has no variance, so neither the t-test nor the interval of
#: P(A > B) exists.
MIN_RUNS = 2

#: Two criteria's error totals (sums of rates over the edges and estimators) closer than this are a tie:
#: they differ by rounding only.
_TIE = 1e-12


@dataclasses.dataclass(frozen=True, eq=False)
class ErrorRatesResult(Result):
    """Rates of detection "A is better than B" of the criteria, against the true P(A > B) (Fig. 6).

    Where the true P(A > B) <= 0.5 (H0 true) a detection is a false positive; where P(A > B) >= γ
    (significant and meaningful, §4.1) a missed detection is a false negative; in between (significant
    but not meaningful) either is defensible. The rates rise with P(A > B), so the largest error of each
    region is at its edge: :attr:`edge_rates`.

    Attributes
    ----------
    probabilities : numpy.ndarray
        The true P(A > B) of the grid (the x axis of Fig. 6).
    differences : numpy.ndarray
        The matching mean differences Δ = σ√2 Φ⁻¹(P(A > B)), in the units of σ.
    rates : dict
        ``rates[criterion][estimator]``: the rate of detections at each probability of the grid; criteria
        "single_point", "average", "t_test", "probability_of_outperforming" and "oracle"; estimators
        "ideal" and, when simulated, "biased" (the oracle: "ideal" only, one line as in Fig. 6).
    edge_rates : dict
        ``edge_rates["false_positive"][criterion][estimator]``: the rate of detections at P(A > B) = 0.5;
        ``edge_rates["false_negative"][criterion][estimator]``: the rate of missed detections at
        P(A > B) = γ. Computed whether or not the grid holds 0.5 and γ.
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
        γ of the probability-of-outperforming criterion and of the oracle.
    alpha : float
        α of the t-test, and 1 - the level of the intervals of the P(A > B) test and of the oracle.

    See Also
    --------
    error_rates : The detection rates of the conclusion criteria, simulated.
    plot_error_rates : Draw the detection rates of the criteria.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.1-4.2, Fig. 6.
    """

    probabilities: np.ndarray
    differences: np.ndarray
    rates: dict[str, dict[str, np.ndarray]]
    edge_rates: dict[str, dict[str, dict[str, float]]]
    sigma: float
    conditional_sd: float | None
    bias_sd: float | None
    runs: int
    simulations: int
    delta: float
    gamma: float
    alpha: float

    @property
    def estimators(self) -> tuple[str, ...]:
        """The estimators simulated: ("ideal",) or ("ideal", "biased")."""
        return tuple(self.rates[CRITERIA[0]])

    def grid_mean_rates(self) -> dict[str, dict[str, dict[str, float | None]]]:
        """The error rates averaged over the grid's points in each region of §4.2, per criterion and
        estimator: a summary of the grid given, not a rate of the paper (that is :attr:`edge_rates`).

        ``false_positive``: the mean detection rate over the grid's P(A > B) <= 0.5; ``false_negative``:
        the mean rate of missed detections over the grid's P(A > B) >= γ. None when the grid has no point
        in the region. Each point weighs the same, so the means move with the grid (P(A > B) = 1, where
        every criterion detects, lowers the false negatives).
        """
        null = self.probabilities <= 0.5
        meaningful = self.probabilities >= self.gamma

        def mean(rate: np.ndarray, where: np.ndarray, missed: bool) -> float | None:
            if not where.any():
                return None
            detected = float(rate[where].mean())
            return 1 - detected if missed else detected

        return {
            "false_positive": {
                c: {e: mean(r, null, False) for e, r in by.items()} for c, by in self.rates.items()
            },
            "false_negative": {
                c: {e: mean(r, meaningful, True) for e, r in by.items()} for c, by in self.rates.items()
            },
        }

    def __repr__(self) -> str:
        def span(x: np.ndarray) -> str:
            return f"{x[0]:.3f}..{x[-1]:.3f}"

        parts = [f"{c}[{e}]={span(r)}" for c, by in self.rates.items() for e, r in by.items()]
        return (
            f"ErrorRatesResult(probabilities={self.probabilities[0]:g}..{self.probabilities[-1]:g} "
            f"({self.probabilities.size} points), runs={self.runs}, simulations={self.simulations}, "
            f"sigma={self.sigma:g}, delta={self.delta:.6g}, gamma={self.gamma:g}, rates: {', '.join(parts)})"
        )

    def edge_errors(self, criterion: str) -> float:
        """False positives at P(A > B) = 0.5 plus false negatives at P(A > B) = γ, summed over the
        estimators of `criterion`: its errors at the edges of the regions."""
        return sum(sum(by[criterion].values()) for by in self.edge_rates.values())

    @property
    def fewest_errors(self) -> tuple[str, ...]:
        """The usable criteria (all but the oracle) with the fewest errors at the edges of the regions:
        false positives at P(A > B) = 0.5 plus false negatives at γ, summed over the estimators (§4.2).

        More than one when they tie.
        """
        totals = {c: self.edge_errors(c) for c in USABLE}
        fewest = min(totals.values())
        return tuple(c for c, total in totals.items() if total <= fewest + _TIE)

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §4.2): the usable criteria with the fewest errors at the edges
        of the regions, and the oracle's for reference."""
        return _text.error_rates_verdict(self)

    def describe(self) -> Description:
        """The summary ``benchtrust compare error-rates`` prints (paper §4.2, Fig. 6), its section (each
        criterion's errors at the edges of the regions and averaged over the grid, with Fig. 6) and its
        data; its table, in long form, has one row per point, criterion and estimator: ``probability``
        (the true P(A > B)), ``difference`` (Δ), ``criterion``, ``estimator`` and ``rate`` (the rate of
        detections "A is better than B")."""
        header, *rows = _text.error_rates_rows(self)
        lines = [(c, e, r) for c, by in self.rates.items() for e, r in by.items()]
        points = self.probabilities.size
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_text.error_rates_text(self),
            data={
                "probabilities": self.probabilities,
                "differences": self.differences,
                "rates": self.rates,
                "edge_rates": self.edge_rates,
                "grid_mean_rates": self.grid_mean_rates(),
                "fewest_errors": self.fewest_errors,
                "sigma": self.sigma,
                "conditional_sd": self.conditional_sd,
                "bias_sd": self.bias_sd,
                "runs": self.runs,
                "simulations": self.simulations,
                "delta": self.delta,
                "gamma": self.gamma,
                "alpha": self.alpha,
            },
            columns=header,
            rows=tuple(rows),
            frame={
                "probability": np.tile(self.probabilities, len(lines)),
                "difference": np.tile(self.differences, len(lines)),
                "criterion": [c for c, _, _ in lines for _ in range(points)],
                "estimator": [e for _, e, _ in lines for _ in range(points)],
                "rate": np.concatenate([r for _, _, r in lines]),
            },
            assumptions=(
                (f"{SIGMA}, SD of one run", f"{self.sigma:g}"),
                ("runs k of each algorithm", f"{self.runs}"),
                ("simulations per point", f"{self.simulations}"),
                ("δ of the single-point and average criteria", f"{self.delta:.6g}"),
                (GAMMA, f"{self.gamma:g}"),
                (ALPHA, f"{self.alpha:g}"),
                ("estimators", " / ".join(self.estimators)),
            ),
            source=f"{SOURCE}, §4.1-4.2, Fig. 6",
            inputs=self.inputs,
            analysis="compare error-rates",
            notes=(_text.error_rates_reading(self),),
            figure=lambda: plot_error_rates(self),
        )


def _positive(value: float, name: str) -> float:
    number = check_number(value, name)
    if number <= 0:
        raise InputError(f"{name}: expected a positive number, got {value!r}")
    return number


def _probabilities(values: ArrayLike | None) -> np.ndarray:
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


def check_runs(value: float, name: str) -> int:
    """`value` as k, the runs of each algorithm: a whole number of at least :data:`MIN_RUNS`.

    Examples
    --------
    >>> check_runs(50, "runs")
    50
    >>> check_runs(1, "--runs")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: --runs: expected at least 2 runs of each algorithm, got 1 (one run has no \
variance: neither the t-test nor the interval of P(A > B) exists)
    """
    k = check_count(value, name)
    if k < MIN_RUNS:
        raise InputError(
            f"{name}: expected at least {MIN_RUNS} runs of each algorithm, got {k} (one run has no variance: "
            "neither the t-test nor the interval of P(A > B) exists)"
        )
    return k


def error_rates(
    sigma: float,
    *,
    runs: int = 50,
    conditional_sd: float | None = None,
    bias_sd: float | None = None,
    probabilities: ArrayLike | None = None,
    delta: float | None = None,
    gamma: float = 0.75,
    alpha: float = 0.05,
    simulations: int = 1000,
    seed: Seed = None,
    progress: Callable[[int, int], object] | None = None,
) -> ErrorRatesResult:
    """The detection rates of the single-point, average, t-test, P(A > B) and oracle criteria (§4.2,
    Fig. 6), and their errors at the edges of the regions.

    For each true P(A > B) = p of the grid, and for p = 0.5 and p = γ, the mean of A is set to
    Δ = σ√2 Φ⁻¹(p) above that of B, ``simulations`` benchmarks of k = ``runs`` runs per algorithm are
    drawn from the ideal estimator (independent N(μ, σ²) runs) and, if ``conditional_sd`` and ``bias_sd``
    are given, from the biased estimator (a shared bias b ~ N(0, bias_sd²) per algorithm, then runs
    N(μ + b, conditional_sd²)), and each criterion decides whether A is better than B:

    * single point: R_A1 - R_B1 > δ (the first run of each);
    * average: mean(R_A) - mean(R_B) > δ;
    * t-test: the one-sided paired t-test of the k differences R_Ai - R_Bi rejects "A is not better" at
      level α (§4.2);
    * probability of outperforming: the percentile-bootstrap interval of P̂(A > B) (Eq. 9 over the k
      pairs, appendix C.5, exact: binomial quantiles) at level 1 - α has lower end > 0.5 and upper end
      > γ (C.6); under the ideal estimator the wins are Binomial(k, p) and the rate is their exact sum;
    * oracle, under the ideal estimator only: the same decision on the (1 - α) interval that the known
      variance of the mean difference gives (Fig. 6, blue); an exact normal tail.

    Parameters
    ----------
    sigma : float
        σ, the standard deviation of one performance measure with all sources of variation randomised
        (ideal estimator, §3.2.1), e.g. as measured in §2.2.
    runs : int, default 50
        k >= 2, runs (data splits) per algorithm (§4.2 uses 50).
    conditional_sd : float, optional
        sqrt(Var(R̂_e | ξ)): spread of the runs around a fixed hyperparameter optimisation (§3.2.2, Eq. 7).
    bias_sd : float, optional
        sqrt(Var(μ̃_(k) | ξ)): spread of the biased estimator across hyperparameter optimisations (§3.3).
        Give both or neither; with neither, only the ideal estimator is simulated.
    probabilities : sequence of float, optional
        The grid of true P(A > B), in (0, 1]; default 25 values from 0.4 to 1 (Fig. 6). The edges 0.5 and
        γ are computed in any case (:attr:`ErrorRatesResult.edge_rates`).
    delta : float, optional
        δ, the threshold of the single-point and average criteria; default 1.9952σ (§4.2).
    gamma : float, default 0.75
        γ, the threshold of a meaningful P(A > B).
    alpha : float, default 0.05
        α of the t-test; the intervals of the P(A > B) test and of the oracle have level 1 - α.
    simulations : int, default 1000
        Simulated benchmarks per probability; at least 3/α (60 at α = 0.05), so that a rate as small as α
        can be told from 0 (:func:`~benchtrust.compare._monte_carlo.fewest_draws`), else an InputError.
    seed : int or numpy.random.Generator, optional
        Source of randomness; the same seed gives the same result. Each simulated benchmark's draws are
        taken in turn (A's k runs, B's, then for the biased estimator A's and B's biases and runs), in
        chunks of a few MB: the memory does not grow with `simulations`, and the chunks never change the
        result.
    progress : callable, optional
        Called as ``progress(done, simulations)`` after each chunk of simulated benchmarks.

    Returns
    -------
    ErrorRatesResult

    See Also
    --------
    ErrorRatesResult : The detection rates of the criteria against the true P(A > B).
    plot_error_rates : Draw the detection rates of the criteria.
    single_point : The single-point criterion: one run of each.
    average_difference : The average-difference criterion, with a threshold δ.
    t_test : The one-sided t-test of A against B.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §3.2.1-3.2.2, Eq. (7) (the ideal and the biased estimators); §4.1-4.2, Fig. 6 (the
       criteria and their simulation); appendix C.5-C.6.

    Examples
    --------
    With k = 50 and γ = 0.75 the P(A > B) test concludes from 33 wins of 50, so under the ideal estimator
    its errors are binomial tails: P(Bin(50, 0.5) >= 33) and P(Bin(50, 0.75) <= 32).

    >>> from benchtrust.compare._pipelines._error_rates import error_rates
    >>> r = error_rates(0.01, conditional_sd=0.008, bias_sd=0.004, probabilities=[0.4, 0.5, 1],
    ...                 simulations=20_000, seed=0)
    >>> r.estimators
    ('ideal', 'biased')
    >>> [round(float(x), 4) for x in r.rates["probability_of_outperforming"]["ideal"]]
    [0.0002, 0.0164, 1.0]
    >>> round(r.edge_rates["false_negative"]["probability_of_outperforming"]["ideal"], 4)
    0.0551
    >>> round(float(r.rates["single_point"]["ideal"][1]), 2)  # Φ(-1.9952/√2) = 0.079
    0.08
    """
    sigma = _positive(sigma, "sigma")
    k = check_runs(runs, "runs")
    if (conditional_sd is None) != (bias_sd is None):
        missing = "bias_sd" if bias_sd is None else "conditional_sd"
        raise InputError(f"{missing}: give both conditional_sd and bias_sd to simulate the biased estimator")
    biased = conditional_sd is not None
    if conditional_sd is not None:
        conditional_sd = _positive(conditional_sd, "conditional_sd")
        bias_sd = check_number(bias_sd, "bias_sd")
        if bias_sd < 0:
            raise InputError(f"bias_sd: expected a non-negative number, got {bias_sd!r}")
    p = _probabilities(probabilities)
    delta = DELTA_PER_SIGMA * sigma if delta is None else check_number(delta, "delta")
    gamma = check_probability(gamma, "gamma")
    alpha = check_probability(alpha, "alpha")
    sims = check_count(simulations, "simulations")
    if sims < fewest_draws(alpha):
        raise InputError(
            f"simulations: error rates to compare with {ALPHA} = {alpha:g} need at least "
            f"{fewest_draws(alpha)} simulations per point (S >= 3/{ALPHA}: from S simulations a rate is "
            f"known only to about 3/S), got {sims}"
        )
    rng = check_seed(seed)
    progress = check_progress(progress)
    if progress is not None:
        progress(0, sims)  # counted from the start
    from scipy import stats
    from scipy.special import ndtr, ndtri

    # The grid, then the two edges: P(A > B) = 0.5 (false positives) and γ (false negatives).
    points = np.concatenate([p, [0.5, gamma]])
    shift = (sigma * np.sqrt(2.0) * ndtri(points))[:, None]  # (points, 1): Δ
    # The P(A > B) decision depends on the number of wins w = 0..k only (continuous scores never tie).
    low, high = np.array([_exact_interval(k, w, 0, alpha) for w in range(k + 1)]).T
    decide = (low > 0.5) & (high > gamma)
    t_critical = stats.t.ppf(1 - alpha, k - 1)
    z = ndtri(1 - alpha / 2)

    detected: dict[str, dict[str, np.ndarray]] = {c: {} for c in CRITERIA}
    # Exact: under the ideal estimator the wins of the P(A > B) test are Binomial(k, p), and the oracle
    # knows s = σ√(2/k), the SD of the mean difference.
    wins = stats.binom.pmf(np.arange(k + 1), k, points[:, None])
    detected["probability_of_outperforming"]["ideal"] = wins @ decide
    s = sigma * np.sqrt(2.0 / k)
    threshold = max(z * s, sigma * np.sqrt(2.0) * ndtri(gamma) - z * s)
    detected["oracle"]["ideal"] = ndtr((shift[:, 0] - threshold) / s)

    # Simulated, in chunks of benchmarks: (simulations, 2 algorithms, runs) noise; B's mean is 0, A's Δ.
    estimators = ("ideal", "biased") if biased else ("ideal",)
    simulated = ("single_point", "average", "t_test", "probability_of_outperforming")
    counts = {c: {e: np.zeros(points.size, dtype=np.int64) for e in estimators} for c in simulated}
    width = 4 * k + 2 if biased else 2 * k  # the draws of one benchmark, in turn
    step = max(1, _CHUNK // (points.size * k + 4 * width))  # comparisons, and draws with their copies
    for first in range(0, sims, step):
        size = min(step, sims - first)
        draws = rng.standard_normal((size, width))
        noise = {"ideal": sigma * draws[:, : 2 * k].reshape(size, 2, k)}
        if biased:
            bias = bias_sd * draws[:, 2 * k : 2 * k + 2, None]
            noise["biased"] = bias + conditional_sd * draws[:, 2 * k + 2 :].reshape(size, 2, k)
        for name, pair in noise.items():
            gaps = pair[:, 1] - pair[:, 0]  # A wins run i when Δ > b_i - a_i
            counts["single_point"][name] += (shift > gaps[None, :, 0] + delta).sum(axis=1)
            mean_gap = gaps.mean(axis=1)
            counts["average"][name] += (shift > mean_gap + delta).sum(axis=1)
            # Paired t-test: (Δ - mean gap) / (s / √k) > t_critical, s the SD of the differences.
            spread = t_critical * gaps.std(axis=1, ddof=1) / np.sqrt(k)
            counts["t_test"][name] += (shift > mean_gap + spread).sum(axis=1)
            if name == "biased":
                counts["probability_of_outperforming"][name] += decide[_wins(shift, gaps)].sum(axis=1)
        if progress is not None:
            progress(first + size, sims)
    for criterion in simulated:
        for name in estimators:
            if criterion != "probability_of_outperforming" or name == "biased":
                detected[criterion][name] = counts[criterion][name] / sims

    size = p.size
    rates = {c: {e: r[:size] for e, r in by.items()} for c, by in detected.items()}
    edge_rates = {
        "false_positive": {c: {e: float(r[size]) for e, r in by.items()} for c, by in detected.items()},
        "false_negative": {
            c: {e: float(1 - r[size + 1]) for e, r in by.items()} for c, by in detected.items()
        },
    }
    return ErrorRatesResult(
        probabilities=p,
        differences=shift[:size, 0],
        rates=rates,
        edge_rates=edge_rates,
        sigma=sigma,
        conditional_sd=conditional_sd,
        bias_sd=bias_sd,
        runs=k,
        simulations=sims,
        delta=float(delta),
        gamma=gamma,
        alpha=alpha,
    )


def _wins(shift: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """The wins of A, Δ > b_i - a_i, per (point, simulation), in blocks of at most :data:`_CHUNK`
    comparisons: `shift` is (points, 1), `gaps` (simulations, runs)."""
    wins = np.empty((shift.shape[0], gaps.shape[0]), dtype=np.int64)
    step = max(1, _CHUNK // gaps.size)
    for first in range(0, shift.shape[0], step):
        wins[first : first + step] = (shift[first : first + step, :, None] > gaps[None, :, :]).sum(axis=2)
    return wins
