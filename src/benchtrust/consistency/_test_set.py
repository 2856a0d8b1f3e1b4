"""Scores reported for one test set: every confusion matrix that could have produced them (paper §3).

With p positives and n negatives known, a confusion matrix is a pair (tp, tn), 0 <= tp <= p, 0 <= tn <= n
(§2). The reported scores are consistent with the test set if some pair gives every score a value inside
its interval (Eq. 1; the intervals come from :func:`~benchtrust.consistency.reported_scores`). A pair where
a reported score is undefined (0/0 or x/0) is ruled out: the authors could not have computed that score.

Method (§3.2)
-------------
Exhaustive search (§3.1) costs O(p·n·|S|). §3.2 instead iterates over one count only and solves each score
for the other. We iterate over the smaller class, the *rows* (tp = 0..p when p <= n, else tn = 0..n), and
for every row find the *columns* (the other count) where a score is inside its interval:

* On the inner columns 1..C-1 (C = n or p) every score is monotone in the column with the row fixed, in
  the direction declared by :attr:`Score.in_tn` / :attr:`Score.in_tp`, and is either defined at every
  inner column or at none (a whole row undefined, e.g. the diagnostic odds ratio on the row tp = p). The
  set of inner columns where a monotone function lies in an interval is therefore one run of consecutive
  columns, and its two ends are found by bisection: the first column where the score reaches the lower
  (upper) bound. This is the interval inversion f_{s,tn}^{-1}([v - ε, v + ε], tp, p, n) of Eq. 3, done
  numerically instead of with the closed-form inverses, so that one code path serves every score. A row
  where a score is undefined fails both comparisons everywhere and its run comes out empty.
* The prevalence threshold is 0/0 at the one inner point where tpr = fpr. Its bisection runs on
  :meth:`Score.for_search`, a monotone form equal to it wherever it is defined, and that point (a whole
  number only when n·tp is divisible by p, resp. p·(n - tn) by n) is then taken out of the run.
* The two end columns 0 and C, where scores may be undefined, are evaluated directly.
* A row's solutions are the intersection over the reported scores: one run of inner columns (each score's
  bisection is restricted to the run left by the scores before it), at most one hole, and the two ends.

Because every step is either a direct evaluation or a bisection of a monotone predicate, the result is the
exact set of pairs that exhaustive search finds, in O(min(p, n)·|S|·log max(p, n)) time; the rows are
searched :data:`CHUNK` at a time (each bisected at once with numpy, in blocks of :data:`BLOCK` rows), so that
memory stays bounded whatever p and n, and only the count and the first pairs are kept. Scores linear in
the column (accuracy when rows are tp) are inverted in closed form (Eq. 3, each end then checked against its
neighbour for rounding); the rest are bisected. Once at most :data:`DIRECT` columns are left in all, the
remaining scores are evaluated on every one of them instead (exhaustive search on what is left), which costs
one call per score.

Exact counts and the budget
---------------------------
When every reported score is linear in tp and tn or a ratio of two such forms (acc, sens, spec, bacc, ppv,
npv, f1, F-beta, Jaccard and their complements), no row is searched: the pairs are the whole points of a
polygon, counted in closed form with integer arithmetic (:mod:`._linear_counts`), for any p and n. With
other scores those give the range of rows only, and the search estimates its work (score evaluations:
rows × the evaluations per row) before it starts; above ``max_work`` it stops with an InputError naming
it, so a pixel-level test set never runs out of memory or on for hours without saying so.

Values are compared as computed in floating point, as in the exhaustive search. Rounding errs by a few
units in the 16th digit, so it can disturb the monotonicity the bisection relies on only for values that
close to an interval end; the ends are widened outward by ``TOLERANCE`` (1e-9), so such values lie outside
the unwidened interval [v - ε, v + ε] and no pair whose scores are truly inside it can be lost. The pairs
listed as examples are re-evaluated with the scores' own formulas before they are returned (in exact
arithmetic when they were counted exactly).
"""

from __future__ import annotations

import dataclasses
import numbers
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

import numpy as np

from benchtrust._io import InputError, check_count
from benchtrust._result import Description, Result
from benchtrust.consistency import _text
from benchtrust.consistency._reported import reported_scores
from benchtrust.consistency._scores import SCORES
from benchtrust.consistency._solver._linear_counts import countable, exact_value, half_planes, lattice_polygon

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from benchtrust.consistency._reported import Reported

#: Default of ``max_work``: the most score evaluations a search may take (a minute or two).
MAX_WORK = 5 * 10**9

#: Score evaluations per second of the search, roughly (one core), to say how long a search would take.
EVALUATIONS_PER_SECOND = 5e7


@dataclasses.dataclass(frozen=True, eq=False)
class TestSetResult(Result):
    """The confusion matrices of one test set consistent with the reported scores (paper §3).

    Attributes
    ----------
    consistent : bool
        Whether at least one (tp, tn) gives every reported score a value inside its interval. ``False``
        is certain: no pair of whole numbers does.
    n_solutions : int
        The exact number of such pairs.
    solutions : tuple of (int, int)
        The first of them in lexicographic (tp, tn) order, as many as asked for.
    positives, negatives : int
        p and n of the test set.
    scores : tuple of Reported
        The reported scores with their intervals.
    beta : float or None
        β of the F-beta scores.

    Its table (``to_frame()``) lists the listed confusion matrices, one row per matrix in (tp, tn) order:
    ``tp``, ``tn``, ``fn``, ``fp`` (fn = p - tp, fp = n - tn), then one column per reported score (its
    abbreviation) holding the score of that matrix; no rows when inconsistent.

    See Also
    --------
    check_test_set : Scores reported for one test set (§3).
    KFoldResult : The result of check_kfold.
    MulticlassResult : The result of check_multiclass.
    ProtocolsResult : The result of check_protocols.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §3.1-3.2, Eq. (1)-(3).
    """

    __test__ = False  # not a pytest test class despite its name

    consistent: bool
    n_solutions: int
    solutions: tuple[tuple[int, int], ...]
    positives: int
    negatives: int
    scores: tuple[Reported, ...]
    beta: float | None

    def __repr__(self) -> str:
        shown = ", ".join(f"({tp}, {tn})" for tp, tn in self.solutions)
        more = self.n_solutions - len(self.solutions)
        if more:
            shown += f"{', ' if shown else ''}... {more} more"
        return (
            f"TestSetResult(consistent={self.consistent}, n_solutions={self.n_solutions}, "
            f"solutions=[{shown}], positives={self.positives}, negatives={self.negatives}, "
            f"scores=[{_scores_text(self.scores)}], beta={self.beta})"
        )

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §3): the confusion matrices that give every score, or that none
        does."""
        return _text.test_set_verdict(self)

    def describe(self) -> Description:
        """The result's description (paper §3): its text, section, data and listed matrices."""
        tp, tn = (np.array([pair[k] for pair in self.solutions], dtype=np.int64) for k in (0, 1))
        return Description(
            question=_text.QUESTION,
            verdict=_text.capital(self.verdict),
            text=_text.test_set_text(self),
            data={
                "consistent": self.consistent,
                "n_solutions": self.n_solutions,
                "solutions": self.solutions,
                "positives": self.positives,
                "negatives": self.negatives,
                "scores": [reported.to_dict() for reported in self.scores],
                "beta": self.beta,
            },
            columns=_text.SCORE_COLUMNS,
            rows=_text.score_rows(self.scores),
            frame=matrices_columns({}, tp, tn, self.positives, self.negatives, self.scores, self.beta),
            assumptions=(
                ("experiment", f"one test set of {self.positives} positives and {self.negatives} negatives"),
                _text.epsilon_assumption(self.scores),
                *((("β of F-beta", f"{self.beta:g}"),) if self.beta is not None else ()),
            ),
            source=f"{_text.SOURCE}, §3",
            inputs=self.inputs,
            analysis="consistency test-set",
        )


def check_test_set(
    scores: Mapping[str, str | float],
    *,
    positives: int,
    negatives: int,
    eps: float | Mapping[str, float] | None = None,
    rounding: Literal["round", "floor-or-ceil"] = "round",
    beta: float | None = None,
    examples: int = 10,
    max_work: int = MAX_WORK,
    progress: Callable[[int, int], object] | None = None,
) -> TestSetResult:
    """Every confusion matrix of one test set that gives the reported scores (paper §3, Eq. 1).

    Parameters
    ----------
    scores : mapping
        Score name (any alias, see :func:`~benchtrust.consistency.score`) -> reported value, a number or
        its text as printed ("0.9400" keeps its 4 decimals).
    positives, negatives : int
        p and n, the numbers of positive and negative items in the test set.
    eps : float or mapping, optional
        ε, the numerical uncertainty, for all scores or per score; inferred from the decimals otherwise.
    rounding : {"round", "floor-or-ceil"}
        How the values were cut to their decimals, when ε is inferred (ε = ½·10^-d or 10^-d).
    beta : float, optional
        β of the F-beta scores; required when one is reported.
    examples : int, default 10
        How many of the consistent pairs to list.
    max_work : int, default MAX_WORK
        The most score evaluations the search may take (it says how many it needs before it starts); the
        scores that are linear in tp and tn or ratios of such forms need none, for any p and n.
    progress : callable, optional
        ``progress(done, total)``, called as the rows of a search are done.

    Returns
    -------
    TestSetResult
        The exact number of consistent (tp, tn) pairs and the first ``examples`` of them.

    See Also
    --------
    TestSetResult : The result of check_test_set.
    check_kfold : Scores reported for k-fold cross-validation (§4).
    check_multiclass : Averaged one-vs-rest scores of one multiclass test set.
    check_protocols : Every candidate evaluation protocol of the scores, each checked (§5.1).
    check_batch : Many claims at once, one per row of a table.
    reported_scores : Reported scores as intervals (§2).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §3.1-3.2, Eq. (1)-(3); the
           examples are those of §3.3.

    Examples
    --------
    The example of §3.3 (its accuracy printed as 0.6801 is a typo for 0.6821; see the tests):

    >>> r = check_test_set({"acc": 0.6821, "npv": 0.9401, "f1": 0.4004},
    ...                    positives=1000, negatives=6000, eps=1e-4)
    >>> r.consistent, r.n_solutions, r.solutions
    (True, 2, ((743, 4031), (743, 4032)))
    >>> check_test_set({"acc": 0.6811, "npv": 0.9401, "f1": 0.4004},
    ...                positives=1000, negatives=6000, eps=1e-4).consistent
    False

    The matrices found, with the score each gives:

    >>> r.to_frame().round(5)
        tp    tn   fn    fp      acc      npv      f1p
    0  743  4031  257  1969  0.68200  0.94007  0.40032
    1  743  4032  257  1968  0.68214  0.94008  0.40043
    """
    reported = reported_scores(scores, eps=eps, rounding=rounding, beta=beta)
    p = check_count(positives, "positives")
    n = check_count(negatives, "negatives")
    count = check_examples(examples)
    limit = check_count(max_work, "max_work")
    beta = None if beta is None else float(beta)
    if all(countable(SCORES[rep.score]) for rep in reported):
        planes, undefined = half_planes(reported, p, n, beta)
        polygon = lattice_polygon(planes, p, n, undefined)
        size, pairs = polygon.size(), polygon.first_points(count)
        exact = all(
            (value := exact_value(rep.score, tp, tn, p, n, beta)) is not None
            and Fraction(rep.interval.low) <= value <= Fraction(rep.interval.high)
            for tp, tn in pairs
            for rep in reported
        )
    else:
        searched = ", ".join(rep.score for rep in reported if not countable(SCORES[rep.score]))
        plan = _plan(reported, p, n, beta)
        check_work(_work(plan), limit, f"the search for {searched} on {p:,} positives and {n:,} negatives")
        size, pairs = _search(plan, count, progress)
        tp, tn = (np.array([pair[k] for pair in pairs], dtype=np.int64) for k in (0, 1))
        exact = satisfies(reported, tp, tn, p, n, beta).all()
    if not exact:
        raise AssertionError(f"internal error: a listed pair does not give the reported scores: {reported}")
    return TestSetResult(
        consistent=size > 0,
        n_solutions=size,
        solutions=tuple(pairs),
        positives=p,
        negatives=n,
        scores=reported,
        beta=beta,
    )


def matrices_columns(leading, tp, tn, positives, negatives, reported, beta):
    """Confusion matrices as the columns of a table: the `leading` columns, ``tp``, ``tn``, ``fn``, ``fp``,
    then the value of every reported score at each matrix (``nan`` where undefined).

    Parameters
    ----------
    leading : dict of str to array_like
        The columns that say which matrix a row is (a fold, a class ...), in order.
    tp, tn : array_like of int
        The counts of each matrix.
    positives, negatives : int or array_like of int
        p and n of each matrix (broadcast to the rows).
    reported : sequence of Reported
        The scores to evaluate, each a column named by its abbreviation.
    beta : float or None
        β of the F-beta scores.

    Returns
    -------
    dict of str to numpy.ndarray
        Column name -> values, one per matrix.
    """
    tp, tn = np.asarray(tp, dtype=np.int64), np.asarray(tn, dtype=np.int64)
    p = np.broadcast_to(np.asarray(positives, dtype=np.int64), tp.shape)
    n = np.broadcast_to(np.asarray(negatives, dtype=np.int64), tp.shape)
    columns = {**leading, "tp": tp, "tn": tn, "fn": p - tp, "fp": n - tn}
    for rep in reported:
        columns[rep.score] = SCORES[rep.score](tp, tn, p, n, beta)
    return columns


def check_examples(examples):
    """The number of examples to list: a whole number >= 0."""
    if isinstance(examples, bool) or not isinstance(examples, numbers.Integral) or examples < 0:
        raise InputError(f"examples: expected a whole number >= 0, got {examples!r}")
    return int(examples)


def satisfies(reported, tp, tn, p, n, beta):
    """Whether each pair (tp[i], tn[i]) gives every reported score a value inside its interval."""
    ok = np.ones(np.shape(tp), dtype=bool)
    for rep in reported:
        ok &= _inside(SCORES[rep.score](tp, tn, p, n, beta), rep)
    return ok


def _inside(values, rep):
    """``values`` in [low, high]; ``nan`` (undefined) is outside."""
    low, high = rep.interval
    return (values >= low) & (values <= high)


def _scores_text(reported):
    return ", ".join(f"{rep.score}={rep.value!r}±{rep.eps:g}" for rep in reported)


@dataclasses.dataclass(frozen=True, eq=False)
class SolutionSet:
    """The consistent pairs, row by row: the rows are tp (``by_tp``) or tn, the columns the other count.

    Row ``rows[i]`` holds the columns 0 (if ``end0[i]``), ``lo[i]..hi[i]`` except ``hole[i]``, and
    ``columns`` (if ``end_last[i]``). Only rows with at least one solution are kept.
    """

    by_tp: bool
    columns: int
    rows: np.ndarray
    end0: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    end_last: np.ndarray
    hole: np.ndarray

    def intervals(self):
        """Runs of consecutive solutions as arrays (row, first column, last column), each run non-empty."""
        cut = (self.lo <= self.hole) & (self.hole <= self.hi)
        zero = np.zeros_like(self.rows)
        last = np.full_like(self.rows, self.columns)
        row = np.concatenate([self.rows] * 4)
        a = np.concatenate([zero, self.lo, np.where(cut, self.hole + 1, self.hi + 1), last])
        b = np.concatenate(
            [
                np.where(self.end0, 0, -1),
                np.where(cut, self.hole - 1, self.hi),
                self.hi,
                np.where(self.end_last, last, -1),
            ]
        )
        keep = a <= b
        return row[keep], a[keep], b[keep]

    @property
    def size(self):
        """The number of consistent pairs."""
        _, a, b = self.intervals()
        return int((b - a + 1).sum())

    def contains(self, tp, tn):
        """Whether (tp, tn) is a consistent pair."""
        row, column = (tp, tn) if self.by_tp else (tn, tp)
        at = np.searchsorted(self.rows, row)
        if at == self.rows.size or self.rows[at] != row:
            return False
        if column in (0, self.columns):
            return bool(self.end0[at] if column == 0 else self.end_last[at])
        return bool(self.lo[at] <= column <= self.hi[at] and column != self.hole[at])

    def first(self, count):
        """The first ``count`` pairs in lexicographic (tp, tn) order, as two arrays tp, tn."""
        row, a, b = self.intervals()
        # The lexicographically first coordinate is the row when iterating over tp, else the column.
        # Find the smallest T such that at least ``count`` pairs have that coordinate <= T, then list
        # those pairs (fewer than ``count`` plus at most one row or column, itself cut to ``count``)
        # and sort them.
        top = int(row.max(initial=0)) if self.by_tp else self.columns
        low, high = 0, top
        while low < high:
            mid = (low + high) // 2
            if _count_upto(row, a, b, mid, self.by_tp) >= count:
                high = mid
            else:
                low = mid + 1
        if self.by_tp:  # whole rows, each cut to its first ``count`` columns (a row may hold 10^8)
            keep = row <= low
            row, a, b = row[keep], a[keep], np.minimum(b[keep], a[keep] + count - 1)
        else:
            b = np.minimum(b, low)
            keep = a <= b
            row, a, b = row[keep], a[keep], b[keep]
        lengths = b - a + 1
        starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
        column = np.repeat(a, lengths) + np.arange(int(lengths.sum())) - starts
        row = np.repeat(row, lengths)
        tp, tn = (row, column) if self.by_tp else (column, row)
        order = np.lexsort((tn, tp))[:count]
        return tp[order], tn[order]


def _count_upto(row, a, b, top, by_row):
    """Number of pairs whose lexicographically first coordinate is <= ``top``."""
    if by_row:
        return int(np.where(row <= top, b - a + 1, 0).sum())
    return int(np.clip(np.minimum(b, top) - a + 1, 0, None).sum())


#: Up to this many inner columns left in a block, a score is evaluated on all of them at once rather than
#: bisected: one call instead of two bisections of ~log2(columns) calls each.
DIRECT = 1 << 16

#: Rows searched together: blocks of this size keep the search's working arrays in the processor's cache
#: (about 1.5 times faster than whole passes over a million rows) at little per-call overhead.
BLOCK = 1 << 15

#: Rows held in memory at once (a few tens of MB of working arrays), whatever the size of the test set.
CHUNK = 1 << 18


@dataclasses.dataclass(frozen=True)
class _Plan:
    """A search over rows ``first``..``last`` (tp when ``by_tp``, else tn) of ``columns`` + 1 columns."""

    reported: tuple
    specs: list
    p: int
    n: int
    beta: float | None
    by_tp: bool
    columns: int
    first: int
    last: int

    @property
    def rows(self):
        return max(self.last - self.first + 1, 0)


def _work(plan):
    """Evaluations per row (both ends, then a walk or two bisections over the columns), times the rows."""
    bisection = 2 * (plan.columns.bit_length() + 1)
    per_row = sum(2 + (10 if score.linear else bisection) for _, score in plan.specs)
    return plan.rows * max(per_row, 1)


def _plan(reported, p, n, beta):
    """The rows to search, narrowed exactly by the countable scores, and the scores left to apply to them."""
    by_tp = p <= n
    last_row, columns = (p, n) if by_tp else (n, p)
    exact = [rep for rep in reported if countable(SCORES[rep.score])]
    first, last = 0, last_row
    if exact:  # the rows of the polygon of these scores: the others only narrow it
        planes, _ = half_planes(exact, p, n, beta)
        if not by_tp:  # rows tn: the roles of the two counts swap
            planes = [(b, a, c) for a, b, c in planes]
        polygon = lattice_polygon(planes, last_row, columns)
        first, last = polygon.first, polygon.last
    # Scores constant along a row (sens when rows are tp) are settled by the rows; linear ones go first.
    specs = [(rep, SCORES[rep.score]) for rep in reported if _direction(SCORES[rep.score], by_tp) != 0]
    specs.sort(key=lambda spec: not spec[1].linear)
    return _Plan(tuple(reported), specs, p, n, beta, by_tp, columns, first, last)


def check_work(work, limit, what):
    """InputError naming ``max_work`` when ``what`` would take more than ``limit`` score evaluations.

    Examples
    --------
    >>> check_work(3 * 10**10, 5 * 10**9, "this search")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    benchtrust.InputError: max_work=5e+09: this search would take about 3e+10 score evaluations ...
    """
    if work > limit:
        seconds = work / EVALUATIONS_PER_SECOND
        if seconds < 120:
            duration = f"{max(seconds, 1):.0f} s"
        else:
            duration = f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.0f} h"
        raise InputError(
            f"max_work={limit:.3g}: {what} would take about {work:.2g} score evaluations (about {duration}); "
            "raise it to run anyway"
        )


def _search(plan, count, progress):
    """The number of consistent pairs and the first ``count`` of them, chunk by chunk of rows."""
    size, best = 0, []
    for done, block in _blocks(plan):
        size += block.size
        if count and not (plan.by_tp and len(best) == count):  # with rows tp, later chunks come later
            tp, tn = block.first(count)
            best = sorted(best + list(zip(tp.tolist(), tn.tolist(), strict=True)))[:count]
        if progress is not None:
            progress(done, plan.rows)
    return size, best


def solution_set(reported, p, n, beta):
    """The exact :class:`SolutionSet` of the reported scores on a test set of p positives, n negatives,
    searched row by row whatever the scores (for the tests: it holds every row with a solution)."""
    plan = _plan(reported, p, n, beta)
    blocks = [block for _, block in _blocks(plan)]
    fields = ("rows", "end0", "lo", "hi", "end_last", "hole")
    return SolutionSet(
        plan.by_tp, plan.columns, *(np.concatenate([getattr(block, f) for block in blocks]) for f in fields)
    )


def _blocks(plan):
    """(rows done, :class:`SolutionSet`) of each chunk of :data:`CHUNK` rows (one, empty, if no rows)."""
    for start in range(plan.first, max(plan.last + 1, plan.first + 1), CHUNK):
        stop = min(start + CHUNK, plan.last + 1)
        yield max(stop - plan.first, 0), _block(plan, np.arange(start, stop, dtype=float))


def _block(plan, rows):
    """The :class:`SolutionSet` of some rows: each score narrows their runs of columns in turn.

    The counts are carried as floats (exact below 2^53), the form the score functions compute in.
    """
    p, n, beta, columns = plan.p, plan.n, plan.beta, plan.columns
    lo = np.ones_like(rows)  # inner columns 1..columns-1: empty when columns == 1
    hi = np.full_like(rows, columns - 1)
    end0 = np.ones(rows.size, dtype=bool)
    end_last = np.ones(rows.size, dtype=bool)
    for done, (rep, score) in enumerate(plan.specs):
        if np.maximum(hi - lo + 1, 0).sum() <= DIRECT:
            _evaluate_all(plan.specs[done:], rows, lo, hi, end0, end_last, p, n, beta)
            break
        for start in range(0, rows.size, BLOCK):
            block = slice(start, start + BLOCK)
            _narrow(rep, score, rows[block], lo[block], hi[block], end0[block], end_last[block], p, n, beta)
        keep = np.flatnonzero(end0 | end_last | (lo <= hi))
        rows, lo, hi, end0, end_last = rows[keep], lo[keep], hi[keep], end0[keep], end_last[keep]
    rows, lo, hi = rows.astype(np.int64), lo.astype(np.int64), hi.astype(np.int64)
    hole = np.full_like(rows, -1)
    if any(rep.score == "pt" for rep in plan.reported):
        # tpr = fpr: tn = n·(p - tp)/p on row tp, tp = p·(n - tn)/n on row tn.
        last_row = p if plan.by_tp else n
        numerator = columns * (last_row - rows)
        hole = np.where(numerator % last_row == 0, numerator // last_row, -1)
    keep = end0 | end_last | (lo <= hi)
    return SolutionSet(
        plan.by_tp, columns, rows[keep], end0[keep], lo[keep], hi[keep], end_last[keep], hole[keep]
    )


def _narrow(rep, score, rows, lo, hi, end0, end_last, p, n, beta):
    """Keep, in place, only the columns of ``rows`` where ``score`` is inside the interval of ``rep``."""
    by_tp = p <= n
    columns = float(n if by_tp else p)

    def evaluate(function, cols):
        tp, tn = (rows, cols) if by_tp else (cols, rows)
        return function(tp, tn, p, n, beta)

    end0 &= _inside(evaluate(score, 0.0), rep)
    end_last &= _inside(evaluate(score, columns), rep)
    if score.linear:
        lo[:], hi[:] = _affine_run(
            rep, score, lambda c: (rows, c) if by_tp else (c, rows), lo, hi, p, n, beta
        )
        return
    search = score.for_search
    low, high = rep.interval
    if _direction(score, by_tp) > 0:
        new_lo = _first_true(lambda c: evaluate(search, c) >= low, lo, hi)
        new_hi = _first_true(lambda c: evaluate(search, c) > high, lo, hi) - 1
    else:
        new_lo = _first_true(lambda c: evaluate(search, c) <= high, lo, hi)
        new_hi = _first_true(lambda c: evaluate(search, c) < low, lo, hi) - 1
    lo[:], hi[:] = new_lo, new_hi


def _affine_run(rep, score, pairs, lo, hi, p, n, beta):
    """The run of x in lo..hi where an affine score is inside its interval: the inversion of Eq. 3.

    ``pairs(x)`` gives the (tp, tn) at x. The score is inverted in floating point, its slope read over the
    whole range (one rounding error spread over all its steps, not over one), and each end is then walked
    to its exact place: for a rising score the run starts where the score reaches the interval's low end
    and ends where it last is at most the high end (the reverse for a falling one). Each of these is a
    monotone condition in x, so a walk cannot step over a solution, however far rounding put its start:
    on a test set of 10^8 items the slope 1/(p + n) loses enough digits to misplace an end by several
    steps.
    """

    def value(x):
        return score(*pairs(x), p, n, beta)

    low, high = rep.interval
    at0 = value(0.0)
    far = max(float(np.max(hi, initial=0.0)), 1.0)
    slope = (value(far) - at0) / far
    rising = slope > 0

    def started(x):  # past the start: the score has reached the interval (monotone: false, then true)
        v = value(x)
        return np.where(rising, v >= low, v <= high)

    def before_end(x):  # not yet past the end (monotone: true, then false)
        v = value(x)
        return np.where(rising, v <= high, v >= low)

    ends = np.sort([(low - at0) / slope, (high - at0) / slope], axis=0)
    first = np.clip(np.ceil(ends[0]), lo, hi + 1)
    last = np.clip(np.floor(ends[1]), lo - 1, hi)
    while True:
        back = (first - 1 >= lo) & started(first - 1)
        forward = (first <= hi) & ~started(first) & ~back
        ahead = (last + 1 <= hi) & before_end(last + 1)
        behind = (last >= lo) & ~before_end(last) & ~ahead
        if not (back | forward | ahead | behind).any():
            return first, last
        first = first - back + forward
        last = last + ahead - behind


def _evaluate_all(specs, rows, lo, hi, end0, end_last, p, n, beta):
    """Keep, in place, the columns where every score of ``specs`` is inside its interval, by evaluating
    the scores on every column left (the inner runs and both ends) rather than bisecting."""
    by_tp = p <= n
    index, cols = _columns(lo, hi)
    every = np.arange(rows.size)
    inner = index.size
    index = np.concatenate([index, every, every])
    cols = np.concatenate([cols, np.zeros(rows.size), np.full(rows.size, float(n if by_tp else p))])
    tp, tn = (rows[index], cols) if by_tp else (cols, rows[index])
    inside = np.ones(index.size, dtype=bool)
    for rep, score in specs:
        inside &= _inside(score(tp, tn, p, n, beta), rep)
    end0 &= inside[inner : inner + rows.size]
    end_last &= inside[inner + rows.size :]
    # The literal scores leave out the prevalence threshold's inner 0/0 point; the run spans it, and
    # solution_set marks it as the run's hole.
    keep = inside[:inner]
    lo[:], hi[:] = _run(index[:inner][keep], cols[:inner][keep], lo)


def _columns(lo, hi):
    """Every inner column left, as (row index, column) arrays: the columns lo[i]..hi[i] of each row i."""
    lengths = np.maximum(hi - lo + 1, 0).astype(np.int64)
    index = np.repeat(np.arange(lo.size), lengths)
    offset = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return index, lo[index] + offset


def _run(index, cols, lo):
    """Per row, the first and last of the columns given for it (ascending), or an empty run (lo, lo - 1).

    The columns where a monotone score lies in an interval are consecutive, so these ends are its run.
    """
    first, last = lo.copy(), lo - 1
    if index.size:
        starts = np.flatnonzero(np.diff(index, prepend=-1))
        ends = np.append(starts[1:], index.size) - 1
        first[index[starts]] = cols[starts]
        last[index[starts]] = cols[ends]
    return first, last


def _direction(score, by_tp):
    """Direction of the score along a row (in tn when the rows are tp, in tp otherwise)."""
    return score.in_tn if by_tp else score.in_tp


def _first_true(predicate, a, b):
    """Per row, the first column c in a..b where ``predicate(c)`` holds, or b + 1 where it holds nowhere.

    ``predicate`` must be monotone in c on a..b (false, then true); all rows are bisected at once.
    """
    low, high = a.copy(), b + 1
    while True:
        open_ = low < high
        if not open_.any():
            return low
        mid = np.floor((low + high) * 0.5)  # float // is slow in numpy
        holds = predicate(mid)
        low = np.where(open_ & ~holds, mid + 1, low)
        high = np.where(open_ & holds, mid, high)
