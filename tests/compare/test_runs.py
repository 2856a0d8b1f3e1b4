"""Reading RUNS.csv and HISTORY.csv: pairing by a column, and every mistake named by file, line, column."""

import pytest

from benchtrust import InputError
from benchtrust.compare._pipelines._runs import read_history, read_runs

RUNS = "algorithm,seed,score\nA,1,0.90\nB,1,0.80\nB,2,0.85\nA,2,0.91\nA,3,0.92\nB,3,0.95\n"
AB = {"a": "A", "b": "B"}
PAIRED = {**AB, "pair_by": "seed"}


def write(tmp_path, text, name="runs.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_pairs_by_equal_values_of_the_column(tmp_path):
    runs = read_runs(write(tmp_path, RUNS), a="A", b="B", pair_by="seed")
    assert runs.paired and runs.pair_by == "seed"
    assert runs.keys == ("1", "2", "3")
    assert runs.a.tolist() == [0.90, 0.91, 0.92]
    assert runs.b.tolist() == [0.80, 0.85, 0.95]
    assert runs.algorithms == ("A", "B")


def test_pairing_follows_a_s_order_whatever_b_s(tmp_path):
    text = "algorithm,seed,score\nB,3,0.3\nB,1,0.1\nA,1,0.5\nB,2,0.2\nA,3,0.7\nA,2,0.6\n"
    runs = read_runs(write(tmp_path, text), a="A", b="B", pair_by="seed")
    assert runs.keys == ("1", "3", "2")
    assert runs.a.tolist() == [0.5, 0.7, 0.6]
    assert runs.b.tolist() == [0.1, 0.3, 0.2]


def test_unpaired_keeps_the_file_order_and_unequal_counts(tmp_path):
    text = RUNS + "B,4,0.5\nC,1,0.1\n"
    runs = read_runs(write(tmp_path, text), a="B", b="A")
    assert not runs.paired and runs.keys == ()
    assert runs.a.tolist() == [0.80, 0.85, 0.95, 0.5]
    assert runs.b.tolist() == [0.90, 0.91, 0.92]
    assert runs.algorithms == ("A", "B", "C")


def test_tabs_comments_and_any_case_in_the_header(tmp_path):
    text = "# runs of two models\nAlgorithm\tSeed\tScore\n\nA\t1\t0.9\nA\t2\t0.8\nB\t2\t0.7\nB\t1\t0.6\n"
    runs = read_runs(write(tmp_path, text), a="A", b="B", pair_by="seed")
    assert runs.pair_by == "Seed"
    assert runs.b.tolist() == [0.6, 0.7]


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        (RUNS, {"a": "A", "b": "C"}, "no runs of algorithm 'C'; the algorithms in the file are 'A', 'B'"),
        ("algorithm,score\nA,0.9\nB,0.8\nB,0.7\n", AB, "'A' has 1 run (line 2)"),
        ("algorithm,seed\nA,1\n", AB, "runs.csv, line 1: no column 'score'; found 'algorithm'"),
        ("model,score\nA,1\n", AB, "no column 'algorithm'"),
        (RUNS, {"a": "A", "b": "B", "pair_by": "split"}, "line 1: no column 'split' to pair the runs by"),
        (RUNS.replace("0.85", "abc"), AB, "runs.csv, line 4, column 'score': 'abc' is not a number"),
        (RUNS.replace("0.85", "0,85"), AB, "line 4: 4 fields, but the header (line 1) has 3"),
        (RUNS.replace("0.85", ""), AB, "line 4, column 'score': empty, expected a number"),
        (RUNS.replace("0.85", "inf"), AB, "'inf' is not a finite number"),
        (RUNS.replace("B,2", ",2"), AB, "line 4, column 'algorithm': empty"),
        (
            RUNS.replace("A,3", "A,2"),
            PAIRED,
            "line 6: algorithm 'A' has a second run with seed '2' (the first is on line 5)",
        ),
        (RUNS.replace("B,3", "B,4"), PAIRED, "line 6: seed '3' has a run of 'A' but none of 'B'"),
        (RUNS + "B,4,0.5\n", PAIRED, "line 8: seed '4' has a run of 'B' but none of 'A'"),
        (RUNS, {"a": "A", "b": "A"}, "both name 'A'"),
        ("", AB, "runs.csv: empty"),
        ("0.9\n0.8\n", AB, "expected a header line"),
        ("algorithm,score\n", AB, "no rows below the header"),
    ],
)
def test_mistakes_name_the_file_line_and_column(tmp_path, text, options, message):
    with pytest.raises(InputError) as raised:
        read_runs(write(tmp_path, text), **options)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_missing_file(tmp_path):
    with pytest.raises(InputError, match=r"nothing\.csv: no such file"):
        read_runs(tmp_path / "nothing.csv", a="A", b="B")


def test_history_dates_and_scores(tmp_path):
    path = write(tmp_path, "date,score,paper\n2018-01-02,0.91,X\n2019-03-04,0.93,Y\n", "history.csv")
    dates, scores = read_history(path)
    assert dates == ["2018-01-02", "2019-03-04"]
    assert scores.tolist() == [0.91, 0.93]


def test_history_with_numbers_as_dates(tmp_path):
    dates, _ = read_history(write(tmp_path, "date,score\n2018.5,0.91\n2019,0.93\n", "history.csv"))
    assert dates == [2018.5, 2019.0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "date,score\n2018-01-02,0.9\nlast May,0.95\n",
            "history.csv, line 3, column 'date': 'last May' is not",
        ),
        (
            "date,score\n2018-01-02,0.9\n2019,0.95\n",
            "line 3, column 'date': '2019', but the first rows hold dates",
        ),
        ("date,score\n2018-01-02,high\n", "line 2, column 'score': 'high' is not a number"),
        ("when,score\n2018-01-02,0.9\n", "history.csv, line 1: no column 'date'"),
    ],
)
def test_history_mistakes(tmp_path, text, message):
    with pytest.raises(InputError) as raised:
        read_history(write(tmp_path, text, "history.csv"))
    assert message in str(raised.value)


def test_columns_named_by_the_caller(tmp_path):
    text = "Model,Split,Top1\nA,1,0.90\nB,1,0.80\nA,2,0.91\nB,2,0.85\n"
    runs = read_runs(
        write(tmp_path, text), a="A", b="B", pair_by="split", algorithm_column="model", score_column="TOP1"
    )
    assert (runs.a.tolist(), runs.b.tolist(), runs.pair_by) == ([0.90, 0.91], [0.80, 0.85], "Split")
    with pytest.raises(InputError, match=r"runs.csv, line 1: no column 'algorithm'; found 'Model', 'Split'"):
        read_runs(write(tmp_path, text), a="A", b="B")
    with pytest.raises(InputError, match="algorithm_column: expected the name of a column"):
        read_runs(write(tmp_path, text), a="A", b="B", algorithm_column=" ")


def test_a_dataframe_and_its_mistakes_by_row_label():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        {"algorithm": ["A", "B", "A", "B"], "seed": [1, 1, 2, 2], "score": [0.9, 0.8, 0.91, 0.85]},
        index=[10, 11, 12, 13],
    )
    runs = read_runs(frame, a="A", b="B", pair_by="seed")
    assert (runs.a.tolist(), runs.keys, runs.source) == ([0.9, 0.91], ("1", "2"), None)
    twice = frame.assign(seed=[1, 1, 1, 2])
    with pytest.raises(InputError) as raised:
        read_runs(twice, a="A", b="B", pair_by="seed")
    assert str(raised.value).startswith(
        "<table>, row 12: algorithm 'A' has a second run with seed '1' (the first is on row 10)"
    )
    with pytest.raises(InputError, match=r"<table>, row 12: seed '3' has a run of 'A' but none of 'B'"):
        read_runs(frame.assign(seed=[1, 1, 3, 2]), a="A", b="B", pair_by="seed")


def test_history_columns_named_by_the_caller(tmp_path):
    path = write(tmp_path, "Published,Top1\n2018-01-02,0.91\n2019-03-04,0.93\n", "history.csv")
    dates, scores = read_history(path, date_column="published", score_column="top1")
    assert (dates, scores.tolist()) == (["2018-01-02", "2019-03-04"], [0.91, 0.93])
    with pytest.raises(InputError, match=r"history.csv, line 1: no column 'date'; found 'Published', 'Top1'"):
        read_history(path)
