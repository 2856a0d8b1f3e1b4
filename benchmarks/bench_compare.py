"""Time P(A > B) and its 95% percentile-bootstrap interval (benchtrust.compare) against scipy.stats.bootstrap.

Case: 50 paired runs of two pipelines (paper §4.1, C.4-C.5), seeded synthetic scores with a true
P(A > B) of about 0.65: accuracies a_i ~ N(0.80, 0.01) and b_i = a_i - N(0.004, 0.01). Two versions of the
data: unrounded (no ties) and rounded to two decimals, as papers print them (ties, which count one half).

* benchtrust, exact: ``probability_of_outperforming(a, b)``, the interval read off the exact bootstrap
  distribution of the mean indicator (the limit of infinitely many resamples);
* benchtrust, resampled: ``probability_of_outperforming(a, b, resamples=10_000, seed=rng)``;
* scipy: ``scipy.stats.bootstrap((indicators,), np.mean, n_resamples=10_000, method="percentile",
  vectorized=True, rng=rng)`` on the win (1) / tie (1/2) / loss (0) indicators, computed beforehand (the
  comparison of the scores is not timed for scipy; benchtrust's timings include it and the input checks).

The resampled versions get generators with the same seed, so they draw the same resamples and must give
the same interval; the exact interval is what both tend to as the number of resamples grows (at 10,000
resamples an end may still sit one lattice step 1/(2N) away when its tail probability is close to α/2).
Each timing is the median of several repetitions.

Then the comparisons over many tasks, each against its peer in a throwaway environment
(``benchmarks/_peers.py``; what was learned from each peer is in ``benchmarks/*_FACTS.md``):

* ``_compare_aggregate``: IQM and the other aggregates with stratified bootstrap intervals and performance
  profiles on the Atari 100k runs, against rliable (target: IQM with 50,000 resamples at least 10x faster);
* ``_compare_improvement``: the probability of improvement and effect sizes, against rliable;
* ``_compare_efficiency``: sample-efficiency curves, the average-score profile and the task bootstrap,
  against rliable;
* ``_compare_ranks``: Friedman + Nemenyi + the critical-difference diagram on the 54 UCI data sets,
  against autorank and scikit-posthocs (target: at least 5x faster than autorank);
* ``_compare_automatic``: autorank's automatic path (assumption checks, test, post-hoc, effect sizes, LaTeX
  table, CD diagram) on the UCI data, against autorank (target: under 0.3 s through the CLI);
* ``_compare_bayes``: the Bayesian signed-rank and correlated t-tests on the UCI data, against baycomp
  (target: signed-rank at least 10x faster at equal samples);
* ``_compare_hierarchical``: the Bayesian hierarchical test on the UCI data (nbc against aode), against
  baycomp's HierarchicalTest with pystan (target: at least 10x faster at equal posterior draws);
* ``_compare_aso``: almost stochastic order on Atari 100k games, against deepsig's ``aso()`` (target: at
  least 10x faster at equal resamples, ε_min within resampling error).

Run: make bench (or .venv/bin/python benchmarks/bench_compare.py). Prints tables; asserts nothing.
Takes about three minutes (more the first time, when it installs the peers).
"""

from __future__ import annotations

import os

import numpy as np
from scipy import stats

import _compare_aggregate  # benchmarks/, the script's own folder
import _compare_aso
import _compare_automatic
import _compare_bayes
import _compare_efficiency
import _compare_hierarchical
import _compare_improvement
import _compare_ranks
from _peers import median_seconds
from _tables import print_table
from benchtrust.compare import probability_of_outperforming
from benchtrust.compare._pipelines._outperform import _sum_pmf

PAIRS = 50
RESAMPLES = 10_000
ALPHA = 0.05
SEED = 2021
REPEATS_EXACT = 200
REPEATS_RESAMPLED = 25
TARGET_SPEED_UP = 20


def scores(decimals=None, seed=SEED):
    """50 paired accuracies of A and B; rounded to ``decimals`` when given."""
    rng = np.random.default_rng(seed)
    a = rng.normal(0.80, 0.01, PAIRS)
    b = a - rng.normal(0.004, 0.01, PAIRS)
    if decimals is not None:
        a, b = np.round(a, decimals), np.round(b, decimals)
    return a, b


def scipy_interval(indicators):
    ci = stats.bootstrap(
        (indicators,),
        np.mean,
        n_resamples=RESAMPLES,
        method="percentile",
        confidence_level=1 - ALPHA,
        vectorized=True,
        rng=np.random.default_rng(SEED),
    ).confidence_interval
    return float(ci.low), float(ci.high)


def tails_at_ends(result):
    """P(mean <= CI_min) and P(mean >= CI_max) under the exact bootstrap distribution."""
    n = result.n_pairs
    pmf = _sum_pmf(n, result.wins, result.ties)
    low, high = (round(x * 2 * n) for x in result.ci)
    return float(pmf[: low + 1].sum()), float(pmf[high:].sum())


def run_case(name, a, b):
    indicators = (a > b) + 0.5 * (a == b)
    exact, t_exact = median_seconds(lambda: probability_of_outperforming(a, b, alpha=ALPHA), REPEATS_EXACT)
    resampled, t_resampled = median_seconds(
        lambda: probability_of_outperforming(
            a, b, alpha=ALPHA, resamples=RESAMPLES, seed=np.random.default_rng(SEED)
        ),
        REPEATS_RESAMPLED,
    )
    theirs, t_scipy = median_seconds(lambda: scipy_interval(indicators), REPEATS_RESAMPLED)

    print(
        f"{name}: N = {exact.n_pairs} pairs, {exact.wins} wins, {exact.ties} ties, {exact.losses} losses; "
        f"P(A > B) = {exact.p_a_beats_b:.2f}"
    )
    rows = [("method", "95% CI", "median ms", "repeats", "scipy time / this time")]
    for label, ci, seconds, repeats in (
        ("benchtrust, exact", exact.ci, t_exact, REPEATS_EXACT),
        (f"benchtrust, {RESAMPLES:,} resamples", resampled.ci, t_resampled, REPEATS_RESAMPLED),
        (f"scipy.stats.bootstrap, {RESAMPLES:,} resamples", theirs, t_scipy, REPEATS_RESAMPLED),
    ):
        rows.append(
            (
                label,
                f"[{ci[0]:.6f}, {ci[1]:.6f}]",
                f"{1000 * seconds:.3f}",
                str(repeats),
                f"{t_scipy / seconds:,.1f}x",
            )
        )
    print_table(rows)
    below, above = tails_at_ends(exact)
    print(
        f"Exact tails at the ends: P(mean <= CI_min) = {below:.4f}, P(mean >= CI_max) = {above:.4f} "
        f"(each >= alpha/2 = {ALPHA / 2}); lattice step 1/(2N) = {1 / (2 * exact.n_pairs):.4f}"
    )
    print(exact.conclusion)
    print()
    same_resampled = np.allclose(resampled.ci, theirs, rtol=0, atol=1e-12)
    same_exact = np.allclose(exact.ci, theirs, rtol=0, atol=1e-12)
    return same_resampled, same_exact, t_scipy / t_exact, t_scipy / t_resampled


def main():
    print(f"P(A > B) with its {100 * (1 - ALPHA):g}% percentile-bootstrap interval, {PAIRS} paired runs\n")
    outcomes = [
        run_case("Unrounded scores (no ties)", *scores()),
        run_case("Scores rounded to 2 decimals (ties)", *scores(decimals=2)),
    ]
    same_resampled = all(o[0] for o in outcomes)
    same_exact = all(o[1] for o in outcomes)
    speed_up = min(o[2] for o in outcomes)
    speed_up_resampled = min(o[3] for o in outcomes)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load average {load:.1f} on {os.cpu_count()} cores)")
    print(
        f"Target: benchtrust's resampled interval equals scipy's (same seed, to 1e-12): "
        f"{'met' if same_resampled else 'not met'}."
    )
    verdict = "met" if same_exact else "not met (Monte Carlo error of the resampled ends; see the tails)"
    print(f"Target: the exact interval equals scipy's {RESAMPLES:,}-resample interval: {verdict}.")
    print(
        f"Target: benchtrust (exact) at least {TARGET_SPEED_UP}x faster than scipy.stats.bootstrap: "
        f"{speed_up:,.0f}x ({'met' if speed_up >= TARGET_SPEED_UP else 'not met'}); "
        f"resampled version {speed_up_resampled:,.1f}x."
    )
    for peer in (
        _compare_aggregate,
        _compare_improvement,
        _compare_efficiency,
        _compare_ranks,
        _compare_automatic,
        _compare_bayes,
        _compare_hierarchical,
        _compare_aso,
    ):
        print()
        peer.main()


if __name__ == "__main__":
    main()
