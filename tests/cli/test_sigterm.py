"""SIGTERM stops ``benchtrust`` as Ctrl-C does: the output being written is not left behind as a
temporary file, and the file it would have replaced is unchanged (issue 19, §7)."""

import signal
import subprocess
import sys

import pytest

from benchtrust.cli import _signals

#: Runs ``benchtrust report CONFIG --out PAGE`` through the command's entry point, with the write held
#: just before the page is flushed to disk: it prints "writing" and waits there to be sent SIGTERM.
CHILD = """\
import os, sys, time

import benchtrust.cli


def held(descriptor):
    print("writing", flush=True)
    time.sleep(60)


os.fsync = held
benchtrust.cli.main(["report", sys.argv[1], "--out", sys.argv[2]])
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
def test_a_sigterm_handler_or_ignore_set_by_the_caller_stands(monkeypatch):
    """Only the default action is replaced; a program that runs benchtrust.cli.main keeps its own."""
    installed = []
    monkeypatch.setattr(_signals.signal, "signal", lambda signum, handler: installed.append(handler))
    for current in (signal.SIG_IGN, print):
        monkeypatch.setattr(_signals.signal, "getsignal", lambda signum, current=current: current)
        _signals.exit_on_sigterm()
    assert installed == []
    monkeypatch.setattr(_signals.signal, "getsignal", lambda signum: signal.SIG_DFL)
    _signals.exit_on_sigterm()
    assert installed == [_signals._stop]
