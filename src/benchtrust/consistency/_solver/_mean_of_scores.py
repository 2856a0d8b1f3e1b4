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
tp_i, tn_i, the mean rows widened outward by ``MARGIN`` (1e-5, in score units) and the integer per-set
rows by 1/2. Counts that satisfy the exact intervals satisfy the widened rows with a slack of 1e-5: a
hundred times HiGHS's primal feasibility tolerance (1e-7) and five times the most its integrality
tolerance (1e-6 per variable) can move a mean row (2e-6, the row's coefficients summing to at most 2).
So when HiGHS declares the widened problem infeasible, no counts exist; that verdict rests on HiGHS being
right within its tolerances, not on exhaustive arithmetic. A solution HiGHS finds is rounded and checked
exactly; if neither it nor a solution of the narrowed problem passes, the exact search runs again with
a budget of ``max_states`` states per step (:data:`MAX_STATES` by default, a few hundred MB), past which
the problem is refused with an :class:`~benchtrust.InputError` naming ``max_states``, never a memory error.
(HiGHS runs without presolve, which fails on some tiny problems in the HiGHS that scipy bundles; the rows
are few anyway.)

Counts are only ever returned after :func:`~._mean_constraints.verified` has recomputed every score of
every set as a ``fractions.Fraction`` and compared the means (and bounds) with the reported intervals'
exact ends.

Before the search, problems with large sets (and a problem alone) go through the fast path of
:mod:`._mean_relaxation`: the real relaxation, decided exactly in whole numbers (when it is infeasible,
no counts exist: a theorem too, with no solver), then counts found by rounding its solution, checked
exactly in whole numbers. What it does not settle is searched as above.

Where each part lives
---------------------
This module holds the entry points (:func:`solve`, :func:`first_solution`) and the budget that sends a
problem from one method to the other. The rest is in the modules named for what they hold:

* :mod:`._mean_constraints`: the scores a mean can be tested for (``LINEAR``), the reported means and
  bounds (:class:`~._mean_constraints.Constraints`) and the exact check of counts (``verified``);
* :mod:`._integer_problems`: the problems in integers, their ranges, columns and windows (``Batch``);
* :mod:`._mean_relaxation`: the relaxation and the witness by rounding, tried first;
* :mod:`._state_search`: the exact search over the states of partial column sums;
* :mod:`._highs_fallback`: HiGHS, for a problem over budget (``MARGIN``).
"""

from __future__ import annotations

import numpy as np

from benchtrust.consistency._solver._highs import UnsettledError, by_solver
from benchtrust.consistency._solver._integer_problems import PIECE, Batch, live_runs, unsort
from benchtrust.consistency._solver._mean_constraints import verified
from benchtrust.consistency._solver._mean_relaxation import screened
from benchtrust.consistency._solver._state_search import OverBudgetError, search

#: States the exact search may create per problem and step; past it a batch is split, and a single
#: problem goes to HiGHS (where the sums of fractions are that dense, HiGHS is the faster).
BUDGET = 1 << 16

#: States one step may create in all, whatever the budget (memory).
MOST = 1 << 20

#: Default ``max_states``: states one step of the last-resort exact search may create (module notes).
MAX_STATES = 1 << 22


def solve(positives, negatives, given, *, budget=BUDGET, max_states=MAX_STATES):
    """Per-set counts (tp_i, tn_i) that give every constraint, or None if none exist (§4.3, Eq. 9-10).

    Parameters
    ----------
    positives, negatives : array_like of int
        p_i and n_i of the sets (each set holds at least one item).
    given : Constraints
        The reported means and per-set bounds.
    budget : int or None
        States the exact search may create per step before HiGHS takes over; None: no limit.
    max_states : int
        States one step of the last-resort exact search may create (module notes); past it an
        :class:`~benchtrust.InputError` naming ``max_states`` is raised.

    Returns
    -------
    numpy.ndarray of int, shape (sets, 2), or None
        Counts verified exactly with :func:`~._mean_constraints.verified`; None when no counts exist (see
        the module notes for what that conclusion rests on).

    Examples
    --------
    Five folds of 60 items, mean accuracy 0.9447 ± 0.0001: the mean of five accuracies x_i/60 is a whole
    number over 300, and 283.38 <= 300·mean <= 283.44 holds for none (the EHG case of §5.2):

    >>> from benchtrust.consistency import reported_scores
    >>> from benchtrust.consistency._solver._mean_constraints import constraints, verified
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
    found = first_solution(
        np.asarray(positives)[None], np.asarray(negatives)[None], given, budget=budget, max_states=max_states
    )
    return None if found is None else found[1]


def first_solution(positives, negatives, given, *, budget=BUDGET, max_states=MAX_STATES, unsettled=None):
    """The first of several problems of the same shape that has counts, and its counts (§4.3, §4.4.3).

    Parameters
    ----------
    positives, negatives : array_like of int, shape (problems, sets)
        p_i and n_i of each problem's sets, e.g. one fold configuration per row.
    given : Constraints
        The reported means and per-set bounds, the same for every problem.
    budget, max_states
        As for :func:`solve`.
    unsettled : list, optional
        Receives the index of every problem HiGHS could not settle in its time (those are then passed
        over: None does not rule them out). Without it, such a problem raises
        :class:`~._highs.UnsettledError`.

    Returns
    -------
    (int, numpy.ndarray) or None
        The index of the first problem with counts and its verified counts, shape (sets, 2); None when
        no problem has any (but those listed in ``unsettled``).

    Examples
    --------
    >>> from benchtrust.consistency import reported_scores
    >>> from benchtrust.consistency._solver._mean_constraints import constraints
    >>> given = constraints(reported_scores({"sens": 0.5, "spec": 0.75}, eps=1e-3))
    >>> index, counts = first_solution([[1, 3], [2, 2]], [[3, 1], [2, 2]], given)
    >>> index, counts.tolist()
    (1, [[2, 2], [0, 1]])
    """
    p, n = np.asarray(positives, dtype=np.int64), np.asarray(negatives, dtype=np.int64)
    start, size = 0, 1
    while start < len(p):
        # Pieces of 1, 2, 4, ... PIECE problems: an early solution costs little, a long search is batched.
        # The relaxation and the witness (_mean_relaxation) settle what they can before the search.
        left, witness = screened(p[start : start + size], n[start : start + size], given)
        left += start
        batch = Batch.build(p[left], n[left], given) if len(left) else None
        for rows in live_runs(batch) if batch is not None else ():
            skipped = [] if unsettled is not None else None
            found = _first(batch.select(rows), budget, max_states, skipped)
            if skipped:
                unsettled.extend(int(left[rows[i]]) for i in skipped)
            if found is not None:
                index, counts = found
                counts = unsort(counts, batch.order[rows[index]])
                index = int(left[rows[index]])
                if not verified(p[index], n[index], counts, given):
                    raise AssertionError(
                        f"internal error: counts found fail the exact check: {counts.tolist()}"
                    )
                return index, counts
        if witness is not None:
            return start + witness[0], witness[1]
        start, size = start + size, min(2 * size, PIECE)
    return None


def _first(piece, budget, max_states, unsettled=None):
    """(index in the piece, counts in sorted set order) of its first problem with counts, or None; the
    problems HiGHS could not settle are appended to ``unsettled`` (a list) when given, else raise."""
    try:
        return search(piece, None if budget is None else min(budget * len(piece.p), MOST))
    except OverBudgetError:
        rows = len(piece.p)
        if rows == 1:
            try:
                counts = by_solver(piece, max_states)
            except UnsettledError:
                if unsettled is None:
                    raise
                unsettled.append(0)
                return None
            return None if counts is None else (0, counts)
        half = rows // 2
        for offset, part in ((0, np.arange(half)), (half, np.arange(half, rows))):
            skipped = [] if unsettled is not None else None
            found = _first(piece.select(part), budget, max_states, skipped)
            if skipped:
                unsettled.extend(offset + i for i in skipped)
            if found is not None:
                return found[0] + offset, found[1]
        return None
