"""``benchtrust sota``: is the top of a leaderboard the state of the art, or the luck of many tries?

``best-of`` (the best of m classifiers on one test set) and ``leaderboard`` (a sober state of the art from
a leaderboard) check their options, call :mod:`benchtrust.sota`, and print the result (its text, or
``--json``), with an optional plot and HTML report.
"""

import dataclasses

import typer

from benchtrust._io import InputError, check_direction, json_text, read_numbers
from benchtrust._words import ALPHA, RHO
from benchtrust.cli._common import (
    _FORCE_OPTION,
    _JSON_OPTION,
    _REPORT_OPTION,
    _check_plot_path,
    _check_report_path,
    _count,
    _count_or_zero,
    _group,
    _number,
    _one_line_errors,
    _probability,
    _with_progress,
    _write_report,
)

sota_app = _group("sota", "Is the top of a leaderboard the state of the art, or the luck of many tries?")


@sota_app.command("best-of")
def best_of_command(
    classifiers: str | None = typer.Option(
        None, "--classifiers", metavar="M", help="m, the number of classifiers (with --accuracies: checked)."
    ),
    test_size: str | None = typer.Option(
        None, "--test-size", metavar="N", help="n, the number of test items (required)."
    ),
    metric: str = typer.Option(
        "accuracy",
        "--metric",
        metavar="accuracy|auc",
        help="The score: accuracy (exact) or AUC (tabulated, §5.2.1).",
    ),
    accuracy: str | None = typer.Option(
        None, "--accuracy", metavar="THETA", help="θ, the true accuracy shared by all m classifiers."
    ),
    auc: str | None = typer.Option(
        None, "--auc", metavar="A", help="With --metric auc: the true AUC shared by all m classifiers."
    ),
    positives: str | None = typer.Option(
        None, "--positives", metavar="K", help="With --metric auc: n+, positive items in the test set."
    ),
    simulations: str | None = typer.Option(
        None,
        "--simulations",
        metavar="R",
        help="With --metric auc: simulate R competitions directly (default: the tabulated distribution).",
    ),
    seed: str | None = typer.Option(None, "--seed", metavar="S", help="With --metric auc: random seed."),
    accuracies: str | None = typer.Option(
        None,
        "--accuracies",
        metavar="FILE",
        help="θ_j of each classifier: one per line, or a CSV/TSV column 'accuracy' (or --accuracy-column).",
    ),
    accuracy_column: str | None = typer.Option(
        None,
        "--accuracy-column",
        metavar="NAME",
        help="With --accuracies: the column holding θ_j (default 'accuracy').",
    ),
    correlation: str = typer.Option(
        "0",
        "--correlation",
        metavar="RHO",
        help=f"{RHO}, correlation with a latent reference classifier Y0 (0: independent).",
    ),
    reference_accuracy: str | None = typer.Option(
        None,
        "--reference-accuracy",
        metavar="THETA0",
        help="θ0, the accuracy of the reference classifier Y0 (default: the largest θ).",
    ),
    fixed_reference: bool = typer.Option(
        False,
        "--fixed-reference",
        help="Y0 gets exactly θ0·n items right (§4.1 fixed y0), not a random number.",
    ),
    alpha: str = typer.Option(
        "0.05", "--alpha", metavar="ALPHA", help=f"{ALPHA}: report the central 1 - {ALPHA} interval."
    ),
    drop_invalid: bool = typer.Option(
        False,
        "--drop-invalid",
        help=f"Leave out classifiers that Eq. 12 rules out for {RHO} and θ0 (as the paper does).",
    ),
    json_output: bool = _JSON_OPTION,
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write the paper's Fig. 1 for this result to FILE.png."
    ),
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Distribution of the best accuracy (§3-4) or AUC (§5.2.1) among m classifiers on one test set."""

    def command():
        if metric == "auc":
            _best_of_auc(
                classifiers=classifiers,
                test_size=test_size,
                auc=auc,
                positives=positives,
                simulations=simulations,
                seed=seed,
                alpha=alpha,
                json_output=json_output,
                unused={
                    "--accuracy": accuracy,
                    "--accuracies": accuracies,
                    "--accuracy-column": accuracy_column,
                    "--plot": plot,
                },
                report=report,
            )
            return
        if metric != "accuracy":
            raise InputError(f"--metric: expected 'accuracy' or 'auc', got {metric!r}")
        for option, value in {"--auc": auc, "--positives": positives, "--seed": seed}.items():
            if value is not None:
                raise InputError(f"{option} is for --metric auc")
        _best_of(
            classifiers=classifiers,
            test_size=test_size,
            accuracy=accuracy,
            accuracies=accuracies,
            accuracy_column=accuracy_column,
            correlation=correlation,
            reference_accuracy=reference_accuracy,
            fixed_reference=fixed_reference,
            alpha=alpha,
            drop_invalid=drop_invalid,
            json_output=json_output,
            plot=plot,
            report=report,
        )

    _one_line_errors(command)


def _best_of(
    *,
    classifiers,
    test_size,
    accuracy,
    accuracies,
    accuracy_column,
    correlation,
    reference_accuracy,
    fixed_reference,
    alpha,
    drop_invalid,
    json_output,
    plot,
    report=None,
):
    """``benchtrust sota best-of``: check the options, compute, plot, print; InputError on bad input."""
    # Every option is checked before anything is computed or written.
    if accuracy is not None and accuracies is not None:
        raise InputError("give either --accuracy THETA or --accuracies FILE, not both")
    if accuracy_column is not None and accuracies is None:
        raise InputError("--accuracy-column names a column of --accuracies FILE; give the file too")
    if accuracy is None and accuracies is None:
        raise InputError(
            "give --accuracy THETA (one θ for all m classifiers) "
            "or --accuracies FILE (one θ_j per classifier)"
        )
    if test_size is None:
        raise InputError("--test-size N is required (n, the number of test items)")
    n = _count(test_size, "--test-size")
    m = None if classifiers is None else _count(classifiers, "--classifiers")
    rho = _probability(correlation, "--correlation", closed=True, upper_open=True)
    t0 = None if reference_accuracy is None else _probability(reference_accuracy, "--reference-accuracy")
    level = _probability(alpha, "--alpha")
    if plot is not None:
        _check_plot_path(plot)
    if report is not None:
        _check_report_path(report)

    if accuracies is None:
        theta = _probability(accuracy, "--accuracy")
        if m is None:
            raise InputError("--classifiers M is required with --accuracy (m, the number of classifiers)")
    else:
        column = "accuracy" if accuracy_column is None else accuracy_column
        theta = read_numbers(accuracies, column=column, what="accuracy")
        outside = [k for k, value in enumerate(theta.tolist()) if not 0 < value < 1]
        if outside:
            k = outside[0]
            raise InputError(
                f"{accuracies}: value {k + 1} of {theta.size}, {theta[k]:g}, is not an accuracy strictly "
                "between 0 and 1"
            )
        if m is not None and m != theta.size:
            raise InputError(f"--classifiers {m}, but {accuracies} holds {theta.size} accuracies")
        m = theta.size

    from benchtrust.sota import best_of

    result = best_of(
        theta,
        test_size=n,
        classifiers=m,
        correlation=rho,
        reference_accuracy=t0,
        fixed_reference=fixed_reference,
        alpha=level,
        invalid="drop" if drop_invalid else "raise",
    )
    if accuracies is not None:
        result = dataclasses.replace(result, inputs=(accuracies,))
    if plot is not None:
        from benchtrust._figures import save_figure
        from benchtrust.sota import plot_best_of

        save_figure(plot_best_of(result), plot)

    typer.echo(json_text(result.to_dict()) if json_output else str(result))
    if plot is not None:
        typer.echo(f"plot written to {plot}", err=json_output)
    if report is not None:
        _write_report(report, result.section(), json_output)


def _best_of_auc(
    *, classifiers, test_size, auc, positives, simulations, seed, alpha, json_output, unused, report=None
):
    """``benchtrust sota best-of --metric auc``: the best of m AUCs (§5.2.1), tabulated or simulated."""
    for option, value in unused.items():
        if value is not None:
            raise InputError(f"{option} is not available with --metric auc")
    for option, value in {
        "--test-size": test_size,
        "--classifiers": classifiers,
        "--auc": auc,
        "--positives": positives,
    }.items():
        if value is None:
            raise InputError(f"{option} is required with --metric auc")
    n = _count(test_size, "--test-size")
    m = _count(classifiers, "--classifiers")
    k = _count(positives, "--positives")
    a = _number(auc, "--auc")
    if not 0.5 < a < 1:
        raise InputError(f"--auc: expected an AUC strictly between 0.5 and 1, got {auc!r}")
    reps = None if simulations is None else _count(simulations, "--simulations")
    level = _probability(alpha, "--alpha")
    random = None if seed is None else _count_or_zero(seed, "--seed")
    if report is not None:
        _check_report_path(report)

    from benchtrust.sota import best_of_auc

    result = _with_progress(
        "simulating competitions",
        json_output or reps is None,
        lambda progress: best_of_auc(
            a,
            classifiers=m,
            test_size=n,
            positives=k,
            alpha=level,
            simulations=reps,
            seed=random,
            progress=progress,
        ),
    )
    typer.echo(json_text(result.to_dict()) if json_output else str(result))
    if report is not None:
        _write_report(report, result.section(), json_output)


@sota_app.command("leaderboard")
def leaderboard_command(
    file: str = typer.Argument(
        ..., metavar="FILE", help="Leaderboard: Kaggle's raw download, or a CSV/TSV with a score column."
    ),
    test_size: str | None = typer.Option(
        None,
        "--test-size",
        metavar="N|auto",
        help="n, items in the hidden test set (required); auto: infer it from the scores (accuracy).",
    ),
    rounding: str = typer.Option(
        "either",
        "--rounding",
        metavar="either|round|truncate",
        help="How the scores were shortened to their decimals (Kaggle often truncates).",
    ),
    metric: str = typer.Option("accuracy", "--metric", metavar="accuracy|auc", help="What the scores are."),
    direction: str | None = typer.Option(
        None,
        "--direction",
        metavar="higher|lower",
        help="Which scores are better (required, never guessed): higher (accuracy, AUC) or lower (error "
        "rate = 1 - accuracy, or 1 - AUC; analysed as 1 - score, reported in the board's terms). A file "
        "ranked best first whose order contradicts it is refused.",
    ),
    positives: str | None = typer.Option(
        None, "--positives", metavar="K", help="n+, positive items in the test set (AUC)."
    ),
    classes: str | None = typer.Option(
        None, "--classes", metavar="C", help="Number of classes: accuracies <= 1/C are left out."
    ),
    max_plausible: str | None = typer.Option(
        None,
        "--max-plausible",
        metavar="S",
        help="Leave out scores better than S: above it (e.g. 0.999: leaked labels), or below it with "
        "--direction lower (e.g. 0.001).",
    ),
    score_column: str | None = typer.Option(
        None, "--score-column", metavar="NAME", help="The column holding the scores."
    ),
    team_column: str | None = typer.Option(
        None,
        "--team-column",
        metavar="NAME",
        help="The column naming each row's team, if not TeamId (a team's best score counts).",
    ),
    correlation: str = typer.Option(
        "0.6", "--correlation", metavar="RHO", help=f"{RHO} of the dependence model (accuracy; §5.1.1: 0.6)."
    ),
    resamples: str = typer.Option(
        "1000",
        "--resamples",
        metavar="B",
        help="Bootstrap resamples of teams: B > 0 gives the exact bootstrap (B -> infinity); 0: none.",
    ),
    seed: str | None = typer.Option(
        None, "--seed", metavar="S", help="Random seed (AUC: of the tabulated distributions)."
    ),
    alpha: str = typer.Option(
        "0.05", "--alpha", metavar="ALPHA", help=f"{ALPHA}: report central 1 - {ALPHA} intervals."
    ),
    max_memory: str = typer.Option(
        "2e9",
        "--max-memory",
        metavar="BYTES",
        help="Refuse an AUC board whose analysis would hold more than BYTES at once, estimated before it "
        "starts (accuracy boards stay well under it whatever their size).",
    ),
    json_output: bool = _JSON_OPTION,
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write the paper's Fig. 7 for this leaderboard."
    ),
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """A sober state of the art from a leaderboard, allowing for multiplicity (paper §5, Table 3)."""
    _one_line_errors(
        lambda: _leaderboard(
            file=file,
            test_size=test_size,
            rounding=rounding,
            metric=metric,
            direction=direction,
            positives=positives,
            classes=classes,
            max_plausible=max_plausible,
            score_column=score_column,
            team_column=team_column,
            correlation=correlation,
            resamples=resamples,
            seed=seed,
            alpha=alpha,
            max_memory=max_memory,
            json_output=json_output,
            plot=plot,
            report=report,
        )
    )


def _leaderboard(
    *,
    file,
    test_size,
    rounding,
    metric,
    direction,
    positives,
    classes,
    max_plausible,
    score_column,
    team_column,
    correlation,
    resamples,
    seed,
    alpha,
    max_memory,
    json_output,
    plot,
    report=None,
):
    """``benchtrust sota leaderboard``: check the options, estimate, plot, print; InputError on bad input."""
    if test_size is None:
        raise InputError("--test-size N is required (n, items in the hidden test set)")
    if direction is None:
        raise InputError(
            "--direction is required: higher (accuracy, AUC) or lower (error rate, 1 - AUC); it is never "
            "guessed"
        )
    if metric not in ("accuracy", "auc"):
        raise InputError(f"--metric: expected 'accuracy' or 'auc', got {metric!r}")
    options = {
        "test_size": "auto" if test_size.strip().lower() == "auto" else _count(test_size, "--test-size"),
        "rounding": rounding,
        "metric": metric,
        "direction": check_direction(direction, "--direction"),
        "positives": None if positives is None else _count(positives, "--positives"),
        "classes": None if classes is None else _count(classes, "--classes"),
        "max_plausible": None
        if max_plausible is None
        else _probability(
            max_plausible, "--max-plausible", closed=direction == "lower", upper_open=direction == "lower"
        ),
        "score_column": score_column,
        "team_column": team_column,
        "correlation": _probability(correlation, "--correlation", closed=True, upper_open=True),
        "resamples": _count_or_zero(resamples, "--resamples"),
        "seed": None if seed is None else _count_or_zero(seed, "--seed"),
        "alpha": _probability(alpha, "--alpha"),
        "max_memory": _count(max_memory, "--max-memory"),
    }
    if plot is not None:
        _check_plot_path(plot)
    if report is not None:
        _check_report_path(report)

    from benchtrust.sota import leaderboard

    result = _with_progress(
        "estimating", json_output, lambda progress: leaderboard(file, **options, progress=progress)
    )
    if plot is not None:
        from benchtrust._figures import save_figure
        from benchtrust.sota import plot_leaderboard

        save_figure(plot_leaderboard(result), plot)
    typer.echo(json_text(result.to_dict()) if json_output else str(result))
    if plot is not None:
        typer.echo(f"plot written to {plot}", err=json_output)
    if report is not None:
        _write_report(report, result.section(), json_output)
