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


#: Runs ``python -m benchtrust._demo`` in the current directory and records its exit code in ``rc`` once it
#: has ended (written to ``rc.tmp`` and renamed, so a reader sees it whole): any process can wait for it.
_DEMO = (
    "import os, subprocess, sys\n"
    "with open('stdout.txt', 'wb') as out, open('stderr.txt', 'wb') as err:\n"
    "    code = subprocess.run([sys.executable, '-m', 'benchtrust._demo'], cwd='run', stdout=out, stderr=err)"
    ".returncode\n"
    "with open('rc.tmp', 'w') as rc:\n"
    "    rc.write(str(code))\n"
    "os.replace('rc.tmp', 'rc')\n"
)


@pytest.fixture(scope="session")
def demo(tmp_path_factory):
    """The run of ``make demo`` (``python -m benchtrust._demo``), once it has ended well, shared by the tests
    of what it prints and writes: its standard output and its ``demo-output`` folder. Tests must not change
    the folder.

    It runs once per test session: with pytest-xdist (``make test`` runs a worker per core) the first
    worker to need it creates the folder all workers share (an atomic ``mkdir``) and runs it there, and
    another worker that needs it waits for its exit code. The worker that runs it waits for it too, rather
    than starting it in the background at the session's start: the demo then takes that core alone, and
    the suite measured faster so than with three processes on two cores."""
    import time

    shared = os.environ.get("PYTEST_XDIST_WORKER") is not None
    folder = (tmp_path_factory.getbasetemp().parent if shared else tmp_path_factory.getbasetemp()) / "demo"
    try:
        (folder / "run").mkdir(parents=True)
    except FileExistsError:  # another worker runs it
        pass
    else:
        process = subprocess.Popen([sys.executable, "-c", _DEMO], cwd=folder)
        try:
            process.wait(timeout=DEMO_TIMEOUT)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    rc = folder / "rc"
    deadline = time.monotonic() + DEMO_TIMEOUT
    while not rc.exists():
        assert time.monotonic() < deadline, f"the demo did not end within {DEMO_TIMEOUT} s"
        time.sleep(0.2)
    stderr = (folder / "stderr.txt").read_text(encoding="utf-8")
    assert rc.read_text() == "0", stderr[-3000:]
    return (folder / "stdout.txt").read_text(encoding="utf-8"), folder / "run" / "demo-output"


def _once(module, name, key, shared):
    """Replace ``module.name`` with a memo of it: calls with equal ``key(*args, **kwargs)`` (None: not
    memoised) return a copy of the first call's answer, computed by whichever worker of the session
    asked first (:func:`_shared_answer` in folder `shared`)."""
    import copy

    original, answers = getattr(module, name), {}

    def memo(*args, **kwargs):
        found = key(*args, **kwargs)
        if found is None:
            return original(*args, **kwargs)
        if found not in answers:
            answers[found] = _shared_answer(shared, found, lambda: original(*args, **kwargs))
        return copy.deepcopy(answers[found])

    setattr(module, name, memo)
    return original


def _shared_answer(folder, key, compute):
    """``compute()``, computed once for all the session's xdist workers: the first to ask computes it
    (an atomic ``mkdir`` of its lock) and leaves it pickled in `folder`; another reads it, waiting while
    it is computed. If that computation fails, each worker computes it for itself."""
    import hashlib
    import pickle
    import time

    if folder is None:
        return compute()
    name = hashlib.sha256(pickle.dumps(key)).hexdigest()[:32]
    answer, failed = folder / f"{name}.pickle", folder / f"{name}.failed"
    try:
        (folder / f"{name}.lock").mkdir(parents=True)
    except FileExistsError:  # another worker computes it
        while not answer.exists():
            if failed.exists():
                return compute()
            time.sleep(0.1)
        return pickle.loads(answer.read_bytes())
    try:
        value = compute()
    except BaseException:
        failed.touch()
        raise
    partial = folder / f"{name}.pickle.tmp"
    partial.write_bytes(pickle.dumps(value))
    partial.replace(answer)
    return value


def _array_key(array):
    import numpy as np

    array = np.asarray(array)
    return (array.shape, str(array.dtype), array.tobytes())


@pytest.fixture(scope="session", autouse=True)
def computed_once(tmp_path_factory):
    """Two pure, expensive computations that several tests repeat on the same bundled data, done once per
    session, by one worker for all (in a folder the workers share, as :func:`demo`): the unfolding of the
    bundled multiverse study (the CLI, docs and report tests each run ``multiverse example``; tests of the
    unfolding itself call it directly) and the AUC table of the Melanoma board (Fig. 12 and the sota docs,
    same seed). Later calls get a copy of the first answer."""
    from benchtrust.multiverse import _study
    from benchtrust.sota import _auc

    shared = None
    if os.environ.get("PYTEST_XDIST_WORKER") is not None:
        shared = tmp_path_factory.getbasetemp().parent / "computed-once"
    unfold = _once(
        _study,
        "unfold",
        lambda matrix, **settings: (_array_key(matrix), repr(sorted(settings.items()))),
        shared,
    )
    auc_pmf = _once(
        _auc,
        "auc_pmf",
        lambda grid, **options: (
            (_array_key(grid), repr(sorted(options.items())))
            if isinstance(options.get("seed"), int)
            else None
        ),
        shared,
    )
    yield
    _study.unfold, _auc.auc_pmf = unfold, auc_pmf
