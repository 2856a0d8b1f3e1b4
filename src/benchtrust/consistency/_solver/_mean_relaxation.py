"""Mean of scores (paper §4.3): the real relaxation, decided exactly, and a witness by rounding.

Before the exact search of :mod:`._mean_of_scores`, two cheap arguments settle most problems with large
sets (per-image scores over images of 10^5 to 10^7 pixels, where the sums of fractions are dense and the
search would hand over to HiGHS), or many sets of middling size (DIARETDB0's batches of images).

The relaxation
--------------
With x_i = tp_i/p_i and y_i = tn_i/n_i taken as real numbers in [0, 1], the means of Eq. 9 are linear:
with X = Σ x_i, Y = Σ y_i over the N_e sets and w_i = p_i/(p_i + n_i), v_i = 1 - w_i,

* sensitivity: X/N_e, specificity: Y/N_e, balanced accuracy: (X + Y)/(2N_e),
* accuracy: A/N_e, A = Σ w_i·x_i + v_i·y_i.

The first three confine (X, Y) to a polygon P (a box cut by a band on X + Y). For given X the least
Σ w_i·x_i is a fractional knapsack, x filled in increasing order of w_i, and the same holds for Y; the
least A over P is then the cheapest way of adding, beyond the lower ends of X and Y, what X + Y still
lacks: the remaining pieces of both kinds taken in one increasing order of their weights, each kind up to
its room (a greedy choice, optimal for these nested constraints). The most A is Σ w_i + Σ v_i less the
least A of the reflected problem (1 - x_i, 1 - y_i). The relaxation is a linear programme, so the
accuracies it reaches form the interval [least A, most A]: it is feasible exactly when P is not empty and
that interval meets the reported one. All of it is computed in whole numbers (the interval ends are
binary fractions, taken exactly; the weights are multiples of 1/lcm(p_i + n_i)). Counts that give the
reported means are a point of the relaxation, so *when it is infeasible no counts exist*: a theorem,
with no solver.

The witness
-----------
Otherwise the relaxation suggests counts. Every set is put at the sensitivity and specificity the
reported means point to (a least-squares fit to the centres of sens, spec and bacc, accuracy filling in
what they leave open); when accuracy is reported, the sets are then moved, keeping X and Y, until A is
the reported accuracy's: by the least change where it stays in [0, 1], else towards the solution with the
least (most) A. Then x_i·p_i and y_i·n_i are rounded to the nearest whole numbers, which moves a mean by at
most half a count per set ((1/N_e)·Σ 1/(2p_i) for sensitivity). If a mean leaves its interval, counts
within one (then two) of the nearest are searched, meet in the middle: for each class, every choice for
the :data:`FREE` coarsest sets, in two halves matched on the class's own window by sorting; then one
vector per class, matched on the accuracy window. Floats pick the candidates; counts are only returned
once checked exactly in whole numbers (each mean a sum of fractions over their least common denominator,
against the exact interval ends). A witness that is not found says nothing: the exact search decides.

Where they are tried
--------------------
Where their assumptions hold: no per-set bounds (Eq. 10) and no score undefined in a set (every set has a
positive where sensitivity or balanced accuracy is reported, a negative where specificity or balanced
accuracy is). Both cost about as much as the exact search of a small problem, so they are tried on large
sets (rounding moves every mean by less than half its interval), the relaxation also on a problem alone,
and the witness there too when both classes have more ways to fill their sets than :data:`BOXES`. Small
problems keep the exact search's answer and evidence.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math

import numpy as np

from benchtrust.consistency._solver._mean_constraints import base_intervals

#: The sets of each class whose counts the witness varies (the coarsest), and by how much at most
#: around the nearest whole number, in turn: (2·spread + 1)**(FREE/2) choices for each half of them.
FREE, SPREADS = 10, (1, 2, 3)

#: A problem alone is given to the witness when each class has more ways to fill its sets than this
#: (Π(p_i + 1) and Π(n_i + 1)), the states one step of the exact search may create (its ``BUDGET``).
BOXES = 1 << 16

#: The most candidates the witness keeps at each match.
_PAIRS = 1 << 12


def screened(positives, negatives, given):
    """The problems (rows) the exact search must still decide, and the answer if it finds none there.

    The rows are taken in order. Where the relaxation applies (module notes) and shows a row infeasible,
    the row is dropped; where the sets are large enough for rounding and the witness is found, the rows
    after it are dropped too, and it is the answer unless an earlier row left to the search has counts.

    Parameters
    ----------
    positives, negatives : numpy.ndarray of int, shape (problems, sets)
    given : Constraints

    Returns
    -------
    (numpy.ndarray of int, (int, numpy.ndarray) or None)
        The indices of the rows left, increasing, and (index, verified counts) of the witness, or None.

    Examples
    --------
    >>> from benchtrust.consistency import reported_scores
    >>> from benchtrust.consistency._solver._mean_constraints import constraints
    >>> given = constraints(reported_scores({"acc": 0.5, "sens": 0.9, "spec": 0.1}, eps=1e-3))

    Sets of 10% positives give a mean accuracy near 0.1·0.9 + 0.9·0.1 = 0.18, balanced ones 0.5:

    >>> p, n = np.array([[10_000, 10_000], [50_000, 50_000]]), np.array([[90_000, 90_000], [50_000, 50_000]])
    >>> rows, (index, counts) = screened(p, n, given)
    >>> rows.tolist(), index, counts.tolist()
    ([], 1, [[45000, 5000], [45000, 5000]])
    """
    p, n = np.asarray(positives), np.asarray(negatives)
    means = base_intervals((rep.score, *rep.interval) for rep in given.means)
    applies = _applies(p, n, given, means)
    fine = applies & _fine(p, n, means)
    # Both cost about as much as the exact search of a small problem, which they leave to it: they are
    # tried on the rows with large sets, the relaxation on a problem alone too, and the witness there
    # where each class has more ways to fill its sets than the exact search's states (BOXES).
    alone = applies & (len(p) == 1)
    relaxed = fine | alone
    rounded = fine | alone & (np.log1p(p).sum(axis=1) > math.log(BOXES)) & (
        np.log1p(n).sum(axis=1) > math.log(BOXES)
    )
    if not relaxed.any():
        return np.arange(len(p)), None
    ends, unit = _sums(means, p.shape[1])
    left = []
    for row in range(len(p)):
        if relaxed[row] and not _feasible(p[row], n[row], ends, unit):
            continue
        if (
            rounded[row]
            and (counts := _witness(p[row].tolist(), n[row].tolist(), means, ends, unit)) is not None
        ):
            return np.array(left, dtype=np.int64), (row, counts)
        left.append(row)
    return np.array(left, dtype=np.int64), None


def _applies(p, n, given, means):
    """Per row: no per-set bounds and no score undefined in a set (module notes)."""
    ok = (p + n > 0).all(axis=1) & (not given.each)
    if means.keys() & {"sens", "bacc"}:
        ok &= (p > 0).all(axis=1)
    if means.keys() & {"spec", "bacc"}:
        ok &= (n > 0).all(axis=1)
    return ok


def _fine(p, n, means):
    """Per row: whether rounding every set's counts moves each reported mean by less than half the width
    of its interval (module notes), so that the witness is worth trying (rows it applies to: a class
    missing from a set only where no reported score needs it)."""
    half_p, half_n, whole = (1 / np.maximum(np.stack([p, n, p + n]), 1)).mean(axis=2) * [[0.5], [0.5], [1]]
    moves = {"sens": half_p, "spec": half_n, "bacc": (half_p + half_n) / 2, "acc": whole}
    ok = np.ones(len(p), dtype=bool)
    for base, (low, high) in means.items():
        ok &= moves[base] < float(high - low) / 2
    return ok


def relaxation_feasible(positives, negatives, given):
    """Whether real x_i, y_i in [0, 1] give every reported mean (module notes), decided exactly.

    False is a proof that no counts exist. No per-set bounds and no score undefined in a set (see
    :func:`screened`).

    Examples
    --------
    Three sets of 10 positives and 90 negatives: a mean accuracy of 0.5 needs a mean sensitivity and
    specificity of about 0.5 each, not 0.9 and 0.9:

    >>> from benchtrust.consistency import reported_scores
    >>> from benchtrust.consistency._solver._mean_constraints import constraints
    >>> given = constraints(reported_scores({"acc": 0.5, "sens": 0.9, "spec": 0.9}, eps=1e-3))
    >>> relaxation_feasible([10, 10, 10], [90, 90, 90], given)
    False

    Sets of opposite class balance: with a mean sensitivity and specificity of 0.5, the mean accuracy can
    be anything from 0.1 (x = (1, 0), y = (0, 1)) to 0.9:

    >>> given = constraints(reported_scores({"acc": 0.3, "sens": 0.5, "spec": 0.5}, eps=1e-3))
    >>> relaxation_feasible([10, 90], [90, 10], given)
    True
    """
    means = base_intervals((rep.score, *rep.interval) for rep in given.means)
    return _feasible(positives, negatives, *_sums(means, len(positives)))


def _sums(means, sets):
    """The exact ends of the sums X, Y, X + Y and A (module notes) as whole numbers of 1/``unit``,
    and ``unit``."""
    factor = {"sens": sets, "spec": sets, "bacc": 2 * sets, "acc": sets}
    unit = math.lcm(*(end.denominator for pair in means.values() for end in pair))
    ends = {
        base: [factor[base] * end.numerator * (unit // end.denominator) for end in pair]
        for base, pair in means.items()
    }
    return ends, unit


def _feasible(positives, negatives, ends, unit):
    """:func:`relaxation_feasible` in whole numbers: amounts of 1/``unit``, weights w_i of 1/L,
    L = lcm(c_i)."""
    p, n = [int(v) for v in positives], [int(v) for v in negatives]
    scale = math.lcm(*(p_i + n_i for p_i, n_i in zip(p, n, strict=True)))
    xs = sorted(p_i * (scale // (p_i + n_i)) for p_i, n_i in zip(p, n, strict=True) if p_i)
    ys = sorted(n_i * (scale // (p_i + n_i)) for p_i, n_i in zip(p, n, strict=True) if n_i)
    x0, x1 = _bounds(ends.get("sens"), unit, len(xs))
    y0, y1 = _bounds(ends.get("spec"), unit, len(ys))
    s0, s1 = _bounds(ends.get("bacc"), unit, len(xs) + len(ys))
    if not (x0 <= x1 and y0 <= y1 and max(s0, x0 + y0) <= min(s1, x1 + y1)):
        return False
    if "acc" not in ends:
        return True
    low, high = ends["acc"]
    if low > high:  # accuracy and error rate reported apart, their intervals disjoint
        return False
    whole = (sum(xs) + sum(ys)) * unit
    reflected = (len(xs) * unit - x1, len(xs) * unit - x0, len(ys) * unit - y1, len(ys) * unit - y0)
    least = _least(xs, ys, unit, x0, x1, y0, y1, s0)
    most = whole - _least(xs, ys, unit, *reflected, (len(xs) + len(ys)) * unit - s1)
    return least <= high * scale and low * scale <= most


def _bounds(ends, unit, room):
    """[lo, hi] of a sum of ``room`` recalls at most, from the ends of :func:`_sums` (or none)."""
    if ends is None:
        return 0, room * unit
    return max(0, ends[0]), min(room * unit, ends[1])


def _least(xs, ys, unit, x0, x1, y0, y1, s0):
    """The least Σ W·x + Σ V·y with X in [x0, x1], Y in [y0, y1], X + Y >= s0 (module notes).

    ``xs`` and ``ys``: the weights of the pieces, increasing, each piece of room ``unit`` (the amounts
    are in units 1/``unit``); the bounds must describe a polygon that is not empty.
    """
    cost_x, rest_x = _take(xs, x0, unit)
    cost_y, rest_y = _take(ys, y0, unit)
    cost, need = cost_x + cost_y, s0 - x0 - y0
    room = [x1 - x0, y1 - y0]
    pieces = heapq.merge(((w, r, 0) for w, r in rest_x), ((v, r, 1) for v, r in rest_y))
    for weight, size, kind in pieces:
        if need <= 0:
            break
        amount = min(size, room[kind], need)
        cost, need, room[kind] = cost + amount * weight, need - amount, room[kind] - amount
    return cost


def _take(weights, amount, unit):
    """The cost of the first ``amount`` of the pieces (room ``unit`` each) and what is left of them."""
    full, part = divmod(amount, unit)
    cost = sum(weights[:full]) * unit
    if full == len(weights):
        return cost, []
    rest = [(weights[full], unit - part)] + [(weight, unit) for weight in weights[full + 1 :]]
    return cost + part * weights[full], rest


def rounded_witness(positives, negatives, given):
    """Counts found by rounding a solution of the relaxation (module notes), checked exactly; or None.

    None says nothing: the sets may be too small for rounding to keep every mean in its interval, or
    the rounded point may miss; the exact search then decides. No per-set bounds and no score undefined
    in a set (see :func:`screened`).

    Examples
    --------
    The 20 DRIVE test images within the field of view (annotator 1), about 30,000 vessel pixels and
    200,000 others each:

    >>> from benchtrust.consistency import dataset, reported_scores
    >>> from benchtrust.consistency._solver._mean_constraints import constraints, verified
    >>> p, n = zip(*dataset("drive/test/manual1/fov").folds)
    >>> given = constraints(reported_scores({"acc": 0.9557, "sens": 0.7761, "spec": 0.9792}, eps=1e-4))
    >>> counts = rounded_witness(p, n, given)
    >>> counts[:2].tolist(), verified(p, n, counts, given)
    ([[26691, 193290], [30604, 143000]], True)

    Sets too small: no counts near the relaxation's point give these means (none at all do):

    >>> rounded_witness([7, 8], [53, 52], given) is None
    True
    """
    means = base_intervals((rep.score, *rep.interval) for rep in given.means)
    p, n = [int(v) for v in positives], [int(v) for v in negatives]
    return _witness(p, n, means, *_sums(means, len(p)))


def _witness(p, n, means, ends, unit):
    """:func:`rounded_witness` on lists of ints, given the exact intervals of the base scores and
    :func:`_sums` (in plain Python: the sets are a few dozen, numpy's overhead would dominate)."""
    centres = {base: float(low + high) / 2 for base, (low, high) in means.items()}
    widths = {base: float(high - low) for base, (low, high) in means.items()}
    w = [p_i / (p_i + n_i) for p_i, n_i in zip(p, n, strict=True)]
    x, y = _uniform(centres, widths, sum(w) / len(w))
    x, y = [x if p_i else 0.0 for p_i in p], [y if n_i else 0.0 for n_i in n]
    if "acc" in means:
        x, y = _towards_accuracy(x, y, w, len(p) * centres["acc"])
    nearest = [[round(a * p_i), round(b * n_i)] for a, b, p_i, n_i in zip(x, y, p, n, strict=True)]
    farther = (_nearby(p, n, x, y, ends, unit, spread) for spread in SPREADS)  # tried lazily
    for counts in itertools.chain([nearest], farther):
        if counts is not None and _holds(p, n, counts, ends, unit):
            return np.array(counts, dtype=np.int64)
    return None


def _nearby(p, n, x, y, ends, unit, spread):
    """Counts near x_i·p_i and y_i·n_i (each within ``spread`` of the nearest whole number) that may give
    every mean (the first candidate found, to be checked exactly), or None if none is found.

    Each class on its own first: count vectors whose sum of recalls lies in its window (the reported
    one, else one around the relaxation's sum as wide as the windows that couple the classes), by
    :func:`_side`; then a pair of them, one per class, whose accuracy (or balanced accuracy) lies in its
    window, by sorting and binary search, the other coupling window checked pair by pair. Floats pick
    the candidates.
    """
    p, n = np.array(p, dtype=np.int64), np.array(n, dtype=np.int64)
    c = p + n
    windows = {base: (low / unit, high / unit) for base, (low, high) in ends.items()}
    own_p = np.divide(1, p, out=np.zeros(len(p)), where=p > 0)
    own_n = np.divide(1, n, out=np.zeros(len(n)), where=n > 0)
    x, y = np.array(x), np.array(y)
    coupling = min(
        (high - low for base, (low, high) in windows.items() if base in ("acc", "bacc")), default=1.0
    )
    around = {"sens": x.sum(), "spec": y.sum()}
    sides = {}
    for base, target, size, own in (("sens", x * p, p, own_p), ("spec", y * n, n, own_n)):
        window = windows.get(base, (around[base] - coupling / 2, around[base] + coupling / 2))
        sides[base] = _side(target, size, own, window, spread)
    tps, tns = sides["sens"], sides["spec"]
    first = {"bacc": tps @ own_p, "acc": tps @ (1 / c)}
    second = {"bacc": tns @ own_n, "acc": tns @ (1 / c)}
    key, *others = [base for base in ("acc", "bacc") if base in windows] or ["acc"]
    i, j = _pairs(first[key], second[key], windows.get(key, (-np.inf, np.inf)))
    ok = np.ones(len(i), dtype=bool)
    for base in others:
        ok &= _inside(first[base][i] + second[base][j], windows[base])
    if not ok.any():
        return None
    a, b = i[ok][0], j[ok][0]
    return np.stack([tps[a], tns[b]], axis=1).tolist()


def _side(target, size, own, window, spread):
    """Up to :data:`_PAIRS` count vectors of one class near ``target`` with Σ count·own in ``window``.

    The :data:`FREE` sets of the largest ``own`` (the coarsest steps) vary by up to ``spread`` around
    the nearest whole number, the others stay there; meet in the middle: every choice for each half of
    the free sets, the halves matched on the window by sorting and binary search.
    """
    base = np.clip(np.rint(target), 0, size)
    free = np.argsort(-own, kind="stable")[:FREE]
    halves = free[: len(free) // 2], free[len(free) // 2 :]
    values, sums = [], []
    for sets in halves:
        chosen = np.clip(base[sets] + _grid(len(sets), spread), 0, size[sets])
        values.append(chosen)
        sums.append((chosen - base[sets]) @ own[sets])
    start = base @ own
    i, j = _pairs(sums[0], sums[1], (window[0] - start, window[1] - start))
    out = np.tile(base, (len(i), 1))
    out[:, halves[0]], out[:, halves[1]] = values[0][i], values[1][j]
    return out


@functools.cache
def _grid(sets, spread):
    """Every vector of ``sets`` steps in [-spread, spread], as rows."""
    rows = list(itertools.product(range(-spread, spread + 1), repeat=sets))
    return np.array(rows, dtype=np.int64).reshape(len(rows), sets)


def _pairs(first, second, window):
    """Indices (i, j), at most about :data:`_PAIRS` of them, with first[i] + second[j] in ``window``;
    when there are more, a few for each i (varied pairs, for the matches that follow)."""
    order = np.argsort(second, kind="stable")
    ordered = second[order]
    start = np.searchsorted(ordered, window[0] - first, side="left")
    size = np.maximum(np.searchsorted(ordered, window[1] - first, side="right") - start, 0)
    if size.sum() > _PAIRS:
        size = np.minimum(size, max(_PAIRS // max(np.count_nonzero(size), 1), 1))
    i = np.repeat(np.arange(len(first)), size)
    j = order[np.repeat(start, size) + np.arange(len(i)) - np.repeat(np.cumsum(size) - size, size)]
    return i, j


def _inside(values, window):
    """Which values lie in the window (all when there is none)."""
    if window is None:
        return np.ones(len(values), dtype=bool)
    return (values >= window[0]) & (values <= window[1])


def _uniform(centres, widths, w):
    """(x, y), the same in every set: the least-squares fit, each equation weighted by 1/width, to the
    centres of the reported recall means (sens, spec, bacc), accuracy (mean weight ``w``) added where
    they leave one open, and a faint x = y where the equations still do."""
    equations = {"sens": (1.0, 0.0), "spec": (0.0, 1.0), "bacc": (0.5, 0.5), "acc": (w, 1 - w)}
    rows = [base for base in ("sens", "spec", "bacc") if base in centres]
    if len(rows) < 2 and "acc" in centres:
        rows.append("acc")
    system = [(*equations[base], centres[base], 1 / max(widths[base], 1e-12)) for base in rows]
    system.append((1.0, -1.0, 0.0, 1e-3 * max((f for *_, f in system), default=1.0)))
    # The normal equations of the 2-unknown least-squares problem, solved by Cramer's rule.
    aa = sum((a * f) ** 2 for a, _, _, f in system)
    ab = sum(a * b * f * f for a, b, _, f in system)
    bb = sum((b * f) ** 2 for _, b, _, f in system)
    ac = sum(a * c * f * f for a, _, c, f in system)
    bc = sum(b * c * f * f for _, b, c, f in system)
    det = aa * bb - ab * ab
    x, y = (ac * bb - ab * bc) / det, (aa * bc - ab * ac) / det
    return min(max(x, 0.0), 1.0), min(max(y, 0.0), 1.0)


def _towards_accuracy(x, y, w, target):
    """(x, y) changed, keeping the sums X and Y, so that A = Σ w·x + (1 - w)·y is ``target`` (or as near
    as the relaxation allows).

    The least change (in the sum of squares) is Δx_i = -Δy_i = λ·(w_i - w̄) over the sets holding both
    classes (w̄ their mean weight), which moves A by 2λ·Σ (w_i - w̄)²; where that leaves [0, 1], (x, y) is
    moved instead towards the solution of the same X and Y with the least or the most A.
    """
    now = sum(w_i * (a - b) + b for w_i, a, b in zip(w, x, y, strict=True))
    both = [0 < w_i < 1 for w_i in w]
    mean = sum(w_i for w_i, inside in zip(w, both, strict=True) if inside) / max(sum(both), 1)
    d = [w_i - mean if inside else 0.0 for w_i, inside in zip(w, both, strict=True)]
    spread = 2 * sum(v * v for v in d)
    if spread > 0:
        near_x = [a + (target - now) / spread * v for a, v in zip(x, d, strict=True)]
        near_y = [b - (target - now) / spread * v for b, v in zip(y, d, strict=True)]
        if all(0 <= v <= 1 for v in near_x + near_y):
            return near_x, near_y
    order = sorted(range(len(w)), key=w.__getitem__, reverse=target > now)
    far_x = _filled(sum(x), order, [w_i > 0 for w_i in w])
    far_y = _filled(sum(y), order[::-1], [w_i < 1 for w_i in w])
    far = sum(w_i * (a - b) + b for w_i, a, b in zip(w, far_x, far_y, strict=True))
    if far == now:
        return x, y
    share = min(max((target - now) / (far - now), 0.0), 1.0)
    return (
        [a + share * (f - a) for a, f in zip(x, far_x, strict=True)],
        [b + share * (f - b) for b, f in zip(y, far_y, strict=True)],
    )


def _filled(total, order, room):
    """Pieces of room 1 (where ``room``) filled in ``order`` up to ``total``."""
    out = [0.0] * len(order)
    for i in order:
        if room[i]:
            out[i] = min(max(total, 0.0), 1.0)
            total -= out[i]
    return out


def _holds(p, n, counts, ends, unit):
    """Whether the counts give every reported mean, in whole numbers: each sum of fractions (of the
    recalls, or of the accuracies) over its common denominator L, against the ends of :func:`_sums`."""
    tp, tn = [pair[0] for pair in counts], [pair[1] for pair in counts]
    if not all(0 <= a <= b for a, b in zip(tp + tn, p + n, strict=True)):
        return False
    sums = {}
    if ends.keys() & {"sens", "bacc"}:
        sums["sens"] = _fraction_sum(tp, p)
    if ends.keys() & {"spec", "bacc"}:
        sums["spec"] = _fraction_sum(tn, n)
    if "bacc" in ends:
        (a, la), (b, lb) = sums["sens"], sums["spec"]
        common = math.lcm(la, lb)
        sums["bacc"] = (a * (common // la) + b * (common // lb), common)
    if "acc" in ends:
        sums["acc"] = _fraction_sum(
            [a + b for a, b in zip(tp, tn, strict=True)], [a + b for a, b in zip(p, n, strict=True)]
        )
    return all(
        low * sums[base][1] <= sums[base][0] * unit <= high * sums[base][1]
        for base, (low, high) in ends.items()
    )


def _fraction_sum(numerators, denominators):
    """Σ a_i/b_i as (whole number, L) with L = lcm(b_i)."""
    common = math.lcm(*denominators)
    return sum(a * (common // b) for a, b in zip(numerators, denominators, strict=True)), common
