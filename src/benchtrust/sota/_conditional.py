"""The dependent model's best-of-m cdf given the reference's count k (paper §4.1, §4.3, Eq. 10-11).

Given that the latent reference classifier Y0 gets k of the n test items right, the classifiers are
independent and classifier j's failures are X_j = Bin(k, q1_j) + Bin(n - k, q0_j), q1_j and q0_j its
failure probabilities when Y0 is right or wrong. :func:`conditional_cdfs` gives, for each k, the cdf of
the fewest failures among the classifiers, 1 - prod_j (1 - P(X_j <= z | k))^(c_j), or that of m draws
from their mixture (the bootstrap over classifiers), over the window of z where it is neither 0 nor 1;
:func:`benchtrust.sota._best_of._exact` mixes them over k. The pmf of each X_j is run step by step by
:mod:`benchtrust.sota._two_binomials`.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from benchtrust.sota import _two_binomials

#: How close to 1 a conditional cdf summed in floating point can be relied on to get.
_ROUNDING = 1e-12
#: The first run of :func:`_cdfs` takes the classifiers whose expected failures (at the middle k) are
#: within this many standard deviations of the strongest's; :func:`_left_out` decides on the others.
_REACH = 8.0
#: Values of z per block in the bound on the classifiers left out (:func:`_left_out`).
_CHECK = 16
#: Pairs (classifier, k) below which the values of k are not shared out among threads.
_SHARED_FROM = 20_000


def conditional_cdfs(k, tolerance, q1, q0, counts, n, *, pooled=False):
    """1 - prod_j (1 - P(X_j <= z | k))^(c_j) for each k, from its own start until it is 1 within tolerance.

    Parameters
    ----------
    k : numpy.ndarray of int
        Values of K, items the reference classifier gets right.
    tolerance : numpy.ndarray
        Per k, how far from 0 and 1 the cdf may be where the window starts and ends.
    q1, q0 : numpy.ndarray
        Failure probabilities of each distinct classifier when the reference is right, and wrong.
    counts : numpy.ndarray
        Classifiers sharing each (c_j; a crop's weights can be fractional).
    n : int
        Test items.
    pooled : bool, default False
        Instead, m = sum c_j independent draws from the mixture of the distinct classifiers weighted by
        c_j: 1 - (1 - sum_j (c_j/m) P(X_j <= z | k))^m (the bootstrap over classifiers, exactly).

    Returns
    -------
    start : numpy.ndarray of int
        The first z of each k's window.
    values : numpy.ndarray
        (k, step): the cdf at start + step (1 once k is finished).

    Notes
    -----
    With several cores, the values of k are shared out among threads, alternately so that the parts
    cost alike (numpy releases the GIL in its array arithmetic); each part is computed as a whole.
    """
    parts = _cores() if q1.size * k.size >= _SHARED_FROM else 1
    parts = max(1, min(parts, k.size))
    if parts == 1:
        return _cdfs(k, tolerance, q1, q0, counts, n, pooled)
    with ThreadPoolExecutor(parts) as pool:
        results = list(
            pool.map(
                lambda i: _cdfs(k[i::parts], tolerance[i::parts], q1, q0, counts, n, pooled), range(parts)
            )
        )
    start = np.empty(k.size, dtype=int)
    values = np.ones((k.size, max(part.shape[1] for _, part in results)))  # 1 past a part's window
    for i, (part_start, part) in enumerate(results):
        start[i::parts] = part_start
        values[i::parts, : part.shape[1]] = part
    return start, values


def _cores():
    """The processor cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _cdfs(k, tolerance, q1, q0, counts, n, pooled):
    """:func:`conditional_cdfs` in one thread: the start of each k and the cdfs, (k, step).

    Classifiers too weak to matter are left out, with a proof. The first run takes those whose expected
    failures at the middle k are within _REACH standard deviations of the strongest's. Leaving out a
    set R moves a k's cdf F at z by at most (1 - F_S(z))^e sum_R max(c_j, 1) P(X_j <= z | k), F_S the
    cdf without R (e = 1; pooled, by the mean value theorem, e = (m - 1) / m): the best of the others
    is already below z unless all of them fail. :func:`_left_out` bounds this with Chernoff bounds and
    adds the classifiers it cannot leave out within tolerance / 2; the run is repeated with them until
    none is added.
    """
    m = counts.sum()
    k_all = k.astype(float)
    mean = np.outer(q1, k_all) + np.outer(q0, n - k_all)
    sd = np.sqrt(np.outer(q1 * (1 - q1), k_all) + np.outer(q0 * (1 - q0), n - k_all))
    middle = k.size // 2
    strongest = np.argmin(mean[:, middle])
    chosen = mean[:, middle] <= mean[strongest, middle] + _REACH * sd[strongest, middle]
    while True:
        start, values, log_none = _conditional_run(
            k, tolerance, q1[chosen], q0[chosen], counts[chosen], n, m, pooled, mean[chosen], sd[chosen]
        )
        rest = np.flatnonzero(~chosen)
        add = rest[
            _left_out(k, tolerance / 2, q1[rest], q0[rest], counts[rest], n, m, pooled, start, log_none)
        ]
        if not add.size:
            return start, values
        chosen[add] = True


def _left_out(k, allowance, q1, q0, counts, n, m, pooled, start, log_none):
    """Which of the classifiers left out of a run of :func:`conditional_cdfs` must be added (a mask).

    The run's log(1 - F_S) at start + step is ``log_none`` (k, step; -inf once k is finished). A left-out
    classifier's effect on k's cdf over a block of _CHECK values z_a..z_b is at most
    (1 - F_S(z_a))^e c_j G_j(z_b), G_j(z) = P(X_j <= z | k) <= the Chernoff bound of :func:`_log_chernoff`;
    the first block reaches down to z = -inf with 1 - F_S taken as 1. Per k, the classifiers with the
    largest bounds (maxima over the blocks) are added until the rest add up to at most ``allowance``.
    Classifiers whose c_j G_j at k's last z is below allowance / (their number) for every k are left out
    at once (their bounds are taken as that value).
    """
    if not q1.size:
        return np.zeros(0, bool)
    width = log_none.shape[1]
    n1, n0 = k.astype(float), n - k.astype(float)
    weight = np.log(np.maximum(counts, 1.0))[:, None]
    last = weight + _log_chernoff(start + width - 1, n1, q1[:, None], n0, q0[:, None])
    share = np.log(allowance / q1.size)
    suspect = (last > share).any(axis=1)
    if not suspect.any():
        return suspect
    steps = np.arange(0, width, _CHECK)
    log_room = np.where(steps > 0, ((m - 1) / m if pooled else 1.0) * log_none[:, steps], 0.0)  # (k, block)
    ends = start[:, None] + np.minimum(steps + _CHECK - 1, width - 1)
    bound = np.full((q1.size, k.size), -np.inf)
    bound[suspect] = np.max(
        weight[suspect, :, None]
        + np.where(np.isfinite(log_room), log_room, -np.inf)
        + _log_chernoff(ends, n1[:, None], q1[suspect, None, None], n0[:, None], q0[suspect, None, None]),
        axis=2,
    )
    bound = np.exp(np.where(suspect[:, None], bound, last))
    order = np.argsort(bound, axis=0)  # per k, smallest first: those left out
    leave = np.cumsum(np.take_along_axis(bound, order, axis=0), axis=0) <= allowance
    needed = np.zeros(bound.shape, bool)
    np.put_along_axis(needed, order, ~leave, axis=0)
    return needed.any(axis=1)


def _log_chernoff(z, n1, q1, n0, q0):
    """log of a Chernoff bound on P(Bin(n1, q1) + Bin(n0, q0) <= z), elementwise (0 where z >= the mean).

    P(X <= z) <= exp(t z) E exp(-t X) for every t >= 0. The t tried are the normal guess and a few
    Newton steps from it towards the minimum; the smallest bound is taken (any t >= 0 gives a bound).
    """
    p1, p0 = 1.0 - q1, 1.0 - q0
    var = np.maximum(n1 * q1 * p1 + n0 * q0 * p0, 1e-300)
    t = np.clip((n1 * q1 + n0 * q0 - z) / var, 0.0, 700.0)  # e^t stays finite
    best = np.inf
    for _ in range(4):
        with np.errstate(divide="ignore", invalid="ignore"):
            best = np.fmin(
                best, t * z + n1 * np.log(p1 + q1 * np.exp(-t)) + n0 * np.log(p0 + q0 * np.exp(-t))
            )
        grow = np.exp(t)
        a1, a0 = q1 / (q1 + p1 * grow), q0 / (q0 + p0 * grow)  # the tilted failure probabilities
        tilted_var = np.maximum(n1 * a1 * (1 - a1) + n0 * a0 * (1 - a0), 1e-300)
        t = np.clip(t + (n1 * a1 + n0 * a0 - z) / tilted_var, 0.0, 700.0)
    return best


def _conditional_run(k, tolerance, q1, q0, counts, n, m, pooled, mean, sd):
    """The computation of :func:`conditional_cdfs` for the given classifiers (``m``: all of them).

    Returns the start of each k, the conditional cdfs (1 once k is finished) and log(1 - cdf) (-inf once
    k is finished), both (k, step).
    """
    classes = q1.size
    # One pair per (distinct classifier, value of k), laid out classifier-major.
    n1 = np.tile(k, classes).astype(float)
    n0 = n - n1
    q1 = np.repeat(q1, k.size)
    q0 = np.repeat(q0, k.size)
    # Start each k where all classifiers' cdfs add up to at most its tolerance: a normal guess, checked
    # with the exact mass below the start (or a bound on it), and moved down where it fails.
    reach = np.sqrt(2 * np.log(m / tolerance))
    start = np.maximum(np.floor((mean - reach * sd).min(axis=0)), 0.0)
    while True:
        below, steps = _two_binomials.cdf_steps(np.tile(start, classes), n1, q1, n0, q0)
        low = (counts @ np.minimum(below, 1.0).reshape(classes, -1) > tolerance) & (start > 0)
        if not low.any():
            break
        start[low] = np.maximum(start[low] - np.ceil(sd.min(axis=0)[low]), 0.0)

    # A cdf summed from hundreds of pmf values is 1 only to within rounding: finish there at the latest.
    log_tolerance = np.log(np.maximum(tolerance, _ROUNDING))
    weights = counts / m
    # A pair whose cdf is within tolerance / (2m) of 1 is set to 1 and no longer computed: pooled, that
    # moves each k's mixture cdf by at most tolerance / (2m) and its best-of-m cdf by at most tolerance / 2
    # (without pooling the k is then finished anyway). Pooled, many classifiers must pass their mode before
    # a k finishes, and past its mode each pmf value of a pair is a direct sum: this keeps those sums to
    # the pairs still short of 1.
    saturation = 1.0 - np.tile(tolerance, classes) / (2 * m)
    alive = np.arange(n1.size)  # the pairs the generator still computes
    cdf = np.zeros(n1.size)
    log_rest = np.empty(n1.size)  # log(1 - cdf), a buffer
    saturated = np.zeros(n1.size, bool)  # saturated pairs have cdf 1 >= saturation: reset each step
    finished = np.zeros(k.size, bool)
    rows, log_rows = [], []
    partial, kept = next(steps)
    while True:
        if kept is not None:
            alive = alive[kept]
        cdf[alive] = partial
        cdf[saturated] = 1.0
        np.minimum(cdf, 1.0, out=cdf)
        with np.errstate(divide="ignore"):  # a cdf of 1 makes log(1 - F) -inf, as it should
            if pooled:
                log_none = m * np.log1p(-np.minimum(weights @ cdf.reshape(classes, -1), 1.0))
            else:
                np.log1p(np.negative(cdf, out=log_rest), out=log_rest)
                log_none = counts @ log_rest.reshape(classes, -1)
        row = np.ones(k.size)
        row[~finished] = -np.expm1(log_none[~finished])
        rows.append(row)
        log_rows.append(np.where(finished, -np.inf, log_none))
        newly = ~finished & ((log_none <= log_tolerance) | (start + len(rows) > n))  # P(X <= n) = 1
        finished |= newly
        if finished.all():
            break
        before = np.count_nonzero(saturated)
        full = np.count_nonzero(np.greater_equal(cdf, saturation, out=saturated)) > before
        done = (saturated | np.tile(finished, classes))[alive] if newly.any() or full else None
        partial, kept = steps.send(done)
    return start.astype(int), np.array(rows).T, np.array(log_rows).T
