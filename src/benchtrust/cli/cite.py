"""``benchtrust cite [COMMAND...]``: the BibTeX entries to cite for a command's analyses.

The entries come from :mod:`benchtrust._citations`; ``benchtrust.cli`` registers :func:`cite_command` on the
root app.
"""

import typer

from benchtrust._io import InputError
from benchtrust.cli._common import PROG, _one_line_errors


def cite_command(
    ctx: typer.Context,
    command: list[str] | None = typer.Argument(
        None,
        metavar="[COMMAND]...",
        help="A command or group, such as 'sota leaderboard' or 'compare' (none: benchtrust, its papers).",
    ),
) -> None:
    """Print the BibTeX entries to cite: benchtrust, and the papers of a command's analyses."""

    def run():
        from benchtrust._citations import analyses_of, command_citations

        words = " ".join(command or ())
        if words and words not in _command_paths(ctx.find_root().command) and not analyses_of(words):
            raise InputError(f"cite: unknown command {words!r} (see '{PROG} --help')")
        typer.echo("\n\n".join(command_citations(words)))

    _one_line_errors(run, rename_options=False)


def _command_paths(group, prefix: str = "") -> set[str]:
    """Every group and command under `group` (a click group), as typed after ``benchtrust``."""
    paths = set()
    for name, sub in getattr(group, "commands", {}).items():
        path = f"{prefix}{name}"
        paths |= {path, *_command_paths(sub, path + " ")}
    return paths
