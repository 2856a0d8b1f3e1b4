"""P(A > B), its percentile-bootstrap interval and the decision (paper §4.1, appendix C.4-C.6).

P(A > B) is the proportion of pairs of runs in which A scores better than B (Eq. 9); a tie counts one
half. Its percentile-bootstrap interval (C.5) resamples the N win (1), tie (1/2) and loss (0) indicators
with replacement. The bootstrap mean of N such draws is S / (2N), where S, the sum of the draws counted in
halves, has an exact distribution: with L losses, T ties and W wins among the N pairs, a draw is 0, 1 or
2 halves with probability L/N, T/N and W/N, so S = T* + 2 W*, where T* ~ Bin(N, T/N) is the number of
ties drawn and, given T*, W* ~ Bin(N - T*, W / (W + L)) the number of wins. Hence

    P(S <= s) = sum_t Bin(t; N, T/N) P(W* <= floor((s - t) / 2) | T* = t),

a finite sum of binomial probabilities (without ties it is one binomial: S / 2 ~ Bin(N, p̂)). The interval
ends are read off this distribution exactly, with a binary search over s, instead of from K resamples:
this is the limit of the resampled percentile interval as the number of resamples K grows.

:func:`sample_size` is the number of runs the test needs (Noether's bound, appendix C.3), and
:func:`runs_needed` the same number as a result that explains itself.

:func:`direction_of` reads the direction of the scores every function of this family takes: ``direction``,
or its old spelling ``lower_is_better``, still accepted with a DeprecationWarning.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import os
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._exact import exact_mean
from benchtrust._interval import Interval
from benchtrust._io import (
    MAX_MEMORY,
    Direction,
    InputError,
    Seed,
    check_direction,
    check_memory,
    check_probability,
    check_seed,
)
from benchtrust._result import Description, Result
from benchtrust._words import ALPHA, BETA, GAMMA, interval_text, level_text, paragraph
from benchtrust.compare._bootstrap import check_progress, check_resamples
from benchtrust.compare._pipelines import _text
from benchtrust.compare._pipelines._runs import read_runs
from benchtrust.compare._pipelines._text import COMPARE_QUESTION, SOURCE

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

#: Relative slack on α/2 when an interval end is read off the exact bootstrap distribution: a tail
#: probability within this fraction of α/2 counts as reaching it, so rounding can only widen the interval.
TAIL_TOLERANCE = 1e-9

#: Bootstrap indices drawn at once by the resampling version (rows of N indices).
_INDICES_PER_CHUNK = 2_000_000

#: Most pairs for which the whole pmf of S is computed by convolution (O(N²) work); beyond, binary search
#: on the tails of the binomial mixture (O(N log N)).
_CONVOLUTION_LIMIT = 2_000


def _runs(values: ArrayLike, name: str, *, minimum: int = 2) -> np.ndarray:
    """``values`` as a 1-D float array of at least ``minimum`` finite scores, or an InputError naming it."""
    if isinstance(values, (str, bytes)):
        raise InputError(f"{name}: expected a sequence of scores (one per run), got {values!r}")
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"{name}: expected numeric scores (one per run), got {values!r}") from None
    if array.ndim != 1:
        raise InputError(f"{name}: expected a 1-D sequence of scores (one per run), got shape {array.shape}")
    if array.size < minimum:
        raise InputError(
            f"{name}: expected at least {minimum} run{'s' if minimum > 1 else ''}, got {array.size}"
        )
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        raise InputError(
            f"{name}: run {bad[0] + 1} (1-based) is {array[bad[0]]}; expected finite scores, "
            f"{bad.size} run(s) are not"
        )
    return array


def direction_of(direction: Direction, lower_is_better: bool | None = None) -> Direction:
    """The direction of the scores, ``"higher"`` or ``"lower"``, from the keyword ``direction`` or its old
    spelling ``lower_is_better`` (True: ``"lower"``), which warns that it is deprecated.

    Every function of this family takes ``direction="higher"`` and still accepts ``lower_is_better=``;
    giving ``lower_is_better=False`` with ``direction="lower"`` contradicts itself and is refused.

    Examples
    --------
    >>> direction_of("lower")
    'lower'
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     direction_of("higher", lower_is_better=True), caught[0].category.__name__
    ('lower', 'DeprecationWarning')
    """
    direction = check_direction(direction)
    if lower_is_better is None:
        return direction
    warnings.warn(
        "lower_is_better is deprecated: pass direction='lower' (lower scores are better) or "
        "direction='higher'",
        DeprecationWarning,
        stacklevel=3,
    )
    if not isinstance(lower_is_better, (bool, np.bool_)):
        raise InputError(f"lower_is_better: expected True or False, got {lower_is_better!r}")
    if direction == "lower" and not lower_is_better:
        raise InputError("lower_is_better: False contradicts direction='lower'; pass direction alone")
    return "lower" if lower_is_better else direction


def _check_gamma(gamma: float) -> float:
    number = check_probability(gamma, "gamma")
    if number <= 0.5:
        raise InputError(f"gamma: expected a value strictly between 0.5 and 1, got {gamma!r}")
    return number


def _mixture_weights(n: int, ties: int) -> tuple[np.ndarray, np.ndarray]:
    """log P(T* = t), t = 0..n, for T* ~ Bin(n, ties / n); only the terms that are not zero."""
    from scipy.special import gammaln, xlog1py, xlogy

    q = ties / n
    t = np.arange(n + 1)
    log_w = gammaln(n + 1.0) - gammaln(t + 1.0) - gammaln(n - t + 1.0) + xlogy(t, q) + xlog1py(n - t, -q)
    w = np.exp(log_w)
    keep = w > 0
    return t[keep], w[keep]


def _sum_tails(s, n, wins, ties, *, mixture=None):
    """P(S <= s) and P(S >= s) for S, the sum in halves of n bootstrap draws of the indicators (exact).

    ``s`` is an integer array (half-units, 0..2n); ``wins`` and ``ties`` are the counts among the n pairs;
    ``mixture`` is ``_mixture_weights(n, ties)`` when already computed.
    """
    from scipy.special import bdtr, bdtrc

    s = np.asarray(s, dtype=np.int64)[..., None]
    t, w = _mixture_weights(n, ties) if mixture is None else mixture
    m = n - t  # draws that are a win or a loss, given t ties drawn
    decided = n - ties
    r = wins / decided if decided else 0.0  # P(win | not a tie)
    # P(W* <= j | m) with j = floor((s - t) / 2), clipped to 0 below 0 and to 1 from m on.
    j = (s - t) // 2
    below = np.where(j < 0, 0.0, np.where(j >= m, 1.0, bdtr(np.clip(j, 0, m), m, r)))
    # P(W* >= k | m) = P(W* > k - 1) with k = ceil((s - t) / 2), clipped to 1 below 1 and to 0 above m.
    k = -((t - s) // 2)
    above = np.where(k <= 0, 1.0, np.where(k > m, 0.0, bdtrc(np.clip(k - 1, 0, m), m, r)))
    return below @ w, above @ w


def _sum_pmf(n: int, wins: int, ties: int) -> np.ndarray:
    """P(S = s), s = 0..2n: the coefficients of (L/n + T/n x + W/n x²)^n, by squaring (sums of products
    of non-negative numbers, so exact up to rounding)."""
    draw = np.array([n - wins - ties, ties, wins], dtype=float) / n
    pmf = np.ones(1)
    power = n
    while power:
        if power & 1:
            pmf = np.convolve(pmf, draw)
        power >>= 1
        if power:
            draw = np.convolve(draw, draw)
    return pmf


def _exact_interval(n: int, wins: int, ties: int, alpha: float) -> tuple[float, float]:
    """The percentile-bootstrap interval of the mean indicator, from its exact bootstrap distribution.

    Lower end: the smallest mean x with P(mean <= x) >= α/2; upper end: the largest x with
    P(mean >= x) >= α/2 (each α/2 lowered by the relative :data:`TAIL_TOLERANCE`). Both tails are
    computed from the whole pmf of S (:func:`_sum_pmf`) up to N = :data:`_CONVOLUTION_LIMIT` pairs, and by
    binary search over s on :func:`_sum_tails` beyond.
    """
    target = alpha / 2 * (1 - TAIL_TOLERANCE)
    if n <= _CONVOLUTION_LIMIT:
        pmf = _sum_pmf(n, wins, ties)
        below, above = np.cumsum(pmf), np.cumsum(pmf[::-1])[::-1]
        # below is nondecreasing and reaches 1 at s = 2n; above is nonincreasing from 1 at s = 0.
        low = int(np.argmax(below >= target))
        high = 2 * n - int(np.argmax(above[::-1] >= target))
        return low / (2 * n), high / (2 * n)
    mixture = _mixture_weights(n, ties)
    # Smallest s with P(S <= s) >= target: P(S <= 2n) = 1.
    lo, hi = 0, 2 * n
    while lo < hi:
        mid = (lo + hi) // 2
        if _sum_tails(mid, n, wins, ties, mixture=mixture)[0] >= target:
            hi = mid
        else:
            lo = mid + 1
    low = lo
    # Largest s with P(S >= s) >= target: P(S >= 0) = 1.
    lo, hi = 0, 2 * n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _sum_tails(mid, n, wins, ties, mixture=mixture)[1] >= target:
            lo = mid
        else:
            hi = mid - 1
    return low / (2 * n), lo / (2 * n)


def _resampled_interval(
    indicators: np.ndarray,
    alpha: float,
    resamples: int,
    rng: np.random.Generator,
    progress: Callable[[int, int], object] | None = None,
) -> tuple[float, float]:
    """The percentile-bootstrap interval from ``resamples`` resamples, as scipy.stats.bootstrap makes it.

    Each resample draws N indices with ``rng.integers(0, N, size=(resamples, N))`` (drawn in row chunks:
    the same stream), and the ends are ``numpy.quantile(means, [α/2, 1 - α/2])`` with numpy's default
    'linear' method, which scipy.stats.bootstrap(method="percentile") uses through scipy.stats.quantile.
    ``progress(done, resamples)`` is called after each chunk.
    """
    n = indicators.size
    rows = max(1, _INDICES_PER_CHUNK // n)
    means = np.empty(resamples)
    for first in range(0, resamples, rows):
        size = min(rows, resamples - first)
        means[first : first + size] = indicators[rng.integers(0, n, size=(size, n))].mean(axis=1)
        if progress is not None:
            progress(first + size, resamples)
    low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


@dataclasses.dataclass(frozen=True, eq=False)
class OutperformResult(Result):
    """P(A > B) with its percentile-bootstrap interval and the decision of paper C.6.

    Attributes
    ----------
    p_a_beats_b : float
        P(A > B), the proportion of pairs in which A scores better than B, ties counting one half (Eq. 9).
    ci : benchtrust.Interval
        (CI_min, CI_max), the percentile-bootstrap interval at level 1 - α (C.5).
    significant : bool
        CI_min > 0.5: the result is not explained by noise alone (H0: P(A > B) = 0.5).
    meaningful : bool
        CI_max > γ: A may outperform B often enough to matter (H1: P(A > B) = γ).
    n_pairs : int
        N, the number of pairs compared.
    runs_needed : int
        The runs of each pipeline the test needs for γ, α and β (Noether's sample size, C.3): with fewer
        pairs, no conclusion is drawn (:attr:`enough_runs`).
    wins, ties, losses : int
        Pairs in which A is better than, equal to and worse than B.
    gamma : float
        γ, the threshold of a meaningful improvement.
    alpha : float
        α; the interval's level is 1 - α.
    beta : float
        β, the rate of false negatives :attr:`runs_needed` is computed for (power 1 - β).
    paired : bool
        Whether the runs were paired as given (a[i] with b[i]) rather than paired at random.
    direction : {"higher", "lower"}
        Which scores are better: "lower" for an error rate or a loss (:attr:`lower_is_better`, the old
        spelling, is ``direction == "lower"``).
    method : str
        "exact" or "resampled, B resamples".
    conclusion : str
        The decision in plain words.
    names : tuple of str
        What A and B are called ("A" and "B" unless named).
    runs_a, runs_b : int
        The runs given of A and of B (unpaired, the longer one's extra runs are left out of the pairs).
    mean_a, mean_b : float
        The mean score of all the runs given of A and of B.
    pair_by : str or None
        The column of a runs table the runs were paired by (C.2), when read from one by :func:`outperform`.
    source : str or None
        The runs file, when read from one.
    seed : int or None
        The seed given as a number (it names the random pairing); None for a Generator or no seed.
    inputs : tuple of str
        The runs file, as named, when read from one.

    See Also
    --------
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.
    outperform : P(A > B) of two algorithms of a runs table.
    sample_size : The runs the P(A > B) test needs.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.1, Eq. (9); appendix C.3 (runs needed), C.5 (interval), C.6 (decision).
    """

    p_a_beats_b: float
    ci: Interval
    significant: bool
    meaningful: bool
    n_pairs: int
    runs_needed: int
    wins: int
    ties: int
    losses: int
    gamma: float
    alpha: float
    beta: float
    paired: bool
    direction: Direction
    method: str
    conclusion: str
    names: tuple[str, str] = ("A", "B")
    runs_a: int = 0
    runs_b: int = 0
    mean_a: float = float("nan")
    mean_b: float = float("nan")
    pair_by: str | None = None
    source: str | None = None
    seed: int | None = None

    def __repr__(self) -> str:
        low, high = self.ci
        level = f"{100 * (1 - self.alpha):g}%"
        return (
            f"OutperformResult(p_a_beats_b={self.p_a_beats_b:.4f}, ci{level}=({low:.4f}, {high:.4f}), "
            f"significant={self.significant}, meaningful={self.meaningful}, gamma={self.gamma:g}, "
            f"n_pairs={self.n_pairs}, runs_needed={self.runs_needed}, wins={self.wins}, ties={self.ties}, "
            f"losses={self.losses}, "
            f"paired={self.paired}, direction={self.direction!r}, method={self.method!r})"
        )

    @property
    def verdict(self) -> str:
        """The decision in plain words (paper C.6): :attr:`conclusion`."""
        return self.conclusion

    @property
    def lower_is_better(self) -> bool:
        """Whether a lower score is better: ``direction == "lower"`` (the old spelling, for old code)."""
        return self.direction == "lower"

    @property
    def enough_runs(self) -> bool:
        """Whether the pairs reach :attr:`runs_needed` (C.3); with fewer, the verdict is "too few runs"."""
        return self.n_pairs >= self.runs_needed

    @property
    def a_is_better(self) -> bool:
        """The decision of C.6 on enough runs (C.3): A is better than B (significant and meaningful)."""
        return self.enough_runs and self.significant and self.meaningful

    @property
    def b_may_be_better(self) -> bool:
        """CI_max < 0.5: B wins most pairs, so comparing B with A may find B better (it is not tested)."""
        return bool(self.ci[1] < 0.5)

    def describe(self) -> Description:
        """The summary ``benchtrust compare outperform`` prints (paper §4.1, C.4-C.6), its section (the
        decision, then what A and B are) and its data."""
        low, high = self.ci
        rows = (
            ("A", self.names[0], f"{self.runs_a} runs"),
            ("B", self.names[1], f"{self.runs_b} runs"),
            ("wins, ties, losses of A", f"{self.wins}, {self.ties}, {self.losses}", f"{self.n_pairs} pairs"),
            ("P(A > B)", f"{self.p_a_beats_b:.4f}", ""),
            (
                f"{level_text(self.alpha)} interval",
                interval_text(self.ci),
                f"percentile bootstrap, {self.method}",
            ),
            ("significant", "yes" if self.significant else "no", f"lower end {low:.4f} vs 0.5"),
            ("meaningful", "yes" if self.meaningful else "no", f"upper end {high:.4f} vs {GAMMA}"),
            (
                "runs needed (C.3)",
                f"{self.runs_needed}",
                f"{self.n_pairs} pairs, " + ("enough" if self.enough_runs else "too few to conclude"),
            ),
        )
        if self.paired and self.pair_by is not None:
            pairing = f"paired by column {self.pair_by!r} (C.2)"
        elif self.paired:
            pairing = "paired (run i of A with run i of B, C.2)"
        else:
            seed = "" if self.seed is None else f" with seed {self.seed}"
            pairing = f"paired at random{seed} (C.4)"
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_text.outperform_text(self),
            data={
                "p_a_beats_b": self.p_a_beats_b,
                "ci": [low, high],
                "significant": self.significant,
                "meaningful": self.meaningful,
                "n_pairs": self.n_pairs,
                "runs_needed": self.runs_needed,
                "enough_runs": self.enough_runs,
                "wins": self.wins,
                "ties": self.ties,
                "losses": self.losses,
                "gamma": self.gamma,
                "alpha": self.alpha,
                "beta": self.beta,
                "paired": self.paired,
                "direction": self.direction,
                "method": self.method,
                "conclusion": self.conclusion,
                "a": self.names[0],
                "b": self.names[1],
                "runs_a": self.runs_a,
                "runs_b": self.runs_b,
                "pair_by": self.pair_by,
            },
            columns=("", "value", "detail"),
            rows=rows,
            assumptions=(
                (f"{GAMMA}, the smallest meaningful P(A > B)", f"{self.gamma:g}"),
                (ALPHA, f"{self.alpha:g}"),
                (f"{BETA}, of the runs needed", f"{self.beta:g}"),
                ("pairing", pairing),
                ("better scores", self.direction),
            ),
            source=f"{SOURCE}, §4.1, appendix C.3-C.6",
            inputs=self.inputs,
            analysis="compare outperform",
        )


def _names(names: tuple[str, str] | list[str]) -> tuple[str, str]:
    """`names` as a pair of non-empty strings (what A and B are called), or an InputError."""
    if isinstance(names, str) or not isinstance(names, (tuple, list)) or len(names) != 2:
        raise InputError(f"names: expected two names, for A and for B, got {names!r}")
    if not all(isinstance(name, str) and name.strip() for name in names):
        raise InputError(f"names: expected two non-empty strings, got {names!r}")
    return (names[0].strip(), names[1].strip())


def probability_of_outperforming(
    a: ArrayLike,
    b: ArrayLike,
    *,
    paired: bool = True,
    gamma: float = 0.75,
    alpha: float = 0.05,
    beta: float = 0.05,
    direction: Direction = "higher",
    resamples: int | None = None,
    seed: Seed = None,
    names: tuple[str, str] | list[str] = ("A", "B"),
    progress: Callable[[int, int], object] | None = None,
    max_memory: float = MAX_MEMORY,
    lower_is_better: bool | None = None,
) -> OutperformResult:
    """P(A > B) over runs of two pipelines, its percentile-bootstrap interval and the paper's decision.

    Implements the statistical test of Bouthillier et al. (2021), §4.1 and appendix C.4-C.6:

    * P(A > B) = (1/N) Σ_i I{a_i > b_i} (Eq. 9), over N pairs of runs; a tie a_i = b_i (exact equality)
      counts one half, so that P(A > B) + P(B > A) = 1.
    * Its (1 - α) percentile-bootstrap interval [CI_min, CI_max] (C.5): the N indicators (1 for a win,
      1/2 for a tie, 0 for a loss) are resampled with replacement and the α/2 and 1 - α/2 percentiles of
      the resampled means are the ends. By default the interval is computed **exactly** from the
      bootstrap distribution of the mean (see Notes), the limit of the resampled interval when the number
      of resamples grows; ``resamples=K`` resamples K times instead, as scipy.stats.bootstrap does.
    * The decision (C.6): *significant* when CI_min > 0.5, *meaningful* when CI_max > γ; conclude that A
      is better than B only when both hold, and only from at least as many pairs as C.3 asks for γ, α
      and β (:func:`~benchtrust.compare.sample_size`, 29 at the paper's 0.75, 0.05 and 0.05). With fewer,
      the verdict is "too few runs to conclude", the estimate and its interval still given: the
      bootstrap of two winning pairs is [1, 1], which says nothing about the next split.

    Parameters
    ----------
    a, b : array_like of float
        Scores of the runs of pipelines A and B (at least two runs each), e.g. accuracies on N data splits.
    paired : bool, default True
        True: the runs are paired as given, a[i] with b[i] (same data split, seeds, ...; paper C.2), and
        ``a`` and ``b`` must have the same length. False: the runs are paired at random (C.4): both are
        shuffled with ``seed`` and the first min(len(a), len(b)) of each are paired; the extra runs of the
        longer one, chosen at random, are left out. P(A > B) then depends on the seed.
    gamma : float, default 0.75
        γ in (0.5, 1), the smallest P(A > B) that is meaningful (the paper recommends 0.75, §4.2).
    alpha : float, default 0.05
        α in (0, 1); the interval's level is 1 - α.
    beta : float, default 0.05
        β in (0, 1), the rate of false negatives the runs must keep (C.3; the paper recommends 0.05): with
        α and γ it sets the pairs needed to conclude.
    direction : {"higher", "lower"}, default "higher"
        Which scores are better: "lower" for an error rate or a loss, where A beats B when a_i < b_i.
    resamples : int, optional
        K, the number of bootstrap resamples. None (default): the exact interval.
        At least 1 + 2/α (41 at α = 0.05: :func:`~benchtrust.compare._bootstrap.minimum_resamples`), else
        an InputError naming the minimum.
    seed : int or numpy.random.Generator, optional
        Randomness for the random pairing (``paired=False``, drawn first) and the resamples.
    names : (str, str), default ("A", "B")
        What A and B are called in the result's text and HTML.
    progress : callable, optional
        Called as ``progress(done, resamples)`` after each chunk of resamples (a few MB: the chunks never
        change the result).
    max_memory : int, default 2e9
        The most bytes the resampled means may take (16 × `resamples`: all are kept for the quantiles,
        and copied once); more is refused with an InputError naming this option, before any draw.
    lower_is_better : bool, optional
        Deprecated: the old spelling of `direction` (True is ``direction="lower"``); it still works, with
        a DeprecationWarning.

    Returns
    -------
    OutperformResult

    See Also
    --------
    outperform : P(A > B) of two algorithms of a runs table.
    OutperformResult : P(A > B), its interval and the decision.
    sample_size : The runs the P(A > B) test needs.
    pairwise : P(A > B) of every pair of pipelines, Bonferroni-adjusted.
    error_rates : The detection rates of the conclusion criteria, simulated.
    improvement_probabilities : The probability of improvement of every method over every other.

    Notes
    -----
    With W wins, T ties and L losses among the N pairs, a bootstrap draw is 0, 1 or 2 halves with
    probability L/N, T/N, W/N, and the resampled mean is S / (2N) where S, the sum of N draws in halves, is
    a scaled multinomial: S = T* + 2 W* with T* ~ Bin(N, T/N) and W* | T* ~ Bin(N - T*, W / (W + L)).
    Without ties S / 2 ~ Bin(N, p̂). P(S <= s) is a finite sum of binomial probabilities (scipy.special's
    ``bdtr``), evaluated exactly.

    Percentile convention. The exact interval is [x_lo, x_hi] with x_lo the smallest mean such that
    P(mean <= x_lo) >= α/2 and x_hi the largest such that P(mean >= x_hi) >= α/2 (α/2 lowered by a
    relative 1e-9, so rounding can only widen it). The resampled interval (``resamples=K``) is
    ``numpy.quantile(means, [α/2, 1 - α/2])`` with numpy's default 'linear' method over the K resampled
    means, drawn as ``rng.integers(0, N, size=(K, N))``: exactly what ``scipy.stats.bootstrap((indicators,),
    np.mean, n_resamples=K, method="percentile", rng=rng)`` computes, resample for resample. As K grows
    it converges to the exact interval, unless a tail probability of the exact distribution equals α/2
    exactly (then the resampled end wanders between two neighbouring atoms and the exact one is the
    outer of them).

    The paper recommends the percentile bootstrap for P(A > B) below 0.95 (C.5); when every pair is a win
    the interval collapses to [1, 1].

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.1 ('Probability of outperforming'), Eq. (9); appendix C.2-C.6 (pairing, sample
       size, P(A > B), its percentile-bootstrap interval, the decision).

    Examples
    --------
    >>> a = [0.81, 0.83, 0.80, 0.85, 0.82, 0.84, 0.79, 0.86, 0.83, 0.82]
    >>> b = [0.80, 0.81, 0.81, 0.82, 0.80, 0.84, 0.78, 0.83, 0.80, 0.81]
    >>> r = probability_of_outperforming(a, b)
    >>> r.p_a_beats_b, r.ci
    (0.85, Interval(low=0.65, high=1.0))
    >>> r.significant, r.meaningful, r.runs_needed, r.a_is_better
    (True, True, 29, False)
    >>> print(r.conclusion)  # doctest: +NORMALIZE_WHITESPACE
    Too few runs to conclude: 29 of each pipeline are needed (paper C.3, for gamma = 0.75, alpha = 0.05
    and beta = 0.05), the runs give 10 pairs. On them A outperforms B with probability 0.85 (95% CI [0.65,
    1.00]), too uncertain to decide on. Next step: more runs; compare sample-size (sample_size in Python)
    gives how many for other gamma, alpha or beta.

    Three times as many pairs conclude:

    >>> print(probability_of_outperforming(a * 3, b * 3).conclusion)  # doctest: +NORMALIZE_WHITESPACE
    A outperforms B with probability 0.85 (95% CI [0.73, 0.95]): significant (lower end 0.73 > 0.5) and
    meaningful (upper end 0.95 > gamma = 0.75): A is better than B in the conditions of these runs.

    Error rates, where lower is better, and the resampling version:

    >>> errors_a = [1 - x for x in a]
    >>> errors_b = [1 - x for x in b]
    >>> probability_of_outperforming(errors_a, errors_b, direction="lower").p_a_beats_b
    0.85
    >>> low, high = probability_of_outperforming(a, b, resamples=10_000, seed=0).ci
    >>> round(low, 2), high
    (0.65, 1.0)
    """
    x = _runs(a, "a")
    y = _runs(b, "b")
    if not isinstance(paired, (bool, np.bool_)):
        raise InputError(f"paired: expected True or False, got {paired!r}")
    direction = direction_of(direction, lower_is_better)
    gamma = _check_gamma(gamma)
    alpha = check_probability(alpha, "alpha")
    beta = check_probability(beta, "beta")
    if resamples is not None:
        resamples = check_resamples(resamples, alpha, zero=False)
        check_memory(16 * resamples, max_memory, f"resamples={resamples:,} resampled means")
    rng = check_seed(seed)
    progress = check_progress(progress)
    names = _names(names)
    runs_a, runs_b = int(x.size), int(y.size)
    mean_a, mean_b = float(exact_mean(x)), float(exact_mean(y))
    if paired:
        if x.size != y.size:
            raise InputError(
                f"b: paired runs need as many runs as a (a has {x.size}, b has {y.size}); "
                "pass paired=False for unpaired runs"
            )
    else:
        n = min(x.size, y.size)
        x = x[rng.permutation(x.size)[:n]]
        y = y[rng.permutation(y.size)[:n]]
    if direction == "lower":
        x, y = -x, -y
    n = int(x.size)
    wins = int(np.count_nonzero(x > y))
    ties = int(np.count_nonzero(x == y))
    losses = n - wins - ties
    p = (wins + 0.5 * ties) / n
    if resamples is None:
        low, high = _exact_interval(n, wins, ties, alpha)
        method = "exact"
    else:
        indicators = (x > y) + 0.5 * (x == y)
        low, high = _resampled_interval(indicators, alpha, resamples, rng, progress)
        method = f"resampled, {resamples} resamples"
    result = OutperformResult(
        p_a_beats_b=float(p),
        ci=Interval(float(low), float(high)),
        significant=bool(low > 0.5),
        meaningful=bool(high > gamma),
        n_pairs=n,
        runs_needed=sample_size(gamma, alpha=alpha, beta=beta),
        wins=wins,
        ties=ties,
        losses=losses,
        gamma=gamma,
        alpha=alpha,
        beta=beta,
        paired=bool(paired),
        direction=direction,
        method=method,
        conclusion="",
        names=names,
        seed=int(seed) if isinstance(seed, numbers.Integral) else None,
        runs_a=runs_a,
        runs_b=runs_b,
        mean_a=mean_a,
        mean_b=mean_b,
    )
    return dataclasses.replace(result, conclusion=_text.outperform_conclusion(result))


def outperform(
    runs: str | os.PathLike[str] | pd.DataFrame,
    *,
    a: str,
    b: str,
    pair_by: str | None = None,
    algorithm_column: str = "algorithm",
    score_column: str = "score",
    gamma: float = 0.75,
    alpha: float = 0.05,
    beta: float = 0.05,
    direction: Direction = "higher",
    resamples: int | None = None,
    seed: Seed = None,
    progress: Callable[[int, int], object] | None = None,
    max_memory: float = MAX_MEMORY,
    lower_is_better: bool | None = None,
) -> OutperformResult:
    """P(A > B) of two algorithms of a runs table, its interval and the decision (paper §4.1, C.2-C.6).

    Reads the runs of `a` and `b` from a long-format table, one run per row, pairs them by the values
    of column `pair_by` (C.2) or, without it, at random (C.4), and calls
    :func:`probability_of_outperforming` on them. The result names A and B, the pairing and the file (its
    ``source`` and ``inputs``).

    Parameters
    ----------
    runs : str, os.PathLike or pandas.DataFrame
        A CSV/TSV file (comma, tab or semicolon; ``#`` lines skipped) or a DataFrame, with a column naming
        each run's algorithm, a column of scores and, to pair, a column identifying each run's split and
        seeds; other columns are ignored.
    a, b : str
        Algorithms A and B, as named in column `algorithm_column`.
    pair_by : str, optional
        The column pairing the runs: each of its values must appear once for A and once for B. None: the
        runs are paired at random with `seed` and the longer list's extra runs left out.
    algorithm_column, score_column : str, default "algorithm", "score"
        The columns naming each run's algorithm and holding its score (matched in any case).
    gamma, alpha, beta, direction, resamples, seed, progress, max_memory, lower_is_better
        As for :func:`probability_of_outperforming` (`lower_is_better` is deprecated: use `direction`).

    Returns
    -------
    OutperformResult

    Raises
    ------
    benchtrust.InputError
        Naming the file (or ``<table>``), the line (or row) and the column at fault: a missing column, an
        algorithm not in the table, fewer than two runs, a pairing value missing for A or B, a score that
        is not a number.

    See Also
    --------
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.
    OutperformResult : P(A > B), its interval and the decision.
    sample_size : The runs the P(A > B) test needs.
    pairwise : P(A > B) of every pair of pipelines, Bonferroni-adjusted.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.1, Eq. (9); appendix C.2 (pairing), C.3-C.6.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"model": ["lr", "rf"] * 10, "seed": [k // 2 for k in range(20)],
    ...                       "accuracy": [0.91, 0.90, 0.93, 0.91, 0.90, 0.91, 0.94, 0.92, 0.92, 0.90,
    ...                                    0.95, 0.93, 0.91, 0.91, 0.93, 0.92, 0.92, 0.90, 0.94, 0.92]})
    >>> r = outperform(table, a="lr", b="rf", pair_by="seed", algorithm_column="model",
    ...                score_column="accuracy")
    >>> r.names, r.n_pairs, r.p_a_beats_b, r.significant, r.meaningful
    (('lr', 'rf'), 10, 0.85, True, True)
    >>> r.enough_runs, r.runs_needed, r.a_is_better  # C.3: 10 pairs are too few to conclude
    (False, 29, False)
    """
    direction = direction_of(direction, lower_is_better)
    read = read_runs(
        runs, a=a, b=b, pair_by=pair_by, algorithm_column=algorithm_column, score_column=score_column
    )
    result = probability_of_outperforming(
        read.a,
        read.b,
        paired=read.paired,
        gamma=gamma,
        alpha=alpha,
        beta=beta,
        direction=direction,
        resamples=resamples,
        seed=seed,
        names=read.names,
        progress=progress,
        max_memory=max_memory,
    )
    inputs = () if read.source is None else (read.source,)
    return dataclasses.replace(result, pair_by=read.pair_by, source=read.source, inputs=inputs)


# --- How many runs a comparison needs: Noether's sample size for P(A > B) (paper appendix C.3)

#: Slack under an integer before rounding the bound up, so that a bound that is an integer up to
#: rounding is not pushed to the next one.
_ROUNDING = 1e-9


def sample_size(gamma: float = 0.75, *, alpha: float = 0.05, beta: float = 0.05) -> int:
    """The smallest number of runs N to detect P(A > B) >= γ reliably (paper C.3, Noether 1987).

        N >= ((Φ⁻¹(1 - α) - Φ⁻¹(β)) / (√6 (1/2 - γ)))²

    where Φ⁻¹ is the standard normal quantile function; the answer is that bound rounded up. The test of
    P(A > B) is equivalent to a Mann-Whitney test, for which Noether's formula gives the sample size.

    Parameters
    ----------
    gamma : float, default 0.75
        γ in (0.5, 1), the probability of outperforming to detect (the paper recommends 0.75).
    alpha : float, default 0.05
        α in (0, 1), the rate of false positives (one-sided).
    beta : float, default 0.05
        β in (0, 1), the rate of false negatives: the power is 1 - β (the paper recommends 0.05; the
        usual range is 0.05 to 0.2).

    Returns
    -------
    int
        N, the number of runs of each pipeline (pairs of runs when paired).

    See Also
    --------
    runs_needed : The same number as a result that explains itself (what ``compare sample-size`` prints).
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.
    outperform : P(A > B) of two algorithms of a runs table.
    OutperformResult : P(A > B), its interval and the decision.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. Appendix C.3, Fig. C.1.
    .. [2] Gottfried E. Noether, "Sample size determination for some common nonparametric tests", Journal of
       the American Statistical Association 82(398), 645-647, 1987. doi:10.1080/01621459.1987.10478478.

    Examples
    --------
    The paper's recommendation, γ = 0.75 and α = β = 0.05, needs 29 runs (C.3, Figure C.1):

    >>> sample_size(0.75)
    29
    >>> sample_size(0.6, beta=0.2)
    104
    """
    from scipy.special import ndtri

    gamma = check_probability(gamma, "gamma")
    if gamma <= 0.5:
        raise InputError(f"gamma: expected a value strictly between 0.5 and 1, got {gamma!r}")
    alpha = check_probability(alpha, "alpha")
    beta = check_probability(beta, "beta")
    # Φ⁻¹(1 - α) as -Φ⁻¹(α): exact for every α, where 1 - α rounds to 1 for α below 1e-16
    bound = ((-ndtri(alpha) - ndtri(beta)) / (math.sqrt(6) * (0.5 - gamma))) ** 2
    return max(1, math.ceil(float(bound) - _ROUNDING))


@dataclasses.dataclass(frozen=True, eq=False)
class SampleSizeResult(Result):
    """The runs the test of P(A > B) needs to detect P(A > B) >= γ (paper C.3, Noether 1987).

    Attributes
    ----------
    runs : int
        N, the runs of each pipeline (pairs of runs when paired), as :func:`sample_size` gives it.
    gamma : float
        γ, the probability of outperforming to detect.
    alpha : float
        α, the rate of false positives (one-sided).
    beta : float
        β, the rate of false negatives: the power is 1 - β.

    See Also
    --------
    runs_needed : The runs the P(A > B) test needs, as a result.
    sample_size : The runs the P(A > B) test needs, as a number.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. Appendix C.3, Fig. C.1.
    .. [2] Gottfried E. Noether, "Sample size determination for some common nonparametric tests", Journal of
       the American Statistical Association 82(398), 645-647, 1987. doi:10.1080/01621459.1987.10478478.
    """

    runs: int
    gamma: float
    alpha: float
    beta: float

    @property
    def verdict(self) -> str:
        """The runs needed, and for what, in plain words (paper C.3)."""
        return _text.sample_size_verdict(self)

    def describe(self) -> Description:
        """The sentence ``benchtrust compare sample-size`` prints, its section and its data."""
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=paragraph(self.verdict),
            data={"runs": self.runs, "gamma": self.gamma, "alpha": self.alpha, "beta": self.beta},
            columns=("quantity", "value"),
            rows=(("runs of each pipeline", f"{self.runs}"),),
            assumptions=((GAMMA, f"{self.gamma:g}"), (ALPHA, f"{self.alpha:g}"), (BETA, f"{self.beta:g}")),
            source=f"{SOURCE}, appendix C.3 (Noether 1987)",
            inputs=self.inputs,
            analysis="compare sample-size",
        )


def runs_needed(gamma: float = 0.75, *, alpha: float = 0.05, beta: float = 0.05) -> SampleSizeResult:
    """The runs of each pipeline the test of P(A > B) needs, as a result that explains itself (paper C.3).

    The number is :func:`sample_size`'s, Noether's (1987) sample size for the Mann-Whitney test, to which
    the test of P(A > B) is equivalent; the result also says what it detects, with which errors, in words
    (``str(result)`` is what ``benchtrust compare sample-size`` prints).

    Parameters
    ----------
    gamma : float, default 0.75
        γ in (0.5, 1), the probability of outperforming to detect (the paper recommends 0.75).
    alpha : float, default 0.05
        α in (0, 1), the rate of false positives (one-sided).
    beta : float, default 0.05
        β in (0, 1), the rate of false negatives: the power is 1 - β.

    Returns
    -------
    SampleSizeResult

    See Also
    --------
    sample_size : The same number, as an int.
    SampleSizeResult : The runs the P(A > B) test needs, with what they detect.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. Appendix C.3, Fig. C.1.
    .. [2] Gottfried E. Noether, "Sample size determination for some common nonparametric tests", Journal of
       the American Statistical Association 82(398), 645-647, 1987. doi:10.1080/01621459.1987.10478478.

    Examples
    --------
    >>> result = runs_needed(0.6, beta=0.2)
    >>> result.runs
    104
    >>> print(result)
    104 runs of each pipeline (pairs of runs, when paired) detect P(A > B) >= γ = 0.6 with α = 0.05 and
    β = 0.2 (power 80%): Noether's sample size for the Mann-Whitney test (Bouthillier et al. 2021 C.3).
    """
    runs = sample_size(gamma, alpha=alpha, beta=beta)
    return SampleSizeResult(runs=runs, gamma=float(gamma), alpha=float(alpha), beta=float(beta))
