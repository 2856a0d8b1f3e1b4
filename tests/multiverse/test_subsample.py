"""subsample (Nießl et al. 2022, §4.2, Fig. 6 / S3): orders read and checked, distinct sets, the ranks
against rankings() on the same sets, seeded random orders, the result's views and plot_subsample."""

import itertools
import json

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError, save_figure
from benchtrust.multiverse import (
    SubsampleResult,
    bundled_orders,
    bundled_study,
    plot_subsample,
    rankings,
    subsample,
)
from benchtrust.multiverse import _subsample as module

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DATASETS = ["A", "B", "C", "D"]
SPEC = {
    "measures": {
        "acc": {"better": "higher", "random": 0.5},
        "loss": {"better": "lower", "random": 1.0},
    },
    "choices": {
        "measure": {"default": "acc", "options": ["acc", "loss"]},
        "imputation": {"default": "thr", "options": {"thr": {"rule": "threshold"}, "mean": {"rule": "mean"}}},
        "aggregation": {
            "default": "rank",
            "options": {"mean": {"rule": "mean"}, "rank": {"rule": "mean_rank"}},
        },
    },
}


def toy_results(seed=0, datasets=DATASETS, methods=("m1", "m2", "m3"), iterations=5):
    rng = np.random.default_rng(seed)
    rows = [
        {"dataset": d, "method": m, "acc": rng.uniform(0.4, 0.9), "loss": rng.uniform(0.2, 1.2)}
        for d, m, _ in itertools.product(datasets, methods, range(iterations))
    ]
    frame = pd.DataFrame(rows)
    frame.loc[rng.random(len(frame)) < 0.15, "acc"] = np.nan  # failed iterations
    return frame


def keys(result):
    return list(zip(result.table["rep"], result.table["nrdatasets"], strict=True))


# --- orders: reading and checking ------------------------------------------------------------------------


def write(tmp_path, text, name="orders.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "rep,pos1,pos2,pos3,pos4\n1,A,B,C,D\n2,A,XX,C,D\n",
            r"orders\.csv, line 3, column 'pos2': 'XX' is not a data set of the results \(A, B, C, D\)",
        ),
        (
            "rep,pos1,pos2,pos3,pos4\n1,A,B,C,D\n2,B,C,B,D\n",
            r"orders\.csv, line 3, column 'pos3': 'B' appears a second time in this order \(first in column "
            r"'pos1'\)",
        ),
        (
            "rep,pos1,pos2,pos3\n1,A,B,C\n",
            r"orders\.csv, line 1: 3 position column\(s\) \('pos1', 'pos2', 'pos3'\) but the results have 4 "
            "data sets",
        ),
        (
            "rep,pos1,pos2,pos3,pos4\n1,A,B,C,D\n1,D,C,B,A\n",
            r"orders\.csv, line 3, column 'rep': '1' labels a second order",
        ),
        ("rep,pos1,pos2,pos3,pos4\n1,A,B,,D\n", r"orders\.csv, line 2, column 'pos3': empty"),
        ("rep,pos1,pos2,pos3,pos4\n1,A,B,C\n", r"orders\.csv, line 2: 4 fields, but the header"),
        ("rep,pos1,pos2,pos3,pos4\n", r"orders\.csv: no rows below the header"),
    ],
)
def test_bad_order_files_name_the_file_line_and_column(tmp_path, text, message):
    with pytest.raises(InputError, match=message):
        subsample(toy_results(), SPEC, orders=write(tmp_path, text))


def test_bad_orders_in_a_dataframe_or_sequence_name_the_row_and_column():
    frame = pd.DataFrame(
        {"rep": [7, 8], "p1": ["A", "D"], "p2": ["B", "C"], "p3": ["C", "C"], "p4": ["D", "A"]}
    )
    with pytest.raises(InputError, match=r"<table>, row 1, column 'p3': 'C' appears a second time .*'p2'"):
        subsample(toy_results(), SPEC, orders=frame)
    with pytest.raises(InputError, match=r"<table>, row 0, column 'pos4': 'E' is not a data set"):
        subsample(toy_results(), SPEC, orders=[["A", "B", "C", "E"]])
    with pytest.raises(InputError, match=r"<table>, row 1, column 'pos4': empty"):
        subsample(toy_results(), SPEC, orders=[["A", "B", "C", "D"], ["A", "B", "C"]])
    for bad in (["A", "B", "C", "D"], [], 3, {"rep": 1}):
        with pytest.raises(InputError, match="orders"):
            subsample(toy_results(), SPEC, orders=bad)


def test_bad_arguments():
    results = toy_results()
    with pytest.raises(InputError, match="n_orders: give either orders or n_orders"):
        subsample(results, SPEC, orders=[DATASETS], n_orders=3)
    with pytest.raises(InputError, match="n_orders: expected a positive whole number"):
        subsample(results, SPEC, n_orders=0)
    with pytest.raises(
        InputError, match=r"measure: 'auc' is not a measure of spec; expected one of acc, loss"
    ):
        subsample(results, SPEC, measure="auc")
    with pytest.raises(InputError, match="seed: expected a non-negative int"):
        subsample(results, SPEC, seed="x")


def test_orders_as_file_dataframe_and_sequence_agree(tmp_path):
    rows = [["B", "A", "D", "C"], ["A", "B", "C", "D"], ["C", "D", "A", "B"]]
    text = "rep,pos1,pos2,pos3,pos4\n" + "".join(f"{k + 1},{','.join(r)}\n" for k, r in enumerate(rows))
    from_file = subsample(toy_results(), SPEC, orders=write(tmp_path, text))
    from_frame = subsample(toy_results(), SPEC, orders=pd.DataFrame(rows, columns=["a", "b", "c", "d"]))
    from_list = subsample(toy_results(), SPEC, orders=rows)
    from_array = subsample(toy_results(), SPEC, orders=np.array(rows))
    for other in (from_frame, from_list, from_array):
        pd.testing.assert_frame_equal(other.table, from_file.table)
        pd.testing.assert_frame_equal(other.orders, from_file.orders)
    assert from_file.orders.columns.tolist() == ["rep", "pos1", "pos2", "pos3", "pos4"]
    assert from_file.orders.iloc[0, 1:].tolist() == rows[0]


def test_text_labels_are_kept():
    rows = [["x", "A", "B", "C", "D"], ["y", "B", "A", "C", "D"]]
    result = subsample(toy_results(), SPEC, orders=pd.DataFrame(rows, columns=["Rep", "1", "2", "3", "4"]))
    assert keys(result) == [("x", 1), ("x", 2), ("x", 3), ("y", 1), ("x", 4)]


# --- distinct sets -----------------------------------------------------------------------------------------


def test_duplicate_sets_are_dropped_and_all_data_sets_come_last():
    orders = [["A", "B", "C", "D"], ["A", "B", "D", "C"], ["B", "A", "C", "D"], ["D", "C", "B", "A"]]
    result = subsample(toy_results(), SPEC, orders=orders)
    # order 2 repeats {A} and {A, B}; order 3 repeats {A, B} and {A, B, C}; order 4 is new throughout
    assert keys(result) == [(1, 1), (1, 2), (1, 3), (2, 3), (3, 1), (4, 1), (4, 2), (4, 3), (1, 4)]
    sets = [frozenset(np.array(DATASETS)[row]) for row in result.included]
    assert sets == [
        {"A"},
        {"A", "B"},
        {"A", "B", "C"},
        {"A", "B", "D"},
        {"B"},
        {"D"},
        {"C", "D"},
        {"B", "C", "D"},
        set(DATASETS),
    ]
    assert result.candidates == 4 * 3
    assert result.to_dict()["duplicates_dropped"] == 4
    assert result.ranks.shape == (9, 3)


def test_of_repeated_sets_the_order_first_as_text_is_kept():
    """As in the reference analysis (R sorted the labels as text): order 10 comes before order 2."""
    orders = pd.DataFrame(
        [[2, "A", "B", "C", "D"], [10, "A", "C", "B", "D"]], columns=["rep", "pos1", "pos2", "pos3", "pos4"]
    )
    result = subsample(toy_results(), SPEC, orders=orders)
    # 10: {A}, {A, C}, {A, B, C}; 2: {A} and {A, B, C} again, {A, B} new; all four labelled 10
    assert keys(result) == [(2, 2), (10, 1), (10, 2), (10, 3), (10, 4)]
    assert result.table["rep"].dtype.kind == "i"


def test_ranks_equal_those_of_rankings_on_the_same_sets():
    """An independent path: each distinct set as a 'list' data-set option of rankings()."""
    results = toy_results(seed=3, datasets=list("ABCDEF"), methods=("m1", "m2", "m3", "m4"))
    rng = np.random.default_rng(1)
    orders = [list(rng.permutation(list("ABCDEF"))) for _ in range(6)]
    for measure, aggregation in [("acc", "rank"), ("loss", "rank"), ("acc", "mean"), ("loss", "mean")]:
        spec = json.loads(json.dumps(SPEC))
        spec["choices"]["aggregation"]["default"] = aggregation
        result = subsample(results, spec, orders=orders, measure=measure)
        assert result.measure == measure and result.aggregation == aggregation
        sets = {f"s{k}": list(np.array(list("ABCDEF"))[row]) for k, row in enumerate(result.included)}
        spec["choices"] = {
            "datasets": {
                "options": {name: {"rule": "list", "datasets": kept} for name, kept in sets.items()}
            },
            "measure": {"options": [measure]},
            "imputation": {"options": {"thr": {"rule": "threshold"}}},
            "aggregation": {"options": [{"rank": "mean_rank"}.get(aggregation, aggregation)]},
        }
        expected = rankings(results, spec)
        np.testing.assert_array_equal(result.ranks, expected.ranks)
        np.testing.assert_allclose(result.values, expected.values, rtol=0, atol=1e-12)
        lower = measure == "loss" or aggregation == "rank"  # mean_rank: a lower mean rank is better
        assert result.direction == expected.direction[0] == ("lower" if lower else "higher")
        assert result.lower_is_better == lower


def test_blocks_of_aggregation_give_the_same_ranks(monkeypatch):
    results = toy_results(seed=2)
    whole = subsample(results, SPEC, n_orders=20, seed=5)
    monkeypatch.setattr(module, "_CELLS_PER_CALL", 1)  # one set per aggregation call
    pieces = subsample(results, SPEC, n_orders=20, seed=5)
    np.testing.assert_array_equal(pieces.ranks, whole.ranks)
    pd.testing.assert_frame_equal(pieces.table, whole.table)


def test_a_single_data_set_gives_only_the_full_ranking():
    result = subsample(toy_results(datasets=["A"]), SPEC, n_orders=3)
    assert keys(result) == [(1, 1)]
    assert result.candidates == 0


# --- random orders -----------------------------------------------------------------------------------------


def test_seeded_random_orders_are_reproducible_permutations():
    results = toy_results()
    first = subsample(results, SPEC, seed=11)
    again = subsample(results, SPEC, seed=np.random.default_rng(11))
    other = subsample(results, SPEC, seed=12)
    assert len(first.orders) == 50
    pd.testing.assert_frame_equal(first.orders, again.orders)
    pd.testing.assert_frame_equal(first.table, again.table)
    assert not first.orders.equals(other.orders)
    positions = first.orders.drop(columns="rep").to_numpy()
    assert all(sorted(row) == DATASETS for row in positions)
    assert first.orders["rep"].tolist() == list(range(1, 51))
    assert len(subsample(results, SPEC, n_orders=4, seed=0).orders) == 4


def test_all_possible_sets_of_few_data_sets():
    """Many random orders of 4 data sets reach every one of the 2**4 - 2 proper non-empty subsets."""
    result = subsample(toy_results(), SPEC, n_orders=200, seed=0)
    assert len(result.ranks) == 2**4 - 2 + 1
    assert len({tuple(row) for row in result.included}) == len(result.included)
    assert result.table.groupby("nrdatasets").size().tolist() == [4, 6, 4, 1]


# --- the bundled study -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def multiverse():
    return rankings(**bundled_study())


@pytest.mark.parametrize("measure", ["ibrier", "cindex"])
def test_the_all_data_row_is_the_default_ranking_of_rankings(multiverse, measure):
    result = subsample(**bundled_study(), orders=bundled_orders(), measure=measure)
    selection = dict(multiverse.defaults) | {"measure": measure}
    assert result.methods == multiverse.methods
    np.testing.assert_array_equal(result.full, multiverse.ranks[multiverse.index(selection)])
    np.testing.assert_allclose(result.values[-1], multiverse.values[multiverse.index(selection)], rtol=1e-12)
    assert tuple(result.table.iloc[-1][["rep", "nrdatasets"]]) == (1, 18)
    assert result.included[-1].all() and result.included[:-1].sum(axis=1).max() == 17


def test_views_of_the_result(tmp_path):
    result = subsample(**bundled_study(), orders=bundled_orders())
    assert isinstance(result, SubsampleResult)
    assert str(result) == repr(result)
    assert repr(result).startswith(
        "774 distinct rankings of 13 methods from 50 orders of 18 data sets (ibrier, threshold0.2, mean)"
    )
    out = result.to_dict()
    assert json.loads(json.dumps(out)) == out
    assert out["rankings"] == 774 and out["candidates"] == 850 and out["duplicates_dropped"] == 77
    assert sum(out["rankings_by_nrdatasets"].values()) == 774
    assert out["full_ranking"]["blockForest"] == 1.0
    frame = result.to_frame()
    pd.testing.assert_frame_equal(frame, result.table)
    frame.iloc[0, 2] = -1.0  # a copy
    assert result.table.iloc[0, 2] != -1.0
    assert result.table.columns.tolist() == ["rep", "nrdatasets", *result.methods]
    assert result.winners == ("blockForest",) and result.winners_first_in == 415
    assert result.verdict == str(result) and result.verdict.endswith("is first in 415 (54%) of them.")
    shares = result.first_share
    assert out["first_share"] == shares and shares["blockForest"] == pytest.approx(415 / 774)
    html = result._repr_html_()
    assert html.count("<tr>") == 14 and "blockForest" in html and "Fig. 6" in html
    assert "<td>blockForest</td><td>1</td><td>1</td>" in html


def test_tied_winners_share_the_verdict():
    """Two methods tied first on all data sets are both winners; a ranking counts once if either is first."""
    results = toy_results(datasets=["A", "B"], methods=("m1", "m2", "m3"))
    results["acc"] = results["method"].map({"m1": 0.9, "m2": 0.9, "m3": 0.5})
    result = subsample(results, SPEC, n_orders=2)
    assert result.winners == ("m1", "m2")
    assert result.winners_first_in == len(result.ranks)
    assert result.first_share == {"m1": 1.0, "m2": 1.0, "m3": 0.0}
    assert "m1 and m2, first on all 2, are first in" in result.verdict


def test_orders_label_column_names_the_labels(tmp_path):
    text = "order,p1,p2,p3,p4\nx,A,B,C,D\ny,D,C,B,A\n"
    result = subsample(toy_results(), SPEC, orders=write(tmp_path, text), orders_label_column="Order")
    assert result.orders["rep"].tolist() == ["x", "y"]
    other = write(tmp_path, text.replace("order", "id"))
    with pytest.raises(InputError, match=r"orders\.csv, line 1: no column 'rep' labelling the orders"):
        subsample(toy_results(), SPEC, orders=other, orders_label_column="rep")
    with pytest.raises(InputError, match="5 position column"):  # without it, labels are taken as positions
        subsample(toy_results(), SPEC, orders=write(tmp_path, text))


def test_html_escapes_method_names():
    results = toy_results().replace({"method": {"m1": "<b>m1</b>"}})
    html = subsample(results, SPEC, n_orders=2)._repr_html_()
    assert "<b>" not in html and "&lt;b&gt;m1&lt;/b&gt;" in html


# --- plot ---------------------------------------------------------------------------------------------------


def test_plot_subsample_draws_a_map_with_a_colour_bar(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(0)
    arguments = (rng.normal(size=(30, 2)), rng.normal(size=(4, 2)), list("abcd"), rng.integers(1, 8, 30))
    ax = plot_subsample(*arguments)
    assert tuple(ax.figure.get_size_inches()) == (7.6, 6.2)
    assert [text.get_text() for text in ax.texts] == list("abcd")
    assert len(ax.figure.axes) == 2  # the map and its colour bar
    assert list(tmp_path.iterdir()) == []
    figure = Figure()
    given = figure.add_subplot()
    assert plot_subsample(*arguments, ax=given, title="custom") is given
    assert figure.get_suptitle() == "custom" and len(figure.axes) == 2
    path = save_figure(ax, tmp_path / "f6")
    assert path.read_bytes()[:8] == PNG_SIGNATURE


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((np.zeros((3, 2)), np.zeros((2, 2)), ["a", "b"], [1, 2]), r"nrdatasets must hold 3 numbers"),
        ((np.zeros((3, 2)), np.zeros((2, 2)), ["a", "b"], [1, 2, np.nan]), "nrdatasets contains NaN"),
        ((np.zeros((3, 2)), np.zeros((2, 2)), ["a", "b"], ["x", 1, 2]), "nrdatasets must be numbers"),
        ((np.zeros((3, 3)), np.zeros((2, 2)), ["a", "b"], [1, 2, 3]), "row_points must have 2 columns"),
        ((np.zeros((3, 2)), np.zeros((2, 2)), ["a"], [1, 2, 3]), "methods has 1 names"),
    ],
)
def test_plot_subsample_checks_its_input(arguments, message):
    with pytest.raises(InputError, match=message):
        plot_subsample(*arguments)
