"""``benchtrust sota``: is the top of a leaderboard the state of the art, or the luck of many tries?

``best-of`` (the best of m classifiers on one test set) and ``leaderboard`` (a sober state of the art from
a leaderboard) parse their options, run their analysis of the table (:mod:`benchtrust._report.analyses`:
``sota best-of``, ``sota best-of-auc`` with ``--metric auc``, ``sota leaderboard``), and print the result
(its text, or ``--json``), with an optional plot and HTML report.
"""

import typer

from benchtrust._io import InputError, check_direction
from benchtrust._words import ALPHA, RHO
from benchtrust.cli._common import (
    _FORCE_OPTION,
    _JSON_OPTION,
    _REPORT_OPTION,
    _count,
    _count_or_zero,
    _group,
    _number,
    _one_line_errors,
    _probability,
    probability,
    run_analysis_command,
    typed_option,
)


def _count_or_auto(text: str, option: str):
    """``--test-size``: a count, or ``auto`` (inferred from the scores)."""
    return "auto" if text.strip().lower() == "auto" else _count(text, option)


def _auc(text: str, option: str) -> float:
    """``--auc``: a true AUC, strictly between 0.5 and 1."""
    value = _number(text, option)
    if not 0.5 < value < 1:
        raise InputError(f"{option}: expected an AUC strictly between 0.5 and 1, got {text!r}")
    return value


sota_app: typer.Typer = _group(
    "sota", "Is the top of a leaderboard the state of the art, or the luck of many tries?"
)


@sota_app.command("best-of")
def best_of_command(
    classifiers: int | None = typed_option(
        None,
        "--classifiers",
        metavar="M",
        parse=_count,
        help="m, the number of classifiers (with --accuracies: checked).",
    ),
    test_size: int | None = typed_option(
        None, "--test-size", metavar="N", parse=_count, help="n, the number of test items (required)."
    ),
    metric: str = typer.Option(
        "accuracy",
        "--metric",
        metavar="accuracy|auc",
        help="The score: accuracy (exact) or AUC (tabulated, §5.2.1).",
    ),
    accuracy: float | None = typed_option(
        None,
        "--accuracy",
        metavar="THETA",
        parse=_probability,
        help="θ, the true accuracy shared by all m classifiers.",
    ),
    auc: float | None = typed_option(
        None,
        "--auc",
        metavar="A",
        parse=_auc,
        help="With --metric auc: the true AUC shared by all m classifiers.",
    ),
    positives: int | None = typed_option(
        None,
        "--positives",
        metavar="K",
        parse=_count,
        help="With --metric auc: n+, positive items in the test set.",
    ),
    simulations: int | None = typed_option(
        None,
        "--simulations",
        metavar="R",
        parse=_count,
        help="With --metric auc: simulate R competitions directly (default: the tabulated distribution).",
    ),
    seed: int | None = typed_option(
        None, "--seed", metavar="S", parse=_count_or_zero, help="With --metric auc: random seed."
    ),
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
    correlation: float = typed_option(
        "0",
        "--correlation",
        metavar="RHO",
        parse=probability(closed=True, upper_open=True),
        help=f"{RHO}, correlation with a latent reference classifier Y0 (0: independent).",
    ),
    reference_accuracy: float | None = typed_option(
        None,
        "--reference-accuracy",
        metavar="THETA0",
        parse=_probability,
        help="θ0, the accuracy of the reference classifier Y0 (default: the largest θ).",
    ),
    fixed_reference: bool = typer.Option(
        False,
        "--fixed-reference",
        help="Y0 gets exactly θ0·n items right (§4.1 fixed y0), not a random number.",
    ),
    alpha: float = typed_option(
        "0.05",
        "--alpha",
        metavar="ALPHA",
        parse=_probability,
        help=f"{ALPHA}: report the central 1 - {ALPHA} interval.",
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
            unused = {
                "--accuracy": accuracy,
                "--accuracies": accuracies,
                "--accuracy-column": accuracy_column,
                "--plot": plot,
            }
            for option, value in unused.items():
                if value is not None:
                    raise InputError(f"{option} is not available with --metric auc")
            required = {
                "--test-size": test_size,
                "--classifiers": classifiers,
                "--auc": auc,
                "--positives": positives,
            }
            for option, value in required.items():
                if value is None:
                    raise InputError(f"{option} is required with --metric auc")
            arguments = {
                "auc": auc,
                "test_size": test_size,
                "positives": positives,
                "classifiers": classifiers,
                "alpha": alpha,
                "simulations": simulations,
                "seed": seed,
            }
            run_analysis_command(
                "sota best-of-auc",
                arguments,
                json_output=json_output,
                label="simulating competitions" if simulations else "computing the distribution",
                report=report,
            )
            return
        if metric != "accuracy":
            raise InputError(f"--metric: expected 'accuracy' or 'auc', got {metric!r}")
        for option, value in {"--auc": auc, "--positives": positives, "--seed": seed}.items():
            if value is not None:
                raise InputError(f"{option} is for --metric auc")
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
        if accuracy is not None and classifiers is None:
            raise InputError("--classifiers M is required with --accuracy (m, the number of classifiers)")
        arguments = {
            "accuracy": accuracy,
            "accuracies": accuracies,
            "accuracy_column": accuracy_column,
            "test_size": test_size,
            "classifiers": classifiers,
            "correlation": correlation,
            "reference_accuracy": reference_accuracy,
            "fixed_reference": fixed_reference,
            "alpha": alpha,
            "invalid": "drop" if drop_invalid else "raise",
        }
        run_analysis_command(
            "sota best-of",
            arguments,
            json_output=json_output,
            label="computing the distribution",
            report=report,
            plot=plot,
        )

    _one_line_errors(command)


@sota_app.command("leaderboard")
def leaderboard_command(
    file: str = typer.Argument(
        ..., metavar="FILE", help="Leaderboard: Kaggle's raw download, or a CSV/TSV with a score column."
    ),
    test_size: str | None = typed_option(
        None,
        "--test-size",
        metavar="N|auto",
        parse=_count_or_auto,
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
    positives: int | None = typed_option(
        None, "--positives", metavar="K", parse=_count, help="n+, positive items in the test set (AUC)."
    ),
    classes: int | None = typed_option(
        None,
        "--classes",
        metavar="C",
        parse=_count,
        help="Number of classes: accuracies <= 1/C are left out.",
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
    correlation: float = typed_option(
        "0.6",
        "--correlation",
        metavar="RHO",
        parse=probability(closed=True, upper_open=True),
        help=f"{RHO} of the dependence model (accuracy; §5.1.1: 0.6).",
    ),
    resamples: int = typed_option(
        "1000",
        "--resamples",
        metavar="B",
        parse=_count_or_zero,
        help="Bootstrap resamples of teams: B > 0 gives the exact bootstrap (B -> infinity); 0: none.",
    ),
    seed: int | None = typed_option(
        None,
        "--seed",
        metavar="S",
        parse=_count_or_zero,
        help="Random seed (AUC: of the tabulated distributions).",
    ),
    alpha: float = typed_option(
        "0.05",
        "--alpha",
        metavar="ALPHA",
        parse=_probability,
        help=f"{ALPHA}: report central 1 - {ALPHA} intervals.",
    ),
    max_memory: int = typed_option(
        "2e9",
        "--max-memory",
        metavar="BYTES",
        parse=_count,
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

    def command():
        if test_size is None:
            raise InputError("--test-size N is required (n, items in the hidden test set)")
        if direction is None:
            raise InputError(
                "--direction is required: higher (accuracy, AUC) or lower (error rate, 1 - AUC); it is never "
                "guessed"
            )
        if metric not in ("accuracy", "auc"):
            raise InputError(f"--metric: expected 'accuracy' or 'auc', got {metric!r}")
        lower = check_direction(direction, "--direction") == "lower"
        arguments = {
            "file": file,
            "test_size": test_size,
            "rounding": rounding,
            "metric": metric,
            "direction": "lower" if lower else "higher",
            "positives": positives,
            "classes": classes,
            "max_plausible": None
            if max_plausible is None
            else _probability(max_plausible, "--max-plausible", closed=lower, upper_open=lower),
            "score_column": score_column,
            "team_column": team_column,
            "correlation": correlation,
            "resamples": resamples,
            "seed": seed,
            "alpha": alpha,
            "max_memory": max_memory,
        }
        run_analysis_command(
            "sota leaderboard",
            arguments,
            json_output=json_output,
            label="estimating",
            report=report,
            plot=plot,
        )

    _one_line_errors(command)
