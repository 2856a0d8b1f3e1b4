"""Time the exact best-of-m distribution (benchtrust.sota.best_of) against baselines, in one run.

Cases (issue: "exact distribution of the best of m classifiers"):

1. Table 2's dependent, non-identical row (m = 1000, n = 3000, θ equally spaced in [0.875, 0.90],
   ρ = 0.6, θ0 = 0.90): the exact computation against a vectorised Monte Carlo of the same model with
   100,000 simulations (benchtrust.sota.simulate_best_of: per simulation one binomial draw for the
   reference classifier and two per classifier). Target: exact at least 20x faster.
2. Identical, independent classifiers with m = n = 10^6: the exact computation, which evaluates only the
   window of z where the cdf is neither 0 nor 1, against Eq. 2 evaluated over the whole support
   z = 0..n with scipy. Target: exact well under a second, finite.

Run: make bench (or .venv/bin/python benchmarks/bench_sota.py). Prints a table; asserts nothing.
"""

from __future__ import annotations

import time

import numpy as np
from scipy import stats

from _tables import print_table  # benchmarks/, the script's own folder
from benchtrust.sota import best_of, simulate_best_of


def _best_time(function, repeat):
    """Smallest wall time of ``repeat`` calls, and the last result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def _eq2_full_support(m, n, theta):
    """Textbook Eq. 2 over every z = 0..n: F(z) = 1 - (1 - P_z)^m, then E and SD of (n - Z)/n."""
    z = np.arange(n + 1)
    cdf = -np.expm1(m * stats.binom.logsf(z, n, 1.0 - theta))
    pmf = np.diff(cdf, prepend=0.0)
    accuracy = (n - z) / n
    mean = pmf @ accuracy
    return mean, np.sqrt(pmf @ (accuracy - mean) ** 2)


def main():
    rows = []

    theta = np.linspace(0.875, 0.90, 1000)
    setup = dict(test_size=3000, correlation=0.6, reference_accuracy=0.90)
    exact_time, exact = _best_time(lambda: best_of(theta, **setup), repeat=3)
    mc_time, mc = _best_time(lambda: simulate_best_of(theta, simulations=100_000, seed=2024, **setup), 1)
    rows.append(
        (
            "Table 2, dependent non-identical (m=1000, n=3000)",
            "Monte Carlo, 100,000 simulations",
            exact_time,
            mc_time,
            f"E {exact.expected_max:.5f} vs {mc.expected_max:.5f}; SD {exact.sd_max:.6f} vs {mc.sd_max:.6f}",
        )
    )

    m = n = 10**6
    exact_time, exact = _best_time(lambda: best_of(0.9, classifiers=m, test_size=n), repeat=5)
    full_time, (full_mean, full_sd) = _best_time(lambda: _eq2_full_support(m, n, 0.9), repeat=1)
    rows.append(
        (
            "identical independent, m = n = 10^6",
            "Eq. 2 over all z = 0..n (scipy)",
            exact_time,
            full_time,
            f"E {exact.expected_max:.8f} vs {full_mean:.8f}; SD {exact.sd_max:.3e} vs {full_sd:.3e}",
        )
    )

    header = ("case", "baseline", "benchtrust s", "baseline s", "speed-up", "agreement")
    table = [header] + [(c, b, f"{e:.3f}", f"{t:.3f}", f"{t / e:.1f}x", a) for c, b, e, t, a in rows]
    print_table(table)


if __name__ == "__main__":
    main()
