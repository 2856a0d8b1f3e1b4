"""The task bootstrap of every interval over many tasks (rliable's ``task_bootstrap=True``) and the two kinds
of performance profile (score distributions, average-score distributions); Agarwal et al. 2021, §4.1-4.2."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust.compare import aggregate, improvement_probabilities, performance_profile, read_task_scores
from benchtrust.compare._tasks._aggregate import bootstrap_chunks

#: Recorded from rliable 1.2.0 (benchmarks/RLIABLE_FACTS.md, "Task bootstrap"): after np.random.seed(2021),
#: get_interval_estimates(score_dict, mean/median/IQM/optimality gap, reps=10000, task_bootstrap=True) on the
#: human-normalised Atari 100k runs. Per agent: (low, high) of mean, median, IQM and optimality gap.
RLIABLE_TASKS = {
    "DER": ((0.203022, 0.524384), (0.116936, 0.267834), (0.113858, 0.361785), (0.568960, 0.810062)),
    "DrQ": ((0.210904, 0.578066), (0.097970, 0.448706), (0.116585, 0.368704), (0.578486, 0.794827)),
    "DrQ(eps)": ((0.276904, 0.700692), (0.137124, 0.516426), (0.148564, 0.463032), (0.510388, 0.746096)),
    "OTRainbow": ((0.111904, 0.377972), (0.054818, 0.206877), (0.065271, 0.180470), (0.731413, 0.888421)),
    "SPR": ((0.374637, 0.898332), (0.159954, 0.663487), (0.172778, 0.599721), (0.447081, 0.703719)),
    "SimPLe": ((0.175908, 0.530400), (0.044477, 0.405583), (0.051915, 0.311265), (0.604738, 0.837903)),
    "CURL": ((0.132939, 0.408105), (0.058927, 0.220870), (0.060854, 0.228569), (0.653016, 0.873257)),
}
#: create_performance_profile(score_dict, [0, 0.5, 1, 2, 4], reps=2000, ...) after np.random.seed(2021), for
#: SPR and SimPLe: (profile, low, high) at each τ, for use_score_distribution=False ("tasks"), and for the
#: score distribution ("runs") and "tasks" with task_bootstrap=True.
TAUS = [0.0, 0.5, 1.0, 2.0, 4.0]
RLIABLE_PROFILES = {
    ("tasks", False): {
        "SPR": ((1, 1, 1), (0.423077, 0.423077, 0.461538), (0.230769, 0.192308, 0.269231),
                (0.038462, 0.038462, 0.076923), (0, 0, 0)),
        "SimPLe": ((0.961538, 0.923077, 1), (0.346154, 0.192308, 0.346154), (0.038462, 0.038462, 0.115385),
                   (0.038462, 0, 0.038462), (0, 0, 0)),
    },
    ("runs", True): {
        "SPR": ((0.968462, 0.924231, 0.998471), (0.376154, 0.225375, 0.528894),
                (0.214231, 0.097683, 0.349625), (0.071538, 0.013837, 0.147712), (0.008846, 0, 0.026163)),
        "SimPLe": ((0.907692, 0.823077, 0.969231), (0.238462, 0.115385, 0.376923),
                   (0.115385, 0.023077, 0.230769), (0.015385, 0, 0.053846), (0, 0, 0)),
    },
    ("tasks", True): {
        "SPR": ((1, 1, 1), (0.423077, 0.230769, 0.615385), (0.230769, 0.076923, 0.384615),
                (0.038462, 0, 0.153846), (0, 0, 0)),
        "SimPLe": ((0.961538, 0.884615, 1), (0.346154, 0.115385, 0.461538), (0.038462, 0, 0.153846),
                   (0.038462, 0, 0.076923), (0, 0, 0)),
    },
}  # fmt: skip
#: StratifiedBootstrap(x, y, task_bootstrap=True).conf_int(probability_of_improvement, reps=2000,
#: method="percentile") after np.random.seed(2021) (get_interval_estimates ignores task_bootstrap for pairs):
#: (P(X > Y), low, high).
IMPROVEMENT_RESAMPLES = 2000
RLIABLE_IMPROVEMENT = {
    ("SPR", "DER"): (0.685840, 0.600279, 0.769612),
    ("SPR", "DrQ(eps)"): (0.617012, 0.527639, 0.699027),
}
RESAMPLES = 1000
#: The task bootstrap's resampled values are skewed and lumpy (26 task copies): on Atari the standard
#: deviation of an interval end over 8 seeds was at most 2.4 times the normal-theory Monte Carlo error
#: 2.67 σ / sqrt(B), σ = width / 3.92 (benchmarks/RLIABLE_FACTS.md); the tolerance is 5 of those
#: inflated errors of the difference of two bootstraps, plus one step 1/26 of a fraction of tasks.
INFLATION = 2.5


def tolerance(low, high, ours, theirs, step=0.0):
    sigma = (high - low) / 3.92
    return 5 * INFLATION * 2.67 * sigma * np.sqrt(1 / ours + 1 / theirs) + step


def test_chunks_draw_tasks_then_runs():
    runs = np.array([3, 3, 3, 3])
    counts, copies, copy_counts = next(
        bootstrap_chunks(runs, 4000, np.random.default_rng(0), task_bootstrap=True)
    )
    assert copies.shape == (4000, 4) and copy_counts.shape == counts.shape == (4000, 4, 3)
    # every copy draws its task's runs; the pooled counts are the copies' counts added up per task
    assert (copy_counts.sum(axis=2) == 3).all()
    assert (counts.sum(axis=2) == 3 * np.stack([(copies == t).sum(axis=1) for t in range(4)], axis=1)).all()
    # a task is drawn once per resample on average, every run of a copy with probability 1/3
    assert abs((copies == 0).mean() - 1 / 4) < 0.01
    assert abs(copy_counts.mean() - 1) < 0.02
    plain = next(bootstrap_chunks(runs, 10, np.random.default_rng(0)))
    assert plain[1] is None and plain[0] is plain[2]


def test_aggregate_equals_rliable(atari_runs):
    result = aggregate(atari_runs, resamples=RESAMPLES, seed=7, task_bootstrap=True)
    assert result.task_bootstrap and "task bootstrap" in str(result)
    for i, method in enumerate(result.methods):
        for key, (low, high) in zip(
            ("mean", "median", "iqm", "optimality_gap"), RLIABLE_TASKS[method], strict=True
        ):
            ci = getattr(result, f"{key}_ci")
            limit = tolerance(low, high, RESAMPLES, 10_000)
            assert abs(ci.low[i] - low) <= limit, (method, key, ci.low[i], low)
            assert abs(ci.high[i] - high) <= limit, (method, key, ci.high[i], high)
    plain = aggregate(atari_runs, resamples=RESAMPLES, seed=7)
    np.testing.assert_array_equal(result.iqm, plain.iqm)  # the points do not depend on the resampling
    assert ((result.iqm_ci.high - result.iqm_ci.low) > 3 * (plain.iqm_ci.high - plain.iqm_ci.low)).all()


@pytest.mark.parametrize(("kind", "task_bootstrap"), list(RLIABLE_PROFILES))
def test_profiles_equal_rliable(atari_runs, kind, task_bootstrap):
    result = performance_profile(
        atari_runs, thresholds=TAUS, kind=kind, resamples=RESAMPLES, seed=3, task_bootstrap=task_bootstrap
    )
    step = 1 / 26 if kind == "tasks" else 1 / 2600
    for method, recorded in RLIABLE_PROFILES[(kind, task_bootstrap)].items():
        i = result.methods.index(method)
        for k, (point, low, high) in enumerate(recorded):
            assert result.fraction[i, k] == pytest.approx(point, abs=5e-7)
            limit = tolerance(low, high, RESAMPLES, 2000, step)
            assert abs(result.low[i, k] - low) <= limit, (method, k, result.low[i, k], low)
            assert abs(result.high[i, k] - high) <= limit, (method, k, result.high[i, k], high)


def test_average_score_profile_from_first_principles(atari_runs):
    result = performance_profile(atari_runs, thresholds=TAUS, kind="tasks", resamples=0)
    means = np.nanmean(atari_runs.scores, axis=2)
    np.testing.assert_allclose(result.fraction, (means[:, :, None] > np.array(TAUS)).mean(axis=1))
    assert result.kind == "tasks" and "fraction of tasks' mean scores with score > τ" in str(result)
    lower = read_task_scores(
        pd.DataFrame({"method": ["a", "a", "a", "a"], "task": ["x", "x", "y", "y"], "run": [1, 2, 1, 2],
                      "score": [1.0, 3.0, 5.0, 5.0]}),
        direction="lower",
    )  # fmt: skip
    # task means 2 and 5: below 2.5 on one task of the two, below 6 on both
    assert performance_profile(lower, thresholds=[2.5, 6], kind="tasks", resamples=0).fraction.tolist() == [
        [0.5, 1.0]
    ]


def methods_of(scores, names):
    """The table of `names` alone (fewer pairs: a faster test)."""
    keep = [scores.methods.index(name) for name in names]
    arrays = {key: getattr(scores, key)[keep] for key in ("scores", "raw_scores", "run_labels")}
    return dataclasses.replace(scores, methods=tuple(names), **arrays)


def test_improvement_task_bootstrap(atari_runs, uci_runs):
    atari = methods_of(atari_runs, ["SPR", "DER", "DrQ(eps)"])
    result = improvement_probabilities(atari, resamples=RESAMPLES, seed=5, task_bootstrap=True)
    plain = improvement_probabilities(atari, resamples=RESAMPLES, seed=5)
    np.testing.assert_allclose(result.probability, plain.probability, atol=1e-12)
    width, narrow = result.high - result.low, plain.high - plain.low
    off = ~np.eye(len(result.methods), dtype=bool)
    assert (width[off] > 2 * narrow[off]).all()
    assert "the tasks redrawn (task bootstrap)" in " ".join(str(result).split())
    assert result.to_dict()["task_bootstrap"] is True
    for pair, (point, low, high) in RLIABLE_IMPROVEMENT.items():
        i, j = (result.methods.index(name) for name in pair)
        assert result.probability[i, j] == pytest.approx(point, abs=5e-7)
        limit = tolerance(low, high, RESAMPLES, IMPROVEMENT_RESAMPLES)
        assert abs(result.low[i, j] - low) <= limit, (pair, result.low[i, j], low)
        assert abs(result.high[i, j] - high) <= limit, (pair, result.high[i, j], high)
    uci = methods_of(uci_runs, ["nbc", "aode", "hnb"])
    paired = improvement_probabilities(uci, paired=True, resamples=RESAMPLES, seed=5, task_bootstrap=True)
    exact = improvement_probabilities(uci, paired=True)
    off = ~np.eye(3, dtype=bool)
    np.testing.assert_allclose(paired.probability, exact.probability, atol=1e-12)
    assert (paired.low[off] < exact.low[off]).all() and (paired.high[off] > exact.high[off]).all()


def test_task_bootstrap_needs_the_same_runs_on_every_task(atari_runs):
    frame = pd.DataFrame({"method": ["a", "a", "a", "b", "b"], "task": ["x", "x", "y", "x", "y"],
                          "run": [1, 2, 1, 1, 1], "score": [0.1, 0.2, 0.3, 0.4, 0.5]})  # fmt: skip
    scores = read_task_scores(frame, direction="higher")
    for function in (aggregate, performance_profile, improvement_probabilities):
        with pytest.raises(InputError, match=r"task_bootstrap: method 'a' has 1 runs on task 'y' and 2 on"):
            function(scores, resamples=100, task_bootstrap=True)
    with pytest.raises(InputError, match="task_bootstrap: expected True or False"):
        aggregate(atari_runs, task_bootstrap="yes")
    with pytest.raises(InputError, match="kind: expected 'runs'"):
        performance_profile(atari_runs, kind="games")


def test_one_run_per_task_has_an_interval_with_the_task_bootstrap():
    frame = pd.DataFrame({"method": ["a"] * 4 + ["b"] * 4, "task": list("wxyz") * 2, "run": 1,
                          "score": [0.1, 0.5, 0.3, 0.9, 0.2, 0.4, 0.6, 0.8]})  # fmt: skip
    scores = read_task_scores(frame, direction="higher")
    plain = aggregate(scores, resamples=200, seed=0)
    tasks = aggregate(scores, resamples=200, seed=0, task_bootstrap=True)
    assert (plain.mean_ci.low == plain.mean).all() and plain.single_run.all()
    assert (tasks.mean_ci.low < tasks.mean).all() and not tasks.single_run.any()
