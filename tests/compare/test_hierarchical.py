"""The Bayesian hierarchical test (benchtrust.compare.hierarchical_test; Corani et al. 2017)."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from benchtrust import InputError
from benchtrust.compare import hierarchical_test, plot_hierarchical, read_task_scores
from benchtrust.compare._tasks._hierarchical import _model_data, _slice, _truncated_gamma, _truncated_normal

# Few draws: a test costs about a second. The probabilities' Monte Carlo standard errors are the result's.
FAST = {"samples": 2_000, "chains": 50, "burn_in": 150, "seed": 1}


def _table(differences, direction="higher"):
    """Scores of a and b on each task: b = 0, a = the task's differences (runs × folds)."""
    rows = [
        (method, f"t{j}", run, value if method == "a" else 0.0)
        for j, d in enumerate(differences)
        for run, value in enumerate(d)
        for method in ("a", "b")
    ]
    frame = pd.DataFrame(rows, columns=["method", "task", "run", "score"])
    return read_task_scores(frame, direction=direction)


def test_the_truncated_draws_follow_their_distributions():
    rng = np.random.default_rng(0)
    shape, rate = np.full(20_000, 2.5), np.full(20_000, 1.5)
    draws = _truncated_gamma(rng, shape, rate, 0.5, 3.0)
    assert draws.min() >= 0.5 and draws.max() <= 3.0
    lo, hi = stats.gamma.cdf([0.5, 3.0], 2.5, scale=1 / 1.5)
    truncated = stats.gamma(2.5, scale=1 / 1.5)
    assert stats.kstest(draws, lambda x: (truncated.cdf(x) - lo) / (hi - lo)).pvalue > 1e-3
    normal = _truncated_normal(rng, np.full(20_000, 1.5), np.full(20_000, 0.8), 1.0)
    assert stats.kstest(normal, stats.truncnorm(-3.125, -0.625, loc=1.5, scale=0.8).cdf).pvalue > 1e-3


def test_the_slice_sampler_keeps_its_target():
    # Gamma(3, 2) on log scale: density of u = log x is x³ e^{-2x}
    rng = np.random.default_rng(0)
    x = np.zeros(4000)
    samples = []
    for _ in range(60):
        x = _slice(rng, lambda u: 3 * u - 2 * np.exp(u), x, width=1.0)
        samples.append(np.exp(x))
    kept = np.concatenate(samples[10:])
    assert abs(kept.mean() - 1.5) < 0.02  # the mean 3/2; its standard error here is under 0.005
    bounded = np.full(4000, 1.5)
    for _ in range(30):
        bounded = _slice(rng, lambda a: -((a - 1.2) ** 2) / 0.02, bounded, 1.0, 2.0)
    assert abs(bounded.mean() - 1.2) < 0.01 and bounded.min() >= 1.0


def _clear_difference():
    """12 tasks of 4 x 5-fold cross-validation; a beats b by about 3 (task spread 1, fold spread 0.5)."""
    rng = np.random.default_rng(2)
    return [3.0 + rng.normal(0, 1.0) + rng.normal(0, 0.5, 20) for _ in range(12)]


# Recorded from baycomp 1.0.3 (pystan 3.10), benchmarks/BAYCOMP_FACTS.md: HierarchicalTest.sample(x=a, y=b,
# rope=0.5, runs=4, nsamples=2000, random_state=1) on _clear_difference(): 8,000 draws (4 chains), the mean
# of each column (p_left = a better, p_rope, p_right), and the share of draws where each is the largest.
BAYCOMP_CLEAR_MEAN = (0.9519526670228308, 0.030006262911301502, 0.0180410700658693)
BAYCOMP_CLEAR_LARGEST = (1.0, 0.0, 0.0)


def test_a_clear_difference_is_found_as_baycomp_finds_it():
    result = hierarchical_test(_table(_clear_difference()), "a", "b", rope=0.5, folds=5, **FAST)
    np.testing.assert_array_equal(result.probabilities, BAYCOMP_CLEAR_LARGEST)
    assert result.decision == "a_better"
    # the posterior means of the next task's three probabilities: within 4 standard errors of the
    # difference (ours from the spread of the 50 chains, about 0.0013; baycomp's about 0.0005)
    per_chain = result.posterior.reshape(-1, result.chains, 3).mean(axis=0)
    ours = per_chain.std(axis=0, ddof=1) / np.sqrt(result.chains)
    assert np.all(np.abs(result.posterior_mean - BAYCOMP_CLEAR_MEAN) < 4 * np.hypot(ours, 0.0005))
    assert result.decisions.count("a_better") >= 10
    # shrinkage: the δ_i spread less than the tasks' means
    assert np.std(result.shrunk) < np.std(result.mean)


def test_the_answer_does_not_depend_on_the_unit_of_the_scores():
    # baycomp gave the same means on the data x 10 with rope 5 (benchmarks/BAYCOMP_FACTS.md)
    one = hierarchical_test(_table(_clear_difference()), "a", "b", rope=0.5, folds=5, **FAST)
    ten = hierarchical_test(_table([10 * d for d in _clear_difference()]), "a", "b", rope=5, folds=5, **FAST)
    np.testing.assert_allclose(ten.posterior, one.posterior, atol=1e-9)
    np.testing.assert_allclose(ten.shrunk, 10 * one.shrunk, rtol=1e-9)


def test_equal_methods_are_practically_equivalent_and_the_direction_is_respected():
    rng = np.random.default_rng(3)
    differences = [rng.normal(0, 0.1, 20) for _ in range(10)]
    higher = hierarchical_test(_table(differences), "a", "b", rope=1, folds=5, **FAST)
    assert higher.decision == "equivalent"
    flipped = [-d for d in differences]
    lower = hierarchical_test(_table(flipped, "lower"), "a", "b", rope=1, folds=5, **FAST)
    np.testing.assert_array_equal(lower.probabilities, higher.probabilities)
    np.testing.assert_array_equal(lower.shrunk, higher.shrunk)


def test_nothing_to_fit_and_bad_arguments_are_refused():
    with pytest.raises(InputError, match="every difference is the same"):
        hierarchical_test(_table([np.zeros(10), np.zeros(10)]), "a", "b", folds=5)
    with pytest.raises(InputError, match="folds"):
        hierarchical_test(_table([np.ones(10)]), "a", "b")
    with pytest.raises(InputError, match="samples"):
        hierarchical_test(_table([np.arange(10.0)]), "a", "b", folds=5, samples=10)


def test_the_result_describes_itself_and_plots(uci_runs):
    result = hierarchical_test(uci_runs, "nbc", "aode", rope=1, folds=10, samples=500, chains=50, seed=0)
    data = result.to_dict()
    assert data["test"] == "hierarchical" and len(data["tasks"]) == 54
    assert "P(aode better)" in str(result) and "next task" in str(result)
    assert result.to_frame().shape[0] == 54
    ax = plot_hierarchical(result)
    assert [text.get_text().splitlines()[0] for text in ax.texts] == [
        "nbc better",
        "practically equivalent",
        "aode better",
    ]
    with pytest.raises(InputError, match="HierarchicalResult"):
        plot_hierarchical(object())


def _quadrature_posterior(differences, folds, rope):
    """The posterior means of the next task's three probabilities and of δ0 (in standard units) under the
    same model, by brute force: each task's σ_i integrated in closed form (its precision is gamma), δ_i on
    a grid, (ν, δ0, σ0) on a grid, p(ν) (ν - 1 ~ Gamma(α, β)) averaged over α ~ U(1, 2), β ~ U(0.01, 0.1).
    No sampling."""
    from scipy import special

    n = differences[0].size
    scale = np.mean([d.std() for d in differences])
    rho, x = 1 / folds, [d / scale for d in differences]
    c, bound, r = 1 + (n - 1) * rho, np.abs(np.concatenate(x)).max(), rope / scale
    a_grid, b_grid = 1 + (np.arange(20) + 0.5) / 20, 0.01 + 0.09 * (np.arange(20) + 0.5) / 20
    excess = np.exp(np.linspace(np.log(0.01), np.log(2000), 36))  # ν - 1
    nu, gamma = 1 + excess, stats.gamma.pdf(excess[:, None, None], a_grid[:, None], scale=1 / b_grid)
    prior_nu = gamma.mean(axis=(1, 2)) * excess
    d0, s0 = np.linspace(-bound, bound, 71), np.exp(np.linspace(np.log(0.02), np.log(30), 45))
    log_post = np.log(prior_nu)[:, None, None] + np.log(s0)[None, None, :] + np.zeros((36, 71, 45))
    for v in x:
        within = ((v - v.mean()) ** 2).sum() / (1 - rho)
        width = np.sqrt(within * c / (n * (n - 1)))
        delta = np.linspace(v.mean() - 12 * width, v.mean() + 12 * width, 121)
        likelihood = (within + n * (v.mean() - delta) ** 2 / c) ** (-(n - 1) / 2)
        z2 = ((delta - d0[:, None, None]) / s0[None, :, None]) ** 2
        with np.errstate(divide="ignore"):  # a t density that underflows: that grid point has weight 0
            for k, dof in enumerate(nu):
                log_t = special.gammaln((dof + 1) / 2) - special.gammaln(dof / 2) - 0.5 * np.log(dof)
                log_post[k] += np.log(
                    (np.exp(log_t - (dof + 1) / 2 * np.log1p(z2 / dof)) / s0[:, None]) @ likelihood
                )
    weight = np.exp(log_post - log_post.max())
    weight /= weight.sum()
    dof, location, spread = np.meshgrid(nu, d0, s0, indexing="ij")
    above, below = special.stdtr(dof, (location - r) / spread), special.stdtr(dof, (-r - location) / spread)
    theta = np.stack([above, 1 - above - below, below], axis=-1)
    return (weight[..., None] * theta).sum(axis=(0, 1, 2)), (weight * location).sum()


def test_the_sampler_draws_the_posterior_that_quadrature_computes():
    # an independent check of the Gibbs sampler: 5 tasks of 2 x 5-fold cross-validation
    rng = np.random.default_rng(11)
    locations, spreads = [0.5, 1.5, -0.3, 2.5, 0.8], [1.0, 0.6, 1.5, 0.8, 1.2]
    differences = [rng.normal(mu, sd, 10) for mu, sd in zip(locations, spreads, strict=True)]
    result = hierarchical_test(
        _table(differences), "a", "b", rope=0.5, folds=5, samples=20_000, chains=100, burn_in=200, seed=3
    )
    expected, delta0 = _quadrature_posterior(differences, 5, 0.5)
    per_chain = result.posterior.reshape(-1, result.chains, 3).mean(axis=0)
    error = per_chain.std(axis=0, ddof=1) / np.sqrt(result.chains)
    # 4 Monte Carlo standard errors, plus 0.002 for the quadrature's grids
    assert np.all(np.abs(result.posterior_mean - expected) < 4 * error + 0.002)
    assert abs(result.delta0.mean() / result.scale - delta0) < 0.02


def test_j48_and_its_grafted_version_are_practically_equivalent_as_baycomp_finds(uci_runs):
    # baycomp 1.0.3 HierarchicalTest, rope 1, 4,000 draws: shares (0, 1, 0), row means (0.0034, 0.9930,
    # 0.0036) (benchmarks/BAYCOMP_FACTS.md); 14 of the 54 data sets have zero variance
    result = hierarchical_test(uci_runs, "j48", "j48gr", rope=1, folds=10, samples=500, chains=50, seed=0)
    np.testing.assert_array_equal(result.probabilities, [0.0, 1.0, 0.0])
    assert result.decision == "equivalent" and int(result.degenerate.sum()) == 14
    assert abs(result.posterior_mean[1] - 0.9930) < 0.01
    assert "every difference is 0" in result.verdict and int(result.noised.sum()) == 14


def _one_zero_task():
    """Designed case A of benchmarks/BAYCOMP_FACTS.md §5: 6 tasks × 10 folds, the last all 0."""
    rng = np.random.default_rng(40)
    spreads = [(0.4, 1.0), (0.9, 0.7), (0.1, 1.2), (0.6, 0.9), (1.2, 1.1)]
    return [rng.normal(m, s, 10) for m, s in spreads] + [np.zeros(10)]


def test_the_data_are_prepared_as_baycomp_passes_them_to_stan():
    # baycomp's data for Stan on case A, rope 0.3 (benchmarks/BAYCOMP_FACTS.md §5): the differences over
    # stdX, the mean of the tasks' standard deviations (divisor n, the all-0 task counted as 0);
    # deltaHi = max|x|, std0Hi = 1000 × the standard deviation of the tasks' means; the all-0 task
    # replaced by u_1..u_5, -u_1..-u_5, u ~ U(-r, r), and stdHi = 1000 × the mean standard deviation after
    differences = _one_zero_task()
    scale = np.mean([d.std() for d in differences])
    r = 0.3 / scale
    mean, within, (largest, upper, upper0), noised = _model_data(
        [d / scale for d in differences], r, 4000, np.random.default_rng(0)
    )
    np.testing.assert_array_equal(noised, [False] * 5 + [True])
    assert mean[5] == 0 and np.allclose(largest, 4.650741606442964) and np.isclose(upper0, 686.3277730918369)
    filled = within[:, 5]
    assert filled.max() <= 10 * r**2 and abs(filled.mean() / (10 * r**2 / 3) - 1) < 0.02  # E[u²] = r²/3
    spreads = np.sqrt(within / 10)
    np.testing.assert_allclose(upper, 1000 * spreads.mean(axis=1))
    np.testing.assert_allclose(spreads[:, :5], np.tile([d.std() / scale for d in differences[:5]], (4000, 1)))
    # what baycomp leaves alone: a constant task that is not 0, and any task when r = 0
    assert not _model_data([np.ones(10), np.arange(10.0)], r, 3, np.random.default_rng(0))[3].any()
    assert not _model_data([np.zeros(10), np.arange(10.0)], 0.0, 3, np.random.default_rng(0))[3].any()
    result = hierarchical_test(_table(differences), "a", "b", rope=0.3, folds=10, **FAST)
    assert result.scale == scale and result.noised.tolist() == [False] * 5 + [True]
    assert "every difference is 0" in result.verdict


def _outliers():
    """Designed case B3 of benchmarks/BAYCOMP_FACTS.md §5: 10 tasks × 10 folds (spread 0.2), eight task
    means near 0.5 and two far (3.0, -1.5): the t of the δ_i needs heavy tails (ν about 2)."""
    rng = np.random.default_rng(43)
    return [rng.normal(m, 0.2, 10) for m in [0.5, 0.6, 0.4, 0.55, 0.45, 0.5, 0.52, 0.48, 3.0, -1.5]]


# baycomp 1.0.3 on _outliers(), rope 0.1, runs=1, nsamples=2000 (8,000 rows), four runs: the mean over runs
# of the rows' means (their spread over runs 0.004, 0.0007, 0.004) and of the shares (spread 0.002)
BAYCOMP_OUTLIERS_MEAN = (0.7959, 0.0510, 0.1532)
BAYCOMP_OUTLIERS_LARGEST = (0.9705, 0.0, 0.0295)


def test_heavy_tails_as_baycomp_finds_them_with_nu_above_one():
    # baycomp's ν is 1 + a Gamma(α, β) draw (its Stan fit has nuMinusOne, nu = nuMinusOne + 1); with ν ~
    # Gamma(α, β) (ν below 1 allowed) the row means here were 0.85-0.87, 0.03, 0.10
    result = hierarchical_test(
        _table(_outliers()), "a", "b", rope=0.1, folds=10, samples=8000, chains=100, burn_in=150, seed=1
    )
    assert result.nu.min() >= 1
    per_chain = result.posterior.reshape(-1, result.chains, 3).mean(axis=0)
    ours = per_chain.std(axis=0, ddof=1) / np.sqrt(result.chains)
    baycomp = np.array([0.002, 0.0004, 0.002])  # the standard errors of baycomp's four-run means
    assert np.all(np.abs(result.posterior_mean - BAYCOMP_OUTLIERS_MEAN) < 4 * np.hypot(ours, baycomp))
    tolerance = 4 * result.standard_errors + 0.004
    assert np.all(np.abs(result.probabilities - BAYCOMP_OUTLIERS_LARGEST) < tolerance)
    assert result.decision == "a_better"


def _three_zero_tasks():
    """Designed case C of benchmarks/BAYCOMP_FACTS.md §5: 6 tasks × 10 folds, three of them all 0."""
    rng = np.random.default_rng(44)
    return [rng.normal(m, 1.0, 10) for m in (0.8, 1.2, 1.5)] + [np.zeros(10)] * 3


# baycomp 1.0.3 on _three_zero_tasks(), rope 1 (2.75 standard units), nsamples=2000, random_state 1, 2, 3:
# the mean over the runs of the rows' means (spread 0.002) and of the shares (spread 0.004)
BAYCOMP_ZEROS_MEAN = (0.3119, 0.6251, 0.0630)
BAYCOMP_ZEROS_LARGEST = (0.1926, 0.7941, 0.0133)


def test_tasks_of_zeros_are_filled_within_the_rope_as_baycomp_does():
    # kept at their 0 (σ_i at its floor) instead, the three tasks gave row means 0.286, 0.651, 0.064
    draws = {"samples": 12_000, "chains": 100, "burn_in": 150, "seed": 1}
    result = hierarchical_test(_table(_three_zero_tasks()), "a", "b", rope=1, folds=10, **draws)
    assert result.noised.sum() == 3
    per_chain = result.posterior.reshape(-1, result.chains, 3).mean(axis=0)
    ours = per_chain.std(axis=0, ddof=1) / np.sqrt(result.chains)
    assert np.all(np.abs(result.posterior_mean - BAYCOMP_ZEROS_MEAN) < 4 * np.hypot(ours, 0.0015))
    tolerance = 4 * np.hypot(result.standard_errors, 0.003)
    assert np.all(np.abs(result.probabilities - BAYCOMP_ZEROS_LARGEST) < tolerance)
