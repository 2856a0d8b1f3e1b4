"""The Bayesian signed-rank test of two methods across data sets (Benavoli et al. 2017, §4).

:func:`signed_rank_test`: from one value per data set (the mean of its runs), the posterior of the
distribution of the differences is a Dirichlet process, sampled; each sample costs O(n) for n data sets,
not O(n²). The words and checks it shares with the correlated t-test are in :mod:`._bayes`.
:func:`plot_simplex` draws its posterior samples in the barycentric triangle (§4, Fig. 6-8).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._exact import exact_mean
from benchtrust._figures import axes_for
from benchtrust._io import MAX_MEMORY, InputError, Seed, check_count, check_memory, check_number, check_seed
from benchtrust._result import Description, Result
from benchtrust._words import aligned, paragraph
from benchtrust.compare._bootstrap import check_progress
from benchtrust.compare._monte_carlo import fewest_draws, monte_carlo_error
from benchtrust.compare._tasks._bayes import (
    _DECISIONS,
    _TITLE,
    PAPER,
    THRESHOLD,
    _advantage_words,
    _check_rope,
    _check_threshold,
    _decided_words,
    _decision,
    _outcomes,
    _probabilities_words,
    _rope_words,
)
from benchtrust.compare._tasks._scores import (
    TASKS_QUESTION,
    TaskScores,
    check_task_scores,
    method_pair,
    scores_files,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from benchtrust.compare import HierarchicalResult

__all__ = ["SignedRankResult", "signed_rank_test"]

_SOURCE_SIGNED_RANK = f"{PAPER}, {_TITLE}, §4 (Bayesian signed-rank test)"
#: Posterior samples of θ whose values are this close (θ lie in [0, 1]) are ties, shared equally.
_TIE = 1e-9
#: At most this many numbers (samples × data sets) are drawn at once.
_CHUNK = 1 << 16


# ---------------------------------------------------------------------------------------------------------
# Bayesian signed-rank test (§4)


@dataclasses.dataclass(frozen=True, eq=False)
class SignedRankResult(Result):
    """The Bayesian signed-rank test of a against b across tasks (Benavoli et al. 2017, §4).

    Attributes
    ----------
    a, b : str
        The two methods compared.
    tasks : tuple of str
        The tasks (data sets), each one observation.
    mean_a, mean_b : numpy.ndarray
        Each method's mean score on each task (the mean of its runs).
    differences : numpy.ndarray
        d, the advantage of a on each task: ``mean_a - mean_b`` when higher is better, ``mean_b -
        mean_a`` when lower is better.
    posterior : numpy.ndarray
        The posterior samples of θ = (θ_a, θ_rope, θ_b), shape (samples, 3), each row summing to 1: the
        probabilities, under one draw of the Dirichlet process, that the mean of two tasks' differences
        exceeds r (a better), lies within ±r, or is below -r (b better).
    p_a_better, p_rope, p_b_better : float
        The posterior probabilities that θ_a, θ_rope, θ_b is the largest of the three (the fraction of
        samples; exact ties shared).
    standard_errors : numpy.ndarray
        The Monte Carlo standard errors of the three probabilities, sqrt(p(1 - p)/samples) with p clipped
        to [1/(samples + 1), samples/(samples + 1)], so never 0 (:func:`monte_carlo_error`).
    posterior_mean : numpy.ndarray
        The posterior means of θ_a, θ_rope, θ_b, exact (a finite sum, not sampled).
    rope : float
        r, the half-width of the ROPE, in the units of the scores.
    prior_strength : float
        s, the weight of the Dirichlet process's prior pseudo-observation at d = 0.
    threshold : float
        The probability an outcome must exceed to be decided.
    seed : int or None
        The seed given (None for fresh entropy or a Generator).
    direction : {"higher", "lower"}
        Which scores are better.
    missing : int
        The number of (method, task) pairs with missing runs (every method keeps the runs it has).

    See Also
    --------
    signed_rank_test : The Bayesian signed-rank test across data sets.
    plot_simplex : Draw the signed-rank test's posterior in the simplex.
    correlated_t_test : The Bayesian correlated t-test on a cross-validation.

    References
    ----------
    .. [1] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §4.
    """

    a: str
    b: str
    tasks: tuple[str, ...]
    mean_a: np.ndarray
    mean_b: np.ndarray
    differences: np.ndarray
    posterior: np.ndarray
    p_a_better: float
    p_rope: float
    p_b_better: float
    standard_errors: np.ndarray
    posterior_mean: np.ndarray
    rope: float
    prior_strength: float
    threshold: float
    seed: int | None
    direction: str
    missing: int

    @property
    def probabilities(self) -> np.ndarray:
        """(P(a better), P(practically equivalent), P(b better))."""
        return np.array([self.p_a_better, self.p_rope, self.p_b_better])

    @property
    def samples(self) -> int:
        """The number of posterior samples."""
        return self.posterior.shape[0]

    @property
    def decision(self) -> str:
        """ "a_better", "equivalent", "b_better", or "undecided" (no probability exceeds the threshold)."""
        return _decision(self.probabilities, self.threshold)

    def __repr__(self) -> str:
        return (
            f"SignedRankResult(a={self.a!r}, b={self.b!r}, tasks={len(self.tasks)}, rope={self.rope:g}, "
            f"p_a_better={self.p_a_better:.4g}, p_rope={self.p_rope:.4g}, p_b_better={self.p_b_better:.4g}, "
            f"decision={self.decision!r})"
        )

    @property
    def verdict(self) -> str:
        """The decision in plain words, with what is uncertain: the Monte Carlo error near the threshold,
        and too few tasks."""
        a, b, n = self.a, self.b, len(self.tasks)
        across = f"across these {n} tasks" if n > 1 else "on this one task"
        decision = self.decision
        if n == 1:
            probabilities = _probabilities_words(a, b, self.rope, self.probabilities)
            return (
                "One task is too little for a test across tasks, so nothing is decided: the posterior "
                f"mostly reflects the prior ({probabilities}). The Bayesian correlated t-test "
                "(correlated_t_test) compares two methods on one task's runs."
            )
        if decision == "undecided":
            text = (
                f"The data cannot decide {across}: "
                f"{_probabilities_words(a, b, self.rope, self.probabilities)}; none exceeds "
                f"{self.threshold:g}."
            )
        else:
            k = _DECISIONS.index(decision)
            text = f"{_decided_words(decision, a, b, self.rope, self.probabilities[k])} {across}."
        top = int(np.argmax(self.probabilities))
        if abs(self.probabilities[top] - self.threshold) < 4 * self.standard_errors[top]:
            text += (
                f" The largest probability is within 4 Monte Carlo standard errors "
                f"({self.standard_errors[top]:.2g}) of {self.threshold:g}: more samples would settle the "
                "decision."
            )
        if self.missing:
            text += (
                f" {self.missing} method x task pairs have missing runs; each task's mean uses the runs it "
                "has."
            )
        return text

    def _rows(self):
        names = _outcomes(self.a, self.b, self.rope)
        sides = (
            int(np.sum(self.differences > self.rope)),
            int(np.sum(np.abs(self.differences) <= self.rope)),
            int(np.sum(self.differences < -self.rope)),
        )
        header = ("outcome", "probability", "Monte Carlo SE", "posterior mean of θ", "tasks on that side")
        rows = [
            (
                names[k],
                f"{self.probabilities[k]:.4f}",
                f"{self.standard_errors[k]:.2g}",
                f"{self.posterior_mean[k]:.4f}",
                str(sides[k]),
            )
            for k in range(3)
        ]
        return header, rows

    def _explanation(self):
        seed = f"seed {self.seed}" if self.seed is not None else "no fixed seed"
        return (
            f"Bayesian signed-rank test ({PAPER} §4) of {self.a} against {self.b} over {len(self.tasks)} "
            "tasks: one value per task, the mean of its runs, "
            f"{_advantage_words(self.a, self.b, self.direction)}. "
            f"The posterior of the distribution of d is a Dirichlet process (prior strength s = "
            f"{self.prior_strength:g} at d = 0); each draw gives θ, the probabilities that the mean of two "
            f"tasks' d is above r, within ±r or below -r ({_rope_words(self.rope)}); the probability of an "
            f"outcome is the posterior probability that its θ is the largest, from {self.samples:,} samples "
            f"({seed}), with its Monte Carlo standard error."
        )

    def describe(self) -> Description:
        """The explanation, the table of outcomes and the verdict (Benavoli et al. 2017, §4); the section
        has the posterior in the simplex."""
        verdict = self.verdict
        header, rows = self._rows()
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text="\n".join(
                [paragraph(self._explanation()), "", *aligned([header, *rows]), "", paragraph(verdict)]
            ),
            data={
                "test": "signed_rank",
                "a": self.a,
                "b": self.b,
                "direction": self.direction,
                "rope": self.rope,
                "prior_strength": self.prior_strength,
                "samples": self.samples,
                "seed": self.seed,
                "threshold": self.threshold,
                "tasks": len(self.tasks),
                "missing": self.missing,
                "p_a_better": self.p_a_better,
                "p_rope": self.p_rope,
                "p_b_better": self.p_b_better,
                "standard_errors": self.standard_errors,
                "posterior_mean": self.posterior_mean,
                "decision": self.decision,
                "differences": dict(zip(self.tasks, self.differences, strict=True)),
            },
            columns=header,
            rows=tuple(rows),
            frame={
                "task": list(self.tasks),
                "mean_a": self.mean_a,
                "mean_b": self.mean_b,
                "difference": self.differences,
            },
            figure=lambda: plot_simplex(self),
            assumptions=(
                ("methods", f"a = {self.a}, b = {self.b}"),
                ("difference", _advantage_words(self.a, self.b, self.direction)),
                ("ROPE", f"±{self.rope:g} (units of the scores)"),
                ("prior", f"strength s = {self.prior_strength:g}, pseudo-observation at d = 0"),
                (
                    "posterior samples",
                    f"{self.samples:,}" + (f", seed {self.seed}" if self.seed is not None else ""),
                ),
                ("decision threshold", f"{self.threshold:g}"),
            ),
            source=_SOURCE_SIGNED_RANK,
            inputs=self.inputs,
            analysis="compare bayes (signed-rank test)",
        )


def _pair_classes(z, rope):
    """For the observations z sorted, with the prior's pseudo-observation 0 among them: per observation i,
    the numbers of j with z_i + z_j < -2r, <= -2r, < 2r and <= 2r (each a prefix of the sorted z, as a
    rounded sum is monotone in z_j); the sorted z; and the position of the pseudo-observation."""
    z = np.sort(np.append(z, 0.0))
    sums = z[:, None] + z[None, :]
    below = [(sums < limit).sum(axis=1) for limit in (-2 * rope, 2 * rope)]
    at_most = [(sums <= limit).sum(axis=1) for limit in (-2 * rope, 2 * rope)]
    counts = (below[0], at_most[0], below[1], at_most[1])
    return counts, z, int(np.searchsorted(z, 0.0))


def _posterior_samples(z, rope, prior_strength, samples, rng, progress=None):
    """Samples of (θ_left, θ_rope, θ_right) for the observations z (§4; z = -d, as in baycomp, so that
    left = a better).

    θ_left = Σ_ij w_i w_j 1[z_i + z_j < -2r] (½ where = -2r), θ_right likewise above 2r, θ_rope the rest,
    over every pair (i, j) including i = j, of the Dirichlet weights w ~ Dir(s, 1, ..., 1) of the prior's
    pseudo-observation 0 and the observations. With z sorted, Σ_j w_j 1[z_i + z_j < t] is a prefix sum
    of w, so each sample costs O(n): the weights are unnormalised gamma variates G (w = G/ΣG), their
    prefix sums C, and θ_left = ½ Σ_i G_i (C[#{j: z_i + z_j < -2r}] + C[#{j: <= -2r}]) / (ΣG)².
    The samples are drawn in chunks of a few MB, ``progress(done, samples)`` called after each.
    """
    (left_lt, left_le, right_lt, right_le), z, prior_at = _pair_classes(z, rope)
    theta = np.empty((samples, 3))
    chunk = min(samples, max(1, _CHUNK // z.size))
    # buffers reused by every chunk (fresh arrays would cost as much as the arithmetic); each chunk draws
    # `chunk` samples, of which the last chunk keeps what is needed
    G = np.empty((z.size, chunk))
    C = np.zeros((z.size + 1, chunk))
    ends, other = np.empty((z.size, chunk)), np.empty((z.size, chunk))
    for start in range(0, samples, chunk):
        rng.standard_exponential(out=G)  # Gamma(1) for each observation
        G[prior_at] = rng.standard_gamma(prior_strength, chunk)
        for i in range(z.size):  # prefix sums, a row at a time: 3x faster than np.cumsum along axis 0
            np.add(C[i], G[i], out=C[i + 1])
        total = C[-1] ** 2
        # the counts index C within bounds; mode='clip' spares numpy's buffered copy of `out`
        np.add(
            np.take(C, left_lt, axis=0, out=ends, mode="clip"),
            np.take(C, left_le, axis=0, out=other, mode="clip"),
            out=ends,
        )
        left = 0.5 * np.einsum("ij,ij->j", G, ends)
        np.add(
            np.take(C, right_lt, axis=0, out=ends, mode="clip"),
            np.take(C, right_le, axis=0, out=other, mode="clip"),
            out=ends,
        )
        right = total - 0.5 * np.einsum("ij,ij->j", G, ends)
        size = min(chunk, samples - start)
        block = theta[start : start + size]
        block[:, 0], block[:, 2] = left[:size], right[:size]
        block[:, 1] = total[:size] - block[:, 0] - block[:, 2]
        block /= total[:size, None]
        if progress is not None:
            progress(start + size, samples)
    return theta


def _posterior_mean(z, rope, prior_strength):
    """E[θ_left], E[θ_rope], E[θ_right], exactly: Σ_ij E[w_i w_j] times the pair's indicator, with
    E[w_i w_j] = (α_i α_j + [i = j] α_i) / (α_0 (α_0 + 1)) for w ~ Dir(α)."""
    z = np.append(z, 0.0)
    alpha = np.append(np.ones(z.size - 1), prior_strength)
    total = alpha.sum()
    weights = (np.outer(alpha, alpha) + np.diag(alpha)) / (total * (total + 1))
    sums = z[:, None] + z[None, :]
    left = (sums < -2 * rope) + 0.5 * (sums == -2 * rope)
    right = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    means = np.array([(weights * left).sum(), 0.0, (weights * right).sum()])
    means[1] = 1.0 - means[0] - means[2]
    return means


def _largest_shares(theta):
    """Per sample, 1 for the largest θ (1/m each for m tied within _TIE); their mean and its Monte Carlo
    standard error (:func:`monte_carlo_error`)."""
    shares = np.zeros((3, 3), dtype=np.int64)  # [m - 1, k]: samples where θ_k is largest, tied with m - 1
    for first in range(0, theta.shape[0], _CHUNK):  # in chunks: the memory of a few MB
        block = theta[first : first + _CHUNK]
        wins = block >= block.max(axis=1, keepdims=True) - _TIE
        tied = wins.sum(axis=1)
        for m in (1, 2, 3):
            shares[m - 1] += wins[tied == m].sum(axis=0)
    # whole counts, then one division: the same whatever the chunks
    probabilities = (shares / np.array([1.0, 2.0, 3.0])[:, None]).sum(axis=0) / theta.shape[0]
    return probabilities, monte_carlo_error(probabilities, theta.shape[0])


def minimum_samples(threshold) -> int:
    """The fewest posterior samples that can show an outcome's probability above `threshold` t:
    3/(1 - t) (:func:`~benchtrust.compare._monte_carlo.fewest_draws` of 1 - t), 60 at t = 0.95.

    Examples
    --------
    >>> minimum_samples(0.95), minimum_samples(0.99), minimum_samples(0.5)
    (60, 300, 6)
    """
    return fewest_draws(1.0 - threshold)


def _check_samples(samples, threshold) -> int:
    """`samples`, a whole number of at least :func:`minimum_samples`, or an InputError naming both."""
    samples = check_count(samples, "samples")
    fewest = minimum_samples(threshold)
    if samples < fewest:
        raise InputError(
            f"samples: deciding at threshold {threshold:g} needs at least {fewest} posterior samples "
            f"(S >= 3/(1 - threshold): with S samples a probability is known only to about 3/S), got "
            f"{samples}"
        )
    return samples


def signed_rank_test(
    scores: TaskScores,
    a: str,
    b: str,
    *,
    rope: float = 0.0,
    prior_strength: float = 0.5,
    samples: int = 50_000,
    threshold: float = THRESHOLD,
    seed: Seed = None,
    progress: Callable[[int, int], object] | None = None,
    max_memory: float = MAX_MEMORY,
) -> SignedRankResult:
    """The Bayesian signed-rank test of a against b across tasks (Benavoli et al. 2017, §4).

    Each task (data set) gives one observation: d_i, the advantage of a on task i (the mean of a's runs
    minus the mean of b's when higher is better, the reverse when lower is better; the means of
    :func:`~benchtrust._exact.exact_mean`, so the same runs in another order give d_i = 0 exactly). The
    distribution of d gets a Dirichlet process prior of strength s with its pseudo-observation at d = 0
    (in the ROPE); its posterior puts weights w ~ Dirichlet(s, 1, ..., 1) on (0, d_1, ..., d_n). Each
    draw gives

    * θ_a = Σ_ij w_i w_j 1[(d_i + d_j)/2 > r], θ_b = Σ_ij w_i w_j 1[(d_i + d_j)/2 < -r],
      θ_rope = 1 - θ_a - θ_b, over all pairs including i = j (the Walsh averages of the signed-rank test);
      a pair mean exactly at ±r counts ½ on each side of the boundary;
    * and P(a practically better) is the posterior probability that θ_a is the largest of the three
      (likewise P(practically equivalent), P(b practically better)), the fraction of `samples` draws.

    These are baycomp's conventions (``two_on_multiple(x, y, rope=r)`` with ``x`` = a, ``y`` = b for
    higher-is-better scores: p_left = a better; its default prior is 0.5 at 0 and 50,000 samples), learned
    from its documentation and its outputs (``benchmarks/BAYCOMP_FACTS.md``); the answers agree within the
    Monte Carlo error. The estimator is the same (the indicator of the largest θ, averaged over the
    samples), so its standard error sqrt(p(1 - p)/samples) is baycomp's at equal samples (p clipped to
    [1/(samples + 1), samples/(samples + 1)]: an estimate of 0 or 1 has an error of about 1/samples, not
    0; :func:`monte_carlo_error`); each sample
    costs O(n) instead of O(n²) (prefix sums of the sorted weights). The posterior means of θ need no
    sampling: :attr:`SignedRankResult.posterior_mean` is exact.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`.
    a, b : str
        The two methods.
    rope : float, default 0
        r, the half-width of the region of practical equivalence, in the units of the scores (the UCI
        accuracies are in percent: ``rope=1`` is the paper's 0.01).
    prior_strength : float, default 0.5
        s > 0, the prior's weight, a pseudo-observation at d = 0 (baycomp's ``prior``).
    samples : int, default 50,000
        The posterior samples drawn (baycomp's ``nsamples``); at least :func:`minimum_samples` of
        `threshold`, 3/(1 - threshold) (60 at 0.95), else an InputError naming the minimum.
    threshold : float, default 0.95
        The probability in [0.5, 1) an outcome must exceed to be decided.
    seed : int or numpy.random.Generator, optional
        For the samples; None draws fresh entropy.
    progress : callable, optional
        Called as ``progress(done, samples)`` after each chunk of samples (a few MB: the chunks never
        change the result).
    max_memory : int, default 2e9
        The most bytes the posterior samples may take (24 × `samples`: they are kept in the result); more
        is refused with an InputError naming this option, before any draw.

    Returns
    -------
    SignedRankResult

    See Also
    --------
    SignedRankResult : The posterior of the Bayesian signed-rank test.
    plot_simplex : Draw the signed-rank test's posterior in the simplex.
    correlated_t_test : The Bayesian correlated t-test on a cross-validation.
    wilcoxon_datasets : The Wilcoxon signed-rank test over data sets.

    References
    ----------
    .. [1] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §4 (the Bayesian
       signed-rank test).

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> uci = bundled_task_scores("uci")
    >>> result = signed_rank_test(uci, "nbc", "aode", rope=1, seed=1)
    >>> result.probabilities.round(2).tolist(), result.decision
    ([0.0, 0.13, 0.87], 'undecided')
    >>> result.posterior_mean.round(4).tolist()
    [0.0324, 0.3983, 0.5693]
    >>> signed_rank_test(uci, "j48", "j48gr", rope=1, seed=1).decision
    'equivalent'
    """
    scores = check_task_scores(scores)
    i, k = method_pair(scores, a, b)
    rope, threshold = _check_rope(rope), _check_threshold(threshold)
    prior_strength = check_number(prior_strength, "prior_strength")
    if prior_strength <= 0:
        raise InputError(f"prior_strength: expected a weight > 0, got {prior_strength!r}")
    samples = _check_samples(samples, threshold)
    rng = check_seed(seed)
    progress = check_progress(progress)
    check_memory(24 * samples, max_memory, f"samples={samples:,} posterior samples of θ (3 values each)")

    mean_a, mean_b = exact_mean(scores.scores[[i, k]], axis=2)
    differences = mean_a - mean_b if scores.direction == "higher" else mean_b - mean_a
    theta = _posterior_samples(-differences, rope, prior_strength, samples, rng, progress)
    probabilities, errors = _largest_shares(theta)
    return SignedRankResult(
        a=a,
        b=b,
        tasks=scores.tasks,
        mean_a=mean_a,
        mean_b=mean_b,
        differences=differences,
        posterior=theta,
        p_a_better=float(probabilities[0]),
        p_rope=float(probabilities[1]),
        p_b_better=float(probabilities[2]),
        standard_errors=errors,
        posterior_mean=_posterior_mean(-differences, rope, prior_strength),
        rope=rope,
        prior_strength=prior_strength,
        threshold=threshold,
        seed=int(seed) if isinstance(seed, numbers.Integral) else None,
        direction=scores.direction,
        missing=len(scores.missing),
        inputs=scores_files(scores),
    )


# --- The simplex plot of the Bayesian signed-rank test's posterior (Benavoli et al. 2017, §4, Fig. 6-8)

#: Most posterior samples drawn as points (the first ones: the samples are independent).
_POINTS = 10_000
#: The corners of the triangle, in the order (a better, practically equivalent, b better).
_CORNERS = np.array([[0.0, 0.0], [0.5, math.sqrt(3) / 2], [1.0, 0.0]])


def plot_simplex(result: SignedRankResult | HierarchicalResult, ax: Axes | None = None) -> Axes:
    """The posterior samples of θ = (θ_a, θ_rope, θ_b) in the barycentric triangle (Benavoli et al. 2017, §4).

    Each sample is the point whose barycentric coordinates are its three probabilities: the nearer a
    corner, the larger that outcome's θ. The lines from the centre to the middle of each side split the
    triangle into three regions, as in baycomp's and the paper's plots: in each, one θ is the largest, so
    the share of the samples in a region is the probability of its outcome, written at its corner. At most
    the first 10,000 samples are drawn. With no ROPE (r = 0), θ_rope is 0 and every sample lies on the
    bottom side.

    Parameters
    ----------
    result : SignedRankResult or HierarchicalResult
        From :func:`signed_rank_test` (or :func:`hierarchical_test`, as :func:`plot_hierarchical` draws it).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure's.

    Returns
    -------
    matplotlib.axes.Axes

    See Also
    --------
    signed_rank_test : The Bayesian signed-rank test across data sets.
    SignedRankResult : The posterior of the Bayesian signed-rank test.

    References
    ----------
    .. [1] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §4, Fig. 6-8.

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores, signed_rank_test
    >>> uci = bundled_task_scores("uci")
    >>> ax = plot_simplex(signed_rank_test(uci, "nbc", "aode", rope=1, samples=2000, seed=1))
    >>> [text.get_text().splitlines()[0] for text in ax.texts]
    ['nbc better', 'practically equivalent', 'aode better']
    """
    posterior = getattr(result, "posterior", None)
    if not isinstance(posterior, np.ndarray) or posterior.ndim != 2 or posterior.shape[1] != 3:
        raise InputError(
            f"result: expected a SignedRankResult (from signed_rank_test), got {type(result).__name__}"
        )
    ax = axes_for(ax, (5.0, 4.6))
    points = posterior[:_POINTS] @ _CORNERS
    centre = _CORNERS.mean(axis=0)
    ax.fill(*_CORNERS.T, facecolor="none", edgecolor="0.35", linewidth=1.0)
    for k in range(3):
        middle = (_CORNERS[k] + _CORNERS[(k + 1) % 3]) / 2
        ax.plot([centre[0], middle[0]], [centre[1], middle[1]], color="0.35", linewidth=0.8)
    ax.scatter(points[:, 0], points[:, 1], s=2, alpha=0.15, color="C0", linewidths=0, rasterized=True)
    names = (f"{result.a} better", "practically equivalent", f"{result.b} better")
    places = (("right", "top", -0.02), ("center", "bottom", 0.03), ("left", "top", -0.02))
    for k, (name, (horizontal, vertical, shift)) in enumerate(zip(names, places, strict=True)):
        x, y = _CORNERS[k]
        ax.text(
            x,
            y + shift,
            f"{name}\nP = {result.probabilities[k]:.3f}",
            ha=horizontal,
            va=vertical,
            fontsize=9,
        )
    ax.set_aspect("equal")
    ax.set_xlim(-0.35, 1.35)
    ax.set_ylim(-0.15, 1.0)
    ax.set_axis_off()
    ax.set_title(f"Bayesian signed-rank test, {result.a} vs {result.b}: posterior of θ", fontsize=10)
    return ax
