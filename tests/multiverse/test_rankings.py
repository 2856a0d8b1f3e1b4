"""The rankings of every combination: a brute-force re-implementation, a hand example, ties and layout."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust.multiverse import MultiverseResult, rankings

# ---------------------------------------------------------------------------------------------------------
# brute force: plain Python loops over rows, pairs, data sets and methods


def missing(x):
    return x is None or (isinstance(x, float) and math.isnan(x))


def plain_mean(xs):
    total = 0.0
    for x in xs:
        total += x
    return total / len(xs)


def plain_median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def average_rank(keys, k, higher):
    """1 + (number strictly better) + ½ (number tied, others): average ranks, 1 = best."""
    better = sum(1 for j, key in enumerate(keys) if j != k and (key > keys[k] if higher else key < keys[k]))
    tied = sum(1 for j, key in enumerate(keys) if j != k and key == keys[k])
    return 1 + better + 0.5 * tied


def brute_force(rows, spec, characteristics):
    """The rankings written out: rows are dicts; spec is the dict the package reads; returns the
    combinations (dicts), the ranks and the values, in the order of the product of the choices."""
    cols = spec.get("columns", {})
    dcol, mcol = cols.get("dataset", "dataset"), cols.get("method", "method")
    measures = spec["measures"]
    datasets, methods = [], []
    for row in rows:
        if row[dcol] not in datasets:
            datasets.append(row[dcol])
        if row[mcol] not in methods:
            methods.append(row[mcol])
    if spec.get("methods"):
        methods = list(spec["methods"])

    def value(row, name):
        x = row[measures[name].get("column", name)]
        return None if missing(x) or x in measures[name].get("failed_values", []) else float(x)

    def pair_value(d, m, name, imputation):
        mine = [r for r in rows if r[dcol] == d and r[mcol] == m]
        n = len(mine)
        observed = [value(r, name) for r in mine if value(r, name) is not None]
        if spec.get("failure", "any") == "any":
            failed = sum(1 for r in mine if any(value(r, other) is None for other in measures))
        else:
            failed = n - len(observed)
        rate = failed / n
        random = float(measures[name]["random"])
        higher = measures[name]["better"] == "higher"
        rest = plain_mean(observed) if observed else random
        rule = imputation["rule"]
        if rule == "mean":
            imputed = rest
        elif rule == "random":
            imputed = random
        elif rule == "threshold":
            imputed = rest if rate <= imputation.get("threshold", 0.2) else random
        elif rule == "weighted":
            if higher:
                imputed = random + max(rest - random, 0.0) * (1 - rate)
            else:
                imputed = random - max(random - rest, 0.0) * (1 - rate)
        q = (n - len(observed)) / n
        return imputed if q == 1 else (1 - q) * rest + q * imputed

    def kept(option):
        rule = option["rule"]
        if rule == "all":
            return list(datasets)
        if rule == "list":
            return [d for d in datasets if d in option["datasets"]]
        xs = {d: characteristics[d][option["characteristic"]] for d in datasets}
        median = plain_median(list(xs.values()))
        if rule == "below_median":
            return [d for d in datasets if xs[d] < median]
        if rule == "at_or_above_median":
            return [d for d in datasets if xs[d] >= median]
        raise AssertionError(rule)

    def keys(option, table, higher):
        """Per method a tuple of keys and whether higher keys rank first. table: {d: [value per method]}"""
        rule = option["rule"]
        if rule == "mean":
            return [(plain_mean([table[d][k] for d in table]),) for k in range(len(methods))], higher
        if rule == "median":
            return [(plain_median([table[d][k] for d in table]),) for k in range(len(methods))], higher
        if rule == "mean_rank":
            per = {d: [average_rank(table[d], k, higher) for k in range(len(methods))] for d in table}
            return [(plain_mean([per[d][k] for d in table]),) for k in range(len(methods))], False
        if rule == "best":
            tol = option.get("tolerance", 0.05)
            out = []
            for k in range(len(methods)):
                best_count = within = 0
                for d in table:
                    top = max(table[d]) if higher else min(table[d])
                    x = table[d][k]
                    best_count += x == top
                    within += x == top or abs(x - top) < tol * abs(top)
                out.append((float(best_count), float(within)))
            return out, True
        raise AssertionError(rule)

    choices = spec["choices"]
    names = list(choices)
    combos, ranks, values = [], [], []
    for picked in itertools.product(*(list(choices[c]["options"]) for c in names)):
        combo = dict(zip(names, picked, strict=True))
        d_option = choices["datasets"]["options"][combo["datasets"]]
        name = combo["measure"]
        imputation = choices["imputation"]["options"][combo["imputation"]]
        aggregation = choices["aggregation"]["options"][combo["aggregation"]]
        higher = measures[name]["better"] == "higher"
        table = {d: [pair_value(d, m, name, imputation) for m in methods] for d in kept(d_option)}
        k, first_higher = keys(aggregation, table, higher)
        combos.append(combo)
        ranks.append([average_rank(k, j, first_higher) for j in range(len(methods))])
        values.append([key[0] for key in k])
    return combos, np.array(ranks), np.array(values), methods


def random_study(seed):
    """A small random benchmark: results rows, characteristics and a spec with several options per family."""
    rng = np.random.default_rng(seed)
    n_data, n_methods = int(rng.integers(3, 6)), int(rng.integers(3, 7))
    datasets = [f"d{k}" for k in range(n_data)]
    methods = [f"m{k}" for k in range(n_methods)]
    copy = rng.random() < 0.4  # the last method repeats the first one's results: exact ties everywhere
    rows = []
    for d in datasets:
        order = rng.permutation(n_methods)
        for m in order:
            if copy and m == n_methods - 1:
                continue
            iterations = int(rng.integers(2, 7))
            all_failed = rng.random() < 0.08
            for i in range(iterations):
                # continuous values: no pair lands (up to rounding) exactly on a best-tolerance edge
                loss, auc = float(rng.uniform(0.05, 0.4)), float(rng.uniform(0.3, 0.95))
                if all_failed or rng.random() < 0.2:
                    loss = np.nan
                if all_failed or rng.random() < 0.1:
                    auc = np.nan
                elif rng.random() < 0.1:
                    auc = 0.0  # a failed value
                rows.append({"ds": d, "learner": methods[m], "iter": i, "loss": loss, "auc_col": auc})
                if copy and m == 0:
                    rows.append(dict(rows[-1], learner=methods[-1]))
    characteristics = {
        d: {"p": float(rng.integers(1, 4)), "n": float(rng.integers(10, 100))} for d in datasets
    }
    options = {
        "datasets": {
            "all": {"rule": "all"},
            "p small": {"rule": "below_median", "characteristic": "p"},
            "p large": {"rule": "at_or_above_median", "characteristic": "p"},
            "n large": {"rule": "at_or_above_median", "characteristic": "n"},
            "two": {"rule": "list", "datasets": [datasets[-1], datasets[0]]},
        },
        "measure": {"loss": {}, "auc": {}},
        "imputation": {
            "threshold0.2": {"rule": "threshold", "threshold": 0.2},
            "threshold0.5": {"rule": "threshold", "threshold": 0.5},
            "weighted": {"rule": "weighted"},
            "random": {"rule": "random"},
            "mean": {"rule": "mean"},
        },
        "aggregation": {
            "mean": {"rule": "mean"},
            "median": {"rule": "median"},
            "rank": {"rule": "mean_rank"},
            "best0.05": {"rule": "best", "tolerance": 0.05},
            "best0.2": {"rule": "best", "tolerance": 0.2},
        },
    }
    # p small may select nothing (all p equal): drop it then, as the package would refuse it
    ps = sorted(c["p"] for c in characteristics.values())
    if ps[0] == plain_median(ps):
        del options["datasets"]["p small"]
    families = list(options)
    rng.shuffle(families)

    def pick(some):
        """The first option and each other one with probability 0.8."""
        return {k: v for j, (k, v) in enumerate(some.items()) if j == 0 or rng.random() < 0.8}

    spec = {
        "columns": {"dataset": "ds", "method": "learner", "iteration": "iter"},
        "measures": {
            "loss": {"better": "lower", "random": 0.25},
            "auc": {"column": "auc_col", "better": "higher", "random": 0.5, "failed_values": [0]},
        },
        "failure": "any" if rng.random() < 0.5 else "each",
        "choices": {f: {"options": pick(options[f])} for f in families},
    }
    if rng.random() < 0.3:
        spec["methods"] = list(rng.permutation(methods)[: max(2, n_methods - 1)])
    return rows, characteristics, spec


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_rankings_match_a_brute_force_implementation(seed):
    """Every combination's ranks (exactly) and values (to 1e-12) agree with plain loops."""
    rows, characteristics, spec = random_study(seed)
    frame = pd.DataFrame(rows)
    table = pd.DataFrame([{"ds": d, **c} for d, c in characteristics.items()])
    mv = rankings(frame, spec, characteristics=table)
    combos, ranks, values, methods = brute_force(rows, spec, characteristics)
    assert list(mv.methods) == methods
    assert list(mv.choices) == list(spec["choices"])
    assert len(mv.codes) == len(combos)
    got = mv.combinations
    for k, combo in enumerate(combos):
        assert dict(got.iloc[k]) == combo
        assert mv.index(combo) == k
    np.testing.assert_array_equal(mv.ranks, ranks)
    np.testing.assert_allclose(mv.values, values, rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------------------------------------
# a hand-computed example


def toy():
    """Two data sets, three methods, loss (lower is better, random 0.5), 4 iterations each; binary fractions
    so that every sum is exact.

    d1: A .125 .25 —  .375 (q = r = ¼)   B .25 .25 .25 .25             C — — — — (all failed)
    d2: A .125 ×4                        B .875 — — .375 (q = r = ½)   C .1875 ×4
    """
    table = {
        ("d1", "A"): [0.125, 0.25, None, 0.375],
        ("d1", "B"): [0.25] * 4,
        ("d1", "C"): [None] * 4,
        ("d2", "A"): [0.125] * 4,
        ("d2", "B"): [0.875, None, None, 0.375],
        ("d2", "C"): [0.1875] * 4,
    }
    rows = [{"dataset": d, "method": m, "loss": v} for (d, m), vs in table.items() for v in vs]
    spec = {
        "measures": {"loss": {"better": "lower", "random": 0.5}},
        "choices": {
            "imputation": {
                "default": "thr",
                "options": {
                    "thr": {"rule": "threshold", "threshold": 0.3},
                    "weighted": {"rule": "weighted"},
                    "random": {"rule": "random"},
                    "mean": {"rule": "mean"},
                },
            },
            "aggregation": {"options": ["mean", "median", "mean_rank", "best"]},
        },
    }
    return pd.DataFrame(rows), spec


def test_hand_computed_toy_example():
    """Pair values = (1 − q)·observed mean + q·imputed, then each aggregation, worked out by hand."""
    frame, spec = toy()
    mv = rankings(frame, spec)
    # pair values per imputation: (d1 A, d1 B, d1 C), (d2 A, d2 B, d2 C)
    pairs = {
        # d1 A: r = ¼ < 0.3 imputes its mean 0.25; C all failed → 0.5; d2 B: r = ½ → ½·0.625 + ½·0.5
        "thr": [[0.25, 0.25, 0.5], [0.125, 0.5625, 0.1875]],
        # d1 A: 0.5 − 0.25·¾ = 0.3125 → ¾·0.25 + ¼·0.3125; d2 B: mean 0.625 worse than random → 0.5
        "weighted": [[0.265625, 0.25, 0.5], [0.125, 0.5625, 0.1875]],
        "random": [[0.3125, 0.25, 0.5], [0.125, 0.5625, 0.1875]],
        "mean": [[0.25, 0.25, 0.5], [0.125, 0.625, 0.1875]],
    }
    for imputation, (d1, d2) in pairs.items():
        at = {"imputation": imputation, "datasets": "all", "measure": "loss"}
        mean = mv.index(dict(at, aggregation="mean"))
        np.testing.assert_array_equal(mv.values[mean], [(a + b) / 2 for a, b in zip(d1, d2, strict=True)])
        median = mv.index(dict(at, aggregation="median"))  # two data sets: the median is the mean
        np.testing.assert_array_equal(mv.values[median], mv.values[mean])
        np.testing.assert_array_equal(mv.ranks[median], mv.ranks[mean])
    k = mv.index({"imputation": "thr", "aggregation": "mean", "datasets": "all", "measure": "loss"})
    np.testing.assert_array_equal(mv.values[k], [0.1875, 0.40625, 0.34375])
    np.testing.assert_array_equal(mv.ranks[k], [1, 3, 2])
    # mean_rank under thr: d1 A and B tie (1.5, 1.5, 3), d2: 1, 3, 2 → 1.25, 2.25, 2.5
    k = mv.index({"imputation": "thr", "aggregation": "mean_rank", "datasets": "all", "measure": "loss"})
    np.testing.assert_array_equal(mv.values[k], [1.25, 2.25, 2.5])
    np.testing.assert_array_equal(mv.ranks[k], [1, 2, 3])
    assert mv.direction[k] == "lower"
    # best under thr: A best on d1 (tie with B) and d2 → 2; B 1; C 0
    k = mv.index({"imputation": "thr", "aggregation": "best", "datasets": "all", "measure": "loss"})
    np.testing.assert_array_equal(mv.values[k], [2, 1, 0])
    np.testing.assert_array_equal(mv.ranks[k], [1, 2, 3])
    assert mv.direction[k] == "higher"
    # under random, A on d1 (0.3125) is worse than B (0.25): each best once, none within 5 % → tie
    k = mv.index({"imputation": "random", "aggregation": "best", "datasets": "all", "measure": "loss"})
    np.testing.assert_array_equal(mv.values[k], [1, 1, 0])
    np.testing.assert_array_equal(mv.ranks[k], [1.5, 1.5, 3])


def test_ties_get_average_ranks():
    """Equal values share the average of their ranks: five-way, four-way and three-way ties."""
    frame = pd.DataFrame(
        {
            "dataset": ["d1"] * 5 + ["d2"] * 5,
            "method": list("ABCDE") * 2,
            "acc": [0.5, 0.75, 0.5, 0.5, 0.75, 0.5, 0.25, 0.5, 0.5, 0.25],
        }
    )
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}},
        "choices": {"aggregation": {"options": ["mean", "mean_rank"]}},
    }
    mv = rankings(frame, spec)
    np.testing.assert_array_equal(mv.values[0], [0.5] * 5)
    np.testing.assert_array_equal(mv.ranks[0], [3] * 5)
    # d1: B, E 1.5; A, C, D 4. d2: A, C, D 2; B, E 4.5 → every mean rank is 3
    np.testing.assert_array_equal(mv.values[1], [3] * 5)
    np.testing.assert_array_equal(mv.ranks[1], [3] * 5)
    frame.loc[9, "acc"] = 0.375  # E now above B on d2
    mv = rankings(frame, spec)
    np.testing.assert_array_equal(mv.values[0], [0.5, 0.5, 0.5, 0.5, 0.5625])
    np.testing.assert_array_equal(mv.ranks[0], [3.5, 3.5, 3.5, 3.5, 1])
    # d2: A, C, D 2; E 4; B 5 → A, C, D 3; B 3.25; E 2.75
    np.testing.assert_array_equal(mv.values[1], [3, 3.25, 3, 3, 2.75])
    np.testing.assert_array_equal(mv.ranks[1], [3, 5, 3, 3, 1])


# ---------------------------------------------------------------------------------------------------------
# layout of the multiverse


def layout_case():
    frame = pd.DataFrame(
        {
            "dataset": ["d1", "d1", "d2", "d2", "d3", "d3"],
            "method": ["A", "B"] * 3,
            "acc": [0.9, 0.8, 0.6, 0.7, 0.5, 0.4],
            "loss": [0.1, 0.2, 0.3, 0.2, 0.4, 0.5],
        }
    )
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}, "loss": {"better": "lower", "random": 0.3}},
        "choices": {
            "aggregation": {"default": "median", "options": ["mean", "median", "mean_rank"]},
            "data": {
                "family": "datasets",
                "options": {"all": {"rule": "all"}, "two": {"rule": "list", "datasets": ["d3", "d1"]}},
            },
            "measure": {"default": "loss", "options": ["acc", "loss"]},
        },
    }
    return frame, spec


def test_combinations_run_through_the_product_last_choice_fastest():
    """Combinations in spec order (left-out families last), the last choice changing fastest; index."""
    frame, spec = layout_case()
    mv = rankings(frame, spec)
    assert isinstance(mv, MultiverseResult)
    assert mv.choices == ("aggregation", "data", "measure", "imputation")
    assert mv.options == {
        "aggregation": ("mean", "median", "mean_rank"),
        "data": ("all", "two"),
        "measure": ("acc", "loss"),
        "imputation": ("mean",),
    }
    assert mv.defaults == {"aggregation": "median", "data": "all", "measure": "loss", "imputation": "mean"}
    expected = list(itertools.product(range(3), range(2), range(2), range(1)))
    np.testing.assert_array_equal(mv.codes, expected)
    combos = mv.combinations
    assert list(combos.columns) == list(mv.choices)
    for k, codes in enumerate(expected):
        selection = {c: mv.options[c][i] for c, i in zip(mv.choices, codes, strict=True)}
        assert mv.index(selection) == k
        assert dict(combos.iloc[k]) == selection
    assert mv.datasets == {"all": ("d1", "d2", "d3"), "two": ("d1", "d3")}
    assert mv.ranks.shape == mv.values.shape == (12, 2) and mv.direction.shape == (12,)
    # direction: acc higher, loss lower, mean_rank always lower
    np.testing.assert_array_equal(mv.direction, ["higher", "lower"] * 4 + ["lower"] * 4)
    np.testing.assert_array_equal(mv.lower_is_better, mv.direction == "lower")  # the old spelling
    # the "two" data sets on loss with mean: A 0.25, B 0.35
    k = mv.index({"aggregation": "mean", "data": "two", "measure": "loss", "imputation": "mean"})
    np.testing.assert_allclose(mv.values[k], [0.25, 0.35])
    np.testing.assert_array_equal(mv.ranks[k], [1, 2])


def test_index_with_an_unknown_option_fails():
    """index() needs an existing option of every choice."""
    frame, spec = layout_case()
    mv = rankings(frame, spec)
    with pytest.raises(ValueError):
        mv.index({"aggregation": "max", "data": "all", "measure": "acc", "imputation": "mean"})
    with pytest.raises(KeyError):
        mv.index({"aggregation": "mean", "data": "all", "measure": "acc"})


def test_rankings_table_columns_and_rows():
    """One row per combination × method: the choices, method, value and rank, in combination order."""
    frame, spec = layout_case()
    mv = rankings(frame, spec)
    table = mv.rankings_table()
    assert list(table.columns) == [*mv.choices, "method", "value", "rank"]
    assert len(table) == len(mv.codes) * len(mv.methods)
    assert list(table["method"][:4]) == ["A", "B", "A", "B"]
    np.testing.assert_array_equal(table["rank"], mv.ranks.ravel())
    np.testing.assert_array_equal(table["value"], mv.values.ravel())
    assert list(table["measure"][:4]) == ["acc", "acc", "loss", "loss"]


def test_summary_views():
    """rank_range, to_dict and repr describe the multiverse."""
    frame, spec = layout_case()
    mv = rankings(frame, spec)
    assert mv.rank_range() == {
        m: [float(mv.ranks[:, k].min()), float(mv.ranks[:, k].max())] for k, m in enumerate(mv.methods)
    }
    d = mv.to_dict()
    assert d["combinations"] == 12 and d["methods"] == ["A", "B"]
    assert d["choices"]["aggregation"] == {"options": ["mean", "median", "mean_rank"], "default": "median"}
    sizes = " \N{MULTIPLICATION SIGN} ".join(["3 aggregation", "2 data", "2 measure", "1 imputation"])
    assert repr(mv) == f"MultiverseResult(12 combinations = {sizes}; 2 methods)"


def test_first_share_counts_ties_for_first():
    """The share of combinations in which a method has the smallest rank: tied firsts count for each."""
    frame = pd.DataFrame(
        {"dataset": ["d1"] * 3 + ["d2"] * 3, "method": list("ABC") * 2, "acc": [0.9, 0.9, 0.1] * 2}
    )
    spec = {
        "measures": {"acc": {"better": "higher", "random": 0.5}},
        "choices": {"aggregation": {"options": ["mean", "best"]}},
    }
    mv = rankings(frame, spec)
    np.testing.assert_array_equal(mv.ranks, [[1.5, 1.5, 3], [1.5, 1.5, 3]])
    assert mv.first_share == {"A": 1.0, "B": 1.0, "C": 0.0}
    assert mv.to_dict()["first_share"] == mv.first_share
    assert mv.verdict.startswith("2 of 3 methods rank first under some combination, and a method's rank")
    frame, spec = layout_case()
    mv = rankings(frame, spec)
    first = mv.ranks == mv.ranks.min(axis=1, keepdims=True)
    assert mv.first_share == {m: first[:, k].mean() for k, m in enumerate(mv.methods)}


def test_to_frame_and_html():
    frame, spec = layout_case()
    frame["method"] = frame["method"].replace({"A": "<b>A & Co</b>"})
    mv = rankings(frame, spec)
    pd.testing.assert_frame_equal(mv.to_frame(), mv.rankings_table())
    assert list(mv.to_frame().columns) == [*mv.choices, "method", "value", "rank"]
    html = mv._repr_html_()
    assert "<b>" not in html and "<td>&lt;b&gt;A &amp; Co&lt;/b&gt;</td>" in html
    assert mv.verdict in html.replace("&#39;", "'") and "<svg" in html


def test_characteristics_may_name_their_data_sets_in_another_column():
    frame, spec = layout_case()
    spec["choices"]["data"]["options"]["small"] = {"rule": "below_median", "characteristic": "n"}
    characteristics = pd.DataFrame({"name": ["d1", "d2", "d3"], "n": [30, 10, 20]})
    mv = rankings(frame, spec, characteristics=characteristics, characteristics_dataset_column="name")
    assert mv.datasets["small"] == ("d2",)
    with pytest.raises(InputError, match=r"no column 'dataset' naming the data sets; found 'name', 'n'"):
        rankings(frame, spec, characteristics=characteristics)


def test_spec_methods_restrict_and_order_the_methods():
    """``methods:`` ranks only the listed methods, in that order; ranks are among them only."""
    frame = pd.DataFrame(
        {
            "dataset": ["d1"] * 4 + ["d2"] * 4,
            "method": list("ABCD") * 2,
            "acc": [0.9, 0.8, 0.7, 0.6, 0.9, 0.8, 0.7, 0.6],
        }
    )
    spec = {"measures": {"acc": {"better": "higher", "random": 0.5}}, "methods": ["D", "B"]}
    mv = rankings(frame, spec)
    assert mv.methods == ("D", "B")
    np.testing.assert_allclose(mv.values, [[0.6, 0.8]])
    np.testing.assert_array_equal(mv.ranks, [[2, 1]])


def test_spec_as_path_and_spec_object(tmp_path):
    """rankings accepts a YAML path, a dict or a Spec and gives the same result."""
    from benchtrust.multiverse import read_spec

    frame, _ = toy()
    path = tmp_path / "spec.yaml"
    path.write_text(
        "measures:\n  loss: {better: lower, random: 0.25}\n"
        "choices:\n  imputation: {options: {thr: {rule: threshold, threshold: 0.3}, w: {rule: weighted}}}\n",
        encoding="utf-8",
    )
    a = rankings(frame, path)
    b = rankings(frame, read_spec(path))
    np.testing.assert_array_equal(a.ranks, b.ranks)
    np.testing.assert_array_equal(a.values, b.values)
    assert a.spec.source == str(path)


def test_characteristics_need_every_data_set():
    """A characteristics table lacking a data set of the results is an InputError."""
    frame, spec = layout_case()
    with pytest.raises(InputError, match="no row for data set 'd3'"):
        rankings(frame, spec, characteristics=pd.DataFrame({"dataset": ["d1", "d2"], "n": [1, 2]}))


def test_bundled_study_is_consistent():
    """Smoke check on the bundled data: 288 combinations × 13 methods; ranks consistent with values."""
    from benchtrust.multiverse import bundled_study

    paths = bundled_study()
    mv = rankings(paths["results"], paths["spec"], characteristics=paths["characteristics"])
    assert mv.ranks.shape == (288, 13)
    n = len(mv.methods)
    np.testing.assert_allclose(mv.ranks.sum(axis=1), n * (n + 1) / 2)
    assert mv.ranks.min() >= 1 and mv.ranks.max() <= n
    # within a combination, a better value never gets a worse rank (the first key of best0.05 included)
    for k in range(0, 288, 7):
        v = -mv.values[k] if mv.direction[k] == "lower" else mv.values[k]
        for i in range(n):
            for j in range(n):
                if v[i] > v[j]:
                    assert mv.ranks[k, i] < mv.ranks[k, j]
