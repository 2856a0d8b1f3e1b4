"""The worked example: two scikit-learn classifiers, paired runs, variance by source, P(A > B), runs."""

import dataclasses
import json

import numpy as np
import pytest

pytest.importorskip("sklearn")

from benchtrust import InputError
from benchtrust.compare import probability_of_outperforming, sample_size, sklearn_example
from benchtrust.compare._pipelines._example import SOURCES

RUNS = 6


@pytest.fixture(scope="module")
def example():
    return sklearn_example(runs=RUNS, seed=0)


def test_runs_are_accuracies_of_paired_runs(example):
    assert example.runs == RUNS
    assert len(example.scores_a) == len(example.scores_b) == RUNS
    assert all(0 <= x <= 1 for x in (*example.scores_a, *example.scores_b))
    assert example.outperform.paired and example.outperform.n_pairs == RUNS


def test_p_a_beats_b_and_its_interval_are_those_of_the_library(example):
    result = example.outperform
    again = probability_of_outperforming(example.scores_a, example.scores_b, paired=True, names=example.names)
    assert result.to_dict() == again.to_dict()
    assert (result.to_dict()["a"], result.to_dict()["runs_b"]) == (example.names[0], RUNS)
    low, high = result.ci
    assert 0 <= low <= result.p_a_beats_b <= high <= 1
    wins = np.sum(np.array(example.scores_a) > np.array(example.scores_b))
    assert result.wins == wins


def test_the_decision_matches_the_interval(example):
    result = example.outperform
    assert result.significant == (result.ci[0] > 0.5)
    assert result.meaningful == (result.ci[1] > result.gamma)
    text = str(example)
    assert result.conclusion.split(":")[0] in " ".join(text.split())


def test_runs_needed_is_the_sample_size(example):
    assert example.runs_needed == sample_size(0.75) == 29
    assert "Runs needed" in str(example) and "29" in str(example)
    assert not example.enough_runs
    assert "used 6, too few for the test's stated power." in " ".join(str(example).split())
    enough = dataclasses.replace(example, runs_needed=RUNS)
    assert enough.enough_runs and "used 6, enough." in str(enough)


def test_explains_itself(example):
    assert example.verdict == example.outperform.conclusion
    assert str(example).startswith("A = LogisticRegression")
    html = example._repr_html_()
    assert html.startswith('<div class="benchtrust">') and "RandomForestClassifier" in html
    assert "too few for the test&#39;s stated power" in html


def test_to_frame_is_a_runs_table_outperform_takes(example):
    from benchtrust.compare import outperform

    frame = example.to_frame()
    assert list(frame.columns) == ["algorithm", "run", "score"] and len(frame) == 2 * RUNS
    again = outperform(frame, a=example.names[0], b=example.names[1], pair_by="run")
    assert again.p_a_beats_b == example.outperform.p_a_beats_b and again.ci == example.outperform.ci


def test_variance_by_source(example):
    for name in example.names:
        variances = example.variances[name]
        assert set(variances.variances) == {*SOURCES, "none"}
        assert variances.runs == RUNS
        assert variances.variances["none"] == 0.0  # the pipelines are deterministic given their seeds
        assert variances.variances["split"] > 0
    logistic, forest = (example.variances[name].variances for name in example.names)
    assert logistic["init"] == 0.0  # logistic regression has no random initialisation
    assert forest["init"] > 0  # the forest's trees depend on their seed


def test_the_example_is_reproducible_and_serialisable(example):
    again = sklearn_example(runs=RUNS, seed=0)
    assert again.scores_a == example.scores_a and again.scores_b == example.scores_b
    assert json.loads(json.dumps(example.to_dict())) == example.to_dict()
    assert "p_a_beats_b" in repr(example)


def test_text_report_parts(example):
    text = str(example)
    for part in (
        "LogisticRegression",
        "RandomForestClassifier",
        "breast cancer",
        "split",
        "init",
        "P(A > B)",
    ):
        assert part in text
    assert all(len(line) <= 100 for line in text.splitlines())


def test_too_few_runs_are_refused():
    with pytest.raises(InputError, match="at least 2 runs"):
        sklearn_example(runs=1)
