"""Distribution functions in numpy, so that the commands that need one p-value do not pay scipy's import.

Why. ``import scipy.special`` takes 0.3-0.45 s and ``import scipy.stats`` about 1.2 s, several times what
``benchtrust compare rank`` and ``compare auto`` spend on their analysis. These are the few functions their
tests need, each checked against scipy in ``tests/test_distributions.py``:

* the normal distribution: :func:`norm_cdf`, :func:`norm_sf` (from :func:`math.erfc`, correctly rounded to
  about one ulp) and :func:`norm_ppf` (Acklam's start and Halley's steps);
* the regularised incomplete beta and gamma functions (:func:`betainc`, :func:`gammainc`: Lentz's continued
  fractions and the gamma series, both tails computed directly where they are the smaller), and from them
  Student's t (:func:`t_cdf`, :func:`t_sf`, :func:`t_ppf`), χ² (:func:`chi2_sf`) and F (:func:`f_sf`);
* :func:`rankdata` (ties share their average rank) and :func:`median` (:func:`numpy.median` imports
  ``numpy.ma`` on its first call: 20 ms);
* the tests of autorank's automatic path: :func:`shapiro` (Royston's AS R94), :func:`bartlett`,
  :func:`levene` (median-centred), :func:`ttest_rel` and the Wilcoxon signed-rank test
  (:func:`signed_rank_normal`, :func:`signed_rank_exact`, :func:`wilcoxon`).

Accuracy: the continued fractions and series converge to 4e-16 relative; the factor x^a (1 - x)^b / B(a, b)
in front of them is the exp of a sum of logarithms, written with Stirling's series where a or b >= 10 so that
its large terms cancel exactly (:func:`_log_beta_front`). Against scipy on grids with both tails (the tests),
the incomplete beta and gamma functions, t, χ² and F agree to 5e-13 relative for parameters up to 10^4,
the normal to 1e-14; where scipy is less accurate (Student's t near 0, the incomplete beta near x = 1, the
incomplete gamma's far lower tail at a = 1000), against exact expressions or a 60-digit series.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "bartlett",
    "betainc",
    "chi2_sf",
    "f_sf",
    "gammainc",
    "levene",
    "median",
    "norm_cdf",
    "norm_ppf",
    "norm_sf",
    "rankdata",
    "shapiro",
    "signed_rank_exact",
    "signed_rank_normal",
    "signed_rank_uses_normal",
    "t_cdf",
    "t_ppf",
    "t_sf",
    "ttest_rel",
    "wilcoxon",
]

_erfc = np.frompyfunc(math.erfc, 1, 1)
_lgamma = np.frompyfunc(math.lgamma, 1, 1)
#: Relative tolerance of the continued fractions and series, and the floor that keeps Lentz's method off 0.
_EPS, _TINY = 4e-16, 1e-300
#: Most steps of a continued fraction or series: they take O(sqrt(max(a, b))) steps, 10^8 degrees of freedom.
_STEPS = 20000


def _float(x):
    return np.asarray(x, dtype=float)


def _out(x):
    """A float for a 0-d result, else the array."""
    return float(x) if np.ndim(x) == 0 else x


def _log_gamma(x):
    return np.asarray(_lgamma(_float(x)), dtype=float)


#: Stirling's series of log Γ(z) - ((z - 1/2) log z - z + log(2π)/2): B_2k / (2k(2k - 1)) for k = 1..8.
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400)
#: Where :func:`_stirling` is accurate to 1e-17 (its next term at 10 is 3e-17), and the fronts use it.
_LARGE = 10.0


def _stirling(z):
    """log Γ(z) - ((z - 1/2) log z - z + log(2π)/2) for z >= 10, by Stirling's series (DLMF 5.11.1)."""
    z = np.maximum(z, _LARGE)
    return _poly(_STIRLING[::-1], 1.0 / (z * z)) / z


def _log_ratio(ratio, gap):
    """log(ratio) - gap, gap = ratio - 1 computed by the caller without cancellation: log1p(gap) near a
    ratio of 1, log(ratio) away from it (where 1 + gap would lose digits near 0)."""
    return np.where(np.abs(gap) < 0.5, np.log1p(gap), np.log(ratio)) - gap


def _log_beta_front(p, q, u, v):
    """log(u^p v^q / B(p, q)), v = 1 - u, the factor in front of the incomplete beta's fraction, without
    the cancellation of log Γ(p) + log Γ(q) - log Γ(p + q) against p log u + q log v for large p or q:
    with both >= 10, p log(u(p + q)/p) + q log(v(p + q)/q) + log(pq/(p + q))/2 - log(2π)/2 (the logs by
    log1p((uq - vp)/p) and log1p((vp - uq)/q) where they are small: the two gaps cancel) and
    Stirling's corrections; with one, L >= 10 > s, the same for log Γ(L) - log Γ(L + s) (DLMF 5.11.1)."""
    log_u = np.where(v < 0.5, np.log1p(-v), np.log(u))
    log_v = np.where(u < 0.5, np.log1p(-u), np.log(v))
    total = p + q
    direct = p * log_u + q * log_v - _log_gamma(p) - _log_gamma(q) + _log_gamma(total)
    both = (
        p * _log_ratio(u * total / p, (u * q - v * p) / p)
        + q * _log_ratio(v * total / q, (v * p - u * q) / q)
        + 0.5 * np.log(p * q / total)
        - 0.5 * math.log(2.0 * math.pi)
        - _stirling(p)
        - _stirling(q)
        + _stirling(total)
    )
    large_p = p >= q
    large, small = np.where(large_p, p, q), np.where(large_p, q, p)
    log_large_side, small_side = np.where(large_p, log_u, log_v), np.where(large_p, v, u)
    one = (
        large * log_large_side
        + small * np.log(small_side * total)
        - _log_gamma(small)
        + (large - 0.5) * np.log1p(small / large)
        - small
        + _stirling(total)
        - _stirling(large)
    )
    return np.where(small >= _LARGE, both, np.where(large >= _LARGE, one, direct))


# --- the normal distribution ------------------------------------------------------------------------------


def norm_cdf(x):
    """Φ(x), the standard normal distribution function, as ``scipy.special.ndtr``: erfc(-x/√2)/2, with
    :func:`math.erfc` (relative error about one ulp, in both tails).

    Examples
    --------
    >>> round(norm_cdf(1.959963984540054), 12)
    0.975
    >>> f"{norm_cdf(-30.0):.6e}"
    '4.906714e-198'
    """
    x = _float(x)
    return _out(0.5 * np.asarray(_erfc(-x / math.sqrt(2.0)), dtype=float))


def norm_sf(x):
    """1 - Φ(x), accurate where it is tiny (:func:`norm_cdf` of -x)."""
    return norm_cdf(-_float(x))


#: Acklam's rational approximation of Φ⁻¹ (relative error below 1.15e-9), the start of :func:`norm_ppf`.
_A = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02, 1.383577518672690e02,
      -3.066479806614716e01, 2.506628277459239e00)  # fmt: skip
_B = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02, 6.680131188771972e01,
      -1.328068155288572e01, 1.0)  # fmt: skip
_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00, -2.549732539343734e00,
      4.374664141464968e00, 2.938163982698783e00)  # fmt: skip
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00, 1.0)


def _poly(coefficients, x):
    """Σ c_i x^(n - i): Horner's rule, highest power first."""
    result = np.zeros_like(x) + coefficients[0]
    for c in coefficients[1:]:
        result = result * x + c
    return result


def norm_ppf(p):
    """Φ⁻¹(p), the standard normal quantile, as ``scipy.special.ndtri``: Acklam's approximation refined by
    two of Halley's steps on :func:`norm_cdf` (relative error about 1e-16, also in the tails). -inf at
    p = 0, inf at p = 1, NaN outside [0, 1].

    References
    ----------
    .. [1] Peter J. Acklam, "An algorithm for computing the inverse normal cumulative distribution
       function", 2003 (the coefficients and the Halley refinement).

    Examples
    --------
    >>> norm_ppf(0.975)
    1.959963984540054
    >>> norm_ppf(0.5)
    0.0
    """
    p = _float(p)
    lower = np.minimum(p, 1.0 - p)  # exact for p >= 1/2 (Sterbenz)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.sqrt(-2.0 * np.log(np.where(lower > 0, lower, 1.0)))
        tail = _poly(_C, q) / _poly(_D, q)
        r = lower - 0.5
        centre = r * _poly(_A, r * r) / _poly(_B, r * r)
        x = np.where(lower < 0.02425, tail, centre)  # x <= 0: the quantile of `lower`
        for _ in range(2):
            e = (norm_cdf(x) - lower) * math.sqrt(2.0 * math.pi) * np.exp(0.5 * x * x)
            x = x - e / (1.0 + 0.5 * x * e)
    x = np.where(lower == 0.5, 0.0, x)
    x = np.where(lower == 0, -np.inf, x)
    x = np.where(p > 0.5, -x, x)
    return _out(np.where((p >= 0) & (p <= 1), x, np.nan))


# --- the incomplete beta and gamma functions ----------------------------------------------------------------


def _lentz(first, terms, shape):
    """The continued fraction b0 + a1/(b1 + a2/(b2 + ...)) by Lentz's method, elementwise: `terms(m)`
    gives (a_m, b_m) for m = 1, 2, ...; each element stops once a step changes it by less than 4e-16."""
    h = np.where(first == 0, _TINY, first) * np.ones(shape)
    c, d = h.copy(), np.zeros(shape)
    done = np.zeros(shape, bool)
    for m in range(1, _STEPS):
        a, b = terms(m)
        d = b + a * d
        d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
        c = b + a / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        delta = c * d
        h = np.where(done, h, h * delta)
        done |= ~(np.abs(delta - 1.0) > _EPS)  # NaN (from a NaN argument) stops too
        if done.all():
            break
    return h


def _beta_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (Numerical Recipes' betacf, DLMF 8.17.22), which converges
    fast for x < (a + 1)/(a + b + 2): I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) × this."""

    def terms(m):
        k = m // 2
        if m % 2 == 0:  # d_2k = k(b - k)x / ((a + 2k - 1)(a + 2k))
            return k * (b - k) * x / ((a + 2 * k - 1) * (a + 2 * k)), 1.0
        # d_2k+1 = -(a + k)(a + b + k)x / ((a + 2k)(a + 2k + 1))
        return -(a + k) * (a + b + k) * x / ((a + 2 * k) * (a + 2 * k + 1)), 1.0

    return 1.0 / _lentz(np.ones(np.shape(x)), terms, np.shape(x))


def betainc(a, b, x, y=None):
    """The regularised incomplete beta function I_x(a, b) and its complement 1 - I_x(a, b) = I_y(b, a),
    y = 1 - x (pass y when it is known more accurately than 1 - x), as ``scipy.special.betainc`` and
    ``betaincc``: ``(lower, upper)``, broadcast over a, b > 0 and x in [0, 1].

    The continued fraction of the one of I_x(a, b) and I_y(b, a) on its side of the mean converges fast
    and is the smaller; the other is 1 minus it, so both tails are accurate (DLMF 8.17.22).

    References
    ----------
    .. [1] DLMF, §8.17(v), Eq. 8.17.22. https://dlmf.nist.gov/8.17.v.
    .. [2] W. H. Press et al., Numerical Recipes, 3rd ed., Cambridge University Press, 2007. §6.4.

    Examples
    --------
    >>> lower, upper = betainc(2.0, 3.0, 0.25)
    >>> round(lower, 14), round(upper, 14)
    (0.26171875, 0.73828125)
    """
    a, b, x = np.broadcast_arrays(_float(a), _float(b), _float(x))
    y = 1.0 - x if y is None else np.broadcast_to(_float(y), x.shape)
    swap = x > (a + 1.0) / (a + b + 2.0)
    p, q = np.where(swap, b, a), np.where(swap, a, b)
    u, v = np.clip(np.where(swap, y, x), 0.0, 1.0), np.clip(np.where(swap, x, y), 0.0, 1.0)
    inside = (u > 0) & (v > 0)
    u_in, v_in = np.where(inside, u, 0.5), np.where(inside, v, 0.5)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_front = _log_beta_front(p, q, u_in, v_in) - np.log(p)
    near = np.exp(log_front) * _beta_fraction(p, q, u_in)
    near = np.where(inside, np.minimum(near, 1.0), np.where(u > 0, 1.0, 0.0))
    far = 1.0 - near
    lower, upper = np.where(swap, far, near), np.where(swap, near, far)
    bad = np.isnan(a) | np.isnan(b) | np.isnan(x) | (a <= 0) | (b <= 0)
    return _out(np.where(bad, np.nan, lower)), _out(np.where(bad, np.nan, upper))


def gammainc(a, x):
    """The regularised incomplete gamma functions P(a, x) and Q(a, x) = 1 - P(a, x), as
    ``scipy.special.gammainc`` and ``gammaincc``: ``(lower, upper)``, broadcast over a > 0, x >= 0.

    For x < a + 1 the series of P (DLMF 8.11.4), else the continued fraction of Q (DLMF 8.9.2, Lentz's
    method); the other is 1 minus it.

    References
    ----------
    .. [1] DLMF, §8.9 and §8.11. https://dlmf.nist.gov/8.
    .. [2] W. H. Press et al., Numerical Recipes, 3rd ed., Cambridge University Press, 2007. §6.2.

    Examples
    --------
    >>> lower, upper = gammainc(1.0, 2.0)
    >>> round(upper, 15) == round(math.exp(-2.0), 15)
    True
    """
    a, x = np.broadcast_arrays(_float(a), _float(x))
    series = x < a + 1.0
    positive = x > 0
    xs = np.where(positive & np.isfinite(x), x, 1.0)
    # log(x^a e^-x / Γ(a)); for a >= 10, a(log(x/a) - (x - a)/a) + log(a/(2π))/2 - Stirling's correction
    with np.errstate(divide="ignore", invalid="ignore"):
        large = a * _log_ratio(xs / a, (xs - a) / a) + 0.5 * np.log(a / (2.0 * math.pi)) - _stirling(a)
    log_front = np.where(a >= _LARGE, large, a * np.log(xs) - xs - _log_gamma(a))
    # the series: P = x^a e^-x / Γ(a + 1) Σ_n x^n / ((a + 1)...(a + n)), where x < a + 1
    x_series = np.where(series, xs, 0.0)
    term = np.ones(a.shape)
    total = term.copy()
    done = ~series
    for n in range(1, _STEPS):
        term = term * x_series / (a + n)
        total = np.where(done, total, total + term)
        done |= ~(term > _EPS * total)
        if done.all():
            break
    p_series = np.exp(log_front - np.log(a)) * total

    # the fraction: Q = x^a e^-x / Γ(a) × 1/(x + 1 - a - 1(1 - a)/(x + 3 - a - 2(2 - a)/(x + 5 - a - ...)))
    x_fraction = np.where(series, a + 1.0, xs)  # where x >= a + 1

    def terms(m):
        return -m * (m - a), x_fraction + 2 * m + 1 - a

    q_fraction = np.exp(log_front) / _lentz(x_fraction + 1.0 - a, terms, a.shape)
    lower = np.where(series, p_series, 1.0 - q_fraction)
    upper = np.where(series, 1.0 - p_series, q_fraction)
    lower, upper = np.where(positive, lower, 0.0), np.where(positive, upper, 1.0)
    lower, upper = np.where(x == np.inf, 1.0, lower), np.where(x == np.inf, 0.0, upper)
    bad = np.isnan(a) | np.isnan(x) | (a <= 0) | (x < 0)
    return _out(np.where(bad, np.nan, lower)), _out(np.where(bad, np.nan, upper))


# --- Student's t, χ² and F ------------------------------------------------------------------------------


def _t_tail(t, df):
    """P(T > |t|) for Student's t with df degrees of freedom: I_x(df/2, 1/2)/2, x = df/(df + t²)."""
    t, df = np.broadcast_arrays(_float(t), _float(df))
    with np.errstate(divide="ignore", invalid="ignore"):
        u = t * t / df
        x, y = 1.0 / (1.0 + u), 1.0 / (1.0 + 1.0 / u)
    return 0.5 * _float(betainc(0.5 * df, 0.5, x, y)[0])


def t_cdf(t, df):
    """P(T <= t), T Student's t with df degrees of freedom (as ``scipy.special.stdtr``), both tails accurate.

    Examples
    --------
    >>> round(t_cdf(-2.0, 10), 12)
    0.036694017385
    """
    t = _float(t)
    tail = _t_tail(t, df)
    return _out(np.where(t < 0, tail, 1.0 - tail))


def t_sf(t, df):
    """P(T > t), T Student's t with df degrees of freedom (:func:`t_cdf` of -t)."""
    return t_cdf(-_float(t), df)


def _t_density(t, df):
    log_norm = _log_gamma((df + 1.0) / 2.0) - _log_gamma(df / 2.0) - 0.5 * np.log(df * math.pi)
    return np.exp(log_norm - (df + 1.0) / 2.0 * np.log1p(t * t / df))


def t_ppf(q, df):
    """The q quantile of Student's t with df degrees of freedom (as ``scipy.stats.t.ppf``): Newton's method
    on log P(T > t) in log t from the normal quantile, to 1e-15 relative.

    Examples
    --------
    >>> round(t_ppf(0.975, 10), 10)
    2.228138852
    >>> round(t_ppf(0.75, 1), 12)  # the Cauchy distribution: tan(π/4)
    1.0
    """
    q, df = np.broadcast_arrays(_float(q), _float(df))
    tail = np.minimum(q, 1.0 - q)
    inside = (tail > 0) & (tail < 0.5) & (df > 0)
    p = np.where(inside, tail, 0.25)
    t = np.maximum(-_float(norm_ppf(p)), 1e-3)  # below the t quantile: the normal's tails are lighter
    close = False
    for _ in range(100):
        sf = _t_tail(t, df)
        step = (np.log(sf) - np.log(p)) * sf / (t * _t_density(t, df))  # Newton in log t
        t = t * np.exp(np.clip(step, -2.0, 2.0))
        if close:  # one step after 1e-9: converged quadratically
            break
        close = bool(np.all(np.abs(step) <= 1e-9))
    t = np.where(inside, t, np.where(tail == 0.5, 0.0, np.where(tail == 0, np.inf, np.nan)))
    t = np.where((df > 0) & (q >= 0) & (q <= 1), t, np.nan)
    return _out(np.where(q < 0.5, -t, t))


def chi2_sf(x, df):
    """P(X > x), X χ² with df degrees of freedom (as ``scipy.special.chdtrc``): Q(df/2, x/2).

    Examples
    --------
    >>> round(chi2_sf(3.841458820694124, 1), 12)
    0.05
    """
    x = _float(x)
    return _out(np.where(x <= 0, 1.0, _float(gammainc(0.5 * _float(df), 0.5 * np.maximum(x, 0.0))[1])))


def f_sf(f, dfn, dfd):
    """P(F > f), F with (dfn, dfd) degrees of freedom (as ``scipy.special.fdtrc``): I_x(dfd/2, dfn/2),
    x = dfd/(dfd + dfn f); 0 at f = inf.

    Examples
    --------
    >>> round(f_sf(3.4433567793667246, 2, 22), 12)
    0.05
    """
    f, dfn, dfd = np.broadcast_arrays(_float(f), _float(dfn), _float(dfd))
    with np.errstate(divide="ignore", invalid="ignore"):
        u = dfn * np.maximum(f, 0.0) / dfd
        x, y = 1.0 / (1.0 + u), 1.0 / (1.0 + 1.0 / u)
    return _out(np.where(f <= 0, 1.0, _float(betainc(0.5 * dfd, 0.5 * dfn, x, y)[0])))


# --- ranks ----------------------------------------------------------------------------------------------


def rankdata(a, axis=-1):
    """The ranks of a along `axis`, 1 for the smallest, ties sharing the average of the ranks they span
    (as ``scipy.stats.rankdata``, method "average"); NaN where a is NaN (as its ``nan_policy="omit"``,
    the others ranked among themselves).

    Examples
    --------
    >>> rankdata([3.0, 1.0, 3.0, 2.0]).tolist()
    [3.5, 1.0, 3.5, 2.0]
    """
    a = np.moveaxis(_float(a), axis, -1)
    order = np.argsort(a, axis=-1, kind="stable")  # NaN last
    ordered = np.take_along_axis(a, order, axis=-1)
    n = a.shape[-1]
    index = np.broadcast_to(np.arange(n), a.shape)
    starts = np.ones(a.shape, bool)
    starts[..., 1:] = ordered[..., 1:] != ordered[..., :-1]  # NaN != NaN: each NaN a group of its own
    ends = np.ones(a.shape, bool)
    ends[..., :-1] = starts[..., 1:]
    first = np.maximum.accumulate(np.where(starts, index, 0), axis=-1)
    last = np.flip(np.minimum.accumulate(np.flip(np.where(ends, index, n - 1), -1), axis=-1), -1)
    ranks = np.empty(a.shape)
    np.put_along_axis(ranks, order, (first + last) / 2.0 + 1.0, axis=-1)
    return np.moveaxis(np.where(np.isnan(a), np.nan, ranks), -1, axis)


# --- the tests of autorank's automatic path -------------------------------------------------------------

#: Royston's polynomials (AS R94): in u = 1/√n, the last two Shapiro-Wilk coefficients minus their
#: normal-scores approximation (lowest power first); in n (n <= 11) or log n the mean and log SD of the
#: normalising transformation of W.
_SW_LAST = (0.0, 0.221157, -0.147981, -2.071190, 4.434685, -2.706056)
_SW_SECOND = (0.0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633)
_SW_GAMMA = (-2.273, 0.459)
_SW_MEAN_SMALL = (0.5440, -0.39978, 0.025054, -6.714e-4)
_SW_SD_SMALL = (1.3822, -0.77857, 0.062767, -0.0020322)
_SW_MEAN = (-1.5861, -0.31082, -0.083751, 0.0038915)
_SW_SD = (-0.4803, -0.082676, 0.0030302)


def _rising(coefficients, x):
    """Σ c_i x^i, lowest power first."""
    return _poly(coefficients[::-1], x)


def shapiro(x):
    """The Shapiro-Wilk W of a sample and its p-value by Royston's approximations (AS R94), as
    ``scipy.stats.shapiro``: ``(W, p)``.

    The coefficients a_i: m_i = Φ⁻¹((i - 3/8)/(n + 1/4)); the last (and, for n > 5, the second to last)
    a_n = m_n/√(m'm) + a polynomial in 1/√n, the others m_i/√φ scaled so that Σ a_i² = 1, antisymmetric.
    W = (Σ a_i x_(i))² / Σ(x_i - x̄)². p: for n = 3 exact, (6/π)(asin √W - asin √(3/4)); for
    4 <= n <= 11, -log(γ - log(1 - W)) is normal with mean and SD polynomials in n; beyond, log(1 - W) is,
    with polynomials in log n. W = p = 1 when every value is equal (as scipy).

    References
    ----------
    .. [1] Patrick Royston, "Approximating the Shapiro-Wilk W-test for non-normality", Statistics and
       Computing 2, 117-119, 1992. https://doi.org/10.1007/BF01891203.
    .. [2] Patrick Royston, "Remark AS R94: A remark on algorithm AS 181: The W-test for normality",
       Journal of the Royal Statistical Society C 44(4), 547-551, 1995. https://doi.org/10.2307/2986146.

    Examples
    --------
    >>> w, p = shapiro([1.0, 2.0, 4.0])
    >>> round(w, 12), round(p, 12)
    (0.964285714286, 0.636886845029)
    """
    x = np.sort(_float(x).ravel())
    n = x.size
    if n < 3:
        raise ValueError("shapiro: needs at least 3 values")
    centred = x - x.mean()
    squares = float(centred @ centred)
    if x[-1] == x[0] or squares == 0:
        return 1.0, 1.0
    half = n // 2
    if n == 3:
        a = np.array([-math.sqrt(0.5), 0.0, math.sqrt(0.5)])
    else:
        m = _float(norm_ppf((np.arange(1, n + 1) - 0.375) / (n + 0.25)))
        mm = float(m @ m)
        u = 1.0 / math.sqrt(n)
        a = m / math.sqrt(mm)
        last = a[-1] + float(_rising(_SW_LAST, u))
        if n > 5:
            second = a[-2] + float(_rising(_SW_SECOND, u))
            phi = (mm - 2 * m[-1] ** 2 - 2 * m[-2] ** 2) / (1 - 2 * last**2 - 2 * second**2)
            a = m / math.sqrt(phi)
            a[[0, 1, -2, -1]] = -last, -second, second, last
        else:
            phi = (mm - 2 * m[-1] ** 2) / (1 - 2 * last**2)
            a = m / math.sqrt(phi)
            a[[0, -1]] = -last, last
        if n % 2:
            a[half] = 0.0
    w = min(1.0, float(a @ centred) ** 2 / squares)
    if n == 3:
        return w, max(0.0, 6.0 / math.pi * (math.asin(math.sqrt(w)) - math.asin(math.sqrt(0.75))))
    log_gap = math.log1p(-w) if w < 1 else -np.inf
    if n <= 11:
        gamma = float(_rising(_SW_GAMMA, n))
        if log_gap >= gamma:
            return w, 1e-99  # beyond the transformation's range: W far below its null values
        y = -math.log(gamma - log_gap)
        mean, sd = float(_rising(_SW_MEAN_SMALL, n)), math.exp(float(_rising(_SW_SD_SMALL, n)))
    else:
        y = log_gap
        mean, sd = float(_rising(_SW_MEAN, math.log(n))), math.exp(float(_rising(_SW_SD, math.log(n))))
    return w, float(norm_sf((y - mean) / sd))


def bartlett(*samples):
    """Bartlett's test of equal variances: ``(T, p)``, T = ((N - k) log s_p² - Σ(n_i - 1) log s_i²) / C,
    C = 1 + (Σ 1/(n_i - 1) - 1/(N - k)) / (3(k - 1)), χ² with k - 1 degrees of freedom (as
    ``scipy.stats.bartlett``).

    References
    ----------
    .. [1] M. S. Bartlett, "Properties of sufficiency and statistical tests", Proceedings of the Royal
       Society A 160(901), 268-282, 1937. https://doi.org/10.1098/rspa.1937.0109.

    Examples
    --------
    >>> t, p = bartlett([1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 9.0])
    >>> round(t, 10), round(p, 10)
    (1.6290480954, 0.2018347609)
    """
    sizes = np.array([len(s) for s in samples], dtype=float)
    variances = np.array([np.var(_float(s), ddof=1) for s in samples])
    k, total = len(samples), sizes.sum()
    pooled = ((sizes - 1) * variances).sum() / (total - k)
    numerator = (total - k) * math.log(pooled) - ((sizes - 1) * np.log(variances)).sum()
    correction = 1.0 + ((1.0 / (sizes - 1)).sum() - 1.0 / (total - k)) / (3.0 * (k - 1))
    statistic = float(numerator / correction)
    return statistic, float(chi2_sf(statistic, k - 1))


def median(x, axis=-1, keepdims=False):
    """The median along `axis`, as :func:`numpy.median` gives it (the mean of the two middle values when
    their number is even) for finite values, without its import of ``numpy.ma``.

    Examples
    --------
    >>> median([[3.0, 1.0, 2.0, 10.0], [5.0, 4.0, 6.0, 7.0]])
    array([2.5, 5.5])
    >>> median([3.0, 1.0, 2.0])
    np.float64(2.0)
    """
    ordered = np.sort(_float(x), axis=axis)
    n = ordered.shape[axis]
    return np.take(ordered, [(n - 1) // 2, n // 2], axis=axis).mean(axis=axis, keepdims=keepdims)


def levene(*samples):
    """Levene's test of equal variances, centred on the median (Brown and Forsythe 1974): ``(W, p)``, the
    one-way ANOVA F of z_ij = |x_ij - median_i|, F with k - 1 and N - k degrees of freedom (as
    ``scipy.stats.levene``'s default).

    References
    ----------
    .. [1] Morton B. Brown and Alan B. Forsythe, "Robust tests for the equality of variances", Journal of
       the American Statistical Association 69(346), 364-367, 1974. https://doi.org/10.2307/2285659.

    Examples
    --------
    >>> w, p = levene([1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 9.0])
    >>> round(w, 10), round(p, 10)
    (2.4193548387, 0.1708443981)
    """
    z = [np.abs(_float(s) - median(s)) for s in samples]
    sizes = np.array([len(s) for s in z], dtype=float)
    means = np.array([s.mean() for s in z])
    k, total = len(z), sizes.sum()
    grand = (sizes * means).sum() / total
    within = sum(float(np.square(s - m).sum()) for s, m in zip(z, means, strict=True))
    statistic = float((total - k) * (sizes * np.square(means - grand)).sum() / ((k - 1) * within))
    return statistic, float(f_sf(statistic, k - 1, total - k))


def ttest_rel(a, b):
    """The paired t-test, two-sided: ``(t, p)``, t = mean(d)/(SD(d)/√n), d = a - b, n - 1 degrees of
    freedom (as ``scipy.stats.ttest_rel``).

    Examples
    --------
    >>> t, p = ttest_rel([1.0, 2.0, 3.0, 5.0], [0.5, 1.0, 2.5, 3.0])
    >>> round(t, 10), round(p, 10)
    (2.8284271247, 0.0662756027)
    """
    d = _float(a) - _float(b)
    n = d.size
    with np.errstate(divide="ignore", invalid="ignore"):
        t = float(d.mean() / (d.std(ddof=1) / math.sqrt(n)))
    return t, 2.0 * float(t_cdf(-abs(t), n - 1))


def signed_rank_normal(d):
    """The Wilcoxon signed-rank statistic of each column of d and its normal approximation: zeros dropped,
    the variance corrected for ties, no continuity correction (scipy's ``method="approx"`` with
    ``zero_method="wilcox"``): ``(W+, m, z)``, m the nonzero differences, z = (W+ - m(m + 1)/4) / σ,
    σ² = m(m + 1)(2m + 1)/24 - Σ(t³ - t)/48 over the groups of t tied |d|. z is NaN where m = 0.

    References
    ----------
    .. [1] Frank Wilcoxon, "Individual comparisons by ranking methods", Biometrics Bulletin 1(6), 80-83,
       1945. https://doi.org/10.2307/3001968.
    """
    d = _float(d)
    column_shape = d.shape[1:]
    d = d.reshape(d.shape[0], -1)
    nonzero = d != 0
    m = nonzero.sum(axis=0).astype(float)
    absolute = np.where(nonzero, np.abs(d), np.nan)
    ranks = rankdata(absolute, axis=0)
    plus = np.where(d > 0, ranks, 0.0).sum(axis=0)
    # Σ(t³ - t) over the groups of tied |d| of each column, from where the sorted |d| change (NaN != NaN:
    # each dropped zero is a group of one, adding nothing)
    ordered = np.sort(absolute, axis=0).T.ravel()
    column = np.repeat(np.arange(d.shape[1]), d.shape[0])
    starts = np.flatnonzero(np.r_[True, (ordered[1:] != ordered[:-1]) | (column[1:] != column[:-1])])
    sizes = np.diff(np.r_[starts, ordered.size]).astype(float)
    ties = np.bincount(column[starts], weights=sizes**3 - sizes, minlength=d.shape[1])
    variance = m * (m + 1) * (2 * m + 1) / 24.0 - ties / 48.0
    with np.errstate(divide="ignore", invalid="ignore"):  # m = 0: every difference zero
        z = (plus - m * (m + 1) / 4.0) / np.sqrt(variance)
    return plus.reshape(column_shape), m.reshape(column_shape), z.reshape(column_shape)


def signed_rank_exact(d):
    """The exact null distribution of the Wilcoxon signed-rank statistic of a vector of differences, zeros
    dropped: every one of the 2^m signs of the m ranks equally likely (Wilcoxon 1945), the ranks tied ones
    share included (their doubles are integers, so the distribution of 2W+ is a polynomial product, as
    scipy's exact distribution and exhaustive permutations give it). Returns
    ``(W+, Σ ranks, P(W+ <= w), P(W+ >= w))`` at the observed w.

    Examples
    --------
    >>> plus, total, low, high = signed_rank_exact([1.0, 2.0, 3.0, -0.5])
    >>> plus, total, low, high
    (9.0, 10.0, 0.9375, 0.125)
    """
    d = _float(d)
    d = d[d != 0]
    ranks = rankdata(np.abs(d))
    doubled = np.rint(2.0 * ranks).astype(int)
    counts = np.zeros(doubled.sum() + 1)
    counts[0] = 1.0
    for step in doubled:  # multiply by (1 + x^step): exact in floats up to 2^53
        counts[step:] = counts[step:] + counts[:-step].copy()
    plus = float(ranks[d > 0].sum())
    at = int(np.rint(2.0 * plus))
    total = counts.sum()
    return plus, float(ranks.sum()), float(counts[: at + 1].sum() / total), float(counts[at:].sum() / total)


#: scipy's ``method="auto"`` of ``scipy.stats.wilcoxon`` is the normal approximation beyond these numbers of
#: differences, zeros counted: 50 without ties or zeros, 13 with (its documentation, Notes).
_EXACT_UP_TO, _PERMUTED_UP_TO = 50, 13


def signed_rank_uses_normal(d):
    """Whether scipy's ``method="auto"`` takes the normal approximation for each column of d: beyond 50
    differences, or beyond 13 when some are zero or tie in absolute value."""
    ordered = np.sort(np.abs(_float(d)), axis=0)
    tied = (ordered[0] == 0) | (np.diff(ordered, axis=0) == 0).any(axis=0)
    n = len(ordered)
    return (n > _EXACT_UP_TO) | (tied & (n > _PERMUTED_UP_TO))


def wilcoxon(a, b):
    """The one-sided Wilcoxon signed-rank test that a - b tends to be positive, as
    ``scipy.stats.wilcoxon(a, b, alternative="greater")`` (autorank's two-method nonparametric test):
    ``(W+, p)``, zero differences dropped, no continuity correction, exact (ties included) or normal as
    scipy's ``method="auto"`` chooses (:func:`signed_rank_uses_normal`).

    Examples
    --------
    >>> wilcoxon([1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 0.0, 0.0, 0.0, 0.0])
    (15.0, 0.03125)
    """
    d = _float(a) - _float(b)
    if bool(signed_rank_uses_normal(d)):
        plus, _, z = signed_rank_normal(d[:, None])
        return float(plus[0]), float(norm_sf(z[0]))
    plus, _, _, high = signed_rank_exact(d)
    return plus, high
