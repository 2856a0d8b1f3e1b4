"""Exact distribution of the sum of two independent binomials, evaluated over a window.

Given the number ``k`` of test items that the latent reference classifier Y0 gets right (paper §4.1 and
§4.3, Eq. 10-11), classifier j's number of failures is

    X = Bin(k, 1 - P(Y_j | Y0 = 1)) + Bin(n - k, 1 - P(Y_j | Y0 = 0)),

the sum of two independent binomials. This module computes its cdf for many (classifier, k) pairs at once.

Method. The generating function g(s) = (a1 + b1 s)^n1 (a0 + b0 s)^n0 satisfies the first-order equation
(a1 + b1 s)(a0 + b0 s) g'(s) = [n1 b1 (a0 + b0 s) + n0 b0 (a1 + b1 s)] g(s); comparing coefficients of s^z
gives a three-term recurrence for the pmf c_z = P(X = z):

    a1 a0 (z + 1) c_{z+1} = [n1 b1 a0 + n0 b0 a1 - (a1 b0 + a0 b1) z] c_z + b1 b0 (n1 + n0 - z + 1) c_{z-1}.

Below z* = (n1 b1 a0 + n0 b0 a1) / (a1 b0 + a0 b1) both coefficients on the right are non-negative, so the
recurrence only adds positive numbers and is numerically stable (its coefficients are kept up to date by one
subtraction a step and computed afresh every 8 steps, so that rounding does not build up). It starts either
from z = 0, where c_0 = a1^n1 a0^n0 and c_{-1} = 0 (cheapest for starts up to a few hundred failures; the mass
below the start is then known exactly), or from two exact values computed as a sum over the split of z between
the two binomials, restricted to the window where the summand (log-concave in the split) is not negligible.
Above z* the same recurrence runs downwards, c_{z-1} = [D(z) c_{z+1} - A(z) c_z] / B(z) with A(z) <= 0, again
adding only non-negative terms: past z* the values come in blocks of _AHEAD steps, each run down from two
exact values at its top end; the blocks cover the same steps for every pair, so pairs passing z* at different
steps share one computation. For degenerate binomials and starts outside the support each pmf value is
computed directly as such a sum, _AHEAD values at a time. Everything is exact up to floating point: no summand
larger than 1e-22 of the largest is left out, and values are checked against direct convolution in the tests.
"""

from __future__ import annotations

import numpy as np

from benchtrust.sota import _binomial

_NEGLIGIBLE = 1e-22  # relative size of a summand term that may be left out of a pmf value
_RESCALE_AT = 1e16  # rescale running values often, so their scale stays representable
# The run up from zero rescales (every 8 steps) only once its largest value passes 2^200: values there
# grow by at most a factor (A(z) + B(z)) / D(z) a step, and 8 steps from 2^200 stay below 2^1024 unless
# that factor exceeds 2^100 (failure odds beyond 1e25); rescaled values start again below 2^54.
_RUN_UP_LARGEST = 2.0**200
_BLOCK = 65536  # pairs run up from zero together
# pmf values computed at once for a pair computed directly (past z*: by the downward recurrence); the two
# exact values at a block's top cost about as much as a hundred steps of the recurrence
_AHEAD = 128
_TERMS = 2**18  # summand terms per array of _window (pairs times the window's half-width)


def log_pmf(z, n1, q1, n0, q0):
    """log P(Bin(n1, q1) + Bin(n0, q0) = z), elementwise over broadcast arrays.

    Parameters
    ----------
    z : array_like of int
        Number of failures.
    n1, n0 : array_like of int
        Numbers of trials of the two binomials.
    q1, q0 : array_like of float
        Failure probabilities, in [0, 1].

    Returns
    -------
    numpy.ndarray
        The log-probabilities (``-inf`` outside the support).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> direct = np.convolve(stats.binom.pmf(np.arange(11), 10, 0.2), stats.binom.pmf(np.arange(6), 5, 0.7))
    >>> bool(np.allclose(np.exp(log_pmf(np.arange(16), 10, 0.2, 5, 0.7)), direct, rtol=1e-12, atol=0))
    True
    """
    return _log_pmf_pair(z, n1, q1, n0, q0)[0].reshape(np.broadcast(z, n1, q1, n0, q0).shape)


def _log_pmf_pair(z, n1, q1, n0, q0):
    """(log P(X = z), log P(X = z - 1)) for X = Bin(n1, q1) + Bin(n0, q0), elementwise (flattened)."""
    z, n1, q1, n0, q0 = (np.asarray(v, dtype=float).ravel() for v in np.broadcast_arrays(z, n1, q1, n0, q0))
    at = np.full(z.shape, -np.inf)
    below = np.full(z.shape, -np.inf)
    # A degenerate binomial (q in {0, 1} or no trials) is a constant: X is then one binomial plus a shift.
    degenerate1 = (q1 <= 0) | (q1 >= 1) | (n1 == 0)
    degenerate0 = (q0 <= 0) | (q0 >= 1) | (n0 == 0)
    single = degenerate1 | degenerate0
    if single.any():
        s = single
        shift = np.where(degenerate1, n1 * (q1 >= 1), 0.0) + np.where(degenerate0, n0 * (q0 >= 1), 0.0)
        trials = np.where(degenerate1, np.where(degenerate0, 0.0, n0), n1)[s]
        p = np.clip(np.where(degenerate1, q0, q1), 0.0, 1.0)[s]
        at[s] = _binomial.log_pmf(z[s] - shift[s], trials, p)
        below[s] = _binomial.log_pmf(z[s] - 1.0 - shift[s], trials, p)
    inside = ~single & (z >= 0) & (z <= n1 + n0)
    if inside.any():
        at[inside], below[inside] = _log_pmf_two(z[inside], n1[inside], q1[inside], n0[inside], q0[inside])
    edge = ~single & (z == n1 + n0 + 1)  # z - 1 is the top of the support
    below[edge] = n1[edge] * np.log(q1[edge]) + n0[edge] * np.log(q0[edge])
    return at, below


def _log_pmf_two(z, n1, q1, n0, q0):
    """(log P(X = z), log P(X = z - 1)) for non-degenerate binomials and z inside the support.

    P(X = z) is the sum of T(a) = P(Bin(n1, q1) = a) P(Bin(n0, q0) = z - a) over the window of a around
    the mode of T where the terms are not negligible. T is log-concave in a, so away from the mode the
    terms fall at least geometrically; each pair's window is sized from the curvature of log T and doubled
    until its edge terms are below _NEGLIGIBLE relative to the mode. The terms of P(X = z - 1) are
    T(a) C(z-1-a)/C(z-a) over the same window, plus the one term a = z-1-n0 that T does not have.
    """
    p1, p0 = 1.0 - q1, 1.0 - q0
    lo = np.maximum(0.0, z - n0)
    hi = np.minimum(n1, z)
    # Mode: T(a+1)/T(a) = r (n1-a)(z-a) / ((a+1)(n0-z+a+1)) with r = q1 p0 / (p1 q0) crosses 1. The
    # quadratic (r-1) a^2 - (r(n1+z) + n0-z+2) a + r n1 z - (n0-z+1) = 0 is divided by 1 + r, so that its
    # coefficients stay finite however extreme r is.
    r = (q1 * p0) / (p1 * q0)
    w, v = 1.0 / (1.0 + 1.0 / r), 1.0 / (1.0 + r)  # r / (1 + r) and 1 / (1 + r)
    c2 = w - v
    c1 = -(w * (n1 + z) + v * (n0 - z + 2.0))
    c0 = w * n1 * z - v * (n0 - z + 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        disc = np.sqrt(np.maximum(c1 * c1 - 4.0 * c2 * c0, 0.0))
        big = -0.5 * (c1 - disc)
        root_a = np.where(np.abs(c2) > 1e-12, big / c2, np.inf)
        root_b = np.where(big != 0, c0 / big, -c0 / c1)
    root = np.where((root_b >= lo - 1) & (root_b <= hi + 1), root_b, root_a)
    mode = np.clip(np.floor(np.nan_to_num(root, nan=0.5 * (lo + hi))) + 1.0, lo, hi)
    # Spread of the terms, from the curvature of log T at the mode (Stirling).
    curvature = (
        1.0 / np.maximum(mode, 1.0)
        + 1.0 / np.maximum(n1 - mode, 1.0)
        + 1.0 / np.maximum(z - mode, 1.0)
        + 1.0 / np.maximum(n0 - z + mode, 1.0)
    )
    width = np.ceil(9.0 * np.sqrt(1.0 / curvature)) + 4.0
    level = np.ceil(np.log2(width)).astype(int)  # windows of 2**level terms on each side
    whole = np.ceil(np.log2(hi - lo + 1.0)).astype(int)  # a window this wide covers the whole support
    level = np.minimum(level, whole)

    sum_at = np.zeros(z.shape)
    sum_below = np.zeros(z.shape)
    todo = np.arange(z.size)
    while todo.size:
        short = []
        for lev in np.unique(level[todo]):
            group = todo[level[todo] == lev]
            covered = np.empty(group.size, bool)
            size = max(1, _TERMS // 2**lev)  # pairs at a time: the arrays of _window stay small
            for first in range(0, group.size, size):
                g = group[first : first + size]
                sum_at[g], sum_below[g], covered[first : first + size] = _window(
                    2**lev, mode[g], z[g], n1[g], n0[g], r[g], p0[g] / q0[g]
                )
            short.append(group[~covered & (lev < whole[group])])
        todo = np.concatenate(short)
        level[todo] += 1
    centre = _binomial.log_pmf(mode, n1, q1) + _binomial.log_pmf(z - mode, n0, q0)
    with np.errstate(divide="ignore"):
        log_at = centre + np.log(sum_at)
        log_below = centre + np.log(sum_below)
    # The term of P(X = z - 1) with all n0 trials of the second binomial failed.
    a_edge = z - 1.0 - n0
    edge = (a_edge >= 0) & (a_edge <= n1)
    if edge.any():
        extra = _binomial.log_pmf(a_edge[edge], n1[edge], q1[edge]) + n0[edge] * np.log(q0[edge])
        log_below[edge] = np.logaddexp(log_below[edge], extra)
    return log_at, log_below


def _window(half, mode, z, n1, n0, r, odds0):
    """Sums of T(a)/T(mode) and of T(a) C(z-1-a) / (C(z-a) T(mode)) over a = mode - half .. mode + half.

    Returns the two sums and whether the window covered every non-negligible term.
    """
    steps = np.arange(half, dtype=float)
    m, z, n1, n0, r, odds0 = (v[:, None] for v in (mode, z, n1, n0, r, odds0))
    a_up = m + steps  # T(a+1)/T(a) for a = mode .. mode+half-1
    a_dn = m - steps  # T(a-1)/T(a) for a = mode .. mode-half+1
    with np.errstate(divide="ignore", invalid="ignore"):
        up = np.cumprod(np.maximum(r * (n1 - a_up) * (z - a_up) / ((a_up + 1) * (n0 - z + a_up + 1)), 0.0), 1)
        dn = np.cumprod(np.maximum(a_dn * (n0 - z + a_dn) / (r * (n1 - a_dn + 1) * (z - a_dn + 1)), 0.0), 1)
        covered = (up[:, -1] < _NEGLIGIBLE) & (dn[:, -1] < _NEGLIGIBLE)
        # C(z-1-a)/C(z-a) = (z - a) / (n0 - z + a + 1) * p0/q0, applied where the term is not zero.
        shift_up = np.where(up > 0, (z - a_up - 1) / (n0 - z + a_up + 2) * odds0, 0.0)
        shift_dn = np.where(dn > 0, (z - a_dn + 1) / (n0 - z + a_dn) * odds0, 0.0)
        shift_mode = (z - m) / (n0 - z + m + 1) * odds0
    at = 1.0 + up.sum(1) + dn.sum(1)
    below = shift_mode[:, 0] + (up * shift_up).sum(1) + (dn * shift_dn).sum(1)
    return at, below, covered


def _recurrence(n1, q1, n0, q0):
    """Coefficients of c_{z+1} = (A(z) c_z + B(z) c_{z-1}) / D(z) and its stability limit z*.

    A(z) = alpha - beta z, B(z) = gamma (n1 + n0 + 1 - z), D(z) = delta (z + 1); below z* = alpha / beta
    both A and B are non-negative. Returns (alpha, beta, gamma, delta, z_star).
    """
    p1, p0 = 1.0 - q1, 1.0 - q0
    alpha = n1 * q1 * p0 + n0 * q0 * p1
    beta = p1 * q0 + p0 * q1
    with np.errstate(divide="ignore", invalid="ignore"):
        z_star = np.where(beta > 0, alpha / beta, -np.inf)
    return alpha, beta, q1 * q0, p1 * p0, z_star


def cdf_steps(z_start, n1, q1, n0, q0, tail=None):
    """P(X <= z_start + i), step by step, for X = Bin(n1, q1) + Bin(n0, q0), many pairs at once.

    Parameters
    ----------
    z_start : numpy.ndarray of int
        First number of failures of each pair (1-d; one entry per pair).
    n1, q1, n0, q0 : numpy.ndarray
        Trials and failure probabilities of the two binomials of each pair.
    tail : numpy.ndarray, optional
        Per pair, a mass ε: once the mass above the current z is at most ε, the pair's cdf is yielded as
        1 from then on and it is no longer computed (it counts as finished; see ``steps``). The pmf of a
        sum of independent binomials is log-concave, so past its mode the ratio r = c(z) / c(z - 1) < 1
        of two successive values bounds all later ones: P(X > z) <= c(z) r / (1 - r) (0 past the top of
        the support, where c(z) = 0 after positive values). This is checked every 8 steps, on the pmf
        values themselves: unlike the cdf, which may stay short of 1 by the mass below z_start left out
        and by rounding, they reach any ε.

    Returns
    -------
    below : numpy.ndarray
        Upper bound on P(X < z_start), per pair. Where the recurrence could run up from z = 0 (a start of
        at most a few hundred failures) this is P(X < z_start) itself, and the values yielded include it.
        Elsewhere the start is computed directly, the values yielded leave P(X < z_start) out, and the
        bound uses that a sum of independent binomials has a log-concave pmf: below z_start it falls at
        least geometrically with ratio c(z_start - 1) / c(z_start) (``inf`` if that ratio is not < 1).
    steps : generator
        Yields ``(cdf, kept)``: the cdf at z_start + i for i = 0, 1, 2, ..., until the caller stops. The
        caller may ``send`` a mask of pairs it no longer needs; once a quarter of the pairs is finished
        they are dropped, and ``kept`` (else None) is the mask of pairs kept, over the previous yield's.
        The cdf array is a buffer of the generator: the caller may overwrite it, and must copy it to
        keep it past the next step.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> one = lambda v: np.array([v])
    >>> below, steps = cdf_steps(one(4), one(30), one(0.1), one(20), one(0.6))
    >>> got = np.array([next(steps)[0][0] for _ in range(47)])
    >>> pmf = np.convolve(stats.binom.pmf(np.arange(31), 30, 0.1), stats.binom.pmf(np.arange(21), 20, 0.6))
    >>> bool(np.allclose(got, np.cumsum(pmf)[4:], rtol=1e-12, atol=0))
    True
    >>> bool(np.isclose(below[0], pmf[:4].sum(), rtol=1e-12))
    True

    With ``tail``, the pair is 1 from the first check at which its upper tail is proved within 1e-9:

    >>> below, steps = cdf_steps(one(4), one(30), one(0.1), one(20), one(0.6), tail=one(1e-9))
    >>> got = np.array([next(steps)[0][0] for _ in range(47)])
    >>> first = int(np.argmax(got == 1.0))
    >>> first, bool(1 - np.cumsum(pmf)[4 + first] <= 1e-9), bool((got[first:] == 1.0).all())
    (32, True, True)
    """
    n1, q1, n0, q0 = (np.asarray(v, dtype=float) for v in (n1, q1, n0, q0))
    z = np.asarray(z_start, dtype=float)
    log_cur = np.empty(z.shape)
    log_prev = np.empty(z.shape)
    log_below = np.full(z.shape, np.nan)  # known exactly where the recurrence ran up from 0
    p1, p0 = 1.0 - q1, 1.0 - q0
    z_star = _recurrence(n1, q1, n0, q0)[-1]
    # Running up from 0 costs ~z_start recurrence steps; computing the start directly costs a window of
    # about 20 standard deviations of the split of z_start between the two binomials.
    regular = (q1 > 0) & (q1 < 1) & (q0 > 0) & (q0 < 1) & (z >= 0) & (z <= z_star)
    spread = np.sqrt(np.minimum(n1 * q1 * p1, n0 * q0 * p0) + 1.0)
    from_zero = regular & (z <= 8.0 * (9.0 * spread + 4.0))
    # In blocks that stay in the processor's cache.
    for idx in np.array_split(np.flatnonzero(from_zero), max(1, -(-from_zero.sum() // _BLOCK))):
        log_cur[idx], log_prev[idx], log_below[idx] = _run_up_from_zero(
            z[idx], n1[idx], q1[idx], n0[idx], q0[idx]
        )
    rest = ~from_zero
    if rest.any():
        log_cur[rest], log_prev[rest] = _log_pmf_pair(z[rest], n1[rest], q1[rest], n0[rest], q0[rest])
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        ratio = np.exp(log_prev - log_cur)  # c(z - 1) / c(z)
        bound = np.where(ratio < 1.0, np.exp(log_prev) / (1.0 - ratio), np.inf)
    # Nothing at z_start - 1: nothing below at all, or (past the support) everything is below.
    bound = np.where(np.isneginf(log_prev), np.where(z > 0, 1.0, 0.0), bound)
    below = np.where(from_zero, np.exp(log_below), bound)
    log_below = np.where(from_zero, log_below, -np.inf)
    return below, _steps(z, n1, q1, n0, q0, log_prev, log_cur, log_below, tail)


def _divided_coefficients(alpha, beta, gamma, delta, n_plus_1):
    """A(0) / delta, B(0) / delta and the slopes of A(z) / delta, B(z) / delta (:func:`_recurrence`): a dict
    for :func:`_refresh`. A step subtracts the slopes from the coefficients at z (``a_z``, ``b_z``)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        slope_b = gamma / delta
        return {"a_0": alpha / delta, "slope_a": beta / delta, "b_0": slope_b * n_plus_1, "slope_b": slope_b}


def _refresh(z, p, a_z, b_z):
    """A(z) / delta and B(z) / delta afresh, into ``a_z`` and ``b_z``, from the dict (or dict of slices)
    ``p`` of :func:`_divided_coefficients`: a line's value, without the rounding of the steps before."""
    with np.errstate(invalid="ignore"):
        np.subtract(p["a_0"], np.multiply(p["slope_a"], z, out=a_z), out=a_z)
        np.subtract(p["b_0"], np.multiply(p["slope_b"], z, out=b_z), out=b_z)


def _run_up_from_zero(z_start, n1, q1, n0, q0):
    """(log c(z_start), log c(z_start - 1), log P(X < z_start)) by the recurrence from c(0) = p1^n1 p0^n0.

    Pairs are sorted by z_start, longest first, so the pairs still running are always a leading slice.
    Requires 0 < q1, q0 < 1 and z_start <= z* (the recurrence only adds non-negative terms there).
    """
    order = np.argsort(-z_start, kind="stable")
    z_start, n1, q1, n0, q0 = (v[order] for v in (z_start, n1, q1, n0, q0))
    alpha, beta, gamma, delta, _ = _recurrence(n1, q1, n0, q0)
    # c(t) = (A(z) c(z) + B(z) c(z-1)) / D(z), z = t - 1, D(z) = delta t: with A and B divided by delta and
    # kept up to date by one subtraction a step (computed afresh every 8 steps, so that rounding does not
    # build up), a step is seven array operations, one of them by the scalar 1 / t.
    coefficients = _divided_coefficients(alpha, beta, gamma, delta, n1 + n0 + 1.0)
    slope_a, slope_b = coefficients["slope_a"], coefficients["slope_b"]
    a_z, b_z = coefficients["a_0"].copy(), coefficients["b_0"].copy()
    log_scale = n1 * np.log(1.0 - q1) + n0 * np.log(1.0 - q0)
    # Running values are divided by powers of two (exactly) when large; ``shift`` counts the halvings.
    shift = np.zeros(log_scale.shape, np.int64)
    cur = np.ones_like(log_scale)
    prev = np.zeros_like(log_scale)
    below = np.zeros_like(log_scale)  # sum of c(0) .. c(t - 1)
    work = np.empty_like(log_scale)
    last = int(z_start[0]) if z_start.size else 0
    running = np.searchsorted(-z_start, -np.arange(1, last + 2), side="right")  # pairs with z_start >= t
    # The buffers change roles every step: a pair's values are copied out once it reaches its z_start.
    final_cur, final_prev, final_below = cur.copy(), prev.copy(), below.copy()
    before = z_start.size
    for t, count in enumerate(running, start=1):
        if count < before:  # the pairs count .. before - 1 have z_start = t - 1
            done = slice(count, before)
            final_cur[done], final_prev[done], final_below[done] = cur[done], prev[done], below[done]
            before = count
        if not count:
            break
        s = slice(0, count)
        w = work[s]
        np.multiply(a_z[s], cur[s], out=w)
        w += np.multiply(b_z[s], prev[s], out=prev[s])  # c(z - 1) is not needed again
        w *= 1.0 / t
        below[s] += cur[s]
        a_z[s] -= slope_a[s]
        b_z[s] -= slope_b[s]
        # The new value goes into c(z-1)'s buffer: prev becomes cur's, cur the new one.
        work, prev, cur = prev, cur, work
        if t % 8 == 0:
            _refresh(float(t), {name: v[s] for name, v in coefficients.items()}, a_z[s], b_z[s])
            if cur[s].max() > _RUN_UP_LARGEST:
                # Those above 2^53 (about _RESCALE_AT) are divided by the power of two 2^e <= c(z) < 2^(e+1)
                # (e, from the exponent bits of c(z) >= 0, is -1023 for 0): exactly, ``shift`` counts e.
                exponent = (cur[s].view(np.int64) >> 52) - 1023
                halvings = np.where(exponent > 53, exponent, 0)
                factor = ((1023 - halvings) << 52).view(np.float64)  # 2^-e
                for values in (cur, prev, below):
                    values[s] *= factor
                shift[s] += halvings
    with np.errstate(divide="ignore"):
        logs = (np.log(final_cur), np.log(final_prev), np.log(final_below))
    log_scale += shift * np.log(2.0)
    results = tuple(value + log_scale for value in logs)
    unsorted = np.empty_like(order)
    unsorted[order] = np.arange(order.size)
    return tuple(v[unsorted] for v in results)


def _steps(z_start, n1, q1, n0, q0, log_prev, log_cur, log_below, tail=None):
    """The generator behind :func:`cdf_steps`: the recurrence below z*, direct sums elsewhere.

    ``log_below`` is the log of the probability below z_start to include in the cdf (-inf: none);
    ``tail`` as in :func:`cdf_steps` (pairs found within it are finished and yielded as 1).
    Yields ``(cdf, kept)``. The caller may ``send`` a boolean mask of pairs it no longer needs (over the
    pairs of the last yield): they get no more direct sums, and once a quarter of the pairs is finished
    they are removed; ``kept`` is then the mask of pairs kept (over the previous yield's pairs), else None.
    """
    alpha, beta, gamma, delta, z_star = _recurrence(n1, q1, n0, q0)
    degenerate = (q1 <= 0) | (q1 >= 1) | (q0 <= 0) | (q0 >= 1)
    # Running values are kept scaled, true value = scaled value * scale, with the largest of them at most 1.
    log_scale = np.maximum(np.maximum(log_cur, log_prev), log_below)
    log_scale[np.isneginf(log_scale)] = 0.0
    # What the direct sums need, never dropped: read at a pair's ``row``.
    fixed = {"z_start": z_start, "n1": n1, "q1": q1, "n0": n0, "q0": q0, "alpha": alpha, "beta": beta}
    fixed.update(gamma=gamma, delta=delta, n_plus_1=n1 + n0 + 1.0)
    pair = {
        **_divided_coefficients(alpha, beta, gamma, delta, fixed["n_plus_1"]),
        "degenerate": degenerate,
        "tail": np.broadcast_to(np.inf if tail is None else tail, z_start.shape),
        "full": np.zeros(z_start.shape, bool),  # within ``tail`` of 1: yielded as 1
        # Step at which the next value would lie past z* (from then on it is computed directly).
        "crossing": np.where(degenerate, 0.0, np.floor(np.minimum(z_star - z_start, 2.0**52))),
        "log_scale": log_scale,
        "scale": np.exp(log_scale),
        "cur": np.exp(log_cur - log_scale),
        "prev": np.exp(log_prev - log_scale),
        "finished": np.zeros(z_start.shape, bool),
        # The row of ``ahead`` (below) holding the pair's values: dropping pairs keeps the rows in place.
        "row": np.arange(z_start.size),
        "block": np.full(z_start.shape, -1),
        "work": np.empty(z_start.shape),
        "out": np.empty(z_start.shape),
    }
    # The recurrence's coefficients divided by D(z) = delta (z + 1) without its z + 1, at the z of the next
    # step (z_start first), each kept up to date by one subtraction (or addition) a step and computed
    # afresh every 8 steps (:func:`_refresh`), so that rounding does not build up.
    pair["a_z"], pair["b_z"] = np.empty(z_start.shape), np.empty(z_start.shape)
    _refresh(z_start, pair, pair["a_z"], pair["b_z"])
    pair["z_plus_1"] = z_start + 1.0
    pair["total"] = pair["cur"] + np.exp(log_below - log_scale)
    pair["direct"] = degenerate | ~np.isfinite(log_cur) | (pair["crossing"] < 1)
    # log c(z_start + step) for the _AHEAD steps of block ``block`` (pairs computed directly), one row a
    # pair, never copied: only the pairs' row numbers are (pages of rows never written are never touched).
    ahead = np.empty((z_start.size, _AHEAD))
    kept = None
    step = 0
    p = pair
    next_crossing = p["crossing"][~p["direct"]].min(initial=np.inf)
    direct_pairs = np.flatnonzero(p["direct"])
    while True:
        out = p["out"]
        np.multiply(p["total"], p["scale"], out=out)
        if tail is not None:
            out[p["full"]] = 1.0
        done = yield out, kept
        kept = None
        if done is not None:
            p["finished"] |= done
            if p["finished"].sum() * 4 >= p["finished"].size:
                kept = ~p["finished"]
                rows = np.flatnonzero(kept)
                p = {name: value[rows] for name, value in p.items()}
            # A finished pair's values are no longer used: zero, the recurrence keeps them finite.
            for name in ("cur", "prev", "total"):
                p[name][p["finished"]] = 0.0
            direct_pairs = np.flatnonzero(p["direct"] & ~p["finished"])
        step += 1
        # c(z+1) = (A(z) c(z) + B(z) c(z-1)) / D(z) for z = z_start + step - 1, into the buffer of c(z-1).
        nxt, work = p["prev"], p["work"]
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            nxt *= p["b_z"]
            np.multiply(p["a_z"], p["cur"], out=work)
            nxt += work
            nxt /= p["z_plus_1"]
            p["a_z"] -= p["slope_a"]
            p["b_z"] -= p["slope_b"]
        p["z_plus_1"] += 1.0
        if step % 8 == 0:
            _refresh(p["z_plus_1"] - 1.0, p, p["a_z"], p["b_z"])
        if step >= next_crossing:
            p["direct"] |= p["crossing"] < step
            next_crossing = p["crossing"][~p["direct"]].min(initial=np.inf)
            direct_pairs = np.flatnonzero(p["direct"] & ~p["finished"])
        idx = direct_pairs
        if idx.size:
            block, column = divmod(step, _AHEAD)
            if np.any(p["block"][idx] != block):
                # The block for every pair computed directly and every pair that passes z* within it, in
                # one computation: at most one per block, however many steps the pairs pass z* at.
                soon = ~p["degenerate"] & (p["crossing"] < (block + 1) * _AHEAD - 1)
                rows = np.flatnonzero((p["block"] != block) & ~p["finished"] & (p["direct"] | soon))
                ahead[p["row"][rows]] = _ahead(block * _AHEAD, p, fixed, rows)
                p["block"][rows] = block
            log_value = ahead[p["row"][idx], column]
            # A pair with no mass yet adopts its first non-zero value as its scale.
            fresh = (p["total"][idx] == 0) & np.isfinite(log_value)
            if fresh.any():
                renew = idx[fresh]
                p["log_scale"][renew] = log_value[fresh]
                p["scale"][renew] = np.exp(log_value[fresh])
                p["cur"][renew] = 0.0
            nxt[idx] = np.exp(log_value - p["log_scale"][idx])
            # A pair that started outside the support returns to the recurrence once it has two values.
            back = idx[np.isfinite(log_value) & (p["crossing"][idx] > step) & ~p["degenerate"][idx]]
            if back.size:
                p["direct"][back] = False
                next_crossing = min(next_crossing, p["crossing"][back].min())
                direct_pairs = np.setdiff1d(direct_pairs, back)
        p["prev"], p["cur"] = p["cur"], nxt
        p["total"] += nxt
        if step % 8 == 0:
            big = p["total"] > _RESCALE_AT
            if big.any():
                factor = p["total"][big]
                p["prev"][big] /= factor
                p["cur"][big] /= factor
                p["total"][big] = 1.0
                p["log_scale"][big] += np.log(factor)
                p["scale"][big] = np.exp(p["log_scale"][big])
            if tail is not None:
                with np.errstate(divide="ignore", invalid="ignore"):
                    ratio = p["cur"] / p["prev"]  # log-concave: past the mode, later ratios are smaller
                # Only pairs past their mode (or with no values left) can be done: the bound on the rest.
                check = np.flatnonzero(((ratio < 1.0) | (p["cur"] == 0)) & ~p["finished"])
                if check.size:
                    r, cur = ratio[check], p["cur"][check]
                    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                        above = cur * p["scale"][check] * r / (1.0 - r)  # bounds P(X > z)
                    past = (cur == 0) & (p["total"][check] > 0)  # past the top of the support: nothing above
                    full = check[((r < 1.0) & (above <= p["tail"][check])) | past]
                    if full.size:
                        p["full"][full] = True
                        p["finished"][full] = True
                        direct_pairs = np.flatnonzero(p["direct"] & ~p["finished"])


def _ahead(step, p, fixed, idx):
    """log c(z) for z = z_start + step .. z_start + step + _AHEAD - 1, for the rows ``idx`` of ``p``
    (``fixed``: the pairs' parameters, at their ``row``).

    Where a pair is past z* (its values are read from step ``crossing`` + 1 on), by the downward
    recurrence (:func:`_run_down`); before that, for the pairs computed directly (degenerate pairs, starts
    outside the support), and for blocks whose top lies past the support, each value directly. The values
    of a block depend on the block alone, not on the step it is computed at nor on the other pairs.
    """
    steps = step + np.arange(_AHEAD)
    past_from = np.where(p["degenerate"][idx], np.inf, p["crossing"][idx] + 1.0)  # first step past z*
    out = np.full((idx.size, _AHEAD), -np.inf)
    down = past_from < step + _AHEAD
    at = p["row"][idx]
    if down.any():
        out[down] = _run_down(step, fixed, at[down])
    before = steps < past_from[:, None]
    out[before] = -np.inf  # the downward recurrence is not stable below z*
    direct = (before & p["direct"][idx, None]) | (down & ~np.isfinite(out[:, -1]))[:, None]
    if direct.any():
        row, column = np.nonzero(direct)
        n1, q1, n0, q0 = (fixed[name][at[row]] for name in ("n1", "q1", "n0", "q0"))
        out[row, column] = _log_pmf_pair(fixed["z_start"][at[row]] + steps[column], n1, q1, n0, q0)[0]
    return out


def _run_down(step, fixed, idx):
    """log c(z) for z = z_start + step .. z_start + step + _AHEAD - 1, for pairs past z* (the entries
    ``idx`` of the pairs' parameters ``fixed``).

    Two exact values at the top end, then c(z-1) = [D(z) c(z+1) - A(z) c(z)] / B(z) downwards: past z*,
    A(z) <= 0 and every term is non-negative. A row whose top values are zero (past the support) is -inf
    throughout, and its values are then computed directly.
    """
    p = {name: value[idx] for name, value in fixed.items()}
    first = p["z_start"] + step
    top = first + _AHEAD
    log_top, log_below_top = _log_pmf_pair(top, p["n1"], p["q1"], p["n0"], p["q0"])
    out = np.full((idx.size, _AHEAD), -np.inf)
    usable = np.isfinite(log_top) & np.isfinite(log_below_top)
    log_scale = log_below_top[usable]
    upper = np.exp(log_top[usable] - log_scale)  # c(z + 1), scaled
    value = np.ones(log_scale.size)  # c(z), scaled
    alpha, beta, gamma, delta, n_plus_1 = (
        p[name][usable] for name in ("alpha", "beta", "gamma", "delta", "n_plus_1")
    )
    logs = np.empty((log_scale.size, _AHEAD))
    logs[:, -1] = log_scale
    for i in range(_AHEAD - 1, 0, -1):
        z = first[usable] + i  # c(z - 1) from c(z) and c(z + 1); below z* (unused) it may go wrong
        with np.errstate(over="ignore", invalid="ignore"):
            lower = (delta * (z + 1.0) * upper - (alpha - beta * z) * value) / (gamma * (n_plus_1 - z))
        upper, value = value, lower
        # Values mostly grow downwards (they may also fall, as below a mode past z*): keep them representable.
        big = (value > _RESCALE_AT) | ((value < 1.0 / _RESCALE_AT) & (value > 0.0))
        if big.any():
            factor = value[big]
            upper[big] /= factor
            value[big] = 1.0
            log_scale[big] += np.log(factor)
        with np.errstate(divide="ignore", invalid="ignore"):  # a zero (never past z*) is -inf
            logs[:, i - 1] = np.log(value) + log_scale
    out[usable] = logs
    return out


__all__ = ["cdf_steps", "log_pmf"]
