"""Many pipelines (pairwise, Bonferroni) and several data sets (Wilcoxon, Friedman, Holm), paper §6."""

import json

import numpy as np
import pytest
from scipy import stats

from benchtrust import InputError
from benchtrust.compare._pipelines._datasets import (
    better_everywhere,
    friedman_datasets,
    holm,
    pairwise,
    wilcoxon_datasets,
)
from benchtrust.compare._pipelines._outperform import probability_of_outperforming


def _runs_with_wins(wins, n, rng):
    """Paired runs of A and B where A wins exactly `wins` of the n pairs (no ties)."""
    b = rng.normal(size=n)
    gap = rng.uniform(0.1, 1.0, size=n)
    a = np.where(np.arange(n) < wins, b + gap, b - gap)
    return a, b


# ---------------------------------------------------------------------------------------------------------
# pairwise


@pytest.fixture(scope="module")
def three():
    rng = np.random.default_rng(4)
    base = rng.normal(size=30)
    return {
        "A": base + 0.8 + rng.normal(scale=0.5, size=30),
        "B": base + rng.normal(scale=0.5, size=30),
        "C": np.round(base + 0.1 + rng.normal(scale=0.5, size=30), 1),
    }


def test_matrix_is_eq_9_with_ties_as_halves(three):
    r = pairwise(three)
    names = list(three)
    for i, x in enumerate(names):
        for j, y in enumerate(names):
            if i == j:
                assert np.isnan(r.probabilities[i, j])
                continue
            a, b = three[x], three[y]
            expected = (np.sum(a > b) + 0.5 * np.sum(a == b)) / a.size
            assert r.probabilities[i, j] == pytest.approx(expected)
            assert r.probabilities[i, j] + r.probabilities[j, i] == pytest.approx(1.0)


def test_bonferroni_level_and_intervals_match_probability_of_outperforming(three):
    r = pairwise(three, alpha=0.05)
    assert r.comparisons == 3
    assert r.level == pytest.approx(1 - 0.05 / 3)
    names = list(three)
    for i, x in enumerate(names):
        for j, y in enumerate(names):
            if i != j:
                one = probability_of_outperforming(three[x], three[y], alpha=0.05 / 3)
                assert (r.interval.low[i, j], r.interval.high[i, j]) == pytest.approx(one.ci)


def test_bonferroni_can_withdraw_a_detection():
    # 20 pairs, 15 wins. Without correction (two pipelines, α = 0.05) the lower end of the percentile
    # interval is the 2.5 % quantile of Bin(20, 0.75) / 20; with four pipelines (m = 6) the 0.42 % one.
    rng = np.random.default_rng(0)
    a, b = _runs_with_wins(15, 20, rng)
    lower_2 = stats.binom.ppf(0.025, 20, 0.75) / 20
    lower_6 = stats.binom.ppf(0.05 / 12, 20, 0.75) / 20
    assert lower_2 > 0.5 >= lower_6  # the hand-checked premise: 0.55 and 0.5
    alone = pairwise({"A": a, "B": b})
    assert alone.comparisons == 1 and alone.better[0, 1]
    assert alone.interval.low[0, 1] == pytest.approx(lower_2)
    far = {"C": b - 10, "D": b - 20}  # two more pipelines, far below
    crowded = pairwise({"A": a, "B": b, **far})
    assert crowded.comparisons == 6
    assert crowded.level == pytest.approx(1 - 0.05 / 6)
    assert crowded.interval.low[0, 1] == pytest.approx(lower_6)
    assert not crowded.better[0, 1]
    assert crowded.better[0, 2] and crowded.better[1, 3] and not crowded.better[3, 1]


def test_interval_is_the_limit_of_the_resampled_bootstrap():
    rng = np.random.default_rng(1)
    a, b = _runs_with_wins(14, 20, rng)
    r = pairwise({"A": a, "B": b}, alpha=0.1)
    wins = (a > b).astype(float)
    means = wins[rng.integers(0, 20, size=(200_000, 20))].mean(axis=1)
    low, high = np.quantile(means, [0.05, 0.95], method="inverted_cdf")
    assert (r.interval.low[0, 1], r.interval.high[0, 1]) == pytest.approx((low, high))


def test_direction_lower_flips_the_matrix(three):
    up = pairwise(three)
    down = pairwise(three, direction="lower")
    assert np.allclose(down.probabilities, up.probabilities.T, equal_nan=True)
    assert np.array_equal(down.better, up.better.T)


def test_accepts_a_dataframe_and_serialises(three):
    pd = pytest.importorskip("pandas")
    r = pairwise(pd.DataFrame(three), gamma=0.7)
    assert r.names == ("A", "B", "C")
    d = json.loads(json.dumps(r.to_dict()))
    assert d["probabilities"][0][0] is None and d["gamma"] == 0.7
    assert d["better"] == r.better.tolist()
    assert repr(r).startswith("PairwiseResult(pipelines=['A', 'B', 'C']")


@pytest.mark.parametrize(
    ("runs", "kwargs", "name"),
    [
        ({"A": [1, 2, 3]}, {}, "runs"),
        ([1, 2, 3], {}, "runs"),
        ({"A": [1, 2, 3], "B": [1, 2]}, {}, "runs"),
        ({"A": [1, 2, 3], "B": ["x", 1, 2]}, {}, r"runs\['B'\]"),
        ({"A": [1, 2, 3], "B": []}, {}, r"runs\['B'\]"),
        ({"A": [1, 2, np.nan], "B": [1, 2, 3]}, {}, r"runs\['A'\]"),
        ({"A": [1, 2, 3], "B": [1, 2, 3]}, {"gamma": 1.5}, "gamma"),
        ({"A": [1, 2, 3], "B": [1, 2, 3]}, {"alpha": 0}, "alpha"),
        ({"A": [1, 2, 3], "B": [1, 2, 3]}, {"direction": "yes"}, "direction"),
    ],
)
def test_pairwise_bad_input(runs, kwargs, name):
    with pytest.raises(InputError, match=f"^{name}"):
        pairwise(runs, **kwargs)


# ---------------------------------------------------------------------------------------------------------
# Wilcoxon and Friedman over data sets

A = [0.81, 0.92, 0.75, 0.68, 0.88, 0.95, 0.71]
B = [0.80, 0.90, 0.765, 0.65, 0.84, 0.90, 0.73]
C = [0.70, 0.91, 0.70, 0.66, 0.85, 0.93, 0.69]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_equals_scipy(alternative):
    r = wilcoxon_datasets(A, scores_b=B, alternative=alternative)
    expected = stats.wilcoxon(A, B, alternative=alternative)
    assert (r.statistic, r.p_value) == (float(expected.statistic), float(expected.pvalue))
    assert r.datasets == tuple(str(i) for i in range(1, 8))


def test_wilcoxon_aligns_dicts_by_data_set():
    a = {"cifar": 0.9, "sst2": 0.8, "rte": 0.7, "mhc": 0.6, "voc": 0.5, "imdb": 0.4}
    b = {"imdb": 0.35, "voc": 0.52, "mhc": 0.55, "rte": 0.66, "sst2": 0.71, "cifar": 0.8}
    r = wilcoxon_datasets(a, scores_b=b)
    expected = stats.wilcoxon(list(a.values()), [b[k] for k in a])
    assert r.p_value == float(expected.pvalue)
    assert r.datasets == tuple(a)


def test_friedman_equals_scipy():
    r = friedman_datasets({"A": A, "B": B, "C": C})
    expected = stats.friedmanchisquare(A, B, C)
    assert (r.statistic, r.p_value) == (float(expected.statistic), float(expected.pvalue))
    assert r.algorithms == ("A", "B", "C")
    assert json.loads(json.dumps(r.to_dict()))["test"] == "friedman"


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: wilcoxon_datasets(A, scores_b=B[:-1]), "scores_b"),
        (lambda: wilcoxon_datasets(A, scores_b=A), "scores_b"),
        (lambda: wilcoxon_datasets("abc", scores_b=B), "scores_a"),
        (lambda: wilcoxon_datasets(A, scores_b=B, alternative="bigger"), "alternative"),
        (lambda: wilcoxon_datasets({"x": 1, "y": 2}, scores_b={"x": 1, "z": 2}), "scores_b"),
        (lambda: friedman_datasets({"A": A, "B": B}), "scores"),
        (lambda: friedman_datasets({"A": A, "B": B, "C": C[:-1]}), "scores"),
        (lambda: friedman_datasets({"A": [1], "B": [2], "C": [3]}), "scores"),
        (lambda: friedman_datasets([A, B, C]), "scores"),
    ],
)
def test_dataset_tests_bad_input(call, name):
    with pytest.raises(InputError, match=f"^{name}"):
        call()


# ---------------------------------------------------------------------------------------------------------
# Holm and "better on every data set"


def test_holm_hand_worked():
    # m = 4, α = 0.05. Sorted: 0.005 <= 0.05/4 reject; 0.01 <= 0.05/3 reject; 0.03 > 0.05/2 stop.
    # Adjusted: 4(0.005) = 0.02; 3(0.01) = 0.03; max(0.03, 2(0.03)) = 0.06; max(0.06, 1(0.04)) = 0.06.
    adjusted, rejected = holm([0.01, 0.04, 0.03, 0.005], alpha=0.05)
    assert adjusted.tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert rejected.tolist() == [True, False, False, True]


def _positive_runs(n, rng, gap=1.0):
    """Paired runs where A beats B in every pair by distinct margins: exact one-sided p = 1/2^n."""
    b = rng.normal(size=n)
    return b + gap * np.arange(1, n + 1), b


def test_better_everywhere_hand_worked():
    rng = np.random.default_rng(2)
    # Exact one-sided signed-rank p-values: all n differences positive -> P(T+ = max) = 1/2^n.
    sizes = {"d6": 6, "d5": 5, "d6b": 6}
    runs = {name: _positive_runs(n, rng) for name, n in sizes.items()}
    r = better_everywhere({k: v[0] for k, v in runs.items()}, runs_b={k: v[1] for k, v in runs.items()})
    assert r.p_values.tolist() == pytest.approx([1 / 64, 1 / 32, 1 / 64])
    # Holm, m = 3: 1/64 <= 0.05/3, 1/64 <= 0.05/2, 1/32 <= 0.05: all rejected.
    assert r.adjusted_p_values.tolist() == pytest.approx([3 / 64, 3 / 64, 3 / 64])
    assert r.better_everywhere and r.rejected.all()


def test_four_data_sets_of_five_runs_are_never_enough():
    # Each p = 1/32 = 0.031 is significant alone, but 1/32 > 0.05/4: Holm rejects none.
    rng = np.random.default_rng(3)
    runs = {f"d{i}": _positive_runs(5, rng) for i in range(4)}
    r = better_everywhere({k: v[0] for k, v in runs.items()}, runs_b={k: v[1] for k, v in runs.items()})
    assert r.p_values.tolist() == pytest.approx([1 / 32] * 4)
    assert not r.rejected.any() and not r.better_everywhere
    assert json.loads(json.dumps(r.to_dict()))["better_everywhere"] is False
    assert repr(r).startswith("EverywhereResult(better_everywhere=False, rejected=0/4")


def test_t_test_option_equals_scipy_and_direction_lower():
    rng = np.random.default_rng(5)
    a = {"x": rng.normal(0.3, 1, 12), "y": rng.normal(0.5, 1, 12)}
    b = {"x": rng.normal(0.0, 1, 12), "y": rng.normal(0.0, 1, 12)}
    r = better_everywhere(a, runs_b=b, test="t")
    for name, p in zip(r.datasets, r.p_values, strict=True):
        assert p == pytest.approx(stats.ttest_rel(a[name], b[name], alternative="greater").pvalue)
    flipped = better_everywhere(b, runs_b=a, test="t", direction="lower")
    assert flipped.p_values == pytest.approx(r.p_values)
    w = better_everywhere(a, runs_b=b)
    for name, p in zip(w.datasets, w.p_values, strict=True):
        assert p == pytest.approx(stats.wilcoxon(a[name], b[name], alternative="greater").pvalue)


def test_no_difference_gives_p_one():
    r = better_everywhere({"x": [1.0, 2.0, 3.0]}, runs_b={"x": [1.0, 2.0, 3.0]})
    assert r.p_values.tolist() == [1.0] and not r.better_everywhere
    constant = better_everywhere({"x": [2.0, 3.0, 4.0]}, runs_b={"x": [1.0, 2.0, 3.0]}, test="t")
    assert constant.p_values.tolist() == [0.0]


@pytest.mark.parametrize(
    ("a", "b", "kwargs", "name"),
    [
        ({}, {}, {}, "runs_a"),
        ([1, 2], {"x": [1, 2]}, {}, "runs_a"),
        ({"x": [1, 2]}, {"y": [1, 2]}, {}, "runs_b"),
        ({"x": [1, 2, 3]}, {"x": [1, 2]}, {}, r"runs_b\['x'\]"),
        ({"x": [1, 2]}, {"x": [1, 2]}, {"test": "sign"}, "test"),
        ({"x": [1, 2]}, {"x": [1, 2]}, {"alpha": 2}, "alpha"),
        ({"x": [1]}, {"x": [0]}, {"test": "t"}, r"runs_a\['x'\]"),
        ({"x": [1, "a"]}, {"x": [0, 1]}, {}, r"runs_a\['x'\]"),
    ],
)
def test_better_everywhere_bad_input(a, b, kwargs, name):
    with pytest.raises(InputError, match=f"^{name}"):
        better_everywhere(a, runs_b=b, **kwargs)


def test_friedman_aligns_dicts_by_data_set():
    keys = [f"d{i}" for i in range(len(A))]
    scores = {
        "A": dict(zip(keys, A, strict=True)),
        "B": dict(reversed(list(zip(keys, B, strict=True)))),
        "C": dict(zip(keys, C, strict=True)),
    }
    r = friedman_datasets(scores)
    assert r.p_value == float(stats.friedmanchisquare(A, B, C).pvalue)
    assert r.datasets == tuple(keys)
    scores["C"] = {"other": 1.0, **{k: 0.5 for k in keys[1:]}}
    with pytest.raises(InputError, match=r"^scores\['C'\]"):
        friedman_datasets(scores)
