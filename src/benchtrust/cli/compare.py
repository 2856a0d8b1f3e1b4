"""``benchtrust compare``: is A really better than B, given all the sources of variance?

``outperform`` (P(A > B) over runs and the decision), ``sample-size`` (runs the test needs),
``error-rates`` (how often each criterion concludes, simulated) and ``history`` (which state-of-the-art
increments exceed the noise) check their options, call :mod:`benchtrust.compare`, and print the result (its
text, or ``--json``), with an optional plot and HTML report (the result's section).
"""

import typer

from benchtrust._io import InputError, check_direction
from benchtrust._words import ALPHA, BETA, GAMMA, SIGMA
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
    _print_result,
    _probability,
    _with_progress,
    _write_report,
)

compare_app = _group("compare", "Is A really better than B, given all the sources of variance?")


_COMPARE_GAMMA_OPTION = typer.Option(
    "0.75",
    "--gamma",
    metavar="GAMMA",
    help=f"{GAMMA} in (0.5, 1): the smallest P(A > B) that is meaningful (the paper recommends 0.75).",
)
_COMPARE_ALPHA_OPTION = typer.Option(
    "0.05", "--alpha", metavar="ALPHA", help=f"{ALPHA}: the interval of P(A > B) has level 1 - {ALPHA}."
)
_MAX_MEMORY_OPTION = typer.Option(
    "2e9",
    "--max-memory",
    metavar="BYTES",
    help="Refuse to start when the values kept for the result (resamples, posterior samples) would take "
    "more than BYTES.",
)
_DIRECTION_OPTION = typer.Option(
    "higher",
    "--direction",
    metavar="higher|lower",
    help="Which scores are better: higher (accuracy) or lower (error rate, loss).",
)
#: The old spelling of ``--direction lower``, hidden from the help; it still works, with a note on stderr.
_LOWER_IS_BETTER_OPTION = typer.Option(False, "--lower-is-better", hidden=True)


def _direction(direction: str, lower_is_better: bool) -> str:
    """The direction ``--direction`` gives, or ``lower`` for the deprecated ``--lower-is-better`` (said so
    on stderr)."""
    direction = check_direction(direction, "--direction")
    if lower_is_better:
        typer.echo("note: --lower-is-better is deprecated; use --direction lower", err=True)
        return "lower"
    return direction


def _runs(text: str) -> int:
    """`text` given to ``--runs``: k, the runs of each algorithm, at least 2 (one run has no variance)."""
    runs = _count(text, "--runs")
    if runs < 2:
        raise InputError(
            f"--runs: expected at least 2 runs of each algorithm, got {runs} (one run has no variance: "
            "neither the t-test nor the interval of P(A > B) exists)"
        )
    return runs


def _gamma(text: str) -> float:
    """`text` given to ``--gamma``: a probability strictly between 0.5 and 1."""
    value = _number(text, "--gamma")
    if not 0.5 < value < 1:
        raise InputError(f"--gamma: expected a value strictly between 0.5 and 1, got {text!r}")
    return value


def _positive_number(text: str, option: str) -> float:
    """`text` given to `option` as a finite number > 0."""
    import math

    value = _number(text, option)
    if not 0 < value < math.inf:
        raise InputError(f"{option}: expected a positive number, got {text!r}")
    return value


def _plot_note(plot, json_output: bool) -> None:
    if plot is not None:
        typer.echo(f"plot written to {plot}", err=json_output)


_SCORE_COLUMN_OPTION = typer.Option(
    "score", "--score-column", metavar="NAME", help="The column holding the scores (any case)."
)


@compare_app.command("outperform")
def outperform_command(
    runs: str = typer.Argument(
        ..., metavar="RUNS.csv", help="One run per row: columns algorithm, score and, to pair, e.g. seed."
    ),
    a: str | None = typer.Option(None, "--a", metavar="NAME", help="Algorithm A, as named in the file."),
    b: str | None = typer.Option(None, "--b", metavar="NAME", help="Algorithm B, as named in the file."),
    pair_by: str | None = typer.Option(
        None,
        "--pair-by",
        metavar="COLUMN",
        help="Pair the runs of A and B by equal values of COLUMN (C.2). Without it: paired at random (C.4).",
    ),
    algorithm_column: str = typer.Option(
        "algorithm",
        "--algorithm-column",
        metavar="NAME",
        help="The column naming each run's algorithm (any case).",
    ),
    score_column: str = _SCORE_COLUMN_OPTION,
    gamma: str = _COMPARE_GAMMA_OPTION,
    alpha: str = _COMPARE_ALPHA_OPTION,
    beta: str = typer.Option(
        "0.05",
        "--beta",
        metavar="BETA",
        help=f"{BETA}: rate of false negatives; with fewer pairs than C.3 asks for {GAMMA}, {ALPHA} and "
        f"{BETA}, no conclusion is drawn.",
    ),
    direction: str = _DIRECTION_OPTION,
    resamples: str | None = typer.Option(
        None,
        "--resamples",
        metavar="K",
        help=f"Bootstrap K resamples, at least 1 + 2/{ALPHA} (default: the exact interval).",
    ),
    seed: str = typer.Option(
        "0", "--seed", metavar="S", help="Random seed of the random pairing and of --resamples."
    ),
    max_memory: str = _MAX_MEMORY_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
    lower_is_better: bool = _LOWER_IS_BETTER_OPTION,
) -> None:
    """P(A > B) over runs of two pipelines, its interval and the decision (paper §4.1, C.3-C.6)."""

    def command():
        for option, value in {"--a": a, "--b": b}.items():
            if value is None or not value.strip():
                raise InputError(
                    f"{option} NAME is required: the algorithm, as named in column {algorithm_column!r}"
                )
        if a.strip() == b.strip():
            raise InputError(f"--a and --b both name {a.strip()!r}: compare two different algorithms")
        options = {
            "gamma": _gamma(gamma),
            "alpha": _probability(alpha, "--alpha"),
            "beta": _probability(beta, "--beta"),
            "direction": _direction(direction, lower_is_better),
            "resamples": None if resamples is None else _count(resamples, "--resamples"),
            "seed": _count_or_zero(seed, "--seed"),
            "max_memory": _count(max_memory, "--max-memory"),
        }
        if report is not None:
            _check_report_path(report)

        from benchtrust.compare import outperform

        result = _with_progress(
            "bootstrap",
            json_output,
            lambda progress: outperform(
                runs,
                a=a,
                b=b,
                pair_by=pair_by,
                algorithm_column=algorithm_column,
                score_column=score_column,
                progress=progress,
                **options,
            ),
        )
        _print_result(result, json_output, lambda: str(result))
        if report is not None:
            _write_report(report, result.section(), json_output)

    _one_line_errors(command)


@compare_app.command("sample-size")
def sample_size_command(
    gamma: str = _COMPARE_GAMMA_OPTION,
    alpha: str = typer.Option("0.05", "--alpha", metavar="ALPHA", help=f"{ALPHA}: rate of false positives."),
    beta: str = typer.Option(
        "0.05", "--beta", metavar="BETA", help=f"{BETA}: rate of false negatives (power 1 - {BETA})."
    ),
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """How many runs of each pipeline the test of P(A > B) needs (Noether 1987; paper C.3)."""

    def command():
        g = _gamma(gamma)
        level = _probability(alpha, "--alpha")
        miss = _probability(beta, "--beta")
        if report is not None:
            _check_report_path(report)

        from benchtrust.compare import runs_needed

        result = runs_needed(g, alpha=level, beta=miss)
        if report is not None:
            _write_report(report, result.section(), json_output)
        _print_result(result, json_output, lambda: str(result))

    _one_line_errors(command)


@compare_app.command("error-rates")
def error_rates_command(
    sigma: str | None = typer.Option(
        None, "--sigma", metavar="S", help=f"{SIGMA}: SD of one run with every source randomised (required)."
    ),
    runs: str = typer.Option("50", "--runs", metavar="K", help="k >= 2, runs of each algorithm (§4.2: 50)."),
    conditional_sd: str | None = typer.Option(
        None,
        "--conditional-sd",
        metavar="S",
        help="Biased estimator: SD of the runs around one hyperparameter optimisation (with --bias-sd).",
    ),
    bias_sd: str | None = typer.Option(
        None,
        "--bias-sd",
        metavar="S",
        help="Biased estimator: SD of its mean across hyperparameter optimisations (with --conditional-sd).",
    ),
    probabilities: str | None = typer.Option(
        None,
        "--probabilities",
        metavar="P1,P2,...",
        help="The true P(A > B) to simulate, in (0, 1] (default: 25 values from 0.4 to 1, as Fig. 6).",
    ),
    delta: str | None = typer.Option(
        None,
        "--delta",
        metavar="D",
        help=f"δ of the single-point and average criteria (default 1.9952{SIGMA}).",
    ),
    gamma: str = _COMPARE_GAMMA_OPTION,
    alpha: str = _COMPARE_ALPHA_OPTION,
    simulations: str = typer.Option(
        "1000",
        "--simulations",
        metavar="R",
        help=f"Simulated comparisons per probability, at least 3/{ALPHA}.",
    ),
    seed: str | None = typer.Option(None, "--seed", metavar="S", help="Random seed."),
    json_output: bool = _JSON_OPTION,
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write the paper's Fig. 6 for this simulation to FILE.png."
    ),
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """How often each criterion concludes "A is better than B", against the true P(A > B), and its errors at
    the edges of the regions (§4.2, Fig. 6)."""

    def command():
        if sigma is None:
            raise InputError(f"--sigma S is required ({SIGMA}, the SD of one run's score)")
        options = {
            "runs": _runs(runs),
            "gamma": _gamma(gamma),
            "alpha": _probability(alpha, "--alpha"),
            "simulations": _count(simulations, "--simulations"),
            "seed": None if seed is None else _count_or_zero(seed, "--seed"),
        }
        if (conditional_sd is None) != (bias_sd is None):
            raise InputError(
                "--conditional-sd and --bias-sd go together: give both to simulate the biased estimator"
            )
        if conditional_sd is not None:
            options["conditional_sd"] = _positive_number(conditional_sd, "--conditional-sd")
            options["bias_sd"] = _number(bias_sd, "--bias-sd")
            if not 0 <= options["bias_sd"] < float("inf"):
                raise InputError(f"--bias-sd: expected a number >= 0, got {bias_sd!r}")
        if probabilities is not None:
            parts = [part.strip() for part in probabilities.split(",")]
            if not all(parts):
                raise InputError(
                    f"--probabilities: expected numbers separated by commas, got {probabilities!r}"
                )
            options["probabilities"] = [
                _probability(part, "--probabilities", closed=False, upper_open=False) for part in parts
            ]
        if delta is not None:
            options["delta"] = _number(delta, "--delta")
        s = _positive_number(sigma, "--sigma")
        if plot is not None:
            _check_plot_path(plot)
        if report is not None:
            _check_report_path(report)

        from benchtrust.compare import error_rates, plot_error_rates

        result = _with_progress(
            "simulating benchmarks",
            json_output,
            lambda progress: error_rates(s, progress=progress, **options),
        )
        if plot is not None:
            from benchtrust._figures import save_figure

            save_figure(plot_error_rates(result), plot)
        _print_result(result, json_output, lambda: str(result))
        _plot_note(plot, json_output)
        if report is not None:
            _write_report(report, result.section(), json_output)

    _one_line_errors(command)


@compare_app.command("history")
def history_command(
    file: str = typer.Argument(
        ..., metavar="HISTORY.csv", help="One published result per row: columns date and score."
    ),
    sigma: str | None = typer.Option(
        None, "--sigma", metavar="S", help=f"{SIGMA}: the benchmark's SD of one result, in score units."
    ),
    test_size: str | None = typer.Option(
        None, "--test-size", metavar="N", help=f"n, test items: {SIGMA} = sqrt(p(1 - p)/n) (binomial, §2.2)."
    ),
    alpha: str = typer.Option(
        "0.05", "--alpha", metavar="ALPHA", help=f"{ALPHA} of the one-sided z-test of each increment."
    ),
    direction: str = _DIRECTION_OPTION,
    date_column: str = typer.Option(
        "date", "--date-column", metavar="NAME", help="The column holding the dates (any case)."
    ),
    score_column: str = _SCORE_COLUMN_OPTION,
    json_output: bool = _JSON_OPTION,
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write the paper's Fig. 3 for this history to FILE.png."
    ),
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
    lower_is_better: bool = _LOWER_IS_BETTER_OPTION,
) -> None:
    """Which state-of-the-art increments of a benchmark exceed its noise (paper §2.2, §3.1, Fig. 3)."""

    def command():
        if (sigma is None) == (test_size is None):
            raise InputError(
                f"give either --sigma S (the SD of one result) or --test-size N (binomial {SIGMA}), not both"
                if sigma is not None
                else f"give --sigma S (the SD of one result) or --test-size N (binomial {SIGMA})"
            )
        options = {
            "alpha": _probability(alpha, "--alpha"),
            "direction": _direction(direction, lower_is_better),
        }
        if sigma is not None:
            options["sigma"] = _positive_number(sigma, "--sigma")
        else:
            options["test_size"] = _count(test_size, "--test-size")
        if plot is not None:
            _check_plot_path(plot)
        if report is not None:
            _check_report_path(report)

        from benchtrust.compare import history, plot_history

        result = history(file, date_column=date_column, score_column=score_column, **options)
        if plot is not None:
            from benchtrust._figures import save_figure

            save_figure(plot_history(result), plot)
        _print_result(result, json_output, lambda: str(result))
        _plot_note(plot, json_output)
        if report is not None:
            _write_report(report, result.section(), json_output)

    _one_line_errors(command)
