"""Time and peak memory of ``benchtrust consistency test-set`` and ``multiclass`` on pixel-level sizes.

Cases (issue 19 §3: "Segmentation benchmarks count pixels or voxels: 10^9 items is a real test set"):

1. ``test-set --positives 1e9 --negatives 1e9 --score acc=0.9 --score sens=0.8 --score spec=0.95``: the
   command the issue reports at 13.5 GB and no answer in 15 s. Target: < 1 s, < 200 MB, the exact count.
2. The same scores at p + n = 10^12 (5·10^11 each). Same target.
3. acc and f1 (a Dice score) at p + n = 2·10^9: ratios of linear forms, counted exactly too.
4. acc and mcc at p + n = 2·10^9: mcc needs a search; its estimate (2.3·10^10 score evaluations) is above
   the default ``--max-work`` (5·10^9), so the command stops at once with one line naming the option.
5. acc, sens and mcc at p + n = 2·10^9: a search of the ~10^7 rows sens leaves, chunk by chunk. Target:
   < 500 MB.
6. ``multiclass --average macro`` with 1,000 classes of 50 items (ImageNet's validation set), macro
   sensitivity and scikit-learn's accuracy_score: an integer program over 2,000 numbers.
7. ``multiclass --average micro`` with 10^12 items in 3 classes, f1 and acc: counted exactly.

How it is measured: each command runs as ``python -m benchtrust ... --json`` in its own process, waited for
with ``os.wait4``, whose resource usage is that one process's: wall time (``time.perf_counter`` around the
run, Python's start and imports included) and peak resident memory (``ru_maxrss``). The first line gives
the floor: the same process for a one-item-sized command.

Run: .venv/bin/python benchmarks/bench_memory.py. Prints a table; asserts nothing. Takes about half a
minute on two cores (POSIX only: it needs ``os.wait4``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

from _tables import print_table  # benchmarks/, the script's own folder

G, T = "1000000000", "500000000000"  # 10^9 and 5·10^11
IMAGENET = ",".join(["50"] * 1000)
CASES = [  # (label, arguments of benchtrust consistency)
    ("floor: p = n = 10", "test-set --positives 10 --negatives 10 --score acc=0.9"),
    ("acc, sens, spec; p = n = 10^9", f"test-set --positives {G} --negatives {G} {{acc_sens_spec}}"),
    ("acc, sens, spec; p = n = 5*10^11", f"test-set --positives {T} --negatives {T} {{acc_sens_spec}}"),
    ("acc, f1; p = n = 10^9", f"test-set --positives {G} --negatives {G} --score acc=0.9 --score f1=0.9"),
    ("acc, mcc; p = n = 10^9", f"test-set --positives {G} --negatives {G} --score acc=0.9 --score mcc=0.8"),
    (
        "acc, sens, mcc; p = n = 10^9",
        f"test-set --positives {G} --negatives {G} --score acc=0.9 --score sens=0.80 --score mcc=0.8",
    ),
    (
        "macro sens, accuracy_score; 1000 x 50",
        f"multiclass --class-counts {IMAGENET} --average macro --score sens=0.7612 "
        "--score accuracy_score=0.7612",
    ),
    (
        "micro f1, acc; 3 classes, 10^12 items",
        "multiclass --class-counts 200000000000,300000000000,500000000000 --average micro "
        "--score f1=0.8123 --score acc=0.8749",
    ),
]
ACC_SENS_SPEC = "--score acc=0.9 --score sens=0.8 --score spec=0.95"


def measure(args):
    """(exit code, seconds, peak MB, JSON or the error line) of ``benchtrust consistency ARGS --json``, in
    its own process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        command = [sys.executable, "-m", "benchtrust", "consistency", *args.split(), "--json"]
        process = subprocess.Popen(command, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, error = out.read().decode(), err.read().decode().strip()
    found = json.loads(text) if process.returncode == 0 else error
    return process.returncode, seconds, usage.ru_maxrss / 1024, found


def main() -> None:
    rows = [("case", "exit", "seconds", "peak MB", "solutions / answer")]
    for label, args in CASES:
        code, seconds, peak, found = measure(args.format(acc_sens_spec=ACC_SENS_SPEC))
        if code != 0:
            answer = found.splitlines()[0].replace("benchtrust: error: ", "")[:70] + "..."
        elif "n_solutions" in found and found["n_solutions"] is not None:
            answer = f"{found['n_solutions']:,} ({'consistent' if found['consistent'] else 'inconsistent'})"
        else:
            verified = "evidence verified" if found.get("evidence") else "no evidence"
            answer = f"{'consistent' if found['consistent'] else 'inconsistent'}, {verified}"
        rows.append((label, str(code), f"{seconds:.2f}", f"{peak:.0f}", answer))
    print_table(rows)


if __name__ == "__main__":
    main()
