"""The command groups: all four listed in ``--help`` with their question; errors exit 2 in one line."""

import re
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from benchtrust import InputError, cli

QUESTIONS = {
    "sota": "Is the top of a leaderboard the state of the art, or the luck of many tries?",
    "consistency": "Could these reported scores have come from the experiment described?",
    "compare": "Is A really better than B, given all the sources of variance?",
    "multiverse": "Would the ranking survive other reasonable design and analysis choices?",
}
WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}


def flatten(text: str) -> str:
    """The text without box-drawing characters and line wrapping, as one line of single spaces."""
    return " ".join(re.sub(r"[\u2500-\u257f]", " ", text).split())


def test_help_lists_the_four_groups_with_their_question():
    result = CliRunner().invoke(cli.app, ["--help"], env=WIDE)
    assert result.exit_code == 0
    shown = flatten(result.stdout)
    for name, question in QUESTIONS.items():
        assert f"{name} {question}" in shown


def test_no_arguments_shows_the_help():
    result = CliRunner().invoke(cli.app, [], env=WIDE)
    assert "Traceback" not in result.output
    assert all(name in result.output for name in QUESTIONS)


@pytest.mark.parametrize("name", list(QUESTIONS))
def test_built_groups_are_real(name):
    result = CliRunner().invoke(cli.app, [name, "--help"], env=WIDE)
    assert result.exit_code == 0
    assert QUESTIONS[name] in flatten(result.stdout)


def test_usage_error_exits_2_without_traceback():
    completed = subprocess.run(
        [sys.executable, "-m", "benchtrust", "--no-such-option"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert "--no-such-option" in completed.stderr


def failing_app(message: str) -> typer.Typer:
    """A stand-in for the real app whose only command raises InputError(message)."""
    stand_in = typer.Typer(pretty_exceptions_enable=False)

    @stand_in.command()
    def run() -> None:
        raise InputError(message)

    return stand_in


def test_main_turns_input_error_into_one_line(monkeypatch, capsys):
    message = "scores.csv, line 4, column 'accuracy': 'abc' is not a number"
    monkeypatch.setattr(cli, "app", failing_app(message))
    with pytest.raises(SystemExit) as stopped:
        cli.main([])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.err == f"benchtrust: error: {message}\n"
    assert captured.out == ""


def test_main_keeps_a_multiline_message_on_one_line(monkeypatch, capsys):
    monkeypatch.setattr(cli, "app", failing_app("first part\nsecond part"))
    with pytest.raises(SystemExit):
        cli.main([])
    assert capsys.readouterr().err == "benchtrust: error: first part second part\n"
