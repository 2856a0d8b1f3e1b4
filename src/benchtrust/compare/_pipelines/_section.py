"""The HTML sections of comparing pipelines under the sources of variance (Bouthillier et al. 2021): one
:class:`~benchtrust._html.Section` per kind of result, with its question, verdict, numbers, plot,
assumptions and paper section.

The same builder serves the report (``benchtrust compare ... --report``, ``benchtrust report``) and a
notebook, through each result's ``_repr_html_``. The words come from :mod:`._text` (and
``_datasets_text``, ``_study_text``), the same words the command prints and ``str(result)`` gives.
"""

from __future__ import annotations

import numpy as np

from benchtrust._html import Section, input_names, svg_of
from benchtrust._words import ALPHA, BETA, GAMMA, RHO, SIGMA, interval_text, level_text
from benchtrust.compare._pipelines import _datasets_text, _study_text, _text

__all__ = [
    "COMPARE_QUESTION",
    "criterion_section",
    "dataset_test_section",
    "error_rates_section",
    "estimate_section",
    "everywhere_section",
    "history_section",
    "outperform_section",
    "pairwise_section",
    "runs_section",
    "sample_size_section",
    "source_variances_section",
    "test_set_variance_section",
]

#: The question ``benchtrust compare`` answers.
COMPARE_QUESTION = "Is A really better than B, given all the sources of variance?"

_COMPARE = "Bouthillier et al. 2021, accounting for variance in machine learning benchmarks"

#: Most runs of a study a section lists.
_LISTED_RUNS = 50


def _better(lower_is_better) -> tuple[str, str]:
    return ("better scores", "lower" if lower_is_better else "higher")


def outperform_section(result, *, file=None) -> Section:
    """The section of an :class:`~benchtrust.compare.OutperformResult` (``compare outperform``).

    Parameters
    ----------
    result : OutperformResult
        Its names, runs, pairing and seed are shown.
    file : str, optional
        The runs file as the user named it (default: the result's ``source``).
    """
    rows = [
        ("A", result.names[0], f"{result.runs_a} runs"),
        ("B", result.names[1], f"{result.runs_b} runs"),
        (
            "wins, ties, losses of A",
            f"{result.wins}, {result.ties}, {result.losses}",
            f"{result.n_pairs} pairs",
        ),
        ("P(A > B)", f"{result.p_a_beats_b:.4f}", ""),
        (
            f"{level_text(result.alpha)} interval",
            interval_text(result.ci),
            f"percentile bootstrap, {result.method}",
        ),
        ("significant", "yes" if result.significant else "no", f"lower end {result.ci[0]:.4f} vs 0.5"),
        ("meaningful", "yes" if result.meaningful else "no", f"upper end {result.ci[1]:.4f} vs {GAMMA}"),
        (
            "runs needed (C.3)",
            f"{result.runs_needed}",
            f"{result.n_pairs} pairs, " + ("enough" if result.enough_runs else "too few to conclude"),
        ),
    ]
    if result.paired and result.pair_by is not None:
        pairing = f"paired by column {result.pair_by!r} (C.2)"
    elif result.paired:
        pairing = "paired (run i of A with run i of B, C.2)"
    else:
        seed = "" if result.seed is None else f" with seed {result.seed}"
        pairing = f"paired at random{seed} (C.4)"
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare outperform",
        verdict=result.verdict,
        columns=("", "value", "detail"),
        rows=tuple(rows),
        assumptions=(
            (f"{GAMMA}, the smallest meaningful P(A > B)", f"{result.gamma:g}"),
            (ALPHA, f"{result.alpha:g}"),
            (f"{BETA}, of the runs needed", f"{result.beta:g}"),
            ("pairing", pairing),
            _better(result.lower_is_better),
        ),
        source=f"{_COMPARE}, §4.1, appendix C.3-C.6",
        inputs=input_names(file if file is not None else result.source),
    )


def sample_size_section(runs, *, gamma, alpha, beta) -> Section:
    """The section of ``compare sample-size``: the runs the test of P(A > B) needs (C.3).

    Parameters
    ----------
    runs : int
        N, as :func:`~benchtrust.compare.sample_size` gives it.
    gamma, alpha, beta : float
        γ, α and β it was computed for.
    """
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare sample-size",
        verdict=(
            f"{runs} runs of each pipeline detect P(A > B) >= {GAMMA} = {gamma:g} with {ALPHA} = {alpha:g} "
            f"and power {100 * (1 - beta):g}%."
        ),
        columns=("quantity", "value"),
        rows=(("runs of each pipeline", f"{runs}"),),
        assumptions=((GAMMA, f"{gamma:g}"), (ALPHA, f"{alpha:g}"), (BETA, f"{beta:g}")),
        source=f"{_COMPARE}, appendix C.3 (Noether 1987)",
    )


def error_rates_section(result) -> Section:
    """The section of an :class:`~benchtrust.compare.ErrorRatesResult` (``compare error-rates``), Fig. 6:
    each criterion's errors at the edges of the regions and averaged over the grid."""
    from benchtrust.compare._pipelines._plot import plot_error_rates

    header, *rows = _text.error_rates_rows(result)
    assumptions = [
        (f"{SIGMA}, SD of one run", f"{result.sigma:g}"),
        ("runs k of each algorithm", f"{result.runs}"),
        ("simulations per point", f"{result.simulations}"),
        ("δ of the single-point and average criteria", f"{result.delta:.6g}"),
        (GAMMA, f"{result.gamma:g}"),
        (ALPHA, f"{result.alpha:g}"),
        ("estimators", " / ".join(result.estimators)),
    ]
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare error-rates",
        verdict=result.verdict,
        notes=(_text.error_rates_reading(result),),
        columns=header,
        rows=tuple(rows),
        figure_svg=svg_of(plot_error_rates(result)),
        assumptions=tuple(assumptions),
        source=f"{_COMPARE}, §4.1-4.2, Fig. 6",
    )


def history_section(result, *, file=None) -> Section:
    """The section of a :class:`~benchtrust.compare.HistoryResult` (``compare history``), Fig. 3.

    Parameters
    ----------
    result : HistoryResult
    file : str, optional
        The history file as the user named it (default: the result's ``source``).
    """
    from benchtrust.compare._pipelines._plot import plot_history

    def number(value):
        return "" if np.isnan(value) else f"{value:.4f}"

    rows = []
    for k in range(result.scores.size):
        exceeds = "" if k == 0 else ("yes" if result.significant[k] else "no")
        rows.append(
            (
                _text.history_date(result, k),
                f"{result.scores[k]:.4f}",
                number(result.increments[k]),
                number(result.thresholds[k]),
                exceeds,
            )
        )
    sigma = (
        f"binomial: sqrt(p(1 - p)/n), n = {result.test_size}"
        if result.test_size is not None
        else f"{result.sigma[0]:g}"
    )
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare history",
        verdict=result.verdict,
        columns=("date", "score", "increment", "threshold", "exceeds the noise"),
        rows=tuple(rows),
        figure_svg=svg_of(plot_history(result)),
        assumptions=(
            (SIGMA, sigma),
            ("test of each increment", f"one-sided z-test, {ALPHA} = {result.alpha:g}, z = {result.z:.3f}"),
            _better(result.lower_is_better),
        ),
        source=f"{_COMPARE}, §2.2, §3.1, Fig. 3",
        inputs=input_names(file if file is not None else result.source),
    )


def criterion_section(result) -> Section:
    """The section of a :class:`~benchtrust.compare.CriterionResult`: single point, average difference or
    t-test (paper §4.1-4.2)."""
    rows = [
        ("runs of A, of B", f"{result.n_a}, {result.n_b}"),
        ("improvement of A", f"{result.improvement:+.4g}"),
    ]
    assumptions = [_better(result.lower_is_better)]
    if result.threshold is not None:
        assumptions.append(("threshold δ", f"{result.threshold:g}"))
    if result.alpha is not None:
        defined = result.p_value is not None
        rows.append(("t statistic", f"{result.statistic:.4g}" if defined else "undefined"))
        rows.append(("one-sided p-value", f"{result.p_value:.4g}" if defined else "undefined"))
        assumptions.append((ALPHA, f"{result.alpha:g}"))
    rows.append(("A is better", "yes" if result.a_is_better else "no"))
    return Section(
        title=COMPARE_QUESTION,
        analysis=f"compare {result.criterion}",
        verdict=result.verdict,
        columns=("quantity", "value"),
        rows=tuple(rows),
        assumptions=tuple(assumptions),
        source=f"{_COMPARE}, §4.1-4.2",
    )


def pairwise_section(result) -> Section:
    """The section of a :class:`~benchtrust.compare.PairwiseResult`: the matrix of P(row > column) with
    its Bonferroni-adjusted intervals (paper §6, C.5-C.6)."""
    n = len(result.names)
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare pairwise",
        verdict=result.verdict,
        columns=("P(row > column)", *result.names),
        rows=tuple(
            (result.names[i], *(_datasets_text.pairwise_cell(result, i, j) for j in range(n)))
            for i in range(n)
        ),
        notes=(f"* the row is better: lower end > 0.5 and upper end > {GAMMA}.",),
        assumptions=(
            ("paired runs of each pipeline", f"{result.runs}"),
            (GAMMA, f"{result.gamma:g}"),
            (f"{ALPHA}, family-wise", f"{result.alpha:g}"),
            (
                "interval level",
                f"{_datasets_text.pairwise_level(result)} (Bonferroni, {result.comparisons} pairs)",
            ),
        ),
        source=f"{_COMPARE}, §6, appendix C.5-C.6",
    )


def dataset_test_section(result) -> Section:
    """The section of a :class:`~benchtrust.compare.DatasetTestResult`: Wilcoxon or Friedman over data
    sets (paper §6, Demšar 2006)."""
    return Section(
        title=COMPARE_QUESTION,
        analysis=f"compare {result.test} test over data sets",
        verdict=result.verdict,
        columns=("quantity", "value"),
        rows=(("statistic", f"{result.statistic:.6g}"), ("p-value", f"{result.p_value:.4g}")),
        assumptions=(
            ("algorithms", ", ".join(result.algorithms)),
            ("data sets", ", ".join(result.datasets)),
            ("alternative", result.alternative),
        ),
        source=f"{_COMPARE}, §6 (Demšar 2006)",
    )


def everywhere_section(result) -> Section:
    """The section of an :class:`~benchtrust.compare.EverywhereResult`: better on every data set? (paper
    §6, Dror et al. 2017)."""
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare better everywhere",
        verdict=result.verdict,
        columns=("data set", "p-value", "Holm-adjusted", "rejected"),
        rows=tuple(
            (name, f"{p:.4g}", f"{adjusted:.4g}", "yes" if rejected else "no")
            for name, p, adjusted, rejected in zip(
                result.datasets, result.p_values, result.adjusted_p_values, result.rejected, strict=True
            )
        ),
        assumptions=(
            ("test on each data set", _datasets_text.EVERYWHERE_TESTS[result.test]),
            (f"{ALPHA}, family-wise", f"{result.alpha:g}"),
        ),
        source=f"{_COMPARE}, §6 (Dror et al. 2017)",
    )


def estimate_section(estimate) -> Section:
    """The section of an :class:`~benchtrust.compare.Estimate` (paper §3.2, Algorithms 1-2, Eq. 7)."""
    return Section(
        title=COMPARE_QUESTION,
        analysis=f"compare {estimate.estimator}",
        verdict=estimate.verdict,
        columns=("quantity", "value"),
        rows=tuple(_study_text.estimate_rows(estimate)),
        assumptions=((f"{RHO}", "the average correlation of runs sharing the fixed sources (Eq. 7)"),),
        source=f"{_COMPARE}, §3.2, Algorithms 1-2",
    )


def source_variances_section(result) -> Section:
    """The section of a :class:`~benchtrust.compare.SourceVariances` (paper §2.2, Fig. 1)."""
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare source variances",
        verdict=result.verdict,
        columns=("source", "variance", "std", "fraction of split"),
        rows=tuple(_study_text.source_variances_rows(result)),
        notes=("'none': nothing randomised, numerical noise.",),
        assumptions=(("runs per source", f"{result.runs}, the other sources held fixed"),),
        source=f"{_COMPARE}, §2.2, Fig. 1",
    )


def test_set_variance_section(result) -> Section:
    """The section of a :class:`~benchtrust.compare.TestSetVariance` (paper §2.2, Fig. 2)."""
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare test-set variance",
        verdict=result.verdict,
        columns=("quantity", "value"),
        rows=(
            ("measured std", f"{result.measured_std:.4g}"),
            ("binomial std", f"{result.binomial_std:.4g}"),
            ("ratio", f"{result.ratio:.3g}"),
        ),
        assumptions=(
            ("mean accuracy p", f"{result.accuracy:.4g}"),
            ("mean test size n'", f"{result.test_size:.1f}"),
            ("runs", f"{result.runs}"),
        ),
        source=f"{_COMPARE}, §2.2, Fig. 2",
    )


test_set_variance_section.__test__ = False  # its name starts with test_: not a pytest test


def runs_section(runs) -> Section:
    """The section of a study's :class:`~benchtrust.compare.Runs` (paper §2, C.1): the runs, at most 50."""
    columns, rows = _study_text.runs_rows(runs)
    notes = ()
    if len(rows) > _LISTED_RUNS:
        notes = (f"{len(rows)} runs; the table lists the first {_LISTED_RUNS} (to_frame() has them all).",)
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare study runs",
        verdict=runs.verdict,
        notes=notes,
        columns=columns,
        rows=tuple(rows[:_LISTED_RUNS]),
        assumptions=(
            ("sources", ", ".join(runs.sources)),
            ("held fixed", ", ".join(runs.fixed) or "none"),
            ("study seed", f"{runs.seed}"),
        ),
        source=f"{_COMPARE}, §2, appendix C.1",
    )
