"""Every compare result explains itself: ``verdict``, ``str(result)``, ``_repr_html_`` (the report's section,
user strings escaped), ``to_dict()`` and, where it holds a table, ``to_frame()``; the decisions the verdicts
rest on are properties of the results, and no verdict names a command-line flag."""

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from markupsafe import escape

from benchtrust import Interval
from benchtrust._html import Section, section_html
from benchtrust._result import Result, made
from benchtrust.compare import (
    Study,
    average_difference,
    better_everywhere,
    error_rates,
    fixed_hopt_estimate,
    friedman_datasets,
    history,
    ideal_estimate,
    outperform,
    pairwise,
    probability_of_outperforming,
    single_point,
    source_variances,
    t_test,
    test_set_variance,
    wilcoxon_datasets,
)
from benchtrust.compare._pipelines._text import COMPARE_QUESTION

HOSTILE = '<b>"Ben & Jerry\'s"</b>'
ESCAPED = "&lt;b&gt;&#34;Ben &amp; Jerry&#39;s&#34;&lt;/b&gt;"
A = [0.91, 0.93, 0.90, 0.94, 0.92, 0.95, 0.91, 0.93, 0.92, 0.94]
B = [0.90, 0.91, 0.91, 0.92, 0.90, 0.93, 0.91, 0.92, 0.91, 0.92]


def fit_and_score(train, test, hyperparameters, seeds):
    noise = np.random.default_rng(seeds["init"]).normal(0, 0.01)
    return float(0.8 + noise + hyperparameters.get("lr", 0.0) + len(test) / 10_000)


def study():
    return Study(fit_and_score, data_size=60, sources=("split", "init"), hyperparameters={"lr": 0.01})


def results():
    """One result of every public kind, from the library called directly."""
    runs = study().run(5, seed=0)
    return {
        "outperform": probability_of_outperforming(A, B),
        "single point": single_point(0.82, 0.81),
        "average difference": average_difference(A, B, threshold=0.01),
        "t-test": t_test(A, B),
        "error rates": error_rates(0.01, runs=10, probabilities=[0.4, 0.9], simulations=60, seed=0),
        "history": history([2018, 2019, 2020], [0.90, 0.93, 0.931], test_size=1000),
        "pairwise": pairwise({"A": A, "B": B, "C": B[::-1]}),
        "wilcoxon": wilcoxon_datasets(A[:6], scores_b=B[:6]),
        "friedman": friedman_datasets({"A": A[:4], "B": B[:4], "C": B[4:8]}),
        "everywhere": better_everywhere({"d1": A, "d2": B}, runs_b={"d1": B, "d2": A}),
        "estimate": fixed_hopt_estimate(study(), runs=4, seed=0, vary="init", repetitions=3),
        "source variances": source_variances(study(), runs=4, seed=0),
        "test-set variance": test_set_variance(runs),
        "runs": runs,
    }


RESULTS = results()


@pytest.mark.parametrize("kind", RESULTS)
def test_every_result_explains_itself(kind):
    result = RESULTS[kind]
    verdict = result.verdict
    assert isinstance(verdict, str) and verdict.endswith(".")
    assert "--" not in verdict, "a verdict names a command-line flag"
    text = str(result)
    assert " ".join(verdict.split()) in " ".join(text.split())
    assert kind == "history" or all(len(line) <= 100 for line in text.splitlines())
    html = result._repr_html_()
    assert html.startswith('<div class="benchtrust">')
    assert str(escape(verdict.split()[0])) in html
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data


@pytest.mark.parametrize("kind", RESULTS)
def test_each_view_is_the_results_description(kind):
    result = RESULTS[kind]
    assert isinstance(result, Result)
    description = result.describe()
    assert str(result) == made(description.text)
    assert result.to_dict() == json.loads(json.dumps(result.to_dict(), allow_nan=False))
    section = result.section()
    assert isinstance(section, Section) and section.verdict == result.verdict
    assert section.title == COMPARE_QUESTION and section.source.startswith("Bouthillier et al. 2021")
    assert result._repr_html_() == section_html(section)
    assert isinstance(result.to_frame(), pd.DataFrame)


def test_a_figure_is_drawn_for_the_section_only():
    assert RESULTS["error rates"].section().figure_svg.startswith("<svg")
    assert RESULTS["history"].section().figure_svg.startswith("<svg")
    assert (
        RESULTS["error rates"].describe().figure is not None
        and RESULTS["t-test"].section().figure_svg is None
    )


def test_user_strings_are_escaped_in_html(tmp_path):
    named = probability_of_outperforming(A, B, names=(HOSTILE, "B"))
    many = pairwise({HOSTILE: A, "B": B})
    everywhere = better_everywhere({HOSTILE: A}, runs_b={HOSTILE: B})
    tested = wilcoxon_datasets(
        dict(zip([HOSTILE, "2", "3", "4", "5"], A, strict=False)),
        scores_b=dict(zip([HOSTILE, "2", "3", "4", "5"], B, strict=False)),
    )
    path = tmp_path / "a&b.csv"
    path.write_text("date,score\n2019,0.9\n2020,0.95\n", encoding="utf-8")
    past = history(path, sigma=0.01)
    runs = Study(fit_and_score, data_size=30, sources=("split", "init"), hyperparameters={"lr": 0.0})
    shown = dataclasses.replace(runs.run(2, seed=0), sources=(HOSTILE, "init"))
    for result in (named, many, everywhere, tested, shown):
        html = result._repr_html_()
        assert ESCAPED in html and HOSTILE not in html, type(result).__name__
    assert "a&amp;b.csv" in past._repr_html_()


def test_to_frames_have_their_documented_columns():
    frames = {
        "history": ["date", "score", "sigma", "prior_best", "increment", "threshold", "significant"],
        "error rates": ["probability", "difference", "criterion", "estimator", "rate"],
        "pairwise": ["a", "b", "p_a_beats_b", "low", "high", "better"],
        "everywhere": ["dataset", "p_value", "adjusted_p_value", "rejected"],
        "source variances": ["source", "variance", "std", "fraction"],
    }
    for kind, columns in frames.items():
        assert list(RESULTS[kind].to_frame().columns) == columns, kind
    past = RESULTS["history"].to_frame()
    assert past["significant"].tolist() == RESULTS["history"].significant.tolist()
    rates = RESULTS["error rates"].to_frame()
    assert len(rates) == 2 * 5  # points × criteria, the ideal estimator only
    chosen = rates[(rates.criterion == "average") & (rates.probability == 0.9)]
    assert chosen.rate.item() == RESULTS["error rates"].rates["average"]["ideal"][1]


def test_pairwise_in_long_form_and_one_interval_of_matrices():
    r = RESULTS["pairwise"]
    assert isinstance(r.interval, Interval) and r.interval.low.shape == (3, 3)
    frame = r.to_frame()
    assert len(frame) == 6 and not (frame.a == frame.b).any()
    row = frame[(frame.a == "A") & (frame.b == "B")].iloc[0]
    one = probability_of_outperforming(A, B, alpha=0.05 / 3)
    assert (row.p_a_beats_b, row.low, row.high) == (one.p_a_beats_b, *one.ci)
    data = r.to_dict()
    assert "lower" not in data and data["interval"]["low"][0][1] == one.ci.low
    assert data["interval"]["high"][1][1] is None
    rows, columns = np.nonzero(r.better)
    assert r.better_pairs == tuple((r.names[i], r.names[j]) for i, j in zip(rows, columns, strict=True))


def test_p_values_are_named_p_value():
    everywhere = RESULTS["everywhere"]
    assert set(everywhere.to_dict()) >= {"p_values", "adjusted_p_values"}
    assert "pvalues" not in everywhere.to_dict() and "p_value" in RESULTS["friedman"].to_dict()
    assert everywhere.to_frame().p_value.tolist() == everywhere.p_values.tolist()


# --- decisions on the results -------------------------------------------------------------------------------


def test_outperform_decision_properties():
    r = RESULTS["outperform"]
    assert isinstance(r.ci, Interval) and r.ci.low == r.ci[0]
    assert r.a_is_better == (r.significant and r.meaningful and r.enough_runs) and r.verdict == r.conclusion
    reverse = probability_of_outperforming(B * 3, A * 3)  # 30 pairs: enough to conclude (C.3)
    assert reverse.b_may_be_better and reverse.verdict.endswith("compare B with A to test it.")
    assert not r.b_may_be_better
    assert (r.runs_a, r.runs_b, r.mean_a, r.names) == (10, 10, pytest.approx(np.mean(A)), ("A", "B"))


def test_history_counts_its_significant_increments():
    r = RESULTS["history"]
    assert (r.significant_increments, r.compared) == (int(r.significant.sum()), 2)
    assert r.verdict.startswith(f"{r.significant_increments} of 2 results")


def error_rates_with(errors):
    """An error-rates result whose criteria have the given errors at the edges: (false positives at 0.5,
    false negatives at γ)."""
    edges = {"false_positive": {}, "false_negative": {}}
    for criterion, (positive, negative) in errors.items():
        edges["false_positive"][criterion] = {"ideal": positive}
        edges["false_negative"][criterion] = {"ideal": negative}
    return dataclasses.replace(RESULTS["error rates"], edge_rates=edges)


def test_error_rates_verdict_words_a_tie_between_criteria():
    oracle = {"oracle": (0.01, 0.02)}
    alone = error_rates_with(
        {"single_point": (0.1, 0.8), "average": (0.0, 1.0), "t_test": (0.05, 0.3)}
        | {"probability_of_outperforming": (0.02, 0.06), **oracle}
    )
    assert alone.fewest_errors == ("probability_of_outperforming",)
    assert alone.verdict.startswith("At the edges of the regions (false positives at P(A > B) = 0.5,")
    fewest = "the P(A > B) test makes the fewest errors of the criteria that do not know the variance: 8.0%"
    assert fewest in alone.verdict
    assert alone.verdict.endswith("The oracle, which knows it, makes 3.0%.")
    tie = error_rates_with(
        {"single_point": (0.1, 0.8), "average": (0.0, 1.0), "t_test": (0.05, 0.03)}
        | {"probability_of_outperforming": (0.02, 0.06), **oracle}
    )
    assert tie.fewest_errors == ("t_test", "probability_of_outperforming")
    assert "the t-test and the P(A > B) test make the fewest errors" in tie.verdict


def test_study_results_decisions():
    variances = RESULTS["source variances"]
    top = max(v for s, v in variances.variances.items() if s != "none")
    assert variances.largest == tuple(s for s, v in variances.variances.items() if v == top and s != "none")
    quiet = dataclasses.replace(variances, variances=dict.fromkeys(variances.variances, 0.0))
    assert quiet.largest == () and quiet.verdict.startswith("No source moves the score")
    measured = RESULTS["test-set variance"]
    assert measured.ratio == pytest.approx(measured.measured_std / measured.binomial_std)
    estimate = RESULTS["estimate"]
    assert "over 3 repetitions" in estimate.verdict
    assert "Held fixed within a repetition: split." in estimate.verdict
    single = ideal_estimate(study(), runs=3, seed=0)
    assert "repetitions" not in single.verdict and "Held fixed" not in single.verdict


def test_everywhere_verdict_names_the_data_sets_not_rejected():
    r = RESULTS["everywhere"]
    assert not r.better_everywhere and r.verdict.endswith("not on d2.")
    both = better_everywhere({"d1": A, "d2": A}, runs_b={"d1": B, "d2": B})
    assert both.better_everywhere and both.verdict.startswith("A is better than B on every data set")


# --- tables in: a DataFrame or a path, with columns named by the user --------------------------------------


def test_outperform_reads_a_dataframe_or_a_file(tmp_path):
    frame = pd.DataFrame(
        {"Model": ["lr"] * 10 + ["rf"] * 10, "split": [*range(10), *range(10)], "acc": [*A, *B]}
    )
    options = {"a": "lr", "b": "rf", "pair_by": "split", "algorithm_column": "model", "score_column": "ACC"}
    from_frame = outperform(frame, **options)
    path = tmp_path / "runs.tsv"
    frame.to_csv(path, sep="\t", index=False)
    from_file = outperform(path, **options)
    expected = probability_of_outperforming(A, B, names=("lr", "rf"))
    assert from_frame.ci == from_file.ci == expected.ci
    assert (from_frame.source, from_file.source) == (None, str(path))
    assert (from_frame.pair_by, from_frame.names) == ("split", ("lr", "rf"))
    assert str(from_file).startswith(f"P(A > B) from {path} (")
    assert str(from_frame).startswith("P(A > B) (Bouthillier")


def test_outperform_unpaired_names_its_seed():
    frame = pd.DataFrame({"algorithm": ["x"] * 4 + ["y"] * 3, "score": [1, 2, 3, 4, 1, 2, 3]})
    r = outperform(frame, a="x", b="y", seed=3)
    assert (r.seed, r.runs_a, r.runs_b, r.n_pairs) == (3, 4, 3, 3)
    assert "paired at random with seed 3 (C.4); 1 extra runs left out" in str(r)
    assert "paired at random (C.4)" in str(outperform(frame, a="x", b="y", seed=np.random.default_rng(1)))


def test_dataframe_mistakes_name_the_row_and_column():
    from benchtrust import InputError

    frame = pd.DataFrame({"algorithm": ["x", "x", "y", "y"], "score": [0.9, "high", 0.8, 0.7]})
    with pytest.raises(InputError, match=r"<table>, row 1, column 'score': 'high' is not a number"):
        outperform(frame, a="x", b="y")
    few = pd.DataFrame({"algorithm": ["x", "x", "y"], "score": [0.9, 0.8, 0.7]}, index=[10, 11, 12])
    with pytest.raises(InputError, match=r"algorithm 'y' has 1 run \(row 12\)"):
        outperform(few, a="x", b="y")
    with pytest.raises(InputError, match="the algorithms in the table are 'x', 'y'"):
        outperform(few, a="x", b="z")


def test_history_reads_a_dataframe_or_a_file(tmp_path):
    frame = pd.DataFrame(
        {"Published": ["2018-01-01", "2019-01-01", "2020-01-01"], "top1": [0.90, 0.93, 0.931]}
    )
    r = history(frame, test_size=1000, date_column="published", score_column="TOP1")
    expected = RESULTS["history"]
    assert r.significant.tolist() == expected.significant.tolist() and r.source is None
    path = tmp_path / "history.csv"
    path.write_text("date,score\n2018,0.90\n2019,0.93\n2020,0.931\n", encoding="utf-8")
    from_file = history(path, test_size=1000)
    assert from_file.to_dict() == expected.to_dict() and from_file.source == str(path)
    assert " ".join(str(from_file).split()).startswith(f"history of {path} (")  # however it wraps
    dates = pd.DataFrame({"date": pd.to_datetime(["2018-01-01", "2019-01-01"]), "score": [0.9, 0.95]})
    assert str(history(dates, sigma=0.01).dates[1]) == "2019-01-01"


def test_history_mistakes_name_the_table():
    from benchtrust import InputError

    with pytest.raises(InputError, match=r"<table>: scores: with test_size, expected accuracies"):
        history(pd.DataFrame({"date": [2019, 2020], "score": [0.9, 1.5]}), test_size=100)
    with pytest.raises(InputError, match=r"<table>, row 1, column 'date': 'soon' is not a date"):
        history(pd.DataFrame({"date": ["2019-01-01", "soon"], "score": [0.9, 0.95]}), sigma=0.01)
    with pytest.raises(InputError, match="scores: expected one score per date; or give a table alone"):
        history([2019, 2020], sigma=0.01)
