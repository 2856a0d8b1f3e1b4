"""The pooled one-vs-rest line of a multiclass confusion matrix, on which micro averages live (§4.2).

With C classes and N items, k of them classified correctly, the micro average pools the classes'
one-vs-rest matrices into (tp, tn, p, n) = (k, (C - 2)·N + k, N, (C - 1)·N) (module notes of
:mod:`._multiclass`). On that line the scores of :data:`MICRO_AFFINE` are affine in x = k/N, with
coefficients that depend on C only (:func:`micro_line`):

* sens = ppv = f1 = F-beta = Fowlkes-Mallows = ``accuracy_score`` = x;
* acc = (C - 2 + 2x)/C; spec = npv = f1n = F-beta of the negatives = (C - 2 + x)/(C - 1);
  bacc = (sens + spec)/2;
* informedness = markedness = MCC = Cohen's kappa = (Cx - 1)/(C - 1) (for kappa the chance agreement is
  (1 + (C - 1)²)/C²);
* the complements err, fnr, fpr, fdr, for: 1 - their base.

So reported scores bound x to one exact interval (:func:`micro_window`), for one test set or for the mean
over folds of their x (the mean of a + b·x_f is a + b·mean(x_f)). The other scores (ji, gm, upm, lrp, lrn,
pt, dor) are not affine in x.
"""

from __future__ import annotations

from fractions import Fraction

from benchtrust._io import InputError

#: The name of scikit-learn's accuracy (``sklearn.metrics.accuracy_score``): the fraction of items
#: classified correctly, k / N. Not the one-vs-rest ``acc``.
SKLEARN_ACCURACY = "accuracy_score"

_SAME_AS_SENS = ("sens", "ppv", "f1p", "fbp", "fm", SKLEARN_ACCURACY)
_SAME_AS_SPEC = ("spec", "npv", "f1n", "fbn")
_CHANCE_CORRECTED = ("bm", "mk", "mcc", "kappa")
_COMPLEMENTS = {"err": "acc", "fnr": "sens", "fpr": "spec", "fdr": "ppv", "for": "npv"}
#: The scores affine on the micro line (module notes), in the order the docs list them.
MICRO_AFFINE = (*_SAME_AS_SENS, "acc", *_SAME_AS_SPEC, "bacc", *_CHANCE_CORRECTED, *_COMPLEMENTS)


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

    >>> from benchtrust.consistency._multiclass import _reported
    >>> low, high = micro_window(_reported({"acc": "0.80"}, eps=None, rounding="round", beta=None), 3)
    >>> round(float(low), 6), round(float(high), 6)
    (0.6925, 0.7075)
    """
    low, high = Fraction(0), Fraction(1)
    for rep in reported:
        a, b = micro_line(rep.score, classes)
        ends = sorted(((Fraction(rep.interval.low) - a) / b, (Fraction(rep.interval.high) - a) / b))
        low, high = max(low, ends[0]), min(high, ends[1])
    return None if low > high else (low, high)
