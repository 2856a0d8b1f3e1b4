"""The words about comparing pipelines under the sources of variance (Bouthillier et al. 2021): the
readable summaries of P(A > B), of the runs it needs, of the criteria's error rates, of a benchmark's
history, of the tests over many pipelines and data sets and of the study harness's runs and estimates, and
their verdicts in plain words, as ``benchtrust compare``, the HTML sections (:mod:`._section`) and
``str(result)`` show them.
"""

from __future__ import annotations

import numbers

import numpy as np

from benchtrust._words import ALPHA, BETA, GAMMA, RHO, SIGMA, level_text, paragraph

__all__ = [
    "CRITERION_WORDS",
    "EVERYWHERE_TESTS",
    "aligned",
    "criterion_text",
    "dataset_test_text",
    "dataset_test_verdict",
    "error_rates_text",
    "error_rates_verdict",
    "estimate_rows",
    "estimate_text",
    "estimate_verdict",
    "everywhere_text",
    "everywhere_verdict",
    "example_runs_words",
    "example_text",
    "history_date",
    "history_text",
    "history_verdict",
    "outperform_conclusion",
    "outperform_pairing",
    "outperform_text",
    "pairwise_cell",
    "pairwise_level",
    "pairwise_text",
    "pairwise_verdict",
    "rates_text",
    "runs_rows",
    "runs_text",
    "runs_verdict",
    "sample_size_text",
    "source_variances_rows",
    "source_variances_text",
    "source_variances_verdict",
    "test_set_variance_text",
    "test_set_variance_verdict",
]

_PAPER = "Bouthillier et al. 2021"

#: The criteria of §4.2 (Fig. 6), in words.
CRITERION_WORDS = {
    "single_point": "single point",
    "average": "average",
    "probability_of_outperforming": "P(A > B) test",
}


def outperform_conclusion(result) -> str:
    """The decision of paper C.6 in plain words: significant, meaningful, and what to do next.

    Parameters
    ----------
    result : OutperformResult
        Its ``conclusion`` is not read (this makes it).

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    low, high = result.ci
    head = (
        f"A outperforms B with probability {result.p_a_beats_b:.2f} ({level_text(result.alpha)} CI "
        f"[{low:.2f}, {high:.2f}])"
    )
    gamma = f"gamma = {result.gamma:g}"
    if result.a_is_better:
        return (
            f"{head}: significant (lower end {low:.2f} > 0.5) and meaningful (upper end {high:.2f} > "
            f"{gamma}): A is better than B in the conditions of these runs."
        )
    if result.significant:
        return (
            f"{head}: significant (lower end {low:.2f} > 0.5) but not meaningful (upper end {high:.2f} "
            f"<= {gamma}): A outperforms B too rarely to matter; do not conclude A is better."
        )
    tail = (
        " B may be the better one: compare B with A to test it."
        if result.b_may_be_better
        else " More runs narrow the interval."
    )
    return (
        f"{head}: not significant (lower end {low:.2f} <= 0.5): the difference could be noise alone; "
        f"draw no conclusion.{tail}"
    )


def outperform_pairing(result) -> str:
    """How the runs of A and B were paired, in words (paper C.2, C.4)."""
    if result.paired and result.pair_by is not None:
        return f"{result.n_pairs}, paired by {result.pair_by!r} (C.2)"
    if result.paired:
        return f"{result.n_pairs}, paired as given: run i of A with run i of B (C.2)"
    seed = "" if result.seed is None else f" with seed {result.seed}"
    pairs = f"{result.n_pairs}, paired at random{seed} (C.4)"
    if result.runs_a != result.runs_b:
        pairs += f"; {abs(result.runs_a - result.runs_b)} extra runs left out"
    return pairs


def outperform_text(result) -> str:
    """The readable summary of P(A > B) (paper §4.1, C.4-C.6): the runs, the pairs, the interval, the
    decision in words.

    Parameters
    ----------
    result : OutperformResult

    Returns
    -------
    str
        Lines without a trailing newline; the decision wrapped to 100 characters.
    """
    low, high = result.ci
    better = "lower" if result.lower_is_better else "higher"
    rows = [
        ("A", f"{result.names[0]}: {result.runs_a} runs, mean {result.mean_a:.6g}"),
        ("B", f"{result.names[1]}: {result.runs_b} runs, mean {result.mean_b:.6g}"),
        ("pairs", outperform_pairing(result)),
        ("wins, ties, losses", f"{result.wins}, {result.ties}, {result.losses} ({better} is better)"),
        ("P(A > B)", f"{result.p_a_beats_b:.4f}"),
        (
            f"{level_text(result.alpha)} CI",
            f"[{low:.4f}, {high:.4f}] (percentile bootstrap, {result.method})",
        ),
        ("significant", f"{'yes' if result.significant else 'no'}: lower end {low:.4f} vs 0.5"),
        (
            "meaningful",
            f"{'yes' if result.meaningful else 'no'}: upper end {high:.4f} vs {GAMMA} = {result.gamma:g}",
        ),
    ]
    width = max(len(name) for name, _ in rows)
    source = "" if result.source is None else f" from {result.source}"
    lines = [f"P(A > B){source} ({_PAPER} §4.1, C.4-C.6)"]
    lines += [f"  {name:<{width}}  {value}" for name, value in rows]
    lines += ["", paragraph(result.conclusion)]
    return "\n".join(lines)


def sample_size_text(runs: int, *, gamma: float, alpha: float, beta: float) -> str:
    """The runs the test of P(A > B) needs, in words (Noether 1987; paper C.3).

    Parameters
    ----------
    runs : int
        The runs of each pipeline, as :func:`~benchtrust.compare.sample_size` gives them.
    gamma, alpha, beta : float
        γ, α and β the runs were computed for.

    Returns
    -------
    str
        One paragraph wrapped to 100 characters.

    Examples
    --------
    >>> print(sample_size_text(29, gamma=0.75, alpha=0.05, beta=0.05))
    29 runs of each pipeline (pairs of runs, when paired) detect P(A > B) >= γ = 0.75 with α = 0.05 and
    β = 0.05 (power 95%): Noether's sample size for the Mann-Whitney test (Bouthillier et al. 2021 C.3).
    """
    return paragraph(
        f"{runs} runs of each pipeline (pairs of runs, when paired) detect P(A > B) >= {GAMMA} = "
        f"{gamma:g} with {ALPHA} = {alpha:g} and {BETA} = {beta:g} (power {100 * (1 - beta):g}%): "
        f"Noether's sample size for the Mann-Whitney test ({_PAPER} C.3)."
    )


def aligned(rows) -> list[str]:
    """`rows` of cells as lines of left-aligned columns two spaces apart, indented by two spaces."""
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    return [
        ("  " + "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))).rstrip() for row in rows
    ]


def rates_text(values, estimators) -> str:
    """Rates of the estimators simulated, as ``0.044 / 0.052`` (``-`` where none was simulated)."""
    return " / ".join("-" if values[e] is None else f"{values[e]:.3f}" for e in estimators)


def error_rates_text(result) -> str:
    """The readable summary of the simulated detection rates (paper §4.2, Fig. 6): a table by the true
    P(A > B), then the mean false-positive and false-negative rates of each criterion, then the verdict.

    Parameters
    ----------
    result : ErrorRatesResult

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    estimators = result.estimators
    criteria = list(result.rates)
    which = "ideal / biased estimator" if len(estimators) > 1 else "ideal estimator"
    rows = [["P(A > B)", *(CRITERION_WORDS[c] for c in criteria)]]
    for k, p in enumerate(result.probabilities.tolist()):
        rows.append(
            [
                f"{p:.3f}",
                *(rates_text({e: by[e][k] for e in estimators}, estimators) for by in result.rates.values()),
            ]
        )
    regions = result.region_rates()
    rows.append([""] * len(rows[0]))
    rows.append(["mean error rate", *("" for _ in criteria)])
    rows.append(["false positive", *(rates_text(regions["false_positive"][c], estimators) for c in criteria)])
    rows.append(["false negative", *(rates_text(regions["false_negative"][c], estimators) for c in criteria)])
    lines = [
        f'rate of concluding "A is better than B" ({_PAPER} §4.2, Fig. 6), {which}:',
        f"  {SIGMA} = {result.sigma:g}, k = {result.runs} runs each, {result.simulations} simulations per "
        f"point, δ = {result.delta:.6g}, {GAMMA} = {result.gamma:g}, {ALPHA} = {result.alpha:g}",
        "",
    ]
    lines += aligned(rows)
    lines += [
        "",
        paragraph(
            f"A detection is a false positive where the true P(A > B) <= 0.5 and a missed detection a false "
            f"negative where it is > {GAMMA} (the means above weigh the simulated probabilities of each "
            "region equally; '-': none simulated there)."
        ),
        "",
        paragraph(error_rates_verdict(result)),
    ]
    return "\n".join(lines)


def _listed(words) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def error_rates_verdict(result) -> str:
    """The verdict on the simulated criteria in plain words (paper §4.2, Fig. 6): which criterion has the
    lowest false-positive rate, summed over the estimators simulated, or which criteria share it.

    Parameters
    ----------
    result : ErrorRatesResult

    Returns
    -------
    str
        One unwrapped paragraph.

    Examples
    --------
    >>> from benchtrust.compare import error_rates
    >>> print(paragraph(error_rates_verdict(error_rates(0.01, probabilities=[0.5, 0.9], seed=0))))
    Of the criteria simulated, the average has the lowest false-positive rate (where the true P(A > B)
    <= 0.5); a false negative is a missed detection where it is > γ.
    >>> print(paragraph(error_rates_verdict(error_rates(0.01, probabilities=[0.3, 0.9], seed=0))))
    Of the criteria simulated, the average and the P(A > B) test share the lowest false-positive rate
    (where the true P(A > B) <= 0.5); a false negative is a missed detection where it is > γ.
    """
    lowest = result.lowest_false_positive
    negative = f"a false negative is a missed detection where it is > {GAMMA}."
    if not lowest:
        return (
            "No simulated P(A > B) is <= 0.5, so no criterion's false-positive rate was measured; "
            f"{negative.replace('it is', 'the true P(A > B) is')}"
        )
    named = _listed(f"the {CRITERION_WORDS[c]}" for c in lowest)
    has = "has" if len(lowest) == 1 else "share"
    return (
        f"Of the criteria simulated, {named} {has} the lowest false-positive rate (where the true "
        f"P(A > B) <= 0.5); {negative}"
    )


def history_text(result) -> str:
    """The readable summary of a benchmark's history (paper §2.2, §3.1, Fig. 3): each result, its increment
    over the best before it and the threshold the noise sets, then the verdict.

    Parameters
    ----------
    result : HistoryResult
        Its ``source``, the history file, is named in the first line.

    Returns
    -------
    str
        Lines without a trailing newline.
    """

    def number(value):
        return "" if np.isnan(value) else f"{value:.4f}"

    rows = [("date", "score", f"{SIGMA}", "prior best", "increment", "threshold", "exceeds the noise")]
    for k in range(result.scores.size):
        first = k == 0
        rows.append(
            (
                history_date(result, k),
                f"{result.scores[k]:.4f}",
                f"{result.sigma[k]:.4f}",
                number(result.prior_best[k]),
                number(result.increments[k]),
                number(result.thresholds[k]),
                "" if first else ("yes" if result.significant[k] else "no"),
            )
        )
    source = (
        f"binomial {SIGMA} = sqrt(p(1 - p)/n), n = {result.test_size}"
        if result.test_size is not None
        else f"{SIGMA} = {result.sigma[0]:g}"
    )
    better = "lower" if result.lower_is_better else "higher"
    what = "history" if result.source is None else f"history of {result.source}"
    lines = [
        paragraph(f"{what} ({_PAPER} §2.2, §3.1, Fig. 3): {source}; {better} is better"),
        f"  an increment exceeds the noise when above z = {result.z:.3f} (one-sided, "
        f"{ALPHA} = {result.alpha:g}) times sqrt({SIGMA}² + {SIGMA}_prior²)",
        "",
    ]
    lines += aligned(rows)
    lines += ["", paragraph(history_verdict(result))]
    return "\n".join(lines)


def history_date(result, k) -> str:
    """The date of result `k` of a history, as ISO text or a number."""
    return str(result.dates[k]) if result.dates.dtype.kind == "M" else f"{result.dates[k]:g}"


def history_verdict(result) -> str:
    """The verdict on a benchmark's history in plain words (paper §2.2, §3.1): how many results improve on
    the best before them by more than the noise of the benchmark.

    Parameters
    ----------
    result : HistoryResult

    Returns
    -------
    str
        One unwrapped paragraph.

    Examples
    --------
    >>> from benchtrust.compare import history
    >>> result = history(["2019-01-01", "2020-01-01", "2021-01-01"], [0.90, 0.95, 0.951], test_size=1000)
    >>> print(paragraph(history_verdict(result)))
    1 of 2 results improve on the best before them by more than the noise of the benchmark; the others
    are within what another test set or seed could give.
    """
    return (
        f"{result.significant_increments} of {result.compared} results improve on the best before them by "
        "more than the noise of the benchmark; the others are within what another test set or seed could "
        "give."
    )


# --- the criteria of §4.1 and the tests of §6 ---------------------------------------------------------------


def _better(lower_is_better) -> str:
    return "lower" if lower_is_better else "higher"


def criterion_text(result) -> str:
    """The readable summary of one comparison criterion (paper §4.1-4.2): the runs, A's improvement over
    B, the threshold or the test, then the decision.

    Parameters
    ----------
    result : CriterionResult

    Returns
    -------
    str
        Lines without a trailing newline.

    Examples
    --------
    >>> from benchtrust.compare import single_point
    >>> print(criterion_text(single_point(0.82, 0.81)))
    single point: A against B (Bouthillier et al. 2021 §4.1-4.2)
      runs              1 of A, 1 of B
      improvement of A  +0.01 (higher is better)
    <BLANKLINE>
    One run each: A beats B by +0.01; A is better than B (variance ignored).
    """
    rows = [
        ("runs", f"{result.n_a} of A, {result.n_b} of B"),
        ("improvement of A", f"{result.improvement:+.4g} ({_better(result.lower_is_better)} is better)"),
    ]
    if result.threshold is not None:
        rows.append(("threshold δ", f"{result.threshold:g}"))
    if result.alpha is not None:
        defined = result.p_value is not None
        rows.append(("t statistic", f"{result.statistic:.4g}" if defined else "undefined (no variance)"))
        p_value = f"{result.p_value:.4g} vs {ALPHA} = {result.alpha:g}" if defined else "undefined"
        rows.append(("one-sided p-value", p_value))
    lines = [f"{result.criterion}: A against B ({_PAPER} §4.1-4.2)", *aligned(rows)]
    lines += ["", paragraph(result.conclusion)]
    return "\n".join(lines)


def pairwise_level(result) -> str:
    """The Bonferroni-adjusted level of a :class:`PairwiseResult`'s intervals, such as ``98.3333%``."""
    return level_text(result.alpha / result.comparisons)


def pairwise_cell(result, i, j) -> str:
    """P(row i > column j) with its interval, ``*`` when row i is better; empty on the diagonal."""
    if i == j:
        return ""
    low, high = result.interval.low[i, j], result.interval.high[i, j]
    mark = " *" if result.better[i, j] else ""
    return f"{result.probabilities[i, j]:.3f} [{low:.3f}, {high:.3f}]{mark}"


def pairwise_text(result) -> str:
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
            f"P(row > column) over {result.runs} paired runs ({_PAPER} §6, C.5-C.6), with "
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


def pairwise_verdict(result) -> str:
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
    found = _listed(f"{winner} is better than {loser}" for winner, loser in pairs)
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


def dataset_test_verdict(result) -> str:
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


def dataset_test_text(result) -> str:
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
    lines = [f"{result.test} test over data sets ({_PAPER} §6; Demšar 2006)"]
    lines += aligned(rows)
    lines += ["", paragraph(dataset_test_verdict(result))]
    return "\n".join(lines)


#: The per-data-set tests of :func:`better_everywhere`, in words.
EVERYWHERE_TESTS = {"wilcoxon": "one-sided Wilcoxon signed-rank test", "t": "one-sided paired t-test"}


def everywhere_verdict(result) -> str:
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


def everywhere_text(result) -> str:
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
            f"Is A better than B on every data set? ({_PAPER} §6; Dror et al. 2017): "
            f"{EVERYWHERE_TESTS[result.test]} per data set, Holm's correction, {ALPHA} = {result.alpha:g}"
        ),
        "",
        *aligned(rows),
        "",
        paragraph(everywhere_verdict(result)),
    ]
    return "\n".join(lines)


# --- the study harness: runs, estimators, sources of variance (§2-3) ----------------------------------------


def _number(value, digits=4) -> str:
    """`value` with `digits` significant digits, or ``undefined`` for nan."""
    return "undefined" if np.isnan(value) else f"{value:.{digits}g}"


def runs_verdict(runs) -> str:
    """A study's runs in plain words: how many, which sources were randomised, the scores' mean and spread.

    Parameters
    ----------
    runs : Runs

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    randomised = [s for s in runs.sources if s not in runs.fixed]
    scores = runs.scores
    text = f"{len(runs)} runs of the study, randomising {_listed(randomised) if randomised else 'nothing'}"
    if runs.fixed:
        text += f" and holding {_listed(runs.fixed)} fixed"
    text += f": mean score {scores.mean():.4g}"
    if len(runs) > 1:
        text += f", standard deviation {scores.std(ddof=1):.3g} between runs"
    return text + "."


def runs_text(runs) -> str:
    """The readable table of a study's runs (paper §2, C.1): each run's score, test size and
    hyperparameters, then the verdict.

    Parameters
    ----------
    runs : Runs

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    columns, rows = runs_rows(runs)
    lines = [f"runs of a study ({_PAPER} §2, C.1), study seed {runs.seed}", *aligned([columns, *rows]), ""]
    lines.append(paragraph(runs_verdict(runs)))
    return "\n".join(lines)


def runs_rows(runs) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The header and rows of a study's runs: run, score, test size and each hyperparameter."""
    names = list(dict.fromkeys(name for row in runs for name in row.hyperparameters))

    def cell(value):
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            return f"{value:.4g}"
        return "" if value is None else str(value)

    rows = [
        (
            str(row.index),
            f"{row.score:.6g}",
            str(row.test_size),
            *(cell(row.hyperparameters.get(n)) for n in names),
        )
        for row in runs
    ]
    return ("run", "score", "test size", *names), rows


def estimate_verdict(estimate) -> str:
    """An estimate of a pipeline's expected score in plain words (paper §3.2, Algorithms 1-2, Eq. 7).

    Parameters
    ----------
    estimate : Estimate

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    text = (
        f"{estimate.estimator} estimates the expected score at {estimate.mean:.4g} from k = {estimate.runs} "
        f"runs, which vary with a standard deviation of {estimate.std:.3g}"
    )
    if estimate.repetitions > 1:
        text += (
            f"; over {estimate.repetitions} repetitions the estimate itself varies with a standard deviation "
            f"of {_number(estimate.std_of_mean, 3)} ({RHO} = {_number(estimate.correlation, 3)} between the "
            f"runs of one repetition; Eq. 7 gives {_number(estimate.std_of_mean_eq7, 3)})"
        )
    text += "."
    if estimate.fixed:
        text += f" Held fixed within a repetition: {_listed(estimate.fixed)}."
    return text


def estimate_rows(estimate) -> list[tuple[str, str]]:
    """The numbers of an estimate, as (name, value) rows."""
    rows = [
        ("runs k", f"{estimate.runs}"),
        ("repetitions", f"{estimate.repetitions}"),
        ("fixed sources", ", ".join(estimate.fixed) or "none"),
        ("mean of the first repetition", f"{estimate.mean:.6g}"),
        ("std of one run", f"{estimate.std:.4g}"),
    ]
    if estimate.repetitions > 1:
        rows += [
            ("std of the estimate", _number(estimate.std_of_mean)),
            (f"correlation {RHO}", _number(estimate.correlation)),
            ("std of the estimate, Eq. 7", _number(estimate.std_of_mean_eq7)),
        ]
    return rows


def estimate_text(estimate) -> str:
    """The readable summary of an estimate (paper §3.2, Algorithms 1-2): its numbers, then the verdict.

    Parameters
    ----------
    estimate : Estimate

    Returns
    -------
    str
        Lines without a trailing newline.

    Examples
    --------
    >>> from benchtrust.compare import Study, ideal_estimate
    >>> def fit_and_score(train, test, hyperparameters, seeds):
    ...     return 0.8 + np.random.default_rng(seeds["init"]).normal(0, 0.01)
    >>> study = Study(fit_and_score, data_size=50, sources=("split", "init"))
    >>> print(estimate_text(ideal_estimate(study, runs=20, seed=0)))
    IdealEst (Bouthillier et al. 2021 §3.2, Algorithms 1-2)
      runs k                        20
      repetitions                   1
      fixed sources                 none
      mean of the first repetition  0.79915
      std of one run                0.0107
    <BLANKLINE>
    IdealEst estimates the expected score at 0.7991 from k = 20 runs, which vary with a standard
    deviation of 0.0107.
    """
    lines = [f"{estimate.estimator} ({_PAPER} §3.2, Algorithms 1-2)", *aligned(estimate_rows(estimate))]
    lines += ["", paragraph(estimate_verdict(estimate))]
    return "\n".join(lines)


def source_variances_verdict(result) -> str:
    """Which source of variation moves the score most, in plain words (paper §2.2, Fig. 1).

    Parameters
    ----------
    result : SourceVariances

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    largest = result.largest
    if not largest:
        return "No source moves the score: randomised one at a time, none makes the scores vary."
    sd = float(np.sqrt(result.variances[largest[0]]))
    moves = "moves" if len(largest) == 1 else "each move"
    text = f"Randomised alone, {_listed(largest)} {moves} the score most: a standard deviation of {sd:.3g}"
    if "split" not in largest:
        text += f", {result.fractions[largest[0]]:.3g} times the data split's variance"
    return text + ". The variances are not additive: the sources interact (§2.2)."


def source_variances_rows(result) -> list[tuple[str, str, str, str]]:
    """(source, variance, standard deviation, fraction of the split's variance) rows."""
    return [
        (
            source,
            f"{variance:.4g}",
            f"{np.sqrt(variance):.4g}",
            _number(result.fractions[source], 3),
        )
        for source, variance in result.variances.items()
    ]


def source_variances_text(result) -> str:
    """The readable summary of the variance by source (paper §2.2, Fig. 1): a row per source, then the
    verdict.

    Parameters
    ----------
    result : SourceVariances

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    rows = [("source", "variance", "std", "fraction of split"), *source_variances_rows(result)]
    lines = [
        paragraph(
            f"variance of the score by source, each randomised alone over {result.runs} runs ({_PAPER} "
            "§2.2, Fig. 1)"
        ),
        *aligned(rows),
        "  ('none': nothing randomised, numerical noise)",
        "",
        paragraph(source_variances_verdict(result)),
    ]
    return "\n".join(lines)


def test_set_variance_verdict(result) -> str:
    """The measured spread of the accuracy beside the binomial model's, in plain words (§2.2, Fig. 2).

    Parameters
    ----------
    result : TestSetVariance

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    return (
        f"The measured standard deviation of the accuracy, {result.measured_std:.4g}, is "
        f"{_number(result.ratio, 3)} times the binomial model's {result.binomial_std:.4g} (accuracy "
        f"{result.accuracy:.4g} on {result.test_size:.1f} test examples on average, {result.runs} runs); "
        "where the two agree, the variance of the data split is what a test set of this size gives (§2.2, "
        "Fig. 2)."
    )


def test_set_variance_text(result) -> str:
    """The readable summary of :func:`test_set_variance` (paper §2.2, Fig. 2).

    Parameters
    ----------
    result : TestSetVariance

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    rows = [
        ("measured std", f"{result.measured_std:.4g}"),
        ("binomial std", f"{result.binomial_std:.4g}"),
        ("ratio", _number(result.ratio, 3)),
        ("mean accuracy p", f"{result.accuracy:.4g}"),
        ("mean test size n'", f"{result.test_size:.1f}"),
        ("runs", f"{result.runs}"),
    ]
    lines = [f"test-set variance against the binomial model ({_PAPER} §2.2, Fig. 2)", *aligned(rows)]
    lines += ["", paragraph(test_set_variance_verdict(result))]
    return "\n".join(lines)


test_set_variance_text.__test__ = False  # its name starts with test_: not a pytest test
test_set_variance_verdict.__test__ = False


# --- the worked example -------------------------------------------------------------------------------------


def example_text(example) -> str:
    """The worked example's report (paper §2-4, C.1-C.6): sources of variance, P(A > B), the decision and
    the runs needed.

    Parameters
    ----------
    example : ExampleResult

    Returns
    -------
    str
        Lines of at most 100 characters, without a trailing newline.
    """
    from benchtrust.compare._example import SOURCES

    a, b = example.names
    result = example.outperform
    scores_a, scores_b = np.array(example.scores_a), np.array(example.scores_b)
    lines = [
        f"A = {a}",
        f"B = {b}",
        f"on {example.dataset}.",
        f"{example.runs} paired runs: run i of A and of B share a new stratified out-of-bootstrap split",
        "(appendix B) and a new 'init' seed (C.1-C.2).",
        "",
        f"Standard deviation of the accuracy, one source randomised at a time ({example.runs} runs each, "
        "§2.2):",
    ]
    table = [("source", "A", "B")]
    for source in (*SOURCES, "none"):
        table.append((source, *(f"{example.source_sd(name, source):.4f}" for name in example.names)))
    table.append(("all", f"{scores_a.std(ddof=1):.4f}", f"{scores_b.std(ddof=1):.4f}"))
    lines += aligned(table)
    lines += [
        "  ('none': nothing randomised, numerical noise; 'all': the paired runs below)",
        "",
        f"Mean accuracy: A {scores_a.mean():.4f}, B {scores_b.mean():.4f}; "
        f"A wins {result.wins}, ties {result.ties}, loses {result.losses} of {result.n_pairs} pairs.",
        f"P(A > B) = {result.p_a_beats_b:.4f}, {level_text(result.alpha)} CI "
        f"[{result.ci[0]:.4f}, {result.ci[1]:.4f}] (percentile bootstrap, {result.method}; §4.1, C.5)",
        paragraph("Decision (C.6): " + result.conclusion),
        paragraph(
            f"Runs needed (C.3, {GAMMA} = {result.gamma:g}, {ALPHA} = {BETA} = 0.05): {example.runs_needed}; "
            f"this example used {example.runs}, {example_runs_words(example)}."
        ),
    ]
    return "\n".join(lines)


def example_runs_words(example) -> str:
    """Whether the example's runs are enough for the test's stated power (C.3), in words."""
    return "enough" if example.enough_runs else "too few for the test's stated power"
