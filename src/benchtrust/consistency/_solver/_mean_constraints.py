"""What the per-set counts of a mean of scores must give (paper §4.3, Eq. 9-10), checked exactly.

The reported means over the sets (Eq. 9) and the optional bounds on every set's score (Eq. 10) are
:class:`Constraints`, made by :func:`constraints`; :func:`verified` checks per-set counts against them in
exact rational arithmetic, as every answer of the search (:mod:`._mean_of_scores`) is checked before it is
returned.

Scores undefined in a set
-------------------------
Sensitivity is undefined in a set without positives, specificity in one without negatives. The paper
(§4.4.1, §4.4.3) leaves such sets out of its fold configurations; scikit-learn users are not bound by
that (``StratifiedKFold`` with fewer positives than folds, unshuffled ``KFold`` on sorted data), and
scikit-learn still prints a mean. :data:`CONVENTIONS` are the ways people turn an undefined score into a
mean, per base score (a complement follows its base: 1 - sens counted as 0 is fnr counted as 1):

* ``"0"``: counted as 0, scikit-learn's default ``zero_division`` (with a warning);
* ``"1"``: counted as 1 (``zero_division=1``);
* ``"skip"``: left out of the mean (``zero_division=np.nan`` and ``np.nanmean``). For balanced
  accuracy the undefined recall is left out of the set's mean of the two recalls, which is what
  ``balanced_accuracy_score`` does (whatever ``zero_division`` is): the set's balanced accuracy is then
  the recall of the class it holds.

With no convention for a base (``Constraints.undefined``), a set where it is undefined rules the problem
out (the paper's rule).
"""

from __future__ import annotations

import dataclasses
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

#: The base scores, in column order.
BASES = ("sens", "spec", "acc", "bacc")

#: How a score undefined in a set enters a mean (module notes): counted as 0, as 1, or left out.
CONVENTIONS = ("0", "1", "skip")


@dataclasses.dataclass(frozen=True)
class Constraints:
    """What the per-set counts must give.

    Attributes
    ----------
    means : tuple of Reported
        Reported means over the sets (Eq. 9); each mean must lie in [low, high].
    each : tuple of (str, float, float)
        (score, low, high): every set's score must lie in [low, high] (Eq. 10).
    undefined : tuple of (str, str)
        (base score, convention of :data:`CONVENTIONS`): how the base score enters the means (and the
        bounds) in sets where it is undefined; a base not listed rules such sets out (module notes).
    """

    means: tuple
    each: tuple = ()
    undefined: tuple = ()

    def convention(self, base):
        """The convention for an undefined ``base`` score, or None (undefined rules the set out)."""
        return dict(self.undefined).get(base)


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
    for name, (low, high) in [(rep.score, rep.interval) for rep in given.means]:
        values = _exact(name, sets, given)
        if values is None or not Fraction(low) <= sum(values) / len(values) <= Fraction(high):
            return False
    for name, low, high in given.each:
        values = _exact(name, sets, given)
        if values is None or not all(Fraction(low) <= value <= Fraction(high) for value in values):
            return False
    return True


def _exact(name, sets, given):
    """The score ``name`` of every set where it counts, as Fractions; None if a set rules it out.

    A set where the score is undefined takes the value of its convention (``given.undefined``), or is
    left out (``"skip"``); without a convention it rules the score out, as does a mean over no set.
    """
    base, complement = LINEAR[name]
    convention = given.convention(base)
    values = []
    for p, n, tp, tn in sets:
        recalls = [Fraction(tp, p) if p else None, Fraction(tn, n) if n else None]
        present = [r for r in recalls if r is not None]
        if base == "acc":
            value = Fraction(tp + tn, p + n)
        elif base == "bacc" and len(present) == 2:
            value = sum(present) / 2
        elif base == "bacc" and convention in ("0", "1"):
            value = (present[0] + Fraction(convention)) / 2
        elif base == "bacc" and convention == "skip":
            value = present[0]
        else:
            value = recalls[base == "spec"] if base != "bacc" else None
            if value is None and convention in ("0", "1"):
                value = Fraction(convention)
        if value is None and convention != "skip":
            return None
        if value is not None:
            values.append(1 - value if complement else value)
    return values or None


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
        out.append((found, low.interval.low, high.interval.high))
    return tuple(out)


def base_intervals(items):
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
