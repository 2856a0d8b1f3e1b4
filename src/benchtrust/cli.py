"""The ``benchtrust`` command: one command group per subpackage, nothing else.

Heavy modules (numpy, scipy, pandas, matplotlib and the subpackages themselves) are imported inside the
command functions, so ``benchtrust --help`` stays fast.

Every :class:`benchtrust.InputError` becomes one line ``benchtrust: error: <message>`` on stderr with exit
code 2; usage errors also exit with 2. Commands catch InputError themselves too (so the same holds when the
app is run in-process, as by typer's ``CliRunner``); :func:`main` is the backstop.
"""

import typer
from typer.core import TyperGroup

from benchtrust._io import InputError, check_count, check_probability, read_numbers

__all__ = ["app", "main", "sota_app"]

PROG = "benchtrust"
NOT_BUILT_EXIT_CODE = 2
INPUT_ERROR_EXIT_CODE = 2
# Greek letters the help texts share with the paper, spelled out where the linter would take them for Latin.
_RHO = "\N{GREEK SMALL LETTER RHO}"
_ALPHA = "\N{GREEK SMALL LETTER ALPHA}"

app = typer.Typer(
    name=PROG,
    help="Tell how much to trust a machine-learning benchmark claim.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: ``benchtrust sota``: commands are registered on this sub-app with ``@sota_app.command(...)``.
sota_app = typer.Typer(
    name="sota",
    help="Is the top of a leaderboard the state of the art, or the luck of many tries?",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(sota_app)


class _NotBuiltGroup(TyperGroup):
    """A command group that is listed in ``--help`` but, whatever its arguments, only says it is not built."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        if ctx.resilient_parsing:  # shell completion: stay silent
            return []
        typer.echo(f"{PROG} {self.name}: not built yet (planned; see the project issues)", err=True)
        raise typer.Exit(NOT_BUILT_EXIT_CODE)


def _add_not_built(name: str, question: str) -> None:
    app.add_typer(typer.Typer(name=name, cls=_NotBuiltGroup, add_help_option=False), name=name, help=question)


_add_not_built("consistency", "Could these reported scores have come from the experiment described?")
_add_not_built("compare", "Is A really better than B, given all the sources of variance?")
_add_not_built("multiverse", "Would the ranking survive other reasonable design and analysis choices?")


def _error_line(exc: InputError) -> str:
    """The one stderr line an :class:`InputError` becomes."""
    message = " ".join(str(exc).split())  # one line, whatever the message holds
    return f"{PROG}: error: {message}"


# Options take text and are checked here rather than by typer's types, so that a bad value gives the same
# one-line error as every other input mistake.
def _number(text: str, option: str) -> float:
    """`text` given to `option` as a float, or an InputError naming the option."""
    try:
        return float(text)
    except ValueError:
        raise InputError(f"{option}: expected a number, got {text!r}") from None


def _count(text: str, option: str) -> int:
    """`text` given to `option` as a positive whole number (``3000``, ``1e6``)."""
    try:
        value = int(text)
    except ValueError:
        value = _number(text, option)
        if not value.is_integer():
            raise InputError(f"{option}: expected a positive whole number, got {text!r}") from None
    return check_count(value, option)


def _probability(text: str, option: str, **interval) -> float:
    """`text` given to `option` as a probability, in (0, 1) unless `interval` says otherwise."""
    return check_probability(_number(text, option), option, **interval)


@sota_app.command("best-of")
def best_of_command(
    classifiers: str | None = typer.Option(
        None, "--classifiers", metavar="M", help="m, the number of classifiers (with --accuracies: checked)."
    ),
    test_size: str | None = typer.Option(
        None, "--test-size", metavar="N", help="n, the number of test items (required)."
    ),
    accuracy: str | None = typer.Option(
        None, "--accuracy", metavar="THETA", help="θ, the true accuracy shared by all m classifiers."
    ),
    accuracies: str | None = typer.Option(
        None,
        "--accuracies",
        metavar="FILE",
        help="θ_j of each classifier: one per line, or a CSV/TSV column 'accuracy'.",
    ),
    correlation: str = typer.Option(
        "0",
        "--correlation",
        metavar="RHO",
        help=f"{_RHO}, correlation with a latent reference classifier Y0 (0: independent).",
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
        "0.05", "--alpha", metavar="ALPHA", help=f"{_ALPHA}: report the central 1 - {_ALPHA} interval."
    ),
    drop_invalid: bool = typer.Option(
        False,
        "--drop-invalid",
        help=f"Leave out classifiers that Eq. 12 rules out for {_RHO} and θ0 (as the paper does).",
    ),
    json_output: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write the paper's Fig. 1 for this result to FILE.png."
    ),
) -> None:
    """Distribution of the best accuracy among m classifiers on one test set of n items (paper §3-4)."""
    try:
        _best_of(
            classifiers=classifiers,
            test_size=test_size,
            accuracy=accuracy,
            accuracies=accuracies,
            correlation=correlation,
            reference_accuracy=reference_accuracy,
            fixed_reference=fixed_reference,
            alpha=alpha,
            drop_invalid=drop_invalid,
            json_output=json_output,
            plot=plot,
        )
    except InputError as exc:
        typer.echo(_error_line(exc), err=True)
        raise typer.Exit(INPUT_ERROR_EXIT_CODE) from None


def _best_of(
    *,
    classifiers,
    test_size,
    accuracy,
    accuracies,
    correlation,
    reference_accuracy,
    fixed_reference,
    alpha,
    drop_invalid,
    json_output,
    plot,
):
    """``benchtrust sota best-of``: check the options, compute, plot, print; InputError on bad input."""
    import json
    from pathlib import Path

    # Every option is checked before anything is computed or written.
    if accuracy is not None and accuracies is not None:
        raise InputError("give either --accuracy THETA or --accuracies FILE, not both")
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
        from benchtrust.sota._plot import _image_format

        folder = Path(plot).parent
        if not folder.is_dir():
            what = "is not a folder" if folder.exists() else "does not exist"
            raise InputError(f"--plot: cannot write {plot}: folder '{folder}' {what}")
        _image_format(plot)

    if accuracies is None:
        theta = _probability(accuracy, "--accuracy")
        if m is None:
            raise InputError("--classifiers M is required with --accuracy (m, the number of classifiers)")
        shown_theta = f"{theta:g}"
    else:
        theta = read_numbers(accuracies, column="accuracy", what="accuracy")
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
        low, high = float(theta.min()), float(theta.max())
        shown_theta = f"{low:g}" if low == high else f"{low:g} to {high:g}"
        shown_theta += f" (θ_j from {accuracies})"

    from benchtrust.sota import best_of, plot_best_of

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
    if plot is not None:
        plot_best_of(result, plot)

    if json_output:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        typer.echo(_best_of_table(result, shown_theta))
    if plot is not None:
        typer.echo(f"plot written to {plot}", err=json_output)


def _best_of_table(result, shown_theta: str) -> str:
    """The readable summary of a :class:`~benchtrust.sota.BestOfResult`."""
    n = result.test_size
    low, high = result.ci
    rows = [
        ("model", f"{result.model} ({result.method})"),
        ("classifiers m", f"{result.classifiers}"),
        ("test size n", f"{n}"),
        ("accuracy θ", shown_theta),
    ]
    if result.correlation > 0:
        reference = (
            f"fixed Y0: exactly {int(result.reference_accuracy * n + 0.5)} of {n} right"
            if result.fixed_reference
            else "random Y0"
        )
        rows += [
            (f"correlation {_RHO}", f"{result.correlation:g}"),
            ("reference θ0", f"{result.reference_accuracy:g} ({reference})"),
        ]
    rows += [
        ("expected best E", f"{result.expected_max:.6f}"),
        ("SD of best", f"{result.sd_max:#.4g}"),
        (
            f"{100 * (1 - result.alpha):g}% central interval",
            f"[{low:.6f}, {high:.6f}] ({round(low * n)} to {round(high * n)} of {n} right)",
        ),
        ("dropped (Eq. 12)", f"{result.dropped}"),
    ]
    width = max(len(name) for name, _ in rows)
    lines = ["best of m classifiers on one test set (Møllersen & Holsbø §3-4)"]
    lines += [f"  {name:<{width}}  {value}" for name, value in rows]
    return "\n".join(lines)


def main(args: list[str] | None = None) -> None:
    """Run the ``benchtrust`` command with `args` (default: ``sys.argv[1:]``); never returns.

    An :class:`~benchtrust.InputError` raised by a command is printed as one line
    ``benchtrust: error: <message>`` on stderr, and the process exits with code 2, without a traceback.
    """
    try:
        app(args=args, prog_name=PROG)
    except InputError as exc:
        typer.echo(_error_line(exc), err=True)
        raise SystemExit(INPUT_ERROR_EXIT_CODE) from None
