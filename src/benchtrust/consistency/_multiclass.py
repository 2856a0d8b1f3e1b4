"""Averaged one-vs-rest scores of a multiclass classifier on one test set with known class counts.

A test set of C >= 2 classes with known counts r_1..r_C (N items) gives a C×C confusion matrix M, rows the
true classes (row sums r_c), columns the predictions. Class c against the rest is a binary problem with
p_c = r_c, n_c = N - r_c and

    tp_c = M_cc,   fn_c = r_c - M_cc,   fp_c = col_c - M_cc,   tn_c = N - r_c - col_c + M_cc,

col_c being the c-th column sum. Reported scores are averaged over the classes in one of two ways:

* ``"micro"``: the scores of the pooled binary matrix, the sum of the C one-vs-rest matrices, as in the
  Score-of-Means aggregation of paper §4.2: p' = N, n' = (C - 1)·N and, with k items classified correctly,
  tp = k, fp = fn = N - k, tn = (C - 2)·N + k. The pooled matrix depends on k alone, so the solutions are
  the possible numbers of correct items, found by evaluating every score at each k = 0..N (the same test
  as :func:`~benchtrust.consistency.check_test_set`, on the line of pairs micro-averaging allows). Note
  that the micro accuracy is the pooled binary accuracy (2k + (C - 2)·N) / (C·N); the multiclass accuracy
  k / N is the micro sensitivity (= micro precision = micro F1).
* ``"macro"``: the mean over classes of the one-vs-rest scores, as in the Mean-of-Scores aggregation of
  paper §4.3. For the scores linear in tp and tn (accuracy, sensitivity, specificity, balanced accuracy and
  their complements) every averaged score is linear in M, and feasibility is decided by integer linear
  programming over M (§4.3.2) with :func:`scipy.optimize.milp` (HiGHS).

Certainty of the macro verdict
------------------------------
HiGHS works in floating point and accepts constraint violations up to its feasibility tolerances (1e-7
by default), so neither of its answers is used as it stands:

* It solves the problem with every interval widened by :data:`MARGIN` (in score units; each constraint
  row is scaled so that its largest coefficient is 1, which keeps MARGIN at least 10 times the
  tolerance in the row's own units) and a slack variable t in [0, 2·MARGIN] that it maximises: each score
  must lie in [low - MARGIN + t, high + MARGIN - t]. A confusion matrix meeting the intervals exactly is
  a point of this problem (t = 0) with MARGIN to spare on every score constraint, so "infeasible" cannot
  come from a tolerance or rounding decision at the boundary: only then is the result "inconsistent".
* Maximising t makes the returned matrix lie inside the unwidened intervals whenever any matrix does with
  room to spare. It is rounded to whole numbers and verified in exact rational arithmetic
  (:class:`fractions.Fraction`) against [low, high]: class counts, non-negativity, every averaged score.
  Only a matrix that passes is reported as ``evidence``. If none passes (possible only when every solution
  lies within the solver's tolerances of an interval end, or if HiGHS stops without an answer), the
  result is "consistent" with ``evidence=None``: no inconsistency was proved, and no witness verified.

HiGHS runs without presolve: its presolve may hand back incumbents that are infeasible for the original
problem and repairs them (printing a debug line to stdout as it does); the problems here are small.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from benchtrust._html import section_html
from benchtrust._io import InputError, check_count
from benchtrust.consistency import _section, _text
from benchtrust.consistency._reported import reported_scores
from benchtrust.consistency._scores import SCORES
from benchtrust.consistency._test_set import check_examples, matrices_frame, satisfies

#: Widening of every interval (in score units) for the infeasibility proof of the macro average.
MARGIN = 1e-6

_AVERAGES = ("micro", "macro")
_LINEAR = tuple(name for name, found in SCORES.items() if found.linear)


@dataclasses.dataclass(frozen=True)
class MulticlassResult:
    """Whether averaged one-vs-rest scores fit a multiclass test set with known class counts.

    Attributes
    ----------
    consistent : bool
        ``False`` only when certain: no confusion matrix with these class counts gives the scores.
    average : str
        ``"micro"`` or ``"macro"``.
    class_counts : tuple of int
        r_1..r_C, the number of items of each class.
    scores : tuple of Reported
        The reported scores with their intervals.
    beta : float or None
        β of the F-beta scores (micro average only).
    n_solutions : int or None
        Micro: how many numbers of correct items k give the scores. ``None`` for macro.
    solutions : tuple of int or None
        Micro: the first of those k, ascending. ``None`` for macro.
    pooled : tuple of (int, int) or None
        Micro: the pooled (tp, tn) = (k, (C - 2)·N + k) of each listed k. ``None`` for macro.
    evidence : list of list of int or None
        Macro: a confusion matrix (rows true classes, columns predictions) verified exactly to give every
        reported score; ``None`` when inconsistent, for micro, or when no matrix could be verified.
    """

    consistent: bool
    average: str
    class_counts: tuple
    scores: tuple
    beta: float | None
    n_solutions: int | None = None
    solutions: tuple | None = None
    pooled: tuple | None = None
    evidence: list | None = None

    def __repr__(self):
        scores = ", ".join(f"{rep.score}={rep.value!r}±{rep.eps:g}" for rep in self.scores)
        found = (
            f"n_solutions={self.n_solutions}, solutions={list(self.solutions)}"
            if self.average == "micro"
            else f"evidence={self.evidence}"
        )
        return (
            f"MulticlassResult(consistent={self.consistent}, average={self.average!r}, "
            f"class_counts={list(self.class_counts)}, {found}, scores=[{scores}], beta={self.beta})"
        )

    def __str__(self):
        """The readable summary ``benchtrust consistency multiclass`` prints."""
        return _text.multiclass_text(self)

    def _repr_html_(self):
        """The result as a notebook shows it: the report's section."""
        return section_html(_section.multiclass_section(self))

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §4.2 micro, §4.3 macro, the classes taking the place of folds)."""
        return _text.multiclass_verdict(self)

    def to_dict(self):
        """The result as plain JSON types."""
        return {
            "consistent": self.consistent,
            "average": self.average,
            "class_counts": list(self.class_counts),
            "scores": [rep.to_dict() for rep in self.scores],
            "beta": self.beta,
            "n_solutions": self.n_solutions,
            "solutions": None if self.solutions is None else list(self.solutions),
            "pooled": None if self.pooled is None else [list(pair) for pair in self.pooled],
            "evidence": self.evidence,
        }

    def to_frame(self):
        """The solutions as a table: the pooled matrices (micro) or the classes of the evidence (macro).

        Returns
        -------
        pandas.DataFrame
            Micro: one row per listed number of correct items, ``correct`` (k), then the pooled
            one-vs-rest matrix ``tp``, ``tn``, ``fn``, ``fp`` and one column per reported score holding its
            value. Macro: one row per class of the evidence (the classes take the place of folds, §4.3):
            ``class`` (numbered from 1), its one-vs-rest ``positives`` and ``negatives``, ``tp``, ``tn``,
            ``fn``, ``fp`` and the class's scores, whose means are the reported scores. No rows when
            inconsistent, or for a macro average without verified evidence.

        Examples
        --------
        >>> r = check_multiclass({"sens": "0.75", "spec": "0.875"}, class_counts=[4, 4, 4], average="macro")
        >>> frame = r.to_frame()
        >>> list(frame.columns), float(frame["sens"].mean()), float(frame["spec"].mean())
        (['class', 'positives', 'negatives', 'tp', 'tn', 'fn', 'fp', 'sens', 'spec'], 0.75, 0.875)
        """
        counts = np.array(self.class_counts, dtype=np.int64)
        classes, total = len(counts), int(counts.sum())
        if self.average == "micro":
            correct = np.array(self.solutions, dtype=np.int64)
            return matrices_frame(
                {"correct": correct},
                correct,
                (classes - 2) * total + correct,
                total,
                (classes - 1) * total,
                self.scores,
                self.beta,
            )
        # the rows of the evidence (none without it), each class against the rest
        matrix = np.array(self.evidence or [], dtype=np.int64).reshape(-1, classes)
        c = np.arange(len(matrix))
        p, n = counts[c], total - counts[c]
        tp = matrix[c, c]
        tn = n - matrix.sum(axis=0)[c] + tp
        leading = {"class": c + 1, "positives": p, "negatives": n}
        return matrices_frame(leading, tp, tn, p, n, self.scores, None)


def check_multiclass(scores, *, class_counts, average, eps=None, rounding="round", beta=None, examples=10):
    """Could one multiclass test set with these class counts give these averaged scores?

    Parameters
    ----------
    scores : mapping
        Score name (any alias) -> reported value, a number or its text as printed.
    class_counts : sequence of int
        r_1..r_C, the number of test items in each of the C >= 2 classes (each >= 1).
    average : {"micro", "macro"}
        How the one-vs-rest scores were averaged: pooled matrix (paper §4.2) or mean over classes (§4.3).
    eps : float or mapping, optional
        ε, the numerical uncertainty, for all scores or per score; inferred from the decimals otherwise.
    rounding : {"round", "floor-or-ceil"}
        How the values were cut to their decimals, when ε is inferred.
    beta : float, optional
        β of the F-beta scores (micro only).
    examples : int, default 10
        Micro: how many numbers of correct items to list.

    Returns
    -------
    MulticlassResult

    Examples
    --------
    Three classes of 10, 20 and 30 items; a micro-averaged F1 of 0.80 means 48 correct items:

    >>> r = check_multiclass({"f1": "0.80"}, class_counts=[10, 20, 30], average="micro")
    >>> r.consistent, r.solutions, r.pooled
    (True, (48,), ((48, 108),))

    Macro-averaged sensitivity and specificity; the evidence is a confusion matrix that gives both:

    >>> r = check_multiclass({"sens": "0.75", "spec": "0.875"}, class_counts=[4, 4, 4], average="macro")
    >>> r.consistent, r.evidence is not None
    (True, True)
    >>> check_multiclass({"sens": "0.75", "spec": "0.80"}, class_counts=[4, 4, 4], average="macro").consistent
    False
    """
    if average not in _AVERAGES:
        raise InputError(f"average: expected one of {', '.join(_AVERAGES)}, got {average!r}")
    reported = reported_scores(scores, eps=eps, rounding=rounding, beta=beta)
    counts = _class_counts(class_counts)
    count = check_examples(examples)
    beta = None if beta is None else float(beta)
    common = {"average": average, "class_counts": counts, "scores": reported, "beta": beta}
    if average == "micro":
        return MulticlassResult(**_micro(reported, counts, beta, count), **common)
    nonlinear = [rep.score for rep in reported if rep.score not in _LINEAR]
    if nonlinear:
        raise InputError(
            f"scores: average='macro' supports only the scores linear in tp and tn ({', '.join(_LINEAR)}); "
            f"got {', '.join(nonlinear)}"
        )
    consistent, evidence = _macro(reported, counts)
    return MulticlassResult(consistent=consistent, evidence=evidence, **common)


def _class_counts(class_counts):
    if isinstance(class_counts, (str, bytes)) or not hasattr(class_counts, "__len__"):
        raise InputError(f"class_counts: expected a list of class sizes, got {class_counts!r:.80}")
    counts = tuple(check_count(value, f"class_counts[{i}]") for i, value in enumerate(class_counts))
    if len(counts) < 2:
        raise InputError(f"class_counts: expected at least 2 classes, got {len(counts)}")
    return counts


def _micro(reported, counts, beta, count):
    """The numbers of correct items k whose pooled matrix (k, (C - 2)·N + k) gives every score."""
    classes, total = len(counts), sum(counts)
    correct = np.arange(total + 1, dtype=np.int64)
    negatives = (classes - 1) * total
    ok = satisfies(reported, correct, (classes - 2) * total + correct, total, negatives, beta)
    found = correct[ok]
    listed = found[:count].tolist()
    return {
        "consistent": bool(found.size),
        "n_solutions": int(found.size),
        "solutions": tuple(listed),
        "pooled": tuple((k, (classes - 2) * total + k) for k in listed),
    }


def _macro(reported, counts):
    """(consistent, evidence) for macro-averaged linear scores, by integer programming over M (§4.3.2)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    classes = len(counts)
    size = classes * classes
    # Variables: M row by row, then the slack t.
    equal = np.zeros((classes, size + 1))
    for c in range(classes):
        equal[c, c * classes : (c + 1) * classes] = 1
    matrix, lower, upper = [equal], [np.array(counts, float)], [np.array(counts, float)]
    for rep in reported:
        constant, coefficients = _macro_form(SCORES[rep.score], counts)
        scale = 1 / float(np.abs(coefficients).max())  # the largest coefficient becomes 1
        row = coefficients.ravel() * scale
        widened = (rep.interval.low - MARGIN, rep.interval.high + MARGIN)
        low, high = ((end - constant) * scale for end in widened)
        matrix += [np.append(row, -scale), np.append(row, scale)]  # score - t >= low, score + t <= high
        lower += [np.array([low]), np.array([-np.inf])]
        upper += [np.array([np.inf]), np.array([high])]
    bounds = Bounds(np.zeros(size + 1), np.append(np.repeat(np.array(counts, float), classes), 2 * MARGIN))
    result = milp(
        c=np.append(np.zeros(size), -1.0),
        constraints=LinearConstraint(np.vstack(matrix), np.concatenate(lower), np.concatenate(upper)),
        integrality=np.append(np.ones(size), 0),
        bounds=bounds,
        options={"presolve": False},
    )
    if result.status == 2:  # infeasible even with every interval widened by MARGIN
        return False, None
    if result.x is None:
        return True, None
    confusion = np.rint(result.x[:size]).astype(np.int64).reshape(classes, classes)
    return True, (confusion.tolist() if _verified(confusion, reported, counts) else None)


def _macro_form(score, counts):
    """The macro average of a linear score as constant + sum(coefficients * M), in floats.

    Per class the score is a + b·tp + g·tn exactly (Fractions through the score's own formula), with
    tp = M_cc and tn = n_c - sum_{i != c} M_ic.
    """
    classes, total = len(counts), sum(counts)
    constant = Fraction(0)
    coefficients = np.zeros((classes, classes))
    for c, positives in enumerate(counts):
        p, n = Fraction(positives), Fraction(total - positives)
        a = score.formula(Fraction(0), Fraction(0), p, n, None)
        b = score.formula(Fraction(1), Fraction(0), p, n, None) - a
        g = score.formula(Fraction(0), Fraction(1), p, n, None) - a
        constant += (a + g * n) / classes
        coefficients[:, c] = float(-g / classes)
        coefficients[c, c] = float(b / classes)
    return float(constant), coefficients


def _verified(confusion, reported, counts):
    """Whether the whole-number matrix has the class counts and gives every score, in exact arithmetic."""
    if (confusion < 0).any() or confusion.sum(axis=1).tolist() != list(counts):
        return False
    classes, total = len(counts), sum(counts)
    columns = confusion.sum(axis=0).tolist()
    for rep in reported:
        formula = SCORES[rep.score].formula
        mean = Fraction(0)
        for c, positives in enumerate(counts):
            tp = int(confusion[c, c])
            tn = total - positives - columns[c] + tp
            mean += formula(
                Fraction(tp), Fraction(tn), Fraction(positives), Fraction(total - positives), None
            )
        mean /= classes
        if not Fraction(rep.interval.low) <= mean <= Fraction(rep.interval.high):
            return False
    return True
