"""``benchtrust compare`` over many tasks: one long table of method × task × run scores, several analyses.

``choose`` (which analysis fits, and why), ``aggregate`` (mean, median, IQM and optimality gap with
stratified bootstrap intervals), ``profile`` (performance profiles), ``efficiency`` (an aggregate at every
training step: sample-efficiency curves), ``improvement`` (the average
probability of improvement of every pair), ``rank`` (Friedman with Nemenyi or Holm, and the
critical-difference diagram), ``auto`` (autorank's automatic path: assumption checks, then the test
they allow, with effect sizes and a LaTeX table), ``bayes`` (Bayesian correlated t-test or signed-rank
test with a ROPE), ``effect`` (effect sizes of one pair) and ``aso`` (almost stochastic order of one
pair, as deepsig). Each takes the table and the options that
say how to read it (the reading options below, listed in every command's signature) and its own options,
makes them the arguments of its row of the table of analyses (:mod:`benchtrust._report.analyses`, whose
rows read the table of scores) and runs it (:func:`_run`), printing the result, with ``--json``,
``--plot`` and ``--report`` where they apply. ``bayes``, ``effect`` and ``aso`` read the table first
(:func:`~benchtrust._report.analyses.read_tasks`), to check ``--a`` and ``--b`` against its methods and,
for ``bayes``, to pick the test by its number of tasks. The commands join the group of
:mod:`benchtrust.cli.compare`.
"""

from collections.abc import Sequence

import typer

from benchtrust._io import InputError, check_direction
from benchtrust._report.analyses import draw, read_tasks, run_analysis
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
    _probability,
    _with_progress,
    show_result,
    typed_option,
)
from benchtrust.cli.compare import _MAX_MEMORY_OPTION, compare_app

# --- the table and how to read it: the first options of every command ----------------------------------

_TABLE_ARGUMENT = typer.Argument(
    ...,
    metavar="SCORES.csv",
    help=f"One row per method {TIMES} task {TIMES} run (long format): method, task, run, score.",
)
_DIRECTION_OPTION = typed_option(
    None,
    "--direction",
    metavar="higher|lower",
    parse=check_direction,
    help="Which scores are better (required, never guessed): higher (accuracy) or lower (error).",
)
_METHOD_COLUMN_OPTION = typer.Option(
    "method", "--method-column", "--method-col", metavar="NAME", help="The column of the method."
)
_TASK_COLUMN_OPTION = typer.Option(
    "task", "--task-column", "--task-col", metavar="NAME", help="The column of the task (data set, game)."
)
_RUN_COLUMN_OPTION = typer.Option(
    "run", "--run-column", "--run-col", metavar="NAME", help="The run (seed) column."
)
_SCORE_COLUMN_OPTION = typer.Option(
    "score", "--score-column", "--score-col", metavar="NAME", help="The column of the score."
)
_FOLD_COLUMN_OPTION = typer.Option(
    None,
    "--fold-column",
    "--fold-col",
    metavar="NAME",
    help="The cross-validation fold of each row, when each run is a k-fold cross-validation.",
)
_NORMALISE_OPTION = typer.Option(
    "none",
    "--normalise",
    metavar="none|minmax|reference",
    help="Per-task normalisation: none, min-max over the runs, or a --reference table.",
)
_REFERENCE_OPTION = typer.Option(
    None,
    "--reference",
    metavar="REFERENCE.csv",
    help="With --normalise reference: columns task, random and human (score 0 = random, 1 = human).",
)


def _table(table, direction, method_column, task_column, run_column, score_column, fold_column, normalise,
           reference) -> dict:  # fmt: skip
    """The arguments that name the table of scores and say how to read it, from the reading options in
    the order every command lists them: the ``file`` and the reading keys of the row
    (:data:`~benchtrust._report.analyses.TASK_READING`). ``--direction`` is required."""
    if direction is None:
        raise InputError(
            "--direction is required: higher (accuracy, return) or lower (error, loss); it is never guessed"
        )
    return {
        "file": table,
        "direction": direction,
        "method_column": method_column,
        "task_column": task_column,
        "run_column": run_column,
        "score_column": score_column,
        "fold_column": fold_column,
        "normalise": normalise,
        "reference": reference,
    }


# --- running an analysis over the table ------------------------------------------------------------------


def _run(name: str, arguments: dict, *, json_output: bool, report, plot=None, quiet=True, label="") -> None:
    """Run the analysis `name` of the table on `arguments` and show its result, as
    :func:`~benchtrust.cli._common.run_analysis_command` does, except that the progress bar follows
    ``--quiet`` (not ``--json``), that ``compare rank --plot FILE.svg`` writes the critical-difference
    diagram as SVG text (not through matplotlib), and that the warnings matplotlib gives while drawing
    (the plot, the report's figures) become at most one line of ours (:func:`_drawing`).

    No figure and no report section is built unless ``--plot`` or ``--report`` asks for it.
    """
    if plot is not None:
        _check_plot_path(plot)
    if report is not None:
        _check_report_path(report)
    result = _with_progress(label, quiet, lambda progress: run_analysis(name, arguments, progress=progress))
    missing: set[str] = set()
    if plot is not None:
        if name == "compare rank" and str(plot).lower().endswith(".svg"):
            from benchtrust._write import write_atomic
            from benchtrust.compare import critical_difference_svg

            write_atomic(plot, critical_difference_svg(result))
        else:
            from benchtrust._figures import save_figure

            _drawing(lambda: save_figure(draw(name, result), plot), missing)
    _drawing(lambda: show_result(result, json_output=json_output, report=report, plot=plot), missing)
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


def _thresholds(text: str, option: str) -> list[float]:
    """`text` given to `option` (``--thresholds``): numbers separated by commas, such as ``0,0.5,1``."""
    return [_number(item, option) for item in text.split(",")]


def _estimate(text: str, option: str) -> str:
    """`text` given to `option` (``efficiency --estimate``): one of the aggregates."""
    estimates = ("iqm", "mean", "median", "optimality_gap")
    if text not in estimates:
        raise InputError(f"{option}: expected one of {', '.join(estimates)}, got {text!r}")
    return text


def _profile_kind(text: str, option: str) -> str:
    """`text` given to `option` (``--kind``): ``runs`` or ``tasks``."""
    if text not in ("runs", "tasks"):
        raise InputError(
            f"{option}: expected runs (score distribution) or tasks (average scores), got {text!r}"
        )
    return text


#: The tests ``compare bayes --test`` names.
_BAYES_TESTS = ("auto", "correlated-t", "signed-rank")


def _bayes_test_name(text: str, option: str) -> str:
    """`text` given to `option` (``--test``): one of :data:`_BAYES_TESTS`."""
    if text not in _BAYES_TESTS:
        raise InputError(f"{option}: expected one of {', '.join(_BAYES_TESTS)}, got {text!r}")
    return text


def _bayes_test(test, task, scores):
    """The test ``compare bayes`` runs: the correlated t-test on one task (or --task), else signed-rank."""
    if test == "auto":
        return "correlated-t" if task is not None or len(scores.tasks) == 1 else "signed-rank"
    return test


def _force_mode(text: str, option: str) -> str:
    """`text` given to `option` (``compare auto --force-mode``): parametric or nonparametric."""
    if text not in ("parametric", "nonparametric"):
        raise InputError(f"{option}: expected parametric or nonparametric, got {text!r}")
    return text


# --- the commands' own options -----------------------------------------------------------------------------

_ALPHA_OPTION = typed_option(
    "0.05", "--alpha", metavar="ALPHA", parse=_probability, help=f"{ALPHA}: intervals have level 1 - {ALPHA}."
)
_SEED_OPTION = typed_option(
    "0", "--seed", metavar="S", parse=_count_or_zero, help="Random seed of the bootstrap."
)
_GAMMA_OPTION = typed_option(
    None,
    "--gamma",
    metavar="GAMMA",
    parse=_number,
    help=f"{GAMMA}: the target of the optimality gap (default 1 for normalised scores).",
)
_QUIET_OPTION = typer.Option(False, "--quiet", help="No progress bar.")
_PLOT_OPTION = typer.Option(
    None, "--plot", metavar="FILE.png", help="Also draw the plot to FILE (.png, .svg, .pdf)."
)
_A_OPTION = typer.Option(None, "--a", metavar="NAME", help="Method A, as named in the table.")
_B_OPTION = typer.Option(None, "--b", metavar="NAME", help="Method B, as named in the table.")
_PAIRED_OPTION = typer.Option(
    None,
    "--paired/--all-pairs",
    help="Pair the runs by label on each task (exact interval), or compare every run with every run "
    "(rliable). Default: all pairs.",
)
#: ``profile --thresholds``: its value is a list, so the option is made once, here (ruff's B008).
_THRESHOLDS_OPTION = typed_option(
    None,
    "--thresholds",
    metavar="T1,T2,...",
    parse=_thresholds,
    help="The thresholds τ (default: 101 from the lowest score to the highest).",
)
_TASK_BOOTSTRAP_OPTION = typer.Option(
    False,
    "--task-bootstrap",
    help="Resample the tasks as well as the runs (rliable's task_bootstrap): intervals for other tasks "
    "from the same population.",
)


@compare_app.command("choose")
def choose_command(
    table: str = _TABLE_ARGUMENT,
    direction: str | None = _DIRECTION_OPTION,
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    fold_column: str | None = _FOLD_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Which comparison fits the table, and why: from its methods, tasks, runs, folds and pairing."""

    def command():
        # fmt: off
        arguments = _table(table, direction, method_column, task_column, run_column, score_column,
                           fold_column, normalise, reference)
        # fmt: on
        _run("compare choose", arguments, json_output=json_output, report=report)

    _one_line_errors(command)


@compare_app.command("aggregate")
def aggregate_command(
    table: str = _TABLE_ARGUMENT,
    direction: str | None = _DIRECTION_OPTION,
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    fold_column: str | None = _FOLD_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    gamma: float | None = _GAMMA_OPTION,
    alpha: float = _ALPHA_OPTION,
    resamples: int = typed_option(
        "50000",
        "--resamples",
        metavar="K",
        parse=_count_or_zero,
        help=f"Stratified bootstrap resamples, at least 1 + 2/{ALPHA} (0: point estimates only).",
    ),
    seed: int = _SEED_OPTION,
    task_bootstrap: bool = _TASK_BOOTSTRAP_OPTION,
    max_memory: int = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Mean, median, IQM and optimality gap of each method over the tasks, with stratified bootstrap
    intervals (Agarwal et al. 2021, §4.1, §4.3)."""

    def command():
        # fmt: off
        arguments = _table(table, direction, method_column, task_column, run_column, score_column,
                           fold_column, normalise, reference)
        # fmt: on
        arguments |= {
            "gamma": gamma,
            "alpha": alpha,
            "resamples": resamples,
            "seed": seed,
            "task_bootstrap": task_bootstrap,
            "max_memory": max_memory,
        }
        _run(
            "compare aggregate",
            arguments,
            json_output=json_output,
            report=report,
            quiet=quiet,
            label="stratified bootstrap",
        )

    _one_line_errors(command)


@compare_app.command("bayes")
def bayes_command(
    table: str = _TABLE_ARGUMENT,
    direction: str | None = _DIRECTION_OPTION,
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    fold_column: str | None = _FOLD_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    a: str | None = _A_OPTION,
    b: str | None = _B_OPTION,
    rope: float = typed_option(
        "0",
        "--rope",
        metavar="R",
        parse=_number,
        help="Half-width of the region of practical equivalence, in score units.",
    ),
    test: str = typed_option(
        "auto",
        "--test",
        metavar="auto|correlated-t|signed-rank",
        parse=_bayes_test_name,
        help="auto: the correlated t-test on one task (or --task), the signed-rank test across tasks.",
    ),
    task: str | None = typer.Option(None, "--task", metavar="NAME", help="Correlated t-test on this task."),
    folds: int | None = typed_option(
        None,
        "--folds",
        metavar="K",
        parse=_count,
        help="k of the k-fold cross-validation (correlated t-test).",
    ),
    samples: int = typed_option(
        "50000",
        "--samples",
        metavar="N",
        parse=_count,
        help="Posterior samples of the signed-rank test, at least 3/(1 - threshold).",
    ),
    prior_strength: float = typed_option(
        "0.5",
        "--prior-strength",
        metavar="S",
        parse=_number,
        help="Strength of the signed-rank prior (at no difference).",
    ),
    threshold: float = typed_option(
        "0.95",
        "--threshold",
        metavar="P",
        parse=_number,
        help="Decide when one outcome's probability exceeds P.",
    ),
    seed: int = typed_option(
        "0", "--seed", metavar="S", parse=_count_or_zero, help="Random seed of the posterior samples."
    ),
    max_memory: int = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    plot: str | None = _PLOT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Bayesian comparison of two methods with a ROPE: the correlated t-test on one task's
    cross-validation, or the signed-rank test across tasks (Benavoli et al. 2017)."""

    def command():
        # fmt: off
        scores = read_tasks(_table(table, direction, method_column, task_column, run_column, score_column,
                                   fold_column, normalise, reference))
        # fmt: on
        first, second = _pair(a, b, scores)
        arguments = {"scores": scores, "a": first, "b": second, "rope": rope, "threshold": threshold}
        if _bayes_test(test, task, scores) == "correlated-t":
            if plot is not None:
                raise InputError(
                    "--plot: the simplex plot shows the signed-rank test; drop --plot, or --task"
                )
            arguments |= {"task": task, "folds": folds}
            _run("compare correlated-t", arguments, json_output=json_output, report=report)
            return
        if task is not None or folds is not None:
            raise InputError(
                "--task and --folds belong to the correlated t-test; the signed-rank test uses every task"
            )
        arguments |= {
            "prior_strength": prior_strength,
            "samples": samples,
            "seed": seed,
            "max_memory": max_memory,
        }
        _run(
            "compare signed-rank",
            arguments,
            json_output=json_output,
            report=report,
            plot=plot,
            quiet=quiet,
            label="posterior samples",
        )

    _one_line_errors(command)


@compare_app.command("hierarchical")
def hierarchical_command(
    table: str = _TABLE_ARGUMENT,
    direction: str | None = _DIRECTION_OPTION,
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    fold_column: str | None = _FOLD_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    a: str | None = _A_OPTION,
    b: str | None = _B_OPTION,
    rope: float = typed_option(
        "0",
        "--rope",
        metavar="R",
        parse=_number,
        help="Half-width of the region of practical equivalence, in score units.",
    ),
    folds: int | None = typed_option(
        None, "--folds", metavar="K", parse=_count, help="k of the k-fold cross-validation of every task."
    ),
    samples: int = typed_option(
        "20000",
        "--samples",
        metavar="N",
        parse=_count,
        help="Posterior draws kept (Gibbs sampler, all chains), at least 3/(1 - threshold).",
    ),
    threshold: float = typed_option(
        "0.95",
        "--threshold",
        metavar="P",
        parse=_number,
        help="Decide when one outcome's probability exceeds P.",
    ),
    seed: int = typed_option(
        "0", "--seed", metavar="S", parse=_count_or_zero, help="Random seed of the sampler."
    ),
    quiet: bool = _QUIET_OPTION,
    plot: str | None = _PLOT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Bayesian hierarchical test of two methods over tasks x folds with a ROPE: the next task and each
    task (Corani et al. 2017; baycomp's HierarchicalTest)."""

    def command():
        # fmt: off
        scores = read_tasks(_table(table, direction, method_column, task_column, run_column, score_column,
                                   fold_column, normalise, reference))
        # fmt: on
        first, second = _pair(a, b, scores)
        arguments = {
            "scores": scores,
            "a": first,
            "b": second,
            "rope": rope,
            "folds": folds,
            "samples": samples,
            "threshold": threshold,
            "seed": seed,
        }
        _run(
            "compare hierarchical",
            arguments,
            json_output=json_output,
            report=report,
            plot=plot,
            quiet=quiet,
            label="Gibbs sampler",
        )

    _one_line_errors(command)


@compare_app.command("rank")
def rank_command(
    table: str = _TABLE_ARGUMENT,
    direction: str | None = _DIRECTION_OPTION,
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    fold_column: str | None = _FOLD_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    alpha: float = typed_option(
        "0.05",
        "--alpha",
        metavar="ALPHA",
        parse=_probability,
        help=f"{ALPHA}: level of the Friedman and post-hoc tests.",
    ),
    posthoc: str = typer.Option(
        "nemenyi",
        "--posthoc",
        metavar="nemenyi|holm|bonferroni-dunn|conover|siegel|wilcoxon",
        help="Post-hoc test: Nemenyi (all pairs), Holm (all pairs, or against --control), Bonferroni-Dunn; "
        "as scikit-posthocs: Conover-Friedman, Siegel-Castellan, pairwise Wilcoxon signed-rank.",
    ),
    p_adjust: str | None = typer.Option(
        None,
        "--p-adjust",
        metavar="holm|bonferroni|sidak|holm-sidak|simes-hochberg|hommel|fdr_bh|fdr_by|fdr_tsbh|fdr_tsbky|none"
        "|single-step",
        help="Correction for multiple comparisons of conover, siegel and wilcoxon (default holm); "
        "fdr_tsbh and fdr_tsbky hold at --alpha only; single-step: conover's studentized range (all pairs).",
    ),
    control: str | None = typer.Option(
        None, "--control", metavar="NAME", help="Compare every method with this one (not Nemenyi)."
    ),
    plot: str | None = _PLOT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Friedman test of the methods' ranks over the tasks, post-hoc tests and the critical-difference
    diagram (Demšar 2006)."""

    def command():
        # fmt: off
        arguments = _table(table, direction, method_column, task_column, run_column, score_column,
                           fold_column, normalise, reference)
        # fmt: on
        arguments |= {"alpha": alpha, "posthoc": posthoc, "p_adjust": p_adjust, "control": control}
        _run("compare rank", arguments, json_output=json_output, report=report, plot=plot)

    _one_line_errors(command)


@compare_app.command("auto")
def auto_command(
    table: str = _TABLE_ARGUMENT,
    direction: str | None = _DIRECTION_OPTION,
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    fold_column: str | None = _FOLD_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    alpha: float = typed_option(
        "0.05", "--alpha", metavar="ALPHA", parse=_probability, help=f"{ALPHA}: the tests' family-wise level."
    ),
    force_mode: str | None = typed_option(
        None,
        "--force-mode",
        metavar="parametric|nonparametric",
        parse=_force_mode,
        help="Take this path whatever the assumption checks say (autorank's force_mode).",
    ),
    # named out, so that --latex is checked as an output (refused if it exists, unless --force)
    out: str | None = typer.Option(
        None, "--latex", metavar="FILE.tex", help="Also write the table a paper prints, as LaTeX, to FILE."
    ),
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """autorank's automatic path: normality and equal-variance checks, then ANOVA + Tukey's HSD or Friedman
    + Nemenyi (t-test or Wilcoxon for two methods), with effect sizes (Herbold 2020)."""

    def command():
        # fmt: off
        arguments = _table(table, direction, method_column, task_column, run_column, score_column,
                           fold_column, normalise, reference)
        # fmt: on
        arguments |= {"alpha": alpha, "force_mode": force_mode}
        if out is not None and not out.lower().endswith(".tex"):
            raise InputError(f"--latex: expected a file name ending in .tex, got {out!r}")
        if out is None:
            _run("compare auto", arguments, json_output=json_output, report=report)
            return
        from benchtrust._write import write_atomic

        if report is not None:
            _check_report_path(report)
        result = run_analysis("compare auto", arguments)
        write_atomic(out, result.to_latex())
        show_result(result, json_output=json_output, report=report)
        typer.echo(f"LaTeX table written to {out}", err=json_output)

    _one_line_errors(command)


@compare_app.command("improvement")
def improvement_command(
    table: str = _TABLE_ARGUMENT,
    direction: str | None = _DIRECTION_OPTION,
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    fold_column: str | None = _FOLD_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    paired: bool | None = _PAIRED_OPTION,
    alpha: float = _ALPHA_OPTION,
    resamples: int | None = typed_option(
        None,
        "--resamples",
        metavar="K",
        parse=_count,
        help=f"Stratified bootstrap resamples, at least 1 + 2/{ALPHA} (default 10,000).",
    ),
    seed: int = _SEED_OPTION,
    task_bootstrap: bool = _TASK_BOOTSTRAP_OPTION,
    max_memory: int = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    plot: str | None = _PLOT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """The average probability of improvement P(X > Y) of every pair of methods over the tasks, with
    intervals (Agarwal et al. 2021, §4.3; Bouthillier et al. 2021, Eq. 9)."""

    def command():
        # fmt: off
        arguments = _table(table, direction, method_column, task_column, run_column, score_column,
                           fold_column, normalise, reference)
        # fmt: on
        arguments |= {
            "paired": paired,
            "alpha": alpha,
            "resamples": resamples,
            "seed": seed,
            "task_bootstrap": task_bootstrap,
            "max_memory": max_memory,
        }
        _run(
            "compare improvement",
            arguments,
            json_output=json_output,
            report=report,
            plot=plot,
            quiet=quiet,
            label="bootstrap",
        )

    _one_line_errors(command)


@compare_app.command("effect")
def effect_command(
    table: str = _TABLE_ARGUMENT,
    direction: str | None = _DIRECTION_OPTION,
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    fold_column: str | None = _FOLD_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    a: str | None = _A_OPTION,
    b: str | None = _B_OPTION,
    paired: bool | None = _PAIRED_OPTION,
    alpha: float = _ALPHA_OPTION,
    resamples: int | None = typed_option(
        None,
        "--resamples",
        metavar="K",
        parse=_count,
        help=f"Bootstrap resamples of the interval of A over the tasks, at least 1 + 2/{ALPHA}.",
    ),
    seed: int = _SEED_OPTION,
    max_memory: int = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Effect sizes of A against B, per task and over the tasks: Vargha-Delaney A (= P(A > B)),
    Cliff's δ and Hedges' g, with intervals."""

    def command():
        # fmt: off
        scores = read_tasks(_table(table, direction, method_column, task_column, run_column, score_column,
                                   fold_column, normalise, reference))
        # fmt: on
        first, second = _pair(a, b, scores)
        arguments = {
            "scores": scores,
            "a": first,
            "b": second,
            "paired": paired,
            "alpha": alpha,
            "resamples": resamples,
            "seed": seed,
            "max_memory": max_memory,
        }
        _run(
            "compare effect",
            arguments,
            json_output=json_output,
            report=report,
            quiet=quiet,
            label="bootstrap",
        )

    _one_line_errors(command)


@compare_app.command("aso")
def aso_command(
    table: str = _TABLE_ARGUMENT,
    direction: str | None = _DIRECTION_OPTION,
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    fold_column: str | None = _FOLD_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    a: str | None = _A_OPTION,
    b: str | None = _B_OPTION,
    confidence: float = typed_option(
        "0.95",
        "--confidence",
        metavar="LEVEL",
        parse=_probability,
        help="Confidence level of ε_min before the Bonferroni correction (deepsig's confidence_level).",
    ),
    comparisons: int | None = typed_option(
        None,
        "--comparisons",
        metavar="K",
        parse=_count,
        help="Comparisons to correct for (Bonferroni; deepsig's num_comparisons). Default: the tasks.",
    ),
    threshold: float = typed_option(
        "0.5",
        "--threshold",
        metavar="TAU",
        parse=lambda text, option: _probability(text, option, upper_open=False),
        help="τ: A almost stochastically dominates B when ε_min < τ (0.5 by convention, 0.2 stricter).",
    ),
    resamples: int = typed_option(
        "1000",
        "--resamples",
        metavar="K",
        parse=_count,
        help="Bootstrap resamples of each task (deepsig's num_bootstrap_iterations), at least 2.",
    ),
    dt: float = typed_option(
        "0.005",
        "--dt",
        metavar="DT",
        parse=_probability,
        help="Step of the grid of quantile levels t (deepsig's dt), at most 0.5.",
    ),
    seed: int = _SEED_OPTION,
    max_memory: int = _MAX_MEMORY_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Almost stochastic order of A over B (and B over A) on each task, as deepsig's aso(): the
    violation ratio ε and its upper bound ε_min (Dror et al. 2019)."""

    def command():
        # fmt: off
        scores = read_tasks(_table(table, direction, method_column, task_column, run_column, score_column,
                                   fold_column, normalise, reference))
        # fmt: on
        first, second = _pair(a, b, scores)
        arguments = {
            "scores": scores,
            "a": first,
            "b": second,
            "confidence": confidence,
            "comparisons": comparisons,
            "threshold": threshold,
            "resamples": resamples,
            "dt": dt,
            "seed": seed,
            "max_memory": max_memory,
        }
        _run("compare aso", arguments, json_output=json_output, report=report)

    _one_line_errors(command)


@compare_app.command("profile")
def profile_command(
    table: str = _TABLE_ARGUMENT,
    direction: str | None = _DIRECTION_OPTION,
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    fold_column: str | None = _FOLD_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    thresholds: Sequence[float] | None = _THRESHOLDS_OPTION,
    kind: str = typed_option(
        "runs",
        "--kind",
        metavar="runs|tasks",
        parse=_profile_kind,
        help="runs: fraction of runs above τ (score distribution); tasks: fraction of tasks whose mean "
        "score is above τ (average-score distribution).",
    ),
    alpha: float = _ALPHA_OPTION,
    resamples: int = typed_option(
        "10000",
        "--resamples",
        metavar="K",
        parse=_count_or_zero,
        help=f"Stratified bootstrap resamples of the bands, at least 1 + 2/{ALPHA} (0: none).",
    ),
    seed: int = _SEED_OPTION,
    task_bootstrap: bool = _TASK_BOOTSTRAP_OPTION,
    max_memory: int = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    plot: str | None = _PLOT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Performance profiles: the fraction of runs scoring above each threshold τ, with stratified
    bootstrap bands (Agarwal et al. 2021, §4.2)."""

    def command():
        # fmt: off
        arguments = _table(table, direction, method_column, task_column, run_column, score_column,
                           fold_column, normalise, reference)
        # fmt: on
        arguments |= {
            "thresholds": thresholds,
            "kind": kind,
            "alpha": alpha,
            "resamples": resamples,
            "seed": seed,
            "task_bootstrap": task_bootstrap,
            "max_memory": max_memory,
        }
        _run(
            "compare profile",
            arguments,
            json_output=json_output,
            report=report,
            plot=plot,
            quiet=quiet,
            label="stratified bootstrap",
        )

    _one_line_errors(command)


@compare_app.command("efficiency")
def efficiency_command(
    table: str = typer.Argument(
        ...,
        metavar="CURVES.csv",
        help=f"One row per method {TIMES} task {TIMES} run {TIMES} step (long format): method, task, run, "
        "step, score.",
    ),
    direction: str | None = _DIRECTION_OPTION,
    step_column: str = typer.Option(
        "step",
        "--step-column",
        "--step-col",
        metavar="NAME",
        help="The column of the training step (frames).",
    ),
    method_column: str = _METHOD_COLUMN_OPTION,
    task_column: str = _TASK_COLUMN_OPTION,
    run_column: str = _RUN_COLUMN_OPTION,
    score_column: str = _SCORE_COLUMN_OPTION,
    normalise: str = _NORMALISE_OPTION,
    reference: str | None = _REFERENCE_OPTION,
    estimate: str = typed_option(
        "iqm",
        "--estimate",
        metavar="iqm|mean|median|optimality_gap",
        parse=_estimate,
        help="The aggregate at each step.",
    ),
    gamma: float | None = _GAMMA_OPTION,
    alpha: float = _ALPHA_OPTION,
    resamples: int = typed_option(
        "10000",
        "--resamples",
        metavar="K",
        parse=_count_or_zero,
        help=f"Stratified bootstrap resamples per step, at least 1 + 2/{ALPHA} (0: point estimates only).",
    ),
    seed: int = _SEED_OPTION,
    task_bootstrap: bool = _TASK_BOOTSTRAP_OPTION,
    max_memory: int = _MAX_MEMORY_OPTION,
    quiet: bool = _QUIET_OPTION,
    plot: str | None = _PLOT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Sample-efficiency curves: the IQM (or another aggregate) over the tasks at every training step, with
    stratified bootstrap intervals (Agarwal et al. 2021, §4.3, Fig. 8)."""

    def command():
        # fmt: off
        arguments = _table(table, direction, method_column, task_column, run_column, score_column,
                           None, normalise, reference)
        # fmt: on
        del arguments["fold_column"]  # the step column takes its place
        arguments |= {
            "step_column": step_column,
            "estimate": estimate,
            "gamma": gamma,
            "alpha": alpha,
            "resamples": resamples,
            "seed": seed,
            "task_bootstrap": task_bootstrap,
            "max_memory": max_memory,
        }
        _run(
            "compare efficiency",
            arguments,
            json_output=json_output,
            report=report,
            plot=plot,
            quiet=quiet,
            label="stratified bootstrap, step by step",
        )

    _one_line_errors(command)
