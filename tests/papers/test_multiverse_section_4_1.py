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


FIGURE_3_ORDER = ("imputation", "aggregation", "measure", "datasets")


def rank_improving_steps(result, method):
    ranks = result.steps.loc[result.steps["method"] == method, "rank"].to_numpy()
    return int((np.diff(ranks) < 0).sum())


def drawn_start(multiverse, method):
    """The rank Fig. 3 draws as a method's default: its rank at the defaults but with the 'random'
    imputation, the rows the reference's plotting function takes for the default point."""
    k = multiverse.index({**multiverse.defaults, "imputation": "random"})
    return multiverse.ranks[k, multiverse.methods.index(method)]


def drawn_steps(start, ranks):
    """Fig. 3's arrows: a step is drawn where the rank after it differs from the rank drawn before it."""
    return int((np.diff([start, *ranks]) != 0).sum())


def reference_path(multiverse, method):
    """The ranks after each step under the reference analysis's selection rule: imputation and data sets by
    rank, then aggregated value, the default kept on a tie; aggregation and measure by rank, then a fixed
    order of options (mean, median, best0.05, rank; the default measure first). Left out, as neither moves
    a rank: best0.05's third key (data sets within 5 %) and the random draw among tied options that do not
    include the default (the first in the spec's order here)."""
    m = multiverse.methods.index(method)
    fixed = {"aggregation": ("mean", "median", "best0.05", "rank"), "measure": ("ibrier", "cindex")}
    current = dict(multiverse.defaults)
    ranks = []
    for choice in FIGURE_3_ORDER:

        def key(option, choice=choice):
            k = multiverse.index({**current, choice: option})
            value = multiverse.values[k, m] * (1 if multiverse.direction[k] == "lower" else -1)
            tie = fixed[choice].index(option) if choice in fixed else (value, option != current[choice])
            return multiverse.ranks[k, m], tie

        current[choice] = min(multiverse.options[choice], key=key)
        ranks.append(multiverse.ranks[multiverse.index(current), m])
    return ranks


def test_figure_3_lasso_and_prioritylasso_favoring_need_more_than_two_steps(multiverse):
    result = stepwise(multiverse)
    for method in ("Lasso", "prioritylasso favoring"):
        assert rank_improving_steps(result, method) > 2


@pytest.mark.xfail(
    strict=True,
    reason="§4.1's 'all methods except Lasso and Prioritylasso Favoring require no more than two "
    "optimisation steps' counts the steps Fig. 3 draws, whose start point the reference's plotting code "
    "takes with the 'random' imputation; counted from the stated defaults (threshold0.2), rfsrc takes three "
    "(imputation 'random' 11 → 10, aggregation 'median' → 3, data sets 'p small' → 1). See "
    "test_figure_3_as_drawn_every_other_method_needs_at_most_two_steps",
)
def test_figure_3_every_other_method_needs_at_most_two_steps(multiverse):
    """The sentence read with the paper's stated definition: from the defaults (all 18 data sets, ibrier,
    threshold0.2, mean), a step counts when it improves the method's rank on the previous step ("a missing
    step did not improve the rank"). rfsrc, which has no failed iterations, ranks 11th at the defaults and
    10th with the 'random' imputation (prioritylasso favoring's failures then count 0.25 and it falls behind
    rfsrc), so its imputation step counts. The other readings do not remove that step: it is a strict
    improvement of the rank (11 → 10, no ties, no tie broken by the value, not "all options the same");
    comparing with the defaults instead of the previous step counts the same steps since ranks never get
    worse; counting the steps that change the option gives rfsrc three as well. The start is right: the
    default ranking equals the reference's all-18 ibrier ranking (datasample_unfolding_ibrier_774.csv)."""
    result = stepwise(multiverse, order=FIGURE_3_ORDER)
    others = set(multiverse.methods) - {"Lasso", "prioritylasso favoring"}
    assert all(rank_improving_steps(result, m) <= 2 for m in others)


def test_figure_3_as_drawn_every_other_method_needs_at_most_two_steps(multiverse):
    """What the §4.1 sentence states holds for Fig. 3 as the reference analysis draws it.

    The reference (NiesslC/overoptimism_benchmark, R/helper_fcts_results.R) optimises from threshold0.2
    (``stepwise_opt``), but its plotting function (``plotstepwise_fct``) draws each method's default point
    from the rows with imputation ``independentNA``, its name for 'random' (R/01_generate_rankdata.R names
    the options threshold0.2, independentNA, meanNA, weightedNA), and draws a step's arrow where the rank
    after the step differs from the rank drawn before it. Counted that way, rfsrc starts at 10 and its
    imputation step (10 → 10) is missing: two steps. Lasso keeps three; prioritylasso favoring gets a fourth,
    drawn from 11 (its rank with 'random') to 10 (threshold0.2 kept). The arrows all point to better ranks,
    since step 1 takes the best imputation, 'random' included.

    The path itself is the reference's: its selection rule (``findopt``: imputation and data sets by rank,
    then value, the default on a tie; aggregation and measure by rank, then the fixed order mean, median,
    best0.05, rank or the default measure first) reaches the same final rank for every method and draws the
    same number of steps. It breaks rank ties in the aggregation and measure steps differently from
    benchtrust, which compares the aggregated values across them (an ibrier mean against a best0.05 count):
    Clinical only goes median → ibrier → 'clin large' there (4, 2, 2, 1) and best0.05 → cindex → all here
    (4, 2, 1, 1); grridge, blockForest and ipflasso take other options at unchanged ranks.
    """
    result = stepwise(multiverse, order=FIGURE_3_ORDER)
    drawn, reference = {}, {}
    for method in multiverse.methods:
        start = drawn_start(multiverse, method)
        ranks = result.steps.loc[result.steps["method"] == method, "rank"].to_numpy()[1:]
        path = reference_path(multiverse, method)
        assert path[-1] == result.best[method]
        assert ranks[0] <= start
        drawn[method], reference[method] = drawn_steps(start, ranks), drawn_steps(start, path)
    assert drawn == reference
    assert {m for m, n in drawn.items() if n > 2} == {"Lasso", "prioritylasso favoring"}
    counted = {m: rank_improving_steps(result, m) for m in multiverse.methods}
    changed = {m: (counted[m], drawn[m]) for m in multiverse.methods if counted[m] != drawn[m]}
    assert changed == {"rfsrc": (3, 2), "prioritylasso favoring": (3, 4)}


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
