"""The binomial distribution Bin(n, p) on numpy and :mod:`scipy.special` only.

Why. ``import scipy.stats`` takes about 0.5 s, ``scipy.special`` about 0.13 s; the exact best-of-m
distribution (:mod:`benchtrust.sota._best_of`) and the modules under it need only the binomial
distribution, so they use this module and leave :mod:`scipy.stats` unimported.

What. :func:`log_pmf` by Loader's saddle-point method (Loader 2000); :func:`cdf` and :func:`sf` from
the regularized incomplete beta function (:func:`scipy.special.betainc`, and
:func:`scipy.special.betaincc` where 1 - p is not a double): Boost's, as behind scipy.stats
(:func:`scipy.special.bdtr` and :func:`scipy.special.bdtrc`, from cephes, lose up to 1e-3 relative at
n = 10^7); :func:`ppf`, the exact integer quantile, from a start by :func:`scipy.special.bdtrik` and a
bisection; and the Clopper-Pearson limits from :func:`scipy.special.betaincinv` and
:func:`scipy.special.betainccinv`. All follow :data:`scipy.stats.binom` at the ends of the support and
for p in {0, 1}.

Accuracy of :func:`log_pmf`: within 3 units in the last place of the exact log-pmf (measured against
mpmath and exact rational arithmetic over n up to 10^7, p from 1e-300 to 1 - 2^-53: at most 2.8, on
average 0.4), i.e. a relative error of the pmf below 7e-16 |log pmf|: at most 1.1e-13 where the pmf is
above 1e-300, about 1e-15 in the body of the distribution. A double log cannot do much better (rounding
log pmf ~ -690 to a double alone costs up to 5.7e-14 in the pmf); scipy.stats' ``binom.pmf`` is off by
up to 2e-11 at n = 10^7, ``binom.logpmf`` by 5e-8 (absolute). Two places where a direct evaluation
loses digits are computed in double-double arithmetic: the mean n p, whose rounding error would be
multiplied by |x - n p|, and the deviance term bd0(x, n p) = x log(x / n p) + n p - x. bd0 is evaluated
by its series in v = (x - n p) / (x + n p) (free of cancellation) for |v| < 1/2, where Loader uses it
for |v| < 0.1 only; the direct formula, used beyond, then cancels at most a factor of 2.5.

References
----------
C. Loader, "Fast and Accurate Computation of Binomial Probabilities", 2000.
"""

from __future__ import annotations

import numpy as np

_LOG_2PI = 1.8378770664093456  # log(2 pi)
_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's splitting constant for doubles
_SERIES_BELOW = 0.5  # bd0 by its series in v where |v| < this, directly elsewhere

# stirlerr(m) = log Γ(m + 1) - (m + 1/2) log m + m - log(2 pi) / 2 at m = 0 .. 15, to the nearest double.
_STIRLERR = np.array(
    [
        np.inf,
        0.08106146679532726,
        0.0413406959554093,
        0.02767792568499834,
        0.020790672103765093,
        0.016644691189821193,
        0.013876128823070748,
        0.01189670994589177,
        0.010411265261972096,
        0.009255462182712733,
        0.00833056343336287,
        0.007573675487951841,
        0.00694284010720953,
        0.006408994188004207,
        0.0059513701127588475,
        0.005554733551962801,
    ]
)


# ----------------------------------------------------------------------------- double-double helpers


def _two_sum(a, b):
    """(s, e) with s = fl(a + b) and s + e = a + b exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _fast_two_sum(a, b):
    """(s, e) with s + e = a + b exactly, for |a| >= |b| (Dekker)."""
    s = a + b
    return s, b - (s - a)


def _split(a):
    """a = hi + lo with hi, lo of 26 bits each (Veltkamp)."""
    t = _SPLIT * a
    hi = t - (t - a)
    return hi, a - hi


def _two_prod(a, b):
    """(p, e) with p = fl(a b) and p + e = a b exactly (Dekker)."""
    p = a * b
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _dd_div(a_hi, a_lo, b_hi, b_lo):
    """(a_hi + a_lo) / (b_hi + b_lo) as a double-double (one correction step)."""
    q = a_hi / b_hi
    p, e = _two_prod(q, b_hi)
    r = (((a_hi - p) - e) + a_lo) - q * b_lo
    return _fast_two_sum(q, r / b_hi)


# ---------------------------------------------------------------------------------------- log pmf


def _stirlerr(m):
    """stirlerr(m) = log Γ(m + 1) - (m + 1/2) log m + m - log(2 pi) / 2, the error of Stirling's formula.

    A table at whole m up to 15, the asymptotic series 1/(12m) - 1/(360m^3) + 1/(1260m^5) - 1/(1680m^7)
    + 1/(1188m^9) above 15 (its next term is below 1.1e-16), and :func:`scipy.special.gammaln` at other
    m up to 15 (Loader 2000).
    """
    out = np.empty(m.shape)
    large = m > 15.0
    s = 1.0 / m[large]
    s2 = s * s
    out[large] = s * (1 / 12 - s2 * (1 / 360 - s2 * (1 / 1260 - s2 * (1 / 1680 - s2 * (1 / 1188)))))
    small = ~large
    whole = small & (m == np.floor(m))
    out[whole] = _STIRLERR[m[whole].astype(int)]
    other = small & ~whole
    if other.any():
        from scipy import special  # only for a fractional m, which whole counts never give

        mo = m[other]
        out[other] = special.gammaln(mo + 1.0) - (mo + 0.5) * np.log(mo) + mo - 0.5 * _LOG_2PI
    return out


def _bd0(x, m_hi, m_lo, d_hi, d_lo):
    """bd0(x, M) = x log(x / M) + M - x as a double-double, for x > 0 and M = m_hi + m_lo > 0.

    ``d_hi + d_lo`` is x - M. With v = (x - M) / (x + M), bd0 = (x - M) v + 2 x sum_{j>=1} v^(2j+1)/(2j+1)
    (Loader 2000): for |v| < 1/2 this series is used, its first term (x - M)^2 / (x + M) in
    double-double; elsewhere the direct formula, with log(x / M) to double-double accuracy up to the
    rounding of :func:`numpy.log`, where its cancellation loses less than two bits.
    """
    s_hi, s_lo = _two_sum(x, m_hi)
    s_hi, s_lo = _fast_two_sum(s_hi, s_lo + m_lo)  # x + M
    v = d_hi / s_hi
    out_hi = np.empty(x.shape)
    out_lo = np.empty(x.shape)

    near = np.abs(v) < _SERIES_BELOW
    if near.any():
        sel = slice(None) if near.all() else near  # no copies in the common case
        dh, dl, sh, sl, vn, xn = (a[sel] for a in (d_hi, d_lo, s_hi, s_lo, v, x))
        p, e = _two_prod(dh, dh)
        q_hi, q_lo = _dd_div(p, e + 2.0 * dh * dl, sh, sl)  # (x - M)^2 / (x + M)
        w = vn * vn
        # 2 x v^3 sum_{j>=0} w^j / (2j + 3), to terms below 2^-56 of the first: |v| w^J < 2^-56.
        top = float(np.max(np.abs(vn)))
        terms = 1 if top == 0.0 else int(np.ceil(np.log(2.0**-56 / top) / np.log(top * top))) + 1
        series = np.full(w.shape, 1.0 / (2 * terms + 1))
        for j in range(terms - 1, -1, -1):
            series *= w
            series += 1.0 / (2 * j + 3)
        out_hi[sel], out_lo[sel] = _fast_two_sum(q_hi, q_lo + 2.0 * xn * vn * w * series)

    far = ~near
    if far.any():
        xf, mh, ml, dh, dl = (a[far] for a in (x, m_hi, m_lo, d_hi, d_lo))
        with np.errstate(over="ignore", invalid="ignore"):
            ratio = xf / mh
            # x / M as a double-double, ratio + (x - ratio m_hi - ratio m_lo) / m_hi, and its log.
            p, e = _two_prod(ratio, mh)
            log_ratio = np.log(ratio) + ((((xf - p) - e) - ratio * ml) / mh) / ratio
        huge = ~(ratio < 1e300)  # M below ~1e-290: the splitting in _two_prod would overflow
        log_ratio[huge] = np.log(xf[huge]) - np.log(mh[huge])
        t_hi, t_lo = _two_prod(xf, log_ratio)
        r_hi, r_lo = _two_sum(t_hi, -dh)
        out_hi[far], out_lo[far] = _fast_two_sum(r_hi, r_lo + (t_lo - dl))
    return out_hi, out_lo


def _log_pmf_inside(x, n, p):
    """log P(Bin(n, p) = x) for 0 < x < n and 0 < p < 1 (Loader's saddle-point formula, 1-d arrays)."""
    m_hi, m_lo = _two_prod(n, p)  # M = n p
    k_hi, k_lo = _two_sum(n, -m_hi)
    k_hi, k_lo = _fast_two_sum(k_hi, k_lo - m_lo)  # n q = n - n p
    d_hi, d_lo = _two_sum(x, -m_hi)
    d_hi, d_lo = _fast_two_sum(d_hi, d_lo - m_lo)  # x - n p = -((n - x) - n q)
    b1_hi, b1_lo = _bd0(x, m_hi, m_lo, d_hi, d_lo)
    b2_hi, b2_lo = _bd0(n - x, k_hi, k_lo, -d_hi, -d_lo)
    small = (
        _stirlerr(n)
        - _stirlerr(x)
        - _stirlerr(n - x)
        + 0.5 * (np.log(n / (x * (n - x))) - _LOG_2PI)  # log sqrt(n / (2 pi x (n - x)))
    )
    b_hi, b_lo = _two_sum(b1_hi, b2_hi)
    r_hi, r_lo = _two_sum(small, -b_hi)
    return r_hi + (r_lo - (b_lo + b1_lo + b2_lo))


def log_pmf(x, n, p):
    """log P(X = x) for X ~ Bin(n, p), elementwise over broadcast arrays.

    Loader's saddle-point form (Loader 2000),

        log P(X = x) = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n p) - bd0(n - x, n q)
                       + log sqrt(n / (2 pi x (n - x))),

    with bd0(x, M) = x log(x / M) + M - x, is accurate in the far tails and for large n, where
    log C(n, x) + x log p + (n - x) log q loses digits to cancellation. x = 0 and x = n are
    n log q and n log p.

    Parameters
    ----------
    x : array_like of float
        Number of successes; whole numbers (a float holding one, as :data:`scipy.stats.binom`).
    n : array_like of float
        Number of trials, a whole number >= 0.
    p : array_like of float
        Success probability, in [0, 1].

    Returns
    -------
    numpy.ndarray or numpy.float64
        The log-probabilities: ``-inf`` outside 0 .. n and at non-whole x, ``nan`` for an invalid n or p.
        Within 3 units in the last place (see the module docstring).

    References
    ----------
    C. Loader, "Fast and Accurate Computation of Binomial Probabilities", 2000.

    Examples
    --------
    >>> import numpy as np
    >>> bool(np.isclose(np.exp(log_pmf(3, 10, 0.2)), 120 * 0.2**3 * 0.8**7, rtol=1e-14))
    True
    >>> log_pmf([-1, 0, 10, 11], 10, 0.5).tolist() == [-np.inf, 10 * np.log(0.5), 10 * np.log(0.5), -np.inf]
    True
    """
    x, n, p = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (x, n, p)))
    shape = x.shape
    x, n, p = (v.ravel() for v in (x, n, p))
    out = np.full(x.shape, -np.inf)
    valid = (n >= 0) & (n == np.floor(n)) & (p >= 0) & (p <= 1) & ~np.isnan(x)
    out[~valid] = np.nan
    inside = valid & (x >= 0) & (x <= n) & (x == np.floor(x))
    low = inside & (x == 0)  # n log q (0 when n = 0)
    with np.errstate(divide="ignore", invalid="ignore"):  # n = 0, p = 1: 0 log 0, taken as 0
        out[low] = np.where(n[low] > 0, n[low] * np.log1p(-p[low]), 0.0)
        high = inside & (x == n) & (x > 0)  # n log p
        out[high] = n[high] * np.log(p[high])
    rest = inside & (x > 0) & (x < n) & (p > 0) & (p < 1)  # p in {0, 1} leaves -inf there
    if rest.any():
        out[rest] = _log_pmf_inside(x[rest], n[rest], p[rest])
    return out.reshape(shape)[()]


# ------------------------------------------------------------------------------------ cdf, sf, ppf


def _prepare(k, n, p):
    """Broadcast (floor(k), n, p) as flat float arrays, with the shape to return and a validity mask."""
    k, n, p = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (k, n, p)))
    shape = k.shape
    k, n, p = (v.ravel() for v in (k, n, p))
    valid = (n >= 0) & (n == np.floor(n)) & (p >= 0) & (p <= 1) & ~np.isnan(k)
    return np.floor(k), n, p, valid, shape


def cdf(k, n, p):
    """P(X <= k) for X ~ Bin(n, p), elementwise over broadcast arrays (as ``scipy.stats.binom.cdf``).

    P(X <= k) = I_{1-p}(n - k, k + 1), the regularized incomplete beta function
    :func:`scipy.special.betainc` (from scipy 1.11 on Boost's ``ibeta``, as scipy.stats). Where 1 - p
    is not a double, its rounding would be amplified (up to 3e-10 relative at n = 10^7, p = 1e-6, as in
    ``scipy.stats.binom.cdf``), so there it is 1 - I_p(k + 1, n - k) from
    :func:`scipy.special.betaincc`, which takes p itself but is five times slower.
    :func:`scipy.special.bdtr` (cephes) would lose up to 1e-3 relative at n = 10^7.

    Parameters
    ----------
    k : array_like of float
        Rounded down to a whole number; 0 below 0 and 1 from n on.
    n : array_like of float
        Number of trials, a whole number >= 0.
    p : array_like of float
        Success probability, in [0, 1].

    Returns
    -------
    numpy.ndarray or numpy.float64
        ``nan`` for an invalid n or p.

    Examples
    --------
    >>> cdf([-1, 0, 2.5, 10], 10, 0.5).tolist() == [0.0, 1 / 1024, 56 / 1024, 1.0]
    True
    """
    k, n, p, valid, shape = _prepare(k, n, p)
    out = np.where(k < 0, 0.0, 1.0)
    out[~valid] = np.nan
    mid = valid & (k >= 0) & (k < n)
    km, nm, pm = k[mid], n[mid], p[mid]
    q = 1.0 - pm
    from scipy import special

    values = special.betainc(nm - km, km + 1.0, q)
    rounded = (1.0 - q) != pm  # 1 - p is not a double (never for p >= 1/2)
    if rounded.any():
        km, nm, pm = km[rounded], nm[rounded], pm[rounded]
        values[rounded] = special.betaincc(km + 1.0, nm - km, pm)
    out[mid] = values
    return out.reshape(shape)[()]


def sf(k, n, p):
    """P(X > k) for X ~ Bin(n, p), elementwise over broadcast arrays (as ``scipy.stats.binom.sf``).

    P(X > k) = I_p(k + 1, n - k), the regularized incomplete beta function :func:`scipy.special.betainc`
    (from scipy 1.11 on Boost's ``ibeta``, as ``scipy.stats.binom.sf``), accurate also where it is tiny.

    Parameters
    ----------
    k : array_like of float
        Rounded down to a whole number; 1 below 0 and 0 from n on.
    n : array_like of float
        Number of trials, a whole number >= 0.
    p : array_like of float
        Success probability, in [0, 1].

    Returns
    -------
    numpy.ndarray or numpy.float64
        ``nan`` for an invalid n or p.

    Examples
    --------
    >>> sf([-1, 0, 8, 10], 10, 0.5).tolist() == [1.0, 1023 / 1024, 11 / 1024, 0.0]
    True
    """
    k, n, p, valid, shape = _prepare(k, n, p)
    out = np.where(k < 0, 1.0, 0.0)
    out[~valid] = np.nan
    mid = valid & (k >= 0) & (k < n)
    km = k[mid]
    from scipy import special

    out[mid] = special.betainc(km + 1.0, n[mid] - km, p[mid])
    return out.reshape(shape)[()]


def _reaches(k, q, n, p):
    """Whether P(X <= k) >= q, X ~ Bin(n, p), for 0 < q < 1 (1-d arrays).

    Above q = 1/2 this is P(X > k) <= 1 - q (1 - q is then exact): near 1 the cdf itself is rounded.
    """
    out = np.empty(k.shape, dtype=bool)
    upper = q > 0.5
    out[upper] = sf(k[upper], n[upper], p[upper]) <= 1.0 - q[upper]
    lower = ~upper
    out[lower] = cdf(k[lower], n[lower], p[lower]) >= q[lower]
    return out


def _quantile(q, n, p):
    """The smallest whole k in 0 .. n with P(X <= k) >= q, for 0 < q < 1 and 0 < p < 1 (1-d arrays)."""
    from scipy import special

    with np.errstate(invalid="ignore"):
        start = np.ceil(special.bdtrik(q, n, p))
    k = np.clip(np.where(np.isnan(start), np.floor(n * p), start), 0.0, n)
    at = _reaches(k, q, n, p)
    below = np.zeros(k.shape, dtype=bool)  # P(X <= -1) = 0 < q
    some = k > 0
    below[some] = _reaches(k[some] - 1.0, q[some], n[some], p[some])
    # Where the start is not the answer, bisect: P(X <= lo) < q <= P(X <= hi) (P(X <= n) = 1).
    wrong = np.flatnonzero(below | ~at)
    if wrong.size:
        lo = np.where(at[wrong], -1.0, k[wrong])
        hi = np.where(at[wrong], k[wrong] - 1.0, n[wrong])
        qw, nw, pw = q[wrong], n[wrong], p[wrong]
        while np.any(hi - lo > 1.0):
            mid = np.floor(0.5 * (lo + hi))
            hit = _reaches(mid, qw, nw, pw)
            hi = np.where(hit, mid, hi)
            lo = np.where(hit, lo, mid)
        k[wrong] = hi
    return k


def ppf(q, n, p):
    """The smallest whole k in 0 .. n with P(X <= k) >= q, X ~ Bin(n, p) (as ``scipy.stats.binom.ppf``).

    :func:`scipy.special.bdtrik` (the continuous inverse of the cdf in k) gives a start; where it is not
    the answer, a bisection finds it, comparing :func:`cdf` with q (or, above q = 1/2, :func:`sf` with
    1 - q, more accurate there). ``scipy.stats.binom.ppf`` (Boost's quantile search) agrees, except
    where the cdf at a whole k is within rounding of q and for q below about 1e-150 or within about
    1e-15 of 1, where it may be off by one or more.

    Parameters
    ----------
    q : array_like of float
        Probability, in [0, 1]. As in scipy, q = 0 gives -1 and q = 1 gives n.
    n : array_like of float
        Number of trials, a whole number >= 0.
    p : array_like of float
        Success probability, in [0, 1].

    Returns
    -------
    numpy.ndarray or numpy.float64
        Whole numbers as floats; ``nan`` for an invalid q, n or p.

    Examples
    --------
    >>> ppf([0, 1 / 1024, 0.5, 1], 10, 0.5).tolist()
    [-1.0, 0.0, 5.0, 10.0]
    """
    q, n, p = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (q, n, p)))
    shape = q.shape
    q, n, p = (v.ravel() for v in (q, n, p))
    valid = (n >= 0) & (n == np.floor(n)) & (p >= 0) & (p <= 1) & (q >= 0) & (q <= 1)
    out = np.full(q.shape, np.nan)
    out[valid & (q == 0)] = -1.0
    inner = valid & (q > 0) & (q < 1)
    out[inner & (p == 0)] = 0.0
    top = (valid & (q == 1)) | (inner & (p == 1))
    out[top] = n[top]
    rest = inner & (p > 0) & (p < 1)
    if rest.any():
        out[rest] = _quantile(q[rest], n[rest], p[rest])
    return out.reshape(shape)[()]


def central(n, p, tail):
    """The values k of X ~ Bin(n, p) that leave at most ``tail`` beyond each end, and their pmf.

    As ``ppf(tail)`` .. ``n - ppf(tail)`` of n - X (up to a millionth of ``tail``), from numpy alone:
    the exact best of m with dependent classifiers needs nothing else from this module, and so loads
    no scipy. Chernoff's bound P(X <= k) <= exp(-n D(k/n || p)) (D the Kullback-Leibler divergence)
    puts the ends of a range of k leaving out less than tail / 10^6 on each side; there the pmf is
    summed from each end.

    Parameters
    ----------
    n : int
        Number of trials.
    p : float
        Success probability, in [0, 1].
    tail : float
        Mass allowed beyond each end, in (0, 1/2).

    Returns
    -------
    k : numpy.ndarray of int
        low .. high.
    pmf : numpy.ndarray
        P(X = k).

    Examples
    --------
    >>> k, pmf = central(10, 0.5, 0.01)
    >>> int(k[0]), int(k[-1]), bool(abs(pmf.sum() - 1022 / 1024) < 1e-15)
    (1, 9, True)
    """
    if p <= 0.0 or p >= 1.0:
        return np.array([0 if p <= 0.0 else n]), np.ones(1)
    limit = -np.log(tail * 1e-6)
    k = np.arange(_chernoff_end(n, p, limit), n - _chernoff_end(n, 1.0 - p, limit) + 1)
    pmf = np.exp(log_pmf(k, n, p))
    low = int(np.argmax(np.cumsum(pmf) >= tail))
    high = k.size - 1 - int(np.argmax(np.cumsum(pmf[::-1]) >= tail))
    return k[low : high + 1], pmf[low : high + 1]


def _chernoff_end(n, p, limit):
    """The largest whole k <= n p with n D(k/n || p) >= limit, so that P(X <= k) <= e^-limit (0 if none)."""

    def exponent(k):
        x = k / n
        return -n * np.log1p(-p) if k == 0 else n * (x * np.log(x / p) + (1 - x) * np.log((1 - x) / (1 - p)))

    if exponent(0) < limit:
        return 0
    lo, hi = 0, int(np.floor(n * p))  # exponent(lo) >= limit > exponent(hi), which is about 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if exponent(mid) >= limit else (lo, mid)
    return lo


# --------------------------------------------------------------------------------- Clopper-Pearson


def clopper_pearson_limits(correct, n, alpha):
    """The two-sided Clopper-Pearson limits (θ_low, θ_high) for ``correct`` successes out of n.

    θ_low is the α/2 quantile of Beta(correct, n - correct + 1), from :func:`scipy.special.betaincinv`,
    and θ_high the 1 - α/2 quantile of Beta(correct + 1, n - correct), from
    :func:`scipy.special.betainccinv` (0 and 1 at correct = 0 and correct = n); both as
    ``scipy.stats.beta.ppf`` and ``scipy.stats.beta.isf``. (1 - betaincinv(n - correct, correct + 1,
    α/2), by I_x(a, b) = 1 - I_{1-x}(b, a), would lose relative accuracy when θ_high is small: 1e-10 at
    correct = 0, n = 10^7.)

    Parameters
    ----------
    correct : int
        Number of successes, 0 .. n.
    n : int
        Number of trials, >= 1.
    alpha : float
        1 - confidence level, in (0, 1).

    Returns
    -------
    tuple of float

    Examples
    --------
    >>> low, high = clopper_pearson_limits(0, 10, 0.05)
    >>> low, round(high, 6)
    (0.0, 0.308497)
    """
    from scipy import special

    low = 0.0 if correct == 0 else float(special.betaincinv(correct, n - correct + 1, alpha / 2))
    high = 1.0 if correct == n else float(special.betainccinv(correct + 1, n - correct, alpha / 2))
    return low, high


__all__ = ["cdf", "central", "clopper_pearson_limits", "log_pmf", "ppf", "sf"]
