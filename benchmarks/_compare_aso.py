"""Time almost stochastic order (benchtrust.compare.almost_stochastic_order) against deepsig's ``aso()``.

Data: the bundled Atari 100k runs (human-normalised), SPR (100 runs) against DER (100 runs) on a few
games. Equal samples: both draw 1000 bootstrap resamples of both methods' runs per game, confidence 0.95,
one comparison, dt = 0.005.

* benchtrust: ``almost_stochastic_order(table, "SPR", "DER", comparisons=1, seed=0)`` on a table of one
  game (all resamples of a game at once), and on all 26 games in one call; the CLI, start-up included, on
  all 26 games.
* deepsig: ``aso(spr, der, seed=0, show_progress=False)`` on each game, timed in its own environment.

Agreement: the two ε_min are bootstrap estimates of the same bound (deepsig's rules are in
``benchmarks/DEEPSIG_FACTS.md``); ours is the mean over 8 seeds, and the two must agree within 4 √2 times
our seed-to-seed standard deviation. Target: benchtrust at least 10x faster per game. deepsig is slow
(several seconds per call), so it is timed once per game.

Run: .venv/bin/python benchmarks/_compare_aso.py (its ``main()`` is part of make bench). Takes about a
minute, most of it deepsig's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
import pandas as pd

from _peers import atari_scores, median_seconds, peer_python, ratio_text, run_peer, speed_up
from _tables import print_table
from benchtrust.compare import almost_stochastic_order, bundled_results, read_task_scores
from benchtrust.compare._tasks._aso import violation_bounds

GAMES = ("Alien", "Assault", "CrazyClimber")
PAIR = ("SPR", "DER")
SEEDS = 8
REPEATS_OURS = 5
TARGET_SPEED_UP = 10
#: The largest difference from deepsig allowed, in standard deviations of the difference.
AGREEMENT = 4

_PEER = r"""
import json, sys, time
from deepsig import aso

jobs = json.load(sys.stdin)
out = []
for x, y in jobs:
    start = time.perf_counter()
    value = aso(x, y, seed=0, show_progress=False)
    out.append({"eps_min": value, "seconds": time.perf_counter() - start})
print("PEER-JSON " + json.dumps(out))
"""


def _runs(scores, method, game):
    values = scores.scores[scores.methods.index(method), scores.tasks.index(game)]
    return values[~np.isnan(values)]


def _one_game(scores, game):
    """The table of SPR and DER on one game (a TaskScores of one task)."""
    rows = [(m, game, k, v) for m in PAIR for k, v in enumerate(_runs(scores, m, game))]
    frame = pd.DataFrame(rows, columns=["method", "task", "run", "score"])
    return read_task_scores(frame, direction="higher")


def _cli_seconds():
    """Seconds of ``benchtrust compare aso`` on the whole bundled table, start-up included."""
    command = [sys.executable, "-m", "benchtrust", "compare", "aso", str(bundled_results("atari100k")),
               "--direction", "higher", "--method-col", "algorithm", "--task-col", "game", "--normalise",
               "none", "--a", "SPR", "--b", "DER", "--comparisons", "1"]  # fmt: skip
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    return seconds if done.returncode == 0 else None


def main():
    scores = atari_scores()
    jobs = [tuple(_runs(scores, m, g).tolist() for m in PAIR) for g in GAMES]
    peer = run_peer(peer_python("deepsig", "deepsig"), _PEER, jobs)
    rows = [("game", "benchtrust ε_min ± sd", "deepsig ε_min", "|diff| / sd", "benchtrust ms", "deepsig ms",
             "speed-up")]  # fmt: skip
    ratios, agree = [], True
    for k, game in enumerate(GAMES):
        x, y = jobs[k]
        ours = [violation_bounds(x, y, rng=np.random.default_rng(s))["eps_min_ab"] for s in range(SEEDS)]
        mean, sd = float(np.mean(ours)), float(np.std(ours, ddof=1))
        table = _one_game(scores, game)
        _, seconds = median_seconds(
            lambda t=table: almost_stochastic_order(t, *PAIR, comparisons=1), REPEATS_OURS
        )
        if "error" in peer:
            theirs, distance, their_ms, ratio = peer["error"], "n/a", "n/a", None
        else:
            value, their_seconds = peer[k]["eps_min"], peer[k]["seconds"]
            spread = np.sqrt(2) * sd
            agree &= abs(mean - value) <= AGREEMENT * spread + 1e-12
            theirs, distance = f"{value:.4f}", f"{abs(mean - value) / spread:.2f}" if spread else "0"
            their_ms, ratio = f"{1000 * their_seconds:.0f}", speed_up(seconds, their_seconds)
            ratios.append(ratio)
        rows.append((game, f"{mean:.4f} ± {sd:.4f}", theirs, distance, f"{1000 * seconds:.1f}", their_ms,
                     ratio_text(ratio)))  # fmt: skip
    print("Almost stochastic order, SPR over DER (100 runs each), 1000 bootstrap resamples, confidence 0.95")
    print_table(rows)
    _, all_seconds = median_seconds(
        lambda: almost_stochastic_order(scores, *PAIR, comparisons=1, seed=0), REPEATS_OURS
    )
    cli = _cli_seconds()
    print(f"benchtrust, all {len(scores.tasks)} games in one call: {1000 * all_seconds:.0f} ms; the CLI, "
          f"start-up included: {'failed' if cli is None else f'{cli:.2f} s'}")  # fmt: skip
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load average {load:.1f} on {os.cpu_count()} cores)")
    if not ratios:
        print("Target: deepsig unavailable; the speed-up and agreement cannot be judged.")
        return
    ratio = min(ratios)
    print(
        f"Target: at least {TARGET_SPEED_UP}x faster than deepsig per game at equal resamples: "
        f"{ratio_text(ratio)} ({'met' if ratio >= TARGET_SPEED_UP else 'not met'}); ε_min within "
        f"{AGREEMENT} standard deviations of the difference: {'met' if agree else 'not met'}."
    )
    if cli is not None:
        games = len(scores.tasks)
        per_game = sum(p["seconds"] for p in peer) / len(peer)
        print(
            f"The CLI on all {games} games against deepsig's {games} calls (estimated from its mean per "
            f"game, {per_game:.1f} s): {ratio_text(speed_up(cli, per_game * games))}."
        )


if __name__ == "__main__":
    main()
