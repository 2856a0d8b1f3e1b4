"""Averaged one-vs-rest scores of a multiclass classifier on one test set with known class counts.

A test set of C >= 2 classes with known counts r_1..r_C (N items) gives a C×C confusion matrix M, rows the
true classes (row sums r_c), columns the predictions. Class c against the rest is a binary problem with
p_c = r_c, n_c = N - r_c and

    tp_c = M_cc,   fn_c = r_c - M_cc,   fp_c = col_c - M_cc,   tn_c = N - r_c - col_c + M_cc,

col_c being the c-th column sum. Reported scores are averaged over the classes in one of two ways:

* ``"micro"``: the scores of the pooled binary matrix, the sum of the C one-vs-rest matrices, as in the
  Score-of-Means aggregation of paper §4.2: p' = N, n' = (C - 1)·N and, with k items classified correctly,
  tp = k, fp = fn = N - k, tn = (C - 2)·N + k. The pooled matrix depends on k alone, so the solutions are
  the possible numbers of correct items: the pairs (k, (C - 2)·N + k) that
  :func:`~benchtrust.consistency.check_test_set` would accept, on the line micro-averaging allows. Scores
  linear in tp and tn or ratios of such forms are counted exactly on that line (:mod:`._linear_counts`,
  for any N); the others are evaluated at every k the former leave, :data:`CHUNK` at a time.
* ``"macro"``: the mean over classes of the one-vs-rest scores, as in the Mean-of-Scores aggregation of
  paper §4.3. For the scores linear in tp and tn (accuracy, sensitivity, specificity, balanced accuracy and
  their complements) every averaged score is linear in M, and feasibility is decided by integer linear
  programming (§4.3.2) with :func:`scipy.optimize.milp` (HiGHS).

Which accuracy
--------------
The one-vs-rest accuracy ``acc`` of a class counts the items of the other classes predicted as any other
class as true negatives; its micro average is (2k + (C - 2)·N) / (C·N), its macro average the mean of the
classes' accuracies. Neither is scikit-learn's ``accuracy_score``, the fraction of items classified
correctly, k / N (which equals micro-averaged sensitivity, precision and F1). That one is reported under
the name ``accuracy_score`` (:data:`SKLEARN_ACCURACY`), and the result says which accuracy it read.

The macro integer program
-------------------------
A macro average of linear scores depends on M only through its diagonal d (tp_c = d_c) and its column
sums s (tn_c = N - r_c - s_c + d_c). So the program's variables are d and s (2C whole numbers, not C²):
a matrix with these row sums r, diagonal d and column sums s exists if and only if the off-diagonal part,
with row sums a = r - d >= 0 and column sums b = s - d >= 0, does, and by the max-flow min-cut theorem
(every row reaches every column but its own) that holds exactly when sum(s) = N and a_c + b_c <= N - sum(d)
for every class c. :func:`._one_vs_rest.off_diagonal` builds one such matrix from the solution.

Certainty of the macro verdict
------------------------------
HiGHS works in floating point and accepts constraint violations up to its feasibility tolerances (1e-7
by default), so neither of its answers is used as it stands:

* It solves the problem with every interval widened by :data:`MARGIN` (in score units; each constraint
  row is scaled so that its largest coefficient is 1, which keeps MARGIN at least 10 times the
  tolerance in the row's own units) and a slack u in [0, 1] that it maximises: each score must lie in
  [low - MARGIN + 2·MARGIN·u, high + MARGIN - 2·MARGIN·u]. A confusion matrix meeting the intervals
  exactly is a point of this problem (u = 1/2) with MARGIN to spare on every score constraint, so
  "infeasible" cannot come from a tolerance or rounding decision at the boundary: only then is the result
  "inconsistent".
* Maximising u makes the returned matrix lie inside the unwidened intervals whenever any matrix does with
  room to spare. The slack is of order 1, not of order MARGIN, so that the solver's optimality gaps
  (1e-6 absolute, 1e-4 relative) cannot stop it at a u that leaves the intervals: a slack of order
  MARGIN once did, and a true matrix with room inside every interval got no witness. The solution is
  rounded to whole numbers, a matrix is built from it and verified in exact rational arithmetic
  (:class:`fractions.Fraction`) against [low, high]: class counts, non-negativity, every averaged score.
  Only a matrix that passes is reported as ``evidence``. If none passes (possible only when every solution
  lies within the solver's tolerances of an interval end, or if HiGHS stops without an answer), the
  result is "consistent" with ``evidence=None``: no inconsistency was proved, and no witness verified.

HiGHS runs without presolve (its presolve may hand back incumbents that are infeasible for the original
problem and repairs them, printing a debug line as it does) and with file descriptor 1 on the null device
(:func:`~._solver_output.quiet_stdout`): nothing it prints reaches the standard output, where ``--json``
writes.

Budget
------
Before it starts, a check estimates its work: the score evaluations of a micro search (none when every
score is counted exactly), :data:`CELL_WORK` per cell of the C × C matrix of a macro average (built,
verified and printed). Above ``max_work`` it stops with an InputError naming that option.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from benchtrust._io import InputError, check_count
from benchtrust._result import Description, Result
from benchtrust._words import paragraph
from benchtrust.consistency import _text
from benchtrust.consistency._one_vs_rest import (
    MARGIN,
    MICRO_AFFINE,
    SKLEARN_ACCURACY,
    class_form,
    micro_window,
    multiclass_reported,
    off_diagonal,
    verified_macro,
)
from benchtrust.consistency._scores import SCORES
from benchtrust.consistency._solver._highs import quiet_stdout
from benchtrust.consistency._solver._linear_counts import countable, exact_value, half_planes, lattice_polygon
from benchtrust.consistency._solver._macro_witness import settle, windows
from benchtrust.consistency._test_set import (
    CHUNK,
    MAX_WORK,
    check_examples,
    check_work,
    matrices_columns,
    satisfies,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from benchtrust.consistency._reported import Reported

#: The work of one cell of a macro average's C × C confusion matrix, in score evaluations: the matrix is
#: built, verified and listed in full.
CELL_WORK = 500

_AVERAGES = ("micro", "macro")
_LINEAR = tuple(name for name, found in SCORES.items() if found.linear)


@dataclasses.dataclass(frozen=True, eq=False)
class MulticlassResult(Result):
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

    Its table (``to_frame()``) holds the solutions. Micro: one row per listed number of correct items,
    ``correct`` (k), then the pooled one-vs-rest matrix ``tp``, ``tn``, ``fn``, ``fp`` and one column per
    reported score holding its value (``accuracy_score`` is k / N). Macro: one row per class of the
    evidence (the classes take the place of folds, §4.3): ``class`` (numbered from 1), its one-vs-rest
    ``positives`` and ``negatives``, ``tp``, ``tn``, ``fn``, ``fp`` and the class's scores, whose means are
    the reported scores (``accuracy_score``, not a mean over classes, has no column). No rows when
    inconsistent, or for a macro average without verified evidence.

    See Also
    --------
    check_multiclass : Averaged one-vs-rest scores of one multiclass test set.
    MulticlassKFoldResult : The result of check_multiclass_kfold.
    TestSetResult : The result of check_test_set.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. The paper treats two
           classes; this extends §4.2 and Eq. (7) (micro: the pooled one-vs-rest matrix, tested as in §3) and
           §4.3.2 and Eq. (9) (macro: a mean of linear scores, by integer linear programming) to the
           one-vs-rest averages of C classes.
    """

    consistent: bool
    average: str
    class_counts: tuple[int, ...]
    scores: tuple[Reported, ...]
    beta: float | None
    n_solutions: int | None = None
    solutions: tuple[int, ...] | None = None
    pooled: tuple[tuple[int, int], ...] | None = None
    evidence: list[list[int]] | None = None

    def __repr__(self) -> str:
        scores = ", ".join(f"{rep.score}={rep.value!r}±{rep.eps:g}" for rep in self.scores)
        found = (
            f"n_solutions={self.n_solutions}, solutions={list(self.solutions or ())}"
            if self.average == "micro"
            else f"evidence={self.evidence}"
        )
        return (
            f"MulticlassResult(consistent={self.consistent}, average={self.average!r}, "
            f"class_counts={list(self.class_counts)}, {found}, scores=[{scores}], beta={self.beta})"
        )

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §4.2 micro, §4.3 macro, the classes taking the place of folds)."""
        return _text.multiclass_verdict(self)

    @property
    def notes(self) -> tuple[str, ...]:
        """What a reported accuracy means here: the one-vs-rest ``acc`` or scikit-learn's ``accuracy_score``.

        Examples
        --------
        >>> r = check_multiclass({"acc": "0.8667"}, class_counts=[10, 20, 30], average="micro")
        >>> print(r.notes[0].split(",")[0])
        acc is the accuracy of the pooled one-vs-rest matrix
        """
        given = {rep.score for rep in self.scores}
        notes = []
        if "acc" in given:
            what = (
                "the accuracy of the pooled one-vs-rest matrix, (2k + (C - 2)·N) / (C·N)"
                if self.average == "micro"
                else "the mean of the classes' one-vs-rest accuracies"
            )
            notes.append(
                f"acc is {what}, not scikit-learn's accuracy_score, the fraction of items classified "
                f"correctly (k / N); report that one as {SKLEARN_ACCURACY}=VALUE"
            )
        if SKLEARN_ACCURACY in given:
            notes.append(
                f"{SKLEARN_ACCURACY} is scikit-learn's accuracy: the fraction of items classified correctly, "
                "k / N (equal to micro-averaged sensitivity, precision and F1)"
            )
        return tuple(notes)

    def describe(self) -> Description:
        """The result's description (paper §4.2 micro, §4.3 macro): its text with what its accuracy means,
        its section, data and solutions."""
        counts = self.class_counts
        how = (
            "micro-averaged: the scores of the pooled one-vs-rest confusion matrix"
            if self.average == "micro"
            else "macro-averaged: the mean of the classes' one-vs-rest scores"
        )
        return Description(
            question=_text.QUESTION,
            verdict=_text.capital(self.verdict),
            text="\n\n".join(
                [_text.multiclass_text(self), *(paragraph(f"note: {note}") for note in self.notes)]
            ),
            data={
                "consistent": self.consistent,
                "average": self.average,
                "class_counts": self.class_counts,
                "scores": [rep.to_dict() for rep in self.scores],
                "beta": self.beta,
                "n_solutions": self.n_solutions,
                "solutions": self.solutions,
                "pooled": self.pooled,
                "evidence": self.evidence,
                "notes": self.notes,
            },
            columns=_text.SCORE_COLUMNS,
            rows=_text.score_rows(self.scores),
            frame=self._solution_columns(),
            assumptions=(
                (
                    "experiment",
                    f"one test set of {len(counts)} classes of {', '.join(map(str, counts))} items",
                ),
                ("averaging", how),
                _text.epsilon_assumption(self.scores),
            ),
            source=f"{_text.SOURCE}, {'§4.2' if self.average == 'micro' else '§4.3'} (classes as folds)",
            inputs=self.inputs,
            analysis="consistency multiclass",
        )

    def _solution_columns(self) -> dict[str, Any]:
        """The columns of the table of the solutions: the pooled matrices (micro) or the classes of the
        evidence (macro)."""
        counts = np.array(self.class_counts, dtype=np.int64)
        classes, total = len(counts), int(counts.sum())
        binary = tuple(rep for rep in self.scores if rep.score != SKLEARN_ACCURACY)
        if self.average == "micro":
            correct = np.array(self.solutions, dtype=np.int64)
            columns = matrices_columns(
                {"correct": correct},
                correct,
                (classes - 2) * total + correct,
                total,
                (classes - 1) * total,
                binary,
                self.beta,
            )
            if len(binary) < len(self.scores):
                columns[SKLEARN_ACCURACY] = correct / total
            return columns
        # the rows of the evidence (none without it), each class against the rest
        matrix = np.array(self.evidence or [], dtype=np.int64).reshape(-1, classes)
        c = np.arange(len(matrix))
        p, n = counts[c], total - counts[c]
        tp = matrix[c, c]
        tn = n - matrix.sum(axis=0)[c] + tp
        leading = {"class": c + 1, "positives": p, "negatives": n}
        return matrices_columns(leading, tp, tn, p, n, binary, None)


def check_multiclass(
    scores: Mapping[str, str | float],
    *,
    class_counts: Sequence[int],
    average: Literal["micro", "macro"],
    eps: float | Mapping[str, float] | None = None,
    rounding: Literal["round", "floor-or-ceil"] = "round",
    beta: float | None = None,
    examples: int = 10,
    max_work: int = MAX_WORK,
    progress: Callable[[int, int], object] | None = None,
) -> MulticlassResult:
    """Could one multiclass test set with these class counts give these averaged scores?

    Parameters
    ----------
    scores : mapping
        Score name (any alias) -> reported value, a number or its text as printed. ``acc`` is the
        one-vs-rest accuracy, averaged; ``accuracy_score`` is scikit-learn's, the fraction of items
        classified correctly (module notes).
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
    max_work : int, default MAX_WORK
        The most work the check may take, in score evaluations (a cell of a macro average's confusion
        matrix counts as :data:`CELL_WORK`); it says how much it needs before it starts.
    progress : callable, optional
        ``progress(done, total)``, called as a micro search that evaluates scores goes on.

    Returns
    -------
    MulticlassResult

    See Also
    --------
    MulticlassResult : The result of check_multiclass.
    check_multiclass_kfold : Averaged multiclass scores of k-fold cross-validation.
    check_test_set : Scores reported for one test set (§3).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. The paper treats two
           classes; this extends §4.2 and Eq. (7) (micro: the pooled one-vs-rest matrix, tested as in §3) and
           §4.3.2 and Eq. (9) (macro: a mean of linear scores, by integer linear programming) to the
           one-vs-rest averages of C classes.

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

    The evidence as a table, one row per class; their means are the reported scores:

    >>> frame = r.to_frame()
    >>> list(frame.columns), float(frame["sens"].mean()), float(frame["spec"].mean())
    (['class', 'positives', 'negatives', 'tp', 'tn', 'fn', 'fp', 'sens', 'spec'], 0.75, 0.875)
    """
    if average not in _AVERAGES:
        raise InputError(f"average: expected one of {', '.join(_AVERAGES)}, got {average!r}")
    reported = multiclass_reported(scores, eps=eps, rounding=rounding, beta=beta)
    counts = _class_counts(class_counts)
    count = check_examples(examples)
    limit = check_count(max_work, "max_work")
    beta = None if beta is None else float(beta)
    common: dict[str, Any] = {"average": average, "class_counts": counts, "scores": reported, "beta": beta}
    nonlinear = [rep.score for rep in reported if rep.score not in (*_LINEAR, SKLEARN_ACCURACY)]
    if average == "macro" and nonlinear:
        raise InputError(
            f"scores: average='macro' supports only the scores linear in tp and tn ({', '.join(_LINEAR)}) "
            f"and {SKLEARN_ACCURACY}; got {', '.join(nonlinear)}"
        )
    if average == "micro" and all(rep.score in MICRO_AFFINE for rep in reported):
        return MulticlassResult(**_micro_affine(reported, counts, count), **common)
    check_work(
        search_work(reported, counts, average, beta),
        limit,
        f"this {average} check of {len(counts):,} classes",
    )
    if average == "micro":
        return MulticlassResult(**_micro(reported, counts, beta, count, progress), **common)

    found = windows(reported, [sum(counts)], len(counts))
    settled = (False, None) if found is None else settle(reported, np.array([counts]), found)
    if settled is not None:  # the identities or a witness (module notes)
        consistent, fit = settled
        evidence = None if fit is None else fit.matrices[0]
    else:
        consistent, evidence = _macro(reported, counts)
    return MulticlassResult(consistent=consistent, evidence=evidence, **common)


def search_work(reported, counts, average, beta):
    """The work of checking the reported scores, in score evaluations (module notes, Budget): none for a
    micro average of scores counted exactly."""
    if average == "macro":
        return CELL_WORK * len(counts) ** 2
    pooled, polygon = _pooled_polygon(reported, counts, beta)
    if all(countable(SCORES[rep.score]) for rep in pooled):
        return 0
    return max(polygon.last - polygon.first + 1, 0) * len(pooled)


def _class_counts(class_counts):
    if isinstance(class_counts, (str, bytes)) or not hasattr(class_counts, "__len__"):
        raise InputError(f"class_counts: expected a list of class sizes, got {class_counts!r:.80}")
    counts = tuple(check_count(value, f"class_counts[{i}]") for i, value in enumerate(class_counts))
    if len(counts) < 2:
        raise InputError(f"class_counts: expected at least 2 classes, got {len(counts)}")
    return counts


def _pooled_polygon(reported, counts, beta):
    """The scores on the pooled matrix (``accuracy_score`` is its sensitivity, k / N) and the polygon of
    the whole points (k, (C - 2)·N + k) meeting those counted exactly."""
    classes, total = len(counts), sum(counts)
    p, n, shift = total, (classes - 1) * total, (classes - 2) * total
    pooled = tuple(
        dataclasses.replace(rep, score="sens") if rep.score == SKLEARN_ACCURACY else rep for rep in reported
    )
    exact = [rep for rep in pooled if countable(SCORES[rep.score])]
    planes, undefined = half_planes(exact, p, n, beta) if exact else ([], set())
    line = [(-1, 1, shift), (1, -1, -shift)]  # tn - tp = (C - 2)·N
    return pooled, lattice_polygon(planes + line, p, n, undefined)


def _micro_affine(reported, counts, count):
    """The numbers of correct items k that give scores all affine on the micro line: the whole k with k/N
    in :func:`micro_window`, exactly."""
    total, shift = sum(counts), (len(counts) - 2) * sum(counts)
    window = micro_window(reported, len(counts))
    first, last = (0, -1) if window is None else (math.ceil(window[0] * total), math.floor(window[1] * total))
    listed = range(first, min(last, first + count - 1) + 1)
    return {
        "consistent": last >= first,
        "n_solutions": max(last - first + 1, 0),
        "solutions": tuple(listed),
        "pooled": tuple((k, shift + k) for k in listed),
    }


def _micro(reported, counts, beta, count, progress):
    """The numbers of correct items k whose pooled matrix (k, (C - 2)·N + k) gives every score."""
    classes, total = len(counts), sum(counts)
    p, n, shift = total, (classes - 1) * total, (classes - 2) * total
    pooled, polygon = _pooled_polygon(reported, counts, beta)
    if all(countable(SCORES[rep.score]) for rep in pooled):
        size, listed = polygon.size(), [k for k, _ in polygon.first_points(count)]
        if not all(
            (value := exact_value(rep.score, k, shift + k, p, n, beta)) is not None
            and Fraction(rep.interval.low) <= value <= Fraction(rep.interval.high)
            for k in listed
            for rep in pooled
        ):
            raise AssertionError(f"internal error: a listed k does not give the reported scores: {reported}")
    else:
        size, listed = _micro_search(pooled, polygon, p, n, shift, beta, count, progress)
    return {
        "consistent": size > 0,
        "n_solutions": size,
        "solutions": tuple(listed),
        "pooled": tuple((k, shift + k) for k in listed),
    }


def _micro_search(pooled, polygon, p, n, shift, beta, count, progress):
    """(count, first ``count``) of the k in the polygon's rows where every score is inside its interval,
    evaluating the scores at each k, :data:`CHUNK` at a time."""
    first, rows = polygon.first, max(polygon.last - polygon.first + 1, 0)
    if n + p > 2**53:
        raise InputError(
            "class_counts: above 2^53 items a micro average takes only scores linear in tp and tn or ratios "
            "of such counts (acc, sens, spec, bacc, ppv, npv, f1, fbeta, ji and complements)"
        )
    size, listed = 0, []
    for start in range(first, first + rows, CHUNK):
        correct = np.arange(start, min(start + CHUNK, first + rows), dtype=np.int64)
        found = correct[satisfies(pooled, correct, shift + correct, p, n, beta)]
        size += int(found.size)
        listed += found[: count - len(listed)].tolist()
        if progress is not None:
            progress(int(correct[-1]) - first + 1, rows)
    return size, listed


def _macro(reported, counts):
    """(consistent, evidence) for macro-averaged linear scores, by integer programming (§4.3.2) over the
    diagonal d and the column sums s of M (module notes)."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_array, vstack

    classes, total = len(counts), sum(counts)
    r = np.array(counts, dtype=float)
    size = 2 * classes + 2  # d, s, their sum D = sum(d) (for the feasibility rows), the slack u
    d, s, whole, slack = np.arange(classes), classes + np.arange(classes), 2 * classes, 2 * classes + 1
    ones = np.ones(classes)

    def rows(entries, count):
        row, column, value = (np.concatenate(part) for part in zip(*entries, strict=True))
        return coo_array((value, (row, column)), shape=(count, size))

    every, first = np.arange(classes), np.zeros(classes, dtype=np.int64)
    blocks = [
        rows([(first, s, ones)], 1),  # sum(s) = N
        rows([(first, d, ones), ([0], [whole], [-1.0])], 1),  # sum(d) - D = 0
        rows([(every, d, ones), (every, s, -ones)], classes),  # d_c - s_c <= 0
        rows([(every, s, ones), (every, d, -2 * ones), (every, np.full(classes, whole), ones)], classes),
    ]
    lower = [[total], [0.0], np.full(classes, -np.inf), np.full(classes, -np.inf)]
    upper = [[total], [0.0], np.zeros(classes), total - r]  # a_c + b_c <= N - D
    unit = np.zeros(size)
    unit[slack] = 1.0
    for rep in reported:  # score - 2·MARGIN·u >= low - MARGIN, score + 2·MARGIN·u <= high + MARGIN
        constant, coefficients = _macro_form(rep.score, counts)  # over d, s, D
        scale = 1 / float(np.abs(coefficients).max())  # the largest coefficient becomes 1
        row = np.append(coefficients, 0.0) * scale
        room = 2 * MARGIN * scale
        blocks.append(coo_array(np.vstack([row - room * unit, row + room * unit])))
        lower += [[(rep.interval.low - MARGIN - constant) * scale], [-np.inf]]
        upper += [[np.inf], [(rep.interval.high + MARGIN - constant) * scale]]
    high = np.concatenate([r, np.full(classes, total), [total, 1.0]])
    with quiet_stdout():
        result = milp(
            c=-unit,
            constraints=LinearConstraint(
                vstack(blocks).tocsr(), np.concatenate(lower), np.concatenate(upper)
            ),
            integrality=np.concatenate([np.ones(2 * classes), [0, 0]]),
            bounds=Bounds(np.zeros(size), high),
            options={"presolve": False},
        )
    if result.status == 2:  # infeasible even with every interval widened by MARGIN
        return False, None
    if result.x is None:
        return True, None
    diagonal, columns = (np.rint(result.x[part]).astype(np.int64) for part in (d, s))
    off = off_diagonal(np.array(counts, dtype=np.int64) - diagonal, columns - diagonal)
    if off is None:
        return True, None
    confusion = off + np.diag(diagonal)
    verified = verified_macro(confusion[None], np.array([counts]), reported)
    return True, (confusion.tolist() if verified else None)


def _macro_form(name, counts):
    """The macro average of a linear score (or ``accuracy_score``) as constant + coefficients · (d, s, D).

    Per class the score is :func:`class_form`; scikit-learn's accuracy is D / N.
    """
    classes, total = len(counts), sum(counts)
    coefficients = np.zeros(2 * classes + 1)
    if name == SKLEARN_ACCURACY:
        coefficients[-1] = 1 / total
        return 0.0, coefficients
    constant = Fraction(0)
    for c, positives in enumerate(counts):
        own, on_diagonal, on_column = class_form(name, positives, total - positives)
        constant += own / classes
        coefficients[c] = float(on_diagonal / classes)
        coefficients[classes + c] = float(on_column / classes)
    return float(constant), coefficients
