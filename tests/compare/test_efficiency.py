"""Sample-efficiency curves (benchtrust.compare.sample_efficiency; Agarwal et al. 2021, §4.3, Fig. 8)."""

import json

import numpy as np
import pytest
from scipy import stats
from typer.testing import CliRunner

from benchtrust import InputError, cli
from benchtrust.compare import (
    EfficiencyResult,
    aggregate,
    plot_sample_efficiency,
    read_task_scores,
    sample_efficiency,
    simulated_learning_curves,
)

#: Recorded from rliable 1.2.0 (benchmarks/RLIABLE_FACTS.md, "Sample efficiency"): after np.random.seed(2021),
#: get_interval_estimates(curves, lambda x: [aggregate_iqm(x[..., s]) for s in steps], reps=10000) on
#: simulated_learning_curves() (seed 0) as runs × tasks × steps arrays. Per method and step: (IQM, low, high).
RLIABLE_CURVES = {
    "A": ((0.221545, 0.177180, 0.276050), (0.331120, 0.266184, 0.401710), (0.386870, 0.331809, 0.457810),
          (0.508090, 0.449539, 0.569386), (0.547690, 0.487763, 0.627801), (0.588360, 0.520064, 0.655771)),
    "B": ((0.460865, 0.406874, 0.510775), (0.751305, 0.672584, 0.825101), (0.789710, 0.730419, 0.849142),
          (0.916840, 0.824809, 1.008970), (0.952980, 0.901445, 1.017116), (1.092315, 1.031400, 1.147586)),
    "C": ((0.693365, 0.638080, 0.770946), (1.069085, 0.990987, 1.146527), (1.350150, 1.287520, 1.416420),
          (1.272025, 1.202260, 1.346091), (1.332185, 1.264530, 1.401901), (1.391505, 1.322990, 1.460991)),
}  # fmt: skip
#: The same with task_bootstrap=True.
RLIABLE_CURVES_TASKS = {
    "A": ((0.221545, 0.111503, 0.359457), (0.331120, 0.189203, 0.497476), (0.386870, 0.278420, 0.542433),
          (0.508090, 0.351683, 0.721281), (0.547690, 0.351406, 0.799671), (0.588360, 0.388619, 0.884002)),
    "B": ((0.460865, 0.279247, 0.756016), (0.751305, 0.447514, 1.125798), (0.789710, 0.514810, 1.214305),
          (0.916840, 0.579599, 1.362591), (0.952980, 0.663346, 1.378062), (1.092315, 0.623783, 1.548840)),
    "C": ((0.693365, 0.417620, 0.942143), (1.069085, 0.592919, 1.395516), (1.350150, 0.728928, 1.728716),
          (1.272025, 0.710345, 1.762983), (1.332185, 0.740254, 1.821292), (1.391505, 0.775528, 1.820680)),
}  # fmt: skip
RESAMPLES = 2000
#: How much wider than the normal-theory Monte Carlo error (2.67 σ / sqrt(B), σ = width / 3.92) the error of
#: a percentile end is allowed to be: 1 for the run bootstrap, 2.5 for the task bootstrap, whose resampled
#: values are skewed and lumpy (26 or 8 task copies); on Atari the standard deviation of the ends over 8
#: seeds was at most 2.4 times the normal theory (benchmarks/RLIABLE_FACTS.md).
INFLATION = {False: 1.0, True: 2.5}


@pytest.fixture(scope="module")
def curves():
    return simulated_learning_curves()


@pytest.fixture(scope="module")
def result(curves):
    return sample_efficiency(curves, direction="higher", resamples=RESAMPLES, seed=0)


def close_to_rliable(ours, recorded, resamples, task_bootstrap):
    """Each end within 5 standard errors of the difference of two bootstraps (theirs: 10,000 resamples)."""
    for i, method in enumerate(ours.methods):
        for k, (point, low, high) in enumerate(recorded[method]):
            assert ours.value[i, k] == pytest.approx(point, abs=5e-7)
            sigma = (high - low) / 3.92
            tolerance = 5 * INFLATION[task_bootstrap] * 2.67 * sigma * np.sqrt(1 / resamples + 1 / 10_000)
            assert abs(ours.low[i, k] - low) <= tolerance, (method, k, ours.low[i, k], low)
            assert abs(ours.high[i, k] - high) <= tolerance, (method, k, ours.high[i, k], high)


def test_equals_rliable(result):
    close_to_rliable(result, RLIABLE_CURVES, RESAMPLES, False)


def test_task_bootstrap_equals_rliable(curves):
    ours = sample_efficiency(curves, direction="higher", resamples=RESAMPLES, seed=1, task_bootstrap=True)
    close_to_rliable(ours, RLIABLE_CURVES_TASKS, RESAMPLES, True)
    # resampling the tasks as well makes every interval wider than resampling the runs alone
    plain = sample_efficiency(curves, direction="higher", resamples=RESAMPLES, seed=1)
    assert ((ours.high - ours.low) > (plain.high - plain.low)).all()


def test_each_step_is_the_aggregate_of_its_scores(curves, result):
    """From first principles: the IQM at a step is scipy's 25% trimmed mean of every run on every task."""
    for k, step in enumerate(result.steps):
        rows = curves[curves.step == step]
        for i, method in enumerate(result.methods):
            pooled = rows.loc[rows.method == method, "score"].to_numpy()
            assert result.value[i, k] == pytest.approx(stats.trim_mean(pooled, 0.25), abs=1e-12)
    last = curves[curves.step == result.steps[-1]]
    alone = aggregate(read_task_scores(last, direction="higher"), resamples=0)
    np.testing.assert_allclose(result.value[:, -1], alone.iqm, atol=1e-12)


@pytest.mark.parametrize("estimate", ["mean", "median", "optimality_gap"])
def test_other_estimates(curves, estimate):
    curves_ = sample_efficiency(curves, direction="higher", estimate=estimate, gamma=1.0, resamples=0)
    last = aggregate(
        read_task_scores(curves[curves.step == 600_000], direction="higher"), gamma=1.0, resamples=0
    )
    np.testing.assert_allclose(curves_.value[:, -1], getattr(last, estimate), atol=1e-12)
    assert np.isnan(curves_.low).all()
    assert "point estimates" in curves_.verdict
    assert curves_.better == ("lower" if estimate == "optimality_gap" else "higher")


def test_verdict_outputs_and_plot(result):
    assert isinstance(result, EfficiencyResult)
    assert result.steps.tolist() == [100_000 * s for s in range(1, 7)]
    assert result.verdict.startswith("C leads on the IQM of the scores at the last step (600000): 1.392")
    assert "apart at 6 of the 6 steps (the last included)" in result.verdict
    frame = result.to_frame()
    assert list(frame.columns) == ["method", "step", "iqm", "low", "high"]
    assert len(frame) == 3 * 6
    data = json.loads(json.dumps(result.to_dict()))
    assert data["estimate"] == "iqm" and data["task_bootstrap"] is False and len(data["methods"]) == 3
    assert "step    method  IQM [95% interval]" in str(result)
    ax = plot_sample_efficiency(result)
    assert ax.get_xlabel() == "step" and len(ax.get_lines()) == 3


def test_seed_reproduces_and_direction_flips(curves, result):
    again = sample_efficiency(curves, direction="higher", resamples=RESAMPLES, seed=0)
    np.testing.assert_array_equal(again.low, result.low)
    flipped = curves.assign(score=-curves.score)
    lower = sample_efficiency(flipped, direction="lower", resamples=RESAMPLES, seed=0)
    np.testing.assert_allclose(lower.value, -result.value, atol=1e-12)
    np.testing.assert_allclose(lower.low, -result.high, atol=1e-12)
    assert lower.verdict.split(":")[0] == result.verdict.split(":")[0]


def test_generator_is_seeded(curves):
    assert curves.equals(simulated_learning_curves(seed=0))
    assert not curves.equals(simulated_learning_curves(seed=1))
    small = simulated_learning_curves(methods=2, tasks=3, runs=4, steps=5)
    assert small.shape == (2 * 3 * 4 * 5, 5)


def test_errors(curves):
    with pytest.raises(
        InputError, match=r"method 'A' on task 'task01' has a run without a score at some step"
    ):
        sample_efficiency(curves.iloc[1:], direction="higher")
    with pytest.raises(InputError, match=r"column 'step': expected numbers .* got 'late'"):
        sample_efficiency(curves.assign(step=curves.step.astype(str).where(curves.step > 100_000, "late")),
                          direction="higher")  # fmt: skip
    with pytest.raises(InputError, match="estimate: expected one of mean, median, iqm, optimality_gap"):
        sample_efficiency(curves, direction="higher", estimate="max")
    with pytest.raises(InputError, match="no column 'frames'"):
        sample_efficiency(curves, direction="higher", step_column="frames")


def test_cli(tmp_path, curves):
    path = tmp_path / "curves.csv"
    curves.to_csv(path, index=False)
    runner = CliRunner()
    done = runner.invoke(
        cli.app,
        ["compare", "efficiency", str(path), "--direction", "higher", "--resamples", "200", "--quiet",
         "--json", "--task-bootstrap", "--plot", str(tmp_path / "curves.png")],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["task_bootstrap"] is True and data["resamples"] == 200
    assert (tmp_path / "curves.png").stat().st_size > 0
