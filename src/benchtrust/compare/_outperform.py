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
"""

from __future__ import annotations

import dataclasses

import numpy as np

from benchtrust._io import InputError, check_count, check_probability, check_seed

#: Relative slack on α/2 when an interval end is read off the exact bootstrap distribution: a tail
#: probability within this fraction of α/2 counts as reaching it, so rounding can only widen the interval.
TAIL_TOLERANCE = 1e-9

#: Bootstrap indices drawn at once by the resampling version (rows of N indices).
_INDICES_PER_CHUNK = 2_000_000

#: Most pairs for which the whole pmf of S is computed by convolution (O(N²) work); beyond, binary search
#: on the tails of the binomial mixture (O(N log N)).
_CONVOLUTION_LIMIT = 2_000


def _runs(values, name, *, minimum=2):
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


def _check_gamma(gamma):
    number = check_probability(gamma, "gamma")
    if number <= 0.5:
        raise InputError(f"gamma: expected a value strictly between 0.5 and 1, got {gamma!r}")
    return number


def _mixture_weights(n, ties):
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


def _sum_pmf(n, wins, ties):
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


def _exact_interval(n, wins, ties, alpha):
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


def _resampled_interval(indicators, alpha, resamples, rng):
    """The percentile-bootstrap interval from ``resamples`` resamples, as scipy.stats.bootstrap makes it.

    Each resample draws N indices with ``rng.integers(0, N, size=(resamples, N))`` (drawn in row chunks:
    the same stream), and the ends are ``numpy.quantile(means, [α/2, 1 - α/2])`` with numpy's default
    'linear' method, which scipy.stats.bootstrap(method="percentile") uses through scipy.stats.quantile.
    """
    n = indicators.size
    rows = max(1, _INDICES_PER_CHUNK // n)
    means = np.empty(resamples)
    for first in range(0, resamples, rows):
        size = min(rows, resamples - first)
        means[first : first + size] = indicators[rng.integers(0, n, size=(size, n))].mean(axis=1)
    low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


@dataclasses.dataclass(frozen=True)
class OutperformResult:
    """P(A > B) with its percentile-bootstrap interval and the decision of paper C.6.

    Attributes
    ----------
    p_a_beats_b : float
        P(A > B), the proportion of pairs in which A scores better than B, ties counting one half (Eq. 9).
    ci : tuple of float
        (CI_min, CI_max), the percentile-bootstrap interval at level 1 - α (C.5).
    significant : bool
        CI_min > 0.5: the result is not explained by noise alone (H0: P(A > B) = 0.5).
    meaningful : bool
        CI_max > γ: A may outperform B often enough to matter (H1: P(A > B) = γ).
    n_pairs : int
        N, the number of pairs compared.
    wins, ties, losses : int
        Pairs in which A is better than, equal to and worse than B.
    gamma : float
        γ, the threshold of a meaningful improvement.
    alpha : float
        α; the interval's level is 1 - α.
    paired : bool
        Whether the runs were paired as given (a[i] with b[i]) rather than paired at random.
    lower_is_better : bool
        Whether a lower score is better (an error rate, a loss).
    method : str
        "exact" or "resampled, B resamples".
    conclusion : str
        The decision in plain words.
    """

    p_a_beats_b: float
    ci: tuple[float, float]
    significant: bool
    meaningful: bool
    n_pairs: int
    wins: int
    ties: int
    losses: int
    gamma: float
    alpha: float
    paired: bool
    lower_is_better: bool
    method: str
    conclusion: str

    def __repr__(self):
        low, high = self.ci
        level = f"{100 * (1 - self.alpha):g}%"
        return (
            f"OutperformResult(p_a_beats_b={self.p_a_beats_b:.4f}, ci{level}=({low:.4f}, {high:.4f}), "
            f"significant={self.significant}, meaningful={self.meaningful}, gamma={self.gamma:g}, "
            f"n_pairs={self.n_pairs}, wins={self.wins}, ties={self.ties}, losses={self.losses}, "
            f"paired={self.paired}, lower_is_better={self.lower_is_better}, method={self.method!r})"
        )

    def to_dict(self):
        """The result as plain JSON types."""
        return {
            "p_a_beats_b": self.p_a_beats_b,
            "ci": [self.ci[0], self.ci[1]],
            "significant": self.significant,
            "meaningful": self.meaningful,
            "n_pairs": self.n_pairs,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "gamma": self.gamma,
            "alpha": self.alpha,
            "paired": self.paired,
            "lower_is_better": self.lower_is_better,
            "method": self.method,
            "conclusion": self.conclusion,
        }


def _conclusion(p, low, high, *, significant, meaningful, gamma, alpha):
    level = f"{100 * (1 - alpha):g}%"
    head = f"A outperforms B with probability {p:.2f} ({level} CI [{low:.2f}, {high:.2f}])"
    if significant and meaningful:
        return (
            f"{head}: significant (lower end {low:.2f} > 0.5) and meaningful (upper end {high:.2f} > "
            f"gamma = {gamma:g}): A is better than B in the conditions of these runs."
        )
    if significant:
        return (
            f"{head}: significant (lower end {low:.2f} > 0.5) but not meaningful (upper end {high:.2f} "
            f"<= gamma = {gamma:g}): A outperforms B too rarely to matter; do not conclude A is better."
        )
    tail = (
        " B may be the better one: compare B with A to test it."
        if high < 0.5
        else " More runs narrow the interval."
    )
    return (
        f"{head}: not significant (lower end {low:.2f} <= 0.5): the difference could be noise alone; "
        f"draw no conclusion.{tail}"
    )


def probability_of_outperforming(
    a,
    b,
    *,
    paired=True,
    gamma=0.75,
    alpha=0.05,
    lower_is_better=False,
    resamples=None,
    seed=None,
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
      is better than B only when both hold.

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
    lower_is_better : bool, default False
        True for scores where lower is better (error rate, loss): A beats B when a_i < b_i.
    resamples : int, optional
        K, the number of bootstrap resamples. None (default): the exact interval.
    seed : int or numpy.random.Generator, optional
        Randomness for the random pairing (``paired=False``, drawn first) and the resamples.

    Returns
    -------
    OutperformResult

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

    Examples
    --------
    >>> a = [0.81, 0.83, 0.80, 0.85, 0.82, 0.84, 0.79, 0.86, 0.83, 0.82]
    >>> b = [0.80, 0.81, 0.81, 0.82, 0.80, 0.84, 0.78, 0.83, 0.80, 0.81]
    >>> r = probability_of_outperforming(a, b)
    >>> r.p_a_beats_b, r.ci
    (0.85, (0.65, 1.0))
    >>> r.significant, r.meaningful
    (True, True)
    >>> print(r.conclusion)  # doctest: +NORMALIZE_WHITESPACE
    A outperforms B with probability 0.85 (95% CI [0.65, 1.00]): significant (lower end 0.65 > 0.5) and
    meaningful (upper end 1.00 > gamma = 0.75): A is better than B in the conditions of these runs.

    Error rates, where lower is better, and the resampling version:

    >>> errors_a = [1 - x for x in a]
    >>> errors_b = [1 - x for x in b]
    >>> probability_of_outperforming(errors_a, errors_b, lower_is_better=True).p_a_beats_b
    0.85
    >>> low, high = probability_of_outperforming(a, b, resamples=10_000, seed=0).ci
    >>> round(low, 2), high
    (0.65, 1.0)
    """
    x = _runs(a, "a")
    y = _runs(b, "b")
    if not isinstance(paired, (bool, np.bool_)):
        raise InputError(f"paired: expected True or False, got {paired!r}")
    if not isinstance(lower_is_better, (bool, np.bool_)):
        raise InputError(f"lower_is_better: expected True or False, got {lower_is_better!r}")
    gamma = _check_gamma(gamma)
    alpha = check_probability(alpha, "alpha")
    if resamples is not None:
        resamples = check_count(resamples, "resamples")
    rng = check_seed(seed)
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
    if lower_is_better:
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
        low, high = _resampled_interval(indicators, alpha, resamples, rng)
        method = f"resampled, {resamples} resamples"
    significant = bool(low > 0.5)
    meaningful = bool(high > gamma)
    conclusion = _conclusion(
        p, low, high, significant=significant, meaningful=meaningful, gamma=gamma, alpha=alpha
    )
    return OutperformResult(
        p_a_beats_b=float(p),
        ci=(float(low), float(high)),
        significant=significant,
        meaningful=meaningful,
        n_pairs=n,
        wins=wins,
        ties=ties,
        losses=losses,
        gamma=gamma,
        alpha=alpha,
        paired=bool(paired),
        lower_is_better=bool(lower_is_better),
        method=method,
        conclusion=conclusion,
    )
