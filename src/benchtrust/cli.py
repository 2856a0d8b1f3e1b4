"""The ``benchtrust`` command: one command group per subpackage, nothing else.

Heavy modules (numpy, scipy, pandas, matplotlib and the subpackages themselves) are imported inside the
command functions, so ``benchtrust --help`` stays fast.

Every :class:`benchtrust.InputError` becomes one line ``benchtrust: error: <message>`` on stderr with exit
code 2; usage errors also exit with 2. Commands catch InputError themselves too (so the same holds when the
app is run in-process, as by typer's ``CliRunner``); :func:`main` is the backstop.
"""

import re

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


# Library arguments that are options of the commands: their names in messages become the options'.
_OPTION_NAMES = re.compile(
    r"(?<![\w.-])(test_size|positives|classifiers|accuracy|correlation|reference_accuracy|alpha|bootstrap"
    r"|classes|max_plausible|score_column|repetitions|seed)(?=[:=])"
)


def _error_line(exc: InputError) -> str:
    """The one stderr line an :class:`InputError` becomes, naming options as typed (``--test-size``)."""
    message = " ".join(str(exc).split())  # one line, whatever the message holds
    message = _OPTION_NAMES.sub(lambda match: "--" + match[1].replace("_", "-"), message)
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
    metric: str = typer.Option(
        "accuracy", "--metric", metavar="accuracy|auc", help="The score: accuracy (exact) or AUC (simulated)."
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
    repetitions: str = typer.Option(
        "10000", "--repetitions", metavar="R", help="With --metric auc: simulated competitions."
    ),
    seed: str | None = typer.Option(None, "--seed", metavar="S", help="With --metric auc: random seed."),
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
    """Distribution of the best accuracy (§3-4) or AUC (§5.2.1) among m classifiers on one test set."""
    try:
        if metric == "auc":
            _best_of_auc(
                classifiers=classifiers,
                test_size=test_size,
                auc=auc,
                positives=positives,
                repetitions=repetitions,
                seed=seed,
                alpha=alpha,
                json_output=json_output,
                unused={"--accuracy": accuracy, "--accuracies": accuracies, "--plot": plot},
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
        _check_plot_path(plot)

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


def _best_of_auc(*, classifiers, test_size, auc, positives, repetitions, seed, alpha, json_output, unused):
    """``benchtrust sota best-of --metric auc``: the simulated best of m AUCs (§5.2.1)."""
    import json

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
    reps = _count(repetitions, "--repetitions")
    level = _probability(alpha, "--alpha")
    random = None if seed is None else _count_or_zero(seed, "--seed")

    from benchtrust.sota import best_of_auc

    result = best_of_auc(
        a, classifiers=m, test_size=n, positives=k, alpha=level, repetitions=reps, seed=random
    )
    if json_output:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        typer.echo(_best_of_table(result, f"{a:g}"))


def _count_or_zero(text: str, option: str) -> int:
    """`text` given to `option` as a whole number >= 0 (a seed, a number of resamples)."""
    if text.strip() == "0":
        return 0
    try:
        return _count(text, option)
    except InputError:
        raise InputError(f"{option}: expected a whole number >= 0, got {text!r}") from None


def _best_of_table(result, shown_theta: str) -> str:
    """The readable summary of a :class:`~benchtrust.sota.BestOfResult`."""
    n = result.test_size
    low, high = result.ci
    auc = result.metric == "auc"
    rows = [
        ("model", f"{result.model} ({result.method})"),
        ("classifiers m", f"{result.classifiers}"),
        ("test size n", f"{n}" + (f" ({result.positives} positive)" if auc else "")),
        ("AUC a" if auc else "accuracy θ", shown_theta),
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
    interval = f"[{low:.6f}, {high:.6f}]"
    if not auc:
        interval += f" ({round(low * n)} to {round(high * n)} of {n} right)"
    rows += [
        ("expected best E", f"{result.expected_max:.6f}"),
        ("SD of best", f"{result.sd_max:#.4g}"),
        (f"{100 * (1 - result.alpha):g}% central interval", interval),
    ]
    if not auc:
        rows.append(("dropped (Eq. 12)", f"{result.dropped}"))
    width = max(len(name) for name, _ in rows)
    section = "§5.2.1" if auc else "§3-4"
    lines = [f"best of m classifiers on one test set (Møllersen & Holsbø {section})"]
    lines += [f"  {name:<{width}}  {value}" for name, value in rows]
    return "\n".join(lines)


@sota_app.command("leaderboard")
def leaderboard_command(
    file: str = typer.Argument(
        ..., metavar="FILE", help="Leaderboard: Kaggle's raw download, or a CSV/TSV with a score column."
    ),
    test_size: str | None = typer.Option(
        None, "--test-size", metavar="N", help="n, items in the hidden test set (required)."
    ),
    metric: str = typer.Option("accuracy", "--metric", metavar="accuracy|auc", help="What the scores are."),
    positives: str | None = typer.Option(
        None, "--positives", metavar="K", help="n+, positive items in the test set (AUC)."
    ),
    classes: str | None = typer.Option(
        None, "--classes", metavar="C", help="Number of classes: accuracies <= 1/C are left out."
    ),
    max_plausible: str | None = typer.Option(
        None, "--max-plausible", metavar="S", help="Leave out scores above S (e.g. 0.999: leaked labels)."
    ),
    score_column: str | None = typer.Option(
        None, "--score-column", metavar="NAME", help="The column holding the scores."
    ),
    correlation: str = typer.Option(
        "0.6", "--correlation", metavar="RHO", help=f"{_RHO} of the dependence model (accuracy; §5.1.1: 0.6)."
    ),
    bootstrap: str = typer.Option(
        "1000", "--bootstrap", metavar="B", help="Bootstrap resamples of teams (accuracy: exact if B > 0)."
    ),
    seed: str | None = typer.Option(None, "--seed", metavar="S", help="Random seed (AUC simulation)."),
    alpha: str = typer.Option(
        "0.05", "--alpha", metavar="ALPHA", help=f"{_ALPHA}: report central 1 - {_ALPHA} intervals."
    ),
    json_output: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write the paper's Fig. 7 for this leaderboard."
    ),
) -> None:
    """A sober state of the art from a leaderboard, allowing for multiplicity (paper §5, Table 3)."""
    try:
        _leaderboard(
            file=file,
            test_size=test_size,
            metric=metric,
            positives=positives,
            classes=classes,
            max_plausible=max_plausible,
            score_column=score_column,
            correlation=correlation,
            bootstrap=bootstrap,
            seed=seed,
            alpha=alpha,
            json_output=json_output,
            plot=plot,
        )
    except InputError as exc:
        typer.echo(_error_line(exc), err=True)
        raise typer.Exit(INPUT_ERROR_EXIT_CODE) from None


def _check_plot_path(plot):
    """InputError unless `plot` can be written: an existing folder and an image suffix."""
    from pathlib import Path

    from benchtrust.sota._plot import _image_format

    folder = Path(plot).parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise InputError(f"--plot: cannot write {plot}: folder '{folder}' {what}")
    _image_format(plot)


def _leaderboard(
    *,
    file,
    test_size,
    metric,
    positives,
    classes,
    max_plausible,
    score_column,
    correlation,
    bootstrap,
    seed,
    alpha,
    json_output,
    plot,
):
    """``benchtrust sota leaderboard``: check the options, estimate, plot, print; InputError on bad input."""
    import json
    import sys

    if test_size is None:
        raise InputError("--test-size N is required (n, items in the hidden test set)")
    if metric not in ("accuracy", "auc"):
        raise InputError(f"--metric: expected 'accuracy' or 'auc', got {metric!r}")
    options = {
        "test_size": _count(test_size, "--test-size"),
        "metric": metric,
        "positives": None if positives is None else _count(positives, "--positives"),
        "classes": None if classes is None else _count(classes, "--classes"),
        "max_plausible": None
        if max_plausible is None
        else _probability(max_plausible, "--max-plausible", upper_open=False),
        "score_column": score_column,
        "correlation": _probability(correlation, "--correlation", closed=True, upper_open=True),
        "bootstrap": _count_or_zero(bootstrap, "--bootstrap"),
        "seed": None if seed is None else _count_or_zero(seed, "--seed"),
        "alpha": _probability(alpha, "--alpha"),
    }
    if plot is not None:
        _check_plot_path(plot)

    from benchtrust.sota import leaderboard

    if json_output or not sys.stderr.isatty():
        result = leaderboard(file, **options)
    else:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("reading the leaderboard")
            result = leaderboard(
                file, **options, progress=lambda text: bar.update(task, description=f"estimating: {text}")
            )
    if plot is not None:
        from benchtrust.sota import plot_leaderboard

        plot_leaderboard(result, plot)
    if json_output:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        typer.echo(_leaderboard_text(result, file))
    if plot is not None:
        typer.echo(f"plot written to {plot}", err=json_output)


def _leaderboard_text(result, file) -> str:
    """The readable summary of a :class:`~benchtrust.sota.LeaderboardResult`, ending in plain words."""
    import textwrap

    auc = result.metric == "auc"
    name = "AUC" if auc else "accuracy"
    level = f"{100 * (1 - result.alpha):g}%"
    excluded = ", ".join(f"{count} {reason}" for reason, count in result.excluded.items())

    def interval(ci):
        return f"[{ci[0]:.4f}, {ci[1]:.4f}]"

    top, plug, crop, cons = result.observed_max, result.plugin, result.cropped, result.conservative
    rows = [
        ("teams used", f"{result.teams} (excluded: {excluded})"),
        ("test size n", f"{result.test_size}" + (f" ({result.positives} positive)" if auc else "")),
        ("observed best", f"{top:.4f} ({result.teams_at_max} team{'s' * (result.teams_at_max > 1)})"),
        (
            f"no multiplicity, {level}",
            f"{interval(result.naive_ci)} ({result.teams_in_naive_ci} teams in it)",
        ),
        ("plug-in: E(best)", f"{plug.expected_max:.4f}, {level} {interval(plug.ci)}"),
        ("cropping: SOTA", f"{crop.sota:.4f}, {level} {interval(crop.ci)}, {crop.teams_above} teams above"),
        (
            "conservative: SOTA",
            f"{cons.sota:.4f}, {level} {interval(cons.ci)}, {cons.teams_above} teams above",
        ),
    ]
    dropped = [estimate.dropped for estimate in (plug, crop, cons)]
    if not auc:
        rows.insert(
            4, (f"model (correlation {_RHO})", f"{result.correlation:g}, bootstrap {result.bootstrap}")
        )
        if any(dropped):
            rows.insert(
                5,
                (
                    "left out by Eq. 12",
                    f"{dropped[0]} (plug-in), {dropped[1]} (cropping), {dropped[2]} (conservative) teams",
                ),
            )
    width = max(len(label) for label, _ in rows)
    lines = [f"state of the art from the leaderboard {file} (Møllersen & Holsbø §5, Table 3)"]
    lines += [f"  {label:<{width}}  {value}" for label, value in rows]
    lines.append("")
    if top >= 1.0:
        verdict = (
            f"{result.teams_at_max} teams have a perfect score. A perfect {name} says nothing about the "
            "state of the art when the test labels can be found (as Kaggle's Titanic labels can): it is "
            "leakage, not skill. --max-plausible 0.999 leaves perfect scores out."
        )
    elif plug.ci[0] > top:
        verdict = (
            f"If every team's true {name} were its score, the best observed {name} would be expected at "
            f"{plug.expected_max:.4f}, and even the low end of its interval ({plug.ci[0]:.4f}) is above the "
            f"observed best {top:.4f}: the top of this leaderboard is what luck on {result.test_size} test "
            "items produces among this many teams, not evidence of a better method."
        )
    elif plug.expected_max - top >= 0.5e-4:  # E(best) differs from the observed best at 4 decimals
        verdict = (
            f"The observed best {top:.4f} is within the range that luck alone produces among "
            f"{result.teams} teams on {result.test_size} items (plug-in interval {interval(plug.ci)}): "
            "it is an optimistic estimate of the state of the art."
        )
    else:
        verdict = (
            f"The observed best {top:.4f} stands out from the other teams: if every team's true {name} were "
            f"its score, the best would be expected at {plug.expected_max:.4f}, the observed best itself. "
            "Multiplicity does not explain it."
        )
    lines.append(textwrap.fill(verdict, width=100))
    if max(dropped) > result.teams / 2:
        lines.append(
            textwrap.fill(
                f"With correlation {_RHO} = {result.correlation:g}, the dependence model admits only teams "
                "close enough to the best (Eq. 12): most teams were left out, as the paper does (§5.1.1), "
                "and the estimates rest on the best teams alone. --correlation 0 keeps every team.",
                width=100,
            )
        )
    if crop.sota < top:
        lines.append(
            textwrap.fill(
                f"A sober state of the art is {crop.sota:.4f} (conservatively {cons.sota:.4f}): with every "
                f"team capped there, the expected best score equals the observed best. "
                f"{crop.teams_above} teams ({cons.teams_above} conservatively) score above it: "
                "statistically they are all at the state-of-the-art level, and their order among "
                "themselves is luck.",
                width=100,
            )
        )
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
