"""Effect sizes of one method against another (Vargha & Delaney's A, Cliff's δ, Hedges' g) with intervals,
task by task and over all tasks."""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from benchtrust import InputError
from benchtrust.compare import probability_of_outperforming, read_task_scores
from benchtrust.compare._tasks._effect import (
    EffectSizeResult,
    cohen_magnitude,
    effect_sizes,
    vargha_delaney_magnitude,
)
from benchtrust.compare._tasks._effect_stats import brunner_munzel, hedges_g
from benchtrust.compare._tasks._improvement import improvement_probabilities


@pytest.fixture(scope="module")
def spr_der(atari_runs):
    return effect_sizes(atari_runs, "SPR", "DER", resamples=200, seed=0)


def table(values, *, direction="higher"):
    """TaskScores of methods m0, m1, ... from an array (methods, tasks, runs), NaN for missing runs."""
    rows = [
        {"method": f"m{i}", "task": f"t{j}", "run": k, "score": v}
        for (i, j, k), v in np.ndenumerate(values)
        if not np.isnan(v)
    ]
    return read_task_scores(pd.DataFrame(rows), direction=direction)


# ------------------------------------------------------------------------------------ A and its interval


def test_uci_a_is_mann_whitney_u_over_n_m(uci_runs):
    """Unpaired A on each data set is scipy's Mann-Whitney U statistic of a over n m (100 × 100)."""
    result = effect_sizes(uci_runs, "hnb", "nbc", resamples=50, seed=0)
    i, j = uci_runs.methods.index("hnb"), uci_runs.methods.index("nbc")
    u = stats.mannwhitneyu(uci_runs.scores[i], uci_runs.scores[j], axis=1).statistic
    np.testing.assert_allclose(result.a12, u / 100**2, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.delta, 2 * u / 100**2 - 1, rtol=0, atol=1e-12)


@pytest.mark.filterwarnings("ignore:.*:RuntimeWarning")  # scipy on Boxing, where SPR always wins
def test_brunner_munzel_interval_inverts_scipys_test(spr_der, atari_runs):
    """The interval excludes 0.5 exactly when scipy's Brunner-Munzel test rejects at α = 0.05; and at
    α = its p-value, an end of the interval is 0.5 (so centre, variance and degrees of freedom agree)."""
    x, y = (
        atari_runs.scores[atari_runs.methods.index("SPR")],
        atari_runs.scores[atari_runs.methods.index("DER")],
    )
    p = stats.brunnermunzel(y, x, axis=1).pvalue  # scipy: P(first < second)
    has_interval = ~np.isnan(spr_der.a12_low)
    excludes = (spr_der.a12_low > 0.5) | (spr_der.a12_high < 0.5)
    np.testing.assert_array_equal(excludes[has_interval], (p < 0.05)[has_interval])
    for k in (0, 2, 8):  # Alien, Assault, ChopperCommand: no clipping, p well inside (0, 1)
        _, low, high = brunner_munzel(x[k : k + 1], y[k : k + 1], p[k])
        assert min(abs(low[0] - 0.5), abs(high[0] - 0.5)) < 1e-9


def test_paired_a_interval_is_the_exact_interval_of_probability_of_outperforming(uci_runs):
    result = effect_sizes(uci_runs, "hnb", "aode", paired=True)
    x, y = uci_runs.scores[uci_runs.methods.index("hnb")], uci_runs.scores[uci_runs.methods.index("aode")]
    for k in (0, 5, 21):
        reference = probability_of_outperforming(x[k], y[k])
        assert result.a12[k] == pytest.approx(reference.p_a_beats_b, abs=1e-15)
        assert (result.a12_low[k], result.a12_high[k]) == pytest.approx(tuple(reference.ci), abs=1e-15)


def test_overall_a_is_the_probability_of_improvement(uci_runs):
    paired = effect_sizes(uci_runs, "hnb", "aode", paired=True)
    matrix = improvement_probabilities(uci_runs, paired=True)
    i, j = uci_runs.methods.index("hnb"), uci_runs.methods.index("aode")
    assert paired.overall_a12 == pytest.approx(matrix.probability[i, j], abs=1e-15)
    assert tuple(paired.overall_a12_ci) == pytest.approx((matrix.low[i, j], matrix.high[i, j]), abs=1e-15)
    assert paired.method == "exact"
    assert tuple(paired.overall_delta_ci) == pytest.approx(
        (2 * matrix.low[i, j] - 1, 2 * matrix.high[i, j] - 1)
    )


def test_atari_overall_a_matches_rliable(spr_der):
    # probability_of_improvement(DER, SPR) recorded from rliable 1.2.0, see
    # benchmarks/RLIABLE_FACTS.md
    assert spr_der.overall_a12 == pytest.approx(1 - 0.31415961538461534, abs=1e-12)


# ------------------------------------------------------------------------------------ Hedges' g


def test_hedges_g_from_its_definition(spr_der, atari_runs):
    x, y = (
        atari_runs.scores[atari_runs.methods.index("SPR")],
        atari_runs.scores[atari_runs.methods.index("DER")],
    )
    n = 100
    pooled = np.sqrt((x.var(axis=1, ddof=1) + y.var(axis=1, ddof=1)) / 2)
    nu = 2 * n - 2
    j = special.gamma(nu / 2) / (np.sqrt(nu / 2) * special.gamma((nu - 1) / 2))
    assert j == pytest.approx(1 - 3 / (4 * nu - 1), abs=1e-5)  # Hedges' (1981) approximation
    np.testing.assert_allclose(spr_der.g, j * (x.mean(axis=1) - y.mean(axis=1)) / pooled, rtol=1e-12)


def test_hedges_g_interval_solves_the_noncentral_t_equations():
    """P(T >= t | λ_L) = α/2 = P(T <= t | λ_U), T ~ noncentral t(ν, λ), t = d sqrt(ñ), ends λ / sqrt(ñ)."""
    rng = np.random.default_rng(4)
    x = rng.normal(1.0, 1.0, size=(3, 8))
    y = rng.normal(0.0, 2.0, size=(3, 8))
    x[2, 5:] = np.nan  # 5 runs against 8
    g, low, high, _ = hedges_g(x, y, 0.1)
    nx, ny = np.array([8, 8, 5]), np.array([8, 8, 8])
    nu, tilde = nx + ny - 2, nx * ny / (nx + ny)
    j = np.exp(special.gammaln(nu / 2) - special.gammaln((nu - 1) / 2)) / np.sqrt(nu / 2)
    t = g / j * np.sqrt(tilde)
    np.testing.assert_allclose(stats.nct.sf(t, nu, low * np.sqrt(tilde)), 0.05, atol=1e-10)
    np.testing.assert_allclose(stats.nct.cdf(t, nu, high * np.sqrt(tilde)), 0.05, atol=1e-10)


def test_hedges_g_interval_is_close_to_the_large_sample_interval(spr_der):
    """With 100 runs each, the exact interval is close to g ± 1.96 sqrt(var(g)) (Borenstein et al.)."""
    nu = 198
    j = 1 - 3 / (4 * nu - 1)
    half = 1.96 * j * np.sqrt(2 / 100 + (spr_der.g / j) ** 2 / 400)
    np.testing.assert_allclose(spr_der.g_low, spr_der.g - half, atol=0.03)
    np.testing.assert_allclose(spr_der.g_high, spr_der.g + half, atol=0.03)


# ------------------------------------------------------------------------------------ magnitudes


def test_vargha_delaney_thresholds():
    """0.56, 0.64 and 0.71 start small, medium and large effects (Vargha & Delaney 2000), symmetric."""
    a = [0.5, 0.5599, 0.56, 0.6399, 0.64, 0.7099, 0.71, 1.0, 0.44, 0.36, 0.29, 0.0]
    words = ["negligible", "negligible", "small", "small", "medium", "medium", "large", "large"]
    words += ["small", "medium", "large", "large"]
    assert vargha_delaney_magnitude(a).tolist() == words


def test_cohen_thresholds():
    assert cohen_magnitude([0.0, 0.1999, 0.2, -0.5, 0.7999, -0.8, np.nan]).tolist() == [
        "negligible",
        "negligible",
        "small",
        "medium",
        "medium",
        "large",
        "",
    ]


# ------------------------------------------------------------------------------------ properties


small_tables = st.tuples(st.integers(1, 3), st.integers(2, 6), st.integers(0, 2**32 - 1)).map(
    lambda shape: np.random.default_rng(shape[2]).integers(0, 5, size=(2, *shape[:2])).astype(float)
)


@settings(max_examples=25, deadline=None)
@given(small_tables, st.booleans())
def test_swapping_a_and_b_mirrors_every_effect(values, paired):
    scores = table(values)
    ab = effect_sizes(scores, "m0", "m1", paired=paired, resamples=50, seed=3)
    ba = effect_sizes(scores, "m1", "m0", paired=paired, resamples=50, seed=3)
    np.testing.assert_allclose(ba.a12, 1 - ab.a12, atol=1e-12)
    np.testing.assert_allclose(ba.a12_low, 1 - ab.a12_high, atol=1e-12)
    np.testing.assert_allclose(ba.g, -ab.g, atol=1e-12)
    np.testing.assert_allclose(ba.g_low, -ab.g_high, atol=1e-9)
    assert ba.overall_a12 == pytest.approx(1 - ab.overall_a12, abs=1e-12)
    # lower is better: the same scores, the other way round
    lower = effect_sizes(table(values, direction="lower"), "m0", "m1", paired=paired, resamples=50, seed=3)
    np.testing.assert_allclose(lower.a12, ba.a12, atol=1e-12)
    np.testing.assert_allclose(lower.g, ba.g, atol=1e-12)
    # every interval covers its estimate
    for estimate, low, high in ((ab.a12, ab.a12_low, ab.a12_high), (ab.g, ab.g_low, ab.g_high)):
        shown = ~np.isnan(low)
        assert np.all(low[shown] <= estimate[shown] + 1e-12)
        assert np.all(estimate[shown] <= high[shown] + 1e-12)


def test_task_order_does_not_matter(uci_runs):
    frame = uci_runs.to_frame()
    shuffled = read_task_scores(frame.iloc[::-1], direction="higher")
    first = effect_sizes(uci_runs, "j48", "j48gr", paired=True)
    second = effect_sizes(shuffled, "j48", "j48gr", paired=True)
    order = [second.tasks.index(task) for task in first.tasks]
    np.testing.assert_allclose(second.a12[order], first.a12, atol=1e-15)
    np.testing.assert_allclose(second.g_high[order], first.g_high, atol=1e-12)
    assert tuple(second.overall_a12_ci) == pytest.approx(tuple(first.overall_a12_ci), abs=1e-12)
    assert second.overall_g == pytest.approx(first.overall_g, abs=1e-12)


# ------------------------------------------------------------------------------------ edge cases


def test_one_task():
    result = effect_sizes(table(np.array([[[3.0, 4.0, 5.0]], [[1.0, 2.0, 4.0]]])), "m0", "m1", resamples=50)
    assert result.a12[0] == pytest.approx((2 + 2.5 + 3) / 9)  # 3, 4 and 5 against 1, 2 and 4
    assert len(result.tasks) == 1 and result.overall_a12 == result.a12[0]


def test_all_ties():
    unpaired = effect_sizes(table(np.full((2, 3, 4), 0.25)), "m0", "m1", resamples=50, seed=0)
    assert unpaired.notes == ("no spread",) * 3 and "no spread on 3" in unpaired.verdict
    result = effect_sizes(table(np.full((2, 3, 4), 0.25)), "m0", "m1", paired=True)
    assert np.all(result.a12 == 0.5) and np.all(np.isnan(result.g))
    assert "cannot tell which is better" in result.verdict
    assert "Hedges' g is not defined on any task" in result.verdict


def test_one_run_is_too_little_data():
    result = effect_sizes(table(np.array([[[1.0], [2.0]], [[0.0], [3.0]]])), "m0", "m1", resamples=50)
    assert result.notes == ("too few runs", "too few runs")
    assert np.all(np.isnan(result.a12_low)) and np.all(np.isnan(result.g))
    assert np.isnan(result.overall_a12_ci.low)
    assert "there is no interval" in result.verdict and "nothing is decided" in result.verdict
    assert json.loads(json.dumps(result.to_dict()))["overall"]["a12_ci"] == [None, None]


def test_complete_separation_has_no_interval_and_says_who_always_wins():
    values = np.array([[[5.0, 6.0, 7.0], [1.0, 2.0, 3.0]], [[1.0, 2.0, 3.0], [1.5, 2.5, 3.5]]])
    result = effect_sizes(table(values), "m0", "m1", resamples=50, seed=0)
    assert result.notes[0] == "m0 always better" and np.isnan(result.a12_low[0])
    assert "m0 always better on 1" in result.verdict


def test_missing_runs():
    values = np.array([[[1.0, 2.0, np.nan], [3.0, 4.0, 5.0]], [[0.0, 2.0, 4.0], [1.0, 1.0, 9.0]]])
    result = effect_sizes(table(values), "m0", "m1", resamples=50, seed=0)
    assert result.runs_a.tolist() == [2, 3] and result.runs_b.tolist() == [3, 3]
    assert result.a12[0] == pytest.approx((1 + 1.5) / 6)  # 1 and 2 against 0, 2 and 4
    with pytest.raises(InputError, match="paired: the runs of 'm1' on task 't0'"):
        effect_sizes(table(values), "m0", "m1", paired=True)


def test_a_third_method_with_more_runs():
    """The array has room for m2's 4 runs; m0 and m1, with 3 each, are compared and resampled alone."""
    values = np.array([[[1.0, 2.0, 3.0, np.nan]], [[0.0, 2.0, 5.0, np.nan]], [[1.0, 1.0, 1.0, 1.0]]])
    for paired in (True, False):
        result = effect_sizes(table(values), "m0", "m1", paired=paired, resamples=50, seed=0)
        # paired: a win, a tie and a loss; all pairs: 1, 1.5 and 2 of 3 for the runs 1, 2 and 3 of m0
        assert result.a12[0] == pytest.approx(0.5)
        assert result.overall_a12_ci.low <= 0.5 <= result.overall_a12_ci.high


@pytest.mark.parametrize(
    ("a", "b", "kwargs", "message"),
    [
        ("SPR", "nope", {}, "b: expected one of the methods"),
        ("SPR", "SPR", {}, "b: expected a method other than a"),
        (1, "DER", {}, "a: expected one of the methods"),
        ("SPR", "DER", {"alpha": 0}, "alpha"),
        ("SPR", "DER", {"paired": 1}, "paired: expected None, True or False"),
    ],
)
def test_bad_arguments(atari_runs, a, b, kwargs, message):
    with pytest.raises(InputError, match=message):
        effect_sizes(atari_runs, a, b, **kwargs)


# ------------------------------------------------------------------------------------ the result


def test_result_explains_itself(spr_der):
    assert isinstance(spr_der, EffectSizeResult)
    text = str(spr_der)
    assert "Effect sizes of SPR against DER on 26 tasks" in text
    assert "Boxing          100, 100  1.000  -" in text and "SPR always better" in text
    verdict = spr_der.verdict
    assert "SPR is better, a medium effect by Vargha and Delaney's thresholds" in verdict
    assert "Task by task (A's interval): SPR better on 15; DER better on 2; cannot tell on 8" in verdict
    assert "overall_a12=0.6858" in repr(spr_der)
    frame = spr_der.to_frame()
    assert len(frame) == 26 and frame.loc[frame.task == "Boxing", "note"].item() == "SPR always better"
    plain = json.loads(json.dumps(spr_der.to_dict()))
    assert plain["overall"]["a12_size"] == "medium" and len(plain["tasks"]) == 26
    html = spr_der._repr_html_()
    assert "Over all tasks" in html and "Brunner &amp; Munzel 2000" in html


def test_too_few_runs_decide_nothing():
    few = effect_sizes(table(np.array([[[2.0, 3.0]] * 2, [[0.0, 1.0]] * 2])), "m0", "m1", resamples=200)
    assert "from only 4 runs of a method in all (fewer than 10)" in few.verdict
    assert "nothing is decided" in few.verdict and "m0 is better" not in few.verdict
