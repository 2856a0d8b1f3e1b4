"""Bayesian comparison of two methods (Benavoli, Corani, Demšar & Zaffalon 2017).

Benavoli et al., "Time for a change: a tutorial for comparing multiple classifiers through Bayesian
analysis", JMLR 18 (2017), replace the p-values of the usual tests with posterior probabilities of three
outcomes: method a is practically better than b, the two are practically equivalent (their difference
lies within a region of practical equivalence, the ROPE ±r), or b is practically better.

* :func:`correlated_t_test` (§3): on one data set, from the paired runs × folds of a repeated
  cross-validation; the posterior of the mean difference is a Student t whose scale carries the
  Nadeau-Bengio correction for the overlap of the training sets. Its probabilities are exact.
* :func:`signed_rank_test` (§4): across data sets, from one value per data set (the mean of its runs);
  the posterior is a Dirichlet process, sampled. Each sample costs O(n) for n data sets, not O(n²).

This module holds what the two share (the outcomes and decisions in words, the checks of the
arguments); each test is in a module of its own, :mod:`._correlated_t` and :mod:`._signed_rank`. Both
follow the conventions of the baycomp library (its ``two_on_single`` and ``two_on_multiple``, with
``x`` = a and ``y`` = b for higher-is-better scores), learned from its documentation and outputs and
recorded in ``benchmarks/BAYCOMP_FACTS.md``.
"""

from __future__ import annotations

import numpy as np

from benchtrust._io import InputError, check_count, check_number

__all__ = ["PAPER", "THRESHOLD"]

PAPER = "Benavoli et al. 2017"
_TITLE = "time for a change: comparing classifiers through Bayesian analysis"
#: The probability one outcome must exceed to decide, as in the paper.
THRESHOLD = 0.95
#: The decisions, in the order of the outcomes (a better, practically equivalent, b better).
_DECISIONS = ("a_better", "equivalent", "b_better")


# ---------------------------------------------------------------------------------------------------------
# Words shared by both results


def _outcomes(a, b, rope):
    """The three outcomes in words, in the order (a better, practically equivalent, b better)."""
    if rope == 0:
        return (f"{a} better", "equivalent (no ROPE: never)", f"{b} better")
    return (f"{a} practically better", "practically equivalent", f"{b} practically better")


def _short_outcomes(a, b):
    """The headers of the three probabilities in a table."""
    return (f"P({a} better)", "P(equivalent)", f"P({b} better)")


def _advantage_words(a, b, direction):
    """What the difference d is, in words."""
    return (
        f"d = {a} - {b} (higher is better)" if direction == "higher" else f"d = {b} - {a} (lower is better)"
    )


def _rope_words(rope):
    return f"ROPE ±{rope:g}" if rope > 0 else "no ROPE (r = 0)"


def _decision(probabilities, threshold):
    """The outcome whose probability exceeds `threshold` ("a_better", "equivalent", "b_better"), or
    "undecided"."""
    above = np.flatnonzero(np.asarray(probabilities) > threshold)
    return _DECISIONS[above[0]] if above.size else "undecided"


def _decision_words(decision, a, b):
    """A decision in a table cell: "aode better", "equivalent", "undecided", "too few runs"."""
    return {"a_better": f"{a} better", "b_better": f"{b} better"}.get(decision, decision.replace("_", " "))


def _decided_words(decision, a, b, rope, probability):
    """A decision reached, in words: "nbc is practically better than aode with probability 0.97"."""
    practically = "practically " if rope > 0 else ""
    if decision == "equivalent":
        return (
            f"{a} and {b} are practically equivalent (their difference lies within ±{rope:g}) with "
            f"probability {probability:.3f}"
        )
    better, worse = (a, b) if decision == "a_better" else (b, a)
    return f"{better} is {practically}better than {worse} with probability {probability:.3f}"


def _probabilities_words(a, b, rope, probabilities):
    """The three probabilities, in words."""
    names = _outcomes(a, b, rope)
    shown = [0, 2] if rope == 0 else [0, 1, 2]
    return ", ".join(f"P({names[k]}) = {probabilities[k]:.3f}" for k in shown)


def _probability_text(value):
    return "-" if np.isnan(value) else f"{value:.4f}"


# ---------------------------------------------------------------------------------------------------------
# Checking the arguments


def _check_rope(rope):
    rope = check_number(rope, "rope")
    if rope < 0:
        raise InputError(f"rope: expected a half-width >= 0 in the units of the scores, got {rope!r}")
    return rope


def _check_threshold(threshold):
    threshold = check_number(threshold, "threshold")
    if not 0.5 <= threshold < 1:
        raise InputError(f"threshold: expected a probability in [0.5, 1), got {threshold!r}")
    return threshold


def _check_folds(scores, folds):
    """k, the number of folds of each cross-validation: the argument, else ``scores.folds``."""
    known = getattr(scores, "folds", None)
    if folds is None:
        if known is None:
            raise InputError(
                "folds: expected the number of folds k of each cross-validation (the runs of a task are "
                "runs x folds; the correlated t-test's correlation is 1/k); the scores do not say it"
            )
        folds = known
    if check_count(folds, "folds") < 2:
        raise InputError(f"folds: expected a whole number of folds >= 2, got {folds!r}")
    if known is not None and folds != known:
        raise InputError(f"folds: the scores were read with {known} folds, got {folds!r}")
    return int(folds)


def _task_indices(scores, task):
    if task is None:
        return list(range(len(scores.tasks)))
    if task not in scores.tasks:
        shown = ", ".join(repr(t) for t in scores.tasks[:5])
        more = ", ..." if len(scores.tasks) > 5 else ""
        raise InputError(f"task: expected one of the tasks {shown}{more}, got {task!r}")
    return [scores.tasks.index(task)]
