"""The test chooser: which analysis fits, from the shape of the data (benchtrust.compare.choose_analysis)."""

import json

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust.compare import bundled_results, choose_analysis, read_task_scores

UCI = {
    "direction": "higher",
    "method_column": "classifier",
    "task_column": "dataset_index",
    "run_column": "score_index",
    "score_column": "accuracy_percent",
}


def table(methods=3, tasks=8, runs=5, seed=0):
    rng = np.random.default_rng(seed)
    rows = [
        (f"m{i}", f"t{j}", r, rng.normal()) for i in range(methods) for j in range(tasks) for r in range(runs)
    ]
    return pd.DataFrame(rows, columns=["method", "task", "run", "score"])


def commands(choice):
    return [a.command for a in choice.fits]


def test_atari_calls_for_aggregates_with_stratified_bootstrap(atari_runs):
    choice = choose_analysis(atari_runs)
    assert commands(choice)[0] == "compare aggregate" and "compare rank" in commands(choice)
    assert choice.runs == (5, 100) and not choice.paired  # SimPLe has 5 runs per game
    assert choice.verdict.startswith("Use aggregate performance (IQM)")


def test_uci_raw_accuracies_call_for_ranks_not_pooling(uci_runs):
    choice = choose_analysis(uci_runs)
    assert choice.paired and not choice.common_scale and choice.tasks == 54
    assert commands(choice)[:2] == ["compare rank", "compare auto"] and "compare aso" in commands(choice)
    assert "common scale" in choice.not_fitting[0].reason
    normalised = choose_analysis(read_task_scores(bundled_results("uci"), normalise="minmax", **UCI))
    assert commands(normalised)[0] == "compare aggregate"


def test_one_task_cross_validation_calls_for_the_correlated_t_test():
    frame = table(methods=2, tasks=1, runs=20)
    frame["fold"], frame["run"] = frame["run"] % 10, frame["run"] // 10
    choice = choose_analysis(read_task_scores(frame, direction="higher", fold_column="fold"))
    assert commands(choice) == ["compare bayes", "compare outperform", "compare aso"]
    assert "10-fold" in choice.fits[0].reason and "compare rank" in choice.not_fitting[0].command


def test_cross_validations_on_many_tasks_call_for_the_hierarchical_test():
    frame = table(methods=2, tasks=8, runs=20)
    frame["fold"], frame["run"] = frame["run"] % 10, frame["run"] // 10
    choice = choose_analysis(read_task_scores(frame, direction="higher", fold_column="fold"))
    assert commands(choice) == [
        "compare auto",
        "compare bayes",
        "compare improvement",
        "compare hierarchical",
        "compare bayes --task",
        "compare aso",
    ]
    hierarchical = choice.fits[3]
    assert "10-fold" in hierarchical.reason and "Corani et al. 2017" in hierarchical.reason
    # without the folds, the hierarchical test is named among those that do not fit, with the option to add
    unfolded = choose_analysis(read_task_scores(table(methods=2, tasks=8), direction="higher"))
    assert "compare hierarchical" not in commands(unfolded)
    assert "--fold-col" in next(a.reason for a in unfolded.not_fitting if a.command == "compare hierarchical")


def test_two_methods_on_few_tasks_get_the_signed_rank_test_with_a_caveat():
    choice = choose_analysis(read_task_scores(table(methods=2, tasks=4), direction="lower"))
    assert "compare rank" not in commands(choice)  # Friedman needs three methods
    assert "only 4 tasks" in next(a.reason for a in choice.fits if a.command == "compare bayes")


def test_too_little_data_gets_no_verdict():
    one_method = choose_analysis(read_task_scores(table(methods=1), direction="higher"))
    assert one_method.fits == () and "nothing to compare" in one_method.verdict
    one_run = choose_analysis(read_task_scores(table(tasks=1, runs=1), direction="higher"))
    assert one_run.fits == () and one_run.verdict.startswith("No comparison fits this data")
    single_runs = choose_analysis(read_task_scores(table(runs=1), direction="higher"))
    assert "nothing to resample" in single_runs.not_fitting[0].reason


def test_outputs_agree(tmp_path):
    choice = choose_analysis(read_task_scores(table(), direction="higher"))
    plain = choice.to_dict()
    assert json.loads(json.dumps(plain)) == plain and plain["verdict"] == choice.verdict
    frame = choice.to_frame()
    assert frame["fits"].sum() == len(choice.fits) and len(frame) == len(plain["fits"] + plain["not_fitting"])
    assert choice.verdict in " ".join(str(choice).split()) and "compare rank" in choice._repr_html_()


def test_wrong_input():
    with pytest.raises(InputError, match="scores: expected TaskScores"):
        choose_analysis({"A": [1, 2]})
