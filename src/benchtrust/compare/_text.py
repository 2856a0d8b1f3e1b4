"""The words about comparing pipelines under the sources of variance (Bouthillier et al. 2021): the
readable summaries of P(A > B), of the runs it needs, of the criteria's error rates and of a benchmark's
history, and their verdicts in plain words, as ``benchtrust compare``, the HTML report and ``str(result)``
show them.
"""

from __future__ import annotations

import numpy as np

from benchtrust._words import ALPHA, BETA, GAMMA, SIGMA, paragraph

__all__ = [
    "CRITERION_WORDS",
    "error_rates_text",
    "error_rates_verdict",
    "history_text",
    "history_verdict",
    "outperform_text",
    "sample_size_text",
]

_PAPER = "Bouthillier et al. 2021"

#: The criteria of §4.2 (Fig. 6), in words.
CRITERION_WORDS = {
    "single_point": "single point",
    "average": "average",
    "probability_of_outperforming": "P(A > B) test",
}


def outperform_text(result, paired_runs, seed) -> str:
    """The readable summary of P(A > B) (paper §4.1, C.4-C.6): the runs, the pairs, the interval, the
    decision in words.

    Parameters
    ----------
    result : OutperformResult
    paired_runs : PairedRuns
        The runs of A and B the result was computed from, as read from their file.
    seed : int
        The seed of the random pairing, named when the runs were not paired by a column.

    Returns
    -------
    str
        Lines without a trailing newline; the decision wrapped to 100 characters.
    """
    low, high = result.ci
    level = f"{100 * (1 - result.alpha):g}% CI"
    a, b = paired_runs.a, paired_runs.b
    if paired_runs.paired:
        pairs = f"{result.n_pairs}, paired by {paired_runs.pair_by!r} (C.2)"
    else:
        pairs = f"{result.n_pairs}, paired at random with seed {seed} (C.4)"
        if a.size != b.size:
            pairs += f"; {abs(a.size - b.size)} extra runs left out"
    better = "lower" if result.lower_is_better else "higher"
    rows = [
        ("A", f"{paired_runs.names[0]}: {a.size} runs, mean {a.mean():.6g}"),
        ("B", f"{paired_runs.names[1]}: {b.size} runs, mean {b.mean():.6g}"),
        ("pairs", pairs),
        ("wins, ties, losses", f"{result.wins}, {result.ties}, {result.losses} ({better} is better)"),
        ("P(A > B)", f"{result.p_a_beats_b:.4f}"),
        (level, f"[{low:.4f}, {high:.4f}] (percentile bootstrap, {result.method})"),
        ("significant", f"{'yes' if result.significant else 'no'}: lower end {low:.4f} vs 0.5"),
        (
            "meaningful",
            f"{'yes' if result.meaningful else 'no'}: upper end {high:.4f} vs {GAMMA} = {result.gamma:g}",
        ),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [f"P(A > B) from {paired_runs.source} ({_PAPER} §4.1, C.4-C.6)"]
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


def _rates(values, estimators) -> str:
    return " / ".join("-" if values[e] is None else f"{values[e]:.3f}" for e in estimators)


def error_rates_text(result) -> str:
    """The readable summary of the simulated detection rates (paper §4.2, Fig. 6): a table by the true
    P(A > B), then the mean false-positive and false-negative rates of each criterion.

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
                *(_rates({e: by[e][k] for e in estimators}, estimators) for by in result.rates.values()),
            ]
        )
    regions = result.region_rates()
    rows.append([""] * len(rows[0]))
    rows.append(["mean error rate", *("" for _ in criteria)])
    rows.append(["false positive", *(_rates(regions["false_positive"][c], estimators) for c in criteria)])
    rows.append(["false negative", *(_rates(regions["false_negative"][c], estimators) for c in criteria)])
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    lines = [
        f'rate of concluding "A is better than B" ({_PAPER} §4.2, Fig. 6), {which}:',
        f"  {SIGMA} = {result.sigma:g}, k = {result.runs} runs each, {result.simulations} simulations per "
        f"point, δ = {result.delta:.6g}, {GAMMA} = {result.gamma:g}, {ALPHA} = {result.alpha:g}",
        "",
    ]
    lines += [
        ("  " + "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))).rstrip() for row in rows
    ]
    lines += [
        "",
        paragraph(
            f"A detection is a false positive where the true P(A > B) <= 0.5 and a missed detection a false "
            f"negative where it is > {GAMMA} (the means above weigh the simulated probabilities of each "
            "region equally; '-': none simulated there)."
        ),
    ]
    return "\n".join(lines)


def error_rates_verdict(result) -> str:
    """The verdict on the simulated criteria in plain words (paper §4.2, Fig. 6): which criterion has the
    lowest false-positive rate, summed over the estimators simulated.

    Parameters
    ----------
    result : ErrorRatesResult

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    criteria = list(result.rates)
    false_positive = result.region_rates()["false_positive"]
    best = min(criteria, key=lambda c: sum(v for v in false_positive[c].values() if v is not None))
    return (
        f"Of the criteria simulated, the {CRITERION_WORDS[best]} has the lowest false-positive rate "
        f"(where the true P(A > B) <= 0.5); a false negative is a missed detection where it is > {GAMMA}."
    )


def history_text(result, file=None) -> str:
    """The readable summary of a benchmark's history (paper §2.2, §3.1, Fig. 3): each result, its increment
    over the best before it and the threshold the noise sets, then the verdict.

    Parameters
    ----------
    result : HistoryResult
    file : str or os.PathLike, optional
        The history file, named in the first line.

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
                str(result.dates[k]) if result.dates.dtype.kind == "M" else f"{result.dates[k]:g}",
                f"{result.scores[k]:.4f}",
                f"{result.sigma[k]:.4f}",
                number(result.prior_best[k]),
                number(result.increments[k]),
                number(result.thresholds[k]),
                "" if first else ("yes" if result.significant[k] else "no"),
            )
        )
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    source = (
        f"binomial {SIGMA} = sqrt(p(1 - p)/n), n = {result.test_size}"
        if result.test_size is not None
        else f"{SIGMA} = {result.sigma[0]:g}"
    )
    better = "lower" if result.lower_is_better else "higher"
    what = "history" if file is None else f"history of {file}"
    lines = [
        paragraph(f"{what} ({_PAPER} §2.2, §3.1, Fig. 3): {source}; {better} is better"),
        f"  an increment exceeds the noise when above z = {result.z:.3f} (one-sided, "
        f"{ALPHA} = {result.alpha:g}) times sqrt({SIGMA}² + {SIGMA}_prior²)",
        "",
    ]
    lines += [
        ("  " + "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))).rstrip() for row in rows
    ]
    lines += ["", paragraph(history_verdict(result))]
    return "\n".join(lines)


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
    compared = max(result.scores.size - 1, 0)
    significant = int(result.significant.sum())
    return (
        f"{significant} of {compared} results improve on the best before them by more than the noise of "
        "the benchmark; the others are within what another test set or seed could give."
    )
