"""Throughput per core of ``consistency batch`` and ``multiverse run`` past one process (issue 33, item 6).

Each is run through the library call its command makes (:func:`benchtrust.consistency.check_batch`,
:func:`benchtrust.multiverse.study`) in four ways: one process (``--jobs 1``), two local worker processes
(``--jobs 2``, joblib's loky backend), and a ``dask.distributed.LocalCluster`` of one and of two worker
processes of one thread each (``--scheduler``: joblib's dask backend). The workers are started, and have
imported benchtrust, before the clock starts (their start-up is printed on its own: it is paid once per
command). Every run's result is compared with the one-process run's: they must be identical.

* the batch: generated test-set claims (acc, sens, spec; one in 11 inconsistent) and, every fourth row,
  a 5-fold score-of-means claim; ``--claims N`` (default 40,000: some 13 s in one process, enough for
  the batch to share them out);
* the multiverse: the synthetic results of ``bench_multiverse.py`` (50 methods on 24 data sets) and a spec
  of random data-set subsets x 2 measures x 4 imputations x 2 aggregations, without the unfolding (one
  fit, which does not share out); ``--combinations N`` (default 50,000: 6·10^7 cells, past the 5·10^7
  from which the rankings are shared out).

Printed per row: wall time, the CPU time (user + sys) of this process and its workers, claims or
combinations per second of wall time, and per CPU second (the throughput per core, which the load of the
machine does not change much); and the load (``uptime``) before and after.

Run: .venv/bin/python benchmarks/bench_parallel.py [--claims N] [--combinations N]. Asserts only that the
results are identical.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from _tables import print_table  # benchmarks/, the script's own folder
from bench_multiverse import synthetic
from benchtrust.consistency import check_batch
from benchtrust.multiverse import study


def claims_file(folder: Path, rows: int) -> Path:
    """`rows` claims: test sets (one in 11 inconsistent) and, every fourth row, 5-fold score of means."""
    lines = ["id,positives,negatives,folds,aggregation,acc,sens,spec"]
    for k in range(rows):
        p, n = 40 + k % 400, 80 + (7 * k) % 900
        tp, tn = p - k % 13, n - k % 17
        spec = tn / n + (0.003 if k % 11 == 5 else 0)
        folds, aggregation = ("5", "som") if k % 4 == 3 else ("", "")
        lines.append(f"c{k},{p},{n},{folds},{aggregation},{(tp + tn) / (p + n):.4f},{tp / p:.4f},{spec:.4f}")
    path = folder / "claims.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def multiverse_inputs(combinations: int):
    """The synthetic results and a spec of about `combinations` combinations (16 per data-set option)."""
    results, spec = synthetic()
    rng = np.random.default_rng(1)
    names = [f"d{k:02d}" for k in range(24)]
    subsets = {"all": {"rule": "all"}}
    while len(subsets) < max(1, combinations // 16):
        kept = sorted(rng.choice(names, size=rng.integers(8, 21), replace=False).tolist())
        subsets[f"s{len(subsets)}"] = {"rule": "list", "datasets": kept}
    spec["choices"]["datasets"]["options"] = subsets
    spec["unfolding"] = False
    return results, spec


def cpu() -> float:
    """CPU seconds (user + sys) of this process and every process it started that is still running (the
    local workers and the cluster's: they live through the timed work)."""
    import psutil

    here = psutil.Process()
    total = 0.0
    for process in (here, *here.children(recursive=True)):
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def timed(work):
    wall, used = time.perf_counter(), cpu()
    out = work()
    return out, time.perf_counter() - wall, cpu() - used


def ways():
    """(name, context manager factory, n_jobs, start-up seconds) for each way of running."""
    import contextlib

    from distributed import Client, LocalCluster
    from joblib import Parallel, delayed, parallel_config

    def warm():  # the workers import what the work needs before the clock starts
        import benchtrust.consistency._batch
        import benchtrust.multiverse._rankings  # noqa: F401

    start = time.perf_counter()
    Parallel(n_jobs=2)(delayed(warm)() for _ in range(8))
    loky = time.perf_counter() - start
    yield "--jobs 1 (this process)", contextlib.nullcontext, 1, 0.0
    yield "--jobs 2 (local processes)", contextlib.nullcontext, 2, loky
    for workers in (1, 2):
        start = time.perf_counter()
        with (
            LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            Client(cluster) as client,
        ):
            client.run(warm)
            started = time.perf_counter() - start
            name = f"--scheduler, LocalCluster of {workers} worker{'s' * (workers > 1)}"
            yield name, lambda c=client: parallel_config(backend="dask", client=c), -1, started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=40_000)
    parser.add_argument("--combinations", type=int, default=50_000)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    results, spec = multiverse_inputs(args.combinations)
    rows, reference = [], {}
    with tempfile.TemporaryDirectory() as folder:
        claims = claims_file(Path(folder), args.claims)
        for name, context, n_jobs, started in ways():
            with context():
                batch, wall, used = timed(lambda n=n_jobs: check_batch(claims, n_jobs=n))
                rows.append(_row("batch", name, args.claims, wall, used, started))
                reference.setdefault("batch", batch.rows)
                assert batch.rows == reference["batch"], name
                done, wall, used = timed(lambda n=n_jobs: study(results, spec, n_jobs=n))
                count = len(done.multiverse.codes)
                rows.append(_row("multiverse", name, count, wall, used, started))
                ranks = (done.multiverse.ranks.tobytes(), done.stepwise.steps.to_csv())
                reference.setdefault("multiverse", ranks)
                assert ranks == reference["multiverse"], name
    print_table(
        [
            ("command", "how", "items", "wall", "CPU", "items/s", "items/CPU s", "start-up"),
            *rows,
        ]
    )
    print(f"load after: {os.getloadavg()[0]:.2f}; every way's results identical to the one-process run's")


def _row(command, name, items, wall, used, started):
    return (
        command,
        name,
        f"{items:,}",
        f"{wall:.1f} s",
        f"{used:.1f} s",
        f"{items / wall:,.0f}",
        f"{items / used:,.0f}",
        f"{started:.1f} s" if started else "",
    )


if __name__ == "__main__":
    main()
