"""Reading long-format results for a multiverse: arrangement, failure rates and errors naming the place."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust.multiverse import rankings, read_spec
from benchtrust.multiverse._data import read_characteristics, read_results

nan = np.nan

TWO = {
    "columns": {"dataset": "ds", "method": "learner", "iteration": "iter"},
    "measures": {
        "loss": {"better": "lower", "random": 0.25},
        "cidx": {"column": "c", "better": "higher", "random": 0.5, "failed_values": [0]},
    },
    "choices": {"measure": {"options": ["loss", "cidx"]}},
}

# d1/A: 3 iterations, one with loss missing, one with c = 0 (failed); d1/B: 2 clean; d2/A: 1 clean;
# d2/B: 4 iterations, both measures missing in one, c missing in another
CSV = """\
ds,learner,iter,loss,c
d1,A,1,0.10,0.70
d1,A,2,,0.80
d1,A,3,0.20,0
d1,B,1,0.30,0.60
d1,B,2,0.40,0.65
d2,A,1,0.15,0.90
d2,B,1,,
d2,B,2,0.22,0.75
d2,B,3,0.24,NA
d2,B,4,0.26,0.55
"""


def frame():
    return pd.read_csv(pd.io.common.StringIO(CSV), keep_default_na=True)


def write(tmp_path, text, name="results.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def same_results(a, b):
    """Equal Results apart from the source."""
    assert a.datasets == b.datasets and a.methods == b.methods
    assert set(a.values) == set(b.values)
    for name in a.values:
        np.testing.assert_array_equal(a.values[name], b.values[name])
        np.testing.assert_array_equal(a.failure_rate[name], b.failure_rate[name])
    np.testing.assert_array_equal(a.rows, b.rows)


# ---------------------------------------------------------------------------------------------------------
# arrangement


def test_values_are_arranged_by_dataset_method_iteration():
    """Values (data sets × methods × iterations), nan where missing, failed or beyond a pair's rows."""
    r = read_results(frame(), read_spec(TWO))
    assert r.datasets == ("d1", "d2") and r.methods == ("A", "B") and r.source == "<table>"
    np.testing.assert_array_equal(r.rows, [[3, 2], [1, 4]])
    np.testing.assert_array_equal(
        r.values["loss"],
        [
            [[0.10, nan, 0.20, nan], [0.30, 0.40, nan, nan]],
            [[0.15, nan, nan, nan], [nan, 0.22, 0.24, 0.26]],
        ],
    )
    np.testing.assert_array_equal(
        r.values["cidx"],
        [  # the 0 of d1/A is a failed value
            [[0.70, 0.80, nan, nan], [0.60, 0.65, nan, nan]],
            [[0.90, nan, nan, nan], [nan, 0.75, nan, 0.55]],
        ],
    )


def test_failure_any_counts_a_row_failed_in_any_measure_but_keeps_values():
    """failure: any — r counts rows where any measure is missing; observed values stay."""
    r = read_results(frame(), read_spec(TWO))
    expected = [[2 / 3, 0.0], [0.0, 2 / 4]]
    np.testing.assert_allclose(r.failure_rate["loss"], expected)
    np.testing.assert_allclose(r.failure_rate["cidx"], expected)
    assert r.values["loss"][0, 0, 2] == 0.20  # the row whose c failed keeps its loss
    assert r.values["cidx"][1, 1, 2] != r.values["cidx"][1, 1, 2]  # NA is missing


def test_failure_each_counts_only_the_measures_own_missing_values():
    """failure: each — each measure's r counts its own missing (or failed) values."""
    r = read_results(frame(), read_spec(dict(TWO, failure="each")))
    np.testing.assert_allclose(r.failure_rate["loss"], [[1 / 3, 0.0], [0.0, 1 / 4]])
    np.testing.assert_allclose(r.failure_rate["cidx"], [[1 / 3, 0.0], [0.0, 2 / 4]])
    any_ = read_results(frame(), read_spec(TWO))
    for name in ("loss", "cidx"):
        np.testing.assert_array_equal(r.values[name], any_.values[name])


def test_failed_values_are_missing_only_for_their_measure():
    """failed_values turn equal values of that measure into missing ones; other measures' zeros stay."""
    table = pd.DataFrame(
        {
            "dataset": ["d1"] * 4,
            "method": ["A", "A", "B", "B"],
            "x": [0.0, -1.0, 0.5, 0.0],
            "y": [0.0, 0.3, -1.0, 0.2],
        }
    )
    spec = read_spec(
        {
            "measures": {
                "x": {"better": "higher", "random": 0.5, "failed_values": [-1, 0]},
                "y": {"better": "lower", "random": 1},
            },
            "choices": {"measure": {"options": ["x", "y"]}},
            "failure": "each",
        }
    )
    r = read_results(table, spec)
    np.testing.assert_array_equal(r.values["x"], [[[nan, nan], [0.5, nan]]])
    np.testing.assert_array_equal(r.values["y"], [[[0.0, 0.3], [-1.0, 0.2]]])
    np.testing.assert_allclose(r.failure_rate["x"], [[1.0, 0.5]])
    np.testing.assert_allclose(r.failure_rate["y"], [[0.0, 0.0]])


def test_dataframe_and_csv_give_the_same_results(tmp_path):
    """The same table as a DataFrame and as a CSV file (also tab-separated) read the same."""
    spec = read_spec(TWO)
    from_frame = read_results(frame(), spec)
    path = write(tmp_path, CSV)
    from_file = read_results(path, spec)
    same_results(from_frame, from_file)
    assert from_file.source == str(path)
    tsv = write(tmp_path, CSV.replace(",", "\t"), name="results.tsv")
    same_results(from_frame, read_results(tsv, spec))


def test_dataframe_and_csv_rankings_agree(tmp_path):
    """rankings() on the DataFrame and on the CSV file give the same ranks and values."""
    spec = dict(
        TWO,
        choices={
            "measure": {"options": ["loss", "cidx"]},
            "imputation": {"options": {"t": {"rule": "threshold"}, "w": {"rule": "weighted"}}},
            "aggregation": {"options": ["mean", "mean_rank"]},
        },
    )
    a = rankings(frame(), spec)
    b = rankings(write(tmp_path, CSV), spec)
    np.testing.assert_array_equal(a.ranks, b.ranks)
    np.testing.assert_array_equal(a.values, b.values)


def test_numeric_dataset_ids_read_the_same_from_a_dataframe_and_a_csv(tmp_path):
    """Integer data-set ids: the DataFrame and the CSV give the same names (and characteristics match)."""
    text = "dataset,method,acc\n1,A,0.9\n1,B,0.8\n2,A,0.7\n2,B,0.6\n"
    spec = read_spec({"measures": {"acc": {"better": "higher", "random": 0.5}}})
    assert (
        read_results(pd.read_csv(write(tmp_path, text)), spec).datasets
        == read_results(write(tmp_path, text), spec).datasets
    )


def test_pairs_with_different_numbers_of_iterations():
    """Pairs may have 1 to k rows; the rest of the iteration axis is nan and does not count as failed."""
    table = pd.DataFrame(
        {
            "dataset": ["d1"] * 6 + ["d2"] * 3,
            "method": ["A"] * 5 + ["B"] + ["A", "B", "B"],
            "acc": [0.1, 0.2, 0.3, None, 0.5, 0.9, 0.4, 0.6, 0.8],
        }
    )
    r = read_results(table, read_spec({"measures": {"acc": {"better": "higher", "random": 0.5}}}))
    np.testing.assert_array_equal(r.rows, [[5, 1], [1, 2]])
    assert r.values["acc"].shape == (2, 2, 5)
    np.testing.assert_allclose(r.failure_rate["acc"], [[0.2, 0.0], [0.0, 0.0]])
    np.testing.assert_array_equal(r.values["acc"][1, 1], [0.6, 0.8, nan, nan, nan])


def test_without_iteration_column_repeats_are_iterations():
    """No iteration column: each row of a pair is one more iteration, in file order."""
    table = pd.DataFrame({"dataset": ["d1"] * 4, "method": ["A", "B", "A", "B"], "acc": [1, 2, 3, 4]})
    r = read_results(table, read_spec({"measures": {"acc": {"better": "higher", "random": 0.5}}}))
    np.testing.assert_array_equal(r.values["acc"], [[[1, 3], [2, 4]]])


def test_methods_in_order_of_appearance_or_of_the_spec():
    """Methods in order of first appearance; a spec's ``methods:`` picks and orders them."""
    table = pd.DataFrame(
        {
            "dataset": ["d1"] * 3 + ["d2"] * 3,
            "method": ["C", "A", "B"] * 2,
            "acc": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
        }
    )
    measures = {"acc": {"better": "higher", "random": 0.5}}
    assert read_results(table, read_spec({"measures": measures})).methods == ("C", "A", "B")
    r = read_results(table, read_spec({"measures": measures, "methods": ["B", "C"]}))
    assert r.methods == ("B", "C")
    np.testing.assert_array_equal(r.values["acc"][:, :, 0], [[0.3, 0.1], [0.6, 0.4]])


def test_restricting_methods_raises_no_deprecation_warning():
    """A spec listing only some of the methods reads without a pandas deprecation warning."""
    table = pd.DataFrame({"dataset": ["d1"] * 3, "method": ["C", "A", "B"], "acc": [0.1, 0.2, 0.3]})
    spec = read_spec({"measures": {"acc": {"better": "higher", "random": 0.5}}, "methods": ["B", "C"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_results(table, spec)


# ---------------------------------------------------------------------------------------------------------
# errors


def test_missing_column_names_the_spec(tmp_path):
    """A column the spec names but the file lacks: the file's header line and the spec's name."""
    path = write(tmp_path, CSV.replace(",c\n", ",cindex\n", 1))
    spec_path = tmp_path / "spec.yaml"
    spec_path.write_text(
        "columns: {dataset: ds, method: learner, iteration: iter}\n"
        "measures:\n"
        "  loss: {better: lower, random: 0.25}\n"
        "  cidx: {column: c, better: higher, random: 0.5}\n"
        "choices: {measure: {options: [loss, cidx]}}\n",
        encoding="utf-8",
    )
    pattern = re.escape(f"{path}, line 1: no column 'c' (named in {spec_path}); found 'ds', 'learner'")
    with pytest.raises(InputError, match=pattern):
        read_results(path, read_spec(spec_path))
    with pytest.raises(InputError, match=re.escape("no column 'learner' (named in spec)")):
        read_results(frame().rename(columns={"learner": "method"}), read_spec(TWO))


def test_non_number_cell(tmp_path):
    """A cell that is not a number: file, line and column."""
    path = write(tmp_path, CSV.replace("d2,B,3,0.24,NA", "d2,B,3,0.24,n/a?"))
    with pytest.raises(InputError, match=re.escape(f"{path}, line 10, column 'c': ") + ".*not a number"):
        read_results(path, read_spec(TWO))
    path = write(tmp_path, CSV.replace("d1,B,2,0.40", "d1,B,2,inf"), name="inf.csv")
    with pytest.raises(InputError, match=re.escape(f"{path}, line 6, column 'loss': 'inf' is not a finite")):
        read_results(path, read_spec(TWO))


def test_non_number_cell_in_a_dataframe():
    """In a DataFrame the place is the row label."""
    table = frame().astype({"loss": object})
    table.loc[3, "loss"] = "high"
    with pytest.raises(InputError, match=re.escape("<table>, row 3, column 'loss': ")):
        read_results(table, read_spec(TWO))


def test_duplicate_iteration_when_declared(tmp_path):
    """A repeated (data set, method, iteration): the second row's line."""
    path = write(tmp_path, CSV.replace("d2,B,3,", "d2,B,2,"))
    with pytest.raises(
        InputError,
        match=re.escape(f"{path}, line 10: data set 'd2', method 'B', iteration '2' appears a second time"),
    ):
        read_results(path, read_spec(TWO))


def test_repeats_are_fine_without_an_iteration_column(tmp_path):
    """Without a declared iteration column the same file has no duplicates: the rows are iterations."""
    path = write(tmp_path, CSV.replace("d2,B,3,", "d2,B,2,"))
    spec = read_spec(dict(TWO, columns={"dataset": "ds", "method": "learner"}))
    np.testing.assert_array_equal(read_results(path, spec).rows, [[3, 2], [1, 4]])


def test_a_pair_without_rows(tmp_path):
    """A method missing on a data set: the file and the pair."""
    text = "".join(line for line in CSV.splitlines(keepends=True) if not line.startswith("d2,A"))
    path = write(tmp_path, text)
    with pytest.raises(InputError, match=re.escape(f"{path}: no rows for data set 'd2' and method 'A'")):
        read_results(path, read_spec(TWO))


def test_spec_method_without_results(tmp_path):
    """A method the spec lists but the results lack: the spec's key and the results file."""
    path = write(tmp_path, CSV)
    with pytest.raises(InputError, match=re.escape(f"spec (methods.1): method 'Z' has no results in {path}")):
        read_results(path, read_spec(dict(TWO, methods=["A", "Z"])))


def test_empty_name_cell(tmp_path):
    """An empty data-set name: its line and column."""
    path = write(tmp_path, CSV.replace("d2,A,1", ",A,1"))
    with pytest.raises(InputError, match=re.escape(f"{path}, line 7, column 'ds': empty, expected a data")):
        read_results(path, read_spec(TWO))


def test_not_a_table():
    """Neither a path nor a DataFrame."""
    with pytest.raises(InputError, match="expected a file path or a pandas DataFrame"):
        read_results([1, 2], read_spec(TWO))


# ---------------------------------------------------------------------------------------------------------
# characteristics


def test_characteristics_are_indexed_by_data_set(tmp_path):
    """One row per data set (extra rows ignored); a text column is kept but marked not numeric."""
    path = write(tmp_path, "ds,n,kind\nd2,20,x\nd1,10,y\nd9,90,z\n", name="chars.csv")
    table = read_characteristics(path, ("d1", "d2"), dataset_column="ds")
    assert table.loc["d1", "n"] == 10 and table.loc["d2", "n"] == 20
    assert "kind" in table.attrs["not_numeric"]


def test_characteristics_errors(tmp_path):
    """A missing data set, a repeated one, and a rule on a text column, each named."""
    path = write(tmp_path, "ds,n\nd1,10\n", name="chars.csv")
    with pytest.raises(InputError, match=re.escape(f"{path}: no row for data set 'd2'")):
        read_characteristics(path, ("d1", "d2"), dataset_column="ds")
    path = write(tmp_path, "ds,n\nd1,10\nd2,3\nd1,4\n", name="twice.csv")
    with pytest.raises(InputError, match=re.escape(f"{path}, line 4: data set 'd1' has a second row")):
        read_characteristics(path, ("d1", "d2"), dataset_column="ds")
    path = write(tmp_path, "ds,kind\nd1,x\nd2,y\n", name="text.csv")
    spec = dict(
        TWO,
        choices={
            "measure": {"options": ["loss"]},
            "datasets": {"options": {"k": {"rule": "below_median", "characteristic": "kind"}}},
        },
    )
    with pytest.raises(
        InputError,
        match=r"spec \(choices\.datasets\.options\.k\): characteristic 'kind': "
        + re.escape(f"{path}, line 2, column 'kind'"),
    ):
        rankings(frame(), spec, characteristics=path)
