"""Reading the scores of several methods on many tasks (benchtrust.compare.read_task_scores)."""

import json

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust._words import TIMES
from benchtrust.compare import MissingRuns, TaskScores, bundled_results, rank_test, read_task_scores

ATARI = {"direction": "higher", "method_column": "algorithm", "task_column": "game"}


@pytest.fixture(scope="module")
def atari_frame():
    return pd.read_csv(bundled_results("atari100k"))


@pytest.fixture(scope="module")
def atari():
    return read_task_scores(
        bundled_results("atari100k"),
        normalise="reference",
        reference=bundled_results("atari_reference"),
        **ATARI,
    )


def small():
    return pd.DataFrame(
        {
            "method": ["A", "A", "A", "A", "B", "B", "B", "B"],
            "task": ["x", "x", "y", "y", "x", "x", "y", "y"],
            "run": [1, 2, 1, 2, 1, 2, 1, 2],
            "score": [0.5, 0.6, 2.0, 4.0, 0.4, 0.3, 3.0, 1.0],
        }
    )


def write(tmp_path, text, name="scores.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_atari_is_read_whole(atari):
    assert isinstance(atari, TaskScores)
    assert atari.methods == ("DER", "DrQ", "DrQ(eps)", "OTRainbow", "SPR", "SimPLe", "CURL")
    assert len(atari.tasks) == 26 and atari.tasks[0] == "Alien"
    assert atari.scores.shape == (7, 26, 100)
    assert atari.runs == 15730
    assert atari.missing == ()  # SimPLe's 5 runs per game are its most: nothing missing
    simple = atari.methods.index("SimPLe")
    assert (atari.runs_per_task[simple] == 5).all()
    assert np.isnan(atari.scores[simple, :, 5:]).all()
    assert atari.direction == "higher" and atari.normalisation == "reference"
    assert not atari.scores.flags.writeable


def test_human_normalisation_from_first_principles(atari, atari_frame):
    reference = pd.read_csv(bundled_results("atari_reference")).set_index("game")
    row = atari_frame.iloc[0]  # DER, Alien, run 1
    expected = (row.score - reference.random["Alien"]) / (
        reference.human["Alien"] - reference.random["Alien"]
    )
    assert atari.scores[0, 0, 0] == pytest.approx(expected, rel=1e-15)
    assert atari.raw_scores[0, 0, 0] == row.score
    assert atari.run_labels[0, 0, 0] == "1"


def test_bundled_uci():
    uci = read_task_scores(
        bundled_results("uci"),
        direction="higher",
        method_column="classifier",
        task_column="dataset_index",
        run_column="score_index",
        score_column="accuracy_percent",
    )
    assert uci.methods == ("nbc", "aode", "hnb", "j48", "j48gr")
    assert uci.scores.shape == (5, 54, 100) and not np.isnan(uci.scores).any()


def test_fold_column_keeps_runs_by_folds_run_major():
    table = pd.read_csv(bundled_results("uci"))
    table["run"], table["fold"] = table["score_index"] // 10, table["score_index"] % 10
    table = table.sample(frac=1, random_state=1)  # the row order must not matter
    columns = {
        "method_column": "classifier",
        "task_column": "dataset_index",
        "score_column": "accuracy_percent",
    }
    folded = read_task_scores(table, direction="higher", fold_column="fold", **columns)
    flat = read_task_scores(table, direction="higher", run_column="score_index", **columns)
    assert folded.folds == 10 and flat.folds is None
    np.testing.assert_array_equal(folded.scores, flat.scores)  # score_index = 10 run + fold
    assert list(folded.run_labels[0, 0, 9:12]) == ["0/9", "1/0", "1/1"]
    assert "fold scores (each run a 10-fold cross-validation)" in str(folded)
    assert folded.to_dict()["folds"] == 10


def test_a_repeated_run_and_fold_is_refused(tmp_path):
    path = write(tmp_path, "method,task,run,fold,score\nA,x,1,1,1\nA,x,1,2,2\nA,x,1,1,3\n")
    with pytest.raises(InputError, match=r"line 4, column 'run': a second run '1/1' .* each run/fold pair"):
        read_task_scores(path, direction="higher", fold_column="fold")


def test_bundled_results_unknown_name():
    with pytest.raises(InputError, match=r"name: expected one of 'atari100k', 'atari_reference', 'uci'"):
        bundled_results("mnist")


def test_frame_and_file_agree(tmp_path):
    frame = small()
    path = tmp_path / "s.csv"
    frame.to_csv(path, index=False)
    a, b = read_task_scores(frame, direction="higher"), read_task_scores(path, direction="higher")
    np.testing.assert_array_equal(a.scores, b.scores)
    assert a.source is None and b.source == str(path)


def test_runs_ordered_by_number():
    frame = pd.DataFrame(
        {"method": ["A"] * 3, "task": ["x"] * 3, "run": [10, 2, 1], "score": [3.0, 2.0, 1.0]}
    )
    scores = read_task_scores(frame, direction="higher")
    assert scores.run_labels[0, 0].tolist() == ["1", "2", "10"]
    assert scores.scores[0, 0].tolist() == [1.0, 2.0, 3.0]


def test_row_order_does_not_matter(atari_frame):
    shuffled = atari_frame.sample(frac=1.0, random_state=0)
    a = read_task_scores(atari_frame, **ATARI)
    b = read_task_scores(shuffled, **ATARI)
    for i, method in enumerate(a.methods):
        for j, task in enumerate(a.tasks):
            np.testing.assert_array_equal(
                a.scores[i, j], b.scores[b.methods.index(method), b.tasks.index(task)]
            )


def test_minmax_per_task():
    scores = read_task_scores(small(), direction="higher", normalise="minmax")
    # task x: 0.3 .. 0.6; task y: 1 .. 4
    np.testing.assert_allclose(scores.scores[0, 0], [2 / 3, 1.0])
    np.testing.assert_allclose(scores.scores[1, 1], [2 / 3, 0.0])
    assert np.nanmin(scores.scores) == 0 and np.nanmax(scores.scores) == 1
    assert "min-max" in str(scores)
    lower = read_task_scores(small(), direction="lower", normalise="minmax")
    assert lower.direction == "lower"  # kept: 0 is the best run
    np.testing.assert_array_equal(lower.scores, scores.scores)


def test_minmax_refuses_a_constant_task():
    frame = small()
    frame.loc[frame.task == "y", "score"] = 7.0
    with pytest.raises(InputError, match=r"every run of every method scores 7 on task 'y'; min-max"):
        read_task_scores(frame, direction="higher", normalise="minmax")


def test_lower_reference_is_higher_is_better():
    frame = small()
    reference = pd.DataFrame({"task": ["x", "y"], "random": [1.0, 10.0], "human": [0.0, 0.0]})
    scores = read_task_scores(frame, direction="lower", normalise="reference", reference=reference)
    assert scores.direction == "higher" and scores.declared_direction == "lower"
    assert scores.scores[0, 0, 0] == pytest.approx((0.5 - 1.0) / (0.0 - 1.0))


def test_missing_runs_are_reported(atari_frame):
    dropped = atari_frame.drop(atari_frame.index[[0, 1, 2]])  # DER, Alien, runs 1-3
    scores = read_task_scores(dropped, **ATARI)
    assert scores.missing == (MissingRuns("DER", "Alien", 97, 100),)
    assert scores.runs_per_task[0, 0] == 97
    assert np.isnan(scores.scores[0, 0, 97:]).all() and not np.isnan(scores.scores[0, 0, :97]).any()
    text = " ".join(str(scores).split())
    assert f"Missing runs: 1 method {TIMES} task pairs" in text and "DER on Alien: 97 of 100" in text
    assert "every method keeps the runs it has" in text
    assert scores.to_dict()["missing"] == [{"method": "DER", "task": "Alien", "runs": 97, "expected": 100}]


def test_a_method_without_any_run_on_a_task_is_refused(tmp_path):
    path = write(tmp_path, "method,task,run,score\nA,x,1,1\nA,y,1,2\nB,x,1,3\n")
    with pytest.raises(InputError, match=r"scores.csv: method 'B' has no run on task 'y' \(column 'task'\)"):
        read_task_scores(path, direction="higher")


def test_duplicate_rows_are_refused(tmp_path):
    path = write(tmp_path, "method,task,run,score\nA,x,1,1\nA,x,2,2\nA,x,1,3\n")
    with pytest.raises(InputError) as error:
        read_task_scores(path, direction="higher")
    assert str(error.value) == (
        f"{path}, line 4, column 'run': a second run '1' of method 'A' on task 'x' (the first is on line 2); "
        "each run label must appear once per method and task"
    )


def test_duplicate_rows_in_a_frame_name_the_row():
    frame = pd.concat([small(), small().iloc[[5]]], ignore_index=True)
    with pytest.raises(
        InputError, match=r"<table>, row 8, column 'run': a second run '2' .*first is on row 5"
    ):
        read_task_scores(frame, direction="higher")


def test_missing_column_names_file_and_line(tmp_path):
    path = write(tmp_path, "method,task,seed,score\nA,x,1,1\n")
    with pytest.raises(
        InputError, match=r"scores.csv, line 1: no column 'run'; found 'method', 'task', 'seed'"
    ):
        read_task_scores(path, direction="higher")
    read_task_scores(path, direction="higher", run_column="seed")  # settable


def test_non_numeric_score_names_line_and_column(tmp_path):
    path = write(tmp_path, "method,task,run,score\nA,x,1,1\nA,x,2,abc\n")
    with pytest.raises(InputError, match=r"scores.csv, line 3, column 'score': 'abc' is not a number"):
        read_task_scores(path, direction="higher")
    path = write(tmp_path, "method,task,run,score\nA,x,1,1\nA,x,2,\n")
    with pytest.raises(InputError, match=r"line 3, column 'score': empty, expected a number"):
        read_task_scores(path, direction="higher")


def test_empty_method_name(tmp_path):
    path = write(tmp_path, "method,task,run,score\nA,x,1,1\n,x,2,3\n")
    with pytest.raises(InputError, match=r"line 3, column 'method': empty, expected a method name"):
        read_task_scores(path, direction="higher")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"direction": "up"}, r"direction: expected one of 'higher', 'lower', got 'up'"),
        (
            {"direction": "higher", "normalise": "z"},
            r"normalise: expected one of 'none', 'minmax', 'reference'",
        ),
        (
            {"direction": "higher", "normalise": "reference"},
            r"reference: normalise='reference' needs a table",
        ),
        ({"direction": "higher", "reference": "r.csv"}, r"reference: given, but normalise='none'"),
        ({"direction": "higher", "task_column": ""}, r"task_column: expected the name of a column"),
    ],
)
def test_argument_errors(arguments, message):
    with pytest.raises(InputError, match=message):
        read_task_scores(small(), **arguments)


def test_direction_is_required():
    with pytest.raises(TypeError, match="direction"):
        read_task_scores(small())


def test_reference_errors(tmp_path):
    frame = small()

    def read(text):
        path = write(tmp_path, text, "reference.csv")
        return read_task_scores(frame, direction="higher", normalise="reference", reference=path)

    with pytest.raises(InputError, match=r"reference.csv, column 'task': no reference scores for task 'y'"):
        read("task,random,human\nx,0,1\nz,0,1\n")
    with pytest.raises(InputError, match=r"reference.csv, line 3, column 'human': human equals random \(2\)"):
        read("task,random,human\nx,0,1\ny,2,2\n")
    with pytest.raises(InputError, match=r"reference.csv, line 2, column 'human': human \(0\) is worse than"):
        read("task,random,human\nx,1,0\ny,0,1\n")
    with pytest.raises(InputError, match=r"reference.csv, line 4, column 'task': task 'x' a second time"):
        read("task,random,human\nx,0,1\ny,0,1\nx,0,2\n")
    with pytest.raises(InputError, match=r"reference.csv, line 3, column 'random': 'n/a' is not a number"):
        read("task,random,human\nx,0,1\ny,n/a,1\n")
    with pytest.raises(InputError, match=r"reference.csv, line 1: no column 'human'"):
        read("task,random,expert\nx,0,1\ny,0,1\n")


def test_reference_task_column_and_frame_errors():
    frame = small()
    reference = pd.DataFrame({"game": ["x", "y"], "random": [0.0, 0.0], "human": [1.0, 1.0]})
    scores = read_task_scores(
        frame, direction="higher", normalise="reference", reference=reference, reference_task_column="game"
    )
    assert scores.reference == "<table>"
    with pytest.raises(InputError, match=r"^reference: <table>: no column 'task'"):
        read_task_scores(frame, direction="higher", normalise="reference", reference=reference)


def test_to_frame_round_trip_and_json(atari):
    frame = atari.to_frame()
    assert list(frame.columns) == ["method", "task", "run", "score", "raw_score"]
    assert len(frame) == 15730
    again = read_task_scores(frame.drop(columns="raw_score"), direction="higher")
    np.testing.assert_array_equal(again.scores, atari.scores)
    json.dumps(atari.to_dict())
    assert repr(atari) == (
        "TaskScores(methods=7, tasks=26, runs=15730, direction='higher', normalisation='reference', "
        "missing=0)"
    )
    text = str(atari)
    assert "Scores of 7 methods on 26 tasks" in text and "SimPLe     5" in text
    assert "Missing runs: none" in text


def test_results_keep_the_files_their_scores_were_read_from(tmp_path):
    table = tmp_path / "scores.csv"
    table.write_text("method,task,run,score\nA,t1,1,0.5\nA,t2,1,0.7\nB,t1,1,0.4\nB,t2,1,0.9\n", "utf-8")
    reference = tmp_path / "reference.csv"
    reference.write_text("task,random,human\nt1,0,1\nt2,0,1\n", "utf-8")
    scores = read_task_scores(table, direction="higher", normalise="reference", reference=reference)
    result = rank_test(scores)
    assert result.inputs == (str(table), str(reference))
    assert f"Inputs: {table}, {reference}" in result._repr_html_()
    from_frames = read_task_scores(
        pd.read_csv(table), direction="higher", normalise="reference", reference=pd.read_csv(reference)
    )
    assert rank_test(from_frames).inputs == ()
