"""The words about comparing pipelines under the sources of variance (Bouthillier et al. 2021): the
readable summaries of P(A > B), of the runs it needs, of the criteria and their error rates and of a
benchmark's history, and their verdicts in plain words (the tests over many pipelines and data sets are
worded in :mod:`._datasets_text`, the study harness in :mod:`._study_text`, the worked example in
:mod:`._example`), as each result's ``describe()`` gives them to ``benchtrust compare``, ``str(result)``
and its HTML section.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._words import ALPHA, BETA, GAMMA, SIGMA, aligned, level_text, listed, paragraph

if TYPE_CHECKING:
    from benchtrust.compare import (
        CriterionResult,
        ErrorRatesResult,
        HistoryResult,
        OutperformResult,
        SampleSizeResult,
    )

__all__ = [
    "COMPARE_QUESTION",
    "CRITERION_WORDS",
    "PAPER",
    "SOURCE",
    "criterion_text",
    "error_rates_reading",
    "error_rates_rows",
    "error_rates_text",
    "error_rates_verdict",
    "history_date",
    "history_text",
    "history_verdict",
    "outperform_conclusion",
    "outperform_pairing",
    "outperform_runs_needed",
    "outperform_text",
    "rates_text",
    "sample_size_verdict",
]

PAPER = "Bouthillier et al. 2021"

#: The question ``benchtrust compare`` answers for two pipelines: the title of each result's section.
COMPARE_QUESTION = "Is A really better than B, given all the sources of variance?"

#: The paper the sections of the two-pipeline analyses cite; each adds its section or figure.
SOURCE = "Bouthillier et al. 2021, accounting for variance in machine learning benchmarks"

#: The criteria of §4.2 (Fig. 6), in words.
CRITERION_WORDS = {
    "single_point": "single point",
    "average": "average",
    "t_test": "t-test",
    "probability_of_outperforming": "P(A > B) test",
    "oracle": "oracle",
}


def outperform_conclusion(result: OutperformResult) -> str:
    """The decision of paper C.6 in plain words: significant, meaningful, and what to do next; or, with
    fewer pairs than C.3 asks for γ, α and β, that there are too few runs to conclude.

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
    if not result.enough_runs:
        pairs = f"{result.n_pairs} pair{'s' if result.n_pairs != 1 else ''}"
        return (
            f"Too few runs to conclude: {result.runs_needed} of each pipeline are needed (paper C.3, for "
            f"{gamma}, alpha = {result.alpha:g} and beta = {result.beta:g}), the runs give {pairs}. On them "
            f"{head}, too uncertain to decide on. Next step: more runs; compare sample-size (sample_size "
            "in Python) gives how many for other gamma, alpha or beta."
        )
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


def outperform_pairing(result: OutperformResult) -> str:
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


def outperform_runs_needed(result: OutperformResult) -> str:
    """The runs C.3 asks for γ, α and β, and whether the pairs reach them, in words."""
    enough = "enough" if result.enough_runs else "too few to conclude"
    return (
        f"{result.runs_needed} (C.3, {GAMMA} = {result.gamma:g}, {ALPHA} = {result.alpha:g}, {BETA} = "
        f"{result.beta:g}): {result.n_pairs} pairs, {enough}"
    )


def outperform_text(result: OutperformResult) -> str:
    """The readable summary of P(A > B) (paper §4.1, C.4-C.6): the runs, the pairs, the interval, the runs
    needed (C.3), the decision in words.

    Parameters
    ----------
    result : OutperformResult

    Returns
    -------
    str
        Lines without a trailing newline; the decision wrapped to 100 characters.
    """
    low, high = result.ci
    rows = [
        ("A", f"{result.names[0]}: {result.runs_a} runs, mean {result.mean_a:.6g}"),
        ("B", f"{result.names[1]}: {result.runs_b} runs, mean {result.mean_b:.6g}"),
        ("pairs", outperform_pairing(result)),
        (
            "wins, ties, losses",
            f"{result.wins}, {result.ties}, {result.losses} ({result.direction} is better)",
        ),
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
        ("runs needed", outperform_runs_needed(result)),
    ]
    width = max(len(name) for name, _ in rows)
    source = "" if result.source is None else f" from {result.source}"
    lines = [f"P(A > B){source} ({PAPER} §4.1, C.4-C.6)"]
    lines += [f"  {name:<{width}}  {value}" for name, value in rows]
    lines += ["", paragraph(result.conclusion)]
    return "\n".join(lines)


def sample_size_verdict(result: SampleSizeResult) -> str:
    """The runs the test of P(A > B) needs, in words (Noether 1987; paper C.3).

    Parameters
    ----------
    result : SampleSizeResult

    Returns
    -------
    str
        One unwrapped paragraph.

    Examples
    --------
    >>> from benchtrust.compare import runs_needed
    >>> print(paragraph(sample_size_verdict(runs_needed(0.75))))
    29 runs of each pipeline (pairs of runs, when paired) detect P(A > B) >= γ = 0.75 with α = 0.05 and
    β = 0.05 (power 95%): Noether's sample size for the Mann-Whitney test (Bouthillier et al. 2021 C.3).
    """
    return (
        f"{result.runs} runs of each pipeline (pairs of runs, when paired) detect P(A > B) >= {GAMMA} = "
        f"{result.gamma:g} with {ALPHA} = {result.alpha:g} and {BETA} = {result.beta:g} (power "
        f"{100 * (1 - result.beta):g}%): Noether's sample size for the Mann-Whitney test ({PAPER} C.3)."
    )


def rates_text(values: Mapping[str, float | None], estimators: Sequence[str]) -> str:
    """Rates of the estimators, as ``0.044 / 0.052`` (``-`` where there is none: not simulated, no grid
    point in the region, or the oracle's biased estimator)."""
    return " / ".join("-" if values.get(e) is None else f"{values[e]:.3f}" for e in estimators)


def _points(count: int) -> str:
    return f"{count} point{'' if count == 1 else 's'}"


def error_rates_rows(result: ErrorRatesResult) -> list[tuple[str, ...]]:
    """The header and one row per criterion: its false positives at P(A > B) = 0.5, false negatives at γ,
    and both averaged over the grid's points in their region, as :func:`rates_text` gives them."""
    edges, means = result.edge_rates, result.grid_mean_rates()
    null = int((result.probabilities <= 0.5).sum())
    meaningful = int((result.probabilities >= result.gamma).sum())
    header = ("criterion", "FP at 0.5", f"FN at {GAMMA}", f"FP mean, {_points(null)}")
    rows: list[tuple[str, ...]] = [(*header, f"FN mean, {_points(meaningful)}")]
    # false positives, false negatives; edges, then means
    columns: tuple[Mapping[str, Mapping[str, float | None]], ...] = (*edges.values(), *means.values())
    for c in result.rates:
        rows.append((CRITERION_WORDS[c], *(rates_text(by[c], result.estimators) for by in columns)))
    return rows


def error_rates_text(result: ErrorRatesResult) -> str:
    """The readable summary of the detection rates (paper §4.2, Fig. 6): a table by the true P(A > B), the
    errors of each criterion at the edges of the regions and averaged over the grid, how to read them,
    then the verdict.

    Parameters
    ----------
    result : ErrorRatesResult

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    estimators = result.estimators
    which = "ideal / biased estimator" if len(estimators) > 1 else "ideal estimator"
    rows = [("P(A > B)", *(CRITERION_WORDS[c] for c in result.rates))]
    for k, p in enumerate(result.probabilities.tolist()):
        cells = (rates_text({e: r[k] for e, r in by.items()}, estimators) for by in result.rates.values())
        rows.append((f"{p:.3f}", *cells))
    lines = [
        f'rate of concluding "A is better than B" ({PAPER} §4.2, Fig. 6), {which}:',
        f"  {SIGMA} = {result.sigma:g}, k = {result.runs} runs each, {result.simulations} simulations per "
        f"point, δ = {result.delta:.6g}, {GAMMA} = {result.gamma:g}, {ALPHA} = {result.alpha:g}",
        "",
        *aligned(rows),
        "",
        f"errors ({which}):",
        *aligned(error_rates_rows(result)),
        "",
        paragraph(error_rates_reading(result)),
        "",
        paragraph(error_rates_verdict(result)),
    ]
    return "\n".join(lines)


def error_rates_reading(result: ErrorRatesResult) -> str:
    """How to read the errors: the regions of §4.1-4.2, why at their edges, which rates are exact.

    Parameters
    ----------
    result : ErrorRatesResult

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    return (
        "FP, false positives: detections where the true P(A > B) <= 0.5 (H0 true). FN, false negatives: "
        f"missed detections where it is >= {GAMMA} = {result.gamma:g} (significant and meaningful, §4.1); "
        "in between, either answer is right. The rates rise with P(A > B), so the errors at the edges, 0.5 "
        f"and {GAMMA}, are the largest of each region; the means over the grid's points depend on the grid "
        "('-': no point in the region). Exact: the P(A > B) test with the ideal estimator (its wins are "
        "binomial) and the oracle, which knows the variance of the ideal estimator's mean difference (C.6 "
        "on its normal interval; one line, as in Fig. 6); the others are simulated."
    )


def _percent(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def error_rates_verdict(result: ErrorRatesResult) -> str:
    """The verdict on the criteria in plain words (paper §4.2, Fig. 6): which usable criterion makes the
    fewest errors at the edges of the regions (false positives at P(A > B) = 0.5 plus false negatives at
    γ, summed over the estimators), or which criteria share the fewest, and the oracle's errors.

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
    At the edges of the regions (false positives at P(A > B) = 0.5, false negatives at P(A > B) = γ =
    0.75), the t-test makes the fewest errors of the criteria that do not know the variance: 6.3% false
    positives plus false negatives. The oracle, which knows it, makes 2.7%.
    """
    fewest = result.fewest_errors
    named = listed(f"the {CRITERION_WORDS[c]}" for c in fewest)
    make = "makes" if len(fewest) == 1 else "make"
    summed = "" if len(result.estimators) == 1 else ", summed over the ideal and biased estimators"
    oracle = "" if len(result.estimators) == 1 else " with the ideal estimator"
    return (
        "At the edges of the regions (false positives at P(A > B) = 0.5, false negatives at P(A > B) = "
        f"{GAMMA} = {result.gamma:g}), {named} {make} the fewest errors of the criteria that do not know the "
        f"variance: {_percent(result.edge_errors(fewest[0]))} false positives plus false negatives{summed}. "
        f"The oracle, which knows it, makes {_percent(result.edge_errors('oracle'))}{oracle}."
    )


def history_text(result: HistoryResult) -> str:
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

    def number(value: float) -> str:
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
    what = "history" if result.source is None else f"history of {result.source}"
    lines = [
        paragraph(f"{what} ({PAPER} §2.2, §3.1, Fig. 3): {source}; {result.direction} is better"),
        f"  an increment exceeds the noise when above z = {result.z:.3f} (one-sided, "
        f"{ALPHA} = {result.alpha:g}) times sqrt({SIGMA}² + {SIGMA}_prior²)",
        "",
    ]
    lines += aligned(rows)
    lines += ["", paragraph(history_verdict(result))]
    return "\n".join(lines)


def history_date(result: HistoryResult, k: int) -> str:
    """The date of result `k` of a history, as ISO text or a number."""
    return str(result.dates[k]) if result.dates.dtype.kind == "M" else f"{result.dates[k]:g}"


def history_verdict(result: HistoryResult) -> str:
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


def criterion_text(result: CriterionResult) -> str:
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
        ("improvement of A", f"{result.improvement:+.4g} ({result.direction} is better)"),
    ]
    if result.threshold is not None:
        rows.append(("threshold δ", f"{result.threshold:g}"))
    if result.alpha is not None:
        defined = result.p_value is not None
        rows.append(("t statistic", f"{result.statistic:.4g}" if defined else "undefined (no variance)"))
        p_value = f"{result.p_value:.4g} vs {ALPHA} = {result.alpha:g}" if defined else "undefined"
        rows.append(("one-sided p-value", p_value))
    lines = [f"{result.criterion}: A against B ({PAPER} §4.1-4.2)", *aligned(rows)]
    lines += ["", paragraph(result.conclusion)]
    return "\n".join(lines)
