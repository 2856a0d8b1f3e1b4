"""The Friedman test corrected for ties, and the pairwise tests scikit-posthocs users run after it.

* :func:`friedman_statistics`: Friedman's χ²_F divided by the correction for ties (as
  :func:`scipy.stats.friedmanchisquare`, R's ``friedman.test`` and autorank compute it), its p-value, and
  Iman and Davenport's F_F computed from it (Conover 1999, §5.8: T1 and T2);
* the raw two-sided p-values of every pair for the Siegel-Castellan (normal, on average ranks),
  Conover-Friedman (Student t, on rank sums) and Wilcoxon signed-rank (on the scores) tests;
* :func:`adjust_p_values`: the corrections for multiple comparisons, named as statsmodels'
  ``multipletests`` names them (scikit-posthocs' ``p_adjust``), Hommel's and the two-stage FDR included.
"""

from __future__ import annotations

import numpy as np

from benchtrust._distributions import (
    chi2_sf,
    f_sf,
    norm_cdf,
    rankdata,
    signed_rank_exact,
    signed_rank_normal,
    signed_rank_uses_normal,
    t_cdf,
)

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
    "hommel": "Hommel",
    "fdr_tsbh": "two-stage Benjamini-Hochberg FDR",
    "fdr_tsbky": "two-stage Benjamini-Krieger-Yekutieli FDR",
    "none": "unadjusted",
}


def _within_ranks(values):
    """Ranks within each row (data set) of an (N, k) array, ties sharing their average rank, and the
    correction for ties 1 - Σ(t³ - t)/(N k (k² - 1)), t the size of each group of ties."""
    values = np.asarray(values, dtype=float)
    n, k = values.shape
    ranks = rankdata(values, axis=1)
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
    ranks, correction = _within_ranks(values)
    n, k = ranks.shape
    if correction <= 0.0:  # every data set ties every method
        return 0.0, 1.0, 0.0, 1.0
    spread = float(np.square(ranks.mean(axis=0) - (k + 1) / 2.0).sum())
    chi2 = 12.0 * n / (k * (k + 1)) * spread / correction
    if chi2 < n * (k - 1) * (1.0 - 1e-12):
        f_f = (n - 1) * chi2 / (n * (k - 1) - chi2)
        p_f = float(f_sf(f_f, k - 1, (k - 1) * (n - 1)))
    else:  # every data set ranks the methods alike: χ²_F at its largest, N(k - 1)
        chi2, f_f, p_f = float(n * (k - 1)), np.inf, 0.0
    return chi2, float(chi2_sf(chi2, k - 1)), f_f, p_f


def conover_pairs(values):
    """Conover's t of every pair of methods from an (N, k) array of scores, and its two-sided p-value
    (Student t with (N - 1)(k - 1) degrees of freedom): t_ij = (S_i - S_j) / sqrt(2(N A - Σ S²)/((N - 1)
    (k - 1))), S_j the rank sum of method j, A = Σ r_ij² (Conover 1999, §5.8, Eq. (5)). Shape (k, k)
    each. When every data set ranks the methods alike (N A = Σ S²), t is infinite (p = 0) for two methods
    with different rank sums and 0 (p = 1) for two tied everywhere. NaN on the diagonal."""
    ranks, _ = _within_ranks(values)
    n, k = ranks.shape
    sums = ranks.sum(axis=0)
    spread = 2.0 * (n * np.square(ranks).sum() - np.square(sums).sum()) / ((n - 1) * (k - 1))
    gap = sums[:, None] - sums[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(gap == 0, 0.0, gap / np.sqrt(spread))
    np.fill_diagonal(t, np.nan)
    return t, 2.0 * t_cdf(-np.abs(t), (n - 1) * (k - 1))


def _signed_rank_normal(d):
    """The two-sided Wilcoxon signed-rank test of each column of d by the normal approximation, zeros
    dropped, the variance corrected for ties, no continuity correction (:func:`signed_rank_normal`):
    (min(W+, W-), p)."""
    plus, m, z = signed_rank_normal(d)
    statistic = np.minimum(plus, m * (m + 1) / 2.0 - plus)
    return statistic, np.where(m > 0, 2.0 * norm_cdf(-np.abs(z)), 1.0)


def _signed_rank_exact(d):
    """The two-sided Wilcoxon signed-rank test of a vector of differences by its exact null distribution,
    zeros dropped, ties included (:func:`signed_rank_exact`): p = min(1, 2 min(P(W+ <= w), P(W+ >= w)));
    (min(W+, W-), p)."""
    plus, total, low, high = signed_rank_exact(d)
    return min(plus, total - plus), min(1.0, 2.0 * min(low, high))


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
    for c in np.flatnonzero(~signed_rank_uses_normal(d)):  # few data sets: the exact distribution
        statistic[c], p[c] = _signed_rank_exact(d[:, c])
    statistics, p_values = np.full((k, k), np.nan), np.full((k, k), np.nan)
    statistics[i, j] = statistics[j, i] = statistic
    p_values[i, j] = p_values[j, i] = p
    return statistics, p_values


def adjust_p_values(p_values, method, alpha=0.05):
    """P-values adjusted for m = len(p_values) comparisons by `method` (a key of :data:`P_ADJUSTS`).

    With p_(1) <= ... <= p_(m) sorted and each adjusted value capped at 1:
    ``bonferroni`` m p; ``sidak`` 1 - (1 - p)^m; ``holm`` max_{j <= i} (m - j + 1) p_(j); ``holm-sidak``
    max_{j <= i} 1 - (1 - p_(j))^(m - j + 1); ``simes-hochberg`` min_{j >= i} (m - j + 1) p_(j); ``fdr_bh``
    min_{j >= i} m p_(j)/j; ``fdr_by`` the same times Σ_{l <= m} 1/l; ``none`` p. As statsmodels'
    ``multipletests`` computes them (to 2.2e-16 on the UCI data and on seeded random p-values,
    benchmarks/AUTORANK_FACTS.md §7).

    ``hommel``: Hommel's closed procedure of Simes tests (Hommel 1988): the adjusted p-value of H_i is the
    largest Simes p-value min_j |I| p_(j:I)/j over the sets I of hypotheses that hold H_i, that is
    max_s min(s p_(min(i, m-s+1)), min_{2 <= j <= s} s p_(m-s+j)/j) (O(m²) time). Its decisions
    control the family-wise error rate wherever Simes' test holds (independent or positively dependent
    p-values) and reject at least what Hochberg's do.

    ``fdr_tsbky`` and ``fdr_tsbh``: the two-stage linear step-up procedure of Benjamini, Krieger and
    Yekutieli (2006, Definition 6), which estimates the number m̂0 of true hypotheses: stage 1 runs
    Benjamini-Hochberg at q' = α/(1 + α) (``fdr_tsbky``) or at α itself (``fdr_tsbh``) and rejects r;
    m̂0 = m - r, or m when r is 0 or m; stage 2 runs Benjamini-Hochberg at q' m/m̂0. The adjusted p-value is
    the ``fdr_bh`` one times (α/q') m̂0/m, so that it is <= α exactly when stage 2 rejects. **These two
    depend on α**: compare them with the `alpha` given here and no other (a p-value of 0.03 adjusted at
    α = 0.05 does not say the hypothesis is rejected at 0.03). The division by 1 + α is what BKY's proof
    of FDR control at α (independent p-values) needs; ``fdr_tsbh``, without it, is statsmodels' "bh"
    variant of the same two stages. scikit-posthocs calls ``multipletests`` at its default α = 0.05.

    Parameters
    ----------
    p_values : array_like
        The m raw p-values.
    method : str
        A key of :data:`P_ADJUSTS`.
    alpha : float, default 0.05
        The level at which ``fdr_tsbh`` and ``fdr_tsbky`` are to be read; the other methods ignore it.

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
    .. [5] G. Hommel, "A stagewise rejective multiple test procedure based on a modified Bonferroni test",
       Biometrika 75(2), 383-386, 1988. https://doi.org/10.1093/biomet/75.2.383.
    .. [6] Yoav Benjamini, Abba M. Krieger and Daniel Yekutieli, "Adaptive linear step-up procedures that
       control the false discovery rate", Biometrika 93(3), 491-507, 2006.
       https://doi.org/10.1093/biomet/93.3.491. Definition 6 (the two-stage procedure).

    Examples
    --------
    >>> adjust_p_values([0.01, 0.04, 0.03], "holm").tolist()
    [0.03, 0.06, 0.06]
    >>> adjust_p_values([0.01, 0.04, 0.03], "fdr_bh").round(4).tolist()
    [0.03, 0.04, 0.04]
    >>> adjust_p_values([0.01, 0.04, 0.03], "hommel").round(4).tolist()
    [0.03, 0.04, 0.04]

    Stage 1 rejects two of three, so m̂0 = 1; at α = 0.01 it rejects none:

    >>> adjust_p_values([0.01, 0.02, 0.9], "fdr_tsbky").round(4).tolist()
    [0.0105, 0.0105, 0.315]
    >>> adjust_p_values([0.01, 0.02, 0.9], "fdr_tsbky", alpha=0.01).round(4).tolist()
    [0.0303, 0.0303, 0.909]
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
    elif method == "hommel":
        adjusted = _hommel(ordered)
    elif method in ("fdr_tsbh", "fdr_tsbky"):
        adjusted = _two_stage(ordered, alpha, method == "fdr_tsbky")
    else:
        factor = {
            "simes-hochberg": left,
            "fdr_bh": m / np.arange(1, m + 1),
            "fdr_by": m / np.arange(1, m + 1) * (1.0 / np.arange(1, m + 1)).sum(),
        }[method]
        adjusted = _step_up(factor * ordered)
    out = np.empty(m)
    out[order] = adjusted
    return out


#: Cells of the (set size, hypothesis) blocks :func:`_hommel` works on at once (8 MB of floats each).
_CELLS = 2**20


def _step_up(scaled):
    """min(1, min_{j >= i} scaled_j): the step-up adjusted p-values from the sorted p-values scaled."""
    return np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])


def _hommel(ordered):
    """Hommel's adjusted p-values of the sorted p_(1) <= ... <= p_(m): the largest Simes p-value
    min_j |I| p_(j:I)/j over the sets I holding the hypothesis (closed testing). Simes' p-value grows with
    every p in I, so the largest over the sets of s hypotheses holding p_(r) is that of p_(r) with the
    s - 1 largest others: min(s p_(min(r, m-s+1)), T_s), T_s = min_{2 <= j <= s} s p_(m-s+j)/j. Vectorised
    over (s, r) in blocks of s of about :data:`_CELLS` cells: O(m²) time, bounded memory."""
    m = ordered.size
    r = np.arange(1, m + 1)
    adjusted = ordered.copy()  # s = 1
    rows = max(1, _CELLS // m)
    for first in range(2, m + 1, rows):
        s = np.arange(first, min(m, first + rows - 1) + 1)[:, None]  # sizes of the sets
        j = r[None, :]
        scaled = s * ordered[np.clip(m - s + j - 1, 0, m - 1)] / j
        rest = np.where((j >= 2) & (j <= s), scaled, np.inf).min(axis=1, keepdims=True)
        own = s * ordered[np.minimum(r[None, :], m - s + 1) - 1]  # [s, r]: s p_(min(r, m-s+1))
        adjusted = np.maximum(adjusted, np.minimum(own, rest).max(axis=0))
    return adjusted


def _two_stage(ordered, alpha, krieger):
    """The two-stage linear step-up of Benjamini, Krieger and Yekutieli (2006, Definition 6) as adjusted
    p-values of the sorted p-values, valid at `alpha` only: stage 1, Benjamini-Hochberg at
    q' = α/(1 + α) (`krieger`) or at α, rejects r; m̂0 = m - r (m when r is 0 or m); stage 2,
    Benjamini-Hochberg at q' m/m̂0, which rejects p_(i) when its BH-adjusted p-value × (α/q') m̂0/m <= α."""
    m = ordered.size
    bh = _step_up(m / np.arange(1, m + 1) * ordered)
    first = alpha / (1.0 + alpha) if krieger else alpha
    rejected = int(np.count_nonzero(bh <= first))
    null = m - rejected if 0 < rejected < m else m
    return np.minimum(1.0, bh * (alpha / first) * null / m)
