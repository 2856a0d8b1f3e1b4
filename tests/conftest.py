"""Hypothesis draws the same examples on every run (``derandomize``), so a test run, CI's included, is
reproducible: a failure that a random draw found once is pinned as an ``@example`` or a test of its own."""

import subprocess
import sys

import pytest
from hypothesis import settings

settings.register_profile("reproducible", derandomize=True)
settings.load_profile("reproducible")

#: How long ``make demo`` may take, in seconds.
DEMO_TIMEOUT = 600


@pytest.fixture(scope="session", autouse=True)
def demo_process(request, tmp_path_factory):
    """``make demo`` (``python -m benchtrust._demo``) started in a fresh directory as the session starts,
    when a collected test uses :func:`demo`, so that it runs on the second core while the other tests run
    (it takes most of a minute, mostly on one core): ``(process, directory, stdout file, stderr file)``,
    or None. A run no test waited for is stopped at the end."""
    if not any("demo" in getattr(item, "fixturenames", ()) for item in request.session.items):
        yield None
        return
    cwd = tmp_path_factory.mktemp("demo")
    logs = tmp_path_factory.mktemp("demo-logs")
    stdout, stderr = logs / "stdout.txt", logs / "stderr.txt"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "benchtrust._demo"], cwd=cwd, stdout=out, stderr=err
        )
    yield process, cwd, stdout, stderr
    if process.poll() is None:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def demo(demo_process):
    """The run of ``make demo`` that :func:`demo_process` started, shared by the tests of what it prints
    and writes: its standard output and its ``demo-output`` folder. Tests must not change the folder."""
    process, cwd, stdout, stderr = demo_process
    try:
        process.wait(timeout=DEMO_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    assert process.returncode == 0, stderr.read_text(encoding="utf-8")[-3000:]
    return stdout.read_text(encoding="utf-8"), cwd / "demo-output"
