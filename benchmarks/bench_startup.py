"""Time the commands of issue 33, item 1, end to end: each a whole process, start-up and imports included,
beside the floor of any such process, ``python -c "import numpy"``; and what each imports, by
``python -X importtime``.

Commands (the bundled data; the tables the script writes go to a temporary folder):

* ``compare aggregate --resamples 50000``, ``compare profile`` (81 thresholds 0, 0.1, ..., 8 and 2,000
  resamples, as the rliable row of ``bench_compare.py``) and ``compare improvement --resamples 2000`` on
  the Atari 100k runs, human-normalised (``--normalise reference`` with the bundled reference scores);
* ``compare rank``, ``compare bayes`` (the signed-rank test over the 54 data sets: nbc against aode),
  ``compare bayes --task 0 --folds 10`` (the correlated t-test on one data set) and ``compare auto`` on
  the UCI accuracies (5 classifiers × 54 data sets × 10 × 10-fold cross-validation);
* ``consistency batch`` of 10,000 test-set claims (acc, sens, spec, f1 to 4 decimals, p and n in
  20..5,000; all consistent by construction);
* ``sota best-of`` for Table 2's dependent row (1,000 accuracies in [0.875, 0.90], n = 3,000, ρ = 0.6,
  θ0 = 0.90).

Each runs ``python -m benchtrust ... --json`` (its output unread) in its own process, started from a small
``python -S`` (a process forked from this one would count this one's memory in its peak) and waited for
with ``os.wait4``: the median over ``--repeats`` runs (5; after one warm-up run, so that the files are in
the page cache and the bytecode is written, as an installed package has it) of the wall time, of the CPU
time (user + system: the load of a shared machine inflates the wall time more) and of the peak resident
memory. The peers are not run again: their column is their own computation in their own process as the
other benchmarks measured it (``benchmarks/README.md``; their start-up not included, which only favours
them), and the ratio is that time over benchtrust's whole process (wall). Then, for each command, the
``--imports`` (10) modules with the largest cumulative import time of one run with ``python -X
importtime``.

Run: .venv/bin/python benchmarks/bench_startup.py [--repeats 5] [--imports 10] [--only rank,bayes]. Prints
two tables; asserts nothing. Takes about two minutes on two cores (the aggregate and improvement rows
compute for seconds). POSIX only (``os.wait4``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from _peers import ratio_text  # benchmarks/, the script's own folder
from _tables import print_table
from bench_sota import TABLE_2

DATA = Path(__file__).resolve().parents[1] / "src" / "benchtrust" / "data"
ATARI = [
    str(DATA / "atari100k_runs.csv"),
    *("--direction", "higher", "--method-column", "algorithm", "--task-column", "game"),
    *("--normalise", "reference", "--reference", str(DATA / "atari_reference_scores.csv")),
]
UCI = [
    str(DATA / "uci_10x10cv_accuracies.csv"),
    *("--direction", "higher", "--method-column", "classifier", "--task-column", "dataset_index"),
    *("--run-column", "score_index", "--score-column", "accuracy_percent"),
]
THRESHOLDS = ",".join(f"{t:.1f}" for t in np.linspace(0.0, 8.0, 81))

#: The peers' own computation (seconds) as benchmarks/README.md reports it, and what it is.
PEERS = {
    "aggregate": (22.8, "rliable, IQM etc., 50,000 resamples"),
    "profile": (7.0, "rliable, 81 thresholds, 2,000 resamples"),
    "improvement": (21 * 17.3, "rliable, 21 pairs x 17.3 s (one pair measured)"),
    "rank": (0.0303, "autorank, Friedman + Nemenyi + CD"),
    "bayes": (0.590, "baycomp, signed-rank, 50,000 samples"),
    "bayes --task": (0.0043, "baycomp, correlated t on all 54 tasks"),
    "batch": (10_000 * 0.00145, "mlscorecheck, 10,000 x 1.45 ms"),
    "best-of": (15.5, "Monte Carlo, 100,000 repetitions"),
}


def write_claims(path: Path, rows: int = 10_000, seed: int = 3) -> None:
    """`rows` consistent one-test-set claims: acc, sens, spec and f1 of random counts, to 4 decimals."""
    rng = np.random.default_rng(seed)
    p, n = rng.integers(20, 5001, rows), rng.integers(20, 5001, rows)
    tp = np.maximum(rng.binomial(p, rng.uniform(0.5, 0.99, rows)), 1)  # f1 needs tp > 0
    tn = rng.binomial(n, rng.uniform(0.5, 0.99, rows))
    scores = np.column_stack([(tp + tn) / (p + n), tp / p, tn / n, 2 * tp / (tp + p + n - tn)])
    lines = ["id,positives,negatives,acc,sens,spec,f1"]
    lines += [f"c{i},{p[i]},{n[i]}," + ",".join(f"{s:.4f}" for s in scores[i]) for i in range(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def commands(folder: Path) -> list:
    """(name, arguments of benchtrust) of every timed command; their input files written to `folder`."""
    claims, accuracies = folder / "claims.csv", folder / "table2_accuracies.txt"
    write_claims(claims)
    np.savetxt(accuracies, np.linspace(0.875, 0.90, 1000), fmt="%.17g")
    best_of = [f"--{key.replace('_', '-')}={value}" for key, value in TABLE_2.items()]
    return [
        ("aggregate", ["compare", "aggregate", *ATARI, "--resamples", "50000", "--json"]),
        (
            "profile",
            ["compare", "profile", *ATARI, "--thresholds", THRESHOLDS, "--resamples", "2000", "--json"],
        ),
        ("improvement", ["compare", "improvement", *ATARI, "--resamples", "2000", "--json"]),
        ("rank", ["compare", "rank", *UCI, "--json"]),
        ("bayes", ["compare", "bayes", *UCI, "--a", "nbc", "--b", "aode", "--json"]),
        (
            "bayes --task",
            ["compare", "bayes", *UCI, "--a", "nbc", "--b", "aode", "--task", "0", "--folds", "10", "--json"],
        ),
        ("auto", ["compare", "auto", *UCI, "--json"]),
        ("batch", ["consistency", "batch", str(claims), "--json"]),
        ("best-of", ["sota", "best-of", "--accuracies", str(accuracies), *best_of, "--json"]),
    ]


#: Runs the command given in its arguments and prints its wall time, CPU time, peak KB and exit code, in a
#: small ``python -S`` of its own.
_RUNNER = """
import os, subprocess, sys, time
start = time.perf_counter()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(process.pid, 0)
cpu, code = usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)
print(time.perf_counter() - start, cpu, usage.ru_maxrss, code, file=sys.stderr)
"""


#: The environment of the timed processes: this one's, except that they may write their bytecode (the
#: warm-up run does, as installing a package does; without it every run would compile benchtrust again).
_ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def run_once(command: list) -> tuple:
    """(wall s, CPU s (user + system), peak MB, exit code, last line of the command's stderr) of one
    process."""
    done = subprocess.run(
        [sys.executable, "-S", "-c", _RUNNER, *command], capture_output=True, text=True, env=_ENVIRONMENT
    )
    *lines, last = done.stderr.strip().splitlines()
    wall, cpu, peak, code = last.split()
    unit = 1024 * 1024 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KB on Linux
    return float(wall), float(cpu), int(peak) / unit, int(code), (lines or [""])[-1]


def timed(command: list, repeats: int) -> tuple:
    """The medians of wall time, CPU time and peak MB over `repeats` runs after a warm-up; '' or the
    error of a failed run."""
    runs = [run_once(command) for _ in range(repeats + 1)][1:]
    failed = next((f"exit {code}: {line[:70]}" for *_, code, line in runs if code), "")
    return (*(statistics.median(run[k] for run in runs) for k in range(3)), failed)


def top_imports(command: list, count: int) -> list:
    """The `count` modules with the largest cumulative import time (µs) of one run of `command`."""
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], capture_output=True, text=True)
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            _, cumulative, name = line.removeprefix("import time:").split("|")
            rows.append((int(cumulative), name.strip()))
    return sorted(rows, reverse=True)[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs timed per command (median)")
    parser.add_argument("--imports", type=int, default=10, help="modules listed per command")
    parser.add_argument("--only", default="", help="comma-separated names of the commands to run")
    options = parser.parse_args()
    python = [sys.executable]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    floor = timed([*python, "-c", "import numpy"], options.repeats)
    rows = [
        ("command", "wall s", "CPU s", "peak MB", "wall - floor", "peer (own work only)", "peer s", "ratio")
    ]
    rows.append(
        (
            "floor: python -c 'import numpy'",
            *(f"{v:.3f}" for v in floor[:2]),
            f"{floor[2]:.0f}",
            "",
            "",
            "",
            "",
        )
    )
    imports = []
    with tempfile.TemporaryDirectory() as folder:
        for name, arguments in commands(Path(folder)):
            if options.only and name not in options.only.split(","):
                continue
            command = [*python, "-m", "benchtrust", *arguments]
            wall, cpu, peak, failed = timed(command, options.repeats)
            seconds, peer = PEERS.get(name, (None, ""))
            ratio = ratio_text(None if seconds is None else seconds / wall)
            row = (f"{wall:.3f}", f"{cpu:.3f}", f"{peak:.0f}", f"{wall - floor[0]:+.3f}")
            rows.append((name, *row, peer, "" if seconds is None else f"{seconds:g}", failed or ratio))
            imports.append((name, top_imports(command, options.imports)))
    print_table(rows)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    for name, modules in imports:
        print(f"{name}: the {len(modules)} largest cumulative imports (python -X importtime)")
        print_table([("ms", "module")] + [(f"{us / 1000:.1f}", module) for us, module in modules])


if __name__ == "__main__":
    main()
