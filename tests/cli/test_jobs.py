"""``--jobs`` above the cores of the machine is capped at them, with a one-line note on stderr, in every
command that has the option (issue 19, §7): more workers than cores only compete for them."""

import json
import os

import joblib
import pytest
import typer
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.cli._common import _jobs

CLAIMS = "id,positives,negatives,acc\na,10,20,0.9\nb,10,20,0.95\n"
RESULTS = "dataset,method,acc\n" + "".join(
    f"d{d},m{m},0.{50 + 7 * d + 11 * m}\n" for d in range(3) for m in range(3)
)
SPEC = (
    "measures: {acc: {better: higher, random: 0.5}}\nchoices: {aggregation: {options: [mean, median]}}\n"
    "unfolding: false\n"
)
#: Per command with ``--jobs`` (its path in the tree): its other arguments; ``{folder}`` holds claims.csv,
#: results.csv and spec.yaml (a multiverse of two combinations).
JOBS = {
    ("consistency", "batch"): ["{folder}/claims.csv"],
    ("multiverse", "run"): ["{folder}/results.csv", "--spec", "{folder}/spec.yaml", "--out", "{folder}/out"],
}


def inputs(folder):
    """Write the inputs of the commands of :data:`JOBS` to `folder`."""
    for name, text in (("claims.csv", CLAIMS), ("results.csv", RESULTS), ("spec.yaml", SPEC)):
        (folder / name).write_text(text, encoding="utf-8")


def commands_with(option, command=None, path=()):
    """The paths of every command in the tree that has `option`."""
    command = command or typer.main.get_command(cli.app)
    if hasattr(command, "commands"):
        return [
            found
            for name, sub in command.commands.items()
            for found in commands_with(option, sub, (*path, name))
        ]
    return [path] if any(option in param.opts for param in command.params) else []


@pytest.fixture
def one_core(monkeypatch):
    """A machine of one core, and the ``n_jobs`` of every joblib.Parallel made (1: no worker started; with
    one worker, the commands run the work in their own process, making none)."""
    made = []

    def parallel(*args, n_jobs=None, **kwargs):
        made.append(n_jobs)
        return real(*args, n_jobs=n_jobs, **kwargs)

    real = joblib.Parallel
    monkeypatch.setattr(joblib, "cpu_count", lambda *args, **kwargs: 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)  # figures drawn in turn
    monkeypatch.setattr(joblib, "Parallel", parallel)
    return made


def test_every_command_with_jobs_is_covered():
    assert sorted(commands_with("--jobs")) == sorted(JOBS)


@pytest.mark.parametrize("path", sorted(JOBS), ids=" ".join)
@pytest.mark.parametrize("jobs", ["64", "1e3"])
def test_jobs_above_the_cores_are_capped_with_a_note(path, jobs, one_core, tmp_path):
    inputs(tmp_path)
    args = [arg.format(folder=tmp_path) for arg in JOBS[path]]
    result = CliRunner().invoke(cli.app, [*path, *args, "--jobs", jobs, "--json"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"--jobs {jobs}: capped at the 1 core of this machine\n"
    assert isinstance(json.loads(result.stdout), dict)
    assert all(n_jobs == 1 for n_jobs in one_core)  # the work ran with the capped number


@pytest.mark.parametrize("path", sorted(JOBS), ids=" ".join)
def test_jobs_within_the_cores_say_nothing(path, one_core, tmp_path):
    inputs(tmp_path)
    args = [arg.format(folder=tmp_path) for arg in JOBS[path]]
    result = CliRunner().invoke(cli.app, [*path, *args, "--jobs", "1", "--json"])
    assert (result.exit_code, result.stderr) == (0, "")
    assert all(n_jobs == 1 for n_jobs in one_core)


def test_the_note_counts_the_cores(monkeypatch, capsys):
    monkeypatch.setattr(joblib, "cpu_count", lambda *args, **kwargs: 2)
    assert (_jobs("2"), _jobs("-1"), _jobs("1e6", "--workers")) == (2, -1, 2)
    assert capsys.readouterr().err == "--workers 1e6: capped at the 2 cores of this machine\n"


def test_a_study_caps_its_worker_processes_with_a_warning(monkeypatch):
    """The library's one ``n_jobs`` of its own (compare.Study): capped for local processes, as asked for
    threads or a cluster."""
    from benchtrust.compare import Study

    monkeypatch.setattr(joblib, "cpu_count", lambda *args, **kwargs: 2)

    def fit_and_score(train, test, hyperparameters, seeds):
        return 0.5

    with pytest.warns(UserWarning, match=r"^n_jobs=64: capped at the 2 cores of this machine$"):
        assert Study(fit_and_score, data_size=10, n_jobs=64).n_jobs == 2
    assert Study(fit_and_score, data_size=10, n_jobs=64, backend="threading").n_jobs == 64
    assert Study(fit_and_score, data_size=10, n_jobs=-1).n_jobs == -1
