"""The option families' built-in rules (data sets, imputation, aggregation) and register_option."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust.multiverse import rankings, register_option
from benchtrust.multiverse._options import _REGISTRY, mean_of_rest, rule

nan = np.nan


def impute(name, values, rate, *, random, direction, **parameters):
    """Call imputation rule `name` as the rankings do."""
    return rule("imputation", name)(
        np.asarray(values, dtype=float),
        np.asarray(rate, dtype=float),
        random=random,
        direction=direction,
        **parameters,
    )


def aggregate(name, values, *, direction, **parameters):
    """Call aggregation rule `name` as the rankings do."""
    return rule("aggregation", name)(np.asarray(values, dtype=float), direction=direction, **parameters)


def select(name, characteristics, names, **parameters):
    """Call data-set rule `name` as the rankings do."""
    return rule("datasets", name).function(characteristics, list(names), **parameters)


# three pairs (1 data set × 3 methods), five iterations each: 0, 1 and 5 failed
VALUES = np.array(
    [
        [
            [0.2, 0.4, 0.3, 0.1, 0.5],
            [0.6, nan, 0.8, 0.7, 0.9],
            [nan, nan, nan, nan, nan],
        ]
    ]
)
RATE = np.array([[0.0, 0.2, 1.0]])


# ---------------------------------------------------------------------------------------------------------
# imputation


def test_mean_of_rest_and_mean_rule():
    """The mean of the non-failed iterations; the random value where all failed."""
    expected = [[0.3, 0.75, 0.5]]
    np.testing.assert_allclose(mean_of_rest(VALUES, 0.5), expected)
    for direction in ("lower", "higher"):
        np.testing.assert_allclose(impute("mean", VALUES, RATE, random=0.5, direction=direction), expected)


def test_random_rule():
    """The random-prediction value for every pair, whatever the values."""
    out = impute("random", VALUES, RATE, random=0.25, direction="lower")
    assert out.shape == (1, 3)
    np.testing.assert_array_equal(out, 0.25)


@pytest.mark.parametrize("direction", ["lower", "higher"])
def test_threshold_rule(direction):
    """The random value if r > threshold (strictly), else the mean of the rest; r == threshold takes the mean
    (the reference analysis's rule: 5 of 25 failed is r = 0.2, imputed by the mean); all failed: random."""
    default = impute("threshold", VALUES, RATE, random=0.5, direction=direction)  # threshold 0.2
    np.testing.assert_allclose(default, [[0.3, 0.75, 0.5]])
    np.testing.assert_allclose(
        impute("threshold", VALUES, RATE, random=0.5, direction=direction, threshold=0.19), [[0.3, 0.5, 0.5]]
    )
    np.testing.assert_allclose(  # threshold 0: the mean only without failures; 1: the mean unless all failed
        impute("threshold", VALUES, RATE, random=0.5, direction=direction, threshold=0), [[0.3, 0.5, 0.5]]
    )
    np.testing.assert_allclose(
        impute("threshold", VALUES, RATE, random=0.5, direction=direction, threshold=1), [[0.3, 0.75, 0.5]]
    )


@pytest.mark.parametrize("threshold", [-0.1, 1.5, "0.2", True, None])
def test_threshold_must_be_a_rate(threshold):
    """A threshold outside [0, 1] or not a number is an InputError."""
    with pytest.raises(InputError, match="threshold: expected a failure rate between 0 and 1"):
        impute("threshold", VALUES, RATE, random=0.5, direction="higher", threshold=threshold)


def test_weighted_rule_for_a_score_eq_4():
    """random + (mean − random)₊(1 − r); a mean below random (worse) is clipped to random."""
    values = np.array([[[0.9, 0.7, nan, nan], [0.3, nan, nan, nan], [nan] * 4, [0.8, 0.6, 0.7, 0.9]]])
    rate = np.array([[0.5, 0.75, 1.0, 0.0]])
    out = impute("weighted", values, rate, random=0.5, direction="higher")
    expected = [0.5 + (0.8 - 0.5) * 0.5, 0.5, 0.5, 0.75]
    np.testing.assert_allclose(out, [expected])


def test_weighted_rule_for_a_loss_eq_1():
    """random − (random − mean)₊(1 − r); a mean above random (worse) is clipped to random."""
    values = np.array(
        [[[0.1, 0.2, nan, nan, nan], [0.4, 0.3, 0.35, nan, nan], [nan] * 5, [0.05, 0.1, 0.15, 0.1, 0.1]]]
    )
    rate = np.array([[0.6, 0.4, 1.0, 0.0]])
    out = impute("weighted", values, rate, random=0.25, direction="lower")
    expected = [0.25 - (0.25 - 0.15) * 0.4, 0.25, 0.25, 0.1]
    np.testing.assert_allclose(out, [expected])


@settings(max_examples=60, deadline=None)
@given(
    mean=st.floats(0, 1),
    random=st.floats(0, 1),
    rate=st.floats(0, 1),
    lower=st.booleans(),
)
def test_weighted_lies_between_random_and_the_better_of_mean_and_random(mean, random, rate, lower):
    """Weighted imputation never is worse than random, nor better than the observed mean."""
    values = np.array([[[mean, mean]]])
    out = impute(
        "weighted", values, np.array([[rate]]), random=random, direction=("lower" if lower else "higher")
    )[0, 0]
    if (mean < random) == lower and mean != random:
        lo, hi = sorted((mean, random))
        assert lo - 1e-12 <= out <= hi + 1e-12
        assert out == pytest.approx(random + (mean - random) * (1 - rate), abs=1e-12)
    else:
        assert out == random


# ---------------------------------------------------------------------------------------------------------
# data sets


def eighteen():
    """18 data sets like the paper's, the characteristic tied at its median (9, 9) and elsewhere."""
    names = [f"d{k:02d}" for k in range(18)]
    p = [5, 1, 9, 12, 3, 9, 16, 2, 9, 7, 20, 4, 9, 11, 6, 30, 8, 14]  # sorted: … 8, 9, 9, 9, 9, 11 …
    n = list(range(100, 1900, 100))
    return names, pd.DataFrame({"p": p, "n": n}, index=names).astype(float)


def test_median_split_with_ties_at_the_median():
    """Strictly below the median vs at or above: complementary, ties at the median go to 'large'."""
    names, table = eighteen()
    assert np.median(table["p"]) == 9
    small = select("below_median", table, names, characteristic="p")
    large = select("at_or_above_median", table, names, characteristic="p")
    assert small == [d for d in names if table.loc[d, "p"] < 9]
    assert large == [d for d in names if table.loc[d, "p"] >= 9]
    assert len(small) == 8 and len(large) == 10
    assert sorted(small + large) == names and not set(small) & set(large)


def test_median_split_without_ties_is_half_and_half():
    """18 distinct values: 9 below and 9 at or above (the median lies between two values)."""
    names, table = eighteen()
    small = select("below_median", table, names, characteristic="n")
    large = select("at_or_above_median", table, names, characteristic="n")
    assert small == names[:9] and large == names[9:]


def test_median_of_an_odd_count_goes_to_large():
    """With 5 data sets the middle one is at the median: 2 small, 3 large."""
    names = ["a", "b", "c", "d", "e"]
    table = pd.DataFrame({"x": [3.0, 1.0, 5.0, 2.0, 4.0]}, index=names)
    assert select("below_median", table, names, characteristic="x") == ["b", "d"]
    assert select("at_or_above_median", table, names, characteristic="x") == ["a", "c", "e"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=20))
def test_median_split_is_a_partition(values):
    """For any values the two halves partition the data sets, in their order."""
    names = [f"d{k}" for k in range(len(values))]
    table = pd.DataFrame({"x": np.array(values, dtype=float)}, index=names)
    small = select("below_median", table, names, characteristic="x")
    large = select("at_or_above_median", table, names, characteristic="x")
    assert [d for d in names if d in small or d in large] == names
    assert not set(small) & set(large)
    median = np.median(values)
    assert all(table.loc[d, "x"] < median for d in small) and all(table.loc[d, "x"] >= median for d in large)


def test_below_and_at_or_above_a_value():
    """A fixed cut: strictly below vs at or above."""
    names, table = eighteen()
    assert select("below", table, names, characteristic="p", value=9) == [
        d for d in names if table.loc[d, "p"] < 9
    ]
    assert select("at_or_above", table, names, characteristic="p", value=9) == [
        d for d in names if table.loc[d, "p"] >= 9
    ]
    assert select("below", table, names, characteristic="n", value=100) == []


def test_all_and_list_rules():
    """all keeps every data set; list keeps the named ones in the results' order."""
    names = ["a", "b", "c"]
    assert select("all", None, names) == names
    assert select("list", None, names, datasets=["c", "a"]) == ["a", "c"]
    with pytest.raises(InputError, match="'z' is not a data set of the results"):
        select("list", None, names, datasets=["a", "z"])
    with pytest.raises(InputError, match="expected a list of data-set names"):
        select("list", None, names, datasets="a")


def test_characteristic_rules_need_a_table_and_a_column():
    """No table, or no such column: an InputError saying which."""
    names, table = eighteen()
    with pytest.raises(InputError, match="no table of data-set characteristics"):
        select("below_median", None, names, characteristic="p")
    with pytest.raises(InputError, match="'q': not a column of the characteristics; found 'p', 'n'"):
        select("below_median", table, names, characteristic="q")


# ---------------------------------------------------------------------------------------------------------
# aggregation


def test_mean_and_median_skip_left_out_data_sets():
    """Mean and median over the data sets of each subset; nan rows are left-out data sets."""
    values = np.array(
        [
            [[1.0, 4.0], [2.0, 5.0], [6.0, 0.0], [3.0, 1.0]],
            [[1.0, 4.0], [nan, nan], [6.0, 0.0], [nan, nan]],
        ]
    )
    np.testing.assert_allclose(aggregate("mean", values, direction="higher"), [[3.0, 2.5], [3.5, 2.0]])
    np.testing.assert_allclose(aggregate("median", values, direction="lower"), [[2.5, 2.5], [3.5, 2.0]])


def test_mean_rank_with_ties():
    """Per data set ranks (1 = best, ties average), then their mean; direction follows the measure."""
    values = np.array(
        [
            [
                [0.9, 0.9, 0.5],  # higher: 1.5, 1.5, 3
                [0.2, 0.7, 0.7],  # higher: 3, 1.5, 1.5
                [nan, nan, nan],  # left out
                [0.4, 0.4, 0.4],  # 2, 2, 2
            ]
        ]
    )
    np.testing.assert_allclose(
        aggregate("mean_rank", values, direction="higher"), [[6.5 / 3, 5 / 3, 6.5 / 3]]
    )
    np.testing.assert_allclose(aggregate("mean_rank", values, direction="lower"), [[5.5 / 3, 7 / 3, 5.5 / 3]])
    assert rule("aggregation", "mean_rank").better == "lower"


def test_best_counts_exact_ties_and_breaks_ties_within_tolerance():
    """First key: data sets where a method is best (ties all count); second: within tol·|best| of best."""
    values = np.array(
        [
            [
                [0.80, 0.80, 0.70, 0.78],  # A and B best; D within 5 % (0.02 < 0.04); C not (0.10)
                [0.50, 0.60, 0.58, 0.40],  # B best; C within (0.02 < 0.03); A not (0.10 ≥ 0.03)
                [0.90, 0.70, 0.88, 0.80],  # A best; C within (0.02 < 0.045); D not (0.10)
                [nan, nan, nan, nan],  # left out
            ]
        ]
    )
    keys = aggregate("best", values, direction="higher", tolerance=0.05)
    assert keys.shape == (1, 2, 4)
    np.testing.assert_array_equal(keys[0, 0], [2, 2, 0, 0])
    np.testing.assert_array_equal(keys[0, 1], [2, 2, 2, 1])
    # lower is better: the smallest is best (C on d1, D on d2, B on d3), none other within 5 %
    keys = aggregate("best", values, direction="lower", tolerance=0.05)
    np.testing.assert_array_equal(keys[0, 0], [0, 1, 1, 1])
    np.testing.assert_array_equal(keys[0, 1], [0, 1, 1, 1])
    # a wider tolerance, lower is better: d1 (best 0.70, edge 0.14): all four; d2 (best 0.40, edge 0.08):
    # D only; d3 (best 0.70, edge 0.14): B and D (0.10)
    keys = aggregate("best", values, direction="lower", tolerance=0.2)
    np.testing.assert_array_equal(keys[0, 0], [0, 1, 1, 1])
    np.testing.assert_array_equal(keys[0, 1], [1, 2, 1, 3])
    assert rule("aggregation", "best").better == "higher"


def test_best_tolerance_is_strict_and_relative_to_the_best():
    """|x − best| < tol·|best|: exactly at the edge does not count; a best of 0 admits only ties."""
    values = np.array([[[4.0, 3.0, 3.5]], [[0.0, 0.0, -0.001]]])
    keys = aggregate("best", values, direction="higher", tolerance=0.25)  # edge 1.0: 3.0 is exactly at it
    np.testing.assert_array_equal(keys[0], [[1, 0, 0], [1, 0, 1]])
    np.testing.assert_array_equal(keys[1], [[1, 1, 0], [1, 1, 0]])
    keys = aggregate(
        "best", np.array([[[-2.0, -1.9, -2.5]]]), direction="higher", tolerance=0.1
    )  # |best| = 1.9
    np.testing.assert_array_equal(keys[0], [[0, 1, 0], [1, 1, 0]])  # 0.1 < 0.19; 0.6 not
    with pytest.raises(InputError, match="tolerance"):
        aggregate("best", values, direction="higher", tolerance=2)


def test_best_ranks_lexicographically_in_rankings():
    """Through rankings: equal best counts are ordered by the within-tolerance count; value: first key."""
    rows = []
    table = {  # higher is better; methods A, B, C, D on data sets d1..d3 (one iteration each)
        "d1": [0.80, 0.80, 0.70, 0.78],
        "d2": [0.50, 0.60, 0.58, 0.40],
        "d3": [0.90, 0.70, 0.88, 0.80],
    }
    for d, vs in table.items():
        rows += [{"dataset": d, "method": m, "acc": v} for m, v in zip("ABCD", vs, strict=True)]
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}},
        "choices": {
            "aggregation": {
                "options": {
                    "best0.05": {"rule": "best", "tolerance": 0.05},
                    "best0": {"rule": "best", "tolerance": 0},
                }
            }
        },
    }
    mv = rankings(pd.DataFrame(rows), spec)
    k = mv.index({"aggregation": "best0.05", "datasets": "all", "measure": "acc", "imputation": "mean"})
    np.testing.assert_array_equal(mv.values[k], [2, 2, 0, 0])
    np.testing.assert_array_equal(mv.ranks[k], [1.5, 1.5, 3, 4])  # C within 5 % twice, D once
    # tolerance 0: the second key repeats the first, so C and D tie
    k0 = mv.index({"aggregation": "best0", "datasets": "all", "measure": "acc", "imputation": "mean"})
    np.testing.assert_array_equal(mv.ranks[k0], [1.5, 1.5, 3.5, 3.5])


def test_best_tie_break_changes_the_order():
    """Two methods best once each: the one more often within tolerance ranks first."""
    rows = []
    table = {"d1": [1.0, 0.5, 0.98], "d2": [0.5, 1.0, 0.6], "d3": [0.97, 0.2, 1.0]}
    for d, vs in table.items():
        rows += [{"dataset": d, "method": m, "acc": v} for m, v in zip("ABC", vs, strict=True)]
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}},
        "choices": {"aggregation": {"options": {"b": {"rule": "best", "tolerance": 0.05}}}},
    }
    mv = rankings(pd.DataFrame(rows), spec)
    # best counts 1, 1, 1; within 5 %: A on d1, d3 → 2; B on d2 → 1; C on d1, d3 → 2
    np.testing.assert_array_equal(mv.values[0], [1, 1, 1])
    np.testing.assert_array_equal(mv.ranks[0], [1.5, 3, 1.5])


# ---------------------------------------------------------------------------------------------------------
# register_option


def test_register_option_validates_its_arguments():
    """Unknown family; aggregation without (or with a bad) better; better for another family."""
    with pytest.raises(InputError, match="family: expected one of datasets, imputation, aggregation"):
        register_option("measure", "x")
    with pytest.raises(InputError, match="better: an aggregation rule needs one of higher, lower, measure"):
        register_option("aggregation", "x")
    with pytest.raises(InputError, match="got 'best'"):
        register_option("aggregation", "x", better="best")
    with pytest.raises(InputError, match="only aggregation rules"):
        register_option("imputation", "x", better="higher")
    assert "x" not in _REGISTRY["aggregation"] and "x" not in _REGISTRY["imputation"]


def test_a_rule_must_take_the_keywords_it_is_called_with():
    """A function written for another protocol (``higher_is_better``) is refused when registered, naming
    the keyword it lacks and the call; ``**kwargs`` takes any keyword."""
    lacks = r"'old_mean': .* must take the keyword argument\(s\) direction"
    with pytest.raises(InputError, match=lacks):
        register_option("aggregation", "old_mean", better="measure")(lambda v, *, higher_is_better: v)
    call = r"random, direction; it is called as rule\(values, failure_rate, \*, random, direction"
    with pytest.raises(InputError, match=call):
        register_option("imputation", "old_zero")(lambda values, failure_rate: values)
    assert "old_mean" not in _REGISTRY["aggregation"] and "old_zero" not in _REGISTRY["imputation"]
    register_option("imputation", "test_any")(lambda values, failure_rate, **keywords: values)
    assert _REGISTRY["imputation"].pop("test_any").parameters() == ()


@pytest.fixture
def custom_rules():
    """Register test-only rules and remove them afterwards."""
    added = []

    def register(family, name, **kwargs):
        added.append((family, name))
        return register_option(family, name, **kwargs)

    yield register
    for family, name in added:
        _REGISTRY[family].pop(name, None)


def test_custom_aggregation_end_to_end(custom_rules):
    """A registered aggregation (the worst value over data sets) is usable by name, with parameters."""

    @custom_rules("aggregation", "test_worst", better="measure")
    def worst(values, *, direction, shift=0.0):
        return (np.nanmax if direction == "lower" else np.nanmin)(values, axis=1) + shift

    assert rule("aggregation", "test_worst").parameters() == ("shift",)
    results = pd.DataFrame(
        {
            "dataset": ["d1", "d1", "d2", "d2", "d3", "d3"],
            "method": ["A", "B"] * 3,
            "acc": [0.9, 0.7, 0.6, 0.8, 0.95, 0.75],
        }
    )
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}},
        "choices": {
            "aggregation": {
                "options": {"mean": {"rule": "mean"}, "worst": {"rule": "test_worst", "shift": 1.0}}
            }
        },
    }
    mv = rankings(results, spec)
    np.testing.assert_allclose(mv.values, [[2.45 / 3, 2.25 / 3], [1.6, 1.7]])
    np.testing.assert_array_equal(mv.ranks, [[1, 2], [2, 1]])
    assert list(mv.direction) == ["higher", "higher"]


def test_custom_aggregation_with_its_own_direction(custom_rules):
    """``better='lower'`` ranks the smallest score first whatever the measure's direction."""

    @custom_rules("aggregation", "test_spread", better="lower")
    def spread(values, *, direction):
        return np.nanmax(values, axis=1) - np.nanmin(values, axis=1)

    results = pd.DataFrame(
        {
            "dataset": ["d1", "d1", "d2", "d2"],
            "method": ["A", "B"] * 2,
            "acc": [0.9, 0.7, 0.5, 0.7],
        }
    )
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}},
        "choices": {"aggregation": {"options": ["test_spread"]}},
    }
    mv = rankings(results, spec)
    np.testing.assert_allclose(mv.values, [[0.4, 0.0]], atol=1e-12)
    np.testing.assert_array_equal(mv.ranks, [[2, 1]])
    assert list(mv.direction) == ["lower"]


def test_custom_imputation_and_data_set_rules(custom_rules):
    """Registered imputation and data-set rules are called with the documented arguments."""
    seen = {}

    @custom_rules("imputation", "test_zero")
    def zero(values, failure_rate, *, random, direction):
        seen["imputation"] = (values.shape, failure_rate.tolist(), random, direction)
        return np.zeros(failure_rate.shape)

    @custom_rules("datasets", "test_first")
    def first(characteristics, names):
        seen["datasets"] = list(names)
        return names[:1]

    results = pd.DataFrame(
        {
            "dataset": ["d1", "d1", "d1", "d1", "d2", "d2", "d2", "d2"],
            "method": ["A", "A", "B", "B"] * 2,
            "loss": [0.2, None, 0.4, 0.6, 0.1, 0.3, None, None],
        }
    )
    spec = {
        "measures": {"loss": {"better": "lower", "random": 1.0}},
        "choices": {"imputation": {"options": ["test_zero"]}, "datasets": {"options": ["all", "test_first"]}},
    }
    mv = rankings(results, spec)
    assert seen["imputation"] == ((2, 2, 2), [[0.5, 0.0], [0.0, 1.0]], 1.0, "lower")  # a loss
    assert seen["datasets"] == ["d1", "d2"]
    assert mv.datasets == {"all": ("d1", "d2"), "test_first": ("d1",)}
    # pair values: d1: A 0.5·0.2 + 0.5·0 = 0.1, B 0.5; d2: A 0.2, B 0 (all failed: imputed)
    np.testing.assert_allclose(mv.values, [[0.15, 0.25], [0.1, 0.5]])


def test_a_rule_that_takes_lower_is_better_still_works_and_warns(custom_rules):
    """A rule written for the old call, with ``lower_is_better`` in place of ``direction``, is registered
    with a DeprecationWarning naming ``direction=`` and gets True for a loss, False for a score."""
    seen = []
    warning = r"'test_old_worst': the keyword lower_is_better is deprecated; take direction="
    with pytest.warns(DeprecationWarning, match=warning) as caught:

        @custom_rules("aggregation", "test_old_worst", better="measure")
        def worst(values, *, lower_is_better, shift=0.0):
            seen.append(lower_is_better)
            return (np.nanmax if lower_is_better else np.nanmin)(values, axis=1) + shift

    assert caught[0].filename == __file__  # it points at the rule
    assert rule("aggregation", "test_old_worst").parameters() == ("shift",)
    results = pd.DataFrame(
        {"dataset": ["d1", "d1", "d2", "d2"], "method": ["A", "B"] * 2, "acc": [0.9, 0.7, 0.6, 0.8]}
    )
    for better, worst_of_a in (("higher", 0.6), ("lower", 0.9)):
        spec = {
            "measures": {"acc": {"better": better, "random": 0.5}},
            "choices": {"aggregation": {"options": {"worst": {"rule": "test_old_worst", "shift": 1.0}}}},
        }
        mv = rankings(results, spec)
        assert mv.values[0, 0] == pytest.approx(1.0 + worst_of_a)
        assert list(mv.direction) == [better] and list(mv.lower_is_better) == [better == "lower"]
    assert seen == [False, True]


def test_custom_rule_of_wrong_shape_is_an_input_error(custom_rules):
    """An aggregation returning the wrong shape, or an imputation returning nan, names the option."""

    @custom_rules("aggregation", "test_flat", better="higher")
    def flat(values, *, direction):
        return np.zeros(3)

    @custom_rules("imputation", "test_nan")
    def nans(values, failure_rate, *, random, direction):
        return np.full(failure_rate.shape, np.nan)

    results = pd.DataFrame({"dataset": ["d1", "d1"], "method": ["A", "B"], "acc": [0.9, 0.7]})
    measures = {"acc": {"better": "higher", "random": 0.5}}
    with pytest.raises(InputError, match=r"spec \(choices\.aggregation\.options\.test_flat\).*return shape"):
        rankings(results, {"measures": measures, "choices": {"aggregation": {"options": ["test_flat"]}}})
    with pytest.raises(InputError, match=r"spec \(choices\.imputation\.options\.test_nan\).*finite values"):
        rankings(results, {"measures": measures, "choices": {"imputation": {"options": ["test_nan"]}}})


def test_rule_errors_name_the_option_in_rankings():
    """A bad parameter value surfaces when the rule runs, naming the option's place in the spec."""
    results = pd.DataFrame({"dataset": ["d1", "d1"], "method": ["A", "B"], "acc": [0.9, 0.7]})
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}},
        "choices": {"imputation": {"options": {"t": {"rule": "threshold", "threshold": 2}}}},
    }
    with pytest.raises(InputError, match=r"spec \(choices\.imputation\.options\.t\): threshold: expected"):
        rankings(results, spec)
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}},
        "choices": {"datasets": {"options": {"few": {"rule": "below", "characteristic": "n", "value": 1}}}},
    }
    with pytest.raises(InputError, match=r"spec \(choices\.datasets\.options\.few\): characteristic 'n'"):
        rankings(results, spec)
    chars = pd.DataFrame({"dataset": ["d1"], "n": [5.0]})
    with pytest.raises(InputError, match=r"spec \(choices\.datasets\.options\.few\): selects no data set"):
        rankings(results, spec, characteristics=chars)
