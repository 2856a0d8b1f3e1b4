"""sota's results explain themselves: the decisions their verdicts rest on, their tables (``to_frame``),
their HTML sections (``_repr_html_``, escaping what came from the user) and one interval type."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

import benchtrust.sota
from benchtrust import Interval
from benchtrust._html import section_html
from benchtrust.sota import (
    SotaEstimate,
    best_of,
    best_of_auc,
    leaderboard,
    read_leaderboard,
    simulate_best_of,
)

HOSTILE = '<b>"Ben & Jerry\'s"</b>'
ESCAPED = "&lt;b&gt;&#34;Ben &amp; Jerry&#39;s&#34;&lt;/b&gt;"

#: Twenty teams on 500 items: the top is within the luck of the others.
TWENTY = [0.862, 0.858, 0.856, 0.854, 0.85, 0.85, 0.848, 0.846, 0.844, 0.84]
TWENTY += [0.838, 0.836, 0.83, 0.828, 0.82, 0.81, 0.8, 0.79, 0.75, 0.7]
#: Cassava (§5.1.2): one team far above thirteen others, on 300 items.
LONE = [k / 300 for k in [*range(222, 235), 264]]


@pytest.fixture(scope="module")
def twenty():
    return leaderboard(TWENTY, test_size=500, direction="higher", correlation=0)


@pytest.fixture(scope="module")
def lone():
    return leaderboard(LONE, test_size=300, direction="higher", correlation=0)


# --- one interval type ------------------------------------------------------------------------------------


def test_every_interval_of_a_result_is_an_interval(twenty):
    results = [
        best_of(0.9, classifiers=10, test_size=100),
        simulate_best_of(0.9, classifiers=10, test_size=100, simulations=200, seed=1),
        best_of_auc(0.8, classifiers=5, test_size=100, positives=10, simulations=50, seed=1),
    ]
    for result in results:
        assert type(result.ci) is Interval and result.ci.low <= result.ci.high
    assert type(twenty.naive_ci) is Interval
    for estimate in (twenty.plugin, twenty.cropped, twenty.conservative):
        assert type(estimate) is SotaEstimate and type(estimate.ci) is Interval
    # JSON stays a two-element list
    assert twenty.to_dict()["plugin"]["ci"] == list(twenty.plugin.ci)


def test_the_estimate_class_has_one_name():
    assert "SotaEstimate" in benchtrust.sota.__all__
    assert "Estimate" not in benchtrust.sota.__all__ and not hasattr(benchtrust.sota, "Estimate")


# --- the decisions the verdict rests on --------------------------------------------------------------------


def test_a_top_within_luck_is_an_optimistic_estimate(twenty):
    assert twenty.plugin.expected_max - twenty.observed_max >= 0.5e-4
    assert twenty.plugin.ci[0] <= twenty.observed_max
    assert twenty.top_reading == "optimistic" and not twenty.stands_out
    assert twenty.verdict.startswith("The observed best 0.8620 is within the range that luck alone produces")
    assert twenty.cropped.sota < twenty.observed_max
    assert f"A sober state of the art is {twenty.cropped.sota:.4f}" in twenty.verdict


def test_a_top_below_the_plugin_interval_is_luck():
    result = leaderboard(
        [k / 500 for k in range(420, 426) for _ in range(10)],
        test_size=500,
        direction="higher",
        correlation=0,
    )
    assert result.plugin.ci[0] > result.observed_max
    assert result.top_reading == "luck" and not result.stands_out
    assert "not evidence of a better method" in result.verdict


def test_a_lone_top_stands_out(lone):
    assert lone.top_reading == "stands out" and lone.stands_out
    first, *rest = lone.verdict.split("\n\n")
    assert first == (
        "The observed best 0.8800 stands out from the other teams: if every team's true accuracy were its "
        "score, the best would be expected at 0.8800, the observed best itself. Multiplicity does not "
        "explain it."
    )
    # E(best) is a hair above the observed best: the crop keeps the lone top as the state of the art, and
    # no sober state of the art follows that would call its lead luck
    assert lone.cropped.sota == lone.observed_max
    assert rest == []


def test_a_lone_auc_top_stands_out_and_is_its_own_crop():
    """AUC: one team far above the rest; leaving it out brings the expected best far below it."""
    scores = [0.70, 0.71, 0.72, 0.70, 0.69, 0.73, 0.72, 0.71, 0.70, 0.95]
    result = leaderboard(
        scores, test_size=600, direction="higher", metric="auc", positives=60, resamples=50, seed=1
    )
    assert abs(result.plugin.expected_max - result.observed_max) < 0.5e-4
    assert result.stands_out
    assert result.cropped.sota == result.observed_max and result.cropped.teams_above == 0
    assert "Multiplicity does not explain it." in result.verdict


def test_the_words_follow_the_decision_not_the_numbers(lone):
    """The verdict reads the decision off the result: change the decision, and the words change."""
    lower = dataclasses.replace(lone.plugin, expected_max=lone.observed_max - 0.01)
    changed = dataclasses.replace(lone, plugin=lower)
    assert changed.stands_out
    assert "below the observed best" in changed.verdict
    higher = dataclasses.replace(lone.plugin, expected_max=lone.observed_max + 0.001)
    assert dataclasses.replace(lone, plugin=higher).top_reading == "optimistic"


def test_a_perfect_top_is_leakage_in_words_for_any_front_end():
    result = leaderboard([1.0, 0.9, 0.85, 0.8], test_size=20, direction="higher", correlation=0, resamples=0)
    assert result.top_reading == "perfect" and not result.stands_out
    assert result.verdict.startswith("1 team has a perfect score.")
    assert "Leaving out the scores above 0.999 as implausible" in result.verdict
    assert "--" not in result.verdict


def test_most_teams_left_out_by_eq_12():
    scores = np.concatenate([[198, 197], np.arange(120, 160, 2)]) / 200
    result = leaderboard(scores, test_size=200, direction="higher", correlation=0.6, resamples=0)
    dropped = max(e.dropped for e in (result.plugin, result.cropped, result.conservative))
    assert dropped > result.teams / 2
    assert result.most_teams_left_out
    assert "With correlation 0 (independent teams) every team takes part." in result.verdict
    assert "--correlation" not in result.verdict
    independent = leaderboard(scores, test_size=200, direction="higher", correlation=0, resamples=0)
    assert not independent.most_teams_left_out
    assert "most teams were left out" not in independent.verdict


def test_the_decisions_are_in_the_json(twenty, lone):
    for result in (twenty, lone):
        out = result.to_dict()
        assert out["stands_out"] is result.stands_out
        assert out["most_teams_left_out"] is result.most_teams_left_out
    assert lone.to_dict()["stands_out"] is True and twenty.to_dict()["stands_out"] is False


# --- tables out --------------------------------------------------------------------------------------------


def test_leaderboard_result_as_a_frame_is_table_3(twenty):
    frame = twenty.to_frame()
    columns = ["estimate", "sota", "expected_max", "low", "high", "teams_above", "dropped"]
    assert list(frame.columns) == columns
    assert list(frame["estimate"]) == ["no multiplicity", "plug-in", "cropping", "conservative"]
    rows = frame.set_index("estimate")
    assert rows.loc["no multiplicity", "sota"] == twenty.observed_max
    assert np.isnan(rows.loc["no multiplicity", "expected_max"])
    assert tuple(rows.loc["no multiplicity", ["low", "high"]]) == twenty.naive_ci
    for name, estimate in (("plug-in", twenty.plugin), ("cropping", twenty.cropped)):
        assert rows.loc[name, "sota"] == estimate.sota
        assert rows.loc[name, "expected_max"] == estimate.expected_max
        assert tuple(rows.loc[name, ["low", "high"]]) == estimate.ci
        assert rows.loc[name, "teams_above"] == estimate.teams_above
    assert rows.loc["cropping", "teams_above"] == np.count_nonzero(twenty.scores > twenty.cropped.sota) > 0
    assert frame["teams_above"].dtype.kind == "i"


def test_best_of_result_as_a_frame_is_its_distribution():
    result = best_of(0.5, classifiers=100, test_size=20)
    frame = result.to_frame()
    assert list(frame.columns) == ["score", "pmf", "cdf"]
    np.testing.assert_array_equal(frame["score"], result.score)
    np.testing.assert_allclose(frame["cdf"], np.cumsum(frame["pmf"]), atol=1e-12)
    assert frame["score"].is_monotonic_increasing
    assert (frame["pmf"] * frame["score"]).sum() == pytest.approx(result.expected_max)


def test_leaderboard_as_a_frame_holds_the_kept_scores():
    table = pd.DataFrame({"TeamId": [1, 1, 2, 3], "Score": [0.7, 0.8, 0.75, 1.0]})
    board = read_leaderboard(table, direction="higher", max_plausible=0.999)
    frame = board.to_frame()
    assert list(frame.columns) == ["score"]
    assert frame["score"].tolist() == [0.8, 0.75]


# --- HTML for a notebook -----------------------------------------------------------------------------------


def test_best_of_in_a_notebook_is_its_report_section():
    result = best_of(0.9, classifiers=1000, test_size=3000)
    html = result._repr_html_()
    assert html == section_html(result.section())
    assert html.startswith('<div class="benchtrust">') and "<svg" in html
    assert "expected at 0.9173" in html


def test_an_auc_best_of_has_no_figure():
    result = best_of_auc(0.8, classifiers=5, test_size=100, positives=10, simulations=50, seed=1)
    assert result.section().figure_svg is None
    assert "<svg" not in result._repr_html_()


def test_leaderboard_in_a_notebook_is_its_report_section(twenty):
    html = twenty._repr_html_()
    assert html == section_html(twenty.section())
    assert "<svg" in html and f"A sober state of the art is {twenty.cropped.sota:.4f}" in html


def test_user_strings_are_escaped(twenty):
    board = dataclasses.replace(twenty, inputs=(f"{HOSTILE}.csv",), top_teams=((HOSTILE, "0.862"),))
    shown = dataclasses.replace(best_of([0.8, 0.9], test_size=100), inputs=(HOSTILE,))
    for result in (board, shown):
        assert HOSTILE in str(result)  # the text names the file as given
        html = result._repr_html_()
        assert ESCAPED in html
        assert HOSTILE not in html
