"""``benchtrust compare`` over many tasks: one long table of method × task × run scores, several analyses.

``choose`` (which analysis fits, and why), ``aggregate`` (mean, median, IQM and optimality gap with
stratified bootstrap intervals), ``profile`` (performance profiles), ``improvement`` (the average
probability of improvement of every pair), ``rank`` (Friedman with Nemenyi or Holm, and the
critical-difference diagram), ``bayes`` (Bayesian correlated t-test or signed-rank test with a ROPE) and
``effect`` (effect sizes of one pair). Each reads the table the same way (:func:`_tasks_command` adds the
reading options to every command), calls :mod:`benchtrust.compare`, and prints the result, with ``--json``,
``--plot`` and ``--report`` where they apply. The commands join the group of :mod:`benchtrust.cli.compare`.
"""

import inspect

import typer

from benchtrust._io import InputError
from benchtrust._words import ALPHA, GAMMA, TIMES
from benchtrust.cli._common import (
    _FORCE_OPTION,
    _JSON_OPTION,
    _REPORT_OPTION,
    _check_plot_path,
    _check_report_path,
    _count,
    _count_or_zero,
    _number,
    _one_line_errors,
    _print_result,
    _probability,
    _with_progress,
    _write_report,
)
from benchtrust.cli.compare import _MAX_MEMORY_OPTION, compare_app

#: The options every command over tasks takes to read its table: name -> (annotation, typer option).
_READING = {
    "table": (
        str,
        typer.Argument(
            ...,
            metavar="SCORES.csv",
            help=f"One row per method {TIMES} task {TIMES} run (long format): method, task, run, score.",
        ),
    ),
    "direction": (
        str | None,
        typer.Option(
            None,
            "--direction",
            metavar="higher|lower",
            help="Which scores are better (required, never guessed): higher (accuracy) or lower (error).",
        ),
    ),
    "method_column": (
        str,
        typer.Option(
            "method", "--method-column", "--method-col", metavar="NAME", help="The column of the method."
        ),
    ),
    "task_column": (
        str,
        typer.Option(
            "task",
            "--task-column",
            "--task-col",
            metavar="NAME",
            help="The column of the task (data set, game).",
        ),
    ),
    "run_column": (
        str,
        typer.Option("run", "--run-column", "--run-col", metavar="NAME", help="The run (seed) column."),
    ),
    "score_column": (
        str,
        typer.Option(
            "score", "--score-column", "--score-col", metavar="NAME", help="The column of the score."
        ),
    ),
    "fold_column": (
        str | None,
        typer.Option(
            None,
            "--fold-column",
            "--fold-col",
            metavar="NAME",
            help="The cross-validation fold of each row, when each run is a k-fold cross-validation.",
        ),
    ),
    "normalise": (
        str,
        typer.Option(
            "none",
            "--normalise",
            metavar="none|minmax|reference",
            help="Per-task normalisation: none, min-max over the runs, or a --reference table.",
        ),
    ),
    "reference": (
        str | None,
        typer.Option(
            None,
            "--reference",
            metavar="REFERENCE.csv",
            help="With --normalise reference: columns task, random and human (score 0 = random, 1 = human).",
        ),
    ),
}


def _read_scores(options):
    """The TaskScores the reading options describe."""
    if options["direction"] is None:
        raise InputError(
            "--direction is required: higher (accuracy, return) or lower (error, loss); it is never guessed"
        )
    from benchtrust.compare import read_task_scores

    return read_task_scores(options.pop("table"), **options)


def _tasks_command(name: str):
    """Register ``function(scores, **options)`` as ``benchtrust compare NAME`` with the reading options.

    The command's parameters are the reading options (:data:`_READING`) followed by the function's own
    (all but its first, ``scores``), then ``--force``. The command checks ``--plot`` and ``--report`` paths
    before any work, reads the table into :class:`~benchtrust.compare.TaskScores` and calls the function;
    an InputError becomes one line and exit code 2.
    """

    def register(function):
        own = [
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
            for p in list(inspect.signature(function).parameters.values())[1:]
        ]
        reading = [
            inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=annotation)
            for key, (annotation, option) in _READING.items()
        ]
        force = inspect.Parameter(
            "force", inspect.Parameter.KEYWORD_ONLY, default=_FORCE_OPTION, annotation=bool
        )

        def command(**options):
            options.pop("force")  # taken by _one_line_errors, from the command's context

            def run():
                if options.get("plot") is not None:
                    _check_plot_path(options["plot"])
                if options.get("report") is not None:
                    _check_report_path(options["report"])
                scores = _read_scores({key: options.pop(key) for key in _READING})
                function(scores, **options)

            _one_line_errors(run)

        command.__signature__ = inspect.Signature([*reading, *own, force])
        command.__annotations__ = {p.name: p.annotation for p in [*reading, *own, force]}
        command.__doc__ = function.__doc__
        command.__name__ = function.__name__
        compare_app.command(name)(command)
        return function

    return register


def _show(result, *, json_output, report=None, plot=None, draw=None, svg=None):
    """Print `result` (its text or ``--json``), then write the plot ``draw(result)`` and the report.

    `svg`, if given, writes a ``.svg`` plot directly as SVG text (``svg(result)``) instead of through
    matplotlib. No figure and no report section is built unless ``--plot`` or ``--report`` asks for it;
    the warnings matplotlib gives while drawing become at most one line of ours (:func:`_drawing`).
    """
    _print_result(result, json_output, lambda: str(result))
    missing = set()
    if plot is not None:
        if svg is not None and str(plot).lower().endswith(".svg"):
            from benchtrust._write import write_atomic

            write_atomic(plot, svg(result))
        else:
            from benchtrust._figures import save_figure

            _drawing(lambda: save_figure(draw(result), plot), missing)
        typer.echo(f"plot written to {plot}", err=json_output)
    if report is not None:
        _write_report(report, _drawing(result.section, missing), json_output)
    if missing:
        typer.echo(
            f"note: the font of the figures has no glyph for {' '.join(sorted(missing))} (in a name); it "
            "is drawn as a box",
            err=True,
        )


#: matplotlib's warning for a character its font cannot draw: "Glyph 128640 (...) missing from font(s) ...".
_GLYPH = r"Glyph (\d+) .*missing from"


def _drawing(work, missing):
    """``work()``, with the warnings matplotlib gives while drawing caught, so that none reaches the
    terminal: the characters its font has no glyph for (an emoji in a method's name) are added to the set
    `missing`, for one line of ours."""
    import re
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        done = work()
    for warning in caught:
        if found := re.search(_GLYPH, str(warning.message)):
            missing.add(chr(int(found.group(1))))
    return done


def _pair(a, b, scores):
    """The methods --a and --b, checked against the table."""
    listed = ", ".join(scores.methods)
    for option, value in {"--a": a, "--b": b}.items():
        if value is None or not value.strip():
            raise InputError(f"{option} NAME is required: one of the methods in the table ({listed})")
        if value.strip() not in scores.methods:
            raise InputError(f"{option}: no method {value.strip()!r} in the table; its methods: {listed}")
    if a.strip() == b.strip():
        raise InputError(f"--a and --b both name {a.strip()!r}: compare two different methods")
    return a.strip(), b.strip()


_ALPHA_OPTION = typer.Option(
    "0.05", "--alpha", metavar="ALPHA", help=f"{ALPHA}: intervals have level 1 - {ALPHA}."
)
_SEED_OPTION = typer.Option("0", "--seed", metavar="S", help="Random seed of the bootstrap.")
_QUIET_OPTION = typer.Option(False, "--quiet", help="No progress bar.")
_PLOT_OPTION = typer.Option(
    None, "--plot", metavar="FILE.png", help="Also draw the plot to FILE (.png, .svg, .pdf)."
)
_A_OPTION = typer.Option(None, "--a", metavar="NAME", help="Method A, as named in the table.")
_B_OPTION = typer.Option(None, "--b", metavar="NAME", help="Method B, as named in the table.")


@_tasks_command("choose")
def choose_command(scores, json_output: bool = _JSON_OPTION, report: str | None = _REPORT_OPTION) -> None:
    """Which comparison fits the table, and why: from its methods, tasks, runs, folds and pairing."""
    from benchtrust.compare import choose_analysis

    _show(choose_analysis(scores), json_output=json_output, report=report)


@_tasks_command("aggregate")
def aggregate_command(
    scores,
    gamma: str | None = typer.Option(
        None,
        "--gamma",
        metavar="GAMMA",
        help=f"{GAMMA}: the target of the optimality gap (default 1 for normalised scores).",
    ),
    alpha: str = _ALPHA_OPTION,
    resamples: str = typer.Option(
        "50000",
        "--resamples",
        metavar="K",
        help=f"Stratified bootstrap resamples, at least 1 + 2/{ALPHA} (0: point estimates only).",
    ),
    seed: str = _SEED_OPTION,
    max_memory: str = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Mean, median, IQM and optimality gap of each method over the tasks, with stratified bootstrap
    intervals (Agarwal et al. 2021, §4.1, §4.3)."""
    from benchtrust.compare import aggregate

    options = {
        "gamma": None if gamma is None else _number(gamma, "--gamma"),
        "alpha": _probability(alpha, "--alpha"),
        "resamples": _count_or_zero(resamples, "--resamples"),
        "seed": _count_or_zero(seed, "--seed"),
        "max_memory": _count(max_memory, "--max-memory"),
    }
    result = _with_progress(
        "stratified bootstrap", quiet, lambda progress: aggregate(scores, progress=progress, **options)
    )
    _show(result, json_output=json_output, report=report)


def _bayes_test(test, task, scores):
    """The test ``compare bayes`` runs: the correlated t-test on one task (or --task), else signed-rank."""
    tests = ("auto", "correlated-t", "signed-rank")
    if test not in tests:
        raise InputError(f"--test: expected one of {', '.join(tests)}, got {test!r}")
    if test == "auto":
        return "correlated-t" if task is not None or len(scores.tasks) == 1 else "signed-rank"
    return test


@_tasks_command("bayes")
def bayes_command(
    scores,
    a: str | None = _A_OPTION,
    b: str | None = _B_OPTION,
    rope: str = typer.Option(
        "0", "--rope", metavar="R", help="Half-width of the region of practical equivalence, in score units."
    ),
    test: str = typer.Option(
        "auto",
        "--test",
        metavar="auto|correlated-t|signed-rank",
        help="auto: the correlated t-test on one task (or --task), the signed-rank test across tasks.",
    ),
    task: str | None = typer.Option(None, "--task", metavar="NAME", help="Correlated t-test on this task."),
    folds: str | None = typer.Option(
        None, "--folds", metavar="K", help="k of the k-fold cross-validation (correlated t-test)."
    ),
    samples: str = typer.Option(
        "50000",
        "--samples",
        metavar="N",
        help="Posterior samples of the signed-rank test, at least 3/(1 - threshold).",
    ),
    prior_strength: str = typer.Option(
        "0.5", "--prior-strength", metavar="S", help="Strength of the signed-rank prior (at no difference)."
    ),
    threshold: str = typer.Option(
        "0.95", "--threshold", metavar="P", help="Decide when one outcome's probability exceeds P."
    ),
    seed: str = typer.Option("0", "--seed", metavar="S", help="Random seed of the posterior samples."),
    max_memory: str = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    plot: str | None = _PLOT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Bayesian comparison of two methods with a ROPE: the correlated t-test on one task's
    cross-validation, or the signed-rank test across tasks (Benavoli et al. 2017)."""
    from benchtrust.compare import correlated_t_test, plot_simplex, signed_rank_test

    a, b = _pair(a, b, scores)
    chosen = _bayes_test(test, task, scores)
    options = {"rope": _number(rope, "--rope"), "threshold": _number(threshold, "--threshold")}
    if chosen == "correlated-t":
        if plot is not None:
            raise InputError("--plot: the simplex plot shows the signed-rank test; drop --plot, or --task")
        given = None if folds is None else _count(folds, "--folds")
        result = correlated_t_test(scores, a, b, task=task, folds=given, **options)
        _show(result, json_output=json_output, report=report)
        return
    if task is not None or folds is not None:
        raise InputError(
            "--task and --folds belong to the correlated t-test; the signed-rank test uses every task"
        )
    options |= {
        "prior_strength": _number(prior_strength, "--prior-strength"),
        "samples": _count(samples, "--samples"),
        "seed": _count_or_zero(seed, "--seed"),
        "max_memory": _count(max_memory, "--max-memory"),
    }
    result = _with_progress(
        "posterior samples",
        quiet,
        lambda progress: signed_rank_test(scores, a, b, progress=progress, **options),
    )
    _show(result, json_output=json_output, report=report, plot=plot, draw=plot_simplex)


@_tasks_command("rank")
def rank_command(
    scores,
    alpha: str = typer.Option(
        "0.05", "--alpha", metavar="ALPHA", help=f"{ALPHA}: level of the Friedman and post-hoc tests."
    ),
    posthoc: str = typer.Option(
        "nemenyi",
        "--posthoc",
        metavar="nemenyi|holm|bonferroni-dunn",
        help="Post-hoc test: Nemenyi (all pairs), Holm (all pairs, or against --control), Bonferroni-Dunn.",
    ),
    control: str | None = typer.Option(
        None, "--control", metavar="NAME", help="Compare every method with this one (Holm, Bonferroni-Dunn)."
    ),
    plot: str | None = _PLOT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Friedman test of the methods' ranks over the tasks, post-hoc tests and the critical-difference
    diagram (Demšar 2006)."""
    from benchtrust.compare import critical_difference_svg, plot_critical_difference, rank_test

    result = rank_test(scores, alpha=_probability(alpha, "--alpha"), posthoc=posthoc, control=control)
    draw = {"draw": plot_critical_difference, "svg": critical_difference_svg}
    _show(result, json_output=json_output, report=report, plot=plot, **draw)


_PAIRED_OPTION = typer.Option(
    None,
    "--paired/--all-pairs",
    help="Pair the runs by label on each task (exact interval), or compare every run with every run "
    "(rliable). Default: all pairs.",
)


def _resamples(text):
    """--resamples K (None: the library's default)."""
    return None if text is None else _count(text, "--resamples")


@_tasks_command("improvement")
def improvement_command(
    scores,
    paired: bool | None = _PAIRED_OPTION,
    alpha: str = _ALPHA_OPTION,
    resamples: str | None = typer.Option(
        None,
        "--resamples",
        metavar="K",
        help=f"Stratified bootstrap resamples, at least 1 + 2/{ALPHA} (default 10,000).",
    ),
    seed: str = _SEED_OPTION,
    max_memory: str = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    plot: str | None = _PLOT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """The average probability of improvement P(X > Y) of every pair of methods over the tasks, with
    intervals (Agarwal et al. 2021, §4.3; Bouthillier et al. 2021, Eq. 9)."""
    from benchtrust.compare import improvement_probabilities, plot_improvement

    options = {
        "paired": paired,
        "alpha": _probability(alpha, "--alpha"),
        "resamples": _resamples(resamples),
        "seed": _count_or_zero(seed, "--seed"),
        "max_memory": _count(max_memory, "--max-memory"),
    }
    result = _with_progress(
        "bootstrap",
        quiet,
        lambda progress: improvement_probabilities(scores, progress=progress, **options),
    )
    _show(result, json_output=json_output, report=report, plot=plot, draw=plot_improvement)


@_tasks_command("effect")
def effect_command(
    scores,
    a: str | None = _A_OPTION,
    b: str | None = _B_OPTION,
    paired: bool | None = _PAIRED_OPTION,
    alpha: str = _ALPHA_OPTION,
    resamples: str | None = typer.Option(
        None,
        "--resamples",
        metavar="K",
        help=f"Bootstrap resamples of the interval of A over the tasks, at least 1 + 2/{ALPHA}.",
    ),
    seed: str = _SEED_OPTION,
    max_memory: str = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Effect sizes of A against B, per task and over the tasks: Vargha-Delaney A (= P(A > B)),
    Cliff's δ and Hedges' g, with intervals."""
    from benchtrust.compare import effect_sizes

    a, b = _pair(a, b, scores)
    options = {
        "paired": paired,
        "alpha": _probability(alpha, "--alpha"),
        "resamples": _resamples(resamples),
        "seed": _count_or_zero(seed, "--seed"),
        "max_memory": _count(max_memory, "--max-memory"),
    }
    result = _with_progress(
        "bootstrap", quiet, lambda progress: effect_sizes(scores, a, b, progress=progress, **options)
    )
    _show(result, json_output=json_output, report=report)


def _thresholds(text):
    """--thresholds "0,0.5,1" as a list of numbers (None: the library's default)."""
    if text is None:
        return None
    return [_number(item, "--thresholds") for item in text.split(",")]


@_tasks_command("profile")
def profile_command(
    scores,
    thresholds: str | None = typer.Option(
        None,
        "--thresholds",
        metavar="T1,T2,...",
        help="The thresholds τ (default: 101 from the lowest score to the highest).",
    ),
    alpha: str = _ALPHA_OPTION,
    resamples: str = typer.Option(
        "10000",
        "--resamples",
        metavar="K",
        help=f"Stratified bootstrap resamples of the bands, at least 1 + 2/{ALPHA} (0: none).",
    ),
    seed: str = _SEED_OPTION,
    max_memory: str = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    plot: str | None = _PLOT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Performance profiles: the fraction of runs scoring above each threshold τ, with stratified
    bootstrap bands (Agarwal et al. 2021, §4.2)."""
    from benchtrust.compare import performance_profile, plot_performance_profile

    options = {
        "thresholds": _thresholds(thresholds),
        "alpha": _probability(alpha, "--alpha"),
        "resamples": _count_or_zero(resamples, "--resamples"),
        "seed": _count_or_zero(seed, "--seed"),
        "max_memory": _count(max_memory, "--max-memory"),
    }
    result = _with_progress(
        "stratified bootstrap",
        quiet,
        lambda progress: performance_profile(scores, progress=progress, **options),
    )
    _show(result, json_output=json_output, report=report, plot=plot, draw=plot_performance_profile)
