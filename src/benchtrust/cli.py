"""The ``benchtrust`` command: one command group per subpackage, nothing else.

Heavy modules (numpy, scipy, pandas, matplotlib and the subpackages themselves) are imported inside the
command functions, so ``benchtrust --help`` stays fast.

Every :class:`benchtrust.InputError` becomes one line ``benchtrust: error: <message>`` on stderr with exit
code 2; usage errors also exit with 2. Commands catch InputError themselves too (so the same holds when the
app is run in-process, as by typer's ``CliRunner``); :func:`main` is the backstop.
"""

import re

import typer

from benchtrust._io import InputError, check_count, check_probability, read_numbers

__all__ = ["app", "compare_app", "consistency_app", "main", "multiverse_app", "sota_app"]

PROG = "benchtrust"
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


def _group(name: str, question: str) -> typer.Typer:
    """The command group ``benchtrust NAME``, listed in ``--help`` with the question it answers."""
    group = typer.Typer(name=name, help=question, no_args_is_help=True, pretty_exceptions_enable=False)
    app.add_typer(group)
    return group


#: The command groups: commands are registered with ``@sota_app.command(...)`` and so on.
sota_app = _group("sota", "Is the top of a leaderboard the state of the art, or the luck of many tries?")
consistency_app = _group(
    "consistency", "Could these reported scores have come from the experiment described?"
)
compare_app = _group("compare", "Is A really better than B, given all the sources of variance?")
multiverse_app = _group(
    "multiverse", "Would the ranking survive other reasonable design and analysis choices?"
)


_JSON_OPTION = typer.Option(False, "--json", help="Print the result as one JSON object.")
_REPORT_OPTION = typer.Option(
    None,
    "--report",
    metavar="FILE.html",
    help="Also write the result as a self-contained HTML report to FILE.html.",
)


def _check_report_path(report, option: str = "--report") -> None:
    """InputError unless `report` can be written: an existing folder and a .html or .htm suffix."""
    from pathlib import Path

    target = Path(report)
    if target.suffix.lower() not in (".html", ".htm"):
        raise InputError(f"{option}: expected a file name ending in .html or .htm, got {report!r}")
    if not target.parent.is_dir():
        what = "is not a folder" if target.parent.exists() else "does not exist"
        raise InputError(f"{option}: cannot write {report}: folder '{target.parent}' {what}")
    if target.is_dir():
        raise InputError(f"{option}: cannot write {report}: it is a folder")


def _write_report(report, sections, json_output: bool, title: str = "benchtrust report") -> None:
    """Write `sections` (one or a list) as the HTML report `report`, if given, and say so on the terminal."""
    if report is None:
        return
    from benchtrust._report.html import write_report

    write_report(sections if isinstance(sections, list) else [sections], report, title=title)
    typer.echo(f"report written to {report}", err=json_output)


# Library arguments that are options of the commands: their names in messages become the options'.
_OPTION_NAMES = re.compile(
    r"(?<![\w.-])(test_size|positives|classifiers|accuracy|correlation|reference_accuracy|alpha|bootstrap"
    r"|classes|max_plausible|score_column|repetitions|seed|negatives|folds|repeats|aggregation|folding|eps"
    r"|rounding|beta|examples|class_counts|average|max_configurations|gamma|resamples|sigma|conditional_sd"
    r"|bias_sd|probabilities|delta|simulations|pair_by)(?=[:=])"
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
    json_output: bool = _JSON_OPTION,
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write the paper's Fig. 1 for this result to FILE.png."
    ),
    report: str | None = _REPORT_OPTION,
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
            correlation=correlation,
            reference_accuracy=reference_accuracy,
            fixed_reference=fixed_reference,
            alpha=alpha,
            drop_invalid=drop_invalid,
            json_output=json_output,
            plot=plot,
            report=report,
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
    report=None,
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
    if report is not None:
        _check_report_path(report)

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
    if report is not None:
        from benchtrust._report.sections import best_of_section

        inputs = () if accuracies is None else (accuracies,)
        _write_report(report, best_of_section(result, accuracy=shown_theta, inputs=inputs), json_output)


def _best_of_auc(
    *, classifiers, test_size, auc, positives, repetitions, seed, alpha, json_output, unused, report=None
):
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
    if report is not None:
        _check_report_path(report)

    from benchtrust.sota import best_of_auc

    result = best_of_auc(
        a, classifiers=m, test_size=n, positives=k, alpha=level, repetitions=reps, seed=random
    )
    if json_output:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        typer.echo(_best_of_table(result, f"{a:g}"))
    if report is not None:
        from benchtrust._report.sections import best_of_section

        _write_report(report, best_of_section(result, accuracy=f"{a:g}"), json_output)


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
    json_output: bool = _JSON_OPTION,
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write the paper's Fig. 7 for this leaderboard."
    ),
    report: str | None = _REPORT_OPTION,
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
            report=report,
        )
    except InputError as exc:
        typer.echo(_error_line(exc), err=True)
        raise typer.Exit(INPUT_ERROR_EXIT_CODE) from None


def _check_plot_path(plot):
    """InputError unless `plot` can be written: an existing folder and an image suffix."""
    from pathlib import Path

    from benchtrust._report.figures import image_format

    folder = Path(plot).parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise InputError(f"--plot: cannot write {plot}: folder '{folder}' {what}")
    image_format(plot)


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
    report=None,
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
    if report is not None:
        _check_report_path(report)

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
    if report is not None:
        _write_report(report, _leaderboard_report(result, file, options), json_output)


def _leaderboard_report(result, file, options):
    """The report section of a leaderboard, with the top of the board when the file names the teams."""
    from benchtrust._report.sections import leaderboard_section, top_teams

    try:
        top = top_teams(
            file,
            score_column=options["score_column"],
            classes=options["classes"],
            max_plausible=options["max_plausible"],
        )
    except InputError:
        top = []
    return leaderboard_section(result, file=file, top=top)


def _leaderboard_text(result, file) -> str:
    """The readable summary of a :class:`~benchtrust.sota.LeaderboardResult`, ending in plain words."""
    import textwrap

    auc = result.metric == "auc"
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
    lines += [textwrap.fill(paragraph, width=100) for paragraph in _leaderboard_verdict(result)]
    return "\n".join(lines)


def _leaderboard_verdict(result) -> list[str]:
    """The verdict on a leaderboard in plain words: one paragraph, and notes on Eq. 12 and the sober SOTA."""
    auc = result.metric == "auc"
    name = "AUC" if auc else "accuracy"
    top, plug, crop, cons = result.observed_max, result.plugin, result.cropped, result.conservative
    dropped = [estimate.dropped for estimate in (plug, crop, cons)]

    def interval(ci):
        return f"[{ci[0]:.4f}, {ci[1]:.4f}]"

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
    paragraphs = [verdict]
    if max(dropped) > result.teams / 2:
        paragraphs.append(
            f"With correlation {_RHO} = {result.correlation:g}, the dependence model admits only teams "
            "close enough to the best (Eq. 12): most teams were left out, as the paper does (§5.1.1), "
            "and the estimates rest on the best teams alone. --correlation 0 keeps every team."
        )
    if crop.sota < top:
        paragraphs.append(
            f"A sober state of the art is {crop.sota:.4f} (conservatively {cons.sota:.4f}): with every "
            f"team capped there, the expected best score equals the observed best. "
            f"{crop.teams_above} teams ({cons.teams_above} conservatively) score above it: "
            "statistically they are all at the state-of-the-art level, and their order among "
            "themselves is luck."
        )
    return paragraphs


# --- benchtrust consistency ---------------------------------------------------------------------------------

_PAPER = "Fazekas & Kovács"
_CERTAIN = "a certain conclusion about integers, not a statistical test"
_COULD = "The scores could come from this experiment (which does not show that they did)."
# The options every consistency command shares.
_SCORE_OPTION = typer.Option(
    None,
    "--score",
    metavar="NAME=VALUE",
    help="A reported score, as printed (e.g. acc=0.9400: 4 decimals); repeat for each score.",
)
_EPS_OPTION = typer.Option(
    None,
    "--eps",
    metavar="E",
    help="ε, the numerical uncertainty of every score (default: from the decimals as written).",
)
_ROUNDING_OPTION = typer.Option(
    "round",
    "--rounding",
    metavar="round|floor-or-ceil",
    help="How the scores were shortened, for ε from the decimals: ½·10^-d or 10^-d.",
)
_BETA_OPTION = typer.Option(None, "--beta", metavar="B", help="β of the F-beta scores.")


def _choice(text: str, option: str, choices: tuple[str, ...]) -> str:
    """`text` given to `option`, if it is one of `choices` (any case)."""
    if text.strip().lower() not in choices:
        raise InputError(f"{option}: expected {' or '.join(choices)}, got {text!r}")
    return text.strip().lower()


def _reported_options(score_texts, eps, rounding, beta) -> dict:
    """The options shared by every consistency command, checked: scores (name -> text as typed), ε, ..."""
    import math

    from benchtrust.consistency import score

    if not score_texts:
        raise InputError("give the reported scores: --score NAME=VALUE for each, such as --score acc=0.94")
    scores, canonical = {}, {}
    for text in score_texts:
        name, equals, value = (part.strip() for part in text.partition("="))
        if not (equals and name and value):
            raise InputError(f"--score: expected NAME=VALUE, such as acc=0.94, got {text!r}")
        try:
            found = score(name).name
        except InputError as exc:
            raise InputError(f"--score {text}: {exc}") from None
        if found in canonical:
            same = "given twice" if canonical[found] == name else f"the same score as {canonical[found]}"
            raise InputError(f"--score {text}: {name} is {same} ({found})")
        canonical[found] = name
        if not math.isfinite(_number(value, f"--score {name}")):
            raise InputError(f"--score {name}: expected a finite number, got {value!r}")
        scores[name] = value
    options = {"rounding": _choice(rounding, "--rounding", ("round", "floor-or-ceil"))}
    if eps is not None:
        options["eps"] = _number(eps, "--eps")
        if not 0 <= options["eps"] < math.inf:
            raise InputError(f"--eps: expected a number >= 0, got {eps!r}")
    if beta is not None:
        options["beta"] = _number(beta, "--beta")
        if not 0 < options["beta"] < math.inf:
            raise InputError(f"--beta: expected a positive number, got {beta!r}")
    return {"scores": scores, **options}


def _consistency_errors(command):
    """Run `command`; an InputError becomes one line on stderr and exit code 2."""
    try:
        command()
    except InputError as exc:
        typer.echo(_error_line(exc), err=True)
        raise typer.Exit(INPUT_ERROR_EXIT_CODE) from None


def _with_progress(description: str, quiet: bool, work):
    """``work(progress)``, with a rich progress bar on stderr if it is a terminal, unless `quiet`.

    ``progress(done, total)`` moves the bar; work that never calls it shows a spinner.
    """
    import sys

    if quiet or not sys.stderr.isatty():
        return work(None)
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=None)
        return work(lambda done, total: bar.update(task, completed=done, total=total))


def _print_result(result, json_output: bool, text) -> None:
    """Print ``result.to_dict()`` as JSON, or the readable text ``text()``."""
    import json

    typer.echo(json.dumps(result.to_dict(), indent=2) if json_output else text())


def _scores_table(reported, typed: dict[str, str]) -> list[str]:
    """The lines of the table of reported scores, their ε and the intervals of true values they stand for."""
    from benchtrust.consistency import decimals, score

    written = {score(name).name: (name, value) for name, value in typed.items()}
    rows = [("score", "reported", "ε", "interval of true values")]
    for item in reported:
        name, value = written.get(item.score, (item.score, f"{item.value:g}"))
        digits = min(decimals(f"{item.eps:g}") if item.eps > 0 else decimals(value), 15) + 1
        label = item.score if name.lower() == item.score else f"{item.score} ({name})"
        rows.append((label, value, f"{item.eps:g}", f"[{item.low:.{digits}f}, {item.high:.{digits}f}]"))
    widths = [max(len(row[k]) for row in rows) for k in range(3)]
    return [
        "  " + "  ".join(f"{cell:<{width}}" for cell, width in zip(row, widths, strict=False)) + "  " + row[3]
        for row in rows
    ]


def _paragraph(text: str) -> str:
    """`text` wrapped to lines of at most 100 characters."""
    import textwrap

    return textwrap.fill(text, width=100)


def _pairs_text(pairs) -> str:
    """``[[1, 65], [2, 64]]`` as ``(1, 65), (2, 64)``."""
    return ", ".join(f"({a}, {b})" for a, b in pairs)


def _matrices(count: int) -> str:
    """ "1 confusion matrix", "2 confusion matrices", ..."""
    return "1 confusion matrix" if count == 1 else f"{count} confusion matrices"


def _solutions_verdict(n_solutions: int, solutions, where: str, section: str) -> str:
    """The verdict of a test of one (possibly pooled) confusion matrix, in plain words."""
    if n_solutions == 0:
        return (
            f"inconsistent: no confusion matrix of {where} gives all these scores: the scores cannot come "
            f"from this experiment ({_CERTAIN}; {_PAPER} {section})."
        )
    among = "" if len(solutions) == n_solutions else "among them "
    gives = "gives" if n_solutions == 1 else "give"
    return (
        f"consistent: {_matrices(n_solutions)} of {where} {gives} every score: {among}(tp, tn) = "
        f"{_pairs_text(solutions)}. {_COULD}"
    )


@consistency_app.command("test-set")
def test_set_command(
    positives: str | None = typer.Option(
        None, "--positives", metavar="P", help="p, positives in the test set."
    ),
    negatives: str | None = typer.Option(
        None, "--negatives", metavar="N", help="n, negatives in the test set."
    ),
    scores: list[str] | None = _SCORE_OPTION,
    eps: str | None = _EPS_OPTION,
    rounding: str = _ROUNDING_OPTION,
    beta: str | None = _BETA_OPTION,
    examples: str = typer.Option(
        "10", "--examples", metavar="K", help="List at most K of the matrices found."
    ),
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Could the scores come from one test set of p positives and n negatives? (paper §3)"""

    def command():
        for option, value in {"--positives": positives, "--negatives": negatives}.items():
            if value is None:
                raise InputError(f"{option} is required (the counts of the test set)")
        options = _reported_options(scores, eps, rounding, beta)
        p = _count(positives, "--positives")
        n = _count(negatives, "--negatives")
        shown = _count_or_zero(examples, "--examples")
        if report is not None:
            _check_report_path(report)

        from benchtrust.consistency._test_set import check_test_set

        result = check_test_set(options.pop("scores"), positives=p, negatives=n, examples=shown, **options)
        _print_result(result, json_output, lambda: _test_set_text(result, dict(_typed(scores))))
        if report is not None:
            from benchtrust._report.sections import test_set_section

            section = test_set_section(
                result, typed=dict(_typed(scores)), rounding=None if eps is not None else options["rounding"]
            )
            _write_report(report, section, json_output)

    _consistency_errors(command)


def _typed(score_texts):
    """The (name, value) pairs of ``--score NAME=VALUE`` options, as typed."""
    return [tuple(part.strip() for part in text.partition("=")[::2]) for text in score_texts]


def _test_set_text(result, typed) -> str:
    """The readable summary of a test-set result: inputs, intervals, verdict."""
    where = f"{result.positives} positives and {result.negatives} negatives"
    lines = [f"one test set of {where} ({_PAPER} §3)"]
    lines += _scores_table(result.scores, typed)
    lines += ["", _paragraph(_solutions_verdict(result.n_solutions, result.solutions, where, "§3"))]
    return "\n".join(lines)


_AGGREGATION_WORDS = {"mos": "mean of scores (MoS, §4.3)", "som": "score of means (SoM, §4.2)"}
_FOLDING_WORDS = {
    "stratified": "stratified: the folds of p and n as even as they can be (§4.4.2)",
    "unknown": "unknown: every fold configuration is tried (§4.4.3)",
    "explicit": "as given in the folds file",
}


@consistency_app.command("kfold")
def kfold_command(
    positives: list[str] | None = typer.Option(
        None, "--positives", metavar="P", help="p, positives in the data set; repeat for several data sets."
    ),
    negatives: list[str] | None = typer.Option(
        None, "--negatives", metavar="N", help="n, negatives in the data set; one per --positives."
    ),
    folds: str | None = typer.Option(None, "--folds", metavar="K", help="k, the number of folds."),
    repeats: str | None = typer.Option(None, "--repeats", metavar="R", help="Repetitions of the k folds."),
    aggregation: str | None = typer.Option(
        None,
        "--aggregation",
        metavar="mos|som",
        help="Mean of the folds' scores, or score of the summed counts.",
    ),
    folding: str | None = typer.Option(
        None,
        "--folding",
        metavar="stratified|unknown|FILE",
        help="The folds' counts (mos): stratified, unknown (all tried), or a CSV of positives,negatives.",
    ),
    max_configurations: str = typer.Option(
        "10000000", "--max-configurations", metavar="M", help="With unknown folds: refuse to try more than M."
    ),
    bounds: list[str] | None = typer.Option(
        None, "--bound", metavar="NAME=MIN:MAX", help="The smallest and largest fold score reported (mos)."
    ),
    scores: list[str] | None = _SCORE_OPTION,
    eps: str | None = _EPS_OPTION,
    rounding: str = _ROUNDING_OPTION,
    beta: str | None = _BETA_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Could the scores come from k-fold cross-validation of these data sets? (paper §4)"""

    def command():
        options = _reported_options(scores, eps, rounding, beta)
        if aggregation is None:
            raise InputError(
                "--aggregation is required: mos (mean of the folds' scores) or som (score of means)"
            )
        options["aggregation"] = _choice(aggregation, "--aggregation", ("mos", "som"))
        options.update(_kfold_counts(positives, negatives, folds, folding))
        if repeats is not None:
            options["repeats"] = _count(repeats, "--repeats")
        if bounds:
            options["bounds"] = _bounds(bounds)
        options["max_configurations"] = _count(max_configurations, "--max-configurations")
        if report is not None:
            _check_report_path(report)

        from benchtrust.consistency._kfold import check_kfold

        reported = options.pop("scores")
        slow = options["aggregation"] == "mos" and options.get("folding", "unknown") == "unknown"
        result = _with_progress(
            "trying every fold configuration",
            json_output or not slow,
            lambda progress: check_kfold(reported, **options),
        )
        _print_result(
            result, json_output, lambda: _kfold_text(result, dict(_typed(scores)), options.get("bounds"))
        )
        if report is not None:
            from benchtrust._report.sections import kfold_section

            section = kfold_section(
                result,
                typed=dict(_typed(scores)),
                rounding=None if eps is not None else options["rounding"],
                bounds=options.get("bounds"),
            )
            _write_report(report, section, json_output)

    _consistency_errors(command)


def _kfold_text(result, typed, bounds) -> str:
    """The readable summary of a k-fold result: the experiment, the intervals, the verdict, the evidence."""
    data = list(zip(result.positives, result.negatives, strict=True))
    if len(data) == 1:
        what = f"{data[0][0]} positives and {data[0][1]} negatives"
    else:
        what = f"{len(data)} data sets of (p, n) = {_pairs_text(data)}"
    repeated = f", repeated {result.repeats} times" if result.repeats > 1 else ""
    mos = result.aggregation == "mos"
    lines = [
        f"{result.folds}-fold cross-validation of {what}{repeated} ({_PAPER} §4)",
        f"  aggregation  {_AGGREGATION_WORDS[result.aggregation]}",
    ]
    if mos:
        lines.append(f"  folding      {_FOLDING_WORDS[result.folding]}")
    for name, (low, high) in (bounds or {}).items():
        lines.append(f"  fold bounds  every fold's {name} from {low} to {high}, as reported (Eq. 10)")
    lines += _scores_table(result.scores, typed)
    lines.append("")
    lines.append(_paragraph(_kfold_verdict(result)))
    return "\n".join(lines)


def _kfold_verdict(result) -> str:
    """The verdict of a k-fold result in plain words."""
    mos = result.aggregation == "mos"
    if not mos:
        pooled_p, pooled_n = result.repeats * sum(result.positives), result.repeats * sum(result.negatives)
        evidence = result.evidence or {"n_solutions": 0, "solutions": []}
        where = f"the pooled {pooled_p} positives and {pooled_n} negatives"
        verdict = _solutions_verdict(evidence["n_solutions"], evidence["solutions"], where, "§4.2")
    elif result.consistent:
        configuration = _pairs_text(result.evidence["configuration"])
        counts = _pairs_text(result.evidence["counts"])
        found = (
            f" (fold configuration {result.configurations_tested} in the order of §4.4.3)"
            if result.folding == "unknown"
            else ""
        )
        verdict = (
            f"consistent: the folds (p_i, n_i) = {configuration}{found}, with the per-fold counts "
            f"(tp_i, tn_i) = {counts}, give every score as a mean over the folds. {_COULD}"
        )
    else:
        tested = result.configurations_tested
        where = {
            "unknown": f"of any of the {tested} fold configurations tried (§4.4.3)",
            "stratified": "of the stratified folds",
            "explicit": "of the folds given",
        }[result.folding]
        verdict = (
            f"inconsistent: no per-fold confusion matrices {where} give all these scores as means over the "
            f"folds: the scores cannot come from this experiment ({_CERTAIN}; {_PAPER} §4.3)."
        )
    return verdict


def _kfold_counts(positives, negatives, folds, folding) -> dict:
    """positives, negatives, folds and folding of ``consistency kfold``, checked.

    A FILE of folds is read; without --positives, --negatives and --folds they are taken from it: the sums
    of its folds and their number, for each data set.
    """
    out = {}
    if folding is not None and folding.strip().lower() in ("stratified", "unknown"):
        out["folding"] = folding.strip().lower()
    elif folding is not None:
        from benchtrust.consistency._batch import read_folding

        out["folding"] = read_folding(folding)
        sets = out["folding"] if isinstance(out["folding"][0], list) else [out["folding"]]
        if not (positives or negatives or folds):
            if len({len(folds_of_set) for folds_of_set in sets}) > 1:
                raise InputError(f"--folding {folding}: the data sets have different numbers of folds")
            positives = [str(sum(p for p, _ in folds_of_set)) for folds_of_set in sets]
            negatives = [str(sum(n for _, n in folds_of_set)) for folds_of_set in sets]
            folds = str(len(sets[0]))
    if positives and negatives and len(positives) != len(negatives):
        raise InputError(
            f"--positives is given {len(positives)} times and --negatives {len(negatives)}: "
            "give one of each per data set"
        )
    for option, values in {"--positives": positives, "--negatives": negatives, "--folds": folds}.items():
        if not values:
            raise InputError(f"{option} is required (or --folding FILE, whose folds give it)")
    p = [_count(text, "--positives") for text in positives]
    n = [_count(text, "--negatives") for text in negatives]
    out.update(
        positives=p[0] if len(p) == 1 else p,
        negatives=n[0] if len(n) == 1 else n,
        folds=_count(folds, "--folds"),
    )
    return out


def _bounds(texts) -> dict:
    """``--bound NAME=MIN:MAX`` options as {name: (min, max)}, the numbers kept as typed."""
    from benchtrust.consistency import score

    out, seen = {}, {}
    for text in texts:
        name, equals, interval = (part.strip() for part in text.partition("="))
        low, colon, high = (part.strip() for part in interval.partition(":"))
        if not (equals and colon and name and low and high):
            raise InputError(f"--bound: expected NAME=MIN:MAX, such as acc=0.91:0.97, got {text!r}")
        try:
            found = score(name).name
        except InputError as exc:
            raise InputError(f"--bound {text}: {exc}") from None
        if found in seen:
            raise InputError(f"--bound {text}: a bound for {found} is given twice")
        seen[found] = name
        if not _number(low, f"--bound {name}") <= _number(high, f"--bound {name}"):
            raise InputError(f"--bound {text}: MIN is above MAX")
        out[name] = (low, high)  # as typed: their decimals give their ε
    return out


@consistency_app.command("multiclass")
def multiclass_command(
    class_counts: str | None = typer.Option(
        None,
        "--class-counts",
        metavar="N1,N2,...",
        help="Items of each class in the test set, such as 50,30,20.",
    ),
    average: str | None = typer.Option(
        None, "--average", metavar="micro|macro", help="How the classes' one-vs-rest scores were averaged."
    ),
    scores: list[str] | None = _SCORE_OPTION,
    eps: str | None = _EPS_OPTION,
    rounding: str = _ROUNDING_OPTION,
    beta: str | None = _BETA_OPTION,
    examples: str = typer.Option(
        "10", "--examples", metavar="K", help="List at most K of the solutions found."
    ),
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Could the averaged scores come from a multiclass test set with these class counts?"""

    def command():
        options = _reported_options(scores, eps, rounding, beta)
        if class_counts is None:
            raise InputError("--class-counts is required: the items of each class, such as 50,30,20")
        counts = [part.strip() for part in class_counts.split(",")]
        if not all(counts):
            raise InputError(
                f"--class-counts: expected whole numbers separated by commas, got {class_counts!r}"
            )
        options["class_counts"] = [_count(text, "--class-counts") for text in counts]
        if average is None:
            raise InputError("--average is required: micro or macro")
        options["average"] = _choice(average, "--average", ("micro", "macro"))
        options["examples"] = _count_or_zero(examples, "--examples")
        if report is not None:
            _check_report_path(report)

        from benchtrust.consistency._multiclass import check_multiclass

        result = check_multiclass(options.pop("scores"), **options)
        _print_result(result, json_output, lambda: _multiclass_text(result, dict(_typed(scores))))
        if report is not None:
            from benchtrust._report.sections import multiclass_section

            section = multiclass_section(
                result, typed=dict(_typed(scores)), rounding=None if eps is not None else options["rounding"]
            )
            _write_report(report, section, json_output)

    _consistency_errors(command)


def _multiclass_text(result, typed) -> str:
    """The readable summary of a multiclass result: inputs, intervals, verdict."""
    counts = result.class_counts
    total, classes = sum(counts), len(counts)
    how = (
        f"micro-averaged: the scores of the pooled one-vs-rest confusion matrix ({_PAPER} §4.2)"
        if result.average == "micro"
        else f"macro-averaged: the mean of the classes' one-vs-rest scores ({_PAPER} §4.3)"
    )
    lines = [
        f"one multiclass test set of {classes} classes of {', '.join(map(str, counts))} items (N = {total})",
        f"  {how}",
        *_scores_table(result.scores, typed),
        "",
    ]
    lines.append(_paragraph(_multiclass_verdict(result)))
    return "\n".join(lines)


def _multiclass_verdict(result) -> str:
    """The verdict of a multiclass result in plain words."""
    total = sum(result.class_counts)
    if result.consistent and result.average == "micro":
        listed = ", ".join(map(str, result.solutions))
        pooled = _pairs_text(result.pooled)
        such_as = "" if len(result.solutions) == result.n_solutions else "such as "
        numbers = "1 number" if result.n_solutions == 1 else f"{result.n_solutions} numbers"
        gives = "gives" if result.n_solutions == 1 else "give"
        verdict = (
            f"consistent: {numbers} of correctly classified items {gives} every score: {such_as}k = {listed} "
            f"of {total} (pooled (tp, tn) = {pooled}). {_COULD}"
        )
    elif result.consistent and result.evidence is not None:
        verdict = (
            "consistent: this confusion matrix (rows: true classes, columns: predictions), checked in exact "
            "arithmetic, gives every score: "
            + "; ".join(" ".join(map(str, row)) for row in result.evidence)
            + f". {_COULD}"
        )
    elif result.consistent:
        verdict = (
            "consistent: no inconsistency can be proved (the integer program is feasible), though no "
            "confusion matrix could be verified exactly to give every score."
        )
    else:
        what = "number of correctly classified items" if result.average == "micro" else "confusion matrix"
        verdict = (
            f"inconsistent: no {what} of a test set with these class counts gives all these scores: the "
            f"scores cannot come from this experiment ({_CERTAIN})."
        )
    return verdict


@consistency_app.command("batch")
def batch_command(
    claims: str = typer.Argument(
        ...,
        metavar="CLAIMS.csv",
        help="One claim per row: positives, negatives, optionally folds and more, one column per score.",
    ),
    out: str | None = typer.Option(
        None, "--out", metavar="FILE.csv|FILE.json", help="Write every row's verdict to FILE (by its suffix)."
    ),
    jobs: str = typer.Option("1", "--jobs", metavar="N", help="Rows checked in parallel (-1: one per CPU)."),
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Check every claim of a table, each as one test set (§3) or k-fold cross-validation (§4)."""

    def command():
        import os

        n_jobs = -1 if jobs.strip() == "-1" else _count(jobs, "--jobs")
        if out is not None:
            _check_out(out, claims)
        if report is not None:
            _check_report_path(report)

        from benchtrust.consistency._batch import check_batch

        result = _with_progress(
            "checking claims",
            json_output,
            lambda progress: check_batch(claims, n_jobs=n_jobs, progress=progress),
        )
        if out is not None:
            result.write(out)
        _print_result(result, json_output, lambda: _batch_text(result))
        if out is not None:
            typer.echo(f"verdicts written to {os.fspath(out)}", err=json_output)
        if report is not None:
            from benchtrust._report.sections import batch_section

            _write_report(report, batch_section(result), json_output)

    _consistency_errors(command)


def _check_out(out: str, claims: str) -> None:
    """InputError unless ``--out`` can be written: a .csv or .json name in an existing folder, not CLAIMS."""
    from pathlib import Path

    from benchtrust.consistency._batch import _output_format

    target = Path(out)
    try:
        _output_format(target)
    except InputError as exc:
        raise InputError(f"--out: {exc}") from None
    if not target.parent.is_dir():
        what = "is not a folder" if target.parent.exists() else "does not exist"
        raise InputError(f"--out: cannot write {out}: folder '{target.parent}' {what}")
    if target.exists() and Path(claims).exists() and target.resolve() == Path(claims).resolve():
        raise InputError(f"--out: {out} is the claims file; the input is never overwritten")


#: Rows listed one by one in the readable batch summary; beyond it only the rows that are not consistent.
_BATCH_LISTED = 20


def _batch_text(result) -> str:
    """The readable summary of a batch: counts, the rows (or those not consistent), the verdict in words."""
    counts = result.counts
    total = len(result.rows)
    summary = ", ".join(f"{counts[verdict]} {verdict}" for verdict in ("consistent", "inconsistent", "error"))
    lines = [
        f"claims in {result.source}, each checked as one test set ({_PAPER} §3) or k folds (§4): "
        f"{total} rows, {summary}"
    ]
    rows = result.rows
    if total > _BATCH_LISTED:
        rows = [row for row in rows if row["verdict"] != "consistent"]
    shown = rows[:_BATCH_LISTED]
    table = [("line", "id", "check", "verdict")] + [
        (str(row["line"]), row["id"] or "", row["check"], row["verdict"]) for row in shown
    ]
    messages = ["message"] + [row["message"] for row in shown]
    widths = [max(len(row[k]) for row in table) for k in range(4)]
    for row, message in zip(table, messages, strict=True):
        lines.append(
            "  "
            + "  ".join(f"{cell:<{width}}" for cell, width in zip(row, widths, strict=True))
            + "  "
            + message
        )
    if len(shown) < total:
        rest = "all consistent" if len(shown) == len(rows) else "--out FILE.csv writes every row"
        lines.append(f"  ({total - len(shown)} more rows not listed: {rest})")
    lines.append("")
    lines += _batch_verdict(result)
    return "\n".join(lines)


def _batch_verdict(result) -> list[str]:
    """The verdict on a batch of claims in plain words, as wrapped paragraphs."""
    counts = result.counts
    total = len(result.rows)
    paragraphs = []
    if counts["inconsistent"] == 1:
        paragraphs.append(
            _paragraph(
                f"1 claim is inconsistent: its scores cannot come from the experiment described ({_CERTAIN})."
            )
        )
    elif counts["inconsistent"]:
        paragraphs.append(
            _paragraph(
                f"{counts['inconsistent']} claims are inconsistent: their scores cannot come from the "
                f"experiments described ({_CERTAIN})."
            )
        )
    if counts["error"]:
        rows_were = "1 row was" if counts["error"] == 1 else f"{counts['error']} rows were"
        paragraphs.append(f"{rows_were} not checked: the message says what is wrong.")
    if counts["consistent"] == total:
        paragraphs.append(
            "Every claim could come from the experiment described (which does not show that it did)."
        )
    return paragraphs


# --- benchtrust compare -------------------------------------------------------------------------------------

_BOUTHILLIER = "Bouthillier et al. 2021"
_GAMMA = "\N{GREEK SMALL LETTER GAMMA}"
_BETA = "\N{GREEK SMALL LETTER BETA}"
_SIGMA = "\N{GREEK SMALL LETTER SIGMA}"
_COMPARE_GAMMA_OPTION = typer.Option(
    "0.75",
    "--gamma",
    metavar="GAMMA",
    help=f"{_GAMMA} in (0.5, 1): the smallest P(A > B) that is meaningful (the paper recommends 0.75).",
)
_COMPARE_ALPHA_OPTION = typer.Option(
    "0.05", "--alpha", metavar="ALPHA", help=f"{_ALPHA}: the interval of P(A > B) has level 1 - {_ALPHA}."
)
_LOWER_IS_BETTER_OPTION = typer.Option(
    False, "--lower-is-better", help="Lower scores are better (error rates, losses)."
)


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
    gamma: str = _COMPARE_GAMMA_OPTION,
    alpha: str = _COMPARE_ALPHA_OPTION,
    lower_is_better: bool = _LOWER_IS_BETTER_OPTION,
    resamples: str | None = typer.Option(
        None, "--resamples", metavar="K", help="Bootstrap K resamples (default: the exact interval)."
    ),
    seed: str = typer.Option(
        "0", "--seed", metavar="S", help="Random seed of the random pairing and of --resamples."
    ),
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """P(A > B) over runs of two pipelines, its interval and the decision (paper §4.1, C.4-C.6)."""

    def command():
        for option, value in {"--a": a, "--b": b}.items():
            if value is None or not value.strip():
                raise InputError(f"{option} NAME is required: the algorithm, as named in column 'algorithm'")
        if a.strip() == b.strip():
            raise InputError(f"--a and --b both name {a.strip()!r}: compare two different algorithms")
        options = {
            "gamma": _gamma(gamma),
            "alpha": _probability(alpha, "--alpha"),
            "lower_is_better": lower_is_better,
            "resamples": None if resamples is None else _count(resamples, "--resamples"),
            "seed": _count_or_zero(seed, "--seed"),
        }
        if report is not None:
            _check_report_path(report)

        from benchtrust.compare import probability_of_outperforming
        from benchtrust.compare._runs import read_runs

        read = read_runs(runs, a=a, b=b, pair_by=pair_by)
        result = probability_of_outperforming(read.a, read.b, paired=read.paired, **options)
        if json_output:
            import json

            out = result.to_dict()
            out.update(a=read.names[0], b=read.names[1], runs_a=int(read.a.size), runs_b=int(read.b.size))
            out["pair_by"] = read.pair_by
            typer.echo(json.dumps(out, indent=2))
        else:
            typer.echo(_outperform_text(result, read, options["seed"]))
        if report is not None:
            _write_report(report, _outperform_report(result, read, options["seed"]), json_output)

    _consistency_errors(command)


def _outperform_report(result, read, seed):
    """The report section of ``compare outperform``."""
    from benchtrust._report.sections import outperform_section

    return outperform_section(
        result,
        a=read.names[0],
        b=read.names[1],
        runs_a=int(read.a.size),
        runs_b=int(read.b.size),
        pair_by=read.pair_by,
        seed=None if read.paired else seed,
        file=read.source,
    )


def _outperform_text(result, read, seed) -> str:
    """The readable summary of P(A > B): the runs, the pairs, the interval, the decision in words."""
    low, high = result.ci
    level = f"{100 * (1 - result.alpha):g}% CI"
    if read.paired:
        pairs = f"{result.n_pairs}, paired by {read.pair_by!r} (C.2)"
    else:
        pairs = f"{result.n_pairs}, paired at random with seed {seed} (C.4)"
        if read.a.size != read.b.size:
            pairs += f"; {abs(read.a.size - read.b.size)} extra runs left out"
    better = "lower" if result.lower_is_better else "higher"
    rows = [
        ("A", f"{read.names[0]}: {read.a.size} runs, mean {read.a.mean():.6g}"),
        ("B", f"{read.names[1]}: {read.b.size} runs, mean {read.b.mean():.6g}"),
        ("pairs", pairs),
        ("wins, ties, losses", f"{result.wins}, {result.ties}, {result.losses} ({better} is better)"),
        ("P(A > B)", f"{result.p_a_beats_b:.4f}"),
        (level, f"[{low:.4f}, {high:.4f}] (percentile bootstrap, {result.method})"),
        ("significant", f"{'yes' if result.significant else 'no'}: lower end {low:.4f} vs 0.5"),
        (
            "meaningful",
            f"{'yes' if result.meaningful else 'no'}: upper end {high:.4f} vs {_GAMMA} = {result.gamma:g}",
        ),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [f"P(A > B) from {read.source} ({_BOUTHILLIER} §4.1, C.4-C.6)"]
    lines += [f"  {name:<{width}}  {value}" for name, value in rows]
    lines += ["", _paragraph(result.conclusion)]
    return "\n".join(lines)


@compare_app.command("sample-size")
def sample_size_command(
    gamma: str = _COMPARE_GAMMA_OPTION,
    alpha: str = typer.Option("0.05", "--alpha", metavar="ALPHA", help=f"{_ALPHA}: rate of false positives."),
    beta: str = typer.Option(
        "0.05", "--beta", metavar="BETA", help=f"{_BETA}: rate of false negatives (power 1 - {_BETA})."
    ),
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """How many runs of each pipeline the test of P(A > B) needs (Noether 1987; paper C.3)."""

    def command():
        g = _gamma(gamma)
        level = _probability(alpha, "--alpha")
        miss = _probability(beta, "--beta")
        if report is not None:
            _check_report_path(report)

        from benchtrust.compare import sample_size

        runs = sample_size(g, alpha=level, beta=miss)
        if report is not None:
            from benchtrust._report.sections import sample_size_section

            section = sample_size_section(runs, gamma=g, alpha=level, beta=miss)
            _write_report(report, section, json_output)
        if json_output:
            import json

            typer.echo(json.dumps({"runs": runs, "gamma": g, "alpha": level, "beta": miss}, indent=2))
            return
        typer.echo(
            _paragraph(
                f"{runs} runs of each pipeline (pairs of runs, when paired) detect P(A > B) >= {_GAMMA} = "
                f"{g:g} with {_ALPHA} = {level:g} and {_BETA} = {miss:g} (power {100 * (1 - miss):g}%): "
                f"Noether's sample size for the Mann-Whitney test ({_BOUTHILLIER} C.3)."
            )
        )

    _consistency_errors(command)


@compare_app.command("error-rates")
def error_rates_command(
    sigma: str | None = typer.Option(
        None, "--sigma", metavar="S", help=f"{_SIGMA}: SD of one run with every source randomised (required)."
    ),
    runs: str = typer.Option("50", "--runs", metavar="K", help="k, runs of each algorithm (§4.2: 50)."),
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
        help=f"δ of the single-point and average criteria (default 1.9952{_SIGMA}).",
    ),
    gamma: str = _COMPARE_GAMMA_OPTION,
    alpha: str = _COMPARE_ALPHA_OPTION,
    simulations: str = typer.Option(
        "1000", "--simulations", metavar="R", help="Simulated comparisons per probability."
    ),
    seed: str | None = typer.Option(None, "--seed", metavar="S", help="Random seed."),
    json_output: bool = _JSON_OPTION,
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write the paper's Fig. 6 for this simulation to FILE.png."
    ),
    report: str | None = _REPORT_OPTION,
) -> None:
    """How often each criterion concludes "A is better than B", against the true P(A > B) (§4.2, Fig. 6)."""

    def command():
        if sigma is None:
            raise InputError(f"--sigma S is required ({_SIGMA}, the SD of one run's score)")
        options = {
            "runs": _count(runs, "--runs"),
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

        from benchtrust.compare._error_rates import error_rates

        result = _with_progress(
            "simulating benchmarks", json_output, lambda progress: error_rates(s, **options)
        )
        if plot is not None:
            from benchtrust.compare._plot import plot_error_rates

            plot_error_rates(result, plot)
        _print_result(result, json_output, lambda: _error_rates_text(result))
        _plot_note(plot, json_output)
        if report is not None:
            from benchtrust._report.sections import error_rates_section

            _write_report(report, error_rates_section(result), json_output)

    _consistency_errors(command)


_CRITERION_WORDS = {
    "single_point": "single point",
    "average": "average",
    "probability_of_outperforming": "P(A > B) test",
}


def _error_rates_text(result) -> str:
    """The readable summary of the simulated detection rates: a table by P(A > B), then the regions."""
    estimators = result.estimators
    criteria = list(result.rates)
    which = "ideal / biased estimator" if len(estimators) > 1 else "ideal estimator"

    def rates(values):
        return " / ".join("-" if values[e] is None else f"{values[e]:.3f}" for e in estimators)

    rows = [["P(A > B)", *(_CRITERION_WORDS[c] for c in criteria)]]
    for k, p in enumerate(result.probabilities.tolist()):
        rows.append([f"{p:.3f}", *(rates({e: by[e][k] for e in estimators}) for by in result.rates.values())])
    regions = result.region_rates()
    rows.append([""] * len(rows[0]))
    rows.append(["mean error rate", *("" for _ in criteria)])
    rows.append(["false positive", *(rates(regions["false_positive"][c]) for c in criteria)])
    rows.append(["false negative", *(rates(regions["false_negative"][c]) for c in criteria)])
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    lines = [
        f'rate of concluding "A is better than B" ({_BOUTHILLIER} §4.2, Fig. 6), {which}:',
        f"  {_SIGMA} = {result.sigma:g}, k = {result.runs} runs each, {result.simulations} simulations per "
        f"point, δ = {result.delta:.6g}, {_GAMMA} = {result.gamma:g}, {_ALPHA} = {result.alpha:g}",
        "",
    ]
    lines += [
        ("  " + "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))).rstrip() for row in rows
    ]
    lines += [
        "",
        _paragraph(
            f"A detection is a false positive where the true P(A > B) <= 0.5 and a missed detection a false "
            f"negative where it is > {_GAMMA} (the means above weigh the simulated probabilities of each "
            "region equally; '-': none simulated there)."
        ),
    ]
    return "\n".join(lines)


@compare_app.command("history")
def history_command(
    file: str = typer.Argument(
        ..., metavar="HISTORY.csv", help="One published result per row: columns date and score."
    ),
    sigma: str | None = typer.Option(
        None, "--sigma", metavar="S", help=f"{_SIGMA}: the benchmark's SD of one result, in score units."
    ),
    test_size: str | None = typer.Option(
        None, "--test-size", metavar="N", help=f"n, test items: {_SIGMA} = sqrt(p(1 - p)/n) (binomial, §2.2)."
    ),
    alpha: str = typer.Option(
        "0.05", "--alpha", metavar="ALPHA", help=f"{_ALPHA} of the one-sided z-test of each increment."
    ),
    lower_is_better: bool = _LOWER_IS_BETTER_OPTION,
    json_output: bool = _JSON_OPTION,
    plot: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write the paper's Fig. 3 for this history to FILE.png."
    ),
    report: str | None = _REPORT_OPTION,
) -> None:
    """Which state-of-the-art increments of a benchmark exceed its noise (paper §2.2, §3.1, Fig. 3)."""

    def command():
        if (sigma is None) == (test_size is None):
            raise InputError(
                f"give either --sigma S (the SD of one result) or --test-size N (binomial {_SIGMA}), not both"
                if sigma is not None
                else f"give --sigma S (the SD of one result) or --test-size N (binomial {_SIGMA})"
            )
        options = {"alpha": _probability(alpha, "--alpha"), "lower_is_better": lower_is_better}
        if sigma is not None:
            options["sigma"] = _positive_number(sigma, "--sigma")
        else:
            options["test_size"] = _count(test_size, "--test-size")
        if plot is not None:
            _check_plot_path(plot)
        if report is not None:
            _check_report_path(report)

        from benchtrust.compare._history import history
        from benchtrust.compare._runs import read_history

        dates, scores = read_history(file)
        try:
            result = history(dates, scores, **options)
        except InputError as exc:
            raise InputError(f"{file}: {exc}") from None
        if plot is not None:
            from benchtrust.compare._plot import plot_history

            plot_history(result, plot)
        _print_result(result, json_output, lambda: _history_text(result, file))
        _plot_note(plot, json_output)
        if report is not None:
            from benchtrust._report.sections import history_section

            _write_report(report, history_section(result, file=file), json_output)

    _consistency_errors(command)


def _history_text(result, file) -> str:
    """The readable summary of a benchmark's history: each result, its increment and threshold."""
    import numpy as np

    def number(value):
        return "" if np.isnan(value) else f"{value:.4f}"

    rows = [("date", "score", f"{_SIGMA}", "prior best", "increment", "threshold", "exceeds the noise")]
    for k in range(result.scores.size):
        first = k == 0
        rows.append(
            (
                str(result.dates[k]) if result.dates.dtype.kind == "M" else f"{result.dates[k]:g}",
                f"{result.scores[k]:.4f}",
                f"{result.sigma[k]:.4f}",
                number(result.prior_best[k]),
                number(result.increments[k]),
                number(result.thresholds[k]),
                "" if first else ("yes" if result.significant[k] else "no"),
            )
        )
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    source = (
        f"binomial {_SIGMA} = sqrt(p(1 - p)/n), n = {result.test_size}"
        if result.test_size is not None
        else f"{_SIGMA} = {result.sigma[0]:g}"
    )
    better = "lower" if result.lower_is_better else "higher"
    lines = [
        _paragraph(f"history of {file} ({_BOUTHILLIER} §2.2, §3.1, Fig. 3): {source}; {better} is better"),
        f"  an increment exceeds the noise when above z = {result.z:.3f} (one-sided, "
        f"{_ALPHA} = {result.alpha:g}) times sqrt({_SIGMA}² + {_SIGMA}_prior²)",
        "",
    ]
    lines += [
        ("  " + "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))).rstrip() for row in rows
    ]
    lines += ["", _paragraph(_history_verdict(result))]
    return "\n".join(lines)


def _history_verdict(result) -> str:
    """The verdict on a benchmark's history in plain words."""
    compared = max(result.scores.size - 1, 0)
    significant = int(result.significant.sum())
    return (
        f"{significant} of {compared} results improve on the best before them by more than the noise of "
        "the benchmark; the others are within what another test set or seed could give."
    )


_NIESSL = "Nießl et al. 2022"
_TIMES = "\N{MULTIPLICATION SIGN}"
_OUT_OPTION = typer.Option(
    None, "--out", metavar="DIR", help="Folder for the tables (CSV) and figures (PNG); created if missing."
)


_PERMUTATIONS_OPTION = typer.Option(
    0,
    "--permutations",
    metavar="N",
    help="Test the unfolding's fit against N refits on ranks permuted within rows (the paper: 500).",
)
_SEED_OPTION = typer.Option(0, "--seed", help="Seed of the permutations and of random orders.")
_SUBSAMPLE_MEASURE_OPTION = typer.Option(
    None,
    "--subsample-measure",
    metavar="MEASURE",
    help="Rank the subsamples by this measure instead of the default (cindex: the paper's Fig. S3).",
)


@multiverse_app.command("run")
def multiverse_run_command(
    results: str = typer.Argument(
        ...,
        metavar="RESULTS.csv",
        help="One row per data set, method and iteration, one column per measure (empty = failed).",
    ),
    spec: str | None = typer.Option(
        None, "--spec", metavar="SPEC.yaml", help="Measures, choices, options and defaults (required)."
    ),
    characteristics: str | None = typer.Option(
        None, "--characteristics", metavar="FILE", help="One row per data set: the characteristics rules use."
    ),
    orders: str | None = typer.Option(
        None,
        "--orders",
        metavar="ORDERS.csv",
        help="Orders of the data sets (rep, pos1, pos2, ...): rank on the first l of each (Fig. 6).",
    ),
    random_orders: int | None = typer.Option(
        None, "--random-orders", metavar="N", help="Like --orders, with N seeded random orders."
    ),
    subsample_measure: str | None = _SUBSAMPLE_MEASURE_OPTION,
    permutations: int = _PERMUTATIONS_OPTION,
    seed: int = _SEED_OPTION,
    out: str | None = _OUT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Rank the methods under every combination of options and analyse how the ranking moves (§3-4)."""

    def command():
        if spec is None:
            raise InputError("--spec SPEC.yaml is required (the measures, choices and options to combine)")
        if orders is not None and random_orders is not None:
            raise InputError("--orders and --random-orders: give one of them, not both")
        _multiverse(
            {"results": results, "spec": spec, "characteristics": characteristics},
            {
                "orders": orders,
                "n_orders": random_orders,
                "subsample_measure": subsample_measure,
                "permutations": permutations,
                "seed": seed,
            },
            out,
            json_output,
            results,
            report,
        )

    _consistency_errors(command)


@multiverse_app.command("example")
def multiverse_example_command(
    subsample_measure: str | None = _SUBSAMPLE_MEASURE_OPTION,
    permutations: int = _PERMUTATIONS_OPTION,
    out: str | None = _OUT_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Nießl et al.'s study: 288 combinations of the Herrmann et al. (2021) results and the rankings on
    the first data sets of the paper's 50 orders (Fig. 6), all bundled."""

    def command():
        from benchtrust.multiverse import bundled_orders, bundled_study

        _multiverse(
            bundled_study(),
            {
                "orders": bundled_orders(),
                "subsample_measure": subsample_measure,
                "permutations": permutations,
            },
            out,
            json_output,
            "the bundled Herrmann et al. (2021) results",
            report,
        )

    _consistency_errors(command)


def _multiverse(inputs, options, out, json_output, what, report=None) -> None:
    if out is None:
        raise InputError("--out DIR is required (the folder to write the tables and figures to)")
    if report is not None:
        _check_report_path(report)
    if options["permutations"] < 0:
        raise InputError(f"--permutations: expected 0 or more refits, got {options['permutations']}")
    from benchtrust.multiverse import study

    result = _with_progress(
        "ranking and unfolding" + (" (permutation test)" if options["permutations"] else ""),
        json_output,
        lambda progress: study(**inputs, **options, progress=progress),
    )
    written = result.write(out)
    _print_result(result, json_output, lambda: _multiverse_text(result, what, written))
    if report is not None:
        from benchtrust._report.sections import multiverse_section

        files = [inputs[key] for key in ("results", "spec", "characteristics") if inputs.get(key) is not None]
        bundled = what != inputs.get("results")
        section = multiverse_section(result, what=what, inputs=() if bundled else files)
        _write_report(report, section, json_output)


def _share(fraction: float) -> str:
    """A share in whole percent, "<1%" for a small one that is not zero."""
    return "<1%" if 0 < fraction < 0.005 else f"{fraction:.0%}"


def _multiverse_text(result, what, written) -> str:
    """The readable summary: each method's rank at the defaults, its range, step-wise best, the choices'
    impact, the unfolding's fit and the files written."""
    import numpy as np

    mv = result.multiverse
    default = mv.index(mv.defaults)
    order = np.argsort(mv.ranks[default], kind="stable")
    top = mv.ranks.min(axis=1, keepdims=True) == mv.ranks
    rows = [("method", "default", "best", "worst", "first in", "step-wise")]
    for m in order:
        rows.append(
            (
                mv.methods[m],
                f"{mv.ranks[default, m]:g}",
                f"{result.distribution.best[m]:g}",
                f"{result.distribution.worst[m]:g}",
                _share(top[:, m].mean()),
                f"{result.stepwise.best[mv.methods[m]]:g}",
            )
        )
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    sizes = f" {_TIMES} ".join(f"{len(mv.options[c])} {c}" for c in mv.choices)
    defaults = ", ".join(f"{c} = {mv.defaults[c]}" for c in mv.choices)
    lines = [
        _paragraph(
            f"multiverse of {what} ({_NIESSL}, §3-4): {len(mv.codes)} combinations ({sizes}) of "
            f"{len(mv.methods)} methods; defaults: {defaults}"
        ),
        "",
    ]
    lines += [
        ("  " + "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))).rstrip() for row in rows
    ]
    lines += ["", f"  step-wise order: {' → '.join(result.stepwise.order)}", ""]
    lines.append("  changing one choice only:")
    for row in result.impact.table[result.impact.table["from_option"] == "*"].itertuples():
        lines.append(
            f"    {row.choice}: the ranking changes in {row.ranking_changed:.0%} of pairs, the winner in "
            f"{row.winner_changed:.0%}, a method moves {row.mean_abs_rank_change:.2f} ranks on average"
        )
    if result.unfolding is not None:
        lines += ["", *_fit_lines(result.unfolding)]
        if result.permutation is not None:
            lines.append(f"    permutation test: {result.permutation.verdict}")
        lines.append("  distance between the ideal points of the default and an alternative option (Fig. 5):")
        for choice, group in result.distances.groupby("choice", sort=False)["distance"]:
            lines.append(f"    {choice}: median {group.median():.3f}, largest {group.max():.3f}")
    if result.subsample is not None:
        lines += ["", _paragraph(f"subsamples of the data sets (Fig. 6): {result.subsample}")]
        if result.subsample_unfolding is not None:
            lines += _fit_lines(result.subsample_unfolding)
    lines += [
        "",
        _paragraph(_multiverse_verdict(result)),
        "",
        f"  wrote {len(written)} files to {written[0].parent}: " + ", ".join(p.name for p in written),
    ]
    return "\n".join(lines)


def _fit_lines(fitted) -> list[str]:
    """An unfolding's settings and fit, with a warning when its column points coincide."""
    lines = [
        f"  unfolding ({fitted.conditionality}, {fitted.row_points.shape[1]} dimensions): stress "
        f"{fitted.stress:.4f}, penalized stress {fitted.penalized_stress:.4f}, {fitted.iterations} iterations"
        + ("" if fitted.converged else " (not converged)")
    ]
    clumped = fitted.coincident_columns()
    if clumped:
        lines.append(
            f"    degenerate: {clumped} of {len(fitted.column_points)} methods (nearly) coincide with another"
        )
    return lines


def _multiverse_verdict(result) -> str:
    """The verdict on a multiverse of choices in plain words."""
    mv = result.multiverse
    top = mv.ranks.min(axis=1, keepdims=True) == mv.ranks
    winners = int(top.any(axis=0).sum())
    spread = float((result.distribution.worst - result.distribution.best).max())
    return (
        f"{winners} of {len(mv.methods)} methods rank first under some combination, and a method's rank "
        f"moves by up to {spread:g} places across them: a ranking from one set of choices says little "
        "unless the choices were fixed before the results were seen."
    )


# --- benchtrust report --------------------------------------------------------------------------------------


@app.command("report")
def report_command(
    config: str = typer.Argument(
        ..., metavar="CONFIG.yaml", help="The analyses to run: a YAML file (see docs/report.md)."
    ),
    out: str | None = typer.Option(
        None, "--out", metavar="FILE.html", help="The report to write: one self-contained HTML file."
    ),
) -> None:
    """Write one HTML report of the analyses a YAML file lists (a section for each)."""
    try:
        if out is None:
            raise InputError("--out FILE.html is required (the report to write)")
        _check_report_path(out, "--out")

        import sys

        from benchtrust._report.config import run_config
        from benchtrust._report.html import write_report

        def step(k, total, analysis):
            typer.echo(f"[{k + 1}/{total}] {analysis}", err=True)

        title, sections = run_config(config, progress=step if sys.stderr.isatty() else None)
        write_report(sections, out, title=title)
        count = "1 analysis" if len(sections) == 1 else f"{len(sections)} analyses"
        typer.echo(f"Report written to {out} ({count})")
    except InputError as exc:
        # Messages name the config's keys as written (test_size), not as options: no renaming here.
        typer.echo(f"{PROG}: error: {' '.join(str(exc).split())}", err=True)
        raise typer.Exit(INPUT_ERROR_EXIT_CODE) from None


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
