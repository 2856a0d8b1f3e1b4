"""The ``benchtrust-cli`` directive: the command line reference, from the commands themselves.

typer builds the command line with its own copy of click (``typer._click``), which sphinx-click does not
take, so this walks the command tree typer gives (``typer.main.get_command``) and writes, for every
command, a section labelled ``cli-<group>-<command>`` (``:ref:`cli-sota-leaderboard```) with its help,
its usage, a link to the function it runs (the table of analyses, ``benchtrust._report.analyses``) and
one ``.. option::`` per option (``:option:`benchtrust sota leaderboard --test-size```): the same text
``benchtrust COMMAND --help`` prints. The other way, each function a command runs ends its API page with a
link to the command's section.
"""

from __future__ import annotations

import functools
import re

import typer.main
from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

import benchtrust.cli
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
        command = _tree()
        context = typer.main._click.Context(command, info_name="benchtrust")
        container = nodes.section()
        nested_parse_with_titles(self.state, StringList(_lines(command, ["benchtrust"], context)), container)
        return container.children


@functools.cache
def _tree():
    """The command line as typer builds it (once)."""
    return typer.main.get_command(benchtrust.cli.app)


def _commands_of(function: str) -> list[str]:
    """The commands that run ``function`` (``"benchtrust.sota.leaderboard"``), from the table of analyses
    (some of its analyses are a report's only, and have no command)."""
    tree = _tree()
    commands = []
    for command, analysis in ANALYSES.items():
        group, _, name = command.partition(" ")
        exists = name in getattr(tree.commands.get(group), "commands", {})
        if exists and f"benchtrust.{analysis.function.replace(':', '.')}" == function:
            commands.append(command)
    return commands


def _link_commands(app, what, name, obj, options, lines):
    """End the docstring of a function that a command runs with a link to the command's section."""
    commands = _commands_of(name) if what == "function" else []
    if commands:
        links = ", ".join(
            f":ref:`benchtrust {command} <cli-{command.replace(' ', '-')}>`" for command in commands
        )
        lines += ["", ".. rubric:: Command line", "", links]


def setup(app):
    app.add_directive("benchtrust-cli", CommandLine)
    app.connect("autodoc-process-docstring", _link_commands)
    return {"parallel_read_safe": True, "version": "1"}
