"""Fast answers for the macro mean over folds, before the integer program (paper §4.3, multiclass folds).

:func:`~._multiclass_folds.macro_mean` decides every configuration with HiGHS, which takes milliseconds
to seconds. Two shortcuts settle most configurations where every reported score is defined for every
class of every fold (the first tier) without it:

* **Identities** (certain "inconsistent"). Over the classes of a fold, Σ_c acc_c = C - 2 + 2·x (x the
  fraction classified correctly: each error is one false negative and one false positive), so the mean
  accuracy is (C - 2 + 2·mean(x_f))/C, and the whole numbers x_f·N_f must give that mean (checked by
  :func:`~._multiclass_folds._two_sizes` for folds of one or two sizes); and bacc_c = (sens_c + spec_c)/2,
  so the mean balanced accuracy is the mean of the other two means. Intervals that these relations cannot
  join rule the configuration out, in exact arithmetic.
* **A witness** (certain "consistent"). The numbers correct per fold are taken from the accuracy's window
  (or from the sensitivity's), spread over the classes in proportion to their counts, then moved between
  classes of the same fold, as many at a time as bring the sum of d_fc / r_fc nearest its target, until
  the mean sensitivity is inside its interval; the false positives (as many per fold as its errors, each
  class at most its negatives and at most the errors that are not its own false negatives, which is what
  makes one confusion matrix) are steered the same way to the specificity. The matrices are built and
  checked exactly (each mean one sum of whole numbers over a common denominator); nothing unchecked is
  returned.

When neither settles a configuration, the integer program does.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from benchtrust.consistency._multiclass_folds import MacroFit, _two_sizes
from benchtrust.consistency._one_vs_rest import MACRO_BASES, SKLEARN_ACCURACY, off_diagonal, verified_macro

#: Rounds of moves per score before the witness gives up (the integer program then decides).
ROUNDS = 60


def windows(reported, sizes, classes):
    """Exact intervals of the means of x (the fraction classified correctly; None if no accuracy was
    reported), sens, spec and bacc (None where not reported) the scores stand for, and under ``"correct"``
    whole numbers correct per fold (of these ``sizes``) whose mean fraction lies in the window of x; None
    when two intervals for the same mean cannot meet or no whole numbers give x, which rules out every
    configuration of the folds (accuracy is defined in every fold). Every reported score is one of acc,
    sens, spec, bacc, their complements and ``accuracy_score``; acc is turned into x by the identity of the
    module notes."""
    out = {"x": None, "sens": None, "spec": None, "bacc": None}
    for rep in reported:
        base, complement = MACRO_BASES[rep.score]
        low, high = Fraction(rep.interval.low), Fraction(rep.interval.high)
        if complement:
            low, high = 1 - high, 1 - low
        if base == "acc":  # acc = (C - 2 + 2x)/C
            low, high = (classes * low - (classes - 2)) / 2, (classes * high - (classes - 2)) / 2
        key = "x" if base in ("acc", SKLEARN_ACCURACY) else base
        if out[key] is not None:
            low, high = max(low, out[key][0]), min(high, out[key][1])
        if low > high:
            return None
        out[key] = (low, high)
    if out["x"] is not None:
        out["correct"] = _two_sizes(np.asarray(sizes), *out["x"])
        if out["correct"] is None:
            return None
    return out


def balanced_accuracy_fits(found):
    """Whether the mean bacc can be the mean of the mean sens and spec (every score defined)."""
    sens, spec, bacc = found["sens"], found["spec"], found["bacc"]
    if sens is None or spec is None or bacc is None:
        return True
    return (sens[0] + spec[0]) / 2 <= bacc[1] and (sens[1] + spec[1]) / 2 >= bacc[0]


def settle(reported, config, found):
    """(consistent, MacroFit or None) when the identities or a witness settle a configuration where every
    class has items and negatives in every fold; None when the integer program must decide (module notes).

    Parameters
    ----------
    reported : tuple of Reported
    config : numpy.ndarray, shape (folds, classes)
    found : dict
        The :func:`windows` of the scores for these fold sizes (not None).

    Examples
    --------
    >>> from benchtrust.consistency._one_vs_rest import multiclass_reported
    >>> def scores(**given):
    ...     return multiclass_reported(given, eps=None, rounding="round", beta=None)
    >>> config = np.array([[4, 4, 4]])
    >>> found = scores(sens="0.75", spec="0.80")
    >>> settle(found, config, windows(found, [12], 3))  # not settled here (inconsistent: spec = (1 + sens)/2)
    >>> found = scores(sens="0.75", spec="0.875")
    >>> settle(found, config, windows(found, [12], 3))[0]
    True
    """
    if not balanced_accuracy_fits(found):
        return False, None
    fit = macro_witness(reported, config, found)
    return None if fit is None else (True, fit)


def macro_witness(reported, config, found):
    """A :class:`~._multiclass_folds.MacroFit` for a first-tier configuration, or None (module notes).

    Parameters
    ----------
    reported : tuple of Reported
    config : numpy.ndarray, shape (folds, classes)
        The folds' class counts, every one at least 1.
    found : dict
        The :func:`windows` of the scores, with ``"correct"``: whole numbers correct per fold in the window
        of x (:func:`~._multiclass_folds._two_sizes`) when an accuracy was reported.
    """
    folds, classes = config.shape
    sizes = config.sum(axis=1)
    units = folds * classes
    sens, spec, bacc = found["sens"], found["spec"], found["bacc"]
    if sens is not None and bacc is not None and spec is not None:
        sens = (max(sens[0], 2 * bacc[0] - spec[1]), min(sens[1], 2 * bacc[1] - spec[0]))
    if sens is None and bacc is not None and spec is None:
        sens = bacc  # any split of bacc into sens and spec: aim both at it
    if found["x"] is not None:
        correct = found["correct"]
        if correct is NotImplemented:
            return None
    else:  # as many correct as the sensitivity asks for, class by class
        aim = float(sum(sens or bacc or (Fraction(1, 2), Fraction(1, 2)))) / 2
        correct = np.rint(aim * config).astype(np.int64).sum(axis=1)
    d = _spread(correct, config)
    if sens is not None and not _steer(d, 1 / config, np.zeros_like(config), config, sens, units):
        return None
    achieved = Fraction(0)
    if bacc is not None or spec is not None:
        achieved = (
            sum(Fraction(int(v), int(r)) for v, r in zip(d.ravel(), config.ravel(), strict=True)) / units
        )
    if spec is None and bacc is not None:
        spec = (2 * bacc[0] - achieved, 2 * bacc[1] - achieved)
    elif spec is not None and bacc is not None:
        spec = (max(spec[0], 2 * bacc[0] - achieved), min(spec[1], 2 * bacc[1] - achieved))
    negatives = sizes[:, None] - config
    errors = (sizes - d.sum(axis=1))[:, None]
    cap = np.minimum(negatives, errors - (config - d))
    fp = _spread(errors[:, 0], np.maximum(cap, 0), limit=cap)
    if fp is None:
        return None
    if spec is not None:  # steer the mean of fp/n to 1 - spec
        low, high = 1 - spec[1], 1 - spec[0]
        if not _steer(fp, 1 / negatives, np.zeros_like(cap), cap, (low, high), units):
            return None
    matrices = []
    for f in range(folds):
        off = off_diagonal(config[f] - d[f], fp[f])
        if off is None:
            return None
        matrices.append((off + np.diag(d[f])).tolist())
    fit = MacroFit(matrices, {}, {})
    return fit if verified_macro(np.array(matrices), config, reported) else None


def _spread(totals, weights, limit=None):
    """Whole numbers per fold and class summing to ``totals`` per fold, in proportion to ``weights`` and at
    most ``limit`` (default: the weights); None if a fold's total exceeds its limits."""
    limit = weights if limit is None else limit
    if (limit.sum(axis=1) < totals).any():
        return None
    share = weights / np.maximum(weights.sum(axis=1, keepdims=True), 1)
    out = np.minimum(np.floor(share * totals[:, None]).astype(np.int64), limit)
    for f in range(len(totals)):
        left = int(totals[f] - out[f].sum())
        while left > 0:  # the rest one at a time, largest room first
            room = limit[f] - out[f]
            c = int(np.argmax(room))
            step = min(left, int(room[c]))
            out[f, c] += step
            left -= step
    return out


def _steer(values, weights, low, high, window, units):
    """Move whole units between classes of the same fold (in place) until the mean of values·weights over
    the ``units`` cells lies in ``window`` (exact ends); whether it does. Floats choose the moves, aiming
    at the middle of the window; the caller checks the result exactly."""
    lo, hi = float(window[0]) * units, float(window[1]) * units
    inside = 1e-9 * units  # floats that close to an end are left to the integer program
    if lo + inside > hi - inside:
        return False
    target = (lo + hi) / 2
    for _ in range(ROUNDS):
        total = float((values * weights).sum())
        gap = target - total
        if abs(gap) <= (hi - lo) / 4:
            return True
        # a move of one unit from class i to class j of a fold changes the sum by w_j - w_i
        delta = weights[:, None, :] - weights[:, :, None]  # [fold, i, j]
        able = (values > low)[:, :, None] & (values < high)[:, None, :]
        useful = able & (delta * gap > 0)
        if not useful.any():
            break
        size = np.where(useful, np.abs(delta), np.inf)
        room = np.minimum((values - low)[:, :, None], (high - values)[:, None, :])
        count = np.clip(np.floor(abs(gap) / size + 0.5), 1, np.maximum(room, 1))
        left = np.where(useful, np.abs(abs(gap) - count * size), np.inf)
        f, i, j = np.unravel_index(np.argmin(left), left.shape)
        if left[f, i, j] >= abs(gap):
            break
        step = int(count[f, i, j])
        values[f, i] -= step
        values[f, j] += step
    total = float((values * weights).sum())
    return lo + inside <= total <= hi - inside
