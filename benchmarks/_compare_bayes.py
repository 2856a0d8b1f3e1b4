"""Time the Bayesian comparisons of benchtrust.compare against baycomp, on the bundled UCI data.

Data: the accuracies (percent) of 5 classifiers on 54 UCI data sets, 10 runs of 10-fold cross-validation
(Benavoli et al. 2017); ROPE ±1 percentage point (the paper's 0.01).

* Bayesian signed-rank test, one pair over the 54 per-data-set mean accuracies:
  ``signed_rank_test(uci, a, b, rope=1, samples=50_000, seed=1)`` against baycomp's
  ``two_on_multiple(x=a_means, y=b_means, rope=1, nsamples=50_000, random_state=1)``. Equal accuracy:
  both estimate each probability by the same estimator (the fraction of posterior samples in which that
  outcome's θ is the largest) from the same number of samples, so both have the Monte Carlo standard error
  sqrt(p(1 - p)/50,000) (shown); the two answers must agree within 4 standard errors of their difference.
  Target: benchtrust at least 10x faster.
* Bayesian correlated t-test on each of the 54 data sets (nbc against aode): one call of
  ``correlated_t_test(uci, "nbc", "aode", rope=1, folds=10)`` against 54 calls of baycomp's
  ``two_on_single(x, y, rope=1, runs=10)``; both exact, they must agree to 1e-10.

baycomp runs in its own environment (``benchmarks/.venv-baycomp``, created from
``benchmarks/requirements-baycomp.txt``; see ``benchmarks/BAYCOMP_FACTS.md``) and times its own calls;
the per-data-set means and fold accuracies it gets are read from the same file. Each timing is the median
of several repetitions (after one warm-up call for benchtrust).

Run: .venv/bin/python benchmarks/_compare_bayes.py (its ``main()`` is part of make bench). Takes about
half a minute, most of it baycomp's.
"""

from __future__ import annotations

import os

import numpy as np

from _peers import (  # benchmarks/, the script's own folder
    median_seconds,
    peer_python,
    ratio_text,
    run_peer,
    speed_up,
    uci_scores,
)
from _tables import print_table
from benchtrust.compare import correlated_t_test, signed_rank_test

PAIRS = (("nbc", "aode"), ("nbc", "j48"), ("aode", "hnb"), ("hnb", "j48gr"))
ROPE = 1.0
SAMPLES = 50_000
SEED = 1
FOLDS = 10
REPEATS_OURS = 9
REPEATS_PEER = 3
TARGET_SPEED_UP = 10
#: The largest difference from baycomp allowed, in standard errors of the difference.
AGREEMENT = 4

_PEER = r"""
import json, statistics, sys, time
import numpy as np
import baycomp

jobs = json.load(sys.stdin)
out = {"signed_rank": [], "t": None}
for job in jobs["signed_rank"]:
    x, y = np.array(job["x"]), np.array(job["y"])
    seconds = []
    for _ in range(jobs["repeats"]):
        start = time.perf_counter()
        p = baycomp.two_on_multiple(
            x, y, rope=jobs["rope"], nsamples=jobs["samples"], random_state=jobs["seed"]
        )
        seconds.append(time.perf_counter() - start)
    out["signed_rank"].append({"p": [float(v) for v in p], "seconds": statistics.median(seconds)})
pairs = [(np.array(x), np.array(y)) for x, y in jobs["t"]]
seconds = []
for _ in range(jobs["repeats"]):
    start = time.perf_counter()
    p = [baycomp.two_on_single(x, y, rope=jobs["rope"], runs=jobs["runs"]) for x, y in pairs]
    seconds.append(time.perf_counter() - start)
out["t"] = {"p": [[float(v) for v in row] for row in p], "seconds": statistics.median(seconds)}
print("PEER-JSON " + json.dumps(out))
"""


def _jobs(uci):
    means = np.nanmean(uci.scores, axis=2)
    index = uci.methods.index
    nbc, aode = uci.scores[index("nbc")], uci.scores[index("aode")]
    return {
        "rope": ROPE,
        "samples": SAMPLES,
        "seed": SEED,
        "runs": uci.scores.shape[2] // FOLDS,
        "repeats": REPEATS_PEER,
        "signed_rank": [{"x": means[index(a)].tolist(), "y": means[index(b)].tolist()} for a, b in PAIRS],
        "t": [(nbc[j].tolist(), aode[j].tolist()) for j in range(len(uci.tasks))],
    }


def _probabilities_text(p, errors=None):
    if errors is None:
        return " / ".join(f"{v:.5f}" for v in p)
    return " / ".join(f"{v:.5f}±{e:.5f}" for v, e in zip(p, errors, strict=True))


def signed_rank_table(uci, peer):
    """Print the signed-rank timings and agreement; the smallest speed-up and whether all agree."""
    rows = [
        (
            "pair (a / b)",
            "benchtrust P(a) / P(rope) / P(b) ± SE",
            "baycomp p_left / p_rope / p_right ± SE",
            "max |diff| / SE",
            "benchtrust ms",
            "baycomp ms",
            "speed-up",
        )
    ]
    ratios, agree = [], True
    for k, (a, b) in enumerate(PAIRS):
        ours, seconds = median_seconds(
            lambda a=a, b=b: signed_rank_test(uci, a, b, rope=ROPE, samples=SAMPLES, seed=SEED), REPEATS_OURS
        )
        theirs = None if "error" in peer else peer["signed_rank"][k]
        if theirs is None:
            their_text, distance, their_ms, ratio = peer["error"], "n/a", "n/a", None
        else:
            p = np.array(theirs["p"])
            errors = np.sqrt(p * (1 - p) / SAMPLES)
            spread = np.sqrt(errors**2 + ours.standard_errors**2)
            gap = np.abs(ours.probabilities - p)
            ratio_of_errors = np.where(spread > 0, gap / np.where(spread > 0, spread, 1), 0.0)
            agree &= bool(np.all(gap <= AGREEMENT * spread + 1e-12))
            their_text = _probabilities_text(p, errors)
            distance = f"{ratio_of_errors.max():.2f}"
            their_ms = f"{1000 * theirs['seconds']:.1f}"
            ratio = speed_up(seconds, theirs["seconds"])
            ratios.append(ratio)
        rows.append(
            (
                f"{a} / {b}",
                _probabilities_text(ours.probabilities, ours.standard_errors),
                their_text,
                distance,
                f"{1000 * seconds:.1f}",
                their_ms,
                ratio_text(ratio),
            )
        )
    print(
        f"Bayesian signed-rank test, one pair over {len(uci.tasks)} data sets, ROPE ±{ROPE:g}, "
        f"{SAMPLES:,} posterior samples each (same estimator, same standard error)"
    )
    print_table(rows)
    return (min(ratios) if ratios else None), agree


def t_test_table(uci, peer):
    """Print the correlated t-test timings and agreement; the largest difference from baycomp."""
    ours, seconds = median_seconds(
        lambda: correlated_t_test(uci, "nbc", "aode", rope=ROPE, folds=FOLDS), REPEATS_OURS
    )
    largest = None
    if "error" not in peer:
        theirs = np.array(peer["t"]["p"])
        largest = float(
            np.abs(np.column_stack([ours.p_a_better, ours.p_rope, ours.p_b_better]) - theirs).max()
        )
    rows = [
        ("method", "calls", "median ms", "max |difference| of P", "speed-up"),
        ("benchtrust correlated_t_test (exact)", "1", f"{1000 * seconds:.2f}", "", ""),
        (
            "baycomp two_on_single (exact)",
            str(len(uci.tasks)),
            "n/a" if largest is None else f"{1000 * peer['t']['seconds']:.2f}",
            "n/a" if largest is None else f"{largest:.2e}",
            "n/a" if largest is None else ratio_text(speed_up(seconds, peer["t"]["seconds"])),
        ),
    ]
    print(
        f"Bayesian correlated t-test, nbc against aode on each of the {len(uci.tasks)} data sets, "
        f"ROPE ±{ROPE:g}"
    )
    print_table(rows)
    return largest


def main():
    uci = uci_scores()
    python = peer_python("baycomp", "baycomp")
    peer = run_peer(python, _PEER, _jobs(uci))
    ratio, agree = signed_rank_table(uci, peer)
    largest = t_test_table(uci, peer)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load average {load:.1f} on {os.cpu_count()} cores)")
    if ratio is None:
        print("Target: baycomp unavailable; the speed-up and agreement cannot be judged.")
        return
    print(
        f"Target: signed-rank at least {TARGET_SPEED_UP}x faster than baycomp at equal samples: "
        f"{ratio_text(ratio)} ({'met' if ratio >= TARGET_SPEED_UP else 'not met'})."
    )
    print(
        f"Target: signed-rank probabilities within {AGREEMENT} Monte Carlo standard errors of baycomp's: "
        f"{'met' if agree else 'not met'}."
    )
    print(
        f"Target: correlated t-test equal to baycomp to 1e-10: {largest:.1e} "
        f"({'met' if largest <= 1e-10 else 'not met'})."
    )


if __name__ == "__main__":
    main()
