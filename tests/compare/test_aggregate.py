"""Aggregate performance over many tasks (benchtrust.compare.aggregate; Agarwal et al. 2021, §4.3)."""

import json

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust._words import GAMMA, TIMES
from benchtrust.compare import AggregateResult, aggregate, bundled_results, read_task_scores

ATARI = {"direction": "higher", "method_column": "algorithm", "task_column": "game"}

#: Published in shared/data/compare/README.md: IQM and optimality gap of human-normalised Atari 100k scores.
IQM_FACTS = {
    "DER": 0.1832,
    "DrQ": 0.2236,
    "DrQ(eps)": 0.2796,
    "OTRainbow": 0.1167,
    "SPR": 0.3366,
    "CURL": 0.1124,
    "SimPLe": 0.1296,
}
GAP_FACTS = {"DER": 0.6975, "SPR": 0.5773}


@pytest.fixture(scope="module")
def atari_frame():
    return pd.read_csv(bundled_results("atari100k"))


@pytest.fixture(scope="module")
def reference():
    return pd.read_csv(bundled_results("atari_reference"))


@pytest.fixture(scope="module")
def atari_scores():
    return read_task_scores(
        bundled_results("atari100k"),
        normalise="reference",
        reference=bundled_results("atari_reference"),
        **ATARI,
    )


@pytest.fixture(scope="module")
def atari(atari_scores):
    return aggregate(atari_scores)


def by_method(result, field):
    return dict(zip(result.methods, getattr(result, field), strict=True))


def test_atari_iqm_published(atari):
    iqm = by_method(atari, "iqm")
    assert {method: round(float(value), 4) for method, value in iqm.items()} == IQM_FACTS


def test_atari_optimality_gap_published(atari):
    gap = by_method(atari, "optimality_gap")
    assert {method: round(float(gap[method]), 4) for method in GAP_FACTS} == GAP_FACTS
    assert atari.gamma == 1.0


def test_atari_from_first_principles(atari, atari_frame, reference):
    """The same numbers from the definitions, without benchtrust's reader or scipy."""
    ref = reference.set_index("game")
    frame = atari_frame.assign(
        normalised=(atari_frame.score - atari_frame.game.map(ref.random))
        / (atari_frame.game.map(ref.human) - atari_frame.game.map(ref.random))
    )
    for method, group in frame.groupby("algorithm"):
        x = np.sort(group.normalised.to_numpy())
        cut = len(x) // 4  # the middle 50%: 2600 runs -> 650 cut each end; SimPLe's 130 -> 32
        i = atari.methods.index(method)
        assert atari.iqm[i] == pytest.approx(x[cut : len(x) - cut].mean(), rel=1e-12)
        assert atari.optimality_gap[i] == pytest.approx(np.mean(np.maximum(0, 1 - x)), rel=1e-12)
        task_means = group.groupby("game").normalised.mean()
        assert atari.mean[i] == pytest.approx(task_means.mean(), rel=1e-12)
        assert atari.median[i] == pytest.approx(task_means.median(), rel=1e-12)
        assert atari.runs[i] == len(x)


def test_atari_verdict_and_outputs(atari):
    assert atari.leaders == ("SPR",)
    assert atari.rank[atari.methods.index("SPR")] == 1
    assert atari.rank[atari.methods.index("CURL")] == 7
    assert atari.verdict.startswith(
        "SPR leads on the IQM of the human-normalised scores: 0.3366, against 0.2796"
    )
    assert "intervals" in atari.verdict and "later step" in atari.verdict
    text = " ".join(str(atari).split())
    assert f"optimality gap = mean of max(0, {GAMMA} - score), {GAMMA} = 1" in text
    assert text.endswith(atari.verdict)
    frame = atari.to_frame()
    assert list(frame.columns) == ["method", "runs", "mean", "median", "iqm", "optimality_gap", "rank"]
    assert frame.method.tolist()[:2] == ["SPR", "DrQ(eps)"] and frame["rank"].tolist() == list(range(1, 8))
    data = json.loads(json.dumps(atari.to_dict()))
    assert data["leaders"] == ["SPR"] and data["methods"][0]["method"] == "SPR"
    assert round(data["methods"][0]["iqm"], 4) == 0.3366
    assert "AggregateResult(methods=7, tasks=26" in repr(atari)
    html = atari._repr_html_()
    assert "SPR leads on the IQM" in html and "DrQ(eps)" in html


def test_direction_flip_gives_the_same_ranking(atari_frame):
    higher = aggregate(read_task_scores(atari_frame, **ATARI))
    negated = atari_frame.assign(score=-atari_frame.score)
    lower = aggregate(read_task_scores(negated, **{**ATARI, "direction": "lower"}))
    np.testing.assert_array_equal(higher.rank, lower.rank)
    np.testing.assert_allclose(lower.iqm, -higher.iqm, rtol=1e-12)
    np.testing.assert_allclose(lower.median, -higher.median, rtol=1e-12)
    assert higher.leaders == lower.leaders
    assert np.isnan(higher.optimality_gap).all() and higher.gamma is None  # raw scores: no target


def test_direction_flip_with_minmax_gives_the_same_gap(atari_frame):
    higher = aggregate(read_task_scores(atari_frame, normalise="minmax", **ATARI))
    negated = atari_frame.assign(score=-atari_frame.score)
    lower = aggregate(read_task_scores(negated, normalise="minmax", **{**ATARI, "direction": "lower"}))
    assert (higher.gamma, lower.gamma) == (1.0, 0.0)
    np.testing.assert_array_equal(higher.rank, lower.rank)
    np.testing.assert_allclose(lower.optimality_gap, higher.optimality_gap, rtol=1e-12)
    np.testing.assert_allclose(lower.iqm, 1 - higher.iqm, rtol=1e-12)


def test_task_and_row_order_do_not_matter(atari_frame, reference, atari):
    order = atari_frame.game.unique()[::-1]
    reordered = atari_frame.assign(game=pd.Categorical(atari_frame.game, categories=order, ordered=True))
    reordered = reordered.sort_values(["game", "algorithm"], kind="stable").sample(frac=1.0, random_state=1)
    reordered = reordered.assign(game=reordered.game.astype(str))
    scores = read_task_scores(reordered, normalise="reference", reference=reference.iloc[::-1], **ATARI)
    again = aggregate(scores)
    for field in ("mean", "median", "iqm", "optimality_gap", "rank"):
        expected = by_method(atari, field)
        for method, value in by_method(again, field).items():
            assert value == pytest.approx(expected[method], rel=1e-12), (field, method)


def test_one_task():
    frame = pd.DataFrame(
        {
            "method": ["A"] * 4 + ["B"] * 4,
            "task": "only",
            "run": [1, 2, 3, 4] * 2,
            "score": [1, 2, 3, 4, 2, 3, 4, 9],
        }
    )
    result = aggregate(read_task_scores(frame, direction="higher"))
    assert result.tasks == 1
    assert result.iqm.tolist() == [2.5, 3.5]
    assert result.median.tolist() == [2.5, 4.5]  # the median of one task's mean is that mean
    assert result.leaders == ("B",)


def test_one_method():
    frame = pd.DataFrame({"method": "A", "task": ["x", "y"], "run": 1, "score": [1.0, 2.0]})
    result = aggregate(read_task_scores(frame, direction="higher"), gamma=1.5)
    assert result.verdict.startswith("One method, A:")
    assert result.optimality_gap.tolist() == [0.25]  # mean of max(0, 1.5 - x) over 1 and 2


def test_ties_share_the_lead():
    frame = pd.DataFrame(
        {
            "method": ["A", "A", "B", "B", "C", "C"],
            "task": ["x", "y"] * 3,
            "run": 1,
            "score": [1.0, 2.0, 2.0, 1.0, 0.0, 0.5],
        }
    )
    result = aggregate(read_task_scores(frame, direction="higher"))
    assert result.rank.tolist() == [1, 1, 3]
    assert result.leaders == ("A", "B")
    assert result.verdict.startswith("A and B tie for the lead on the IQM of the scores: 1.5")
    lower = aggregate(read_task_scores(frame, direction="lower"))
    assert lower.leaders == ("C",) and lower.rank.tolist() == [2, 2, 1]
    same = aggregate(read_task_scores(frame.assign(score=1.0), direction="higher"))
    assert same.verdict.startswith("All 3 methods tie")


def test_missing_runs_keep_the_runs_each_method_has(atari_frame, reference):
    dropped = atari_frame.drop(atari_frame.index[:50])  # DER, Alien: runs 1-50 dropped
    scores = read_task_scores(dropped, normalise="reference", reference=reference, **ATARI)
    result = aggregate(scores)
    assert result.missing == 1 and f"1 method {TIMES} task pairs have missing runs" in result.verdict
    der = scores.scores[0]
    assert result.runs[0] == 2550
    assert result.mean[0] == pytest.approx(
        np.nanmean(der, axis=1).mean(), rel=1e-12
    )  # every task counts once
    x = np.sort(der[~np.isnan(der)])
    assert result.iqm[0] == pytest.approx(x[637:-637].mean(), rel=1e-12)  # pooled: ⌊2550/4⌋ = 637


def test_gamma_argument_and_errors(atari_scores):
    result = aggregate(atari_scores, gamma=0.5)
    assert result.gamma == 0.5
    assert (result.optimality_gap < by_method(aggregate(atari_scores), "optimality_gap")["DER"]).all()
    with pytest.raises(InputError, match=r"gamma: expected a number, got 'one'"):
        aggregate(atari_scores, gamma="one")
    with pytest.raises(
        InputError, match=r"scores: expected TaskScores \(from benchtrust.compare.read_task_scores\)"
    ):
        aggregate(pd.DataFrame({"score": [1.0]}))


def test_raw_scores_have_no_gap_unless_gamma_is_given():
    frame = pd.DataFrame({"method": ["A", "B"], "task": "x", "run": 1, "score": [1.0, 2.0]})
    result = aggregate(read_task_scores(frame, direction="higher"))
    assert isinstance(result, AggregateResult)
    assert result.gamma is None and result.to_dict()["methods"][0]["optimality_gap"] is None
    assert "optimality gap not computed" in str(result)


def test_html_escapes_method_names():
    frame = pd.DataFrame({"method": ["<b>A</b>", "B"], "task": "x", "run": 1, "score": [1.0, 2.0]})
    html = aggregate(read_task_scores(frame, direction="higher"))._repr_html_()
    assert "<b>A</b>" not in html and "&lt;b&gt;A&lt;/b&gt;" in html
