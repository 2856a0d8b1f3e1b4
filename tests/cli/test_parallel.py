"""``consistency batch`` and ``multiverse run`` past one process (issue 33, item 6): ``--jobs N`` and
``--scheduler tcp://HOST:PORT`` (a dask.distributed scheduler, through joblib's dask backend) give the same
output byte for byte however the work is shared out (one process, two local workers, a LocalCluster of two
workers); a scheduler that is not there, or dask not installed, is one line and exit code 2; a stop (Ctrl-C)
ends a command working on a cluster within 2 s; ``--jobs 1`` does not import joblib.

``multiverse run`` on two local workers runs only with BENCHTRUST_ALL_EXAMPLES=1 (benchmarks/
bench_generated.py): starting them takes seconds, and ``tests/multiverse/test_rankings_blocks.py`` cuts the
rankings into blocks without them. The commands keep small work in their own process (the batch for its
first half-second, the rankings below 5·10^7 cells); the tests lower these thresholds so that their small
inputs go to the workers.
"""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import joblib
import pytest
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.cli import _common
from benchtrust.consistency import _batch
from benchtrust.multiverse import _rankings

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    """The address of the scheduler of a LocalCluster of two workers of one thread each (in this process)."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture
def parallels(monkeypatch):
    """The ``n_jobs`` of every joblib.Parallel made; figures drawn in this process (quicker here)."""
    made = []
    real = joblib.Parallel

    def parallel(*args, n_jobs=None, **kwargs):
        made.append(n_jobs)
        return real(*args, n_jobs=n_jobs, **kwargs)

    monkeypatch.setattr(joblib, "Parallel", parallel)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(joblib, "cpu_count", lambda *args, **kwargs: 2)  # --jobs 2 on any machine
    return made


def invoke(*args):
    return CliRunner().invoke(cli.app, [str(arg) for arg in args])


def claims_table(rows=120):
    """Claims of every kind: test sets (consistent or not), k folds (score of means), and errors."""
    lines = ["id,positives,negatives,folds,aggregation,acc,sens,spec"]
    for k in range(rows):
        p, n = 30 + k % 17, 50 + (7 * k) % 31
        tp, tn = p - k % 5, n - k % 7
        acc, sens, spec = (tp + tn) / (p + n), tp / p, tn / n
        folds, aggregation = ("5", "som") if k % 4 == 3 else ("", "")
        if k % 11 == 5:
            spec += 0.01  # inconsistent
        positives = "x" if k % 29 == 7 else str(p)  # an error
        lines.append(f"c{k},{positives},{n},{folds},{aggregation},{acc:.4f},{sens:.4f},{spec:.4f}")
    return "\n".join(lines) + "\n"


def outputs(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()
    }


def test_the_batch_is_the_same_on_one_process_two_workers_and_a_cluster(
    scheduler, parallels, monkeypatch, tmp_path
):
    monkeypatch.setattr(_batch, "_LOCAL_SECONDS", 0.0)  # every row to the workers
    monkeypatch.setattr(_batch, "_WORKERS_GAIN_SECONDS", 0.0)
    (tmp_path / "claims.csv").write_text(claims_table(), encoding="utf-8")
    runs = {}
    for name, options in {
        "one": ["--jobs", "1"],
        "two": ["--jobs", "2"],
        "cluster": ["--scheduler", scheduler],
    }.items():
        out = tmp_path / name
        out.mkdir()
        result = invoke(
            "consistency", "batch", tmp_path / "claims.csv", "--out", out / "verdicts.csv", *options
        )
        assert result.exit_code == 0, result.stderr
        runs[name] = (result.stdout.replace(str(out), "OUT"), outputs(out))
    assert runs["one"] == runs["two"] == runs["cluster"]
    verdicts = runs["one"][1]["verdicts.csv"].decode()
    assert all(
        kind in verdicts for kind in (",consistent,", ",inconsistent,", ",error,", "kfold-score-of-means")
    )
    assert parallels == [2, -1]  # --jobs 1 made no pool; the cluster's run: every thread of its workers


def multiverse_inputs(folder: Path) -> None:
    """A multiverse of 6 data sets x 5 methods with failed runs: 5 data-set options x 2 imputations x 2
    aggregations."""
    lines = ["dataset,method,iteration,acc"]
    for d in range(6):
        for m in range(5):
            for i in range(3):
                value = "" if (d + m + i) % 7 == 0 else f"{0.6 + ((13 * d + 7 * m + 3 * i) % 23) / 100:.2f}"
                lines.append(f"d{d},m{m},{i},{value}")
    (folder / "results.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "spec.yaml").write_text(
        """\
measures: {acc: {better: higher, random: 0.5}}
choices:
  datasets:
    default: all
    options:
      all: {rule: all}
      a: {rule: list, datasets: [d0, d1, d2]}
      b: {rule: list, datasets: [d2, d3, d4, d5]}
      c: {rule: list, datasets: [d0, d5]}
      e: {rule: list, datasets: [d1, d3, d4]}
  imputation: {default: mean, options: {mean: {rule: mean}, random: {rule: random}}}
  aggregation: {default: mean, options: [mean, mean_rank]}
unfolding: false
""",
        encoding="utf-8",
    )


@pytest.mark.slow
def test_multiverse_run_is_the_same_on_one_process_and_a_cluster(scheduler, parallels, monkeypatch, tmp_path):
    monkeypatch.setattr(_rankings, "_PARALLEL_CELLS", 0)  # every block to the workers
    monkeypatch.setattr(_rankings, "_BLOCK_CELLS", 1)  # a block per data-set option: 20 blocks
    runs = {}
    ways = {"one": ["--jobs", "1"], "cluster": ["--scheduler", scheduler]}
    if os.environ.get("BENCHTRUST_ALL_EXAMPLES"):  # benchmarks/bench_generated.py: local workers too (slower)
        ways["two"] = ["--jobs", "2"]
    for name, options in ways.items():
        (tmp_path / name).mkdir()
        monkeypatch.chdir(tmp_path / name)
        multiverse_inputs(tmp_path / name)
        result = invoke("multiverse", "run", "results.csv", "--spec", "spec.yaml", "--out", "out", *options)
        assert result.exit_code == 0, result.stderr
        runs[name] = (result.stdout, outputs(tmp_path / name / "out"))
    assert all(run == runs["one"] for run in runs.values())
    assert "rankings.csv" in runs["one"][1] and "stepwise.png" in runs["one"][1]
    assert parallels == [-1, 2][: len(ways) - 1]  # the cluster's run: every thread of its workers


@pytest.mark.parametrize(
    "command",
    [
        ["consistency", "batch", "claims.csv"],
        ["multiverse", "run", "results.csv", "--spec", "spec.yaml", "--out", "study"],
    ],
    ids=["batch", "multiverse run"],
)
def test_a_scheduler_that_cannot_be_used_is_one_line(command, refuses, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "claims.csv").write_text(claims_table(3), encoding="utf-8")
    multiverse_inputs(tmp_path)
    monkeypatch.setattr(_common, "_CONNECT_SECONDS", 0.2)
    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    refuses(
        invoke, [*command, "--scheduler", "localhost:8786"], "--scheduler: expected the address", tmp_path
    )
    refuses(
        invoke, [*command, "--scheduler", f"tcp://127.0.0.1:{port}"], "cannot reach the scheduler", tmp_path
    )
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if dask were not installed
    refuses(
        invoke, [*command, "--scheduler", "tcp://127.0.0.1:8786"], "pip install 'benchtrust[dask]'", tmp_path
    )


def test_the_batch_on_one_job_imports_no_joblib(tmp_path):
    (tmp_path / "claims.csv").write_text(claims_table(20), encoding="utf-8")
    code = (
        "import sys\nfrom benchtrust.cli import main\nsys.argv = ['benchtrust', 'consistency', 'batch', "
        "'claims.csv', '--jobs', '1', '--json']\ntry:\n    main()\nexcept SystemExit as exc:\n"
        "    assert exc.code in (0, None), exc.code\nprint('joblib' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stderr.strip().splitlines()[-1] == "False"


#: How soon a command must end after Ctrl-C, in seconds: the product's promise (issue 29 §4, "within 2 s"),
#: as tests/cli/test_signals.py checks it for every long command on one machine.
STOP_BOUND = 2.0


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_batch_on_a_cluster_within_2_s(scheduler, tmp_path):
    """The command runs in its own process, connected to the cluster of this one; Ctrl-C once it works."""
    (tmp_path / "claims.csv").write_text(claims_table(40_000), encoding="utf-8")  # some 15 s of work
    process = subprocess.Popen(
        [sys.executable, "-m", "benchtrust", "consistency", "batch", "claims.csv", "--scheduler", scheduler],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    client = distributed.Client(scheduler, set_as_default=False)
    try:
        deadline = time.monotonic() + 30
        while not client.processing() or not any(client.processing().values()):  # the cluster has its work
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        sent = time.monotonic()
        stopped = threading.Event()
        threading.Timer(10, lambda: stopped.is_set() or process.kill()).start()
        _, stderr = process.communicate()
        stopped.set()
        elapsed = time.monotonic() - sent
    finally:
        client.close()
    assert process.returncode == 130, stderr
    assert elapsed < STOP_BOUND, f"took {elapsed:.1f} s to stop"
    assert stderr.decode().splitlines() == ["benchtrust: stopped by Ctrl-C (SIGINT)"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["claims.csv"]
