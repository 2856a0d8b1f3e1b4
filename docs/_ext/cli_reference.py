"""The ``benchtrust-cli`` directive: the command line reference, from the commands themselves.

typer builds the command line with its own copy of click (``typer._click``), which sphinx-click does not
take, so this walks the command tree typer gives (``typer.main.get_command``) and writes, for every
command, a section labelled ``cli-<group>-<command>`` (``:ref:`cli-sota-leaderboard```) with its help,
its usage, a link to the function it runs (the table of analyses, ``benchtrust._report.analyses``) and
one ``.. option::`` per option (``:option:`benchtrust sota leaderboard --test-size```): the same text
``benchtrust COMMAND --help`` prints.
"""

from __future__ import annotations

import re

import typer.main
from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from benchtrust._report.analyses import ANALYSES

#: Characters reStructuredText would read as markup in a help text.
_MARKUP = re.compile(r"([\\*`|_])")


def _escaped(text: str) -> str:
    return _MARKUP.sub(r"\\\1", text)


def _lines(command, path: list[str], context) -> list[str]:
    """reStructuredText for ``command`` (at ``path``) and the commands under it."""
    name = " ".join(path)
    lines = [f".. _cli-{'-'.join(path[1:]) or 'benchtrust'}:", "", name, "-" * len(name), ""]
    lines += [".. program:: " + name, ""]
    lines += [_escaped(line) for line in (command.help or "").strip().splitlines()] + [""]
    pieces = command.collect_usage_pieces(context)
    lines += [f"Usage: ``{name} {' '.join(pieces)}``", ""]
    analysis = ANALYSES.get(" ".join(path[1:]))
    if analysis is not None:
        package, function = analysis.function.split(":")
        lines += [f"In Python: :func:`benchtrust.{package}.{function}`.", ""]
    for parameter in command.params:
        record = parameter.get_help_record(context)
        if record is None:  # an argument: shown by its metavar in the usage
            continue
        signature, help_text = record
        lines += [f".. option:: {signature}", "", "   " + _escaped(help_text or ""), ""]
    for sub_name, sub in sorted(getattr(command, "commands", {}).items()):
        sub_context = type(context)(sub, info_name=sub_name, parent=context)
        lines += _lines(sub, [*path, sub_name], sub_context)
    return lines


class CommandLine(SphinxDirective):
    """Every command of ``benchtrust``, one section each."""

    def run(self):
        import benchtrust.cli

        command = typer.main.get_command(benchtrust.cli.app)
        context = typer.main._click.Context(command, info_name="benchtrust")
        container = nodes.section()
        nested_parse_with_titles(self.state, StringList(_lines(command, ["benchtrust"], context)), container)
        return container.children


def setup(app):
    app.add_directive("benchtrust-cli", CommandLine)
    return {"parallel_read_safe": True, "version": "1"}
