"""The dependent model's best-of-m cdf for large test sets, from characteristic functions (paper §4.1, §4.3).

:mod:`benchtrust.sota._conditional` runs each classifier's pmf of failures step by step, for every value
k of K (items the reference classifier gets right) and every count z: its work grows as n (about √n
values of k times √n of z), and the bootstrap over classifiers scans z until enough of the board has
passed its mode, so a board of 300 teams on n = 10^5 takes a minute and n = 10^7 is out of reach. This
module computes the same mixture

    F(z) = sum_k P(K = k) H(z | k),  H = 1 - prod_j (1 - G_j)^c_j  or, pooled,  1 - (1 - sum_j (c_j/m) G_j)^m,

G_j(z | k) = P(X_j <= z | k), X_j = Bin(k, q1_j) + Bin(n - k, q0_j), with work that does not grow with n:

* **G_j at every L-th count from its characteristic function.** X_j lives in a window of N = L M counts
  (its tails beyond, bounded by Chernoff, below _TAIL). The cdf of X_j - w0 reduced modulo N at the
  counts L l - 1 is l / M + (S_0 - S_l) / N with S_l = sum_{r != 0} Q_r e^{2 pi i r l / M},
  Q_r = phi(2 pi r / N) / (1 - e^{2 pi i r / N}) and phi the transform of X_j - w0: one FFT of length M
  of the Q_r folded modulo M. |phi| falls as exp(-sigma^2 (1 - cos t)), so only the first R frequencies
  count (R about 47 for any n: the rest below _TAIL); phi is a product of two binomials' transforms,
  evaluated in closed form.
* **A grid of k, bracketed.** q1_j <= q0_j when ρ >= 0, so X_j given k + 1 is X_j given k with one
  Bernoulli(q0_j) trial swapped for a Bernoulli(q1_j): stochastically smaller, and every G_j, hence H, grows
  with k. H is computed at some k (the nodes a_b, spaced as 1 / sqrt(P(K = k)), so the rare k far from the
  middle share wide gaps); the k between two nodes have H between the nodes' values, which brackets F
  between a lower and an upper cdf (each node's own weight is exact). The F reported is the middle.
* **The lattice of counts.** F is known at every L-th count: the distribution of the fewest failures
  rounded up to the lattice, i.e. of the best score rounded down to a lattice of L/n. Each lattice cell is
  reported at its middle.
* **Only what counts.** Per node, z stops where 1 - H <= _DONE is proved (Chernoff bounds on the upper
  tails) and classifiers whose cdfs up to there add up to at most _LEFT_OUT are left out.

L = floor(n _SCORE_ERROR) (at least 1), and the nodes are as few as keep the bracket's width in the expected
best score about _SCORE_ERROR (a guess from the slope of H in k, measured at two nodes; the nodes are
doubled if the bracket turns out wider): so the expected best score is within about _SCORE_ERROR of the
exact one, and the bound reported (:func:`benchtrust.sota._best_of._dependent_on_lattice`) is computed
from the bracket itself. With every k a node and L = 1 the result is the exact one, up to rounding. A node
costs about R transcendental evaluations and an FFT of length M per classifier: M is about 19 standard
deviations of X_j over L, which grows as sqrt(n) while L = 1 and falls as 1 / sqrt(n) from n = 80,000
on, and the nodes needed fall as 1 / sqrt(n).

References
----------
.. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
   performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §4.1 and §4.3, Eq. (10)-(11).
.. [2] P. J. Boland, F. Proschan and Y. L. Tong, "Modelling dependence in simple and indirect majority
   systems", Journal of Applied Probability 26, 81-88, 1989. doi:10.2307/3214318.
.. [3] J. W. Cooley and J. W. Tukey, "An algorithm for the machine calculation of complex Fourier series",
   Mathematics of Computation 19, 297-301, 1965. doi:10.2307/2003354.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from benchtrust.sota._conditional import _log_chernoff

#: The most the expected best score may be off by: half of it from the lattice of counts (its cells'
#: middles), half from the grid of k (the bracket). A quarter of the fourth decimal the estimates show.
_SCORE_ERROR = 2.5e-5
#: Probability each classifier's G may be off by from its tails outside its window and from the
#: frequencies left out (each below it).
_TAIL = 1e-17
#: 1 - H below this is taken as 0: each node's z stops where it is proved (:func:`_end`).
_DONE = 1e-13
#: Classifiers whose tails bound 1 - H in :func:`_end`, at least.
_STRONGEST = 64
#: Counts tried at once in the search of :func:`_end`.
_CANDIDATES = 32
#: How much H may move, at most, by the classifiers left out (:func:`_reach`).
_LEFT_OUT = 1e-14
#: Classifiers whose windows' widths are within this factor are computed together (:func:`_node`).
_WIDER = 1.25
#: Elements (classifiers x frequencies or lattice points) computed at once.
_BLOCK = 2**20


@dataclasses.dataclass(frozen=True, eq=False)
class LatticeCdf:
    """The mixed cdf on a lattice, bracketed.

    Attributes
    ----------
    z : numpy.ndarray of int
        Lattice points z_0 < z_1 < ... (spacing ``spacing``): F is known at these counts of failures.
    low, high : numpy.ndarray
        Lower and upper bounds of F(z) there.
    spacing : int
        L, counts between lattice points.
    nodes : int
        Values of k at which H was computed.
    """

    z: np.ndarray
    low: np.ndarray
    high: np.ndarray
    spacing: int
    nodes: int


def lattice_cdf(k, weights, q1, q0, counts, n, *, pooled=False, progress=None):
    """F(z) = sum_k w_k H(z | k) bracketed on a lattice of counts (see the module docstring).

    Parameters
    ----------
    k : numpy.ndarray of int
        Values of K, consecutive, ascending.
    weights : numpy.ndarray
        w_k = P(K = k), summing to 1.
    q1, q0 : numpy.ndarray
        Failure probabilities of each distinct classifier when the reference is right, and wrong
        (q1 <= q0).
    counts : numpy.ndarray
        Classifiers sharing each (c_j; may be fractional).
    n : int
        Test items.
    pooled : bool, default False
        1 - (1 - sum_j (c_j/m) G_j)^m (the bootstrap over classifiers) instead of 1 - prod_j (1 - G_j)^c_j.
    progress : callable, optional
        ``progress(done, total)``: nodes of k finished.

    Returns
    -------
    LatticeCdf

    Examples
    --------
    On a small test set (L = 1, every k a node) it is the exact cdf, here of two classifiers given
    k = 80 of n = 100, against the convolved binomials:

    >>> import numpy as np
    >>> from scipy import stats
    >>> def cdf(q1, q0):
    ...     right, wrong = stats.binom.pmf(np.arange(81), 80, q1), stats.binom.pmf(np.arange(21), 20, q0)
    ...     return np.cumsum(np.convolve(right, wrong))
    >>> q1, q0, counts = np.array([0.1, 0.2]), np.array([0.5, 0.5]), np.array([2.0, 1.0])
    >>> got = lattice_cdf(np.array([80]), np.ones(1), q1, q0, counts, 100)
    >>> want = 1 - (1 - cdf(0.1, 0.5)) ** 2 * (1 - cdf(0.2, 0.5))
    >>> inside = got.z >= 0
    >>> bool(np.abs(got.low[inside] - want[got.z[inside]]).max() < 1e-14), bool((got.low == got.high).all())
    (True, True)
    """
    m = float(counts.sum())
    lattice = max(1, int(n * _SCORE_ERROR))
    # The lattice: from below every window at the largest k to the end of F at the smallest k.
    first, last, keep = _reach(int(k[-1]), int(k[0]), q1, q0, counts, n, pooled)
    base = first - 1 - lattice  # lattice points base + L l; windows start at base + 1 + L u
    size = -(-(last - base) // lattice) + 1
    q1, q0, counts = q1[keep], q0[keep], counts[keep]

    def h(node):
        return _node(int(k[node]), q1, q0, counts, n, m, pooled, lattice, base, size)

    budget = n * _SCORE_ERROR  # the bracket's width in the expected count of failures, at most
    slope = _slope(weights, h, lattice)
    count = _node_count(weights, slope, budget / 1.5)
    while True:
        nodes = _nodes(weights, count)
        own = weights[nodes]
        between = np.append(np.add.reduceat(weights, nodes)[:-1] - own[:-1], 0.0)  # strictly between
        low, high = np.zeros(size), np.zeros(size)
        for b, node in enumerate(nodes):
            value = h(node)
            low += (own[b] + between[b]) * value
            high += (own[b] + between[b - 1]) * value  # between[-1] is 0
            if progress is not None:
                progress(b + 1, nodes.size)
        # The midpoint is off by at most half the bracket's width in the expected best score.
        if nodes.size == k.size or lattice * float(np.sum(high - low)) <= budget:
            break
        count *= 2
    z = base + lattice * np.arange(size)
    return LatticeCdf(z, np.minimum(low, 1.0), np.minimum(high, 1.0), lattice, nodes.size)


def _slope(weights, h, lattice):
    """How fast the expected count of failures falls with k (a guess): between the values of k one
    standard deviation either side of the most likely, from E = L sum_l (1 - H(z_l | k)) at each."""
    mode = int(np.argmax(weights))
    spread = max(1, int(np.sqrt(np.sum(weights * (np.arange(weights.size) - mode) ** 2))))
    if mode < spread or mode + spread >= weights.size:
        return np.inf  # every k a node
    return lattice * float(np.sum(h(mode + spread) - h(mode - spread))) / (2 * spread)


def _nodes(weights, count):
    """``count`` nodes (indices of k, the first and last among them) spaced as 1 / sqrt(w_k).

    The bracket's width is about the slope times sum_b W_b (a_{b+1} - a_b), W_b the weight between two
    nodes: for a given number of nodes it is least with gaps growing as w^{-1/2} (Lagrange), a third of
    the nodes of even gaps for the same width where K is about normal.
    """
    if count >= weights.size:
        return np.arange(weights.size)
    density = np.cumsum(np.sqrt(weights))
    marks = np.searchsorted(density, density[-1] * np.arange(1, count - 1) / (count - 1))
    return np.unique(np.concatenate([[0], marks, [weights.size - 1]]))


def _node_count(weights, slope, width):
    """The fewest nodes (to within an eighth, or all k) whose bracket is about ``width`` at most
    (:func:`_nodes`)."""

    def estimate(count):
        nodes = _nodes(weights, count)
        between = np.add.reduceat(weights, nodes)[:-1] - weights[nodes[:-1]]
        return slope * float(between @ np.diff(nodes))

    low, high = 2, 4
    while high < weights.size and estimate(high) > width:
        low, high = high, 2 * high
    if high >= weights.size:
        return weights.size
    while high - low > max(1, low // 8):
        middle = (low + high) // 2
        low, high = (middle, high) if estimate(middle) > width else (low, middle)
    return high


def _reach(k_high, k_low, q1, q0, counts, n, pooled):
    """The range of z to compute and the classifiers that count in it (a mask): :func:`_end` at the
    smallest k (1 - H falls with k), :func:`_kept` there at the largest k (G_j grows with k), and from
    below every window of those kept at the largest k (F is 0 there up to _TAIL each)."""
    start, _ = _windows(k_high, q1, q0, n)
    below, end = _windows(k_low, q1, q0, n)
    last = _end(k_low, q1, q0, counts, n, pooled, int(below.min()), int(end.max()))
    keep = _kept(k_high, q1, q0, counts, n, last) & (start <= last)
    return int(start[keep].min()), last, keep


def _end(k, q1, q0, counts, n, pooled, low, high):
    """The first count in [low, high] where 1 - H(z | k) <= _DONE is proved (else ``high``).

    1 - H is at most prod_j P(X_j > z)^c_j, pooled (sum_j (c_j/m) P(X_j > z))^m, each P(X_j > z) bounded
    by Chernoff (:func:`benchtrust.sota._conditional._log_chernoff` of n - X_j). Both bounds hold with
    P(X_j > z) taken as 1 for any classifiers: only the _STRONGEST with the fewest expected failures are
    bounded (pooled, also as many more as it takes to carry twice the share of the draws that must be
    past z for 1 - H <= _DONE).
    """
    n1, n0 = float(k), float(n - k)
    m = counts.sum()
    order = np.argsort(n1 * q1 + n0 * q0, kind="stable")
    strongest = _STRONGEST
    if pooled:
        need = -np.expm1(np.log(_DONE) / m)  # the mixture's tail must be 1 - need at most
        strongest = max(strongest, int(np.searchsorted(np.cumsum(counts[order]), 2 * need * m)) + 1)
    chosen = order[:strongest]
    q1, q0, counts, left = q1[chosen], q0[chosen], counts[chosen], (m - counts[chosen].sum()) / m

    def done(z):  # per count of z
        above = _log_chernoff(n - z - 1.0, n1, 1 - q1[:, None], n0, 1 - q0[:, None])
        if pooled:
            return m * np.log(np.minimum((counts / m) @ np.exp(above) + left, 1.0)) <= np.log(_DONE)
        return counts @ above <= np.log(_DONE)

    while high - low > 1:  # rounds of _CANDIDATES counts, each keeping the step where it first holds
        z = np.unique(np.linspace(low, high, _CANDIDATES).round().astype(int))
        proved = done(z.astype(float))
        if not proved.any():
            return high
        first = int(np.argmax(proved))
        if first == 0:
            return int(z[0])
        low, high = int(z[first - 1]), int(z[first])
    return high


def _kept(k, q1, q0, counts, n, last):
    """The classifiers that count up to ``last`` given k (a mask). Leaving some out moves H by at most
    sum_j c_j P(X_j <= z | k) (pooled too: its derivative in the mixture is at most m), largest at
    ``last``: those whose Chernoff bounds there add up to at most _LEFT_OUT are left out."""
    inside = counts * np.exp(_log_chernoff(float(last), float(k), q1, float(n - k), q0))
    order = np.argsort(inside, kind="stable")
    keep = np.ones(q1.size, bool)
    keep[order[np.cumsum(inside[order]) <= _LEFT_OUT]] = False
    keep[np.argmax(inside)] = True
    return keep


def _windows(k, q1, q0, n):
    """Per classifier, the first and last count of a window holding X_j given k but for at most _TAIL
    beyond each end (Chernoff bounds, :func:`benchtrust.sota._conditional._log_chernoff`)."""
    n1, n0 = float(k), float(n - k)
    mean = n1 * q1 + n0 * q0
    sd = np.sqrt(n1 * q1 * (1 - q1) + n0 * q0 * (1 - q0))
    reach = np.full(q1.size, 9.5)
    log_tail = np.log(_TAIL)
    while True:
        start = np.maximum(np.floor(mean - reach * sd - 1), 0.0)
        end = np.minimum(np.ceil(mean + reach * sd + 1), float(n))
        low = _log_chernoff(start - 1, n1, q1, n0, q0)  # P(X <= start - 1)
        high = _log_chernoff(n - end - 1, n1, 1 - q1, n0, 1 - q0)  # P(X >= end + 1)
        wide = ((low > log_tail) & (start > 0)) | ((high > log_tail) & (end < n))
        if not wide.any():
            return start.astype(int), end.astype(int)
        reach[wide] *= 1.2


def _node(k, q1, q0, counts, n, m, pooled, lattice, base, size):
    """H(z | k) at the lattice points base + L l, l < size: 1 from where :func:`_end` proves it within
    _DONE, from the classifiers :func:`_kept` there."""
    start, end = _windows(k, q1, q0, n)
    last = _end(k, q1, q0, counts, n, pooled, int(start.min()), base + lattice * (size - 1))
    keep = _kept(k, q1, q0, counts, n, last)
    q1, q0, counts, start, end = q1[keep], q0[keep], counts[keep], start[keep], end[keep]
    size, full = min(size, (last - base) // lattice + 1), size  # lattice points up to last
    u = (start - base - 1) // lattice  # window j starts at base + 1 + L u_j <= start_j
    cells = (end - (base + 1 + lattice * u)) // lattice + 1  # M_j: its lattice points reach end_j
    # Summed over classifiers: pooled the mixture of G, else sum_j c_j log(1 - G_j); each classifier from
    # its window's end on adds c_j/m (pooled), or makes H 1.
    total = np.zeros(size + 1)
    after = np.zeros(size + 1)
    # Groups of classifiers whose widths differ by at most _WIDER share one width (and frequencies, which
    # the narrowest sets): sorted by width, up to _BLOCK elements a group.
    order = np.argsort(cells, kind="stable")
    ordered = cells[order]
    first = 0
    while first < order.size:
        stop = int(np.searchsorted(ordered, _WIDER * ordered[first], side="right"))
        stop = min(stop, first + max(1, _BLOCK // int(ordered[stop - 1] + 64)))
        group, first = order[first:stop], stop
        width = _fast_length(int(ordered[stop - 1]))
        values = _cdf_block(k, q1[group], q0[group], n, lattice, width, base + 1 + lattice * u[group])
        if pooled:
            values *= (counts[group] / m)[:, None]
        else:
            with np.errstate(divide="ignore"):
                np.log1p(np.negative(values, out=values), out=values)
            values *= counts[group, None]
        index = np.minimum(u[group, None] + np.arange(1, width), size)  # those past the lattice: at size
        total += np.bincount(index.ravel(), values.ravel(), minlength=size + 1)
        past = np.minimum(u[group] + width, size)
        after += np.bincount(past, counts[group] / m if pooled else counts[group], minlength=size + 1)
    after = np.cumsum(after)[:size]
    h = np.ones(full)
    if pooled:
        with np.errstate(divide="ignore"):  # a mixture of 1 makes H 1
            h[:size] = -np.expm1(m * np.log1p(-np.minimum(total[:size] + after, 1.0)))
    else:
        with np.errstate(invalid="ignore"):
            h[:size] = np.where(after > 0, 1.0, -np.expm1(total[:size]))
    return h


def _fast_length(size):
    """The smallest length at least ``size`` whose prime factors are 2, 3 and 5 (fast FFTs)."""
    smooth = _smooth_numbers()
    return int(smooth[np.searchsorted(smooth, size)])


@functools.cache
def _smooth_numbers():
    """The 5-smooth numbers below 2^24, ascending: made on first use, not when the sota commands import
    this module (2 ms); each is a distinct product (np.unique would load numpy.ma)."""
    products = (2**a * 3**b * 5**c for a in range(24) for b in range(16) for c in range(11))
    return np.sort(np.array([value for value in products if value < 2**24]))


def _cdf_block(k, q1, q0, n, lattice, cells, w0):
    """G_j at w0_j + L l - 1, l = 1 .. cells - 1, for a group of classifiers sharing ``cells`` = M.

    The transform of X_j - w0_j at t_r = 2 pi r / N (N = L M), r = 1 .. R, in closed form: per binomial
    trial 1 - q + q e^{-i t}, whose modulus is sqrt(1 - 4 q (1 - q) sin^2(t / 2)) and argument
    -atan2(q sin t, 1 - 2 q sin^2(t / 2)); the shift by w0_j is reduced modulo N in integers.
    """
    size = lattice * cells
    n1, n0 = float(k), float(n - k)
    variance = n1 * q1 * (1 - q1) + n0 * q0 * (1 - q0)
    # |phi(t_r)| <= exp(-variance (1 - cos t_r)) <= exp(-8 variance r^2 / N^2): beyond R, below _TAIL.
    need = np.ceil(size * np.sqrt(-np.log(_TAIL) / (8 * np.maximum(variance.min(), 1e-300)))) + 1
    top = int(min(need, size // 2))
    r = np.arange(1, top + 1)
    t = 2 * np.pi * r / size
    half = np.sin(t / 2) ** 2
    full = np.sin(t)
    with np.errstate(divide="ignore"):  # |phi| is 0 at t = pi when q = 1/2
        log_modulus = 0.5 * (
            n1 * np.log1p(-4 * (q1 * (1 - q1))[:, None] * half)
            + n0 * np.log1p(-4 * (q0 * (1 - q0))[:, None] * half)
        )
    argument = -(
        n1 * np.arctan2(q1[:, None] * full, 1 - 2 * q1[:, None] * half)
        + n0 * np.arctan2(q0[:, None] * full, 1 - 2 * q0[:, None] * half)
    )
    shift = 2 * np.pi * ((r[None, :] * (w0[:, None] % size)) % size) / size
    phi = np.exp(log_modulus + 1j * (argument + shift))
    q = phi / (1 - np.exp(1j * t))
    if 2 * top == size:
        q[:, -1] *= 0.5  # the Nyquist frequency is its own negative
    if 2 * top < cells:  # S_l = 2 Re sum_r Q_r e^{2 pi i r l / M}: a real inverse transform
        spectrum = np.zeros((q1.size, cells // 2 + 1), complex)
        spectrum[:, 1 : top + 1] = q
        s = cells * np.fft.irfft(spectrum, cells, axis=1)
    else:  # more frequencies than lattice points: Q_r summed over r congruent modulo M
        blocks = -(-(top + 1) // cells)
        folded = np.zeros((q1.size, blocks * cells), complex)
        folded[:, 1 : top + 1] = q
        s = 2 * cells * np.fft.ifft(folded.reshape(q1.size, blocks, cells).sum(axis=1), axis=1).real
    g = s[:, :1] - s[:, 1:]
    g *= 1.0 / size
    g += np.arange(1, cells) / cells
    return np.clip(g, 0.0, 1.0, out=g)
