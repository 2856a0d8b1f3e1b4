"""State of the art under multiplicity (Møllersen & Holsbø): the best of m classifiers on one test set.

The top score among many teams on one test set is an optimistic estimate of the state of the art. This
subpackage computes the distribution of the best of m observed accuracies exactly, for independent,
non-identical and dependent classifiers (paper §3-4), with a Monte Carlo counterpart as a cross-check.
"""

from benchtrust.sota._best_of import BestOfResult, best_of
from benchtrust.sota._plot import plot_best_of
from benchtrust.sota._simulate import simulate_best_of
from benchtrust.sota._single import (
    Interval,
    clopper_pearson,
    prob_any_reaches,
    prob_beats,
    single_tail_for_any,
)

__all__ = [
    "BestOfResult",
    "Interval",
    "best_of",
    "clopper_pearson",
    "plot_best_of",
    "prob_any_reaches",
    "prob_beats",
    "simulate_best_of",
    "single_tail_for_any",
]
