"""Hypothesis draws the same examples on every run (``derandomize``), so a test run, CI's included, is
reproducible: a failure that a random draw found once is pinned as an ``@example`` or a test of its own."""

import subprocess
import sys

import pytest
from hypothesis import settings

settings.register_profile("reproducible", derandomize=True)
settings.load_profile("reproducible")


@pytest.fixture(scope="session")
def demo(tmp_path_factory):
    """One run of ``make demo`` (``python -m benchtrust._demo``) in a fresh directory, shared by the tests
    of what it prints and writes (it takes most of a minute): its standard output and its
    ``demo-output`` folder. Tests must not change the folder."""
    cwd = tmp_path_factory.mktemp("demo")
    result = subprocess.run(
        [sys.executable, "-m", "benchtrust._demo"], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout, cwd / "demo-output"
