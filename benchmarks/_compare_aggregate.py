"""Time the aggregate estimates with stratified bootstrap intervals and the performance profiles
(benchtrust.compare.aggregate and performance_profile) against rliable, on the bundled Atari 100k runs, and
check that their numbers agree.

Data: the human-normalised Atari 100k scores of 7 agents on 26 games (100 runs each, SimPLe 5) of Agarwal et
al. (2021); rliable gets the same floats (through JSON) as one runs × games matrix per agent.

Timed (benchtrust: the median of several calls after a warm-up call; rliable, in its own environment
``benchmarks/.venv-rliable``, see ``benchmarks/RLIABLE_FACTS.md``: one call each, since the first takes
about 25 s; only the call is timed, not the start of Python or the JSON):

* IQM with stratified bootstrap (Atari, 7 agents, 50,000 resamples), the target row: rliable
  ``get_interval_estimates(score_dict, lambda x: np.array([metrics.aggregate_iqm(x)]), reps=50000)``;
  benchtrust ``aggregate(atari, resamples=50000)``, which computes the mean, median and optimality gap with
  their intervals as well;
* the four estimates with intervals at 10,000 resamples (rliable's func returns mean, median, IQM and
  optimality gap);
* the performance profile with 2,000-resample bands (rliable's default ``reps``) at 81 thresholds
  τ = 0, 0.1, ..., 8: ``create_performance_profile(score_dict, tau_list)`` against
  ``performance_profile(atari, thresholds=tau_list, resamples=2000)``.

Agreement (printed): the point estimates and profile values to 1e-12; the interval ends within 5 Monte
Carlo standard errors of the difference of two independent bootstraps, 5 × 2.67 σ sqrt(2 / B) with
σ = width / 3.92 (the standard error of a 2.5% quantile of B normal draws is 2.67 σ / sqrt(B)), plus, for
the fractions of a profile, one lattice step 1/(games × runs) (runs: 100, SimPLe 5). The two bootstraps
draw different resamples: rliable draws from numpy's global random state (its ``random_state`` argument
does not reach arch's bootstrap), seeded here with ``np.random.seed``.

Run: .venv/bin/python benchmarks/_compare_aggregate.py (its ``main()`` is part of make bench). Takes about
a minute (rliable).
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
)
from _tables import print_table
from benchtrust.compare import aggregate, performance_profile

SEED = 2021
REPEATS = 3
#: (what, resamples) of the timed interval estimates; the first is the target row.
INTERVAL_CASES = (("iqm", 50_000), ("all", 10_000))
PROFILE_RESAMPLES = 2000
THRESHOLDS = np.linspace(0.0, 8.0, 81)
TARGET_SPEED_UP = 10
#: The largest difference from rliable's point estimates allowed.
AGREEMENT = 1e-12
ESTIMATES = ("mean", "median", "iqm", "optimality_gap")

_PEER = r"""
import json, sys, time, warnings
import numpy as np
from rliable import library as rly, metrics

warnings.simplefilter("ignore", FutureWarning)  # arch: random_state is deprecated
jobs = json.load(sys.stdin)
data = {m: np.array(v) for m, v in jobs["data"].items()}
functions = {
    "iqm": lambda x: np.array([metrics.aggregate_iqm(x)]),
    "all": lambda x: np.array([
        metrics.aggregate_mean(x), metrics.aggregate_median(x), metrics.aggregate_iqm(x),
        metrics.aggregate_optimality_gap(x),
    ]),
}
out = {"intervals": [], "profile": None}
for what, reps in jobs["intervals"]:
    np.random.seed(jobs["seed"])  # StratifiedBootstrap draws from numpy's global state
    start = time.perf_counter()
    point, ci = rly.get_interval_estimates(data, functions[what], reps=reps)
    seconds = time.perf_counter() - start
    out["intervals"].append({
        "what": what, "reps": reps, "seconds": seconds,
        "point": {m: p.tolist() for m, p in point.items()},
        "low": {m: c[0].tolist() for m, c in ci.items()},
        "high": {m: c[1].tolist() for m, c in ci.items()},
    })
np.random.seed(jobs["seed"])
start = time.perf_counter()
profile, bands = rly.create_performance_profile(data, np.array(jobs["taus"]), reps=jobs["profile_reps"])
out["profile"] = {
    "seconds": time.perf_counter() - start,
    "point": {m: p.tolist() for m, p in profile.items()},
    "low": {m: b[0].tolist() for m, b in bands.items()},
    "high": {m: b[1].tolist() for m, b in bands.items()},
}
print("PEER-JSON " + json.dumps(out))
"""


def matrices(scores):
    """Each method's runs × tasks matrix, as rliable takes them (SimPLe: its 5 runs)."""
    return {
        method: scores.scores[i][:, : scores.runs_per_task[i].max()].T.tolist()
        for i, method in enumerate(scores.methods)
    }


def tolerance(low, high, resamples, step=0.0):
    """5 Monte Carlo standard errors of the difference of two bootstraps' ends, plus a lattice step."""
    return 5 * 2.67 * (np.asarray(high) - np.asarray(low)) / 3.92 * np.sqrt(2 / resamples) + step


def interval_agreement(result, theirs, keys):
    """(largest point difference, largest end difference / its tolerance) against one rliable job."""
    point, ends = 0.0, 0.0
    for method, values in theirs["point"].items():
        i = result.methods.index(method)
        for k, key in enumerate(keys):
            ci = getattr(result, f"{key}_ci")
            low, high = theirs["low"][method][k], theirs["high"][method][k]
            point = max(point, abs(getattr(result, key)[i] - values[k]))
            allowed = tolerance(low, high, theirs["reps"])
            ends = max(ends, max(abs(ci.low[i] - low), abs(ci.high[i] - high)) / allowed)
    return point, ends


def profile_agreement(result, theirs, resamples, runs_per_task):
    """(largest fraction difference, largest band-end difference / its tolerance)."""
    point, ends = 0.0, 0.0
    for method, values in theirs["point"].items():
        i = result.methods.index(method)
        point = max(point, float(np.abs(result.fraction[i] - values).max()))
        low, high = np.array(theirs["low"][method]), np.array(theirs["high"][method])
        step = 1 / (runs_per_task[i].size * runs_per_task[i].min())  # one run more or less on a task
        allowed = tolerance(low, high, resamples, step)
        worst = np.maximum(np.abs(result.low[i] - low), np.abs(result.high[i] - high)) / allowed
        ends = max(ends, float(worst.max()))
    return point, ends


def main():
    atari = atari_scores()
    print(
        f"Aggregate estimates and performance profiles with stratified bootstrap intervals, Atari 100k "
        f"({len(atari.methods)} agents, {len(atari.tasks)} games)\n"
    )
    python = peer_python("rliable", "rliable")
    jobs = {
        "data": matrices(atari),
        "intervals": [list(case) for case in INTERVAL_CASES],
        "taus": THRESHOLDS.tolist(),
        "profile_reps": PROFILE_RESAMPLES,
        "seed": SEED,
    }
    theirs = run_peer(python, _PEER, jobs, timeout=3600)
    ours = {}
    rows = [("case", "benchtrust s", "rliable s", "rliable / benchtrust")]
    for (what, resamples), peer in zip(INTERVAL_CASES, theirs.get("intervals", [None] * 2), strict=True):
        ours[what], seconds = median_seconds(
            lambda r=resamples: aggregate(atari, resamples=r, seed=SEED), REPEATS
        )
        label = (
            f"IQM with stratified bootstrap (7 agents, {resamples:,} resamples)"
            if what == "iqm"
            else f"mean, median, IQM, optimality gap with intervals ({resamples:,} resamples)"
        )
        other = None if peer is None else peer["seconds"]
        rows.append((label, f"{seconds:.2f}", "n/a" if other is None else f"{other:.1f}", ""))
        rows[-1] = (*rows[-1][:3], ratio_text(speed_up(seconds, other)))
        if what == "iqm":
            target = speed_up(seconds, other)
    profile, seconds = median_seconds(
        lambda: performance_profile(atari, thresholds=THRESHOLDS, resamples=PROFILE_RESAMPLES, seed=SEED),
        REPEATS,
    )
    other = (theirs.get("profile") or {}).get("seconds")
    rows.append(
        (
            f"performance profile, {THRESHOLDS.size} thresholds, {PROFILE_RESAMPLES:,}-resample bands",
            f"{seconds:.3f}",
            "n/a" if other is None else f"{other:.1f}",
            ratio_text(speed_up(seconds, other)),
        )
    )
    print_table(rows)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load average {load:.1f} on {os.cpu_count()} cores; benchtrust computes all four estimates)")
    if "error" in theirs:
        print(f"rliable: {theirs['error']}; the speed-up target and the agreement are not judged.")
        return
    met = "met" if target >= TARGET_SPEED_UP else "NOT met"
    print(
        f"Target: IQM with stratified bootstrap at least {TARGET_SPEED_UP}x faster than rliable: "
        f"{target:.0f}x ({met})."
    )

    rows = [("case", "largest point difference", "largest end difference / tolerance")]
    agree = True
    for (what, _), peer in zip(INTERVAL_CASES, theirs["intervals"], strict=True):
        keys = ("iqm",) if what == "iqm" else ESTIMATES
        point, ends = interval_agreement(ours[what], peer, keys)
        agree &= point <= AGREEMENT and ends <= 1
        rows.append((f"{', '.join(keys)} ({peer['reps']:,} resamples)", f"{point:.1e}", f"{ends:.2f}"))
    point, ends = profile_agreement(profile, theirs["profile"], PROFILE_RESAMPLES, atari.runs_per_task)
    agree &= point <= AGREEMENT and ends <= 1
    rows.append((f"profile ({PROFILE_RESAMPLES:,} resamples)", f"{point:.1e}", f"{ends:.2f}"))
    print_table(rows)
    print(
        f"Agreement with rliable (points to {AGREEMENT:g}, interval ends within 5 Monte Carlo standard "
        f"errors): {'met' if agree else 'NOT met'}."
    )


if __name__ == "__main__":
    main()
