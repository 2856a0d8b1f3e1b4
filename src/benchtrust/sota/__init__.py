"""State of the art under multiplicity (Møllersen & Holsbø): the best of m classifiers on one test set.

The top score among many teams on one test set is an optimistic estimate of the state of the art. This
subpackage computes the distribution of the best of m observed accuracies exactly, for independent,
non-identical and dependent classifiers (paper §3-4), with a Monte Carlo counterpart as a cross-check;
tabulates the best of m AUCs under the binormal model (§5.2), direct simulation again the cross-check;
and estimates a sober state of the art from a real leaderboard (§5, Table 3), read from Kaggle's
download, a CSV/TSV table or a DataFrame.

Each result explains itself: ``result.verdict`` in words, ``str(result)`` as ``benchtrust sota`` prints it,
its report section in a notebook (``_repr_html_``), ``to_dict()`` and ``to_frame()``. The plots draw on a
matplotlib Axes (``plot_best_of(result, ax=ax)``); :func:`benchtrust.save_figure` writes them.
"""

from typing import TYPE_CHECKING

#: Each public name and the module that holds it: imported on first access (PEP 562), so that a command
#: loads only what it uses (the exact best of m needs neither the AUC tables nor scipy.stats).
_WHERE = {
    "BestOfResult": "_best_of",
    "Binormal": "_auc",
    "Leaderboard": "_read",
    "LeaderboardResult": "_leaderboard",
    "SotaEstimate": "_crop",
    "best_of": "_best_of",
    "best_of_auc": "_auc",
    "binormal": "_auc",
    "bundled_leaderboard": "_read",
    "clopper_pearson": "_single",
    "leaderboard": "_leaderboard",
    "plot_best_of": "_plot",
    "plot_leaderboard": "_plot",
    "prob_any_reaches": "_single",
    "prob_beats": "_single",
    "read_leaderboard": "_read",
    "sample_auc": "_auc",
    "simulate_best_of": "_simulate",
    "single_tail_for_any": "_single",
}

if TYPE_CHECKING:  # what type checkers see: the same names, where they live (tests/test_typing.py)
    from benchtrust.sota._auc import Binormal, best_of_auc, binormal, sample_auc
    from benchtrust.sota._best_of import BestOfResult, best_of
    from benchtrust.sota._crop import SotaEstimate
    from benchtrust.sota._leaderboard import LeaderboardResult, leaderboard
    from benchtrust.sota._plot import plot_best_of, plot_leaderboard
    from benchtrust.sota._read import Leaderboard, bundled_leaderboard, read_leaderboard
    from benchtrust.sota._simulate import simulate_best_of
    from benchtrust.sota._single import clopper_pearson, prob_any_reaches, prob_beats, single_tail_for_any

__all__ = [
    "BestOfResult",
    "Binormal",
    "Leaderboard",
    "LeaderboardResult",
    "SotaEstimate",
    "best_of",
    "best_of_auc",
    "binormal",
    "bundled_leaderboard",
    "clopper_pearson",
    "leaderboard",
    "plot_best_of",
    "plot_leaderboard",
    "prob_any_reaches",
    "prob_beats",
    "read_leaderboard",
    "sample_auc",
    "simulate_best_of",
    "single_tail_for_any",
]


def __getattr__(name: str) -> object:
    """Import the module holding the public name ``name`` on first access."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
