"""The words about comparing many pipelines, over one or many data sets (Bouthillier et al. 2021 §6, C.5-C.6;
Demšar 2006): the readable summaries and verdicts of the pairwise P(row > column) table, of the test over
data sets and of Holm's data sets, as each result's ``describe()`` gives them to ``str(result)`` and its
HTML section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchtrust._words import ALPHA, GAMMA, aligned, level_text, listed, paragraph
from benchtrust.compare._pipelines._text import PAPER

if TYPE_CHECKING:
    from benchtrust.compare import DatasetTestResult, EverywhereResult, PairwiseResult

__all__ = [
    "EVERYWHERE_TESTS",
    "dataset_test_text",
    "dataset_test_verdict",
    "everywhere_text",
    "everywhere_verdict",
    "pairwise_cell",
    "pairwise_level",
    "pairwise_text",
    "pairwise_verdict",
]


def pairwise_level(result: PairwiseResult) -> str:
    """The Bonferroni-adjusted level of a :class:`PairwiseResult`'s intervals, such as ``98.3333%``."""
    return level_text(result.alpha / result.comparisons)


def pairwise_cell(result: PairwiseResult, i: int, j: int) -> str:
    """P(row i > column j) with its interval, ``*`` when row i is better; empty on the diagonal."""
    if i == j:
        return ""
    low, high = result.interval.low[i, j], result.interval.high[i, j]
    mark = " *" if result.better[i, j] else ""
    return f"{result.probabilities[i, j]:.3f} [{low:.3f}, {high:.3f}]{mark}"


def pairwise_text(result: PairwiseResult) -> str:
    """The readable summary of P(A > B) for every pair of pipelines (paper §6, C.5-C.6): the matrix of
    P(row > column) with its Bonferroni-adjusted intervals, then the verdict.

    Parameters
    ----------
    result : PairwiseResult

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    n = len(result.names)
    rows = [("P(row > column)", *result.names)]
    rows += [(result.names[i], *(pairwise_cell(result, i, j) for j in range(n))) for i in range(n)]
    lines = [
        paragraph(
            f"P(row > column) over {result.runs} paired runs ({PAPER} §6, C.5-C.6), with "
            f"{pairwise_level(result)} intervals (Bonferroni: {ALPHA} = {result.alpha:g} over "
            f"{result.comparisons} pairs); * the row is better: lower end > 0.5 and upper end > {GAMMA} = "
            f"{result.gamma:g}"
        ),
        "",
        *aligned(rows),
        "",
        paragraph(pairwise_verdict(result)),
    ]
    return "\n".join(lines)


def pairwise_verdict(result: PairwiseResult) -> str:
    """Which pipelines are better than which, in plain words (paper §6, C.6).

    Parameters
    ----------
    result : PairwiseResult

    Returns
    -------
    str
        One unwrapped paragraph.

    Examples
    --------
    >>> from benchtrust.compare import pairwise
    >>> r = pairwise({"A": [0.91, 0.92, 0.93, 0.90, 0.94, 0.92, 0.93, 0.95, 0.91, 0.92],
    ...               "B": [0.89, 0.90, 0.92, 0.88, 0.91, 0.90, 0.91, 0.92, 0.92, 0.90],
    ...               "C": [0.90, 0.93, 0.90, 0.91, 0.92, 0.93, 0.90, 0.91, 0.94, 0.91]})
    >>> print(paragraph(pairwise_verdict(r)))
    A is better than B: the lower end of the 98.3333% interval of P(A > B) is above 0.5 and its upper
    end above γ = 0.75 (intervals Bonferroni-adjusted for 3 pairs). The other 2 pairs show no such
    difference: draw no conclusion about them.
    """
    pairs = result.better_pairs
    level = pairwise_level(result)
    adjusted = f"intervals Bonferroni-adjusted for {result.comparisons} pairs"
    if not pairs:
        return (
            f"No pipeline is shown better than another: for none of the {result.comparisons} pairs is the "
            f"lower end of the {level} interval of P(A > B) above 0.5 with its upper end above {GAMMA} = "
            f"{result.gamma:g} ({adjusted}); draw no conclusion."
        )
    found = listed(f"{winner} is better than {loser}" for winner, loser in pairs)
    text = (
        f"{found}: the lower end of the {level} interval of P(A > B) is above 0.5 and its upper end above "
        f"{GAMMA} = {result.gamma:g} ({adjusted})."
    )
    others = result.comparisons - len(pairs)
    if others:
        pairs_word = "pair shows" if others == 1 else "pairs show"
        text += f" The other {others} {pairs_word} no such difference: draw no conclusion about them."
    return text


#: The hypotheses of a test over data sets, by its alternative.
_ALTERNATIVE_WORDS = {
    "two-sided": "a difference between A and B",
    "greater": "A scoring higher than B",
    "less": "A scoring lower than B",
}


def dataset_test_verdict(result: DatasetTestResult) -> str:
    """The test over data sets, the hypothesis tested and its p-value, in plain words (paper §6).

    Parameters
    ----------
    result : DatasetTestResult

    Returns
    -------
    str
        One unwrapped paragraph.

    Examples
    --------
    >>> from benchtrust.compare import wilcoxon_datasets
    >>> r = wilcoxon_datasets([0.81, 0.92, 0.75, 0.68, 0.88, 0.95],
    ...                       scores_b=[0.80, 0.90, 0.765, 0.65, 0.84, 0.90], alternative="greater")
    >>> print(paragraph(dataset_test_verdict(r)))
    The Wilcoxon signed-rank test over 6 data sets gives p = 0.04688 for A scoring higher than B (the
    sample is the data sets: with few of them the test has little power, §6).
    """
    n = len(result.datasets)
    caveat = "(the sample is the data sets: with few of them the test has little power, §6)"
    if result.test == "friedman":
        return (
            f"The Friedman test of {len(result.algorithms)} algorithms over {n} data sets gives p = "
            f"{result.p_value:.4g} for a difference between their mean ranks {caveat}."
        )
    return (
        f"The Wilcoxon signed-rank test over {n} data sets gives p = {result.p_value:.4g} for "
        f"{_ALTERNATIVE_WORDS[result.alternative]} {caveat}."
    )


def dataset_test_text(result: DatasetTestResult) -> str:
    """The readable summary of a test over data sets (paper §6, Demšar 2006): the algorithms, the data
    sets, the statistic and the p-value, then the verdict.

    Parameters
    ----------
    result : DatasetTestResult

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    rows = [
        ("algorithms", ", ".join(result.algorithms)),
        ("data sets", ", ".join(result.datasets)),
        ("alternative", result.alternative),
        ("statistic", f"{result.statistic:.6g}"),
        ("p-value", f"{result.p_value:.4g}"),
    ]
    lines = [f"{result.test} test over data sets ({PAPER} §6; Demšar 2006)"]
    lines += aligned(rows)
    lines += ["", paragraph(dataset_test_verdict(result))]
    return "\n".join(lines)


#: The per-data-set tests of :func:`better_everywhere`, in words.
EVERYWHERE_TESTS = {"wilcoxon": "one-sided Wilcoxon signed-rank test", "t": "one-sided paired t-test"}


def everywhere_verdict(result: EverywhereResult) -> str:
    """Whether A is better than B on every data set, in plain words (paper §6, Dror et al. 2017).

    Parameters
    ----------
    result : EverywhereResult

    Returns
    -------
    str
        One unwrapped paragraph.

    Examples
    --------
    >>> from benchtrust.compare import better_everywhere
    >>> a = {"cifar": [0.91, 0.92, 0.93, 0.90, 0.94, 0.92], "sst2": [0.85, 0.86, 0.84, 0.88, 0.87, 0.86]}
    >>> b = {"cifar": [0.89, 0.90, 0.92, 0.88, 0.91, 0.90], "sst2": [0.86, 0.87, 0.83, 0.89, 0.86, 0.87]}
    >>> print(paragraph(everywhere_verdict(better_everywhere(a, runs_b=b))))
    A is not shown better than B on every data set: "A is not better" is rejected on 1 of 2 (cifar) with
    Holm's correction at family-wise α = 0.05, not on sst2.
    """
    n = len(result.datasets)
    how = f"with Holm's correction at family-wise {ALPHA} = {result.alpha:g}"
    if result.better_everywhere:
        return (
            f'A is better than B on every data set: "A is not better" is rejected on all {n} {how} '
            f"({EVERYWHERE_TESTS[result.test]} on each)."
        )
    rejected = [name for name, r in zip(result.datasets, result.rejected, strict=True) if r]
    kept = [name for name, r in zip(result.datasets, result.rejected, strict=True) if not r]
    where = f" ({', '.join(rejected)})" if rejected else ""
    return (
        f'A is not shown better than B on every data set: "A is not better" is rejected on '
        f"{len(rejected)} of {n}{where} {how}, not on {', '.join(kept)}."
    )


def everywhere_text(result: EverywhereResult) -> str:
    """The readable summary of :func:`better_everywhere` (paper §6, Dror et al. 2017): each data set's
    p-value, Holm-adjusted, and whether it is rejected, then the verdict.

    Parameters
    ----------
    result : EverywhereResult

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    rows = [("data set", "p-value", "Holm-adjusted", "rejected")]
    for k, name in enumerate(result.datasets):
        rows.append(
            (
                name,
                f"{result.p_values[k]:.4g}",
                f"{result.adjusted_p_values[k]:.4g}",
                "yes" if result.rejected[k] else "no",
            )
        )
    lines = [
        paragraph(
            f"Is A better than B on every data set? ({PAPER} §6; Dror et al. 2017): "
            f"{EVERYWHERE_TESTS[result.test]} per data set, Holm's correction, {ALPHA} = {result.alpha:g}"
        ),
        "",
        *aligned(rows),
        "",
        paragraph(everywhere_verdict(result)),
    ]
    return "\n".join(lines)
