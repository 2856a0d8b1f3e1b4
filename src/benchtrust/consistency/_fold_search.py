"""The search of fold configurations for per-fold counts that give a mean of scores (paper §4.3-4.4).

Used by :func:`~benchtrust.consistency.check_kfold` (see its module notes): the paper's configurations
(§4.4.3) first, then those the fold sizes allow beyond them, where a score undefined in a fold enters
the mean by one of the conventions of :mod:`._mean_constraints` (``zero_division``). Every search is
counted before it starts and refused past ``max_configurations``.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from benchtrust._io import InputError
from benchtrust.consistency._folds import (
    configuration_chunks,
    count_fold_configurations,
    fold_sizes,
    paper_configurations,
)
from benchtrust.consistency._mean_constraints import LINEAR, Constraints
from benchtrust.consistency._mean_of_scores import first_solution, solve

#: The order conventions are tried in with ``zero_division="any"``, per base score: scikit-learn's
#: defaults first (``recall_score`` counts an undefined recall as 0, ``balanced_accuracy_score`` leaves
#: it out).
_TRIED = {"sens": ("0", "1", "skip"), "spec": ("0", "1", "skip"), "bacc": ("skip", "0", "1")}


@dataclasses.dataclass(frozen=True)
class FoldSearch:
    """The search of fold configurations for counts giving the constraints, in both tiers (module notes).

    Attributes
    ----------
    given : Constraints
        The reported means and bounds (the conventions are set here, one assignment at a time).
    zero_division : str
        A convention of ``CONVENTIONS`` for every base score, or ``"any"``: each on its own.
    k : int
        The number of folds.
    max_states : int
        As for :func:`~._mean_of_scores.solve`.
    """

    given: Constraints
    zero_division: str
    k: int
    max_states: int

    @property
    def bases(self):
        names = [rep.score for rep in self.given.means] + [name for name, _, _ in self.given.each]
        return {LINEAR[name][0] for name in names}

    @property
    def needs(self):
        """Whether the paper's configurations need a positive (a negative) in every fold (§4.4.3)."""
        return bool(self.bases & {"sens", "bacc"}), bool(self.bases & {"spec", "bacc"})

    def paper(self, rows, sizes):
        """Which rows (the folds' positives of every data set and repeat) are of the first tier."""
        k, keep = self.k, np.ones(len(rows), dtype=bool)
        for start in range(0, rows.shape[1], k):
            keep &= paper_configurations(rows[:, start : start + k], sizes[start : start + k], *self.needs)
        return keep

    def _undefined(self, rows, sizes, base):
        no_positive, no_negative = (rows == 0).any(axis=1), (sizes - rows == 0).any(axis=1)
        return {"sens": no_positive, "spec": no_negative, "bacc": no_positive | no_negative}[base]

    def _assignments(self):
        """The conventions to try, one base score -> convention mapping at a time, in order."""
        bases = sorted(self.bases & set(_TRIED))
        if self.zero_division != "any":
            return [dict.fromkeys(bases, self.zero_division)]
        choices = itertools.product(*(_TRIED[base] for base in bases))
        return [dict(zip(bases, choice, strict=True)) for choice in choices]

    def first(self, rows, sizes):
        """(index, (p_i, n_i) of the folds, counts, conventions) of the first row whose folds fit under some
        convention (None if none does).

        For every row the conventions are tried in order; a convention other than the first of its base
        is tried only on rows where that base is undefined in some fold (elsewhere it changes nothing).
        """
        best = None
        undefined = {base: self._undefined(rows, sizes, base) for base in self.bases & set(_TRIED)}
        somewhere = {base for base, where in undefined.items() if where.any()}
        for assignment in self._assignments():
            changed = [base for base, convention in assignment.items() if convention != _TRIED[base][0]]
            if self.zero_division == "any" and not somewhere.issuperset(changed):
                continue  # a convention for a score defined in every fold changes nothing
            useful = np.arange(len(rows)) < (len(rows) if best is None else best[0])
            if self.zero_division == "any":
                for base in changed:
                    useful &= undefined[base]
            index = np.flatnonzero(useful)
            if not len(index):
                continue
            given = dataclasses.replace(self.given, undefined=tuple(assignment.items()))
            found = first_solution(rows[index], sizes - rows[index], given, max_states=self.max_states)
            if found is not None:
                row = int(index[found[0]])
                used = {
                    base: convention
                    for base, convention in assignment.items()
                    if self._undefined(rows[row : row + 1], sizes, base)[0]
                }
                best = (row, np.stack([rows[row], sizes - rows[row]], axis=1), found[1], used)
        return best


def unknown_folds(search, p, n, r, limit):
    """Every combination of fold configurations over data sets and repeats, tier by tier, in order, until
    one works (module notes).

    Returns
    -------
    (found, configurations, tier)
        ``found``: None, or (the folds' (p_i, n_i), per-fold counts, conventions) of the first combination
        that works; ``configurations``: those tried per tier; ``tier``: where ``found`` is (or None).
    """
    k, given = search.k, search.given
    units = [(p_d, n_d) for p_d, n_d in zip(p, n, strict=True) for _ in range(r)]
    sizes = np.concatenate([fold_sizes(p_d, n_d, k) for p_d, n_d in units])
    every_positive, every_negative = search.needs
    paper = _count(units, k, positive_in_every_fold=every_positive, negative_in_every_fold=every_negative)
    beyond = _count(units, k, training_sets_hold_both=False) - paper
    _within(paper, limit, "", len(p), r)
    if not _accuracy_reachable(sizes, given, search.max_states):
        return None, {"paper": paper, "beyond": beyond}, None
    tested = 0
    for rows in _combinations(units, k, every_positive, every_negative, True):
        found = search.first(rows, sizes)
        if found is not None:
            return found[1:], {"paper": tested + found[0] + 1, "beyond": 0}, "paper"
        tested += len(rows)
    _within(beyond, limit, f"beyond the paper's (none of its {paper:,} fits) ", len(p), r)
    tested = 0
    for rows in _combinations(units, k, False, False, False):
        rows = rows[~search.paper(rows, sizes)]
        found = search.first(rows, sizes) if len(rows) else None
        if found is not None:
            return found[1:], {"paper": paper, "beyond": tested + found[0] + 1}, "beyond"
        tested += len(rows)
    return None, {"paper": paper, "beyond": beyond}, None


def _count(units, k, **options):
    """The combinations of one configuration per unit (data set, repeat)."""
    total = 1
    for p_d, n_d in units:
        total *= count_fold_configurations(p_d, n_d, k, **options)
    return total


def _within(total, limit, which, data_sets, repeats):
    """Refuse a tier of more than ``limit`` combinations of configurations before searching it."""
    if total > limit:
        raise InputError(
            f"folding: with unknown folds there are {total:,} combinations of fold configurations {which}to "
            f"try (over {data_sets} data set(s) and {repeats} repeat(s)), more than max_configurations="
            f"{limit:,}; give the folding (stratified or explicit), or raise max_configurations"
        )


def _accuracy_reachable(sizes, given, max_states):
    """Whether folds of these sizes can give the reported accuracy (and error rate) at all (necessary).

    A fold's accuracy only depends on its size and its number of correct items, so the class counts are
    irrelevant: each fold is treated as holding positives only.
    """
    means = tuple(rep for rep in given.means if LINEAR[rep.score][0] == "acc")
    if not means:
        return True
    each = tuple(item for item in given.each if LINEAR[item[0]][0] == "acc")
    return (
        solve(sizes, np.zeros_like(sizes), Constraints(means=means, each=each), max_states=max_states)
        is not None
    )


def _combinations(units, k, every_positive, every_negative, paper):
    """The positives of every combination of one configuration per unit (data set, repeat), in order:
    the first unit's configuration changes slowest. Arrays of (combinations, units·k). With ``paper``
    false, the configurations where one fold holds all of a class are included."""
    head, rest = units[0], units[1:]
    for rows in configuration_chunks(*head, k, every_positive, every_negative, training_sets_hold_both=paper):
        if not rest:
            yield rows
            continue
        for row in rows:
            for tail in _combinations(rest, k, every_positive, every_negative, paper):
                yield np.concatenate([np.broadcast_to(row, (len(tail), k)), tail], axis=1)
