"""One :class:`~benchtrust._report.html.Section` per kind of analysis result: the question, the verdict in
plain words (the sentences of the command's readable output), a compact table of numbers, the plot where
the command has one, the assumptions made and the paper section the result comes from.

The words about each result (its verdict, the names of its settings) come from the subpackage's
``_text`` module, the same words the command prints and ``str(result)`` gives. The subpackages are imported
inside the functions, so importing this module stays cheap.
"""

from __future__ import annotations

import os

from benchtrust._report.html import Section, svg_of
from benchtrust._words import ALPHA, EPSILON, GAMMA, RHO, SIGMA, TIMES

__all__ = [
    "batch_section",
    "best_of_section",
    "compare_example_section",
    "error_rates_section",
    "history_section",
    "kfold_section",
    "leaderboard_section",
    "multiclass_section",
    "multiverse_section",
    "outperform_section",
    "sample_size_section",
    "test_set_section",
]

#: The four questions, as the command groups ask them.
SOTA_QUESTION = "Is the top of a leaderboard the state of the art, or the luck of many tries?"
CONSISTENCY_QUESTION = "Could these reported scores have come from the experiment described?"
COMPARE_QUESTION = "Is A really better than B, given all the sources of variance?"
MULTIVERSE_QUESTION = "Would the ranking survive other reasonable design and analysis choices?"

_SOTA = "Møllersen & Holsbø, state of the art under multiplicity"
_CONSISTENCY = "Fazekas & Kovács, testing the consistency of performance scores"
_COMPARE = "Bouthillier et al. 2021, accounting for variance in machine learning benchmarks"
_MULTIVERSE = "Nießl et al. 2022, over-optimism in benchmark studies and the multiplicity of options"


def _inputs(*names) -> tuple[str, ...]:
    return tuple(os.fspath(name) for name in names if name is not None)


def _interval(ci, digits=4) -> str:
    return f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _level(alpha) -> str:
    return f"{100 * (1 - alpha):g}%"


# --- sota ---------------------------------------------------------------------------------------------------


def best_of_section(result, *, accuracy: str | None = None, inputs=()) -> Section:
    """The section of a :class:`~benchtrust.sota.BestOfResult` (``sota best-of``), with the paper's Fig. 1.

    Parameters
    ----------
    result : BestOfResult
    accuracy : str, optional
        The true accuracy (or AUC) as the user gave it, such as ``"0.9"`` or ``"0.875 to 0.9"``.
    inputs : sequence of str
        The input files (``--accuracies``).
    """
    from benchtrust.sota._text import best_of_verdict

    auc = result.metric == "auc"
    n = result.test_size
    low, high = result.ci
    rows = [
        ("expected best E", f"{result.expected_max:.6f}"),
        ("SD of the best", f"{result.sd_max:#.4g}"),
        (f"{_level(result.alpha)} central interval of the best", _interval(result.ci, 6)),
    ]
    if not auc:
        rows.append(("items right, interval", f"{round(low * n)} to {round(high * n)} of {n}"))
        rows.append(("classifiers dropped (Eq. 12)", f"{result.dropped}"))
    shown = accuracy if accuracy is not None else f"{result.top_score:g}"
    assumptions = [
        ("model", f"{result.model} ({result.method})"),
        ("classifiers m", f"{result.classifiers}"),
        ("test size n", f"{n}" + (f" ({result.positives} positive)" if auc else "")),
        ("true AUC" if auc else "true accuracy θ", shown),
        (f"correlation {RHO}", f"{result.correlation:g}"),
    ]
    if result.correlation > 0:
        reference = "fixed: exactly θ0·n items right" if result.fixed_reference else "random"
        assumptions.append(("reference θ0", f"{result.reference_accuracy:g} ({reference})"))
    assumptions.append((f"{ALPHA}", f"{result.alpha:g}"))
    figure = None
    if not auc:
        from benchtrust.sota import plot_best_of

        figure = svg_of(lambda path: plot_best_of(result, path))
    return Section(
        title=SOTA_QUESTION,
        analysis="sota best-of",
        verdict=best_of_verdict(result, accuracy),
        columns=("quantity", "value"),
        rows=tuple(rows),
        figure_svg=figure,
        assumptions=tuple(assumptions),
        source=f"{_SOTA}, {'§5.2.1' if auc else '§3-4, Table 2, Fig. 1'}",
        inputs=_inputs(*inputs),
    )


def leaderboard_section(result, *, file=None, top=()) -> Section:
    """The section of a :class:`~benchtrust.sota.LeaderboardResult` (``sota leaderboard``), with Fig. 7.

    Parameters
    ----------
    result : LeaderboardResult
    file : str, optional
        The leaderboard file, named in the inputs.
    top : sequence of (str, str)
        The top of the board, (team name, score) pairs as from :func:`benchtrust.sota._read.top_teams`;
        shown as a table.
    """
    from benchtrust.sota import plot_leaderboard
    from benchtrust.sota._text import leaderboard_verdict

    auc = result.metric == "auc"
    level = _level(result.alpha)
    top_score, plug, crop, cons = result.observed_max, result.plugin, result.cropped, result.conservative
    rows = [
        ("observed best", f"{top_score:.4f}", f"{result.teams_at_max} team(s) at it"),
        (
            f"no multiplicity, {level} interval",
            _interval(result.naive_ci),
            f"{result.teams_in_naive_ci} teams in it",
        ),
        ("plug-in: expected best", f"{plug.expected_max:.4f}", f"{level} {_interval(plug.ci)}"),
        ("cropping: SOTA", f"{crop.sota:.4f}", f"{level} {_interval(crop.ci)}, {crop.teams_above} above"),
        (
            "conservative: SOTA",
            f"{cons.sota:.4f}",
            f"{level} {_interval(cons.ci)}, {cons.teams_above} above",
        ),
    ]
    paragraphs = leaderboard_verdict(result)
    excluded = ", ".join(f"{count} {reason}" for reason, count in result.excluded.items())
    assumptions = [
        ("metric", result.metric),
        ("test size n", f"{result.test_size}" + (f" ({result.positives} positive)" if auc else "")),
        ("teams used", f"{result.teams} (excluded: {excluded})"),
    ]
    if not auc:
        assumptions.append((f"dependence model: correlation {RHO}", f"{result.correlation:g}"))
    assumptions += [("bootstrap", f"{result.bootstrap}"), (ALPHA, f"{result.alpha:g}")]
    tables = ()
    if top:
        tables = (
            (
                "Top of the board",
                ("rank", "team", "score"),
                tuple((str(k + 1), *t) for k, t in enumerate(top)),
            ),
        )
    figure = svg_of(lambda path: plot_leaderboard(result, path))
    return Section(
        title=SOTA_QUESTION,
        analysis="sota leaderboard",
        verdict=paragraphs[0],
        notes=tuple(paragraphs[1:]),
        columns=("estimate", "value", "detail"),
        rows=tuple(rows),
        tables=tables,
        figure_svg=figure,
        assumptions=tuple(assumptions),
        source=f"{_SOTA}, §5, Table 3, Fig. 7",
        inputs=_inputs(file),
    )


# --- consistency --------------------------------------------------------------------------------------------


def _score_rows(reported, typed) -> tuple:
    """Rows (score, reported, ε, interval of true values) of the reported scores."""
    from benchtrust.consistency import score

    written = {score(name).name: (name, value) for name, value in (typed or {}).items()}
    rows = []
    for item in reported:
        name, value = written.get(item.score, (item.score, f"{item.value:g}"))
        label = item.score if name.lower() == item.score else f"{item.score} ({name})"
        rows.append((label, value, f"{item.eps:g}", f"[{item.low:.6g}, {item.high:.6g}]"))
    return tuple(rows)


_SCORE_COLUMNS = ("score", "reported", EPSILON, "interval of true values")


def _epsilon(reported, rounding) -> tuple:
    """The ε assumption: each score's ε, given (`rounding` None) or from its decimals as written."""
    eps = ", ".join(f"{item.score} {item.eps:g}" for item in reported)
    how = f"from the decimals as written ({rounding})" if rounding else "as given"
    return (f"numerical uncertainty {EPSILON}", f"{eps}: {how}; intervals widened outward by a tolerance")


def test_set_section(result, *, typed=None, rounding=None) -> Section:
    """The section of a test-set result (``consistency test-set``).

    Parameters
    ----------
    result : TestSetResult
    typed : dict of str to str, optional
        The scores as the user wrote them (name -> text), shown instead of the floats.
    rounding : str, optional
        How the scores were shortened, for ε from the decimals (``"round"`` or ``"floor-or-ceil"``).
    """
    from benchtrust.consistency._text import test_set_verdict

    where = f"{result.positives} positives and {result.negatives} negatives"
    return Section(
        title=CONSISTENCY_QUESTION,
        analysis="consistency test-set",
        verdict=_capital(test_set_verdict(result)),
        columns=_SCORE_COLUMNS,
        rows=_score_rows(result.scores, typed),
        assumptions=(
            ("experiment", f"one test set of {where}"),
            _epsilon(result.scores, rounding),
            *((("β of F-beta", f"{result.beta:g}"),) if result.beta is not None else ()),
        ),
        source=f"{_CONSISTENCY}, §3",
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def kfold_section(result, *, typed=None, rounding=None, bounds=None) -> Section:
    """The section of a k-fold result (``consistency kfold``).

    Parameters
    ----------
    result : KFoldResult
    typed : dict of str to str, optional
        The scores as written.
    rounding : str, optional
        How the scores were shortened.
    bounds : dict, optional
        The reported smallest and largest fold scores, {name: (min, max)}.
    """
    from benchtrust.consistency._text import AGGREGATION_WORDS, FOLDING_WORDS, kfold_experiment, kfold_verdict

    assumptions = [
        ("experiment", kfold_experiment(result)),
        ("aggregation", AGGREGATION_WORDS[result.aggregation]),
    ]
    if result.aggregation == "mos":
        assumptions.append(("folding", FOLDING_WORDS[result.folding]))
        assumptions.append(("fold configurations tried", f"{result.configurations_tested}"))
    for name, (low, high) in (bounds or {}).items():
        assumptions.append(("fold bounds", f"every fold's {name} from {low} to {high} (Eq. 10)"))
    assumptions.append(_epsilon(result.scores, rounding))
    section = "§4.2" if result.aggregation == "som" else "§4.3-4.4"
    return Section(
        title=CONSISTENCY_QUESTION,
        analysis="consistency kfold",
        verdict=_capital(kfold_verdict(result)),
        columns=_SCORE_COLUMNS,
        rows=_score_rows(result.scores, typed),
        assumptions=tuple(assumptions),
        source=f"{_CONSISTENCY}, {section}",
    )


def multiclass_section(result, *, typed=None, rounding=None) -> Section:
    """The section of a multiclass result (``consistency multiclass``)."""
    from benchtrust.consistency._text import multiclass_verdict

    counts = result.class_counts
    how = (
        "micro-averaged: the scores of the pooled one-vs-rest confusion matrix"
        if result.average == "micro"
        else "macro-averaged: the mean of the classes' one-vs-rest scores"
    )
    return Section(
        title=CONSISTENCY_QUESTION,
        analysis="consistency multiclass",
        verdict=_capital(multiclass_verdict(result)),
        columns=_SCORE_COLUMNS,
        rows=_score_rows(result.scores, typed),
        assumptions=(
            ("experiment", f"one test set of {len(counts)} classes of {', '.join(map(str, counts))} items"),
            ("averaging", how),
            _epsilon(result.scores, rounding),
        ),
        source=f"{_CONSISTENCY}, {'§4.2' if result.average == 'micro' else '§4.3'} (classes as folds)",
    )


def batch_section(result, *, listed: int = 50) -> Section:
    """The section of a batch of claims (``consistency batch``): counts, then the rows not consistent."""
    from benchtrust.consistency._text import batch_verdict

    paragraphs = batch_verdict(result)
    counts = result.counts
    total = len(result.rows)
    summary = ", ".join(f"{counts[v]} {v}" for v in ("consistent", "inconsistent", "error"))
    rows = [row for row in result.rows if row["verdict"] != "consistent"] if total > listed else result.rows
    notes = list(paragraphs[1:])
    if len(rows) > listed or len(rows) < total:
        notes.append(f"{total} rows: {summary}; the table lists {min(len(rows), listed)} of them.")
    return Section(
        title=CONSISTENCY_QUESTION,
        analysis="consistency batch",
        verdict=paragraphs[0] if paragraphs else f"{total} claims: {summary}.",
        notes=tuple(notes),
        columns=("line", "id", "check", "verdict", "message"),
        rows=tuple(
            (str(row["line"]), str(row["id"] or ""), row["check"], row["verdict"], row["message"])
            for row in rows[:listed]
        ),
        assumptions=(("each row", "one test set (§3), or k-fold cross-validation when it gives folds (§4)"),),
        source=f"{_CONSISTENCY}, §3-4",
        inputs=_inputs(result.source),
    )


# --- compare ------------------------------------------------------------------------------------------------


def outperform_section(result, *, a="A", b="B", runs_a=None, runs_b=None, pair_by=None, seed=None, file=None):
    """The section of an :class:`~benchtrust.compare.OutperformResult` (``compare outperform``).

    Parameters
    ----------
    result : OutperformResult
    a, b : str
        The names of the algorithms, as in the file.
    runs_a, runs_b : int, optional
        Runs of each.
    pair_by : str, optional
        The column the runs were paired by.
    seed : int, optional
        The seed of the random pairing.
    file : str, optional
        The runs file.
    """
    better = "lower" if result.lower_is_better else "higher"
    rows = [
        ("A", a, "" if runs_a is None else f"{runs_a} runs"),
        ("B", b, "" if runs_b is None else f"{runs_b} runs"),
        (
            "wins, ties, losses of A",
            f"{result.wins}, {result.ties}, {result.losses}",
            f"{result.n_pairs} pairs",
        ),
        ("P(A > B)", f"{result.p_a_beats_b:.4f}", ""),
        (f"{_level(result.alpha)} interval", _interval(result.ci), f"percentile bootstrap, {result.method}"),
        ("significant", "yes" if result.significant else "no", f"lower end {result.ci[0]:.4f} vs 0.5"),
        ("meaningful", "yes" if result.meaningful else "no", f"upper end {result.ci[1]:.4f} vs {GAMMA}"),
    ]
    if result.paired and pair_by:
        pairing = f"paired by column {pair_by!r} (C.2)"
    elif result.paired:
        pairing = "paired (run i of A with run i of B, C.2)"
    else:
        pairing = "paired at random" + (f" with seed {seed}" if seed is not None else "") + " (C.4)"
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare outperform",
        verdict=result.conclusion,
        columns=("", "value", "detail"),
        rows=tuple(rows),
        assumptions=(
            (f"{GAMMA}, the smallest meaningful P(A > B)", f"{result.gamma:g}"),
            (ALPHA, f"{result.alpha:g}"),
            ("pairing", pairing),
            ("better scores", better),
        ),
        source=f"{_COMPARE}, §4.1, appendix C.4-C.6",
        inputs=_inputs(file),
    )


def sample_size_section(runs, *, gamma, alpha, beta) -> Section:
    """The section of ``compare sample-size``: the runs the test of P(A > B) needs."""
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare sample-size",
        verdict=(
            f"{runs} runs of each pipeline detect P(A > B) >= {GAMMA} = {gamma:g} with {ALPHA} = {alpha:g} "
            f"and power {100 * (1 - beta):g}%."
        ),
        columns=("quantity", "value"),
        rows=(("runs of each pipeline", f"{runs}"),),
        assumptions=((GAMMA, f"{gamma:g}"), (ALPHA, f"{alpha:g}"), ("β", f"{beta:g}")),
        source=f"{_COMPARE}, appendix C.3 (Noether 1987)",
    )


def error_rates_section(result) -> Section:
    """The section of an :class:`~benchtrust.compare.ErrorRatesResult` (``compare error-rates``), Fig. 6."""
    from benchtrust.compare import plot_error_rates
    from benchtrust.compare._text import CRITERION_WORDS, error_rates_verdict

    estimators = result.estimators
    criteria = list(result.rates)
    regions = result.region_rates()

    def rates(values):
        return " / ".join("-" if values[e] is None else f"{values[e]:.3f}" for e in estimators)

    rows = [
        (CRITERION_WORDS[c], rates(regions["false_positive"][c]), rates(regions["false_negative"][c]))
        for c in criteria
    ]
    assumptions = [
        (f"{SIGMA}, SD of one run", f"{result.sigma:g}"),
        ("runs k of each algorithm", f"{result.runs}"),
        ("simulations per point", f"{result.simulations}"),
        ("δ of the single-point and average criteria", f"{result.delta:.6g}"),
        (GAMMA, f"{result.gamma:g}"),
        (ALPHA, f"{result.alpha:g}"),
        ("estimators", " / ".join(estimators)),
    ]
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare error-rates",
        verdict=error_rates_verdict(result),
        columns=("criterion", "mean false-positive rate", "mean false-negative rate"),
        rows=tuple(rows),
        figure_svg=svg_of(lambda path: plot_error_rates(result, path)),
        assumptions=tuple(assumptions),
        source=f"{_COMPARE}, §4.2, Fig. 6",
    )


def history_section(result, *, file=None) -> Section:
    """The section of a :class:`~benchtrust.compare.HistoryResult` (``compare history``), Fig. 3."""
    import numpy as np

    from benchtrust.compare import plot_history
    from benchtrust.compare._text import history_verdict

    def number(value):
        return "" if np.isnan(value) else f"{value:.4f}"

    rows = []
    for k in range(result.scores.size):
        date = str(result.dates[k]) if result.dates.dtype.kind == "M" else f"{result.dates[k]:g}"
        exceeds = "" if k == 0 else ("yes" if result.significant[k] else "no")
        rows.append(
            (
                date,
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
        verdict=history_verdict(result),
        columns=("date", "score", "increment", "threshold", "exceeds the noise"),
        rows=tuple(rows),
        figure_svg=svg_of(lambda path: plot_history(result, path)),
        assumptions=(
            (SIGMA, sigma),
            ("test of each increment", f"one-sided z-test, {ALPHA} = {result.alpha:g}, z = {result.z:.3f}"),
            ("better scores", "lower" if result.lower_is_better else "higher"),
        ),
        source=f"{_COMPARE}, §2.2, §3.1, Fig. 3",
        inputs=_inputs(file),
    )


def compare_example_section(example) -> Section:
    """The section of the bundled scikit-learn comparison (``compare._example.sklearn_example``)."""
    import numpy as np

    from benchtrust.compare._example import SOURCES

    result = example.outperform
    a, b = example.names
    rows = []
    for source in (*SOURCES, "none"):
        rows.append(
            (
                f"SD of the accuracy, {source} randomised",
                *(f"{np.sqrt(example.variances[name].variances[source]):.4f}" for name in example.names),
            )
        )
    scores_a, scores_b = np.array(example.scores_a), np.array(example.scores_b)
    rows += [
        ("SD of the accuracy, all randomised", f"{scores_a.std(ddof=1):.4f}", f"{scores_b.std(ddof=1):.4f}"),
        ("mean accuracy", f"{scores_a.mean():.4f}", f"{scores_b.mean():.4f}"),
    ]
    enough = "enough" if example.runs >= example.runs_needed else "too few for the test's stated power"
    return Section(
        title=COMPARE_QUESTION,
        analysis="compare example",
        verdict=result.conclusion,
        notes=(
            f"P(A > B) = {result.p_a_beats_b:.4f}, {_level(result.alpha)} interval {_interval(result.ci)} "
            f"({result.method}); A wins {result.wins}, ties {result.ties}, loses {result.losses} of "
            f"{result.n_pairs} pairs.",
            f"Runs needed (C.3): {example.runs_needed}; this study used {example.runs}, {enough}.",
        ),
        columns=("", f"A = {a}", f"B = {b}"),
        rows=tuple(rows),
        assumptions=(
            ("data", example.dataset),
            ("runs", f"{example.runs} paired runs (same split and seed for run i of A and B, C.2)"),
            ("sources of variance randomised", ", ".join(SOURCES)),
            (GAMMA, f"{result.gamma:g}"),
            (ALPHA, f"{result.alpha:g}"),
            ("study seed", f"{example.seed}"),
        ),
        source=f"{_COMPARE}, §2-4, appendix B, C.1-C.6",
        inputs=("scikit-learn's breast cancer data (bundled with scikit-learn)",),
    )


# --- multiverse ---------------------------------------------------------------------------------------------


def multiverse_section(result, *, what="", inputs=()) -> Section:
    """The section of a multiverse :class:`~benchtrust.multiverse.Study`, with the rank distribution (Fig. 2).

    Parameters
    ----------
    result : Study
    what : str
        The results studied, in words (a file name, or the bundled Herrmann et al. results).
    inputs : sequence of str
        The input files.
    """
    import numpy as np

    from benchtrust.multiverse._plot import plot_rank_distribution
    from benchtrust.multiverse._text import share, study_verdict

    mv = result.multiverse
    default = mv.index(mv.defaults)
    order = np.argsort(mv.ranks[default], kind="stable")
    top = mv.ranks.min(axis=1, keepdims=True) == mv.ranks
    rows = tuple(
        (
            mv.methods[m],
            f"{mv.ranks[default, m]:g}",
            f"{result.distribution.best[m]:g}",
            f"{result.distribution.worst[m]:g}",
            share(top[:, m].mean()),
            f"{result.stepwise.best[mv.methods[m]]:g}",
        )
        for m in order
    )
    sizes = f" {TIMES} ".join(f"{len(mv.options[c])} {c}" for c in mv.choices)
    assumptions = [
        ("combinations", f"{len(mv.codes)} ({sizes})"),
        ("defaults", ", ".join(f"{c} = {mv.defaults[c]}" for c in mv.choices)),
        ("step-wise order", " → ".join(result.stepwise.order)),
    ]
    if result.unfolding is not None:
        u = result.unfolding
        assumptions.append(
            (
                "unfolding",
                f"{u.conditionality}, {u.row_points.shape[1]} dimensions, penalty strength "
                f"{u.penalty_strength:g}, range {u.penalty_range:g}; stress {u.stress:.4f}"
                + ("" if u.converged else " (not converged)"),
            )
        )
    impact = [
        f"Changing {row.choice} alone changes the ranking in {row.ranking_changed:.0%} of pairs and the "
        f"winner in {row.winner_changed:.0%}."
        for row in result.impact.table[result.impact.table["from_option"] == "*"].itertuples()
    ]
    if result.distances is not None:
        medians = result.distances.groupby("choice", sort=False)["distance"].median()
        impact.append(
            "Median distance between the ideal points of the default and an alternative option (Fig. 5): "
            + ", ".join(f"{choice} {value:.3f}" for choice, value in medians.items())
            + "."
        )
    if result.permutation is not None:
        impact.append(f"Permutation test of the unfolding: {result.permutation.verdict}")
    if result.subsample is not None:
        impact.append(f"Subsamples of the data sets (Fig. 6): {result.subsample}")
    fits = (("unfolding", result.unfolding), ("subsample unfolding", result.subsample_unfolding))
    for name, fitted in fits:
        if fitted is not None and fitted.coincident_columns():
            impact.append(
                f"The {name} is degenerate: {fitted.coincident_columns()} of {len(fitted.column_points)} "
                "methods (nearly) coincide with another, so its map does not separate them."
            )
    figure = svg_of(lambda path: plot_rank_distribution(mv.ranks, mv.methods, path))
    return Section(
        title=MULTIVERSE_QUESTION,
        analysis="multiverse",
        verdict=study_verdict(result),
        notes=tuple(impact),
        columns=("method", "rank at the defaults", "best rank", "worst rank", "first in", "step-wise best"),
        rows=rows,
        figure_svg=figure,
        assumptions=tuple(assumptions),
        source=f"{_MULTIVERSE}, §3-4, Fig. 2-6",
        inputs=_inputs(*inputs) or ((what,) if what else ()),
    )
