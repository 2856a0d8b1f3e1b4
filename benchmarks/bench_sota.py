"""Time the exact best-of-m distribution (benchtrust.sota.best_of) and the sota command line, in one run.

Cases (issue: "exact distribution of the best of m classifiers"; the command-line rows: issue 15):

1. Table 2's dependent, non-identical row (m = 1000, n = 3000, θ equally spaced in [0.875, 0.90],
   ρ = 0.6, θ0 = 0.90): the exact computation against a vectorised Monte Carlo of the same model with
   100,000 simulations (benchtrust.sota.simulate_best_of: per simulation one binomial draw for the
   reference classifier and two per classifier). Target: exact at least 20x faster.
2. The same row through the command line, as a user runs it: ``benchtrust sota best-of --accuracies
   FILE --test-size 3000 --correlation 0.6 --reference-accuracy 0.9 --json`` in a subprocess (process
   start, imports and reading the file included), against the same Monte Carlo run. Target: at least
   20x faster.
3. Identical, independent classifiers with m = n = 10^6: the exact computation, which evaluates only the
   window of z where the cdf is neither 0 nor 1, against Eq. 2 evaluated over the whole support
   z = 0..n with scipy. Target: exact well under a second, finite.
4. The Cassava Leaf board (bundled; paper §5.1.2) through the command line: ``benchtrust sota leaderboard
   <bundled cassava file> --test-size 15000 --direction higher --classes 5`` in a subprocess, process start
   included, against the same analysis in this process (``leaderboard(path, test_size=15000,
   direction="higher", classes=5)``): the ratio is the command line's overhead. Target: under 5 s.
5. Start-up: ``benchtrust --help`` and ``python -c "import benchtrust.sota"``, each against a bare
   ``python -c pass``. Target: ``benchtrust --help`` under 0.3 s.

Each time is the smallest of a few runs, as wall time and as CPU time (user + system; of the child for a
subprocess: the machine is shared, and CPU time is what other load changes least). Subprocess rows run
the console script, the venv's ``benchtrust`` beside the running interpreter. The ratio columns are always
baseline s / benchtrust s, wall and CPU: above 1 benchtrust is faster; the start-up and command-line rows
compare with something that does less, so there it is the share of the time that is not overhead. The
Table 2 targets are judged on the CPU ratio.

Run: make bench (or .venv/bin/python benchmarks/bench_sota.py). Prints a table; asserts nothing. Takes
one to two minutes on two cores.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy import stats

from _tables import print_table  # benchmarks/, the script's own folder
from benchtrust.sota import best_of, bundled_leaderboard, leaderboard, simulate_best_of

#: The venv's console script, beside the interpreter running this script.
BENCHTRUST = shutil.which("benchtrust", path=str(Path(sys.executable).parent)) or "benchtrust"
TABLE_2 = dict(test_size=3000, correlation=0.6, reference_accuracy=0.90)
CASSAVA = dict(test_size=15_000, direction="higher", classes=5)


def _cpu():
    """CPU seconds (user + system) used so far by this process and by its finished children."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _best_time(function, repeat):
    """(smallest wall time, smallest CPU time) of ``repeat`` calls, and the last result."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), _cpu()
        result = function()
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
    return (min(walls), min(cpus)), result


def _run(command, repeat):
    """(smallest wall time, smallest CPU time) of ``repeat`` runs of a command, and the last run's
    CompletedProcess."""
    return _best_time(lambda: subprocess.run(command, capture_output=True, text=True, check=False), repeat)


def _failure(process):
    """'' if the command succeeded, else its exit code and last line of error output."""
    if process.returncode == 0:
        return ""
    lines = (process.stderr or process.stdout).strip().splitlines() or [""]
    return f"FAILED (exit {process.returncode}): {lines[-1][:80]}"


def _eq2_full_support(m, n, theta):
    """Textbook Eq. 2 over every z = 0..n: F(z) = 1 - (1 - P_z)^m, then E and SD of (n - Z)/n."""
    z = np.arange(n + 1)
    cdf = -np.expm1(m * stats.binom.logsf(z, n, 1.0 - theta))
    pmf = np.diff(cdf, prepend=0.0)
    accuracy = (n - z) / n
    mean = pmf @ accuracy
    return mean, np.sqrt(pmf @ (accuracy - mean) ** 2)


def _verdict(ok):
    return "met" if ok else "MISSED"


def table_2_rows(folder):
    """Table 2's dependent non-identical row: exact in-process, exact through the CLI, Monte Carlo."""
    theta = np.linspace(0.875, 0.90, 1000)
    exact_times, exact = _best_time(lambda: best_of(theta, **TABLE_2), repeat=3)
    mc_times, mc = _best_time(
        lambda: simulate_best_of(theta, simulations=100_000, seed=2024, **TABLE_2), repeat=1
    )
    accuracies = folder / "table2_accuracies.txt"
    np.savetxt(accuracies, theta, fmt="%.17g")
    command = [
        BENCHTRUST,
        "sota",
        "best-of",
        "--accuracies",
        str(accuracies),
        "--test-size",
        str(TABLE_2["test_size"]),
        "--correlation",
        str(TABLE_2["correlation"]),
        "--reference-accuracy",
        str(TABLE_2["reference_accuracy"]),
        "--json",
    ]
    cli_times, process = _run(command, repeat=3)
    baseline = "Monte Carlo, 100,000 simulations"
    rows = [
        (
            "Table 2, dependent non-identical (m=1000, n=3000)",
            "best_of (in process)",
            exact_times,
            baseline,
            mc_times,
            f">= 20x: {_verdict(mc_times[1] / exact_times[1] >= 20)}",
            f"E {exact.expected_max:.5f} vs {mc.expected_max:.5f}; SD {exact.sd_max:.6f} vs {mc.sd_max:.6f}",
        )
    ]
    failed = _failure(process)
    if failed:
        agreement = failed
    else:
        printed = json.loads(process.stdout)
        same = abs(printed["expected_max"] - exact.expected_max) < 1e-12
        agreement = f"E {printed['expected_max']:.5f} ({'same as' if same else 'DIFFERS from'} in process)"
    rows.append(
        (
            "Table 2, same row through the CLI",
            "benchtrust sota best-of ... --json",
            cli_times,
            baseline,
            mc_times,
            f">= 20x: {_verdict(not failed and mc_times[1] / cli_times[1] >= 20)}",
            agreement,
        )
    )
    return rows


def large_row():
    m = n = 10**6
    exact_time, exact = _best_time(lambda: best_of(0.9, classifiers=m, test_size=n), repeat=5)
    full_time, (full_mean, full_sd) = _best_time(lambda: _eq2_full_support(m, n, 0.9), repeat=1)
    return (
        "identical independent, m = n = 10^6",
        "best_of (in process)",
        exact_time,
        "Eq. 2 over all z = 0..n (scipy)",
        full_time,
        f"< 1 s: {_verdict(exact_time[0] < 1)}",
        f"E {exact.expected_max:.8f} vs {full_mean:.8f}; SD {exact.sd_max:.3e} vs {full_sd:.3e}",
    )


def cassava_row():
    path = bundled_leaderboard("cassava")
    command = [BENCHTRUST, "sota", "leaderboard", str(path), "--test-size", "15000", "--direction", "higher"]
    command += ["--classes", "5"]
    cli_time, process = _run(command, repeat=3)
    in_process_time, result = _best_time(lambda: leaderboard(path, **CASSAVA), repeat=2)
    failed = _failure(process)
    if failed:
        agreement = failed
    else:
        shown = f"{result.conservative.sota:.4f}"
        agreement = (
            f"{result.teams:,} teams, top {result.observed_max:.4f} ({result.top_reading}); "
            f"conservative {shown} {'printed' if shown in process.stdout else 'NOT printed'}"
        )
    return (
        f"Cassava board through the CLI ({result.teams:,} teams, n = 15000)",
        "benchtrust sota leaderboard FILE --test-size 15000 --direction higher --classes 5",
        cli_time,
        "leaderboard(FILE, ...) in process",
        in_process_time,
        f"< 5 s: {_verdict(not failed and cli_time[0] < 5)}",
        agreement,
    )


def startup_rows():
    bare_time, _ = _run([sys.executable, "-c", "pass"], repeat=5)
    help_time, process = _run([BENCHTRUST, "--help"], repeat=5)
    import_time, imported = _run([sys.executable, "-c", "import benchtrust.sota"], repeat=5)
    return [
        (
            "start-up: help",
            "benchtrust --help",
            help_time,
            "python -c pass",
            bare_time,
            f"< 0.3 s: {_verdict(not _failure(process) and help_time[0] < 0.3)}",
            _failure(process) or f"{len(process.stdout.splitlines())} lines printed",
        ),
        (
            "start-up: import",
            'python -c "import benchtrust.sota"',
            import_time,
            "python -c pass",
            bare_time,
            "-",
            _failure(imported) or "",
        ),
    ]


def main():
    with tempfile.TemporaryDirectory() as folder:
        rows = table_2_rows(Path(folder))
    rows.append(large_row())
    rows.append(cassava_row())
    rows.extend(startup_rows())

    header = (
        "case",
        "benchtrust",
        "benchtrust s",
        "CPU s",
        "baseline",
        "baseline s",
        "CPU s",
        "baseline / benchtrust",
        "CPU ratio",
        "target",
        "agreement",
    )
    table = [header] + [
        (
            case,
            what,
            f"{ours:.3f}",
            f"{ours_cpu:.3f}",
            baseline,
            f"{theirs:.3f}",
            f"{theirs_cpu:.3f}",
            f"{theirs / ours:.1f}x",
            f"{theirs_cpu / ours_cpu:.1f}x" if ours_cpu else "-",  # a call shorter than the clock's tick
            target,
            agreement,
        )
        for case, what, (ours, ours_cpu), baseline, (theirs, theirs_cpu), target, agreement in rows
    ]
    print_table(table)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Load average {load:.1f} at the end, on {os.cpu_count()} cores; console script {BENCHTRUST}.")


if __name__ == "__main__":
    main()
