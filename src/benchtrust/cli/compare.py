"""``benchtrust compare``: is A really better than B, given all the sources of variance?

``outperform`` (P(A > B) over runs and the decision), ``sample-size`` (runs the test needs),
``error-rates`` (how often each criterion concludes, simulated) and ``history`` (which state-of-the-art
increments exceed the noise) parse their options into the arguments of their row of the table of analyses
(:mod:`benchtrust._report.analyses`) and run it (:func:`~benchtrust.cli._common.run_analysis_command`):
the result is printed (its text, or ``--json``), with an optional plot and HTML report (the result's
section).
"""

from collections.abc import Sequence

import typer

from benchtrust._io import InputError, check_direction
from benchtrust._words import ALPHA, BETA, GAMMA, SIGMA
from benchtrust.cli._common import (
    _FORCE_OPTION,
    _JSON_OPTION,
    _REPORT_OPTION,
    _count,
    _count_or_zero,
    _group,
    _number,
    _number_or_zero,
    _one_line_errors,
    _positive_number,
    _probability,
    run_analysis_command,
    typed_option,
)

compare_app: typer.Typer = _group("compare", "Is A really better than B, given all the sources of variance?")


def _gamma(text: str, option: str) -> float:
    """`text` given to `option` (``--gamma``): a probability strictly between 0.5 and 1."""
    value = _number(text, option)
    if not 0.5 < value < 1:
        raise InputError(f"{option}: expected a value strictly between 0.5 and 1, got {text!r}")
    return value


def _runs(text: str, option: str) -> int:
    """`text` given to `option` (``--runs``): k, the runs of each algorithm, at least 2 (one run has no
    variance)."""
    runs = _count(text, option)
    if runs < 2:
        raise InputError(
            f"{option}: expected at least 2 runs of each algorithm, got {runs} (one run has no variance: "
            "neither the t-test nor the interval of P(A > B) exists)"
        )
    return runs


def _probabilities(text: str, option: str) -> list[float]:
    """`text` given to `option`: probabilities in (0, 1], separated by commas."""
    parts = [part.strip() for part in text.split(",")]
    if not all(parts):
        raise InputError(f"{option}: expected numbers separated by commas, got {text!r}")
    return [_probability(part, option, closed=False, upper_open=False) for part in parts]


_COMPARE_GAMMA_OPTION = typed_option(
    "0.75",
    "--gamma",
    metavar="GAMMA",
    parse=_gamma,
    help=f"{GAMMA} in (0.5, 1): the smallest P(A > B) that is meaningful (the paper recommends 0.75).",
)
_COMPARE_ALPHA_OPTION = typed_option(
    "0.05",
    "--alpha",
    metavar="ALPHA",
    parse=_probability,
    help=f"{ALPHA}: the interval of P(A > B) has level 1 - {ALPHA}.",
)
_MAX_MEMORY_OPTION = typed_option(
    "2e9",
    "--max-memory",
    metavar="BYTES",
    parse=_count,
    help="Refuse to start when the values kept for the result (resamples, posterior samples) would take "
    "more than BYTES.",
)
_DIRECTION_OPTION = typed_option(
    "higher",
    "--direction",
    metavar="higher|lower",
    parse=check_direction,
    help="Which scores are better: higher (accuracy) or lower (error rate, loss).",
)
#: The old spelling of ``--direction lower``, hidden from the help; it still works, with a note on stderr.
_LOWER_IS_BETTER_OPTION = typer.Option(False, "--lower-is-better", hidden=True)


def _direction(direction: str, lower_is_better: bool) -> str:
    """The direction ``--direction`` gives, or ``lower`` for the deprecated ``--lower-is-better`` (said so
    on stderr)."""
    if lower_is_better:
        typer.echo("note: --lower-is-better is deprecated; use --direction lower", err=True)
        return "lower"
    return direction


_SCORE_COLUMN_OPTION = typer.Option(
    "score", "--score-column", metavar="NAME", help="The column holding the scores (any case)."
)
#: ``error-rates --probabilities``: its value is a list, so the option is made once, here (ruff's B008).
_PROBABILITIES_OPTION = typed_option(
    None,
    "--probabilities",
    metavar="P1,P2,...",
    parse=_probabilities,
    help="The true P(A > B) to simulate, in (0, 1] (default: 25 values from 0.4 to 1, as Fig. 6).",
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
    gamma: float = _COMPARE_GAMMA_OPTION,
    alpha: float = _COMPARE_ALPHA_OPTION,
    beta: float = typed_option(
        "0.05",
        "--beta",
        metavar="BETA",
        parse=_probability,
        help=f"{BETA}: rate of false negatives; with fewer pairs than C.3 asks for {GAMMA}, {ALPHA} and "
        f"{BETA}, no conclusion is drawn.",
    ),
    direction: str = _DIRECTION_OPTION,
    resamples: int | None = typed_option(
        None,
        "--resamples",
        metavar="K",
        parse=_count,
        help=f"Bootstrap K resamples, at least 1 + 2/{ALPHA} (default: the exact interval).",
    ),
    seed: int = typed_option(
        "0",
        "--seed",
        metavar="S",
        parse=_count_or_zero,
        help="Random seed of the random pairing and of --resamples.",
    ),
    max_memory: int = _MAX_MEMORY_OPTION,
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
        arguments = {
            "file": runs,
            "a": a,
            "b": b,
            "pair_by": pair_by,
            "algorithm_column": algorithm_column,
            "score_column": score_column,
            "gamma": gamma,
            "alpha": alpha,
            "beta": beta,
            "direction": _direction(direction, lower_is_better),
            "resamples": resamples,
            "seed": seed,
            "max_memory": max_memory,
        }
        run_analysis_command(
            "compare outperform", arguments, json_output=json_output, label="bootstrap", report=report
        )

    _one_line_errors(command)


@compare_app.command("sample-size")
def sample_size_command(
    gamma: float = _COMPARE_GAMMA_OPTION,
    alpha: float = typed_option(
        "0.05", "--alpha", metavar="ALPHA", parse=_probability, help=f"{ALPHA}: rate of false positives."
    ),
    beta: float = typed_option(
        "0.05",
        "--beta",
        metavar="BETA",
        parse=_probability,
        help=f"{BETA}: rate of false negatives (power 1 - {BETA}).",
    ),
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """How many runs of each pipeline the test of P(A > B) needs (Noether 1987; paper C.3)."""

    def command():
        arguments = {"gamma": gamma, "alpha": alpha, "beta": beta}
        run_analysis_command("compare sample-size", arguments, json_output=json_output, report=report)

    _one_line_errors(command)


@compare_app.command("error-rates")
def error_rates_command(
    sigma: float | None = typed_option(
        None,
        "--sigma",
        metavar="S",
        parse=_positive_number,
        help=f"{SIGMA}: SD of one run with every source randomised (required).",
    ),
    runs: int = typed_option(
        "50", "--runs", metavar="K", parse=_runs, help="k >= 2, runs of each algorithm (§4.2: 50)."
    ),
    conditional_sd: float | None = typed_option(
        None,
        "--conditional-sd",
        metavar="S",
        parse=_positive_number,
        help="Biased estimator: SD of the runs around one hyperparameter optimisation (with --bias-sd).",
    ),
    bias_sd: float | None = typed_option(
        None,
        "--bias-sd",
        metavar="S",
        parse=_number_or_zero,
        help="Biased estimator: SD of its mean across hyperparameter optimisations (with --conditional-sd).",
    ),
    probabilities: Sequence[float] | None = _PROBABILITIES_OPTION,
    delta: float | None = typed_option(
        None,
        "--delta",
        metavar="D",
        parse=_number,
        help=f"δ of the single-point and average criteria (default 1.9952{SIGMA}).",
    ),
    gamma: float = _COMPARE_GAMMA_OPTION,
    alpha: float = _COMPARE_ALPHA_OPTION,
    simulations: int = typed_option(
        "1000",
        "--simulations",
        metavar="R",
        parse=_count,
        help=f"Simulated comparisons per probability, at least 3/{ALPHA}.",
    ),
    seed: int | None = typed_option(None, "--seed", metavar="S", parse=_count_or_zero, help="Random seed."),
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
        if (conditional_sd is None) != (bias_sd is None):
            raise InputError(
                "--conditional-sd and --bias-sd go together: give both to simulate the biased estimator"
            )
        arguments = {
            "sigma": sigma,
            "runs": runs,
            "conditional_sd": conditional_sd,
            "bias_sd": bias_sd,
            "probabilities": probabilities,
            "delta": delta,
            "gamma": gamma,
            "alpha": alpha,
            "simulations": simulations,
            "seed": seed,
        }
        run_analysis_command(
            "compare error-rates",
            arguments,
            json_output=json_output,
            label="simulating benchmarks",
            report=report,
            plot=plot,
        )

    _one_line_errors(command)


@compare_app.command("history")
def history_command(
    file: str = typer.Argument(
        ..., metavar="HISTORY.csv", help="One published result per row: columns date and score."
    ),
    sigma: float | None = typed_option(
        None,
        "--sigma",
        metavar="S",
        parse=_positive_number,
        help=f"{SIGMA}: the benchmark's SD of one result, in score units.",
    ),
    test_size: int | None = typed_option(
        None,
        "--test-size",
        metavar="N",
        parse=_count,
        help=f"n, test items: {SIGMA} = sqrt(p(1 - p)/n) (binomial, §2.2).",
    ),
    alpha: float = typed_option(
        "0.05",
        "--alpha",
        metavar="ALPHA",
        parse=_probability,
        help=f"{ALPHA} of the one-sided z-test of each increment.",
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
        arguments = {
            "file": file,
            "sigma": sigma,
            "test_size": test_size,
            "alpha": alpha,
            "direction": _direction(direction, lower_is_better),
            "date_column": date_column,
            "score_column": score_column,
        }
        run_analysis_command(
            "compare history", arguments, json_output=json_output, label="reading", report=report, plot=plot
        )

    _one_line_errors(command)
