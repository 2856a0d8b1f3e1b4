"""README.md shows real output: Python examples run as doctests, ``benchtrust sota`` examples as commands."""

import doctest
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.sota import bundled_leaderboard

README = Path(__file__).resolve().parents[1] / "README.md"


def console_blocks():
    """(command, expected output) of every ``$ benchtrust sota|consistency ...`` console block."""
    pattern = r"```console\n\$ (benchtrust (?:sota|consistency) [^\n]*)\n(.*?)```"
    blocks = re.findall(pattern, README.read_text("utf-8"), re.S)
    assert {command.split()[1] for command, _ in blocks} == {"sota", "consistency"}, "README.md lost examples"
    return blocks


def test_python_examples_run():
    # The ```pycon blocks, in order, as one doctest session (the fences are not part of the output).
    blocks = re.findall(r"```pycon\n(.*?)```", README.read_text("utf-8"), re.S)
    assert blocks, "README.md lost its Python examples"
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert len(test.examples) >= 6


@pytest.mark.parametrize(
    ("command", "expected"), console_blocks(), ids=[" ".join(c.split()[3:]) for c, _ in console_blocks()]
)
def test_command_examples_print_what_is_shown(command, expected, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # --plot writes relative to the current folder
    # The bundled leaderboard, at the path the README gives from the repository's root.
    shown = tmp_path / "src" / "benchtrust" / "data"
    shown.mkdir(parents=True)
    shutil.copy(bundled_leaderboard(), shown)
    result = CliRunner().invoke(cli.app, command.split()[1:])
    assert result.exit_code == 0, result.output
    assert result.output == expected


def first_screen():
    """(command, quoted verdict) of each row of the README's first table: one question each."""
    rows = re.findall(
        r"^\| [^|]+ \| `(benchtrust [^`]+)` \| \"([^\"]+)\" \|$", README.read_text("utf-8"), re.M
    )
    assert [command.split()[1] for command, _ in rows] == ["sota", "consistency", "compare", "multiverse"]
    return rows


@pytest.mark.parametrize(
    ("command", "verdict"), first_screen(), ids=[c.split()[1] for c, _ in first_screen()]
)
def test_the_first_screen_quotes_what_each_command_says(command, verdict, tmp_path, monkeypatch):
    """Each question's command, run from the repository's root (the bundled data at the path shown), prints
    the verdict quoted beside it (the text wraps its lines; the quote does not)."""
    monkeypatch.chdir(tmp_path)  # multiverse example --out writes relative to the current folder
    shutil.copytree(Path(cli.__file__).parents[1] / "data", tmp_path / "src" / "benchtrust" / "data")
    result = CliRunner().invoke(cli.app, command.split()[1:])
    assert result.exit_code == 0, result.output
    assert verdict in " ".join(result.output.split())
