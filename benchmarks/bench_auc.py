"""Time the best-of-m AUC (benchtrust.sota.best_of_auc, leaderboard(metric="auc")) against direct simulation.

Two cases (paper §5.2), timed side by side in one run:

(a) §5.2.1: m = 1000 independent classifiers of true AUC 0.9 on a test set of n = 3000 items with 52
    positives. The paper simulated 10,000 competitions: E = 0.9562, SD = 0.004459, 95 % interval
    (0.9486, 0.9662). benchtrust combines tabulated distributions of one classifier's empirical AUC
    (``best_of_auc(0.9, classifiers=1000, test_size=3000, positives=52)``: ``auc_pmf``, exact over the
    positives, 256 replicates of the negatives); the baseline is its direct Monte Carlo,
    ``best_of_auc(..., simulations=10_000)`` (each competition draws m empirical AUCs with
    ``sample_auc``), the paper's own computation. benchtrust runs for seeds 1..5: the seed-to-seed SD of
    its estimates is its own error. The Monte Carlo errors of the simulated estimates are SD / sqrt(S)
    for the mean, about SD / sqrt(2 S) for the SD (from the kurtosis of benchtrust's distribution), and
    sqrt(p (1 - p) / S) / f(q_p) for the interval ends (f the density of the best at the quantile,
    from benchtrust's distribution). The script checks that benchtrust's E, SD and interval ends are
    within 3 combined errors (Monte Carlo's and benchtrust's seed-to-seed SD) of the Monte Carlo ones
    and of the paper's (plus half a unit of the paper's last printed digit). It also states the error
    of 10^5 repetitions, SD / sqrt(1e5), and how many simulated competitions benchtrust's seed-to-seed
    error is worth. Target: benchtrust under 3 s.

(b) The SIIM-ISIC Melanoma board (bundled; m = 3,173 teams with AUC > 0.5, winner 0.9490), analysed as
    in Fig. 12: ``leaderboard(bundled_leaderboard("melanoma"), metric="auc", test_size=3000,
    direction="higher", positives=52, resamples=1000, seed=s)`` for seeds s = 1, 2, 3: time, crop level
    (paper 0.8975), teams above it (paper 2,022), conservative level, and the seed-to-seed spread
    (max - min) of the levels. The levels tried are counted by wrapping ``_Levels._result`` (distinct
    level indices i). Targets: under 60 s per analysis; conservative level spread at most 0.0005; and
    (issue 33 item 3) under 10 s of CPU per analysis (this process, all threads: ``time.process_time``).

    Baseline: the paper's direct simulation of the board cropped at the level found (seed 1): each of
    200 competitions draws m = 3,173 teams with replacement from the teams scoring at most the level and
    draws each one's empirical AUC with ``sample_auc``; the best is recorded. Its E(best) is printed with
    its Monte Carlo error beside benchtrust's (the reported, plain E, and the pooled one of the bootstrap
    over teams, which is what fresh draws per competition estimate). Its time per competition is
    extrapolated to what the paper's procedure needs: at least one simulation of 10,000 competitions per
    level tried (E at each), and, with the 95 % intervals, B = 1000 simulations of 10,000 competitions
    per interval (at the plug-in, at the chosen crop and at every level the conservative search tried),
    as counted in bench_leaderboard.py.

(c) Issue 33: an AUC board whose classes are both large, 512 teams on n = 1,531 images with 560 positives
    (generated as in bench_scale.py: ``write_auc_board(path, 512, 1531, 560, 5, seed=3)``), analysed by
    ``leaderboard(path, metric="auc", test_size=1531, direction="higher", positives=560, seed=0)``: its
    time (CPU and wall) and crop level. And its tables alone, ``auc_pmf`` on the board's 34 AUCs x 128
    replicates, against the full-length transform (``_window`` giving all n+ n- + 1 values and ``_band``
    none: every replicate's cells transformed at length >= n+ n- + 1 and raised to the power 560 by
    repeated squaring, the computation before the window and the band), timed on the top AUC and the
    lowest one and extrapolated to the 34; the largest difference of the two pmfs on those AUCs. Before
    issue 33 the board took 257-693 s; the full-length transform with numpy's complex power (exp/log)
    took about 3 times as long as with repeated squaring. Target: the board under 10 s.

Run: make bench (or .venv/bin/python benchmarks/bench_auc.py; ``--issue33`` runs case (c) and case (b) for
seed 1 only, about 40 s).
Prints tables; asserts nothing. Takes about three minutes on two cores (the 10,000-competition Monte Carlo
is most of it).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from _tables import print_table  # benchmarks/, the script's own folder
from benchtrust.sota import _auc, best_of_auc, bundled_leaderboard, leaderboard, sample_auc
from benchtrust.sota._auc_levels import _AucModel
from benchtrust.sota._crop import _Levels

TEST_SIZE, POSITIVES = 3000, 52
CLASSIFIERS, AUC = 1000, 0.9
SIMULATIONS = 10_000  # the paper's repetitions, and the direct Monte Carlo's here
REFERENCE_REPETITIONS = 100_000
SEEDS_A = (1, 2, 3, 4, 5)
MC_SEED = 2024
ALPHA = 0.05
TOLERANCE = 3.0  # "within a few errors"
#: §5.2.1 of the paper, from 10,000 simulated competitions, and the unit of its last printed digit.
PAPER_A = {"E": (0.9562, 1e-4), "SD": (0.004459, 1e-6), "low": (0.9486, 1e-4), "high": (0.9662, 1e-4)}
TARGET_A = 3.0

SEEDS_B = (1, 2, 3)
RESAMPLES = 1000
COMPETITIONS = 200  # the baseline's simulated competitions at the crop level
PROCEDURE_COMPETITIONS = 10_000  # per simulation in the paper
PAPER_CROP, PAPER_TEAMS_ABOVE, PAPER_TEAMS = 0.8975, 2022, 3173
TARGET_B, TARGET_SPREAD = 60.0, 0.0005
TARGET_B_CPU = 10.0  # issue 33 item 3: CPU seconds (all threads)
BASELINE_SEED = 2020

#: Case (c), issue 33's board: teams, test size, positives, decimals, and the 34 AUCs of its tables.
BOARD_C = (512, 1531, 560, 5)
TARGET_C = 10.0


def _quantile_density(result, q, width):
    """Density of the best at q from its distribution: the probability within q +- width / 2, per unit."""
    lower = np.interp(q - width / 2, result.score, result.cdf)
    upper = np.interp(q + width / 2, result.score, result.cdf)
    return (upper - lower) / width


def monte_carlo_errors(result, simulations):
    """Standard errors of E, SD and the interval ends of ``simulations`` draws from ``result``'s law."""
    centred = result.score - result.expected_max
    kurtosis = float(result.pmf @ centred**4) / result.sd_max**4
    p = ALPHA / 2
    width = result.sd_max / 2
    quantile = np.sqrt(p * (1 - p) / simulations)
    return {
        "E": result.sd_max / np.sqrt(simulations),
        "SD": result.sd_max * np.sqrt((kurtosis - 1) / (4 * simulations)),
        "low": quantile / _quantile_density(result, result.ci[0], width),
        "high": quantile / _quantile_density(result, result.ci[1], width),
    }


def _fields(result):
    return {"E": result.expected_max, "SD": result.sd_max, "low": result.ci[0], "high": result.ci[1]}


def case_a():
    """Tabulated best_of_auc for several seeds against the direct Monte Carlo; rows and verdicts."""
    setup = dict(classifiers=CLASSIFIERS, test_size=TEST_SIZE, positives=POSITIVES)
    times, results = [], []
    for seed in SEEDS_A:
        start = time.perf_counter()
        results.append(best_of_auc(AUC, seed=seed, **setup))
        times.append(time.perf_counter() - start)
    start = time.perf_counter()
    mc = best_of_auc(AUC, simulations=SIMULATIONS, seed=MC_SEED, **setup)
    mc_time = time.perf_counter() - start

    ours = _fields(results[0])
    spread = {key: float(np.std([_fields(r)[key] for r in results], ddof=1)) for key in ours}
    errors = monte_carlo_errors(results[0], SIMULATIONS)
    reference = monte_carlo_errors(results[0], REFERENCE_REPETITIONS)
    simulated = _fields(mc)

    header = (
        "quantity",
        f"benchtrust (seed {SEEDS_A[0]})",
        f"seed SD ({len(SEEDS_A)} seeds)",
        f"Monte Carlo ({SIMULATIONS:,})",
        "MC error",
        "diff / err",
        "paper",
        "diff / err",
        "error of 10^5 reps",
    )
    rows, verdicts = [header], []
    for key, label in (("E", "E(best)"), ("SD", "SD(best)"), ("low", "95% CI low"), ("high", "95% CI high")):
        combined = np.hypot(errors[key], spread[key])
        versus_mc = (ours[key] - simulated[key]) / combined
        paper, unit = PAPER_A[key]
        # the paper's value: its own 10^4-repetition error and ours (combined), and its rounding
        paper_error = combined + unit / 2
        versus_paper = (ours[key] - paper) / paper_error
        within = abs(versus_mc) <= TOLERANCE and abs(versus_paper) <= TOLERANCE
        verdicts.append((label, within))
        digits = 6 if key == "SD" else 5
        rows.append(
            (
                label,
                f"{ours[key]:.{digits + 1}f}",
                f"{spread[key]:.1e}",
                f"{simulated[key]:.{digits + 1}f}",
                f"{errors[key]:.1e}",
                f"{versus_mc:+.1f}",
                f"{paper:g} (+-{paper_error:.1e})",
                f"{versus_paper:+.1f}",
                f"{reference[key]:.1e}",
            )
        )
    worth = (results[0].sd_max / spread["E"]) ** 2
    timing = {
        "benchtrust": (min(times), float(np.mean(times))),
        "mc": mc_time,
        "mc 10^5": mc_time * REFERENCE_REPETITIONS / SIMULATIONS,
        "worth": worth,
    }
    return rows, verdicts, timing, results[0]


def case_b(seeds=SEEDS_B):
    """The Melanoma board for several seeds: per seed its result, seconds, model, levels per step, CPU s."""
    runs = []
    original = _Levels._result
    for seed in seeds:
        marks, asked, models = [], {}, []

        def counting(self, i, pooled, asked=asked, marks=marks, models=models):
            if not models:
                models.append(self)
            asked.setdefault(marks[-1] if marks else "setup", set()).add(int(i))
            return original(self, i, pooled)

        _Levels._result = counting
        try:
            result, cpu, seconds = _timed(
                leaderboard,
                bundled_leaderboard("melanoma"),
                metric="auc",
                test_size=TEST_SIZE,
                direction="higher",
                positives=POSITIVES,
                resamples=RESAMPLES,
                seed=seed,
                progress=lambda done, total=None, step=None, marks=marks: step and marks.append(step),
            )
        finally:
            _Levels._result = original
        runs.append((seed, result, seconds, models[0], asked, cpu))
    return runs


def procedure_simulations(model, result, asked):
    """Levels tried, and the simulations of 10,000 competitions the paper's procedure runs with intervals.

    E at the plug-in, at every level the crop search tried and at the conservative level, and B per
    bootstrap interval: at the plug-in and the chosen crop, and at every level the conservative search
    tried (see bench_leaderboard.py).
    """
    levels = set().union(*asked.values())
    crop = int(np.searchsorted(model.levels, result.cropped.sota))
    conservative = int(np.searchsorted(model.levels, result.conservative.sota))
    top = model.levels.size - 1
    with_e = {top} | asked.get("cropping", set()) | {conservative}
    with_bootstrap = {top, crop} | asked.get("conservative cropping", set())
    return len(levels), len(with_e) + RESAMPLES * len(with_bootstrap)


def baseline_b(result, seed=BASELINE_SEED):
    """Direct simulation of the board cropped at the level found: maxima of COMPETITIONS competitions."""
    rng = np.random.default_rng(seed)
    board = result.scores
    kept = board[board <= result.cropped.sota]
    start = time.perf_counter()
    teams = kept[rng.integers(kept.size, size=(COMPETITIONS, board.size))]
    best = sample_auc(teams, test_size=TEST_SIZE, positives=POSITIVES, size=teams.shape, seed=rng).max(axis=1)
    return best, time.perf_counter() - start, kept.size


def _timed(function, *args, **kwargs):
    """function(*args, **kwargs), its CPU seconds (this process, all threads) and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.process_time() - cpu, time.perf_counter() - wall


def case_c():
    """Issue 33's board end to end, and its tables against the full-length transform; printed."""
    from bench_scale import write_auc_board  # benchmarks/, the script's own folder

    teams, n, positives, places = BOARD_C
    models = []
    original = _AucModel.__init__

    def keep(self, *args, **kwargs):  # the board's model, for its grid of AUCs
        original(self, *args, **kwargs)
        models.append(self)

    _AucModel.__init__ = keep
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "board.csv"
            write_auc_board(path, teams, n, positives, places, seed=3)
            options = dict(metric="auc", test_size=n, direction="higher", positives=positives, seed=0)
            result, cpu, wall = _timed(leaderboard, path, **options)
    finally:
        _AucModel.__init__ = original
    grid = models[0].grid
    setup = dict(test_size=n, positives=positives, replicates=128, seed=0)
    tables, table_cpu, table_wall = _timed(_auc.auc_pmf, grid, **setup)
    ends = grid[[0, -1]]
    window, band = _auc._window, _auc._band
    _auc._window = lambda cells, centred, mean, count: (0, count * (cells.shape[1] - 1))
    _auc._band = lambda cells, centred, count, length, limit: None
    try:
        full, full_cpu, full_wall = _timed(_auc.auc_pmf, ends, **setup)
    finally:
        _auc._window, _auc._band = window, band
    scale = grid.size / ends.size
    difference = float(np.abs(full - tables[[0, -1]]).max())
    print(
        f"(c) issue 33: {teams} teams, n = {n:,}, {positives} positives; tables of {grid.size} AUCs x 128 "
        f"replicates ({positives * (n - positives) + 1:,} values of U)"
    )
    print_table(
        [
            ("computation", "CPU s", "wall s", "ratio (CPU)"),
            (
                f"benchtrust leaderboard, end to end (crop {result.cropped.sota:.5f})",
                f"{cpu:.1f}",
                f"{wall:.1f}",
                "",
            ),
            ("auc_pmf, window and band", f"{table_cpu:.1f}", f"{table_wall:.1f}", "1x"),
            (
                f"auc_pmf, full-length transform ({ends.size} AUCs, x {scale:.0f})",
                f"{full_cpu * scale:.0f}",
                f"{full_wall * scale:.0f}",
                f"{full_cpu * scale / table_cpu:.0f}x",
            ),
        ]
    )
    print(f"Largest difference of the two pmfs (top and lowest AUC): {difference:.1e}")
    verdict = "met" if wall < TARGET_C else "missed"
    print(f"Target: the board under {TARGET_C:g} s: {wall:.1f} s wall, {cpu:.1f} s CPU ({verdict}).\n")


def main():
    load_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if "--issue33" in sys.argv[1:]:
        case_c()
        ((seed, result, seconds, _, _, cpu),) = case_b(SEEDS_B[:1])
        verdict = "met" if cpu < TARGET_B_CPU else "missed"
        print(
            f"(b) Melanoma board, seed {seed}: {seconds:.1f} s wall, {cpu:.1f} s CPU (target under "
            f"{TARGET_B_CPU:g} s of CPU: {verdict}); crop {result.cropped.sota:.5f}, conservative "
            f"{result.conservative.sota:.5f}."
        )
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(
            f"Load average {load_start:.1f} at the start, {load:.1f} at the end, on {os.cpu_count()} cores."
        )
        return
    rows, verdicts, timing, ours = case_a()
    print(
        f"(a) §5.2.1: best of m = {CLASSIFIERS} independent classifiers, true AUC {AUC}, n = {TEST_SIZE}, "
        f"{POSITIVES} positives"
    )
    fastest, mean = timing["benchtrust"]
    print_table(
        [
            ("computation", "seconds", "ratio to benchtrust"),
            (f"benchtrust, tabulated ({ours.method}), best of {len(SEEDS_A)} seeds", f"{fastest:.2f}", "1x"),
            (f"benchtrust, mean over {len(SEEDS_A)} seeds", f"{mean:.2f}", f"{mean / fastest:.1f}x"),
            (
                f"direct Monte Carlo, {SIMULATIONS:,} competitions (best_of_auc(simulations=))",
                f"{timing['mc']:.1f}",
                f"{timing['mc'] / fastest:,.0f}x",
            ),
            (
                f"direct Monte Carlo, {REFERENCE_REPETITIONS:,} competitions (extrapolated)",
                f"{timing['mc 10^5']:.0f}",
                f"{timing['mc 10^5'] / fastest:,.0f}x",
            ),
        ]
    )
    print(
        "Estimates (err: Monte Carlo standard error of S draws, from benchtrust's distribution; diff / err "
        "uses it combined with benchtrust's seed SD; the paper's +- adds half its last digit)"
    )
    print_table(rows)
    print(
        f"Monte Carlo error of {REFERENCE_REPETITIONS:,} repetitions for E: SD / sqrt(1e5) = "
        f"{ours.sd_max / np.sqrt(REFERENCE_REPETITIONS):.1e}; benchtrust's seed-to-seed SD of E is worth "
        f"about {timing['worth']:,.0f} simulated competitions ((SD / seed SD)^2)."
    )
    for label, within in verdicts:
        print(
            f"Check: {label} within {TOLERANCE:g} errors of the Monte Carlo's and the paper's: "
            f"{'yes' if within else 'NO'}"
        )
    verdict = "met" if fastest < TARGET_A else "missed"
    print(f"Target: benchtrust under {TARGET_A:g} s: {fastest:.2f} s ({verdict}).\n")

    case_c()
    runs = case_b()
    print(
        f"(b) Melanoma board (bundled): n = {TEST_SIZE}, {POSITIVES} positives, B = {RESAMPLES}; "
        f"paper: crop {PAPER_CROP}, {PAPER_TEAMS_ABOVE:,} teams above, m = {PAPER_TEAMS:,}"
    )
    header = (
        "seed",
        "seconds",
        "CPU s",
        "levels tried",
        "teams",
        "crop level",
        "E(best) there",
        "teams above",
        "conservative level",
        "its 95% CI",
        "teams above",
    )
    table = [header]
    for seed, result, seconds, model, asked, cpu in runs:
        tried, _ = procedure_simulations(model, result, asked)
        table.append(
            (
                str(seed),
                f"{seconds:.1f}",
                f"{cpu:.1f}",
                str(tried),
                f"{result.teams:,}",
                f"{result.cropped.sota:.5f}",
                f"{result.cropped.expected_max:.5f}",
                f"{result.cropped.teams_above:,}",
                f"{result.conservative.sota:.5f}",
                "({:.4f}, {:.4f})".format(*result.conservative.ci),
                f"{result.conservative.teams_above:,}",
            )
        )
    print_table(table)
    crops = [run[1].cropped.sota for run in runs]
    conservative = [run[1].conservative.sota for run in runs]
    seconds = [run[2] for run in runs]
    crop_spread, conservative_spread = max(crops) - min(crops), max(conservative) - min(conservative)
    at_paper_crop = int(np.count_nonzero(runs[0][1].scores > PAPER_CROP))
    print(
        f"Seed-to-seed spread (max - min): crop level {crop_spread:.5f}, conservative level "
        f"{conservative_spread:.5f}. This board has {at_paper_crop:,} teams above the paper's 0.8975."
    )

    seed, result, bt_seconds, model, asked, _ = runs[0]
    best, base_seconds, kept = baseline_b(result)
    per_competition = base_seconds / COMPETITIONS
    tried, full = procedure_simulations(model, result, asked)
    mean, se = float(best.mean()), float(best.std(ddof=1) / np.sqrt(best.size))
    crop_index = int(np.searchsorted(model.levels, result.cropped.sota))
    pooled = model.pooled(crop_index).expected_max
    print(
        f"Baseline: direct simulation of the board cropped at {result.cropped.sota:.5f} (seed {seed}): "
        f"{COMPETITIONS} competitions of m = {result.teams:,} teams drawn from the {kept:,} kept, "
        f"{base_seconds:.1f} s ({per_competition * 1e3:.0f} ms per competition)"
    )
    procedure_e = tried * PROCEDURE_COMPETITIONS * per_competition
    procedure_full = full * PROCEDURE_COMPETITIONS * per_competition
    print_table(
        [
            ("computation", "simulations", "seconds", "ratio to benchtrust"),
            (f"benchtrust leaderboard (seed {seed}), {tried} levels tried", "", f"{bt_seconds:.1f}", "1x"),
            (
                f"paper's procedure, E only: {PROCEDURE_COMPETITIONS:,} competitions per level tried",
                f"{tried:,}",
                f"{procedure_e:,.0f} ({procedure_e / 3600:.1f} h)",
                f"{procedure_e / bt_seconds:,.0f}x",
            ),
            (
                f"  ... with the 95% intervals (B = {RESAMPLES} simulations each)",
                f"{full:,}",
                f"{procedure_full:,.0f} ({procedure_full / 86400:,.0f} days)",
                f"{procedure_full / bt_seconds:,.0f}x",
            ),
        ]
    )
    print_table(
        [
            ("E(best) at the crop level", "value", "diff / SE"),
            (f"direct simulation, {COMPETITIONS} competitions", f"{mean:.6f} +- {se:.6f}", ""),
            (
                "benchtrust, reported (plain)",
                f"{result.cropped.expected_max:.6f}",
                f"{(result.cropped.expected_max - mean) / se:+.1f}",
            ),
            ("benchtrust, pooled (bootstrap over teams)", f"{pooled:.6f}", f"{(pooled - mean) / se:+.1f}"),
            ("observed best", f"{result.observed_max:.6f}", f"{(result.observed_max - mean) / se:+.1f}"),
        ]
    )
    verdict = "met" if max(seconds) < TARGET_B else "missed"
    print(f"Target: each analysis under {TARGET_B:g} s: slowest {max(seconds):.1f} s ({verdict}).")
    slowest = max(run[5] for run in runs)
    verdict = "met" if slowest < TARGET_B_CPU else "missed"
    print(
        f"Target (issue 33): each analysis under {TARGET_B_CPU:g} s of CPU: slowest {slowest:.1f} s "
        f"({verdict})."
    )
    verdict = "met" if conservative_spread <= TARGET_SPREAD else "missed"
    print(
        f"Target: conservative level spread over seeds {SEEDS_B} at most {TARGET_SPREAD}: "
        f"{conservative_spread:.5f} ({verdict})."
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Load average {load_start:.1f} at the start, {load:.1f} at the end, on {os.cpu_count()} cores.")


if __name__ == "__main__":
    main()
