"""Average probability of improvement of every method over every other (Agarwal et al. 2021, §4.3), with
stratified bootstrap intervals (§4.1): all pairs of runs as rliable computes them, and paired runs with the
exact bootstrap distribution."""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from benchtrust import InputError
from benchtrust.compare import read_task_scores
from benchtrust.compare._pipelines._outperform import _exact_interval, _sum_pmf
from benchtrust.compare._tasks import _pair_bootstrap as module
from benchtrust.compare._tasks._improvement import (
    ImprovementResult,
    improvement_probabilities,
    plot_improvement,
)
from benchtrust.compare._tasks._pair_bootstrap import lattice_interval, lattice_top, paired_distributions

#: rliable 1.2.0 metrics.probability_of_improvement(scores_x, scores_y) on the human-normalised Atari 100k
#: scores (runs × games), recorded from rliable 1.2.0, see benchmarks/RLIABLE_FACTS.md.
RLIABLE_POINTS = {
    ("DER", "DrQ"): 0.5146634615384615,
    ("DER", "DrQ(eps)"): 0.38072500000000004,
    ("DER", "OTRainbow"): 0.702973076923077,
    ("DER", "SPR"): 0.31415961538461534,
    ("DER", "SimPLe"): 0.569,
    ("DER", "CURL"): 0.6102634615384616,
    ("DrQ", "DrQ(eps)"): 0.34106730769230764,
    ("DrQ", "OTRainbow"): 0.7777942307692308,
    ("DrQ", "SPR"): 0.26907884615384614,
    ("DrQ", "SimPLe"): 0.5482692307692308,
    ("DrQ", "CURL"): 0.6116288461538463,
    ("DrQ(eps)", "OTRainbow"): 0.8048711538461539,
    ("DrQ(eps)", "SPR"): 0.38298846153846167,
    ("DrQ(eps)", "SimPLe"): 0.6018846153846155,
    ("DrQ(eps)", "CURL"): 0.7079403846153848,
    ("OTRainbow", "SPR"): 0.1818846153846154,
    ("OTRainbow", "SimPLe"): 0.4148461538461538,
    ("OTRainbow", "CURL"): 0.4347923076923077,
    ("SPR", "SimPLe"): 0.6759230769230768,
    ("SPR", "CURL"): 0.7580192307692306,
    ("SimPLe", "CURL"): 0.4978461538461539,
}
#: rliable 1.2.0: np.random.seed(2021), then get_interval_estimates(the six pairs below in one dict,
#: metrics.probability_of_improvement, reps=2000, random_state=np.random.RandomState(2021)) (rliable's
#: resampling also draws from numpy's global state): 95% percentile intervals, recorded from rliable 1.2.0,
#: see benchmarks/RLIABLE_FACTS.md.
RLIABLE_INTERVALS = {
    ("SPR", "DER"): (0.6736899038461539, 0.6982040384615384),
    ("SPR", "DrQ"): (0.7188190384615386, 0.7430937980769231),
    ("SPR", "DrQ(eps)"): (0.6034157692307692, 0.6303332692307692),
    ("SPR", "OTRainbow"): (0.8084760576923078, 0.8277848076923077),
    ("SPR", "SimPLe"): (0.6366471153846155, 0.7158874999999999),
    ("SPR", "CURL"): (0.7463553365384615, 0.7705646153846155),
}
RLIABLE_REPS = 2000
#: Resamples of benchtrust's interval in the test (the benchmark uses rliable's 2,000).
TEST_REPS = 1000


@pytest.fixture(scope="module")
def atari_result(atari_runs):
    return improvement_probabilities(atari_runs, resamples=TEST_REPS, seed=2021)


@pytest.fixture(scope="module")
def uci_paired(uci_runs):
    return improvement_probabilities(uci_runs, paired=True)


def table(values, *, labels=None, direction="higher"):
    """TaskScores from an array (methods, tasks, runs) with NaN for missing runs."""
    rows = [
        {"method": f"m{i}", "task": f"t{j}", "run": k if labels is None else labels[i][j][k], "score": v}
        for (i, j, k), v in np.ndenumerate(values)
        if not np.isnan(v)
    ]
    return read_task_scores(pd.DataFrame(rows), direction=direction)


def entry(result, x, y, field="probability"):
    return getattr(result, field)[result.methods.index(x), result.methods.index(y)]


# ------------------------------------------------------------------------------- rliable's numbers


def test_atari_point_estimates_equal_rliable(atari_result):
    for (x, y), published in RLIABLE_POINTS.items():
        assert entry(atari_result, x, y) == pytest.approx(published, abs=1e-12)
        assert entry(atari_result, y, x) == pytest.approx(1 - published, abs=1e-12)


def test_atari_intervals_within_resampling_error_of_rliable(atari_result):
    """Both intervals come from stratified bootstrap resamples (rliable's 2,000, benchtrust's 1,000 here)
    with different random streams, so their ends differ by Monte Carlo error alone. The 2.5% quantile of
    B resamples has standard error about sqrt(0.025 * 0.975 / B) / φ(1.96) σ = 2.67 σ / sqrt(B), σ the
    bootstrap standard deviation (the width of the interval / 3.92); the two estimates differ with
    standard error 2.67 σ sqrt(1/2000 + 1/1000). The tolerance is 5 such standard errors (0.0034 for SPR
    vs DER)."""
    for (x, y), (low, high) in RLIABLE_INTERVALS.items():
        sigma = (high - low) / 3.92
        tolerance = 5 * 2.67 * sigma * np.sqrt(1 / RLIABLE_REPS + 1 / TEST_REPS)
        assert entry(atari_result, x, y, "low") == pytest.approx(low, abs=tolerance)
        assert entry(atari_result, x, y, "high") == pytest.approx(high, abs=tolerance)
    assert atari_result.method == "resampled, 1,000 resamples"


def test_uci_task_probability_is_mann_whitney_u_over_n_m(uci_runs):
    """P(X_m > Y_m) over all pairs of runs is scipy's Mann-Whitney U statistic of X over n m."""
    result = improvement_probabilities(uci_runs, resamples=50, seed=0)
    for i in range(len(uci_runs.methods)):
        for j in range(len(uci_runs.methods)):
            if i != j:
                u = stats.mannwhitneyu(uci_runs.scores[i], uci_runs.scores[j], axis=1).statistic
                np.testing.assert_allclose(result.task_probability[i, j], u / 100**2, rtol=0, atol=1e-12)


# ------------------------------------------------------------------------ exact paired distribution


def test_exact_paired_distribution_equals_convolution_of_the_tasks(uci_runs):
    """The FFT of the product of generating functions equals the direct convolution of each task's
    exact distribution (benchtrust.compare._pipelines._outperform._sum_pmf, a polynomial power)."""
    x, y = uci_runs.scores[2], uci_runs.scores[1]  # hnb against aode, 54 data sets of 100 paired folds
    wins, ties = (x > y).sum(axis=1), (x == y).sum(axis=1)
    runs = np.full(x.shape[0], 100)
    (pmf,) = paired_distributions(wins, ties, runs)
    direct = np.ones(1)
    for w, t in zip(wins, ties, strict=True):
        direct = np.convolve(direct, _sum_pmf(100, int(w), int(t)))
    np.testing.assert_allclose(pmf, direct, rtol=0, atol=1e-12)
    assert lattice_top(runs) == pmf.size - 1 == 2 * 100 * 54


def test_exact_paired_distribution_with_unequal_runs_per_task():
    """Tasks with 4, 6 and 10 pairs: the average lives on the lattice of 2 M lcm(K) = 180 steps."""
    wins, ties, runs = np.array([1, 3, 5]), np.array([2, 0, 3]), np.array([4, 6, 10])
    (pmf,) = paired_distributions(wins, ties, runs)
    top = lattice_top(runs)
    assert top == 2 * 3 * 60
    direct = np.ones(1)
    for w, t, k in zip(wins, ties, runs, strict=True):
        spread = np.zeros(2 * 60 + 1)
        spread[:: 60 // k] = _sum_pmf(int(k), int(w), int(t))  # S_m / (2 K_m) on the step 1 / 120
        direct = np.convolve(direct, spread)
    np.testing.assert_allclose(pmf, direct, rtol=0, atol=1e-13)
    assert lattice_top(np.arange(1, 61)) > 2**63  # Python ints: no int64 overflow decides the lattice
    mean = (pmf * np.arange(top + 1) / top).sum()
    assert mean == pytest.approx(np.mean((wins + ties / 2) / runs), abs=1e-12)


def test_one_task_exact_interval_is_that_of_probability_of_outperforming():
    for wins, ties, runs in [(7, 2, 10), (30, 0, 50), (0, 4, 9), (12, 12, 24)]:
        (pmf,) = paired_distributions([wins], [ties], [runs])
        assert lattice_interval(pmf, 2 * runs, 0.05) == pytest.approx(
            _exact_interval(runs, wins, ties, 0.05), abs=1e-15
        )


def test_exact_paired_interval_matches_a_large_monte_carlo_bootstrap(uci_runs):
    """An independent stratified bootstrap of the paired indicators (20,000 resamples, drawn with
    numpy here) gives the exact ends up to one lattice step (1 / (2 K M)) and 4 Monte Carlo standard errors
    (2.67 σ / sqrt(B), see the rliable test)."""
    tasks = 4
    x, y = uci_runs.scores[2, :tasks], uci_runs.scores[1, :tasks]
    indicators = (x > y) + 0.5 * (x == y)  # (tasks, 100)
    rng = np.random.default_rng(7)
    draws = rng.integers(0, 100, size=(20_000, tasks, 100))
    means = np.take_along_axis(indicators[None], draws, axis=2).mean(axis=(1, 2))
    monte_carlo = np.quantile(means, [0.025, 0.975])
    wins, ties = (x > y).sum(axis=1), (x == y).sum(axis=1)
    (pmf,) = paired_distributions(wins, ties, np.full(tasks, 100))
    exact = lattice_interval(pmf, 2 * 100 * tasks, 0.05)
    step = 1 / (2 * 100 * tasks)
    sigma = means.std()
    np.testing.assert_allclose(exact, monte_carlo, rtol=0, atol=step + 4 * 2.67 * sigma / np.sqrt(20_000))


def test_uci_paired_is_exact_and_task_probability_is_the_paired_share(uci_runs, uci_paired):
    assert uci_paired.method == "exact" and uci_paired.paired and uci_paired.resamples is None
    i, j = uci_runs.methods.index("hnb"), uci_runs.methods.index("aode")
    x, y = uci_runs.scores[i], uci_runs.scores[j]
    np.testing.assert_allclose(uci_paired.task_probability[i, j], ((x > y) + 0.5 * (x == y)).mean(axis=1))


def test_paired_falls_back_to_resampling_beyond_the_lattice_limit(uci_runs, monkeypatch):
    monkeypatch.setattr(module, "_LATTICE_LIMIT", 100)
    monkeypatch.setattr(module, "RESAMPLES", 50)
    result = improvement_probabilities(uci_runs, paired=True, seed=0, resamples=None)
    assert result.method == "resampled, 50 resamples" and result.resamples == 50


# ---------------------------------------------------------------------------------------- properties


def test_probabilities_add_to_one_and_intervals_mirror(atari_result, uci_paired):
    for result in (atari_result, uci_paired):
        off = ~np.eye(len(result.methods), dtype=bool)
        np.testing.assert_allclose((result.probability + result.probability.T)[off], 1.0, atol=1e-15)
        np.testing.assert_allclose(result.low[off], 1 - result.high.T[off], atol=1e-15)
        assert np.all(np.isnan(np.diag(result.probability)))


def test_intervals_cover_the_point_estimates(atari_result, uci_paired):
    for result in (atari_result, uci_paired):
        off = ~np.eye(len(result.methods), dtype=bool)
        assert np.all(result.low[off] <= result.probability[off])
        assert np.all(result.probability[off] <= result.high[off])


small_tables = st.tuples(
    st.integers(2, 3), st.integers(1, 4), st.integers(2, 5), st.integers(0, 2**32 - 1)
).map(lambda shape: np.random.default_rng(shape[3]).integers(0, 4, size=shape[:3]).astype(float))


@settings(max_examples=25, deadline=None)
@given(small_tables)
def test_paired_exact_is_invariant_to_task_and_method_order_and_mirrors_direction(values):
    base = improvement_probabilities(table(values), paired=True)
    order = np.arange(values.shape[0])[::-1]
    permuted = improvement_probabilities(table(values[order][:, ::-1]), paired=True)
    for field in ("probability", "low", "high"):
        expected = getattr(base, field)[np.ix_(order, order)]
        np.testing.assert_allclose(getattr(permuted, field), expected, atol=1e-12)
    # Lower is better: the same scores rank the other way round, P(x > y) becomes P(y > x).
    flipped = improvement_probabilities(table(values, direction="lower"), paired=True)
    np.testing.assert_allclose(flipped.probability, base.probability.T, atol=1e-12)
    np.testing.assert_allclose(flipped.low, base.low.T, atol=1e-12)
    off = ~np.eye(values.shape[0], dtype=bool)
    assert np.all(base.low[off] <= base.probability[off] + 1e-12)
    assert np.all(base.probability[off] <= base.high[off] + 1e-12)


@settings(max_examples=25, deadline=None)
@given(small_tables)
def test_all_pairs_points_are_invariant_to_order_and_negation(values):
    base = improvement_probabilities(table(values), resamples=50, seed=1)
    permuted = improvement_probabilities(table(values[:, ::-1]), resamples=50, seed=1)
    np.testing.assert_allclose(permuted.probability, base.probability, atol=1e-12)
    negated = improvement_probabilities(table(-values, direction="lower"), resamples=50, seed=1)
    np.testing.assert_allclose(negated.probability, base.probability, atol=1e-12)
    np.testing.assert_allclose(negated.low, base.low, atol=1e-12)  # same draws, same order
    off = ~np.eye(values.shape[0], dtype=bool)
    assert np.all(base.low[off] <= base.probability[off] + 1e-12)
    assert np.all(base.probability[off] <= base.high[off] + 1e-12)


def test_same_seed_same_intervals(atari_runs):
    first = improvement_probabilities(atari_runs, resamples=50, seed=5)
    second = improvement_probabilities(atari_runs, resamples=50, seed=np.random.default_rng(5))
    np.testing.assert_array_equal(first.low, second.low)
    assert first.seed == 5 and second.seed is None


# ---------------------------------------------------------------------------------------- edge cases


def test_one_task():
    values = np.array([[[1.0, 2.0, 3.0]], [[0.0, 2.0, 1.0]]])
    result = improvement_probabilities(table(values), paired=True)
    assert result.probability[0, 1] == pytest.approx((1 + 0.5 + 1) / 3)
    assert result.low[0, 1] == pytest.approx(_exact_interval(3, 2, 1, 0.05)[0])


def test_all_ties_give_one_half_with_no_spread():
    values = np.full((2, 3, 4), 0.7)
    for paired in (True, False):
        result = improvement_probabilities(table(values), paired=paired, resamples=None if paired else 50)
        assert (result.probability[0, 1], result.low[0, 1], result.high[0, 1]) == (0.5, 0.5, 0.5)
        assert result.better == ()
        assert "No pair can be told apart" in result.verdict


def test_one_run_each_is_too_little_data_and_the_verdict_says_so():
    values = np.array([[[1.0], [2.0]], [[0.0], [3.0]]])
    for paired in (True, False):
        result = improvement_probabilities(table(values), paired=paired, resamples=None if paired else 50)
        assert result.probability[0, 1] == 0.5
        assert np.isnan(result.low[0, 1]) and np.isnan(result.high[0, 1])
        assert "Too little data" in result.verdict and "nothing is decided" in result.verdict
        assert result.better == ()
        assert result.to_dict()["pairs"][0]["low"] is None


def test_missing_runs_all_pairs_and_refused_paired():
    values = np.array([[[1.0, 2.0, np.nan], [1.0, 5.0, 2.0]], [[0.0, 2.0, 4.0], [3.0, 3.0, 3.0]]])
    scores = table(values)
    assert len(scores.missing) == 1
    result = improvement_probabilities(scores, resamples=50, seed=0)
    task0 = np.mean([[a > b or 0.5 * (a == b) for b in (0.0, 2.0, 4.0)] for a in (1.0, 2.0)])
    assert result.task_probability[0, 1, 0] == pytest.approx(task0)
    assert result.missing == 1
    with pytest.raises(InputError, match="paired: the runs of 'm1' on task 't0' do not have the same labels"):
        improvement_probabilities(scores, paired=True)


def test_unequal_runs_per_task_paired_exact():
    values = np.array(
        [
            [[1.0, 2.0, 0.0, 3.0], [1.0, 5.0, np.nan, np.nan]],
            [[0.0, 2.0, 1.0, 1.0], [3.0, 4.0, np.nan, np.nan]],
        ]
    )
    result = improvement_probabilities(table(values), paired=True)
    assert result.method == "exact"
    assert result.probability[0, 1] == pytest.approx(((2 + 0.5) / 4 + 1 / 2) / 2)


def test_a_method_with_more_runs_than_the_others():
    values = np.array([[[1.0, 2.0, np.nan]], [[0.0, 3.0, np.nan]], [[1.0, 1.0, 1.0]]])
    result = improvement_probabilities(table(values), resamples=50, seed=0)
    assert result.probability[0, 1] == 0.5 and result.probability[2, 0] == pytest.approx(0.25)


def test_one_method():
    result = improvement_probabilities(table(np.array([[[1.0, 2.0]]])), resamples=50)
    assert result.verdict == "One method, m0: nothing to compare it with."
    assert result.to_frame().empty
    assert "nothing to compare" in str(result)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"alpha": 1.5}, "alpha"),
        ({"resamples": 0}, "resamples: expected a positive whole number"),
        ({"paired": "yes"}, "paired: expected None, True or False"),
        ({"progress": 3}, "progress: expected a callable"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_arguments(uci_runs, kwargs, message):
    with pytest.raises(InputError, match=message):
        improvement_probabilities(uci_runs, **kwargs)


def test_scores_must_be_task_scores():
    with pytest.raises(InputError, match="scores: expected TaskScores"):
        improvement_probabilities(np.zeros((2, 3, 4)))


# --------------------------------------------------------------------------------------- the result


def test_result_explains_itself(atari_result, uci_runs, uci_paired):
    assert isinstance(atari_result, ImprovementResult)
    text = str(atari_result)
    assert "Probability of improvement (Agarwal et al. 2021 §4.3)" in text
    assert "SPR       OTRainbow" in text
    assert "Better beyond the noise of the runs" in atari_result.verdict
    assert "alpha=0.05/21 (Bonferroni)" in atari_result.verdict
    assert atari_result.pairing_hint == ""  # SimPLe's 5 runs: the labels differ
    assert repr(atari_result).endswith("better=20 of 21 pairs)")
    frame = atari_result.to_frame()
    assert list(frame.columns) == ["method_x", "method_y", "probability", "low", "high"]
    assert len(frame) == 42
    plain = json.loads(json.dumps(atari_result.to_dict()))
    assert len(plain["pairs"]) == 42 and plain["resamples"] == TEST_REPS and plain["seed"] == 2021
    unpaired = improvement_probabilities(uci_runs, resamples=50, seed=0)
    assert "pass paired=True" in unpaired.pairing_hint and "pass paired=True" in str(unpaired)
    assert uci_paired.pairing_hint == ""
    html = uci_paired._repr_html_()
    assert "Bouthillier et al. 2021, Eq. 9" in html and "<svg" in html


def test_progress_is_reported(uci_runs):
    calls = []
    improvement_probabilities(uci_runs, paired=True, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (10, 10)
    calls.clear()
    improvement_probabilities(
        uci_runs, resamples=50, seed=0, progress=lambda done, total: calls.append((done, total))
    )
    assert calls and calls[-1][0] == calls[-1][1]


def test_plot_has_one_row_per_pair(uci_paired):
    ax = plot_improvement(uci_paired)
    assert len(ax.get_yticks()) == 10 and ax.get_xlabel() == "P(X > Y)"


def test_too_few_runs_decide_nothing():
    """Two tasks of two runs each: A's runs all beat B's, but 4 runs are too few to read an interval as the
    noise of the runs (FEW_RUNS), so the verdict decides nothing; with 5 tasks (10 runs) it does."""
    few = improvement_probabilities(table(np.array([[[2.0, 3.0]] * 2, [[0.0, 1.0]] * 2])), resamples=200)
    assert few.low[0, 1] >= 0.5
    assert "Too few runs to decide" in few.verdict and "Better beyond the noise" not in few.verdict
    enough = improvement_probabilities(table(np.array([[[2.0, 3.0]] * 5, [[0.0, 1.0]] * 5])), resamples=200)
    assert "Better beyond the noise" in enough.verdict and "Too few" not in enough.verdict
