"""The Bayesian hierarchical test of two methods over data sets × folds (Corani et al. 2017).

:func:`hierarchical_test`: every fold of every data set enters one model. Per data set, the fold
differences are correlated normals around the data set's mean difference δ_i (the correlated t-test's
likelihood); the δ_i are drawn from a Student t whose location δ0 is the mean difference over data sets.
Its posterior, sampled by a Gibbs sampler of our own (numpy, vectorised over chains and data sets), gives
the probabilities of the three outcomes for the next data set's δ and, shrunk towards each other, for each
data set. The words and checks it shares with the other Bayesian tests are in :mod:`._bayes`.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._io import InputError, Seed, check_count, check_seed
from benchtrust._result import Description, Result
from benchtrust._words import ALPHA, BETA, RHO, SIGMA, aligned, paragraph
from benchtrust.compare._bootstrap import check_progress
from benchtrust.compare._tasks._bayes import (
    _DECISIONS,
    THRESHOLD,
    _advantage_words,
    _check_folds,
    _check_rope,
    _check_threshold,
    _decided_words,
    _decision,
    _decision_words,
    _outcomes,
    _probabilities_words,
    _probability_text,
    _rope_words,
    _short_outcomes,
)
from benchtrust.compare._tasks._correlated_t import _paired_differences
from benchtrust.compare._tasks._scores import (
    TASKS_QUESTION,
    TaskScores,
    check_task_scores,
    method_pair,
    scores_files,
)
from benchtrust.compare._tasks._signed_rank import _check_samples, _largest_shares, plot_simplex

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["HierarchicalResult", "hierarchical_test", "plot_hierarchical"]

PAPER_H = "Corani et al. 2017"
_NU = "\N{GREEK SMALL LETTER NU}"
_SOURCE_H = (
    f"{PAPER_H}, statistical comparison of classifiers through Bayesian hierarchical modelling, "
    "Machine Learning 106, §3"
)
#: baycomp's HierarchicalTest defaults: α ~ U(1, 2), β ~ U(0.01, 0.1) for ν - 1 ~ Gamma(α, β); σ_i and
#: σ0 are bounded by 1000 times the mean standard deviation of the tasks and the standard deviation of their
#: means (benchmarks/BAYCOMP_FACTS.md, the data baycomp passes to Stan).
_ALPHA, _BETA, _UPPER_SIGMA = (1.0, 2.0), (0.01, 0.1), 1000.0
_PRIORS = (
    f"δ0 ~ U(-m, m) (m the largest |d|), {SIGMA}0 ~ U(0, 1000 s0) (s0 the standard deviation of the "
    f"tasks' means), {SIGMA}_i ~ U(0, 1000 s) (s the mean of the tasks' standard deviations), "
    f"{_NU} - 1 ~ Gamma({ALPHA}, {BETA}), {ALPHA} ~ U(1, 2), {BETA} ~ U(0.01, 0.1)"
)
#: A task whose differences are all equal (and not all 0, or r = 0) has no within-variance: its σ_i is
#: kept above this many standardised units (its δ_i is then its mean difference, to within 1e-4).
_LOWEST_SIGMA = 1e-4


@dataclasses.dataclass(frozen=True, eq=False)
class HierarchicalResult(Result):
    """The Bayesian hierarchical test of a against b over data sets × folds (Corani et al. 2017).

    Attributes
    ----------
    a, b : str
        The two methods compared.
    tasks : tuple of str
        The tasks (data sets).
    runs : numpy.ndarray
        n_i, the paired runs (repetitions × folds) of each task.
    folds : int
        k, the folds of each cross-validation; the correlation ρ = 1/k.
    mean : numpy.ndarray
        Each task's mean difference d̄_i, d the advantage of a (a - b when higher is better, b - a when lower
        is better).
    shrunk : numpy.ndarray
        The posterior mean of each task's δ_i: d̄_i pulled towards the other tasks.
    posterior : numpy.ndarray
        Shape (samples, 3): per posterior draw, the probabilities that the next task's δ exceeds r (a
        better), lies within ±r, or is below -r (b better), under its Student t(ν, δ0, σ0).
    p_a_better, p_rope, p_b_better : float
        The posterior probabilities that each of the three is the largest (the fraction of draws), as
        baycomp's HierarchicalTest reports them.
    standard_errors : numpy.ndarray
        The Monte Carlo standard errors of the three, from the spread of the chains' own fractions
        (independent chains), never below :func:`monte_carlo_error`'s.
    posterior_mean : numpy.ndarray
        The posterior means of the three probabilities of the next task (the columns of `posterior`).
    task_probabilities : numpy.ndarray
        Shape (tasks, 3): per task, the posterior probabilities that δ_i > r, -r <= δ_i <= r, δ_i < -r.
    delta0, sigma0, nu : numpy.ndarray
        The posterior draws of the location, scale and degrees of freedom of the t of the δ_i (units of
        the scores).
    scale : float
        The unit the model is fitted in (the mean over tasks of the standard deviation of the differences,
        divisor n): the differences and r are divided by it, as baycomp does.
    rope, threshold : float
        r, the half-width of the ROPE (units of the scores), and the probability that decides.
    chains, burn_in, thin : int
        The Gibbs sampler's independent chains, the iterations each discards, and the iterations between
        kept draws.
    seed : int or None
        The seed given.
    direction : {"higher", "lower"}
        Which scores are better.
    degenerate : numpy.ndarray
        Bool per task: every difference is the same (no within-variance).
    noised : numpy.ndarray
        Bool per task: every difference is 0 and r > 0, so the model sees n/2 differences drawn from
        U(-r, r) and their negatives, as baycomp does (the other degenerate tasks keep σ_i at 1e-4
        standard units, which pins δ_i at their difference).

    See Also
    --------
    hierarchical_test : The Bayesian hierarchical test.
    plot_hierarchical : Its posterior in the simplex.
    signed_rank_test : The Bayesian signed-rank test on the tasks' means.

    References
    ----------
    .. [1] Giorgio Corani, Alessio Benavoli, Janez Demšar, Francesca Mangili and Marco Zaffalon,
       "Statistical comparison of classifiers through Bayesian hierarchical modelling", Machine Learning
       106, 1817-1837, 2017. doi:10.1007/s10994-017-5641-9. §3.
    .. [2] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. §5.
    """

    a: str
    b: str
    tasks: tuple[str, ...]
    runs: np.ndarray
    folds: int
    mean: np.ndarray
    shrunk: np.ndarray
    posterior: np.ndarray
    p_a_better: float
    p_rope: float
    p_b_better: float
    standard_errors: np.ndarray
    posterior_mean: np.ndarray
    task_probabilities: np.ndarray
    delta0: np.ndarray
    sigma0: np.ndarray
    nu: np.ndarray
    scale: float
    rope: float
    threshold: float
    chains: int
    burn_in: int
    thin: int
    seed: int | None
    direction: str
    degenerate: np.ndarray
    noised: np.ndarray

    @property
    def probabilities(self) -> np.ndarray:
        """(P(a better), P(practically equivalent), P(b better)) for the next task."""
        return np.array([self.p_a_better, self.p_rope, self.p_b_better])

    @property
    def samples(self) -> int:
        """The number of posterior draws kept."""
        return self.posterior.shape[0]

    @property
    def decision(self) -> str:
        """ "a_better", "equivalent", "b_better", or "undecided"."""
        return _decision(self.probabilities, self.threshold)

    @property
    def decisions(self) -> tuple[str, ...]:
        """Per task, the decision on its δ_i."""
        return tuple(_decision(p, self.threshold) for p in self.task_probabilities)

    def __repr__(self) -> str:
        return (
            f"HierarchicalResult(a={self.a!r}, b={self.b!r}, tasks={len(self.tasks)}, rope={self.rope:g}, "
            f"p_a_better={self.p_a_better:.4g}, p_rope={self.p_rope:.4g}, p_b_better={self.p_b_better:.4g}, "
            f"decision={self.decision!r})"
        )

    @property
    def verdict(self) -> str:
        """The decision on the next task in words, the count of the tasks' decisions, and the Monte Carlo
        error when it matters."""
        a, b = self.a, self.b
        if self.decision == "undecided":
            text = (
                f"The data cannot decide for a new task like these {len(self.tasks)}: "
                f"{_probabilities_words(a, b, self.rope, self.probabilities)}; none exceeds "
                f"{self.threshold:g}."
            )
        else:
            k = _DECISIONS.index(self.decision)
            decided = _decided_words(self.decision, a, b, self.rope, self.probabilities[k])
            text = f"For a new task like these, {decided}."
        top = int(np.argmax(self.probabilities))
        if abs(self.probabilities[top] - self.threshold) < 4 * self.standard_errors[top]:
            text += (
                f" The largest probability is within 4 Monte Carlo standard errors "
                f"({self.standard_errors[top]:.2g}) of {self.threshold:g}: more samples would settle it."
            )
        decisions = self.decisions
        names = _outcomes(a, b, self.rope)
        counts = [
            f"{names[0]} on {decisions.count('a_better')}",
            f"{names[2]} on {decisions.count('b_better')}",
        ]
        if self.rope > 0:
            counts.append(f"{names[1]} on {decisions.count('equivalent')}")
        counts.append(f"undecided on {decisions.count('undecided')}")
        text += f" Task by task (each δ_i shrunk towards the others): {', '.join(counts)}."
        noised, pinned = int(self.noised.sum()), int((self.degenerate & ~self.noised).sum())
        if noised:
            text += (
                f" On {noised} task{'s' if noised > 1 else ''} every difference is 0: as baycomp does, the "
                f"model sees there half the differences drawn uniformly within ±{self.rope:g} and half their "
                "negatives (drawn anew in each chain)."
            )
        if pinned:
            text += (
                f" On {pinned} task{'s' if pinned > 1 else ''} every difference is the same: with no "
                "variance, δ_i is pinned at that difference, which pulls δ0 towards it (baycomp passes such "
                "tasks to its sampler unchanged, and its answer can differ)."
            )
        return text

    def _rows(self):
        header = ("task", "runs", "mean d", "shrunk δ", *_short_outcomes(self.a, self.b), "decision")
        rows = [
            (
                self.tasks[j],
                str(int(self.runs[j])),
                f"{self.mean[j]:+.4g}",
                f"{self.shrunk[j]:+.4g}",
                *(_probability_text(p) for p in self.task_probabilities[j]),
                _decision_words(decision, self.a, self.b) + (" (degenerate)" if self.degenerate[j] else ""),
            )
            for j, decision in enumerate(self.decisions)
        ]
        return header, rows

    def _overall_rows(self):
        names = _outcomes(self.a, self.b, self.rope)
        header = ("next task", "probability", "Monte Carlo SE", "posterior mean")
        rows = [
            (
                names[k],
                f"{self.probabilities[k]:.4f}",
                f"{self.standard_errors[k]:.2g}",
                f"{self.posterior_mean[k]:.4f}",
            )
            for k in range(3)
        ]
        return header, rows

    def _explanation(self):
        seed = f"seed {self.seed}" if self.seed is not None else "no fixed seed"
        kept = "each draw kept" if self.thin == 1 else f"one draw in {self.thin} kept"
        return (
            f"Bayesian hierarchical test ({PAPER_H}) of {self.a} against {self.b} over {len(self.tasks)} "
            f"tasks and their runs: {_advantage_words(self.a, self.b, self.direction)}. On task i the n_i "
            f"differences are normal around δ_i, correlated ({RHO} = 1/{self.folds}, as in the correlated "
            f"t-test); the δ_i follow a Student t({_NU}, δ0, {SIGMA}0), {_NU} >= 1, priors as baycomp's "
            f"HierarchicalTest, fitted in units of {self.scale:.4g} (the mean standard deviation of the "
            "differences). "
            f"{_rope_words(self.rope)}. The probability of an outcome is the share of posterior draws in "
            "which the next task's δ is most likely on that side; "
            f"{self.samples:,} draws of a Gibbs sampler ({self.chains} chains, {self.burn_in} discarded "
            f"each, {kept}, {seed}). Posterior means: δ0 = {self.delta0.mean():+.4g}, "
            f"{SIGMA}0 = {self.sigma0.mean():.4g}, {_NU} = {self.nu.mean():.3g}."
        )

    def describe(self) -> Description:
        """The explanation, the probabilities for the next task, the table of tasks and the verdict."""
        verdict = self.verdict
        header, rows = self._rows()
        overall_header, overall_rows = self._overall_rows()
        decisions = self.decisions
        p = self.task_probabilities
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text="\n".join(
                [
                    paragraph(self._explanation()),
                    "",
                    *aligned([overall_header, *overall_rows]),
                    "",
                    *aligned([header, *rows]),
                    "",
                    paragraph(verdict),
                ]
            ),
            data={
                "test": "hierarchical",
                "a": self.a,
                "b": self.b,
                "direction": self.direction,
                "rope": self.rope,
                "folds": self.folds,
                "threshold": self.threshold,
                "samples": self.samples,
                "chains": self.chains,
                "burn_in": self.burn_in,
                "thin": self.thin,
                "seed": self.seed,
                "scale": self.scale,
                "p_a_better": self.p_a_better,
                "p_rope": self.p_rope,
                "p_b_better": self.p_b_better,
                "standard_errors": self.standard_errors,
                "posterior_mean": self.posterior_mean,
                "decision": self.decision,
                "delta0": self.delta0.mean(),
                "sigma0": self.sigma0.mean(),
                "nu": self.nu.mean(),
                "tasks": [
                    {
                        "task": self.tasks[j],
                        "runs": self.runs[j],
                        "mean": self.mean[j],
                        "shrunk": self.shrunk[j],
                        "p_a_better": p[j, 0],
                        "p_rope": p[j, 1],
                        "p_b_better": p[j, 2],
                        "decision": decision,
                        "degenerate": self.degenerate[j],
                        "noised": self.noised[j],
                    }
                    for j, decision in enumerate(decisions)
                ],
            },
            columns=header,
            rows=tuple(rows),
            frame={
                "task": list(self.tasks),
                "runs": self.runs,
                "mean": self.mean,
                "shrunk": self.shrunk,
                "p_a_better": p[:, 0],
                "p_rope": p[:, 1],
                "p_b_better": p[:, 2],
                "decision": list(decisions),
                "degenerate": self.degenerate,
                "noised": self.noised,
            },
            assumptions=(
                ("methods", f"a = {self.a}, b = {self.b}"),
                ("difference", _advantage_words(self.a, self.b, self.direction)),
                ("ROPE", f"±{self.rope:g} (units of the scores)"),
                (f"{RHO}, correlation of the folds", f"1/{self.folds}"),
                ("priors (standardised units)", _PRIORS),
                ("decision threshold", f"{self.threshold:g}"),
            ),
            source=_SOURCE_H,
            inputs=self.inputs,
            analysis="compare hierarchical",
            figure=lambda: plot_hierarchical(self),
        )


# ---------------------------------------------------------------------------------------------------------
# The Gibbs sampler


def _truncated_gamma(rng, shape, rate, low, high):
    """Gamma(shape, rate) draws restricted to [low, high], exactly: a plain draw where it falls inside,
    else (rarely, or where most of the mass is outside) the inverse distribution function."""
    from scipy import special

    shape, rate, low, high = np.broadcast_arrays(shape, np.maximum(rate, 1e-300), low, high)
    x = rng.standard_gamma(shape) / rate
    out = (x < low) | (x > high)
    if out.any():
        a, r, lo_x, hi_x = shape[out], rate[out], low[out], high[out]
        lo = special.gammainc(a, lo_x * r)
        hi = np.where(np.isinf(hi_x), 1.0, special.gammainc(a, np.minimum(hi_x, 1e300) * r))
        u = lo + (hi - lo) * rng.random(a.shape)
        x[out] = np.clip(special.gammaincinv(a, u) / r, lo_x, hi_x)
    return x


def _truncated_normal(rng, mean, sd, bound):
    """Normal(mean, sd) draws restricted to [-bound, bound], exactly (inverse distribution function, on
    the side of the mean that keeps the tails accurate)."""
    from scipy import special

    sign = np.where(mean > 0, -1.0, 1.0)
    centre = sign * mean
    lo, hi = special.ndtr((-bound - centre) / sd), special.ndtr((bound - centre) / sd)
    u = lo + (hi - lo) * rng.random(np.shape(mean))
    return sign * np.clip(centre + sd * special.ndtri(u), -bound, bound)


def _slice(rng, log_density, x, low=None, high=None, width=None, steps=20):
    """One slice-sampling update (Neal 2003) of each chain's scalar `x`, vectorised: the bracket is
    [low, high], or stepped out by `width` from a random start when `width` is given."""
    level = log_density(x) - rng.standard_exponential(x.shape)
    if width is None:
        left, right = np.full(x.shape, low), np.full(x.shape, high)
    else:
        left = x - width * rng.random(x.shape)
        right = left + width
        for _ in range(steps):
            out = log_density(left) > level
            if not out.any():
                break
            left = np.where(out, left - width, left)
        for _ in range(steps):
            out = log_density(right) > level
            if not out.any():
                break
            right = np.where(out, right + width, right)
    new = x.copy()
    pending = np.ones(x.shape, dtype=bool)
    while pending.any():
        proposal = left + (right - left) * rng.random(x.shape)
        accepted = pending & (log_density(proposal) > level)
        new = np.where(accepted, proposal, new)
        pending &= ~accepted
        below = pending & (proposal < x)
        left, right = np.where(below, proposal, left), np.where(pending & ~below, proposal, right)
    return new


def _log_nu(u, z2, q, alpha, beta):
    """The log density of u = log(ν - 1) given the standardised δ_i (z² = ((δ_i - δ0)/σ0)², λ integrated
    out): the Gamma(α, β) prior of ν - 1, Jacobian, and the q Student t densities."""
    from scipy.special import gammaln

    excess = np.exp(np.minimum(u, 50.0))
    nu = 1.0 + excess
    prior = alpha * u - beta * excess
    t = q * (gammaln((nu + 1) / 2) - gammaln(nu / 2) - 0.5 * np.log(nu))
    return prior + t - (nu + 1) / 2 * np.log1p(z2 / nu[:, None]).sum(axis=1)


def _gibbs(mean, within, runs, rho, bounds, chains, burn_in, kept, thin, rng, progress):
    """The Gibbs sampler of the hierarchical model on standardised differences (each task's mean and
    within sum of squares suffice: the correlated covariance σ_i²((1 - ρ)I + ρ11ᵀ) has the determinant
    σ_i^(2n)(1 - ρ)^(n-1)(1 + (n - 1)ρ) and the quadratic form W/(1 - ρ) + n(d̄ - δ)²/(1 + (n - 1)ρ)).
    `within` is per chain and task, `bounds` (the bound of |δ0| and of σ_i per chain, of σ0) from
    :func:`_model_data`.

    The Student t of the δ_i is a normal scale mixture, δ_i ~ N(δ0, σ0²/λ_i), λ_i ~ Gamma(ν/2, ν/2).
    Each iteration draws, for all chains at once: δ_i (normal), σ_i (its precision a truncated gamma),
    δ0 (truncated normal), σ0 (truncated gamma precision), ν with λ integrated out (slice on log(ν - 1)),
    λ_i (gamma), β (truncated gamma) and α (slice). Returns the kept draws of (δ0, σ0, ν) and of the δ_i.
    """
    q = mean.size
    c = 1.0 + (runs - 1.0) * rho  # the variance factor of a task's mean difference
    within = within / (1.0 - rho)
    bound, upper, upper0 = bounds
    # σ_i <= upper (its precision >= 1/upper²); where all differences are equal, σ_i's posterior sits at
    # the floor 1e-4, where it is kept
    lowest, varies = 1.0 / upper[:, None] ** 2, within.min(axis=0) > 0
    shape = (chains, q)
    delta = np.broadcast_to(mean, shape).copy()
    sigma = np.maximum(np.sqrt(within / (runs - 1)), _LOWEST_SIGMA)
    delta0 = np.clip(mean.mean(), -0.9 * bound, 0.9 * bound)
    sigma0 = np.full(chains, max(mean.std(), 0.1))
    alpha, beta = np.full(chains, np.mean(_ALPHA)), np.full(chains, np.mean(_BETA))
    nu = 1.0 + alpha / beta
    lam = np.ones(shape)
    draws = np.empty((kept, chains, 3))
    deltas = np.empty((kept, chains, q))
    for iteration in range(burn_in + kept * thin):
        precision_data = runs / (c * sigma**2)
        precision_prior = lam / sigma0[:, None] ** 2
        precision = precision_data + precision_prior
        centre = (precision_data * mean + precision_prior * delta0[:, None]) / precision
        delta = centre + rng.standard_normal(shape) / np.sqrt(precision)
        spread = within + runs * (mean - delta) ** 2 / c
        rate = spread[:, varies] / 2.0
        sigma[:, varies] = 1.0 / np.sqrt(
            _truncated_gamma(rng, (runs[varies] - 1.0) / 2.0, rate, lowest, np.inf)
        )
        weight = lam.sum(axis=1)
        delta0 = _truncated_normal(rng, (lam * delta).sum(axis=1) / weight, sigma0 / np.sqrt(weight), bound)
        spread0 = (lam * (delta - delta0[:, None]) ** 2).sum(axis=1)
        sigma0 = 1.0 / np.sqrt(_truncated_gamma(rng, (q - 1.0) / 2.0, spread0 / 2.0, upper0**-2, np.inf))
        z2 = ((delta - delta0[:, None]) / sigma0[:, None]) ** 2
        log_nu = partial(_log_nu, z2=z2, q=q, alpha=alpha, beta=beta)
        nu = 1.0 + np.exp(_slice(rng, log_nu, np.log(nu - 1.0), width=1.0))
        lam = rng.gamma((nu[:, None] + 1.0) / 2.0, 2.0 / (nu[:, None] + z2))
        beta = _truncated_gamma(rng, alpha + 1.0, nu - 1.0, _BETA[0], _BETA[1])
        alpha = _slice(rng, partial(_log_alpha, beta_nu=beta * (nu - 1.0)), alpha, *_ALPHA)
        done = iteration - burn_in
        if done >= 0 and done % thin == thin - 1:
            draws[done // thin] = np.column_stack([delta0, sigma0, nu])
            deltas[done // thin] = delta
        if progress is not None and (iteration + 1) % 50 == 0:
            progress(iteration + 1, burn_in + kept * thin)
    return draws, deltas


def _log_alpha(alpha, beta_nu):
    """The log density of α given β and ν, up to a constant: the Gamma(α, β) density of ν - 1."""
    from scipy.special import gammaln

    return alpha * np.log(beta_nu) - gammaln(alpha)


def _model_data(x, r, chains, rng):
    """The standardised data of the model, as baycomp's HierarchicalTest prepares them for Stan (observed
    in the data it passes, benchmarks/BAYCOMP_FACTS.md): each task's mean and, per chain, its within sum of
    squares; the bounds of |δ0| (the largest |difference|) and of σ_i (1000 times the mean over tasks of
    the standard deviations, divisor n) per chain, and of σ0 (1000 times the standard deviation of the
    tasks' means). A task whose differences are all 0 (when r > 0) gets n/2 differences drawn from
    U(-r, r) and their negatives (and one 0 if n is odd), drawn anew for each chain. Returns the means,
    the within sums of squares, the three bounds and which tasks were so filled."""
    mean = np.array([v.mean() for v in x])
    within = np.tile([((v - v.mean()) ** 2).sum() for v in x], (chains, 1))
    spread = np.tile([v.std() for v in x], (chains, 1))
    largest = np.full(chains, max(np.abs(v).max() for v in x))
    noised = np.array([r > 0 and not v.any() for v in x])
    for j in np.flatnonzero(noised):
        half = rng.uniform(-r, r, (chains, x[j].size // 2))
        within[:, j] = 2.0 * (half**2).sum(axis=1)
        spread[:, j] = np.sqrt(within[:, j] / x[j].size)
        largest = np.maximum(largest, np.abs(half).max(axis=1))
    # equal means (one task, say) would leave σ0 no room: its bound is then 1000 standard units
    upper0 = _UPPER_SIGMA * (mean.std() or 1.0)
    return mean, within, (largest, _UPPER_SIGMA * spread.mean(axis=1), upper0), noised


def _sides(location, scale, nu, rope):
    """P(X > r), P(|X| <= r), P(X < -r) for X ~ t(ν, location, scale), vectorised."""
    from scipy.special import stdtr

    above = stdtr(nu, (location - rope) / scale)
    below = stdtr(nu, (-rope - location) / scale)
    return np.stack([above, 1.0 - above - below, below], axis=-1)


def hierarchical_test(
    scores: TaskScores,
    a: str,
    b: str,
    *,
    rope: float = 0.0,
    folds: int | None = None,
    samples: int = 20_000,
    chains: int = 100,
    burn_in: int = 200,
    thin: int = 1,
    threshold: float = THRESHOLD,
    seed: Seed = None,
    progress: Callable[[int, int], object] | None = None,
) -> HierarchicalResult:
    """The Bayesian hierarchical test of a against b over data sets × folds (Corani et al. 2017).

    Every run of every task enters one model. On task i, the n_i paired differences d_ij (the advantage of
    a: a - b when higher is better, b - a when lower) of a k-fold cross-validation repeated n_i/k times
    are normal with mean δ_i and the correlated covariance σ_i²((1 - ρ)I + ρ11ᵀ), ρ = 1/k (the
    correlated t-test's); the δ_i are drawn from a Student t(ν, δ0, σ0). The model is baycomp's
    HierarchicalTest with its defaults, as the data it passes to Stan and the parameters of its fit show
    (benchmarks/BAYCOMP_FACTS.md §5; baycomp documents neither): the differences and r are divided by
    the mean over the tasks of the differences' standard deviations (divisor n_i); ν - 1 ~ Gamma(α, β)
    (rate β; so ν >= 1), α ~ U(1, 2), β ~ U(0.01, 0.1); δ0 ~ U(-m, m), m the largest abs(d_ij);
    σ_i ~ U(0, 1000 s), s the mean standard deviation after the filling below (about 1); σ0 ~ U(0, 1000 s0),
    s0 the standard deviation of the tasks' means. A task whose differences are all 0 (r > 0) is filled,
    as baycomp does, with n_i/2 differences drawn from U(-r, r) and their negatives (baycomp draws them
    once; here each chain draws its own, so that the answer is baycomp's averaged over its draws).

    Each posterior draw gives the probabilities (θ_a, θ_rope, θ_b) that the next task's δ, ~ t(ν, δ0, σ0),
    is above r, within ±r or below -r; P(a practically better) is the share of draws in which θ_a is the
    largest (as baycomp's ``HierarchicalTest.probs``: p_left = a better with ``x`` = a, ``y`` = b for
    higher-is-better scores). Per task, the probabilities are those of δ_i itself: shrunk towards the
    other tasks, they decide more than the correlated t-test does on the task alone.

    The posterior is sampled by a Gibbs sampler written for this model (numpy, vectorised over `chains`
    independent chains and the tasks; each task enters through its mean and within sum of squares). Any
    other task whose differences are all equal keeps σ_i above 1e-4 standardised units (its δ_i is its
    mean; baycomp passes such a task to Stan as it is).

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`; on each task, the runs of a and b must have the same labels.
    a, b : str
        The two methods.
    rope : float, default 0
        r, the half-width of the region of practical equivalence, in the units of the scores.
    folds : int, optional
        k, the folds of each cross-validation (>= 2); required unless the scores know it.
    samples : int, default 20,000
        The posterior draws kept, over all chains (rounded up to a multiple of `chains`); at least
        3/(1 - threshold).
    chains : int, default 100
        Independent chains, run side by side; their spread gives the Monte Carlo standard errors.
    burn_in : int, default 200
        Iterations each chain discards first.
    thin : int, default 1
        Iterations between kept draws.
    threshold : float, default 0.95
        The probability in [0.5, 1) an outcome must exceed to be decided.
    seed : int or numpy.random.Generator, optional
        For the sampler; None draws fresh entropy.
    progress : callable, optional
        Called as ``progress(done, total)`` every 50 iterations of the sampler.

    Returns
    -------
    HierarchicalResult

    See Also
    --------
    HierarchicalResult : The posterior of the hierarchical test.
    plot_hierarchical : Its posterior in the simplex.
    correlated_t_test : One task's runs alone.
    signed_rank_test : The tasks' means alone.

    References
    ----------
    .. [1] Giorgio Corani, Alessio Benavoli, Janez Demšar, Francesca Mangili and Marco Zaffalon,
       "Statistical comparison of classifiers through Bayesian hierarchical modelling", Machine Learning
       106, 1817-1837, 2017. doi:10.1007/s10994-017-5641-9. §3 (the model), §4 (its inference).
    .. [2] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html. §5.
    .. [3] Radford M. Neal, "Slice sampling", The Annals of Statistics 31(3), 705-767, 2003.
       doi:10.1214/aos/1056562461.

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> uci = bundled_task_scores("uci")
    >>> result = hierarchical_test(uci, "nbc", "aode", rope=1, folds=10, samples=2000, seed=1)
    >>> result.decision, result.p_a_better
    ('undecided', 0.0)
    >>> result.tasks[19], result.decisions[19], result.tasks[13], result.decisions[13]
    ('19', 'b_better', '13', 'equivalent')
    >>> int(result.degenerate.sum()), int(result.noised.sum())
    (2, 2)
    """
    scores = check_task_scores(scores)
    i, k = method_pair(scores, a, b)
    rope, threshold = _check_rope(rope), _check_threshold(threshold)
    folds = _check_folds(scores, folds)
    chains = check_count(chains, "chains")
    burn_in = check_count(burn_in, "burn_in") if burn_in else 0
    thin = check_count(thin, "thin")
    samples = _check_samples(samples, threshold)
    kept = -(-samples // chains)
    rng = check_seed(seed)
    progress = check_progress(progress)
    sign = 1.0 if scores.direction == "higher" else -1.0
    differences = [sign * _paired_differences(scores, i, k, j) for j in range(len(scores.tasks))]
    runs = np.array([d.size for d in differences], dtype=float)
    if runs.min() < 2:
        raise InputError("the hierarchical test needs at least two paired runs on every task")
    scale = float(np.mean([d.std() for d in differences]))
    if scale == 0:
        raise InputError(
            f"{a} and {b}: on every task every difference is the same; the hierarchical model has no "
            "variance to fit (use the correlated t-test, which says so task by task)"
        )
    r = rope / scale
    mean, within, bounds, noised = _model_data([d / scale for d in differences], r, chains, rng)
    sampler = (chains, burn_in, kept, thin, rng, progress)
    draws, deltas = _gibbs(mean, within, runs, 1.0 / folds, bounds, *sampler)
    theta = _sides(draws[..., 0], draws[..., 1], draws[..., 2], r)  # (kept, chains, 3)
    posterior = theta.reshape(-1, 3)
    probabilities, floor = _largest_shares(posterior)
    per_chain = np.stack([_largest_shares(theta[:, c])[0] for c in range(chains)])
    errors = np.maximum(per_chain.std(axis=0, ddof=1) / np.sqrt(chains), floor) if chains > 1 else floor
    task_p = np.stack([(deltas > r).mean(axis=(0, 1)), (np.abs(deltas) <= r).mean(axis=(0, 1)),
                       (deltas < -r).mean(axis=(0, 1))], axis=1)  # fmt: skip
    return HierarchicalResult(
        a=a,
        b=b,
        tasks=scores.tasks,
        runs=runs.astype(int),
        folds=folds,
        mean=scale * mean,
        shrunk=scale * deltas.mean(axis=(0, 1)),
        posterior=posterior,
        p_a_better=float(probabilities[0]),
        p_rope=float(probabilities[1]),
        p_b_better=float(probabilities[2]),
        standard_errors=errors,
        posterior_mean=posterior.mean(axis=0),
        task_probabilities=task_p,
        delta0=scale * draws[..., 0].ravel(),
        sigma0=scale * draws[..., 1].ravel(),
        nu=draws[..., 2].ravel(),
        scale=scale,
        rope=rope,
        threshold=threshold,
        chains=chains,
        burn_in=burn_in,
        thin=thin,
        seed=int(seed) if isinstance(seed, numbers.Integral) else None,
        direction=scores.direction,
        degenerate=np.array([np.ptp(d) == 0 for d in differences]),
        noised=noised,
        inputs=scores_files(scores),
    )


def plot_hierarchical(result: HierarchicalResult, ax: Axes | None = None) -> Axes:
    """The posterior of the hierarchical test in the simplex: each draw is the point whose barycentric
    coordinates are the next task's three probabilities (as :func:`plot_simplex` draws the signed-rank
    test's, and baycomp's ``HierarchicalTest.plot_simplex``).

    Parameters
    ----------
    result : HierarchicalResult
        From :func:`hierarchical_test`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure's.

    Returns
    -------
    matplotlib.axes.Axes

    See Also
    --------
    hierarchical_test : The Bayesian hierarchical test.
    plot_simplex : The signed-rank test's posterior in the simplex.

    References
    ----------
    .. [1] Giorgio Corani, Alessio Benavoli, Janez Demšar, Francesca Mangili and Marco Zaffalon,
       "Statistical comparison of classifiers through Bayesian hierarchical modelling", Machine Learning
       106, 1817-1837, 2017. doi:10.1007/s10994-017-5641-9.

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> uci = bundled_task_scores("uci")
    >>> ax = plot_hierarchical(hierarchical_test(uci, "nbc", "aode", rope=1, folds=10, samples=200, seed=1))
    >>> ax.get_title()
    'Bayesian hierarchical test, nbc vs aode: the next task'
    """
    if not isinstance(result, HierarchicalResult):
        raise InputError(
            f"result: expected a HierarchicalResult (from hierarchical_test), got {type(result).__name__}"
        )
    ax = plot_simplex(result, ax)
    ax.set_title(f"Bayesian hierarchical test, {result.a} vs {result.b}: the next task", fontsize=10)
    return ax
