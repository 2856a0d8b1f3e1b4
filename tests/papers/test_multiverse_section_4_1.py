"""Nießl et al. (2022) §3.1, §2.2.1 and §4.1 (Figs 2 and 3), recomputed from the Herrmann et al. (2021)
results bundled with benchtrust: 9 data-set options × 2 measures × 4 imputations × 4 aggregations."""

import numpy as np
import pytest

from benchtrust.multiverse import bundled_study, rank_distribution, rankings, stepwise


@pytest.fixture(scope="module")
def multiverse():
    return rankings(**bundled_study())


@pytest.fixture(scope="module")
def distribution(multiverse):
    return rank_distribution(multiverse)


def best(distribution, method):
    return distribution.best[distribution.methods.index(method)]


def worst(distribution, method):
    return distribution.worst[distribution.methods.index(method)]


def test_section_3_1_288_combinations_of_13_methods(multiverse):
    assert multiverse.ranks.shape == (288, 13)
    assert [len(multiverse.options[c]) for c in multiverse.choices] == [9, 2, 4, 4]


def test_section_2_2_1_subgroups_hold_8_to_10_data_sets(multiverse):
    """Strictly below / at or above the median of 18: p 9/9, n 9/9, clin 8/10, n_e 8/10."""
    sizes = {name: len(kept) for name, kept in multiverse.datasets.items()}
    assert sizes == {
        "all": 18,
        "clin small": 8,
        "clin large": 10,
        "n small": 9,
        "n large": 9,
        "n_e small": 8,
        "n_e large": 10,
        "p small": 9,
        "p large": 9,
    }


def test_figure_2_every_method_but_kaplan_meier_ranks_first_or_second(distribution):
    """8 methods reach rank 1 and 4 reach rank 2 at best; Kaplan-Meier's best is 3."""
    bests = dict(zip(distribution.methods, distribution.best, strict=True))
    assert sum(b == 1 for b in bests.values()) == 8
    assert sum(b == 2 for b in bests.values()) == 4
    assert bests["Kaplan-Meier"] == 3


def test_figure_2_ten_methods_are_worst_or_second_worst(distribution):
    """10 methods reach rank 13 or 12.5; the worst ranks of the other three lie between 10 and 11.5."""
    reach = [m for m, w in zip(distribution.methods, distribution.worst, strict=True) if w >= 12.5]
    assert len(reach) == 10
    others = sorted(set(distribution.methods) - set(reach))
    assert others == ["Clinical only", "CoxBoost favoring", "blockForest"]
    assert {m: worst(distribution, m) for m in others} == {
        "Clinical only": 11.5,
        "CoxBoost favoring": 10,
        "blockForest": 11,
    }


def test_figure_2_clinical_only_ranks_first_or_second_in_about_half(distribution):
    share = distribution.share_at_most("Clinical only", 2)
    assert share == pytest.approx(0.5, abs=0.05)


def test_figure_3_stepwise_reaches_the_best_rank_for_8_methods(multiverse, distribution):
    """Order imputation → aggregation → measure → data sets from the defaults (all, ibrier, threshold0.2,
    mean): 8 methods reach their best possible rank, 3 one rank above it, and Prioritylasso and Grridge
    stay further away."""
    result = stepwise(multiverse, order=["imputation", "aggregation", "measure", "datasets"])
    gap = {m: result.best[m] - best(distribution, m) for m in multiverse.methods}
    assert sum(g == 0 for g in gap.values()) == 8
    assert sorted(result.reached_best) == sorted(m for m, g in gap.items() if g == 0)
    # every method but blockForest, first at the defaults, improves on its default rank
    assert set(multiverse.methods) - set(result.improved) == {"blockForest"}
    assert "12 of 13 methods improve on their rank at the defaults, and 8 reach the best" in result.verdict
    assert sorted(m for m, g in gap.items() if g == 1) == ["Kaplan-Meier", "Lasso", "prioritylasso favoring"]
    assert sorted(m for m, g in gap.items() if g > 1) == ["grridge", "prioritylasso"]


def rank_improving_steps(result, method):
    ranks = result.steps.loc[result.steps["method"] == method, "rank"].to_numpy()
    return int((np.diff(ranks) < 0).sum())


def test_figure_3_lasso_and_prioritylasso_favoring_need_more_than_two_steps(multiverse):
    result = stepwise(multiverse)
    for method in ("Lasso", "prioritylasso favoring"):
        assert rank_improving_steps(result, method) > 2


@pytest.mark.xfail(
    strict=True,
    reason="§4.1 says every other method needs at most two steps; here rfsrc takes three (imputation "
    "'random' moves it from 11 to 10, aggregation 'median' to 3, data sets 'p small' to 1). Still so with "
    "the corrected threshold rule; the default ranking it starts from equals the reference analysis's "
    "all-18 ibrier ranking (datasample_unfolding_ibrier_774.csv), so the difference is not in the start",
)
def test_figure_3_every_other_method_needs_at_most_two_steps(multiverse):
    result = stepwise(multiverse)
    others = set(multiverse.methods) - {"Lasso", "prioritylasso favoring"}
    assert all(rank_improving_steps(result, m) <= 2 for m in others)


def test_section_2_3_1_threshold_rule_imputes_the_mean_at_exactly_20_percent(multiverse):
    """threshold0.2 (Herrmann et al.'s rule as the reference analysis applies it): a pair with failure rate
    r > 0.2 takes the random-prediction value, r ≤ 0.2 (5 of 25 failed included) the mean of its other
    iterations. Recomputed here with pandas from the raw rows for the mean aggregation, every data-set
    option and both measures, the 18 rankings equal benchtrust's; 4 pairs have r = 0.2 exactly."""
    import pandas as pd

    raw = pd.read_csv(bundled_study()["results"])
    raw["cindex"] = raw["cindex_uno"].mask(raw["cindex_uno"] == 0)
    raw["failed"] = raw["cindex"].isna() | raw["ibrier"].isna()
    pair = pd.MultiIndex.from_frame(raw[["dataset", "learner"]])
    rate = raw.groupby(["dataset", "learner"])["failed"].mean()
    assert int(np.isclose(rate, 0.2).sum()) == 4
    for measure, random in (("ibrier", 0.25), ("cindex", 0.5)):
        present = raw.groupby(["dataset", "learner"])[measure].mean().fillna(random)
        fill = present.where(rate <= 0.2, random).reindex(pair).to_numpy()
        value = raw[measure].fillna(pd.Series(fill, index=raw.index))
        per_pair = value.groupby([raw["dataset"], raw["learner"]]).mean().unstack()
        for option, kept in multiverse.datasets.items():
            means = per_pair.loc[list(kept)].mean()
            expected = (means if measure == "cindex" else -means).rank(ascending=False)
            k = multiverse.index(
                {"datasets": option, "measure": measure, "imputation": "threshold0.2", "aggregation": "mean"}
            )
            got = pd.Series(multiverse.ranks[k], index=multiverse.methods)
            pd.testing.assert_series_equal(got, expected[list(multiverse.methods)], check_names=False)
