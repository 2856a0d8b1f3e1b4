"""Time rliable's other plots and options against benchtrust, and check that their numbers agree:
sample-efficiency curves, the average-score performance profile and the task bootstrap.

Data: the human-normalised Atari 100k runs (7 agents, 26 games; SimPLe 5 runs, the others 100) and the
simulated learning curves of ``benchtrust.compare.simulated_learning_curves(seed=0)`` (3 methods, 8 tasks,
5 runs, 6 steps), given to rliable as runs × tasks (× steps) arrays of the same floats.

Timed (benchtrust: the median of several calls after a warm-up; rliable, in ``benchmarks/.venv-rliable``:
one call each, only the call):

* sample-efficiency curves, IQM with 10,000-resample intervals at each of the 6 steps, run bootstrap and
  task bootstrap: ``get_interval_estimates(curves, lambda x: [aggregate_iqm(x[..., s]) for s in steps],
  reps=10000, task_bootstrap=...)`` against ``sample_efficiency(table, resamples=10000, ...)``;
* the four aggregates with the task bootstrap, 10,000 resamples, on Atari;
* the average-score profile (``use_score_distribution=False``) and the run-score profile with the task
  bootstrap, 5 thresholds, 2,000 resamples;
* the probability of improvement with the task bootstrap, 2 pairs, 500 resamples (rliable:
  ``StratifiedBootstrap(x, y, task_bootstrap=True).conf_int(probability_of_improvement)``, since
  ``get_interval_estimates`` ignores ``task_bootstrap`` for pairs).

Agreement (printed): the point estimates to 1e-9; the interval ends within 5 Monte Carlo standard errors
of the difference of two bootstraps, 5 × k × 2.67 σ sqrt(2 / B), σ = width / 3.92, k = 1 for the run
bootstrap and 2.5 for the task bootstrap (its resampled values are skewed and lumpy: the standard deviation
of an end over 8 seeds was up to 2.4 times the normal theory, ``RLIABLE_FACTS.md``), plus one lattice step
of a fraction for the profiles.

Run: .venv/bin/python benchmarks/_compare_efficiency.py (its ``main()`` is part of make bench). Takes a few
minutes (rliable's probability of improvement is slow).
"""

from __future__ import annotations

import dataclasses
import os

import numpy as np

from _peers import atari_scores, median_seconds, peer_python, ratio_text, run_peer, speed_up
from _tables import print_table
from benchtrust.compare import (
    aggregate,
    improvement_probabilities,
    performance_profile,
    sample_efficiency,
    simulated_learning_curves,
)

SEED = 2021
REPEATS = 3
RESAMPLES = 10_000
PROFILE_RESAMPLES = 2000
TAUS = [0.0, 0.5, 1.0, 2.0, 4.0]
PAIRS = [("SPR", "DER"), ("SPR", "DrQ(eps)")]
#: rliable takes about 3 minutes per pair at 2,000 resamples of P(X > Y) with 100 × 100 runs per game.
IMPROVEMENT_RESAMPLES = 500
ESTIMATES = ("mean", "median", "iqm", "optimality_gap")
TARGET_SPEED_UP = 10

_PEER = r"""
import json, sys, time, warnings
import numpy as np
from rliable import library as rly, metrics

warnings.simplefilter("ignore", FutureWarning)  # arch: random_state is deprecated
jobs = json.load(sys.stdin)
atari = {m: np.array(v) for m, v in jobs["atari"].items()}
curves = {m: np.array(v) for m, v in jobs["curves"].items()}
out = {}

def timed(name, call):
    np.random.seed(jobs["seed"])  # StratifiedBootstrap draws from numpy's global state
    start = time.perf_counter()
    point, ci = call()
    out[name] = {"seconds": time.perf_counter() - start,
                 "point": {k: np.asarray(v).ravel().tolist() for k, v in point.items()},
                 "low": {k: np.asarray(v)[0].ravel().tolist() for k, v in ci.items()},
                 "high": {k: np.asarray(v)[1].ravel().tolist() for k, v in ci.items()}}

steps = lambda x: np.array([metrics.aggregate_iqm(x[..., s]) for s in range(x.shape[-1])])
four = lambda x: np.array([metrics.aggregate_mean(x), metrics.aggregate_median(x), metrics.aggregate_iqm(x),
                           metrics.aggregate_optimality_gap(x)])
reps, profile_reps, taus = jobs["reps"], jobs["profile_reps"], np.array(jobs["taus"])
for tb in (False, True):
    timed(f"curves {tb}", lambda: rly.get_interval_estimates(curves, steps, reps=reps, task_bootstrap=tb))
timed("aggregate", lambda: rly.get_interval_estimates(atari, four, reps=reps, task_bootstrap=True))
timed("profile tasks", lambda: rly.create_performance_profile(atari, taus, use_score_distribution=False,
                                                              reps=profile_reps))
timed("profile runs task bootstrap",
      lambda: rly.create_performance_profile(atari, taus, reps=profile_reps, task_bootstrap=True))
# get_interval_estimates ignores task_bootstrap for pairs (a list of two arrays; RLIABLE_FACTS.md): the
# documented StratifiedBootstrap(x, y, task_bootstrap=True) draws the same tasks for both
def improvement():
    point, ci = {}, {}
    for x, y in jobs["pairs"]:
        key = f"{x},{y}"
        point[key] = np.array([metrics.probability_of_improvement(atari[x], atari[y])])
        bootstrap = rly.StratifiedBootstrap(atari[x], atari[y], task_bootstrap=True)
        ci[key] = bootstrap.conf_int(metrics.probability_of_improvement, reps=jobs["improvement_reps"],
                                     method="percentile", size=0.95)
    return point, ci
timed("improvement", improvement)
print("PEER-JSON " + json.dumps(out))
"""


def curve_arrays(table):
    """Each method's runs × tasks × steps array, as rliable takes learning curves."""
    out = {}
    for method, rows in table.groupby("method", sort=True):
        cube = rows.sort_values(["run", "task", "step"])["score"].to_numpy()
        shape = (rows.run.nunique(), rows.task.nunique(), rows.step.nunique())
        out[method] = cube.reshape(shape).tolist()
    return out


def matrices(scores):
    """Each method's runs × tasks matrix (SimPLe: its 5 runs)."""
    return {
        method: scores.scores[i][:, : scores.runs_per_task[i].max()].T.tolist()
        for i, method in enumerate(scores.methods)
    }


def worst(points, ends, theirs, resamples, inflation, step=0.0):
    """(largest point difference, largest end difference / its tolerance) over every method and column."""
    point, ratio = 0.0, 0.0
    for key, values in theirs["point"].items():
        ours_point, ours_low, ours_high = points[key], *ends[key]
        low, high = np.array(theirs["low"][key]), np.array(theirs["high"][key])
        allowed = 5 * inflation * 2.67 * (high - low) / 3.92 * np.sqrt(1 / resamples + 1 / resamples) + step
        point = max(point, float(np.abs(np.asarray(ours_point) - values).max()))
        gap = np.maximum(np.abs(ours_low - low), np.abs(ours_high - high))
        ratio = max(ratio, float(np.max(np.where(allowed > 0, gap / np.where(allowed > 0, allowed, 1), 0))))
    return point, ratio


def main():
    atari = atari_scores()
    table = simulated_learning_curves(seed=0)
    print(
        "Sample efficiency, both performance profiles and the task bootstrap, against rliable (Atari 100k; "
        "simulated learning curves)\n"
    )
    python = peer_python("rliable", "rliable")
    jobs = {
        "atari": matrices(atari),
        "curves": curve_arrays(table),
        "reps": RESAMPLES,
        "profile_reps": PROFILE_RESAMPLES,
        "taus": TAUS,
        "pairs": PAIRS,
        "improvement_reps": IMPROVEMENT_RESAMPLES,
        "seed": SEED,
    }
    theirs = run_peer(python, _PEER, jobs, timeout=3600)
    cases = {
        "curves False": lambda: sample_efficiency(table, direction="higher", resamples=RESAMPLES, seed=SEED),
        "curves True": lambda: sample_efficiency(
            table, direction="higher", resamples=RESAMPLES, seed=SEED, task_bootstrap=True
        ),
        "aggregate": lambda: aggregate(atari, resamples=RESAMPLES, seed=SEED, task_bootstrap=True),
        "profile tasks": lambda: performance_profile(
            atari, thresholds=TAUS, kind="tasks", resamples=PROFILE_RESAMPLES, seed=SEED
        ),
        "profile runs task bootstrap": lambda: performance_profile(
            atari, thresholds=TAUS, resamples=PROFILE_RESAMPLES, seed=SEED, task_bootstrap=True
        ),
        "improvement": lambda: improvement_probabilities(
            _pairs_only(atari), resamples=IMPROVEMENT_RESAMPLES, seed=SEED, task_bootstrap=True
        ),
    }
    labels = {
        "curves False": f"sample efficiency, IQM at 6 steps, {RESAMPLES:,} resamples",
        "curves True": "the same, task bootstrap",
        "aggregate": f"4 aggregates, task bootstrap, {RESAMPLES:,} resamples (Atari)",
        "profile tasks": f"average-score profile, 5 thresholds, {PROFILE_RESAMPLES:,} resamples",
        "profile runs task bootstrap": f"score profile, task bootstrap, {PROFILE_RESAMPLES:,} resamples",
        "improvement": f"P(X > Y), 2 pairs, task bootstrap, {IMPROVEMENT_RESAMPLES:,} resamples",
    }
    results, rows, ratios = {}, [("case", "benchtrust s", "rliable s", "rliable / benchtrust")], []
    for name, call in cases.items():
        results[name], seconds = median_seconds(call, REPEATS)
        other = theirs.get(name, {}).get("seconds")
        ratios.append(speed_up(seconds, other))
        rows.append((labels[name], f"{seconds:.3f}", "n/a" if other is None else f"{other:.1f}",
                     ratio_text(ratios[-1])))  # fmt: skip
    print_table(rows)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load average {load:.1f} on {os.cpu_count()} cores)")
    if "error" in theirs:
        print(f"rliable: {theirs['error']}; the speed-up target and the agreement are not judged.")
        return
    least = min(ratios)
    met = "met" if least >= TARGET_SPEED_UP else "NOT met"
    print(f"Target: every case at least {TARGET_SPEED_UP}x faster than rliable: least {least:.0f}x ({met}).")
    print_table([("case", "largest point difference", "largest end difference / tolerance"),
                 *_agreement(results, theirs, atari)])  # fmt: skip


def _pairs_only(atari):
    """The Atari table of the agents in :data:`PAIRS` (benchtrust computes every pair among them)."""
    names = sorted({name for pair in PAIRS for name in pair}, key=atari.methods.index)
    keep = [atari.methods.index(name) for name in names]
    arrays = {key: getattr(atari, key)[keep] for key in ("scores", "raw_scores", "run_labels")}
    return dataclasses.replace(atari, methods=tuple(names), **arrays)


def _agreement(results, theirs, atari):
    rows = []
    for tb in (False, True):
        result = results[f"curves {tb}"]
        points = dict(zip(result.methods, result.value, strict=True))
        ends = {m: (result.low[i], result.high[i]) for i, m in enumerate(result.methods)}
        point, ratio = worst(points, ends, theirs[f"curves {tb}"], RESAMPLES, 2.5 if tb else 1.0)
        rows.append((f"sample efficiency{', task bootstrap' if tb else ''}", f"{point:.1e}", f"{ratio:.2f}"))
    result = results["aggregate"]
    points = {m: [getattr(result, k)[i] for k in ESTIMATES] for i, m in enumerate(result.methods)}
    ends = {
        m: (np.array([getattr(result, f"{k}_ci").low[i] for k in ESTIMATES]),
            np.array([getattr(result, f"{k}_ci").high[i] for k in ESTIMATES]))
        for i, m in enumerate(result.methods)
    }  # fmt: skip
    point, ratio = worst(points, ends, theirs["aggregate"], RESAMPLES, 2.5)
    rows.append(("4 aggregates, task bootstrap", f"{point:.1e}", f"{ratio:.2f}"))
    for name, inflation, step in (
        ("profile tasks", 1.0, 1 / 26),
        ("profile runs task bootstrap", 2.5, 1 / 130),
    ):
        result = results[name]
        points = dict(zip(result.methods, result.fraction, strict=True))
        ends = {m: (result.low[i], result.high[i]) for i, m in enumerate(result.methods)}
        point, ratio = worst(points, ends, theirs[name], PROFILE_RESAMPLES, inflation, step)
        rows.append((name, f"{point:.1e}", f"{ratio:.2f}"))
    result = results["improvement"]
    points, ends = {}, {}
    for pair in PAIRS:
        i, j = (result.methods.index(name) for name in pair)
        points[",".join(pair)] = [result.probability[i, j]]
        ends[",".join(pair)] = (np.array([result.low[i, j]]), np.array([result.high[i, j]]))
    point, ratio = worst(points, ends, theirs["improvement"], IMPROVEMENT_RESAMPLES, 2.5)
    rows.append(("P(X > Y), task bootstrap", f"{point:.1e}", f"{ratio:.2f}"))
    return rows


if __name__ == "__main__":
    main()
