"""Time the probability of improvement with stratified bootstrap intervals (benchtrust.compare.
improvement_probabilities and effect_sizes) against rliable, on the bundled Atari 100k runs, and check that
their numbers agree.

Data: the human-normalised Atari 100k scores of 7 agents on 26 games (100 runs each, SimPLe 5) of Agarwal et
al. (2021); rliable gets the same floats (through JSON) as one runs × games matrix per agent. The UCI
accuracies (5 classifiers × 54 data sets × 100 paired folds; Benavoli et al. 2017) check the point estimates
once more, and time benchtrust's exact interval for paired runs (rliable has no paired mode).

Timed (benchtrust: median of several repetitions after a warm-up call; rliable, in its own environment
``benchmarks/.venv-rliable``, see ``benchmarks/RLIABLE_FACTS.md``: one call per pair, the median
over the pairs, since one call takes about 18 s):

* the 95% interval of P(X > Y) from 2,000 stratified bootstrap resamples: rliable
  ``get_interval_estimates({pair: (x, y)}, metrics.probability_of_improvement, reps=2000,
  random_state=np.random.RandomState(2021))`` for SPR against DER, DrQ(eps) and SimPLe, one pair per call;
  benchtrust ``improvement_probabilities(atari, resamples=2000, seed=2021)``, all 21 pairs in one call
  (per pair: the time / 21). rliable is not a speed target here; the ratio is printed.
* ``effect_sizes(atari, "SPR", "DER", resamples=2000)``: A, δ and g on every game with their intervals,
  and over all games, against rliable's one interval of the same pair.
* benchtrust ``improvement_probabilities(uci, paired=True)``: 10 pairs, exact intervals.

Agreement (printed): the point estimates of all 21 Atari pairs and all 10 UCI pairs (rliable's
``probability_of_improvement``) to 1e-12; rliable's interval ends against benchtrust's from 20,000
resamples, within 5 Monte Carlo standard errors, 5 × 2.67 σ sqrt(1/2000 + 1/20000) (σ = width / 3.92):
the two bootstraps draw different resamples, and the 2.5% quantile of B resamples has a standard error of
about 2.67 σ / sqrt(B).

Run: .venv/bin/python benchmarks/_compare_improvement.py (its ``main()`` is part of make bench). Takes about
a minute (rliable's intervals).
"""

from __future__ import annotations

import os

import numpy as np

from _peers import (  # benchmarks/, the script's own folder
    atari_scores,
    median_seconds,
    peer_python,
    ratio_text,
    run_peer,
    speed_up,
    uci_scores,
)
from _tables import print_table
from benchtrust.compare import effect_sizes, improvement_probabilities

RESAMPLES = 2000
SEED = 2021
REPEATS = 5
INTERVAL_PAIRS = (("SPR", "DER"), ("SPR", "DrQ(eps)"), ("SPR", "SimPLe"))
#: The largest difference from rliable's point estimates allowed.
AGREEMENT = 1e-12

_PEER = r"""
import json, statistics, sys, time, warnings
import numpy as np
from rliable import library as rly, metrics

warnings.simplefilter("ignore", FutureWarning)  # arch: random_state is deprecated
jobs = json.load(sys.stdin)
out = {}
for name in ("atari", "uci"):
    data = {m: np.array(v) for m, v in jobs[name].items()}
    methods = list(data)
    out[name] = {
        f"{x}|{y}": float(metrics.probability_of_improvement(data[x], data[y]))
        for i, x in enumerate(methods) for y in methods[i + 1:]
    }
atari = {m: np.array(v) for m, v in jobs["atari"].items()}
out["intervals"], seconds = {}, []
for x, y in jobs["interval_pairs"]:
    np.random.seed(jobs["seed"])  # random_state alone does not fix the draws (RLIABLE_FACTS.md)
    start = time.perf_counter()
    _, ci = rly.get_interval_estimates(
        {"pair": (atari[x], atari[y])}, metrics.probability_of_improvement, reps=jobs["reps"],
        random_state=np.random.RandomState(jobs["seed"]),
    )
    seconds.append(time.perf_counter() - start)
    out["intervals"][f"{x}|{y}"] = [float(ci["pair"][0][0]), float(ci["pair"][1][0])]
out["seconds"] = statistics.median(seconds)
print("PEER-JSON " + json.dumps(out))
"""


def _matrices(scores):
    """Each method's runs × tasks matrix, as rliable takes them: its runs, without the NaN padding of the
    methods with fewer runs (SimPLe's 5; the bundled data has no other missing runs)."""
    return {
        m: scores.scores[i][:, : int(scores.runs_per_task[i].max())].T.tolist()
        for i, m in enumerate(scores.methods)
    }


def _point_differences(result, recorded):
    """The largest |benchtrust - rliable| over the pairs rliable computed (NaN if any is NaN)."""
    differences = [
        abs(result.probability[result.methods.index(x), result.methods.index(y)] - value)
        for key, value in recorded.items()
        for x, y in [key.split("|")]
    ]
    return float(np.max(differences))


def main():
    atari, uci = atari_scores(), uci_scores()
    print(
        f"Probability of improvement with {RESAMPLES:,}-resample stratified bootstrap intervals, Atari 100k "
        f"({len(atari.methods)} agents, {len(atari.tasks)} games)\n"
    )
    python = peer_python("rliable", "rliable")
    jobs = {
        "atari": _matrices(atari),
        "uci": _matrices(uci),
        "interval_pairs": [list(pair) for pair in INTERVAL_PAIRS],
        "reps": RESAMPLES,
        "seed": SEED,
    }
    theirs = run_peer(python, _PEER, jobs)
    ours, t_all = median_seconds(
        lambda: improvement_probabilities(atari, resamples=RESAMPLES, seed=SEED), REPEATS
    )
    _, t_effect = median_seconds(
        lambda: effect_sizes(atari, "SPR", "DER", resamples=RESAMPLES, seed=SEED), REPEATS
    )
    paired, t_paired = median_seconds(lambda: improvement_probabilities(uci, paired=True), 10)
    n_pairs = len(ours.to_frame()) // 2
    per_pair = t_all / n_pairs
    peer = theirs.get("seconds")
    rows = [("case", "benchtrust ms", "rliable ms", "rliable / benchtrust")]
    cases = [
        (f"interval of P(X > Y), one pair, {RESAMPLES:,} resamples", per_pair, peer),
        (
            f"all {n_pairs} pairs with intervals (rliable: {n_pairs} x one pair)",
            t_all,
            peer and n_pairs * peer,
        ),
        ("effect_sizes SPR vs DER (A, delta, g per game + overall)", t_effect, peer),
        (
            f"UCI paired, {len(paired.to_frame()) // 2} pairs, exact intervals (no rliable mode)",
            t_paired,
            None,
        ),
    ]
    for label, mine, other in cases:
        rows.append(
            (
                label,
                f"{1000 * mine:,.1f}",
                "n/a" if other is None else f"{1000 * other:,.0f}",
                ratio_text(speed_up(mine, other)),
            )
        )
    print_table(rows)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load average {load:.1f} on {os.cpu_count()} cores; rliable is not a speed target here)")

    if "error" in theirs:
        print(f"rliable: {theirs['error']}; agreement not checked.")
        return
    uci_all = improvement_probabilities(uci, resamples=50, seed=SEED)  # point estimates; 41 is the least
    worst = np.max([_point_differences(ours, theirs["atari"]), _point_differences(uci_all, theirs["uci"])])
    verdict = "met" if worst <= AGREEMENT else "NOT met"
    print(
        f"Point estimates, {len(theirs['atari'])} Atari and {len(theirs['uci'])} UCI pairs: largest "
        f"difference from rliable {worst:.1e} ({verdict}: <= {AGREEMENT:g})."
    )
    # benchtrust's interval from 10 times rliable's resamples: the differences are then mostly rliable's
    # Monte Carlo error.
    precise = improvement_probabilities(atari, resamples=10 * RESAMPLES, seed=SEED)
    rows = [
        (
            "pair",
            f"rliable, {RESAMPLES:,}",
            f"benchtrust, {RESAMPLES:,}",
            f"benchtrust, {10 * RESAMPLES:,}",
            "largest difference",
            "tolerance (5 MC s.e.)",
        )
    ]
    within = True
    for key, (low, high) in theirs["intervals"].items():
        x, y = key.split("|")
        i, j = ours.methods.index(x), ours.methods.index(y)
        difference = max(abs(precise.low[i, j] - low), abs(precise.high[i, j] - high))
        tolerance = 5 * 2.67 * (high - low) / 3.92 * np.sqrt(1 / RESAMPLES + 1 / (10 * RESAMPLES))
        within &= bool(difference <= tolerance)
        rows.append(
            (
                f"{x} > {y}",
                f"[{low:.4f}, {high:.4f}]",
                f"[{ours.low[i, j]:.4f}, {ours.high[i, j]:.4f}]",
                f"[{precise.low[i, j]:.4f}, {precise.high[i, j]:.4f}]",
                f"{difference:.4f}",
                f"{tolerance:.4f}",
            )
        )
    print_table(rows)
    print(f"Intervals within resampling error of rliable's: {'met' if within else 'NOT met'}.")


if __name__ == "__main__":
    main()
