"""Time autorank's automatic path (benchtrust.compare.automatic_test, ``benchtrust compare auto``) against
autorank itself on the bundled UCI data, and check that their decisions and numbers agree.

Data: the accuracies (percent) of 5 classifiers on 54 UCI data sets (Benavoli et al. 2017); each
classifier's score on a data set is the mean of its 100 fold accuracies. autorank gets these 54 × 5 means
(the same floats, through JSON) as a DataFrame, one column per classifier.

Timed (the medians of several repetitions after a warm-up; the peer times its own calls in its own
environment, ``benchmarks/.venv-autorank``, see ``benchmarks/AUTORANK_FACTS.md``):

* in one process, the whole path with its table and diagram: benchtrust ``automatic_test(uci)`` +
  ``to_latex()`` + ``critical_difference_svg(result.ranks)``, against autorank ``autorank(means)`` +
  ``latex_table`` + ``create_report`` (both print to a buffer) + ``plot_stats`` saved to an in-memory SVG;
* through the command line, process start included: ``benchtrust compare auto UCI.csv --latex FILE``
  against ``python -c`` that imports autorank, reads the 54 × 5 means from a CSV and runs the same calls;
  beside them the floor of any such command, ``python -c "import numpy"``.

Target (issue 32): the automatic path for 5 methods × 54 data sets under 0.3 s through the CLI.

Run: .venv/bin/python benchmarks/_compare_automatic.py (its ``main()`` is part of make bench).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _peers import median_seconds, peer_python, ratio_text, run_peer, speed_up, uci_scores
from _tables import print_table
from benchtrust.compare import automatic_test, critical_difference_svg
from benchtrust.compare._tasks._ranks import _task_means

REPEATS = 15
PROCESS_REPEATS = 3
TARGET_SECONDS = 0.3
HERE = Path(__file__).resolve().parent
UCI_CSV = HERE.parent / "src/benchtrust/data/uci_10x10cv_accuracies.csv"
UCI_OPTIONS = [
    *("--direction", "higher", "--method-col", "classifier", "--task-col", "dataset_index"),
    *("--run-col", "score_index", "--score-col", "accuracy_percent"),
]

PEER_SNIPPET = r"""
import io, json, sys, time, contextlib, statistics
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from autorank import autorank, create_report, latex_table, plot_stats

job = json.load(sys.stdin)
means = pd.DataFrame(job["rows"], columns=job["methods"])

def whole():
    with contextlib.redirect_stdout(io.StringIO()):
        result = autorank(means, alpha=0.05)
        create_report(result)
        latex_table(result)
    plot_stats(result)
    plt.savefig(io.BytesIO(), format="svg")
    plt.close("all")
    return result

result = whole()
times = []
for _ in range(job["repeats"]):
    start = time.perf_counter()
    whole()
    times.append(time.perf_counter() - start)
print("PEER-JSON " + json.dumps({
    "seconds": statistics.median(times), "omnibus": result.omnibus, "posthoc": result.posthoc,
    "pvalue": result.pvalue, "cd": result.cd, "effect_size": result.effect_size,
    "effects": dict(zip(result.rankdf.index, result.rankdf["effect_size"].astype(float))),
}))
"""

PEER_PROCESS = r"""
import io, sys, contextlib
import pandas as pd
import matplotlib
matplotlib.use("Agg")
from autorank import autorank, create_report, latex_table
means = pd.read_csv(sys.argv[1])
with contextlib.redirect_stdout(io.StringIO()):
    result = autorank(means, alpha=0.05)
    create_report(result)
    latex_table(result)
"""


def _process_seconds(command):
    """The median wall time of running `command` (a list) PROCESS_REPEATS times, after one warm-up."""
    subprocess.run(command, check=True, capture_output=True)
    times = []
    for _ in range(PROCESS_REPEATS):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    uci = uci_scores()
    means = _task_means(uci)[0]

    def ours():
        result = automatic_test(uci)
        result.to_latex()
        critical_difference_svg(result.ranks)
        return result

    result, t_ours = median_seconds(ours, REPEATS)
    python = peer_python("autorank", "autorank")
    job = {"methods": list(uci.methods), "rows": means.T.tolist(), "repeats": REPEATS}
    theirs = run_peer(python, PEER_SNIPPET, job)
    t_theirs = theirs.get("seconds")

    benchtrust = str(Path(sys.executable).with_name("benchtrust"))
    with tempfile.TemporaryDirectory() as folder:
        latex = os.path.join(folder, "table.tex")
        ours_cli = [benchtrust, "compare", "auto", str(UCI_CSV), *UCI_OPTIONS, "--latex", latex, "--force"]
        t_cli = _process_seconds(ours_cli)
        t_floor = _process_seconds([sys.executable, "-c", "import numpy"])
        t_peer_cli = None
        if python is not None:
            table = os.path.join(folder, "means.csv")
            import pandas as pd

            pd.DataFrame(means.T, columns=list(uci.methods)).to_csv(table, index=False)
            t_peer_cli = _process_seconds([str(python), "-c", PEER_PROCESS, table])

    print("autorank's automatic path on the UCI data (5 classifiers x 54 data sets)\n")
    print_table(
        [
            ("what", "benchtrust", "autorank", "speed-up"),
            (
                "whole path + LaTeX + CD diagram, in one process",
                f"{1000 * t_ours:.1f} ms",
                "unavailable" if t_theirs is None else f"{1000 * t_theirs:.1f} ms",
                ratio_text(speed_up(t_ours, t_theirs)),
            ),
            (
                "through the command line, process start included",
                f"{1000 * t_cli:.0f} ms",
                "unavailable" if t_peer_cli is None else f"{1000 * t_peer_cli:.0f} ms",
                ratio_text(speed_up(t_cli, t_peer_cli)),
            ),
            ("the floor: python -c 'import numpy'", f"{1000 * t_floor:.0f} ms", "", ""),
        ]
    )
    if "error" not in theirs:
        agree = (
            (result.omnibus, result.posthoc, result.effect_size)
            == (theirs["omnibus"], theirs["posthoc"], theirs["effect_size"])
            and abs(result.p_value - theirs["pvalue"]) <= 1e-9 * theirs["pvalue"]
            and all(
                abs(result.effects[uci.methods.index(m)] - e) <= 1e-12 for m, e in theirs["effects"].items()
            )
        )
        print(
            "Same decisions, p-value (1e-9) and effect sizes (1e-12) as autorank: "
            f"{'yes' if agree else 'NO'}."
        )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    verdict = "met" if t_cli < TARGET_SECONDS else "not met"
    print(
        f"Target: the automatic path through the CLI under {TARGET_SECONDS} s: {t_cli:.2f} s ({verdict}; "
        f"the floor {t_floor:.2f} s; load average {load:.1f} on {os.cpu_count()} cores)."
    )


if __name__ == "__main__":
    main()
