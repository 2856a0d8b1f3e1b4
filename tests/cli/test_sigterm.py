"""SIGTERM stops ``benchtrust`` as Ctrl-C does: the output being written is not left behind as a
temporary file, and the file it would have replaced is unchanged (issue 19, §7); either stops a command
with one line and exit code 128 + the signal's number (issue 29, §4; every long command, by subprocess, in
test_signals.py)."""

import contextlib
import signal
import subprocess
import sys

import pytest

from benchtrust import cli
from benchtrust.cli import _signals

#: Runs ``benchtrust report CONFIG --out PAGE --force`` through the command's entry point, with the write held
#: just before the page is flushed to disk: it prints "writing" and waits there to be sent SIGTERM.
CHILD = """\
import os, sys, time

import benchtrust.cli


def held(descriptor):
    print("writing", flush=True)
    time.sleep(60)


os.fsync = held
benchtrust.cli.main(["report", sys.argv[1], "--out", sys.argv[2], "--force"])
"""
CONFIG = """\
analyses:
  - {analysis: consistency test-set, positives: 10, negatives: 20, scores: {acc: "0.9"}}
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("existing", [False, True], ids=["new", "replacing"])
def test_sigterm_mid_write_leaves_no_temporary_file(tmp_path, existing):
    config, page = tmp_path / "config.yaml", tmp_path / "page.html"
    config.write_text(CONFIG, encoding="utf-8")
    if existing:
        page.write_text("the previous report", encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(config), str(page)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "writing\n", child.communicate(timeout=60)[1]
        temporary = [path.name for path in tmp_path.iterdir() if path.name.startswith(".page.html.")]
        assert len(temporary) == 1  # the write is under way
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 128 + signal.SIGTERM, stderr
    assert "Traceback" not in stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["config.yaml", *(["page.html"] * existing)]
    if existing:
        assert page.read_text(encoding="utf-8") == "the previous report"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_handler_or_ignore_set_by_the_caller_stands(signum):
    """Only the default action is replaced, and only within the block; a program that runs
    benchtrust.cli.main keeps its own handler, and gets its handlers back afterwards."""
    default = signal.getsignal(signum)
    try:
        for own in (signal.SIG_IGN, print):
            signal.signal(signum, own)
            with _signals.stopping_on_signals():
                assert signal.getsignal(signum) is own
        signal.signal(signum, default)
        with _signals.stopping_on_signals():
            assert signal.getsignal(signum) is _signals._stop
        assert signal.getsignal(signum) is default
    finally:
        signal.signal(signum, default)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_the_command_with_one_line(signum, capsys):
    """In-process: the signal unwinds the command; main prints one line and exits with 128 + signum."""

    def busy(*_, **__):
        signal.raise_signal(signum)
        raise AssertionError("not stopped")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("benchtrust.compare.runs_needed", busy)
        with pytest.raises(SystemExit) as stop:
            cli.main(["compare", "sample-size"])
    assert stop.value.code == 128 + signum
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"benchtrust: {_signals.stopped_line(128 + signum)}\n"


def swallowing(signum, then):
    """A stand-in for a long computation in which a library swallows the stop: it is sent `signum`, catches
    the exception that comes (as an extension module's initialisation does during an import), then calls
    ``then(progress)``."""

    def compute(*_, progress=None, **__):
        with contextlib.suppress(SystemExit):
            signal.raise_signal(signum)
        then(progress)
        raise AssertionError("not stopped")

    return compute


def next_step(progress):
    progress(1, 2)


def import_error(progress):
    raise ImportError("initialization failed")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("then", [next_step, import_error], ids=["next step", "another exception"])
@pytest.mark.parametrize("quiet", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_a_library_swallowed_still_stops_the_command(signum, quiet, then, capsys):
    """A stop that a library swallows ends the command at its next progress step, and one turned into
    another exception ends it as the stop: the exit code and the one line of the signal, no traceback
    (the CI run of 2026-11-28: SIGTERM during scipy's import in ``compare error-rates`` was lost)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("benchtrust.compare.error_rates", swallowing(signum, then))
        with pytest.raises(SystemExit) as stop:
            cli.main(["compare", "error-rates", "--sigma", "0.01", *(["--json"] * quiet)])
    assert stop.value.code == 128 + signum
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"benchtrust: {_signals.stopped_line(128 + signum)}\n"
