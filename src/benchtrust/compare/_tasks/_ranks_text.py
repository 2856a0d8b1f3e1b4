"""The words of :class:`~benchtrust.compare.RankResult`: p-values, group letters, the post-hoc findings and
the caveats of ranks over data sets (Demšar 2006, §3.2.2)."""

from __future__ import annotations

import string

import numpy as np

from benchtrust._words import ALPHA, listed

PAPER = "Demšar 2006"
#: Most pairs, and groups, the verdict names one by one.
_NAMED_PAIRS = 6
_NAMED_GROUPS = 4


def _p_is(p) -> str:
    """``p = 0.0123`` or ``p < 0.0001``."""
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"


def _p_text(p) -> str:
    if np.isnan(p):
        return "-"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def _yes(flag) -> str:
    return "yes" if flag else "no"


def _group_letters(result) -> list[str]:
    """Each method's groups as letters (``ab``: in the first two groups), "-" if in none."""
    letters = [""] * len(result.methods)
    for g, group in enumerate(result.groups):
        letter = string.ascii_lowercase[g % 26] + (str(g // 26) if g >= 26 else "")
        for name in group:
            letters[result.methods.index(name)] += letter
    return [text or "-" for text in letters]


def _ranked(result) -> str:
    return ", ".join(f"{result.methods[i]} ({result.average_ranks[i]:g})" for i in result.order)


def _pair_words(result, i, j) -> str:
    """``a ranks better than b (2.44 against 3.69)`` for a significant pair."""
    better, worse = (i, j) if result.average_ranks[i] < result.average_ranks[j] else (j, i)
    return (
        f"{result.methods[better]} ranks better than {result.methods[worse]} "
        f"({result.average_ranks[better]:.2f} against {result.average_ranks[worse]:.2f})"
    )


def _posthoc_words(result) -> str:
    """What the post-hoc test finds, in words."""
    the = "" if result.posthoc == "holm" else "the "
    how = f"By {the}{result.test_name} at {ALPHA} = {result.alpha:g}"
    if not np.isnan(result.critical_difference):
        how += f" (CD = {result.critical_difference:.3f})"
    if result.control is not None:
        c = result.methods.index(result.control)
        differ = [i for i in result.order if i != c and result.different[i, c]]
        same = [result.methods[i] for i in result.order if i != c and not result.different[i, c]]
        found = (
            "; ".join(_pair_words(result, c, i) for i in differ) if differ else "no method differs from it"
        )
        rest = f"; not significantly different from it: {listed(same)}" if same else ""
        return f"{how}, against the control {result.control}: {found}{rest}."
    k = len(result.methods)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if result.different[i, j]]
    if not pairs:
        return f"{how}, no pair of methods differs significantly: the test cannot tell which ranks better."
    if len(pairs) <= _NAMED_PAIRS:
        found = "; ".join(_pair_words(result, i, j) for i, j in pairs)
    else:
        found = f"{len(pairs)} of the {k * (k - 1) // 2} pairs differ significantly"
    if not result.groups:
        within = "; every pair differs"
    elif len(result.groups) <= _NAMED_GROUPS:
        within = "; no significant difference within " + "; ".join(
            "{" + ", ".join(g) + "}" for g in result.groups
        )
    else:
        within = (
            f"; {len(result.groups)} overlapping groups of methods show no significant difference within "
            "(the bars of the critical-difference diagram)"
        )
    return f"{how}: {found}{within}."


def _caveats(result) -> str:
    """What the ranks leave out or do not settle."""
    k, n = len(result.methods), len(result.tasks)
    words = [
        " Each data set counts once, whatever its runs' spread: the ranks ignore how uncertain each score is."
    ]
    if n <= 10:
        words.append(
            f" With only {n} data sets the tests have little power: a difference not found may exist."
        )
    if k == 2:
        words.append(
            f" For two methods the Friedman test is a sign test; {PAPER} (§3.1.3) prefers the Wilcoxon "
            "signed-rank test (benchtrust.compare.wilcoxon_datasets)."
        )
    return "".join(words)
