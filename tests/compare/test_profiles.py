"""Performance profiles with stratified bootstrap bands (benchtrust.compare performance_profile; Agarwal
et al. 2021, §4.1-4.2)."""

import json

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust._words import TIMES
from benchtrust.compare import bundled_results, read_task_scores
from benchtrust.compare._tasks._profiles import ProfileResult, performance_profile, plot_performance_profile

ATARI = {"direction": "higher", "method_column": "algorithm", "task_column": "game"}
THRESHOLDS = (0.0, 0.5, 1.0, 2.0, 4.0)
#: Recorded from rliable 1.2.0 (arch 7.2.0), see benchmarks/RLIABLE_FACTS.md: create_performance_profile(
#: score_dict, tau_list=np.linspace(0, 8, 81), reps=10000) on the human-normalised Atari 100k runs, after
#: np.random.seed(2021); per agent, (fraction, low, high) at τ = 0, 0.5, 1, 2 and 4.
RLIABLE_PROFILE = {
    "DER": ((0.956538, 0.950000, 0.963077), (0.236154, 0.230000, 0.242692), (0.097692, 0.091538, 0.103846),
            (0.010385, 0.006923, 0.014231), (0.000000, 0.000000, 0.000000)),
    "DrQ": ((0.954615, 0.948462, 0.960769), (0.240385, 0.230769, 0.250000), (0.066923, 0.062692, 0.071154),
            (0.028846, 0.025385, 0.031923), (0.001154, 0.000000, 0.002692)),
    "DrQ(eps)": ((0.943462, 0.936538, 0.950000), (0.333077, 0.322692, 0.343846),
                 (0.119231, 0.112692, 0.125769), (0.040769, 0.036538, 0.045000),
                 (0.000769, 0.000000, 0.001923)),
    "OTRainbow": ((0.953846, 0.946923, 0.960385), (0.076923, 0.071154, 0.082692),
                  (0.039615, 0.038462, 0.041154), (0.015769, 0.012308, 0.019615),
                  (0.000000, 0.000000, 0.000000)),
    "SPR": ((0.968462, 0.962692, 0.973846), (0.376154, 0.365000, 0.387308), (0.214231, 0.205000, 0.223462),
            (0.071538, 0.064231, 0.078846), (0.008846, 0.005769, 0.012308)),
    "SimPLe": ((0.907692, 0.869231, 0.946154), (0.238462, 0.192308, 0.284615), (0.115385, 0.084615, 0.146154),
               (0.015385, 0.000000, 0.030769), (0.000000, 0.000000, 0.000000)),
    "CURL": ((0.900769, 0.891923, 0.909615), (0.179231, 0.171538, 0.187308), (0.066923, 0.060000, 0.073846),
             (0.005769, 0.003077, 0.008846), (0.000000, 0.000000, 0.000000)),
}  # fmt: skip
RESAMPLES = 2000
SEED = 2021


@pytest.fixture(scope="module")
def atari_frame():
    return pd.read_csv(bundled_results("atari100k"))


@pytest.fixture(scope="module")
def reference():
    return pd.read_csv(bundled_results("atari_reference"))


@pytest.fixture(scope="module")
def atari(atari_runs):
    return performance_profile(atari_runs, thresholds=THRESHOLDS, resamples=RESAMPLES, seed=SEED)


def small(scores, runs=None, methods=("A", "B"), tasks=("x", "y")):
    """A long table of `scores`, (methods, tasks, runs) nested lists."""
    rows = [
        (m, t, k, value)
        for m, by_task in zip(methods, scores, strict=True)
        for t, values in zip(tasks, by_task, strict=True)
        for k, value in enumerate(values)
    ]
    return pd.DataFrame(rows, columns=["method", "task", "run", "score"])


def test_atari_matches_rliable(atari):
    """The fractions exactly (to the recorded 6 decimals); the band ends within resampling error: 5
    standard errors of the difference of two bootstraps' 2.5% (97.5%) quantiles, 5 × 2.67 σ
    sqrt(1/2000 + 1/10000) with σ = width / 3.92, plus one lattice step 1/(26 × runs) of a fraction."""
    np.testing.assert_array_equal(atari.thresholds, THRESHOLDS)
    for method, recorded in RLIABLE_PROFILE.items():
        i = atari.methods.index(method)
        step = 1 / (26 * (5 if method == "SimPLe" else 100))
        for k, (fraction, low, high) in enumerate(recorded):
            assert atari.fraction[i, k] == pytest.approx(fraction, abs=5e-7), (method, k)
            tolerance = 5 * 2.67 * (high - low) / 3.92 * np.sqrt(1 / RESAMPLES + 1 / 10_000) + step
            assert abs(atari.low[i, k] - low) <= tolerance, (method, k, atari.low[i, k], low)
            assert abs(atari.high[i, k] - high) <= tolerance, (method, k, atari.high[i, k], high)


def test_atari_from_first_principles(atari, atari_frame, reference):
    ref = reference.set_index("game")
    x = (atari_frame.score - atari_frame.game.map(ref.random)) / (
        atari_frame.game.map(ref.human) - atari_frame.game.map(ref.random)
    )
    frame = atari_frame.assign(x=x)
    for k, tau in enumerate(THRESHOLDS):
        per_task = frame.assign(above=frame.x > tau).groupby(["algorithm", "game"]).above.mean()
        expected = per_task.groupby("algorithm").mean()
        for method, value in expected.items():
            assert atari.fraction[atari.methods.index(method), k] == pytest.approx(value, abs=1e-12)


def test_atari_bands_cover_the_profile_and_it_falls(atari):
    assert (atari.low <= atari.fraction).all() and (atari.fraction <= atari.high).all()
    assert (np.diff(atari.fraction, axis=1) <= 0).all()  # more runs above a lower threshold
    assert atari.on_top == ("SPR",)
    assert atari.verdict.startswith("SPR's profile is never below another method's at the 5 thresholds")
    assert "The bands of SPR and DrQ(eps)" in atari.verdict and "of the 5 thresholds" in atari.verdict


def test_atari_outputs(atari):
    frame = atari.to_frame()
    assert list(frame.columns) == ["method", "threshold", "fraction", "low", "high"]
    assert len(frame) == 7 * 5 and frame.threshold.tolist()[:5] == list(THRESHOLDS)
    data = json.loads(json.dumps(atari.to_dict()))
    assert data["thresholds"] == list(THRESHOLDS) and data["on_top"] == ["SPR"]
    assert (data["resamples"], data["seed"]) == (RESAMPLES, SEED)
    assert repr(atari) == (
        "ProfileResult(methods=7, tasks=26, thresholds=5, direction='higher', normalisation='reference', "
        "resamples=2000)"
    )
    text = str(atari)
    assert "fraction of runs with score > τ" in text and "95% band" in text
    assert " ".join(text.split()).endswith(" ".join(atari.verdict.split()))
    html = atari._repr_html_()
    assert "<svg" in html and "SPR&#39;s profile is never below" in html


def test_plot_labels_in_words(atari):
    ax = plot_performance_profile(atari)
    assert ax.get_ylabel() == "fraction of runs with score > τ"
    assert ax.get_xlabel() == "threshold τ (human-normalised scores; higher is better)"
    assert ax.get_legend().get_texts()[0].get_text() == "SPR"
    assert len(ax.collections) == 7  # one band per method
    with pytest.raises(InputError, match="result: expected ProfileResult"):
        plot_performance_profile("profile")


def test_direction_flip_mirrors_the_profile(atari_frame):
    higher = performance_profile(
        read_task_scores(atari_frame, normalise="minmax", **ATARI),
        thresholds=[0.1, 0.5],
        resamples=200,
        seed=4,
    )
    negated = atari_frame.assign(score=-atari_frame.score)
    scores = read_task_scores(negated, normalise="minmax", **{**ATARI, "direction": "lower"})
    lower = performance_profile(scores, thresholds=[0.9, 0.5], resamples=200, seed=4)  # min-max: 1 - x
    np.testing.assert_array_equal(lower.thresholds, [0.5, 0.9])
    np.testing.assert_allclose(lower.fraction[:, ::-1], higher.fraction, atol=1e-15)
    np.testing.assert_allclose(lower.low[:, ::-1], higher.low, atol=1e-15)
    np.testing.assert_allclose(lower.high[:, ::-1], higher.high, atol=1e-15)
    assert plot_performance_profile(lower).get_ylabel() == "fraction of runs with score < τ"


def test_task_method_and_row_order_do_not_matter(atari_frame, reference, atari):
    reordered = atari_frame.sample(frac=1.0, random_state=3)
    reordered = reordered.assign(rank=reordered.algorithm.map({m: -i for i, m in enumerate(atari.methods)}))
    reordered = reordered.sort_values("rank", kind="stable").drop(columns="rank")
    scores = read_task_scores(reordered, normalise="reference", reference=reference, **ATARI)
    assert scores.methods != atari.methods
    again = performance_profile(scores, thresholds=THRESHOLDS[::-1], resamples=RESAMPLES, seed=SEED)
    for method in atari.methods:
        i, j = atari.methods.index(method), again.methods.index(method)
        for field in ("fraction", "low", "high"):
            np.testing.assert_allclose(getattr(again, field)[j], getattr(atari, field)[i], atol=1e-15)


def test_strictly_better_than_the_threshold():
    """A run equal to τ is not above it (rliable: score > tau), nor below it for "lower"."""
    frame = small([[[1.0, 2.0], [2.0, 3.0]], [[2.0, 2.0], [0.0, 5.0]]])
    higher = performance_profile(read_task_scores(frame, direction="higher"), thresholds=[2.0], resamples=0)
    assert higher.fraction[:, 0].tolist() == [0.25, 0.25]  # (0/2 + 1/2) / 2 and (0/2 + 1/2) / 2
    lower = performance_profile(read_task_scores(frame, direction="lower"), thresholds=[2.0], resamples=0)
    assert lower.fraction[:, 0].tolist() == [0.25, 0.25]  # (1/2 + 0/2) / 2 and (0/2 + 1/2) / 2
    assert np.isnan(higher.low).all() and "resamples=0" in higher.verdict
    assert higher.verdict.startswith("All 2 profiles are equal")


def test_missing_runs_weigh_every_task_the_same():
    frame = small([[[0.0, 1.0, 1.0, 1.0], [0.0]], [[1.0], [1.0]]])
    scores = read_task_scores(frame, direction="higher")
    result = performance_profile(scores, thresholds=[0.5], resamples=300, seed=0)
    assert result.fraction[:, 0].tolist() == [0.375, 1.0]  # A: (3/4 + 0/1) / 2, not 3/5 of its runs
    assert result.missing == 1 and f"1 method {TIMES} task pairs have missing runs" in result.verdict
    assert 0 <= result.low[0, 0] <= 0.375 <= result.high[0, 0] <= 0.5  # task y's one run never varies
    assert result.single_run.tolist() == [False, True]
    assert (result.low[1] == result.fraction[1]).all() and (result.high[1] == result.fraction[1]).all()
    assert "B has one run per task: the stratified bootstrap has nothing to resample" in result.verdict


def test_one_task_and_crossing_profiles():
    frame = pd.DataFrame(
        {
            "method": ["A"] * 4 + ["B"] * 4,
            "task": "only",
            "run": [1, 2, 3, 4] * 2,
            "score": [0, 0, 9, 9, 4, 4, 4, 5],
        }
    )
    result = performance_profile(
        read_task_scores(frame, direction="higher"), thresholds=[1, 4.5, 8], resamples=200
    )
    assert result.tasks == 1 and result.on_top == ()
    assert result.verdict.startswith("The profiles cross at the 3 thresholds from 1 to 8")
    assert (result.low <= result.fraction).all() and (result.fraction <= result.high).all()


def test_one_method_and_default_thresholds(atari_runs):
    frame = pd.DataFrame({"method": "A", "task": ["x", "y"], "run": 1, "score": [1.0, 3.0]})
    result = performance_profile(read_task_scores(frame, direction="higher"), resamples=50, seed=0)
    assert result.thresholds.size == 101 and result.thresholds[[0, -1]].tolist() == [1.0, 3.0]
    assert result.verdict.startswith("One method, A: the fraction of its runs with score > τ goes from 0.5")
    assert isinstance(result, ProfileResult)


def test_errors(atari_runs):
    with pytest.raises(InputError, match=r"thresholds: expected finite numbers"):
        performance_profile(atari_runs, thresholds=[0.0, np.inf])
    with pytest.raises(InputError, match=r"thresholds: expected finite numbers"):
        performance_profile(atari_runs, thresholds=["low"])
    with pytest.raises(InputError, match=r"thresholds: expected finite numbers"):
        performance_profile(atari_runs, thresholds=[])
    with pytest.raises(InputError, match=r"scores: expected TaskScores"):
        performance_profile(pd.DataFrame({"score": [1.0]}))
    with pytest.raises(InputError, match=r"resamples: expected a whole number >= 0, got 2.5"):
        performance_profile(atari_runs, resamples=2.5)


def test_progress_is_reported(atari_runs):
    calls = []
    performance_profile(
        atari_runs, thresholds=[1.0], resamples=300, seed=0, progress=lambda *a: calls.append(a)
    )
    assert calls[-1] == (300, 300) and len(calls) >= 2
