"""The sum of two independent binomials, X = Bin(n1, q1) + Bin(n0, q0) (paper §4.1, §4.3, Eq. 10-11).

Reference values come from the direct convolution of two scipy binomial pmfs, never from the module's
recurrence or window sums.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats

from benchtrust.sota._two_binomials import cdf_steps, log_pmf

PMF_FLOOR = 1e-250  # log_pmf is compared relatively wherever the true pmf is above this
CDF_FLOOR = 1e-200  # cdf_steps likewise; below it, an absolute error of CDF_FLOOR is allowed
RTOL = 1e-10


def direct_pmf(n1, q1, n0, q0):
    """P(X = z) for z = 0 .. n1 + n0, by convolving the two binomial pmfs."""
    first = stats.binom.pmf(np.arange(n1 + 1), n1, q1)
    second = stats.binom.pmf(np.arange(n0 + 1), n0, q0)
    return np.convolve(first, second)


def pmf_at(pmf, z):
    """pmf[z] with 0 outside 0 .. len(pmf) - 1."""
    z = np.asarray(z)
    out = np.zeros(z.shape)
    inside = (z >= 0) & (z < pmf.size)
    out[inside] = pmf[z[inside]]
    return out


def support(n1, q1, n0, q0):
    """Smallest and largest z with P(X = z) > 0, in exact arithmetic."""
    low = n1 * (q1 == 1) + n0 * (q0 == 1)
    high = n1 * (q1 > 0) + n0 * (q0 > 0)
    return low, high


def z_star(n1, q1, n0, q0):
    """Where the recurrence's first coefficient changes sign: (n1 q1 p0 + n0 q0 p1) / (p1 q0 + p0 q1)."""
    p1, p0 = 1 - q1, 1 - q0
    return (n1 * q1 * p0 + n0 * q0 * p1) / (p1 * q0 + p0 * q1)


def assert_log_pmf_matches(z, got, n1, q1, n0, q0):
    pmf = direct_pmf(n1, q1, n0, q0)
    want = pmf_at(pmf, z)
    low, high = support(n1, q1, n0, q0)
    assert got.shape == z.shape
    assert not np.any(np.isnan(got))
    outside = (z < low) | (z > high)
    assert np.all(np.isneginf(got[outside])), z[outside & ~np.isneginf(got)]
    big = want > PMF_FLOOR
    rel = np.abs(np.expm1(got[big] - np.log(want[big])))
    assert np.all(rel <= RTOL), (z[big][np.argmax(rel)], rel.max())
    # Where the true value is tiny, the computed one must be tiny too (or -inf after underflow).
    assert np.all(got[~big & ~outside] <= np.log(PMF_FLOOR) + 1.0)


def close(got, want):
    """Relative RTOL where ``want`` exceeds CDF_FLOOR, absolute CDF_FLOOR elsewhere."""
    big = want > CDF_FLOOR
    return bool(
        np.all(np.abs(got[big] - want[big]) <= RTOL * want[big])
        and np.all(np.abs(got[~big] - want[~big]) <= CDF_FLOOR)
    )


def run_steps(z_start, n1, q1, n0, q0, count):
    """``below`` and ``count`` copies of the yielded cdf (shape (count, pairs)), never sending."""
    arrays = [np.asarray(v, dtype=float) for v in (z_start, n1, q1, n0, q0)]
    below, steps = cdf_steps(*arrays)
    rows = []
    for _ in range(count):
        cdf, kept = next(steps)
        assert kept is None
        rows.append(cdf.copy())
    return np.asarray(below, dtype=float), np.array(rows)


def check_pair(below, values, z_start, n1, q1, n0, q0):
    """Check one pair's ``below`` and yielded values; return "included" or "excluded" (or "either")."""
    pmf = direct_pmf(n1, q1, n0, q0)
    z = z_start + np.arange(values.size)
    excluded = np.cumsum(pmf_at(pmf, z))
    mass_below = float(pmf[: max(min(z_start, pmf.size), 0)].sum())
    included = mass_below + excluded
    # `below` is a valid upper bound on P(X < z_start), up to the absolute floor the checks below use
    # (subnormal masses such as 2e-315 carry only a few significant digits).
    assert below >= mass_below * (1 - RTOL) - 1e-300, (below, mass_below)
    is_included, is_excluded = close(values, included), close(values, excluded)
    assert is_included or is_excluded, (values[:5], included[:5], excluded[:5])
    if is_included and not is_excluded:
        # The mass below the start is in the yielded cdf: then `below` must be that mass itself.
        assert below == pytest.approx(mass_below, rel=RTOL, abs=1e-300)
        return "included"
    return "excluded" if not is_included else "either"


# ---------------------------------------------------------------------------------------------- log_pmf

LOG_PMF_CASES = [
    (10, 0.2, 5, 0.7),  # the docstring's example
    (300, 0.1, 200, 0.6),
    (400, 0.5, 400, 0.5),
    (400, 0.01, 400, 0.99),  # far apart: a bimodal-looking convolution with deep tails
    (400, 0.001, 3, 0.999),
    (1, 0.3, 1, 0.3),
    (0, 0.3, 50, 0.4),  # n1 = 0
    (50, 0.3, 0, 0.4),  # n0 = 0
    (0, 0.3, 0, 0.4),  # X = 0
    (30, 0.0, 20, 0.6),  # degenerate q1 = 0
    (30, 1.0, 20, 0.6),  # degenerate q1 = 1
    (30, 0.1, 20, 0.0),  # degenerate q0 = 0
    (30, 0.1, 20, 1.0),  # degenerate q0 = 1
    (30, 0.0, 20, 1.0),  # both degenerate: X = 20
    (30, 1.0, 20, 1.0),  # X = 50
    (30, 0.0, 20, 0.0),  # X = 0
    (200, 1e-16, 200, 1 - 2**-53),  # the most extreme failure probabilities 1 - accuracy can give
    (100, 0.9, 300, 2**-53),
]


@pytest.mark.parametrize(("n1", "q1", "n0", "q0"), LOG_PMF_CASES)
def test_log_pmf_against_direct_convolution(n1, q1, n0, q0):
    z = np.arange(-5, n1 + n0 + 6)  # includes z outside the support on both sides
    got = log_pmf(z, n1, q1, n0, q0)
    assert_log_pmf_matches(z, got, n1, q1, n0, q0)


def test_log_pmf_broadcasts_over_parameters():
    """One z against many (n1, q1, n0, q0) and many z against one pair give the same values."""
    params = np.array(LOG_PMF_CASES, dtype=float)
    z = 15
    many = log_pmf(z, params[:, 0], params[:, 1], params[:, 2], params[:, 3])
    for value, (n1, q1, n0, q0) in zip(many, LOG_PMF_CASES, strict=True):
        one = log_pmf(np.array([z]), n1, q1, n0, q0)
        assert value == pytest.approx(float(one[0]), rel=1e-13) or (
            np.isneginf(value) and np.isneginf(one[0])
        )
        assert_log_pmf_matches(np.array([z]), np.array([value]), n1, q1, n0, q0)


def test_log_pmf_symmetric_in_the_two_binomials():
    z = np.arange(0, 501)
    np.testing.assert_allclose(log_pmf(z, 300, 0.1, 200, 0.6), log_pmf(z, 200, 0.6, 300, 0.1), rtol=1e-12)


def test_log_pmf_large_trials_against_normalisation():
    """n = 10^5 per binomial (beyond a direct convolution here): the pmf sums to 1, and the mean and
    variance are n1 q1 + n0 q0 and n1 q1 p1 + n0 q0 p0 (over mean ± 40 sd, outside which the mass is far
    below 1e-300)."""
    n1, q1, n0, q0 = 100_000, 0.04, 60_000, 0.64
    mean = n1 * q1 + n0 * q0
    variance = n1 * q1 * (1 - q1) + n0 * q0 * (1 - q0)
    reach = 40 * np.sqrt(variance)
    z = np.arange(int(mean - reach), int(mean + reach) + 1)
    pmf = np.exp(log_pmf(z, n1, q1, n0, q0))
    assert pmf[0] < 1e-300 and pmf[-1] < 1e-300
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert pmf @ z == pytest.approx(mean, rel=1e-12)
    assert pmf @ (z - mean) ** 2 == pytest.approx(variance, rel=1e-9)


# Failure probabilities: exactly 0 or 1, or any double 1 - θ can be for an accuracy θ in (0, 1), i.e.
# in [2^-53, 1 - 2^-53]. (Smaller positive q is covered separately below.)
failure_probabilities = st.one_of(
    st.sampled_from([0.0, 1.0, 2.0**-53, 1.0 - 2.0**-53, 0.5]),
    st.floats(min_value=2.0**-53, max_value=1.0 - 2.0**-53),
)
trials = st.integers(min_value=0, max_value=400)


@settings(max_examples=200, deadline=None)
@given(n1=trials, q1=failure_probabilities, n0=trials, q0=failure_probabilities)
def test_log_pmf_property_matches_direct_convolution(n1, q1, n0, q0):
    z = np.arange(-3, n1 + n0 + 4)
    got = log_pmf(z, n1, q1, n0, q0)
    assert_log_pmf_matches(z, got, n1, q1, n0, q0)


def _run_isolated(code):
    """Run ``code`` in a fresh interpreter limited to 1 GiB of address space and 120 s."""
    limited = "import resource\nresource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))\n" + code
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, "-c", limited], capture_output=True, text=True, timeout=120, check=False, env=env
    )


@pytest.mark.parametrize(("q1", "q0"), [(0.5, 1e-300), (1 - 2**-53, 1e-150), (1e-300, 0.5)])
def test_log_pmf_tiny_failure_probability(q1, q0):
    """log_pmf documents q in [0, 1]; a tiny positive q (one binomial almost degenerate) must work too.

    Run in a separate, memory-limited interpreter: a failure here has shown up as unbounded memory use.
    """
    n1, n0 = 10, 10
    z = np.arange(0, n1 + n0 + 1)
    code = textwrap.dedent(
        f"""
        import json
        import numpy as np
        from benchtrust.sota._two_binomials import log_pmf
        print(json.dumps(log_pmf(np.arange({n1 + n0 + 1}), {n1}, {q1!r}, {n0}, {q0!r}).tolist()))
        """
    )
    done = _run_isolated(code)
    assert done.returncode == 0, done.stderr[-2000:]
    got = np.array(json.loads(done.stdout), dtype=float)
    assert_log_pmf_matches(z, got, n1, q1, n0, q0)


def test_cdf_steps_tiny_failure_probability():
    """cdf_steps with one binomial almost degenerate (q0 = 1e-300), isolated as above."""
    code = textwrap.dedent(
        """
        import json
        import numpy as np
        from benchtrust.sota._two_binomials import cdf_steps
        one = lambda v: np.array([float(v)])
        below, steps = cdf_steps(one(0), one(10), one(0.5), one(10), one(1e-300))
        print(json.dumps([float(next(steps)[0][0]) for _ in range(22)]))
        """
    )
    done = _run_isolated(code)
    assert done.returncode == 0, done.stderr[-2000:]
    got = np.array(json.loads(done.stdout), dtype=float)
    want = np.cumsum(pmf_at(direct_pmf(10, 0.5, 10, 1e-300), np.arange(22)))
    assert close(got, want)


# -------------------------------------------------------------------------------------------- cdf_steps

# (n1, q1, n0, q0) with z* well inside the support, so starts below, at and above the mode and past z*
# all exist.
STEP_PAIRS = [
    (300, 0.1, 200, 0.6),  # mean 150, z* ~ 206.9
    (30, 0.1, 20, 0.6),  # the docstring's example
    (400, 0.5, 400, 0.999),  # one binomial concentrated: a direct start below z* for large starts
    (250, 0.02, 150, 0.3),
]


def start_points(n1, q1, n0, q0):
    """Start z below, at and above the mode, just below and past z*, at 0, and outside the support."""
    pmf = direct_pmf(n1, q1, n0, q0)
    mode = int(np.argmax(pmf))
    star = z_star(n1, q1, n0, q0)
    n = n1 + n0
    points = {
        "zero": 0,
        "negative": -3,
        "below mode": max(mode // 2, 1),
        "mode": mode,
        "above mode": min(mode + 3, n),
        "just below z*": int(np.floor(star)),
        "past z*": min(int(np.ceil(star)) + 5, n),
        "far past z*": min(int(star + (n - star) * 0.7), n),
        "top": n,
        "past the support": n + 2,
    }
    return points


@pytest.mark.parametrize(("n1", "q1", "n0", "q0"), STEP_PAIRS)
def test_cdf_steps_against_direct_convolution(n1, q1, n0, q0):
    points = start_points(n1, q1, n0, q0)
    count = n1 + n0 + 6 - min(points.values())
    for name, z_start in points.items():
        below, values = run_steps([z_start], [n1], [q1], [n0], [q0], min(count, n1 + n0 + 6 - z_start))
        regime = check_pair(below[0], values[:, 0], z_start, n1, q1, n0, q0)
        star = z_star(n1, q1, n0, q0)
        if 0 <= z_start <= min(star, 100):
            # A start of at most a hundred failures below z* runs the recurrence up from zero: exact.
            assert regime in ("included", "either"), name
            mass_below = direct_pmf(n1, q1, n0, q0)[: max(z_start, 0)].sum()
            assert below[0] == pytest.approx(mass_below, rel=RTOL, abs=1e-300), name
        if z_start > star and z_start <= n1 + n0:
            # Past z* the start is computed directly: the mass below is left out and only bounded.
            assert regime in ("excluded", "either"), name


def test_cdf_steps_past_z_star_on_a_large_test_set():
    """Past z* values come in blocks by the downward recurrence: its upper tail against convolution.

    n = 13,840 (the size of §5.1.1's test set), a classifier given K = k with few failures on the reference's
    right items: the pmf falls by ~10^-300 over the steps checked, so the blocks must rescale.
    """
    n1, q1, n0, q0 = 12_600, 0.04, 1_240, 0.7
    star = z_star(n1, q1, n0, q0)
    pmf = direct_pmf(n1, q1, n0, q0)
    for start in (int(star) - 40, int(star) + 5):  # the cdf with the mass below, and without it
        below, values = run_steps([start], [n1], [q1], [n0], [q0], 700)
        assert check_pair(below[0], values[:, 0], start, n1, q1, n0, q0)
        # The pmf read off the steps where differences of the cdf keep 1e-9 of it.
        got = np.diff(values[:, 0])
        want = pmf[start + 1 : start + values.shape[0]]
        big = want > 1e-7
        assert big.sum() > 50
        np.testing.assert_allclose(got[big], want[big], rtol=1e-9)


def test_cdf_steps_starts_at_zero_and_negative_are_exact():
    below, values = run_steps([0, -3, -1], [300] * 3, [0.1] * 3, [200] * 3, [0.6] * 3, 510)
    np.testing.assert_array_equal(below, 0.0)
    pmf = direct_pmf(300, 0.1, 200, 0.6)
    for column, start in enumerate([0, -3, -1]):
        want = np.cumsum(pmf_at(pmf, start + np.arange(510)))
        assert close(values[:, column], want)
    assert values[-1] == pytest.approx(1.0, abs=1e-13)


def test_cdf_steps_long_runs_up_from_zero_are_exact():
    """Pairs like the Table 2 board's (n = 3000, ρ = 0.6: c(0) about 1e-197 for the strongest), run up
    from zero to starts of 150 to 330 failures together (sorted, the running pairs a leading slice). The
    running values grow by some 10^190 on the way and are divided by powers of two every 8 steps: ``below``
    and the first values yielded (which include it) against the convolution, tighter than RTOL."""
    n1, q1, n0, q0 = 2700, np.array([0.04, 0.05, 0.06]), 300, np.array([0.64, 0.67, 0.72])
    starts = np.array([150, 330, 247])
    below, values = run_steps(starts, [n1] * 3, q1, [n0] * 3, q0, 3)
    for column, start in enumerate(starts):
        pmf = direct_pmf(n1, q1[column], n0, q0[column])
        mass_below = pmf[:start].sum()
        assert below[column] == pytest.approx(mass_below, rel=1e-12)
        np.testing.assert_allclose(
            values[:, column], mass_below + np.cumsum(pmf[start : start + 3]), rtol=1e-12
        )


def test_cdf_steps_larger_test_set_direct_start_near_the_mode():
    """n = 5000 (as in a dependent best_of with n = 5000): starts near the mode are computed directly."""
    n1, q1, n0, q0 = 3000, 0.04, 2000, 0.5
    pmf = direct_pmf(n1, q1, n0, q0)
    mode = int(np.argmax(pmf))  # about 1120
    for z_start in (mode - 200, mode - 60, mode, mode + 40, int(z_star(n1, q1, n0, q0)) + 10):
        below, values = run_steps([z_start], [n1], [q1], [n0], [q0], 400)
        check_pair(below[0], values[:, 0], z_start, n1, q1, n0, q0)


@pytest.mark.parametrize(
    ("n1", "q1", "n0", "q0"), [(30, 0.0, 20, 0.6), (30, 1.0, 20, 0.6), (30, 0.1, 20, 1.0)]
)
def test_cdf_steps_degenerate_binomials(n1, q1, n0, q0):
    for z_start in (-2, 0, 5, 25, 30, 45, 52):
        below, values = run_steps([z_start], [n1], [q1], [n0], [q0], 60 - z_start)
        check_pair(below[0], values[:, 0], z_start, n1, q1, n0, q0)


def test_cdf_steps_many_pairs_at_once_equal_one_at_a_time():
    """All pairs in one call (mixed regimes, unsorted starts) give each pair's own values."""
    pairs = []
    for n1, q1, n0, q0 in [*STEP_PAIRS, (30, 0.0, 20, 0.6), (40, 0.3, 0, 0.5)]:
        for z_start in start_points(n1, q1, n0, q0).values():
            pairs.append((z_start, n1, q1, n0, q0))
    rng = np.random.default_rng(3)
    pairs = [pairs[i] for i in rng.permutation(len(pairs))]
    columns = np.array(pairs, dtype=float).T
    count = 120
    below, values = run_steps(*columns, count)
    for j, (z_start, n1, q1, n0, q0) in enumerate(pairs):
        check_pair(below[j], values[:, j], z_start, n1, q1, n0, q0)
        alone_below, alone = run_steps([z_start], [n1], [q1], [n0], [q0], count)
        assert below[j] == pytest.approx(alone_below[0], rel=1e-13, abs=1e-300)
        np.testing.assert_allclose(values[:, j], alone[:, 0], rtol=1e-13, atol=1e-300)


def test_cdf_steps_yields_a_reused_buffer():
    """The yielded array is the generator's buffer (the caller must copy it), and overwriting it does not
    change what comes next."""
    z_start, n1, q1, n0, q0 = (np.array([v], dtype=float) for v in (10, 300, 0.1, 200, 0.6))
    _, clean = run_steps(z_start, n1, q1, n0, q0, 50)
    _, steps = cdf_steps(z_start, n1, q1, n0, q0)
    for i in range(50):
        cdf, _ = next(steps)
        assert cdf[0] == pytest.approx(clean[i, 0], rel=1e-15)
        cdf[:] = -7.0  # the caller may overwrite it


hyp_pair = st.tuples(trials, failure_probabilities, trials, failure_probabilities, st.floats(0, 1))


@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(hyp_pair, min_size=1, max_size=4))
@example(pairs=[(207, 0.9999999999999999, 209, 0.9999999999999999, 0.9453125)])  # a subnormal mass below
def test_cdf_steps_property_matches_direct_convolution(pairs):
    rows = []
    for n1, q1, n0, q0, where in pairs:
        z_start = int(np.floor(where * (n1 + n0 + 5))) - 2  # -2 .. n1 + n0 + 3
        rows.append((z_start, n1, q1, n0, q0))
    columns = np.array(rows, dtype=float).T
    count = int(max(n1 + n0 + 3 - z for z, n1, _, n0, _ in rows)) + 1
    below, values = run_steps(*columns, count)
    for j, (z_start, n1, q1, n0, q0) in enumerate(rows):
        regime = check_pair(below[j], values[:, j], z_start, n1, q1, n0, q0)
        if 0 < q1 < 1 and 0 < q0 < 1 and 0 <= z_start <= min(z_star(n1, q1, n0, q0), 100):
            assert regime in ("included", "either")


# ----------------------------------------------------------------------------------- kept / send protocol


def test_cdf_steps_send_protocol_keeps_values_of_unfinished_pairs():
    """Sending masks of finished pairs: values of the pairs still running are those of a run without
    sending; ``kept`` (once a quarter is finished) is a mask over the previous yield's pairs."""
    pairs = []
    for n1, q1, n0, q0 in STEP_PAIRS:
        points = start_points(n1, q1, n0, q0)
        for name in ("zero", "below mode", "mode", "past z*"):
            pairs.append((points[name], n1, q1, n0, q0))
    pairs.append((5, 30, 0.0, 20, 0.6))  # degenerate: computed directly at every step
    columns = np.array(pairs, dtype=float).T
    size = len(pairs)  # 17
    count = 80
    _, reference = run_steps(*columns, count)

    # Which original pairs to finish at which step: few (no dropping), then enough to drop.
    finish_at = {3: [0, 16], 10: [1, 4, 5, 9], 20: [2], 35: [3, 6, 7, 8, 10, 11], 50: [12]}
    _, steps = cdf_steps(*columns)
    alive = np.arange(size)  # original index of each position in the yielded array
    finished = np.zeros(size, bool)
    cdf, kept = next(steps)
    assert kept is None
    drops = 0
    for step in range(count):
        assert cdf.shape == (alive.size,)
        running = ~finished[alive]
        np.testing.assert_array_equal(cdf[running], reference[step, alive[running]])
        if step + 1 == count:
            break
        newly = finish_at.get(step, [])
        if newly:
            finished[newly] = True
            cdf, kept = steps.send(finished[alive])
        else:
            cdf, kept = next(steps)
        if kept is not None:
            drops += 1
            assert kept.shape == (alive.size,)
            assert kept.dtype == bool
            # Only finished pairs are dropped, and all of them.
            np.testing.assert_array_equal(kept, ~finished[alive])
            alive = alive[kept]
    assert drops >= 2
    assert alive.size < size


def test_cdf_steps_send_none_is_next():
    columns = np.array([(10, 300, 0.1, 200, 0.6), (150, 300, 0.1, 200, 0.6)], dtype=float).T
    _, reference = run_steps(*columns, 20)
    _, steps = cdf_steps(*columns)
    got = [next(steps)[0].copy()]
    for _ in range(19):
        cdf, kept = steps.send(None)
        assert kept is None
        got.append(cdf.copy())
    np.testing.assert_array_equal(np.array(got), reference)
