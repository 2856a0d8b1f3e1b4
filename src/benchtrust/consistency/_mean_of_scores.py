"""Mean of scores over several evaluation sets: do per-set confusion matrices exist? (paper §4.3, Eq. 8-10)

N_e evaluation sets (folds) hold p_i positives and n_i negatives. The question of §4.3 is whether whole
numbers tp_i in [0, p_i] and tn_i in [0, n_i] exist such that the mean over the sets of every reported
score lies in its interval (Eq. 8), for the scores linear in tp_i and tn_i (Eq. 9): accuracy, sensitivity,
specificity, balanced accuracy and the complements error rate, false negative rate and false positive rate
(the mean of 1 - score is 1 - the mean, so a complement is its base score with the interval reflected).
Optionally the smallest and largest score over the sets were reported too, so that every set's score lies
in [min - ε, max + ε] (Eq. 10).

Method: an exact search, with HiGHS as a fallback
-------------------------------------------------
Each reported mean becomes one integer *column*; with L the least common multiple of the denominators:

* sensitivity:   Σ tp_i·(L/p_i) in [⌈N_e·lo·L⌉, ⌊N_e·hi·L⌋], L = lcm(p_i)
* specificity:   Σ tn_i·(L/n_i), likewise, L = lcm(n_i)
* accuracy:      Σ (tp_i + tn_i)·(L/c_i), likewise, L = lcm(c_i), c_i = p_i + n_i
* bal. accuracy: Σ tp_i·(L/p_i) + tn_i·(L/n_i) in [⌈2N_e·lo·L⌉, ⌊2N_e·hi·L⌋], L = lcm(p_i, n_i)

where [lo, hi] is the reported interval (already widened by ``TOLERANCE``), taken exactly as the binary
fractions its floats are: every window is exact integer arithmetic. Bounds of Eq. 10 on sensitivity and
specificity narrow each tp_i and tn_i to a range; those on accuracy and balanced accuracy couple the two
counts of a set (tp_i + tn_i in a range; n_i·tp_i + p_i·tn_i in a range).

The search is a dynamic programme over the sets. Its *states* are the vectors of partial column sums,
kept exactly (int64, or Python integers where int64 could overflow) and deduplicated after every step. At
each step a state is extended only by the counts that can still bring every column into its window once
the smallest and the largest possible contributions of all remaining sets are added; anything dropped is
thus proved unable to work. Unless bounds couple tp_i and tn_i, the positives (all tp_i) and the negatives
(all tn_i) are searched apart, each side's states holding only its own columns (a count then has an exact
range of useful values, one division per column), and the final states of the two sides are joined on
the columns both touch (accuracy, balanced accuracy): sorted on one, matched by binary search, checked on
the other. Identical sets (same p_i, n_i) are merged first: m of them reach exactly the sums m·lo..m·hi of
their counts. When the reported scores are high (or low) the windows sit near a corner of the count space
and the states stay few: the k-fold cases of §5.2 need about a thousand per fold configuration.

Many problems of the same shape (the fold configurations of §4.4.3) are searched at once: each state
carries the index of its problem, and the first problem with a solution, in the given order, is returned.

*An "inconsistent" verdict of the search is a theorem*: every combination of counts was either reached
and found outside a window, or excluded by the interval argument above, all in exact integer arithmetic.

If a step would create more than :data:`BUDGET` states per problem (many sets with many distinct
denominators and scores far from 0 and 1, where the sums of fractions are dense), a batch is split, and a
single problem over budget goes to the mixed-integer solver HiGHS (``scipy.optimize.milp``): variables
tp_i, tn_i, the mean rows widened outward by :data:`MARGIN` (1e-5, in score units) and the integer per-set
rows by 1/2. Counts that satisfy the exact intervals satisfy the widened rows with a slack of 1e-5: a
hundred times HiGHS's primal feasibility tolerance (1e-7) and five times the most its integrality
tolerance (1e-6 per variable) can move a mean row (2e-6, the row's coefficients summing to at most 2).
So when HiGHS declares the widened problem infeasible, no counts exist; that verdict rests on HiGHS being
right within its tolerances, not on exhaustive arithmetic. A solution HiGHS finds is rounded and checked
exactly; if neither it nor a solution of the narrowed problem passes, the exact search runs unbudgeted.
(HiGHS runs without presolve, which fails on some tiny problems in the HiGHS that scipy bundles; the rows
are few anyway.)

Counts are only ever returned after :func:`verified` has recomputed every score of every set as a
``fractions.Fraction`` and compared the means (and bounds) with the reported intervals' exact ends.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np

from benchtrust._io import InputError
from benchtrust.consistency._reported import reported_scores
from benchtrust.consistency._scores import score as _score

#: The scores a mean of scores can be tested for (§4.3): name -> (base score, is a complement 1 - base).
LINEAR = {
    "acc": ("acc", False),
    "sens": ("sens", False),
    "spec": ("spec", False),
    "bacc": ("bacc", False),
    "err": ("acc", True),
    "fnr": ("sens", True),
    "fpr": ("spec", True),
}

#: States the exact search may create per problem and step; past it a batch is split, and a single
#: problem goes to HiGHS (where the sums of fractions are that dense, HiGHS is the faster).
BUDGET = 1 << 16

#: States one step may create in all, whatever the budget (memory).
MOST = 1 << 20

#: Outward widening of the mean rows given to HiGHS (score units); see the module notes.
MARGIN = 1e-5

#: The base scores, in column order, and the class counts each needs to be defined in every set.
_BASES = ("sens", "spec", "acc", "bacc")
_NEEDS = {"sens": (True, False), "spec": (False, True), "acc": (False, False), "bacc": (True, True)}


@dataclasses.dataclass(frozen=True)
class Constraints:
    """What the per-set counts must give.

    Attributes
    ----------
    means : tuple of Reported
        Reported means over the sets (Eq. 9); each mean must lie in [low, high].
    each : tuple of (str, float, float)
        (score, low, high): every set's score must lie in [low, high] (Eq. 10).
    """

    means: tuple
    each: tuple = ()


def constraints(reported, bounds=None, *, eps=None, rounding="round"):
    """The :class:`Constraints` of reported mean scores and optional per-set bounds (Eq. 9, 10).

    Parameters
    ----------
    reported : tuple of Reported
        The reported means, from :func:`~benchtrust.consistency.reported_scores`.
    bounds : mapping, optional
        Score name -> (min, max), the smallest and largest score over the sets as reported (numbers or
        their text). Each end stands for an interval as a reported score does (ε given or inferred from
        its decimals, see ``eps`` and ``rounding``), so every set's score lies in [min - ε, max + ε].
    eps, rounding
        As for :func:`~benchtrust.consistency.reported_scores`, for the bounds.

    Examples
    --------
    >>> from benchtrust.consistency import reported_scores
    >>> c = constraints(reported_scores({"acc": "0.83"}), {"sens": ("0.70", "0.79")})
    >>> c.each
    (('sens', 0.694999999, 0.795000001),)
    >>> constraints(reported_scores({"acc": 0.9, "f1": 0.8}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    benchtrust.InputError: scores: the mean-of-scores test takes acc, sens, ... not f1p
    """
    others = [rep.score for rep in reported if rep.score not in LINEAR]
    if others:
        raise InputError(f"scores: {_linear_only()}, not {', '.join(others)}")
    return Constraints(means=tuple(reported), each=_bounds(bounds, eps, rounding))


def solve(positives, negatives, given, *, budget=BUDGET):
    """Per-set counts (tp_i, tn_i) that give every constraint, or None if none exist (§4.3, Eq. 9-10).

    Parameters
    ----------
    positives, negatives : array_like of int
        p_i and n_i of the sets (each set holds at least one item).
    given : Constraints
        The reported means and per-set bounds.
    budget : int or None
        States the exact search may create per step before HiGHS takes over; None: no limit.

    Returns
    -------
    numpy.ndarray of int, shape (sets, 2), or None
        Counts verified exactly with :func:`verified`; None when no counts exist (see the module notes
        for what that conclusion rests on).

    Examples
    --------
    Five folds of 60 items, mean accuracy 0.9447 ± 0.0001: the mean of five accuracies x_i/60 is a whole
    number over 300, and 283.38 <= 300·mean <= 283.44 holds for none (the EHG case of §5.2):

    >>> from benchtrust.consistency import reported_scores
    >>> folds = [(7, 53), (7, 53), (8, 52), (8, 52), (8, 52)]
    >>> p, n = zip(*folds)
    >>> given = constraints(reported_scores({"acc": 0.9447}, eps=1e-4))
    >>> solve(p, n, given) is None
    True

    Sensitivity 0.9 ± 0.001 needs 14 true positives in the folds of 7 and 20 in those of 8
    (8·14 + 7·20 = 0.9·5·56), accuracy 0.95 then 285 - 34 = 251 true negatives, too few for a mean
    specificity of 0.96 (their specificities sum to at most 3 + 95/53 < 4.795); with sensitivity 0.75
    and specificity 0.98 counts exist:

    >>> solve(p, n, constraints(reported_scores({"acc": 0.95, "sens": 0.9, "spec": 0.96}, eps=1e-3)))
    >>> given = constraints(reported_scores({"acc": 0.95, "sens": 0.75, "spec": 0.98}, eps=1e-3))
    >>> counts = solve(p, n, given)
    >>> counts.tolist(), verified(p, n, counts, given)
    ([[7, 53], [7, 50], [8, 52], [6, 52], [0, 50]], True)
    """
    found = first_solution(np.asarray(positives)[None], np.asarray(negatives)[None], given, budget=budget)
    return None if found is None else found[1]


def first_solution(positives, negatives, given, *, budget=BUDGET):
    """The first of several problems of the same shape that has counts, and its counts (§4.3, §4.4.3).

    Parameters
    ----------
    positives, negatives : array_like of int, shape (problems, sets)
        p_i and n_i of each problem's sets, e.g. one fold configuration per row.
    given : Constraints
        The reported means and per-set bounds, the same for every problem.
    budget : int or None
        As for :func:`solve`.

    Returns
    -------
    (int, numpy.ndarray) or None
        The index of the first problem with counts and its verified counts, shape (sets, 2); None when
        no problem has any.

    Examples
    --------
    >>> from benchtrust.consistency import reported_scores
    >>> given = constraints(reported_scores({"sens": 0.5, "spec": 0.75}, eps=1e-3))
    >>> index, counts = first_solution([[1, 3], [2, 2]], [[3, 1], [2, 2]], given)
    >>> index, counts.tolist()
    (1, [[2, 2], [0, 1]])
    """
    p = np.asarray(positives, dtype=np.int64)
    n = np.asarray(negatives, dtype=np.int64)
    start, size = 0, 1
    while start < len(p):
        # Pieces of 1, 2, 4, ... PIECE problems: an early solution costs little, a long search is batched.
        batch = _Batch.build(p[start : start + size], n[start : start + size], given)
        for rows in _runs(batch):
            found = _first(batch.select(rows), budget)
            if found is not None:
                index, counts = found
                counts = _unsort(counts, batch.order[rows[index]])
                index = start + int(rows[index])
                if not verified(p[index], n[index], counts, given):
                    raise AssertionError(
                        f"internal error: counts found fail the exact check: {counts.tolist()}"
                    )
                return index, counts
        start, size = start + size, min(2 * size, PIECE)
    return None


def verified(positives, negatives, counts, given):
    """Whether the counts give every constraint, checked in exact rational arithmetic.

    Every score of every set is computed as a ``fractions.Fraction`` (a score undefined in a set fails),
    and the means and the per-set scores are compared with the exact values of the intervals' ends.

    Examples
    --------
    >>> from benchtrust.consistency import reported_scores
    >>> given = constraints(reported_scores({"sens": "0.75"}))
    >>> verified([2, 2], [3, 3], [[1, 0], [2, 3]], given), verified([2, 2], [3, 3], [[1, 0], [1, 3]], given)
    (True, False)
    """
    sets = [
        (int(p), int(n), int(tp), int(tn))
        for p, n, (tp, tn) in zip(positives, negatives, np.asarray(counts).tolist(), strict=True)
    ]
    if not all(0 <= tp <= p and 0 <= tn <= n for p, n, tp, tn in sets):
        return False
    for name, low, high in [(rep.score, rep.low, rep.high) for rep in given.means]:
        values = _exact(name, sets)
        if values is None or not Fraction(low) <= sum(values) / len(values) <= Fraction(high):
            return False
    for name, low, high in given.each:
        values = _exact(name, sets)
        if values is None or not all(Fraction(low) <= value <= Fraction(high) for value in values):
            return False
    return True


def _exact(name, sets):
    """The score ``name`` of every set as a Fraction, or None if it is undefined in one of them."""
    base, complement = LINEAR[name]
    needs_p, needs_n = _NEEDS[base]
    if any((needs_p and p == 0) or (needs_n and n == 0) for p, n, _, _ in sets):
        return None
    if base == "acc":
        values = [Fraction(tp + tn, p + n) for p, n, tp, tn in sets]
    elif base == "sens":
        values = [Fraction(tp, p) for p, n, tp, tn in sets]
    elif base == "spec":
        values = [Fraction(tn, n) for p, n, tp, tn in sets]
    else:
        values = [(Fraction(tp, p) + Fraction(tn, n)) / 2 for p, n, tp, tn in sets]
    return [1 - value for value in values] if complement else values


def _linear_only():
    return "the mean-of-scores test takes acc, sens, spec, bacc, err, fnr, fpr (linear in tp, tn; §4.3)"


def _bounds(bounds, eps, rounding):
    """The per-set bounds (Eq. 10) as (score, low, high), low from the reported min, high from the max."""
    if bounds is None:
        return ()
    if not hasattr(bounds, "items"):
        raise InputError(f"bounds: expected a mapping of score name -> (min, max), got {bounds!r:.80}")
    per_score = {_score(name).name: value for name, value in eps.items()} if hasattr(eps, "items") else None
    out, seen = [], {}
    for name, pair in bounds.items():
        found = _score(name).name
        if found not in LINEAR:
            raise InputError(f"bounds: {_linear_only()}, not {found}")
        if found in seen:
            raise InputError(f"bounds: {name!r} and {seen[found]!r} are the same score ({found})")
        seen[found] = name
        if isinstance(pair, str | bytes) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise InputError(f"bounds: expected (min, max) for {name}, got {pair!r}")
        if per_score is not None:
            if found not in per_score:
                raise InputError(f"eps: none given for the bounds of {name}")
            uncertainty = per_score[found]
        else:
            uncertainty = eps
        low, high = (reported_scores({name: value}, eps=uncertainty, rounding=rounding)[0] for value in pair)
        if not low.value <= high.value:
            raise InputError(f"bounds: for {name} the min {pair[0]!r} is above the max {pair[1]!r}")
        out.append((found, low.low, high.high))
    return tuple(out)


def _intervals(items):
    """Exact intervals of the base scores from (score, low, high): complements reflected, repeats met."""
    out = {}
    for name, low, high in items:
        base, complement = LINEAR[name]
        lo, hi = Fraction(low), Fraction(high)
        if complement:
            lo, hi = 1 - hi, 1 - lo
        if base in out:
            lo, hi = max(lo, out[base][0]), min(hi, out[base][1])
        out[base] = (lo, hi)
    return out


#: Problems searched together at most (split further when a step would outgrow the budget).
PIECE = 256

_lcm = np.frompyfunc(math.lcm, 2, 1)


class _OverBudgetError(Exception):
    """The exact search would outgrow its budget."""


@dataclasses.dataclass(frozen=True, eq=False)
class _Batch:
    """Problems of the same shape in integers: per-set ranges and couplings, the columns and windows.

    Each problem's sets are sorted by (p_i, n_i) (``order`` maps back), so identical sets are adjacent;
    ``weight`` is the number of identical sets at the first of them and 0 at the others (1 everywhere
    when bounds couple tp_i and tn_i, which are then searched together: ``joint``).
    """

    given: Constraints
    means: dict  # base score -> exact (lo, hi) of the mean
    order: np.ndarray  # (problems, sets)
    p: np.ndarray
    n: np.ndarray
    alive: np.ndarray  # (problems,): not already ruled out (undefined score, empty window or range)
    tp_low: np.ndarray
    tp_high: np.ndarray
    tn_low: np.ndarray
    tn_high: np.ndarray
    couplings: tuple  # of (cx, cy, low, high), each (problems, sets): low <= cx·tp + cy·tn <= high
    weight: np.ndarray
    tp_coef: np.ndarray  # (problems, sets, columns)
    tn_coef: np.ndarray
    low: np.ndarray  # (problems, columns)
    high: np.ndarray
    big: np.ndarray  # (problems,): needs Python integers

    @property
    def joint(self):
        return bool(self.couplings)

    @classmethod
    def build(cls, p, n, given):
        order = np.argsort(p * (int(n.max()) + 1) + n, axis=1, kind="stable")
        p, n = np.take_along_axis(p, order, axis=1), np.take_along_axis(n, order, axis=1)
        problems, sets = p.shape
        c = p + n
        means = _intervals((rep.score, rep.low, rep.high) for rep in given.means)
        each = _intervals(given.each)
        alive = np.ones(problems, dtype=bool)
        for base in set(means) | set(each):
            needs_p, needs_n = _NEEDS[base]
            alive &= ~((needs_p & (p == 0)) | (needs_n & (n == 0))).any(axis=1)
        tp_low, tp_high, tn_low, tn_high = np.zeros_like(p), p, np.zeros_like(n), n
        if "sens" in each:
            tp_low, tp_high = (
                np.maximum(tp_low, _ceil(each["sens"][0], p)),
                np.minimum(p, _floor(each["sens"][1], p)),
            )
        if "spec" in each:
            tn_low, tn_high = (
                np.maximum(tn_low, _ceil(each["spec"][0], n)),
                np.minimum(n, _floor(each["spec"][1], n)),
            )
        alive &= ((tp_low <= tp_high) & (tn_low <= tn_high)).all(axis=1)
        couplings = []
        if "acc" in each:
            lo, hi = each["acc"]
            couplings.append((np.ones_like(p), np.ones_like(p), _ceil(lo, c), _floor(hi, c)))
        if "bacc" in each:
            lo, hi = each["bacc"]
            couplings.append((n, p, _ceil(2 * lo, p * n), _floor(2 * hi, p * n)))
        for _, _, lo, hi in couplings:
            alive &= (lo <= hi).all(axis=1)
        if couplings:
            weight = np.ones_like(p)
        else:
            start = np.ones(p.shape, dtype=bool)
            start[:, 1:] = (p[:, 1:] != p[:, :-1]) | (n[:, 1:] != n[:, :-1])
            first = np.maximum.accumulate(np.where(start, np.arange(sets), 0), axis=1)
            weight = np.zeros_like(p)
            np.add.at(weight, (np.arange(problems)[:, None], first), 1)
        tp_coef, tn_coef, low, high, scales = [], [], [], [], []
        safe_p, safe_n = np.where(p > 0, p, 1).astype(object), np.where(n > 0, n, 1).astype(object)
        lcm_p = _lcm.reduce(safe_p, axis=1) if {"sens", "bacc"} & set(means) else None
        lcm_n = _lcm.reduce(safe_n, axis=1) if {"spec", "bacc"} & set(means) else None
        for base in (b for b in _BASES if b in means):
            lo, hi = means[base]
            if base == "acc":
                common = _lcm.reduce(c.astype(object), axis=1)
            elif base == "bacc":
                common = _lcm(lcm_p, lcm_n)
            else:
                common = lcm_p if base == "sens" else lcm_n
            zero = np.zeros(p.shape, dtype=object)
            per_p = common[:, None] // (c.astype(object) if base == "acc" else safe_p)
            per_n = common[:, None] // (c.astype(object) if base == "acc" else safe_n)
            tp_coef.append(zero if base == "spec" else per_p)
            tn_coef.append(zero if base == "sens" else per_n)
            scale = sets * (2 if base == "bacc" else 1)
            low.append(-((-lo.numerator * scale * common) // lo.denominator))
            high.append((hi.numerator * scale * common) // hi.denominator)
            scales.append(common)
        low, high = np.stack(low, axis=1), np.stack(high, axis=1)
        alive &= (low <= high).all(axis=1)
        big = np.max(np.stack(scales, axis=1), axis=1) * (16 * sets * PIECE) >= 2**62
        return cls(
            given=given,
            means=means,
            order=order,
            p=p,
            n=n,
            alive=alive,
            tp_low=tp_low,
            tp_high=tp_high,
            tn_low=tn_low,
            tn_high=tn_high,
            couplings=tuple(tuple(np.asarray(v, dtype=np.int64) for v in row) for row in couplings),
            weight=weight,
            tp_coef=np.stack(tp_coef, axis=2),
            tn_coef=np.stack(tn_coef, axis=2),
            low=low,
            high=high,
            big=big.astype(bool),
        )

    def select(self, rows):
        """The problems ``rows``, in int64 unless one needs Python integers."""
        dtype = object if self.big[rows].any() else np.int64
        pick = {
            field.name: getattr(self, field.name)[rows]
            for field in dataclasses.fields(self)
            if isinstance(getattr(self, field.name), np.ndarray)
        }
        for name in ("tp_coef", "tn_coef", "low", "high"):
            pick[name] = pick[name].astype(dtype)
        couplings = tuple(tuple(v[rows] for v in row) for row in self.couplings)
        return dataclasses.replace(self, couplings=couplings, **pick)

    def ranges(self, side):
        """(tp low, tp high, tn low, tn high) of every stage of a side: 0 positives, 1 negatives, 2 both."""
        zero = np.zeros_like(self.p)
        if side == 0:
            return self.weight * self.tp_low, self.weight * self.tp_high, zero, zero
        if side == 1:
            return zero, zero, self.weight * self.tn_low, self.weight * self.tn_high
        return self.tp_low, self.tp_high, self.tn_low, self.tn_high

    def counts(self, problem, sides, picks):
        """Per-set (tp_i, tn_i) of one problem from the totals picked at each stage of each side."""
        out = np.zeros((self.p.shape[1], 2), dtype=np.int64)
        for side, (tp, tn) in zip(sides, picks, strict=True):
            if side == 2:
                out[:, 0], out[:, 1] = tp, tn
                continue
            low, high = (self.tp_low, self.tp_high) if side == 0 else (self.tn_low, self.tn_high)
            total = tp if side == 0 else tn
            for j in np.flatnonzero(self.weight[problem]):
                m, lo, room = self.weight[problem, j], low[problem, j], high[problem, j] - low[problem, j]
                out[j : j + m, side] = lo + np.clip(total[j] - m * lo - room * np.arange(m), 0, room)
        return out


def _ceil(fraction, values):
    """⌈fraction·v⌉ for every v in ``values``, exactly (int64 result)."""
    return (-((-fraction.numerator * values.astype(object)) // fraction.denominator)).astype(np.int64)


def _floor(fraction, values):
    """⌊fraction·v⌋ for every v in ``values``, exactly (int64 result)."""
    return ((fraction.numerator * values.astype(object)) // fraction.denominator).astype(np.int64)


def _runs(batch):
    """Row indices of the live problems, in order, in runs of one kind: int64 or Python integers."""
    rows = np.flatnonzero(batch.alive)
    if len(rows):
        yield from np.split(rows, np.flatnonzero(np.diff(batch.big[rows].astype(np.int8))) + 1)


def _unsort(counts, order):
    out = np.empty_like(counts)
    out[order] = counts
    return out


def _first(piece, budget):
    """(index in the piece, counts in sorted set order) of its first problem with counts, or None."""
    try:
        return _search(piece, None if budget is None else min(budget * len(piece.p), MOST))
    except _OverBudgetError:
        rows = len(piece.p)
        if rows == 1:
            counts = _by_solver(piece)
            return None if counts is None else (0, counts)
        half = rows // 2
        for offset, part in ((0, np.arange(half)), (half, np.arange(half, rows))):
            found = _first(piece.select(part), budget)
            if found is not None:
                return found[0] + offset, found[1]
        return None


def _search(piece, budget):
    """The exact search (module notes) on a piece of problems; raises _OverBudgetError if a step would
    create more than ``budget`` states (None: no limit)."""
    problems = len(piece.p)
    sides = [2] if piece.joint else sorted((0, 1), key=lambda side: _expected_states(piece, side))
    spans = [_span(piece, side) for side in sides]
    zero = np.zeros_like(piece.low)
    found, start = [], np.arange(problems)
    for k, side in enumerate(sides):
        other_low = sum((s[0] for s in spans[k + 1 :]), zero)
        other_high = sum((s[1] for s in spans[k + 1 :]), zero)
        if found:
            cfg, states = found[-1][:2]
            other_low, other_high = (
                other_low + _per_problem(np.minimum, cfg, states, zero),
                other_high + _per_problem(np.maximum, cfg, states, zero),
            )
        cfg, states, trace = _reach(piece, side, start, other_low, other_high, budget)
        if not len(cfg):
            return None
        found.append((cfg, states, trace))
        start = np.unique(cfg)
    if len(sides) == 1:
        pair = (0,)  # the first state of the first problem with any: it is inside every window
    else:
        shared = np.flatnonzero(
            np.any(piece.tp_coef != 0, axis=(0, 1)) & np.any(piece.tn_coef != 0, axis=(0, 1))
        )
        pair = _join(piece, found[0][:2], found[1][:2], shared, budget)
        if pair is None:
            return None
    problem = int(found[0][0][pair[0]])
    picks = [_trace_back(problem, trace, index) for (_, _, trace), index in zip(found, pair, strict=True)]
    return problem, piece.counts(problem, sides, picks)


def _expected_states(piece, side):
    """A rough log-count of the states a side leads to, to search the smaller side first (order only).

    The box of counts, times the share of it near the corner the side's own score points to: with the
    mean at distance d from 0 or 1, the counts' shortfalls over N_e sets sum to about N_e·d, a simplex of
    volume (N_e·d)^N_e / N_e! of the unit box.
    """
    tp_low, tp_high, tn_low, tn_high = piece.ranges(side)
    size = np.log1p(tp_high - tp_low).sum() + np.log1p(tn_high - tn_low).sum()
    own = "sens" if side == 0 else "spec"
    if own in piece.means:
        sets = piece.p.shape[1]
        lo, hi = piece.means[own]
        reach = sets * max(float(min(hi, 1 - lo)), 1e-12)
        size += len(piece.p) * min(0.0, sets * math.log(reach) - math.lgamma(sets + 1))
    return size


def _span(piece, side):
    """The least and most each column can receive from a side, per problem: (problems, columns)."""
    tp_low, tp_high, tn_low, tn_high = piece.ranges(side)
    low = (tp_low[..., None] * piece.tp_coef + tn_low[..., None] * piece.tn_coef).sum(axis=1)
    high = (tp_high[..., None] * piece.tp_coef + tn_high[..., None] * piece.tn_coef).sum(axis=1)
    return low, high


def _per_problem(reduce, cfg, states, like):
    """``reduce`` (np.minimum or np.maximum) of the states of each problem; ``like`` where it has none."""
    out = like.copy()
    starts = np.flatnonzero(np.r_[True, cfg[1:] != cfg[:-1]])
    out[cfg[starts]] = reduce.reduceat(states, starts, axis=0)
    return out


def _reach(piece, side, start, other_low, other_high, budget):
    """The distinct column sums of a side reachable set by set, each kept only if it can still make it.

    Returns the problem and column sums of every final state (sorted by problem), and the trace: the
    order of the sets per problem and per step the (parent, tp, tn) of every state kept.
    """
    tp_low, tp_high, tn_low, tn_high = piece.ranges(side)
    # Sets with few choices first: the states multiply slowest, and the last steps, where the window
    # leaves each state few useful counts, take the sets with many.
    steps = np.argsort((tp_high - tp_low + 1) * (tn_high - tn_low + 1), axis=1, kind="stable")
    tp_low, tp_high, tn_low, tn_high = (
        np.take_along_axis(v, steps, axis=1) for v in (tp_low, tp_high, tn_low, tn_high)
    )
    tp_coef = (
        np.take_along_axis(piece.tp_coef, steps[..., None], axis=1)
        if side != 1
        else np.zeros_like(piece.tp_coef)
    )
    tn_coef = (
        np.take_along_axis(piece.tn_coef, steps[..., None], axis=1)
        if side != 0
        else np.zeros_like(piece.tn_coef)
    )
    couplings = [tuple(np.take_along_axis(v, steps, axis=1) for v in row) for row in piece.couplings]
    # Only the columns this side adds to; the others stay 0 and are put back at the end.
    active = np.flatnonzero(np.any((tp_coef != 0) | (tn_coef != 0), axis=(0, 1)))
    tp_coef, tn_coef = tp_coef[..., active], tn_coef[..., active]
    window_low, window_high = piece.low[:, active], piece.high[:, active]
    other_low, other_high = other_low[:, active], other_high[:, active]
    stage_low = tp_low[..., None] * tp_coef + tn_low[..., None] * tn_coef
    stage_high = tp_high[..., None] * tp_coef + tn_high[..., None] * tn_coef
    # rest_*[:, j]: what the stages after j and the other side can add at least / at most.
    rest_low = np.cumsum(stage_low[:, ::-1], axis=1)[:, ::-1] - stage_low + other_low[:, None]
    rest_high = np.cumsum(stage_high[:, ::-1], axis=1)[:, ::-1] - stage_high + other_high[:, None]
    cfg = np.asarray(start)
    states = np.zeros((len(cfg), len(active)), dtype=piece.low.dtype)
    trace = []
    for j in range(piece.p.shape[1]):
        low, high = window_low[cfg], window_high[cfg]
        floor_low, floor_high = states + rest_low[cfg, j], states + rest_high[cfg, j]
        need_low, need_high = low - floor_high, high - floor_low
        a_tp, a_tn = tp_coef[cfg, j], tn_coef[cfg, j]
        x0, x1 = tp_low[cfg, j], tp_high[cfg, j]  # one side's other count is fixed at 0
        if side != 1:
            x0, x1 = _useful(
                a_tp,
                need_low - a_tn * tn_high[cfg, j][:, None],
                need_high - a_tn * tn_low[cfg, j][:, None],
                x0,
                x1,
            )
        y0, y1 = tn_low[cfg, j], tn_high[cfg, j]
        if side != 0:
            y0, y1 = _useful(a_tn, need_low - a_tp * x1[:, None], need_high - a_tp * x0[:, None], y0, y1)
        width = np.maximum(y1 - y0 + 1, 0)
        count = np.maximum(x1 - x0 + 1, 0) * width
        total = int(count.sum())
        if budget is not None and total > budget:
            raise _OverBudgetError
        parent = np.repeat(np.arange(len(cfg)), count)
        offset = np.arange(total) - np.repeat(np.cumsum(count) - count, count)
        tp = x0[parent] + offset // width[parent]
        tn = y0[parent] + offset % width[parent]
        owner = cfg[parent]
        grown = states[parent] + tp[:, None] * tp_coef[owner, j] + tn[:, None] * tn_coef[owner, j]
        if side == 2:
            ok = np.all(
                (grown + rest_low[owner, j] <= high[parent]) & (grown + rest_high[owner, j] >= low[parent]),
                axis=1,
            )
            for cx, cy, lo, hi in couplings:
                row = cx[owner, j] * tp + cy[owner, j] * tn
                ok &= (row >= lo[owner, j]) & (row <= hi[owner, j])
            keep = np.flatnonzero(ok)
            keep = keep[_distinct(owner[keep], grown[keep])]
        elif count.max(initial=0) > 1:
            keep = _distinct(owner, grown)
        else:
            keep = np.arange(total)
        cfg, states = owner[keep], grown[keep]
        trace.append((parent[keep], tp[keep], tn[keep]))
        if not len(cfg):
            break
    full = np.zeros((len(cfg), piece.low.shape[1]), dtype=piece.low.dtype)
    full[:, active] = states
    return cfg, full, (steps, trace)


def _useful(a, need_low, need_high, low, high):
    """The whole numbers v in [low, high] with need_low <= a·v <= need_high in every column (a >= 0)."""
    if not a.shape[1]:
        return low, high
    positive = a > 0
    safe = np.where(positive, a, 1)
    top = np.min(np.where(positive, need_high // safe, high[:, None]), axis=1)
    bottom = np.max(np.where(positive, -((-need_low) // safe), low[:, None]), axis=1)
    blocked = np.any(~positive & ((need_low > 0) | (need_high < 0)), axis=1)
    bottom = np.minimum(np.maximum(low, bottom), high + 1)
    top = np.where(blocked, bottom - 1, np.minimum(high, top))
    return bottom.astype(np.int64), np.maximum(top, bottom - 1).astype(np.int64)


def _distinct(owner, rows):
    """Indices of one row of each distinct (owner, row), sorted by owner."""
    order = np.lexsort([rows[:, k] for k in range(rows.shape[1] - 1, -1, -1)] + [owner])
    ordered, owners = rows[order], owner[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = np.any(ordered[1:] != ordered[:-1], axis=1) | (owners[1:] != owners[:-1])
    return order[new]


def _join(piece, first, second, shared, budget):
    """Indices (i, j) of a first-side and a second-side state of the same problem, the first problem
    possible, whose sums are inside the window on every column; None if there are none.

    A column only one side touches is inside already (each side's search added the other's span, zero
    there). The join sorts the first side by (problem, one shared column), finds for each state of the
    second side the run of partners inside the window on that column by binary search, and checks the
    other shared columns pair by pair, at most ``budget`` pairs at a time.
    """
    (cfg_a, a), (cfg_b, b) = first, second
    if not len(shared):
        common = np.intersect1d(cfg_a, cfg_b)
        if not len(common):
            return None
        return int(np.searchsorted(cfg_a, common[0])), int(np.searchsorted(cfg_b, common[0]))
    column, rest = shared[0], shared[1:]
    zero = np.zeros(len(piece.p), dtype=a.dtype)
    least = _per_problem(np.minimum, cfg_a, a[:, column], zero)
    span = int(np.max(a[:, column] - least[cfg_a])) + 1
    key = cfg_a.astype(a.dtype) * span + (a[:, column] - least[cfg_a])
    order = np.argsort(key, kind="stable")
    key = key[order]
    base = cfg_b.astype(a.dtype) * span
    want_low = np.maximum(piece.low[cfg_b, column] - b[:, column] - least[cfg_b], 0)
    want_high = np.minimum(piece.high[cfg_b, column] - b[:, column] - least[cfg_b], span - 1)
    begin = np.searchsorted(key, base + want_low, side="left")
    count = np.maximum(np.searchsorted(key, base + want_high, side="right") - begin, 0)
    count[want_low > want_high] = 0
    rows = np.flatnonzero(count > 0)
    if not len(rest):
        return (int(order[begin[rows[0]]]), int(rows[0])) if len(rows) else None
    if budget is not None and count.sum() > 8 * budget:
        raise _OverBudgetError
    ends = np.cumsum(count[rows])
    step = budget or int(ends[-1])
    done = 0
    while done < len(rows):
        stop = max(int(np.searchsorted(ends, ends[done] - count[rows[done]] + step, side="right")), done + 1)
        block = rows[done:stop]
        size = count[block]
        j = np.repeat(block, size)
        i = order[np.repeat(begin[block], size) + np.arange(len(j)) - np.repeat(np.cumsum(size) - size, size)]
        total = a[i][:, rest] + b[j][:, rest]
        owner = cfg_b[j]
        ok = np.flatnonzero(
            np.all((total >= piece.low[owner][:, rest]) & (total <= piece.high[owner][:, rest]), axis=1)
        )
        if len(ok):
            return int(i[ok[0]]), int(j[ok[0]])
        done = stop
    return None


def _trace_back(problem, trace, index):
    """(tp per set, tn per set) of one problem: the choices that lead to final state ``index``."""
    steps, kept = trace
    tp, tn = np.zeros(len(kept), dtype=np.int64), np.zeros(len(kept), dtype=np.int64)
    for j in range(len(kept) - 1, -1, -1):
        parent, tp_choice, tn_choice = kept[j]
        tp[steps[problem, j]], tn[steps[problem, j]] = tp_choice[index], tn_choice[index]
        index = parent[index]
    return tp, tn


def _by_solver(piece):
    """HiGHS on a single problem (module notes): verified counts in sorted order, None if infeasible."""
    p, n = piece.p[0], piece.n[0]
    status, counts = _milp(piece, MARGIN)
    if status == 2:
        return None
    if counts is not None and verified(p, n, counts, piece.given):
        return counts
    narrowest = min(hi - lo for lo, hi in piece.means.values())
    _, counts = _milp(piece, -min(MARGIN, float(narrowest) / 4))
    if counts is not None and verified(p, n, counts, piece.given):
        return counts
    found = _search(piece, None)
    return None if found is None else found[1]


def _milp(piece, widen):
    """HiGHS's status and rounded solution with the mean rows widened by ``widen`` (narrowed if < 0)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    p, n = piece.p[0].astype(float), piece.n[0].astype(float)
    sets = len(p)
    zero = np.zeros(sets)
    rows, low, high = [], [], []
    for base, (lo, hi) in piece.means.items():
        if base == "sens":
            rows.append(np.concatenate([1 / (sets * p), zero]))
        elif base == "spec":
            rows.append(np.concatenate([zero, 1 / (sets * n)]))
        elif base == "acc":
            rows.append(np.concatenate([1 / (sets * (p + n))] * 2))
        else:
            rows.append(np.concatenate([1 / (2 * sets * p), 1 / (2 * sets * n)]))
        low.append(float(lo) - widen)
        high.append(float(hi) + widen)
    diagonal = np.arange(sets)
    for cx, cy, lo, hi in piece.couplings:
        block = np.zeros((sets, 2 * sets))
        block[diagonal, diagonal], block[diagonal, sets + diagonal] = cx[0], cy[0]
        rows.extend(block)
        low.extend(lo[0] - 0.5)
        high.extend(hi[0] + 0.5)
    lower = np.concatenate([piece.tp_low[0], piece.tn_low[0]])
    upper = np.concatenate([piece.tp_high[0], piece.tn_high[0]])
    result = milp(
        np.zeros(2 * sets),
        constraints=LinearConstraint(np.array(rows), low, high),
        integrality=np.ones(2 * sets),
        bounds=Bounds(lower, upper),
        options={"presolve": False},  # HiGHS 1.x presolve fails ("Solve error") on some tiny problems
    )
    if result.x is None:
        return result.status, None
    x = np.clip(np.round(result.x), lower, upper).astype(np.int64)
    return result.status, np.stack([x[:sets], x[sets:]], axis=1)
