"""The ``benchtrust`` command: one command group per subpackage, nothing else.

Heavy modules (numpy, scipy, pandas, matplotlib and the subpackages themselves) are imported inside the
command functions, so ``benchtrust --help`` stays fast.

Every :class:`benchtrust.InputError` becomes one line ``benchtrust: error: <message>`` on stderr with exit
code 2; usage errors also exit with 2.
"""

import typer
from typer.core import TyperGroup

from benchtrust._io import InputError

__all__ = ["app", "main", "sota_app"]

PROG = "benchtrust"
NOT_BUILT_EXIT_CODE = 2
INPUT_ERROR_EXIT_CODE = 2

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


def main(args: list[str] | None = None) -> None:
    """Run the ``benchtrust`` command with `args` (default: ``sys.argv[1:]``); never returns.

    An :class:`~benchtrust.InputError` raised by a command is printed as one line
    ``benchtrust: error: <message>`` on stderr, and the process exits with code 2, without a traceback.
    """
    try:
        app(args=args, prog_name=PROG)
    except InputError as exc:
        message = " ".join(str(exc).split())  # one line, whatever the message holds
        typer.echo(f"{PROG}: error: {message}", err=True)
        raise SystemExit(INPUT_ERROR_EXIT_CODE) from None
