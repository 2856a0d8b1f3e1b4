"""A multiclass confusion matrix seen one class against the rest: the pooled line on which micro
averages live, the linear forms of macro averages, and the exact check of matrices against reported
macro means (§4.2, module notes of :mod:`._multiclass`).

Micro averages. With C classes and N items, k of them classified correctly, the micro average pools the
classes' one-vs-rest matrices into (tp, tn, p, n) = (k, (C - 2)·N + k, N, (C - 1)·N). On that line the
scores of :data:`MICRO_AFFINE` are affine in x = k/N, with coefficients that depend on C only
(:func:`micro_line`):

* sens = ppv = f1 = F-beta = Fowlkes-Mallows = ``accuracy_score`` = x;
* acc = (C - 2 + 2x)/C; spec = npv = f1n = F-beta of the negatives = (C - 2 + x)/(C - 1);
  bacc = (sens + spec)/2;
* informedness = markedness = MCC = Cohen's kappa = (Cx - 1)/(C - 1) (for kappa the chance agreement is
  (1 + (C - 1)²)/C²);
* the complements err, fnr, fpr, fdr, for: 1 - their base.

So reported scores bound x to one exact interval (:func:`micro_window`), for one test set or for the mean
over folds of their x (the mean of a + b·x_f is a + b·mean(x_f)). The other scores (ji, gm, upm, lrp, lrn,
pt, dor) are not affine in x.

Macro averages. A class's one-vs-rest score of :data:`MACRO_BASES` is linear in its diagonal entry and its
column sum (:func:`class_form`); a matrix with given row and column sums off the diagonal exists under a
simple condition and is built greedily (:func:`off_diagonal`); :func:`verified_macro` checks matrices
against the reported means in whole numbers. scikit-learn's ``accuracy_score`` is a score of its own here
(:func:`multiclass_reported`).
"""

from __future__ import annotations

import dataclasses
import heapq
import math
from fractions import Fraction

import numpy as np

from benchtrust._io import InputError
from benchtrust.consistency._reported import reported_scores
from benchtrust.consistency._scores import SCORES
from benchtrust.consistency._solver._mean_constraints import LINEAR

#: The name of scikit-learn's accuracy (``sklearn.metrics.accuracy_score``): the fraction of items
#: classified correctly, k / N. Not the one-vs-rest ``acc``.
SKLEARN_ACCURACY = "accuracy_score"

_SAME_AS_SENS = ("sens", "ppv", "f1p", "fbp", "fm", SKLEARN_ACCURACY)
_SAME_AS_SPEC = ("spec", "npv", "f1n", "fbn")
_CHANCE_CORRECTED = ("bm", "mk", "mcc", "kappa")
_COMPLEMENTS = {"err": "acc", "fnr": "sens", "fpr": "spec", "fdr": "ppv", "for": "npv"}
#: The scores affine on the micro line (module notes), in the order the docs list them.
MICRO_AFFINE = (*_SAME_AS_SENS, "acc", *_SAME_AS_SPEC, "bacc", *_CHANCE_CORRECTED, *_COMPLEMENTS)
#: Score -> (base, is a complement) of the macro averages: the scores linear in tp and tn, and
#: scikit-learn's accuracy.
MACRO_BASES = {**LINEAR, SKLEARN_ACCURACY: (SKLEARN_ACCURACY, False)}
#: Widening of every interval (in score units) for the infeasibility proof of the macro average.
MARGIN = 1e-6


def micro_line(name, classes):
    """(a, b): the micro-averaged score ``name`` of a fold is a + b·x, x the fraction classified correctly.

    Examples
    --------
    >>> micro_line("acc", 3), micro_line("mcc", 3)
    ((Fraction(1, 3), Fraction(2, 3)), (Fraction(-1, 2), Fraction(3, 2)))
    """
    c = Fraction(classes)
    if name in _COMPLEMENTS:
        a, b = micro_line(_COMPLEMENTS[name], classes)
        return 1 - a, -b
    if name in _SAME_AS_SENS:
        return Fraction(0), Fraction(1)
    if name == "acc":
        return (c - 2) / c, 2 / c
    if name in _SAME_AS_SPEC:
        return (c - 2) / (c - 1), 1 / (c - 1)
    if name == "bacc":
        return (c - 2) / (c - 1) / 2, (1 + 1 / (c - 1)) / 2
    if name in _CHANCE_CORRECTED:
        return -1 / (c - 1), c / (c - 1)
    raise InputError(f"scores: micro-averaged {name} is not affine in the fraction classified correctly")


def micro_window(reported, classes):
    """The exact interval of the fraction classified correctly, x, that every reported score (each of
    :data:`MICRO_AFFINE`) allows through its relation a + b·x (:func:`micro_line`); None if empty.

    Three classes: an accuracy of 0.80 (± 0.005) is (1 + 2x)/3, so x is 0.70 ± 0.0075:

    >>> reported = multiclass_reported({"acc": "0.80"}, eps=None, rounding="round", beta=None)
    >>> low, high = micro_window(reported, 3)
    >>> round(float(low), 6), round(float(high), 6)
    (0.6925, 0.7075)
    """
    low, high = Fraction(0), Fraction(1)
    for rep in reported:
        a, b = micro_line(rep.score, classes)
        ends = sorted(((Fraction(rep.interval.low) - a) / b, (Fraction(rep.interval.high) - a) / b))
        low, high = max(low, ends[0]), min(high, ends[1])
    return None if low > high else (low, high)


def is_sklearn_accuracy(name):
    """Whether `name` names scikit-learn's accuracy (any case, spaces, hyphens or underscores)."""
    return (
        isinstance(name, str) and "_".join(name.strip().lower().split()).replace("-", "_") == SKLEARN_ACCURACY
    )


def multiclass_reported(scores, *, eps, rounding, beta):
    """The reported scores as intervals; ``accuracy_score`` becomes a score of its own (module notes)."""
    names = [name for name in scores if is_sklearn_accuracy(name)] if hasattr(scores, "items") else []
    if not names:
        return reported_scores(scores, eps=eps, rounding=rounding, beta=beta)
    if len(names) > 1:
        raise InputError(f"scores: {names[0]!r} and {names[1]!r} are the same score ({SKLEARN_ACCURACY})")
    (name,) = names
    others = {key: value for key, value in scores.items() if key != name}
    own_eps, other_eps = eps, eps
    if hasattr(eps, "items"):
        own = [key for key in eps if is_sklearn_accuracy(key)]
        if not own:
            raise InputError(f"eps: none given for {name}")
        own_eps = eps[own[0]]
        other_eps = {key: value for key, value in eps.items() if key != own[0]}
    # read as the binary alias (acc, the same ε rule), then given its own name
    (accuracy,) = reported_scores({name: scores[name]}, eps=own_eps, rounding=rounding, beta=beta)
    accuracy = dataclasses.replace(accuracy, score=SKLEARN_ACCURACY)
    rest = iter(reported_scores(others, eps=other_eps, rounding=rounding, beta=beta) if others else ())
    return tuple(accuracy if key == name else next(rest) for key in scores)


def class_form(name, positives, negatives):
    """A class's one-vs-rest score, linear in tp and tn, as (constant, on d, on s): exactly (Fractions
    through the score's own formula) constant + on_d·d + on_s·s, with tp = d, the class's diagonal entry,
    and tn = negatives - s + d, s its column sum.

    >>> class_form("sens", 4, 8), class_form("spec", 4, 8)
    ((Fraction(0, 1), Fraction(1, 4), Fraction(0, 1)), (Fraction(1, 1), Fraction(1, 8), Fraction(-1, 8)))
    """
    formula = SCORES[name].formula
    p, n = Fraction(positives), Fraction(negatives)
    a = formula(Fraction(0), Fraction(0), p, n, None)
    b = formula(Fraction(1), Fraction(0), p, n, None) - a
    g = formula(Fraction(0), Fraction(1), p, n, None) - a
    return a + g * n, b + g, -g


def off_diagonal(a, b):
    """A whole-number matrix with zero diagonal, row sums ``a`` and column sums ``b``, or None if none.

    One exists if and only if a, b >= 0, sum(a) = sum(b) = S and a_c + b_c <= S for every c (module
    notes). Greedily: move x items from a row i to a column j != i, as many as keep that condition for
    every other class (x <= S - (a_c + b_c)); a class with a_c + b_c = S (tight) must be in every move, and
    at most two are tight (then all items are theirs). Each move empties a row or a column or makes a class
    tight, so there are at most 2C + 2 moves.
    """
    a, b = [int(value) for value in a], [int(value) for value in b]
    left, size = sum(a), len(a)
    if min(a) < 0 or min(b) < 0 or left != sum(b) or any(x + y > left for x, y in zip(a, b, strict=True)):
        return None
    matrix = np.zeros((size, size), dtype=np.int64)
    while left > 0:  # plain lists: a few classes are the common case, and numpy's calls cost more there
        load = [x + y for x, y in zip(a, b, strict=True)]
        top = heapq.nlargest(3, range(size), key=load.__getitem__)  # the three largest loads, largest first
        k = top[0]
        tight = [c for c in top if load[c] == left]
        if load[k] == left and a[k] > 0:
            i = k
            j = tight[1] if len(tight) > 1 else _largest_but(b, i)
        elif load[k] == left:
            j = k
            i = tight[1] if len(tight) > 1 else _largest_but(a, j)
        else:
            i = max(range(size), key=a.__getitem__)
            j = _largest_but(b, i)
        others = [load[c] for c in top if c not in (i, j)]
        x = min(a[i], b[j], left - (others[0] if others else 0))
        if x <= 0:
            raise AssertionError("internal error: no move left in a feasible zero-diagonal transport")
        matrix[i, j] += x
        a[i] -= x
        b[j] -= x
        left -= x
    return matrix


def _largest_but(values, skip):
    """The index of the largest of ``values`` other than ``skip`` (the first if tied)."""
    return max((c for c in range(len(values)) if c != skip), key=values.__getitem__)


def verified_macro(matrices, config, reported):
    """Whether confusion matrices, one per fold (every class with items and negatives in every fold), have
    the folds' class counts and give every reported macro mean over the folds (``accuracy_score``: of the
    folds' fractions correct), in exact whole-number arithmetic: each mean of fractions is one sum over a
    common denominator. One test set is one fold.

    >>> def scores(**given):
    ...     return multiclass_reported(given, eps=None, rounding="round", beta=None)
    >>> matrix, counts = np.array([[[3, 1, 0], [0, 3, 1], [1, 0, 3]]]), np.array([[4, 4, 4]])
    >>> verified_macro(matrix, counts, scores(sens="0.75", spec="0.875"))
    True
    >>> verified_macro(matrix, counts, scores(sens="0.70"))
    False
    """
    if (matrices < 0).any() or (matrices.sum(axis=2) != config).any():
        return False
    sizes = config.sum(axis=1, keepdims=True)
    tp = np.einsum("fcc->fc", matrices)
    tn = sizes - config - matrices.sum(axis=1) + tp
    parts = {  # per base: (numerators, denominators) of the values averaged, all of them
        "sens": [(tp, config)],
        "spec": [(tn, sizes - config)],
        "acc": [(tp + tn, np.broadcast_to(sizes, config.shape))],
        "bacc": [(tp, 2 * config), (tn, 2 * (sizes - config))],
        SKLEARN_ACCURACY: [(tp.sum(axis=1), sizes[:, 0])],
    }
    for rep in reported:
        base, complement = MACRO_BASES[rep.score]
        terms = [
            (int(a), int(b))
            for top, bottom in parts[base]
            for a, b in zip(top.ravel(), bottom.ravel(), strict=True)
        ]
        common = math.lcm(*(b for _, b in terms))
        count = tp.size if base != SKLEARN_ACCURACY else len(sizes)
        mean = Fraction(sum(a * (common // b) for a, b in terms), common * count)
        if complement:
            mean = 1 - mean
        if not Fraction(rep.interval.low) <= mean <= Fraction(rep.interval.high):
            return False
    return True
