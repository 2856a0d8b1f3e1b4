"""The Friedman test corrected for ties, and the pairwise tests scikit-posthocs users run after it.

* :func:`friedman_statistics`: Friedman's χ²_F divided by the correction for ties (as
  :func:`scipy.stats.friedmanchisquare`, R's ``friedman.test`` and autorank compute it), its p-value, and
  Iman and Davenport's F_F computed from it (Conover 1999, §5.8: T1 and T2);
* the raw two-sided p-values of every pair for the Siegel-Castellan (normal, on average ranks),
  Conover-Friedman (Student t, on rank sums) and Wilcoxon signed-rank (on the scores) tests;
* :func:`adjust_p_values`: the corrections for multiple comparisons, named as statsmodels'
  ``multipletests`` names them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["P_ADJUSTS", "adjust_p_values", "conover_pairs", "friedman_statistics", "wilcoxon_pairs"]

#: The corrections for multiple comparisons :func:`adjust_p_values` applies (statsmodels' names), in words.
P_ADJUSTS = {
    "holm": "Holm",
    "bonferroni": "Bonferroni",
    "sidak": "Šidák",
    "holm-sidak": "Holm-Šidák",
    "simes-hochberg": "Hochberg",
    "fdr_bh": "Benjamini-Hochberg FDR",
    "fdr_by": "Benjamini-Yekutieli FDR",
    "none": "unadjusted",
}


def _within_ranks(values):
    """Ranks within each row (data set) of an (N, k) array, ties sharing their average rank, and the
    correction for ties 1 - Σ(t³ - t)/(N k (k² - 1)), t the size of each group of ties."""
    from scipy import stats

    values = np.asarray(values, dtype=float)
    n, k = values.shape
    ranks = stats.rankdata(values, axis=1)
    ordered = np.sort(values, axis=1)
    # the size t of each group of ties, from where the sorted values change
    edges = np.concatenate([np.ones((n, 1), bool), ordered[:, 1:] != ordered[:, :-1]], axis=1)
    starts = np.flatnonzero(edges.ravel())
    sizes = np.diff(np.append(starts, n * k)).astype(float)
    correction = 1.0 - float((sizes**3 - sizes).sum()) / (n * k * (k * k - 1.0))
    return ranks, correction


def friedman_statistics(values):
    """The Friedman test corrected for ties and Iman and Davenport's F_F, from an (N data sets, k
    methods) array of scores: ``(chi2, p_chi2, f_f, p_f)``.

    With r_ij the rank of method j on data set i (ties share the average of the ranks they span),
    R_j = Σ_i r_ij / N and C = 1 - Σ(t³ - t)/(N k (k² - 1)) (t: the size of each group of ties),
    χ²_F = 12N/(k(k + 1)) (Σ_j R_j² - k(k + 1)²/4) / C, χ² with k - 1 degrees of freedom (equal to
    Conover's T1 and to :func:`scipy.stats.friedmanchisquare`), and F_F = (N - 1) χ²_F / (N(k - 1) - χ²_F),
    F with k - 1 and (k - 1)(N - 1) degrees of freedom (Conover's T2; Iman and Davenport 1980). F_F is
    infinite (p = 0) when every data set ranks the methods alike. When every data set ties all methods
    (C = 0) nothing differs: χ²_F = F_F = 0 and both p-values are 1 (scipy returns NaN). The direction of
    the scores does not matter.

    References
    ----------
    .. [1] W. J. Conover, Practical Nonparametric Statistics, 3rd ed., Wiley, 1999. §5.8, Eq. (1)-(3).
    .. [2] Ronald L. Iman and James M. Davenport, "Approximations of the critical region of the Friedman
       statistic", Communications in Statistics - Theory and Methods 9(6), 571-595, 1980.
       https://doi.org/10.1080/03610928008827904.

    Examples
    --------
    >>> chi2, p, f, p_f = friedman_statistics([[1, 2, 3], [1, 3, 2], [2, 2, 3], [1, 2, 3]])
    >>> round(chi2, 4), round(p, 4), round(f, 4)
    (5.7333, 0.0569, 7.5882)
    """
    from scipy import special

    ranks, correction = _within_ranks(values)
    n, k = ranks.shape
    if correction <= 0.0:  # every data set ties every method
        return 0.0, 1.0, 0.0, 1.0
    spread = float(np.square(ranks.mean(axis=0) - (k + 1) / 2.0).sum())
    chi2 = 12.0 * n / (k * (k + 1)) * spread / correction
    if chi2 < n * (k - 1) * (1.0 - 1e-12):
        f_f = (n - 1) * chi2 / (n * (k - 1) - chi2)
        p_f = float(special.fdtrc(k - 1, (k - 1) * (n - 1), f_f))
    else:  # every data set ranks the methods alike: χ²_F at its largest, N(k - 1)
        chi2, f_f, p_f = float(n * (k - 1)), np.inf, 0.0
    return chi2, float(special.chdtrc(k - 1, chi2)), f_f, p_f


def conover_pairs(values):
    """Conover's t of every pair of methods from an (N, k) array of scores, and its two-sided p-value
    (Student t with (N - 1)(k - 1) degrees of freedom): t_ij = (S_i - S_j) / sqrt(2(N A - Σ S²)/((N - 1)
    (k - 1))), S_j the rank sum of method j, A = Σ r_ij² (Conover 1999, §5.8, Eq. (5)). Shape (k, k)
    each. When every data set ranks the methods alike (N A = Σ S²), t is infinite (p = 0) for two methods
    with different rank sums and 0 (p = 1) for two tied everywhere. NaN on the diagonal."""
    from scipy import special

    ranks, _ = _within_ranks(values)
    n, k = ranks.shape
    sums = ranks.sum(axis=0)
    spread = 2.0 * (n * np.square(ranks).sum() - np.square(sums).sum()) / ((n - 1) * (k - 1))
    gap = sums[:, None] - sums[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(gap == 0, 0.0, gap / np.sqrt(spread))
    np.fill_diagonal(t, np.nan)
    return t, 2.0 * special.stdtr((n - 1) * (k - 1), -np.abs(t))


#: scipy's ``method="auto"`` of :func:`scipy.stats.wilcoxon` is the normal approximation beyond these
#: numbers of differences, zeros counted: 50 without ties or zeros, 13 with (its documentation, Notes).
_EXACT_UP_TO, _PERMUTED_UP_TO = 50, 13


def _signed_rank_normal(d):
    """The two-sided Wilcoxon signed-rank test of each column of d by the normal approximation, zeros
    dropped, the variance corrected for ties, no continuity correction: (min(W+, W-), p)."""
    from scipy import special, stats

    nonzero = d != 0
    m = nonzero.sum(axis=0).astype(float)
    ranks = stats.rankdata(np.where(nonzero, np.abs(d), np.nan), axis=0, nan_policy="omit")
    plus = np.where(d > 0, ranks, 0.0).sum(axis=0)
    # Σ(t³ - t) over the groups of tied |d| of each column, from where the sorted |d| change (NaN != NaN:
    # each dropped zero is a group of one, adding nothing)
    ordered = np.sort(np.where(nonzero, np.abs(d), np.nan), axis=0).T.ravel()
    column = np.repeat(np.arange(d.shape[1]), d.shape[0])
    starts = np.flatnonzero(np.r_[True, (ordered[1:] != ordered[:-1]) | (column[1:] != column[:-1])])
    sizes = np.diff(np.r_[starts, ordered.size]).astype(float)
    ties = np.bincount(column[starts], weights=sizes**3 - sizes, minlength=d.shape[1])
    variance = m * (m + 1) * (2 * m + 1) / 24.0 - ties / 48.0
    statistic = np.minimum(plus, m * (m + 1) / 2.0 - plus)
    with np.errstate(divide="ignore", invalid="ignore"):  # m = 0: every difference zero
        z = (statistic - m * (m + 1) / 4.0) / np.sqrt(variance)
    return statistic, np.where(m > 0, 2.0 * special.ndtr(-np.abs(z)), 1.0)


def _signed_rank_exact(d):
    """The two-sided Wilcoxon signed-rank test of a vector of differences by its exact null distribution,
    zeros dropped: every one of the 2^m signs of the m ranks equally likely (Wilcoxon 1945), the ranks
    tied ones share included (their doubles are integers, so the distribution of 2W+ is a polynomial
    product). p = min(1, 2 min(P(W+ <= w), P(W+ >= w))); (min(W+, W-), p)."""
    from scipy import stats

    d = d[d != 0]
    ranks = stats.rankdata(np.abs(d))
    doubled = np.rint(2.0 * ranks).astype(int)
    counts = np.zeros(doubled.sum() + 1)
    counts[0] = 1.0
    for step in doubled:  # multiply by (1 + x^step): at most 50 steps, exact in floats up to 2^53
        counts[step:] = counts[step:] + counts[:-step].copy()
    plus = ranks[d > 0].sum()
    at = int(np.rint(2.0 * plus))
    tail = min(counts[: at + 1].sum(), counts[at:].sum()) / counts.sum()
    return min(plus, ranks.sum() - plus), min(1.0, 2.0 * tail)


def wilcoxon_pairs(values):
    """The Wilcoxon signed-rank test of every pair of methods from an (N, k) array of scores, as
    :func:`scipy.stats.wilcoxon` computes it with scikit-posthocs' ``posthoc_wilcoxon`` defaults (zero
    differences dropped, ``zero_method="wilcox"``; no continuity correction; two-sided; ``method="auto"``).
    Returns its statistic min(W+, W-) and p-value, shape (k, k) each, NaN on the diagonal.

    scipy's ``"auto"`` takes the normal approximation (variance corrected for ties) beyond 50 data sets, or
    beyond 13 when some differences tie or are zero; those pairs are computed here at once
    from the same formula. The others get the exact null distribution of the signed ranks, ties included,
    as scipy's exact p-value and its exhaustive permutations do (in a millisecond where scipy's
    permutations of 13 tied differences take seconds). Two methods equal on every data set get p = 1
    (scipy: 1 for 13 data sets or fewer, NaN beyond).

    References
    ----------
    .. [1] Frank Wilcoxon, "Individual comparisons by ranking methods", Biometrics Bulletin 1(6), 80-83,
       1945. https://doi.org/10.2307/3001968.
    """
    values = np.asarray(values, dtype=float)
    k = values.shape[1]
    i, j = np.triu_indices(k, 1)
    d = values[:, i] - values[:, j]
    statistic, p = _signed_rank_normal(d)
    ordered = np.sort(np.abs(d), axis=0)
    tied = (ordered[0] == 0) | (np.diff(ordered, axis=0) == 0).any(axis=0)
    n = len(d)
    normal = np.full(len(i), n > _EXACT_UP_TO) | (tied & (n > _PERMUTED_UP_TO))
    for c in np.flatnonzero(~normal):  # few data sets: the exact distribution
        statistic[c], p[c] = _signed_rank_exact(d[:, c])
    statistics, p_values = np.full((k, k), np.nan), np.full((k, k), np.nan)
    statistics[i, j] = statistics[j, i] = statistic
    p_values[i, j] = p_values[j, i] = p
    return statistics, p_values


def adjust_p_values(p_values, method):
    """P-values adjusted for m = len(p_values) comparisons by `method` (a key of :data:`P_ADJUSTS`).

    With p_(1) <= ... <= p_(m) sorted and each adjusted value capped at 1:
    ``bonferroni`` m p; ``sidak`` 1 - (1 - p)^m; ``holm`` max_{j <= i} (m - j + 1) p_(j); ``holm-sidak``
    max_{j <= i} 1 - (1 - p_(j))^(m - j + 1); ``simes-hochberg`` min_{j >= i} (m - j + 1) p_(j); ``fdr_bh``
    min_{j >= i} m p_(j)/j; ``fdr_by`` the same times Σ_{l <= m} 1/l; ``none`` p. As statsmodels'
    ``multipletests`` computes them.

    References
    ----------
    .. [1] Sture Holm, "A simple sequentially rejective multiple test procedure", Scandinavian Journal of
       Statistics 6(2), 65-70, 1979. https://www.jstor.org/stable/4615733.
    .. [2] Yosef Hochberg, "A sharper Bonferroni procedure for multiple tests of significance", Biometrika
       75(4), 800-802, 1988. https://doi.org/10.1093/biomet/75.4.800.
    .. [3] Yoav Benjamini and Yosef Hochberg, "Controlling the false discovery rate", Journal of the Royal
       Statistical Society B 57(1), 289-300, 1995. https://doi.org/10.1111/j.2517-6161.1995.tb02031.x.
    .. [4] Yoav Benjamini and Daniel Yekutieli, "The control of the false discovery rate in multiple testing
       under dependency", Annals of Statistics 29(4), 1165-1188, 2001. https://doi.org/10.1214/aos/1013699998.

    Examples
    --------
    >>> adjust_p_values([0.01, 0.04, 0.03], "holm").tolist()
    [0.03, 0.06, 0.06]
    >>> adjust_p_values([0.01, 0.04, 0.03], "fdr_bh").round(4).tolist()
    [0.03, 0.04, 0.04]
    """
    p = np.asarray(p_values, dtype=float)
    m = p.size
    if method == "none" or m == 0:
        return p.copy()
    if method == "bonferroni":
        return np.minimum(1.0, m * p)
    if method == "sidak":
        return -np.expm1(m * np.log1p(-p))
    order = np.argsort(p, kind="stable")
    ordered = p[order]
    left = np.arange(m, 0, -1)  # m - j + 1 for j = 1..m
    if method == "holm":
        adjusted = np.maximum.accumulate(np.minimum(1.0, left * ordered))
    elif method == "holm-sidak":
        adjusted = np.maximum.accumulate(-np.expm1(left * np.log1p(-ordered)))
    else:
        factor = {
            "simes-hochberg": left,
            "fdr_bh": m / np.arange(1, m + 1),
            "fdr_by": m / np.arange(1, m + 1) * (1.0 / np.arange(1, m + 1)).sum(),
        }[method]
        adjusted = np.minimum(1.0, np.minimum.accumulate((factor * ordered)[::-1])[::-1])
    out = np.empty(m)
    out[order] = adjusted
    return out
