"""The per-task statistics of the effect sizes: Vargha and Delaney's A with its Brunner-Munzel interval,
and Hedges' g with its noncentral t interval (see :mod:`._effect` for the definitions).
"""

from __future__ import annotations

import numpy as np

from benchtrust._exact import exact_mean, exact_sum, exact_variance, power_of_two_scale
from benchtrust.compare._tasks._pair_bootstrap import (
    run_codes,
    run_positions,
)

#: Halvings of the bracket of the noncentrality parameter (its width shrinks below 1e-15 of its start).
_BISECTIONS = 60


def brunner_munzel(x, y, alpha):
    """A = P(x > y) + ½ P(x = y) on each task and its Brunner-Munzel interval (Brunner & Munzel 2000).

    Parameters
    ----------
    x, y : numpy.ndarray
        (tasks, runs), higher is better, NaN for missing runs.
    alpha : float

    Returns
    -------
    a12, low, high : numpy.ndarray
        (tasks,). The interval is A ± t_{f, 1-α/2} sqrt(v), clipped to [0, 1], with v the Brunner-Munzel
        variance Σ_i S_i² / (n_i n_j²) of the placements (a run's count of the other method's runs below
        it, ties one half; S_i² their variance, ddof 1) and f its Satterthwaite degrees of freedom. NaN
        where a method has fewer than 2 runs or v = 0 (complete separation, or every run equal).
    """
    from scipy.stats import t as student

    nx = (~np.isnan(x)).sum(axis=1)
    ny = (~np.isnan(y)).sum(axis=1)
    codes = run_codes(np.stack([x, y]))  # runs sorted within each task, missing runs last
    px = _placements(codes[0], codes[1], nx)
    py = _placements(codes[1], codes[0], ny)
    a12 = np.nansum(px, axis=1) / (nx * ny)
    with np.errstate(invalid="ignore", divide="ignore"):
        sx = exact_variance(px, axis=1) / (nx * ny**2)
        sy = exact_variance(py, axis=1) / (ny * nx**2)
        df = (sx + sy) ** 2 / (sx**2 / (nx - 1) + sy**2 / (ny - 1))
        half = student.ppf(1 - alpha / 2, df) * np.sqrt(sx + sy)
    bad = (nx < 2) | (ny < 2) | ~(sx + sy > 0)
    low = np.where(bad, np.nan, np.clip(a12 - half, 0.0, 1.0))
    high = np.where(bad, np.nan, np.clip(a12 + half, 0.0, 1.0))
    return a12, low, high


def _placements(x, y, runs):
    """For each run of x (codes of :func:`run_codes`): the runs of y below it plus half those equal to it;
    NaN past the `runs` of x on each task."""
    lower, upper = run_positions(x, y)
    return np.where(np.arange(x.shape[1]) < runs[:, None], (lower + upper) / 2, np.nan)


def hedges_g(x, y, alpha):
    """Hedges' g on each task and the noncentral t interval of δ, the effect g estimates.

    g = J(ν) (mean_x - mean_y) / s_pooled (Hedges 1981), ν = n_x + n_y - 2. The interval inverts the
    noncentral t distribution of t = d sqrt(ñ), d = g / J, ñ = n_x n_y / (n_x + n_y) (Steiger & Fouladi
    1997; Hedges & Olkin 1985): λ_L and λ_U with P(T >= t | λ_L) = α/2 = P(T <= t | λ_U), T ~ t'(ν,
    λ), found by bisection (P(T <= t | λ) decreases in λ); the ends are λ / sqrt(ñ). NaN where ν < 2 or
    s_pooled = 0 (g undefined), or where scipy's noncentral t cannot bracket a root. Computed scale-free
    (the runs of a task over a power of two above their largest |score|, exactly) with the correctly
    rounded sums of :mod:`benchtrust._exact`: scores near 1e300 or 1e-300 give the g of the same scores
    near 1, and the same runs in another order the same g.

    Returns
    -------
    g, low, high, variance : numpy.ndarray
        (tasks,); `variance` is J² (1/ñ + d² / (2 (n_x + n_y))), the large-sample variance of g
        (Borenstein et al. 2009, ch. 4).
    """
    from scipy.special import gammaln
    from scipy.stats import nct

    nx = (~np.isnan(x)).sum(axis=1)
    ny = (~np.isnan(y)).sum(axis=1)
    nu = nx + ny - 2
    # scale-free: both methods' runs over the power of two above their largest |score| (exact), so that
    # squares of scores near 1e300 do not overflow nor those near 1e-300 underflow; d does not change
    scale = power_of_two_scale(np.concatenate([x, y], axis=1), axis=1)[:, None]
    x, y = x / scale, y / scale
    mean_x, mean_y = exact_mean(x, axis=1), exact_mean(y, axis=1)
    squares = exact_sum(np.square(x - mean_x[:, None]), axis=1) + exact_sum(
        np.square(y - mean_y[:, None]), axis=1
    )
    defined = (nu >= 2) & (squares > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = np.sqrt(squares / np.where(defined, nu, 1))
        d = np.where(defined, (mean_x - mean_y) / np.where(defined, pooled, 1.0), np.nan)
        j = np.exp(gammaln(nu / 2) - gammaln((nu - 1) / 2) - 0.5 * np.log(nu / 2))
    tilde = nx * ny / (nx + ny)
    t = d * np.sqrt(tilde)
    # Solve P(T <= |t| | λ) = q for q = 1 - α/2 (λ_L) and α/2 (λ_U), by bisection on λ, in the bracket
    # |t| ± (10 + 10 |t|) (checked: an end whose root lies outside is NaN, never a bracket end). For t < 0
    # the interval is minus that of -t, its ends swapped (scipy's nct.cdf fails at t < 0 with a large λ).
    q = np.array([1 - alpha / 2, alpha / 2])[:, None]
    safe_t, safe_nu = np.abs(np.nan_to_num(t)), np.where(defined, nu, 2)
    spread = 10.0 + 10.0 * safe_t
    lo = np.broadcast_to(safe_t - spread, q.shape[:1] + t.shape)
    hi = np.broadcast_to(safe_t + spread, q.shape[:1] + t.shape)
    bracketed = (nct.cdf(safe_t, safe_nu, lo) > q) & (nct.cdf(safe_t, safe_nu, hi) <= q)
    for _ in range(_BISECTIONS):
        mid = (lo + hi) / 2
        above = nct.cdf(safe_t, safe_nu, mid) > q  # the root is above mid
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
    ends = np.where(defined & bracketed, (lo + hi) / 2 / np.sqrt(tilde), np.nan)
    ends = np.where(t < 0, -ends[::-1], ends)
    variance = j**2 * (1 / tilde + d**2 / (2 * (nx + ny)))
    return j * d, ends[0], ends[1], variance
