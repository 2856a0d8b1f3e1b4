"""The folds of a multiclass cross-validation and the integer problems of their averaged scores (§4.2-4.4).

A data set of C classes with r_1..r_C items is cut into k folds; fold f holds r_fc items of class c, N_f in
all. On each fold the one-vs-rest scores are averaged over the classes (micro or macro, as in
:mod:`._multiclass`), and the fold scores are averaged over the folds (mean of scores, §4.3). The score of
means (§4.2) sums the folds' confusion matrices, which is one test set of the pooled class counts, so it is
:func:`~benchtrust.consistency.check_multiclass` itself.

Which folds
-----------
* explicit: the k × C class counts of the folds, as given;
* ``"stratified"``: those of scikit-learn's ``StratifiedKFold`` (the rule of
  :func:`~benchtrust.consistency.stratified_folds`: the labels sorted with the classes in the order they
  first appear in ``y``, fold i receiving the items i, i + k, i + 2k, ...). The order of first appearance
  is not known from the counts, so every order is tried (:func:`stratified_class_counts`);
* ``"unknown"``: every k × C matrix of class counts with the fold sizes of ``KFold`` (⌈(N - i)/k⌉) as row
  sums and the class counts as column sums, folds of equal size taken as unordered
  (:func:`fold_class_counts`).

Micro average, mean over folds
------------------------------
On fold f the pooled one-vs-rest matrix is (tp, tn, p, n) = (k_f, (C - 2)·N_f + k_f, N_f, (C - 1)·N_f),
k_f the items classified correctly, and the scores of :data:`~._one_vs_rest.MICRO_AFFINE` are a + b·x_f
there, x_f = k_f / N_f, with a and b that depend on C only (:mod:`._one_vs_rest`). The mean over folds of
a + b·x_f is a + b·mean(x_f), so every reported mean bounds mean(x_f) to an exact interval, and the check
is whether whole k_f in [0, N_f] exist with mean(k_f/N_f) in the intersection: directly for folds of one
or two sizes (:func:`_two_sizes`), else as the mean of sensitivities with p_f = N_f (§4.3) by the exact
search of :mod:`._mean_of_scores`. Only the fold sizes matter. The other scores (ji, gm, upm, lrp, lrn,
pt, dor) are not affine in x: the mean of their fold values is not a function of mean(x_f), and they are
refused.

Macro average, mean over folds
------------------------------
The macro average of a linear score on fold f depends on its confusion matrix only through its diagonal
d_f and column sums s_f (module notes of :mod:`._multiclass`), so one integer program over the (d_f, s_f)
of all folds decides the mean over folds (§4.3.2), solved with HiGHS and certified as there: first with
every interval narrowed by ``MARGIN`` (a solution with room to spare), then widened by it ("inconsistent"
only when even the widened problem is infeasible), then exact; evidence (one confusion matrix per fold)
only after an exact check in fractions. Most configurations where every class has every score are
settled before that by the identities and the witness of :mod:`._macro_witness`.

HiGHS gets :data:`TIME_LIMIT` seconds per program. A program it cannot settle in that time (folds missing
classes under ``"any"`` can need minutes) is undecided: the verdict is then "undecided" unless another
configuration or convention fits, never "inconsistent".

A class without items in a fold has no sensitivity (nor balanced accuracy) there, and a class holding a
whole fold no specificity. What the fold's mean over classes is then depends on the tool
(``zero_division``):

* ``"0"`` or ``"1"``: the class's score counts as 0 or 1, in a mean over all C classes (scikit-learn's
  ``recall_score(average="macro", labels=all classes)``);
* ``"skip"``: the class is left out of the fold's mean (``zero_division=np.nan``, or a class neither in
  the fold's truth nor predicted, which scikit-learn leaves out by default); a fold where no class has the
  score is left out of the mean over folds;
* ``"any"``: each fold on its own may leave out any number of those classes and count each of the others
  as 0 or 1. It covers the three above and scikit-learn's default, which counts a missing class as 0 in
  the folds where it was predicted and leaves it out where it was not. The fold's mean is then a variable
  m_f with (|D_f| + Z_f)·m_f = Σ_D v_c + O_f (D_f the classes with the score, Z_f those counted of the
  others, O_f of them as 1); Z_f is written with 0/1 indicators y_fj (Z_f = Σ j·y_fj), which makes the
  products m_f·y_fj exact linear rows (w ≤ y, w ≤ m, w ≥ m - 1 + y, w ≥ 0).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

import numpy as np

from benchtrust._interval import Interval
from benchtrust._io import InputError
from benchtrust.consistency._one_vs_rest import (
    MACRO_BASES,
    MARGIN,
    MICRO_AFFINE,
    SKLEARN_ACCURACY,
    class_form,
    micro_line,
    micro_window,
    off_diagonal,
)
from benchtrust.consistency._reported import Reported
from benchtrust.consistency._scores import SCORES
from benchtrust.consistency._solver._highs import UnsettledError, quiet_stdout
from benchtrust.consistency._solver._mean_constraints import Constraints
from benchtrust.consistency._solver._mean_of_scores import solve

#: Class orders tried for stratified folds: all of them up to this many classes (module notes).
MOST_ORDERS = 5040
#: Seconds HiGHS may take on one integer program of a macro mean over folds; past it that program is
#: undecided (folds missing classes under ``zero_division="any"`` can need minutes).
TIME_LIMIT = 10.0
#: Folds of one or two sizes are searched directly (:func:`_two_sizes`) up to this many items in those of
#: the smaller size; otherwise by the exact search of :mod:`._mean_of_scores`.
MOST_DIRECT = 10**6


def fold_sizes(total, folds):
    """The fold sizes of k-fold cross-validation of N items: ⌈(N - i)/k⌉ for fold i (scikit-learn's order).

    >>> fold_sizes(11, 3).tolist()
    [4, 4, 3]
    """
    return (total + folds - 1 - np.arange(folds)) // folds


def stratified_class_counts(class_counts, folds):
    """The distinct fold class counts of ``StratifiedKFold`` over the orders of first appearance.

    Fold i receives the items i, i + k, ... of the labels sorted by the order of first appearance; the
    given order comes first, then the others that give a different set of folds (up to :data:`MOST_ORDERS`
    orders; beyond that only the given one).

    Returns
    -------
    list of numpy.ndarray, shape (folds, classes)
        Columns in the given class order.

    Examples
    --------
    Three classes of one item in two folds: the class that comes first shares its fold with the third.

    >>> [c.tolist() for c in stratified_class_counts([1, 1, 1], 2)]
    [[[1, 0, 1], [0, 1, 0]], [[1, 1, 0], [0, 0, 1]], [[0, 1, 1], [1, 0, 0]]]
    """
    counts = np.asarray(class_counts, dtype=np.int64)
    classes = counts.size
    orders = (
        itertools.permutations(range(classes))
        if math.factorial(classes) <= MOST_ORDERS
        else [tuple(range(classes))]
    )
    i = np.arange(folds)[:, None]

    def below(end):  # how many of the items 0..end - 1 fold i receives
        return np.maximum(0, (end - i + folds - 1) // folds)

    found, seen = [], set()
    for order in orders:
        ordered = counts[list(order)]
        ends = np.cumsum(ordered)
        starts = ends - ordered
        allocation = np.empty((folds, classes), dtype=np.int64)
        allocation[:, list(order)] = below(ends[None]) - below(starts[None])
        key = tuple(sorted(map(tuple, allocation.tolist())))
        if key not in seen:
            seen.add(key)
            found.append(allocation)
    return found


def fold_class_counts(class_counts, folds, limit):
    """Every k × C matrix of class counts with ``KFold``'s fold sizes as row sums and the class counts as
    column sums, folds of equal size unordered; an InputError naming ``max_configurations`` past ``limit``.

    Examples
    --------
    >>> [c.tolist() for c in fold_class_counts([2, 2], 2, 10)]
    [[[2, 0], [0, 2]], [[1, 1], [1, 1]]]
    """
    counts = tuple(int(c) for c in class_counts)
    sizes = fold_sizes(sum(counts), folds).tolist()
    found = []

    def rows(size, left, cap):
        # compositions of `size` within `left`, lexicographically at most `cap`, largest first
        if len(left) == 1:
            if size <= left[0] and (cap is None or (size,) <= cap):
                yield (size,)
            return
        rest = sum(left[1:])
        top = min(size, left[0], cap[0] if cap is not None else size)
        for first in range(top, max(0, size - rest) - 1, -1):
            tail_cap = cap[1:] if cap is not None and first == cap[0] else None
            for tail in rows(size - first, left[1:], tail_cap):
                yield (first, *tail)

    def fill(fold, left, previous):
        if fold == len(sizes):
            found.append(np.array(previous, dtype=np.int64))
            if len(found) > limit:
                raise InputError(
                    f"max_configurations={limit}: the unknown folds have more than {limit:,} configurations "
                    "of class counts; raise it to try them all, or give the folds"
                )
            return
        same = fold > 0 and sizes[fold] == sizes[fold - 1]
        for row in rows(sizes[fold], left, previous[-1] if same else None):
            fill(fold + 1, tuple(a - b for a, b in zip(left, row, strict=True)), [*previous, row])

    fill(0, counts, [])
    return found


def repeated(configs, repeats, limit):
    """The configurations of ``repeats`` independent repetitions: every multiset of ``repeats`` of the
    ``configs``, stacked fold-wise; an InputError naming ``max_configurations`` past ``limit``.

    >>> len(repeated([np.zeros((2, 2))] * 3, 2, 10))
    6
    """
    if repeats == 1:
        return list(configs)
    if math.comb(len(configs) + repeats - 1, repeats) > limit:
        raise InputError(
            f"max_configurations={limit}: {repeats} repeats of {len(configs):,} configurations of unknown "
            "folds make more than that many combinations; raise it to try them all, or give the folds"
        )
    return [np.vstack(combo) for combo in itertools.combinations_with_replacement(configs, repeats)]


def fully_defined(config, bases):
    """Whether every base score of ``bases`` is defined for every class of every fold (the first tier)."""
    r = np.asarray(config)
    n = r.sum(axis=1, keepdims=True) - r
    need = {"sens": r >= 1, "spec": n >= 1, "bacc": (r >= 1) & (n >= 1)}
    return all(bool(need[base].all()) for base in bases if base in need)


def micro_mean(reported, sizes, classes, max_states):
    """(consistent, k_f or None): whole numbers correct per fold whose micro scores average to every
    reported score (module notes), verified exactly; ``None`` evidence only if no witness could be;
    consistent is ``None`` (undecided) when HiGHS could not settle the problem in its time."""
    unknown = [rep.score for rep in reported if rep.score not in MICRO_AFFINE]
    if unknown:
        raise InputError(
            f"scores: the mean over folds of micro-averaged {', '.join(unknown)} is not a function of the "
            f"items classified correctly per fold; the check takes {', '.join(MICRO_AFFINE)} "
            "(or aggregation='score_of_means')"
        )
    window = micro_window(reported, classes)
    if window is None:
        return False, None
    low, high = window
    correct = _two_sizes(sizes, low, high)
    if correct is NotImplemented:
        window = Reported("sens", float(low), 0.0, Interval(_down(low), _up(high)), "x", "x", None)
        try:
            found = solve(sizes, np.ones_like(sizes), Constraints(means=(window,)), max_states=max_states)
        except UnsettledError:  # HiGHS out of time: undecided, never "inconsistent"
            return None, None
        correct = None if found is None else found[:, 0]
    if correct is None:
        return False, None
    means = [Fraction(int(k), int(n)) for k, n in zip(correct, sizes, strict=True)]
    x = sum(means) / len(means)
    for rep in reported:
        a, b = micro_line(rep.score, classes)
        if not Fraction(rep.interval.low) <= a + b * x <= Fraction(rep.interval.high):
            return True, None
    return True, correct.tolist()


def _two_sizes(sizes, low, high):
    """Whole k_f in [0, N_f] with mean(k_f / N_f) in [low, high], for folds of one or two sizes (those of
    ``KFold`` and ``StratifiedKFold``): None when there are none; NotImplemented for other folds.

    The k of the c folds of size s sum to any whole T in [0, c·s], so with L = lcm(s_1, s_2) the question
    is whether T_1·(L/s_1) + T_2·(L/s_2) meets [⌈K·L·low⌉, ⌊K·L·high⌋] (K folds): for every T_1 the T_2
    that do form a range, computed at once in whole numbers. Of the T_1 that work, the one nearest the
    middle of the interval is taken and each total spread evenly over its folds.

    >>> _two_sizes(np.array([5, 5, 4]), Fraction(9, 10), Fraction(95, 100)).tolist()
    [5, 4, 4]
    """
    values, counts = np.unique(sizes, return_counts=True)
    s, c = [int(v) for v in values] + [1], [int(n) for n in counts] + [0]  # a second, empty group
    lcm = math.lcm(s[0], s[1])
    if len(values) > 2 or s[0] * c[0] > MOST_DIRECT or lcm * len(sizes) * max(s) >= 1 << 62:
        return NotImplemented
    w = (lcm // s[0], lcm // s[1])
    lo, hi = math.ceil(low * len(sizes) * lcm), math.floor(high * len(sizes) * lcm)
    first_total = np.arange(c[0] * s[0] + 1, dtype=np.int64)
    second_low = np.maximum(-((first_total * w[0] - lo) // w[1]), 0)
    second_high = np.minimum((hi - first_total * w[0]) // w[1], c[1] * s[1])
    works = np.flatnonzero(second_low <= second_high)
    if not works.size:
        return None
    middle = float(low + high) / 2
    pick = works[np.argmin(np.abs(first_total[works] / max(c[0] * s[0], 1) - middle))]
    totals = (int(pick), int(np.clip(round(middle * c[1] * s[1]), second_low[pick], second_high[pick])))
    correct = np.zeros(len(sizes), dtype=np.int64)
    for value, count, total in zip(s, c, totals, strict=False):
        where = np.flatnonzero(sizes == value)[:count]
        correct[where] = total // max(count, 1) + (np.arange(where.size) < total % max(count, 1))
    return correct


@dataclasses.dataclass(frozen=True)
class MacroFit:
    """A macro mean over folds that fits: per fold its confusion matrix; per base score the convention
    that fits for classes where it is undefined, and under ``"any"`` (counted, counted as 1) of those
    classes per fold."""

    matrices: list
    choices: dict
    conventions: dict


def macro_mean(reported, config, conventions):
    """(consistent, MacroFit or None) for the macro mean over folds of linear scores (module notes).

    Parameters
    ----------
    reported : tuple of Reported
        The scores (of :data:`MACRO_BASES`).
    config : array_like of int, shape (folds, classes)
        The folds' class counts.
    conventions : mapping
        Base score -> ``"0"``, ``"1"``, ``"skip"`` or ``"any"``, for classes where it is undefined.
    """
    config = np.asarray(config, dtype=np.int64)
    free = [base for base, rule in conventions.items() if rule == "any" and not fully_defined(config, [base])]
    verdict = False
    # under "any", one convention per score first (a small program), then each fold on its own
    for rules in itertools.product(("0", "skip", "1"), repeat=len(free)):
        consistent, fit = _macro_program(
            reported, config, {**conventions, **dict(zip(free, rules, strict=True))}, {}
        )
        if fit is not None:
            return True, fit
        verdict = either(verdict, consistent)
    if not free:
        return verdict, None
    # folds without a class that has the score (a fold of one class, for bacc): each may be left out of
    # the mean over folds or not; they are alike (their mean is O/Z whatever their counts), so trying
    # how many are left out covers every choice
    empty = {base: _empty_folds(config, base) for base in free}
    for counts in itertools.product(*(range(len(folds) + 1) for folds in empty.values())):
        dropped = {base: folds[:j] for (base, folds), j in zip(empty.items(), counts, strict=True)}
        consistent, fit = _macro_program(reported, config, conventions, dropped)
        if fit is not None:
            return True, fit
        verdict = either(verdict, consistent)
    return verdict, None


def _empty_folds(config, base):
    """The folds where no class has the score ``base``: one class only, for balanced accuracy."""
    single = (config > 0).sum(axis=1) == 1
    return [int(f) for f in np.flatnonzero(single)] if base == "bacc" else []


def _macro_program(reported, config, conventions, dropped):
    """(consistent, MacroFit or None) of one integer program (module notes); consistent is None when HiGHS
    ran out of :data:`TIME_LIMIT` before it could prove the widened problem infeasible or feasible."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    problem = _MacroProblem(config, conventions, dropped)
    if not all([problem.score_rows(rep) for rep in reported]):
        return False, None
    matrix, lower, upper = problem.constraints()
    rows = LinearConstraint(matrix, lower, upper)
    integer = np.array(problem.integer)
    low, high = np.array(problem.low), np.array(problem.high)
    timed_out = False
    for slack in (1.0, 0.0, 0.5):  # room to spare; the widened problem; the intervals exactly
        low[problem.slack] = high[problem.slack] = slack
        with quiet_stdout():
            result = milp(
                c=np.zeros(low.size),
                constraints=rows,
                integrality=integer,
                bounds=Bounds(low, high),
                options={"presolve": slack != 0.0, "time_limit": TIME_LIMIT},
            )
        if slack == 0.0 and result.status == 2:
            return False, None
        timed_out = timed_out or (slack == 0.0 and result.x is None)
        if result.x is not None and (fit := problem.witness(result.x, reported)) is not None:
            return True, fit
    return (None if timed_out else True), None


def either(first, second):
    """The verdict of two alternatives (True: not proved inconsistent; None: undecided; False: proved)."""
    if first is True or second is True:
        return True
    return None if first is None or second is None else False


class _MacroProblem:
    """The rows and columns of the macro integer program, built score by score (module notes)."""

    def __init__(self, config, conventions, dropped):
        self.config, self.conventions, self.dropped = config, conventions, dropped
        self.folds, self.classes = config.shape
        self.sizes = config.sum(axis=1)
        self.low, self.high, self.integer = [], [], []
        self.rows, self.lower, self.upper = [], [], []
        self.d = [self._columns(self.classes, 0, r, 1) for r in config]
        self.s = [self._columns(self.classes, 0, [size] * self.classes, 1) for size in self.sizes]
        self.total = [self._columns(1, 0, [size], 1)[0] for size in self.sizes]
        self.free = {}  # (base, fold) -> (m, O, y columns, classes with the score, classes without)
        self.means = {}  # (base, fold) -> the fold's mean, built once
        for f, (r, size) in enumerate(zip(config, self.sizes, strict=True)):
            d, s, total = self.d[f], self.s[f], self.total[f]
            self._row({c: 1 for c in s}, size, size)  # the predictions fill the fold
            self._row({**dict.fromkeys(d, 1), total: -1}, 0, 0)
            for c in range(self.classes):  # d <= s; (r - d) + (s - d) <= N - D (a matrix exists)
                self._row({d[c]: 1, s[c]: -1}, -np.inf, 0)
                self._row({s[c]: 1, d[c]: -2, total: 1}, -np.inf, size - r[c])
        self.slack = self._columns(1, 0, [1], 0)[0]

    def _columns(self, count, low, high, integer):
        start = len(self.low)
        self.low += [low] * count
        self.high += [float(h) for h in high]
        self.integer += [integer] * count
        return list(range(start, start + count))

    def _row(self, coefficients, low, high):
        self.rows.append(coefficients)
        self.lower.append(low)
        self.upper.append(high)

    def _class_value(self, base, f, c):
        """(constant, {column: coefficient}) of the class's score in the fold, or None if undefined."""
        p, n = int(self.config[f, c]), int(self.sizes[f] - self.config[f, c])
        if (base in ("sens", "bacc") and not p) or (base in ("spec", "bacc") and not n):
            return None
        constant, on_diagonal, on_column = class_form(base, p, n)
        return constant, {self.d[f][c]: on_diagonal, self.s[f][c]: on_column}

    def fold_mean(self, base, f):
        """The fold's mean of ``base`` as (constant, coefficients), or None when left out of the mean."""
        if (base, f) not in self.means:
            self.means[(base, f)] = self._fold_mean(base, f)
        return self.means[(base, f)]

    def _fold_mean(self, base, f):
        if base == SKLEARN_ACCURACY:
            return Fraction(0), {self.total[f]: Fraction(1, int(self.sizes[f]))}
        values = [self._class_value(base, f, c) for c in range(self.classes)]
        defined = [v for v in values if v is not None]
        missing = len(values) - len(defined)
        constant = sum((v[0] for v in defined), Fraction(0))
        coefficients = {}
        for _, part in defined:
            for column, value in part.items():
                coefficients[column] = coefficients.get(column, 0) + value
        convention = self.conventions[base] if missing else "0"
        if convention in ("0", "1"):
            scale = Fraction(1, self.classes)
            extra = missing if convention == "1" else 0
            return (constant + extra) * scale, {k: v * scale for k, v in coefficients.items()}
        if convention == "skip":
            if not defined:
                return None
            return constant / len(defined), {k: v / len(defined) for k, v in coefficients.items()}
        if f in self.dropped.get(base, ()):
            return None
        return self._free_mean(base, f, len(defined), missing, constant, coefficients)

    def _free_mean(self, base, f, present, missing, constant, coefficients):
        """The variable m_f of ``zero_division="any"`` and its exact rows (module notes)."""
        (mean,) = self._columns(1, 0, [1], 0)
        (ones,) = self._columns(1, 0, [missing], 1)
        picks = self._columns(missing + 1, 0, [1] * (missing + 1), 1)
        products = self._columns(missing + 1, 0, [1] * (missing + 1), 0)
        if not present:
            self.high[picks[0]] = 0.0  # the fold's mean needs at least one class
        self._row(dict.fromkeys(picks, 1), 1, 1)
        self._row({ones: 1, **{y: -j for j, y in enumerate(picks)}}, -np.inf, 0)  # O <= Z
        for y, w in zip(picks, products, strict=True):  # w = m·y
            self._row({w: 1, y: -1}, -np.inf, 0)
            self._row({w: 1, mean: -1}, -np.inf, 0)
            self._row({w: 1, mean: -1, y: -1}, -1, np.inf)
        row = {mean: present, **{w: j for j, w in enumerate(products) if j}, ones: -1}
        for column, value in coefficients.items():
            row[column] = row.get(column, 0) - value
        self._row({k: float(v) for k, v in row.items()}, float(constant), float(constant))
        self.free[(base, f)] = (mean, ones, picks, present, missing)
        return Fraction(0), {mean: Fraction(1)}

    def score_rows(self, rep):
        """The rows of one reported mean over folds, widened by MARGIN with the slack (module notes);
        False when no fold has the score, so that no counts give it."""
        base, complement = MACRO_BASES[rep.score]
        low, high = Fraction(rep.interval.low), Fraction(rep.interval.high)
        if complement:
            low, high = 1 - high, 1 - low
        means = [m for m in (self.fold_mean(base, f) for f in range(self.folds)) if m is not None]
        if not means:
            return False
        constant = sum((m[0] for m in means), Fraction(0)) / len(means)
        row = {}
        for _, part in means:
            for column, value in part.items():
                row[column] = row.get(column, 0) + value / len(means)
        scale = 1 / max(abs(float(v)) for v in row.values())
        scaled = {k: float(v) * scale for k, v in row.items()}
        room = 2 * MARGIN * scale
        self._row({**scaled, self.slack: -room}, float(low - constant) * scale - MARGIN * scale, np.inf)
        self._row({**scaled, self.slack: room}, -np.inf, float(high - constant) * scale + MARGIN * scale)
        return True

    def constraints(self):
        """(sparse matrix, lower, upper) of every row so far."""
        from scipy.sparse import coo_array

        entries = [
            (i, column, float(value)) for i, row in enumerate(self.rows) for column, value in row.items()
        ]
        i, j, v = (np.array(part) for part in zip(*entries, strict=True))
        matrix = coo_array((v, (i, j)), shape=(len(self.rows), len(self.low))).tocsr()
        return matrix, np.array(self.lower, dtype=float), np.array(self.upper, dtype=float)

    def witness(self, x, reported):
        """A :class:`MacroFit` built from the solver's answer and checked exactly, or None."""
        matrices = []
        for f in range(self.folds):
            diagonal = np.rint(x[self.d[f]]).astype(np.int64)
            columns = np.rint(x[self.s[f]]).astype(np.int64)
            off = off_diagonal(self.config[f] - diagonal, columns - diagonal)
            if off is None:
                return None
            matrices.append(off + np.diag(diagonal))
        choices = {}
        for (base, f), (_, ones, picks, _, _) in self.free.items():
            counted = int(np.argmax(np.rint(x[picks])))
            choices.setdefault(base, {})[f] = (counted, int(np.rint(x[ones])))
        fit = MacroFit([m.tolist() for m in matrices], choices, dict(self.conventions))
        return fit if macro_verified(fit, reported, self.config, self.conventions) else None


def macro_verified(fit, reported, config, conventions):
    """Whether the per-fold matrices give every reported mean over folds, in exact arithmetic."""
    config = np.asarray(config)
    for matrix, r in zip(fit.matrices, config, strict=True):
        m = np.asarray(matrix)
        if (m < 0).any() or m.sum(axis=1).tolist() != r.tolist():
            return False
    for rep in reported:
        base, complement = MACRO_BASES[rep.score]
        means = []
        for f, (matrix, r) in enumerate(zip(fit.matrices, config, strict=True)):
            mean = _exact_fold_mean(
                base, np.asarray(matrix), r, conventions, fit.choices.get(base, {}).get(f)
            )
            if mean is False:
                return False
            if mean is not None:
                means.append(1 - mean if complement else mean)
        if not means:
            return False
        value = sum(means) / len(means)
        if not Fraction(rep.interval.low) <= value <= Fraction(rep.interval.high):
            return False
    return True


def _exact_fold_mean(base, matrix, r, conventions, choice):
    """The fold's mean of ``base`` as a Fraction; None if left out; False if the choice is impossible."""
    size = int(r.sum())
    if base == SKLEARN_ACCURACY:
        return Fraction(int(np.trace(matrix)), size)
    columns = matrix.sum(axis=0)
    values = []
    for c, positives in enumerate(r.tolist()):
        tp = int(matrix[c, c])
        tn = size - positives - int(columns[c]) + tp
        p, n = positives, size - positives
        if (base in ("sens", "bacc") and not p) or (base in ("spec", "bacc") and not n):
            values.append(None)
            continue
        values.append(SCORES[base].formula(Fraction(tp), Fraction(tn), Fraction(p), Fraction(n), None))
    defined = [v for v in values if v is not None]
    missing = len(values) - len(defined)
    convention = conventions[base] if missing else "0"
    if convention in ("0", "1"):
        return (sum(defined, Fraction(0)) + (missing if convention == "1" else 0)) / len(values)
    if convention == "skip":
        return sum(defined, Fraction(0)) / len(defined) if defined else None
    if choice is None:  # left out of the mean over folds, which only a fold without the score may be
        return None if not defined else False
    counted, ones = choice
    if not 0 <= ones <= counted <= missing or (not defined and not counted):
        return False
    return (sum(defined, Fraction(0)) + ones) / (len(defined) + counted)


def _down(value):
    """The largest float at most the Fraction ``value``."""
    f = float(value)
    return math.nextafter(f, -math.inf) if Fraction(f) > value else f


def _up(value):
    """The smallest float at least the Fraction ``value``."""
    f = float(value)
    return math.nextafter(f, math.inf) if Fraction(f) < value else f
