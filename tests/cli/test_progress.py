"""The one progress display of every long command (``_common._with_progress``): on a terminal, a count
and the time left for counted work, the count done and the time elapsed otherwise; nothing off a terminal
or when quiet (issue 29 §4). Each long command's display at work is checked in test_signals.py."""

import io
import re
import time

import pytest

from benchtrust.cli._common import _with_progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "150")
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("NO_COLOR", raising=False)
    return Terminal()


def run(terminal, *args):
    """``_with_progress(*args)`` with `terminal` as stderr (set in the test's call: pytest sets its own
    stderr back between a fixture and the call)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stderr", terminal)
        return _with_progress(*args)


def shown(stream):
    """The text of every frame drawn, escape sequences left out."""
    return re.sub(r"\x1b\[[?\d;]*[A-Za-z]", "", stream.getvalue())


# (calls, then what the display shows): counted work at several sizes, uncounted work, a stage named.
CASES = {
    "counted": ([(3, 10), (6, 10)], [r"6/10 +\d:\d\d:\d\d left"]),
    "large": ([(1_000, 2_500_000), (250_000, 2_500_000)], [r"250,000/2,500,000 +\d:\d\d:\d\d left"]),
    "uncounted": ([(7,), (1_234,)], [r"1,234 done +\d:\d\d:\d\d elapsed"]),
    "stage": ([(0, 4, "running compare rank"), (1, 4)], [r"running compare rank .*1/4 "]),
}


@pytest.mark.parametrize("case", CASES)
def test_the_display_shows_a_count_and_the_time(case, terminal):
    calls, patterns = CASES[case]

    def work(progress):
        for call in calls:
            progress(*call)
            time.sleep(0.25)  # the display redraws ten times a second
        return "result"

    assert run(terminal, "working", False, work) == "result"
    for pattern in patterns:
        assert re.search(pattern, shown(terminal)), shown(terminal)[-400:]


def test_work_that_never_counts_shows_no_count(terminal):
    run(terminal, "working", False, lambda progress: time.sleep(0.25))
    text = shown(terminal)
    assert "elapsed" in text and "done" not in text and "/" not in text


@pytest.mark.parametrize("quiet", [True, False])
def test_nothing_is_shown_off_a_terminal_or_when_quiet(quiet, terminal, monkeypatch):
    if not quiet:
        monkeypatch.setattr(Terminal, "isatty", lambda self: False)

    def work(progress):  # it still counts (each step checks for a stop), but draws nothing
        progress(1, 2, "a stage")
        progress(2)
        return "done"

    assert run(terminal, "working", quiet, work) == "done"
    assert terminal.getvalue() == ""
