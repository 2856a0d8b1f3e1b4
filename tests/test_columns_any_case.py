"""Every table reader finds a column by its name in any case (``Accuracy`` for ``accuracy``), through one
lookup (:func:`benchtrust._io.find_column`); two columns whose names differ only in case are an error
naming both, since which one was meant cannot be told (issue 19, §7)."""

import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust._io import find_column, read_numbers
from benchtrust.compare._pipelines._runs import read_history, read_runs
from benchtrust.compare._tasks._scores import read_task_scores
from benchtrust.consistency import check_batch
from benchtrust.multiverse import read_spec
from benchtrust.multiverse._data import read_characteristics, read_results
from benchtrust.multiverse._options import _characteristic
from benchtrust.sota import read_leaderboard

SPEC = {
    "columns": {"dataset": "data", "method": "method", "iteration": "fold"},
    "measures": {"acc": {"better": "higher", "random": 0.5}},
    "choices": {"aggregation": {"default": "mean", "options": ["mean", "median"]}},
}


def results_table(header):
    rows = [
        f"d{d},m{m},{f},{0.6 + 0.1 * ((d + m + f) % 3):.1f}"
        for d in range(2)
        for m in range(2)
        for f in range(2)
    ]
    return header + "\n" + "\n".join(rows) + "\n"


#: Per reader: how to read a file with it, a header in other cases than the reader asks for (and rows),
#: and the same with a second column whose name differs from the first only in case.
READERS = {
    "read_numbers": (
        lambda path: read_numbers(path, column="accuracy"),
        "model,Accuracy\nA,0.9\n",
        "accuracy,Accuracy\n0.9,0.8\n",
    ),
    "read_leaderboard score_column": (
        lambda path: read_leaderboard(path, direction="higher", score_column="score", team_column="team"),
        "Team,SCORE\na,0.8\nb,0.9\n",
        "team,Score,score\na,0.8,0.7\n",
    ),
    "read_runs": (
        lambda path: read_runs(path, a="A", b="B"),
        "Algorithm,Seed,SCORE\nA,1,0.9\nB,1,0.8\nA,2,0.91\nB,2,0.82\n",
        "algorithm,score,Score\nA,0.9,0.9\nB,0.8,0.8\n",
    ),
    "read_history": (read_history, "Date,Score\n2019,0.9\n2020,0.91\n", "date,score,SCORE\n2019,0.9,0.9\n"),
    "read_task_scores": (
        lambda path: read_task_scores(path, direction="higher"),
        "Method,Task,Run,Score\na,t,1,0.5\nb,t,1,0.6\n",
        "method,task,run,score,Method\na,t,1,0.5,a\nb,t,1,0.6,b\n",
    ),
    "multiverse read_results": (
        lambda path: read_results(path, read_spec(SPEC)),
        results_table("Data,METHOD,Fold,Acc"),
        results_table("data,method,fold,acc").replace("data,", "data,Data,", 1).replace("\nd", "\nx,d"),
    ),
    "multiverse read_characteristics": (
        lambda path: read_characteristics(path, ["d0", "d1"], dataset_column="data"),
        "DATA,n\nd0,10\nd1,20\n",
        "data,Data,n\nd0,d0,10\nd1,d1,20\n",
    ),
    "consistency check_batch": (
        check_batch,
        "ID,Positives,NEGATIVES,ACC\nx,10,20,0.9\n",
        "id,positives,negatives,acc,ACC\nx,10,20,0.9,0.9\n",
    ),
}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_column_is_found_in_any_case(reader, tmp_path):
    read, content, _ = READERS[reader]
    path = tmp_path / "table.csv"
    path.write_text(content, encoding="utf-8")
    assert read(path) is not None


@pytest.mark.parametrize("reader", sorted(READERS))
def test_columns_differing_only_in_case_are_an_error_naming_both(reader, tmp_path):
    read, _, content = READERS[reader]
    path = tmp_path / "table.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read(path)
    message = str(caught.value)
    assert message.startswith(str(path)) or "table.csv" in message, message
    assert "differ only in case" in message or "are the same" in message, message  # batch: its own words


def test_a_characteristic_named_by_the_spec_is_found_in_any_case():
    characteristics = pd.DataFrame({"P_Clin": [3.0, 5.0]}, index=["d0", "d1"])
    assert _characteristic(characteristics, ["d1", "d0"], "p_clin").tolist() == [5.0, 3.0]
    characteristics["p_clin"] = [1.0, 2.0]
    with pytest.raises(InputError, match="columns 'P_Clin' and 'p_clin' differ only in case"):
        _characteristic(characteristics, ["d0"], "p_clin")


def test_the_shared_lookup():
    assert find_column(["model", " Accuracy "], "accuracy", "f, line 1") == 1
    assert find_column(["model"], "accuracy", "f, line 1") is None
    with pytest.raises(InputError, match=r"^f, line 1: the header names column 'acc' 2 times$"):
        find_column(["acc", "acc"], "ACC", "f, line 1")
    with pytest.raises(InputError, match=r"^f, line 1: columns 'acc', 'Acc' and 'ACC' differ only in case"):
        find_column(["acc", "Acc", "ACC"], "acc", "f, line 1")
