"""Time the Bayesian hierarchical test of benchtrust.compare against baycomp's HierarchicalTest (pystan).

Data: the bundled UCI accuracies (percent), nbc against aode on 54 data sets × 100 folds (10 runs of
10-fold cross-validation), ROPE ±1 point. ``hierarchical_test(uci, "nbc", "aode", rope=1, folds=10,
samples=S, seed=1)`` (a Gibbs sampler of our own, numpy) against ``baycomp.HierarchicalTest.sample(x, y,
rope=1, runs=10, nsamples=S/4, random_state=1)`` (Stan's NUTS, 4 chains of S/4 draws each after their
warm-up: S draws both). baycomp's time includes neither compiling its Stan model (cached after the first
call) nor starting Python; benchtrust's is the median of 3 calls after a warm-up call.

The probabilities are the shares of posterior draws in which each outcome is the most probable for the next
data set; the two agree when their difference is within 4 standard errors (benchtrust's from its
independent chains; baycomp's taken as the binomial error of its draws, which are nearly independent
under NUTS).

Run: .venv/bin/python benchmarks/_compare_hierarchical.py (its ``main()`` is part of make bench). baycomp
takes minutes (Stan on 54 × 100 correlated normals), benchtrust about a second.
"""

from __future__ import annotations

import os

import numpy as np

from _peers import median_seconds, peer_python, ratio_text, run_peer, speed_up, uci_scores
from _tables import print_table
from benchtrust.compare import hierarchical_test

ROPE = 1.0
SAMPLES = 8_000
SEED = 1
FOLDS = 10
TARGET_SPEED_UP = 10

_PEER = r"""
import json, sys, time
import numpy as np
import baycomp

jobs = json.load(sys.stdin)
x, y = np.array(jobs["x"]), np.array(jobs["y"])
args = dict(runs=jobs["runs"], nsamples=jobs["samples"] // 4, random_state=jobs["seed"])
baycomp.HierarchicalTest.sample(x[:3, :20], y[:3, :20], jobs["rope"], runs=2, nsamples=10)  # compile
start = time.perf_counter()
s = baycomp.HierarchicalTest.sample(x, y, jobs["rope"], **args)
seconds = time.perf_counter() - start
p = np.bincount(s.argmax(axis=1), minlength=3) / len(s)
print("PEER-JSON " + json.dumps({"p": p.tolist(), "draws": len(s), "seconds": seconds}))
"""


def main():
    uci = uci_scores()
    index = uci.methods.index
    jobs = {
        "x": uci.scores[index("nbc")].tolist(),
        "y": uci.scores[index("aode")].tolist(),
        "rope": ROPE,
        "runs": uci.scores.shape[2] // FOLDS,
        "samples": SAMPLES,
        "seed": SEED,
    }
    python = peer_python("baycomp", "stan")
    peer = run_peer(python, _PEER, jobs, timeout=3600)
    ours, seconds = median_seconds(
        lambda: hierarchical_test(uci, "nbc", "aode", rope=ROPE, folds=FOLDS, samples=SAMPLES, seed=SEED), 3
    )
    text = " / ".join(
        f"{p:.4f}±{e:.4f}" for p, e in zip(ours.probabilities, ours.standard_errors, strict=True)
    )
    rows = [("method", "P(nbc) / P(rope) / P(aode)", "draws", "seconds", "speed-up")]
    rows.append(("benchtrust hierarchical_test (Gibbs)", text, f"{ours.samples:,}", f"{seconds:.2f}", ""))
    if "error" in peer:
        rows.append(("baycomp HierarchicalTest (Stan)", peer["error"], "", "", "n/a"))
        ratio = None
    else:
        p = np.array(peer["p"])
        errors = np.sqrt(p * (1 - p) / peer["draws"])
        ratio = speed_up(seconds, peer["seconds"])
        gap = np.abs(p - ours.probabilities) / np.sqrt(errors**2 + ours.standard_errors**2)
        theirs = " / ".join(f"{v:.4f}±{e:.4f}" for v, e in zip(p, errors, strict=True))
        rows.append(
            ("baycomp HierarchicalTest (Stan)", theirs, f"{peer['draws']:,}", f"{peer['seconds']:.1f}", "")
        )
        rows[1] = (*rows[1][:4], ratio_text(ratio))
        print(f"largest difference: {gap.max():.2f} standard errors")
    print(f"Bayesian hierarchical test, nbc against aode, 54 UCI data sets x 100 folds, ROPE ±{ROPE:g}")
    print_table(rows)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load average {load:.1f} on {os.cpu_count()} cores)")
    if ratio is not None:
        verdict = "met" if ratio >= TARGET_SPEED_UP else "not met"
        print(f"Target: at least {TARGET_SPEED_UP}x faster than baycomp at equal draws: {verdict}.")


if __name__ == "__main__":
    main()
