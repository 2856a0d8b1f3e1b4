"""What the ``benchtrust`` command groups share: options, checks, errors, progress, printing, reports.

- ``_group`` makes a command group; ``benchtrust.cli`` adds it to the root app.
- ``_JSON_OPTION`` and ``_REPORT_OPTION``: ``--json`` and ``--report FILE.html``, taken by every analysis;
  ``_FORCE_OPTION``: ``--force``, taken by every command that writes a file (without it, a file that exists
  already is refused: :func:`benchtrust._write.check_target`, :func:`benchtrust._write.check_folder`).
- ``typed_option`` with the parsers ``_number``, ``_count``, ``_count_or_zero``, ``_probability`` (and
  ``probability(...)``): an option's type; a bad value gives the same one-line error as every other input
  mistake.
- ``_jobs`` (``--jobs N``) and ``_SCHEDULER_OPTION`` (``--scheduler tcp://HOST:PORT``) with
  ``_on_scheduler``: the workers of the commands that share their work out, local processes or a
  dask.distributed cluster through joblib's dask backend.
- ``run_analysis_command`` (and ``show_result``): the one way a command runs an analysis of the table
  (:mod:`benchtrust._report.analyses`) and shows its result: its text or ``--json``, its plot, its report.
- ``_error_line`` and ``_one_line_errors``: an :class:`~benchtrust.InputError` becomes one line
  ``benchtrust: error: <message>`` on stderr, naming options as typed, and exit code 2; and no output
  replaces a file the command reads (``_one_line_errors`` protects every file the call names).
- ``_PlainUsageErrors``: the class of every command group, whose usage errors (an unknown option, a
  missing value, a value its type refuses) are one such line too, instead of a Rich box.
- ``_with_progress`` (the progress bar of every long command: a count and the time left, on stderr when it
  is a terminal), ``_check_output_path`` (with ``_check_report_path`` and ``_check_plot_path``) and
  ``_write_report``.

Like the rest of the CLI it imports nothing heavy at module level: numpy, pandas, matplotlib, rich's progress
bars and the subpackages are imported inside the functions that need them.
"""

import contextlib
import math
import os
import re

import typer

from benchtrust._io import InputError, check_count, check_probability, json_text

PROG = "benchtrust"
INPUT_ERROR_EXIT_CODE = 2


def _group(name: str, question: str) -> typer.Typer:
    """The command group ``benchtrust NAME``, listed in ``--help`` with the question it answers.

    Commands are registered with ``@group.command(...)`` in the group's module; ``benchtrust.cli`` adds the
    group to the root app.
    """
    return typer.Typer(
        name=name,
        help=question,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        cls=_PlainUsageErrors,
    )


@contextlib.contextmanager
def _plain_usage_error(command):
    """A usage error raised in the block (click's: an unknown option, a missing value or argument, an
    extra argument) becomes one line ``benchtrust: error: <message> (see '<command> --help')`` on stderr
    and exit code 2; ``command()`` names the command when the error does not say which it is about. The
    help a group prints when given no command is left as it is."""
    # typer vendors click: its exceptions are typer's own, under typer._click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError

    try:
        yield
    except NoArgsIsHelpError:
        raise
    except ClickException as exc:
        refused = _input_error_of(exc)
        if refused is not None:  # an option's text, refused by its parser (typed_option)
            typer.echo(_error_line(refused), err=True)
            raise typer.Exit(INPUT_ERROR_EXIT_CODE) from None
        message = " ".join(exc.format_message().split()).rstrip(".")
        context = getattr(exc, "ctx", None)
        command = command() if context is None else context.command_path
        typer.echo(f"{PROG}: error: {message} (see '{command} --help')", err=True)
        raise typer.Exit(INPUT_ERROR_EXIT_CODE) from None


def _input_error_of(exc):
    """The InputError an option's parser raised, behind the usage error typer made of it (through
    pydantic's validation), or None."""
    while exc is not None:
        if isinstance(exc, InputError):
            return exc
        if type(exc).__name__ == "ValidationError":  # pydantic's, around the parser's error
            for error in exc.errors():
                if isinstance(error.get("ctx", {}).get("error"), InputError):
                    return error["ctx"]["error"]
        exc = exc.__cause__ or exc.__context__
    return None


class _PlainUsageErrors(typer.core.TyperGroup):
    """A command group whose usage errors are one plain line and exit code 2 (:func:`_plain_usage_error`),
    like every other mistake, whether the app runs as ``benchtrust`` or in-process (typer's CliRunner)."""

    def make_context(self, info_name, args, parent=None, **extra):
        with _plain_usage_error(lambda: info_name or PROG):
            return super().make_context(info_name, args, parent=parent, **extra)

    def invoke(self, ctx):
        # an error in the options of a command of this group names that command
        with _plain_usage_error(lambda: " ".join(filter(None, (ctx.command_path, ctx.invoked_subcommand)))):
            return super().invoke(ctx)


_JSON_OPTION = typer.Option(False, "--json", help="Print the result as one JSON object.")
_FORCE_OPTION = typer.Option(
    False, "--force", help="Replace output files that exist already (never an input, nor a read-only file)."
)
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
    r"|rounding|beta|examples|class_counts|average|max_configurations|max_work|max_memory|max_states|zero_division|gamma|sigma|conditional_sd"
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


def _one_line_errors(command, *, rename_options: bool = True):
    """Run `command`, the body of the running command; an InputError becomes one line on stderr (options
    named as typed, unless not `rename_options`) and exit code 2.

    Every file the call names (each parameter whose value names an existing file) is protected while it
    runs (:func:`benchtrust._write.protecting`): an output that would replace one of them, by its path, a
    symbolic or a hard link, is refused, and so is, unless the call has ``--force``, an output that exists
    already. The file outputs the call names (``--out FILE``, ``--report``, ``--plot``) are checked
    (:func:`benchtrust._write.check_target`) before `command` starts, and again as each is written; the
    files a folder output (``--out DIR``) receives are checked by the command, all before its work starts
    (:func:`benchtrust._write.check_folder`).
    """
    from benchtrust._write import check_target, protecting

    try:
        inputs, outputs, force = _named_files()
        with protecting(inputs, force=force):
            for option, path in outputs:
                check_target(path, option)
            command()
    except InputError as exc:
        line = _error_line(exc) if rename_options else f"{PROG}: error: {' '.join(str(exc).split())}"
        typer.echo(line, err=True)
        raise typer.Exit(INPUT_ERROR_EXIT_CODE) from None


#: The parameters that name a command's outputs; a folder (metavar DIR) is checked by its command, which
#: knows the files it writes there (:func:`benchtrust._write.check_folder`).
_OUTPUTS = ("out", "report", "plot")


def _named_files() -> tuple[list[str], list[tuple[str, str]], bool | None]:
    """The files the running command's parameters name, and whether it may replace existing files:
    ``(inputs, outputs, force)``.

    Inputs: every value (of any parameter but the outputs) that names an existing file. Outputs: (option,
    value) of each file output given. Force: the command's ``--force`` (False for a command without it).
    """
    # typer vendors click: the running command's context is typer's own, under typer._click
    from typer._click.globals import get_current_context

    context = get_current_context(silent=True)
    if context is None:  # the command's function was called directly, not through the app
        return [], [], None
    inputs, outputs = [], []
    for parameter in context.command.params:
        value = context.params.get(parameter.name or "")
        if parameter.name in _OUTPUTS:
            if isinstance(value, str) and parameter.metavar != "DIR":
                outputs.append((parameter.opts[0], value))
            continue
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, str) and os.path.isfile(item):
                inputs.append(item)
    return inputs, outputs, context.params.get("force") is True


def typed_option(default, *names: str, parse, **options):
    """A ``typer.Option`` whose text ``parse(text, option)`` converts, such as :func:`_count`: a bad value
    is the InputError every other input mistake is, shown as the same one line (:func:`_plain_usage_error`).

    Parameters
    ----------
    default
        The default, as text (it is parsed too) or None.
    names : str
        The option's names, the first as messages name it (``"--test-size"``).
    parse : callable
        ``parse(text, option)``: the value, or an InputError naming `option`.
    options
        typer.Option's other arguments (``metavar``, ``help``).
    """
    option = names[0]
    return typer.Option(default, *names, parser=lambda text: parse(text, option), **options)


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
        number = _number(text, option)
        if not number.is_integer():
            raise InputError(f"{option}: expected a positive whole number, got {text!r}") from None
        value = int(number)
    return check_count(value, option)


def _probability(text: str, option: str, **interval) -> float:
    """`text` given to `option` as a probability, in (0, 1) unless `interval` says otherwise.

    A positive probability too small to tell from 0 in float64 (1 - p rounds to 1: below about 1e-16) is
    refused: levels and intervals are computed from 1 - p.

    >>> _probability("1e-300", "--alpha")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: --alpha: 1e-300 cannot be told from 0 (1 - 1e-300 rounds to 1); expected ...
    """
    value = check_probability(_number(text, option), option, **interval)
    if value > 0 and 1 - value == 1:
        raise InputError(
            f"{option}: {text} cannot be told from 0 (1 - {text} rounds to 1); expected 1e-15 or more"
        )
    return value


def _choice(text: str, option: str, choices: tuple[str, ...]) -> str:
    """`text` given to `option`, if it is one of `choices` (any case)."""
    if text.strip().lower() not in choices:
        raise InputError(f"{option}: expected {' or '.join(choices)}, got {text!r}")
    return text.strip().lower()


def _one_of(*choices: str):
    """The parser of an option that takes one of `choices` (any case)."""
    return lambda text, option: _choice(text, option, choices)


def probability(**interval):
    """The parser of an option that takes a probability, in (0, 1) unless `interval` says otherwise
    (:func:`benchtrust._io.check_probability`'s ``closed``, ``upper_open``)."""
    return lambda text, option: _probability(text, option, **interval)


def _positive_number(text: str, option: str) -> float:
    """`text` given to `option` as a finite number > 0."""
    value = _number(text, option)
    if not 0 < value < math.inf:
        raise InputError(f"{option}: expected a positive number, got {text!r}")
    return value


def _number_or_zero(text: str, option: str) -> float:
    """`text` given to `option` as a finite number >= 0."""
    value = _number(text, option)
    if not 0 <= value < math.inf:
        raise InputError(f"{option}: expected a number >= 0, got {text!r}")
    return value


def _count_or_zero(text: str, option: str) -> int:
    """`text` given to `option` as a whole number >= 0 (a seed, a number of resamples), at most 10^15.

    >>> _count_or_zero("0", "--seed"), _count_or_zero("1e3", "--seed")
    (0, 1000)
    """
    try:
        number = float(text)
    except ValueError:
        number = float("nan")
    if not (number >= 0 and number.is_integer()):
        raise InputError(f"{option}: expected a whole number >= 0, got {text!r}")
    return 0 if number == 0 else _count(text, option)


def _jobs(text: str, option: str = "--jobs") -> int:
    """`text` given to `option` as joblib's ``n_jobs``: -1 (one worker per core) or a positive whole number,
    capped at the cores this machine lets the process use, with a note on stderr when it is capped (more
    workers than cores only compete for them)."""
    if text.strip() == "-1":
        return -1
    jobs = _count(text, option)
    if jobs == 1:  # one worker: no need of joblib (0.3 s to import) to count the cores
        return 1
    from joblib import cpu_count

    cores = cpu_count()
    if jobs > cores:
        cores_text = f"{cores} core{'s' * (cores != 1)}"
        typer.echo(f"{option} {text.strip()}: capped at the {cores_text} of this machine", err=True)
        return cores
    return jobs


#: How long ``--scheduler`` waits for the scheduler to answer before it is an error, in seconds.
_CONNECT_SECONDS = 10.0
#: A scheduler's address: a protocol dask.distributed speaks, then a host (a name, an IPv4 address, or an
#: IPv6 address in brackets) and optionally a port.
_ADDRESS = re.compile(r"(tcp|tls|ws|wss)://(\[[0-9A-Fa-f:.]+\]|[\w.-]+)(:\d{1,5})?/?")


def _scheduler(text: str, option: str = "--scheduler") -> str:
    """`text` given to `option` as the address of a dask.distributed scheduler, such as
    ``tcp://10.0.0.5:8786`` (the port defaults to dask's 8786).

    >>> _scheduler(" tcp://127.0.0.1:8786 ")
    'tcp://127.0.0.1:8786'
    >>> _scheduler("host:8786")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    benchtrust.InputError: --scheduler: expected the address of a dask scheduler, ... got 'host:8786'
    """
    address = text.strip()
    if not _ADDRESS.fullmatch(address):
        raise InputError(
            f"{option}: expected the address of a dask scheduler, such as tcp://HOST:8786, got {text!r}"
        )
    return address


_SCHEDULER_OPTION = typed_option(
    None,
    "--scheduler",
    metavar="tcp://HOST:PORT",
    parse=_scheduler,
    help="Share the work out among every worker thread of this dask.distributed scheduler instead of --jobs "
    "(`dask scheduler`, then `dask worker tcp://HOST:PORT` on each machine; needs dask.distributed, "
    "benchtrust's dask extra). The output is the same.",
)


@contextlib.contextmanager
def _on_scheduler(scheduler: str | None, option: str = "--scheduler"):
    """Within the block, joblib (``n_jobs`` of the library's functions) runs its work on the workers of the
    dask.distributed scheduler at `scheduler`, through joblib's dask backend; nothing changes if it is None.

    The work is the same whoever does it, and joblib returns it in the order it was given, so the output
    does not depend on where it ran. The client is closed when the block ends, also by a stop (Ctrl-C):
    the scheduler then drops the work it was given.

    Raises
    ------
    InputError
        Naming `option`: dask.distributed is not installed (the ``[dask]`` extra), or the scheduler does
        not answer within :data:`_CONNECT_SECONDS`.
    """
    if scheduler is None:
        yield
        return
    try:
        from distributed import Client
    except ImportError:
        raise InputError(
            f"{option}: needs dask.distributed, which is not installed (pip install 'benchtrust[dask]')"
        ) from None
    import logging

    from joblib import parallel_config

    # Connections the stop closes are logged by tornado and distributed as errors with tracebacks, also
    # after the command has said its one line; this process ends with the command, so they stay quiet.
    for name in ("tornado.application", "distributed"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    try:
        client = Client(scheduler, timeout=_CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise InputError(f"{option} {scheduler}: cannot reach the scheduler: {reason}") from None
    try:
        with parallel_config(backend="dask", client=client):
            yield
    finally:
        client.close(timeout=1)


def _check_output_path(path, option: str) -> None:
    """InputError unless a file can be written at `path`, given to `option`: in an existing folder, and
    :func:`benchtrust._write.check_target` (a file name, not too long, not a folder, not read-only, not a
    file the command reads)."""
    from benchtrust._write import check_target

    folder = check_target(path, option).parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise InputError(f"{option}: cannot write {path}: folder '{folder}' {what}")


def _check_report_path(report, option: str = "--report") -> None:
    """InputError unless `report` can be written (:func:`_check_output_path`), with a .html or .htm suffix."""
    from pathlib import Path

    if Path(report).suffix.lower() not in (".html", ".htm"):
        raise InputError(f"{option}: expected a file name ending in .html or .htm, got {report!r}")
    _check_output_path(report, option)


def _check_plot_path(plot):
    """InputError unless `plot` can be written (:func:`_check_output_path`), in an image format matplotlib
    writes by itself."""
    from benchtrust._figures import image_format

    _check_output_path(plot, "--plot")
    try:
        image_format(plot)
    except InputError as exc:
        raise InputError(f"--plot: {exc}") from None


def _write_report(report, sections, json_output: bool, title: str = "benchtrust report") -> None:
    """Write `sections` (one or a list) as the HTML report `report`, if given, and say so on the terminal."""
    if report is None:
        return
    from benchtrust._report.html import write_report

    write_report(sections if isinstance(sections, list) else [sections], report, title=title)
    typer.echo(f"report written to {report}", err=json_output)


def _with_progress(description: str, quiet: bool, work):
    """``work(progress)``, with a progress bar on stderr if it is a terminal, unless `quiet`: the one
    progress display of every long command.

    ``progress(done, total=None, description=None)`` moves it: with a `total`, it shows ``done/total`` and
    the time left (estimated from the pace so far); without, the count ``done`` and the time elapsed;
    `description` replaces the text before the bar (the stage the work is in). The bar is drawn by rich, on
    a thread of its own ten times a second, and erased when the work ends or is stopped. With or without
    the bar, each step raises again a stop (Ctrl-C, SIGTERM) that a library swallowed
    (:func:`~benchtrust.cli._signals.check_stopped`).

    >>> _with_progress("counting", True, lambda progress: progress(1, 2))
    """
    import sys

    from benchtrust.cli._signals import check_stopped

    if quiet or not sys.stderr.isatty():
        return work(lambda done, total=None, description=None: check_stopped())
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        ProgressColumn,
        SpinnerColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    left = TimeRemainingColumn()

    class Count(ProgressColumn):
        """``done/total``, or ``done done`` while the total is unknown (nothing until the work counts)."""

        def render(self, task):
            if task.total is not None:
                return Text(f"{int(task.completed):,}/{int(task.total):,}", style="progress.download")
            return Text(f"{int(task.completed):,} done" if task.fields else "", style="progress.download")

    class Time(ProgressColumn):
        """The time left (``h:mm:ss left``) when the total is known, else the time elapsed."""

        def render(self, task):
            if task.total is None:
                elapsed = int(task.elapsed or 0)
                return Text(f"{elapsed // 3600:d}:{elapsed // 60 % 60:02d}:{elapsed % 60:02d} elapsed")
            return Text.assemble(left.render(task), " left")

    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), Count(), Time())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=None)

        def progress(done, total=None, description=None):
            check_stopped()
            bar.update(task, completed=done, total=total, description=description, counted=True)

        return work(progress)


def run_analysis_command(
    name: str, arguments: dict, *, json_output: bool, label: str = "working", report=None, plot=None
):
    """The one way a command runs an analysis of the table (:mod:`benchtrust._report.analyses`): the
    outputs checked first, the analysis run by name with a progress bar (none with `json_output`), its
    figure written to `plot`, the result printed (its text, or ``to_dict()`` as JSON) and its section
    written to `report`. Returns the result, for a command that writes more.
    """
    from benchtrust._report.analyses import draw, run_analysis

    if plot is not None:
        _check_plot_path(plot)
    if report is not None:
        _check_report_path(report)
    result = _with_progress(
        label, json_output, lambda progress: run_analysis(name, arguments, progress=progress)
    )
    if plot is not None:
        from benchtrust._figures import save_figure

        save_figure(draw(name, result), plot)
    show_result(result, json_output=json_output, report=report, plot=plot)
    return result


def show_result(result, *, json_output: bool, report=None, plot=None) -> None:
    """Print `result` (its text, or ``to_dict()`` as JSON), say where its plot went, write its report."""
    typer.echo(json_text(result.to_dict()) if json_output else str(result))
    if plot is not None:
        typer.echo(f"plot written to {plot}", err=json_output)
    if report is not None:  # a section (and its figure) is made only when asked for
        _write_report(report, result.section(), json_output)
