"""The ``benchtrust`` command: one command group per subpackage, nothing else.

The root :data:`app` and :func:`main` are here; each command group is a module of its own, which parses its
commands' options, calls the subpackage and prints the result: :mod:`~benchtrust.cli.sota`,
:mod:`~benchtrust.cli.consistency`, :mod:`~benchtrust.cli.compare`, :mod:`~benchtrust.cli.multiverse`, and
:mod:`~benchtrust.cli.report` for ``benchtrust report`` and :mod:`~benchtrust.cli.cite` for
``benchtrust cite``; the root app's ``--version`` prints the version. What they share (options, checks,
one-line errors, progress bars, printing, report writing) is in ``_common``.

Heavy modules (numpy, scipy, pandas, matplotlib and the subpackages themselves) are imported inside the
command functions, so ``benchtrust --help`` stays fast.

Every :class:`benchtrust.InputError` becomes one line ``benchtrust: error: <message>`` on stderr with exit
code 2; so does a usage error (an unknown option, a missing value: ``_common._PlainUsageErrors``).
Commands catch InputError themselves too (so the same holds when the app is run in-process, as by typer's
``CliRunner``); :func:`main` is the backstop.
"""

import typer

from benchtrust import __version__
from benchtrust._io import InputError
from benchtrust.cli import (  # noqa: F401 (they add commands to their groups)
    compare_tasks,
    consistency_protocols,
    consistency_regression,
)
from benchtrust.cli._common import INPUT_ERROR_EXIT_CODE, PROG, _error_line, _PlainUsageErrors
from benchtrust.cli._signals import stopped_line, stopping_on_signals
from benchtrust.cli.cite import cite_command
from benchtrust.cli.compare import compare_app
from benchtrust.cli.consistency import consistency_app
from benchtrust.cli.multiverse import multiverse_app
from benchtrust.cli.report import report_command
from benchtrust.cli.sota import sota_app

__all__ = ["app", "compare_app", "consistency_app", "main", "multiverse_app", "sota_app"]


app: typer.Typer = typer.Typer(
    name=PROG,
    help="Tell how much to trust a machine-learning benchmark claim.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=_PlainUsageErrors,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"{PROG} {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_print_version, help="Print the version and exit."
    ),
) -> None:
    """Tell how much to trust a machine-learning benchmark claim."""


# `benchtrust --help` lists the commands, then the groups, each in the order they are added here.
app.command("report")(report_command)
app.command("cite")(cite_command)
app.add_typer(sota_app)
app.add_typer(consistency_app)
app.add_typer(compare_app)
app.add_typer(multiverse_app)


def main(args: list[str] | None = None) -> None:
    """Run the ``benchtrust`` command with `args` (default: ``sys.argv[1:]``); never returns.

    An :class:`~benchtrust.InputError` raised by a command is printed as one line
    ``benchtrust: error: <message>`` on stderr, and the process exits with code 2, without a traceback.
    Ctrl-C (SIGINT) and SIGTERM stop a command, leaving no partial output, with one line
    ``benchtrust: stopped by ...`` on stderr and exit code 130 or 143 (:mod:`benchtrust.cli._signals`).
    """
    try:
        with stopping_on_signals():
            app(args=args, prog_name=PROG)
    except InputError as exc:
        typer.echo(_error_line(exc), err=True)
        raise SystemExit(INPUT_ERROR_EXIT_CODE) from None
    except SystemExit as stop:
        line = stopped_line(stop.code)
        if line is not None:
            typer.echo(f"{PROG}: {line}", err=True)
        raise
