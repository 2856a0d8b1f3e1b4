"""The dependent model's best-of-m cdf mixed over the reference's count k (paper §4.1, §4.3, Eq. 10-11).

Given that the latent reference classifier Y0 gets k of the n test items right, the classifiers are
independent and classifier j's failures are X_j = Bin(k, q1_j) + Bin(n - k, q0_j), q1_j and q0_j its
failure probabilities when Y0 is right or wrong. :func:`conditional_cdfs` gives the cdf of the fewest
failures among the classifiers, sum_k P(K = k) [1 - prod_j (1 - P(X_j <= z | k))^(c_j)], or with m draws
from their mixture (the bootstrap over classifiers), over the window of z where it is neither 0 nor 1.
The pmf of each X_j is run step by step by :mod:`benchtrust.sota._two_binomials`.

Memory is bounded whatever the board: the values of k are run in parts of at most _PAIRS pairs
(classifier, k), each part's cdfs are mixed over k as they are computed (no (k, z) table is kept), and
the values of log(1 - F) kept for the bound on the classifiers left out are thinned to _CELLS per part.
The parts run one after the other in the calling thread: their arrays are small enough to stay in the
processor's cache, where numpy's operations are too short for threads to gain (two threads sharing the
parts took 1.6 times as long as one on the Table 2 board, the GIL held between the operations). A stop
(Ctrl-C, SIGTERM) interrupts the computation between two of them.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from benchtrust.sota import _two_binomials

#: How close to 1 a conditional cdf summed in floating point can be relied on to get.
_ROUNDING = 1e-12
#: The first run of :func:`_cdfs` takes the classifiers whose expected failures (at the middle k) are
#: within this many standard deviations of the strongest's; :func:`_left_out` decides on the others.
_REACH = 8.0
#: Pooled, the first run also takes the classifiers whose expected failures are within this many standard
#: deviations above those of the last classifier needed to carry the weight W (:func:`_first_choice`).
_BEYOND = 8.0
#: Values of z per block in the bound on the classifiers left out (:func:`_left_out`), at least.
_CHECK = 16
#: The most pairs (classifier, k) run at once: a run holds about 175 floats a pair (some 45 MB; 128 of
#: them the pmf values computed ahead, ``_two_binomials._AHEAD``). Each step works on arrays of this
#: many values: at 2**15 (256 KB an array) they stay in the processor's cache, and a run of the Table 2
#: board (1,000 teams, 261 values of k) is about 30 % faster than at 2**17.
_PAIRS = 2**15
#: The most values of log(1 - F) a run keeps for :func:`_left_out` (k times blocks of z).
_CELLS = 2**21
#: The most elements of each array :func:`_left_out` works on at once.
_SLICE = 2**20
#: Below this cdf value, :func:`_log_complement` takes log(1 - F) from its series (four terms).
_SERIES = 2.0**-13


def conditional_cdfs(k, weights, tolerance, q1, q0, counts, n, *, pooled=False, progress=None):
    """sum_k w_k [1 - prod_j (1 - P(X_j <= z | k))^(c_j)] over the window where it is neither 0 nor 1.

    Parameters
    ----------
    k : numpy.ndarray of int
        Values of K, items the reference classifier gets right.
    weights : numpy.ndarray
        w_k = P(K = k), summing to 1.
    tolerance : numpy.ndarray
        Per k, how far from 0 and 1 its cdf may be where its window starts and ends.
    q1, q0 : numpy.ndarray
        Failure probabilities of each distinct classifier when the reference is right, and wrong.
    counts : numpy.ndarray
        Classifiers sharing each (c_j; a crop's weights can be fractional).
    n : int
        Test items.
    pooled : bool, default False
        Instead, m = sum c_j independent draws from the mixture of the distinct classifiers weighted by
        c_j: 1 - (1 - sum_j (c_j/m) P(X_j <= z | k))^m (the bootstrap over classifiers, exactly).
    progress : callable, optional
        ``progress(done, total)``: values of k finished, of ``k.size`` (a run repeated with more
        classifiers takes its count back).

    Returns
    -------
    first : int
        The first z of the window.
    cdf : numpy.ndarray
        The mixed cdf at first, first + 1, ... (each k's cdf is 0 below its window and 1 past it, within
        its tolerance).

    Notes
    -----
    Error. Each k's cdf is within 2 max(t_k, _ROUNDING) of the exact one at every z, t_k its tolerance.
    Both 1 - prod_j (1 - G_j)^c_j and 1 - (1 - sum_j (c_j/m) G_j)^m move by at most sum_j c_j times the
    change of G_j (c_j >= 1), so: the mass below k's window start, which a pair's cdf may leave out, adds
    up to at most t_k (sum_j c_j P(X_j < start)); the classifiers left out move it by at most t_k / 2
    (:func:`_cdfs`); the pairs (classifier, k) set to 1 once their upper tail is proved at most
    t_k / (2m) (by the log-concave pmf, :func:`benchtrust.sota._two_binomials.cdf_steps`) by at most
    t_k / 2 in all; and the window ends (1 from there) once 1 - F is at most max(t_k, _ROUNDING). A pair
    is thus computed from its k's window start only until it is proved done (past its mode, by downward
    blocks of pmf values), not to the end of the deepest k's window.

    The values of k are run in contiguous parts of at most _PAIRS pairs (fewer when the bound adds
    classifiers: a part is then halved), one after the other.

    Examples
    --------
    The bootstrap over two classifiers drawn 2 : 1, given k = 80 of n = 100 (one value of K), against
    1 - (1 - (2 G_1 + G_2) / 3)^3 from the convolved binomials:

    >>> import numpy as np
    >>> from scipy import stats
    >>> def cdf(q1, q0):
    ...     right, wrong = stats.binom.pmf(np.arange(81), 80, q1), stats.binom.pmf(np.arange(21), 20, q0)
    ...     return np.cumsum(np.convolve(right, wrong))
    >>> one = np.ones(1)
    >>> q1, q0, counts = np.array([0.1, 0.2]), np.array([0.5, 0.5]), np.array([2.0, 1.0])
    >>> first, got = conditional_cdfs(np.array([80]), one, 1e-15 * one, q1, q0, counts, 100, pooled=True)
    >>> want = 1 - (1 - (2 * cdf(0.1, 0.5) + cdf(0.2, 0.5)) / 3) ** 3
    >>> first, bool(np.abs(got - want[: got.size]).max() < 1e-14), bool(want[got.size] > 1 - 1e-12)
    (0, True, True)
    """
    m = counts.sum()
    chosen = _first_choice(k, tolerance, q1, q0, counts, n, pooled)
    size = max(1, _PAIRS // max(int(chosen.sum()), 1))
    count = _Count(k.size, progress)
    pieces = []
    for first in range(0, k.size, size):
        part = slice(first, first + size)
        args = (k[part], weights[part], tolerance[part], q1, q0, counts, n, m, pooled)
        pieces += _cdfs(*args, chosen.copy(), count)
    return _combine(pieces)


class _Count:
    """Values of k finished, passed on to ``progress(done, total)`` if given."""

    def __init__(self, total, progress):
        self.total, self.progress, self.done = total, progress, 0

    def add(self, finished):
        if self.progress is not None and finished:
            self.done += finished
            self.progress(self.done, self.total)


def _first_choice(k, tolerance, q1, q0, counts, n, pooled):
    """The classifiers of the first run (a mask): those whose expected failures at the middle k are within
    _REACH standard deviations of the strongest's. Pooled, also the strongest carrying a share W of the
    weight with (1 - W)^m at most the smallest tolerance: the mixture of those taken must be able to reach
    1 within it (a run whose classifiers are all saturated otherwise scans z to n). A k then finishes only
    about where the last of these passes its mode, and the bound of :func:`_left_out` keeps the
    classifiers not far above it: pooled, the first run also takes those within _BEYOND standard
    deviations of it (a second run, with all pairs again, costs more than a few more classifiers)."""
    middle = float(k[k.size // 2])
    mean = q1 * middle + q0 * (n - middle)
    sd = np.sqrt(q1 * (1 - q1) * middle + q0 * (1 - q0) * (n - middle))
    strongest = np.argmin(mean)
    chosen = mean <= mean[strongest] + _REACH * sd[strongest]
    if pooled:
        m = counts.sum()
        order = np.argsort(mean, kind="stable")
        need = -np.expm1(np.log(tolerance.min()) / m)
        last = order[min(int(np.searchsorted(np.cumsum(counts[order]) / m, need)), order.size - 1)]
        chosen |= mean <= mean[last] + _BEYOND * sd[last]
    return chosen


def _cdfs(k, weights, tolerance, q1, q0, counts, n, m, pooled, chosen, count):
    """:func:`conditional_cdfs` for some values of k: a list of pieces (:func:`_combine`).

    Classifiers too weak to matter are left out, with a proof. The first run takes ``chosen``. Leaving out
    a set R moves a k's cdf F at z by at most (1 - F_S(z))^e sum_R max(c_j, 1) P(X_j <= z | k), F_S the
    cdf without R (e = 1; pooled, by the mean value theorem, e = (m - 1) / m): the best of the others
    is already below z unless all of them fail. :func:`_left_out` bounds this with Chernoff bounds and
    adds the classifiers it cannot leave out within tolerance / 2; the run is repeated with them until
    none is added. When the pairs would be more than _PAIRS, the values of k are halved.
    """
    while True:
        if chosen.sum() * k.size > _PAIRS and k.size > 1:
            halves = (slice(0, k.size // 2), slice(k.size // 2, None))
            return [
                piece
                for half in halves
                for piece in _cdfs(
                    k[half],
                    weights[half],
                    tolerance[half],
                    q1,
                    q0,
                    counts,
                    n,
                    m,
                    pooled,
                    chosen.copy(),
                    count,
                )
            ]
        run = _conditional_run(
            k, weights, tolerance, q1[chosen], q0[chosen], counts[chosen], n, m, pooled, count
        )
        rest = np.flatnonzero(~chosen)
        add = rest[_left_out(k, tolerance / 2, q1[rest], q0[rest], counts[rest], n, m, pooled, run)]
        if not add.size:
            return [run.piece]
        count.add(-k.size)  # the run is repeated
        chosen[add] = True


def _combine(pieces):
    """The mixed cdf from pieces (first z, values, weight): each adds its values from its first z on and
    its weight (its values of k all finished) past them. Returns the first z and the cdf."""
    first = min(piece[0] for piece in pieces)
    cdf = np.zeros(max(piece[0] + piece[1].size for piece in pieces) - first)
    for start, values, weight in pieces:
        cdf[start - first : start - first + values.size] += values
        cdf[start - first + values.size :] += weight
    return int(first), cdf


@dataclasses.dataclass(frozen=True, eq=False)
class _Run:
    """A run of :func:`_conditional_run`.

    Attributes
    ----------
    start : numpy.ndarray of int
        The first z of each k.
    width : int
        Values of z run for each k (from its start).
    block : int
        log(1 - F) was kept at steps 0, block, 2 block, ... of each k.
    log_none : numpy.ndarray
        (k, block): log(1 - F) at those steps (-inf once k is finished).
    piece : tuple
        (first z, values, weight) of the mixture over these k (:func:`_combine`).
    """

    start: np.ndarray
    width: int
    block: int
    log_none: np.ndarray
    piece: tuple


def _left_out(k, allowance, q1, q0, counts, n, m, pooled, run):
    """Which of the classifiers left out of a :class:`_Run` must be added (a mask).

    The run's log(1 - F_S) is kept at the start of each block of ``run.block`` values of z. A left-out
    classifier's effect on k's cdf over a block z_a..z_b is at most (1 - F_S(z_a))^e c_j G_j(z_b),
    G_j(z) = P(X_j <= z | k) <= the Chernoff bound of :func:`_log_chernoff`; the first block reaches down
    to z = -inf with 1 - F_S taken as 1. Per k, the classifiers with the largest bounds (maxima over the
    blocks) are added until the rest add up to at most ``allowance``. Classifiers whose c_j G_j at k's last
    z is below allowance / (their number) for every k are left out at once (together their bounds add up
    to at most ``allowance`` times their share; they come first in the sums). The bounds are computed a
    slice of classifiers at a time (_SLICE elements), so memory stays bounded however many are left out.
    """
    if not q1.size:
        return np.zeros(0, bool)
    start, width, block = run.start, run.width, run.block
    n1, n0 = k.astype(float), n - k.astype(float)
    weight = np.log(np.maximum(counts, 1.0))[:, None]
    share = np.log(allowance / q1.size)
    suspect = np.zeros(q1.size, bool)
    settled = np.zeros(k.size)  # per k, the bounds of the classifiers left out at once, summed
    size = max(1, _SLICE // k.size)
    for first in range(0, q1.size, size):
        rows = slice(first, first + size)
        last = weight[rows] + _log_chernoff(start + width - 1, n1, q1[rows, None], n0, q0[rows, None])
        suspect[rows] = (last > share).any(axis=1)
        settled += np.exp(last[~suspect[rows]]).sum(axis=0)
    suspect = np.flatnonzero(suspect)
    if not suspect.size:
        return np.zeros(q1.size, bool)
    steps = np.arange(run.log_none.shape[1]) * block
    log_room = np.where(steps > 0, ((m - 1) / m if pooled else 1.0) * run.log_none, 0.0)  # (k, block)
    log_room = np.where(np.isfinite(log_room), log_room, -np.inf)
    ends = start[:, None] + np.minimum(steps + block - 1, width - 1)
    bound = np.empty((suspect.size, k.size))
    size = max(1, _SLICE // log_room.size)
    for first in range(0, suspect.size, size):
        rows = suspect[first : first + size]
        chernoff = _log_chernoff(ends, n1[:, None], q1[rows, None, None], n0[:, None], q0[rows, None, None])
        bound[first : first + size] = np.exp(np.max(weight[rows, :, None] + log_room + chernoff, axis=2))
    order = np.argsort(bound, axis=0)  # per k, smallest first: those left out
    leave = settled + np.cumsum(np.take_along_axis(bound, order, axis=0), axis=0) <= allowance
    needed = np.zeros(bound.shape, bool)
    np.put_along_axis(needed, order, ~leave, axis=0)
    mask = np.zeros(q1.size, bool)
    mask[suspect] = needed.any(axis=1)
    return mask


def _log_chernoff(z, n1, q1, n0, q0):
    """log of a Chernoff bound on P(Bin(n1, q1) + Bin(n0, q0) <= z), elementwise (0 where z >= the mean).

    P(X <= z) <= exp(t z) E exp(-t X) for every t >= 0. The t tried are the normal guess and a few
    Newton steps from it towards the minimum; the smallest bound is taken (any t >= 0 gives a bound).
    """
    p1, p0 = 1.0 - q1, 1.0 - q0
    var = np.maximum(n1 * q1 * p1 + n0 * q0 * p0, 1e-300)
    t = np.clip((n1 * q1 + n0 * q0 - z) / var, 0.0, 700.0)  # e^t stays finite
    best = np.inf
    for newton in (True, True, True, False):
        shrink = np.exp(-t)
        d1, d0 = p1 + q1 * shrink, p0 + q0 * shrink
        with np.errstate(divide="ignore", invalid="ignore"):
            best = np.fmin(best, t * z + n1 * np.log(d1) + n0 * np.log(d0))
            if not newton:
                return best
            a1, a0 = q1 * shrink / d1, q0 * shrink / d0  # the tilted failure probabilities
        tilted_var = np.maximum(n1 * a1 * (1 - a1) + n0 * a0 * (1 - a0), 1e-300)
        t = np.clip(t + (n1 * a1 + n0 * a0 - z) / tilted_var, 0.0, 700.0)


def _log_complement(cdf, out):
    """log(1 - F) elementwise, into ``out``, for cdf values F >= 0 (rounding may take them a little past 1:
    taken as 1, log(1 - F) = -inf).

    Below _SERIES it is the series -F (1 + F/2 + F^2/3 + F^3/4), as exact as the logarithm: the terms
    left out, F^5/5 + F^6/6 + ..., add up to less than F^5 / (5 (1 - F)) < 2^-54 F there, and the
    series' own roundings (Horner's rule, the bracket about 1) to a few units of 2^-53 of F. Only the
    values at or above it (about one in ten on the Table 2 board, where most classifiers are still deep
    in their lower tails) pay for the logarithm, which costs as much as some twenty array operations.
    """
    np.multiply(cdf, -0.25, out=out)
    for coefficient in (1.0 / 3.0, 0.5, 1.0):
        out -= coefficient
        out *= cdf
    large = np.flatnonzero(cdf >= _SERIES)
    values = np.negative(cdf[large])
    out[large] = np.log1p(np.maximum(values, -1.0, out=values), out=values)
    return out


def _conditional_run(k, weights, tolerance, q1, q0, counts, n, m, pooled, count=None):
    """The computation of :func:`conditional_cdfs` for the given classifiers (``m``: all of them), mixed
    over k with ``weights`` as it goes: a :class:`_Run`. ``count`` (a :class:`_Count`) is told of the
    values of k finished."""
    classes = q1.size
    k_all = k.astype(float)
    mean = np.outer(q1, k_all) + np.outer(q0, n - k_all)
    sd = np.sqrt(np.outer(q1 * (1 - q1), k_all) + np.outer(q0 * (1 - q0), n - k_all))
    # One pair per (distinct classifier, value of k), laid out classifier-major.
    n1 = np.tile(k_all, classes)
    n0 = n - n1
    q1 = np.repeat(q1, k.size)
    q0 = np.repeat(q0, k.size)
    # A pair whose cdf is within tolerance / (2m) of 1 is set to 1 and no longer computed (see below).
    negligible = np.tile(tolerance, classes) / (2 * m)
    saturation = 1.0 - negligible
    # Start each k where all classifiers' cdfs add up to at most its tolerance: a normal guess, checked
    # with the exact mass below the start (or a bound on it), and moved down where it fails.
    reach = np.sqrt(2 * np.log(m / tolerance))
    start = np.maximum(np.floor((mean - reach * sd).min(axis=0)), 0.0)
    while True:
        below, steps = _two_binomials.cdf_steps(np.tile(start, classes), n1, q1, n0, q0, tail=negligible)
        low = (counts @ np.minimum(below, 1.0).reshape(classes, -1) > tolerance) & (start > 0)
        if not low.any():
            break
        start[low] = np.maximum(start[low] - np.ceil(sd.min(axis=0)[low]), 0.0)
    start = start.astype(int)

    # A cdf summed from hundreds of pmf values is 1 only to within rounding: finish there at the latest.
    log_tolerance = np.log(np.maximum(tolerance, _ROUNDING))
    shares = counts / m
    # A pair whose cdf is within tolerance / (2m) of 1 is set to 1 and no longer computed: pooled, that
    # moves each k's mixture cdf by at most tolerance / (2m) and its best-of-m cdf by at most tolerance / 2
    # (without pooling the k is then finished anyway). Pooled, many classifiers must pass their mode before
    # a k finishes, and past its mode each pmf value of a pair is a direct sum: this keeps those sums to
    # the pairs still short of 1. The generator proves it from the pmf (``tail``): the cdf computed may
    # stay short of 1 by more than tolerance / (2m) (the mass below the start, rounding), the pmf does not.
    alive = np.arange(n1.size)  # the pairs the generator still computes
    cdf = np.zeros(n1.size)  # all pairs' cdfs once the generator has dropped some (before, its own buffer)
    log_rest = np.empty(n1.size)  # log(1 - cdf), a buffer
    saturated = np.zeros(n1.size, bool)  # saturated pairs have cdf 1 >= saturation: reset each step
    saturated_count = 0
    finished = np.zeros(k.size, bool)
    # The mixture over k: k's value at its step s goes to position start - first + s; the values of k
    # sharing a start are summed first. From the step after it finishes, k counts as 1 (``ends``).
    first = int(start.min())
    offsets, group = np.unique(start - first, return_inverse=True)
    mixture = np.zeros(int(offsets[-1]) + 256)
    ends = np.zeros(k.size, int)
    block, kept = _CHECK, []  # log(1 - F) at steps 0, block, 2 block, ...
    step = 0
    partial, dropped = next(steps)
    with np.errstate(divide="ignore"):  # a cdf of 1 makes log(1 - F) -inf, as it should
        while True:
            if dropped is not None:
                alive = alive[dropped]
            if alive.size == cdf.size:
                values = partial  # the generator's buffer, which the caller may overwrite
            else:
                values = cdf
                values[alive] = partial
            if saturated_count:
                values[saturated] = 1.0
            if pooled:
                log_none = m * np.log1p(-np.minimum(shares @ values.reshape(classes, -1), 1.0))
            else:
                log_none = counts @ _log_complement(values, log_rest).reshape(classes, -1)
            log_none[finished] = -np.inf
            if offsets[-1] + step >= mixture.size:
                mixture = np.concatenate([mixture, np.zeros(mixture.size)])
            mixture[offsets + step] += np.bincount(
                group, np.where(finished, 0.0, -weights * np.expm1(log_none)), minlength=offsets.size
            )
            if step % block == 0:
                kept.append(log_none)
                if len(kept) * k.size > _CELLS and len(kept) > 2:  # coarser blocks: a looser bound, as valid
                    kept, block = kept[::2], 2 * block
            step += 1
            newly = ~finished & ((log_none <= log_tolerance) | (start + step > n))  # P(X <= n) = 1
            ends[newly] = start[newly] - first + step
            finished |= newly
            if count is not None:
                count.add(int(np.count_nonzero(newly)))
            if finished.all():
                break
            before, saturated_count = (
                saturated_count,
                np.count_nonzero(np.greater_equal(values, saturation, out=saturated)),
            )
            full = saturated_count > before
            done = (saturated.reshape(classes, -1) | finished).ravel()[alive] if newly.any() or full else None
            partial, dropped = steps.send(done)
    size = int(offsets[-1]) + step
    mixed = mixture[:size] + np.cumsum(np.bincount(ends, weights, minlength=size + 1))[:size]
    return _Run(start, step, block, np.array(kept).T, (first, mixed, float(weights.sum())))
