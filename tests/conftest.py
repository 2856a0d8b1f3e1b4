"""Hypothesis draws the same examples on every run (``derandomize``), so a test run, CI's included, is
reproducible: a failure that a random draw found once is pinned as an ``@example`` or a test of its own."""

import os
import subprocess
import sys

import pytest
from hypothesis import settings

settings.register_profile("reproducible", derandomize=True)
settings.load_profile("reproducible")

#: How long ``make demo`` may take, in seconds.
DEMO_TIMEOUT = 600


def _start_demo(tmp_path_factory):
    """``python -m benchtrust._demo`` started in a fresh directory: (process, directory, stdout, stderr)."""
    cwd = tmp_path_factory.mktemp("demo")
    logs = tmp_path_factory.mktemp("demo-logs")
    stdout, stderr = logs / "stdout.txt", logs / "stderr.txt"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "benchtrust._demo"], cwd=cwd, stdout=out, stderr=err
        )
    return process, cwd, stdout, stderr


@pytest.fixture(scope="session", autouse=True)
def demo_process(request, tmp_path_factory):
    """``make demo`` (``python -m benchtrust._demo``) started as the session starts, when a collected test
    uses :func:`demo`, so that it runs on the second core while the other tests run (it takes most of a
    minute, mostly on one core): ``(process, directory, stdout file, stderr file)``, or None. With
    pytest-xdist (``make test`` runs a worker per core) it is not started here: every worker collects every
    test, and :func:`demo` starts it in the one worker that needs it. A run no test waited for is stopped
    at the end."""
    wanted = any("demo" in getattr(item, "fixturenames", ()) for item in request.session.items)
    if not wanted or os.environ.get("PYTEST_XDIST_WORKER"):
        yield None
        return
    started = _start_demo(tmp_path_factory)
    yield started
    if started[0].poll() is None:
        started[0].kill()
        started[0].wait()


@pytest.fixture(scope="session")
def demo(demo_process, tmp_path_factory):
    """The run of ``make demo`` that :func:`demo_process` started (or, in a pytest-xdist worker, one started
    now), shared by the tests of what it prints and writes: its standard output and its ``demo-output``
    folder. Tests must not change the folder."""
    process, cwd, stdout, stderr = demo_process or _start_demo(tmp_path_factory)
    try:
        process.wait(timeout=DEMO_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    assert process.returncode == 0, stderr.read_text(encoding="utf-8")[-3000:]
    return stdout.read_text(encoding="utf-8"), cwd / "demo-output"


def _once(module, name, key):
    """Replace ``module.name`` with a memo of it: calls with equal ``key(*args, **kwargs)`` (None: not
    memoised) return a copy of the first call's answer."""
    import copy

    original, answers = getattr(module, name), {}

    def memo(*args, **kwargs):
        found = key(*args, **kwargs)
        if found is None:
            return original(*args, **kwargs)
        if found not in answers:
            answers[found] = original(*args, **kwargs)
        return copy.deepcopy(answers[found])

    setattr(module, name, memo)
    return original


def _array_key(array):
    import numpy as np

    array = np.asarray(array)
    return (array.shape, str(array.dtype), array.tobytes())


@pytest.fixture(scope="session", autouse=True)
def computed_once():
    """Two pure, expensive computations that several tests repeat on the same bundled data, done once per
    session: the unfolding of the bundled multiverse study (the CLI, docs and report tests each run
    ``multiverse example``; tests of the unfolding itself call it directly) and the AUC table of the
    Melanoma board (Fig. 12 and the sota docs, same seed). Later calls get a copy of the first answer."""
    from benchtrust.multiverse import _study
    from benchtrust.sota import _auc

    unfold = _once(
        _study, "unfold", lambda matrix, **settings: (_array_key(matrix), repr(sorted(settings.items())))
    )
    auc_pmf = _once(
        _auc,
        "auc_pmf",
        lambda grid, **options: (
            (_array_key(grid), repr(sorted(options.items())))
            if isinstance(options.get("seed"), int)
            else None
        ),
    )
    yield
    _study.unfold, _auc.auc_pmf = unfold, auc_pmf
