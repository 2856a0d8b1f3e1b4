"""What the ``benchtrust`` command groups share: options, checks, errors, progress, printing, reports.

- ``_group`` makes a command group; ``benchtrust.cli`` adds it to the root app.
- ``_JSON_OPTION`` and ``_REPORT_OPTION``: ``--json`` and ``--report FILE.html``, taken by every analysis.
- ``_number``, ``_count``, ``_count_or_zero``, ``_probability``: options are taken as text and checked
  here rather than by typer's types, so that a bad value gives the same one-line error as every other
  input mistake.
- ``_error_line`` and ``_one_line_errors``: an :class:`~benchtrust.InputError` becomes one line
  ``benchtrust: error: <message>`` on stderr, naming options as typed, and exit code 2.
- ``_with_progress`` (a rich progress bar on stderr when it is a terminal), ``_print_result`` (``--json`` or
  the result's text), ``_check_report_path``, ``_check_plot_path`` and ``_write_report``.

Like the rest of the CLI it imports nothing heavy at module level: numpy, pandas, matplotlib, rich's progress
bars and the subpackages are imported inside the functions that need them.
"""

import re

import typer

from benchtrust._io import InputError, check_count, check_probability

PROG = "benchtrust"
INPUT_ERROR_EXIT_CODE = 2


def _group(name: str, question: str) -> typer.Typer:
    """The command group ``benchtrust NAME``, listed in ``--help`` with the question it answers.

    Commands are registered with ``@group.command(...)`` in the group's module; ``benchtrust.cli`` adds the
    group to the root app.
    """
    return typer.Typer(name=name, help=question, no_args_is_help=True, pretty_exceptions_enable=False)


_JSON_OPTION = typer.Option(False, "--json", help="Print the result as one JSON object.")
_REPORT_OPTION = typer.Option(
    None,
    "--report",
    metavar="FILE.html",
    help="Also write the result as a self-contained HTML report to FILE.html.",
)


# Library arguments that are options of the commands: their names in messages become the options'.
_OPTION_NAMES = re.compile(
    r"(?<![\w.-])(test_size|positives|classifiers|accuracy|correlation|reference_accuracy|alpha|resamples"
    r"|classes|max_plausible|simulations|seed|negatives|folds|repeats|aggregation|folding|eps"
    r"|rounding|beta|examples|class_counts|average|max_configurations|gamma|sigma|conditional_sd"
    r"|bias_sd|probabilities|delta|pair_by|posthoc|control|rope|threshold|samples|prior_strength|task"
    r"|[a-z]+(?:_[a-z]+)*_column)(?=[:=])"
)


def _error_line(exc: InputError) -> str:
    """The one stderr line an :class:`InputError` becomes, naming options as typed (``--test-size``).

    >>> _error_line(InputError("test_size: expected a positive whole number, got 0"))
    'benchtrust: error: --test-size: expected a positive whole number, got 0'
    """
    message = " ".join(str(exc).split())  # one line, whatever the message holds
    message = _OPTION_NAMES.sub(lambda match: "--" + match[1].replace("_", "-"), message)
    return f"{PROG}: error: {message}"


def _one_line_errors(command):
    """Run `command`; an InputError becomes one line on stderr and exit code 2."""
    try:
        command()
    except InputError as exc:
        typer.echo(_error_line(exc), err=True)
        raise typer.Exit(INPUT_ERROR_EXIT_CODE) from None


# Options take text and are checked here rather than by typer's types, so that a bad value gives the same
# one-line error as every other input mistake.
def _number(text: str, option: str) -> float:
    """`text` given to `option` as a float, or an InputError naming the option."""
    try:
        return float(text)
    except ValueError:
        raise InputError(f"{option}: expected a number, got {text!r}") from None


def _count(text: str, option: str) -> int:
    """`text` given to `option` as a positive whole number (``3000``, ``1e6``).

    >>> _count("1e6", "--test-size")
    1000000
    """
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


def _count_or_zero(text: str, option: str) -> int:
    """`text` given to `option` as a whole number >= 0 (a seed, a number of resamples)."""
    if text.strip() == "0":
        return 0
    try:
        return _count(text, option)
    except InputError:
        raise InputError(f"{option}: expected a whole number >= 0, got {text!r}") from None


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


def _check_plot_path(plot):
    """InputError unless `plot` can be written: an existing folder and an image suffix."""
    from pathlib import Path

    from benchtrust._figures import image_format

    folder = Path(plot).parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise InputError(f"--plot: cannot write {plot}: folder '{folder}' {what}")
    image_format(plot)


def _write_report(report, sections, json_output: bool, title: str = "benchtrust report") -> None:
    """Write `sections` (one or a list) as the HTML report `report`, if given, and say so on the terminal."""
    if report is None:
        return
    from benchtrust._report.html import write_report

    write_report(sections if isinstance(sections, list) else [sections], report, title=title)
    typer.echo(f"report written to {report}", err=json_output)


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
